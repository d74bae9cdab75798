"""The table's keyboard, focus, dialogs and comforts (MicroPython, main thread).

A mixin of :class:`tablegame.TableGame` (which provides ``dom``, ``state``,
``words``, ``call``, ``begin``, ``advance``, ``human_move``, ``pick``,
``close_dialog``, ``show_error`` and ``friend``): where the keyboard's focus goes after
every action, the shortcuts, dialogs that fit below the header and never
stack, double click and drag to play, take back, resign and the card sounds.
Kept apart so each module compiles in a short main-thread task.
"""

import asyncio

from pyscript import document, window
from pyscript.ffi import to_js


class TableInput:
    """Keyboard, focus, dialogs and comforts of one table (see the module's doc)."""

    def place_dialogs(self, event=None):
        """Open dialogs start below the header (which stays usable) and fit the viewport:
        the CSS reads --dialog-top; a dialog taller than the rest scrolls inside."""
        rect = self.dom.header.getBoundingClientRect()
        top = max(8, int(rect.bottom) + 8)
        if top > window.innerHeight * 0.45:  # a very short window: use the whole height
            top = 8
        # Through the CSSOM (a style attribute would break the page's strict CSP).
        document.documentElement.style.setProperty("--dialog-top", str(top) + "px")

    # --- focus and keys -------------------------------------------------------------

    def dialog_open(self):
        if self.tabs.away:  # another tab has the game: its screen covers the table
            return True
        return not (self.dom.form.hidden and self.dom.game_over.hidden and self.dom.stats.hidden
                    and not self.review.is_open() and not self.peer_dialog_open())

    def peer_dialog_open(self):
        """The connection dialog of a game with a friend on another device."""
        screen = self.dom.part("#peer")
        return screen is not None and not screen.hidden

    def focus_target(self):
        """The next sensible control for the keyboard, from the phase and whose turn it is."""
        state, part = self.state, self.dom.part
        if not self.dom.game_over.hidden:
            return self.dom.game_over.querySelector("[data-action=new-game]")
        if state.showing is not None:  # the show counted in the middle, then Continue
            if state.showing["waiting"]:
                return part(".actions [data-action=continue]")
            return part(".show-stage")
        view = state.view
        if view is None:
            return None
        if not state.my_turn():
            return part(".seat-human")  # the hand waits (tabindex -1) while others move
        for selector in (".actions input[name=points]", ".actions [data-action=muggins]",
                         ".actions [data-action=cut]"):
            if part(selector) is not None:
                return part(selector)
        if view["phase"] == "discard":
            if len(state.selected) == view["discards_each"]:
                return part(".actions [data-action=send]")
            return part(".seat-human button.card:not([disabled]):not(.selected)")
        if view["phase"] == "play":
            card = part(".seat-human button.card:not([disabled])")
            return card if card is not None else part(".actions [data-action=go]")
        return part(".seat-human")

    def settle_focus(self, force=False):
        """Never leave the keyboard's focus on <body> (or on a control that went away):
        after every action it moves to the next sensible control."""
        if self.dialog_open() and self.dom.game_over.hidden:
            return
        active = document.activeElement
        placeholder = active is None or active == document.body or not active.isConnected
        if not placeholder:
            # (a link or a section has no "disabled": MicroPython raises for it)
            placeholder = (active.classList.contains("seat-human")
                           or getattr(active, "disabled", None) is True
                           or active.getClientRects().length == 0)
        if not (force or placeholder):
            return
        target = self.focus_target()
        if target is not None and target != active:
            target.focus()

    def on_key(self, event):
        """The keyboard shortcuts (docs/accessibility.md, the page's help line): 1-7 pick or play
        the n-th card, G says Go, Enter continues, U takes back, H asks the coach; Enter in
        the points field says the count; Escape closes the statistics or the review, or goes back to
        the game from the new-game dialog."""
        if event.ctrlKey or event.metaKey or event.altKey:
            return
        target = event.target
        tag = str(target.tagName).lower() if target is not None and target.tagName else ""
        key = str(event.key)
        if tag == "input" and target.name == "points":
            if key == "Enter":
                event.preventDefault()
                self.press(".actions [data-action=count]")
            return
        if key == "Escape" and not self.dom.stats.hidden:
            self.close_stats()
            return
        if key == "Escape" and self.review.is_open():
            self.review.close()
            return
        if key == "Escape" and not self.dom.form.hidden and not self.dom.form.querySelector(
                "[data-action=close-dialog]").hidden:
            self.close_dialog()  # back to the game in progress
            return
        if tag in ("input", "select", "textarea") or self.dialog_open():
            return
        if key in ("ArrowLeft", "ArrowRight") and tag == "button" and target.classList.contains(
                "show-tab"):
            event.preventDefault()  # the show's tabs: the next or the previous count
            self.show.step_to(1 if key == "ArrowRight" else -1)
            return
        if key in ("1", "2", "3", "4", "5", "6", "7"):  # seven-card hands have a seventh
            cards = self.dom.table.querySelectorAll(".seat-human .hand button.card")
            index = int(key) - 1
            if index < cards.length and not cards.item(index).disabled:
                event.preventDefault()
                cards.item(index).click()
        elif key in ("g", "G"):
            self.press(".actions [data-action=go]", event)
        elif key in ("u", "U"):
            self.press(".actions [data-action=undo]", event)
        elif key in ("h", "H"):
            self.press(".actions [data-action=hint]", event)
        elif key == "Enter" and tag not in ("button", "a", "summary"):
            self.press(".actions [data-action=continue]", event)

    def press(self, selector, event=None):
        button = self.dom.part(selector)
        if button is not None and not button.disabled:
            if event is not None:
                event.preventDefault()
            button.click()

    async def take_back(self):
        """Take back the human's last choice in this deal (the engine replays the game
        to it and counts the take-back in the save); the table is drawn again."""
        state = self.state
        if state.busy or state.view is None:
            return
        state.busy = True
        ok, result = await self.call("undo", {"seat": state.viewer, "proof": True})
        state.busy = False
        if not ok:
            self.show_error(result)
            return
        self.begin(state.settings, result["view"])
        self.dom.part(".announce").innerHTML = ""
        await self.advance(result, replaying=True)
        self.settle_focus(force=True)

    async def resign(self):
        """The human concedes: the engine ends the game as a loss, recorded."""
        state = self.state
        if state.view is None or state.view["phase"] == "over":
            return
        self.close_dialog()
        if state.continue_event is not None:  # a show waits: let it go first
            state.continue_event.set()
        if self.friend.started:  # at once, whoever's turn: the end comes as the friend's moves
            await self.friend.resign()
            return
        for _ in range(200):  # and let a computer's move land
            if not state.busy:
                break
            await asyncio.sleep(0.05)
        state.busy = True
        ok, result = await self.call("resign", self.update_request({}))
        state.busy = False
        if not ok:
            self.show_error(result)
            return
        await self.advance(result)

    def sound(self, kind):
        """A short click (Web Audio oscillator, no audio files) when sounds are on."""
        box = self.dom.form.querySelector("input[name=sounds]")
        if box is None or not box.checked:
            return
        try:
            if self.state.audio is None:
                self.state.audio = window.AudioContext.new()
            audio = self.state.audio
            now = audio.currentTime
            tone = audio.createOscillator()
            gain = audio.createGain()
            tone.type = "triangle"
            tone.frequency.value = 660 if kind == "peg" else 330
            gain.gain.setValueAtTime(0.12, now)
            gain.gain.exponentialRampToValueAtTime(0.001, now + 0.12)
            tone.connect(gain)
            gain.connect(audio.destination)
            tone.start(now)
            tone.stop(now + 0.13)
        except Exception:  # no Web Audio here: the game goes on silently
            pass

    def open_stats(self, opener):
        """Statistics replace the dialog they were opened from (no stacking); Close
        brings it back and focus returns to the opener."""
        state = self.state
        state.stats_from = None
        for dialog in (self.dom.game_over, self.dom.form):
            if not dialog.hidden:
                state.stats_from = dialog
                dialog.hidden = True
        state.stats_opener = opener
        self.coach.show_stats()
        self.saves.show()  # the data section: storage, backups, saves set aside
        self.place_dialogs()
        # Focus on Close without scrolling to it: the statistics open at their top.
        self.dom.stats.querySelector("[data-action=stats-close]").focus(
            to_js({"preventScroll": True}))
        self.dom.stats.scrollTop = 0

    def close_stats(self):
        state = self.state
        self.dom.stats.hidden = True
        if state.stats_from is not None:
            state.stats_from.hidden = False
            state.stats_from = None
        opener = state.stats_opener
        state.stats_opener = None
        if opener is not None and opener.isConnected and opener.getClientRects().length:
            opener.focus()
        else:
            self.settle_focus()

    def on_double(self, event):
        """A double click (or double tap) on a card in the discard picks it and, once
        the crib's share is chosen, sends it."""
        target = event.target.closest("button.card[data-action=pick]")
        state = self.state
        if target is None or target.disabled or state.busy or state.view is None:
            return
        code = target.getAttribute("data-card")
        if code not in state.selected:
            self.pick(code)
        if len(state.selected) == state.view["discards_each"]:
            asyncio.create_task(self.human_move("discard " + " ".join(state.selected)))

    def on_drag_start(self, event):
        card = event.target.closest("button.card[data-action=play]")
        if card is not None and not card.disabled:
            event.dataTransfer.setData("text/plain", card.getAttribute("data-card"))
            event.dataTransfer.effectAllowed = "move"
            self.dom.table.setAttribute("data-dragging", "card")

    def on_drag_over(self, event):
        if self.dom.table.getAttribute("data-dragging") and event.target.closest(".play-area"):
            event.preventDefault()  # the pile takes the card

    def on_drop(self, event):
        """A card dragged onto the pile is played (as a tap on it would be)."""
        self.dom.table.removeAttribute("data-dragging")
        if not event.target.closest(".play-area"):
            return
        event.preventDefault()
        code = str(event.dataTransfer.getData("text/plain"))
        card = self.dom.part('.seat-human button.card[data-action=play][data-card="' + code + '"]')
        if card is not None and not card.disabled and not self.state.busy:
            asyncio.create_task(self.human_move("play " + code))

    def on_drag_end(self, event):
        self.dom.table.removeAttribute("data-dragging")
