"""The show at the table (MicroPython, main thread): each hand counted on the felt.

When a deal's hands are counted, each is turned face up on the felt where it
lies, in the order the engine counted them (pone first, the dealer, then the
crib). Each item of its breakdown lifts the cards behind it with a chip
("fifteen 2", "run of 3 3") while the hand's running total grows beside its
owner's name and its pegs climb item by item. The words (the count said aloud)
go to the live region and the log. Everything comes from the events
(``cards``, ``items``, ``points``): no rule knowledge here. With ``?speed=0``
(or the "Off" setting) it all happens at once.
"""

import asyncio

import tableview
from dom import SHOW_KEY, storage_set
from shell import i18n
from tablecoach import review_button
from tablerender import (
    clear_play,
    crib_name,
    draw_pegs,
    move_pegs,
    render_centre,
    render_claim,
    render_opponents,
    render_scores,
)

SHOWN = ("shown", "counting", "counted")


class TableShow:
    """The show of one table: ``game`` gives the pauses (at the table's speed) and the coach."""

    def __init__(self, dom, state, game):
        self.dom = dom
        self.state = state
        self.game = game

    @property
    def words(self):
        return self.state.words

    # --- the words ------------------------------------------------------------------

    def line(self, event):
        """One hand or crib of the show in words: whose, the count said aloud, the total."""
        seat, names, words = event["seat"], self.state.names, self.words
        if event["kind"] == "crib":
            whose = words.t("crib.mine") if seat == self.state.you else words.t(
                "crib.theirs", {"who": names[seat]})
        else:
            whose = words.t("show.hand.mine") if seat == self.state.you else words.t(
                "show.hand", {"who": names[seat]})
        total = event["worth"]
        return whose + ": " + i18n.cadence(event["items"], words.lang) + " (" + str(total) + ")"

    def draw_end(self):
        """The show counted: Review (its answer in the coach's panel) and Continue."""
        self.dom.status.textContent = self.words.t("status.show")
        button = review_button(self.words, self.state.showing["deal"])
        self.dom.part(".actions").innerHTML = button + (
            '<button type="button" data-action="continue">'
            + tableview.html(self.words.t("button.continue")) + "</button>")

    # --- the felt ------------------------------------------------------------------

    def spot(self, event):
        """Where a hand (or the crib) lies on the felt, and where its points are said."""
        seat = event["seat"]
        if event["kind"] == "crib":
            return self.dom.part(".crib-spot .crib-cards"), self.dom.part(".crib-spot small")
        if seat == self.state.viewer:
            return self.dom.part(".seat-human .hand"), self.dom.part(".felt .you .seat-name")
        panel = self.dom.part('.opponent[data-seat="' + str(seat) + '"]')
        if panel is None:
            return None, None
        return panel.querySelector(".hand"), panel.querySelector(".seat-name")

    def lay_out(self, shows):
        """The felt at the start of the show: the starter up, the played cards gathered,
        the hands still to count face down where they lie."""
        words = self.words
        if not self.dom.part(".felt .you").innerHTML:  # resumed after a reload: seat everyone
            render_opponents(self.dom, self.state)
            render_centre(self.dom, self.state)
        for event in shows:  # the crib is the dealer's of the deal shown
            if event["kind"] == "crib":
                self.dom.part(".crib-spot small").textContent = crib_name(self.state,
                                                                          event["seat"])
        self.dom.part(".starter").innerHTML = tableview.card_html(words, self.state.last_starter)
        self.dom.part(".pile").innerHTML = ""
        self.dom.part(".count").textContent = ""
        self.dom.part(".actions").innerHTML = ""  # nothing to do until Continue
        self.dom.status.textContent = words.t("show.title")
        if self.dom.part(".show-said") is None:  # the chips, under the status line
            self.dom.part(".felt .says").insertAdjacentHTML(
                "beforeend", '<p class="show-said" aria-hidden="true"></p>')
        self.dom.part(".show-said").textContent = ""
        for event in shows:
            cards, _ = self.spot(event)
            mine = event["kind"] == "hand" and event["seat"] == self.state.viewer
            if cards is not None and not mine:
                cards.innerHTML = tableview.backs_html(len(event["cards"]))

    def turn_up(self, event, state_class, total=None):
        """A hand (or the crib) face up where it lies, with its total (the running total
        while it is counted) beside its name."""
        cards, name = self.spot(event)
        if cards is None:
            return None
        cards.innerHTML = "".join(tableview.card_html(self.words, code)
                                  for code in event["cards"])
        for cls in SHOWN:
            cards.classList.remove(cls)
        cards.classList.add("shown")
        cards.classList.add(state_class)
        if state_class == "counted":
            total = event["worth"]
        self.total(name, total, state_class == "counted")
        return cards

    def total(self, name, total, final):
        """The hand's (running) total beside its owner's name; ``data-points`` once final."""
        if name is None or total is None:
            return
        chip = name.querySelector(".show-points")
        if chip is None:
            name.insertAdjacentHTML("beforeend", '<span class="show-points"></span>')
            chip = name.querySelector(".show-points")
        chip.textContent = str(total)
        if final:
            chip.setAttribute("data-points", str(total))
        else:
            chip.removeAttribute("data-points")

    def light(self, cards, codes):
        """Light the cards (in the hand and the starter) an item of the count is made of."""
        starter = self.dom.part(".starter")
        for box in (cards, starter):
            for card in box.querySelectorAll(".card"):
                if card.getAttribute("data-card") in codes:
                    card.classList.add("lit")
                else:
                    card.classList.remove("lit")

    async def count(self, event, pegs_moved=False):
        """Turn one hand up, say its items one by one, and peg them as they are said
        (``pegs_moved``: a show resumed after a reload, whose points the pegs show)."""
        state, words = self.state, self.words
        cards = self.turn_up(event, "counting", 0)
        _, name = self.spot(event)
        said = self.dom.part(".show-said")
        items = event["items"]
        peg = (not state.manual_counting() and event.get("team") is not None
               and not pegs_moved)
        left, started, running = event["points"] if peg else 0, False, 0
        await self.game.pause(0.5)
        for item in items:
            if cards is not None:
                self.light(cards, item["cards"])
            running += item["points"]
            said.innerHTML = ('<span class="show-chip">' + tableview.html(
                i18n.item_text(item, words.lang)) + " <b>" + str(item["points"]) + "</b></span>")
            self.total(name, running, False)
            points = min(item["points"], left)
            if points > 0:
                left -= points
                started = self.peg(event["team"], points, started)
            await self.game.pause(0.8)
        if left > 0:
            self.peg(event["team"], left, started)
        if cards is not None:
            self.light(cards, [])
        said.textContent = i18n.cadence(items, words.lang)
        self.turn_up(event, "counted")
        self.game.announce(self.line(event), heard=True)  # the words, for the live region
        await self.game.pause(0.5)

    def peg(self, team, points, started):
        """The first points of a hand leapfrog the back peg; the rest push it further."""
        if started:
            self.state.pegs[team][0] += points
            draw_pegs(self.state, team)
        else:
            move_pegs(self.state, team, points)
        render_scores(self.dom, self.state)
        return True

    def clear(self):
        """The show is over: the felt goes back to the table's own drawing."""
        for cls in SHOWN:
            self.dom.part(".seat-human .hand").classList.remove(cls)
        said = self.dom.part(".show-said")
        if said is not None:
            said.remove()

    # --- the whole show ----------------------------------------------------------------

    async def present(self, shows, pegs_moved=False):
        """Count each hand and the crib on the felt, then wait for Continue
        (``pegs_moved``: a show resumed after a reload, whose points the pegs show)."""
        state = self.state
        self.dom.table.setAttribute("data-phase", "show")
        clear_play(self.dom)  # the play's pile and count are over
        state.showing = {"deal": shows[0]["deal"], "shown": [], "waiting": False}
        render_claim(self.dom, state)  # manual counting: the show's claims stay in view
        self.game.coach.new_show()
        self.lay_out(shows)
        for event in shows:
            state.showing["shown"].append(event)
            await self.count(event, pegs_moved)
        state.continue_event = asyncio.Event()
        state.showing["waiting"] = True
        storage_set(SHOW_KEY, str(state.showing["deal"]))  # a reload shows it again
        self.draw_end()
        self.game.settle_focus(force=True)
        if self.game.coach.auto_review():
            self.dom.part(".actions [data-action=review]").disabled = True
            asyncio.create_task(self.game.coach.review(shows[0]["deal"]))
        await state.continue_event.wait()
        storage_set(SHOW_KEY, None)
        state.continue_event, state.showing = None, None
        self.dom.part(".actions").innerHTML = ""
        self.dom.part(".announce").innerHTML = ""  # the show's words leave with it
        self.game.coach.hide_hint()  # the deal's review leaves with its show
        self.clear()

    def redraw(self):
        """The show in the page's language (the felt as counted so far, its end)."""
        state = self.state
        render_opponents(self.dom, state)  # the seats' names, in the new language
        render_claim(self.dom, state)
        for event in state.showing["shown"]:
            self.turn_up(event, "counted")
        shown = state.showing["shown"]
        said = self.dom.part(".show-said")
        if shown and said is not None:
            said.textContent = i18n.cadence(shown[-1]["items"], self.words.lang)
        if state.showing["waiting"]:
            busy = self.dom.part(".actions [data-action=review]")
            disabled = busy is not None and busy.disabled
            self.draw_end()
            self.dom.part(".actions [data-action=review]").disabled = disabled
