"""Command line: ``python -m cribbage score|peg|stats|arena|advise|review ...``.

Errors print one line and exit with status 2; never a traceback. Output
piped into a reader that stops early (``| head``) ends quietly.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from .cards import Card, CardError, parse_cards
from .i18n import LANGUAGES
from .rules import Rules
from .scoring import Score, cadence, describe_item, pile_count, score_hand, score_peg

USAGE = """usage: python -m cribbage COMMAND ...
  score CARDS --starter CARD [--crib] [--json] [--lang L]
                                                  itemised show score of a 4-card hand
  peg CARDS [--json] [--lang L]                   points of the last card of a pile
                                                  (--lang en|es|ja: the items and the cadence)
  stats [--cards 5|6|7] [--json]                  scores over all 12,994,800 hands
                                                  (or the 3- or 5-card hands of 5 or 7)
  arena ...                                       computer players against each other
  advise CARDS [--dealer] [--json]                rank the discards of a dealt hand
  review SAVE.json [--seat N] [--json] [--lang L] grade every decision of a saved game"""


class CliError(Exception):
    """A user error: printed as one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError(message)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if args else 2
    command, rest = args[0], args[1:]
    try:
        status = _run(command, rest)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return status
    except (CliError, CardError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader stopped early (``| head``): silence the rest, as Python's docs advise.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _run(command: str, rest: list[str]) -> int:
    if command == "arena":
        from .arena import run_cli

        return run_cli(rest, _Parser)
    if command == "advise":
        from .coach import advise_cli

        return advise_cli(rest, _Parser)
    if command == "review":
        from .review import review_cli

        return review_cli(rest, _Parser)
    handler = {"score": _score, "peg": _peg, "stats": _stats}.get(command)
    if handler is None:
        raise CliError(f"unknown command {command!r} (score, peg, stats, arena, advise, review)")
    return handler(rest)


def _score(argv: list[str]) -> int:
    parser = _Parser(prog="python -m cribbage score")
    parser.add_argument("cards", nargs="+")
    parser.add_argument("--starter", required=True)
    parser.add_argument("--crib", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    args = parser.parse_args(argv)
    hand, starter = parse_cards(args.cards), Card.parse(args.starter)
    score = score_hand(hand, starter, crib=args.crib)
    if args.json:
        print(json.dumps({"hand": [c.code for c in hand], "starter": starter.code,
                          "crib": args.crib, **score.to_dict()}))
        return 0
    label = "Crib" if args.crib else "Hand"
    print(f"{label} {' '.join(map(str, hand))}  starter {starter}")
    _print_items(score, args.lang)
    print(f"Said: {cadence(score.items, args.lang)}")
    return 0


def _peg(argv: list[str]) -> int:
    parser = _Parser(prog="python -m cribbage peg")
    parser.add_argument("cards", nargs="+")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    args = parser.parse_args(argv)
    pile = parse_cards(args.cards)
    score = score_peg(pile)
    if args.json:
        print(json.dumps({"pile": [c.code for c in pile], "count": pile_count(pile),
                          **score.to_dict()}))
        return 0
    print(f"Pile {' '.join(map(str, pile))}  count {pile_count(pile)}  last card {pile[-1]}")
    _print_items(score, args.lang)
    return 0


def _print_items(score: Score, lang: str = "en") -> None:
    for item in score.items:
        cards = " ".join(map(str, item.cards))
        print(f"  {describe_item(item, lang):<16} {cards:<20} {item.points:>3}")
    print(f"  {'total':<16} {'':<20} {score.total:>3}")


def _stats(argv: list[str]) -> int:
    from .stats import score_distribution

    parser = _Parser(prog="python -m cribbage stats")
    parser.add_argument("--cards", type=int, choices=(5, 6, 7), default=6,
                        help="the variant: its hands keep 3, 4 or 5 cards")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    size = Rules(cards=args.cards).hand_size
    dist = score_distribution(size)
    if args.json:
        print(json.dumps({kind: {str(k): v for k, v in sorted(counts.items())}
                          for kind, counts in dist.items()}))
        return 0
    total = sum(dist["hand"].values())
    print(f"Show scores over all {total:,} ({size}-card hand, starter) combinations")
    print("(cribs: the same cards under the crib's flush rule)")
    print(f"{'score':>5} {'hands':>12} {'%':>8} {'cribs':>12} {'%':>8}")
    for points in range(max(dist["hand"]) + 1):
        hand, crib = dist["hand"][points], dist["crib"][points]
        print(f"{points:>5} {hand:>12,} {100 * hand / total:>8.4f} "
              f"{crib:>12,} {100 * crib / total:>8.4f}")
    for kind in ("hand", "crib"):
        mean = sum(k * v for k, v in dist[kind].items()) / total
        print(f"mean {kind} score: {mean:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
