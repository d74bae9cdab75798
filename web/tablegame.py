"""The game loop of the table (MicroPython, main thread).

The engine (Pyodide, in a worker) owns the game; this module sends the
human's moves, lets the computers move, takes in the engine's events (log,
pegs, the show), saves the game after every move and resumes it on reload.
"""

import asyncio
import json

import pegboard
import shell
import tablecoach
import tablestate as st
import tableview
from pyscript import document, window
from pyscript.ffi import create_proxy
from tablerender import (
    log,
    move_pegs,
    render,
    render_actions,
    render_hand,
    render_scores,
)
from tablestate import manual_counting, part, speed, storage_get, storage_set


async def pause(seconds):
    delay = seconds * speed()
    if delay > 0:
        await asyncio.sleep(delay)


def form_values():
    """The dialog's current values as a dict of strings (checkboxes as bool)."""
    values = {}
    for element in st.form.elements:
        name = element.name
        if not name:
            continue
        values[name] = element.checked if element.type == "checkbox" else element.value
    return values


def open_dialog(notice=None):
    """Show the new-game dialog (with an optional notice, e.g. a bad save)."""
    note = st.form.querySelector(".notice")
    note.hidden = not notice
    note.textContent = notice or ""
    document.getElementById("game-over").hidden = True
    st.form.querySelector("[data-action=close-dialog]").hidden = st.view is None or (
        st.view["phase"] == "over")
    st.form.hidden = False
    st.table.setAttribute("data-dialog", "new-game")


def close_dialog():
    st.form.hidden = True
    st.table.removeAttribute("data-dialog")


def show_error(error):
    """Tell the player about an st.engine error; the page stays usable."""
    st.status.textContent = shell.error_text(error)
    st.table.setAttribute("data-error", error.get("kind", "internal"))


async def call(name, payload=None):
    """Call an st.engine function; returns (ok, result_or_error) and never raises."""
    try:
        text = await getattr(st.engine, name)(shell.request(payload))
    except Exception as error:  # the worker died or the call failed in transit
        return False, {"kind": "internal", "type": "WorkerError", "message": str(error)}
    return shell.parse_reply(text)


def reset_table(players, target):
    """Clear the st.table for a game: st.names, st.scores, board, log."""
    st.names = tableview.seat_names(players)
    teams = 2 if players == 4 else players
    st.pegs = [[0, -1] for _ in range(teams)]
    st.events_seen, st.deal_shows, st.selected, st.view = 0, [], [], None
    st.cut_events, st.claim_events = [], []
    part(".log-lines").innerHTML = ""
    part(".board").innerHTML = pegboard.board_svg(target, tableview.score_names(players))
    part(".show-panel").hidden = True
    tablecoach.reset()


async def start_game():
    """Start a game from the dialog's st.settings."""
    values = form_values()
    st.settings = shell.settings_from_form(values)
    storage_set(st.SETTINGS_KEY, json.dumps(values))
    st.start.disabled = True
    ok, result = await call("new_game", {"rules": st.settings["rules"], "seat": st.HUMAN})
    st.start.disabled = False
    if not ok:
        show_error(result)
        return
    close_dialog()
    st.table.removeAttribute("data-error")
    rules = st.settings["rules"]
    reset_table(rules["players"], rules["target"])
    await advance()


async def save_game():
    """Keep the game in localStorage (called after every move)."""
    ok, result = await call("save")
    if ok:
        storage_set(st.SAVE_KEY, tableview.save_envelope(st.settings, result["save"]))


async def resume_saved():
    """Resume the game in localStorage, if any; a bad save starts fresh."""
    text = storage_get(st.SAVE_KEY)
    if text is None:
        return
    try:
        saved_settings, game_text = tableview.read_envelope(text)
        st.settings = shell.settings_from_saved(saved_settings)
    except ValueError as error:
        storage_set(st.SAVE_KEY, None)
        open_dialog("Your saved game could not be read (" + str(error) + "), so it was "
                    "put aside. Start a new game.")
        return
    ok, result = await call("load", {"save": game_text})
    if not ok:
        storage_set(st.SAVE_KEY, None)
        open_dialog("Your saved game could not be resumed (" + shell.error_text(result)
                    + "). Start a new game.")
        return
    if result["phase"] == "over":
        storage_set(st.SAVE_KEY, None)
        return
    close_dialog()
    rules = st.settings["rules"]
    reset_table(rules["players"], rules["target"])
    await advance(replaying=True)


async def refresh(replaying=False):
    """Fetch the human's st.view and take in the events since the last look."""
    ok, result = await call("view", {"seat": st.HUMAN, "events_from": st.events_seen})
    if not ok:
        show_error(result)
        return []
    st.view = result
    events = result["events"]
    st.events_seen = result["events_total"]
    for event in events:
        await take_in(event, replaying)
    return events


async def take_in(event, replaying):
    """Log one event and move the st.pegs; collect the show."""
    kind = event["kind"]
    tablecoach.take_in(event)
    text = tableview.event_text(event, st.names)
    log(text)
    if not replaying and (event.get("points") or kind in ("heels", "go_said", "muggins")):
        announce(text)
    if kind == "starter":
        st.last_starter = event["cards"][0]
    elif kind in ("hand", "crib"):
        st.deal_shows.append(event)
    elif kind == "deal" and replaying:
        st.deal_shows = []  # shows of earlier deals were seen before the reload
    elif kind == "cut":
        st.cut_events.append(event)
    elif kind == "dealer":
        st.cuts_fresh = not replaying
    elif kind == "claim":
        st.claim_events.append(event)
    shown_later = kind in ("hand", "crib") and not replaying and not manual_counting()
    if event.get("points") and event.get("team") is not None and not shown_later:
        move_pegs(event["team"], event["points"])
        render_scores()
        if not replaying:
            await pause(0.15)


async def advance(replaying=False):
    """Run the game until it is the human's turn (or the game is over)."""
    st.busy = True
    try:
        while True:
            events = await refresh(replaying)
            replaying = False
            if st.view is None:
                return
            await tablecoach.after_refresh(events)
            await save_game()  # before the show waits for Continue: a reload loses nothing
            if st.deal_shows and (st.view["phase"] == "over" or new_deal(events)):
                shows, st.deal_shows = st.deal_shows, []
                await present_show(shows)
            render()
            if st.computer_moving:
                window.performance.measure("cribbage:computer-move", "cribbage:computer-turn")
                st.computer_moving = False
            if st.cuts_fresh and any(event["kind"] == "dealer" for event in events):
                await pause(1.5)  # let the player see who cut lowest
            if st.view["phase"] == "over":
                await game_over()
                return
            if st.view["current_player"] == st.HUMAN:
                return
            await computer_turn()
    finally:
        st.busy = False


def new_deal(events):
    return any(event["kind"] == "deal" for event in events)


async def computer_turn():
    """Let the computer to move make its move, after a short pause."""
    seat = st.view["current_player"]
    window.performance.mark("cribbage:computer-turn")
    st.computer_moving = True  # advance() measures turn -> shown (bench/page_table.py)
    await pause(st.COMPUTER_PAUSE if st.view["phase"] in ("play", "starter", "cut") else 0.1)
    level = tableview.computer_level(st.settings, seat)
    ok, result = await call("computer_move", {"level": level})
    if not ok:
        show_error(result)
        await asyncio.sleep(1)


async def human_move(move):
    """Send the human's move; the st.engine says whether it was legal."""
    if st.busy:
        return
    st.busy, st.cuts_fresh = True, False
    ok, result = await call("apply_move", {"move": move})
    st.busy = False
    if not ok:
        show_error(result)
        return
    st.selected = []
    st.table.removeAttribute("data-error")
    tablecoach.hide_hint()
    await advance()


async def present_show(shows):
    """Reveal each hand and the crib with its breakdown, then wait for Continue."""
    panel = part(".show-panel")
    st.table.setAttribute("data-phase", "show")
    panel.innerHTML = ('<h2>The show</h2><p class="starter-line">Starter '
                       + tableview.card_html(st.last_starter) + "</p><ol></ol>")
    rows = panel.querySelector("ol")
    panel.hidden = False
    for event in shows:
        row = document.createElement("li")
        whose = st.names[event["seat"]] + ("'s crib" if event["kind"] == "crib" else "")
        if event["kind"] == "hand":
            whose = ("Your hand" if event["seat"] == st.HUMAN
                     else st.names[event["seat"]] + "'s hand")
        cards = "".join(tableview.card_html(code) for code in event["cards"])
        total = event["points"] + event.get("refused", 0)
        row.innerHTML = ('<span class="who">' + tableview.html(whose) + "</span>"
                         + '<span class="cards">' + cards + "</span>"
                         + '<span class="said">' + tableview.html(event["said"])
                         + '</span><strong class="total">' + str(total) + "</strong>")
        rows.append(row)
        if not manual_counting() and event["points"]:
            move_pegs(event["team"], event["points"])  # the st.pegs move as each hand is shown
            render_scores()
        await pause(0.6)
    st.continue_event = asyncio.Event()
    st.status.textContent = "The show. Press Continue for the next deal."
    spot, button = tablecoach.review_button(shows[0]["deal"])
    panel.insertAdjacentHTML("beforeend", spot)
    actions = part(".actions")
    actions.innerHTML = button + '<button type="button" data-action="continue">Continue</button>'
    if tablecoach.auto_review():
        actions.querySelector("[data-action=review]").disabled = True
        asyncio.create_task(tablecoach.review(shows[0]["deal"]))
    await st.continue_event.wait()
    st.continue_event = None
    panel.hidden = True
    actions.innerHTML = ""


async def game_over():
    """The game-over screen with the winner, the kind of win and the match tally."""
    outcome = st.view["outcome"]
    players = st.view["rules"]["players"]
    tally = tableview.read_tally(storage_get(st.TALLY_KEY))
    if storage_get(st.SAVE_KEY) is not None:  # count each game once, not again on reload
        side = "won" if outcome["winner"] == tableview.team_of(st.HUMAN, players) else "lost"
        tally[side] += outcome["game_points"]
        storage_set(st.TALLY_KEY, json.dumps(tally))
        storage_set(st.SAVE_KEY, None)
    dialog = document.getElementById("game-over")
    dialog.querySelector(".headline").textContent = tableview.outcome_text(outcome, players)
    final = [n + " " + str(s) for n, s in zip(tableview.score_names(players), outcome["scores"])]
    dialog.querySelector(".final-scores").textContent = ", ".join(final)
    dialog.querySelector(".tally").textContent = (
        "Match: you " + str(tally["won"]) + ", computer " + str(tally["lost"]) + " game points")
    tablecoach.game_over(dialog, outcome, players)
    part(".table-header [data-action=new-game]").hidden = True
    dialog.hidden = False


def on_click(event):
    target = event.target.closest("[data-action]")
    if not target or target.disabled:
        return
    action = target.getAttribute("data-action")
    if action == "new-game":
        open_dialog()
    elif action == "close-dialog":
        close_dialog()
    elif action == "continue":
        if st.continue_event is not None:
            st.continue_event.set()
    elif action in tablecoach.ACTIONS:
        tablecoach.on_action(action, target)
    elif st.view is None or st.busy:
        return
    elif action == "pick":
        pick(target.getAttribute("data-card"))
    elif action == "send":
        asyncio.create_task(human_move("discard " + " ".join(st.selected)))
    elif action == "play":
        asyncio.create_task(human_move("play " + target.getAttribute("data-card")))
    elif action in ("go", "cut", "muggins", "pass"):
        asyncio.create_task(human_move(action))
    elif action == "count":
        points = part(".actions input[name=points]").value
        asyncio.create_task(human_move("count " + str(points).strip()))


def pick(code):
    """Select or unselect a card for the crib."""
    need = 2 if st.view["rules"]["players"] == 2 else 1
    if code in st.selected:
        st.selected = [c for c in st.selected if c != code]
    elif need == 1:
        st.selected = [code]
    elif len(st.selected) < need:
        st.selected = st.selected + [code]
    render_hand()
    render_actions()


def on_submit(event):
    event.preventDefault()
    if st.engine is not None:
        asyncio.create_task(start_game())


async def connect():
    """Wait for the st.engine worker, check it answers, then enable Start.

    st.engine.js started the worker at navigation and exposes it as
    window.cribbageEngine: each protocol function returns a JS promise of
    the reply text, which MicroPython awaits; its ``ready`` promise rejects
    if the st.engine cannot load (st.engine.js has then shown why).
    """
    try:
        st.engine = await window.cribbageEngine.ready
    except Exception as error:
        window.cribbageLoading.failed(
            "The st.engine could not load: " + str(error) + " Reload to try again."
        )
        return
    ok, result = await call("hello")
    if not ok:
        window.cribbageLoading.failed(shell.error_text(result))
        return
    st.table.setAttribute("data-engine", "ready")
    st.table.setAttribute("aria-busy", "false")
    st.start.disabled = False
    window.cribbageLoading.ready()


async def run():
    """Wire the table's inputs, wait for the engine, resume a saved game."""
    st.form.addEventListener("submit", create_proxy(on_submit))
    st.table.addEventListener("click", create_proxy(on_click))
    await connect()
    if st.table.getAttribute("data-engine") == "ready":
        await resume_saved()


def announce(text):
    """Say a scoring (his heels, a go, fifteen two...) big on the table for a moment."""
    banner = part(".announce")
    line = document.createElement("span")
    line.className = "flash"  # a new element, so the CSS animation plays again
    line.textContent = text
    banner.innerHTML = ""
    banner.append(line)
