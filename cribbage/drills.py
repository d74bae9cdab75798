"""Counting drills: "count this hand" exercises by level, from easy hands to
double-double runs and nobs.

:func:`drill` deals a hand (or a crib) and its starter that fits the level,
the same for the same ``level`` and ``seed``, and answers with its score:
the total, each item in words and the cadence, in the request's language (the
same texts as :func:`cribbage.tutor.show_score`).

>>> first = drill({"level": "runs", "seed": 7})
>>> first == drill({"level": "runs", "seed": 7}), first["level"], first["crib"]
(True, 'runs', False)
>>> any(item["kind"] == "run" for item in first["items"])
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .cards import Card, full_deck
from .scoring import Score, score_hand
from .tutor import lang_of, show_score

Request = dict[str, Any]
MAX_SEED = 2**53  # a JS number's safe whole numbers


def kinds(score: Score) -> list[str]:
    return [item.kind for item in score.items]


def runs(score: Score) -> list[int]:
    """The lengths of the score's runs (a double run is two runs of three)."""
    return [len(item.cards) for item in score.items if item.kind == "run"]


def _easy(score: Score) -> bool:
    return 2 <= score.total <= 8 and set(kinds(score)) <= {"fifteen", "pair"}


def _runs(score: Score) -> bool:
    return len(runs(score)) == 1 and set(kinds(score)) <= {"fifteen", "pair", "run"}


def _flush_nobs(score: Score) -> bool:
    return bool({"flush", "nobs"} & set(kinds(score)))


def _double_runs(score: Score) -> bool:
    return len(runs(score)) >= 2


def _double_double(score: Score) -> bool:
    return len(runs(score)) >= 4 or (len(runs(score)) >= 2 and "nobs" in kinds(score))


def _crib(score: Score) -> bool:
    return score.total >= 4


def _big(score: Score) -> bool:
    return score.total >= 14


# (name, crib?, the test a dealt hand must pass): easiest first.
LEVELS: dict[str, tuple[bool, Callable[[Score], bool]]] = {
    "easy": (False, _easy),
    "runs": (False, _runs),
    "flush-nobs": (False, _flush_nobs),
    "double-runs": (False, _double_runs),
    "crib": (True, _crib),
    "double-double": (False, _double_double),
    "big": (False, _big),
}
"""The drill levels in order: fifteens and pairs; one run; flushes and nobs;
double (and triple) runs; cribs (a flush only with all five one suit);
double-double runs or a double run with nobs; big hands (14 or more)."""


def deal_for(level: str, seed: int) -> tuple[list[Card], Card, bool]:
    """A hand and starter that fit ``level``, always the same for ``seed``."""
    crib, fits = LEVELS[level]
    rng = random.Random(f"cribbage-drill:{level}:{seed}")
    deck = full_deck()
    for _ in range(200_000):
        cards = rng.sample(deck, 5)
        hand, starter = sorted(cards[:4]), cards[4]
        if fits(score_hand(hand, starter, crib=crib)):
            return hand, starter, crib
    raise RuntimeError(f"no {level} hand found")  # pragma: no cover - every level is common enough


def drill(request: Request) -> dict[str, Any]:
    """A hand (or crib) of the level to count, with its score in words.

    Request: ``level`` (one of :data:`LEVELS`), ``seed`` (a whole number, 0 to
    2**53), ``lang``. Reply: ``level``, ``seed``, ``hand``, ``starter``,
    ``crib``, ``total``, ``items`` (each with ``kind``, ``cards``, ``points``,
    ``text``) and ``said`` (the cadence).
    """
    level = request.get("level", "easy")
    if level not in LEVELS:
        raise ValueError(f"'level' must be one of {', '.join(LEVELS)}.")
    seed = request.get("seed", 0)
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise ValueError("'seed' must be a whole number from 0 to 2**53.")
    lang = lang_of(request)
    hand, starter, crib = deal_for(str(level), seed)
    shown = show_score({"hand": [c.code for c in hand], "starter": starter.code,
                        "crib": crib, "lang": lang})
    return {"level": level, "seed": seed, "hand": [c.code for c in hand],
            "starter": starter.code, "crib": crib, **shown}
