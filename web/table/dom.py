"""The table's fixed DOM handles and the browser's storage (MicroPython, main thread).

Nothing here changes during a game: the game's state lives in one
:class:`tablestate.TableState`, and the table's code reaches the page only
through a :class:`Dom`.
"""

from pyscript import document, window

SETTINGS_KEY = "cribbage.settings"
SAVE_KEY = "cribbage.save"
FINISHED_KEY = "cribbage.finished"  # the last game finished at the table (for its replay)
TALLY_KEY = "cribbage.tally"
STATS_KEY = "cribbage.stats"
STATS_BOOKS_KEY = "cribbage.stats.books"  # names with statistics of their own (pass-and-play)
VIEWER_KEY = "cribbage.viewer"  # pass-and-play: the seat whose person last had the device
SHOW_KEY = "cribbage.showing"  # the deal whose show waits for Continue (a reload shows it again)


def next_turn():
    """A promise that settles in a later task of the browser's event loop.

    ``await asyncio.sleep(0)`` does not give the browser a turn: MicroPython's
    asyncio runs every ready task in one JS task. Awaiting this does, so the page
    can paint and take input between two pieces of work (ui.mjs defines it).
    """
    return window.cribbageNextTurn()


class Dom:
    """The elements the table draws into, found once."""

    def __init__(self):
        self.table = document.getElementById("table")
        self.form = document.getElementById("new-game")
        self.start = self.form.querySelector("button[name=start]")
        self.status = self.table.querySelector(".status")
        self.scores = self.table.querySelector(".scores")
        self.game_over = document.getElementById("game-over")
        self.stats = document.getElementById("stats")
        self.header = self.table.querySelector(".table-header")
        self.forced_speed = url_speed()  # ?speed=N overrides the dialog (0: no animations)

    def part(self, selector):
        """The first element of the table matching ``selector``."""
        return self.table.querySelector(selector)


def storage_get(key):
    """A localStorage value, or None (storage can be missing or blocked)."""
    try:
        text = window.localStorage.getItem(key)
    except Exception:
        return None
    return text if isinstance(text, str) and text else None


def storage_set(key, text):
    """Keep (or with None, forget) a localStorage value; a full or blocked store is no error."""
    try:
        if text is None:
            window.localStorage.removeItem(key)
        else:
            window.localStorage.setItem(key, text)
    except Exception:
        pass  # private mode or full storage: the game goes on unsaved


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
