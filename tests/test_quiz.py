"""The tutorial quizzes' right answers, each worked out again here.

The answers live in ``web/widgets/quiz.mjs`` (``ANSWERS``: the right option's
index for each question) and the options' words in ``web/lang/quiz.*.json``.
Each question's right option is found from the English options by a
computation that does not read the quiz: the naive scorer of
tests/reference.py, a brute force written here, or what the engine does in a
game (the engine owns the rules; the quiz only states them).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from functools import cache
from itertools import combinations, combinations_with_replacement
from pathlib import Path

import pytest
from reference import reference_peg, reference_show

from cribbage import Game, Rules
from cribbage.cards import full_deck
from cribbage.rules import Outcome

WEB = Path(__file__).resolve().parents[1] / "web"
NUMBERS = {"nothing": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "eight": 8}
RefCard = tuple[int, str]


def quiz_answers() -> dict[str, list[int]]:
    """``ANSWERS`` of quiz.mjs: section -> the right option's index for each question."""
    source = (WEB / "widgets" / "quiz.mjs").read_text("utf-8")
    block = source.split("export const ANSWERS = {", 1)[1].split("};", 1)[0]
    return {name: [int(a), int(b)]
            for name, a, b in re.findall(r'"?([\w-]+)"?: \[(\d), (\d)\]', block)}


def options(key: str) -> list[str]:
    words = json.loads((WEB / "lang" / "quiz.en.json").read_text("utf-8"))
    return list(words[f"quiz.{key}.a"])


def number_in(text: str) -> int:
    """The number an option states: ``"3, for a run of three"`` -> 3, ``"Six"`` -> 6."""
    found = re.match(r"\d+", text)
    return int(found.group()) if found else NUMBERS[text.split()[0].lower()]


def the_option(key: str, right: Callable[[str], bool]) -> int:
    """The index of the one option of ``key`` for which ``right`` holds."""
    found = [n for n, text in enumerate(options(key)) if right(text)]
    assert len(found) == 1, (key, options(key))
    return found[0]


def ref(codes: str) -> list[RefCard]:
    return [("A23456789TJQK".index(code[0]) + 1, code[1]) for code in codes.split()]


# --- games played to see what the engine does --------------------------------------


HANDS = ["TS JD QC 3H KS 9C", "KH 4D 5C 2S 7H 7D"]  # seat 0's, seat 1's, as dealt
DEALER, STARTER = 0, "5S"  # of first_show's deal
THROWN = ["KS 9C", "7H 7D"]


def deal(dealer: int, starter: str, scores: tuple[int, int] = (0, 0)) -> Game:
    """The scripted deal of :data:`HANDS`, discarded (:data:`THROWN`) and cut."""
    game = Game.scripted(dealer=dealer, hands=HANDS, starter=starter, scores=scores)
    while game.phase == "discard":
        game.apply(f"discard {THROWN[game.current_player]}")
    game.apply("cut")
    return game


def first_show(scores: tuple[int, int] = (0, 0)) -> Game:
    """:func:`deal` with seat 0 dealing and a five turned, played to the end of its play
    (each seat laying its cards low to high): every hand and the crib score more with
    the starter than without it."""
    game = deal(DEALER, STARTER, scores)
    while game.phase == "play":
        game.apply(game.legal_moves()[0])
    return game


def shows(game: Game) -> list[tuple[str, int | None, int]]:
    """The first deal's show: (hand or crib, seat, points)."""
    return [(e.kind, e.seat, e.points) for e in game.events
            if e.kind in ("hand", "crib") and e.deal == 1]


def pegged(game: Game) -> list[int]:
    """Each seat's points from the first deal's play."""
    points = [0, 0]
    for event in game.events:
        if event.kind in ("play", "go", "last card") and event.deal == 1:
            points[event.seat or 0] += event.points
    return points


# --- brute forces ----------------------------------------------------------------------


def crib_worth(thrown: str, samples: int = 3000) -> float:
    """Mean crib with ``thrown`` in it: the other two crib cards and the starter drawn
    at random from the rest (the same draws for every question's options)."""
    rng = random.Random(5)
    mine = ref(thrown)
    rest = [(c.rank, c.suit) for c in full_deck() if (c.rank, c.suit) not in mine]
    total = 0
    for _ in range(samples):
        a, b, starter = rng.sample(rest, 3)
        total += reference_show(mine + [a, b], starter, True)
    return total / samples


def pairs_and_runs(ranks: list[int]) -> int:
    """Points for pairs and runs only (fifteens aside) among ``ranks``, by subsets."""
    pairs = 2 * sum(1 for a, b in combinations(ranks, 2) if a == b)
    for size in range(len(ranks), 2, -1):
        runs = [s for s in combinations(ranks, size)
                if len(set(s)) == size and max(s) - min(s) == size - 1]
        if runs:
            return pairs + size * len(runs)
    return pairs


def fifteens(ranks: list[int]) -> int:
    """How many sets of ``ranks`` add up to fifteen (face cards ten)."""
    return sum(1 for size in range(2, len(ranks) + 1) for subset in combinations(ranks, size)
               if sum(min(rank, 10) for rank in subset) == 15)


@cache
def hand_scores() -> tuple[set[int], dict[int, list[RefCard]]]:
    """Every score a hand and starter can make, or more; and a hand for each score
    its ranks alone make.

    Every multiset of five ranks (no rank five times), each rank in turn the
    starter's: its fifteens, pairs and runs come from the reference scorer with
    suits that make no flush and no nobs (the starter's suit is none of the
    hand's). Suits can add only: nobs (a jack in hand, the starter no jack), a
    four-card flush (four different ranks in hand; its jack is then of another
    suit than the starter's) or a five-card one (five different ranks; with a
    jack in hand, nobs too). Adding every bonus that could apply over-counts.
    """
    possible: set[int] = set()
    made: dict[int, list[RefCard]] = {}
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if any(ranks.count(rank) > 4 for rank in ranks):
            continue
        for at in range(5):
            if at and ranks[at] == ranks[at - 1]:
                continue  # the same rank as starter: the same hands
            hand = [(rank, "SH"[i % 2]) for i, rank in enumerate(ranks[:at] + ranks[at + 1:])]
            base = reference_show(hand, (ranks[at], "X"), False)
            made.setdefault(base, hand + [(ranks[at], "X")])
            jack = any(rank == 11 for rank, _ in hand)
            bonuses = {0, 1} if jack and ranks[at] != 11 else {0}
            if len({rank for rank, _ in hand}) == 4:
                bonuses.add(4)
                if len(set(ranks)) == 5:
                    bonuses.add(6 if jack else 5)
            possible |= {base + bonus for bonus in bonuses}
    return possible, made


# --- each question's right option --------------------------------------------------------


def deal_1() -> int:
    dealt = len(Game.new(Rules(), seed=1, first_dealer=0).view(0).hand)
    return the_option("deal.1", lambda text: number_in(text) == dealt)


def deal_2() -> int:
    """The pone cuts the starter and leads the play; the lowest cut became the dealer."""
    game = Game.new(Rules(), seed=3)
    while game.phase == "cut":
        game.apply("cut")
    cuts = {e.seat: e.cards[0] for e in game.events if e.kind == "cut"}
    lowest = min(cuts, key=lambda seat: (cuts[seat].rank, cuts[seat].index))
    while game.phase == "discard":
        game.apply(game.legal_moves()[0])
    pone = game.current_player  # who cuts the starter
    assert pone != game.dealer and lowest == game.dealer
    seat_of = {"The dealer": game.dealer, "The player who does not deal": 1 - game.dealer,
               "Whoever cut the lowest card": lowest}
    return the_option("deal.2", lambda text: seat_of[text] == pone)


def crib_1() -> int:
    game = first_show()
    crib = [seat for kind, seat, _ in shows(game) if kind == "crib"]
    assert crib == [DEALER]
    return the_option("crib.1", lambda text: text == "The dealer's")


def crib_2() -> int:
    """As pone, the throw whose crib is worth the least to the dealer."""
    thrown = {"A pair of fives": "5S 5H", "A king and a nine": "KS 9H",
              "A five and a ten": "5S TH"}
    worth = {text: crib_worth(cards) for text, cards in thrown.items()}
    least = min(worth, key=worth.__getitem__)
    assert sorted(worth.values())[1] - worth[least] > 1  # clearly, not by sampling luck
    return the_option("crib.2", lambda text: text == least)


def starter_1() -> int:
    game = deal(1, "JH")
    heels = [(e.seat, e.points) for e in game.events if e.kind == "heels"]
    assert heels == [(game.dealer, 2)]
    return the_option("starter.1", lambda text: text == "The dealer")


def starter_2() -> int:
    """Each hand and the crib score what the reference scorer gives them with the
    starter as a fifth card, which is more than their four cards alone make."""
    game = first_show()
    starter = ref(STARTER)[0]
    kept = {("hand", 0): "TS JD QC 3H", ("hand", 1): "KH 4D 5C 2S", ("crib", 0): "KS 9C 7H 7D"}
    assert [(kind, seat) for kind, seat, _ in shows(game)] == [("hand", 1), ("hand", 0),
                                                               ("crib", 0)]
    for kind, seat, points in shows(game):
        cards = ref(kept[(kind, seat)])
        ranks = [rank for rank, _ in cards]
        assert points == reference_show(cards, starter, kind == "crib")
        assert points > 2 * fifteens(ranks) + pairs_and_runs(ranks)
    return the_option("starter.2", lambda text: "every hand" in text)


def play_1() -> int:
    fits = [value for value in (7, 4) if 25 + value <= 31]
    assert fits == [4]
    return the_option("play.1", lambda text: text == "Play the four")


def play_2() -> int:
    points = reference_peg(ref("7S 8H 6D"))
    return the_option("play.2", lambda text: number_in(text) == points)


def show_1() -> int:
    found = fifteens([rank for rank, _ in ref("5S 4S 2S 6H 5H")])
    return the_option("show.1", lambda text: number_in(text) == found)


def show_2() -> int:
    game = first_show()
    order = ["pone" if kind == "hand" and seat != DEALER else
             "dealer" if kind == "hand" else "crib" for kind, seat, _ in shows(game)]
    assert order == ["pone", "dealer", "crib"]

    def said(text: str) -> list[str]:  # "Dealer, pone, then the crib": in that order
        return re.findall(r"dealer|pone|crib", text.lower())

    return the_option("show.2", lambda text: said(text) == order[:len(said(text))])


def twenty_nine_1() -> int:
    possible, _ = hand_scores()
    best = max(possible)
    assert best == 29 and reference_show(ref("5C 5D 5H JS"), (5, "S"), False) == 29
    return the_option("twenty-nine.1", lambda text: number_in(text) == best)


def twenty_nine_2() -> int:
    possible, made = hand_scores()
    for score in (20, 24):  # there are hands that score these, suits aside
        assert reference_show(made[score][:4], made[score][4], False) == score
    never = [number_in(text) for text in options("twenty-nine.2")
             if number_in(text) not in possible]
    assert never == [19]
    return the_option("twenty-nine.2", lambda text: number_in(text) == 19)


def runs_1() -> int:
    return the_option("runs.1", lambda text: number_in(text) == pairs_and_runs([4, 5, 5, 6]))


def runs_2() -> int:
    points = pairs_and_runs([4, 4, 5, 5, 6])
    return the_option("runs.2", lambda text: number_in(text) == points)


def flush(crib: bool) -> int:
    hearts = reference_show(ref("2H 4H 8H QH"), (13, "S"), crib)
    mixed = reference_show(ref("2H 4C 8H QH"), (13, "S"), crib)
    return hearts - mixed


def flush_1() -> int:
    return the_option("flush.1", lambda text: number_in(text) == flush(crib=False))


def flush_2() -> int:
    return the_option("flush.2", lambda text: number_in(text) == flush(crib=True))


def going_out_1() -> int:
    """Scores set so that after this deal's play each side needs 3: the pone wins."""
    play = pegged(first_show())
    game = first_show((118 - play[0], 118 - play[1]))
    assert game.outcome is not None and game.outcome.winner == 1 - DEALER
    return the_option("going-out.1", lambda text: text.startswith("The pone"))


def going_out_2() -> int:
    """The pone reaches the target with its hand: the dealer's hand and the crib are
    never counted, and the game is over."""
    play = pegged(first_show())
    game = first_show((0, 120 - play[1]))
    assert game.outcome is not None and game.outcome.winner == 1
    assert [(kind, seat) for kind, seat, _ in shows(game)] == [("hand", 1)]
    return the_option("going-out.2", lambda text: text.startswith("The moment"))


def variants_1() -> int:
    dealt = len(Game.new(Rules(players=3), seed=1, first_dealer=0).view(0).hand)
    return the_option("variants.1", lambda text: number_in(text) == dealt)


def variants_2() -> int:
    """In the 121-point game, the lowest losing score that is not a skunk."""
    line = min(score for score in range(121)
               if Outcome.judge(Rules(), 0, [121, score]).kind == "win")
    return the_option("variants.2", lambda text: number_in(text) == line)


RIGHT = {
    "deal": [deal_1, deal_2], "crib": [crib_1, crib_2], "starter": [starter_1, starter_2],
    "play": [play_1, play_2], "show": [show_1, show_2],
    "twenty-nine": [twenty_nine_1, twenty_nine_2], "runs": [runs_1, runs_2],
    "flush": [flush_1, flush_2], "going-out": [going_out_1, going_out_2],
    "variants": [variants_1, variants_2],
}


def test_every_quiz_question_is_worked_out_here() -> None:
    assert set(quiz_answers()) == set(RIGHT)


@pytest.mark.parametrize(("section", "n"), [(s, n) for s in RIGHT for n in (0, 1)])
def test_the_quiz_answer_is_the_worked_out_one(section: str, n: int) -> None:
    assert quiz_answers()[section][n] == RIGHT[section][n]()
