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
]
