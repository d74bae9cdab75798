"""The game loop of the table (MicroPython, main thread).

The engine (Pyodide, in a worker) owns the game; this module sends the
human's moves, lets the computers move, takes in the engine's events (log,
pegs, the show), saves the game after every move and resumes it on reload.
"""

import asyncio
import json

import shell
import tablecoach
import tablestate as st
import tableview
from pyscript import document, window
from pyscript.ffi import create_proxy
from shell import i18n, t
from tablerender import (
    draw_board,
    log,
    move_pegs,
    relog,
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


def open_dialog(notice=None, values=None):
    """Show the new-game dialog (with an optional notice, the key of e.g. a bad save's)."""
    st.notice = (notice, values) if notice else None
    draw_notice()
    document.getElementById("game-over").hidden = True
    st.form.querySelector("[data-action=close-dialog]").hidden = st.view is None or (
        st.view["phase"] == "over")
    st.form.hidden = False
    st.table.setAttribute("data-dialog", "new-game")


def draw_notice():
    note = st.form.querySelector(".notice")
    note.hidden = st.notice is None
    note.textContent = t(st.notice[0], st.notice[1]) if st.notice else ""


def close_dialog():
    st.form.hidden = True
    st.table.removeAttribute("data-dialog")


def show_error(error):
    """Tell the player about an engine error; the page stays usable."""
    st.status.textContent = shell.error_text(error)
    st.table.setAttribute("data-error", error.get("kind", "internal"))


async def call(name, payload=None):
    """Call an engine function; returns (ok, result_or_error) and never raises."""
    try:
        text = await getattr(st.engine, name)(shell.request(payload))
    except Exception as error:  # the worker died or the call failed in transit
        return False, {"kind": "internal", "type": "WorkerError", "message": str(error)}
    return shell.parse_reply(text)


def reset_table(players, target):
    """Clear the table for a game: names, scores, board, log."""
    st.names = tableview.seat_names(players)
    teams = 2 if players == 4 else players
    st.pegs = [[0, -1] for _ in range(teams)]
    st.events_seen, st.deal_shows, st.selected, st.view = 0, [], [], None
    st.cut_events, st.claim_events, st.showing, st.over = [], [], None, None
    part(".log-lines").innerHTML = ""
    draw_board(target, players)
    part(".show-panel").hidden = True
    tablecoach.reset()


async def start_game():
    """Start a game from the dialog's settings."""
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
        print("The saved game was put aside:", error)  # the player gets the notice
        open_dialog("notice.unreadable")
        return
    ok, result = await call("load", {"save": game_text})
    if not ok:
        storage_set(st.SAVE_KEY, None)
        open_dialog("notice.unresumable", {"reason": shell.error_text(result)})
        return
    if result["phase"] == "over":
        storage_set(st.SAVE_KEY, None)
        return
    close_dialog()
    rules = st.settings["rules"]
    reset_table(rules["players"], rules["target"])
    await advance(replaying=True)


async def refresh(replaying=False):
    """Fetch the human's view and take in the events since the last look."""
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
    """Log one event and move the pegs; collect the show."""
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
    """Send the human's move; the engine says whether it was legal."""
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


def show_row(event):
    """One hand or crib of the show: whose, the cards, the count said aloud, the total."""
    seat = event["seat"]
    if event["kind"] == "crib":
        whose = t("crib.mine") if seat == st.HUMAN else t("crib.theirs", {"who": st.names[seat]})
    else:
        whose = t("show.hand.mine") if seat == st.HUMAN else t("show.hand",
                                                               {"who": st.names[seat]})
    cards = "".join(tableview.card_html(code) for code in event["cards"])
    total = event["points"] + event.get("refused", 0)
    return ('<li><span class="who">' + tableview.html(whose) + "</span>"
            + '<span class="cards">' + cards + "</span>"
            + '<span class="said">' + tableview.html(i18n.cadence(event["items"], shell.lang))
            + '</span><strong class="total">' + str(total) + "</strong></li>")


def draw_show():
    """The show panel with the hands shown so far (st.showing), in the page's language."""
    panel = part(".show-panel")
    panel.innerHTML = ("<h2>" + tableview.html(t("show.title")) + '</h2><p class="starter-line">'
                       + tableview.html(t("show.starter")) + " "
                       + tableview.card_html(st.last_starter) + "</p><ol>"
                       + "".join(show_row(event) for event in st.showing["shown"]) + "</ol>")


def draw_show_end():
    """Below the show: the review's place, Review and Continue, and the status line."""
    deal = st.showing["deal"]
    st.status.textContent = t("status.show")
    spot, button = tablecoach.review_button(deal)
    part(".show-panel").insertAdjacentHTML("beforeend", spot)
    part(".actions").innerHTML = button + ('<button type="button" data-action="continue">'
                                           + tableview.html(t("button.continue")) + "</button>")


async def present_show(shows):
    """Reveal each hand and the crib with its breakdown, then wait for Continue."""
    panel = part(".show-panel")
    st.table.setAttribute("data-phase", "show")
    st.showing = {"deal": shows[0]["deal"], "shown": [], "waiting": False}
    tablecoach.new_show()
    draw_show()
    rows = panel.querySelector("ol")
    panel.hidden = False
    for event in shows:
        st.showing["shown"].append(event)
        rows.insertAdjacentHTML("beforeend", show_row(event))
        if not manual_counting() and event["points"]:
            move_pegs(event["team"], event["points"])  # the pegs move as each hand is shown
            render_scores()
        await pause(0.6)
    st.continue_event = asyncio.Event()
    st.showing["waiting"] = True
    draw_show_end()
    if tablecoach.auto_review():
        part(".actions [data-action=review]").disabled = True
        asyncio.create_task(tablecoach.review(shows[0]["deal"]))
    await st.continue_event.wait()
    st.continue_event, st.showing = None, None
    panel.hidden = True
    part(".actions").innerHTML = ""


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
    st.over = {"outcome": outcome, "players": players, "tally": tally}
    dialog = document.getElementById("game-over")
    draw_game_over()
    tablecoach.game_over(dialog, outcome, players)
    part(".table-header [data-action=new-game]").hidden = True
    dialog.hidden = False


def draw_game_over():
    """The game-over headline, final scores and match tally in the page's language."""
    dialog = document.getElementById("game-over")
    outcome, players, tally = st.over["outcome"], st.over["players"], st.over["tally"]
    dialog.querySelector(".headline").textContent = tableview.outcome_text(outcome, players)
    dialog.querySelector(".final-scores").textContent = tableview.final_scores(
        outcome["scores"], players)
    dialog.querySelector(".tally").textContent = t("tally", {"won": tally["won"],
                                                             "lost": tally["lost"]})


def use_language(code, text):
    """Install the merged catalogue ``text`` (dist/lang/<code>.json) and speak it."""
    i18n.install(code, json.loads(text))
    shell.set_language(code)


def on_language(event):
    """The player picked another language (loading.mjs has translated the page's static
    words): draw everything Python wrote again, without touching the game."""
    window.performance.mark("cribbage:language-start")
    use_language(str(event.detail.lang), str(event.detail.text))
    redraw()
    window.performance.measure("cribbage:language-switch", "cribbage:language-start")


def redraw():
    """Draw again every text the table shows, in the page's language."""
    draw_notice()
    if st.view is None:
        return
    players, target = st.view["rules"]["players"], st.view["rules"]["target"]
    st.names = tableview.seat_names(players)
    draw_board(target, players)
    relog(tablecoach.game_events)
    if st.showing is None:
        render()  # not during the show: the table below it still shows the last deal
    else:
        render_scores()
        draw_show()
        if st.showing["waiting"]:
            busy = part(".actions [data-action=review]")
            disabled = busy is not None and busy.disabled
            draw_show_end()
            part(".actions [data-action=review]").disabled = disabled
    if st.over is not None:
        draw_game_over()
    tablecoach.redraw()


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
    """Wait for the engine worker, check it answers, then enable Start.

    engine.js started the worker at navigation and exposes it as
    window.cribbageEngine: each protocol function returns a JS promise of
    the reply text, which MicroPython awaits; its ``ready`` promise rejects
    if the engine cannot load (engine.js has then shown why). The worker's
    hello reply came with "ready", so the hello below needs no round trip.
    """
    try:
        st.engine = await window.cribbageEngine.ready
    except Exception as error:
        window.cribbageLoading.failed(t("loading.failed", {"reason": str(error)}))
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
