"""Playing a friend on another device: the peer messages, the shared shuffle, the check.

Two pages talk over a WebRTC data channel (web/peer/). The *host*'s engine
runs the game; the *guest*'s engine keeps only what its seat saw. Every
message is one JSON object with a version and a known kind, at most
:data:`MAX_MESSAGE` bytes, every field checked (:func:`parse_message`); a
bad message raises :class:`PeerError` and changes nothing.

The shuffle is shared: each side draws :data:`ENTROPY_BYTES` random bytes;
the host sends a commitment (the SHA-256 of its bytes) before the guest
sends its bytes, and the game's seed comes from both (:func:`shared_seed`).
Every deck, and the cut for the deal, is drawn from that seed
(:meth:`Game.new <cribbage.game.Game.new>`), so neither side can choose the
cards: the host fixed its bytes before seeing the guest's, and the guest
chose its bytes without knowing the host's. When the game ends the host
reveals its bytes and the whole save, and the guest's engine replays it
(:func:`check_fair_deal`).

>>> host, guest = bytes(32), bytes(range(32))
>>> commitment(host) == hashlib.sha256(host).hexdigest()
True
>>> shared_seed(host, guest) < 2**64
True
>>> parse_message('{"v": 1, "kind": "reaction", "reaction": "nice_hand"}', GUEST_SENDS)
{'v': 1, 'kind': 'reaction', 'reaction': 'nice_hand'}
>>> parse_message('{"v": 2, "kind": "ping"}', GUEST_SENDS)
Traceback (most recent call last):
...
cribbage.peer.PeerError: this page speaks version 1 of the peer messages, not 2
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

from .game import Game, GameStateError, check_save
from .rules import Rules, RulesError

VERSION = 1
MAX_MESSAGE = 64 * 1024  # bytes of one message's UTF-8 text
ENTROPY_BYTES = 32
MAX_SAVE = 60_000  # characters of a revealed save (a whole game is about 3 kB)
REACTIONS = ("good_game", "nice_hand", "your_turn", "well_played", "thanks")
# Why a message was refused (the peer is told, the page logs it).
REASONS = ("too-large", "not-json", "bad-version", "unknown-kind", "unexpected", "bad-field",
           "wrong-game", "out-of-turn", "stale", "illegal-move", "bad-order", "out-of-step")
_GAME_ID = re.compile(r"[0-9a-f]{16}")
_HEX = re.compile(r"[0-9a-f]{64}")
Message = dict[str, Any]


class PeerError(ValueError):
    """A peer message refused: ``reason`` is one of :data:`REASONS`."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


# --- the fields and the kinds -------------------------------------------------------


def _game_id(value: object) -> bool:
    return isinstance(value, str) and _GAME_ID.fullmatch(value) is not None


def _hex(value: object) -> bool:
    return isinstance(value, str) and _HEX.fullmatch(value) is not None


def _count(value: object) -> bool:
    return type(value) is int and 0 <= value < 1_000_000


def _text(limit: int) -> Callable[[object], bool]:
    return lambda value: isinstance(value, str) and 0 < len(value) <= limit


def _rules(value: object) -> bool:
    try:
        Rules.from_dict(value)
    except (RulesError, TypeError, ValueError):
        return False
    return True


FIELDS: dict[str, Callable[[object], bool]] = {
    "game": _game_id, "seen": _count, "commitment": _hex, "bytes": _hex, "host_bytes": _hex,
    "seat": lambda value: type(value) is int and 0 <= value < 4, "rules": _rules,
    "view": lambda value: isinstance(value, dict), "move": _text(40),
    "reason": lambda value: value in REASONS, "message": _text(300),
    "reaction": lambda value: value in REACTIONS, "save": _text(MAX_SAVE),
    "problems": lambda value: isinstance(value, list) and len(value) <= 20 and all(
        _text(300)(item) for item in value),
    "seats": lambda value: isinstance(value, list) and len(value) <= 3 and all(
        type(seat) is int and 0 < seat < 4 for seat in value),
    "guests": lambda value: isinstance(value, list) and 2 <= len(value) <= 3 and all(
        _hex(item) for item in value),
}
"""Each field a message may carry and the check its value must pass."""

KINDS: dict[str, tuple[str, ...]] = {
    "hello": ("game", "seen"),  # guest: I hold this invitation's game, seen N events
    "commit": ("game", "seat", "rules", "commitment"),  # host: your seat, the rules, sha256
    "entropy": ("game", "bytes"),  # guest: my random bytes
    "pledge": ("game", "commitment"),  # guest of three or four, first: sha256 of my bytes
    "pledges": ("game", "guests"),  # host: every guest's pledge in seat order (bytes now)
    "away": ("game", "seats"),  # host of three or four: the friends away now ([]: none)
    "update": ("game", "view"),  # host: your view, its events from what you have seen
    "move": ("game", "move", "seen"),  # guest: my move (or "resign"), chosen after N events
    "refused": ("reason", "message"),  # either: your message was refused
    "reaction": ("reaction",),  # either: one of the fixed quick reactions
    "reveal": ("game", "host_bytes", "save"),  # host, at the end: my bytes and the save
    "checked": ("game", "problems"),  # guest: my check of the reveal ([]: fair)
    "left": ("game",),  # either: I left this game for another (a game not over is lost)
    "rematch": ("game",),  # either, once this game is over and checked: another game?
    "rematch-accept": ("game",),  # either: yes to the friend's rematch (the host then commits)
    "ping": (), "pong": (),  # either: the heartbeat (answered by the page's transport)
}
"""Every kind of message and its fields (all required, no others allowed)."""

OPTIONAL: dict[str, tuple[str, ...]] = {
    "reveal": ("guests",),  # three or four players: every guest's bytes, in seat order
}
"""Fields a kind may carry besides its required ones."""

COMMON = ("refused", "reaction", "left", "rematch", "rematch-accept", "ping", "pong")
HOST_SENDS = ("commit", "pledges", "update", "reveal", "away", *COMMON)
GUEST_SENDS = ("hello", "pledge", "entropy", "move", "checked", *COMMON)


def parse_message(text: object, accepted: tuple[str, ...]) -> Message:
    """Read one message the peer sent, whose kind must be in ``accepted``.

    >>> parse_message('{"v": 1, "kind": "move", "game": "00ff00ff00ff00ff", "move": "go",'
    ...               ' "seen": 3, "extra": 1}', GUEST_SENDS)
    Traceback (most recent call last):
    ...
    cribbage.peer.PeerError: a move message has no field 'extra'
    >>> parse_message('{"v": 1, "kind": "commit"}', GUEST_SENDS)
    Traceback (most recent call last):
    ...
    cribbage.peer.PeerError: a commit message may not come from this peer
    """
    if not isinstance(text, str):
        raise PeerError("not-json", "a message must be text")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise PeerError("too-large", f"a message may hold at most {MAX_MESSAGE} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise PeerError("not-json", "a message must be one JSON object") from None
    if not isinstance(data, dict):
        raise PeerError("not-json", "a message must be one JSON object")
    version = data.get("v")
    if type(version) is not int or version != VERSION:
        raise PeerError("bad-version", f"this page speaks version {VERSION} of the peer "
                        f"messages, not {version!r}")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise PeerError("unknown-kind", f"unknown kind of message {str(kind)[:40]!r}")
    if kind not in accepted:
        raise PeerError("unexpected", f"a {kind} message may not come from this peer")
    fields = KINDS[kind]
    for name in data:
        if name not in ("v", "kind") and name not in fields + OPTIONAL.get(kind, ()):
            raise PeerError("bad-field", f"a {kind} message has no field {str(name)[:40]!r}")
    for name in fields:
        if name not in data or not FIELDS[name](data[name]):
            raise PeerError("bad-field", f"a {kind} message's {name!r} is missing or malformed")
    for name in OPTIONAL.get(kind, ()):
        if name in data and not FIELDS[name](data[name]):
            raise PeerError("bad-field", f"a {kind} message's {name!r} is malformed")
    return data


def message(kind: str, **fields: Any) -> str:
    """One message's text (checked as the peer will check it).

    >>> message("reaction", reaction="good_game")
    '{"v":1,"kind":"reaction","reaction":"good_game"}'
    """
    text = json.dumps({"v": VERSION, "kind": kind, **fields}, separators=(",", ":"))
    parse_message(text, (kind,))
    return text


def refusal(error: PeerError) -> str:
    """The message telling the peer why its message was refused."""
    return message("refused", reason=error.reason, message=str(error)[:300])


# --- the shared shuffle --------------------------------------------------------------


def commitment(host_bytes: bytes) -> str:
    """The host's commitment to its random bytes: their SHA-256, in hex."""
    return hashlib.sha256(host_bytes).hexdigest()


def shared_seed(host_bytes: bytes, *guest_bytes: bytes) -> int:
    """The game's seed: the first 8 bytes of SHA-256(host bytes + each guest's bytes, in
    seat order).

    >>> shared_seed(b"a" * 32, b"b" * 32) == shared_seed(b"a" * 32, b"c" * 32)
    False
    >>> shared_seed(b"a" * 32, b"b" * 32, b"c" * 32) == shared_seed(b"a" * 32, b"c" * 32,
    ...                                                             b"b" * 32)
    False
    """
    return int.from_bytes(hashlib.sha256(host_bytes + b"".join(guest_bytes)).digest()[:8],
                          "big")


def read_hex(text: str) -> bytes:
    """32 random bytes from their hex form (checked by the message's fields)."""
    return bytes.fromhex(text)


# --- the guest's check after the game ------------------------------------------------


def held_cards(view: dict[str, Any]) -> set[str]:
    """The cards a seat was dealt this deal, as far as its view shows them.

    >>> sorted(held_cards({"seat": 1, "hand": ["5S"], "discards": ["2D"],
    ...                    "played": [[0, "3C"], [1, "KH"]]}))
    ['2D', '5S', 'KH']
    """
    own = {card for seat, card in view["played"] if seat == view["seat"]}
    return set(view["hand"]) | set(view["discards"]) | own


def replay_seat(save: str, seat: int) -> tuple[Game, dict[int, set[str]], list[str]]:
    """The game in ``save`` replayed by this engine (every move checked), with the cards
    ``seat`` was dealt in each deal and the moves ``seat`` made."""
    game = Game.from_json(save)  # the whole save is checked and every move is legal
    rules, setup, moves = check_save(json.loads(save))
    replayed = Game.new(rules, seed=setup["seed"], first_dealer=setup["first_dealer"])
    dealt: dict[int, set[str]] = {}
    own: list[str] = []

    def note() -> None:
        if replayed.deal_number and replayed.deal_number not in dealt:
            dealt[replayed.deal_number] = {card.code for card in replayed.hands[seat]}

    note()
    for move in moves:
        if replayed.current_player == seat:
            own.append(move)
        replayed.apply(move)
        note()
    return game, dealt, own


def check_fair_deal(commit: str, host_bytes: str, guest_bytes: str, save: str, seat: int,
                    seen: dict[str, Any], guests: list[str] | None = None,
                    pledges: list[str] | None = None) -> list[str]:
    """What did not match between the host's reveal and what the guest saw ([]: fair).

    ``seen`` is the guest's record: ``events`` (every event its views showed),
    ``held`` (deal number as text: the cards it held) and ``moves`` (its moves the
    host accepted). ``guests`` is every guest's bytes in seat order, as revealed
    (three or four players; two have only this guest's), and ``pledges`` their
    SHA-256 as the host passed them on before any guest sent its bytes. Checked: the
    commitment, this guest's bytes among the revealed, each guest's bytes against its
    pledge, the seed, every move's legality, each
    deal's cards the guest held, every event (every score) and the guest's moves.
    """
    if commitment(read_hex(host_bytes)) != commit:
        return ["commitment: the revealed bytes are not the ones the host committed to"]
    guests = [guest_bytes] if guests is None else guests
    if guests.count(guest_bytes) != 1:
        return ["seed: the revealed guests' bytes do not hold yours"]
    if pledges is not None and [commitment(read_hex(text)) for text in guests] != pledges:
        return ["seed: the revealed guests' bytes are not the ones they pledged"]
    try:
        game, dealt, own = replay_seat(save, seat)
    except (GameStateError, ValueError) as error:
        return [f"save: the host's save does not replay: {error}"]
    seed = shared_seed(read_hex(host_bytes), *map(read_hex, guests))
    problems = []
    if game.setup.get("seed") != seed or set(game.setup) - {"seed", "first_dealer",
                                                              "resigned"}:
        problems.append(f"seed: the game was not dealt from the shared seed {seed}")
    if game.setup.get("first_dealer") is not None:
        problems.append("seed: the first dealer was chosen, not cut for")
    for deal, cards in sorted(seen["held"].items(), key=lambda item: int(item[0])):
        if dealt.get(int(deal)) != set(cards):
            problems.append(f"deal {deal}: you held {' '.join(sorted(cards))}, the shared "
                            f"seed deals you {' '.join(sorted(dealt.get(int(deal), ())))}")
    events = [event.to_dict() for event in game.events]
    for number, (saw, replayed) in enumerate(zip(seen["events"], events), 1):
        if saw != replayed:
            problems.append(f"event {number}: you saw {json.dumps(saw)}, the replay has "
                            f"{json.dumps(replayed)}")
            break
    if len(seen["events"]) > len(events):
        problems.append(f"events: you saw {len(seen['events'])} events, the save has "
                        f"{len(events)}")
    if seen["moves"] != own[:len(seen["moves"])]:
        problems.append("moves: the save does not hold the moves you made")
    return problems
