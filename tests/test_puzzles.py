"""Daily puzzles and counting drills: generators, rankings, the protocol's endpoints."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from itertools import combinations
from statistics import median

import pytest
from reference import reference_lay, reference_peg, reference_show

from cribbage import i18n
from cribbage.cards import full_deck, parse_cards
from cribbage.coach import advise_discard, advise_play, example_view
from cribbage.drills import LEVELS, drill
from cribbage.protocol import ENDPOINTS, Session
from cribbage.puzzles import DISCARD_GAP, PLAY_GAP, PLAY_SAMPLES, puzzle, puzzle_seed, words
from cribbage.scoring import score_hand

DATES = ["2026-12-02", "2026-12-03", "2027-01-01", "2028-02-29"]


def call(name: str, payload: dict[str, object]) -> dict[str, object]:
    return json.loads(Session().call(name, json.dumps(payload)))  # type: ignore[no-any-return]


@pytest.mark.parametrize("kind", ["discard", "play"])
def test_a_date_gives_the_same_puzzle_and_dates_differ(kind: str) -> None:
    first = puzzle({"date": "2026-12-02", "kind": kind})
    assert first == puzzle({"date": "2026-12-02", "kind": kind})
    others = [puzzle({"date": date, "kind": kind}) for date in DATES[1:]]
    assert all(other["hand"] != first["hand"] or other.get("pile") != first.get("pile")
               for other in others)


def test_the_puzzle_is_the_same_in_another_process() -> None:
    """No hash-order or process state leaks into the position or its ranking."""
    code = ("import json; from cribbage.puzzles import puzzle; print(json.dumps("
            "[puzzle({'date': '2026-12-02', 'kind': k}) for k in ('discard', 'play')]))")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": seed, "PATH": ""}).stdout for seed in ("1", "2")]
    assert runs[0] == runs[1]
    assert json.loads(runs[0])[0] == puzzle({"date": "2026-12-02", "kind": "discard"})


@pytest.mark.parametrize("date", DATES)
def test_the_discard_puzzle_is_ranked_by_the_coach(date: str) -> None:
    found = puzzle({"date": date, "kind": "discard"})
    hand = parse_cards(found["hand"])
    choices = advise_discard(example_view(hand, found["seat"] == "dealer", 2))
    assert [c["cards"] for c in found["choices"]] == [
        [card.code for card in sorted(choice.discard)] for choice in choices]
    values = [c["value"] for c in found["choices"]]
    assert values == sorted(values, reverse=True) and len(values) == 15
    assert values[0] - median(values) >= DISCARD_GAP[0]  # the choice matters
    assert [c["rank"] for c in found["choices"]][:2] == [1, 2]
    assert found["choices"][0]["name"].count(" and ") == 1


@pytest.mark.parametrize("date", DATES)
def test_the_play_puzzle_is_ranked_by_the_coach(date: str) -> None:
    found = puzzle({"date": date, "kind": "play"})
    assert found["count"] == sum(min(parse_cards([c])[0].rank, 10) for c in found["pile"])
    values = [c["value"] for c in found["choices"]]
    assert values == sorted(values, reverse=True) and len(values) >= 2
    assert values[0] - median(values) >= PLAY_GAP[0] * 0.5
    ranks = [c["rank"] for c in found["choices"]]
    assert ranks[0] == 1 and ranks == sorted(ranks) and max(ranks) > 1
    playable = [c for c in found["hand"]
                if found["count"] + min(parse_cards([c])[0].rank, 10) <= 31]
    assert sorted(c["cards"][0] for c in found["choices"]) == sorted(playable)
    assert all("count" in c["reason"] for c in found["choices"])


def test_the_play_puzzle_best_is_the_coach_best_on_the_same_view() -> None:
    """Rebuild the view the generator used and ask the coach directly."""
    import random

    from cribbage import puzzles

    seed = puzzle_seed("2026-12-02", "play", None)
    rng = random.Random(seed)
    for attempt in range(puzzles.PLAY_TRIES):
        view = puzzles.play_position(rng, seed + attempt)
        if view is None:
            continue
        advice = advise_play(view, samples=PLAY_SAMPLES, seed=seed % 1000)
        found = puzzle({"date": "2026-12-02", "kind": "play"})
        if [card.code for card in view.hand] == found["hand"] and \
                [c.code for c in view.pile] == found["pile"]:
            assert found["choices"][0]["cards"] == [advice[0].card.code]
            assert found["choices"][0]["value"] == round(advice[0].value, 2)
            return
    pytest.fail("the puzzle's position was not among the generator's positions")


def ref_cards(codes: list[str]) -> list[tuple[int, str]]:
    return [(card.rank, card.suit) for card in parse_cards(codes)]


@pytest.mark.parametrize("date", DATES)
def test_the_discard_puzzle_agrees_with_a_count_of_its_own(date: str) -> None:
    """Each keep's expected hand is the reference scorer's mean over the 46 starters,
    to the cent. The crib, counted here over random other crib cards and starters
    (the same draws for every choice), rates the puzzle's best choice the best too,
    within what a model of the other player's two cards can change (0.25)."""
    found = puzzle({"date": date, "kind": "discard"})
    hand = ref_cards(found["hand"])
    starters = [(c.rank, c.suit) for c in full_deck() if (c.rank, c.suit) not in hand]
    rng = random.Random(1)
    draws = [rng.sample(starters, 3) for _ in range(400)]
    sign = 1 if found["seat"] == "dealer" else -1
    nets = {}
    for choice in found["choices"]:
        kept, thrown = ref_cards(choice["keep"]), ref_cards(choice["cards"])
        expected = sum(reference_show(kept, s, False) for s in starters) / len(starters)
        assert choice["hand"] == round(expected, 2), choice
        crib = sum(reference_show(thrown + [a, b], s, True) for a, b, s in draws) / len(draws)
        nets[tuple(choice["cards"])] = expected + sign * crib
    assert nets[tuple(found["choices"][0]["cards"])] >= max(nets.values()) - 0.25


def pegging_lead(hand: list[tuple[int, str]], pile: list[tuple[int, str]], card: tuple[int, str],
                 theirs: tuple[int, ...], gone: bool) -> float:
    """My pegging lead over the rest of the play after laying ``card``, both seats
    knowing every card (tests/reference.py); they hold the ranks ``theirs``."""
    def lead(pegged: tuple[int, int], done: bool) -> float | None:
        return float(pegged[0] - pegged[1]) if done else None

    hands = (tuple(hand), tuple((rank, "x") for rank in theirs))
    return reference_lay(hands, tuple(pile), 0, card, frozenset({1} if gone else ()), 0, lead)


@pytest.mark.parametrize("date", DATES)
def test_the_play_puzzle_agrees_with_a_search_of_its_own(date: str) -> None:
    """Each choice pegs at once what the reference scorer says. Searching the rest
    of the play over every hand the other player may hold (equally likely; suits
    never score in the play, so hands of the same ranks are searched once), the
    puzzle's best card leads by the most, within 0.25 (the puzzle's coach samples
    their hands and reads how they discarded)."""
    found = puzzle({"date": date, "kind": "play"})
    seen = set(found["kept"]) | {found["starter"]} | {p["card"] for p in found["played"]}
    unseen = [c for c in full_deck() if c.code not in seen]
    floor = 32 - found["count"] if found["they_said_go"] else 1
    holdings = Counter(tuple(sorted(c.rank for c in held))
                       for held in combinations(unseen, found["their_cards"])
                       if all(c.value >= floor for c in held))
    hand, pile = ref_cards(found["hand"]), ref_cards(found["pile"])
    leads = {}
    for choice in found["choices"]:
        card = ref_cards(choice["cards"])[0]
        assert choice["points_now"] == reference_peg(pile + [card]), choice
        total = sum(n * pegging_lead(hand, pile, card, theirs, found["they_said_go"])
                    for theirs, n in holdings.items())
        leads[choice["cards"][0]] = total / sum(holdings.values())
    assert leads[found["choices"][0]["cards"][0]] >= max(leads.values()) - 0.25


def test_practice_puzzles_are_numbered_and_not_the_daily_one() -> None:
    daily = puzzle({"date": "2026-12-02", "kind": "discard"})
    one = puzzle({"date": "2026-12-02", "kind": "discard", "practice": 1})
    assert one["id"] == "practice-1/discard" and one["hand"] != daily["hand"]
    assert one["hand"] == puzzle({"date": "2030-05-05", "kind": "discard", "practice": 1})["hand"]
    assert one["hand"] != puzzle({"date": "2026-12-02", "kind": "discard", "practice": 2})["hand"]


def test_puzzle_words_in_every_language() -> None:
    english = words()["en"]
    for lang in i18n.LANGUAGES:
        assert set(words()[lang]) == set(english), lang
        for key, template in english.items():
            names = set(re.findall(r"{\w+}", template))
            assert set(re.findall(r"{\w+}", words()[lang][key])) == names
    es = puzzle({"date": "2026-12-02", "kind": "discard", "lang": "es"})
    ja = puzzle({"date": "2026-12-02", "kind": "play", "lang": "ja"})
    assert " y " in es["choices"][0]["name"] and "guarda" in es["choices"][0]["reason"]
    assert "カウント" in ja["choices"][0]["reason"]


@pytest.mark.parametrize("payload", [
    {"date": "2026-13-01", "kind": "discard"}, {"date": "2026-02-30", "kind": "play"},
    {"date": "yesterday", "kind": "play"}, {"date": 20261202, "kind": "play"},
    {"date": "2026-12-02", "kind": "peg"}, {"date": "2026-12-02", "kind": "play", "practice": 0},
    {"date": "2026-12-02", "kind": "play", "practice": "1"},
    {"date": "2026-12-02", "kind": "play", "lang": "fr"},
])
def test_bad_puzzle_requests_are_refused(payload: dict[str, object]) -> None:
    reply = call("puzzle", payload)
    assert reply["ok"] is False and reply["error"]["kind"] == "bad-request"  # type: ignore[index]


def test_the_endpoints_are_listed() -> None:
    assert "puzzle" in ENDPOINTS and "drill" in ENDPOINTS
    assert call("puzzle", {"date": "2026-12-02", "kind": "play"})["ok"] is True


@pytest.mark.parametrize("level", list(LEVELS))
def test_each_drill_level_deals_what_it_says(level: str) -> None:
    for seed in range(25):
        found = drill({"level": level, "seed": seed})
        assert found == drill({"level": level, "seed": seed})
        score = score_hand(parse_cards(found["hand"]), parse_cards([found["starter"]])[0],
                           crib=found["crib"])
        assert found["total"] == score.total
        kinds = [item["kind"] for item in found["items"]]
        runs = kinds.count("run")
        if level == "easy":
            assert set(kinds) <= {"fifteen", "pair"} and 2 <= found["total"] <= 8
        elif level == "runs":
            assert runs == 1
        elif level == "flush-nobs":
            assert {"flush", "nobs"} & set(kinds)
        elif level == "double-runs":
            assert runs >= 2
        elif level == "double-double":
            assert runs >= 4 or (runs >= 2 and "nobs" in kinds)
        elif level == "crib":
            assert found["crib"] is True
        else:
            assert found["total"] >= 14
    assert drill({"level": level, "seed": 1})["hand"] != drill({"level": level, "seed": 2})["hand"]


def test_drills_speak_the_language() -> None:
    es = drill({"level": "runs", "seed": 3, "lang": "es"})
    assert "escalera" in es["said"] or "quince" in es["said"]
    assert es["hand"] == drill({"level": "runs", "seed": 3})["hand"]


@pytest.mark.parametrize("payload", [
    {"level": "impossible"}, {"level": "easy", "seed": -1}, {"level": "easy", "seed": 2**60},
    {"level": "easy", "seed": "3"}, {"level": "easy", "lang": "xx"},
])
def test_bad_drill_requests_are_refused(payload: dict[str, object]) -> None:
    reply = call("drill", payload)
    assert reply["ok"] is False and reply["error"]["kind"] == "bad-request"  # type: ignore[index]


def test_the_pages_drill_levels_are_the_engines() -> None:
    from pathlib import Path

    source = (Path(__file__).parents[1] / "web" / "widgets" / "embed-params.mjs").read_text("utf-8")
    listed = re.search(r"export const DRILL_LEVELS = \[(.*?)\];", source)
    assert listed is not None
    assert re.findall(r'"([\w-]+)"', listed.group(1)) == list(LEVELS)


def test_the_tutorial_quizzes_have_their_words() -> None:
    from pathlib import Path

    web = Path(__file__).parents[1] / "web"
    source = (web / "widgets" / "quiz.mjs").read_text("utf-8")
    block = source.split("export const ANSWERS = {", 1)[1].split("};", 1)[0]
    answers = {name: [int(a), int(b)]
               for name, a, b in re.findall(r'"?([\w-]+)"?: \[(\d), (\d)\]', block)}
    assert len(answers) == 10
    html = (web / "pages" / "tutorial.html").read_text("utf-8")
    assert sorted(re.findall(r'data-quiz="([\w-]+)"', html)) == sorted(answers)
    for lang in i18n.LANGUAGES:
        words = json.loads((web / "lang" / f"quiz.{lang}.json").read_text("utf-8"))
        for section, rights in answers.items():
            for n, right in enumerate(rights, 1):
                options = words[f"quiz.{section}.{n}.a"]
                assert len(options) == 3 and 0 <= right < 3 and words[f"quiz.{section}.{n}.q"]
                assert words[f"quiz.{section}.{n}.why"]


def test_doctests() -> None:
    import doctest

    from cribbage import drills, puzzles

    for module in (puzzles, drills):
        assert doctest.testmod(module).failed == 0
