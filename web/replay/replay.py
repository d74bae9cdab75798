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
it; ``replayview`` draws a step with the table's card and board drawing.
``#replay[data-state]`` is ``loading``, ``ready``, ``empty`` (no game) or
``error`` (a bad link), ``data-step`` the step on screen and ``data-opening`` the step a
game opens on (its first deal, dealt). The board is drawn once a game (and language)
and its pegs then hop from step to step, as at the table.
"""

import asyncio
import json

import handoffview
import pegboard
import replayview
import shell
import stored
from dom import FINISHED_KEY, SAVE_KEY, VIEWER_KEY, load, storage_get, warn
from pyscript import document, window
from pyscript.ffi import create_proxy
from shell import i18n
from tableview import HUMAN, read_envelope

LINK_PREFIX = "#r="
MAX_FILE = 1000000  # bytes: a saved game is a few kilobytes


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
    """One replay on screen: the engine's steps, the step shown, the page's words."""

    def __init__(self):
        self.root = document.getElementById("replay")
        self.words = shell.Words()
        self.engine = None
        self.replay = None  # the engine's reply, once a game is shown
        self.own = False  # the page's own game (names: You, Computer)
        self.index = 0
        self.message = None  # (key, values) of the message on screen, said again on a switch
        self.pegs = None  # each lane's (front, back) on the board drawn, None: not drawn

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
            self.show(result, own=True)
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

    def show(self, replay, own):
        """Show a game the engine accepted, from its first deal."""
        self.replay, self.own, self.pegs = replay, own, None
        self.part(".replay-view").hidden = False
        self.say(None, None)
        self.root.setAttribute("data-state", "ready")
        self.root.setAttribute("data-over", "true" if replay["over"] else "false")
        self.part(".replay-link").value = self.share_address()
        opening = replayview.opening(replay)
        self.root.setAttribute("data-opening", str(opening))
        self.go(opening)

    def fail(self, key, values, state="error"):
        """A message and nothing else: no step of any game stays on the page."""
        self.replay = None
        view = self.part(".replay-view")
        self.pegs = None
        for selector in (".replay-felt", ".replay-events", ".replay-board", ".replay-position",
                         ".replay-caption", ".replay-scores", ".replay-seen"):
            view.querySelector(selector).innerHTML = ""
        self.part(".replay-link").value = ""
        view.hidden = True
        self.root.setAttribute("data-state", state)
        self.root.removeAttribute("data-step")
        self.say(key, values)

    def say(self, key, values):
        """The message line (None: none); kept so a language switch says it again."""
        self.message = (key, values) if key is not None else None
        line = self.part(".replay-message")
        line.hidden = key is None
        line.textContent = self.words.t(key, values) if key is not None else ""

    def go(self, index):
        """Draw step ``index``."""
        replay = self.replay
        if replay is None:
            return
        words = self.words
        self.index = max(0, min(len(replay["steps"]) - 1, index))
        names = replayview.seat_names(words, replay, self.own)
        self.part(".replay-position").textContent = replayview.position_text(
            words, replay, self.index)
        self.part(".replay-caption").textContent = replayview.caption_text(
            words, replay, self.index, names, self.own)
        self.part(".replay-events").innerHTML = replayview.events_html(
            words, replay, self.index, names, self.own)
        self.part(".replay-felt").innerHTML = replayview.felt_html(
            words, replay, self.index, names)
        self.part(".replay-scores").textContent = replayview.scores_text(
            words, replay, self.index, names)
        self.place_pegs(names)
        self.part(".replay-seen").textContent = words.t(
            "replay.seen_all" if replay["over"] else "replay.seen_own")
        last = len(replay["steps"]) - 1
        for action, disabled in (("first", self.index == 0), ("back", self.index == 0),
                                 ("forward", self.index == last), ("last", self.index == last)):
            self.part("[data-action=" + action + "]").disabled = disabled
        self.root.setAttribute("data-step", str(self.index))

    def place_pegs(self, names):
        """The board for this game (drawn once) with the pegs after the step: a peg that
        leapfrogs the other trades places with it, so only it moves."""
        pegs = replayview.pegs_at(self.replay, self.index)
        if self.pegs is None:
            self.part(".replay-board").innerHTML = replayview.board_html(
                self.words, self.replay, self.index, names)
            self.pegs = pegs
            return
        target, tracks = self.replay["rules"]["target"], len(pegs)
        for team, (old, new) in enumerate(zip(self.pegs, pegs)):
            front = document.getElementById("peg-" + str(team) + "-front")
            back = document.getElementById("peg-" + str(team) + "-back")
            if front is None or back is None:
                continue
            if replayview.trades(old, new):
                front, back = back, front
                front.id, back.id = back.id, front.id
                front.classList.replace("peg-back", "peg-front")
                back.classList.replace("peg-front", "peg-back")
            front.style.transform = pegboard.peg_transform(target, tracks, team, new[0])
            back.style.transform = pegboard.peg_transform(target, tracks, team, new[1])
            tag = document.getElementById("tag-" + str(team))
            if tag:
                pegboard.place_tag(tag, target, tracks, team, new[0])
        self.pegs = pegs

    def share_address(self):
        """The page's address with the game's share link as its fragment."""
        base = str(window.location.href).split("#")[0]
        return base + LINK_PREFIX + self.replay["link"]

    # --- input -----------------------------------------------------------------------

    def on_click(self, event):
        button = event.target.closest("button[data-action]")
        if button is None or self.replay is None:
            return
        action = str(button.getAttribute("data-action"))
        moves = {"first": 0, "back": self.index - 1, "forward": self.index + 1,
                 "last": len(self.replay["steps"]) - 1}
        if action in moves:
            self.go(moves[action])
            if button.disabled:  # at an end: keep the focus on the controls
                self.part(".replay-controls button:not([disabled])").focus()
        elif action == "download":
            self.download()
        elif action == "share":
            asyncio.create_task(self.copy_link())

    def on_key(self, event):
        if self.replay is None or event.ctrlKey or event.altKey or event.metaKey:
            return
        try:
            tag = str(event.target.tagName or "").lower()
        except AttributeError:  # the document itself has no tag
            tag = ""
        if tag in ("input", "select", "textarea"):
            return
        index = replayview.step_from_key(str(event.key), self.index, len(self.replay["steps"]))
        if index is not None:
            event.preventDefault()
            self.go(index)

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
            self.say("replay.copied", {})
        except Exception:
            field.select()
            self.say("replay.copy_failed", {})

    def on_hash(self, event):
        asyncio.create_task(self.open_from_address())

    def on_language(self, event):
        i18n.install(str(event.detail.lang), json.loads(str(event.detail.text)))
        self.words = shell.Words(str(event.detail.lang))
        if self.message is not None:
            self.say(*self.message)
        self.pegs = None  # the board's words (its name, the skunk lines) are drawn again
        self.go(self.index)


async def main():
    viewer = Viewer()
    document.addEventListener("cribbage:language", create_proxy(viewer.on_language))
    words = await window.cribbageLoading.language()
    i18n.install(str(words.lang), json.loads(str(words.text)))
    viewer.words = shell.Words(str(words.lang))
    viewer.root.addEventListener("click", create_proxy(viewer.on_click))
    document.addEventListener("keydown", create_proxy(viewer.on_key))
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
    await viewer.open_from_address()


asyncio.create_task(main())
