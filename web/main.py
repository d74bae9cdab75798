"""The game table on the main thread (MicroPython).

The engine (Pyodide, in a worker) owns the game; this file renders the
human seat's view and sends the human's moves back, lets the computers move
through the engine, animates the pegs, shows the show, and keeps the game in
localStorage after every move so a reload resumes it.

Pure logic lives in shell.py, tableview.py and pegboard.py (tested under
CPython); this file only touches the DOM. It sticks to what MicroPython
supports (see shared/DESIGN.md).
"""

import asyncio
import json

import pegboard
import shell
import tableview
from pyscript import document, window, workers
from pyscript.ffi import create_proxy

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
engine = None
settings = None

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


# --- small DOM helpers ------------------------------------------------------------


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


async def pause(seconds):
    delay = seconds * speed()
    if delay > 0:
        await asyncio.sleep(delay)


# --- the dialog and settings --------------------------------------------------------


def form_values():
    """The dialog's current values as a dict of strings (checkboxes as bool)."""
    values = {}
    for element in form.elements:
        name = element.name
        if not name:
            continue
        values[name] = element.checked if element.type == "checkbox" else element.value
    return values


def restore_form():
    """Put the last used settings back into the dialog."""
    text = storage_get(SETTINGS_KEY)
    if text is None:
        return
    try:
        values = json.loads(text)
    except ValueError:
        return
    if not isinstance(values, dict):
        return
    for element in form.elements:
        name = element.name
        if name in values:
            if element.type == "checkbox":
                element.checked = values[name] is True
            elif isinstance(values[name], str):
                element.value = values[name]
    show_level_choices()


def show_level_choices(event=None):
    """Show one level choice per computer."""
    players = int(form.querySelector("select[name=players]").value)
    for label in form.querySelectorAll(".more-levels"):
        four = label.classList.contains("four-only")
        label.hidden = players < 3 or (four and players < 4)


def open_dialog(notice=None):
    """Show the new-game dialog (with an optional notice, e.g. a bad save)."""
    note = form.querySelector(".notice")
    note.hidden = not notice
    note.textContent = notice or ""
    document.getElementById("game-over").hidden = True
    form.querySelector("[data-action=close-dialog]").hidden = view is None or (
        view["phase"] == "over")
    form.hidden = False
    table.setAttribute("data-dialog", "new-game")


def close_dialog():
    form.hidden = True
    table.removeAttribute("data-dialog")


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


# --- starting, saving, resuming --------------------------------------------------------


def reset_table(players, target):
    """Clear the table for a game: names, scores, board, log."""
    global names, pegs, events_seen, deal_shows, selected, view, cut_events, claim_events
    names = tableview.seat_names(players)
    teams = 2 if players == 4 else players
    pegs = [[0, -1] for _ in range(teams)]
    events_seen, deal_shows, selected, view = 0, [], [], None
    cut_events, claim_events = [], []
    part(".log-lines").innerHTML = ""
    part(".board").innerHTML = pegboard.board_svg(target, tableview.score_names(players))
    part(".show-panel").hidden = True


async def start_game():
    """Start a game from the dialog's settings."""
    global settings
    values = form_values()
    settings = shell.settings_from_form(values)
    storage_set(SETTINGS_KEY, json.dumps(values))
    start.disabled = True
    ok, result = await call("new_game", {"rules": settings["rules"], "seat": HUMAN})
    start.disabled = False
    if not ok:
        show_error(result)
        return
    close_dialog()
    table.removeAttribute("data-error")
    rules = settings["rules"]
    reset_table(rules["players"], rules["target"])
    await advance()


async def save_game():
    """Keep the game in localStorage (called after every move)."""
    ok, result = await call("save")
    if ok:
        storage_set(SAVE_KEY, tableview.save_envelope(settings, result["save"]))


async def resume_saved():
    """Resume the game in localStorage, if any; a bad save starts fresh."""
    global settings
    text = storage_get(SAVE_KEY)
    if text is None:
        return
    try:
        saved_settings, game_text = tableview.read_envelope(text)
        settings = shell.settings_from_saved(saved_settings)
    except ValueError as error:
        storage_set(SAVE_KEY, None)
        open_dialog("Your saved game could not be read (" + str(error) + "), so it was "
                    "put aside. Start a new game.")
        return
    ok, result = await call("load", {"save": game_text})
    if not ok:
        storage_set(SAVE_KEY, None)
        open_dialog("Your saved game could not be resumed (" + shell.error_text(result)
                    + "). Start a new game.")
        return
    if result["phase"] == "over":
        storage_set(SAVE_KEY, None)
        return
    close_dialog()
    rules = settings["rules"]
    reset_table(rules["players"], rules["target"])
    await advance(replaying=True)


# --- the game loop -------------------------------------------------------------------


async def refresh(replaying=False):
    """Fetch the human's view and take in the events since the last look."""
    global view, events_seen
    ok, result = await call("view", {"seat": HUMAN, "events_from": events_seen})
    if not ok:
        show_error(result)
        return []
    view = result
    events = result["events"]
    events_seen = result["events_total"]
    for event in events:
        await take_in(event, replaying)
    return events


async def take_in(event, replaying):
    """Log one event and move the pegs; collect the show."""
    global deal_shows, last_starter, cuts_fresh
    kind = event["kind"]
    log(tableview.event_text(event, names))
    if kind == "starter":
        last_starter = event["cards"][0]
    elif kind in ("hand", "crib"):
        deal_shows.append(event)
    elif kind == "deal" and replaying:
        deal_shows = []  # shows of earlier deals were seen before the reload
    elif kind == "cut":
        cut_events.append(event)
    elif kind == "dealer":
        cuts_fresh = not replaying
    elif kind == "claim":
        claim_events.append(event)
    shown_later = kind in ("hand", "crib") and not replaying and not manual_counting()
    if event.get("points") and event.get("team") is not None and not shown_later:
        move_pegs(event["team"], event["points"])
        render_scores()
        if not replaying:
            await pause(0.15)


def manual_counting():
    return settings["rules"]["manual_counting"] if settings else False


def move_pegs(team, points):
    front, back = pegs[team]
    pegs[team] = list(pegboard.leapfrog(front, back, front + points))
    draw_pegs(team)


def draw_pegs(team):
    target = view["rules"]["target"] if view else settings["rules"]["target"]
    tracks = len(pegs)
    front, back = pegs[team]
    for which, points in (("front", front), ("back", back)):
        peg = document.getElementById("peg-" + str(team) + "-" + which)
        if peg:
            peg.style.transform = pegboard.peg_transform(target, tracks, team, points)


def log(text):
    item = document.createElement("li")
    item.textContent = text
    lines = part(".log-lines")
    lines.append(item)
    lines.scrollTop = lines.scrollHeight


async def advance(replaying=False):
    """Run the game until it is the human's turn (or the game is over)."""
    global busy, deal_shows, computer_moving
    busy = True
    try:
        while True:
            events = await refresh(replaying)
            replaying = False
            if view is None:
                return
            await save_game()  # before the show waits for Continue: a reload loses nothing
            if deal_shows and (view["phase"] == "over" or new_deal(events)):
                shows, deal_shows = deal_shows, []
                await present_show(shows)
            render()
            if computer_moving:
                window.performance.measure("cribbage:computer-move", "cribbage:computer-turn")
                computer_moving = False
            if cuts_fresh and any(event["kind"] == "dealer" for event in events):
                await pause(1.5)  # let the player see who cut lowest
            if view["phase"] == "over":
                await game_over()
                return
            if view["current_player"] == HUMAN:
                return
            await computer_turn()
    finally:
        busy = False


def new_deal(events):
    return any(event["kind"] == "deal" for event in events)


async def computer_turn():
    """Let the computer to move make its move, after a short pause."""
    global computer_moving
    seat = view["current_player"]
    window.performance.mark("cribbage:computer-turn")
    computer_moving = True  # advance() measures turn -> shown (bench/page_table.py)
    await pause(COMPUTER_PAUSE if view["phase"] in ("play", "starter", "cut") else 0.1)
    level = tableview.computer_level(settings, seat)
    ok, result = await call("computer_move", {"level": level})
    if not ok:
        show_error(result)
        await asyncio.sleep(1)


async def human_move(move):
    """Send the human's move; the engine says whether it was legal."""
    global busy, selected, cuts_fresh
    if busy:
        return
    busy, cuts_fresh = True, False
    ok, result = await call("apply_move", {"move": move})
    busy = False
    if not ok:
        show_error(result)
        return
    selected = []
    table.removeAttribute("data-error")
    await advance()


async def present_show(shows):
    """Reveal each hand and the crib with its breakdown, then wait for Continue."""
    global continue_event
    panel = part(".show-panel")
    table.setAttribute("data-phase", "show")
    panel.innerHTML = ('<h2>The show</h2><p class="starter-line">Starter '
                       + tableview.card_html(last_starter) + "</p><ol></ol>")
    rows = panel.querySelector("ol")
    panel.hidden = False
    for event in shows:
        row = document.createElement("li")
        whose = names[event["seat"]] + ("'s crib" if event["kind"] == "crib" else "")
        if event["kind"] == "hand":
            whose = "Your hand" if event["seat"] == HUMAN else names[event["seat"]] + "'s hand"
        cards = "".join(tableview.card_html(code) for code in event["cards"])
        total = event["points"] + event.get("refused", 0)
        row.innerHTML = ('<span class="who">' + tableview.html(whose) + '</span><span class="cards">'
                         + cards + '</span><span class="said">' + tableview.html(event["said"])
                         + '</span><strong class="total">' + str(total) + "</strong>")
        rows.append(row)
        if not manual_counting() and event["points"]:
            move_pegs(event["team"], event["points"])  # the pegs move as each hand is shown
            render_scores()
        await pause(0.6)
    continue_event = asyncio.Event()
    status.textContent = "The show. Press Continue for the next deal."
    actions = part(".actions")
    actions.innerHTML = '<button type="button" data-action="continue">Continue</button>'
    await continue_event.wait()
    continue_event = None
    panel.hidden = True
    actions.innerHTML = ""


async def game_over():
    """The game-over screen with the winner, the kind of win and the match tally."""
    outcome = view["outcome"]
    players = view["rules"]["players"]
    tally = tableview.read_tally(storage_get(TALLY_KEY))
    if storage_get(SAVE_KEY) is not None:  # count each game once, not again on reload
        side = "won" if outcome["winner"] == tableview.team_of(HUMAN, players) else "lost"
        tally[side] += outcome["game_points"]
        storage_set(TALLY_KEY, json.dumps(tally))
        storage_set(SAVE_KEY, None)
    dialog = document.getElementById("game-over")
    dialog.querySelector(".headline").textContent = tableview.outcome_text(outcome, players)
    final = [n + " " + str(s) for n, s in zip(tableview.score_names(players), outcome["scores"])]
    dialog.querySelector(".final-scores").textContent = ", ".join(final)
    dialog.querySelector(".tally").textContent = (
        "Match: you " + str(tally["won"]) + ", computer " + str(tally["lost"]) + " game points")
    part(".table-header [data-action=new-game]").hidden = True
    dialog.hidden = False


# --- rendering ---------------------------------------------------------------------------


def render():
    """Draw the whole table from the human's view."""
    phase = view["phase"]
    table.setAttribute("data-phase", shell.table_phase(phase))
    part(".table-header [data-action=new-game]").hidden = phase == "over"
    render_scores()
    render_opponents()
    render_centre()
    render_hand()
    render_actions()
    status.textContent = status_line()


def render_scores():
    """The scores as the pegs show them (they catch up with the engine's as events
    are taken in and the show is revealed)."""
    players = view["rules"]["players"]
    parts_html = []
    for team, name in enumerate(tableview.score_names(players)):
        points = str(pegs[team][0])
        parts_html.append('<span class="score team-' + str(team) + '">' + tableview.html(name)
                          + ' <b data-score="' + points + '">' + points + "</b></span>")
    scores.innerHTML = "".join(parts_html)


def render_opponents():
    players = view["rules"]["players"]
    panels = []
    for seat in range(1, players):
        marks = ""
        if view["dealer"] == seat:
            marks += '<span class="dealer-mark" title="Dealer">D</span>'
        if seat in view["said_go"]:
            marks += '<span class="bubble">Go!</span>'
        turn = " turn" if view["current_player"] == seat else ""
        level = tableview.computer_level(settings, seat)
        panels.append('<div class="opponent' + turn + '" data-seat="' + str(seat) + '">'
                      + '<div class="seat-name">' + tableview.html(names[seat]) + " <small>"
                      + level + "</small>" + marks + "</div>"
                      + '<div class="hand small">' + tableview.backs_html(view["hand_sizes"][seat])
                      + "</div>" + cut_card(seat) + "</div>")
    part(".opponents").innerHTML = "".join(panels)
    human = part(".seat-human .seat-name")
    human_marks = ' <span class="dealer-mark" title="Dealer">D</span>' if view["dealer"] == HUMAN else ""
    human.innerHTML = "You" + human_marks + cut_card(HUMAN)


def cut_card(seat):
    """The card a seat cut for the first deal, while the cut is on the table."""
    if view["phase"] != "cut" and not cuts_fresh:
        return ""
    cards = [event["cards"][0] for event in cut_events if event["seat"] == seat]
    if not cards:
        return ""
    return '<span class="cut-card">' + tableview.card_html(cards[-1]) + "</span>"


def render_centre():
    starter = view["starter"]
    part(".starter").innerHTML = tableview.card_html(starter) if starter else ""
    count = view["count"]
    in_play = view["phase"] == "play"
    part(".count").textContent = ("Count " + str(count)) if in_play else ""
    pile_seats = [seat for seat, _ in view["played"][len(view["played"]) - len(view["pile"]):]]
    pile = []
    for seat, code in zip(pile_seats, view["pile"]):
        pile.append('<span class="played" title="' + tableview.html(names[seat]) + '">'
                    + tableview.card_html(code) + "</span>")
    part(".pile").innerHTML = "".join(pile)
    crib_owner = "Your crib" if view["dealer"] == HUMAN else names[view["dealer"]] + "'s crib"
    part(".crib-spot").innerHTML = ('<div class="crib-cards">' + tableview.backs_html(
        min(view["crib_size"], 4)) + '</div><small>' + tableview.html(crib_owner) + "</small>")


def render_hand():
    phase = view["phase"]
    legal = view["legal_moves"]
    cards = []
    for code in view["hand"]:
        if phase == "discard":
            enabled = view["current_player"] == HUMAN
            cards.append(tableview.card_html(code, "pick", enabled, code in selected))
        else:
            cards.append(tableview.card_html(code, "play", ("play " + code) in legal))
    if phase in ("count", "muggins") or (phase == "play" and not view["hand"]):
        cards = [tableview.card_html(code) for code in view["kept"]]
    part(".seat-human .hand").innerHTML = "".join(cards)


def render_actions():
    phase = view["phase"]
    mine = view["current_player"] == HUMAN
    legal = view["legal_moves"]
    buttons = []
    if phase in ("cut", "starter") and mine:
        buttons.append('<button type="button" data-action="cut">Cut</button>')
    if phase == "discard":
        need = view["rules"]["players"] == 2 and 2 or 1
        ready = mine and len(selected) == need
        buttons.append('<button type="button" data-action="send"' + ("" if ready else " disabled")
                       + ">Send to crib</button>")
    if phase == "play":
        can_go = mine and legal == ["go"]
        buttons.append('<button type="button" data-action="go"' + ("" if can_go else " disabled")
                       + ">Go</button>")
    if phase == "count" and mine:
        buttons.append('<label class="claim">Points <input type="number" name="points" min="0" '
                       'max="29" value="0" inputmode="numeric"></label>'
                       '<button type="button" data-action="count">Count</button>')
    if phase == "muggins" and mine:
        buttons.append('<button type="button" data-action="muggins">Muggins!</button>'
                       '<button type="button" data-action="pass">Accept</button>')
    part(".actions").innerHTML = "".join(buttons)


def status_line():
    phase = view["phase"]
    seat = view["current_player"]
    if phase == "over":
        return "Game over."
    if seat != HUMAN:
        who = names[seat] if seat is not None else ""
        return who + (" is thinking…" if phase in ("discard", "play") else "…")
    if phase == "cut":
        return "Cut the cards: the lowest card deals."
    if phase == "discard":
        first = ""
        if cuts_fresh:
            first = ("You cut lowest and deal. " if view["dealer"] == HUMAN
                     else names[view["dealer"]] + " cut lowest and deals. ")
        need = 2 if view["rules"]["players"] == 2 else 1
        whose = "your" if view["dealer"] == HUMAN else names[view["dealer"]] + "'s"
        return (first + "Choose " + str(need) + " card" + ("s" if need > 1 else "") + " for "
                + whose + " crib.")
    if phase == "starter":
        return "Cut the deck for the starter."
    if phase == "play":
        if view["legal_moves"] == ["go"]:
            return "No card fits under 31: say Go."
        return "Your turn: play a card (count " + str(view["count"]) + ")."
    if phase == "count":
        counting = "your crib" if "crib" in view["shown"] and view["dealer"] == HUMAN else "your hand"
        return "Count " + counting + " and enter the points."
    if phase == "muggins":
        claim = [e for e in claim_events if e["seat"] != HUMAN]
        said = (names[claim[-1]["seat"]] + " claimed " + str(claim[-1]["count"]) + ". ") if claim else ""
        return said + "Did they miss points? Call Muggins! or accept."
    return ""


# --- input -----------------------------------------------------------------------------


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
        if continue_event is not None:
            continue_event.set()
    elif view is None or busy:
        return
    elif action == "pick":
        pick(target.getAttribute("data-card"))
    elif action == "send":
        asyncio.create_task(human_move("discard " + " ".join(selected)))
    elif action == "play":
        asyncio.create_task(human_move("play " + target.getAttribute("data-card")))
    elif action in ("go", "cut", "muggins", "pass"):
        asyncio.create_task(human_move(action))
    elif action == "count":
        points = part(".actions input[name=points]").value
        asyncio.create_task(human_move("count " + str(points).strip()))


def pick(code):
    """Select or unselect a card for the crib."""
    global selected
    need = 2 if view["rules"]["players"] == 2 else 1
    if code in selected:
        selected = [c for c in selected if c != code]
    elif need == 1:
        selected = [code]
    elif len(selected) < need:
        selected = selected + [code]
    render_hand()
    render_actions()


def on_submit(event):
    event.preventDefault()
    if engine is not None:
        asyncio.create_task(start_game())


async def connect():
    """Wait for the engine worker, check it answers, then enable Start.

    engine.js started the worker at navigation and exposes it as
    window.cribbageEngine: each protocol function returns a JS promise of
    the reply text, which MicroPython awaits; its ``ready`` promise rejects
    if the engine cannot load (engine.js has then shown why).
    """
    global engine
    try:
        engine = await window.cribbageEngine.ready
    except Exception as error:
        window.cribbageLoading.failed(
            "The engine could not load: " + str(error) + " Reload to try again."
        )
        return
    ok, result = await call("hello")
    if not ok:
        window.cribbageLoading.failed(shell.error_text(result))
        return
    table.setAttribute("data-engine", "ready")
    table.setAttribute("aria-busy", "false")
    start.disabled = False
    window.cribbageLoading.ready()


async def boot():
    """Wait for the engine, then resume a saved game if there is one."""
    await connect()
    if table.getAttribute("data-engine") == "ready":
        await resume_saved()


form.addEventListener("submit", create_proxy(on_submit))
form.querySelector("select[name=players]").addEventListener(
    "change", create_proxy(show_level_choices))
table.addEventListener("click", create_proxy(on_click))
restore_form()
show_level_choices()
table.setAttribute("data-speed", "0" if url_speed() == 0 else "1")
table.setAttribute("data-phase", "setup")
window.performance.mark("cribbage:ui-ready")
asyncio.create_task(boot())
