"""The replay viewer (replay.html): MicroPython on the main thread, like the table.

Which game it shows, from the page's address:

- ``replay.html#r=<link>``: a share link (cribbage/replay.py describes its
  text; the fragment never reaches a server). The engine decodes and checks it;
  a bad link gets the engine's reason and nothing else is drawn.
- any other fragment: a bad link, said as such (never the table's game instead).
- ``replay.html``: the table's game in progress (localStorage), else the last
  game finished at the table, seen from the player's seat.
- a file the player opens (a save, as the Download button writes it): checked
  by the engine as strictly as a saved game; a bad file changes nothing.

The engine (the ``replay`` endpoint) sends every step as the viewer may see
it; ``replayview.Replayed`` turns the steps into frames (each step, and each
count of a show before the step that counted it) drawn with the table's parts on
the table's felt and board. ``#replay[data-state]`` is ``loading``, ``ready``,
``empty`` (no game) or ``error`` (a bad link); ``data-step`` is the step on
screen, ``data-frame`` the frame, ``data-deal`` its deal, ``data-show`` the kind
of count on screen in the show (``hand``, ``crib``), ``data-playing`` whether it
plays by itself, and ``data-opening`` the step a game opens on (its first deal,
dealt). The board is drawn once a game (and language) and its pegs then hop from
frame to frame, as at the table.
"""

import asyncio
import json

import handoffview
import replayview
import shell
import stored
from dom import (
    FINISHED_KEY,
    SAVE_KEY,
    SETTINGS_KEY,
    VIEWER_KEY,
    load,
    storage_get,
    url_speed,
    warn,
)
from pyscript import document, window
from pyscript.ffi import create_proxy, to_js
from shell import i18n
from tableview import HUMAN, read_envelope

LINK_PREFIX = "#r="
MAX_FILE = 1000000  # bytes: a saved game is a few kilobytes
PARTS = (".you", ".opponents", ".starter", ".count", ".pile", ".crib-spot",
         ".seat-human .hand", ".replay-show", ".replay-events", ".replay-caption")
STEPS = ("first", "back", "forward", "last")
NOT_FOR_SPACE = ("button", "a", "select", "textarea", "summary")  # Space is theirs


def own_seat(settings):
    """The table's viewer in the saved game: its one person, or in pass-and-play the
    person who last had the device (during a game only that seat's hand shows)."""
    try:
        persons = handoffview.people(settings)
    except (AttributeError, KeyError, TypeError, ValueError):  # settings of an odd save
        persons = []
    seat = load(VIEWER_KEY, stored.load_seat)
    if seat in persons and len(persons) > 1:
        return seat
    return persons[0] if persons else HUMAN


class Viewer:
    """One replay on screen: the engine's steps as frames, the frame shown, playing or
    not, the page's words."""

    def __init__(self):
        self.root = document.getElementById("replay")
        self.words = shell.Words()
        self.engine = None
        self.replay = None  # the engine's reply, once a game is shown
        self.shown = None  # the replay as frames (replayview.Replayed), in the page's words
        self.own = False  # the page's own game (names: You, Computer)
        self.settings = None  # the table's settings of its own game (the panels' levels)
        self.frame = 0
        self.message = None  # (key, values) of the message on screen, said again on a switch
        self.pegs = None  # each frame's [front, back] of each lane (pegboard.mjs pegsAlong)
        self.drawn = False  # whether this game's board is drawn
        self.playing = False
        self.turn = 0  # the play loop's ticket: a new one stops the loop waiting
        forced = url_speed()
        self.speed = 1.0 if forced is None else forced

    def part(self, selector):
        return self.root.querySelector(selector)

    async def call(self, name, payload):
        """Call an engine endpoint; (ok, result or error), never raises."""
        try:
            text = await getattr(self.engine, name)(shell.request(payload))
        except Exception as error:  # the worker died or the call failed in transit
            return False, {"kind": "internal", "type": "WorkerError", "message": str(error)}
        return shell.parse_reply(text)

    # --- which game --------------------------------------------------------------

    async def open_from_address(self):
        """The game the address names: a share link, else the table's game."""
        fragment = str(window.location.hash or "")
        if fragment.startswith(LINK_PREFIX):
            link = fragment[len(LINK_PREFIX):]
            ok, result = await self.call("replay", {"link": link})
            if ok:
                self.show(result, own=False)
            else:
                self.fail("replay.bad_link", {"reason": shell.error_text(self.words, result)})
            return
        if fragment:  # some other fragment: a mangled or foreign link, not the table's game
            self.fail("replay.bad_link", {"reason": self.words.t("replay.not_a_link")})
            return
        save, settings = None, None
        for key in (SAVE_KEY, FINISHED_KEY):  # the game in progress, else the last finished
            text = storage_get(key)
            if text is None:
                continue
            try:
                settings, save = read_envelope(text)
                break
            except ValueError as error:  # the table sets it aside when it loads
                warn("Stored " + key + " not shown (" + str(error) + ")")
        if save is None:
            self.fail("replay.none", {}, state="empty")
            return
        ok, result = await self.call("replay", {"save": save, "seat": own_seat(settings)})
        if ok:
            self.show(result, own=True, settings=settings)
        else:
            self.fail("replay.bad_save", {"reason": shell.error_text(self.words, result)})

    async def open_file(self, event):
        """A game file the player chose: shown if the engine accepts it, else a message
        and the replay on screen stays as it was."""
        files = event.target.files
        if not files or files.length == 0:
            return
        chosen = files.item(0)
        event.target.value = ""  # the same file may be chosen again
        if chosen.size > MAX_FILE:
            self.say("replay.bad_file", {"reason": self.words.t("replay.too_large")})
            return
        try:
            text = str(await chosen.text())
        except Exception as error:
            self.say("replay.bad_file", {"reason": str(error)})
            return
        ok, result = await self.call("replay", {"save": text, "seat": HUMAN})
        if not ok:
            self.say("replay.bad_file", {"reason": shell.error_text(self.words, result)})
            return
        if str(window.location.hash or ""):  # the address no longer names what is shown
            window.history.replaceState(None, "", window.location.pathname)
        self.show(result, own=False)
        self.say("replay.opened", {})

    # --- drawing -------------------------------------------------------------------

    def show(self, replay, own, settings=None):
        """Show a game the engine accepted, from its first deal, paused."""
        self.replay, self.own, self.settings = replay, own, settings
        self.set_playing(False)
        self.say(None, None)
        self.root.setAttribute("data-state", "ready")
        self.root.setAttribute("data-over", "true" if replay["over"] else "false")
        self.part(".replay-link").value = self.share_address()
        self.root.setAttribute("data-opening", str(replayview.Replayed.opening_of(replay)))
        self.redraw(None)

    def redraw(self, frame):
        """Draw the game anew in the page's words (the board too), at ``frame`` (None:
        where it opens)."""
        levels = replayview.seat_levels(self.words, self.settings, self.replay["players"])
        self.shown = replayview.Replayed(self.words, self.replay, self.own, levels)
        # The pegs of every frame, as the board's module leapfrogs them (a list crosses
        # from JavaScript most simply as text).
        self.pegs = json.loads(str(window.JSON.stringify(
            window.cribbageBoard.pegsAlong(to_js(self.shown.scores)))))
        self.drawn = False
        marks = self.part(".deal-marks")
        marks.innerHTML = self.shown.marks_html()
        for mark in marks.querySelectorAll(".deal-mark"):  # placed through the CSSOM
            mark.style.setProperty("--at", mark.getAttribute("data-at"))
        self.part(".replay-scrubber").max = str(self.shown.last())
        self.part(".replay-seen").textContent = self.words.t(
            "replay.seen_all" if self.replay["over"] else "replay.seen_own")
        self.go(self.shown.opening() if frame is None else frame)

    def fail(self, key, values, state="error"):
        """A message and nothing else: no step of any game stays on the page."""
        self.set_playing(False)
        self.replay, self.shown, self.pegs, self.drawn = None, None, None, False
        for selector in PARTS + (".board", ".deal-marks", ".replay-position", ".replay-seen"):
            self.part(selector).innerHTML = ""
        self.part(".replay-show").hidden = True
        self.part(".replay-link").value = ""
        for name in ("data-step", "data-frame", "data-deal", "data-show", "data-opening"):
            self.root.removeAttribute(name)
        self.root.setAttribute("data-state", state)
        self.say(key, values)

    def say(self, key, values, link=False):
        """The message line (None: none); kept so a language switch says it again.
        ``link``: the share link's box shows under it."""
        self.message = (key, values, link) if key is not None else None
        line = self.part(".replay-message")
        line.hidden = key is None
        self.part(".replay-link-label").hidden = not link
        line.textContent = self.words.t(key, values) if key is not None else ""

    def go(self, frame):
        """Draw frame ``frame``."""
        shown = self.shown
        if shown is None:
            return
        self.frame = max(0, min(shown.last(), frame))
        frame = self.frame
        parts = shown.parts(frame)
        for selector in PARTS:
            if selector == ".replay-caption":
                self.part(selector).textContent = parts[selector]
            else:
                self.part(selector).innerHTML = parts[selector]
        self.part(".opponents").setAttribute("data-players", str(self.replay["players"]))
        hand = self.part(".seat-human .hand")
        hand.setAttribute("data-size", str(hand.children.length))
        self.part(".seat-human").setAttribute("aria-label", self.words.t("area.hand") if self.own
                                              else self.words.t("show.hand", {
                                                  "who": shown.names[shown.viewer]}))
        counted = shown.counted(frame)
        self.part(".replay-show").hidden = counted is None
        if counted is None:
            self.root.removeAttribute("data-show")
        else:
            self.root.setAttribute("data-show", counted["kind"])
        self.place_pegs(frame)
        self.mark_position(frame)

    def mark_position(self, frame):
        """The scrubber, the deal's mark, the buttons at the ends and the contract's
        attributes for ``frame``."""
        shown = self.shown
        scrubber = self.part(".replay-scrubber")
        scrubber.value = str(frame)
        scrubber.style.setProperty("--done", str(frame / max(1, shown.last())))
        scrubber.setAttribute("aria-valuetext", shown.where(frame))
        self.part(".replay-position").textContent = shown.position(frame)
        deal = shown.deal(frame)
        for mark in self.part(".deal-marks").querySelectorAll(".deal-mark"):
            if mark.getAttribute("data-deal") == str(deal):
                mark.setAttribute("aria-current", "true")
            else:
                mark.removeAttribute("aria-current")
        last = shown.last()
        for action, disabled in (("first", frame == 0), ("back", frame == 0),
                                 ("forward", frame == last), ("last", frame == last)):
            self.part(".replay-buttons [data-action=" + action + "]").disabled = disabled
        self.root.setAttribute("data-step", str(shown.step(frame)))
        self.root.setAttribute("data-frame", str(frame))
        self.root.setAttribute("data-deal", str(deal))

    def place_pegs(self, frame):
        """The board for this game (drawn once) with the pegs at the frame, moved by the
        board's module (a peg that leapfrogs the other trades places with it, so only it
        moves)."""
        pegs = self.pegs[frame]
        if not self.drawn:
            options = self.shown.board_options()
            options["pegs"] = pegs
            window.cribbageBoard.drawBoard(self.part(".board"), to_js(options))
            self.drawn = True
            return
        board = self.part(".board svg.pegboard")
        for team, (front, back) in enumerate(pegs):
            window.cribbageBoard.placePegs(board, team, front, back)

    def share_address(self):
        """The page's address with the game's share link as its fragment."""
        base = str(window.location.href).split("#")[0]
        return base + LINK_PREFIX + self.replay["link"]

    # --- playing -------------------------------------------------------------------

    def set_playing(self, playing):
        """Play (each frame after the last, at the chosen speed, to the end) or pause;
        the button and a status line say which."""
        if self.shown is None:
            playing = False
        if playing and self.frame >= self.shown.last():
            self.go(self.shown.opening())  # played to the end: from the start again
        self.playing = playing
        self.turn += 1
        self.root.setAttribute("data-playing", "true" if playing else "false")
        word = self.part(".replay-play .word")
        key = "replay.pause" if playing else "replay.play"
        word.setAttribute("data-i18n", "ui." + key)
        word.textContent = self.words.t(key)
        status = self.part(".replay-playing")
        said = self.words.t("replay.playing" if playing else "replay.paused")
        if self.shown is not None and status.textContent != said:
            status.textContent = said
        if playing:
            asyncio.create_task(self.play(self.turn))

    def moved(self):
        """A frame chosen by hand: the message over the felt goes, and playing waits
        its full pause from here."""
        if self.message is not None:
            self.say(None, None)
        if self.playing:
            self.turn += 1
            asyncio.create_task(self.play(self.turn))

    async def play(self, turn):
        while True:
            await asyncio.sleep(self.shown.pause(self.frame, self.speed))
            if turn != self.turn or self.shown is None:
                return  # paused, or restarted from another frame
            if self.frame >= self.shown.last():
                self.set_playing(False)
                return
            self.go(self.frame + 1)

    # --- input -----------------------------------------------------------------------

    def on_click(self, event):
        button = event.target.closest("button[data-action]")
        if button is None:
            return
        action = str(button.getAttribute("data-action"))
        if action == "open":
            self.close_menu()
            self.part(".replay-file").click()
        elif action == "dismiss":
            self.say(None, None)
        if self.shown is None:
            return
        frames = {"first": 0, "back": self.frame - 1, "forward": self.frame + 1,
                  "last": self.shown.last()}
        if action in frames:
            self.go(frames[action])
            self.moved()
            if button.disabled:  # at an end: keep the focus on the controls
                self.part(".replay-buttons button:not([disabled])").focus()
        elif action == "deal":
            self.go(int(button.getAttribute("data-frame")))
            self.moved()
        elif action == "play":
            self.set_playing(not self.playing)
        elif action == "download":
            self.close_menu()
            self.download()
        elif action == "share":
            self.close_menu()
            asyncio.create_task(self.copy_link())

    def on_key(self, event):
        if self.shown is None or event.ctrlKey or event.altKey or event.metaKey:
            return
        try:
            tag = str(event.target.tagName or "").lower()
            kind = str(event.target.type or "") if tag == "input" else ""
        except AttributeError:  # the document itself has no tag
            tag, kind = "", ""
        key = str(event.key)
        if key == " ":
            if tag not in NOT_FOR_SPACE and (tag != "input" or kind == "range"):
                event.preventDefault()
                self.set_playing(not self.playing)
            return
        if tag in ("input", "select", "textarea"):
            if kind != "range" or key not in ("PageUp", "PageDown"):
                return  # the scrubber moves by itself; the others' keys are theirs
        frame = replayview.step_from_key(key, self.frame, self.shown.last() + 1)
        if frame is None:
            frame = replayview.deal_from_key(key, self.shown.marks, self.frame)
        if frame is not None:
            event.preventDefault()
            self.go(frame)
            self.moved()

    def on_scrub(self, event):
        if self.shown is not None:
            self.go(int(event.target.value))
            self.moved()

    def on_speed(self, event):
        self.speed = replayview.speed_from(str(event.target.value))
        if self.playing:
            self.turn += 1
            asyncio.create_task(self.play(self.turn))

    def close_menu(self):
        menu = self.part("#menu")
        try:
            if menu.matches(":popover-open"):
                menu.hidePopover()
        except Exception:  # a browser without popovers shows the menu inline
            pass

    def download(self):
        """The game's save as a file (the format the table keeps and the engine loads)."""
        anchor = document.createElement("a")
        anchor.href = ("data:application/json;charset=utf-8,"
                       + str(window.encodeURIComponent(self.replay["save"])))
        anchor.download = "cribbage-game.json"
        anchor.click()

    async def copy_link(self):
        field = self.part(".replay-link")
        field.value = self.share_address()
        try:
            await window.navigator.clipboard.writeText(field.value)
            self.say("replay.copied", {}, link=True)
        except Exception:
            self.say("replay.copy_failed", {}, link=True)
            field.select()

    def on_hash(self, event):
        asyncio.create_task(self.open_from_address())

    def on_language(self, event):
        i18n.install(str(event.detail.lang), json.loads(str(event.detail.text)))
        self.words = shell.Words(str(event.detail.lang))
        if self.message is not None:
            self.say(*self.message)
        self.set_playing(self.playing)  # the button and the status in the new words
        if self.shown is not None:
            self.redraw(self.frame)  # the board's words (its name, the skunk lines) too


def apply_display(root):
    """The table's display settings (four-colour deck, larger cards): the same cards as
    at the table."""
    settings = load(SETTINGS_KEY, stored.load_settings)
    root.setAttribute("data-deck", "four" if settings.get("four_colour") is True else "two")
    root.setAttribute("data-cards", "large" if settings.get("large_cards") is True
                      else "normal")


async def main():
    viewer = Viewer()
    apply_display(viewer.root)
    viewer.root.setAttribute("data-speed", "0" if viewer.speed == 0 else "1")
    document.addEventListener("cribbage:language", create_proxy(viewer.on_language))
    words = await window.cribbageLoading.language()
    i18n.install(str(words.lang), json.loads(str(words.text)))
    viewer.words = shell.Words(str(words.lang))
    viewer.set_playing(False)
    viewer.root.addEventListener("click", create_proxy(viewer.on_click))
    document.addEventListener("keydown", create_proxy(viewer.on_key))
    viewer.part(".replay-scrubber").addEventListener("input", create_proxy(viewer.on_scrub))
    viewer.part(".replay-speed").addEventListener("change", create_proxy(viewer.on_speed))
    viewer.part(".replay-file").addEventListener(
        "change", create_proxy(lambda event: asyncio.create_task(viewer.open_file(event))))
    # The window object itself: PyScript's `window` is MicroPython's `js` module (tabs.py).
    document.defaultView.addEventListener("hashchange", create_proxy(viewer.on_hash))
    try:
        viewer.engine = await window.cribbageEngine.ready
    except Exception as error:
        window.cribbageLoading.failed(viewer.words.t("loading.failed", {"reason": str(error)}))
        viewer.fail("loading.failed", {"reason": str(error)})
        return
    window.cribbageLoading.ready()
    viewer.root.setAttribute("aria-busy", "false")
    viewer.part(".replay-file").disabled = False
    viewer.part(".menu [data-action=open]").disabled = False
    await viewer.open_from_address()


asyncio.create_task(main())
