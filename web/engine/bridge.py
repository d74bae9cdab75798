"""The engine side of the page: the ``cribbage`` engine behind a JSON protocol.

The page's engine worker (``web/engine-worker.mjs``, started by ``web/engine.js``
at navigation) imports this module in Pyodide and answers calls to the
functions named in ``__export__``. The main thread gets them as
``window.cribbageEngine`` (``engine = await window.cribbageEngine.ready``) and
calls them as ``await engine.fn(text)``, from MicroPython or page scripts.

Protocol
--------
Every function takes one JSON string (an object; ``"{}"`` when there is
nothing to say) and returns one JSON string (JSON keeps ``null`` values, which
a JsProxy dict would drop). A reply is either::

    {"ok": true, "result": ...}
    {"ok": false, "error": {"kind": "...", "type": "...", "message": "..."}}

where ``kind`` is ``"bad-request"`` (malformed JSON or arguments),
``"illegal-move"``, ``"bad-card"``, ``"bad-save"`` (a corrupt or foreign save),
``"no-game"`` (no game started yet) or ``"internal"`` (a bug: the message and
the traceback's last line; the engine stays usable). No call raises.

The worker holds one game at a time:

``hello({})``
    ``{"engine": version, "python": version, "levels": [...], "players": bool}``
``new_game({"rules": {...}, "seed": int?, "first_dealer": int?, "scripted": {...}?})``
    Start a game. ``rules`` as ``Rules.to_dict()``; ``scripted`` holds
    ``Game.scripted`` arguments (``dealer``, ``hands``, ``starter``, ``crib``,
    cards as text like ``"5S"``). Returns a state (below).
``state({"seat": int?})``
    The state; with ``seat``, also that seat's view.
``view({"seat": int, "events_from": int?})``
    ``PlayerView.to_dict()`` for that seat: only what that seat may know; its
    ``events`` start at index ``events_from`` (default 0) of the game's log,
    and ``events_total`` is the log's length.
``legal_moves({})``
    ``{"player": seat, "moves": ["play 5S", "go", ...]}`` for the player to move.
``apply_move({"move": "play 5S"})``
    Apply a move (text as ``str(Move)``). Returns the state plus ``"move"``
    and ``"events"``: the events this move caused, as dicts.
``computer_move({"level": "standard"})``
    The player to move moves as a computer of that level (uses
    ``cribbage.players`` when present; forced moves are applied directly).
    Returns what ``apply_move`` returns.
``save({})``
    ``{"save": text}``: the game as ``Game.to_json()``.
``load({"save": text})``
    Replace the game with a saved one; returns the state.
``score({"hand": ["5S", ...], "starter": "5H", "crib": false})``
    Itemised show score of a hand, ``ShowScore.to_dict()``.

The widgets (``web/embed.html``) share one engine per page, so their calls
hold no game: each of these is stateless and leaves the current game alone.
Each takes an optional ``"lang"`` (``"en"``, the default, ``"es"`` or
``"ja"``): every text in the reply (cadence, item texts, reasons, log lines)
is in that language, rendered by ``cribbage.i18n``. Any other value is a
``bad-request`` naming the languages (the widgets check theirs first and
fall back to English, so this is for other callers).

``show_score({"hand": [...], "starter": "5H", "crib": false, "lang": "en"})``
    ``score`` plus ``"said"`` (the cadence, "fifteen two, ...") and a
    ``"text"`` for each item ("pair of fives", "run of 3").
``peg_sequence({"cards": ["JH", "5S", "go", ...], "players": 2, "lang": "en"})``
    The play of cards laid in order, seat 0 leading and turns clockwise; the
    token ``"go"`` is the player to move saying go. The count closes (1 for
    the go to the last player to lay a card, the count resets, the player to
    his left leads) when nobody left can lay: after a go that leaves nobody
    to move, or when the next card would pass 31 (so a sequence need not
    mark the last go of a count: JH 5S 7C 6H go 2S 6D ... is the seeds'
    example). 31 scores 2 and resets. A seat that has laid 4 cards is out
    of cards and skipped; when every seat has laid 4 the last card scores 1
    (unless it made 31). Each card's points come from ``score_peg``.
    Returns ``{"steps": [{"seat", "card", "go", "count", "points",
    "items", "reasons", "then": [{"kind": "go"|"last card", "seat", "points"}],
    "reset", "scores"}], "scores": [...], "complete": bool}``; ``reasons``
    is the card's points in short ("fifteen 2, pair 2").
``deal_steps({"players": 2, "target": 121, "dealer": 0, "hands": [[...]],
"crib": [...], "starter": "5H", "discards": [[...]]?, "play": [...]?,
"scores": [...]?, "names": [...]?, "lang": "en"})``
    Plays one scripted deal (``Game.scripted``) through the engine: the
    discards (given, or the standard computer's), the cut, the play (cards
    in ``play`` in order, forced goes made automatically, then the standard
    computer), the show and the crib, stopping when the deal (or the game)
    ends. Returns ``{"steps": [...]}``: each step is a snapshot after one
    move or one show (``title``, ``lines``, ``phase``, ``hands``, ``crib``,
    ``starter``, ``pile``, ``count``, ``scores``, ``show``), so a widget
    can step forward and back without asking again. ``title`` and ``lines``
    are log lines (``cribbage.i18n.event_text``) naming the seats by
    ``names`` (one text of at most 40 characters per seat; default "Seat N");
    a show's step has its log line as title and its cadence as line.

Coach and fair deals (the table's Hint, review and "Fair deal" line):

``advise({"seat": 0})``
    The coach (``cribbage.coach``) on that seat's own view, when it is that
    seat's turn to discard or play: ``{"kind": "discard", "choices": [{"discard",
    "keep", "hand", "crib", "net"}, ...]}`` (every discard, best first; ``net``
    is what the expert maximises) or ``{"kind": "play", "choices": [{"card",
    "value", "points_now", "reply_risk", "reason"}, ...]}`` (every playable
    card, best first). Otherwise a ``bad-request``. It sees only the view, so
    it cannot leak another player's cards.
``review({"seat": 0, "deal": int?})``
    Replays the game (``Game.from_dict`` with its moves) and asks the coach at
    each of that seat's discard and play decisions in the deal (default: the
    last finished deal) that had more than one choice: ``{"deal", "decisions":
    [{"kind", "chosen", "best", "chosen_value", "best_value", "loss", "count"}],
    "lost": total}``; ``loss`` is the expected points the choice gave up
    against the coach's best (net for a discard, the play value for a card).
``deal_proof({})``
    Commitments to the decks (``Game.deal_commitment``: SHA-256 of
    ``salt + ":" + " ".join(deck)``): ``{"game": id, "deal": n, "sealed":
    [{"deal", "commitment"}], "revealed": [{"deal", "commitment", "salt",
    "deck"}]}``. ``sealed`` holds the deal in progress and the next one (the
    next deck is fixed before any of its cards is dealt); ``revealed`` every
    finished deal. A scripted first deal has no deck to commit to and is left
    out. ``game`` is a short id of the game's setup (for the page's statistics).

A state is ``{"phase", "current_player", "scores", "outcome", "events_count"}``
(plus ``"view"`` when a seat was asked for).
"""

from __future__ import annotations

import importlib
import json
import sys
import traceback
from collections.abc import Callable
from typing import Any

import cribbage

LEVELS = ["beginner", "easy", "standard", "expert"]

_game: Any = None  # the current cribbage.Game
_computers: dict[tuple[int, str], Any] = {}  # (seat, level) -> computer player


class ProtocolError(Exception):
    """An error reply with a given kind (raised inside handlers only)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _error_kind(error: BaseException) -> str:
    """Map an engine exception to the protocol's error kind."""
    if isinstance(error, ProtocolError):
        return error.kind
    names = {cls.__name__ for cls in type(error).__mro__}
    if "IllegalMoveError" in names:
        return "illegal-move"
    if "GameStateError" in names:
        return "bad-save"
    if "CardError" in names:
        return "bad-card"
    if isinstance(error, (ValueError, TypeError, KeyError)):
        return "bad-request"
    return "internal"


def reply_error(error: BaseException) -> str:
    """The JSON error reply for an exception.

    >>> json.loads(reply_error(ProtocolError("no-game", "Start a game first.")))["error"]["kind"]
    'no-game'
    """
    kind = _error_kind(error)
    message = str(error) or type(error).__name__
    if kind == "internal":
        last = traceback.format_exception_only(type(error), error)[-1].strip()
        message = f"The engine hit a bug: {last}"
    body = {"kind": kind, "type": type(error).__name__, "message": message}
    return json.dumps({"ok": False, "error": body})


def endpoint(handler: Callable[[dict[str, Any]], Any]) -> Callable[[str], str]:
    """Wrap ``handler(dict) -> result`` as ``fn(json_text) -> json_text``, which never raises."""

    def call(text: str = "{}") -> str:
        try:
            request = json.loads(text or "{}")
            if not isinstance(request, dict):
                raise ProtocolError("bad-request", "The request must be a JSON object.")
            return json.dumps({"ok": True, "result": handler(request)})
        except json.JSONDecodeError as error:
            return reply_error(ProtocolError("bad-request", f"The request is not JSON: {error}"))
        except Exception as error:  # noqa: BLE001 - the page must always get an answer
            return reply_error(error)

    call.__name__ = handler.__name__
    call.__doc__ = handler.__doc__
    return call


# --- helpers ---------------------------------------------------------------


def _require_game() -> Any:
    if _game is None:
        raise ProtocolError("no-game", "Start a game first.")
    return _game


def _to_dict(value: Any) -> Any:
    return None if value is None else value.to_dict()


def _state(game: Any, seat: int | None = None) -> dict[str, Any]:
    state = {
        "phase": game.phase,
        "current_player": game.current_player,
        "scores": list(game.scores),
        "outcome": _to_dict(game.outcome),
        "events_count": len(game.events),
    }
    if seat is not None:
        state["view"] = game.view(seat).to_dict()
    return state


def _seat(request: dict[str, Any], required: bool = False) -> int | None:
    seat = request.get("seat")
    if seat is None and not required:
        return None
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ProtocolError("bad-request", "'seat' must be a seat number.")
    return seat


def _apply(game: Any, move: Any) -> dict[str, Any]:
    if isinstance(move, str):
        move = cribbage.Move.parse(move)  # bad text: a clear error, game unchanged
    before = len(game.events)
    game.apply(move)
    text = str(move)
    result = _state(game)
    result["move"] = text
    result["events"] = [event.to_dict() for event in game.events[before:]]
    return result


def _players_module() -> Any:
    """``cribbage.players`` if it is there (checked at each call), else None."""
    try:
        players = importlib.import_module("cribbage.players")
    except ImportError:
        return None
    return players if hasattr(players, "make_player") else None


def _computer(players: Any, seat: int, level: str) -> Any:
    """The computer player of ``level`` for a seat (kept for the whole game)."""
    key = (seat, level)
    if key not in _computers:
        _computers[key] = players.make_player(level)
    return _computers[key]


def choose_computer_move(game: Any, level: str) -> Any:
    """The move a computer of ``level`` makes for the player to move.

    A forced move (the only legal one: a cut, a go) is made as it is. Other
    decisions come from ``cribbage.players`` (its ``computer_move`` for any
    phase, or the player's ``discard``/``play``); without that module, the
    first legal move.
    """
    moves = game.legal_moves()
    if not moves:
        raise ProtocolError("bad-request", "Nobody is to move.")
    players = _players_module()
    if len(moves) == 1 or players is None:
        return moves[0]
    seat = game.current_player
    player = _computer(players, seat, level)
    view = game.view(seat)
    if hasattr(players, "computer_move"):
        return players.computer_move(player, view)
    if game.phase == "discard":
        return cribbage.Move.parse("discard " + " ".join(str(c) for c in player.discard(view)))
    if game.phase == "play":
        return cribbage.Move.parse("play " + str(player.play(view)))
    return moves[0]


# --- the protocol ----------------------------------------------------------


@endpoint
def hello(request: dict[str, Any]) -> dict[str, Any]:
    """Versions and what this engine offers."""
    return {
        "engine": getattr(cribbage, "__version__", "?"),
        "python": sys.version.split()[0],
        "levels": LEVELS,
        "players": _players_module() is not None,
        "game": hasattr(cribbage, "Game"),
    }


@endpoint
def new_game(request: dict[str, Any]) -> dict[str, Any]:
    """Start a game from rules and a seed, or from a scripted deal."""
    global _game
    rules = cribbage.Rules.from_dict(request.get("rules") or {})
    scripted = request.get("scripted")
    if scripted is not None:
        if not isinstance(scripted, dict):
            raise ProtocolError("bad-request", "'scripted' must be an object.")
        game = cribbage.Game.scripted(rules, **scripted)
    else:
        game = cribbage.Game.new(
            rules, seed=request.get("seed"), first_dealer=request.get("first_dealer")
        )
    _game = game
    _computers.clear()
    return _state(game, _seat(request))


@endpoint
def state(request: dict[str, Any]) -> dict[str, Any]:
    """The current game's state, with a seat's view when asked."""
    return _state(_require_game(), _seat(request))


@endpoint
def view(request: dict[str, Any]) -> dict[str, Any]:
    """What one seat may know."""
    game = _require_game()
    seat = _seat(request, required=True)
    events_from = request.get("events_from", 0)
    if not isinstance(events_from, int) or isinstance(events_from, bool) or events_from < 0:
        raise ProtocolError("bad-request", "'events_from' must be a number >= 0.")
    return game.view(seat).to_dict(events_from)


@endpoint
def legal_moves(request: dict[str, Any]) -> dict[str, Any]:
    """The moves the player to move may make, as text."""
    game = _require_game()
    return {"player": game.current_player, "moves": [str(m) for m in game.legal_moves()]}


@endpoint
def apply_move(request: dict[str, Any]) -> dict[str, Any]:
    """Apply one move given as text."""
    move = request.get("move")
    if not isinstance(move, str):
        raise ProtocolError("bad-request", "'move' must be move text such as 'play 5S'.")
    return _apply(_require_game(), move)


@endpoint
def computer_move(request: dict[str, Any]) -> dict[str, Any]:
    """Let the player to move move as a computer."""
    game = _require_game()
    level = request.get("level", "standard")
    if level not in LEVELS:
        raise ProtocolError(
            "bad-request", f"Unknown level {level!r}; use one of {', '.join(LEVELS)}."
        )
    return _apply(game, choose_computer_move(game, level))


@endpoint
def save(request: dict[str, Any]) -> dict[str, Any]:
    """The game as text the page can keep."""
    return {"save": _require_game().to_json()}


@endpoint
def load(request: dict[str, Any]) -> dict[str, Any]:
    """Resume a saved game (a corrupt save changes nothing)."""
    global _game
    text = request.get("save")
    if not isinstance(text, str):
        raise ProtocolError("bad-request", "'save' must be the text save() returned.")
    game = cribbage.Game.from_json(text)
    _game = game
    _computers.clear()
    return _state(game, _seat(request))


@endpoint
def score(request: dict[str, Any]) -> dict[str, Any]:
    """Itemised score of a hand (or crib) with a starter."""
    hand = cribbage.parse_cards(request.get("hand") or [])
    starter = cribbage.Card.parse(str(request.get("starter", "")))
    return cribbage.score_hand(hand, starter, crib=bool(request.get("crib", False))).to_dict()


# --- stateless calls for the widgets (web/embed.html) ------------------------

MAX_LAID = 4  # cards each seat lays in the play


def _card_list(value: Any, what: str, limit: int = 52) -> list[Any]:
    """Cards from a list of texts, checked: at most ``limit``, no card twice."""
    if not isinstance(value, list) or len(value) > limit:
        raise ProtocolError("bad-request", f"'{what}' must be a list of at most {limit} cards.")
    cards = cribbage.parse_cards([str(card) for card in value])
    _distinct(cards, what)
    return cards


def _distinct(cards: list[Any], what: str) -> None:
    seen = set()
    for card in cards:
        if card in seen:
            raise ProtocolError("bad-card", f"{what} has {card.code} twice.")
        seen.add(card)


def _players(request: dict[str, Any]) -> int:
    players = request.get("players", 2)
    if type(players) is not int or players not in (2, 3, 4):
        raise ProtocolError("bad-request", "'players' must be 2, 3 or 4.")
    return players


def _lang(request: dict[str, Any]) -> str:
    """The request's language (default English); anything but ours is a bad request."""
    from cribbage import i18n

    lang = request.get("lang", i18n.DEFAULT)
    if lang not in i18n.LANGUAGES:
        known = ", ".join(i18n.LANGUAGES)
        raise ProtocolError("bad-request", f"'lang' must be one of {known}.")
    return str(lang)


def _items(items: Any, lang: str = "en") -> list[dict[str, Any]]:
    from cribbage.scoring import describe_item

    return [{**item.to_dict(), "text": describe_item(item, lang)} for item in items]


@endpoint
def show_score(request: dict[str, Any]) -> dict[str, Any]:
    """A hand's or crib's score with its cadence and item texts (stateless)."""
    from cribbage.scoring import cadence

    lang = _lang(request)
    hand = _card_list(request.get("hand") or [], "the hand", 4)
    starter = cribbage.Card.parse(str(request.get("starter", "")))
    _distinct([*hand, starter], "the hand and starter")
    score = cribbage.score_hand(hand, starter, crib=bool(request.get("crib", False)))
    return {"total": score.total, "items": _items(score.items, lang),
            "said": cadence(score.items, lang)}


def play_sequence(tokens: list[str], players: int, lang: str = "en") -> dict[str, Any]:
    """The play of a sequence of cards and "go"s (see ``peg_sequence``).

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
    from cribbage import i18n

    if len(tokens) > 2 * MAX_LAID * players:
        raise ProtocolError("bad-request", f"{players} players lay at most "
                            f"{MAX_LAID * players} cards in the play.")
    cards = [cribbage.Card.parse(t) for t in tokens if t.lower() != "go"]
    _distinct(cards, "the play")
    laid = [0] * players
    scores = [0] * players
    pile: list[Any] = []
    said_go: set[int] = set()
    steps: list[dict[str, Any]] = []
    last: int | None = None  # the last seat to lay a card in this count
    actor: int | None = None  # the last seat to act (card or go)

    def next_seat(after: int) -> int | None:
        for step in range(1, players + 1):
            seat = (after + step) % players
            if laid[seat] < MAX_LAID and seat not in said_go:
                return seat
        return None

    def close(step: dict[str, Any], all_played: bool) -> None:
        nonlocal pile, said_go, actor
        count = sum(card.value for card in pile)
        if last is not None and count != 31:
            kind = "last card" if all_played else "go"
            step["then"].append({"kind": kind, "seat": last, "points": 1})
            scores[last] += 1
        pile, said_go = [], set()
        actor = last  # the player left of the last to lay leads
        step["reset"] = True

    for index, token in enumerate(tokens):
        mover = 0 if actor is None else next_seat(actor)
        if mover is None:
            raise ProtocolError("bad-request", f"Nobody can lay card {index + 1}: "
                                "every player is out of cards.")
        step: dict[str, Any] = {"seat": mover, "card": None, "go": False, "points": 0,
                                "items": [], "reasons": "", "then": [], "reset": False}
        if token.lower() == "go":
            if not pile:
                raise ProtocolError("bad-request", f"Item {index + 1} is a go with no count "
                                    "to stop: a player who has cards can always lead.")
            said_go.add(mover)
            step["go"] = True
        else:
            card = cribbage.Card.parse(token)
            pile.append(card)
            laid[mover] += 1
            score = cribbage.score_peg(pile)
            step.update(card=card.code, points=score.total, items=_items(score.items, lang),
                        reasons=i18n.reasons([item.to_dict() for item in score.items], lang))
            scores[mover] += score.total
            last = mover
        actor = mover
        step["count"] = sum(card.value for card in pile)
        all_played = all(n == MAX_LAID for n in laid)
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if step["count"] == 31 or all_played:
            close(step, all_played)
        elif following is not None and following.lower() != "go":
            value = cribbage.Card.parse(following).value
            if step["count"] + value > 31 or next_seat(mover) is None:
                close(step, False)
        elif following is not None and next_seat(mover) is None:
            close(step, False)
        step["scores"] = list(scores)
        steps.append(step)
    return {"steps": steps, "scores": scores, "complete": all(n == MAX_LAID for n in laid)}


@endpoint
def peg_sequence(request: dict[str, Any]) -> dict[str, Any]:
    """The play of cards laid in order, with goes (stateless)."""
    players = _players(request)
    tokens = request.get("cards")
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        raise ProtocolError("bad-request", "'cards' must be a list of card texts and 'go'.")
    return play_sequence(tokens, players, _lang(request))


def _deal_state(track: dict[str, Any], title: str, lines: list[str]) -> dict[str, Any]:
    return {
        "title": title,
        "lines": lines,
        "phase": track["phase"],
        "hands": [[c.code for c in hand] for hand in track["hands"]],
        "crib": [c.code for c in track["crib"]],
        "starter": track["starter"],
        "pile": [c.code for c in track["pile"]],
        "count": sum(c.value for c in track["pile"]),
        "scores": list(track["scores"]),
        "show": track.get("show"),
    }


def scripted_deal_steps(request: dict[str, Any]) -> list[dict[str, Any]]:
    """Snapshots of one scripted deal played through the engine (see ``deal_steps``).

    >>> steps = scripted_deal_steps({"dealer": 0, "hands": [
    ...     "5S 4S 2S 8D 6H 8C".split(), "TS 6D JH 4H KC 7C".split()],
    ...     "starter": "5H", "discards": [["8D", "8C"], ["TS", "KC"]],
    ...     "play": "JH 5S 7C 6H 2S 6D 4S 4H".split()})
    >>> [s["show"]["total"] for s in steps if s["show"]]
    [9, 12, 6]
    >>> steps[-1]["scores"]
    [24, 12]
    >>> steps[1]["title"], steps[-1]["title"]
    ('Seat 1 laid away to the crib', 'Seat 0 counts crib 10♠ K♣ 8♦ 8♣: 6')
    """
    from cribbage import i18n

    players = _players(request)
    lang = _lang(request)
    names = _names(request, players)

    def line(event: Any) -> str:
        """The event's log line, naming the seats."""
        return i18n.event_text(event.to_dict(lang), lang, names)

    target = request.get("target", 121)
    rules = cribbage.Rules(players=players, target=target)
    hands = request.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise ProtocolError("bad-request", f"'hands' must hold {players} hands.")
    hands = [_card_list(hand, "a hand", 6) for hand in hands]
    crib = _card_list(request.get("crib") or [], "the crib", 4)
    starter = cribbage.Card.parse(str(request.get("starter", "")))
    scores = request.get("scores")
    game = cribbage.Game.scripted(rules, dealer=request.get("dealer"), hands=hands,
                                  starter=starter, crib=crib, scores=scores)
    discards = request.get("discards")
    if discards is not None and (not isinstance(discards, list) or len(discards) != players):
        raise ProtocolError("bad-request", f"'discards' must hold {players} lists of cards.")
    plays = _card_list(request.get("play") or [], "the play", 16)
    from cribbage.players import computer_move, make_player
    from cribbage.scoring import cadence

    computer = make_player("standard", seed=1)
    track: dict[str, Any] = {
        "phase": game.phase, "hands": [list(h) for h in game.hands],
        "crib": list(game.crib), "starter": None, "pile": [], "scores": list(game.scores),
    }
    closed = False  # the count was closed (go or 31): the next card starts a new one
    dealer = game.dealer
    opening = i18n.event_text({"kind": "deal", "seat": dealer, "deal": 1}, lang, names)
    steps = [_deal_state(track, opening, [])]
    while game.phase != "over" and game.deal_number == 1:
        seat = game.current_player
        legal = game.legal_moves()
        if game.phase == "discard" and discards is not None:
            move = cribbage.Move("discard", tuple(_card_list(discards[seat], "a discard", 2)))
        elif game.phase == "play" and legal == [cribbage.Move("go")]:
            move = legal[0]
        elif game.phase == "play" and plays:
            card = plays.pop(0)
            move = cribbage.Move("play", (card,))
            if move not in legal:
                raise ProtocolError("illegal-move", f"Seat {seat} cannot play {card.code} now "
                                    f"(count {game.count}).")
        else:
            move = computer_move(computer, game.view(seat))
        before = len(game.events)
        game.apply(move)
        if move.kind == "discard":
            for card in move.cards:
                track["hands"][seat].remove(card)
            track["crib"] = track["crib"] + list(move.cards)
        lines: list[str] = []
        title = ""
        for event in game.events[before:]:
            if event.kind == "deal":
                break
            if event.kind in ("hand", "crib") and lines:
                steps.append(_deal_state(track, title, lines))
                lines = []
            if event.team is not None and event.points:
                track["scores"][event.team] += event.points
            if event.kind in ("hand", "crib"):
                track["phase"], track["pile"] = "show", []
                track["show"] = {"seat": event.seat, "kind": event.kind,
                                 "cards": [c.code for c in event.cards],
                                 "total": event.points + event.refused,
                                 "items": _items(event.items, lang),
                                 "said": cadence(event.items, lang)}
                steps.append(_deal_state(track, line(event), [track["show"]["said"]]))
                continue
            if event.kind == "starter":
                track["starter"] = event.cards[0].code
            if event.kind == "play":
                if closed:
                    track["pile"], closed = [], False
                track["hands"][event.seat].remove(event.cards[0])
                track["pile"] = track["pile"] + [event.cards[0]]
                closed = event.count == 31
            if event.kind in ("go", "last card"):
                closed = True
            if not title:
                title = line(event)
            lines.append(line(event))
        if lines:
            track["phase"] = game.phase if game.deal_number == 1 else "show"
            steps.append(_deal_state(track, title, lines))
    return steps


def _names(request: dict[str, Any], players: int) -> list[str] | None:
    """The seats' names for the log lines (None: the engine's "Seat N")."""
    names = request.get("names")
    if names is None:
        return None
    if (not isinstance(names, list) or len(names) != players
            or not all(isinstance(n, str) and 0 < len(n) <= 40 for n in names)):
        raise ProtocolError("bad-request",
                            f"'names' must be {players} texts of 1 to 40 characters.")
    return names


@endpoint
def deal_steps(request: dict[str, Any]) -> dict[str, Any]:
    """One scripted deal played step by step (stateless)."""
    return {"steps": scripted_deal_steps(request)}


# --- the coach and fair deals (the table) ------------------------------------


def _discard_dict(choice: Any) -> dict[str, Any]:
    return {"discard": [c.code for c in choice.discard], "keep": [c.code for c in choice.kept],
            "hand": round(choice.hand, 2), "crib": round(choice.crib, 2),
            "net": round(choice.net, 2)}


def coach_advice(view_: Any) -> dict[str, Any]:
    """The coach's ranked choices for a view whose seat is to discard or play.

    >>> game = cribbage.Game.scripted(dealer=0, hands=["5S 4S 2S 8D 6H 8C",
    ...     "TS 6D JH 4H KC 7C"], starter="5H")
    >>> advice = coach_advice(game.view(1))
    >>> advice["kind"], len(advice["choices"]), advice["choices"][0]["discard"]
    ('discard', 15, ['TS', 'KC'])
    """
    from cribbage import coach

    if view_.current_player != view_.seat or view_.phase not in ("discard", "play"):
        raise ProtocolError("bad-request", "The coach advises on your own discard or play, "
                            "when it is your turn.")
    if view_.phase == "discard":
        return {"kind": "discard", "choices": [_discard_dict(c)
                                               for c in coach.advise_discard(view_)]}
    return {"kind": "play", "choices": [a.to_dict() for a in coach.advise_play(view_)]}


@endpoint
def advise(request: dict[str, Any]) -> dict[str, Any]:
    """The coach's ranked discards or cards for a seat whose turn it is."""
    game = _require_game()
    return coach_advice(game.view(_seat(request, required=True)))


def review_deal(game: Any, seat: int, deal: int | None = None) -> dict[str, Any]:
    """Where ``seat``'s discard and plays in a deal lost expected points.

    >>> from cribbage.players import computer_move, make_player
    >>> game = cribbage.Game.new(seed=3, first_dealer=0)
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
        raise ProtocolError("bad-request", "'deal' must be a deal of this game.")
    data = game.to_dict()
    moves, data["moves"] = data["moves"], []
    replay = cribbage.Game.from_dict(data)
    decisions = []
    for text in moves:
        if replay.deal_number > deal:
            break
        chooses = (replay.deal_number == deal and replay.current_player == seat
                   and replay.phase in ("discard", "play") and len(replay.legal_moves()) > 1)
        if chooses:
            decisions.append(_judge(coach_advice(replay.view(seat)), text, replay.count))
        replay.apply(text)
    return {"deal": deal, "decisions": decisions,
            "lost": round(sum(d["loss"] for d in decisions), 2)}


def _judge(advice: dict[str, Any], move: str, count: int) -> dict[str, Any]:
    """Compare the move made with the coach's ranking at that moment."""
    kind, choices = advice["kind"], advice["choices"]
    key, value = ("discard", "net") if kind == "discard" else ("card", "value")
    made = move.split()[1:]
    chosen = next((c for c in choices
                   if (sorted(c[key]) if kind == "discard" else [c[key]]) == sorted(made)),
                  choices[0])
    best = choices[0]
    return {"kind": kind, "chosen": made, "count": count,
            "best": best[key] if kind == "discard" else [best[key]],
            "chosen_value": chosen[value], "best_value": best[value],
            "loss": round(max(0.0, best[value] - chosen[value]), 2)}


@endpoint
def review(request: dict[str, Any]) -> dict[str, Any]:
    """The coach's review of one seat's decisions in a deal."""
    game = _require_game()
    seat = _seat(request, required=True)
    if not 0 <= seat < game.players:
        raise ProtocolError("bad-request", f"There is no seat {seat}.")
    return review_deal(game, seat, request.get("deal"))


def deal_proofs(game: Any) -> dict[str, Any]:
    """Commitments for the current and next deal, and the secrets of finished deals.

    >>> import hashlib
    >>> game = cribbage.Game.new(seed=9)          # cutting for the deal: nothing dealt yet
    >>> proof = deal_proofs(game)
    >>> proof["deal"], [s["deal"] for s in proof["sealed"]], proof["revealed"]
    (0, [1], [])
    >>> sealed = proof["sealed"][0]["commitment"]
    >>> while game.deal_number < 2:
    ...     game.apply(game.legal_moves()[0])
    >>> first = deal_proofs(game)["revealed"][0]
    >>> text = first["salt"] + ":" + " ".join(first["deck"])
    >>> hashlib.sha256(text.encode()).hexdigest() == sealed == first["commitment"]
    True
    """
    import hashlib

    current = game.deal_number
    finished = current if game.phase == "over" else current - 1
    scripted = "script" in game.setup  # its first deal was given, not shuffled

    def proof(deal: int, reveal: bool) -> dict[str, Any]:
        salt, deck = game.deal_secret(deal)
        entry: dict[str, Any] = {"deal": deal, "commitment": hashlib.sha256(
            (salt + ":" + " ".join(deck)).encode()).hexdigest()}
        if reveal:
            entry.update(salt=salt, deck=deck)
        return entry

    first = 2 if scripted else 1
    sealed = [] if game.phase == "over" else [
        proof(deal, False) for deal in (current, current + 1) if deal >= first]
    revealed = [proof(deal, True) for deal in range(first, finished + 1)]
    setup = json.dumps(game.setup, sort_keys=True)
    return {"game": hashlib.sha256(setup.encode()).hexdigest()[:16], "deal": current,
            "sealed": [entry for entry in sealed if entry["deal"] > finished],
            "revealed": revealed}


@endpoint
def deal_proof(request: dict[str, Any]) -> dict[str, Any]:
    """Commitments to the decks before they are dealt, and their secrets after."""
    return deal_proofs(_require_game())


__export__ = [
    "hello",
    "new_game",
    "state",
    "view",
    "legal_moves",
    "apply_move",
    "computer_move",
    "save",
    "load",
    "score",
    "show_score",
    "peg_sequence",
    "deal_steps",
    "advise",
    "review",
    "deal_proof",
]
