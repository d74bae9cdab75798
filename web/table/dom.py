"""The table's fixed DOM handles and the browser's storage (MicroPython, main thread).

Storage is reached only through :func:`storage_get`, :func:`storage_set` and
:func:`load` (a loader of stored.py checks every value read).

Nothing here changes during a game: the game's state lives in one
:class:`tablestate.TableState`, and the table's code reaches the page only
through a :class:`Dom`.
"""

import json

from pyscript import document, window
from stored import (  # noqa: F401  (the keys, for the table's modules and replay.py)
    ASIDE_PREFIX,
    FINISHED_KEY,
    SAVE_KEY,
    SETTINGS_KEY,
    SHOW_KEY,
    STATS_BOOKS_KEY,
    STATS_KEY,
    TALLY_KEY,
    VIEWER_KEY,
)


def next_turn():
    """A promise that settles in a later task of the browser's event loop.

    ``await asyncio.sleep(0)`` does not give the browser a turn: MicroPython's
    asyncio runs every ready task in one JS task. Awaiting this does, so the page
    can paint and take input between two pieces of work (uihost.mjs defines it).
    """
    return window.cribbageNextTurn()


class Dom:
    """The elements the table draws into, found once."""

    def __init__(self):
        self.table = document.getElementById("table")
        self.form = document.getElementById("new-game")
        self.start = self.form.querySelector("button[name=start]")
        self.status = self.table.querySelector(".status")
        self.game_over = document.getElementById("game-over")
        self.stats = document.getElementById("stats")
        self.header = self.table.querySelector(".table-header")
        self.forced_speed = url_speed()  # ?speed=N overrides the dialog (0: no animations)
        # Start takes a press from the moment the dialog is live (main.py); until the table
        # runs (TableGame.run sets on_start) and its engine is ready, the press is held.
        self.on_start = None
        self.start_held = False

    def hold_start(self):
        """Start pressed before the engine answered: the dialog gives way to the felt, where
        the deck is shuffled and the status says so, until the table deals (TableGame.run)."""
        self.start_held = True
        self.form.hidden = True
        self.table.removeAttribute("data-dialog")
        self.table.setAttribute("data-shuffling", "")
        note = self.status.querySelector(".shuffling-note")
        if note is not None:
            note.hidden = False

    def cannot_start(self):
        """The table or its engine cannot load: Start goes off, and a held press gives way to
        the dialog, which says why."""
        self.start.disabled = True
        if self.start_held:
            self.release_start(reopen=True)

    def release_start(self, reopen):
        """The held press is answered (a deal, a resumed game) or, with ``reopen``, cannot be
        (the engine failed): the shuffling stops and the dialog comes back to say why."""
        self.start_held = False
        self.table.removeAttribute("data-shuffling")
        note = self.status.querySelector(".shuffling-note")
        if note is not None:
            note.hidden = True
        if reopen:
            self.form.hidden = False
            self.table.setAttribute("data-dialog", "new-game")

    def part(self, selector):
        """The first element of the table matching ``selector``."""
        return self.table.querySelector(selector)


def form_values(form):
    """The new-game dialog's values as they are kept (``SETTINGS_KEY``): text, checkboxes as
    true/false, and ``more_options``: whether its More options are open."""
    values = {}
    for element in form.elements:
        if element.name:
            values[element.name] = (element.checked if element.type == "checkbox"
                                    else element.value)
    more = form.querySelector("details.more-options")
    if more is not None:
        values["more_options"] = more.open is True
    return values


def storage_get(key):
    """A localStorage value, or None (storage can be missing or blocked)."""
    text = window.cribbageStorage.get(key)
    return text if isinstance(text, str) and text else None


def storage_set(key, text):
    """Keep (or with None, forget) a localStorage value; True if the browser kept it.

    The write is made by uihost.mjs's cribbageStorage, which catches the browser's
    errors on the JavaScript side (full or blocked storage is no error here: the
    game goes on in memory, and the caller may say so).
    """
    return window.cribbageStorage.set(key, text) is True


def storage_keys():
    """Every key in localStorage ([] when it is blocked)."""
    try:
        keys = json.loads(str(window.cribbageStorage.keys()))
    except ValueError:
        return []
    return [key for key in keys if isinstance(key, str)] if isinstance(keys, list) else []


def load(key, loader):
    """The value stored under ``key`` read through ``loader`` (stored.py's loaders:
    text or None -> (value, problem)); a value dropped is said in the console."""
    return checked(key, storage_get(key), loader)


def checked(key, text, loader):
    """``text``, as read from ``key``, through ``loader``, as :func:`load` does (for a
    caller that needs the text itself too)."""
    value, problem = loader(text)
    if problem is not None:
        warn("Stored " + key + " dropped (" + problem + ")")
    return value


def warn(text):
    """A warning in the browser's console (not an error: the page goes on)."""
    window.console.warn(text)


def url_speed():
    """``?speed=N`` from the address (0 turns animations off); None if absent or bad."""
    return url_number("speed", 4)


def url_number(name, top):
    """``?name=N`` from the address when 0 <= N <= top; None if absent or bad."""
    query = str(window.location.search or "")
    for pair in query.lstrip("?").split("&"):
        if pair.startswith(name + "="):
            try:
                value = float(pair[len(name) + 1:])
            except ValueError:
                return None
            if 0 <= value <= top:
                return value
    return None
