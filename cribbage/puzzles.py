"""Daily puzzles: a discard and a play of the day, the same for everyone on a date.

Each puzzle is made from the date alone (a SHA-256 of the ISO date and the
puzzle's kind seeds the deal), so every player gets the same position with no
server, and practice puzzles (``practice`` = 1, 2, ...) are made the same way
from another seed. A position is kept only when the choice matters: the
coach's best choice beats the median choice clearly and beats the second
best (see :data:`DISCARD_GAP`, :data:`PLAY_GAP`). Every choice is ranked by the
coach (:func:`cribbage.coach.advise_discard`, :func:`cribbage.coach.advise_play`,
the expert's own judgement) with its expected points and the reason in words,
in the request's language (``cribbage/data/puzzle_words.json``).

>>> first = puzzle({"date": "2026-12-02", "kind": "discard"})
>>> first == puzzle({"date": "2026-12-02", "kind": "discard"})
True
>>> first["hand"] != puzzle({"date": "2026-12-03", "kind": "discard"})["hand"]
True
>>> first["choices"][0]["rank"], len(first["choices"])
(1, 15)
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from . import i18n
from .cards import Card, full_deck
from .coach import PlayAdvice, advise_discard, advise_play, example_view
from .game import Game
from .players import computer_move, make_player
from .players.discard import DiscardChoice
from .players.pegging import heuristic_play_values
from .rules import Rules
from .view import PlayerView

Request = dict[str, Any]

KINDS = ("discard", "play")
DISCARD_GAP = (2.0, 0.3)  # best net over the median, and over the second best
PLAY_GAP = (0.6, 0.15)  # best play value over the median, and over the next rank
MAX_PRACTICE = 1_000_000
TRIES = 60  # positions tried per puzzle before the clearest one so far is taken
PLAY_SAMPLES = 16  # the coach's sampled deals per play puzzle (the expert uses 8-24)
PLAY_TRIES = 60  # deals tried for a play position (the last 10 without the first look)
PLAY_SEARCHES = 5  # positions searched by the coach at most (each costs one search)
WORDS_FILE = Path(__file__).parent / "data" / "puzzle_words.json"
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


# --- words ----------------------------------------------------------------------


@cache
def words() -> dict[str, dict[str, str]]:
    """The puzzles' reasons in each language: ``{lang: {key: template}}``."""
    data: dict[str, dict[str, str]] = json.loads(WORDS_FILE.read_text(encoding="utf-8"))
    return data


def say(key: str, lang: str, **values: object) -> str:
    """The template ``key`` in ``lang`` (else English), filled in."""
    template = words().get(lang, {}).get(key) or words()["en"][key]
    return str(i18n.fill(template, {name: value for name, value in values.items()}))


def signed(value: float) -> str:
    return f"{value:+.2f}".replace("-", "−")


def cards_in_words(codes: list[str], lang: str) -> str:
    """"four of spades and five of hearts" in the language's own joining words."""
    names = [i18n.card_name(code, lang) for code in codes]
    if len(names) == 1:
        return names[0]
    return say("and", lang, first=say("list", lang).join(names[:-1]), last=names[-1])


# --- requests -------------------------------------------------------------------


def check_date(value: object) -> str:
    """An ISO date ``YYYY-MM-DD`` that exists; anything else is a bad request.

    (No ``datetime``: importing it would slow the engine's start in the page.)

    >>> check_date("2028-02-29")
    '2028-02-29'
    >>> check_date("2027-02-29")
    Traceback (most recent call last):
    ValueError: 'date' '2027-02-29' is not a day of the calendar.
    """
    if not isinstance(value, str) or not DATE.match(value):
        raise ValueError("'date' must be an ISO date such as 2026-12-02.")
    year, month, day = (int(part) for part in value.split("-"))
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not (1 <= month <= 12 and 1 <= day <= days[month - 1]):
        raise ValueError(f"'date' {value!r} is not a day of the calendar.")
    return value


def puzzle_seed(date: str, kind: str, practice: int | None) -> int:
    """The deal's seed: the same for everyone on ``date`` (or for practice number n)."""
    key = f"cribbage-puzzle:{kind}:{date if practice is None else f'practice-{practice}'}"
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


def puzzle(request: Request) -> dict[str, Any]:
    """The discard or play puzzle of a date (or a practice puzzle), every choice ranked.

    Request: ``date`` (ISO), ``kind`` (``discard`` or ``play``), ``practice``
    (optional, 1..1,000,000: a practice puzzle, the same whatever the date),
    ``lang``. The reply holds the position and ``choices`` best first, each
    with ``cards``, ``value`` (expected points), ``rank`` (1 = best; equal
    values share a rank), ``name`` (the cards in words) and ``reason``.
    """
    kind = request.get("kind")
    if kind not in KINDS:
        raise ValueError("'kind' must be 'discard' or 'play'.")
    date = check_date(request.get("date"))
    practice = request.get("practice")
    if practice is not None and (type(practice) is not int or not 1 <= practice <= MAX_PRACTICE):
        raise ValueError(f"'practice' must be a whole number from 1 to {MAX_PRACTICE}.")
    lang = i18n_lang(request)
    return json.loads(_puzzle_text(date, str(kind), practice, lang))  # type: ignore[no-any-return]


@lru_cache(maxsize=16)
def _puzzle_text(date: str, kind: str, practice: int | None, lang: str) -> str:
    """A puzzle as JSON text, kept: asking again (another tab, a test) costs nothing."""
    seed = puzzle_seed(date, kind, practice)
    body = discard_puzzle(seed, lang) if kind == "discard" else play_puzzle(seed, lang)
    name = f"{date}/{kind}" if practice is None else f"practice-{practice}/{kind}"
    return json.dumps({"kind": kind, "date": date, "practice": practice, "lang": lang,
                       "id": name, **body})


def i18n_lang(request: Request) -> str:
    lang = request.get("lang", i18n.DEFAULT)
    if lang not in i18n.LANGUAGES:
        raise ValueError(f"'lang' must be one of {', '.join(i18n.LANGUAGES)}.")
    return str(lang)


def ranks(values: list[float]) -> list[int]:
    """Each value's rank, 1 = best; values equal to 2 decimals share a rank.

    >>> ranks([5.0, 4.999, 3.0, 3.0, 1.0])
    [1, 1, 3, 3, 5]
    """
    rounded = [round(value, 2) for value in values]
    return [1 + sum(other > value for other in rounded) for value in rounded]


def median(values: list[float]) -> float:
    """The middle value (the mean of the two middle ones for an even count).

    >>> median([3.0, 1.0, 2.0]), median([4.0, 1.0])
    (2.0, 2.5)
    """
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def gaps(values: list[float]) -> tuple[float, float]:
    """(best - median, best - the best value below it) of values sorted best first."""
    best = values[0]
    lower = [value for value in values if round(value, 2) < round(best, 2)]
    return best - median(values), best - (lower[0] if lower else best)


# --- the discard of the day --------------------------------------------------------


def discard_puzzle(seed: int, lang: str) -> dict[str, Any]:
    """Six cards, dealer or pone: the first deal whose choice matters."""
    rng = random.Random(seed)
    found: tuple[float, list[Card], bool, list[DiscardChoice]] | None = None
    for _ in range(TRIES):
        deck = full_deck()
        rng.shuffle(deck)
        hand, dealer = sorted(deck[:6]), rng.random() < 0.5
        choices = advise_discard(example_view(hand, dealer, 2))
        over_median, over_second = gaps([choice.net for choice in choices])
        clear = min(over_median / DISCARD_GAP[0], over_second / DISCARD_GAP[1])
        if found is None or clear > found[0]:
            found = (clear, hand, dealer, choices)
        if clear >= 1:
            break
    assert found is not None
    _, hand, dealer, choices = found
    places = ranks([choice.net for choice in choices])
    return {
        "seat": "dealer" if dealer else "pone",
        "hand": [card.code for card in hand],
        "choices": [discard_choice(choice, rank, dealer, lang)
                    for choice, rank in zip(choices, places, strict=True)],
    }


def discard_choice(choice: DiscardChoice, rank: int, dealer: bool,
                   lang: str) -> dict[str, Any]:
    codes = [card.code for card in sorted(choice.discard)]
    kept = [card.code for card in choice.kept]
    reason = say("discard.reason.dealer" if dealer else "discard.reason.pone", lang,
                 keep=" ".join(i18n.card_label(code) for code in kept),
                 hand=f"{choice.hand:.2f}", crib=f"{choice.crib:.2f}", net=f"{choice.net:.2f}")
    return {"cards": codes, "keep": kept, "name": cards_in_words(codes, lang),
            "value": round(choice.net, 2), "hand": round(choice.hand, 2),
            "crib": round(choice.crib, 2), "rank": rank, "reason": reason}


# --- the play of the day -------------------------------------------------------------


def play_puzzle(seed: int, lang: str) -> dict[str, Any]:
    """A pegging position (2 players) where the card to play matters."""
    rng = random.Random(seed)
    found: tuple[float, PlayerView, list[PlayAdvice]] | None = None
    searched = 0
    for attempt in range(PLAY_TRIES):
        view = play_position(rng, seed + attempt)
        if view is None or (attempt < PLAY_TRIES - 10 and not promising(view)):
            continue
        advice = advise_play(view, samples=PLAY_SAMPLES, seed=seed % 1000)
        over_median, over_second = gaps([a.value for a in advice])
        clear = min(over_median / PLAY_GAP[0], over_second / PLAY_GAP[1])
        if found is None or clear > found[0]:
            found = (clear, view, advice)
        searched += 1
        if clear >= 1 or searched >= PLAY_SEARCHES:
            break
    assert found is not None, "no play position found"
    _, view, advice = found
    places = ranks([a.value for a in advice])
    opponent = 1 - view.seat
    return {
        "seat": "dealer" if view.dealer == view.seat else "pone",
        "hand": [card.code for card in view.hand],
        "kept": [card.code for card in view.kept],
        "starter": view.starter.code if view.starter else None,
        "pile": [card.code for card in view.pile],
        "count": view.count,
        "played": [{"who": "you" if seat == view.seat else "them", "card": card.code}
                   for seat, card in view.played],
        "their_cards": view.hand_sizes[opponent],
        "they_said_go": opponent in view.said_go,
        "scores": {"you": view.scores[view.seat], "them": view.scores[opponent]},
        "choices": [play_choice(view, a, rank, lang)
                    for a, rank in zip(advice, places, strict=True)],
    }


def promising(view: PlayerView) -> bool:
    """A cheap first look (the standard level's values): do the cards differ enough
    to be worth the coach's search?"""
    values = sorted(heuristic_play_values(view).values(), reverse=True)
    return values[0] - median(values) >= PLAY_GAP[0] / 2


def play_position(rng: random.Random, seed: int) -> PlayerView | None:
    """A 2-player deal played by the easy computer up to a decision with a choice.

    The position is taken after 2 to 6 cards are down, at the first turn of a
    player holding at least two playable cards of different ranks; None if
    the deal has none.
    """
    game = Game.new(Rules(players=2, target=121), seed=seed, first_dealer=rng.randrange(2))
    bots = [make_player("easy", seed=seed), make_player("easy", seed=seed + 1)]
    wanted = rng.randrange(2, 7)
    while game.phase != "play" or len(game.played) < wanted:
        if game.phase in ("count", "over") or game.deal_number > 1:
            return None
        seat = game.current_player
        assert seat is not None
        game.apply(computer_move(bots[seat], game.view(seat)))
    while game.phase == "play" and game.deal_number == 1:
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        if len({card.rank for card in view.hand if view.count + card.value <= 31}) >= 2:
            return view
        game.apply(computer_move(bots[seat], view))
    return None


def play_choice(view: PlayerView, advice: PlayAdvice, rank: int, lang: str) -> dict[str, Any]:
    count = view.count + advice.card.value
    parts = [say("play.count", lang, count=count)]
    if advice.points_now:
        parts.append(say("play.pegs", lang, points=advice.points_now))
    if advice.reply_risk >= 0.05:
        parts.append(say("play.risk", lang, risk=f"{advice.reply_risk:.1f}"))
    if count in (5, 21):
        parts.append(say("play.invites", lang, count=count))
    parts.append(say("play.value", lang, value=signed(advice.value)))
    return {"cards": [advice.card.code], "name": cards_in_words([advice.card.code], lang),
            "value": round(advice.value, 2), "points_now": advice.points_now,
            "reply_risk": round(advice.reply_risk, 2), "rank": rank,
            "reason": say("list", lang).join(parts)}
