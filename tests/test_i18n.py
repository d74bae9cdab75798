"""The catalogues of the three languages: complete, consistent, and used by the engine."""

import json
import re

import pytest

from cribbage import Card, i18n, parse_cards
from cribbage.faces import RANK_CODES, SUIT_CODES
from cribbage.game import EVENT_KINDS
from cribbage.scoring import cadence, score_hand
from sitebuild.assemble import language_files
from sitebuild.common import ENGINE_PACKAGE

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def merged() -> dict[str, dict[str, object]]:
    files = language_files()
    return {name.split("/")[1][: -len(".json")]: json.loads(data) for name, data in files.items()}


def test_build_merges_one_catalogue_per_language() -> None:
    assert sorted(merged()) == sorted(i18n.LANGUAGES)


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_translations_use_the_same_placeholders_as_english(lang: str) -> None:
    english, other = merged()["en"], merged()[lang]
    for key, template in other.items():
        base = english.get(key, english.get(key.removesuffix(".you")))
        if isinstance(template, str):
            assert set(PLACEHOLDER.findall(template)) <= set(PLACEHOLDER.findall(str(base))), key
        else:
            assert isinstance(template, list) and len(template) == len(base), key  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_card_has_a_distinct_name(lang: str) -> None:
    names = {i18n.card_name(f"{r}{s}", lang) for r in RANK_CODES for s in SUIT_CODES}
    assert len(names) == 52


def test_the_29_hand_is_counted_aloud_in_each_language() -> None:
    items = score_hand(parse_cards("5S 5H 5D JC"), Card.parse("5C")).items
    assert cadence(items).endswith("his nobs is twenty-nine")
    assert cadence(items, "es").endswith("y el nobs son veintinueve")
    assert cadence(items, "ja").endswith("ノブスで29")


def test_unknown_language_falls_back_to_english() -> None:
    assert i18n.card_name("5S", "<img src=x>") == "five of spades"
    assert i18n.choose_language(["zz"], "also bad") == "en"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_cadence_of_any_show_ends_on_its_total(lang: str) -> None:
    import random

    deck = [f"{r}{s}" for r in RANK_CODES for s in SUIT_CODES]
    rng = random.Random(7)
    for _ in range(3000):
        cards = rng.sample(deck, 5)
        score = score_hand(parse_cards(" ".join(cards[:4])), Card.parse(cards[4]))
        said = cadence(score.items, lang)
        assert "said." not in said and "{" not in said, said  # every phrase has a template
        if score.items:
            assert said.endswith(i18n.number_word(score.total, lang)), said


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_steps_and_the_itemised_list_of_any_show_add_up_to_its_total(lang: str) -> None:
    import random

    deck = [f"{r}{s}" for r in RANK_CODES for s in SUIT_CODES]
    rng = random.Random(11)
    for _ in range(2000):
        cards = rng.sample(deck, 5)
        score = score_hand(parse_cards(" ".join(cards[:4])), Card.parse(cards[4]))
        items = [item.to_dict() for item in score.items]
        steps = i18n.count_steps(items)
        assert sum(step["points"] for step in steps) == score.total
        assert [step["total"] for step in steps][-1:] == ([score.total] if items else [])
        for step in steps:  # each step's cards are the hand's, each once
            assert set(step["cards"]) <= set(cards)
            assert len(set(step["cards"])) == len(step["cards"])
        listed = i18n.tally(items, lang)
        assert "tally." not in listed and "{" not in listed, listed
        assert str(score.total) in re.split("[=＝]", listed)[-1] or not items, listed
        groups = i18n.tally_groups(items, lang)
        assert sum(g["points"] * g["times"] for g in groups) == score.total


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_event_kind_has_a_log_line(lang: str) -> None:
    engine = json.loads((ENGINE_PACKAGE / "lang" / f"{lang}.json").read_text("utf-8"))
    suffixes = ["event.muggins.over", "event.muggins.under", "event.corrected.over"]
    for key in [f"event.{kind}" for kind in EVENT_KINDS] + suffixes:
        assert key in engine, key
