"""A game between two devices through the peer messages, in one process: the
handshake, a whole game, hostile messages and the guest's after-game check."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from cribbage import Game, peersession
from cribbage.peer import MAX_MESSAGE, check_fair_deal, commitment, message, shared_seed
from cribbage.protocol import Session


@pytest.fixture(autouse=True)
def repeatable_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both sides' random bytes (and so every deal) from a fixed generator: each test
    plays the same game on every run."""
    source = random.Random(2)
    monkeypatch.setattr(peersession.secrets, "token_bytes", lambda n: source.randbytes(n))
    monkeypatch.setattr(peersession.secrets, "token_hex", lambda n: source.randbytes(n).hex())


def call(session: Session, name: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
    reply = json.loads(session.call(name, json.dumps(payload or {})))
    assert reply["ok"], reply
    result: dict[str, Any] = reply["result"]
    return result


class Pair:
    """A host and a guest joined by a wire that delivers every reply."""

    def __init__(self, rules: dict[str, Any] | None = None) -> None:
        self.host, self.guest = Session(), Session()
        self.game_id = call(self.host, "peer_host", {"rules": rules or {"target": 61}})["game"]
        self.verdict: list[str] | None = None
        self.reported: list[str] | None = None  # the guest's check, as the host heard it
        self.guest_view: dict[str, Any] | None = None
        self.refused: list[dict[str, Any]] = []
        self.to_host([call(self.guest, "peer_guest", {"game": self.game_id})["message"]])

    def to_host(self, texts: list[str]) -> None:
        for text in texts:
            answer = call(self.host, "peer_receive", {"text": text})
            if answer["refused"]:
                self.refused.append(answer["refused"])
            if answer["verdict"] is not None:
                self.reported = answer["verdict"]
            self.to_guest(answer["replies"])

    def to_guest(self, texts: list[str]) -> None:
        for text in texts:
            answer = call(self.guest, "peer_receive", {"text": text})
            if answer["refused"]:
                self.refused.append(answer["refused"])
            if answer["update"] is not None:
                self.guest_view = answer["update"]["view"]
            if answer["verdict"] is not None:
                self.verdict = answer["verdict"]
            self.to_host(answer["replies"])

    @property
    def game(self) -> Game:
        assert self.host.game is not None
        return self.host.game

    def play_out(self, chooser: random.Random, moves: int = 10_000,
                 prefer: tuple[str, ...] = ()) -> None:
        """Both sides move until the game ends: the host as a computer, the guest by
        picking from its view's legal moves (``prefer``'s first, when legal) and
        sending them as messages."""
        for _ in range(moves):
            if self.game.is_over:
                return
            if self.game.current_player == 0:
                call(self.host, "computer_move", {"level": "easy"})
                self.to_guest(call(self.host, "peer_outbox")["messages"])
            else:
                assert self.guest_view is not None
                legal = self.guest_view["legal_moves"]
                move = next((move for move in prefer if move in legal), None) or chooser.choice(
                    legal)
                self.to_host([call(self.guest, "peer_move", {"move": move})["message"]])


def test_a_whole_game_between_two_sessions_ends_with_the_deal_verified() -> None:
    pair = Pair({"target": 61, "manual_counting": True, "muggins": True})
    pair.play_out(random.Random(4))
    assert pair.game.is_over and not pair.refused
    assert pair.verdict == []  # the guest's own engine replayed it: fair
    assert pair.reported == []  # and told the host so
    seed = pair.game.setup["seed"]
    guest = pair.guest.peer
    host = pair.host.peer
    assert guest is not None and host is not None
    assert seed == shared_seed(host.host_bytes, guest.guest_bytes)  # type: ignore[union-attr]
    assert pair.guest_view is not None and pair.guest_view["outcome"] is not None


def passing_adds_no_event(game: Game) -> bool:
    """Whether accepting the claim in ``game`` (on a copy) leaves the events as they are."""
    copy = Game.from_json(game.to_json())
    events = len(copy.events)
    copy.apply("pass")
    return len(copy.events) == events


def at_a_claim_the_guest_may_accept(games: int = 60) -> tuple[Pair, random.Random]:
    """The first of ``games`` games to reach a claim of the host's that the guest may
    accept, adding no event, or call muggins on (not every game has one)."""
    for number in range(games):
        pair = Pair({"target": 61, "manual_counting": True, "muggins": True})
        chooser = random.Random(number)
        while not pair.game.is_over:
            if (pair.game.current_player == 1 and pair.game.phase == "muggins"
                    and passing_adds_no_event(pair.game)):
                return pair, chooser
            pair.play_out(chooser, moves=1, prefer=("count 0",))
    raise AssertionError(f"none of {games} games gave the guest a claim to accept")


def test_moves_that_score_nothing_count_among_the_guests_moves() -> None:
    pair, chooser = at_a_claim_the_guest_may_accept()
    events = len(pair.game.events)
    pair.to_host([call(pair.guest, "peer_move", {"move": "pass"})["message"]])
    assert len(pair.game.events) == events  # accepting a claim adds no event...
    assert pair.guest.peer.moves[-1] == "pass"  # type: ignore[union-attr]  # ...but is a move
    pair.play_out(chooser, prefer=("count 0", "pass"))
    assert pair.game.is_over and pair.verdict == [] and pair.reported == []


def messages_to_guest(pair: Pair) -> list[str]:
    """A list that fills with every message the host sends the guest from now on."""
    sent: list[str] = []
    original = pair.to_guest

    def spy(texts: list[str]) -> None:
        sent.extend(texts)
        original(texts)

    pair.to_guest = spy  # type: ignore[method-assign]
    return sent


def test_the_guest_never_receives_the_hosts_hidden_cards() -> None:
    pair = Pair()
    sent = messages_to_guest(pair)
    chooser = random.Random(1)
    while pair.game.deal_number < 2 or pair.game.phase != "discard":
        pair.play_out(chooser, moves=1)
    dealt_to_host = {card.code for card in pair.game.hands[0]}  # deal 2, not yet shown
    view = json.loads([text for text in sent if '"kind":"update"' in text][-1])["view"]
    assert view["deal_number"] == 2 and view["hand"]
    view["events"] = [event for event in view["events"] if event["deal"] == 2]
    assert not any(f'"{code}"' in json.dumps(view) for code in dealt_to_host)


def hostile(pair: Pair, text: str) -> dict[str, Any]:
    """Send ``text`` to the host as the guest would; the game must not change."""
    before = pair.game.to_json()
    answer = call(pair.host, "peer_receive", {"text": text})
    assert pair.game.to_json() == before
    refused: dict[str, Any] = answer["refused"]
    assert answer["update"] is None and refused is not None
    assert json.loads(answer["replies"][0])["kind"] == "refused"
    return refused


def test_hostile_messages_are_refused_and_change_nothing() -> None:
    pair = Pair()
    while pair.game.current_player != 1:  # the guest cuts (seat 0 first) or discards
        pair.play_out(random.Random(2), moves=1)
    seen = len(pair.game.events)
    legal = str(pair.game.legal_moves()[0])
    game_id = pair.game_id
    move = {"v": 1, "kind": "move", "game": game_id, "move": legal, "seen": seen}
    cases = {
        "bad-version": json.dumps(move | {"v": 2}),
        "unknown-kind": json.dumps(move | {"kind": "deal_me_aces"}),
        "unexpected": message("commit", game=game_id, seat=0, rules={}, commitment="0" * 64),
        "too-large": json.dumps(move | {"move": "x" * MAX_MESSAGE}),
        "not-json": "{not json",
        "bad-field": json.dumps(move | {"seen": -1}),
        "wrong-game": json.dumps(move | {"game": "0" * 16}),
        "stale": json.dumps(move | {"seen": seen - 1}),
        "illegal-move": json.dumps(move | {"move": "play AS"}),
    }
    for reason, text in cases.items():
        assert hostile(pair, text)["reason"] == reason, reason
    hostile(pair, json.dumps(move | {"extra": True}))
    hostile(pair, json.dumps(move | {"move": "discard"}))  # no cards: not a legal move
    call(pair.host, "computer_move", {"level": "easy"})  # now seat 0 is to move...
    while pair.game.current_player == 1:
        call(pair.host, "computer_move", {"level": "easy"})
    late = move | {"seen": len(pair.game.events)}
    assert hostile(pair, json.dumps(late))["reason"] == "out-of-turn"  # ...not the guest


def test_the_guest_refuses_a_forged_update_and_asks_again() -> None:
    pair = Pair()
    assert pair.guest_view is not None
    view = dict(pair.guest_view, seat=0)  # another seat's view
    forged = json.dumps({"v": 1, "kind": "update", "game": pair.game_id, "view": view})
    answer = call(pair.guest, "peer_receive", {"text": forged})
    assert answer["refused"]["reason"] == "bad-field" and answer["update"] is None
    skipped = dict(pair.guest_view, events=[], events_total=pair.guest_view["events_total"] + 5)
    text = json.dumps({"v": 1, "kind": "update", "game": pair.game_id, "view": skipped})
    answer = call(pair.guest, "peer_receive", {"text": text})
    assert answer["refused"]["reason"] == "out-of-step"
    assert json.loads(answer["replies"][-1])["kind"] == "hello"  # resend from what I saw


def finished(seed: int = 7) -> tuple[Pair, dict[str, Any]]:
    """A finished game and what its guest saw (its record)."""
    pair = Pair()
    pair.play_out(random.Random(seed))
    assert pair.verdict == []
    record = json.loads(pair.guest.peer.record())  # type: ignore[union-attr]
    return pair, record


def check(pair: Pair, record: dict[str, Any], host_bytes: bytes, save: str) -> list[str]:
    seen = {key: record[key] for key in ("events", "held", "moves")}
    return check_fair_deal(record["commitment"], host_bytes.hex(), record["guest_bytes"],
                           save, record["seat"], seen)


def test_a_host_that_changes_its_bytes_after_committing_is_caught() -> None:
    pair, record = finished()
    host = pair.host.peer
    assert host is not None
    other = bytes(32)  # bytes other than those committed to
    assert commitment(other) != record["commitment"]
    problems = check(pair, record, other, pair.game.to_json())
    assert problems and problems[0].startswith("commitment")
    # A host that replays the game from bytes chosen later: the seed does not match.
    forged_seed = shared_seed(other, bytes.fromhex(record["guest_bytes"]))
    data = json.loads(pair.game.to_json())
    data["setup"]["seed"] = forged_seed
    data["moves"] = []
    problems = check(pair, record, host.host_bytes, json.dumps(data))  # type: ignore[union-attr]
    assert any(problem.startswith("seed") for problem in problems)


def test_a_save_that_differs_from_what_the_guest_saw_is_caught() -> None:
    pair, record = finished(3)
    host_bytes = pair.host.peer.host_bytes  # type: ignore[union-attr]
    assert check(pair, record, host_bytes, pair.game.to_json()) == []
    record["events"][5]["points"] += 1  # the guest saw another score
    assert any(p.startswith("event 6") for p in check(pair, record, host_bytes,
                                                       pair.game.to_json()))
    record = json.loads(pair.guest.peer.record())  # type: ignore[union-attr]
    deal = sorted(record["held"])[0]
    record["held"][deal] = record["held"][deal][1:] + ["JS" if "JS" not in
                                                       record["held"][deal] else "QS"]
    assert any(p.startswith(f"deal {deal}") for p in check(pair, record, host_bytes,
                                                            pair.game.to_json()))
    assert check(pair, record, host_bytes, "{}")[0].startswith("save")


@pytest.mark.parametrize("payload", [{"rules": {"players": 5}}, {"seat": 2},
                                     {"rules": {"players": 3}, "seat": 1}])
def test_a_host_sits_in_seat_0_or_1_of_two_and_in_seat_0_of_more(
        payload: dict[str, Any]) -> None:
    reply = json.loads(Session().call("peer_host", json.dumps(payload)))
    assert reply["ok"] is False and reply["error"]["kind"] == "bad-request"


def test_both_sides_resume_from_their_records() -> None:
    pair = Pair()
    chooser = random.Random(5)
    pair.play_out(chooser, moves=12)
    kept_host = call(pair.host, "peer_outbox")["record"]
    host = Session()
    resumed = call(host, "peer_host", {"record": kept_host, "save": pair.game.to_json()})
    assert resumed["update"]["events_count"] == len(pair.game.events)  # the host's table
    guest = Session()
    kept_guest = pair.guest.peer.record()  # type: ignore[union-attr]
    hello = call(guest, "peer_guest", {"record": kept_guest, "seen": 0})["message"]
    pair.host, pair.guest = host, guest
    pair.to_host([hello])  # the whole view again, its events the same as those seen
    assert not pair.refused
    pair.play_out(chooser)
    assert pair.verdict == []


def test_a_guest_that_leaves_resigns_and_the_game_is_revealed_and_checked() -> None:
    pair = Pair()
    pair.play_out(random.Random(6), moves=9)
    assert pair.verdict is None and not pair.game.is_over
    checked = message("checked", game=pair.game_id, problems=[])
    assert call(pair.host, "peer_receive", {"text": checked})["refused"]["reason"] == "bad-order"
    pair.to_host([call(pair.guest, "peer_move", {"move": "resign"})["message"]])
    assert pair.game.is_over and pair.game.setup["resigned"] == 1
    assert pair.verdict == [] and pair.reported == [] and not pair.refused


def test_a_guest_that_leaves_for_another_game_loses_this_one() -> None:
    pair = Pair()
    pair.play_out(random.Random(6), moves=9)
    left = call(pair.guest, "peer_leave")["messages"]
    assert [json.loads(text)["kind"] for text in left] == ["left"] and pair.guest.peer is None
    answer = call(pair.host, "peer_receive", {"text": left[0]})
    assert answer["left"] is True and answer["refused"] is None
    assert pair.game.is_over and pair.game.setup["resigned"] == 1
    assert answer["update"]["view"]["outcome"]["winner"] == 0  # the host's table: game over


def test_a_host_that_leaves_loses_and_the_guest_checks_the_reveal() -> None:
    pair = Pair()
    pair.play_out(random.Random(8), moves=9)
    left = call(pair.host, "peer_leave")["messages"]
    assert [json.loads(text)["kind"] for text in left] == ["left", "update", "reveal"]
    assert pair.game.is_over and pair.game.setup["resigned"] == 0 and pair.host.peer is None
    answer = call(pair.guest, "peer_receive", {"text": left[0]})
    assert answer["left"] is True and answer["update"] is None
    update, reveal = (call(pair.guest, "peer_receive", {"text": text}) for text in left[1:])
    assert update["update"]["view"]["outcome"]["winner"] == 1  # the guest's table: game over
    assert reveal["verdict"] == []  # the leaving host's reveal is checked all the same


def test_a_host_that_leaves_a_finished_game_reveals_nothing_again() -> None:
    pair, _ = finished()
    assert [json.loads(text)["kind"] for text in call(pair.host, "peer_leave")["messages"]] == [
        "left"]


def test_the_commitment_is_the_sha256_of_the_bytes() -> None:
    assert commitment(b"\x01" * 32) == hashlib.sha256(b"\x01" * 32).hexdigest()


def cut(save: str, k: int) -> str:
    """The host's save without its last ``k`` moves: a game that replays, stopped short."""
    data = json.loads(save)
    data["moves"] = data["moves"][:-k]
    return json.dumps(data)


def test_a_save_with_its_last_moves_cut_off_is_refused() -> None:
    pair, record = finished(3)
    host_bytes = pair.host.peer.host_bytes  # type: ignore[union-attr]
    save = pair.game.to_json()
    moves = len(json.loads(save)["moves"])
    seen = len(record["events"])
    assert seen == len(pair.game.events) and check(pair, record, host_bytes, save) == []
    for k in (1, 2, 3, 5, 8, moves // 2, moves - 1):
        shorter = cut(save, k)
        replayed = len(Game.from_json(shorter).events)
        assert replayed < seen, k
        problems = check(pair, record, host_bytes, shorter)
        assert f"events: you saw {seen} events, the save has {replayed}" in problems, k


def test_the_guest_refuses_a_reveal_whose_save_stops_short() -> None:
    pair, record = finished(3)
    host = pair.host.peer
    assert host is not None
    shorter = cut(pair.game.to_json(), 1)
    reveal = message("reveal", game=pair.game_id,
                     host_bytes=host.host_bytes.hex(),  # type: ignore[union-attr]
                     save=shorter)
    answer = call(pair.guest, "peer_receive", {"text": reveal})
    problem = (f"events: you saw {len(record['events'])} events, the save has "
               f"{len(Game.from_json(shorter).events)}")
    assert problem in answer["verdict"]
    checked = json.loads(answer["replies"][-1])
    assert checked["kind"] == "checked" and problem in checked["problems"]  # the host is told


# --- a rematch -----------------------------------------------------------------------


def from_host(pair: Pair, text: str) -> dict[str, Any]:
    """The guest takes one of the host's messages; its replies go back over the wire."""
    answer = call(pair.guest, "peer_receive", {"text": text})
    if answer["update"] is not None:
        pair.guest_view = answer["update"]["view"]
    pair.to_host(answer["replies"])
    return answer


def test_a_rematch_deals_a_new_game_from_a_new_commitment_and_keeps_the_match() -> None:
    pair, _ = finished(7)
    first = pair.game
    winner = first.outcome.winner  # type: ignore[union-attr]
    old_record = json.loads(pair.guest.peer.record())  # type: ignore[union-attr]
    assert pair.reported == []  # the first game's reveal was checked
    offer = call(pair.host, "peer_rematch")
    assert [json.loads(text)["kind"] for text in offer["messages"]] == ["rematch"]
    asked = call(pair.guest, "peer_receive", {"text": offer["messages"][0]})
    assert asked["rematch"] == "asked" and asked["replies"] == []
    accept = call(pair.guest, "peer_rematch")  # the guest accepts: the host deals anew
    assert [json.loads(text)["kind"] for text in accept["messages"]] == ["rematch-accept"]
    original = pair.to_guest
    sent = messages_to_guest(pair)
    pair.to_host(accept["messages"])
    second = pair.game
    host, guest = pair.host.peer, pair.guest.peer
    assert isinstance(host, peersession.Host) and isinstance(guest, peersession.Guest)
    assert second is not first and not second.is_over and not pair.refused
    assert host.game_id == guest.game_id != pair.game_id  # a new game id...
    assert guest.commitment == commitment(host.host_bytes) != old_record["commitment"]
    assert guest.guest_bytes and guest.guest_bytes.hex() != old_record["guest_bytes"]
    assert second.setup["seed"] == shared_seed(host.host_bytes, guest.guest_bytes)
    assert second.rules == first.rules and second.setup["first_dealer"] is None  # cut

    expected = [int(seat == winner) for seat in (0, 1)]
    assert call(pair.host, "peer_outbox")["match"] == expected == guest.tally()
    assert json.loads(host.record())["match"] == expected == json.loads(guest.record())["match"]
    # The guest still never holds the host's hidden cards.
    view = json.loads([text for text in sent if '"kind":"update"' in text][-1])["view"]
    assert not any(f'"{card.code}"' in json.dumps(view) for card in second.hands[0])
    pair.to_guest = original  # type: ignore[method-assign]

    # The second game, then a rematch the guest offers and the host accepts.
    pair.verdict = pair.reported = None
    pair.play_out(random.Random(9))
    assert pair.verdict == [] and pair.reported == []  # the new reveal checks as the first
    offer = call(pair.guest, "peer_rematch")["messages"]
    asked = call(pair.host, "peer_receive", {"text": offer[0]})
    assert asked["rematch"] == "asked"
    accept = call(pair.host, "peer_rematch")
    assert [json.loads(text)["kind"] for text in accept["messages"]] == [
        "rematch-accept", "commit"]
    assert second.is_over and accept["game"] != host.game_id
    answers = [from_host(pair, text) for text in accept["messages"]]
    assert answers[0]["rematch"] == "accepted" and answers[1]["game"] == accept["game"]
    assert sum(pair.guest.peer.tally()) == 2
    assert sum(call(pair.host, "peer_outbox")["match"]) == 2
    assert not pair.refused


def test_rematch_messages_out_of_order_or_malformed_are_refused() -> None:
    pair = Pair()
    pair.play_out(random.Random(6), moves=9)
    early = message("rematch", game=pair.game_id)
    assert hostile(pair, early)["reason"] == "bad-order"  # the game is not over
    reply = json.loads(pair.host.call("peer_rematch"))
    assert reply["ok"] is False and "not over" in reply["error"]["message"]
    answer = call(pair.guest, "peer_receive", {"text": early})
    assert answer["refused"]["reason"] == "bad-order" and answer["rematch"] is None

    pair, _ = finished(7)
    for text, reason in (
            (message("rematch-accept", game=pair.game_id), "bad-order"),  # nothing offered
            (message("rematch", game="0" * 16), "wrong-game"),
            (json.dumps({"v": 1, "kind": "rematch", "game": pair.game_id, "seat": 0}),
             "bad-field"),
            (json.dumps({"v": 1, "kind": "rematch"}), "bad-field")):
        before = pair.host.peer.record()  # type: ignore[union-attr]
        assert hostile(pair, text)["reason"] == reason, text
        assert pair.host.peer.record() == before  # type: ignore[union-attr]
        assert pair.host.peer.rematch is None  # type: ignore[union-attr]
    # A commitment to another game, with no rematch agreed: the guest keeps its game.
    forged = message("commit", game="1" * 16, seat=1, rules={"target": 61},
                     commitment="0" * 64)
    answer = call(pair.guest, "peer_receive", {"text": forged})
    assert answer["refused"]["reason"] == "wrong-game" and answer["game"] == pair.game_id


def test_the_match_survives_both_sides_reloading_in_the_rematch() -> None:
    pair, _ = finished(7)
    pair.to_host(call(pair.guest, "peer_rematch")["messages"])  # the guest offers...
    for text in call(pair.host, "peer_rematch")["messages"]:  # ...the host accepts
        from_host(pair, text)
    match = call(pair.host, "peer_outbox")["match"]
    assert sum(match) == 1
    pair.play_out(random.Random(3), moves=6)
    host, guest = Session(), Session()
    resumed = call(host, "peer_host", {"record": call(pair.host, "peer_outbox")["record"],
                                       "save": pair.game.to_json()})
    assert resumed["match"] == match
    joined = call(guest, "peer_guest", {"record": pair.guest.peer.record()})  # type: ignore[union-attr]
    assert joined["match"] == match


def test_a_resignation_made_while_apart_reaches_the_host_on_connecting_again() -> None:
    pair = Pair()
    pair.play_out(random.Random(6), moves=9)
    lost = call(pair.guest, "peer_move", {"move": "resign"})  # the channel is down: lost
    assert json.loads(lost["record"])["resigning"] is True and not pair.game.is_over
    guest = Session()  # the guest's page reloads, and connects again from its record
    joined = call(guest, "peer_guest", {"record": lost["record"]})
    assert [json.loads(text)["kind"] for text in joined["messages"]] == ["hello", "move"]
    pair.guest = guest
    pair.to_host(joined["messages"])
    assert pair.game.is_over and pair.game.setup["resigned"] == 1 and not pair.refused
    assert pair.verdict == [] and pair.reported == []
    assert json.loads(guest.peer.record())["resigning"] is False  # type: ignore[union-attr]
    again = call(Session(), "peer_guest", {"record": guest.peer.record()})  # type: ignore
    assert len(again["messages"]) == 1  # answered: never sent again


def test_a_host_that_resigns_while_apart_tells_the_guest_on_its_hello() -> None:
    pair = Pair()
    pair.play_out(random.Random(6), moves=9)
    call(pair.host, "resign", {"seat": 0})  # nothing reaches the guest: the channel is down
    assert pair.game.is_over and pair.verdict is None
    record = pair.guest.peer.record()  # type: ignore[union-attr]
    guest = Session()
    pair.guest = guest
    pair.to_host([call(guest, "peer_guest", {"record": record})["message"]])
    assert pair.guest_view is not None and pair.guest_view["outcome"]["winner"] == 1
    assert pair.verdict == [] and pair.reported == [] and not pair.refused


# --- three and four players: one channel per guest -----------------------------------


class Party:
    """A host and a guest per other seat, each guest on its own wire to the host; every
    message each guest receives is kept."""

    def __init__(self, players: int, rules: dict[str, Any] | None = None) -> None:
        self.host = Session()
        self.game_id = call(self.host, "peer_host",
                            {"rules": {"players": players, "target": 61, **(rules or {})}})["game"]
        self.guests = {seat: Session() for seat in range(1, players)}
        self.received: dict[int, list[str]] = {seat: [] for seat in self.guests}
        self.views: dict[int, dict[str, Any]] = {}
        self.verdicts: dict[int, list[str]] = {}
        self.reported: dict[int, list[str]] = {}
        self.refused: list[dict[str, Any]] = []
        for seat, guest in self.guests.items():  # one invitation after the other
            self.to_host(seat, [call(guest, "peer_guest", {"game": self.game_id})["message"]])

    def to_host(self, seat: int, texts: list[str]) -> None:
        for text in texts:
            answer = call(self.host, "peer_receive", {"text": text, "from": seat})
            if answer["refused"]:
                self.refused.append(answer["refused"])
            if answer["verdict"] is not None:
                self.reported[seat] = answer["verdict"]
            self.to_guest(seat, answer["replies"])
            self.fan_out(answer["others"])

    def fan_out(self, sends: dict[str, list[str]]) -> None:
        for seat, texts in sends.items():
            self.to_guest(int(seat), texts)

    def to_guest(self, seat: int, texts: list[str]) -> None:
        for text in texts:
            self.received[seat].append(text)
            answer = call(self.guests[seat], "peer_receive", {"text": text})
            if answer["refused"]:
                self.refused.append(answer["refused"])
            if answer["update"] is not None:
                self.views[seat] = answer["update"]["view"]
            if answer["verdict"] is not None:
                self.verdicts[seat] = answer["verdict"]
            self.to_host(seat, answer["replies"])

    @property
    def game(self) -> Game:
        assert self.host.game is not None
        return self.host.game

    def step(self, chooser: random.Random) -> None:
        """One move: the host's seat as a computer, a computer's seat, or a guest's pick
        from its own view's legal moves, sent as a message."""
        seat = self.game.current_player
        assert seat is not None
        host = self.host.peer
        assert isinstance(host, peersession.Host)
        if seat == 0:
            call(self.host, "computer_move", {"level": "easy"})
            self.fan_out(call(self.host, "peer_outbox")["sends"])
        elif seat in host.computers:
            self.fan_out(call(self.host, "peer_computer_move")["sends"])
        else:
            move = chooser.choice(self.views[seat]["legal_moves"])
            self.to_host(seat, [call(self.guests[seat], "peer_move", {"move": move})["message"]])

    def play_out(self, chooser: random.Random) -> None:
        while not self.game.is_over:
            self.step(chooser)


def hidden_from(game: Game, seat: int) -> set[str]:
    """The cards ``seat`` must not have been shown: other seats' hands, and the crib's
    cards but its own."""
    own = {card.code for card in game.hands[seat]}
    cards = {card.code for other, hand in enumerate(game.hands) if other != seat
             for card in hand}
    return cards | {card.code for card in game.crib} - own - discarded(game, seat)


def discarded(game: Game, seat: int) -> set[str]:
    view = game.view(seat).to_dict()
    return set(view["discards"])


def assert_nothing_hidden(party: Party) -> None:
    """Each guest's last update holds no card hidden from its seat (this deal's events)."""
    for seat in party.guests:
        update = next(json.loads(text) for text in reversed(party.received[seat])
                      if '"kind":"update"' in text)
        view = update["view"]
        view["events"] = [event for event in view["events"]
                          if event["deal"] == party.game.deal_number]
        text = json.dumps(view)
        leaked = [code for code in hidden_from(party.game, seat) if f'"{code}"' in text]
        assert not leaked, (seat, leaked)


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_players_play_to_the_end_and_every_guest_verifies(
        players: int) -> None:
    party = Party(players)
    assert party.game.players == players  # dealt once every guest's bytes were in
    host = party.host.peer
    assert isinstance(host, peersession.Host)
    guest_bytes = [party.guests[seat].peer.guest_bytes  # type: ignore[union-attr]
                   for seat in sorted(party.guests)]
    assert party.game.setup["seed"] == shared_seed(host.host_bytes, *guest_bytes)
    chooser = random.Random(players)
    while not party.game.is_over:
        if party.game.phase in ("discard", "play"):  # cards are held
            assert_nothing_hidden(party)
        party.step(chooser)
    assert not party.refused
    assert party.verdicts == dict.fromkeys(party.guests, [])  # each guest's engine: fair
    assert party.reported == dict.fromkeys(party.guests, [])  # and each told the host
    teams = 2 if players == 4 else players
    assert len(call(party.host, "peer_outbox")["match"]) == teams
    for seat in party.guests:  # each guest saw its own seat, and the same end
        assert party.views[seat]["seat"] == seat
        assert party.views[seat]["outcome"]["winner"] == party.game.outcome.winner  # type: ignore


def test_a_guest_never_receives_another_seats_hidden_cards() -> None:
    party = Party(4)
    chooser = random.Random(5)
    while party.game.deal_number < 2 or party.game.phase != "discard":
        party.step(chooser)
    for seat in party.guests:  # deal 2, nothing of it shown yet but each seat's own hand
        others = hidden_from(party.game, seat)
        updates = [json.loads(text)["view"] for text in party.received[seat]
                   if '"kind":"update"' in text]
        view = updates[-1]
        assert view["deal_number"] == 2 and view["seat"] == seat and len(view["hand"]) == 5
        view["events"] = [event for event in view["events"] if event["deal"] == 2]
        assert not any(f'"{code}"' in json.dumps(view) for code in others), seat


def test_hostile_messages_from_a_guest_are_refused_and_change_nothing() -> None:
    party = Party(3)
    chooser = random.Random(6)
    while party.game.current_player != 1:
        party.step(chooser)
    seen = len(party.game.events)
    legal = str(party.game.legal_moves()[0])
    move = {"v": 1, "kind": "move", "game": party.game_id, "move": legal, "seen": seen}

    def hostile(seat: object, text: str) -> str:
        before = party.game.to_json()
        answer = call(party.host, "peer_receive", {"text": text, "from": seat})
        assert party.game.to_json() == before and answer["update"] is None
        assert answer["others"] == {}  # no other guest is told anything
        reason: str = answer["refused"]["reason"]
        return reason

    assert hostile(2, json.dumps(move)) == "out-of-turn"  # seat 2 moving for seat 1
    assert hostile(5, json.dumps(move)) == "bad-field"  # no such guest seat
    assert hostile(None, json.dumps(move)) == "bad-field"  # no seat named
    assert hostile(1, json.dumps(move | {"seen": "3"})) == "bad-field"
    assert hostile(1, json.dumps(move | {"move": "play AS"})) == "illegal-move"
    assert hostile(1, json.dumps(move | {"seen": seen - 1})) == "stale"
    entropy = message("entropy", game=party.game_id, bytes="ab" * 32)
    assert hostile(2, entropy) == "bad-order"  # the cards are dealt: no new bytes
    reveal = message("reveal", game=party.game_id, host_bytes="00" * 32, save="{}")
    assert hostile(1, reveal) == "unexpected"
    party.to_host(1, [json.dumps(move)])  # the right seat's move is taken
    assert len(party.game.events) > seen or party.game.current_player != 1


def test_the_deal_waits_for_every_guests_pledge_then_bytes() -> None:
    host = Session()
    game_id = call(host, "peer_host", {"rules": {"players": 3}})["game"]
    commits = []
    for seat in (1, 2):
        hello = call(Session(), "peer_guest", {"game": game_id})["message"]
        answer = call(host, "peer_receive", {"text": hello, "from": seat})
        commits.append(json.loads(answer["replies"][0]))
    assert [commit["seat"] for commit in commits] == [1, 2]
    assert commits[0]["commitment"] == commits[1]["commitment"]

    def send(seat: int, kind: str, **fields: Any) -> dict[str, Any]:
        return call(host, "peer_receive", {"text": message(kind, game=game_id, **fields),
                                           "from": seat})

    ones, twos, threes = (bytes.fromhex(digit * 64) for digit in "123")
    early = send(1, "entropy", bytes=ones.hex())  # bytes before every guest pledged
    assert early["refused"]["reason"] == "bad-order"
    assert send(1, "pledge", commitment=commitment(ones))["replies"] == []  # guest 2 to come
    assert send(1, "pledge", commitment=commitment(ones))["refused"] is None  # again: nothing
    other = send(1, "pledge", commitment=commitment(twos))  # another pledge: refused
    assert other["refused"]["reason"] == "bad-order"
    last = send(2, "pledge", commitment=commitment(threes))  # every guest hears them all
    pledges = [commitment(ones), commitment(threes)]
    assert json.loads(last["replies"][0])["guests"] == pledges
    assert json.loads(last["others"]["1"][0])["guests"] == pledges
    assert send(1, "entropy", bytes=twos.hex())["refused"]["reason"] == "bad-field"  # unpledged
    assert send(1, "entropy", bytes=ones.hex())["refused"] is None and host.game is None
    assert send(1, "entropy", bytes=ones.hex())["refused"] is None and host.game is None
    dealt = send(2, "entropy", bytes=threes.hex())
    assert host.game is not None and dealt["update"] is not None
    assert json.loads(dealt["replies"][0])["view"]["seat"] == 2
    assert json.loads(dealt["others"]["1"][0])["view"]["seat"] == 1
    assert host.game.setup["seed"] == shared_seed(host.peer.host_bytes,  # type: ignore
                                                  ones, threes)


def test_a_guest_of_three_pledges_before_it_sends_its_bytes() -> None:
    guest = Session()
    call(guest, "peer_guest", {"game": "00ff00ff00ff00ff"})
    commit = message("commit", game="00ff00ff00ff00ff", seat=1, rules={"players": 3},
                     commitment="ab" * 32)
    pledge = json.loads(call(guest, "peer_receive", {"text": commit})["replies"][0])
    assert pledge["kind"] == "pledge"  # its bytes' hash, not the bytes
    mine = pledge["commitment"]
    wrong = message("pledges", game="00ff00ff00ff00ff", guests=["cd" * 32, "ef" * 32])
    answer = call(guest, "peer_receive", {"text": wrong})  # the list leaves its pledge out
    assert answer["refused"]["reason"] == "bad-field" and len(answer["replies"]) == 1
    right = message("pledges", game="00ff00ff00ff00ff", guests=[mine, "ef" * 32])
    entropy = json.loads(call(guest, "peer_receive", {"text": right})["replies"][0])
    assert entropy["kind"] == "entropy" and commitment(bytes.fromhex(entropy["bytes"])) == mine


def test_a_tampered_reveal_fails_every_guests_check() -> None:
    party = Party(3)
    chooser = random.Random(8)
    while not party.game.is_over:
        party.step(chooser)
    reveals = {seat: json.loads(next(text for text in reversed(party.received[seat])
                                     if '"kind":"reveal"' in text))
               for seat in party.guests}
    assert all(reveal["guests"] == reveals[1]["guests"] for reveal in reveals.values())
    for seat, reveal in reveals.items():
        record = json.loads(party.guests[seat].peer.record())  # type: ignore[union-attr]
        seen = {key: record[key] for key in ("events", "held", "moves")}

        def verdict(guests: list[str], save: str, record: dict[str, Any] = record,
                    seen: dict[str, Any] = seen, reveal: dict[str, Any] = reveal) -> list[str]:
            return check_fair_deal(record["commitment"], reveal["host_bytes"],
                                   record["guest_bytes"], save, record["seat"], seen, guests)

        assert verdict(reveal["guests"], reveal["save"]) == []
        swapped = [reveal["guests"][1], reveal["guests"][0]]  # the seed from another order
        assert any(problem.startswith("seed") for problem in verdict(swapped, reveal["save"]))
        forged = [("00" * 32 if text == record["guest_bytes"] else text)
                  for text in reveal["guests"]]  # this guest's bytes replaced
        assert verdict(forged, reveal["save"])[0].startswith("seed")
        others = [("00" * 32 if text != record["guest_bytes"] else text)
                  for text in reveal["guests"]]  # another guest's bytes, not as pledged
        assert check_fair_deal(record["commitment"], reveal["host_bytes"],
                               record["guest_bytes"], reveal["save"], record["seat"], seen,
                               reveal["guests"], record["pledges"]) == []
        assert check_fair_deal(record["commitment"], reveal["host_bytes"],
                               record["guest_bytes"], reveal["save"], record["seat"], seen,
                               others, record["pledges"]) == [
            "seed: the revealed guests' bytes are not the ones they pledged"]
        data = json.loads(reveal["save"])
        data["moves"] = data["moves"][:-3]
        assert verdict(reveal["guests"], json.dumps(data))  # a save cut short
    short = message("reveal", game=party.game_id, host_bytes=reveals[1]["host_bytes"],
                    save=reveals[1]["save"])  # no guests' bytes: refused by a guest of three
    answer = call(party.guests[1], "peer_receive", {"text": short})
    assert answer["refused"]["reason"] == "bad-field"


def test_the_computer_takes_a_dropped_guests_seat_and_sees_only_its_view() -> None:
    party = Party(3)
    chooser = random.Random(9)
    while party.game.current_player != 2:
        party.step(chooser)
    seen_views: list[int] = []
    original = Game.view

    def spy(game: Game, seat: int) -> Any:
        seen_views.append(seat)
        return original(game, seat)

    call(party.host, "peer_computer", {"seat": 2})  # guest 2 went away
    host = party.host.peer
    assert isinstance(host, peersession.Host) and host.computers == {2}
    move = {"v": 1, "kind": "move", "game": party.game_id,
            "move": str(party.game.legal_moves()[0]), "seen": len(party.game.events)}
    answer = call(party.host, "peer_receive", {"text": json.dumps(move), "from": 2})
    assert answer["refused"]["reason"] == "out-of-turn"  # the computer plays it now
    Game.view = spy  # type: ignore[method-assign]
    try:
        computed = party.host.computer_choice("standard")
    finally:
        Game.view = original  # type: ignore[method-assign]
    assert seen_views == [2] or len(party.game.legal_moves()) == 1
    assert computed in party.game.legal_moves()
    party.play_out(chooser)  # seat 2's every move from now is the computer's
    assert party.verdicts == {1: [], 2: []}  # guest 2 still checks the reveal it is sent
    resumed = call(Session(), "peer_host", {"record": host.record(),
                                            "save": party.game.to_json()})
    assert json.loads(resumed["record"])["computers"] == [2]


def test_a_three_player_host_resumes_from_its_record_and_refuses_a_rematch() -> None:
    party = Party(3)
    chooser = random.Random(10)
    for _ in range(12):
        party.step(chooser)
    host = party.host.peer
    assert isinstance(host, peersession.Host)
    again = Session()
    call(again, "peer_host", {"record": host.record(), "save": party.game.to_json()})
    assert again.game is not None and again.game.to_json() == party.game.to_json()
    party.host = again
    party.play_out(chooser)
    assert party.verdicts == {1: [], 2: []}
    reply = json.loads(again.call("peer_rematch"))
    assert reply["ok"] is False and "two players" in reply["error"]["message"]


def test_the_other_guests_are_told_who_is_away() -> None:
    party = Party(4)
    sends = call(party.host, "peer_away", {"seats": [2]})["sends"]
    assert sorted(sends) == ["1", "3"]  # not the friend away
    for seat in (1, 3):
        answer = call(party.guests[seat], "peer_receive", {"text": sends[str(seat)][0]})
        assert answer["away"] == [2] and answer["refused"] is None
    answer = call(party.guests[2], "peer_receive", {"text": sends["1"][0]})
    assert answer["refused"]["reason"] == "bad-field"  # "you are away": not to that guest
    call(party.host, "peer_computer", {"seat": 2})
    back = call(party.host, "peer_away", {"seats": []})["sends"]
    assert sorted(back) == ["1", "3"]  # (seat 2 is the computer's now)
    assert call(party.guests[1], "peer_receive", {"text": back["1"][0]})["away"] == []
    refused = json.loads(party.host.call("peer_away", json.dumps({"seats": [0]})))
    assert refused["ok"] is False  # the host's own seat is no guest's
