"""Pass-and-play at the table (MicroPython, main thread): the hand-off screen and the
time to call muggins on another person's claim.

The page only ever holds the view of the seat whose person is at the device
(``state.viewer``). Before another person decides, :meth:`Handoff.pass_to`
takes every card of the viewer off the page, shows "Pass to Ana" (the table's
``data-phase`` is ``handoff``) and, once that person presses **Show my
cards**, asks the engine's session to look from their seat (``hand_off``):
the reply is an update like a move's, with only their cards in it. Who is a
person and what they are called is web/views/handoffview.py's.
"""

import asyncio

import handoffview
import stored
from dom import VIEWER_KEY, load, storage_set, url_number
from pyscript import window
from pyscript.ffi import to_js
from tablerender import fill, log, render_centre, render_opponents, render_scores, set_text


class Handoff:
    """The hand-offs of one table: ``game`` (a TableGame) calls the engine and moves."""

    def __init__(self, dom, state, game):
        self.dom = dom
        self.state = state
        self.game = game
        self.shown = None  # set when the person passed to presses Show my cards
        self.countdown = None  # the muggins call's countdown task
        self.first = False  # a game just started or resumed: pass to the first person

    @property
    def words(self):
        return self.state.words

    def screen(self):
        return self.dom.part("#handoff")

    # --- whose turn at the device ------------------------------------------------

    def target(self):
        """The person to pass the device to before drawing the table, or None."""
        state = self.state
        view = state.view
        if view is None:
            return None
        seat = handoffview.hand_off_to(view, state.settings, state.viewer)
        if self.first:
            self.first = False
            if view["phase"] != "over" and handoffview.pass_and_play(state.settings):
                return state.viewer if seat is None else seat
        return seat

    def saved_viewer(self, settings):
        """The person who last had the device (kept across a reload), else the first."""
        persons = handoffview.people(settings)
        seat = load(VIEWER_KEY, stored.load_seat)
        return seat if seat in persons else persons[0]

    async def pass_to(self, seat):
        """Hide every hand, wait for ``seat``'s person to press Show my cards, and return
        the engine's update from their seat (None after an error)."""
        state = self.state
        state.handing_off = seat
        state.selected = []
        state.cut_pause = False  # the cut cards leave the table (they may be dealt now)
        self.hide_cards()
        render_scores(self.dom, state)  # what is public stays on the table
        render_opponents(self.dom, state)
        render_centre(self.dom, state)
        name = state.names[seat]
        self.dom.table.setAttribute("data-phase", "handoff")
        set_text(self.dom.status, self.words.t("handoff.status", {"who": name}))
        screen = self.screen()
        screen.innerHTML = handoffview.handoff_html(self.words, name)
        screen.hidden = False
        self.game.place_dialogs()
        screen.querySelector("[data-action=show-cards]").focus(to_js({"preventScroll": True}))
        self.shown = asyncio.Event()
        await self.shown.wait()
        self.shown = None
        ok, result = await self.game.call("hand_off", {"seat": seat,
                                                       "events_from": state.events_seen,
                                                       "proof": True})
        screen.hidden = True
        screen.innerHTML = ""
        state.handing_off = None
        if not ok:
            self.game.show_error(result)
            return None
        state.viewer = seat
        storage_set(VIEWER_KEY, str(seat))
        return result

    def hide_cards(self):
        """Take the viewer's cards and anything about them off the page (the coach's
        panel too: a deal's review speaks of the cards of the person who asked)."""
        fill(self.dom, self.state, ".seat-human .hand", "")
        fill(self.dom, self.state, ".actions", "")
        self.game.coach.hide_hint()
        panel = self.dom.part(".coach-panel")
        panel.hidden = True
        panel.innerHTML = ""

    def show_cards(self):
        """Show my cards was pressed."""
        if self.shown is not None:
            self.shown.set()

    def redraw(self):
        """The hand-off screen again in the page's language."""
        seat = self.state.handing_off
        if seat is not None:
            self.screen().innerHTML = handoffview.handoff_html(self.words, self.state.names[seat])
            set_text(self.dom.status, self.words.t("handoff.status",
                                                   {"who": self.state.names[seat]}))

    # --- muggins between people ----------------------------------------------------

    def offer_muggins(self):
        """After drawing: if the viewer may call muggins on another person's claim,
        say so and give them a visible time to decide (then it is a pass)."""
        state = self.state
        self.stop_countdown()
        if not state.my_turn() or not handoffview.muggins_offer(state.view, state.settings,
                                                                state.viewer):
            return
        claim = state.view["claim"]
        set_text(self.dom.status, self.words.t("muggins.offer", {
            "who": state.names[claim["seat"]], "count": claim["claimed"]}))
        seconds = url_number("decide", 600)
        if seconds is None:
            seconds = handoffview.MUGGINS_SECONDS
        self.countdown = asyncio.create_task(self.count_down(int(seconds)))

    def stop_countdown(self):
        if self.countdown is not None:
            self.countdown.cancel()
            self.countdown = None
        timer = self.dom.part(".actions .countdown")
        if timer is not None:
            timer.remove()
            self.state.regions.forget(".actions")

    async def count_down(self, seconds):
        """Show the seconds left; when they run out, the call is a pass (said in the log)."""
        left = seconds
        while left > 0:
            timer = self.dom.part(".actions .countdown")
            if timer is None:  # (re)drawn with the actions, e.g. after a language switch
                self.dom.part(".actions").insertAdjacentHTML(
                    "beforeend", '<p class="countdown" role="timer"></p>')
                self.state.regions.forget(".actions")
                timer = self.dom.part(".actions .countdown")
            timer.setAttribute("data-seconds", str(left))
            set_text(timer, self.words.t("muggins.time", {"seconds": left}))
            await asyncio.sleep(1)
            left -= 1
        self.countdown = None
        name = self.state.names[self.state.viewer]
        log(self.dom, self.words.t("muggins.timeout", {"who": name}))
        window.performance.mark("cribbage:muggins-timeout")
        await self.game.human_move("pass")


def undo_allowed(settings):
    """Take-backs only when one person plays: a take-back could reach past a hand-off."""
    return not handoffview.pass_and_play(settings)


def names_and_sides(words, settings, view):
    """The seats' names and the scores' names for a game's first view."""
    names = handoffview.table_names(words, settings, view["team_of"])
    return names, handoffview.score_names(words, settings, names, view["team_of"])

