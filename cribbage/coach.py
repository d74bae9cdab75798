"""The coach: ranks every discard and every legal card, with the reasons, as the expert sees them.

>>> from cribbage.game import Game
>>> view = Game.scripted(dealer=0, hands=["5S 4S 2S 8D 6H 8C", "TS 6D JH 4H KC 7C"],
...                      starter="5H").view(0)
>>> best = advise_discard(view)[0]
>>> [c.code for c in best.discard], round(best.hand, 2), best.net > best.hand
(['8D', '8C'], 8.5, True)
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import i18n
from .cards import Card, CardError, full_deck, parse_cards
from .game import Game
from .players.discard import DiscardChoice, rank_discards
from .players.levels import Expert, play_parts, playable
from .players.master import Master, plays_for_win, rank_discards_for_win, win_play_values
from .players.pegging import peg_points, reply_risk
from .rules import Rules
from .view import PlayerView

if TYPE_CHECKING:  # the command line's alone: the page's engine never imports argparse
    import argparse


def advise_discard(view: PlayerView) -> list[DiscardChoice]:
    """Every possible discard, best first, with expected hand, crib and net value.

    ``net`` is what the expert maximises: hand plus the crib for our own (or
    partner's) crib, minus it for an opponent's.
    """
    return rank_discards(view, use_crib=True)


@dataclass(frozen=True)
class PlayAdvice:
    """One legal card: its expert value, points now, the reply risk and why."""

    card: Card
    value: float
    points_now: int
    reply_risk: float
    reason: str

    def to_dict(self) -> dict[str, object]:
        return {"card": self.card.code, "value": round(self.value, 3),
                "points_now": self.points_now, "reply_risk": round(self.reply_risk, 3),
                "reason": self.reason}


def advise_play(view: PlayerView, samples: int = 32, seed: int = 0) -> list[PlayAdvice]:
    """Rank the legal cards by the expert's look-ahead, best first, with reasons.

    The value is the expert's own: the average pegging difference (ours minus
    theirs) over the rest of the play, searched on ``samples`` deals of the
    unseen cards, plus the weighted heuristic (points now minus the expected
    reply); see :func:`cribbage.players.levels.play_parts`.
    """
    cards = playable(view)
    if not cards:
        return []
    search, heuristic, weight = play_parts(view, random.Random(seed), samples)
    pile = tuple(c.rank for c in view.pile)
    advice = []
    for card in cards:
        after = pile + (card.rank,)
        now = peg_points(after, view.count + card.value)
        risk = reply_risk(view, after)
        value = search[card] + weight * heuristic[card]
        advice.append(PlayAdvice(card, value, now, risk,
                                 play_reason(view, card, now, risk, search[card],
                                             weight * heuristic[card])))
    advice.sort(key=lambda a: -a.value)
    return advice


def play_reason(view: PlayerView, card: Card, now: int, risk: float, search: float,
                heuristic: float = 0.0) -> str:
    """A short English explanation of one card's value (``search + heuristic``)."""
    count = view.count + card.value
    parts = [f"count {count}"]
    if now:
        parts.append(f"pegs {now} now")
    if risk >= 0.05:
        parts.append(f"the reply may score {risk:.1f} on average")
    if count in (5, 21):
        parts.append(f"{count} invites a ten for fifteen or 31")
    parts.append(f"rest of the play {search:+.2f} points for you on average over sampled "
                 f"hands, {heuristic:+.2f} for now-and-reply")
    return "; ".join(parts)


def example_view(hand: list[Card], dealer: bool, players: int, cards: int = 6) -> PlayerView:
    """A view of seat 0 holding ``hand`` at the discard (other hands made up, unseen);
    ``cards`` is the variant (5, 6 or 7 dealt).

    >>> hand = parse_cards("5S 5H JD 4C 6C")
    >>> [c.code for c in advise_discard(example_view(hand, True, 2, cards=5))[0].kept]
    ['4C', '5H', '6C']
    """
    rules = Rules(players=players, cards=cards)
    if len(hand) != rules.cards_dealt:
        raise CardError(f"{players} players are dealt {rules.cards_dealt} cards, not {len(hand)}")
    rest = [card for card in full_deck() if card not in hand]
    hands = [hand] + [rest[i * rules.cards_dealt:(i + 1) * rules.cards_dealt]
                      for i in range(players - 1)]
    used = rules.cards_dealt * (players - 1)
    crib = rest[used:used + 1] if players == 3 else []
    game = Game.scripted(rules, dealer=0 if dealer else 1, hands=hands, crib=crib,
                         starter=rest[used + 1])
    return game.view(0)


def format_discards(choices: list[DiscardChoice], dealer: bool) -> str:
    """The ranked discard table as text."""
    whose = "your crib" if dealer else "their crib"
    lines = [f"{'rank':>4}  {'discard':<8} {'keep':<12} {'hand':>6} {'crib':>6} {'net':>7}"
             f"   (crib: {whose})"]
    for number, choice in enumerate(choices, 1):
        discard = " ".join(c.code for c in choice.discard)
        kept = " ".join(c.code for c in choice.kept)
        lines.append(f"{number:>4}  {discard:<8} {kept:<12} {choice.hand:6.2f} "
                     f"{choice.crib:6.2f} {choice.net:7.2f}")
    return "\n".join(lines)


def advise_cli(argv: list[str],
               parser_class: type[argparse.ArgumentParser] | None = None) -> int:
    """``python -m cribbage advise 5S 4S 2S 8D 6H 8C --dealer [--players N] [--cards 5|6|7]
    [--json]``.

    ``parser_class`` decides how a bad argument is reported (the command line
    passes one that raises, so the error is one line; argparse's own by default).
    """
    if parser_class is None:
        import argparse

        parser_class = argparse.ArgumentParser
    p = parser_class(prog="python -m cribbage advise",
                     description="Rank every discard of a dealt hand.")
    p.add_argument("cards", nargs="+", help="the dealt cards, e.g. 5S 4S 2S 8D 6H 8C")
    p.add_argument("--dealer", action="store_true", help="the crib is yours")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--cards", type=int, choices=(5, 6, 7), default=6, dest="variant",
                   help="five-, six- or seven-card cribbage")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    try:
        hand = parse_cards(" ".join(args.cards))
        if len(set(hand)) != len(hand):
            raise CardError("a card appears twice")
        view = example_view(hand, args.dealer, args.players, args.variant)
    except (CardError, ValueError) as error:
        p.error(str(error))
    choices = advise_discard(view)
    if args.json:
        print(json.dumps([{"discard": [c.code for c in ch.discard],
                           "keep": [c.code for c in ch.kept], "hand": round(ch.hand, 3),
                           "crib": round(ch.crib, 3), "net": round(ch.net, 3)}
                          for ch in choices]))
    else:
        print(format_discards(choices, args.dealer))
    return 0


__all__ = ["PlayAdvice", "advise_cli", "advise_discard", "advise_play", "Expert"]


# --- the page's coach: advice as data, and the review of a deal ---------------


def coach_advice(view: PlayerView, lang: str = "en") -> dict[str, Any]:
    """The coach's ranked choices for a view whose seat is to discard or play.

    Near the end of a 2-player game the master's judgement is used: each
    choice gets its chance to win (``win``, in percent), and when the board
    changes the advice (the best chance to win is not the most points) the
    choices are ranked by it and ``note`` says why in ``lang``; else ``note``
    is None.

    >>> game = Game.scripted(dealer=0, hands=["5S 4S 2S 8D 6H 8C",
    ...     "TS 6D JH 4H KC 7C"], starter="5H")
    >>> advice = coach_advice(game.view(1))
    >>> advice["kind"], len(advice["choices"]), advice["choices"][0]["discard"]
    ('discard', 15, ['TS', 'KC'])
    """
    if view.current_player != view.seat or view.phase not in ("discard", "play"):
        raise ValueError("The coach advises on your own discard or play, when it is your turn.")
    if view.phase == "discard":
        result = {"kind": "discard", "choices": [discard_dict(c) for c in advise_discard(view)],
                  "note": None}
    else:
        result = {"kind": "play", "choices": [a.to_dict() for a in advise_play(view)],
                  "note": None}
    if plays_for_win(view) and result["choices"]:
        board_advice(view, result, lang)
    return result


def board_advice(view: PlayerView, result: dict[str, Any], lang: str) -> None:
    """Add the master's chance to win to each choice; rank by it when the board decides."""
    choices: list[dict[str, Any]] = result["choices"]
    if result["kind"] == "discard":
        wins = {tuple(sorted(c.code for c in w.choice.discard)): w.win
                for w in rank_discards_for_win(view)}
        for choice in choices:
            choice["win"] = round(100 * wins[tuple(sorted(choice["discard"]))], 1)
        key = "discard"
    else:
        values = win_play_values(view, random.Random(0), 32)
        by_code = {card.code: value for card, value in values.items()}
        for choice in choices:
            choice["win"] = round(100 * min(1.0, max(0.0, by_code[choice["card"]])), 1)
        key = "card"
    points_best = choices[0]
    board_best = max(choices, key=lambda c: c["win"])
    if board_best["win"] <= points_best["win"] + 100 * Master.margin:
        return
    choices.sort(key=lambda c: -c["win"])
    target = view.rules.target
    need = i18n.text("coach.need", lang, {
        "need": str(target - view.my_score),
        "their_need": str(target - view.scores[1 - view.team])})

    def label(choice: dict[str, Any]) -> str:
        codes = choice[key] if key == "discard" else [choice[key]]
        return str(i18n.cards_label(codes))

    result["note"] = i18n.text(f"coach.board.{result['kind']}", lang, {
        "need": need, "best": label(board_best), "best_win": f"{board_best['win']:.0f}",
        "other": label(points_best), "other_win": f"{points_best['win']:.0f}"})


def discard_dict(choice: DiscardChoice) -> dict[str, object]:
    return {"discard": [c.code for c in choice.discard], "keep": [c.code for c in choice.kept],
            "hand": round(choice.hand, 2), "crib": round(choice.crib, 2),
            "net": round(choice.net, 2)}


def review_deal(game: Game, seat: int, deal: object = None) -> dict[str, object]:
    """Where ``seat``'s discard and plays in a deal lost expected points.

    ``deal`` defaults to the last finished deal. Each decision that had more
    than one choice is compared with the coach's best at that moment; ``loss``
    is the expected points the choice gave up (net for a discard, the play
    value for a card).

    >>> from cribbage.players import computer_move, make_player
    >>> game = Game.new(seed=3, first_dealer=0)
    >>> bot = make_player("beginner", seed=1)
    >>> while game.deal_number == 1:
    ...     game.apply(computer_move(bot, game.view(game.current_player)))
    >>> result = review_deal(game, 0)
    >>> result["deal"], result["decisions"][0]["kind"], result["lost"] >= 0
    (1, 'discard', True)
    """
    if deal is None:
        deal = game.deal_number if game.phase == "over" else game.deal_number - 1
    if type(deal) is not int or not 1 <= deal <= game.deal_number:
        raise ValueError("'deal' must be a deal of this game.")
    data = game.to_dict()
    moves, data["moves"] = data["moves"], []
    replay = Game.from_dict(data)
    decisions: list[dict[str, Any]] = []
    for text in moves:
        if replay.deal_number > deal:
            break
        chooses = (replay.deal_number == deal and replay.current_player == seat
                   and replay.phase in ("discard", "play") and len(replay.legal_moves()) > 1)
        if chooses:
            decisions.append(judge(coach_advice(replay.view(seat)), text, replay.count))
        replay.apply(text)
    return {"deal": deal, "decisions": decisions,
            "lost": round(sum(decision["loss"] for decision in decisions), 2)}


def judge(advice: dict[str, Any], move: str, count: int) -> dict[str, Any]:
    """Compare the move made with the coach's ranking at that moment."""
    kind, choices = advice["kind"], advice["choices"]
    key, value = ("discard", "net") if kind == "discard" else ("card", "value")
    made = move.split()[1:]

    def cards_of(choice: dict[str, Any]) -> list[str]:
        return sorted(choice[key]) if kind == "discard" else [choice[key]]

    chosen = next((c for c in choices if cards_of(c) == sorted(made)), choices[0])
    best = choices[0]
    return {"kind": kind, "chosen": made, "count": count,
            "best": best[key] if kind == "discard" else [best[key]],
            "chosen_value": chosen[value], "best_value": best[value],
            "loss": round(max(0.0, best[value] - chosen[value]), 2)}
