"""The two sides of a game between two devices, as endpoints of a page's session.

The host's page keeps a :class:`Host` in its :class:`~cribbage.protocol.Session`
(``peer_host``); the session's game is the game, the host's seat is the
session's viewer. The guest's page keeps a :class:`Guest` (``peer_guest``):
no game, only what its seat was shown. Each page hands every message from the
channel to ``peer_receive``, which answers with the messages to send back and
what the page must show; a refused message changes nothing and is answered
with a ``refused`` message (:mod:`cribbage.peer`).

>>> from cribbage.protocol import Session
>>> host, guest = Session(), Session()
>>> game_id = result(host, "peer_host", {"rules": {"target": 61}})["game"]
>>> hello = result(guest, "peer_guest", {"game": game_id})["message"]
>>> commit = result(host, "peer_receive", {"text": hello})["replies"][0]
>>> entropy = result(guest, "peer_receive", {"text": commit})["replies"][0]
>>> started = result(host, "peer_receive", {"text": entropy})
>>> started["update"]["view"]["seat"], started["update"]["phase"]
(0, 'cut')
>>> shown = result(guest, "peer_receive", {"text": started["replies"][0]})["update"]
>>> shown["view"]["seat"], shown["save"] is None
(1, True)
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any, Protocol

from .game import Game, IllegalMoveError, Move
from .peer import (
    ENTROPY_BYTES,
    GUEST_SENDS,
    HOST_SENDS,
    REACTIONS,
    Message,
    PeerError,
    check_fair_deal,
    commitment,
    held_cards,
    message,
    parse_message,
    read_hex,
    refusal,
    shared_seed,
)
from .rules import Rules

Request = dict[str, Any]  # a call's JSON object, as cribbage.protocol names it


class Session(Protocol):
    """What these endpoints use of :class:`cribbage.protocol.Session` (named by its shape,
    so that this module does not import the protocol that imports it)."""

    game: Game | None
    peer: Host | Guest | None

    def call(self, name: str, text: str = "{}") -> str: ...

    def require_game(self) -> Game: ...

    def start(self, game: Game) -> None: ...

    def begin(self, game: Game, request: Request) -> dict[str, Any]: ...

    def update(self, game: Game, move: Move, before: int, request: Request) -> dict[str, Any]: ...

    def computer_choice(self, level: str) -> Move: ...

_VIEW_KEYS = frozenset(Game.new(seed=0).view(0).to_dict())
RECORD_FORMAT = "cribbage-peer"


def result(session: Session, name: str, payload: dict[str, Any]) -> Any:
    """A call's result (for the examples): the reply must be ``ok``."""
    reply = json.loads(session.call(name, json.dumps(payload)))
    assert reply["ok"], reply
    return reply["result"]


def new_game_id() -> str:
    return secrets.token_hex(8)


class Host:
    """The host's side: its random bytes, each guest's, and the game they dealt.

    Two players have one guest; three or four have one per other seat (the host in
    seat 0), each on its own channel. The cards are dealt once every guest's bytes
    are in (each guest is sent the commitment before it sends its bytes).
    """

    def __init__(self, game_id: str, rules: Rules, seat: int, guest_seats: list[int],
                 host_bytes: bytes, guest_bytes: dict[int, bytes] | None = None) -> None:
        self.game_id = game_id
        self.rules = rules
        self.seat = seat
        self.guest_seats = guest_seats
        self.host_bytes = host_bytes
        self.guest_bytes = dict(guest_bytes or {})
        self.pledges: dict[int, str] = {}  # three or four: each guest's sha256 of its bytes
        self.sent = dict.fromkeys(guest_seats, 0)  # events of the game each guest was sent
        self.match = [0] * rules.teams  # games won by each team before this one
        self.checked: dict[int, list[str]] = {}  # each guest's report of its check
        self.computers: set[int] = set()  # guest seats the host let the computer play
        self.rematch: str | None = None  # "offered" by this side, or "asked" by the friend

    @property
    def many(self) -> bool:
        """Whether the host has more than one guest (three or four players: the guests
        pledge their bytes, and the reveal carries them all)."""
        return len(self.guest_seats) > 1

    @property
    def dealt(self) -> bool:
        """Whether every guest's bytes are in (and so the game is dealt)."""
        return len(self.guest_bytes) == len(self.guest_seats)

    def seed(self) -> int:
        """The game's seed from the host's bytes and every guest's, in seat order."""
        return shared_seed(self.host_bytes, *(self.guest_bytes[seat]
                                              for seat in self.guest_seats))

    def record(self) -> str:
        """What the host's page keeps to resume (with the game's own save)."""
        return json.dumps({"format": RECORD_FORMAT, "role": "host", "game": self.game_id,
                           "rules": self.rules.to_dict(), "seat": self.seat,
                           "guest_seats": self.guest_seats, "host_bytes": self.host_bytes.hex(),
                           "guest_bytes": {str(seat): data.hex()
                                           for seat, data in self.guest_bytes.items()},
                           "pledges": {str(seat): text for seat, text in self.pledges.items()},
                           "computers": sorted(self.computers), "match": self.match})

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> Host:
        guest_seats = [int(seat) for seat in data["guest_seats"]]
        host = cls(data["game"], Rules.from_dict(data["rules"]), data["seat"], guest_seats,
                   read_hex(data["host_bytes"]),
                   {int(seat): read_hex(text) for seat, text in data["guest_bytes"].items()})
        if not set(host.guest_bytes) <= set(guest_seats) or host.seat in guest_seats:
            raise ValueError("the seats do not match")
        host.computers = {int(seat) for seat in data.get("computers", [])} & set(guest_seats)
        host.pledges = {int(seat): str(text) for seat, text in data.get("pledges", {}).items()}
        host.match = read_match(data.get("match", host.match), host.rules.teams)
        return host

    def guest_of(self, request: Request) -> int:
        """The guest seat whose channel a message came on (``from``; one guest: its seat)."""
        seat = request.get("from", self.guest_seats[0] if len(self.guest_seats) == 1 else None)
        if seat not in self.guest_seats:
            raise PeerError("bad-field", "the message names no guest seat of this game")
        assert isinstance(seat, int)
        return seat

    def tally(self, game: Game | None) -> list[int]:
        """Games won by each team in this match, ``game`` (this host's) counted once over."""
        if game is None or not self.dealt or game.outcome is None:
            return list(self.match)
        return won(self.match, game.outcome.winner)

    def next_game(self) -> Host:
        """The rematch: a new game id, new random bytes, the same rules and seats."""
        return Host(new_game_id(), self.rules, self.seat, self.guest_seats,
                    secrets.token_bytes(ENTROPY_BYTES))

    def update_message(self, game: Game, seat: int, events_from: int) -> str:
        """Guest ``seat``'s view, its events from ``events_from`` (never another seat's
        cards)."""
        self.sent[seat] = len(game.events)
        view = game.view(seat).to_dict(events_from)
        return message("update", game=self.game_id, view=view)

    def reveal(self, game: Game) -> str:
        """The host's bytes and the save (and every guest's bytes, for more than two)."""
        fields: dict[str, Any] = {}
        if self.many:
            fields["guests"] = [self.guest_bytes[seat].hex() for seat in self.guest_seats]
        return message("reveal", game=self.game_id, host_bytes=self.host_bytes.hex(),
                       save=game.to_json(), **fields)

    def outbox(self, game: Game, seat: int | None = None,
               events_from: int | None = None) -> list[str]:
        """Guest ``seat``'s update after a change (or a hello), and the reveal once the
        game is over (a game ends once, or is resumed over: the reveal goes again)."""
        seat = self.guest_seats[0] if seat is None else seat
        since = self.sent[seat] if events_from is None else events_from
        texts = [self.update_message(game, seat, since)]
        if game.is_over:
            texts.append(self.reveal(game))
        return texts

    def outboxes(self, game: Game, but: int | None = None) -> dict[str, list[str]]:
        """Every guest's update after a change (``but`` one, answered on its own)."""
        return {str(seat): self.outbox(game, seat) for seat in self.guest_seats
                if seat != but}


class Guest:
    """The guest's side: its bytes, the host's commitment, and everything its seat saw."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.seat: int | None = None
        self.commitment: str | None = None
        self.guest_bytes: bytes | None = None
        self.events: list[dict[str, Any]] = []
        self.held: dict[str, list[str]] = {}
        self.moves: list[str] = []
        # a move sent, with the events it followed and the mark of the view it was made in
        self.pending: tuple[str, int, str] | None = None
        self.mark = ""  # the last view's mark (a move that scores nothing still changes it)
        self.verdict: list[str] | None = None
        self.winner: int | None = None  # the seat its views said won this game
        self.players = 2  # the players of the game (its commitment's rules say)
        self.pledges: list[str] | None = None  # three or four: every guest's, from the host
        self.match = [0, 0]  # games won by each team before this one, in this match
        self.rematch: str | None = None  # "offered", "asked" by the friend, or "agreed"
        self.resigning = False  # resigned, and the host's game-over update not yet seen

    def record(self) -> str:
        """What the guest's page keeps: its view's history and the move count."""
        return json.dumps({"format": RECORD_FORMAT, "role": "guest", "game": self.game_id,
                           "seat": self.seat, "players": self.players, "pledges": self.pledges,
                           "commitment": self.commitment,
                           "guest_bytes": self.guest_bytes.hex() if self.guest_bytes else None,
                           "events": self.events, "held": self.held, "moves": self.moves,
                           "pending": self.pending, "mark": self.mark,
                           "verdict": self.verdict, "winner": self.winner,
                           "match": self.match, "resigning": self.resigning})

    def tally(self) -> list[int]:
        """Games won by each seat in this match, this one counted once its views end it."""
        return list(self.match) if self.winner is None else won(self.match, self.winner)

    def next_game(self, game_id: str) -> Guest:
        """The agreed rematch's game ``game_id`` (its host's commitment names it)."""
        following = Guest(game_id)
        following.players, following.match = self.players, self.tally()
        return following

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> Guest:
        guest = cls(data["game"])
        guest.seat, guest.commitment = data["seat"], data["commitment"]
        guest.players = Rules(players=data.get("players", 2)).players
        guest.pledges = data.get("pledges")
        guest.guest_bytes = read_hex(data["guest_bytes"]) if data["guest_bytes"] else None
        guest.events, guest.held, guest.moves = data["events"], data["held"], data["moves"]
        pending = data.get("pending")
        guest.pending = (str(pending[0]), int(pending[1]), str(pending[2])) if pending else None
        guest.mark = str(data.get("mark", ""))
        guest.verdict = data["verdict"]
        guest.winner = data.get("winner")
        guest.match = read_match(data.get("match", [0, 0]), Rules(players=guest.players).teams)
        guest.resigning = data.get("resigning") is True
        return guest

    def take_view(self, view: dict[str, Any]) -> int:
        """Keep a view's new events (they must continue the ones seen) and held cards;
        returns how many events were seen before."""
        if set(view) != _VIEW_KEYS or view.get("seat") != self.seat:
            raise PeerError("bad-field", "an update must hold this seat's view")
        events, total = view["events"], view["events_total"]
        if not isinstance(events, list) or type(total) is not int or len(events) > total:
            raise PeerError("bad-field", "an update's events are malformed")
        start = total - len(events)
        if start > len(self.events):
            raise PeerError("out-of-step", f"an update's events start at {start}, after the "
                            f"{len(self.events)} seen")
        if events[:len(self.events) - start] != self.events[start:]:
            raise PeerError("out-of-step", "an update's events differ from those seen")
        if total < len(self.events):
            raise PeerError("out-of-step", "an update has fewer events than seen")
        seen = len(self.events)
        self.events.extend(events[seen - start:])
        held, deal = held_cards(view), str(view["deal_number"])
        if held and view["deal_number"]:  # every card shown as this seat's, deal by deal
            self.held[deal] = sorted(held | set(self.held.get(deal, [])))
        outcome = view["outcome"]
        if outcome is not None:
            teams = range(Rules(players=self.players).teams)
            if not isinstance(outcome, dict) or outcome.get("winner") not in teams:
                raise PeerError("bad-field", "an update's outcome is malformed")
            self.winner = outcome["winner"]  # a team (a seat, but for four players)
            self.resigning = False  # the host's game is over: a resignation reached it
        mark = view_mark(view)
        if self.pending is not None and (total > self.pending[1] or mark != self.pending[2]):
            self.moves.append(self.pending[0])  # the host took it: the game moved on
            self.pending = None
        self.mark = mark
        return seen


def won(match: list[int], seat: int) -> list[int]:
    """``match`` with one more game won by ``seat``.

    >>> won([2, 1], 1)
    [2, 2]
    """
    return [wins + (number == seat) for number, wins in enumerate(match)]


def read_match(value: object, teams: int = 2) -> list[int]:
    """A kept match score: games won by each of ``teams`` teams (or seats)."""
    if (not isinstance(value, list) or len(value) != teams
            or not all(type(wins) is int and 0 <= wins < 1_000_000 for wins in value)):
        raise ValueError(f"a match score is {teams} counts of games won")
    return list(value)


def match_of(session: Session) -> list[int]:
    """The match score on this page: games won by each seat, this one once it is over."""
    peer = role(session)
    if isinstance(peer, Host):
        return peer.tally(session.game if peer.dealt else None)
    return peer.tally()


def view_mark(view: dict[str, Any]) -> str:
    """A view's state, its events aside, as a short digest."""
    state = json.dumps({key: value for key, value in view.items() if key != "events"},
                       sort_keys=True)
    return hashlib.sha256(state.encode()).hexdigest()[:16]


def role(session: Session) -> Host | Guest:
    peer = session.peer
    if peer is None:
        raise PeerError("unexpected", "no game with a friend is set up on this page")
    assert isinstance(peer, (Host, Guest))
    return peer


def guest_update(view: dict[str, Any]) -> dict[str, Any]:
    """A guest's update, shaped as the engine's own (no save: the guest has none)."""
    return {"phase": view["phase"], "current_player": view["current_player"],
            "scores": view["scores"], "outcome": view["outcome"],
            "events_count": view["events_total"], "undos": 0, "can_undo": False,
            "view": view, "save": None}


# --- the endpoints -------------------------------------------------------------------


def peer_host(session: Session, request: Request) -> dict[str, Any]:
    """Host a game for a friend: ``rules``, the guest's ``seat`` (1) and the host's
    (0); or ``record`` and ``save`` to resume one. Returns the game's id and record."""
    record = request.get("record")
    if record is not None:
        return resume_host(session, record, request.get("save"))
    rules = Rules.from_dict(request.get("rules") or {})
    seat = request.get("seat", 0)
    if seat not in ((0, 1) if rules.players == 2 else (0,)):
        raise PeerError("bad-field", "'seat' must be 0 or 1 (0 for three or four players)")
    host = Host(new_game_id(), rules, seat,
                [other for other in range(rules.players) if other != seat],
                secrets.token_bytes(ENTROPY_BYTES))
    session.peer = host
    return {"game": host.game_id, "record": host.record(), "match": host.match}


def resume_host(session: Session, record: object, save: object) -> dict[str, Any]:
    """A hosted game again after a reload: its record and (once dealt) its save."""
    try:
        data = json.loads(record) if isinstance(record, str) else {}
        if data["format"] != RECORD_FORMAT or data["role"] != "host":
            raise ValueError("not a host's record")
        host = Host.from_record(data)
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise PeerError("bad-field", f"the kept game with a friend is damaged: {error}") from None
    if host.dealt:
        if not isinstance(save, str):
            raise PeerError("bad-field", "a dealt game with a friend needs its save")
        game = Game.from_json(save)
        if game.setup.get("seed") != host.seed():
            raise PeerError("bad-field", "the save is not the game of this record")
        session.start(game)
        session.peer = host
        return {"game": host.game_id, "record": host.record(), "match": match_of(session),
                "update": session.begin(game, {"seat": host.seat, "proof": True})}
    session.peer = host
    return {"game": host.game_id, "record": host.record(), "match": host.match,
            "update": None}


def peer_guest(session: Session, request: Request) -> dict[str, Any]:
    """Join a friend's game ``game`` (from the invitation), or resume from ``record``.
    Returns the first message to send (``hello``), the ``messages`` to send on
    connecting (the hello, then a resignation the host has not answered yet) and the
    record to keep."""
    record = request.get("record")
    if record is not None:
        try:
            data = json.loads(record) if isinstance(record, str) else {}
            if data["format"] != RECORD_FORMAT or data["role"] != "guest":
                raise ValueError("not a guest's record")
            guest = Guest.from_record(data)
        except (ValueError, TypeError, KeyError) as error:
            raise PeerError("bad-field", f"the kept game with a friend is damaged: "
                            f"{error}") from None
    else:
        guest = Guest(str(request.get("game")))  # checked by the hello below
    hello = message("hello", game=guest.game_id,
                    seen=request.get("seen", len(guest.events)))  # checks both
    session.peer = guest
    texts = [hello]
    if guest.resigning:  # made while apart (or its answer lost): it goes again
        texts.append(message("move", game=guest.game_id, move="resign", seen=len(guest.events)))
    return {"game": guest.game_id, "record": guest.record(), "message": hello,
            "messages": texts, "match": guest.tally()}


def peer_receive(session: Session, request: Request) -> dict[str, Any]:
    """Take one message from the peer: ``{"text", "events_from"?, "proof"?}``.

    Returns ``replies`` (texts to send back), ``update`` (the table's update, or
    None), ``reaction``, ``refused`` (why this message was refused, or None),
    ``peer_refused`` (the peer refused one of ours), ``verdict`` (the guest's
    check, or on the host the guest's report of it: what did not match, [] when
    fair), ``left`` (the peer left the game: on the host a game not over ends as
    the guest's loss), ``rematch`` ("asked": the friend offers a rematch;
    "accepted": the friend took this side's offer), ``game`` (this side's game
    id: another once a rematch is agreed), ``match`` (games won by each seat)
    and ``record``.
    """
    peer = role(session)
    answer: dict[str, Any] = {"replies": [], "others": {}, "update": None, "reaction": None,
                              "refused": None, "peer_refused": None, "verdict": None,
                              "left": False, "rematch": None, "away": None}
    try:
        data = parse_message(request.get("text"),
                             GUEST_SENDS if isinstance(peer, Host) else HOST_SENDS)
        if data["kind"] == "reaction":
            answer["reaction"] = data["reaction"]
        elif data["kind"] == "refused":
            answer["peer_refused"] = {"reason": data["reason"], "message": data["message"]}
            if isinstance(peer, Guest):
                peer.pending = None
        elif data["kind"] == "ping":
            answer["replies"].append(message("pong"))
        elif data["kind"] != "pong":
            if (isinstance(peer, Guest) and data["kind"] == "commit"
                    and peer.rematch == "agreed" and data["game"] != peer.game_id):
                peer = session.peer = peer.next_game(data["game"])  # the rematch's game
            if data["game"] != peer.game_id:
                raise PeerError("wrong-game", "this message is for another game")
            if data["kind"] in ("rematch", "rematch-accept"):
                receive_rematch(session, peer, data["kind"], answer)
            elif isinstance(peer, Host):
                host_receives(session, peer, data, request, answer)
            else:
                guest_receives(peer, data, request, answer)
    except PeerError as error:
        answer["refused"] = {"reason": error.reason, "message": str(error)}
        answer["replies"].insert(0, refusal(error))
        if isinstance(peer, Guest) and error.reason == "out-of-step":  # ask to be resent
            answer["replies"].append(message("hello", game=peer.game_id, seen=len(peer.events)))
    answer["record"] = role(session).record()
    answer["game"] = role(session).game_id
    answer["match"] = match_of(session)
    return answer


def host_receives(session: Session, host: Host, data: Message, request: Request,
                  answer: dict[str, Any]) -> None:
    """The host takes a guest's hello, bytes or move (a refusal raises PeerError); the
    guest is the one whose channel it came on (``from``), and may act only for its seat."""
    seat = host.guest_of(request)
    game = session.game if host.dealt else None
    kind = data["kind"]
    if kind == "hello":
        if game is None:
            answer["replies"].append(message(
                "commit", game=host.game_id, seat=seat, rules=host.rules.to_dict(),
                commitment=commitment(host.host_bytes)))
        elif data["seen"] > len(game.events):
            raise PeerError("bad-field", "the game has fewer events than that")
        else:
            answer["replies"].extend(host.outbox(game, seat, data["seen"]))
        return
    if kind == "pledge":
        host_takes_pledge(host, seat, data["commitment"], game, answer)
        return
    if kind == "entropy":
        taken, sent = host.guest_bytes.get(seat), read_hex(data["bytes"])
        if game is not None or taken not in (None, sent):
            raise PeerError("bad-order", "the cards are already being dealt")
        if host.many and len(host.pledges) < len(host.guest_seats):
            raise PeerError("bad-order", "every guest pledges its bytes before any sends them")
        if host.many and commitment(sent) != host.pledges[seat]:
            raise PeerError("bad-field", "these are not the bytes you pledged")
        host.guest_bytes[seat] = sent
        if taken is not None or not host.dealt:  # sent again, or others' bytes to come
            return
        game = Game.new(host.rules, seed=host.seed())
        session.start(game)
        answer["update"] = session.begin(game, {"seat": host.seat,
                                                "proof": request.get("proof")})
        answer["replies"].append(host.update_message(game, seat, 0))
        answer["others"] = host.outboxes(game, but=seat)
        return
    if kind == "left":  # the guest went on to another game: it lost this one
        answer["left"] = True
        if game is not None and not game.is_over:
            host_resigns_guest(session, host, game, seat, request, answer)
        return
    if game is None:
        raise PeerError("bad-order", "no cards are dealt yet")
    if kind == "checked":
        if not game.is_over:
            raise PeerError("bad-order", "the game is not over: nothing was revealed")
        answer["verdict"] = host.checked[seat] = data["problems"]
        return
    if data["move"] == "resign":  # the guest leaves: the game ends, and is revealed
        if not game.is_over:  # (sent again on connecting again: once over, nothing to do)
            host_resigns_guest(session, host, game, seat, request, answer)
        return
    if seat in host.computers:
        raise PeerError("out-of-turn", "the computer plays your seat now")
    if game.current_player != seat:
        raise PeerError("out-of-turn", "it is not your turn")
    if data["seen"] != len(game.events):
        raise PeerError("stale", "the game has moved on since that move was chosen")
    before = len(game.events)
    try:
        move = Move.parse(data["move"])
        game.apply(move)
    except IllegalMoveError as error:
        raise PeerError("illegal-move", str(error)) from None
    answer["update"] = session.update(game, move, before, {
        "seat": host.seat, "events_from": request.get("events_from", before),
        "proof": request.get("proof")})
    answer["replies"].extend(host.outbox(game, seat))
    answer["others"] = host.outboxes(game, but=seat)


def host_takes_pledge(host: Host, seat: int, pledge: str, game: Game | None,
                      answer: dict[str, Any]) -> None:
    """Three or four players: a guest's pledge (the SHA-256 of its bytes, sent before
    them). Once every guest's is in, each is sent them all and then sends its bytes, so
    no guest chooses its bytes after another's are known."""
    if not host.many:
        raise PeerError("unexpected", "a guest of two sends its bytes at once")
    if game is not None or host.pledges.get(seat, pledge) != pledge:
        raise PeerError("bad-order", "your bytes are already pledged")
    complete = len(host.pledges) == len(host.guest_seats)
    host.pledges[seat] = pledge
    if len(host.pledges) < len(host.guest_seats):
        return
    text = message("pledges", game=host.game_id,
                   guests=[host.pledges[other] for other in host.guest_seats])
    answer["replies"].append(text)
    if not complete:  # the last pledge: every other guest hears them too
        answer["others"] = {str(other): [text] for other in host.guest_seats if other != seat}


def host_resigns_guest(session: Session, host: Host, game: Game, seat: int,
                       request: Request, answer: dict[str, Any]) -> None:
    """Guest ``seat`` resigned: the game is over (its loss), every guest is sent the
    reveal."""
    before = len(game.events)
    try:
        game.resign(seat)
    except IllegalMoveError as error:
        raise PeerError("illegal-move", str(error)) from None
    answer["update"] = session.update(game, Move("pass"), before, {
        "seat": host.seat, "events_from": request.get("events_from", before),
        "proof": request.get("proof")})
    answer["replies"].extend(host.outbox(game, seat))
    answer["others"] = host.outboxes(game, but=seat)


def finished(session: Session, peer: Host | Guest) -> bool:
    """Whether this side's game is over and checked: a rematch may be offered."""
    if isinstance(peer, Guest):
        return peer.verdict is not None
    return (peer.dealt and session.game is not None and session.game.is_over
            and set(peer.checked) == set(peer.guest_seats))


def two_only(peer: Host | Guest) -> None:
    """A rematch is offered between two players only (more start afresh)."""
    if (peer.players if isinstance(peer, Guest) else peer.rules.players) != 2:
        raise PeerError("unexpected", "a rematch is for two players")


def receive_rematch(session: Session, peer: Host | Guest, kind: str,
                    answer: dict[str, Any]) -> None:
    """The friend offers a rematch, or takes this side's offer: once both want one the
    host starts the next game (its commitment goes to the guest)."""
    if not finished(session, peer):
        raise PeerError("bad-order", "this game is not over and checked: no rematch yet")
    two_only(peer)
    if kind == "rematch" and peer.rematch in (None, "asked"):
        peer.rematch = answer["rematch"] = "asked"
        return
    if kind == "rematch-accept" and peer.rematch not in ("offered", "agreed"):
        raise PeerError("bad-order", "no rematch was offered")
    answer["rematch"] = "accepted"  # (or both offered at once: the same)
    if isinstance(peer, Host):
        if kind == "rematch":
            answer["replies"].append(message("rematch-accept", game=peer.game_id))
        answer["replies"].append(start_rematch(session, peer))
    else:
        peer.rematch = "agreed"


def start_rematch(session: Session, host: Host) -> str:
    """The host's next game with the same friend: the match goes on, and the guest is sent
    the new game's commitment (the old game stays the session's until it is dealt)."""
    following = host.next_game()
    following.match = host.tally(session.game)
    session.peer = following
    return message("commit", game=following.game_id, seat=following.guest_seats[0],
                   rules=following.rules.to_dict(),
                   commitment=commitment(following.host_bytes))


def guest_receives(guest: Guest, data: Message, request: Request,
                   answer: dict[str, Any]) -> None:
    """The guest takes the host's commitment, an update, the reveal or its leaving."""
    kind = data["kind"]
    if kind == "left":  # the host's update and reveal follow when the game was not over
        answer["left"] = True
    elif kind == "away":  # (three or four) the friends whose turn the game will wait at
        if guest.players == 2 or guest.seat in data["seats"]:
            raise PeerError("bad-field", "the friends away are other guests of three or four")
        answer["away"] = data["seats"]
    elif kind == "commit":
        if guest.commitment not in (None, data["commitment"]) or guest.events:
            raise PeerError("bad-order", "the host already committed to other bytes")
        guest.seat, guest.commitment = data["seat"], data["commitment"]
        guest.players = Rules.from_dict(data["rules"]).players
        if len(guest.match) != Rules.from_dict(data["rules"]).teams:
            guest.match = [0] * Rules.from_dict(data["rules"]).teams
        if guest.guest_bytes is None:
            guest.guest_bytes = secrets.token_bytes(ENTROPY_BYTES)
        if guest.players > 2:  # its pledge first: its bytes once every guest pledged
            answer["replies"].append(message("pledge", game=guest.game_id,
                                             commitment=commitment(guest.guest_bytes)))
        else:
            answer["replies"].append(message("entropy", game=guest.game_id,
                                             bytes=guest.guest_bytes.hex()))
    elif guest.commitment is None or guest.guest_bytes is None:
        raise PeerError("bad-order", "the host has not committed to its bytes yet")
    elif kind == "pledges":
        pledges = data["guests"]
        if (guest.players == 2 or len(pledges) != guest.players - 1
                or pledges.count(commitment(guest.guest_bytes)) != 1
                or guest.pledges not in (None, pledges)):
            raise PeerError("bad-field", "the pledges must be every guest's, yours once")
        guest.pledges = pledges
        answer["replies"].append(message("entropy", game=guest.game_id,
                                         bytes=guest.guest_bytes.hex()))
    elif kind == "update":
        view = data["view"]
        start = guest.take_view(view)
        events_from = request.get("events_from", start)  # the events the table has not seen
        if type(events_from) is not int or not 0 <= events_from <= len(guest.events):
            events_from = start
        answer["update"] = guest_update(dict(view, events=guest.events[events_from:]))
    else:  # the reveal: the guest's own engine replays the game
        assert guest.seat is not None
        guests = data.get("guests")
        if (len(guests) if guests else 1) != guest.players - 1:
            raise PeerError("bad-field", "the reveal must hold every guest's bytes")
        guest.verdict = check_fair_deal(
            guest.commitment, data["host_bytes"], guest.guest_bytes.hex(), data["save"],
            guest.seat, {"events": guest.events, "held": guest.held, "moves": guest.moves},
            guests, guest.pledges if guest.players > 2 else None)
        answer["verdict"] = guest.verdict
        answer["replies"].append(message("checked", game=guest.game_id, problems=[
            problem[:300] for problem in guest.verdict[:20]]))


def peer_outbox(session: Session, request: Request) -> dict[str, Any]:
    """The host's messages after a change made at its own table (its move): each
    guest's update, and the reveal when the game is over. ``sends`` holds them by guest
    seat; ``messages`` are the first guest's (the only one of two players)."""
    host = role(session)
    if not isinstance(host, Host) or not host.dealt:
        raise PeerError("unexpected", "only a host with a dealt game sends updates")
    game = session.require_game()
    sends = host.outboxes(game)
    return {"messages": sends[str(host.guest_seats[0])], "sends": sends,
            "record": host.record(), "match": match_of(session)}


def peer_away(session: Session, request: Request) -> dict[str, Any]:
    """The host of three or four tells the other guests which friends are away now
    (``seats``, [] once all are back or the computer plays for them): ``sends`` by seat,
    to every guest neither away nor played by the computer.

    >>> from cribbage.protocol import Session
    >>> host = Session()
    >>> game_id = result(host, "peer_host", {"rules": {"players": 3}})["game"]
    >>> sends = result(host, "peer_away", {"seats": [2]})["sends"]
    >>> list(sends), json.loads(sends["1"][0])["seats"]
    (['1'], [2])
    """
    host = role(session)
    seats = request.get("seats")
    if (not isinstance(host, Host) or not host.many or not isinstance(seats, list)
            or not set(seats) <= set(host.guest_seats)):
        raise PeerError("bad-field", "only the host of three or four names guests away")
    text = message("away", game=host.game_id, seats=sorted(seats))
    return {"sends": {str(seat): [text] for seat in host.guest_seats
                      if seat not in seats and seat not in host.computers}}


def peer_computer(session: Session, request: Request) -> dict[str, Any]:
    """The host lets the computer play guest ``seat`` (its friend went away): from now on
    that seat's moves come from the computer (``peer_computer_move``), which sees only
    that seat's view, and the guest's own moves are refused."""
    host = role(session)
    seat = request.get("seat")
    if not isinstance(host, Host) or seat not in host.guest_seats:
        raise PeerError("bad-field", "only the host gives a guest's seat to the computer")
    assert isinstance(seat, int)
    host.computers.add(seat)
    return {"computers": sorted(host.computers), "record": host.record()}


def peer_computer_move(session: Session, request: Request) -> dict[str, Any]:
    """The computer's move for the seat it took, when that seat is to move: the host's
    ``update`` and every guest's messages (``sends``)."""
    host = role(session)
    game = session.game
    if (not isinstance(host, Host) or not host.dealt or game is None
            or game.current_player not in host.computers):
        raise PeerError("out-of-turn", "no seat the computer plays is to move")
    before = len(game.events)
    move = session.computer_choice("standard")
    game.apply(move)
    update = session.update(game, move, before, {
        "seat": host.seat, "events_from": request.get("events_from", before),
        "proof": request.get("proof")})
    return {"update": update, "sends": host.outboxes(game), "record": host.record(),
            "match": match_of(session)}


def peer_move(session: Session, request: Request) -> dict[str, Any]:
    """The guest's move as a message for the host (who judges it), and the record to keep
    (a resignation is kept until the host's game-over update comes: sent again on
    connecting again, it reaches the host even when made while apart)."""
    guest = role(session)
    text = request.get("move")
    if not isinstance(guest, Guest) or not isinstance(text, str):
        raise PeerError("bad-field", "only a guest sends a move, given as text")
    if text == "resign":  # not a move of the save: it records who resigned
        move = text
        guest.resigning = guest.winner is None
    else:
        move = str(Move.parse(text))
        guest.pending = (move, len(guest.events), guest.mark)
    return {"message": message("move", game=guest.game_id, move=move, seen=len(guest.events)),
            "record": guest.record()}


def peer_leave(session: Session, request: Request) -> dict[str, Any]:
    """This side leaves the game with a friend for another game: the ``messages`` that
    tell the friend. Leaving a game that is not over loses it: the host resigns its
    seat and sends the guest's update and the reveal; a guest's ``left`` has the host
    resign the guest's seat. The page's session then has no game with a friend.

    >>> from cribbage.protocol import Session
    >>> host = Session()
    >>> game_id = result(host, "peer_host", {"rules": {"target": 61}})["game"]
    >>> [json.loads(text)["kind"] for text in result(host, "peer_leave", {})["messages"]]
    ['left']
    >>> host.peer is None
    True
    """
    peer = role(session)
    texts = [message("left", game=peer.game_id)]
    sends: dict[str, list[str]] = {}
    if isinstance(peer, Host):
        sends = {str(seat): list(texts) for seat in peer.guest_seats}
        if peer.dealt and not session.require_game().is_over:
            session.require_game().resign(peer.seat)
            for seat, more in peer.outboxes(session.require_game()).items():
                sends[seat].extend(more)
        texts = sends[str(peer.guest_seats[0])]
    session.peer = None
    return {"messages": texts, "sends": sends}


def peer_rematch(session: Session, request: Request) -> dict[str, Any]:
    """This side wants a rematch of its finished, checked game: an offer, or the answer to
    the friend's. Returns the ``messages`` to send, the ``game`` (the next one's id once
    the host starts it), ``match`` and ``record``.

    >>> from cribbage.protocol import Session
    >>> host = Session()
    >>> game_id = result(host, "peer_host", {"rules": {"target": 61}})["game"]
    >>> json.loads(host.call("peer_rematch"))["error"]["message"]
    'this game is not over and checked: no rematch yet'
    """
    peer = role(session)
    if not finished(session, peer):
        raise PeerError("bad-order", "this game is not over and checked: no rematch yet")
    two_only(peer)
    if peer.rematch == "asked":
        texts = [message("rematch-accept", game=peer.game_id)]
        if isinstance(peer, Host):
            texts.append(start_rematch(session, peer))
        else:
            peer.rematch = "agreed"
    else:
        peer.rematch = peer.rematch or "offered"
        texts = [message("rematch", game=peer.game_id)]
    current = role(session)
    return {"messages": texts, "game": current.game_id, "match": match_of(session),
            "record": current.record()}


def peer_reaction(session: Session, request: Request) -> dict[str, Any]:
    """One of the fixed quick reactions as a message (no free text)."""
    reaction = request.get("reaction")
    if reaction not in REACTIONS:
        raise PeerError("bad-field", f"a reaction is one of {', '.join(REACTIONS)}")
    return {"message": message("reaction", reaction=reaction)}


def peer_check(session: Session, request: Request) -> dict[str, Any]:
    """The guest's check, statelessly: ``commitment``, ``host_bytes``, ``guest_bytes``,
    ``save``, ``seat`` and ``seen`` (``events``, ``held``, ``moves``)."""
    seen = request.get("seen")
    if not isinstance(seen, dict) or set(seen) != {"events", "held", "moves"}:
        raise PeerError("bad-field", "'seen' must hold events, held and moves")
    for name in ("commitment", "host_bytes", "guest_bytes"):
        if not isinstance(request.get(name), str) or len(request[name]) != 64:
            raise PeerError("bad-field", f"{name!r} must be 64 hex digits")
    return {"problems": check_fair_deal(request["commitment"], request["host_bytes"],
                                        request["guest_bytes"], request.get("save", ""),
                                        seat_in(request), seen)}


def seat_in(request: Request) -> int:
    seat = request.get("seat")
    if type(seat) is not int:
        raise PeerError("bad-field", "'seat' must be a seat number")
    return seat


ENDPOINTS = {"peer_host": peer_host, "peer_guest": peer_guest, "peer_receive": peer_receive,
             "peer_outbox": peer_outbox, "peer_move": peer_move, "peer_leave": peer_leave,
             "peer_reaction": peer_reaction, "peer_check": peer_check,
             "peer_rematch": peer_rematch, "peer_computer": peer_computer, "peer_away": peer_away,
             "peer_computer_move": peer_computer_move}
"""The endpoints of a game between two devices (merged into the protocol's table)."""
