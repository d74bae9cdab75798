"""Show and pegging scoring (docs/rules.md rules 10, 13, 14) against an independent scorer."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import reference_peg, reference_show

from cribbage import Card, ScoreError, full_deck, hand_points, parse_cards, score_hand, score_peg
from cribbage.scoring import cadence
from cribbage.stats import score_distribution


def show(text, starter, crib=False):
    return score_hand(parse_cards(text), Card.parse(starter), crib=crib)


def kinds(score):
    return [(item.kind, item.points) for item in score.items]


# --- rule 13: the parts of a show score ---------------------------------------

def test_each_fifteen_is_two():
    assert kinds(show("5S TH KD 2C", "3H")) == [
        ("fifteen", 2), ("fifteen", 2), ("fifteen", 2), ("fifteen", 2)]


def test_pairs_three_and_four_of_a_kind():
    assert show("7S 7H 2D 9C", "KH").total == 2
    assert show("7S 7H 7D 9C", "KH").total == 6
    assert show("7S 7H 7D 7C", "KH").total == 12


@pytest.mark.parametrize("hand, starter, runs, total", [
    ("2S 2H 3D 4C", "QH", [3, 3], 8 + 4),      # double run of 3 (+ two fifteens 2-3-Q)
    ("2S 2H 2D 3C", "4H", [3, 3, 3], 15),      # triple run
    ("2S 3H 3D 4C", "4H", [3, 3, 3, 3], 16),   # double-double run
    ("3S 4H 5D 6C", "KH", [4], 4 + 4),         # run of 4 (+ fifteens 4-5-6, 5-K)
    ("AS 2H 3D 4C", "5H", [5], 5 + 2),         # run of 5 (+ fifteen)
])
def test_runs(hand, starter, runs, total):
    score = show(hand, starter)
    assert [i.points for i in score.items if i.kind == "run"] == runs
    assert score.total == total


def test_long_run_is_never_also_counted_as_shorter_runs():
    runs = [item for item in show("3S 4H 5D 6C", "7H").items if item.kind == "run"]
    assert [item.points for item in runs] == [5]


def test_ace_is_low_no_wraparound():  # rule 1
    assert [i.kind for i in show("QS KH AD 5C", "9H").items if i.kind == "run"] == []
    assert [i.points for i in show("AS 2H 3D 8C", "9H").items if i.kind == "run"] == [3]


def test_flush_hand_and_crib():
    assert ("flush", 4) in kinds(show("2H 4H 6H 8H", "KS"))
    assert ("flush", 5) in kinds(show("2H 4H 6H 8H", "KH"))
    assert all(kind != "flush" for kind, _ in kinds(show("2H 4H 6H 8H", "KS", crib=True)))
    assert ("flush", 5) in kinds(show("2H 4H 6H 8H", "KH", crib=True))
    # a flush of three hand cards plus the starter is no flush
    assert all(kind != "flush" for kind, _ in kinds(show("2H 4H 6H 8S", "KH")))


def test_nobs():
    assert ("nobs", 1) in kinds(show("JD 2S 4C 6H", "9D"))
    assert ("nobs", 1) not in kinds(show("JD 2S 4C 6H", "9S"))
    assert ("nobs", 1) in kinds(show("JD 2S 4C 6H", "9D", crib=True))


def test_items_are_in_counting_order_with_their_cards():
    score = show("5S 5H JH 4C", "6H")
    order = ["fifteen", "pair", "run", "flush", "nobs"]
    assert [order.index(i.kind) for i in score.items] == sorted(order.index(i.kind)
                                                                 for i in score.items)
    for item in score.items:
        if item.kind == "fifteen":
            assert sum(card.value for card in item.cards) == 15


# --- rule 14: facts the scorer must reproduce ------------------------------------

def test_29_hand():
    assert show("5C 5D 5H JS", "5S").total == 29
    assert show("5C 5D 5S JH", "5H").total == 29


@pytest.mark.parametrize("hand, starter", [("4S 4H 5D 5C", "6H"), ("6S 7H 7D 8C", "8H")])
def test_24_hands(hand, starter):
    assert show(hand, starter).total == 24


def test_published_distribution_of_all_12994800_hands():
    published = {  # Lumetta, "Amusing Cribbage Facts": all (4-card hand, starter) pairs
        0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268,
        7: 751324, 8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656,
        14: 90100, 15: 9168, 16: 58248, 17: 11196, 18: 2708, 20: 8068, 21: 2496, 22: 444,
        23: 356, 24: 3680, 28: 76, 29: 4}
    dist = score_distribution()
    assert dict(dist["hand"]) == published
    assert sum(dist["crib"].values()) == 12_994_800
    assert dist["crib"][0] == 1_022_208  # published: zero-point cribs
    for impossible in (19, 25, 26, 27):
        assert dist["hand"][impossible] == 0 and dist["crib"][impossible] == 0


# --- against the independent scorer ------------------------------------------------

def test_random_sample_against_reference():
    rng = random.Random(2024)
    deck = full_deck()
    for _ in range(20000):
        cards = rng.sample(deck, 5)
        hand, starter = cards[:4], cards[4]
        as_tuples = [(c.rank, c.suit) for c in hand]
        for crib in (False, True):
            expected = reference_show(as_tuples, (starter.rank, starter.suit), crib)
            assert score_hand(hand, starter, crib).total == expected
            assert hand_points(hand, starter, crib) == expected


cards5 = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True).map(
    lambda ix: [Card.from_index(i) for i in ix])


@given(cards5, st.permutations("SHDC"))
def test_suit_permutation_invariance_without_flush_or_nobs(cards, perm):
    hand, starter = cards[:4], cards[4]
    mapping = dict(zip("SHDC", perm))
    moved = [Card(c.rank, mapping[c.suit]) for c in hand]
    moved_starter = Card(starter.rank, mapping[starter.suit])
    assert score_hand(moved, moved_starter).total == score_hand(hand, starter).total
    blind = [i for i in score_hand(hand, starter).items if i.kind not in ("flush", "nobs")]
    assert sum(i.points for i in blind) == sum(
        i.points for i in score_hand(moved, moved_starter).items
        if i.kind not in ("flush", "nobs"))


@given(cards5)
def test_order_of_hand_cards_does_not_matter(cards):
    hand, starter = cards[:4], cards[4]
    assert score_hand(hand[::-1], starter).total == score_hand(hand, starter).total


@given(cards5)
def test_total_is_sum_of_items_and_never_impossible(cards):
    score = score_hand(cards[:4], cards[4])
    assert score.total == sum(i.points for i in score.items)
    assert 0 <= score.total <= 29 and score.total not in (19, 25, 26, 27)


@given(cards5, st.booleans())
def test_each_item_holds_exactly_the_cards_that_make_it(cards, crib):
    """A table lights each item's cards as it is counted: they must be the item's own."""
    hand, starter = cards[:4], cards[4]
    for item in score_hand(hand, starter, crib).items:
        assert set(item.cards) <= set(cards) and len(set(item.cards)) == len(item.cards)
        ranks = sorted(card.rank for card in item.cards)
        if item.kind == "fifteen":
            assert sum(card.value for card in item.cards) == 15
        elif item.kind == "pair":
            assert len(item.cards) == 2 and ranks[0] == ranks[1]
        elif item.kind == "run":
            assert ranks == list(range(ranks[0], ranks[0] + item.points))
        elif item.kind == "flush":
            assert len(item.cards) == item.points and len({c.suit for c in item.cards}) == 1
            assert (starter in item.cards) == (item.points == 5)
        else:  # his nobs: the jack and the starter whose suit it matches
            assert item.kind == "nobs" and item.cards[1] == starter
            assert item.cards[0].rank == 11 and item.cards[0].suit == starter.suit


def test_show_input_errors():
    with pytest.raises(ScoreError, match="3, 4 or 5 cards"):
        show("5S 4S", "5H")
    with pytest.raises(ScoreError, match="3, 4 or 5 cards"):
        show("5S 4S 2S 3S 7D 8D", "5H")
    with pytest.raises(ScoreError, match="twice"):
        show("5S 5S 2S 3S", "5H")
    with pytest.raises(ScoreError, match="starter"):
        show("5S 4S 2S 3S", "5S")


def test_cadence():
    assert cadence(show("5S 5H JH 4C", "6H").items).startswith("fifteen two, fifteen four")


# --- rule 10: pegging ------------------------------------------------------------

def peg(text):
    return kinds(score_peg(parse_cards(text)))


def test_peg_fifteen_and_thirty_one():
    assert peg("JH 5S") == [("fifteen", 2)]
    assert peg("KS QH 5C 6D") == [("thirty-one", 2)]
    assert peg("KS 5H") == [("fifteen", 2)]


def test_peg_pairs_2_6_12_in_unbroken_chain():
    assert peg("3S 3H") == [("pair", 2)]
    assert peg("3S 3H 3D") == [("pair", 6)]
    assert peg("3S 3H 3D 3C") == [("pair", 12)]
    assert peg("3S 4H 3D") == []  # an intervening card breaks the pair


def test_peg_combinations_score_together():
    assert peg("5C 5D 5H") == [("fifteen", 2), ("pair", 6)]
    assert peg("2S 3S 4H 4D 2C") == [("fifteen", 2)]  # 4-4 broken by the 2
    assert peg("7S 7H AC") == [("fifteen", 2)]
    assert peg("3S 3D 3H 3C AS 2D") == [("fifteen", 2), ("run", 3)]  # 3-A-2


def test_peg_runs_any_order_and_broken_runs():
    assert peg("4S 6H 5D") == [("fifteen", 2), ("run", 3)]
    assert peg("4S 5H 5D 6C") == []          # 4-5-5-6: no run (seed rule)
    assert peg("5S 6H 5D 7C") == [("run", 3)]  # 6-5-7
    assert peg("3S 4H 5D 6C 7S") == [("run", 5)]
    assert peg("AS 2H 3D") == [("run", 3)]
    assert peg("QS KH AD") == []


def test_peg_count_never_passes_31():
    with pytest.raises(ScoreError, match="31"):
        score_peg(parse_cards("KS QH JD 2C"))
    with pytest.raises(ScoreError):
        score_peg([])


@given(st.lists(st.integers(0, 51), min_size=1, max_size=8, unique=True))
def test_peg_against_reference(indexes):
    pile = [Card.from_index(i) for i in indexes]
    while sum(c.value for c in pile) > 31:
        pile.pop(0)
    if pile:
        assert score_peg(pile).total == reference_peg([(c.rank, c.suit) for c in pile])
