"""Fair deals: commitments to each deck before it is dealt, and the secrets after.

A player can check that the computer did not stack the deck: before a deal,
the page shows a SHA-256 of the deck order and a secret salt
(:meth:`Game.deal_commitment <cribbage.game.Game.deal_commitment>`); after
the deal it reveals the salt and the deck, and anyone can hash them again.

>>> import hashlib
>>> from cribbage.game import Game
>>> game = Game.new(seed=9)          # cutting for the deal: nothing dealt yet
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

from __future__ import annotations

import hashlib
import json
from typing import Any

from .game import Game


def deal_proofs(game: Game) -> dict[str, Any]:
    """Commitments for the current and next deal, and the secrets of finished deals.

    ``sealed`` holds the deal in progress and the next one (the next deck is
    fixed before any of its cards is dealt); ``revealed`` every finished deal.
    A scripted first deal has no deck to commit to and is left out. ``game``
    is a short id of the game's setup, the same after a take-back or a resignation (the
    page's statistics and match tally count each game once, in any number of tabs).
    """
    current = game.deal_number
    finished = current if game.phase == "over" else current - 1
    first = 2 if "script" in game.setup else 1  # a scripted deal was given, not shuffled

    def proof(deal: int, reveal: bool) -> dict[str, Any]:
        entry: dict[str, Any] = {"deal": deal, "commitment": game.deal_commitment(deal)}
        if reveal:
            salt, deck = game.deal_secret(deal)
            entry.update(salt=salt, deck=deck)
        return entry

    sealed = [] if game.phase == "over" else [
        proof(deal, False) for deal in (current, current + 1) if deal >= first]
    revealed = [proof(deal, True) for deal in range(first, finished + 1)]
    # The id names the game, not its course: a take-back or a resignation (kept in the
    # setup) must not make a finished game count twice.
    setup = json.dumps({key: value for key, value in game.setup.items()
                        if key not in ("undos", "resigned")}, sort_keys=True)
    return {"game": hashlib.sha256(setup.encode()).hexdigest()[:16], "deal": current,
            "sealed": [entry for entry in sealed if entry["deal"] > finished],
            "revealed": revealed}
