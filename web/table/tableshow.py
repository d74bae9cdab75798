"""The show at the table (MicroPython, main thread): each count of the deal on the felt.

When a deal's hands are counted, each in turn (the pone's, the dealer's, then the crib,
as the engine scored them) moves to the middle of the felt at the size of your own hand,
the starter beside it, under a tab of its own (showview.py). Each step of its count
lights the cards that make it, its entry joins the itemised list as a chip, and the
running total grows on its tab while the pegs climb. Once counted, the list stays with
its total beside the hand, and the deal's counts stay one tap apart (their tabs, with
their totals side by side) until Continue. The words go to a log for screen readers and
to the game log. Everything comes from the events (``cards``, ``items``, ``points``)
through the engine's words module: no rule knowledge here. With ``?speed=0``, the
"Off" setting or reduced motion it all appears at once.
"""

import asyncio

import showview
import tablemotion
import tableview
from dom import SHOW_KEY, storage_set
from pyscript import document
from shell import i18n
from tablecoach import review_button
from tablerender import (
    clear_play,
    draw_count,
    draw_pegs,
    fill,
    move_pegs,
    render_claim,
    render_opponents,
    render_scores,
)
from tablestate import PILE_STAYS

STEP = 0.9  # seconds each step of a count stays lit, at normal speed


class TableShow:
    """The show of one table: ``game`` gives the pauses (at the table's speed) and the coach."""

    def __init__(self, dom, state, game):
        self.dom = dom
        self.state = state
        self.game = game

    @property
    def words(self):
        return self.state.words

    def part(self, selector):
        return self.dom.part(".show-stage " + selector)

    def at_once(self):
        """No pacing: speed 0, the "Off" setting or the system's reduced motion."""
        return not tablemotion.moving(self.game.speed())

    # --- the stage ----------------------------------------------------------------

    def lay_out(self, shows):
        """The felt at the start of the show: the hands still to count face down where they
        lie, the stage in the middle (where the pile and your hand were)."""
        if not self.dom.part(".felt .you").innerHTML:  # resumed after a reload: seat everyone
            render_opponents(self.dom, self.state)
        fill(self.dom, self.state, ".actions", "")  # nothing to do until Continue
        self.dom.status.textContent = self.words.t("show.title")
        self.part(".show-tabs").innerHTML = ""
        self.part(".show-panels").innerHTML = ""
        self.part(".show-heard").innerHTML = ""
        self.dom.part(".show-stage").hidden = False
        self.dom.table.setAttribute("data-show", "counting")
        self.seat_fans(shows, 0)

    def seat_fans(self, shows, moved):
        """The others' hands where they lie: face down until counted, gone to the middle
        of the felt once their count has begun (the first ``moved`` of ``shows``)."""
        self.state.regions.forget(".opponents")  # drawn whole after the show
        for number, event in enumerate(shows):
            if event["kind"] != "hand" or event["seat"] == self.state.viewer:
                continue
            fan = self.dom.part('.opponent[data-seat="' + str(event["seat"]) + '"] .hand')
            if fan is not None:
                fan.innerHTML = "" if number < moved else tableview.backs_html(
                    len(event["cards"]))

    def add(self, event, index):
        """A count's tab and panel, chosen; its hand leaves its place on the felt and
        slides to the middle (unless nothing may move)."""
        state, words = self.state, self.words
        start = self.place_of(event)
        for tab in self.dom.table.querySelectorAll(".show-tab"):
            tab.setAttribute("aria-selected", "false")
            tab.setAttribute("tabindex", "-1")
        for panel in self.dom.table.querySelectorAll(".show-hand"):
            panel.hidden = True
        self.part(".show-tabs").insertAdjacentHTML("beforeend", showview.tab_html(
            words, event, index, state.names, state.you, True))
        self.part(".show-panels").insertAdjacentHTML("beforeend", showview.panel_html(
            words, event, index, state.last_starter, True))
        state.showing["selected"] = index
        self.seat_fans(state.showing["shows"], index + 1)
        if start is not None and not self.at_once():
            cards = self.dom.part("#show-hand-" + str(index)).querySelectorAll(
                ".show-cards > .card")
            for number in range(cards.length):
                tablemotion.fly(cards.item(number), start, tablemotion.SLIDE_MS,
                                number * tablemotion.DEAL_STAGGER)

    def place_of(self, event):
        """Where a hand to count comes from: the seat's fan while it lies there, else its
        owner's place (your panel, or the dealer's for the crib); None off the felt."""
        if event["seat"] == self.state.viewer:
            places = [".seat-human .hand", ".felt > .you"]
        else:
            seat = '.opponent[data-seat="' + str(event["seat"]) + '"]'
            places = [seat + " .hand", seat]
        for selector in places[event["kind"] != "hand":]:
            part = self.dom.part(selector)
            if part is not None:
                box = part.getBoundingClientRect()
                if box.width > 0 and box.height > 0:
                    return box
        return None

    def select(self, index):
        """Show the count under tab ``index`` (a tap, or the arrow keys on the tabs)."""
        tabs = self.dom.table.querySelectorAll(".show-tab")
        if self.state.showing is None or not 0 <= index < tabs.length:
            return
        self.state.showing["selected"] = index
        for number in range(tabs.length):
            chosen = number == index
            tabs.item(number).setAttribute("aria-selected", "true" if chosen else "false")
            tabs.item(number).setAttribute("tabindex", "0" if chosen else "-1")
            self.dom.part("#show-hand-" + str(number)).hidden = not chosen
        tabs.item(index).focus()

    def light_entry(self, entry):
        """An entry of a counted list tapped: the cards of its first step light again, the
        next tap its next step (``15 for 2 ×3``: each fifteen in turn), then none."""
        panel = entry.closest(".show-hand")
        steps = entry.getAttribute("data-steps").split("|")
        at = int(entry.getAttribute("data-at") or "-1") + 1 if entry.getAttribute(
            "aria-pressed") == "true" else 0
        for other in panel.querySelectorAll(".show-item[aria-pressed]"):
            other.setAttribute("aria-pressed", "false")
            other.removeAttribute("data-at")
        if at < len(steps):
            entry.setAttribute("aria-pressed", "true")
            entry.setAttribute("data-at", str(at))
        self.light(panel, steps[at].split(" ") if at < len(steps) else [])

    def step_to(self, offset):
        """The next or previous count (the arrow keys on the tabs)."""
        if self.state.showing is not None:
            count = self.dom.table.querySelectorAll(".show-tab").length
            self.select((self.state.showing["selected"] + offset) % max(count, 1))

    def draw(self, index, event, said=None):
        """A count's list (up to the step ``said``, else whole with its total) and the total
        on its tab: the running one while counted, the points it scored once counted."""
        panel = self.dom.part("#show-hand-" + str(index))
        points = self.dom.part("#show-tab-" + str(index) + " .show-points")
        if panel is None or points is None:
            return
        panel.querySelector(".show-list").innerHTML = showview.list_html(
            self.words, event["items"], said)
        if said is None:
            total = event["worth"]  # what was counted (the pegs may stop at the game hole)
            points.setAttribute("data-points", str(total))
            self.light(panel, [])
            notes = showview.claim_notes(self.words, self.state.coach.game_events, event,
                                         self.state.names, self.state.you)
            if notes and panel.querySelector(".show-claim") is None:
                panel.insertAdjacentHTML("beforeend", "".join(
                    '<p class="show-claim">' + tableview.html(note) + "</p>" for note in notes))
        else:
            total = self.steps(event)[said]["total"] if said >= 0 else 0
        points.textContent = str(total)

    def steps(self, event):
        return i18n.count_steps(event["items"])

    def light(self, panel, codes):
        """Lift and outline the cards (the hand's and the starter) a step is made of."""
        for card in panel.querySelectorAll(".card"):
            if card.getAttribute("data-card") in codes:
                card.classList.add("lit")
            else:
                card.classList.remove("lit")

    def hear(self, text):
        """One more line for screen readers (a log: each line is read once, none lost)."""
        line = document.createElement("p")
        line.textContent = text
        self.part(".show-heard").append(line)

    # --- counting ------------------------------------------------------------------

    async def count(self, event, index, pegs_moved=False):
        """Move one hand to the middle and count it step by step, pegging as it is said
        (``pegs_moved``: a show resumed after a reload, whose points the pegs show)."""
        state = self.state
        self.add(event, index)
        peg = (not state.manual_counting() and event.get("team") is not None
               and not pegs_moved)
        left, started = event["points"] if peg else 0, False
        paced = not self.at_once()
        if paced:
            self.draw(index, event, -1)  # no step said yet: an empty list, a total of 0
            await self.game.pause(0.5)
        for number, step in enumerate(self.steps(event)):
            points = min(step["points"], left)
            if points > 0:
                left -= points
                started = self.peg(event["team"], points, started)
            if paced:  # the panel found again: a language switch draws it anew
                self.light(self.dom.part("#show-hand-" + str(index)), step["cards"])
                self.draw(index, event, number)
                await self.game.pause(STEP)
        if left > 0:
            self.peg(event["team"], left, started)
        self.draw(index, event)
        self.hear(showview.heard(self.words, event, state.last_starter, state.names,
                                 state.you))
        if paced:
            await self.game.pause(0.6)

    def peg(self, team, points, started):
        """The first points of a hand leapfrog the back peg; the rest push it further."""
        if started:
            self.state.pegs[team][0] += points
            draw_pegs(self.state, team)
        else:
            move_pegs(self.state, team, points)
        render_scores(self.dom, self.state)
        return True

    def draw_end(self):
        """The show counted: Review (its answer in the coach's panel) and Continue."""
        self.dom.status.textContent = self.words.t("status.show")
        button = review_button(self.words, self.state.showing["deal"])
        fill(self.dom, self.state, ".actions", button + (
            '<button type="button" data-action="continue" aria-keyshortcuts="Enter">'
            + tableview.html(self.words.t("button.continue")) + "</button>"))

    def clear(self):
        """The show is over: the middle of the felt goes back to the table's own drawing."""
        self.dom.part(".show-stage").hidden = True
        self.dom.table.removeAttribute("data-show")
        for part in (".show-tabs", ".show-panels", ".show-heard"):
            self.part(part).innerHTML = ""

    # --- the whole show ----------------------------------------------------------------

    async def present(self, shows, pegs_moved=False):
        """Count each hand and the crib on the felt, then wait for Continue
        (``pegs_moved``: a show resumed after a reload, whose points the pegs show)."""
        state = self.state
        if state.pile and not pegs_moved:
            for entry in state.pile:  # your last card is on the pile, not in your hand
                card = self.dom.part('.seat-human .hand [data-card="' + entry["card"] + '"]')
                if card is not None:
                    card.remove()
                    state.regions.forget(".seat-human .hand")
            draw_count(self.dom, state, state.pile_count, True)  # the play is over
            await self.game.pause(PILE_STAYS)  # the last card and its point, read first
        self.dom.table.setAttribute("data-phase", "show")
        clear_play(self.dom, state)  # the play's pile and count are over
        state.showing = {"deal": shows[0]["deal"], "shows": shows, "shown": [],
                         "waiting": False, "selected": 0}
        render_claim(self.dom, state)
        self.game.coach.new_show()
        self.lay_out(shows)
        self.game.settle_focus()
        for event in shows:
            state.showing["shown"].append(event)
            await self.count(event, len(state.showing["shown"]) - 1, pegs_moved)
        state.continue_event = asyncio.Event()
        state.showing["waiting"] = True
        self.dom.table.setAttribute("data-show", "counted")
        storage_set(SHOW_KEY, str(state.showing["deal"]))  # a reload shows it again
        self.draw_end()
        self.game.settle_focus(force=True)
        if self.game.coach.auto_review():
            self.dom.part(".actions [data-action=review]").disabled = True
            state.regions.forget(".actions")  # its button changed in place
            asyncio.create_task(self.game.coach.review(shows[0]["deal"]))
        await state.continue_event.wait()
        storage_set(SHOW_KEY, None)
        state.continue_event, state.showing = None, None
        fill(self.dom, state, ".actions", "")
        self.dom.part(".announce").innerHTML = ""  # the show's words leave with it
        self.game.coach.hide_hint()  # the deal's review leaves with its show
        self.clear()

    def redraw(self):
        """The show in the page's language: every count so far as counted, the same tab
        chosen, and its end."""
        state = self.state
        showing = state.showing
        render_opponents(self.dom, state)  # the seats' names, in the new language
        render_claim(self.dom, state)
        self.seat_fans(showing["shows"], len(showing["shown"]))
        selected = showing["selected"]
        self.part(".show-tabs").innerHTML = ""
        self.part(".show-panels").innerHTML = ""
        for index, event in enumerate(showing["shown"]):
            self.part(".show-tabs").insertAdjacentHTML("beforeend", showview.tab_html(
                self.words, event, index, state.names, state.you, index == selected))
            self.part(".show-panels").insertAdjacentHTML("beforeend", showview.panel_html(
                self.words, event, index, state.last_starter, index == selected))
            self.draw(index, event)
        if showing["waiting"]:
            self.dom.status.textContent = self.words.t("status.show")
            busy = self.dom.part(".actions [data-action=review]")
            disabled = busy is not None and busy.disabled
            self.draw_end()
            self.dom.part(".actions [data-action=review]").disabled = disabled
            state.regions.forget(".actions")  # its button changed in place
        else:
            self.dom.status.textContent = self.words.t("show.title")
