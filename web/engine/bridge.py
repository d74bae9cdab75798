"""The engine worker's Python side: one :class:`cribbage.protocol.Session` per page.

``engine-worker.mjs`` imports this module in Pyodide, posts ``ENDPOINTS`` to the
page with its "ready" message (the page's client makes one method per name)
and answers each call with ``call(name, text)``. Every endpoint, and every
rule behind it, lives in the engine (:mod:`cribbage.protocol`); this module
only keeps the page's session.
"""

from cribbage.protocol import ENDPOINTS as _ENDPOINTS
from cribbage.protocol import Session

ENDPOINTS = list(_ENDPOINTS)
_session = Session()  # the game of this page: the worker serves one page


def reseed() -> None:
    """Draw ``random``'s state afresh: a restored memory snapshot holds the builder's.

    The worker calls this after restoring the build's snapshot, so that no two
    visitors share the random module's sequence (new games' seeds come from
    ``secrets``, which asks the browser's crypto at each call).
    """
    import random

    random.seed()


def call(name: str, text: str = "{}") -> str:
    """The JSON reply to one call (never raises: errors are replies too)."""
    return _session.call(name, text)
