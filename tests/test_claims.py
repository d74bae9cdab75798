"""Manual counting in the show and in the play: claims, muggins both ways, exact finish
(docs/rules.md rules 18-19), and moves that are not text."""

import json

import pytest

from cribbage import Card, Game, IllegalMoveError, Rules, RulesError
from cribbage.arena import play_game
from cribbage.game import EVENT_KINDS
from cribbage.i18n import LANGUAGES
from cribbage.players import LEVELS, computer_move, make_player

ALICE, BOB = 0, 1  # Alice deals; Bob's hand 6D JH 4H 7C with starter 5H is worth 9
BOB_WORTH, ALICE_WORTH = 9, 12


def at_show(rules, bob=0, alice=0):
    """The seeds' deal with its discards made, played out to Bob's count."""
    game = Game.scripted(rules, dealer=ALICE, hands=["5S 4S 2S 6H", "6D JH 4H 7C"],
                         crib="TS 8D KC 8C", starter="5H", scores=[alice, bob])
    while game.phase in ("starter", "play", "peg_count"):
        move = game.legal_moves()[0]
        if game.phase == "peg_count":
            move = computer_move(make_player("expert"), game.view(game.current_player))
        game.apply(move)
    assert game.phase == "count" and game.current_player == BOB
    return game


def kinds(game, *wanted):
    return [(e.kind, e.seat, e.points, e.count, e.miscount) for e in game.events
            if e.kind in wanted]


MUGGINS_EXACT = Rules(manual_counting=True, muggins=True, exact_finish=True)


# --- rule 19 with rule 18: the true worth decides an exact finish -----------------------

@pytest.mark.parametrize("bob, claim", [(116, 5), (113, 8)])
def test_exact_finish_under_claim_cannot_count_out(bob, claim):
    game = at_show(MUGGINS_EXACT, bob=bob)
    game.apply(f"count {claim}")  # lands on 121, but the hand is worth 9: past the target
    assert not game.is_over and game.scores[BOB] == bob
    hand = kinds(game, "hand")[-1]
    assert hand[2] == 0 and game.events[-1].refused == claim
    assert game.phase == "muggins" and game.current_player == ALICE  # the miss may be mugged
    game.apply("muggins")
    assert kinds(game, "muggins") == [("muggins", ALICE, BOB_WORTH - claim, claim, "under")]


def test_exact_finish_right_claim_counts_out():
    game = at_show(MUGGINS_EXACT, bob=112)
    game.apply("count 9")
    assert game.is_over and game.scores[BOB] == 121


def test_exact_finish_over_claim_past_the_target_is_refused_if_it_stands():
    game = at_show(MUGGINS_EXACT, bob=110)
    game.apply("count 15")  # 125: the claim cannot be pegged
    game.apply("pass")
    assert game.scores[BOB] == 110 and game.events[-1].refused == 15 and not game.is_over


# --- rule 18: over-claims ---------------------------------------------------------------

def test_over_claim_with_muggins_waits_for_the_opponent_and_costs_the_excess():
    game = at_show(Rules(manual_counting=True, muggins=True))
    before = list(game.scores)
    game.apply("count 13")
    assert game.phase == "muggins" and game.current_player == ALICE
    assert game.scores == before  # nothing is pegged on an unsettled over-claim
    claim = game.view(ALICE).claim
    assert (claim.seat, claim.what, claim.claimed) == (BOB, "hand", 13)
    assert game.view(ALICE).to_dict()["claim"]["claimed"] == 13
    game.apply("muggins")
    assert game.scores[BOB] - before[BOB] == BOB_WORTH  # put back to the true worth
    assert game.scores[ALICE] - before[ALICE] == 4  # and the caller scores the excess
    assert kinds(game, "claim", "hand", "muggins") == [
        ("claim", BOB, 0, 13, None), ("hand", BOB, 9, None, None),
        ("muggins", ALICE, 4, 13, "over")]
    assert game.phase == "count" and game.current_player == ALICE


def test_over_claim_nobody_calls_stands_as_pegged():
    game = at_show(Rules(manual_counting=True, muggins=True))
    game.apply("count 13")
    game.apply("pass")
    assert game.scores[BOB] == 13 and kinds(game, "hand") == [("hand", BOB, 13, None, None)]


def test_over_claim_does_not_win_before_the_muggins_turn():
    game = at_show(Rules(manual_counting=True, muggins=True), bob=110)
    game.apply("count 11")  # would make 121; the hand is worth 9
    assert not game.is_over and game.phase == "muggins"
    game.apply("muggins")
    assert not game.is_over and game.scores[BOB] == 119
    game = at_show(Rules(manual_counting=True, muggins=True), bob=110)
    game.apply("count 11")
    game.apply("pass")
    assert game.is_over and game.outcome.winner == BOB


def test_over_claim_without_muggins_is_corrected_to_the_true_worth():
    game = at_show(Rules(manual_counting=True))
    game.apply("count 20")
    assert game.scores[BOB] == BOB_WORTH and game.phase == "count"
    assert kinds(game, "hand") == [("hand", BOB, 9, None, "over")]


def test_under_claim_still_lets_the_opponent_take_the_missed_points():
    game = at_show(Rules(manual_counting=True, muggins=True))
    game.apply("count 7")
    assert game.scores[BOB] == 7 and game.phase == "muggins"
    game.apply("muggins")
    assert kinds(game, "muggins") == [("muggins", ALICE, 2, 7, "under")]


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_calls_an_over_claim(level):
    for seed in range(30):
        game = at_show(Rules(manual_counting=True, muggins=True))
        game.apply("count 10")
        player = make_player(level, seed=seed)
        assert computer_move(player, game.view(ALICE)).kind == "muggins"


# --- rule 18: manual pegging (muggins in the play) -------------------------------------

PEGGING = Rules(manual_counting=True, muggins=True, manual_pegging=True)


def example(rules=PEGGING, players=2):
    return Game.scripted(rules, dealer=ALICE, hands=["5S 4S 2S 8D 6H 8C",
                         "TS 6D JH 4H KC 7C"], starter="5H")


def test_manual_pegging_needs_manual_counting_and_old_rules_load():
    with pytest.raises(RulesError, match="manual pegging needs manual counting"):
        Rules(manual_pegging=True)
    assert Rules.from_dict({"manual_counting": True}).manual_pegging is False
    old = json.loads(Game.new(seed=3, first_dealer=0).to_json())
    del old["rules"]["manual_pegging"]
    assert Game.from_json(json.dumps(old)).rules == Rules()


def test_manual_pegging_claims_each_card_and_muggins_before_the_next():
    game = example()
    for move in ["discard TS KC", "discard 8D 8C", "cut", "play JH"]:
        game.apply(move)
    assert game.phase == "peg_count" and game.current_player == BOB
    assert [str(m) for m in game.legal_moves()] == [f"count {n}" for n in range(30)]
    for seat in (ALICE, BOB):  # the claim and the pile are public
        view = game.view(seat)
        assert view.claim.what == "play" and view.claim.cards == (Card.parse("JH"),)
        assert view.claim.claimed is None and view.pile == (Card.parse("JH"),)
    with pytest.raises(IllegalMoveError, match="claim the points of the card you laid"):
        game.apply("play 5S")
    game.apply("count 0")
    assert game.phase == "play" and game.current_player == ALICE
    game.apply("play 5S")
    game.apply("count 2")  # fifteen two: right, so no muggins turn
    assert game.phase == "play" and kinds(game, "peg")[-1] == ("peg", ALICE, 2, 15, None)
    for move in ["play 7C", "count 0", "play 6H", "count 1"]:  # the run of 3, claimed as 1
        game.apply(move)
    assert game.phase == "muggins" and game.current_player == BOB
    game.apply("muggins")
    assert kinds(game, "muggins") == [("muggins", BOB, 2, 1, "under")]
    assert game.phase == "play" and game.current_player == BOB
    game.apply("go")
    game.apply("play 2S")
    game.apply("count 0")  # the go point is automatic
    assert kinds(game, "go") == [("go", ALICE, 1, 30, None)]
    assert game.scores == [2 + 1 + 1, 2]


def test_manual_pegging_over_claim_and_heels_and_last_card_stay_automatic():
    rules = PEGGING
    game = Game.scripted(rules, dealer=ALICE, hands=["5S 4S 2S 6H", "6D QH 4H 7C"],
                         crib="TS 8D KC 8C", starter="JH")
    game.apply("cut")
    assert kinds(game, "heels") == [("heels", ALICE, 2, None, None)]
    game.apply("play QH")
    game.apply("count 5")  # worth nothing
    assert game.phase == "muggins" and game.scores == [2, 0]
    game.apply("pass")
    assert game.scores == [2, 5] and kinds(game, "peg")[-1] == ("peg", BOB, 5, 10, None)
    while game.phase != "count":
        game.apply(computer_move(make_player("expert"), game.view(game.current_player)))
    assert kinds(game, "last card")


def test_manual_pegging_over_claim_without_muggins_is_corrected():
    game = example(Rules(manual_counting=True, manual_pegging=True))
    for move in ["discard TS KC", "discard 8D 8C", "cut", "play JH", "count 0", "play 5S",
                 "count 9"]:
        game.apply(move)
    assert game.scores == [2, 0] and kinds(game, "peg")[-1] == ("peg", ALICE, 2, 15, "over")


def test_manual_pegging_muggins_order_with_three_players():
    game = Game.scripted(Rules(players=3, manual_counting=True, muggins=True,
                               manual_pegging=True), dealer=0,
                         hands=["9S QS 2S 3S", "5H 9H KH 7H", "KD QD 4D 3D"],
                         crib="AC 4C 5C 6C", starter="8C")
    for move in ["cut", "play 5H", "count 0", "play KD", "count 0"]:  # seat 2 missed 15
        game.apply(move)
    assert game.phase == "muggins" and game.current_player == 0  # left of the claimant
    game.apply("pass")
    assert game.current_player == 1
    game.apply("muggins")
    assert kinds(game, "muggins") == [("muggins", 1, 2, 0, "under")]
    assert game.phase == "play" and game.current_player == 0


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_plays_whole_games_with_manual_pegging(level):
    rules = Rules(target=61, manual_counting=True, muggins=True, manual_pegging=True)
    result = play_game(Game.new(rules, seed=4, first_dealer=0),
                       [make_player(level, seed=1), make_player(level, seed=2)])
    game = result.game
    assert game.is_over
    claims = [e for e in game.events if e.kind == "claim"]
    assert claims and any(e.kind == "peg" for e in game.events)


def test_levels_below_expert_sometimes_miss_points_in_the_play():
    game = example()
    for move in ["discard TS KC", "discard 8D 8C", "cut", "play JH", "count 0", "play 5S"]:
        game.apply(move)
    view = game.view(ALICE)
    assert {make_player("expert", seed=s).peg_count(view) for s in range(50)} == {2}
    assert {make_player("beginner", seed=s).peg_count(view) for s in range(50)} == {0, 2}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_claim_events_have_log_lines(lang):
    game = at_show(Rules(manual_counting=True, muggins=True))
    game.apply("count 13")
    game.apply("muggins")
    game.apply("count 15")
    game.apply("pass")
    for event in game.events:
        assert event.kind in EVENT_KINDS
        line = event.describe(lang)
        assert "{" not in line and not line.startswith("event."), line
    mugged = next(e for e in game.events if e.kind == "muggins")
    assert mugged.to_dict()["miscount"] == "over" and "13" in mugged.describe(lang)


# --- moves that are not text -------------------------------------------------------------

@pytest.mark.parametrize("move", [None, 5, 2.5, True, b"play 5S", ["play", "5S"],
                                  {"kind": "play"}, ("go",), Card.parse("5S"), object()])
def test_non_text_moves_are_illegal_and_change_nothing(move):
    game = example(Rules())
    game.apply("discard TS KC")
    before = game.to_json(), game.view(0).to_dict(), game.view(1).to_dict()
    with pytest.raises(IllegalMoveError):
        game.apply(move)
    assert (game.to_json(), game.view(0).to_dict(), game.view(1).to_dict()) == before


@pytest.mark.parametrize("text", ["count ٣", "count ²", "go 5S", "cut now", "pass 2"])
def test_odd_move_texts_are_illegal(text):
    game = example(Rules())
    with pytest.raises(IllegalMoveError):
        game.apply(text)
