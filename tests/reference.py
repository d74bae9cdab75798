"""An independent, deliberately naive scorer used only to check the engine's.

It shares no code with ``cribbage.scoring`` or the computer players: it works
on (rank, suit) tuples and enumerates subsets by bit masks; the play's search
(:func:`reference_play`) follows the rules' text with every card known.
"""

from __future__ import annotations

from collections.abc import Callable


def _value(rank: int) -> int:
    return 10 if rank > 10 else rank


def reference_show(hand: list[tuple[int, str]], starter: tuple[int, str], crib: bool) -> int:
    cards = hand + [starter]
    points = 0
    subsets = [[cards[i] for i in range(5) if mask >> i & 1] for mask in range(1, 32)]
    points += 2 * sum(1 for s in subsets if len(s) >= 2 and sum(_value(r) for r, _ in s) == 15)
    points += 2 * sum(1 for s in subsets if len(s) == 2 and s[0][0] == s[1][0])
    for length in (5, 4, 3):
        runs = [s for s in subsets if len(s) == length
                and len({r for r, _ in s}) == length
                and max(r for r, _ in s) - min(r for r, _ in s) == length - 1]
        if runs:
            points += length * len(runs)
            break
    suits = {suit for _, suit in hand}
    if len(suits) == 1:
        if starter[1] in suits:
            points += 5
        elif not crib:
            points += 4
    points += sum(1 for rank, suit in hand if rank == 11 and suit == starter[1])
    return points


def reference_peg(pile: list[tuple[int, str]]) -> int:
    count = sum(_value(r) for r, _ in pile)
    assert count <= 31
    points = 2 if count in (15, 31) else 0
    same = 1
    while same < len(pile) and pile[-same - 1][0] == pile[-1][0]:
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    best = 0
    for k in range(3, len(pile) + 1):
        ranks = sorted(r for r, _ in pile[-k:])
        if ranks == list(range(ranks[0], ranks[0] + k)):
            best = k
    return points + best


def reference_show_any(hand: list[tuple[int, str]], starter: tuple[int, str], crib: bool) -> int:
    """Like :func:`reference_show` for a hand of any size (five- and seven-card cribbage).

    A run is a set of three or more cards of distinct consecutive ranks that no
    other card of the hand extends at either end (every such set counts).
    """
    cards = hand + [starter]
    n = len(cards)
    subsets = [[cards[i] for i in range(n) if mask >> i & 1] for mask in range(1, 1 << n)]
    points = 2 * sum(1 for s in subsets if len(s) >= 2 and sum(_value(r) for r, _ in s) == 15)
    points += 2 * sum(1 for s in subsets if len(s) == 2 and s[0][0] == s[1][0])
    ranks = {r for r, _ in cards}
    for s in subsets:
        low, high = min(r for r, _ in s), max(r for r, _ in s)
        if (len(s) >= 3 and len({r for r, _ in s}) == len(s) and high - low == len(s) - 1
                and low - 1 not in ranks and high + 1 not in ranks):
            points += len(s)
    suits = {suit for _, suit in hand}
    if len(suits) == 1:
        if starter[1] in suits:
            points += len(hand) + 1
        elif not crib:
            points += len(hand)
    points += sum(1 for rank, suit in hand if rank == 11 and suit == starter[1])
    return points


RefCard = tuple[int, str]
RefHands = tuple[tuple[RefCard, ...], tuple[RefCard, ...]]
Value = Callable[[tuple[int, int], bool], float | None]


def reference_play(hands: RefHands, pile: tuple[RefCard, ...], turn: int,
                   gone: frozenset[int], last: int | None, me: int, value: Value,
                   pegged: tuple[int, int] = (0, 0)) -> float:
    """Minimax over the rest of a 2-player play with every card known.

    ``turn`` is to lay a card on ``pile`` (or say go); ``gone`` holds the
    seats that said go in this series, ``last`` the seat that laid its last
    card. ``me`` picks the largest value, the other seat the smallest.
    ``pegged`` holds each seat's points so far in this search;
    ``value(pegged, False)`` is asked after every score (a number ends the
    game there: someone pegged out), ``value(pegged, True)`` once every card
    is laid. The flow is written from the rules (docs/rules.md, rules 7-11),
    not from the engine's.
    """
    count = sum(_value(r) for r, _ in pile)
    fits = [card for card in hands[turn] if count + _value(card[0]) <= 31]
    if not fits:
        return _after(hands, pile, turn, gone | {turn}, last, me, value, pegged)
    results = [reference_lay(hands, pile, turn, card, gone, me, value, pegged)
               for card in fits]
    return max(results) if turn == me else min(results)


def reference_lay(hands: RefHands, pile: tuple[RefCard, ...], seat: int, card: RefCard,
                  gone: frozenset[int], me: int, value: Value,
                  pegged: tuple[int, int] = (0, 0)) -> float:
    """The value (as :func:`reference_play`) of ``seat`` laying ``card`` now."""
    hand = tuple(c for c in hands[seat] if c != card)
    new_hands = (hand, hands[1]) if seat == 0 else (hands[0], hand)
    new_pile = pile + (card,)
    new_pegged = _add(pegged, seat, reference_peg(list(new_pile)))
    ended = value(new_pegged, False) if new_pegged != pegged else None
    if ended is None:
        ended = _after(new_hands, new_pile, seat, gone, seat, me, value, new_pegged)
    return ended


def _add(pegged: tuple[int, int], seat: int, points: int) -> tuple[int, int]:
    return (pegged[0] + points, pegged[1]) if seat == 0 else (pegged[0], pegged[1] + points)


def _after(hands: RefHands, pile: tuple[RefCard, ...], actor: int, gone: frozenset[int],
           last: int | None, me: int, value: Value, pegged: tuple[int, int]) -> float:
    """Whose turn after ``actor``: the other seat if it may still lay a card on this
    series, else ``actor`` again, else the series closes (go or last card)."""
    count = sum(_value(r) for r, _ in pile)
    other = 1 - actor
    for seat in (other, actor):
        if seat not in gone and any(count + _value(r) <= 31 for r, _ in hands[seat]):
            return reference_play(hands, pile, seat, gone, last, me, value, pegged)
    assert last is not None
    if count != 31:  # a go, or the last card
        pegged = _add(pegged, last, 1)
        ended = value(pegged, False)
        if ended is not None:
            return ended
    if not hands[0] and not hands[1]:
        result = value(pegged, True)
        assert result is not None, "value(pegged, True) must be a number"
        return result
    leader = 1 - last if hands[1 - last] else last
    return reference_play(hands, (), leader, frozenset(), None, me, value, pegged)
