"""The arena: play computer players against each other and measure who is stronger.

``python -m cribbage arena --a expert --b standard --games 200 --seed 1 --jobs 2
--duplicate`` prints each side's wins, win rate with a 95% confidence interval,
points per deal (hand, crib, pegging) as dealer and as pone, and the mean
decision time per move kind. A side is a level name or ``module:callable``
(a no-argument factory returning a player that follows the protocol).

>>> from cribbage.game import Game
>>> from cribbage.players import make_player
>>> result = play_game(Game.new(seed=1, first_dealer=0),
...                    [make_player("easy", 1), make_player("beginner", 2)])
>>> result.game.phase, sum(result.deals.values()) > 0
('over', True)
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from .game import Game
from .players import computer_move, load_player
from .rules import CARD_COUNTS, TARGETS, Rules, RulesError

COUNTING: dict[str, dict[str, bool]] = {  # --counting: the manual-counting rules
    "auto": {},
    "manual": {"manual_counting": True},
    "muggins": {"manual_counting": True, "muggins": True},
    "pegging": {"manual_counting": True, "muggins": True, "manual_pegging": True},
}
CATEGORIES = {"hand": "hand", "crib": "crib", "play": "peg", "go": "peg",
              "last card": "peg", "heels": "peg", "muggins": "peg", "peg": "peg"}


@dataclass
class GameResult:
    """A finished game with per-seat statistics.

    ``points[(seat, role, category)]`` sums points over complete deals
    (role ``dealer``/``pone``, category ``hand``/``crib``/``peg``);
    ``deals[(seat, role)]`` counts them; ``times[(seat, kind)]`` holds the
    decision time sum (seconds) and number of decisions per move kind.
    """

    game: Game
    points: dict[tuple[int, str, str], int] = field(default_factory=dict)
    deals: dict[tuple[int, str], int] = field(default_factory=dict)
    times: dict[tuple[int, str], list[float]] = field(default_factory=dict)


def play_game(game: Game, players: Sequence[Any]) -> GameResult:
    """Play ``game`` to the end, seat ``i`` moved by ``players[i]``; time every decision."""
    result = GameResult(game)
    while game.phase != "over":
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        start = time.perf_counter()
        move = computer_move(players[seat], view)
        spent = time.perf_counter() - start
        slot = result.times.setdefault((seat, move.kind), [0.0, 0])
        slot[0] += spent
        slot[1] += 1
        game.apply(move)
    tally_points(game, result)
    return result


def tally_points(game: Game, result: GameResult) -> None:
    """Points per deal by seat, role and category, over deals that reached the crib."""
    complete = {event.deal for event in game.events if event.kind == "crib"}
    dealers = {event.deal: event.seat for event in game.events if event.kind == "deal"}
    for deal in complete:
        for seat in range(game.players):
            role = "dealer" if dealers[deal] == seat else "pone"
            result.deals[(seat, role)] = result.deals.get((seat, role), 0) + 1
    for event in game.events:
        category = CATEGORIES.get(event.kind)
        if category is None or event.deal not in complete or event.seat is None:
            continue
        role = "dealer" if dealers[event.deal] == event.seat else "pone"
        key = (event.seat, role, category)
        result.points[key] = result.points.get(key, 0) + event.points


# --- matches -------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSpec:
    """One arena game: its seed, first dealer and which side sits in each seat."""

    index: int
    seed: int
    first_dealer: int
    sides: tuple[str, ...]  # "a" or "b" per seat


def schedule(games: int, seed: int, players: int, duplicate: bool) -> list[GameSpec]:
    """The games to play: alternating first dealer; with ``duplicate`` each deck twice.

    >>> [(s.seed, s.first_dealer, s.sides) for s in schedule(4, 10, 2, True)]
    [(10, 0, ('a', 'b')), (10, 0, ('b', 'a')), (11, 1, ('a', 'b')), (11, 1, ('b', 'a'))]
    """
    specs = []
    for index in range(games):
        number = index // 2 if duplicate else index
        swapped = duplicate and index % 2 == 1
        sides = tuple(seat_side(seat, players, number if not duplicate else 0, swapped)
                      for seat in range(players))
        specs.append(GameSpec(index, seed + number, number % players, sides))
    return specs


def seat_side(seat: int, players: int, number: int, swapped: bool) -> str:
    """Which side sits in ``seat``: teams for 4 players, one A against two B for 3."""
    if players == 3:
        side = "a" if seat == number % 3 else "b"
    else:
        side = "a" if seat % 2 == 0 else "b"
    if swapped:
        side = "b" if side == "a" else "a"
    return side


def run_spec(job: tuple[GameSpec, str, str, Rules]) -> dict[str, Any]:
    """Play one scheduled game (in a worker process); return picklable statistics."""
    spec, a, b, rules = job
    players = [load_player(a if side == "a" else b, seed=spec.seed * 10 + seat)
               for seat, side in enumerate(spec.sides)]
    game = Game.new(rules, seed=spec.seed, first_dealer=spec.first_dealer)
    result = play_game(game, players)
    assert game.outcome is not None
    winner_seats = [s for s in range(rules.players) if rules.team_of(s) == game.outcome.winner]
    summary: dict[str, Any] = {"index": spec.index, "seed": spec.seed,
                               "winner": spec.sides[winner_seats[0]],
                               "points": defaultdict(float), "deals": defaultdict(int),
                               "times": defaultdict(lambda: [0.0, 0])}
    for (seat, role, category), points in result.points.items():
        summary["points"][(spec.sides[seat], role, category)] += points
    for (seat, role), deals in result.deals.items():
        summary["deals"][(spec.sides[seat], role)] += deals
    for (seat, kind), (spent, moves) in result.times.items():
        slot = summary["times"][(spec.sides[seat], kind)]
        slot[0] += spent
        slot[1] += moves
    summary["points"], summary["deals"] = dict(summary["points"]), dict(summary["deals"])
    summary["times"] = dict(summary["times"])
    return summary


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate.

    >>> [round(x, 3) for x in wilson(540, 1000)]
    [0.509, 0.571]
    """
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (centre - half, centre + half)


def paired_interval(pairs: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and 95% interval of per-pair win rates (duplicate: luck of the cards cancels).

    >>> [round(x, 3) for x in paired_interval([1.0, 0.5, 0.5, 0.0])]
    [0.5, 0.1, 0.9]
    """
    n = len(pairs)
    mean = sum(pairs) / n
    var = sum((x - mean) ** 2 for x in pairs) / (n - 1) if n > 1 else 0.25
    half = z * math.sqrt(var / n)
    return (round(mean, 6), round(mean - half, 6), round(mean + half, 6))


def summarise(results: list[dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    """Aggregate per-game statistics into the report."""
    games = len(results)
    report: dict[str, Any] = {"a": args.a, "b": args.b, "games": games, "seed": args.seed,
                              "players": args.players, "target": match_rules(args).target,
                              "cards": getattr(args, "cards", 6),
                              "counting": getattr(args, "counting", "auto"),
                              "duplicate": args.duplicate, "sides": {}}
    for side in ("a", "b"):
        wins = sum(1 for r in results if r["winner"] == side)
        low, high = wilson(wins, games)
        entry: dict[str, Any] = {"player": getattr(args, side), "wins": wins,
                                 "win_rate": wins / games if games else 0.0,
                                 "ci95": [round(low, 4), round(high, 4)]}
        entry["per_deal"] = per_deal(results, side)
        entry["ms_per_move"] = ms_per_move(results, side)
        report["sides"][side] = entry
    if args.duplicate:
        by_seed: dict[int, list[float]] = defaultdict(list)
        for r in results:
            by_seed[r["seed"]].append(1.0 if r["winner"] == "a" else 0.0)
        pairs = [sum(v) / len(v) for v in by_seed.values()]
        report["a_paired_ci95"] = paired_interval(pairs)
    return report


def per_deal(results: list[dict[str, Any]], side: str) -> dict[str, dict[str, float]]:
    """Mean points per deal by role and category for one side."""
    table: dict[str, dict[str, float]] = {}
    for role in ("dealer", "pone"):
        deals = sum(r["deals"].get((side, role), 0) for r in results)
        row = {}
        for category in ("hand", "crib", "peg"):
            points = sum(r["points"].get((side, role, category), 0) for r in results)
            row[category] = round(points / deals, 3) if deals else 0.0
        row["total"] = round(sum(row.values()), 3)
        row["deals"] = deals
        table[role] = row
    return table


def ms_per_move(results: list[dict[str, Any]], side: str) -> dict[str, float]:
    """Mean decision time in milliseconds per move kind for one side."""
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for r in results:
        for (owner, kind), (spent, moves) in r["times"].items():
            if owner == side:
                totals[kind][0] += spent
                totals[kind][1] += moves
    return {kind: round(1000 * spent / moves, 3) for kind, (spent, moves) in
            sorted(totals.items()) if moves}


def format_report(report: dict[str, Any]) -> str:
    """The report as a plain-text table."""
    variant = "" if report.get("cards", 6) == 6 else f"{report['cards']}-card, "
    lines = [f"{report['games']} games, {variant}{report['players']} players "
             f"to {report['target']}, "
             f"seed {report['seed']}{', duplicate' if report['duplicate'] else ''}"
             f"{'' if report.get('counting', 'auto') == 'auto' else ', counting: '}"
             f"{'' if report.get('counting', 'auto') == 'auto' else report['counting']}"]
    for side, entry in report["sides"].items():
        low, high = entry["ci95"]
        lines.append(f"{side.upper()} {entry['player']}: {entry['wins']} wins, "
                     f"{100 * entry['win_rate']:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)")
        for role, row in entry["per_deal"].items():
            lines.append(f"  as {role:6}: {row['total']:6.2f} points/deal = hand {row['hand']:.2f}"
                         f" + crib {row['crib']:.2f} + pegging {row['peg']:.2f}"
                         f"  ({row['deals']} deals)")
        times = ", ".join(f"{kind} {ms:.2f}" for kind, ms in entry["ms_per_move"].items())
        lines.append(f"  ms per decision: {times}")
    if "a_paired_ci95" in report:
        mean, low, high = report["a_paired_ci95"]
        lines.append(f"A win rate over duplicate pairs: {100 * mean:.1f}% "
                     f"(95% CI {100 * low:.1f}-{100 * high:.1f}%)")
    return "\n".join(lines)


def run_match(args: argparse.Namespace) -> dict[str, Any]:
    """Play the scheduled games (in ``args.jobs`` processes) and summarise them."""
    rules = match_rules(args)
    specs = schedule(args.games, args.seed, args.players, args.duplicate)
    jobs = [(spec, args.a, args.b, rules) for spec in specs]
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            results = list(pool.imap_unordered(run_spec, jobs, chunksize=4))
    else:
        results = [run_spec(job) for job in jobs]
    results.sort(key=lambda r: r["index"])
    return summarise(results, args)


def match_rules(args: argparse.Namespace) -> Rules:
    """The rules of a match from its arguments (raises :class:`RulesError` if not allowed)."""
    counting = COUNTING[getattr(args, "counting", "auto")]
    return Rules(players=args.players, target=args.target or 0,
                 cards=getattr(args, "cards", 6),
                 manual_counting=counting.get("manual_counting", False),
                 muggins=counting.get("muggins", False),
                 manual_pegging=counting.get("manual_pegging", False))


def parser(parser_class: type[argparse.ArgumentParser] = argparse.ArgumentParser
           ) -> argparse.ArgumentParser:
    p = parser_class(prog="python -m cribbage arena",
                     description="Play computer players against each other.")
    p.add_argument("--a", default="expert", help="level or module:callable (side A)")
    p.add_argument("--b", default="standard", help="level or module:callable (side B)")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--cards", type=int, choices=sorted(CARD_COUNTS), default=6,
                   help="six-card cribbage, or five- or seven-card (2 players)")
    p.add_argument("--target", type=int, choices=TARGETS, default=None,
                   help="the game's target (default: the variant's own, 121 for six-card)")
    p.add_argument("--counting", choices=COUNTING, default="auto",
                   help="auto; manual; muggins (manual with muggins); pegging (muggins, "
                        "and the play's points claimed too)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--duplicate", action="store_true",
                   help="play every deck twice with the sides swapped")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    return p


def run_cli(argv: list[str],
            parser_class: type[argparse.ArgumentParser] = argparse.ArgumentParser) -> int:
    """Entry point of ``python -m cribbage arena``; returns the exit status."""
    p = parser(parser_class)
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be at least 1")
    try:
        match_rules(args)
    except RulesError as error:
        p.error(str(error))
    for spec in (args.a, args.b):
        try:
            load_player(spec)
        except (ValueError, ImportError, AttributeError) as error:
            p.error(f"cannot load player {spec!r}: {error}")
    report = run_match(args)
    print(json.dumps(report) if args.json else format_report(report))
    return 0
