"""Teaching flows for the widgets and the tutorial: a show in words, a play step
by step, one scripted deal step by step.

Each function takes a request (a dict from JSON) and returns JSON-ready data;
none holds a game between calls. Bad arguments raise ``ValueError`` (the
protocol's ``bad-request``), :class:`~cribbage.cards.CardError` (``bad-card``)
or :class:`~cribbage.moves.IllegalMoveError` (``illegal-move``). Texts come in
the request's ``lang`` (``en``, ``es`` or ``ja``), through :mod:`cribbage.i18n`.

>>> show_score({"hand": ["5S", "4S", "2S", "6H"], "starter": "5H"})["said"]
'fifteen two, fifteen four, a pair is six, a run of three is nine, and a run of three is twelve'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import i18n
from .cards import Card, CardError, parse_cards
from .game import Event, Game, IllegalMoveError, Move
from .play import closing_point, next_in_turn
from .players import computer_move, exact_count, make_player
from .rules import Rules
from .scoring import HAND_SIZE, MAX_COUNT, ScoreItem, cadence, describe_item, score_hand, score_peg

Request = dict[str, Any]


# --- checking requests -----------------------------------------------------------


def card_list(value: object, what: str, limit: int = 52) -> list[Card]:
    """Cards from a list of texts, checked: at most ``limit``, no card twice."""
    if not isinstance(value, list) or len(value) > limit:
        raise ValueError(f"'{what}' must be a list of at most {limit} cards.")
    cards = parse_cards([str(card) for card in value])
    distinct(cards, what)
    return cards


def distinct(cards: Iterable[Card], what: str) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardError(f"{what} has {card.code} twice.")
        seen.add(card)


def players_of(request: Request) -> int:
    players = request.get("players", 2)
    if type(players) is not int or players not in (2, 3, 4):
        raise ValueError("'players' must be 2, 3 or 4.")
    return players


def lang_of(request: Request) -> str:
    """The request's language (default English); anything but ours is a bad request."""
    lang = request.get("lang", i18n.DEFAULT)
    if lang not in i18n.LANGUAGES:
        raise ValueError(f"'lang' must be one of {', '.join(i18n.LANGUAGES)}.")
    return str(lang)


def names_of(request: Request, players: int) -> list[str] | None:
    """The seats' names for the log lines (None: the engine's "Seat N")."""
    names = request.get("names")
    if names is None:
        return None
    if (not isinstance(names, list) or len(names) != players
            or not all(isinstance(n, str) and 0 < len(n) <= 40 for n in names)):
        raise ValueError(f"'names' must be {players} texts of 1 to 40 characters.")
    return names


def items_in_words(items: Iterable[ScoreItem], lang: str) -> list[dict[str, Any]]:
    return [{**item.to_dict(), "text": describe_item(item, lang)} for item in items]


# --- a hand's score ------------------------------------------------------------------


def score(request: Request) -> dict[str, Any]:
    """Itemised show score of a hand (or crib) with a starter."""
    hand = parse_cards(request.get("hand") or [])
    starter = Card.parse(str(request.get("starter", "")))
    return score_hand(hand, starter, crib=bool(request.get("crib", False))).to_dict()


def show_score(request: Request) -> dict[str, Any]:
    """A hand's or crib's score with its cadence, each item in words, and its itemised
    list as the table's show writes it beside the hand (``tally``).

    >>> show_score({"hand": ["5S", "4S", "2S", "6H"], "starter": "5H"})["tally"]
    '15 for 2 ×2 · pair 2 · run of 3 ×2 = 12'
    """
    lang = lang_of(request)
    hand = card_list(request.get("hand") or [], "the hand", HAND_SIZE)
    starter = Card.parse(str(request.get("starter", "")))
    distinct([*hand, starter], "the hand and starter")
    result = score_hand(hand, starter, crib=bool(request.get("crib", False)))
    return {"total": result.total, "items": items_in_words(result.items, lang),
            "said": cadence(result.items, lang),
            "tally": i18n.tally([item.to_dict() for item in result.items], lang)}


# --- a play, card by card ------------------------------------------------------------


def peg_sequence(request: Request) -> dict[str, Any]:
    """The play of cards laid in order, with goes (see :func:`play_sequence`)."""
    tokens = request.get("cards")
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        raise ValueError("'cards' must be a list of card texts and 'go'.")
    return play_sequence(tokens, players_of(request), lang_of(request))


def play_sequence(tokens: list[str], players: int, lang: str = "en") -> dict[str, Any]:
    """The play of a sequence of cards and "go"s, seat 0 leading, turns clockwise.

    ``"go"`` is the player to move saying go. A seat that has laid four cards
    is out and skipped. The count closes (:func:`~cribbage.play.closing_point`)
    when nobody left can lay: after a go that leaves nobody to move, at 31, or
    when the next card would pass 31 (so a sequence need not mark the last go
    of a count); the player left of the last to lay leads the next count.

    >>> seq = "JH 5S 7C 6H go 2S 6D 4S 4H".split()
    >>> result = play_sequence(seq, 2)
    >>> [(s["card"], s["count"], s["points"])
    ...  for s in result["steps"] if s["card"]]  # doctest: +NORMALIZE_WHITESPACE
    [('JH', 10, 0), ('5S', 15, 2), ('7C', 22, 0), ('6H', 28, 3), ('2S', 30, 0),
     ('6D', 6, 0), ('4S', 10, 0), ('4H', 14, 2)]
    >>> result["steps"][5]["then"], result["steps"][-1]["then"]
    ([{'kind': 'go', 'seat': 1, 'points': 1}], [{'kind': 'last card', 'seat': 0, 'points': 1}])
    >>> result["scores"], result["complete"]
    ([3, 6], True)
    >>> play_sequence(seq, 2, "es")["steps"][3]["reasons"]
    'escalera 3'
    """
    if len(tokens) > 2 * HAND_SIZE * players:
        raise ValueError(f"{players} players lay at most {HAND_SIZE * players} cards in the play.")
    distinct([Card.parse(t) for t in tokens if t.lower() != "go"], "the play")
    play = _SequencePlay(players)
    steps = []
    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        steps.append(play.step(index, token, following, lang))
    return {"steps": steps, "scores": play.scores, "complete": play.all_played()}


class _SequencePlay:
    """The state of a play given only as the cards laid (the hands are unknown)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.laid = [0] * players
        self.scores = [0] * players
        self.pile: list[Card] = []
        self.said_go: set[int] = set()
        self.last: int | None = None  # the last seat to lay a card in this count
        self.actor: int | None = None  # the last seat to act (card or go)

    def all_played(self) -> bool:
        return all(n == HAND_SIZE for n in self.laid)

    def count(self) -> int:
        return sum(card.value for card in self.pile)

    def may_lay(self, seat: int) -> bool:
        return self.laid[seat] < HAND_SIZE and seat not in self.said_go

    def mover(self, index: int) -> int:
        if self.actor is None:
            return 0
        seat = next_in_turn(self.actor, self.players, self.may_lay)
        if seat is None:
            raise ValueError(f"Nobody can lay card {index + 1}: every player is out of cards.")
        return seat

    def step(self, index: int, token: str, following: str | None, lang: str) -> dict[str, Any]:
        mover = self.mover(index)
        step: dict[str, Any] = {"seat": mover, "card": None, "go": False, "points": 0,
                                "items": [], "reasons": "", "then": [], "reset": False}
        if token.lower() == "go":
            if not self.pile:
                raise ValueError(f"Item {index + 1} is a go with no count to stop: "
                                 "a player who has cards can always lead.")
            self.said_go.add(mover)
            step["go"] = True
        else:
            card = Card.parse(token)
            self.pile.append(card)
            self.laid[mover] += 1
            points = score_peg(self.pile)
            step.update(card=card.code, points=points.total,
                        items=items_in_words(points.items, lang),
                        reasons=i18n.reasons([item.to_dict() for item in points.items], lang))
            self.scores[mover] += points.total
            self.last = mover
        self.actor = mover
        step["count"] = self.count()
        if self.closes(following):
            self.close(step)
        step["scores"] = list(self.scores)
        return step

    def closes(self, following: str | None) -> bool:
        """Whether nobody can lay on this count: 31, every card laid, or no one to
        lay the next card (or it would pass 31)."""
        if self.count() == MAX_COUNT or self.all_played():
            return True
        if following is None:
            return False
        assert self.actor is not None
        nobody = next_in_turn(self.actor, self.players, self.may_lay) is None
        if following.lower() == "go":
            return nobody
        return nobody or self.count() + Card.parse(following).value > MAX_COUNT

    def close(self, step: dict[str, Any]) -> None:
        point = closing_point(self.count(), self.all_played())
        if self.last is not None and point is not None:
            step["then"].append({"kind": point, "seat": self.last, "points": 1})
            self.scores[self.last] += 1
        self.pile, self.said_go = [], set()
        self.actor = self.last  # the player left of the last to lay leads
        step["reset"] = True


# --- one scripted deal, step by step -----------------------------------------------


def deal_steps(request: Request) -> dict[str, Any]:
    """One scripted deal played step by step (see :func:`scripted_deal_steps`)."""
    return {"steps": scripted_deal_steps(request)}


def scripted_deal_steps(request: Request) -> list[dict[str, Any]]:
    """Snapshots of one scripted deal played through the engine's own :class:`Game`.

    The request holds ``players``, ``target``, ``dealer``, the ``hands`` as
    dealt, the ``crib`` (a dealt crib card with three players), the
    ``starter``, and optionally ``discards`` (else the standard computer's),
    ``play`` (cards laid in order, forced goes made automatically, then the
    standard computer), ``scores`` and ``names``. The game counts by hand
    (each hand's true total), so the show comes one hand at a time. Each step
    is a snapshot after one move or one hand of the show (``title``,
    ``lines``, ``phase``, ``hands``, ``crib``, ``starter``, ``pile``,
    ``count``, ``scores``, ``show``), so a widget can step back and forth.

    >>> steps = scripted_deal_steps({"dealer": 0, "hands": [
    ...     "5S 4S 2S 8D 6H 8C".split(), "TS 6D JH 4H KC 7C".split()],
    ...     "starter": "5H", "discards": [["8D", "8C"], ["TS", "KC"]],
    ...     "play": "JH 5S 7C 6H 2S 6D 4S 4H".split()})
    >>> [s["show"]["total"] for s in steps if s["show"]]
    [9, 12, 6]
    >>> steps[-1]["scores"]
    [24, 12]
    >>> [call["text"] for made in steps[6]["calls"] for call in made]
    ['15 for 2']
    >>> [s["text"] for s in steps[-1]["show"]["steps"]], steps[-1]["show"]["steps"][-1]["total"]
    (['15 for 2', '15 for 2', 'pair 2'], 6)
    >>> steps[1]["title"], steps[-1]["title"]
    ('Seat 1 laid away to the crib', 'Seat 0 counts crib 10♠ K♣ 8♦ 8♣: 6')
    """
    return _play_scripted_deal(request)[1]


def scripted_deal_game(request: Request) -> Game:
    """The game of :func:`scripted_deal_steps` once its deal is played (for its replay).

    >>> game = scripted_deal_game({"dealer": 0, "hands": [
    ...     "5S 4S 2S 8D 6H 8C".split(), "TS 6D JH 4H KC 7C".split()], "starter": "5H"})
    >>> game.deal_number, Game.from_json(game.to_json()).to_json() == game.to_json()
    (2, True)
    """
    return _play_scripted_deal(request)[0]


def _play_scripted_deal(request: Request) -> tuple[Game, list[dict[str, Any]]]:
    """The scripted deal played through: the game and a snapshot after each step."""
    players = players_of(request)
    lang = lang_of(request)
    names = names_of(request, players)
    game = _scripted_game(request, players)
    discards = request.get("discards")
    if discards is not None and (not isinstance(discards, list) or len(discards) != players):
        raise ValueError(f"'discards' must hold {players} lists of cards.")
    plays = card_list(request.get("play") or [], "the play", 16)
    computer = make_player("standard", seed=1)

    def line(event: Event) -> str:
        return i18n.event_text(event.to_dict(), lang, names)

    opening = i18n.event_text({"kind": "deal", "seat": game.dealer, "deal": 1}, lang, names)
    steps = [_snapshot(game, list(game.pile), opening, [], None)]
    calls: list[list[dict[str, Any]]] = []  # the points each card on the pile made
    while game.phase != "over" and game.deal_number == 1:
        seat = game.current_player
        assert seat is not None
        if game.phase == "discard" and discards is not None:
            move = Move("discard", tuple(card_list(discards[seat], "a discard", 2)))
        elif game.phase == "play" and game.legal_moves() == [Move("go")]:
            move = Move("go")
        elif game.phase == "play" and plays:
            move = Move("play", (plays.pop(0),))
            if move not in game.legal_moves():
                raise IllegalMoveError(f"Seat {seat} cannot play {move.cards[0].code} now "
                                       f"(count {game.count}).")
        elif game.phase == "count":
            move = Move("count", points=exact_count(game.view(seat)))
        else:
            move = computer_move(computer, game.view(seat))
        steps.append(_step(game, move, line, lang, calls))
    return game, steps


def _scripted_game(request: Request, players: int) -> Game:
    """The request's deal as a game counted by hand (so the show comes hand by hand)."""
    hands = request.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise ValueError(f"'hands' must hold {players} hands.")
    dealt = [card_list(hand, "a hand", 6) for hand in hands]
    crib = card_list(request.get("crib") or [], "the crib", 4)
    starter = Card.parse(str(request.get("starter", "")))
    dealer = request.get("dealer")
    if type(dealer) is not int:
        raise ValueError("'dealer' must be a seat number.")
    rules = Rules(players=players, target=request.get("target", 121), manual_counting=True)
    return Game.scripted(rules, dealer=dealer, hands=dealt, starter=starter,
                         crib=crib, scores=request.get("scores"))


def _step(game: Game, move: Move, line: Callable[[Event], str], lang: str,
          calls: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """Apply ``move`` and take the snapshot after it (a closed count stays in view).

    ``calls`` holds, card by card, the points each card on the pile made (a go or the
    last card's point on the card that earned it), each with its words ("15 for 2"),
    kept from step to step so the widget can call them beside the pile."""
    before = len(game.events)
    pile = list(game.pile) + (list(move.cards) if move.kind == "play" else [])
    crib, starter = list(game.crib), game.starter
    if move.kind == "play" and not game.pile:  # a new count: its calls start afresh
        calls.clear()
    game.apply(move)
    events = [e for e in game.events[before:] if e.kind != "claim"]
    for event in events:
        if event.kind == "play":
            calls.append([])
        made: list[dict[str, Any]] = (
            [item.to_dict() for item in event.items] if event.kind == "play"
            else [{"kind": event.kind, "points": event.points}] if event.kind in ("go", "last card")
            else [])
        if made and calls:
            calls[-1].extend({**item, "text": i18n.tally_item(item, lang)} for item in made)
    shown = next((e for e in events if e.kind in ("hand", "crib")), None)
    if shown is not None:  # one hand of the show: its cards, items and cadence
        said = cadence(shown.items, lang)
        show = {"seat": shown.seat, "kind": shown.kind,
                "cards": [c.code for c in shown.cards], "total": shown.worth,
                "items": items_in_words(shown.items, lang), "said": said,
                "steps": [{**step, "text": i18n.tally_item(step, lang)}
                          for step in i18n.count_steps([i.to_dict() for i in shown.items])]}
        return _snapshot(game, [], line(shown), [said], show, crib, starter)
    lines = [line(event) for event in events if event.kind != "deal"]
    shown_pile = list(game.pile) if list(game.pile) == pile else pile
    snapshot = _snapshot(game, shown_pile, lines[0] if lines else "", lines, None)
    snapshot["calls"] = [list(made) for made in calls[-len(shown_pile):]] if shown_pile else []
    return snapshot


def _snapshot(game: Game, pile: list[Card], title: str, lines: list[str],
              show: dict[str, Any] | None, crib: list[Card] | None = None,
              starter: Card | None = None) -> dict[str, Any]:
    """What the widget draws: the game as it stands (the show's hand, crib and starter
    as they were counted, before the next deal is dealt)."""
    counting = show is not None or game.phase in ("count", "over")
    starter = starter if show is not None else game.starter
    return {
        "title": title,
        "lines": lines,
        "phase": "show" if counting else game.phase,
        "hands": [[] for _ in game.hands] if counting else [
            [c.code for c in hand] for hand in game.hands],
        "crib": [c.code for c in (crib if crib is not None else game.crib)],
        "starter": starter.code if starter else None,
        "pile": [c.code for c in pile],
        "calls": [],
        "count": sum(c.value for c in pile),
        "scores": list(game.scores),
        "show": show,
    }
