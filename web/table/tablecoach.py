"""The coach, the fair-deal line and the statistics at the table (MicroPython, main thread).

Hint (the coach's ranked choices on the human's turn), the review of a deal in
the show panel, the game-over summary, the "Fair deal" commitments and the
Statistics panel. The pure parts are in coachview.py and statsview.py.
"""

import asyncio
import json

import coachview
import shell
import statsview
import tablestate as st
import tableview
from pyscript import document
from shell import t
from tablestate import part, storage_get, storage_set

STATS_KEY = "cribbage.stats"
ACTIONS = ("hint", "review", "stats", "stats-reset", "stats-close")

game_events = []    # every event of this game, as the table took them in
game_id = None      # the engine's short id of this game (statistics count it once)
proof_deal = None   # the deal the fair-deal line was last drawn for
hint_busy = False
# What the coach's panels show, kept to draw them again in another language:
last_proof = None   # the last deal_proof result
hint_shown = None   # ("thinking", None) / ("error", error) / ("advice", (advice, count))
review_shown = None  # the same for the review in the show panel


async def call(name, payload=None):
    """Call an engine function; (ok, result_or_error), never raises."""
    try:
        text = await getattr(st.engine, name)(shell.request(payload))
    except Exception as error:
        return False, {"kind": "internal", "type": "WorkerError", "message": str(error)}
    return shell.parse_reply(text)


def reset():
    """A new (or resumed) game: forget the last one's events and proofs."""
    global game_events, game_id, proof_deal, last_proof, review_shown
    game_events, game_id, proof_deal, last_proof, review_shown = [], None, None, None, None
    hide_hint()
    fair = part(".fair")
    fair.hidden = True
    fair.querySelector("summary").textContent = ""
    fair.querySelector(".fair-body").innerHTML = ""


def take_in(event):
    game_events.append(event)


# --- fair deals -------------------------------------------------------------------


async def update_fair():
    """Show the commitments of the deal in progress and the next one; reveal finished deals."""
    global game_id, proof_deal, last_proof
    ok, proof = await call("deal_proof")
    if not ok:
        return
    game_id, proof_deal = proof["game"], (proof["deal"], st.view["phase"] == "over")
    last_proof = proof
    draw_fair(proof)


def draw_fair(proof):
    fair = part(".fair")
    summary = fair.querySelector("summary")
    summary.textContent = coachview.fair_summary(proof)
    sealed = proof["sealed"]
    if sealed:
        summary.setAttribute("data-deal", str(sealed[0]["deal"]))
        summary.setAttribute("data-commitment", sealed[0]["commitment"])
    fair.querySelector(".fair-body").innerHTML = coachview.fair_html(proof)
    fair.hidden = False


async def after_refresh(events):
    """After the table took in new events: fair-deal line, statistics of finished deals."""
    if st.view is None:
        return
    over = st.view["phase"] == "over"
    if game_id is None or proof_deal != (st.view["deal_number"], over):
        await update_fair()
    finished = [event["deal"] - 1 for event in events
                if event["kind"] == "deal" and event["deal"] > 1]
    if finished and game_id is not None:
        stats = read_stats()
        changed = False
        for deal in finished:
            changed = statsview.add_deal(stats, game_id, deal, game_events, st.HUMAN) or changed
        if changed:
            write_stats(stats)


# --- hint and review ----------------------------------------------------------------


def hide_hint():
    global hint_shown
    hint_shown = None
    panel = part(".coach-panel")
    panel.hidden = True
    panel.innerHTML = ""


async def hint():
    """Ask the coach about the human's discard or play and show its ranking."""
    global hint_busy
    if hint_busy:
        return
    hint_busy = True
    panel = part(".coach-panel")
    show_hint("thinking", None)
    panel.hidden = False
    seen, count = st.events_seen, st.view["count"]
    ok, result = await call("advise", {"seat": st.HUMAN})
    hint_busy = False
    if seen != st.events_seen or panel.hidden:  # the game moved on meanwhile
        return
    if not ok:
        show_hint("error", result)
        return
    show_hint("advice", (result, count))
    panel.setAttribute("data-kind", result["kind"])


def coach_html(shown, thinking_key):
    """A coach panel's content: thinking, an error, or the coach's answer."""
    what, data = shown
    if what == "thinking":
        return "<p>" + tableview.html(t(thinking_key)) + "</p>"
    if what == "error":
        return "<p>" + tableview.html(shell.error_text(data)) + "</p>"
    if thinking_key == "coach.thinking":
        return coachview.advice_html(data[0], data[1])
    return coachview.review_html(data)


def show_hint(what, data):
    global hint_shown
    hint_shown = (what, data)
    part(".coach-panel").innerHTML = coach_html(hint_shown, "coach.thinking")


def auto_review():
    box = st.form.querySelector("input[name=review]")
    return bool(box and box.checked)


async def review(deal):
    """The coach's review of the human's choices in a deal, in the show panel."""
    show = part(".show-panel")
    spot = show.querySelector(".review-spot")
    if spot is None:
        return
    show_review("thinking", None)
    ok, result = await call("review", {"seat": st.HUMAN, "deal": deal})
    show_review("review" if ok else "error", result)


def show_review(what, data):
    global review_shown
    review_shown = (what, data)
    spot = part(".show-panel .review-spot")
    if spot is not None:
        spot.innerHTML = coach_html(review_shown, "coach.reviewing")


def new_show():
    """A new show: nothing reviewed in it yet."""
    global review_shown
    review_shown = None


def review_button(deal):
    """The show panel's Review button and the place its review goes."""
    return ('<div class="review-spot"></div>', '<button type="button" class="quiet" '
            'data-action="review" data-deal="' + str(deal) + '">'
            + tableview.html(t("button.review")) + "</button>")


# --- game over and statistics ---------------------------------------------------------


def read_stats():
    return statsview.read_stats(storage_get(STATS_KEY))


def write_stats(stats):
    storage_set(STATS_KEY, json.dumps(stats))


def game_over(dialog, outcome, players):
    """Fill the game-over summary and count the game in the statistics (once)."""
    draw_summary(dialog, players)
    if game_id is None:
        return
    levels = [tableview.computer_level(st.settings, seat) for seat in range(1, players)]
    stats = read_stats()
    statsview.note_best_hand(stats, game_events, st.HUMAN)
    statsview.add_game(stats, game_id, statsview.level_key(levels), outcome,
                       tableview.team_of(st.HUMAN, players))
    write_stats(stats)


def draw_summary(dialog, players):
    teams = 2 if players == 4 else players
    totals = coachview.points_by_source(game_events, teams)
    dialog.querySelector(".summary").innerHTML = coachview.summary_html(
        totals, tableview.score_names(players))


def redraw():
    """Draw the coach's panels, the fair-deal line and open dialogs in the page's language."""
    if last_proof is not None:
        draw_fair(last_proof)
    if hint_shown is not None and not part(".coach-panel").hidden:
        show_hint(hint_shown[0], hint_shown[1])
    if review_shown is not None and st.showing is not None:
        show_review(review_shown[0], review_shown[1])
    if st.over is not None:
        draw_summary(document.getElementById("game-over"), st.over["players"])
    if not document.getElementById("stats").hidden:
        show_stats()


def show_stats():
    dialog = document.getElementById("stats")
    dialog.querySelector(".stats-body").innerHTML = statsview.stats_html(read_stats())
    dialog.hidden = False


def on_action(action, target):
    """A click on one of the coach's or the statistics' buttons."""
    if action == "hint":
        if st.view is not None and not st.busy:
            asyncio.create_task(hint())
    elif action == "review":
        target.disabled = True
        asyncio.create_task(review(int(target.getAttribute("data-deal"))))
    elif action == "stats":
        show_stats()
    elif action == "stats-reset":
        storage_set(STATS_KEY, None)
        show_stats()
    elif action == "stats-close":
        document.getElementById("stats").hidden = True
