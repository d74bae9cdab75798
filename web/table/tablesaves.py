"""Keeping the player's data safe in the browser (MicroPython, main thread).

- **The game's save** after every move (:meth:`TableSaves.save`): when the browser
  refuses the write (storage full or blocked), the game goes on in memory, a
  banner says it is not being saved and offers it as a game file (the replay
  page's format, ``cribbage-game.json``), and every next move tries again: the
  banner goes once a save lands. The first save asks the browser to keep the
  site's data (``navigator.storage.persist()``).
- **Saves the page cannot load** are never deleted: :meth:`TableSaves.set_aside`
  moves one, unchanged, under a key of its own (the last ``stored.ASIDE_KEPT``
  are kept), the new-game dialog's notice offers its download, and the
  statistics dialog lists every save set aside with a download each.
- **Backup and restore** from the statistics dialog (backup.py checks the file):
  a restore shows what it would replace and waits for the player's yes in the
  dialog; the game in it is checked by the engine's ``load`` first, the game it
  replaces is set aside, then the page reloads with everything restored.
- **The storage estimate** (``navigator.storage.estimate()``) in the statistics
  dialog, with whether the browser keeps the site's data.

The storage itself is dom.py's (uihost.mjs's ``cribbageStorage`` on the JS side).
"""

import asyncio
import json

import backup
import shell
import stored
import tableview
from dom import (
    SAVE_KEY,
    STATS_BOOKS_KEY,
    load,
    storage_get,
    storage_keys,
    storage_set,
    warn,
)
from pyscript import window
from pyscript.ffi import to_js

ACTIONS = ("download-game", "aside-download", "backup-export", "backup-replace",
           "backup-cancel")
ASIDE_NOTICES = ("notice.unreadable", "notice.newer", "notice.unresumable")
GAME_FILE = "cribbage-game.json"  # the replay page's name for a game file
ASIDE_FILE = "cribbage-saved-game.json"


class TableSaves:
    """The storage side of one table: its save, the saves set aside, backups."""

    def __init__(self, dom, state, game):
        self.dom = dom
        self.state = state
        self.game = game  # the TableGame: its engine calls
        self.last_save = None  # the engine's save of the game on the table (a game file)
        self.last_envelope = None  # what the table would keep in storage for it
        self.failing = False  # the game's last save did not reach storage
        self.asked = False  # the browser was asked to keep the site's data
        self.restoring = False  # a restore is writing: the old game's saves must wait
        self.held = None  # a save that could be neither loaded nor set aside (storage full)
        self.aside_text = None  # the save the new-game dialog's notice offers for download
        self.pending = None  # a backup checked, waiting for the player's yes
        self.message = None  # (key, values) of the data section's message line
        self.estimate = None  # {"usage", "quota", "persisted"} once the browser said

    @property
    def words(self):
        return self.state.words

    def part(self, selector):
        return self.dom.table.querySelector(selector)

    # --- the game's save ------------------------------------------------------------

    def save(self, settings, save_text, write):
        """Keep the game after a move through ``write`` (tabs.py's: True when stored, False
        when another tab has the game, None when storage refused); when storage refuses,
        say so (and try again at the next move). A save the page could not set aside is
        never overwritten."""
        self.last_save = save_text
        self.last_envelope = tableview.save_envelope(settings, save_text)
        if self.restoring:
            return
        if not self.asked:
            self.asked = True
            window.cribbageStorage.persist()  # a promise: the answer shows in the statistics
        kept = self.held is None or self.set_aside(self.held, "not loadable", False) is not None
        if kept:
            written = write(self.last_envelope)
            if written is False:  # another tab has the game: no failure of storage
                return
            kept = written is True
        if kept != (not self.failing):
            self.failing = not kept
            self.draw_banner()

    def draw_banner(self):
        self.part(".storage-banner").hidden = not self.failing
        if self.failing:
            self.dom.table.setAttribute("data-saving", "failed")
        else:
            self.dom.table.removeAttribute("data-saving")

    def download_game(self):
        """The game on the table as a game file (replay.html opens it; a restore too)."""
        if self.last_save is not None:
            window.cribbageStorage.download(GAME_FILE, self.last_save)

    # --- saves set aside ---------------------------------------------------------------

    def set_aside(self, text, reason, newer):
        """Move the stored save ``text`` out of the way, unchanged, under a key of its
        own (the oldest past ASIDE_KEPT dropped); its key, or None if storage refused
        (then it stays where it is, held in memory, and no save replaces it)."""
        key, drop = stored.aside_plan(storage_keys())
        record = stored.aside_record(text, reason, newer, window.Date.now())
        if not storage_set(key, record):
            self.held = text
            warn("The saved game could not be set aside: storage is full or blocked")
            return None
        for old in drop:
            storage_set(old, None)
        if storage_get(SAVE_KEY) == text:
            storage_set(SAVE_KEY, None)
        self.held = None
        return key

    def put_aside(self, text, reason, newer):
        """A save the page cannot load, at the start: set aside, and offered in the
        new-game dialog's notice (downloaded from memory if storage refused)."""
        self.set_aside(text, reason, newer)
        self.aside_text = text
        warn("The saved game was set aside: " + str(reason))

    def draw_notice_offer(self, notice):
        """The notice's download button, for the notices that name a save set aside."""
        button = self.dom.form.querySelector("[data-action=aside-download]")
        button.hidden = not (notice is not None and notice[0] in ASIDE_NOTICES
                             and self.aside_text is not None)

    def asides(self):
        """The saves set aside, newest first: ``[(key, record)]``."""
        found = []
        for number in reversed(stored.aside_numbers(storage_keys())):
            key = stored.ASIDE_PREFIX + str(number)
            record = stored.read_aside(storage_get(key))
            if record is not None:
                found.append((key, record))
        return found

    def download_aside(self, target):
        """A save set aside as a file (a restore, here or in a newer version, opens it)."""
        key = target.getAttribute("data-aside")
        record = stored.read_aside(storage_get(key)) if key else None
        text = record["text"] if record is not None else self.aside_text
        if text is not None:
            window.cribbageStorage.download(ASIDE_FILE, text)

    # --- the statistics dialog's data section ---------------------------------------------

    def show(self):
        """The statistics opened: draw the section, then ask the browser's estimate."""
        self.pending = None
        self.message = None
        self.draw()
        asyncio.create_task(self.fetch_estimate())

    async def fetch_estimate(self):
        try:
            self.estimate = json.loads(str(await window.cribbageStorage.estimate()))
        except Exception:  # an estimate is a courtesy: nothing to say without it
            self.estimate = None
        if not self.dom.stats.hidden:
            self.draw_estimate()

    def draw(self):
        self.draw_estimate()
        self.draw_asides()
        self.draw_confirm()
        line = self.dom.stats.querySelector(".backup-message")
        line.hidden = self.message is None
        line.textContent = self.words.t(self.message[0], self.message[1]) if self.message else ""

    def draw_estimate(self):
        estimate = self.estimate
        line = self.dom.stats.querySelector(".storage-estimate")
        if not isinstance(estimate, dict) or not estimate.get("quota"):
            line.textContent = self.words.t("data.estimate_unknown")
            return
        # Two sentences joined as the language joins them (Japanese: no space after 。).
        line.textContent = self.words.t("data.estimate_and_keep", {
            "estimate": self.words.t("data.estimate", {
                "used": megabytes(estimate.get("usage") or 0),
                "quota": megabytes(estimate["quota"])}),
            "keep": self.words.t("data.kept" if estimate.get("persisted") else "data.not_kept")})

    def draw_asides(self):
        spot = self.dom.stats.querySelector(".aside-list")
        items = []
        for key, record in self.asides():
            when = ""
            if record["when"] is not None:
                when = str(window.Date.new(record["when"]).toLocaleString(self.words.lang))
            why = self.words.t("aside.newer" if record["newer"] else "aside.damaged")
            items.append('<li><span>' + tableview.html(self.words.t("aside.item", {
                "when": when, "why": why})) + '</span> <button type="button" class="quiet" '
                'data-action="aside-download" data-aside="' + tableview.html(key) + '">'
                + tableview.html(self.words.t("aside.download_one")) + "</button></li>")
        spot.hidden = not items
        spot.innerHTML = ("<p>" + tableview.html(self.words.t("aside.title")) + "</p><ul>"
                          + "".join(items) + "</ul>") if items else ""

    def draw_confirm(self):
        box = self.dom.stats.querySelector(".backup-confirm")
        plan = self.pending
        box.hidden = plan is None
        if plan is None:
            return
        parts = [self.words.t("data.part." + part, {"games": plan["games"]})
                 for part in plan["parts"]]
        text = self.words.t("data.confirm", {"parts": self.words.joined(parts)})
        if plan["game"] is not None and storage_get(SAVE_KEY) is not None:
            text += " " + self.words.t("data.confirm_aside")
        box.querySelector(".backup-question").textContent = text

    def say(self, key, values=None):
        self.message = (key, values or {}) if key is not None else None
        self.draw()

    def redraw(self):
        """The section again in the page's language (when the statistics are open)."""
        if not self.dom.stats.hidden:
            self.draw()

    # --- backup and restore ------------------------------------------------------------------

    def export(self):
        """Everything the site keeps for the player, as one file."""
        made = str(window.Date.new().toISOString())

        def get(key):  # the game as the table holds it, also when storage refused it
            if key == SAVE_KEY and self.failing and self.last_envelope is not None:
                return self.last_envelope
            return storage_get(key)

        text = backup.make_backup(get, storage_keys(), made)
        window.cribbageStorage.download("cribbage-backup-" + made[:10] + ".json", text)
        self.say("data.exported")

    async def open_file(self, event):
        """A file chosen to restore: checked whole; if it is ours, the dialog asks."""
        files = event.target.files
        if not files or files.length == 0:
            return
        chosen = files.item(0)
        event.target.value = ""  # the same file may be chosen again
        self.pending = None
        if chosen.size > backup.MAX_BACKUP:
            self.say("data.bad_file", {"reason": self.words.t("data.too_large")})
            return
        try:
            text = str(await chosen.text())
            self.pending = backup.read_backup(text, self.state.hello)
        except backup.BackupError as error:
            self.say("data.newer_file" if error.newer else "data.bad_file",
                     {"reason": str(error)})
            return
        except Exception as error:  # the file could not be read at all
            self.say("data.bad_file", {"reason": str(error)})
            return
        self.say(None)  # the question: focus on its safe answer, so Enter replaces nothing
        self.dom.stats.querySelector("[data-action=backup-cancel]").focus(
            to_js({"preventScroll": False}))

    def cancel(self):
        self.pending = None
        self.say("data.kept_mine")
        self.dom.stats.querySelector("input[name=backup-file]").focus()

    async def restore(self):
        """The player said yes: the engine checks the game, the game on the table is set
        aside, everything is written, and the page starts again from it. If storage
        refuses a write, the engine goes back to the game on the table and the dialog
        says so."""
        plan, self.pending = self.pending, None
        if plan is None:
            return
        for _ in range(200):  # let a move on its way land first
            if not self.state.busy:
                break
            await asyncio.sleep(0.05)
        self.restoring = True  # no move of the game on the table may overwrite the restore
        if plan["game"] is not None:
            ok, result = await self.game.call("load", {"save": plan["game"]})
            if not ok:
                self.restoring = False
                self.say("data.game_refused", {"reason": shell.error_text(self.words, result)})
                return
        stored_ok = True
        current = storage_get(SAVE_KEY)
        if plan["game"] is not None and current is not None:
            stored_ok = self.set_aside(current, "replaced by a restore", False) is not None
            self.held = None  # the table's own game: its next save may replace it
        if stored_ok:
            books = load(STATS_BOOKS_KEY, stored.load_books)
            failed = [key for key, text in backup.restore_writes(plan, books, storage_keys())
                      if not storage_set(key, text)]
            stored_ok = not failed
            if failed:
                warn("Not restored: " + ", ".join(failed))
        if stored_ok:
            window.location.reload()
            return
        if plan["game"] is not None and self.last_save is not None:  # the table's game again
            await self.game.call("load", {"save": self.last_save, "seat": self.state.viewer})
        self.restoring = False
        self.say("data.not_stored")

    def on_action(self, action, target):
        if action == "download-game":
            self.download_game()
        elif action == "aside-download":
            self.download_aside(target)
        elif action == "backup-export":
            self.export()
        elif action == "backup-replace":
            asyncio.create_task(self.restore())
        elif action == "backup-cancel":
            self.cancel()


def megabytes(size):
    """A size in bytes for people: ``'1.2 MB'``, or ``'10.7 GB'`` from a thousand MB."""
    if size >= 1000000000:
        return "%.1f GB" % (size / 1000000000)
    return "%.1f MB" % (size / 1000000)
