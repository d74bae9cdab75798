"""Replays and share links: a saved game stepped through move by move, for one viewer.

A replay is the game's moves applied one at a time from its setup, with the
view of one seat after each move (:meth:`Game.view`, so hidden cards are left
out by the engine, never by the page). While the game is in progress the
viewer sees only what its seat saw; once the game is over every step also
reveals every hand and the crib (``revealed``).

A *share link* carries a game in a URL fragment (never sent to a server):
``1.`` (the format's version) then base64url, without padding, of a compact
JSON object::

    {"rules": {...}, "setup": {...}, "moves": "AqB...", "seat": 0}

``rules`` and ``setup`` are the save's own (:meth:`Game.to_dict`: the seed,
the first dealer, a scripted deal or deck order, take-backs and a
resignation); ``moves`` holds one character per move, its index in the
engine's list of legal moves at that point (``A`` = 0 … ``_`` = 63, the
base64url alphabet); ``seat`` is the viewer's seat. A link holds no scores:
they follow from the moves. Decoding checks the text's size and alphabet, the
object's exact keys, then the save as strictly as a saved game
(:func:`cribbage.game.check_save`), and every move as it is applied; any flaw
raises :class:`GameStateError` with a reason and nothing is returned.

>>> game = Game.new(seed=5, first_dealer=0)
>>> game.apply(game.legal_moves()[3])
>>> link = share_link(game, seat=1)
>>> link[:2]
'1.'
>>> again, seat = read_link(link)
>>> again.to_json() == game.to_json(), seat
(True, 1)
>>> read_link("2.abc")
Traceback (most recent call last):
...
cribbage.game.GameStateError: this replay link is of another version (2); this page reads version 1
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from .game import SAVE_FORMAT, SAVE_VERSION, Game, GameStateError, Move

LINK_VERSION = "1"
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
MAX_LINK = 8000  # characters of a link's text: a long game takes under 2,000
MAX_MOVES = 4000  # moves in a replayed game (a long four-player game makes about 700)
MAX_SAVE = 200_000  # characters of a save given to replay (a long game's is about 10,000)
_LINK_KEYS = ("rules", "setup", "moves", "seat")
# The facts every step shares, sent once for the whole replay instead of in each view.
_SHARED = ("rules", "teams", "team_of", "discards_each", "skunk_lines", "seat", "team")


def fresh_game(game: Game) -> Game:
    """The game as it was before its first move (its setup, without a resignation)."""
    data = game.to_dict()
    data["moves"] = []
    data["setup"] = {key: value for key, value in data["setup"].items() if key != "resigned"}
    return Game.from_dict(data)


def share_link(game: Game, seat: int) -> str:
    """The game as a share link's text for the viewer ``seat`` (see the module's docs).

    >>> share_link(Game.new(seed=1, first_dealer=0), 0)[:9]
    '1.eyJydWx'
    """
    check_seat(game, seat)
    replayed = fresh_game(game)
    indices = []
    for text in game.moves:
        move = Move.parse(text)
        indices.append(ALPHABET[replayed.legal_moves().index(move)])
        replayed.apply(move)
    body = {"rules": game.rules.to_dict(), "setup": game.setup, "moves": "".join(indices),
            "seat": seat}
    data = json.dumps(body, separators=(",", ":")).encode()
    return LINK_VERSION + "." + base64.urlsafe_b64encode(data).decode().rstrip("=")


def read_link(text: object) -> tuple[Game, int]:
    """The game and the viewer's seat in a share link's text; any flaw raises GameStateError."""
    if not isinstance(text, str) or not text:
        raise GameStateError("this replay link is empty")
    if len(text) > MAX_LINK:
        raise GameStateError(f"this replay link is too long ({len(text)} characters; "
                             f"at most {MAX_LINK})")
    version, dot, payload = text.partition(".")
    if not dot or not version.isdigit() or len(version) > 3:
        raise GameStateError("this is not a replay link")
    if version != LINK_VERSION:
        raise GameStateError(f"this replay link is of another version ({version}); "
                             f"this page reads version {LINK_VERSION}")
    body = _link_body(payload)
    moves, seat = body["moves"], body["seat"]
    if not isinstance(moves, str) or len(moves) > MAX_MOVES or any(
            c not in ALPHABET for c in moves):
        raise GameStateError("the replay link's moves are malformed")
    save = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "rules": body["rules"],
            "setup": body["setup"], "moves": []}
    game = fresh_game(Game.from_dict(save))  # the save's checks, before any move
    texts = []
    for number, letter in enumerate(moves, 1):
        legal = game.legal_moves()
        index = ALPHABET.index(letter)
        if index >= len(legal):
            raise GameStateError(f"the replay link's move {number} is not a legal move")
        texts.append(str(legal[index]))
        game.apply(legal[index])
    game = Game.from_dict(dict(save, moves=texts))  # with the resignation, checked again
    check_seat(game, seat)
    return game, seat


def _link_body(payload: str) -> dict[str, Any]:
    """The JSON object inside a link (its exact keys checked)."""
    if not payload or any(c not in ALPHABET for c in payload):
        raise GameStateError("this replay link is damaged: it holds characters a link "
                             "never has")
    try:
        data = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
        body = json.loads(data.decode("utf-8"))
    except (binascii.Error, ValueError, RecursionError):
        raise GameStateError("this replay link is damaged: it does not decode") from None
    if not isinstance(body, dict) or sorted(body) != sorted(_LINK_KEYS):
        raise GameStateError("this replay link is damaged: it is not a game")
    return body


def check_seat(game: Game, seat: object) -> None:
    """Refuse a viewer's seat that is not a seat of ``game``."""
    if type(seat) is not int or not 0 <= seat < game.players:
        raise GameStateError(f"the viewer must be a seat 0..{game.players - 1}, not {seat!r}")


def read_save(text: object) -> Game:
    """A save's text as a game, refused if it is too large (then checked as any save)."""
    if not isinstance(text, str):
        raise GameStateError("a saved game is text")
    if len(text) > MAX_SAVE:
        raise GameStateError(f"this saved game is too large ({len(text)} characters; "
                             f"at most {MAX_SAVE})")
    game = Game.from_json(text)
    if len(game.moves) > MAX_MOVES:
        raise GameStateError(f"this saved game has too many moves (at most {MAX_MOVES})")
    return game


def replay(game: Game, seat: int) -> dict[str, Any]:
    """Every step of ``game`` as ``seat`` may see it: the first deal, then one step a move.

    Each step holds ``move`` (its text, None for the start), ``mover`` (the
    seat that moved), ``view`` (the seat's view with only the events the
    step caused; the facts every step shares are sent once) and, when the
    game is over, ``revealed``: every seat's hand and the crib at that step.

    >>> game = Game.new(seed=2, first_dealer=0)
    >>> game.apply(game.legal_moves()[0])
    >>> steps = replay(game, 0)["steps"]
    >>> [step["move"] for step in steps][:1], len(steps), "revealed" in steps[0]
    ([None], 2, False)
    """
    check_seat(game, seat)
    over = game.is_over
    replayed = fresh_game(game)
    steps = [_step(replayed, seat, None, None, 0, over)]
    moves: list[tuple[Move | None, str]] = [(Move.parse(text), text) for text in game.moves]
    if "resigned" in game.setup:
        moves.append((None, "resign"))
    for move, text in moves:
        mover = replayed.current_player if move is not None else game.setup["resigned"]
        before = len(replayed.events)
        if move is None:
            replayed.resign(game.setup["resigned"])
        else:
            replayed.apply(move)
        steps.append(_step(replayed, seat, text, mover, before, over))
    first = replayed.view(seat).to_dict(len(replayed.events))
    shared = {key: first[key] for key in _SHARED}
    return {"over": over, "players": game.players, "save": game.to_json(),
            "link": share_link(game, seat), **shared, "steps": steps}


def _step(game: Game, seat: int, move: str | None, mover: int | None, events_from: int,
          reveal: bool) -> dict[str, Any]:
    view = game.view(seat).to_dict(events_from)
    for key in (*_SHARED, "legal_moves"):
        del view[key]
    step: dict[str, Any] = {"move": move, "mover": mover, "view": view}
    if reveal:
        step["revealed"] = {"hands": [[card.code for card in game.view(other).hand]
                                      for other in range(game.players)],
                            "crib": [card.code for card in game.crib]}
    return step
