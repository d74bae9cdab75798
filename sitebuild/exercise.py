"""The engine's whole protocol, run once: which modules does it import?

Run by the build inside the pinned Pyodide under Node (``precompile.py``),
after the engine is installed the way the page's worker installs it and
``bridge`` is imported. It plays games at every level and player count
through every endpoint, with good and bad requests, a save and a load, the
coach, the fair deal, the widgets' endpoints in every language and an
internal error, so that every module the engine may import lazily is
imported. It then writes ``/tmp/modules.json``: the stdlib files in use
(paths inside the stdlib zip) and the engine's modules.

The stdlib the page ships is cut to those files (``precompile.cut_stdlib``),
and the build's memory snapshot is checked by running this again against
the cut stdlib. Runs under CPython too (``tests/browser/test_web_units.py``).
"""

import json
import sys
import traceback
from typing import Any

from cribbage import protocol

ZIP = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip/"
session = protocol.Session()  # not the page's session: bridge's stays untouched


def call(name: str, request: dict[str, Any] | None = None,
         ok: bool | None = None) -> Any:
    reply = json.loads(session.call(name, json.dumps(request or {})))
    if ok is not None and reply["ok"] is not ok:
        raise AssertionError(f"{name} {request}: {reply}")
    return reply


def play(players: int, level: str, seed: int, moves: int) -> None:
    """A game between computers of ``level``, every seat's view and the coach on the way."""
    call("new_game", {"rules": {"players": players, "target": 61}, "seed": seed,
                      "seat": 0, "proof": True}, ok=True)
    for count in range(moves):
        state = call("state", {"seat": 0}, ok=True)["result"]
        if state["phase"] == "over":
            break
        seat = state["current_player"]
        call("view", {"seat": seat, "events_from": 0}, ok=True)
        legal = call("legal_moves", ok=True)["result"]["moves"]
        if count % 5 == 0:
            call("advise", {"seat": seat})
        if count % 3 == 0 and legal:
            call("apply_move", {"move": legal[-1], "seat": 0, "events_from": 0, "proof": True},
                 ok=True)
        else:
            call("computer_move", {"level": level, "seat": 0, "events_from": 0, "proof": True},
                 ok=True)
        if count % 11 == 0:
            call("review", {"seat": 0})
    saved = call("save", ok=True)["result"]["save"]
    call("load", {"save": saved, "seat": 0, "proof": True}, ok=True)
    call("deal_proof", ok=True)


def widgets(lang: str) -> None:
    call("score", {"hand": ["5C", "5D", "5H", "JS"], "starter": "5S", "lang": lang})
    call("show_score", {"hand": ["5C", "5D", "5H", "JS"], "starter": "5S", "crib": True,
                        "lang": lang})
    call("peg_sequence", {"cards": "JH 5S 7C 6H go 2S 6D 4S 4H".split(), "lang": lang})
    call("deal_steps", {
        "dealer": 0, "hands": ["5S 4S 2S 8D 6H 8C".split(), "TS 6D JH 4H KC 7C".split()],
        "starter": "5H", "discards": [["8D", "8C"], ["TS", "KC"]], "names": ["A", "B"],
        "play": "JH 5S 7C 6H 2S 6D 4S 4H".split(), "lang": lang})


def errors() -> None:
    """Bad requests of every kind, and an internal error (a bug's traceback)."""
    session.call("hello", "{not json")
    call("state")
    call("apply_move", {"move": "fly away"})
    call("computer_move", {"level": "nobody"})
    call("load", {"save": "{}"})
    call("new_game", {"rules": {"players": 9}})
    call("score", {"hand": ["5C"], "starter": "XX"})
    call("no_such_endpoint")
    real = protocol.ENDPOINTS["hello"]

    def broken(session: Any, request: Any) -> Any:
        return {}.missing_attribute  # type: ignore[attr-defined]  # an AttributeError, on purpose

    protocol.ENDPOINTS["hello"] = broken
    try:
        call("hello", ok=False)
    finally:
        protocol.ENDPOINTS["hello"] = real
    try:
        raise ValueError("formatted")
    except ValueError:
        traceback.format_exc()


def later_endpoints() -> None:
    """Puzzles, drills, the whole-game review, replays, take-backs, resigning, the hand table."""
    for lang in ("en", "es", "ja"):
        for kind in ("discard", "play"):
            call("puzzle", {"date": "2026-12-02", "kind": kind, "lang": lang}, ok=True)
            call("puzzle", {"date": "2026-12-02", "kind": kind, "practice": 3, "lang": lang})
        call("drill", {"level": "easy", "seed": 1, "lang": lang})
    call("hand_distribution", ok=True)
    call("new_game", {"seed": 7, "first_dealer": 0, "seat": 0}, ok=True)
    for _ in range(30):
        call("computer_move", {"level": "master", "seat": 0})
    saved = call("save", ok=True)["result"]["save"]
    for lang in ("en", "es", "ja"):
        call("review_game", {"seat": 0, "save": saved, "lang": lang})
        call("advise", {"seat": 0, "lang": lang})
    replayed = call("replay", {"save": saved, "seat": 0}, ok=True)["result"]
    call("replay", {"link": replayed["link"]}, ok=True)
    call("replay", {"link": "1.not-a-game"}, ok=False)
    call("hand_off", {"seat": 1, "events_from": 0, "proof": True}, ok=True)
    call("undo", {"seat": 0})
    call("resign", {"seat": 0, "proof": True})


def peer() -> None:
    """A game between two devices: the handshake, a move and a refused message."""
    host, guest = protocol.Session(), protocol.Session()

    def answer(side: protocol.Session, name: str, request: dict[str, Any]) -> Any:
        reply = json.loads(side.call(name, json.dumps(request)))
        if not reply["ok"]:
            raise AssertionError(f"{name} {request}: {reply}")
        return reply["result"]

    game = answer(host, "peer_host", {"rules": {"target": 61}})["game"]
    texts = [answer(guest, "peer_guest", {"game": game})["message"]]
    for _ in range(8):  # hello, commit, entropy, update, then the guest's cut
        replies = []
        for text in texts:
            side = host if json.loads(text)["kind"] in ("hello", "entropy", "move") else guest
            replies += answer(side, "peer_receive", {"text": text, "proof": True})["replies"]
        if not replies:
            replies = [answer(guest, "peer_move", {"move": "cut"})["message"]]
        texts = replies
    answer(host, "peer_receive", {"text": '{"v": 9}'})
    answer(host, "peer_reaction", {"reaction": "good_game"})


def run() -> dict[str, list[str]]:
    hello = call("hello", ok=True)["result"]
    for lang in ("en", "es", "ja"):
        call("hello", {"lang": lang})
        widgets(lang)
    seed = 1
    for level in hello["levels"]:
        for players in hello["options"]["players"]:
            play(players, level, seed, moves=40 if seed == 1 else 12)
            seed += 1
    call("new_game", {}, ok=True)  # a seed of the engine's own choosing
    later_endpoints()
    peer()
    errors()
    stdlib: set[str] = set()
    engine: set[str] = set()
    for name, module in list(sys.modules.items()):
        origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
        if origin.startswith(ZIP):
            stdlib.add(origin[len(ZIP):])
        if name == "bridge" or name == "cribbage" or name.startswith("cribbage."):
            engine.add(name)
    return {"stdlib": sorted(stdlib), "engine": sorted(engine)}


if __name__ == "__main__":
    with open("/tmp/modules.json", "w") as out:
        json.dump(run(), out)
