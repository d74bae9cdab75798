"""The table UI's shared state and small helpers (MicroPython, main thread).

The UI is split over a few modules (main.py, tablerender.py, tablegame.py)
so that MicroPython compiles them in separate turns of the event loop and
no single main-thread task grows long; they share the game's state here.
"""

from pyscript import document, window

HUMAN = 0
SETTINGS_KEY = "cribbage.settings"
SAVE_KEY = "cribbage.save"
TALLY_KEY = "cribbage.tally"
COMPUTER_PAUSE = 0.3  # seconds before a computer's card shows, at normal speed

table = document.getElementById("table")
form = document.getElementById("new-game")
start = form.querySelector("button[name=start]")
status = table.querySelector(".status")
scores = table.querySelector(".scores")

engine = None        # window.cribbageEngine once it is ready
settings = None      # the game's settings (shell.settings_from_form)

# What the table shows, rebuilt from the engine's view after every move.
view = None          # the human seat's PlayerView as a dict
events_seen = 0      # how many of the game's events the table has taken in
names = ["You", "Computer"]
selected = []        # cards picked for the crib
pegs = []            # per score: [front, back]
deal_shows = []      # this deal's hand and crib events, for the show panel
last_starter = None  # the starter of the deal being shown
busy = False         # a move is on its way: ignore clicks
continue_event = None
cut_events = []      # the cuts for the first deal
cuts_fresh = False   # the cut has just decided the dealer: keep the cut cards in view
claim_events = []    # claims in manual counting (for muggins)
computer_moving = False  # a computer's move is on its way to the table
notice = None        # the dialog's notice: (catalogue key, values), or None
showing = None       # the show on screen: {"deal", "shown": [events], "waiting"}
over = None          # the game-over screen's facts: {"outcome", "players", "tally"}


def part(selector):
    return table.querySelector(selector)


def storage_get(key):
    """A localStorage value, or None (storage can be missing or blocked)."""
    try:
        text = window.localStorage.getItem(key)
    except Exception:
        return None
    return text if isinstance(text, str) and text else None


def storage_set(key, text):
    try:
        if text is None:
            window.localStorage.removeItem(key)
        else:
            window.localStorage.setItem(key, text)
    except Exception:
        pass  # private mode or full storage: the game goes on unsaved


def url_speed():
    """``?speed=N`` from the address (0 turns animations off); None if absent or bad."""
    query = str(window.location.search or "")
    for pair in query.lstrip("?").split("&"):
        if pair.startswith("speed="):
            try:
                value = float(pair[6:])
            except ValueError:
                return None
            if 0 <= value <= 4:
                return value
    return None


def speed():
    forced = url_speed()
    if forced is not None:
        return forced
    return settings["speed"] if settings else 1.0


def manual_counting():
    return settings["rules"]["manual_counting"] if settings else False
