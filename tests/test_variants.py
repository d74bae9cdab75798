"""Five-card and seven-card cribbage (docs/rules.md rule 21): the options, the deal,
the pone's three, the single play of five-card, the show of 3 and 5 cards, saves,
the protocol, the command line, the computer players and the distributions."""

import json
import random
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import reference_show_any

from cribbage import Card, Game, GameStateError, Rules, parse_cards, score_hand
from cribbage.cards import full_deck
from cribbage.players import computer_move, make_player
from cribbage.players.pegging import PlaySearch
from cribbage.protocol import Session
from cribbage.rules import Outcome, RulesError
from cribbage.scoring import MAX_COUNT, hand_points
from cribbage.stats import hands_total, score_distribution

FIVE, SEVEN = Rules(cards=5), Rules(cards=7)


def show(hand, starter, crib=False):
    return score_hand(parse_cards(hand), Card.parse(starter), crib=crib).total


# --- the options -------------------------------------------------------------------


def test_the_target_follows_the_variant_unless_given():
    assert (Rules().target, FIVE.target, SEVEN.target) == (121, 61, 181)
    assert Rules(cards=6, target=61).target == 61
    assert Rules.from_dict({"cards": 5}) == Rules(cards=5, target=61)
    assert Rules.from_dict({"players": 2, "target": 121}).cards == 6  # older saves
    assert (FIVE.cards_dealt, FIVE.hand_size, SEVEN.cards_dealt, SEVEN.hand_size) == (5, 3, 7, 5)
    assert FIVE.discards_each == SEVEN.discards_each == 2


@pytest.mark.parametrize("options, message", [
    ({"cards": 5, "players": 3}, "two players"), ({"cards": 7, "players": 4}, "two players"),
    ({"cards": 5, "target": 121}, "played to 61"), ({"cards": 7, "target": 121}, "181"),
    ({"cards": 6, "target": 181}, "121 or 61"), ({"cards": 4}, "5, 6 or 7"),
    ({"cards": "5"}, "5, 6 or 7"), ({"cards": True}, "5, 6 or 7"), ({"cards": 5.0}, "5, 6 or 7"),
])
def test_bad_variants_are_refused(options, message):
    with pytest.raises(RulesError, match=message):
        Rules(**options)


def test_skunk_lines_of_61_and_181():
    assert FIVE.skunk_lines == [31] and SEVEN.skunk_lines == [151, 121]
    assert Outcome.judge(FIVE, 0, [61, 30]).kind == "skunk"
    assert Outcome.judge(FIVE, 0, [61, 31]).kind == "win"
    assert Outcome.judge(SEVEN, 0, [181, 151]).kind == "win"
    assert Outcome.judge(SEVEN, 0, [181, 150]).kind == "skunk"
    assert Outcome.judge(SEVEN, 1, [120, 181]).game_points == 3
    assert Outcome.judge(Rules(cards=7, skunk="lurch"), 0, [181, 90]).kind == "lurch"


# --- the deal and the pone's three ----------------------------------------------------


@pytest.mark.parametrize("rules, kept", [(FIVE, 3), (SEVEN, 5)])
def test_deal_sizes_two_each_to_a_crib_of_four(rules, kept):
    game = Game.new(rules, seed=4, first_dealer=0)
    assert [len(hand) for hand in game.hands] == [rules.cards, rules.cards]
    while game.phase == "discard":
        game.apply(game.legal_moves()[0])
    assert [len(k) for k in game.kept] == [kept, kept] and len(game.crib) == 4
    view = game.view(1).to_dict()
    assert (view["hand_size"], view["cards_dealt"], view["rules"]["cards"]) == (
        kept, rules.cards, rules.cards)


def test_pone_of_the_first_hand_pegs_three_at_the_start_of_five_card():
    game = Game.new(FIVE, seed=3, first_dealer=0)
    assert game.scores == [0, 3]
    three = [e for e in game.events if e.kind == "three"]
    assert [(e.seat, e.points, e.deal) for e in three] == [(1, 3, 1)]
    cut = Game.new(FIVE, seed=5)
    while cut.phase == "cut":
        cut.apply("cut")
    assert cut.scores[1 - cut.dealer] == 3 and cut.scores[cut.dealer] == 0
    for _ in range(2):  # only once a game: later deals add nothing
        while cut.deal_number == 1:
            cut.apply(cut.legal_moves()[0])
    assert len([e for e in cut.events if e.kind == "three"]) == 1
    assert Game.new(SEVEN, seed=3, first_dealer=0).scores == [0, 0]
    assert Game.new(Rules(), seed=3, first_dealer=0).scores == [0, 0]


# --- the play -------------------------------------------------------------------------


def five_card_deal(pone, dealer, starter="7S"):
    return Game.scripted(FIVE, dealer=0, hands=[dealer, pone], crib="AH AD 4C 6H",
                         starter=starter)


def test_five_card_play_ends_with_the_first_go_and_cards_stay_unplayed():
    game = five_card_deal(pone="TS JH 9C", dealer="KD 2C 3D")
    for move in ("cut", "play TS", "play KD", "play JH"):
        game.apply(move)
    go = [e for e in game.events if e.kind == "go"]
    assert [(e.seat, e.points) for e in go] == [(1, 1)]
    assert [e.kind for e in game.events if e.deal == 1][-3:] == ["hand", "hand", "crib"]
    assert game.deal_number == 2 and game.phase == "discard"
    shown = {e.seat: e.cards for e in game.events if e.kind == "hand"}
    assert sorted(shown[1]) == sorted(parse_cards("TS JH 9C"))  # hands of three, as kept
    assert sorted(shown[0]) == sorted(parse_cards("KD 2C 3D"))


def test_five_card_play_ends_at_31_without_a_go_point():
    game = five_card_deal(pone="5S 6S 9D", dealer="TD TH JC")
    for move in ("cut", "play 5S", "play TD", "play 6S", "play TH"):
        game.apply(move)
    assert not [e for e in game.events if e.kind in ("go", "last card")]
    plays = [e.points for e in game.events if e.kind == "play"]
    assert plays == [0, 2, 0, 2]  # fifteen 2, thirty-one 2
    assert game.phase == "discard" and game.deal_number == 2


def test_five_card_last_card_when_every_card_fits():
    game = five_card_deal(pone="AS 2S 3D", dealer="4D 5H 6C")
    for move in ("cut", "play AS", "play 4D", "play 2S", "play 5H", "play 3D", "play 6C"):
        game.apply(move)
    assert [(e.kind, e.seat) for e in game.events if e.kind in ("go", "last card")] == [
        ("last card", 0)]


def test_seven_card_play_goes_on_until_every_card_is_played():
    game = Game.new(SEVEN, seed=11, first_dealer=1)
    rng = random.Random(2)
    while game.deal_number < 4:
        game.apply(rng.choice(game.legal_moves()))
    for deal in (1, 2, 3):
        plays = [e for e in game.events if e.deal == deal and e.kind == "play"]
        assert len(plays) == 10


def test_search_knows_the_single_play_of_five_card():
    def after(single):
        search = PlaySearch(2, [0, 1], 0, single_series=single)
        return search.after_card(((1,), (5,)), (10, 10, 10), 0, 0, 1, 30, 99, (0, 0))

    assert after(single=True) == 2       # 31, and the 5 is never played
    assert after(single=False) == 2 - 1  # the 5 leads a new count: last card


# --- the show ---------------------------------------------------------------------------


def test_three_card_hands_flush_three_or_four_crib_needs_five():
    assert show("2H 8H QH", "5S") == 4 + 3      # Q+5, 2+8+5 and a flush of 3
    assert show("2H 8H QH", "5H") == 4 + 4
    assert show("2H 4H 6H 8H", "KS", crib=True) == 0
    assert show("2H 4H 6H 8H", "KH", crib=True) == 5
    assert show("5C 5D 5H", "5S") == 20          # the highest three-card hand
    assert show("JD 4C 8S", "2D") == 1           # nobs


def test_five_card_hands_flush_five_or_six_runs_and_nobs():
    assert show("2H 4H 6H 8H TH", "KS") == 5
    assert show("2H 4H 6H 8H TH", "QH") == 6
    assert show("AH 2H 3H 7S 8S", "9D") == 3 + 3 + 4  # two runs, 7+8 and A+2+3+9
    assert show("3H 4C 5D 5S 6H", "7C") == 5 + 5 + 2 + 8  # double run of 5, pair, 4 fifteens
    assert show("4H 4C 5D 5S 6H", "6C") == 46     # the highest five-card hand
    assert show("JC 2D 3S 9H KS", "4C") == 3 + 6 + 1  # run, 2+3+J, 2+3+K, 2+4+9, nobs


@pytest.mark.parametrize("size", [3, 5])
def test_any_size_against_the_independent_scorer(size):
    rng = random.Random(size)
    deck = full_deck()
    for _ in range(1500):
        cards = rng.sample(deck, size + 1)
        hand, starter = cards[:size], cards[size]
        plain = [(c.rank, c.suit) for c in hand]
        for crib in (False, True):
            expected = reference_show_any(plain, (starter.rank, starter.suit), crib)
            assert score_hand(hand, starter, crib=crib).total == expected
            assert hand_points(hand, starter, crib) == expected


# --- whole games, saves, manual counting ---------------------------------------------------


def play_random(rules, seed):
    rng = random.Random(seed)
    game = Game.new(rules, seed=seed, first_dealer=None if seed % 2 else seed % 2)
    while not game.is_over:
        game.apply(rng.choice(game.legal_moves()))
        if game.phase in ("play", "peg_count", "count", "muggins"):
            assert [len(k) for k in game.kept] == [rules.hand_size] * 2
            assert len(game.crib) == 4
        assert game.count <= MAX_COUNT
    assert game.scores[game.outcome.winner] >= rules.target
    assert game.scores == [sum(e.points for e in game.events if e.team == t) for t in (0, 1)]
    if rules.single_series:
        for deal in {e.deal for e in game.events if e.kind == "crib"}:
            plays = [e for e in game.events if e.deal == deal and e.kind == "play"]
            assert plays == [] or sum(card.value for e in plays for card in e.cards) <= 31
            closes = [e for e in game.events if e.deal == deal and e.kind in ("go", "last card")]
            assert len(closes) <= 1
    return game


VARIANT_RULES = [Rules(cards=c, manual_counting=m, muggins=m, manual_pegging=g,
                       exact_finish=x, skunk=s)
                 for c in (5, 7)
                 for m, g, x, s in [(False, False, False, "acc"), (True, False, True, "lurch"),
                                    (True, True, False, "none")]]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VARIANT_RULES), st.integers(0, 2**32))
def test_random_variant_games_keep_the_rules_and_replay_from_their_save(rules, seed):
    game = play_random(rules, seed)
    loaded = Game.from_json(game.to_json())
    assert loaded.scores == game.scores and loaded.outcome == game.outcome
    assert loaded.rules == rules


def test_manual_count_of_a_big_seven_card_hand_is_legal():
    game = Game.scripted(Rules(cards=7, manual_counting=True), dealer=0,
                         hands=["4H 4C 5D 5S 6H", "KS QS JS TS 9S"], crib="AH 2H 3C 7D",
                         starter="6C")
    while game.phase != "count":
        game.apply(game.legal_moves()[0])
    assert str(game.legal_moves()[-1]) == "count 46"


@pytest.mark.parametrize("rules", [FIVE, SEVEN])
def test_saves_round_trip_mid_deal(rules):
    game = Game.new(rules, seed=9, first_dealer=1)
    rng = random.Random(1)
    for _ in range(15):
        game.apply(rng.choice(game.legal_moves()))
    text = game.to_json()
    assert json.loads(text)["rules"]["cards"] == rules.cards
    loaded = Game.from_json(text)
    assert loaded.view(0).to_dict() == game.view(0).to_dict()


def test_old_saves_without_cards_load_as_six_card():
    game = Game.new(Rules(), seed=2, first_dealer=0)
    game.apply(game.legal_moves()[0])
    data = json.loads(game.to_json())
    del data["rules"]["cards"]
    assert Game.from_dict(data).rules.cards == 6


@pytest.mark.parametrize("cards, extra", [
    (8, {}), ("5", {}), (True, {}), (None, {}), (5.0, {}), (5, {"players": 3}),
    (5, {"target": 121}), (7, {"target": 61}), (6, {"target": 0}), (5, {"target": 0}),
])
def test_saves_with_bad_variants_are_refused(cards, extra):
    game = Game.new(FIVE, seed=2, first_dealer=0)
    data = json.loads(game.to_json())
    data["rules"]["cards"] = cards
    data["rules"].update(extra)
    with pytest.raises(GameStateError, match="rules"):
        Game.from_dict(data)


def test_a_six_card_script_is_refused_in_five_card():
    with pytest.raises(GameStateError, match="5 cards"):
        Game.scripted(FIVE, dealer=0, hands=["5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 7C"],
                      starter="5H")


# --- the computer players ---------------------------------------------------------------


@pytest.mark.parametrize("rules, a, b", [
    (FIVE, "beginner", "easy"), (FIVE, "standard", "expert"), (FIVE, "master", "standard"),
    (SEVEN, "beginner", "easy"), (SEVEN, "standard", "master"),
])
def test_every_level_plays_whole_variant_games_legally(rules, a, b):
    game = Game.new(rules, seed=21, first_dealer=0)
    players = [make_player(a, 1), make_player(b, 2)]
    while not game.is_over:
        seat = game.current_player
        move = computer_move(players[seat], game.view(seat))
        assert move in game.legal_moves()
        game.apply(move)


def test_expert_keeps_three_and_five_by_the_right_hand():
    game = Game.scripted(FIVE, dealer=1, hands=["5S 5H JD 4C KC", "AS 2D 7H 9C QD"],
                         starter="3C")
    kept = set(parse_cards("5S 5H JD 4C KC")) - set(make_player("expert").discard(game.view(0)))
    assert len(kept) == 3
    seven = Game.scripted(SEVEN, dealer=1, hands=["5S 5H 4C 6C 6D KS 9H", "AS 2D 7H 9C QD 3S 8D"],
                          starter="3C")
    thrown = make_player("standard").discard(seven.view(0))
    assert sorted(c.code for c in thrown) == ["9H", "KS"]  # keeps the double-double run


# --- the protocol and the command line -------------------------------------------------------


def call(session, name, payload=None):
    return json.loads(session.call(name, json.dumps(payload or {})))


def test_hello_offers_the_variants_and_new_game_starts_one():
    session = Session()
    options = call(session, "hello")["result"]["options"]
    assert options["cards"] == [6, 5, 7] and 181 in options["target"]
    assert options["variants"]["5"] == {"players": [2], "target": [61]}
    assert options["variants"]["7"] == {"players": [2], "target": [181]}
    assert options["variants"]["6"] == {"players": [2, 3, 4], "target": [121, 61]}
    reply = call(session, "new_game", {"rules": {"cards": 5}, "seed": 1, "first_dealer": 0,
                                       "seat": 0})
    view = reply["result"]["view"]
    assert view["rules"]["target"] == 61 and view["hand_size"] == 3 and len(view["hand"]) == 5
    assert view["scores"] == [0, 3]
    bad = call(session, "new_game", {"rules": {"cards": 7, "players": 3}})
    assert bad["error"]["kind"] == "bad-request" and "two players" in bad["error"]["message"]


def test_hand_distribution_of_each_variant():
    session = Session()
    five = call(session, "hand_distribution", {"cards": 5})["result"]
    assert five["total"] == sum(five["hand"]) == 1_082_900 and len(five["hand"]) == 30
    assert five["crib_total"] == sum(five["crib"]) == 12_994_800
    assert call(session, "hand_distribution", {"cards": 8})["error"]["kind"] == "bad-request"


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "cribbage", *args], capture_output=True,
                          text=True, timeout=300)


def test_cli_cards_option():
    arena = run_cli("arena", "--cards", "5", "--games", "2", "--a", "easy", "--b", "beginner",
                    "--json")
    report = json.loads(arena.stdout)
    assert (report["cards"], report["target"], report["games"]) == (5, 61, 2)
    advise = run_cli("advise", "5S", "5H", "4C", "6C", "6D", "KS", "9H", "--cards", "7")
    assert advise.returncode == 0 and "9H KS" in advise.stdout.splitlines()[1]
    stats = json.loads(run_cli("stats", "--cards", "5", "--json").stdout)
    assert sum(stats["hand"].values()) == 1_082_900 and stats["hand"]["20"] == 4
    for args in (["arena", "--cards", "7", "--players", "3"], ["arena", "--cards", "9"],
                 ["advise", "5S", "5H", "4C", "6C", "6D", "KS", "--cards", "5"],
                 ["arena", "--cards", "5", "--target", "121"]):
        result = run_cli(*args)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.stderr


# --- the distributions -------------------------------------------------------------------


# Every (3-card hand, starter) counted one by one with tests/reference.py's naive scorer
# (reference_show_any; 100 s): a figure computed independently of cribbage.stats.
THREE_CARD_HANDS = {0: 260220, 1: 18180, 2: 403032, 3: 63288, 4: 144716, 5: 69300,
                    6: 72928, 7: 16832, 8: 18668, 9: 5964, 10: 4044, 11: 824, 12: 4372,
                    13: 164, 14: 268, 15: 96, 20: 4}


def test_three_card_distribution_matches_the_one_by_one_count():
    assert dict(score_distribution(3)["hand"]) == THREE_CARD_HANDS
    assert sum(THREE_CARD_HANDS.values()) == hands_total(3) == 1_082_900


def test_five_card_distribution_totals_extremes_and_mean():
    dist = score_distribution(5)
    hands, cribs = dist["hand"], dist["crib"]
    assert sum(hands.values()) == sum(cribs.values()) == hands_total(5) == 122_151_120
    # 46 is only 4-4-5-5-6-6: 6 ** 3 suit choices, any of the 6 cards the starter.
    assert max(hands) == 46 and hands[46] == 6 ** 3 * 6
    # A hand flush without the starter: a crib scores it nothing (the crib loses 5 each).
    flush_no_starter = 4 * 1287 * 39  # suits x C(13, 5) x off-suit starters
    assert sum(k * v for k, v in hands.items()) - sum(k * v for k, v in cribs.items()) \
        == 5 * flush_no_starter
    mean = sum(k * v for k, v in hands.items()) / hands_total(5)
    rng, deck, sample = random.Random(7), full_deck(), []
    for _ in range(4000):
        cards = rng.sample(deck, 6)
        sample.append(reference_show_any([(c.rank, c.suit) for c in cards[:5]],
                                         (cards[5].rank, cards[5].suit), False))
    sample_mean = sum(sample) / len(sample)
    spread = (sum((x - sample_mean) ** 2 for x in sample) / len(sample)) ** 0.5
    assert abs(mean - sample_mean) < 4 * spread / len(sample) ** 0.5
    assert Counter(sample)[0] / len(sample) == pytest.approx(hands[0] / hands_total(5), abs=0.015)


# --- the coach ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules, discards, kept", [(FIVE, 10, 3), (SEVEN, 21, 5)])
def test_the_coach_ranks_every_discard_and_card_of_a_variant(rules, discards, kept):
    from cribbage.coach import coach_advice

    game = Game.new(rules, seed=8, first_dealer=0)
    advice = coach_advice(game.view(1))
    assert advice["kind"] == "discard" and len(advice["choices"]) == discards
    assert all(len(choice["keep"]) == kept for choice in advice["choices"])
    best = advice["choices"][0]
    assert best["net"] == max(choice["net"] for choice in advice["choices"])
    while game.phase != "play" or game.current_player != 1:
        game.apply(game.legal_moves()[0])
    play = coach_advice(game.view(1))
    assert play["kind"] == "play" and {c["card"] for c in play["choices"]} == {
        str(m).split()[1] for m in game.legal_moves()}
