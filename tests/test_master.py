"""The master level, the win tables, the game review and the coach near the end."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import pytest
from reference import reference_lay, reference_show

from cribbage import Card, Game, PlayerView, Rules
from cribbage.cards import full_deck, parse_cards
from cribbage.coach import coach_advice
from cribbage.players import LEVELS, computer_move, make_player
from cribbage.players.master import Master, plays_for_win
from cribbage.players.winprob import TABLE_FILE, deal_win, pegged_win, tables
from cribbage.protocol import Session
from cribbage.review import review_game

ROOT = Path(__file__).resolve().parent.parent


def play_out(game: Game, players: list, max_deals: int = 99) -> list[str]:
    moves = []
    while game.phase != "over" and game.deal_number <= max_deals:
        seat = game.current_player
        move = computer_move(players[seat], game.view(seat))
        assert move in game.legal_moves(), (move, game.phase)
        moves.append(str(move))
        game.apply(move)
    return moves


# --- the win tables -------------------------------------------------------------------


def test_win_tables_are_small_fast_and_sane():
    assert TABLE_FILE.stat().st_size < 400_000
    tables.cache_clear()
    start = time.perf_counter()
    data = tables()
    assert time.perf_counter() - start < 1.0
    for target in (121, 61):
        w = data["win"][target]
        assert len(w) == target * target
        for d in range(0, target, 3):
            for p in range(0, target, 3):
                here = w[d * target + p]
                assert 0.0 <= here <= 1.0
                if d + 3 < target:  # more points: more wins
                    assert w[(d + 3) * target + p] >= here - 2e-3
                if p + 3 < target:
                    assert w[d * target + p + 3] <= here + 2e-3
        assert deal_win(target, target - 1, 0) > 0.99
        assert deal_win(target, 0, target - 1) < 0.02   # the pone counts first
        assert 0.5 < deal_win(target, 0, 0) < 0.65        # the first dealer's edge
        # symmetry: my chance and the opponent's, seen from each side, add up to one
        for me, opp in ((target - 20, target - 30), (target - 5, target - 3), (10, 40)):
            assert pegged_win(target, me, opp, True) == pytest.approx(
                1 - pegged_win(target, opp, me, False), abs=1e-9)
    assert deal_win(121, 121, 50) == 1.0 and deal_win(121, 50, 121) == 0.0


# --- the master level ---------------------------------------------------------------


def test_master_is_a_level():
    assert "master" in LEVELS and isinstance(make_player("master", 1), Master)
    hello = json.loads(Session().call("hello"))["result"]
    assert "master" in hello["levels"]


def test_master_plays_legal_deterministic_games():
    rules = Rules(target=61)
    runs = []
    for _ in range(2):
        game = Game.new(rules, seed=21, first_dealer=0)
        runs.append(play_out(game, [make_player("master", 5), make_player("standard", 6)]))
        assert game.phase == "over"
    assert runs[0] == runs[1]


def test_master_in_a_four_player_game_plays_as_the_expert():
    game = Game.new(Rules(players=4), seed=3, first_dealer=0)
    view = game.view(game.current_player)
    assert not plays_for_win(view)
    assert Master(1).discard(view) == make_player("expert", 1).discard(view)
    # In the play too: without win tables the master reads the others as the expert does.
    expert = make_player("expert", 1)
    plays = 0
    while game.phase != "over" and plays < 12:
        seat = game.current_player
        view = game.view(seat)
        move = computer_move(expert, view)
        if move.kind == "play" and len(move.cards) == 1:
            assert Master(plays).play(view) == make_player("expert", plays).play(view)
            plays += 1
        game.apply(move)
    assert plays == 12


def near_end_game(opponent_hand: str) -> Game:
    game = Game.scripted(Rules(), dealer=0, hands=["5S 6H 9C TD KS 2H", opponent_hand],
                         starter="4C", scores=(110, 108))
    game.apply(f"discard {' '.join(opponent_hand.split()[4:])}")
    game.apply("discard KS 2H")
    game.apply(game.legal_moves()[0])  # the starter
    game.apply("play 3D" if "3D" in opponent_hand.split()[:4] else game.legal_moves()[0])
    return game


def test_master_decides_from_its_own_view_only():
    # the opponent holds different hidden cards; seat 0 sees the same things
    one = near_end_game("3D 7S 8C QH AH JC")
    two = near_end_game("3D 7D 8S QC AC JS")
    assert one.view(0).to_dict() == two.view(0).to_dict()
    assert one.hands[1] != two.hands[1]
    assert plays_for_win(one.view(0))
    assert Master(9).play(one.view(0)) == Master(9).play(two.view(0))


# --- the master's own decisions near the end ------------------------------------------
#
# Named positions where playing for the win differs from playing for points. Each is
# worked out here without the players' code: the reference scorer over every starter
# (discards), and a search of the rest of the play with every card known
# (tests/reference.py) over every card the opponent may still hold, equally likely.


def deal_to(hands: list[str], starter: str, scores: tuple[int, int],
            plays: list[str]) -> Game:
    """Seat 0 deals ``hands`` (as dealt; each lays away its last two cards), turns
    ``starter``, and the play goes ``plays`` from ``scores``."""
    game = Game.scripted(Rules(), dealer=0, hands=hands, starter=starter, scores=scores)
    while game.phase == "discard":
        game.apply(f"discard {' '.join(hands[game.current_player].split()[4:])}")
    game.apply("cut")
    for move in plays:
        game.apply(move)
    return game


def held_by_other(view: PlayerView) -> list[tuple[Card, ...]]:
    """Every hand the other seat may still hold, as far as ``view`` can tell: unseen
    cards, none that would have fitted when a series closed or when it said go."""
    other = 1 - view.seat
    lowest = 1
    for event in view.events:
        closed = event.kind == "go" or (event.kind == "go_said" and event.seat == other)
        if event.deal == view.deal_number and closed and event.count != 31:
            lowest = max(lowest, 32 - (event.count or 0))
    return [held for held in combinations(view.unseen_cards(), view.hand_sizes[other])
            if all(card.value >= lowest for card in held)]


def as_ref(cards: Sequence[Card]) -> tuple[tuple[int, str], ...]:
    return tuple((card.rank, card.suit) for card in cards)


def dealer_chances(view: PlayerView) -> dict[str, tuple[float, float]]:
    """For each card the dealer may lay: its chance to win and the pegging lead it
    expects over the rest of the play, over :func:`held_by_other` equally likely.

    A win: the dealer pegs out first, or the pone, counting first, falls short with
    what it pegs and its hand (the reference scorer), and the dealer's hand takes it
    home (asserted by each test).
    """
    me, pone = view.seat, 1 - view.seat
    need = [view.rules.target - score for score in view.scores]
    pile = as_ref(view.pile)
    laid = [card for seat, card in view.played if seat == pone]
    assert view.starter is not None
    starter = as_ref([view.starter])[0]
    result = {}
    for card in sorted({c for c in view.hand if view.count + c.value <= 31}):
        wins, leads = [], []
        for held in held_by_other(view):
            show = reference_show(list(as_ref(laid + list(held))), starter, False)

            def win(pegged: tuple[int, int], done: bool, show: int = show) -> float | None:
                if pegged[me] >= need[me]:
                    return 1.0
                if pegged[pone] >= need[pone] or (done and pegged[pone] + show >= need[pone]):
                    return 0.0
                return 1.0 if done else None

            def lead(pegged: tuple[int, int], done: bool) -> float | None:
                return float(pegged[me] - pegged[pone]) if done else None

            hands = (as_ref(view.hand), as_ref(held)) if me == 0 else (as_ref(held),
                                                                        as_ref(view.hand))
            for value, found in ((win, wins), (lead, leads)):
                found.append(reference_lay(hands, pile, me, as_ref([card])[0],
                                           frozenset(view.said_go), me, value))
        result[card.code] = (sum(wins) / len(wins), sum(leads) / len(leads))
    return result


def check_play_for_the_win(game: Game, win_card: str, points_card: str) -> None:
    """The dealer to play in ``game``: ``win_card`` wins most often, clearly,
    ``points_card`` pegs most; the master plays ``win_card`` (three seeds)."""
    view = game.view(0)
    assert view.is_my_turn and plays_for_win(view)
    kept = list(as_ref(view.kept))
    assert view.starter is not None
    assert reference_show(kept, as_ref([view.starter])[0], False) >= 121 - view.scores[0]
    chances = dealer_chances(view)
    best_win = max(chances, key=lambda code: chances[code][0])
    best_points = max(chances, key=lambda code: chances[code][1])
    assert (best_win, best_points) == (win_card, points_card)
    others = [chances[code][0] for code in chances if code != win_card]
    assert chances[win_card][0] >= max(others) + 0.1
    assert [Master(seed).play(view).code for seed in range(3)] == [win_card] * 3


def test_master_leads_the_five_that_gives_the_pone_least():
    """The pone needs 6 and counts first; the dealer needs 11, which its own hand
    (5 5 6 7 and the ten turned: 12) makes if the pone falls short. The dealer leads a
    new series holding 5♣ and 7♥; the pone holds one card, not an ace (it would have
    made 31 before the go). Its hand (7 2 10, the ten turned) makes 6 with a 3, a 5 or
    the 10♥/10♣: those holdings win for it whatever is led. Leading the seven also
    lets a seven (a pair) or an eight (fifteen) peg the 2 its hand then lacks: 14 of
    its 38 possible cards win against the seven, 8 against the five. The seven pegs
    more on average (after a five any ten-card makes fifteen), but the fifteens the
    five gives away are less than the pone needs."""
    game = deal_to(["5S 7H 5C 6H 4C 4S", "TD 7S 2S 6S JD 2H"], "TS", (110, 114),
                   ["play 7S", "play 5S", "play 2S", "play 6H", "play TD"])
    assert game.scores == [110, 115] and game.pile == []
    check_play_for_the_win(game, "5C", "7H")
    chances = dealer_chances(game.view(0))
    assert (chances["5C"][0], chances["7H"][0]) == pytest.approx((30 / 38, 24 / 38))


def test_master_holds_back_the_run_with_the_king():
    """The pone needs 5 and counts first (its hand: 4♥ J♥ 9♥ and one card, the 4♦
    turned); the dealer needs 9, which its hand (K K 5 3, the four turned) makes. On
    5♦ 4♥ the dealer holds 3♠ and K♥; the pone's last card is no ace or two (it
    would have played it at 29). The three pegs a run of three at once, the most
    points, but a three, five or six then answers it with enough for the pone's hand;
    the king risks only a king's pair and the go: 17 of the pone's 34 possible cards
    win against the king, 21 against the three."""
    game = deal_to(["3S KH KD 5D 6D 9C", "4H JH 9H JS TS 4C"], "4D", (112, 115),
                   ["play JH", "play KD", "play 9H", "play 5D", "play 4H"])
    assert game.scores == [112, 116] and game.count == 9
    check_play_for_the_win(game, "KH", "3S")
    chances = dealer_chances(game.view(0))
    assert (chances["KH"][0], chances["3S"][0]) == pytest.approx((17 / 34, 13 / 34))


def test_master_pegs_for_the_only_chance_it_has():
    """The pone needs 2 and counts first: with its 2♠ 3♣ shown and the 9♠ turned, its
    hand makes 2 whatever its two other cards are. Needing 5, the dealer wins only by
    pegging out in the play. On A-2-3 it holds 4♠ 10♥ 10♣: the four pegs a run of
    four and leaves one point to find before the pone finds 2; a ten keeps the pone's
    run from growing in the play, which saves nothing, and never wins."""
    game = deal_to(["AC TC TH 4S KH 9D", "2H 8H 2S 3C JC 6C"], "9S", (116, 116),
                   ["play 2S", "play AC", "play 3C"])
    assert game.scores == [116, 119]
    view = game.view(0)
    chances = dealer_chances(view)
    assert chances["TH"][0] == chances["TC"][0] == 0.0 < chances["4S"][0]
    assert [Master(seed).play(view).code for seed in range(3)] == ["4S"] * 3


def test_master_as_pone_keeps_the_hand_that_counts_out():
    """Both need 8; the pone counts first. Keeping Q Q J 5 (laying away the sixes)
    makes 8 with any starter: three fifteens and a pair. The expert's keep, Q Q 5 6
    (laying away 6 J: more points on average counting the dealer's crib), falls short
    with 16 of the 46 starters, leaving the pone to peg the rest before the dealer
    counts its own hand and crib."""
    game = Game.scripted(Rules(), dealer=0, hands=["2H 3H 7S 8S 9D KH", "QC QD JC 6D 5S 6C"],
                         starter="AS", scores=(113, 113))
    while game.current_player == 0:
        game.apply("discard 9D KH")
    view = game.view(1)
    hand = list(view.hand)
    starters = [card for card in full_deck() if card not in hand]

    def short(discard: set[str]) -> int:
        kept = [card for card in hand if card.code not in discard]
        return sum(reference_show(list(as_ref(kept)), as_ref([s])[0], False) < 8
                   for s in starters)

    master = [{card.code for card in Master(seed).discard(view)} for seed in range(2)]
    expert = {card.code for card in make_player("expert", 0).discard(view)}
    assert master == [{"6C", "6D"}] * 2 and short({"6C", "6D"}) == 0
    assert expert == {"6D", "JC"} and short(expert) == 16


# --- the review ------------------------------------------------------------------------


def blunder_game() -> Game:
    # seat 1 (pone) throws 5-5 into the dealer's crib, keeping 4 6 J K
    game = Game.scripted(dealer=0, hands=["AS 3S 7D 9C QC 8H", "5S 5H 4D 6C JD KS"],
                         starter="2D")
    game.apply("discard 5S 5H")
    play_out(game, [make_player("standard", 1), make_player("standard", 2)], max_deals=1)
    return game


def test_review_grades_a_planted_blunder():
    game = blunder_game()
    start = time.perf_counter()
    report = review_game(game, 1)
    assert time.perf_counter() - start < 10
    first = report["decisions"][0]
    assert first["kind"] == "discard" and first["chosen"] == ["5H", "5S"]
    assert first["category"] in ("mistake", "blunder") and first["loss"] >= 1.5
    assert "5♥" in first["reason"] or "5♠" in first["reason"]
    assert report["costliest"][0] == first
    dealt = [card.code for card in sorted(parse_cards("5S 5H 4D 6C JD KS"))]
    assert first["position"] == {"deal": 1, "dealer": 0, "hand": dealt, "kept": [],
                                 "starter": None, "pile": [], "count": 0, "scores": [0, 0],
                                 "target": 121}
    assert 0 <= report["accuracy"] < 100
    spanish = review_game(game, 1, "es")
    assert spanish["decisions"][0]["category_text"] in ("Error", "Error grave")


def test_review_grades_count_claims():
    rules = Rules(manual_counting=True)
    game = Game.scripted(rules, dealer=0, hands=["AS 3S 7D 9C QC 8H", "5S 5H 4D 6C JD KS"],
                         starter="2D")
    bots = [make_player("standard", 1), make_player("standard", 2)]
    while game.phase != "count":
        game.apply(computer_move(bots[game.current_player], game.view(game.current_player)))
    assert game.current_player == 1
    game.apply("count 0")  # a hand worth more
    report = review_game(game, 1)
    count = [d for d in report["decisions"] if d["kind"] == "count"][0]
    assert count["category"] != "best" and "0" in count["reason"]


def test_cli_review_and_a_corrupt_save(tmp_path):
    save = tmp_path / "game.json"
    save.write_text(blunder_game().to_json())
    result = subprocess.run([sys.executable, "-m", "cribbage", "review", str(save), "--seat", "1",
                             "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["decisions"][0]["category"] in ("mistake", "blunder")
    text = subprocess.run([sys.executable, "-m", "cribbage", "review", str(save), "--seat", "1",
                           "--lang", "ja"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert text.returncode == 0 and "正確さ" in text.stdout
    save.write_text('{"rules": 7}')
    bad = subprocess.run([sys.executable, "-m", "cribbage", "review", str(save)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_protocol_review_game():
    session = Session()
    save = blunder_game().to_json()
    reply = json.loads(session.call("review_game", json.dumps({"seat": 1, "save": save})))
    assert reply["ok"] and reply["result"]["decisions"][0]["category"] in ("mistake", "blunder")
    assert session.game is None  # stateless with a save
    assert json.loads(session.call("review_game", '{"seat": 1}'))["error"]["kind"] == "no-game"
    bad = json.loads(session.call("review_game", '{"seat": 0, "save": "{}"}'))
    assert bad["error"]["kind"] == "bad-save"
    session.call("load", json.dumps({"save": save}))
    again = json.loads(session.call("review_game", '{"seat": 1, "lang": "ja"}'))
    assert again["ok"] and again["result"]["lang"] == "ja"


def missed_points_game(seed: int) -> tuple[Game, str]:
    """A deal where seat 0 could make fifteen or 31 in the play and played another card."""
    game = Game.new(seed=seed, first_dealer=0)
    bots = [make_player("standard", 1), make_player("standard", 2)]
    planted = ""
    while game.deal_number < 2:
        seat = game.current_player
        if seat == 0 and game.phase == "play" and not planted:
            plays = [m for m in game.legal_moves() if m.kind == "play"]
            scoring = [m for m in plays if game.count + m.cards[0].value in (15, 31)]
            others = [m for m in plays if game.count + m.cards[0].value not in (15, 31)
                      and all(m.cards[0].rank != c.rank for c in game.pile[-1:])]
            if scoring and others:
                planted = others[0].cards[0].code
                game.apply(others[0])
                continue
        game.apply(computer_move(bots[seat], game.view(seat)))
    return game, planted


@pytest.mark.parametrize("seed", [9, 19])
def test_review_grades_a_missed_fifteen_or_31(seed):
    game, planted = missed_points_game(seed)
    assert planted
    report = review_game(game, 0)
    played = [d for d in report["decisions"] if d["kind"] == "play" and d["chosen"] == [planted]]
    assert played[0]["category"] in ("mistake", "blunder"), played[0]
    assert played[0]["best"] != [planted] and played[0]["reason"]
    assert played[0] in report["costliest"]


def test_protocol_reviews_deal_by_deal_then_the_whole_game():
    game = Game.new(seed=5, first_dealer=0)
    play_out(game, [make_player("standard", 1), make_player("expert", 2)], max_deals=3)
    session = Session()
    session.call("load", json.dumps({"save": game.to_json()}))
    deals, decisions = None, []
    number = 1
    while deals is None or number <= deals:
        reply = json.loads(session.call("review_game", json.dumps({"seat": 0, "deal": number})))
        assert reply["ok"], reply
        assert reply["result"]["deal"] == number
        deals = reply["result"]["deals"]
        decisions += reply["result"]["decisions"]
        number += 1
    assert deals == game.deal_number >= 3
    whole = json.loads(session.call("review_game", '{"seat": 0}'))["result"]
    assert whole["decisions"] == decisions == review_game(game, 0)["decisions"]
    assert {d["position"]["deal"] for d in decisions} <= set(range(1, deals + 1))
    for bad in ({"seat": 0, "deal": 0}, {"seat": 0, "deal": deals + 1}, {"seat": 0, "deal": "1"}):
        error = json.loads(session.call("review_game", json.dumps(bad)))["error"]
        assert error["kind"] == "bad-request" and "deal" in error["message"]
    progress: list[tuple[int, int]] = []
    review_game(game, 0, progress=lambda done, total: progress.append((done, total)))
    assert progress == [(n, deals) for n in range(1, deals + 1)]


# --- the coach near the end -------------------------------------------------------------


def test_coach_uses_the_board_near_the_end():
    """Where the board changes the advice the coach ranks by the chance to win and says
    why: lay away the sixes (a sure 8) rather than 6♦ J♣, the most points."""
    game = Game.scripted(Rules(), dealer=0, hands=["2H 3H 7S 8S 9D KH", "QC QD JC 6D 5S 6C"],
                         starter="AS", scores=(113, 113))
    view = game.view(1)
    advice = coach_advice(view, "en")
    wins = [choice["win"] for choice in advice["choices"]]
    assert wins == sorted(wins, reverse=True) and len(wins) == 15
    assert sorted(advice["choices"][0]["discard"]) == ["6C", "6D"]
    points_best = max(advice["choices"], key=lambda choice: choice["net"])
    assert sorted(points_best["discard"]) == ["6D", "JC"] and points_best["win"] < wins[0]
    note = advice["note"]
    assert isinstance(note, str) and "need 8" in note
    assert note.index("6♦ 6♣") < note.index("6♦ J♣")  # lay away the sixes rather than…
    for lang in ("es", "ja"):
        other = coach_advice(view, lang)
        assert other["note"] and other["note"] != note
        assert [c["win"] for c in other["choices"]] == wins
    far = coach_advice(Game.scripted(dealer=0, hands=["2H 3H 7S 8S 9D KH",
                                                      "QC QD JC 6D 5S 6C"],
                                     starter="AS").view(1))
    assert far["note"] is None and all("win" not in choice for choice in far["choices"])
    nets = [choice["net"] for choice in far["choices"]]
    assert nets == sorted(nets, reverse=True)
