"""The game review: every decision a person made in a game, graded against the master.

``review_game(game, seat, lang)`` replays a finished (or unfinished) game
from its save and, at each of ``seat``'s decisions that had a choice, asks
what the master would have done from the same :class:`~cribbage.view.PlayerView`:

- a **discard** is judged by the expert's expected points (hand plus or
  minus crib, exact over every starter) and, near the end of a 2-player game,
  by the master's chance to win;
- a **card played** by the expert's value of the rest of the play (sampled
  hands, searched to the end, plus the reply heuristic: 8 sampled deals far
  from the end, 12 near it; the hands sampled as the master reads the
  opponent's discard and plays, where there are win tables) and, near the
  end, by the master's search on the chance to win;
- a **count claim** (manual counting) by the points claimed against the
  true worth.

Each decision gets a category, ``best``, ``good``, ``inaccuracy``,
``mistake`` or ``blunder``, from the expected points it gave up (0.05,
0.5, 1.5 and 3 points) or, when the board decided, from the chance to win
it gave up (0.2, 2, 5 and 10 percentage points), and a sentence in the
chosen language. The game's accuracy is the mean of ``100 * exp(-loss / 2)``
over the decisions, ``loss`` in points (a percentage point of winning
chance counted as a third of a point). The three costliest moments come
with the position: the hand, the starter if it was known, the pile and
count, the scores.

>>> from cribbage.game import Game
>>> from cribbage.players import computer_move, make_player
>>> game = Game.new(seed=4, first_dealer=0)
>>> bots = [make_player("beginner", 1), make_player("standard", 2)]
>>> while game.deal_number < 3:
...     game.apply(computer_move(bots[game.current_player], game.view(game.current_player)))
>>> report = review_game(game, 0)
>>> 0 <= report["accuracy"] <= 100, len(report["costliest"]) <= 3
(True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from typing import Any

from . import i18n
from .cards import Card
from .game import Game, Move
from .players.discard import rank_discards
from .players.levels import claim_worth, play_values, playable
from .players.master import (
    Master,
    has_win_tables,
    plays_for_win,
    rank_discards_for_win,
    win_play_values,
)
from .view import PlayerView

CATEGORIES = ("best", "good", "inaccuracy", "mistake", "blunder")
POINT_STEPS = (0.05, 0.5, 1.5, 3.0)
WIN_STEPS = (0.002, 0.02, 0.05, 0.10)
POINTS_PER_WIN = 1 / 0.03  # a point is worth about 3% of the game near the end
SAMPLES = 12  # sampled deals per card played, near the end (the board decides)
SAMPLES_FAR = 8  # and far from it, where a point is a point (a cheaper review)


def category(loss: float, steps: tuple[float, ...]) -> str:
    """The category of a loss (points or win chance) against its thresholds.

    >>> category(0.0, POINT_STEPS), category(1.0, POINT_STEPS), category(0.2, WIN_STEPS)
    ('best', 'inaccuracy', 'blunder')
    """
    for name, step in zip(CATEGORIES, steps):
        if loss <= step if name == "best" else loss < step:
            return name
    return CATEGORIES[-1]


def review_game(game: Game, seat: int, lang: str = "en",
                progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Grade every decision ``seat`` made in ``game``; JSON-ready.

    ``progress(done, total)`` is called after each deal graded (for a
    progress indicator). Deterministic: the sampled searches are seeded by
    the move's number.
    """
    review = GameReview(game, seat, lang)
    for deal in review.deal_numbers():
        review.deal(deal)
        if progress is not None:
            progress(deal, review.deals)
    return review.report()


class GameReview:
    """One seat's review of one game, graded deal by deal on demand.

    The game is replayed once, a deal at a time: :meth:`deal` grades up to
    that deal (the page asks deal by deal and shows its progress between
    them), :meth:`report` grades the rest and sums the game up.

    >>> from cribbage.game import Game
    >>> from cribbage.players import computer_move, make_player
    >>> game = Game.new(seed=4, first_dealer=0)
    >>> bot = make_player("beginner", 1)
    >>> while game.deal_number < 3:
    ...     game.apply(computer_move(bot, game.view(game.current_player)))
    >>> review = GameReview(game, 0)
    >>> review.deals, [d["kind"] for d in review.deal(1)][0]
    (3, 'discard')
    >>> review.report()["decisions"][0] == review.deal(1)[0]
    True
    """

    def __init__(self, game: Game, seat: int, lang: str = "en") -> None:
        if type(seat) is not int or not 0 <= seat < game.players:
            raise ValueError(f"There is no seat {seat!r} in this game.")
        self.seat = seat
        self.lang = i18n.language(lang)
        self.deals = game.deal_number
        self.graded: dict[int, list[dict[str, Any]]] = {}
        self._walk = self._replay(game)

    def deal_numbers(self) -> range:
        """The deals of the game, first to last (the last may be unfinished)."""
        return range(1, self.deals + 1)

    def deal(self, number: int) -> list[dict[str, Any]]:
        """The graded decisions of one deal (grading every deal before it first)."""
        if type(number) is not int or number not in self.deal_numbers():
            raise ValueError(f"There is no deal {number!r} in this game.")
        while number not in self.graded:
            next(self._walk)
        return self.graded[number]

    def _replay(self, game: Game) -> Iterator[None]:
        """Replay the game, grading the seat's decisions; pause after each deal."""
        data = game.to_dict()
        moves, data["moves"] = data["moves"], []
        replay = Game.from_dict(data)
        deal, decisions = replay.deal_number, list[dict[str, Any]]()
        for number, text in enumerate(moves):
            if replay.deal_number != deal:
                self.graded[deal] = decisions
                yield
                deal, decisions = replay.deal_number, []
            if replay.current_player == self.seat and replay.phase in (
                    "discard", "play", "count", "peg_count"):
                judged = judge(replay.view(self.seat), Move.parse(text), number, self.lang)
                if judged is not None:
                    decisions.append(judged)
            replay.apply(text)
        self.graded[deal] = decisions
        for number in self.deal_numbers():
            self.graded.setdefault(number, [])
        yield

    def report(self) -> dict[str, Any]:
        """Every decision of the game graded, the accuracy and the costliest moments."""
        decisions = [d for deal in self.deal_numbers() for d in self.deal(deal)]
        return summarize(decisions, self.seat, self.lang)


def summarize(decisions: list[dict[str, Any]], seat: int, lang: str) -> dict[str, Any]:
    """The review's report from its graded decisions (counts, accuracy, costliest)."""
    counts = {name: sum(1 for d in decisions if d["category"] == name) for name in CATEGORIES}
    accuracy = (sum(100 * math.exp(-d["cost"] / 2) for d in decisions) / len(decisions)
                if decisions else 100.0)
    costliest = sorted((d for d in decisions if d["cost"] > POINT_STEPS[0]),
                       key=lambda d: -d["cost"])[:3]
    return {"seat": seat, "lang": lang, "decisions": decisions, "counts": counts,
            "accuracy": round(accuracy, 1), "costliest": costliest,
            "summary": i18n.text("review.summary", lang, {
                "accuracy": str(round(accuracy)), "best": str(counts["best"]),
                "inaccuracies": str(counts["inaccuracy"]), "mistakes": str(counts["mistake"]),
                "blunders": str(counts["blunder"])})}


def position(view: PlayerView) -> dict[str, Any]:
    """Where the decision was made: the cards held, starter, pile, count, scores."""
    return {"deal": view.deal_number, "dealer": view.dealer,
            "hand": [c.code for c in view.hand],
            "kept": [c.code for c in view.kept],
            "starter": view.starter.code if view.starter else None,
            "pile": [c.code for c in view.pile], "count": view.count,
            "scores": list(view.scores), "target": view.rules.target}


def judge(view: PlayerView, move: Move, number: int, lang: str) -> dict[str, Any] | None:
    """One decision graded, or None when there was nothing to choose."""
    if view.phase == "discard" and move.kind == "discard":
        return judge_discard(view, move, lang)
    if view.phase == "play" and move.kind == "play":
        if len({c.rank for c in playable(view)}) < 2:
            return None
        return judge_play(view, move, number, lang)
    if view.phase in ("count", "peg_count") and move.kind == "count" and view.claim:
        return judge_count(view, move, lang)
    return None


def graded(view: PlayerView, kind: str, chosen: list[str], best: list[str], loss: float,
           win: tuple[float, float] | None, lang: str) -> dict[str, Any]:
    """The common record: category and cost from points, or from the win chance."""
    loss = max(0.0, loss)
    if win is not None:
        win_loss = max(0.0, win[0] - win[1])
        name = category(win_loss, WIN_STEPS)
        cost = win_loss * 100 / 3 if win_loss > WIN_STEPS[0] else 0.0
    else:
        win_loss = 0.0
        name = category(loss, POINT_STEPS)
        cost = loss if loss > POINT_STEPS[0] else 0.0
    if name == "best":  # as good as the master's (ties and near-ties included)
        best = chosen
    record: dict[str, Any] = {
        "kind": kind, "chosen": chosen, "best": best, "category": name,
        "loss": round(loss, 2), "cost": round(cost, 2),
        "win": None if win is None else {"best": round(100 * win[0], 1),
                                         "chosen": round(100 * win[1], 1),
                                         "loss": round(100 * win_loss, 1)},
        "position": position(view)}
    record["category_text"] = i18n.text("review.category." + name, lang)
    record["reason"] = reason(record, lang) if kind != "count" else ""
    return record


def judge_discard(view: PlayerView, move: Move, lang: str) -> dict[str, Any]:
    chosen = sorted(c.code for c in move.cards)
    choices = rank_discards(view, use_crib=True)
    net = {tuple(sorted(c.code for c in ch.discard)): ch.net for ch in choices}
    best_points = choices[0]
    win: tuple[float, float] | None = None
    best = sorted(c.code for c in best_points.discard)
    if plays_for_win(view):
        ranked = rank_discards_for_win(view)
        by_cards = {tuple(sorted(c.code for c in w.choice.discard)): w.win for w in ranked}
        best = sorted(c.code for c in ranked[0].choice.discard)
        win = (ranked[0].win, by_cards[tuple(chosen)])
    loss = net[tuple(best)] - net[tuple(chosen)]
    return graded(view, "discard", chosen, best, loss, win, lang)


def judge_play(view: PlayerView, move: Move, number: int, lang: str) -> dict[str, Any]:
    card = move.cards[0]
    near = plays_for_win(view)
    # The master's reading of the opponent (its discard and plays) where it has one.
    model = Master(number) if has_win_tables(view) else None
    points = play_values(view, random.Random(number), SAMPLES if near else SAMPLES_FAR, model)
    win: tuple[float, float] | None = None
    best_card = max(points, key=lambda c: (points[c], -c.index))
    if near:
        wins = win_play_values(view, random.Random(number), SAMPLES, model)
        best_card = max(wins, key=lambda c: (wins[c], -c.index))
        win = (wins[best_card], _same_rank(wins, card))
    loss = _same_rank(points, best_card) - _same_rank(points, card)
    return graded(view, "play", [card.code], [best_card.code], loss, win, lang)


def _same_rank(values: dict[Card, float], card: Card) -> float:
    """A card's value (cards of one rank are worth the same in the play)."""
    if card in values:
        return values[card]
    return max(v for c, v in values.items() if c.rank == card.rank)


def judge_count(view: PlayerView, move: Move, lang: str) -> dict[str, Any]:
    assert view.claim is not None and move.points is not None
    worth = claim_worth(view, view.claim)
    error = move.points - worth
    record = graded(view, "count", [str(move.points)], [str(worth)], abs(error), None, lang)
    record["what"] = view.claim.what
    record["reason"] = i18n.text(
        "review.count." + ("right" if error == 0 else "over" if error > 0 else "under"), lang,
        {"claimed": str(move.points), "worth": str(worth), "what":
         i18n.text("review.what." + view.claim.what, lang), "difference": str(abs(error))})
    return record


def reason(record: dict[str, Any], lang: str) -> str:
    """The sentence for a discard or a play."""
    kind = record["kind"]
    values = {"chosen": i18n.cards_label(record["chosen"]),
              "best": i18n.cards_label(record["best"]),
              "loss": f"{record['loss']:.1f}", "count": str(record["position"]["count"])}
    if kind == "play":  # the count the card made
        values["count"] = str(record["position"]["count"] + Card.parse(record["chosen"][0]).value)
    if record["category"] == "best":
        return i18n.text(f"review.{kind}.best", lang, values)
    if record["win"] is not None:
        values.update({"best_win": f"{record['win']['best']:.0f}",
                       "chosen_win": f"{record['win']['chosen']:.0f}"})
        return i18n.text(f"review.{kind}.win", lang, values)
    return i18n.text(f"review.{kind}.points", lang, values)


def format_review(report: dict[str, Any]) -> str:
    """The review as text for the command line."""
    lang = report["lang"]
    lines = [report["summary"]]
    for d in report["decisions"]:
        pos = d["position"]
        where = i18n.text("review.line", lang, {
            "deal": str(pos["deal"]), "kind": i18n.text("review.kind." + d["kind"], lang)})
        lines.append(f"  {where}: {d['category_text']}. {d['reason']}")
    if report["costliest"]:
        lines.append(i18n.text("review.costliest", lang))
        for d in report["costliest"]:
            pos = d["position"]
            starter = i18n.cards_label([pos["starter"]]) if pos["starter"] else "-"
            lines.append(f"  {d['category_text']}: {d['reason']}")
            lines.append("    " + i18n.text("review.position", lang, {
                "deal": str(pos["deal"]), "hand": i18n.cards_label(pos["hand"]),
                "starter": starter, "pile": i18n.cards_label(pos["pile"]) or "-",
                "count": str(pos["count"]),
                "scores": " - ".join(str(s) for s in pos["scores"])}))
    return "\n".join(lines)


def review_cli(argv: list[str], parser_class: Any) -> int:
    """``python -m cribbage review SAVE.json [--seat N] [--json] [--lang en|es|ja]``."""
    import json

    from .game import GameStateError

    p = parser_class(prog="python -m cribbage review",
                     description="Grade every decision of one seat in a saved game.")
    p.add_argument("save", help="a saved game (the JSON the engine's save() returns)")
    p.add_argument("--seat", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.add_argument("--lang", choices=i18n.LANGUAGES, default="en")
    args = p.parse_args(argv)
    try:
        with open(args.save, encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError) as error:
        why = error.strerror if isinstance(error, OSError) else str(error)
        p.error(f"cannot read {args.save}: {why}")
    try:
        game = Game.from_json(text)
    except GameStateError as error:
        p.error(f"{args.save} is not a valid saved game: {error}")
    if not 0 <= args.seat < game.players:
        p.error(f"there is no seat {args.seat} in this {game.players}-player game")
    report = review_game(game, args.seat, args.lang)
    print(json.dumps(report, ensure_ascii=False) if args.json else format_review(report))
    return 0


__all__ = ["CATEGORIES", "GameReview", "category", "format_review", "review_cli", "review_game"]
