"""The game loop of the table (MicroPython, main thread).

The engine (Pyodide, in a worker) owns the game. A :class:`TableGame` sends
the human's moves and lets the computers move; every move is ONE call whose
reply (an *update*: the human's new view with its new events, the save text
and the fair-deal proof) is all the table needs to redraw, save and resume.
The table's memory is one :class:`tablestate.TableState`; drawing is
tablerender.py's (state in, DOM out).
"""

import asyncio
import json

import handoffview
import shell
import stored
import tablemotion
import tableview
import tabsync
from dom import (
    FINISHED_KEY,
    SAVE_KEY,
    SETTINGS_KEY,
    SHOW_KEY,
    TALLY_KEY,
    VIEWER_KEY,
    checked,
    form_values,
    load,
    storage_get,
    storage_set,
)
from handoff import Handoff, names_and_sides, undo_allowed
from peertable import ACTIONS as PEER_ACTIONS
from peertable import PeerTable
from pyscript import document, window
from pyscript.ffi import create_proxy, to_js
from shell import i18n
from tablecoach import ACTIONS, TableCoach
from tableinput import TableInput
from tablerender import (
    call_points,
    discard_at_once,
    draw_board,
    lay_at_once,
    log,
    mark_selected,
    move_pegs,
    paint_board,
    press_at_once,
    relog,
    render,
    render_actions,
    render_opponents,
    render_scores,
    scroll_log,
    set_text,
    show_play,
)
from tablereview import ACTIONS as REVIEW_ACTIONS
from tablereview import TableReview
from tablesaves import ACTIONS as SAVES_ACTIONS
from tablesaves import TableSaves
from tableshow import TableShow
from tablestate import COMPUTER_PAUSE, PILE_STAYS
from tabs import Tabs


class TableGame(TableInput):
    """One table: the dialogs, the game loop and the clicks, over one state object."""

    def __init__(self, dom, state):
        self.dom = dom
        self.state = state
        state.busy_changed = self.on_busy
        self.coach = TableCoach(dom, state, self.call)
        self.show = TableShow(dom, state, self)  # the show, on the felt and in its panel
        self.review = TableReview(dom, state, self.call, self)  # the whole game's review
        self.handoff = Handoff(dom, state, self)  # pass-and-play: the device changes hands
        self.tabs = Tabs(dom, self)  # one game, one writer: other tabs of the site follow
        self.saves = TableSaves(dom, state, self)  # the save, saves set aside, backups
        self.friend = PeerTable(dom, state, self)  # a friend on another device

    @property
    def words(self):
        """The page's words (a language switch replaces them)."""
        return self.state.words

    def on_busy(self, busy):
        """A move on its way is part of the automation contract (update.mjs waits for
        calm); once none is, a friend's update that came meanwhile is drawn."""
        self.dom.table.toggleAttribute("data-busy", busy)
        if not busy:
            self.friend.idle()

    # --- the engine -------------------------------------------------------------

    async def call(self, name, payload=None):
        """Call an engine endpoint; returns (ok, result_or_error) and never raises."""
        if self.friend.routes(name):  # the friend's seat moves on the friend's device
            return await self.friend.call(name, payload)
        try:
            text = await getattr(self.state.engine, name)(shell.request(payload))
        except Exception as error:  # the worker died or the call failed in transit
            return False, {"kind": "internal", "type": "WorkerError", "message": str(error)}
        return shell.parse_reply(text)

    def update_request(self, payload):
        """A move's request, asking for the viewer's view from the events not yet seen."""
        payload.update(seat=self.state.viewer, events_from=self.state.events_seen, proof=True)
        return payload

    async def pause(self, seconds):
        delay = seconds * self.speed()
        if delay > 0:
            await asyncio.sleep(delay)

    def speed(self):
        forced = self.dom.forced_speed
        if forced is not None:
            return forced
        return self.state.settings["speed"] if self.state.settings else 1.0

    # --- dialogs ----------------------------------------------------------------

    def form_values(self):
        """The dialog's current values as a dict of strings (checkboxes as bool)."""
        return form_values(self.dom.form)

    def open_dialog(self, notice=None, values=None):
        """Show the new-game dialog (with an optional notice, the key of e.g. a bad save's)."""
        self.state.notice = (notice, values) if notice else None
        self.draw_notice()
        self.review.close()
        self.dom.game_over.hidden = True
        view = self.state.view
        in_game = not (view is None or view["phase"] == "over")
        self.dom.form.querySelector("[data-action=close-dialog]").hidden = not in_game
        self.dom.form.querySelector("[data-action=resign]").hidden = not in_game
        self.dom.stats.hidden = True
        self.dom.form.hidden = False
        self.dom.table.setAttribute("data-dialog", "new-game")
        self.place_dialogs()
        if view is not None or notice:  # opened by the player: focus goes into the dialog
            level = self.dom.form.querySelector("select[name=level]")
            first = self.dom.start if level.closest("label").hidden else level
            first.focus(to_js({"preventScroll": True}))

    def draw_notice(self):
        note = self.dom.form.querySelector(".notice")
        notice = self.state.notice
        note.hidden = notice is None
        note.textContent = self.words.t(notice[0], notice[1]) if notice else ""
        self.saves.draw_notice_offer(notice)

    def close_dialog(self):
        self.dom.form.hidden = True
        self.dom.table.removeAttribute("data-dialog")
        self.settle_focus()

    def show_error(self, error):
        """Tell the player about an engine error; the page stays usable."""
        self.dom.status.textContent = shell.error_text(self.words, error)
        self.dom.table.setAttribute("data-error", error.get("kind", "internal"))

    # --- starting, saving, resuming -----------------------------------------------

    def begin(self, settings, view):
        """Clear the table for a game whose first view is ``view``."""
        state = self.state
        names, sides = names_and_sides(self.words, settings, view)
        state.new_game(settings, names, view["teams"])
        state.sides, state.viewer, state.you = sides, view["seat"], handoffview.you(settings)
        state.view = view  # the board's facts (skunk lines) before the first update
        # A resumed game may open on its show, before anything else is drawn: the way to
        # resign or leave is there from the start.
        self.dom.part(".table-header [data-action=new-game]").hidden = False
        self.dom.part(".log-lines").innerHTML = ""
        draw_board(self.dom, state)
        self.coach.reset()

    async def start_game(self):
        """Start a game from the dialog's settings."""
        values = self.form_values()
        settings = shell.settings_from_form(values, self.state.hello)
        settings["seats"] = handoffview.seats_from_form(values, settings["rules"]["players"])
        if not handoffview.people(settings):
            self.open_dialog("notice.no_person")
            return
        storage_set(SETTINGS_KEY, json.dumps(values))
        notice = shell.variant_notice(settings, self.state.hello)
        if notice is not None:  # e.g. seven-card with three players: nothing starts
            self.open_dialog(notice[0], notice[1])
            return
        self.dom.start.disabled = True
        await self.friend.leave()  # one game at a time: a game with a friend is left
        viewer = handoffview.first_viewer(settings)
        ok, result = await self.call("new_game", {"rules": settings["rules"], "seat": viewer,
                                                  "proof": True})
        self.dom.start.disabled = False
        if not ok:
            self.show_error(result)
            return
        self.tabs.take()  # this tab writes the new game (another tab's game gives way)
        storage_set(SHOW_KEY, None)
        storage_set(VIEWER_KEY, None)
        self.close_dialog()
        self.dom.table.removeAttribute("data-error")
        self.begin(settings, result["view"])
        self.handoff.first = True  # with several people, the first to decide gets the device
        await self.advance(result)

    def save(self, save_text):
        """Keep the game in localStorage (after every move: a reload loses nothing), unless
        another tab has moved it on (tabs.py: this tab then steps aside); when storage
        refuses, the game goes on and the table says so (tablesaves.py). A game with a
        friend on another device is kept by peertable.py."""
        if self.friend.started:
            self.friend.save(save_text)
            return
        self.saves.save(self.state.settings, save_text, self.tabs.write)

    async def resume_saved(self):
        """Resume the game in localStorage, if any. A save the page cannot load is set
        aside, never deleted, and the dialog says how to get it back. ``#table
        [data-resume]`` then says what happened: none, resumed, set-aside or finished."""
        outcome, update = await self.resume_from(storage_get(SAVE_KEY))
        self.dom.table.setAttribute("data-resume", outcome)
        if update is not None:
            self.handoff.first = True  # with several people: never back to someone's open cards
            await self.advance(update, replaying=True)

    async def resume_from(self, text):
        """Load the stored save ``text``: (what happened, the engine's update to resume)."""
        if text is None:
            return "none", None
        self.tabs.take()  # the game continues in this tab (any other tab steps aside)
        era = self.tabs.era
        try:
            saved_settings, game_text = tableview.read_envelope(text)
            settings = shell.settings_from_saved(saved_settings, self.state.hello)
            settings["seats"] = handoffview.saved_seats(saved_settings,
                                                        settings["rules"]["players"])
        except ValueError as error:
            newer = getattr(error, "newer", False) is True
            self.saves.put_aside(text, str(error), newer)
            self.open_dialog("notice.newer" if newer else "notice.unreadable")
            return "set-aside", None
        viewer = self.handoff.saved_viewer(settings)
        ok, result = await self.call("load", {"save": game_text, "seat": viewer, "proof": True})
        if self.tabs.stale(era):  # a newer save is being loaded meanwhile
            return "none", None
        if not ok:
            self.saves.put_aside(text, result.get("message") or "", False)
            self.open_dialog("notice.unresumable", {"reason": shell.error_text(self.words, result)})
            return "set-aside", None
        if result["phase"] == "over":  # kept as the last finished game (replay.html)
            if storage_set(FINISHED_KEY, text):
                storage_set(SAVE_KEY, None)
            return "finished", None
        self.close_dialog()
        self.begin(settings, result["view"])
        # The save was taken while a show waited for Continue.
        self.state.resume_show = load(SHOW_KEY, stored.load_deal)
        return "resumed", result

    # --- the game loop --------------------------------------------------------------

    async def advance(self, update, replaying=False):
        """Take in an engine update, then run the game until it is the human's turn.

        ``update`` is the reply to a move (or to new_game/load): it holds the human's
        view with the events the table has not seen, the save and the proof.
        """
        state = self.state
        state.busy = True
        era = self.tabs.era
        try:
            while True:
                if self.tabs.stale(era):  # another tab has the game: this one stops here
                    return
                events = await self.take_update(update, replaying)
                if self.tabs.stale(era):  # its save was refused: another tab moved it on
                    return
                resumed, replaying = replaying, False
                self.coach.take_proof(update.get("proof"))
                self.coach.count_finished_deals(events)
                if any(event["kind"] == "resign" for event in events):
                    state.deal_shows = []  # a resigned game has no show to finish
                if state.deal_shows and (state.view["phase"] == "over" or deal_done(state)):
                    shows, state.deal_shows = state.deal_shows, []
                    await self.show.present(shows, pegs_moved=resumed)
                    if self.tabs.stale(era):
                        return
                state.resume_show = None
                passed_to = self.handoff.target()
                if passed_to is not None:  # another person decides next: hand the device over
                    update = await self.handoff.pass_to(passed_to)
                    if update is None:
                        return
                    continue
                state.auto_going = state.my_turn() and self.auto_go()
                render(self.dom, state)
                self.draw_motion(events, resumed)
                self.settle_focus()
                window.performance.mark("cribbage:table-drawn")  # bench/page_move.py reads it
                self.handoff.offer_muggins()
                if state.computer_moving:
                    window.performance.measure("cribbage:computer-move",
                                               "cribbage:computer-turn")
                    state.computer_moving = False
                if state.cut_pause and any(event["kind"] == "dealer" for event in events):
                    self.end_cut(1.5 * self.speed())  # who cut lowest stays a moment in view
                if state.view["phase"] == "over":
                    await self.game_over()
                    return
                if state.auto_going:
                    set_text(self.dom.status, self.words.t("status.auto_go"))
                    await self.pause(0.5)
                    update = await self.send("go")
                elif state.my_turn():
                    return
                else:
                    update = await self.computer_turn()
                if update is None:
                    return
        finally:
            state.busy = False

    def draw_motion(self, events, resumed):
        """The deck for the cut, and the moves of the cards just dealt or played (none for
        a game resumed: its cards are already on the table)."""
        tablemotion.draw_deck(self.dom, self.state)
        if resumed or self.state.handing_off is not None:
            return
        kinds = [event["kind"] for event in events]
        if "deal" in kinds:
            tablemotion.deal_in(self.dom, self.speed())
        plays = [event for event in events if event["kind"] == "play" and event.get("cards")]
        if plays:
            tablemotion.play_in(self.dom, self.speed(), plays[-1]["seat"] == self.state.viewer)

    def end_cut(self, seconds):
        """Both cut cards and who deals stay on the felt for ``seconds``, then leave: the
        game goes on meanwhile (the player may choose their discards at once)."""
        tablemotion.show_dealer(self.dom, self.state)
        if seconds <= 0:
            self.cut_cleared()
        else:
            asyncio.create_task(self.clear_cut_later(seconds))

    async def clear_cut_later(self, seconds):
        await asyncio.sleep(seconds)
        self.cut_cleared()

    def cut_cleared(self):
        """The cut cards and the banner leave the table."""
        state = self.state
        tablemotion.clear_dealer(self.dom)
        if not state.cut_pause:  # already gone (a handoff took them)
            return
        state.cut_pause = False
        if state.view is not None and state.handing_off is None and state.showing is None:
            render_opponents(self.dom, state)

    def auto_go(self):
        """Say Go for the human when Go is all they may do (the dialog's option, on by
        default; not during a claim or muggins, which are the player's own calls)."""
        view = self.state.view
        box = self.dom.form.querySelector("input[name=auto_go]")
        return (box is not None and box.checked and view["phase"] == "play"
                and view["legal_moves"] == ["go"])

    async def send(self, move):
        """Send a move the table makes for the human; its update, or None after an error."""
        ok, result = await self.call("apply_move", self.update_request({"move": move}))
        if not ok:
            self.show_error(result)
            return None
        return result

    async def take_update(self, update, replaying):
        """Keep the view and the save of an update; log its new events and move the pegs."""
        state = self.state
        view = update["view"]
        self.save(update["save"])  # before the show waits for Continue: a reload loses nothing
        state.can_undo = update.get("can_undo") is True and undo_allowed(state.settings)
        state.undos = update.get("undos", state.undos)
        state.view = view
        state.events_seen = view["events_total"]
        for event in view["events"]:
            await self.take_in(event, replaying)
        return view["events"]

    async def take_in(self, event, replaying):
        """Log one event and move the pegs; collect the show."""
        state = self.state
        kind = event["kind"]
        state.coach.game_events.append(event)
        text = tableview.event_text(self.words, event, state.names, state.you)
        log(self.dom, text, kind)
        shown_later = kind in ("hand", "crib") and not replaying and not state.manual_counting()
        if kind == "play" and event.get("cards") and event.get("count") is not None:
            if replaying:
                state.lay(event)  # the pile is drawn with the table
            else:
                show_play(self.dom, state, event)  # the pile shows the card before its points
                self.sound("play")
        elif kind in ("go", "last card", "peg"):  # points for the last card laid
            if replaying:
                state.call(event)
            else:
                call_points(self.dom, state, event)
        if kind == "deal":
            state.pile, state.pile_count = [], 0  # the last deal's pile leaves with it
            if not replaying:
                self.dom.part(".announce").innerHTML = ""  # the last deal's words leave too
        if not replaying and not shown_later and (
                event.get("points") or kind in ("heels", "go_said", "muggins")):
            self.announce(text)
            if event.get("points"):
                self.sound("peg")
        if kind == "starter":
            state.last_starter = event["cards"][0]
        elif kind in ("hand", "crib"):
            state.deal_shows.append(event)
        elif kind == "deal" and replaying and state.resume_show != event["deal"] - 1:
            state.deal_shows = []  # shows of earlier deals were seen before the reload
        elif kind == "cut":
            state.cut_events.append(event)
        elif kind == "dealer":
            state.cuts_fresh = state.cut_pause = not replaying
        elif kind == "claim":
            state.claim_events.append(event)
        if event.get("points") and event.get("team") is not None and not shown_later:
            move_pegs(state, event["team"], event["points"])
            render_scores(self.dom, state)
            if not replaying:
                await self.pause(0.15)

    async def computer_turn(self):
        """Let the computer to move make its move, after a short pause; its update."""
        state = self.state
        seat = state.view["current_player"]
        window.performance.mark("cribbage:computer-turn")
        state.computer_moving = True  # advance() measures turn -> shown (bench/page_table.py)
        pause = COMPUTER_PAUSE if state.view["phase"] in ("play", "starter", "cut") else 0.1
        if state.view["phase"] == "play" and state.pile_finished():
            pause = PILE_STAYS  # the finished pile and its points are read before the next lead
        await self.pause(pause)
        level = tableview.computer_level(state.settings, seat)
        ok, result = await self.call("computer_move", self.update_request({"level": level}))
        if not ok:
            self.show_error(result)
            await asyncio.sleep(1)
            return None
        return result

    async def human_move(self, move):
        """Send the human's move; the engine says whether it was legal."""
        state = self.state
        if state.busy:
            return
        state.busy, state.cuts_fresh = True, False
        self.handoff.stop_countdown()
        window.performance.mark("cribbage:human-move")
        laid = self.move_at_once(move)
        ok, result = await self.call("apply_move", self.update_request({"move": move}))
        state.busy = False
        if not ok:
            if laid:  # the card goes back to the hand: the table as the engine has it
                state.pile_drawn = None
                render(self.dom, state)
            self.show_error(result)
            return
        state.selected = []
        self.dom.table.removeAttribute("data-error")
        self.coach.hide_hint()
        await self.advance(result)

    def move_at_once(self, move):
        """Draw the person's move before the engine answers (a card on the pile, a discard
        in the crib, Go pressed): a move feels made within a frame. Returns whether the
        table was changed, to draw it again as the engine has it if the move is refused."""
        kind, _, cards = move.partition(" ")
        if kind == "play":
            return lay_at_once(self.dom, self.state, cards)
        if kind == "discard":
            return discard_at_once(self.dom, self.state, cards.split())
        if kind == "go":
            press_at_once(self.dom, self.state, "go")
            return True
        return False

    # --- game over -------------------------------------------------------------------

    async def game_over(self):
        """The game-over screen with the winner, the kind of win and the match tally."""
        state = self.state
        outcome = state.view["outcome"]
        text = storage_get(TALLY_KEY)  # read once: the totals and the games counted
        tally = checked(TALLY_KEY, text, stored.load_tally)
        if self.tabs.owns_save():  # count each game once: not on reload, nor in another tab
            alone = handoffview.only_person(state.settings)
            game, counted = state.coach.game_id, tabsync.tally_games(text)
            if alone is not None and game not in counted:  # you against the computers
                side = "won" if outcome["winner"] == state.team_of(alone) else "lost"
                tally[side] += outcome["game_points"]
                storage_set(TALLY_KEY, tabsync.tally_json(tally, counted, game))
            # replay.html can show it; the save stays until that copy is stored
            if storage_set(FINISHED_KEY, storage_get(SAVE_KEY)):
                storage_set(SAVE_KEY, None)
        state.over = {"outcome": outcome, "tally": tally}
        self.draw_game_over()
        self.coach.game_over(outcome)
        self.dom.part(".table-header [data-action=new-game]").hidden = True
        self.dom.stats.hidden = True
        self.dom.game_over.hidden = False
        self.place_dialogs()
        # It opens at its top, the winner's banner; New game, always in view at its foot
        # (style.css), takes the focus without scrolling the dialog to it.
        self.dom.game_over.scrollTop = 0
        self.dom.game_over.querySelector("[data-action=new-game]").focus(
            to_js({"preventScroll": True}))

    def draw_game_over(self):
        """The game-over headline, final scores and match tally in the page's language."""
        state, dialog = self.state, self.dom.game_over
        outcome, tally = state.over["outcome"], state.over["tally"]
        names = state.sides
        partners = state.view["teams"] < state.view["rules"]["players"]
        my_team = None if state.you is None else state.team_of(state.you)
        dialog.querySelector(".headline").textContent = tableview.outcome_text(self.words,
            outcome, names, my_team, partners)
        # A short celebration when a person at the device won (style.css; never with
        # reduced motion or ?speed=0).
        dialog.toggleAttribute("data-won", my_team is None or outcome["winner"] == my_team)
        dialog.querySelector(".final-scores").textContent = tableview.final_scores(self.words,
            outcome["scores"], names)
        shared = handoffview.pass_and_play(state.settings)
        dialog.querySelector(".tally").hidden = shared
        dialog.querySelector(".tally").textContent = "" if shared else (
            tableview.tally_text(self.words, tally, state.view["rules"]["players"],
                                 state.view["teams"]))
        undos = dialog.querySelector(".undos")
        undos.hidden = not state.undos
        undos.textContent = self.words.t("over.undos", {"count": state.undos})
        ending = self.friend.ending()  # a friend who resigned or left says so
        line = dialog.querySelector(".peer-ending")
        line.hidden = ending is None
        line.textContent = self.words.t("peer.ending." + ending) if ending else ""
        line.setAttribute("data-ending", ending or "")
        self.friend.draw_over()  # the match score, and the rematch on offer

    # --- language ----------------------------------------------------------------------

    def use_language(self, code, text):
        """Install the merged catalogue ``text`` (dist/lang/<code>.json) and speak it."""
        i18n.install(code, json.loads(text))
        self.state.words = shell.Words(code)

    def on_language(self, event):
        """The player picked another language (loading.mjs has translated the page's
        static words): draw everything Python wrote again, without touching the game."""
        window.performance.mark("cribbage:language-start")
        self.use_language(str(event.detail.lang), str(event.detail.text))
        self.redraw()
        self.place_dialogs()
        window.performance.measure("cribbage:language-switch", "cribbage:language-start")

    def redraw(self):
        """Draw again every text the table shows, in the page's language."""
        state = self.state
        self.draw_notice()
        if state.view is None:
            if state.hello is not None:
                asyncio.create_task(self.draw_idle_board())
            return
        state.names, state.sides = names_and_sides(self.words, state.settings, state.view)
        draw_board(self.dom, state)
        relog(self.dom, state, state.coach.game_events)
        state.pile_drawn = None  # the points called on the pile, in the new language
        if state.showing is None:
            render(self.dom, state)  # not during the show: the table below still shows the deal
            tablemotion.draw_deck(self.dom, state)
        else:
            render_scores(self.dom, state)
            self.show.redraw()
        if state.over is not None:
            self.draw_game_over()
        self.friend.draw_match()
        self.coach.redraw()
        self.review.redraw()
        self.handoff.redraw()
        self.saves.redraw()

    # --- the player's input -------------------------------------------------------------

    def on_click(self, event):
        target = event.target.closest("[data-action]")
        if not target or target.hasAttribute("disabled"):
            return
        close_menu(target)
        state = self.state
        action = target.getAttribute("data-action")
        if self.tabs.away:  # another tab has the game: only Continue here works
            if action == "continue-here":
                asyncio.create_task(self.tabs.continue_here())
            return
        if action == "new-game":
            self.open_dialog()
        elif action == "close-dialog":
            self.close_dialog()
        elif action == "resign":
            asyncio.create_task(self.resign())
        elif action == "stats":
            self.open_stats(target)
        elif action == "stats-close":
            self.close_stats()
        elif action == "show-cards":
            self.handoff.show_cards()
        elif action == "continue":
            if state.continue_event is not None:
                state.continue_event.set()
        elif action == "show-tab":  # another count of the show (also while it is counted)
            self.show.select(int(target.getAttribute("data-index")))
        elif action == "show-item":  # an entry of a counted list: its cards light again
            self.show.light_entry(target)
        elif action in ACTIONS:
            self.coach.on_action(action, target)
        elif action in REVIEW_ACTIONS:
            self.review.on_action(action, target)
        elif action in SAVES_ACTIONS:
            self.saves.on_action(action, target)
        elif action in PEER_ACTIONS:
            self.friend.on_action(action, target)
        elif action == "pick" and state.view is not None and state.view["phase"] == "discard":
            self.pick(target.getAttribute("data-card"))  # choosing sends nothing: never held back
        elif state.view is None or state.busy:
            return
        elif action == "send":
            asyncio.create_task(self.human_move("discard " + " ".join(state.selected)))
        elif action == "undo":
            asyncio.create_task(self.take_back())
        elif action == "play":
            asyncio.create_task(self.human_move("play " + target.getAttribute("data-card")))
        elif action in ("go", "cut", "muggins", "pass"):
            asyncio.create_task(self.human_move(action))
        elif action == "count":
            points = self.dom.part(".actions input[name=points]").value
            asyncio.create_task(self.human_move("count " + str(points).strip()))

    def pick(self, code):
        """Select or unselect a card for the crib (as many as the view says go to it)."""
        state = self.state
        need = state.view["discards_each"]
        if code in state.selected:
            state.selected = [c for c in state.selected if c != code]
        elif need == 1:
            state.selected = [code]
        elif len(state.selected) < need:
            state.selected = state.selected + [code]
        mark_selected(self.dom, state)  # in place: focus and a double click stay on it
        render_actions(self.dom, state)
        card = self.dom.part('.seat-human button.card[data-card="' + code + '"]')
        if len(state.selected) == need:  # the hand is chosen: on to its action
            self.settle_focus(force=True)
        elif card is not None:
            card.focus()

    def on_start(self):
        """Start pressed (main.py's handler): a new game, or held until the engine answers."""
        if self.tabs.away:
            return
        if self.dom.table.getAttribute("data-engine") != "ready":  # set once hello answered
            if not self.dom.start_held:
                self.dom.hold_start()
            return
        asyncio.create_task(self.start_game())

    async def deal_held_start(self):
        """Answer a Start pressed before the engine was ready: deal a new game, unless the
        page resumed the player's saved game or joined a friend meanwhile (a press must
        never replace a game in progress)."""
        resumed = self.dom.table.getAttribute("data-resume") == "resumed"
        self.dom.release_start(reopen=False)
        if not resumed and not self.friend.started and self.state.view is None:
            await self.start_game()

    async def connect(self):
        """Wait for the engine worker, check it answers, then enable Start.

        engine.js started the worker at navigation and loading.mjs exposes its
        client (engine-client.mjs) as window.cribbageEngine: each endpoint
        returns a JS promise of the reply
        text, which MicroPython awaits; its ``ready`` promise rejects if the
        engine cannot load. The worker's hello reply came with "ready", so the
        hello below needs no round trip.
        """
        try:
            self.state.engine = await window.cribbageEngine.ready
        except Exception as error:
            self.dom.cannot_start()
            window.cribbageLoading.failed(self.words.t("loading.failed", {"reason": str(error)}))
            return
        ok, result = await self.call("hello")
        if not ok:
            self.dom.cannot_start()
            window.cribbageLoading.failed(shell.error_text(self.words, result))
            return
        self.state.hello = result
        self.offer_levels(result["levels"])
        self.offer_variants(result["options"]["cards"])
        self.dom.table.setAttribute("data-engine", "ready")
        self.dom.table.setAttribute("aria-busy", "false")
        self.dom.start.disabled = False
        window.cribbageLoading.ready()

    def offer_levels(self, levels):
        """Fill each level choice with the engine's levels, keeping what was chosen."""
        for select in self.dom.form.querySelectorAll("select.level-choice"):
            chosen = select.value
            saved = saved_settings().get(select.name)
            select.innerHTML = "".join(
                '<option value="' + tableview.html(level) + '" data-i18n="ui.level.'
                + tableview.html(level) + '">'
                + tableview.html(tableview.level_name(self.words, level)) + "</option>"
                for level in levels)
            for value in (saved, chosen, "standard"):
                if value in levels:
                    select.value = value
                    break

    def offer_variants(self, offered):
        """Keep only the numbers of cards dealt the engine offers in the dialog."""
        for option in self.dom.form.querySelectorAll("select[name=cards] option"):
            if int(option.value) not in offered:
                option.remove()

    async def run(self):
        """Wire the table's inputs, wait for the engine, resume a saved game."""
        self.tabs.listen()
        self.dom.on_start = self.on_start
        self.dom.table.addEventListener("click", create_proxy(self.on_click))
        self.dom.table.addEventListener("dblclick", create_proxy(self.on_double))
        self.dom.table.addEventListener("dragstart", create_proxy(self.on_drag_start))
        self.dom.table.addEventListener("dragover", create_proxy(self.on_drag_over))
        self.dom.table.addEventListener("drop", create_proxy(self.on_drop))
        self.dom.table.addEventListener("dragend", create_proxy(self.on_drag_end))
        document.addEventListener("keydown", create_proxy(self.on_key))
        self.dom.part("details.log").addEventListener("toggle", create_proxy(
            lambda event: scroll_log(self.dom) if self.dom.part("details.log").open else None))
        self.dom.stats.addEventListener("change", create_proxy(self.coach.on_change))
        self.dom.stats.querySelector("input[name=backup-file]").addEventListener(
            "change", create_proxy(lambda event: asyncio.create_task(self.saves.open_file(event))))
        window.onresize = create_proxy(self.place_dialogs)
        self.place_dialogs()
        await self.connect()
        if self.dom.table.getAttribute("data-engine") != "ready":
            return  # the dialog says why (connect)
        if not await self.friend.from_address():  # an invitation link: join it
            await self.resume_saved()
        if self.dom.start_held:
            await self.deal_held_start()
        self.dom.form.addEventListener("change", create_proxy(
            lambda event: asyncio.create_task(self.draw_idle_board())))
        await self.draw_idle_board()

    async def draw_idle_board(self):
        """Before a game: the board of the game the dialog would start (the engine's facts
        for its rules), every peg at the start."""
        if self.state.view is not None:
            return
        values = self.form_values()
        settings = shell.settings_from_form(values, self.state.hello)
        settings["seats"] = handoffview.seats_from_form(values, settings["rules"]["players"])
        ok, board = await self.call("board", {"rules": settings["rules"]})
        if ok and self.state.view is None:  # no game began meanwhile
            sides = names_and_sides(self.words, settings, board)[1]
            paint_board(self.dom, self.words, board["target"], sides, board["skunk_lines"])

    def announce(self, text, heard=False):
        """Say a scoring (his heels, a go, fifteen two...) big on the table for a moment
        (``heard``: for screen readers only, what the felt already shows another way)."""
        banner = self.dom.part(".announce")
        line = document.createElement("span")
        # A new element, so the CSS animation plays again.
        line.className = "visually-hidden" if heard else "flash"
        line.textContent = text
        banner.innerHTML = ""
        banner.append(line)


def saved_settings():
    """The dialog's last values (localStorage), checked (stored.load_settings)."""
    return load(SETTINGS_KEY, stored.load_settings)


def deal_done(state):
    """Whether the shows collected are of a deal before the view's: that deal is over.
    (A game resumed in the middle of a manual count has its own deal's first claims
    among them: they wait for the rest of that deal's show.)"""
    return state.deal_shows[0]["deal"] < state.view["deal_number"]


def close_menu(target):
    """An item of the drop-down menu chosen: the menu closes, or it would cover the dialog
    the item opens (a popover stays open while clicked inside)."""
    menu = target.closest("#menu")
    if menu and menu.matches(":popover-open"):
        menu.hidePopover()
