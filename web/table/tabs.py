"""One game, one writer: the tabs of the site share the saved game (MicroPython).

Every tab of the site reads the same save (localStorage ``cribbage.save``), so
only one of them writes it: the tab the game was last started, resumed or
continued in. Taking the game, a tab writes its own random id under
``cribbage.writer``; the browser tells every other tab of the site with a
``storage`` event, and each of them stops where it is and covers its table
with "This game continues in another tab — Continue here" (``#elsewhere``;
the table's ``data-tab`` is ``elsewhere``). A save written by another tab
(an older copy of the site that knows no writer) does the same. **Continue
here** reloads the game from the save and takes it, and the other tab steps
aside in turn. A tab that has just taken the game may still hear the other
tab's last moves (it had them on their way): it then reloads the game from
that newer save, as Continue here does.

Every write of the save is checked first (tabsync.may_replace): over the save
this tab last wrote or loaded, or over one it extends, never over another
tab's newer moves; a refused write makes this tab step aside. So the saved
move list only grows, except by this tab's own take-back or new game.
"""

import asyncio

import tabsync
from dom import SAVE_KEY, storage_get, storage_set
from pyscript import document, window
from pyscript.ffi import create_proxy, to_js

WRITER_KEY = "cribbage.writer"  # the id of the tab that writes the game


class Tabs:
    """This tab's part in sharing the game: ``game`` is its TableGame."""

    def __init__(self, dom, game):
        self.dom = dom
        self.game = game
        # A new id at every page load: a random number and the page's start time.
        self.id = ("tab-" + str(int(window.Math.random() * 1e9)) + "-"
                   + str(int(window.performance.timeOrigin)))
        self.base = None  # the save this tab last wrote or loaded
        self.away = False  # another tab has taken the game: this one writes nothing
        self.said = False  # this tab's id is in storage (a full store may refuse even that)
        self.following = False  # reloading from a newer save another tab wrote
        self.era = 0  # counts the times this tab took the game: older work is dropped
        self.screen = document.getElementById("elsewhere")

    def listen(self):
        """Hear other tabs write (the storage event never fires in the writing tab).

        On the window object itself (``document.defaultView``): PyScript's
        ``window`` is MicroPython's ``js`` module, whose functions are called
        without a ``this``, and an event target's method refuses that."""
        document.defaultView.addEventListener("storage", create_proxy(self.on_storage))

    def on_storage(self, event):
        key, value = event.key, event.newValue
        if key == WRITER_KEY and value != self.id:
            self.step_aside()
        elif key == SAVE_KEY and value != self.base:
            self.fall_behind(value is not None and tabsync.extends(self.base, value))

    def fall_behind(self, extended):
        """Another tab wrote the save. Still writing our game before it heard that this
        tab took it (``extended``: its save extends ours), it is followed; else this tab
        steps aside."""
        if self.away:
            return
        if extended and self.said and storage_get(WRITER_KEY) == self.id:
            asyncio.create_task(self.follow())
        else:
            self.step_aside()

    def take(self):
        """This tab writes the game from now on, from the save as it stands (a new game
        started here replaces it: the player chose to)."""
        self.era += 1
        storage_set(WRITER_KEY, self.id)
        self.said = storage_get(WRITER_KEY) == self.id
        self.base = storage_get(SAVE_KEY)
        self.away = False
        self.screen.hidden = True
        self.dom.table.removeAttribute("data-tab")
        self.cover(False)

    def stale(self, era):
        """Whether work begun in ``era`` must stop: another tab has the game, or this
        tab took it again since (a newer save is being loaded)."""
        return self.away or era != self.era

    def write(self, text):
        """Save ``text`` unless it would lose a move of the stored save (another tab's):
        True when stored, False when another tab has the game, None when storage refused
        (the game stays this tab's; the next save tries again)."""
        if self.away:
            return False
        writer = storage_get(WRITER_KEY)
        stored = storage_get(SAVE_KEY)
        if self.said and writer is not None and writer != self.id:
            print("Not saved: another tab has taken this game")
            self.step_aside()
            return False
        if not tabsync.may_replace(stored, self.base, text):
            print("Not saved: another tab has moved this game on")
            self.fall_behind(stored is not None and tabsync.extends(self.base, stored))
            return False
        if not storage_set(SAVE_KEY, text):
            return None
        self.base = text
        return True

    def owns_save(self):
        """Whether the stored save is this tab's game as this tab last saw it (a finished
        game's save is then this tab's to count and put away)."""
        stored = storage_get(SAVE_KEY)
        return (not self.away and stored is not None and self.base is not None
                and tabsync.may_replace(stored, self.base, self.base))

    def step_aside(self):
        """Another tab has the game: stop here and offer to continue it here."""
        if self.away:
            return
        self.away = True
        self.dom.table.setAttribute("data-tab", "elsewhere")
        self.cover(True)
        self.screen.hidden = False
        self.game.place_dialogs()
        self.screen.querySelector("[data-action=continue-here]").focus(
            to_js({"preventScroll": True}))

    def cover(self, inert):
        """Make the table behind the screen inert (no focus, no clicks), or live again;
        the header (the language, the statistics) stays as it is."""
        for part in self.dom.table.children:
            if part != self.screen and part != self.dom.header:
                part.inert = inert

    async def follow(self):
        """Reload the game from the newer save (this tab keeps it)."""
        if self.following:
            return
        self.following, self.away = True, True  # this tab's game loop stops at its next step
        await self.loop_stopped()
        self.following, self.away = False, False
        if storage_get(WRITER_KEY) != self.id:  # a third tab took it meanwhile
            self.step_aside()
            return
        await self.game.resume_saved()

    async def continue_here(self):
        """Continue here: let this tab's game loop stop, then take the game from the save."""
        await self.loop_stopped()
        self.dom.game_over.hidden = True  # what this tab showed of its game goes
        self.game.review.close()
        if storage_get(SAVE_KEY) is None:  # the game was finished in the other tab
            self.take()
            self.game.state.view = None
            self.game.open_dialog()
            return
        await self.game.resume_saved()

    async def loop_stopped(self):
        """Wait until this tab's game loop, away, has stopped (or waits for a click)."""
        state = self.game.state
        for _ in range(200):  # a move on its way ends at the loop's next step (it is away)
            parked = state.continue_event is not None or self.game.handoff.shown is not None
            if not state.busy or parked:  # a loop waiting for a click is left to wait
                break
            await asyncio.sleep(0.05)
