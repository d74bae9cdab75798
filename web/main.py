"""The page's UI on the main thread (MicroPython): wires the new-game dialog
to the engine worker. The full table comes with the table issue; this shell
renders the phase, the scores and a status line.

Pure logic lives in shell.py (tested under CPython); this file only touches
the DOM. It sticks to what MicroPython supports (see shared/DESIGN.md).
"""

import asyncio

import shell
from pyscript import document, window, workers
from pyscript.ffi import create_proxy

HUMAN = 0

table = document.getElementById("table")
form = document.getElementById("new-game")
start = form.querySelector("button[name=start]")
status = table.querySelector(".status")
scores = table.querySelector(".scores")
engine = None
settings = None


def form_values():
    """The dialog's current values as a dict of strings (checkboxes as bool)."""
    values = {}
    for element in form.elements:
        name = element.name
        if not name:
            continue
        values[name] = element.checked if element.type == "checkbox" else element.value
    return values


def show_error(error):
    """Tell the player about an engine error; the page stays usable."""
    status.textContent = shell.error_text(error)
    table.setAttribute("data-error", error.get("kind", "internal"))


async def call(name, payload=None):
    """Call an engine function; returns (ok, result_or_error) and never raises."""
    try:
        text = await getattr(engine, name)(shell.request(payload))
    except Exception as error:  # the worker died or the call failed in transit
        return False, {"kind": "internal", "type": "WorkerError", "message": str(error)}
    return shell.parse_reply(text)


def render(state):
    """Show a protocol state on the table."""
    table.setAttribute("data-phase", shell.table_phase(state["phase"]))
    scores.innerHTML = ""
    for seat, points in enumerate(state["scores"]):
        item = document.createElement("span")
        item.className = "score"
        item.setAttribute("data-score", str(points))
        item.textContent = ("You" if seat == HUMAN else "Computer") + " " + str(points)
        scores.append(item)
    status.textContent = shell.status_text(state, HUMAN)


async def start_game():
    """Start a game from the dialog's settings."""
    global settings
    settings = shell.settings_from_form(form_values())
    start.disabled = True
    ok, result = await call("new_game", {"rules": settings["rules"], "seat": HUMAN})
    start.disabled = False
    if not ok:
        show_error(result)
        return
    form.hidden = True
    table.removeAttribute("data-error")
    render(result)


def on_submit(event):
    event.preventDefault()
    if engine is not None:
        asyncio.create_task(start_game())


async def connect():
    """Wait for the engine worker, check it answers, then enable Start."""
    global engine
    try:
        engine = await workers["engine"]
    except Exception as error:
        window.cribbageLoading.failed(
            "The engine could not load: " + str(error) + " Reload to try again."
        )
        return
    ok, result = await call("hello")
    if not ok:
        window.cribbageLoading.failed(shell.error_text(result))
        return
    window.cribbageEngine = engine  # for page scripts, tests and the benchmark
    table.setAttribute("data-engine", "ready")
    table.setAttribute("aria-busy", "false")
    start.disabled = False
    window.cribbageLoading.ready()


form.addEventListener("submit", create_proxy(on_submit))
table.setAttribute("data-phase", "setup")
window.performance.mark("cribbage:ui-ready")
asyncio.create_task(connect())
