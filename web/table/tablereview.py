"""The whole-game review at the table (MicroPython, main thread).

"Review game" (below the game log during a game, in the game-over dialog after it)
opens the review dialog and asks the engine, in the worker, to grade the
human's decisions one deal at a time (``review_game`` with ``deal``), so the
dialog shows real progress and no main-thread task waits on the grading;
then it asks for the report (the engine reuses the deals it graded) and draws
it (reviewview.py). A finished game's accuracy is kept in the statistics.
"""

import asyncio

import reviewview
import shell
import statsview
import tableview
from pyscript import document, window

ACTIONS = ("review-game", "review-close")


class TableReview:
    """The review dialog of one table: drawn from ``state``, asking through ``engine``."""

    def __init__(self, dom, state, engine, table):
        self.dom = dom
        self.state = state
        self.engine = engine  # an async (name, payload) -> (ok, result) call
        self.table = table  # the TableGame: dialogs' place, focus, the statistics' storage
        self.dialog = document.getElementById("review")
        self.report = None  # (language, the engine's report) once a review is done
        self.run_number = 0  # a review is drawn only if no newer one began (or Close)
        self.came_from = None  # the dialog the review replaced, shown again on Close
        self.opener = None  # the button that opened the review (focus returns)

    @property
    def words(self):
        return self.state.words

    def is_open(self):
        return not self.dialog.hidden

    def on_action(self, action, target):
        if action == "review-game":
            self.open(target)
        else:
            self.close()

    def open(self, opener):
        """Replace the open dialog (if any) with the review's, and start the review."""
        if self.state.view is None:
            return
        self.came_from = None
        for dialog in (self.dom.game_over, self.dom.stats, self.dom.form):
            if not dialog.hidden:
                self.came_from = dialog
                dialog.hidden = True
        self.opener = opener
        self.dialog.hidden = False
        self.table.place_dialogs()
        self.dialog.querySelector("[data-action=review-close]").focus()
        asyncio.create_task(self.run())

    def close(self):
        self.run_number += 1  # a review on its way is not drawn
        if self.dialog.hidden:
            return
        self.dialog.hidden = True
        if self.came_from is not None:
            self.came_from.hidden = False
            self.came_from = None
        opener, self.opener = self.opener, None
        if opener is not None and opener.isConnected and opener.getClientRects().length:
            opener.focus()
        else:
            self.table.settle_focus()

    async def run(self):
        """Grade the game deal by deal, showing the progress, then draw the report."""
        self.run_number += 1
        run = self.run_number
        lang, total = self.words.lang, self.state.view["deal_number"]
        self.report = None
        self.dialog.querySelector(".review-body").innerHTML = ""
        self.dialog.setAttribute("data-state", "running")
        self.dialog.setAttribute("aria-busy", "true")
        window.performance.mark("cribbage:review-start")
        for deal in range(1, total + 1):
            self.show_progress(deal, total)
            ok, result = await self.engine("review_game", {"seat": self.state.viewer, "deal": deal,
                                                           "lang": lang})
            if run != self.run_number:
                return
            if not ok:
                self.show_error(result)
                return
        self.show_progress(total + 1, total)
        ok, result = await self.engine("review_game", {"seat": self.state.viewer, "lang": lang})
        if run != self.run_number:
            return
        if not ok:
            self.show_error(result)
            return
        window.performance.measure("cribbage:game-review", "cribbage:review-start")
        self.report = (lang, result)
        self.draw()
        self.keep_accuracy(result)

    def show_progress(self, deal, total):
        """The progress bar and its words: deal ``deal`` of ``total`` (past it: summing up)."""
        spot = self.dialog.querySelector(".review-progress")
        spot.hidden = False
        bar = spot.querySelector("progress")
        bar.max = total + 1
        bar.value = min(deal, total + 1) - 1
        spot.querySelector(".review-progress-text").textContent = reviewview.progress_text(
            self.words, deal, total)

    def show_error(self, error):
        self.dialog.querySelector(".review-progress").hidden = True
        self.dialog.removeAttribute("aria-busy")
        self.dialog.setAttribute("data-state", "error")
        self.dialog.querySelector(".review-body").innerHTML = (
            "<p>" + tableview.html(shell.error_text(self.words, error)) + "</p>")

    def draw(self):
        """The report in the page's language (the engine's sentences in the language asked)."""
        report = self.report[1]
        names = tableview.score_names(self.words, self.state.names, self.state.view["teams"])
        self.dialog.querySelector(".review-progress").hidden = True
        self.dialog.querySelector(".review-body").innerHTML = reviewview.review_html(
            self.words, report, names)
        self.dialog.removeAttribute("aria-busy")
        self.dialog.setAttribute("data-state", "done")

    def keep_accuracy(self, report):
        """A finished game's accuracy goes into the statistics (once per game)."""
        game = self.state.coach.game_id
        if self.state.over is None or game is None or not report["decisions"]:
            return
        stats = self.table.coach.read_stats()
        statsview.note_accuracy(stats, game, report["accuracy"])
        self.table.coach.write_stats(stats)

    def redraw(self):
        """A language switch: the report again, graded again if its sentences are in
        another language."""
        if self.dialog.hidden:
            return
        if self.report is not None and self.report[0] == self.words.lang:
            self.draw()
        else:  # a review on its way, or done in the other language: again in this one
            asyncio.create_task(self.run())
