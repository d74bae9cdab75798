"""The coach, the fair-deal line and the statistics at the table (MicroPython, main thread).

Hint (the coach's ranked choices on the human's turn), the review of a deal in
the show panel, the game-over summary, the "Fair deal" commitments and the
Statistics panel. Their state is ``state.coach`` (a :class:`tablestate.CoachState`);
the pure parts are in coachview.py and statsview.py.
"""

import asyncio
import json

import charts
import coachview
import handoffview
import shell
import statsview
import stored
import tableview
from dom import STATS_BOOKS_KEY, STATS_KEY, load, storage_set

ACTIONS = ("hint", "review", "stats", "stats-reset", "stats-close")


class TableCoach:
    """The coach's panels of one table: drawn from ``state``, asking through ``engine``."""

    def __init__(self, dom, state, engine):
        self.dom = dom
        self.state = state
        self.engine = engine  # an async (name, payload) -> (ok, result) call
        self.distribution = None  # the engine's hand_distribution, once asked (it never changes)
        self.book = ""  # whose statistics the panel shows ("": the solo player's)

    @property
    def words(self):
        """The page's words (a language switch replaces them)."""
        return self.state.words

    @property
    def coach(self):
        return self.state.coach

    def reset(self):
        """A new (or resumed) game: nothing hinted, proved or reviewed yet."""
        self.hide_hint()
        fair = self.dom.part(".fair")
        fair.hidden = True
        fair.querySelector("summary").textContent = ""
        fair.querySelector(".fair-body").innerHTML = ""

    # --- fair deals ---------------------------------------------------------------

    def take_proof(self, proof):
        """Show the commitments of the deal in progress and the next; reveal finished deals."""
        if proof is None:
            return
        over = self.state.view is not None and self.state.view["phase"] == "over"
        key = (proof["deal"], over)
        if self.coach.game_id is not None and self.coach.proof_deal == key:
            return  # nothing new to seal or reveal
        self.coach.game_id, self.coach.proof_deal = proof["game"], key
        self.coach.last_proof = proof
        self.draw_fair(proof)

    def draw_fair(self, proof):
        fair = self.dom.part(".fair")
        summary = fair.querySelector("summary")
        summary.textContent = coachview.fair_summary(self.words, proof)
        sealed = proof["sealed"]
        if sealed:
            summary.setAttribute("data-deal", str(sealed[0]["deal"]))
            summary.setAttribute("data-commitment", sealed[0]["commitment"])
        fair.querySelector(".fair-body").innerHTML = coachview.fair_html(self.words, proof)
        fair.hidden = False

    def in_statistics(self):
        """Whether this game counts in the statistics: six-card games only (their hands
        are compared with the six-card distribution; five- and seven-card are left out)."""
        return self.state.rules().get("cards", 6) == 6

    def count_finished_deals(self, events):
        """Add each deal that ``events`` finished to the statistics (once)."""
        finished = [event["deal"] - 1 for event in events
                    if event["kind"] == "deal" and event["deal"] > 1]
        if not finished or self.coach.game_id is None or not self.in_statistics():
            return
        for book, seat in handoffview.stats_books(self.state.settings):
            stats = self.read_stats(book)
            changed = False
            for deal in finished:
                changed = statsview.add_deal(stats, self.coach.game_id, deal,
                                             self.coach.game_events, seat) or changed
            if changed:
                self.write_stats(stats, book)

    # --- hint and review ----------------------------------------------------------

    def hide_hint(self):
        self.coach.hint_shown = None
        panel = self.dom.part(".coach-panel")
        panel.hidden = True
        panel.innerHTML = ""

    async def hint(self):
        """Ask the coach about the human's discard or play and show its ranking."""
        if self.coach.hint_busy:
            return
        self.coach.hint_busy = True
        panel = self.dom.part(".coach-panel")
        self.show_hint("thinking", None)  # at once: the answer may take a moment on a phone
        panel.hidden = False
        panel.scrollIntoView(False)
        seen, count = self.state.events_seen, self.state.view["count"]
        ok, result = await self.engine("advise", {"seat": self.state.viewer,
                                                  "lang": self.words.lang})
        self.coach.hint_busy = False
        if seen != self.state.events_seen or panel.hidden:  # the game moved on meanwhile
            return
        if not ok:
            self.show_hint("error", result)
            return
        self.show_hint("advice", (result, count))
        panel.setAttribute("data-kind", result["kind"])
        panel.scrollIntoView(False)

    def show_hint(self, what, data):
        self.coach.hint_shown = (what, data)
        self.dom.part(".coach-panel").innerHTML = coach_html(self.words, self.coach.hint_shown,
                                                             "coach.thinking")

    def auto_review(self):
        box = self.dom.form.querySelector("input[name=review]")
        return bool(box and box.checked)

    async def review(self, deal):
        """The coach's review of the human's choices in a deal, in the coach's panel."""
        if self.state.showing is None:  # the show it was asked in is over
            return
        panel = self.dom.part(".coach-panel")
        panel.innerHTML = '<div class="review-spot"></div>'
        panel.hidden = False
        self.show_review("thinking", None)
        ok, result = await self.engine("review", {"seat": self.state.viewer, "deal": deal})
        self.show_review("review" if ok else "error", result)

    def show_review(self, what, data):
        self.coach.review_shown = (what, data)
        spot = self.dom.part(".coach-panel .review-spot")
        if spot is not None:
            spot.innerHTML = coach_html(self.words, self.coach.review_shown, "coach.reviewing")

    def new_show(self):
        """A new show: nothing reviewed in it yet."""
        self.coach.review_shown = None

    # --- game over and statistics ----------------------------------------------------

    def read_stats(self, book=""):
        return load(handoffview.stats_key(STATS_KEY, book), statsview.load_stats)

    def write_stats(self, stats, book=""):
        storage_set(handoffview.stats_key(STATS_KEY, book), json.dumps(stats))
        books = self.books()
        if book and book not in books:
            storage_set(STATS_BOOKS_KEY, json.dumps(books + [book]))

    def books(self):
        """The names with statistics of their own (pass-and-play and named players)."""
        return load(STATS_BOOKS_KEY, stored.load_books)

    def on_change(self, event):
        """Another book chosen in the statistics panel."""
        if event.target.name == "stats-book":
            self.book = str(event.target.value)
            self.show_stats()
            self.dom.stats.querySelector("select[name=stats-book]").focus()

    def game_over(self, outcome):
        """Fill the game-over summary and count the game in the statistics (once)."""
        self.draw_summary()
        if self.coach.game_id is None or not self.in_statistics():
            return
        players = self.state.view["rules"]["players"]
        levels = [tableview.computer_level(self.state.settings, seat)
                  for seat in range(1, players)]
        for book, seat in handoffview.stats_books(self.state.settings):
            stats = self.read_stats(book)
            statsview.note_best_hand(stats, self.coach.game_events, seat)
            if statsview.add_game(stats, self.coach.game_id, statsview.level_key(levels),
                                  outcome, self.state.team_of(seat)):
                statsview.note_comforts(stats, outcome, self.state.undos)
            self.write_stats(stats, book)

    def draw_summary(self):
        names, summary = self.state.sides, self.state.view["summary"]
        self.dom.game_over.querySelector(".summary").innerHTML = coachview.summary_html(self.words,
            summary, names)
        self.dom.game_over.querySelector(".over-chart").innerHTML = charts.score_chart(
            self.words, summary["by_deal"], names, self.state.rules()["target"])

    def show_stats(self):
        body = self.dom.stats.querySelector(".stats-body")
        levels = self.state.hello["levels"]
        books = self.books()
        if self.book not in books:
            self.book = ""
        stats = self.read_stats(self.book)
        choice = ""
        if books:  # named players have books of their own: choose whose to show
            choice = handoffview.book_choice_html(self.words, books, self.book)
        body.innerHTML = (choice
                          + statsview.stats_html(self.words, stats, levels, self.distribution)
                          + statsview.comforts_html(self.words, stats))
        self.dom.stats.hidden = False
        if self.distribution is None:
            asyncio.create_task(self.fetch_distribution())

    async def fetch_distribution(self):
        """Ask the engine once for all hands' scores, then draw the statistics again."""
        if self.distribution is not None:
            return
        self.distribution = {}  # asked: ask once
        ok, result = await self.engine("hand_distribution", {})
        self.distribution = result if ok else None
        if ok and not self.dom.stats.hidden:
            self.show_stats()

    def redraw(self):
        """Draw the coach's panels, the fair-deal line and open dialogs in the page's language."""
        coach = self.coach
        if coach.last_proof is not None:
            self.draw_fair(coach.last_proof)
        if coach.hint_shown is not None and not self.dom.part(".coach-panel").hidden:
            self.show_hint(coach.hint_shown[0], coach.hint_shown[1])
        if coach.review_shown is not None and self.state.showing is not None:
            self.show_review(coach.review_shown[0], coach.review_shown[1])
        if self.state.over is not None:
            self.draw_summary()
        if not self.dom.stats.hidden:
            self.show_stats()

    def on_action(self, action, target):
        """A click on one of the coach's or the statistics' buttons."""
        if action == "hint":
            if self.state.view is not None and not self.state.busy:
                asyncio.create_task(self.hint())
        elif action == "review":
            target.disabled = True
            self.state.regions.forget(".actions")  # its button changed in place
            asyncio.create_task(self.review(int(target.getAttribute("data-deal"))))
        elif action == "stats-reset":
            storage_set(handoffview.stats_key(STATS_KEY, self.book), None)
            self.show_stats()


def coach_html(words, shown, thinking_key):
    """A coach panel's content: thinking, an error, or the coach's answer."""
    what, data = shown
    if what == "thinking":
        return "<p>" + tableview.html(words.t(thinking_key)) + "</p>"
    if what == "error":
        return "<p>" + tableview.html(shell.error_text(words, data)) + "</p>"
    if thinking_key == "coach.thinking":
        return coachview.advice_html(words, data[0], data[1])
    return coachview.review_html(words, data)


def review_button(words, deal):
    """The show's Review button (its review goes in the coach's panel)."""
    return ('<button type="button" class="quiet" data-action="review" data-deal="' + str(deal)
            + '">' + tableview.html(words.t("button.review")) + "</button>")
