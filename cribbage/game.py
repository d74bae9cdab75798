"""The game: every phase of a deal, whole games, events, views and saving.

A :class:`Game` is a state machine in the style of python-chess and OpenSpiel:
``current_player``, ``legal_moves()``, ``apply(move)``. Randomness enters only
through the seed, so a seed and the list of moves replay a game exactly; that
is also how a game is saved (:meth:`Game.to_json`).

>>> game = Game.new(Rules(), seed=7, first_dealer=0)
>>> game.phase, game.current_player, len(game.legal_moves())
('discard', 1, 15)
>>> game.apply(game.legal_moves()[0])
>>> game.phase, game.current_player
('discard', 0)
>>> Game.from_json(game.to_json()).to_json() == game.to_json()
True
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from .cards import Card, CardError, check_distinct, full_deck, parse_cards
from .moves import EVENT_KINDS as EVENT_KINDS  # re-exported: cribbage.game.X still works
from .moves import MOVE_KINDS as MOVE_KINDS
from .moves import Claim as Claim
from .moves import Event as Event
from .moves import IllegalMoveError as IllegalMoveError
from .moves import Move as Move
from .play import closing_point, next_in_turn
from .rules import Outcome, Rules, RulesError
from .scoring import (
    MAX_COUNT,
    Score,
    ScoreItem,
    pile_count,
    score_hand,
    score_peg,
)
from .view import PlayerView

# Phases, in the order a deal goes through them.
CUT = "cut"  # cutting for the first deal
DISCARD = "discard"
STARTER = "starter"  # the cut for the starter
PLAY = "play"
PEG_COUNT = "peg_count"  # manual pegging: who laid a card claims its points
COUNT = "count"  # manual counting: a player states a hand's total
MUGGINS = "muggins"  # manual counting: opponents may call a wrong claim
OVER = "over"
PHASES = (CUT, DISCARD, STARTER, PLAY, PEG_COUNT, COUNT, MUGGINS, OVER)

CRIB_SIZE = 4
SAVE_FORMAT = "cribbage-game"
SAVE_VERSION = 1
MAX_SEED = 2**64  # seeds are whole numbers 0 <= seed < MAX_SEED


class GameStateError(ValueError):
    """Raised for a saved game or scripted deal that cannot be loaded."""


class Game:
    """A whole game of cribbage under some :class:`Rules`.

    Create one with :meth:`new` (seeded), :meth:`scripted` (given cards) or
    :meth:`from_json` (a saved game). Seats are numbered 0..players-1 clockwise.
    """

    def __init__(self, rules: Rules, setup: dict[str, Any]) -> None:
        self.rules = rules
        self.setup = setup
        self.moves: list[str] = []
        self.events: list[Event] = []
        self.scores = [0] * rules.teams
        self.outcome: Outcome | None = None
        self.phase = CUT
        self.current_player: int | None = 0
        self.dealer = 0
        self.deal_number = 0
        self.hands: list[list[Card]] = [[] for _ in range(rules.players)]
        self.kept: list[list[Card]] = [[] for _ in range(rules.players)]
        self.discards: list[list[Card]] = [[] for _ in range(rules.players)]
        self.crib: list[Card] = []
        self.deck: list[Card] = []
        self.starter: Card | None = None
        self.pile: list[Card] = []
        self.played: list[tuple[int, Card]] = []
        self.said_go: set[int] = set()
        self.last_player: int | None = None
        self.cut_round = 0
        self.cut_cards: dict[int, Card] = {}
        self.cutters: list[int] = []
        self.show_queue: list[tuple[int, str]] = []
        self.claim: Claim | None = None  # the manual count being settled
        self.muggins_queue: list[int] = []
        # (index in moves, seat, deal) of each real choice (a discard or a play with
        # more than one legal move): how far a take-back may go (see undo()).
        self.decisions: list[tuple[int, int, int]] = []
        # Each deal's salt and deck order (deal_secret): fixed by the setup, and asked for
        # every deal so far with each move's fair-deal proof, so shuffled once.
        self._secrets: dict[int, tuple[str, tuple[str, ...]]] = {}

    # --- creating games ----------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
        deck: Sequence[Card | str] | None = None,
    ) -> Game:
        """A new game. Without ``first_dealer`` the players cut for the deal.

        ``deck`` fixes the order of the first deal's deck (top card first);
        later deals are shuffled from ``seed`` (random if not given).
        """
        rules = rules or Rules()
        seed = secrets.randbits(63) if seed is None else seed
        if type(seed) is not int or not 0 <= seed < MAX_SEED:
            raise GameStateError(f"a seed is a whole number 0 <= seed < 2**64, not {seed!r}")
        setup: dict[str, Any] = {"seed": seed, "first_dealer": first_dealer}
        if deck is not None:
            setup["deck"] = [card.code for card in _full_deck_order(deck)]
        return cls._begin(rules, setup)

    @classmethod
    def scripted(
        cls,
        rules: Rules | None = None,
        *,
        dealer: int,
        hands: Sequence[Sequence[Card | str] | str],
        starter: Card | str,
        crib: Sequence[Card | str] | str = (),
        scores: Sequence[int] | None = None,
        seed: int = 0,
    ) -> Game:
        """A game whose first deal is given: hands as dealt (then the discards
        are played as moves) or as kept after the discards, with the crib.

        >>> game = Game.scripted(dealer=0, hands=["5S 4S 2S 8D 6H 8C",
        ...     "TS 6D JH 4H KC 7C"], starter="5H")
        >>> game.phase, game.current_player
        ('discard', 1)
        """
        rules = rules or Rules()
        script = {
            "dealer": dealer,
            "hands": [[c.code for c in parse_cards(h)] for h in hands],
            "crib": [c.code for c in parse_cards(crib)],
            "starter": Card.parse(starter).code if isinstance(starter, str) else starter.code,
            "scores": list(scores) if scores is not None else [0] * rules.teams,
        }
        return cls._begin(rules, {"seed": seed, "first_dealer": dealer, "script": script})

    @classmethod
    def _begin(cls, rules: Rules, setup: dict[str, Any]) -> Game:
        game = cls(rules, setup)
        script = setup.get("script")
        if script is not None:
            check_script(rules, script)
            game.scores = list(script["scores"])
        first = setup["first_dealer"]
        if first is None:
            game.cutters = list(range(rules.players))
            game.current_player = 0
        elif type(first) is not int or not 0 <= first < rules.players:
            raise GameStateError(f"first dealer must be a seat 0..{rules.players - 1}")
        else:
            game._start_deal(first)
        return game

    # --- saving and loading -------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole game as JSON-ready data: rules, seed/setup and moves."""
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION,
                "rules": self.rules.to_dict(), "setup": self.setup, "moves": list(self.moves)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: object) -> Game:
        """Rebuild a game by replaying its moves; any flaw raises :class:`GameStateError`.

        The save is checked against its schema (:func:`check_save`) before
        anything is replayed; then each move must be legal in turn.
        """
        rules, setup, moves = check_save(data)
        script = setup.get("script")
        if script is not None:
            game = cls.scripted(rules, seed=setup["seed"], **script)
        else:
            game = cls.new(rules, seed=setup["seed"], first_dealer=setup["first_dealer"],
                           deck=setup.get("deck"))
        for number, move in enumerate(moves, 1):
            try:
                game.apply(move)
            except IllegalMoveError as error:
                raise GameStateError(f"corrupt saved game: move {number} ({move!r}): "
                                     f"{error}") from None
        if "undos" in setup:
            game.setup = dict(game.setup, undos=setup["undos"])
        if "resigned" in setup:
            try:
                game.resign(setup["resigned"])
            except IllegalMoveError as error:
                raise GameStateError(f"corrupt saved game: {error}") from None
        return game

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Load a game saved with :meth:`to_json`.

        >>> Game.from_json("{}")
        Traceback (most recent call last):
        ...
        cribbage.game.GameStateError: not a saved cribbage game
        """
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError):  # nesting too deep for the parser
            raise GameStateError("saved game is not valid JSON") from None
        return cls.from_dict(data)

    def copy(self) -> Game:
        """An independent copy (for look-ahead by tools that own the whole game)."""
        return Game.from_dict(self.to_dict())

    # --- asking ---------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def count(self) -> int:
        """The running count of the current series in the play."""
        return pile_count(self.pile)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def team_of(self, seat: int) -> int:
        return self.rules.team_of(seat)

    @property
    def max_claim(self) -> int:
        """The most a claim may state (:attr:`Rules.max_claim`)."""
        return self.rules.max_claim

    def legal_moves(self) -> list[Move]:
        """Every move the current player may make now (empty when the game is over)."""
        seat = self.current_player
        if seat is None:
            return []
        if self.phase in (CUT, STARTER):
            return [Move("cut")]
        if self.phase == DISCARD:
            return [Move("discard", combo)
                    for combo in combinations(sorted(self.hands[seat]), self.rules.discards_each)]
        if self.phase == PLAY:
            fits = [Move("play", (card,)) for card in sorted(self.hands[seat])
                    if self.count + card.value <= MAX_COUNT]
            return fits or [Move("go")]
        if self.phase in (COUNT, PEG_COUNT):
            return [Move("count", points=points) for points in range(self.max_claim + 1)]
        if self.phase == MUGGINS:
            return [Move("muggins"), Move("pass")]
        return []

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now: never another player's hidden cards or the deck.

        Everything is copied, so the view shares nothing with the game.
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat!r} in a {self.players}-player game")
        return PlayerView(
            seat=seat, rules=self.rules, phase=self.phase, dealer=self.dealer,
            current_player=self.current_player, deal_number=self.deal_number,
            hand=tuple(sorted(self.hands[seat])), kept=tuple(sorted(self.kept[seat])),
            discards=tuple(self.discards[seat]), starter=self.starter,
            crib_size=len(self.crib), hand_sizes=tuple(len(hand) for hand in self.hands),
            pile=tuple(self.pile), played=tuple(self.played),
            said_go=frozenset(self.said_go), scores=tuple(self.scores),
            shown=self._shown(),
            legal_moves=tuple(self.legal_moves()) if self.current_player == seat else (),
            events=tuple(self.events), outcome=self.outcome, claim=self.claim,
        )

    def _shown(self) -> dict[str, tuple[Card, ...]]:
        """Hands and crib revealed in this deal's show so far, and the one being counted."""
        shown: dict[str, tuple[Card, ...]] = {}
        for event in reversed(self.events):
            if event.deal != self.deal_number or event.kind == "deal":
                break
            if event.kind in ("hand", "crib"):
                shown.setdefault("crib" if event.kind == "crib" else f"hand:{event.seat}",
                                 tuple(sorted(event.cards)))
        claim = self.claim  # the hand (or crib) being counted lies face up
        if claim is not None and claim.what != "play":
            shown["crib" if claim.what == "crib" else f"hand:{claim.seat}"] = tuple(
                sorted(claim.cards))
        return shown

    def deal_commitment(self, deal: int | None = None) -> str:
        """SHA-256 of a deal's deck order and a secret salt (revealed after the deal).

        ``deal`` defaults to the deal in progress (deal 1 while cutting for it).

        >>> game = Game.new(seed=4)
        >>> salt, deck = game.deal_secret(1)
        >>> game.deal_commitment() == hashlib.sha256(
        ...     (salt + ":" + " ".join(deck)).encode()).hexdigest()
        True
        """
        salt, deck = self.deal_secret(deal)
        return hashlib.sha256((salt + ":" + " ".join(deck)).encode()).hexdigest()

    def deal_secret(self, deal: int | None = None) -> tuple[str, list[str]]:
        """The salt and deck order behind :meth:`deal_commitment` (reveal after the deal)."""
        number = max(self.deal_number, 1) if deal is None else deal
        if type(number) is not int or number < 1:
            raise GameStateError(f"no deal {number!r}: deals are numbered from 1")
        if number == 1 and "script" in self.setup:
            raise GameStateError("a scripted deal was not shuffled: there is nothing to commit to")
        if number not in self._secrets:
            key = f"{self.setup['seed']}/salt/{number}".encode()
            self._secrets[number] = (hashlib.sha256(key).hexdigest()[:32],
                                     tuple(card.code for card in self._deck_for(number)))
        salt, deck = self._secrets[number]
        return salt, list(deck)

    # --- doing ----------------------------------------------------------------

    def apply(self, move: object) -> None:
        """Make a move for the current player; an illegal move raises and changes nothing.

        ``move`` is a :class:`Move` or its text; anything else is an illegal move.

        >>> game = Game.new(seed=1, first_dealer=0)
        >>> game.apply("play 5S")
        Traceback (most recent call last):
        ...
        cribbage.moves.IllegalMoveError: it is time to discard, not to play
        >>> game.apply(None)
        Traceback (most recent call last):
        ...
        cribbage.moves.IllegalMoveError: not a move: None
        """
        parsed = Move.parse(move)  # refuses anything that is not a Move or text
        legal = self.legal_moves()
        if parsed not in legal:
            raise IllegalMoveError(self._why_illegal(parsed))
        parsed = legal[legal.index(parsed)]  # the engine's own form of the move
        seat = self.current_player
        assert seat is not None
        if self.phase in (DISCARD, PLAY) and len(legal) > 1:
            self.decisions.append((len(self.moves), seat, self.deal_number))
        self.moves.append(str(parsed))
        handler = {
            CUT: self._cut_for_deal, DISCARD: self._discard, STARTER: self._cut_starter,
            PLAY: self._play, PEG_COUNT: self._count, COUNT: self._count,
            MUGGINS: self._muggins,
        }[self.phase]
        handler(seat, parsed)

    # --- taking back and resigning -------------------------------------------------

    def undo_point(self, seat: int) -> int | None:
        """How many moves to keep to take back ``seat``'s last choice in this deal, or None.

        A choice is a discard or a play with more than one legal move (a forced
        go or cut is no choice); a take-back never reaches into an earlier deal.
        """
        if self.phase == OVER:
            return None
        for index, chooser, deal in reversed(self.decisions):
            if deal != self.deal_number:
                return None
            if chooser == seat:
                return index
        return None

    def undo(self, seat: int) -> Game:
        """The game as it was at ``seat``'s last choice in this deal, to choose again.

        The later moves (everyone's) are dropped and the save counts the
        take-back (``setup["undos"]``); raises :class:`IllegalMoveError` if
        there is nothing to take back.

        >>> game = Game.new(seed=3, first_dealer=1)
        >>> choice = str(game.legal_moves()[0]); game.apply(choice)
        >>> back = game.undo(0)
        >>> back.moves, back.setup["undos"], back.phase
        ([], 1, 'discard')
        """
        keep = self.undo_point(seat)
        if keep is None:
            raise IllegalMoveError("there is no choice of yours in this deal to take back")
        data = self.to_dict()
        data["moves"] = data["moves"][:keep]
        data["setup"] = dict(data["setup"], undos=self.setup.get("undos", 0) + 1)
        return Game.from_dict(data)

    def resign(self, seat: int) -> None:
        """``seat`` concedes: the game ends, won by the best-placed other side.

        The win is judged on the scores as they stand (a skunk line still
        counts) and the save records who resigned (``setup["resigned"]``).

        >>> game = Game.new(seed=2, first_dealer=0)
        >>> game.resign(0)
        >>> game.phase, game.outcome.winner, game.outcome.kind, game.setup["resigned"]
        ('over', 1, 'resign', 0)
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalMoveError(f"there is no seat {seat!r}")
        if self.phase == OVER:
            raise IllegalMoveError("the game is over: there is nothing to resign")
        mine = self.team_of(seat)
        others = [team for team in range(self.rules.teams) if team != mine]
        winner = max(others, key=lambda team: (self.scores[team], -team))
        judged = Outcome.judge(self.rules, winner, self.scores)
        self.outcome = Outcome(winner, "resign", judged.game_points, tuple(self.scores))
        self.phase, self.current_player = OVER, None
        self.claim, self.muggins_queue = None, []
        self.setup = dict(self.setup, resigned=seat)
        self._event("resign", seat)
        self._event("over", seat)

    def _why_illegal(self, move: Move) -> str:
        if self.phase == OVER:
            return "the game is over"
        if self.phase == MUGGINS:
            return "it is time to call muggins or pass"
        expected = {CUT: "cut", DISCARD: "discard", STARTER: "cut", PLAY: "play",
                    PEG_COUNT: "count", COUNT: "count"}[self.phase]
        if move.kind == "go" and self.phase == PLAY:
            return "you cannot say go while you have a card that fits: you must play it"
        if move.kind != expected:
            if self.phase == PEG_COUNT:
                return (f"claim the points of the card you laid first, e.g. 'count 2', "
                        f"not {move.kind}")
            return f"it is time to {expected}, not to {move.kind}"
        if self.phase == COUNT:
            return f"a hand scores 0 to {self.max_claim} points"
        if self.phase == PEG_COUNT:
            return f"a claim is 0 to {self.max_claim} points"
        seat = self.current_player
        assert seat is not None
        missing = [card for card in move.cards if card not in self.hands[seat]]
        if missing:
            return f"{missing[0]} is not in your hand"
        if self.phase == DISCARD:
            need = self.rules.discards_each
            return f"put exactly {need} card{'s' if need > 1 else ''} in the crib"
        if self.phase == PLAY:
            if len(move.cards) != 1:
                return "play exactly one card"
            return f"{move.cards[0]} would take the count past 31 (count is {self.count})"
        return "not a legal move now"

    # cutting for the first deal (rule 4)

    def _cut_for_deal(self, seat: int, move: Move) -> None:
        cut_deck = self._shuffled(f"cut/{self.cut_round}")
        card = cut_deck[len(self.cut_cards)]
        self.cut_cards[seat] = card
        self._event("cut", seat, cards=(card,))
        remaining = [s for s in self.cutters if s not in self.cut_cards]
        if remaining:
            self.current_player = remaining[0]
            return
        lowest = min(card.rank for card in self.cut_cards.values())
        tied = [s for s, card in self.cut_cards.items() if card.rank == lowest]
        if len(tied) > 1:  # a tie for lowest: those players cut again
            self.cut_round += 1
            self.cutters, self.cut_cards = tied, {}
            self.current_player = tied[0]
            return
        self._event("dealer", tied[0])
        self._start_deal(tied[0])

    # the deal and the discards (rule 5)

    def _start_deal(self, dealer: int) -> None:
        self.dealer = dealer
        self.deal_number += 1
        n = self.players
        self.hands = [[] for _ in range(n)]
        self.discards = [[] for _ in range(n)]
        self.kept = [[] for _ in range(n)]
        self.crib, self.pile, self.played = [], [], []
        self.said_go, self.last_player, self.starter = set(), None, None
        script = self.setup.get("script")
        if self.deal_number == 1 and script is None and self.rules.pone_start_points:
            # five-card: the pone of the first hand pegs 3 before the deal (rule 20)
            self._peg("three", (dealer + 1) % n, self.rules.pone_start_points)
        self._event("deal", dealer)
        if script is not None and self.deal_number == 1:
            self._deal_script(script)
            return
        deck = self._deck_for(self.deal_number)
        dealt = self.rules.cards_dealt * n
        for i, card in enumerate(deck[:dealt]):
            self.hands[(dealer + 1 + i) % n].append(card)
        self.deck = deck[dealt:]
        if n == 3:  # one card is dealt straight to the crib
            self.crib.append(self.deck.pop(0))
        self._begin_discards()

    def _deal_script(self, script: dict[str, Any]) -> None:
        self.hands = [parse_cards(hand) for hand in script["hands"]]
        self.crib = parse_cards(script["crib"])
        starter = Card.parse(script["starter"])
        used = {c for hand in self.hands for c in hand} | set(self.crib) | {starter}
        self.deck = [starter] + [c for c in full_deck() if c not in used]
        if len(self.hands[0]) == self.rules.hand_size:  # dealt as kept: discards are done
            self.kept = [list(hand) for hand in self.hands]
            self._begin_starter()
        else:
            self._begin_discards()

    def _deck_for(self, deal_number: int) -> list[Card]:
        if deal_number == 1 and "deck" in self.setup:
            return parse_cards(self.setup["deck"])
        return self._shuffled(f"deal/{deal_number}")

    def _shuffled(self, purpose: str) -> list[Card]:
        deck = full_deck()
        random.Random(f"{self.setup['seed']}/{purpose}").shuffle(deck)
        return deck

    def _begin_discards(self) -> None:
        self.phase = DISCARD
        self.current_player = self._next_to_discard()

    def _next_to_discard(self) -> int | None:
        for step in range(1, self.players + 1):
            seat = (self.dealer + step) % self.players
            if not self.discards[seat]:
                return seat
        return None

    def _discard(self, seat: int, move: Move) -> None:
        for card in move.cards:
            self.hands[seat].remove(card)
        self.discards[seat] = list(move.cards)
        self.crib.extend(move.cards)
        self._event("discard", seat)
        following = self._next_to_discard()
        if following is not None:
            self.current_player = following
            return
        self.kept = [list(hand) for hand in self.hands]
        self._begin_starter()

    # the starter and his heels (rule 6)

    def _begin_starter(self) -> None:
        self.phase = STARTER
        self.current_player = (self.dealer - 1) % self.players

    def _cut_starter(self, seat: int, move: Move) -> None:
        self.starter = self.deck.pop(0)
        self._event("starter", seat, cards=(self.starter,))
        if self.starter.rank == 11:
            self._peg("heels", self.dealer, 2, cards=(self.starter,))
            if self.is_over:
                return
        self.phase = PLAY
        self.current_player = (self.dealer + 1) % self.players

    # the play (rules 7-11; manual pegging, rule 18)

    def _play(self, seat: int, move: Move) -> None:
        if move.kind == "go":
            self.said_go.add(seat)
            self._event("go_said", seat, count=self.count)
        else:
            card = move.cards[0]
            self.hands[seat].remove(card)
            self.pile.append(card)
            self.played.append((seat, card))
            self.last_player = seat
            if self.rules.manual_pegging:  # the player claims the card's points next
                self._event("play", seat, cards=(card,), count=self.count)
                self.claim = Claim(seat, "play", (card,))
                self.phase, self.current_player = PEG_COUNT, seat
                return
            score = score_peg(self.pile)
            self._peg("play", seat, score.total, cards=(card,), items=score.items,
                      count=self.count)
            if self.is_over:
                return
        self._next_in_play(seat)

    def _next_in_play(self, actor: int) -> None:
        """Pass the turn clockwise, or end the series when nobody can lay a card."""
        active = [s for s in range(self.players) if self.hands[s] and s not in self.said_go]
        if any(self.count + c.value <= MAX_COUNT for s in active for c in self.hands[s]):
            self.current_player = next_in_turn(actor, self.players, lambda s: s in active)
            return
        last = self.last_player
        assert last is not None
        all_played = not any(self.hands)
        point = closing_point(self.count, all_played)
        if point is not None:
            self._peg(point, last, 1, count=self.count)
            if self.is_over:
                return
        if all_played or self.rules.single_series:  # five-card: one series only (rule 20)
            self._begin_show()
            return
        self.pile, self.said_go = [], set()
        # The player left of the last to lay leads; players out of cards are skipped.
        self.current_player = next_in_turn(last, self.players, lambda s: bool(self.hands[s]))

    # the show (rules 12-13)

    def _begin_show(self) -> None:
        n = self.players
        self.show_queue = [((self.dealer + step) % n, "hand") for step in range(1, n + 1)]
        self.show_queue.append((self.dealer, "crib"))
        self._next_show()

    def _show_cards(self, kind: str, seat: int) -> tuple[list[Card], bool]:
        return (self.crib, True) if kind == "crib" else (self.kept[seat], False)

    def _next_show(self) -> None:
        """Count the next hand, automatically or by asking its owner."""
        while self.show_queue and not self.is_over:
            seat, kind = self.show_queue[0]
            cards, is_crib = self._show_cards(kind, seat)
            if self.rules.manual_counting:
                self.claim = Claim(seat, kind, tuple(cards))
                self.phase, self.current_player = COUNT, seat
                return
            self.show_queue.pop(0)
            assert self.starter is not None
            score = score_hand(cards, self.starter, crib=is_crib)
            self._peg(kind, seat, score.total, cards=tuple(cards), items=score.items)
        if not self.is_over:
            self._start_deal((self.dealer + 1) % self.players)

    # manual counting, claims and muggins (rules 18-19)

    def _true_score(self, claim: Claim) -> Score:
        """What the claimed hand, crib or card is really worth."""
        if claim.what == "play":
            return score_peg(self.pile)
        assert self.starter is not None
        return score_hand(claim.cards, self.starter, crib=claim.what == "crib")

    def _count(self, seat: int, move: Move) -> None:
        """A claim (``count N``) for a hand, the crib, or the card just laid."""
        assert self.claim is not None and move.points is not None
        if self.claim.what != "play":
            self.show_queue.pop(0)
        claim = self.claim = replace(self.claim, claimed=move.points)
        self._event("claim", seat, count=move.points, cards=claim.cards)
        worth = self._true_score(claim).total
        if move.points > worth and self.rules.muggins:
            self._open_muggins(claim)  # an over-claim is pegged only once it is settled
            return
        over = move.points > worth
        self._peg_claim(claim, worth if over else move.points, miscount="over" if over else None)
        if move.points < worth and self.rules.muggins and not self.is_over:
            self._open_muggins(claim)
            return
        self._after_claim(claim)

    def _peg_claim(self, claim: Claim, points: int, miscount: str | None = None) -> None:
        """Peg ``points`` for a claim; exact finish judges them by the true worth too."""
        score = self._true_score(claim)
        self._peg("peg" if claim.what == "play" else claim.what, claim.seat, points,
                  cards=claim.cards, items=score.items,
                  count=self.count if claim.what == "play" else None,
                  worth=score.total, miscount=miscount)

    def _open_muggins(self, claim: Claim) -> None:
        team = self.team_of(claim.seat)
        self.muggins_queue = [(claim.seat + step) % self.players
                              for step in range(1, self.players)
                              if self.team_of((claim.seat + step) % self.players) != team]
        self.phase, self.current_player = MUGGINS, self.muggins_queue[0]

    def _muggins(self, seat: int, move: Move) -> None:
        claim = self.claim
        assert claim is not None and claim.claimed is not None
        worth = self._true_score(claim).total
        over = claim.claimed > worth
        self.muggins_queue.pop(0)
        if move.kind == "muggins":
            self.muggins_queue = []
            if over:  # put back to the true worth; the caller scores the excess
                self._peg_claim(claim, worth)
                if self.is_over:
                    return
            self._peg("muggins", seat, abs(claim.claimed - worth), cards=claim.cards,
                      count=claim.claimed, miscount="over" if over else "under")
        elif self.muggins_queue:
            self.current_player = self.muggins_queue[0]
            return
        elif over:  # nobody called it: the over-claim stands
            self._peg_claim(claim, claim.claimed)
        self._after_claim(claim)

    def _after_claim(self, claim: Claim) -> None:
        """Go on with the play or the show once a claim is settled."""
        if self.is_over:
            return
        self.claim, self.muggins_queue = None, []
        if claim.what == "play":
            self.phase = PLAY
            self._next_in_play(claim.seat)
        else:
            self._next_show()

    # pegging and the end of the game (rules 15-17, 19)

    def _peg(self, kind: str, seat: int, points: int, *, cards: tuple[Card, ...] = (),
             items: Iterable[ScoreItem] = (), count: int | None = None,
             worth: int | None = None, miscount: str | None = None) -> None:
        """Record a scoring event and move the pegs; end the game at the target.

        The peg stops in the game hole: points past the target are not part of
        the score (the event keeps them in ``beyond``). With exact finish,
        points that would carry the score past the target are refused; for a
        claim, ``worth`` (the true worth) is judged too, so an under-claim can
        never count out.
        """
        team = self.team_of(seat)
        refused = beyond = 0
        room = self.rules.target - self.scores[team]
        if self.rules.exact_finish and max(points, worth or 0) > room:
            points, refused = 0, points
        elif points > room:
            points, beyond = room, points - room
        self.scores[team] += points
        self._event(kind, seat, points=points, cards=cards, items=tuple(items), count=count,
                    refused=refused, miscount=miscount, beyond=beyond)
        if self.scores[team] >= self.rules.target:
            self.outcome = Outcome.judge(self.rules, team, self.scores)
            self.phase, self.current_player = OVER, None
            self.claim, self.muggins_queue = None, []
            self._event("over", seat)

    def _event(self, kind: str, seat: int | None, **details: Any) -> None:
        team = None if seat is None else self.team_of(seat)
        self.events.append(Event(kind, seat, team, deal=self.deal_number, **details))


def _full_deck_order(deck: Sequence[Card | str]) -> list[Card]:
    """Check that a given deck order holds each of the 52 cards once."""
    try:
        cards = parse_cards(list(deck))
        check_distinct(cards, "the deck")
    except CardError as error:
        raise GameStateError(str(error)) from None
    if len(cards) != 52:
        raise GameStateError(f"a deck has 52 cards, not {len(cards)}")
    return cards


# --- checking a save before replaying it ------------------------------------------
#
# A save is untrusted text (a file, localStorage, a URL): every part of it is
# checked here against the exact form Game.to_dict writes, so that a tampered
# save raises GameStateError and nothing else, before any move is replayed.

_SAVE_KEYS = ("format", "version", "rules", "setup", "moves")
_SETUP_KEYS = ("seed", "first_dealer")
_SCRIPT_KEYS = ("dealer", "hands", "crib", "starter", "scores")


def check_save(data: object) -> tuple[Rules, dict[str, Any], list[str]]:
    """Check a saved game's whole structure; return its rules, setup and moves.

    >>> check_save({"format": "cribbage-game", "version": True})
    Traceback (most recent call last):
    ...
    cribbage.game.GameStateError: unsupported saved-game version True
    """
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise GameStateError("not a saved cribbage game")
    version = data.get("version")
    if type(version) is not int or version != SAVE_VERSION:
        raise GameStateError(f"unsupported saved-game version {version!r}")
    _check_keys(data, _SAVE_KEYS, (), "saved game")
    try:
        rules = Rules.from_dict(data["rules"])
    except RulesError as error:
        raise GameStateError(f"saved game has bad rules: {error}") from None
    if data["rules"].get("target") != rules.target:  # a save names its target
        raise GameStateError(f"saved game has bad rules: the target must be {rules.target}")
    return rules, _check_setup(rules, data["setup"]), _check_moves(data["moves"])


def check_script(rules: Rules, script: object) -> None:
    """Check a scripted first deal against the rules (sizes, seats, scores, distinct cards)."""
    if not isinstance(script, dict):
        raise GameStateError("a scripted deal must be an object")
    _check_keys(script, _SCRIPT_KEYS, (), "scripted deal")
    _check_seat(rules, script["dealer"], "the scripted dealer")
    hands = script["hands"]
    if not isinstance(hands, list) or len(hands) != rules.players:
        raise GameStateError(f"{rules.players} players need {rules.players} hands")
    cards = [card for hand in hands for card in _check_cards(hand, "a scripted hand")]
    sizes = {len(hand) for hand in hands}
    if sizes == {rules.cards_dealt}:
        expected_crib = 1 if rules.players == 3 else 0  # 3 players: one card dealt to the crib
    elif sizes == {rules.hand_size}:
        expected_crib = CRIB_SIZE
    else:
        raise GameStateError(f"each hand needs {rules.cards_dealt} cards (as dealt) "
                             f"or {rules.hand_size} (after discards)")
    crib = _check_cards(script["crib"], "the scripted crib")
    if len(crib) != expected_crib:
        raise GameStateError(f"this deal needs {expected_crib} crib card(s)")
    starter = _check_cards([script["starter"]], "the scripted starter")
    scores = script["scores"]
    if (not isinstance(scores, list) or len(scores) != rules.teams
            or not all(type(s) is int and 0 <= s < rules.target for s in scores)):
        raise GameStateError(f"scores must be a list of {rules.teams} whole numbers "
                             f"0..{rules.target - 1}")
    _check_distinct(cards + crib + starter, "the scripted deal")


def _check_setup(rules: Rules, setup: object) -> dict[str, Any]:
    if not isinstance(setup, dict):
        raise GameStateError("saved game has no setup")
    _check_keys(setup, _SETUP_KEYS, ("deck", "script", "undos", "resigned"), "setup")
    undos = setup.get("undos", 1)
    if type(undos) is not int or not 0 < undos < MAX_SEED:
        raise GameStateError("saved game has a malformed count of take-backs")
    if "resigned" in setup:
        _check_seat(rules, setup["resigned"], "the seat that resigned")
    seed = setup["seed"]
    if type(seed) is not int or not 0 <= seed < MAX_SEED:
        raise GameStateError("saved game has a malformed seed")
    first = setup["first_dealer"]
    if first is not None:
        _check_seat(rules, first, "the first dealer")
    if "deck" in setup and "script" in setup:
        raise GameStateError("saved game has both a deck and a scripted deal")
    if "deck" in setup:
        deck = _check_cards(setup["deck"], "the saved deck")
        if len(deck) != 52:
            raise GameStateError(f"a deck has 52 cards, not {len(deck)}")
        _check_distinct(deck, "the saved deck")
    if "script" in setup:
        script = setup["script"]
        check_script(rules, script)
        if first != script["dealer"]:
            raise GameStateError("the first dealer must be the scripted deal's dealer")
    return setup


def _check_moves(moves: object) -> list[str]:
    if not isinstance(moves, list):
        raise GameStateError("saved game has no list of moves")
    for number, text in enumerate(moves, 1):
        try:
            canonical = str(Move.parse(text)) if isinstance(text, str) else None
        except IllegalMoveError:
            canonical = None
        if canonical != text:
            raise GameStateError(f"move {number} is not a move as the engine writes it: "
                                 f"{text!r}")
    return moves


def _check_distinct(cards: list[Card], what: str) -> None:
    try:
        check_distinct(cards, what)
    except CardError as error:
        raise GameStateError(str(error)) from None


def _check_keys(data: dict[Any, Any], required: Sequence[str], optional: Sequence[str],
                what: str) -> None:
    missing = [key for key in required if key not in data]
    unknown = [key for key in data if key not in required and key not in optional]
    if missing:
        raise GameStateError(f"{what} is missing {', '.join(missing)}")
    if unknown:
        raise GameStateError(f"{what} has unknown key(s) {', '.join(map(repr, unknown))}")


def _check_seat(rules: Rules, seat: object, what: str) -> None:
    if type(seat) is not int or not 0 <= seat < rules.players:
        raise GameStateError(f"{what} must be a seat 0..{rules.players - 1}, not {seat!r}")


def _check_cards(cards: object, what: str) -> list[Card]:
    """A list of card codes as the engine writes them (``5S``, ``TH``)."""
    if not isinstance(cards, list):
        raise GameStateError(f"{what} must be a list of cards")
    parsed = []
    for code in cards:
        try:
            card = Card.parse(code)
        except CardError:
            card = None
        if card is None or card.code != code:
            raise GameStateError(f"{what} holds {code!r}, not a card code such as 5S or TH")
        parsed.append(card)
    return parsed
