"""A game with a friend on another device (MicroPython, main thread).

The connection is web/peer/peer.mjs's (a WebRTC data channel set up by
exchanging two codes); every message goes to this page's engine
(``peer_receive``, :mod:`cribbage.peersession`), which checks it and says
what to send back and what to show. To the table, the friend's seat is like
a computer's: when the table asks the engine for the other seat's move
(``computer_move``), :meth:`PeerTable.call` waits for the friend's. On the
guest's page the table's own moves go to the host (``peer_move``) and their
updates come back over the channel: the guest's page only ever holds its
own seat's view. An update that comes while the table waits on this side's
person (the friend resigned or left while it was this side's turn) is drawn
at once (:meth:`PeerTable.idle`), whatever this side had begun to choose.
After a game over and checked, either side may offer a rematch over the same
channel (``peer_rematch``); once the other accepts, the host's engine deals a
new game (a new id and commitment) and both tables start it, the match score
(kept in the records) carried on.

With three or four players the host's page holds one channel per guest seat
(``links``): it invites one friend after another, each message from a channel
goes to the engine with that channel's seat (``from``), and the engine says
what goes to which seat. A friend who goes away pauses the game at their turn
until they connect again by a new invitation, or until the host lets the
computer play their seat (``peer_computer``).
"""

import asyncio
import json

import shell
from dom import next_turn, storage_get, storage_set
from pyscript import window
from pyscript.ffi import create_proxy, to_js
from shell import escape
from tablerender import log, set_text

PEER_KEY = "cribbage.peer"  # the game with a friend: the side's record (and the host's save)
ICE_KEY = "cribbage.peer.ice"  # the player's STUN/TURN servers
REACTIONS = ("good_game", "nice_hand", "your_turn", "well_played", "thanks")
ACTIONS = ("peer-host", "peer-connect", "peer-copy", "peer-share", "peer-cancel", "peer-react",
           "peer-reinvite", "peer-reopen", "peer-rematch", "peer-computer")


class PeerTable:
    """The friend's end of one table: the dialog, the channel and the friend's moves."""

    def __init__(self, dom, state, game):
        self.dom, self.state, self.game = dom, state, game
        self.role = None  # "host" or "guest" once a game with a friend is set up
        self.game_id = None  # the game's id, named by every invitation for it
        self.link = None  # peer.mjs's link (the host's: the one being set up)
        self.links = {}  # the host's open links by guest seat
        self.guest_seats = []  # the host's guests' seats (one, but for three or four)
        self.inviting = None  # the guest seat the host's current invitation is for
        self.computers = []  # guest seats the host let the computer play
        self.reports = {}  # the host: each guest's report of its check
        self.module = None
        self.started = False  # the table shows the game
        self.handed = 0  # events of the updates handed to the table
        self.waiting = []  # updates (and refusals) the table has not taken yet
        self.arrived = asyncio.Event()
        self.lock = asyncio.Lock()  # messages are taken one at a time, in order
        self.record = None
        self.save_text = None
        self.verdict = None
        self.moved = False  # the guest sent a move and has no answer yet
        self.shown = None  # the last update's view (its events aside), as text
        self.resuming = False  # the guest joined a kept game again: redraw it at once
        self.left = False  # the friend left this game for another
        self.delivering = False  # an update nobody waited for is about to be drawn
        self.connected = False  # the channel is open
        self.match = None  # games won by each seat in this match (the engine's count)
        self.rematch = None  # "offered", "asked" (by the friend), "agreed" or "left"

    @property
    def words(self):
        return self.state.words

    def screen(self):
        return self.dom.part("#peer")

    # --- the table's calls ---------------------------------------------------------

    def routes(self, name):
        """Whether the table's call ``name`` goes to the friend rather than the engine
        (a resignation is :meth:`resign`'s: here it is refused)."""
        return self.started and name in ("computer_move", "apply_move", "resign", "undo",
                                         "advise", "hand_off")

    async def call(self, name, payload):
        """A table call in a game with a friend: (ok, result) as TableGame.call's."""
        if name == "computer_move":
            if self.computers:  # a seat the computer took, if it is to move
                ok, made = await self.computer_turn()
                if ok:
                    return ok, made
            return await self.next_update()
        if self.role == "host" and name == "apply_move":
            ok, update = await self.engine(name, payload)
            if ok:
                self.handed = update["view"]["events_total"]
                await self.send_outbox()
            return ok, update
        if self.role == "guest" and name == "apply_move":
            ok, made = await self.engine("peer_move", {"move": payload["move"]})
            if not ok:
                return ok, made
            self.moved = True  # the host's answer to it is an update or a refusal
            self.link.send(made["message"])
            return await self.next_update()
        return False, {"kind": "bad-request", "message": self.words.t("peer.not_here")}

    async def send_outbox(self):
        """The host's messages after a change at its own table: each guest's update (and
        the reveal at the end)."""
        ok, out = await self.engine("peer_outbox", {})
        self.send_all(out.get("sends", {}) if ok else {})
        self.keep(out.get("record") if ok else None)
        if ok:
            self.match = out["match"]

    def send(self, seat, text):
        """One message to the friend (on the host, to guest ``seat``'s channel)."""
        link = self.links.get(seat) if self.role == "host" else self.link
        if link is not None:
            link.send(text)

    def send_all(self, sends):
        """The host's messages by guest seat (as the engine's ``sends`` name them)."""
        for seat, texts in sends.items():
            for text in texts:
                self.send(int(seat), text)

    async def computer_turn(self):
        """The computer's move for a guest's seat it took, when that seat is to move:
        (ok, the host's update), every guest told. Not while a friend's update waits for
        the table (it comes first: the messages are taken in order, under the lock)."""
        async with self.lock:
            if self.waiting:
                return False, None
            ok, made = await self.engine("peer_computer_move", {
                "events_from": self.handed, "proof": True})
        if not ok:
            return ok, made
        self.handed = made["update"]["view"]["events_total"]
        self.send_all(made["sends"])
        self.keep(made["record"])
        self.match = made["match"]
        return True, made["update"]

    async def let_computer_play(self):
        """The host lets the computer play the seat of the friend who went away; a turn
        of that seat the table waits on is played at once."""
        seat = self.inviting
        self.drop_invitation()  # the invitation for that seat is void
        ok, made = await self.engine("peer_computer", {"seat": seat})
        if not ok:
            self.game.show_error(made)
            return
        self.computers = made["computers"]
        self.keep(made["record"])
        await self.tell_away()
        log(self.dom, self.words.t("peer.computer_took", {"seat": seat + 1}))
        self.inviting = None
        if self.unlinked():  # another friend is away too: their invitation
            await self.invite("peer.send_again")
            return
        self.connected = True
        self.reopen_button(False)
        self.dom.table.setAttribute("data-peer", "playing")
        self.close()
        ok, update = await self.computer_turn()
        if ok:
            self.hand(update)

    async def tell_away(self):
        """The host of three or four tells the other friends who is away now (the game
        waits at their turn), or that all are back."""
        if self.many() and self.started:
            ok, made = await self.engine("peer_away", {"seats": self.unlinked()})
            self.send_all(made["sends"] if ok else {})

    def drop_invitation(self):
        """The host's invitation not taken (if any) is closed, unheard: a closed
        invitation is no friend gone away."""
        old, self.link = self.link, None
        if old is not None:
            old.close("closed")

    def unlinked(self):
        """The host's guest seats with no open channel that no computer plays."""
        return [seat for seat in self.guest_seats
                if seat not in self.links and seat not in self.computers]

    async def resign(self):
        """This side resigns, whoever's turn it is: the host's engine ends the game and
        the guest is sent it; the guest asks the host. The end reaches this table as the
        friend's updates do: the loop waiting for the friend takes it, else it is drawn
        at once (the table never waits for its own turn to come back first)."""
        if self.role == "host":
            ok, update = await self.engine("resign", {
                "seat": self.state.viewer, "events_from": self.handed, "proof": True})
            if not ok:
                self.game.show_error(update)
                return
            self.handed = update["view"]["events_total"]
            await self.send_outbox()
            if not self.connected:  # the friend's hello on reconnecting brings the end
                log(self.dom, self.words.t("peer.resign_kept"))
            self.hand(update)
            return
        ok, made = await self.engine("peer_move", {"move": "resign"})
        if not ok:
            self.game.show_error(made)
            return
        self.keep(made["record"])  # kept until the host answers: sent again on reconnecting
        if self.connected:
            self.send(None, made["message"])  # the host's answer is the game's end
        else:
            log(self.dom, self.words.t("peer.resign_kept"))

    async def leave(self):
        """This side goes on to another game: the friend's table is told (a game not over
        is lost: it ends there as a resignation), the channel closes once that is sent,
        and nothing of the game is kept. Apart from the friend, only this side forgets."""
        if self.role is not None:
            ok, left = await self.engine("peer_leave", {})
            if self.role == "host":
                self.send_all(left.get("sends", {}) if ok else {})
                for link in self.links.values():
                    link.finish()
                self.drop_invitation()  # an invitation not taken yet
            elif self.link is not None:
                for text in left.get("messages", []) if ok else []:
                    self.link.send(text)
                self.link.finish()
        self.forget()

    def forget(self):
        """No game with a friend at this table any more."""
        self.role = self.game_id = self.link = self.record = self.inviting = None
        self.links, self.guest_seats, self.computers, self.reports = {}, [], [], {}
        self.save_text = self.verdict = self.shown = None
        self.started = self.moved = self.resuming = self.left = self.connected = False
        self.handed = 0
        self.waiting = []
        self.match = self.rematch = None
        storage_set(PEER_KEY, None)
        window.cribbagePeerLink = None
        self.dom.part(".peer-reactions").hidden = True
        self.clear_over()
        self.dom.table.removeAttribute("data-peer")

    def clear_over(self):
        """The game-over dialog's lines about a friend go (the next game's end is its own)."""
        for line in (".fair-check", ".peer-ending", ".peer-match", ".peer-rematch",
                     "[data-action=peer-rematch]"):
            self.dom.game_over.querySelector(line).hidden = True

    def next_game(self, game_id, record):
        """The rematch is agreed: this side's game is now ``game_id`` (its record kept at
        once, the match with it); the table starts it with its first update."""
        self.game_id, self.record = game_id, record
        self.started = self.moved = self.resuming = self.left = False
        self.handed = 0
        self.waiting = []
        self.verdict = self.shown = self.save_text = None
        self.reports = {}
        self.rematch = "agreed"
        self.save(None)
        self.draw_over()

    def hand(self, update):
        """An update for the table, in order: the loop waiting for the friend takes it;
        if none waits, :meth:`idle` draws it. The game's end also ends a show that waits
        for Continue."""
        self.waiting.append(("update", update))
        self.arrived.set()
        if update["view"]["phase"] == "over" and self.state.continue_event is not None:
            self.state.continue_event.set()
        self.idle()

    def idle(self):
        """Called whenever the table stops being busy: an update that came while it waited
        on this side's person (their turn, a card picked, a claim to make) is drawn now."""
        if self.waiting and not self.delivering:
            self.delivering = True
            asyncio.create_task(self.deliver())

    async def deliver(self):
        # (A task: the table's busy flag is asked once its change is made.)
        self.delivering = False
        if not self.waiting or self.state.busy:  # a move or a wait for the friend takes it
            return
        kind, value = self.waiting.pop(0)
        if kind == "update":  # (a refusal no move waits for was logged already)
            self.state.selected = []  # a discard begun is void: the game moved on
            await self.game.advance(value)
        self.idle()

    async def engine(self, name, payload):
        """The page's own engine, past the routing."""
        try:
            text = await getattr(self.state.engine, name)(shell.request(payload))
        except Exception as error:
            return False, {"kind": "internal", "type": "WorkerError", "message": str(error)}
        return shell.parse_reply(text)

    async def next_update(self):
        """The next update from the friend (or the refusal of this side's move)."""
        while not self.waiting:
            self.arrived.clear()
            await self.arrived.wait()
        kind, value = self.waiting.pop(0)
        if kind == "refused":
            return False, {"kind": "illegal-move",
                           "message": self.words.t("peer.reason." + value["reason"])}
        return True, value

    def save(self, save_text):
        """The table's save after every move: kept with the record, not as a solo game."""
        self.save_text = save_text
        if self.verdict is not None or self.left:  # checked, or the friend left: nothing
            return
        storage_set(PEER_KEY, json.dumps({"role": self.role, "record": self.record,
                                          "save": save_text}))

    def keep(self, record):
        if record:
            self.record = record
            self.save(self.save_text)

    def kept(self):
        """The kept game with a friend ({"role", "record", "save"}), or None."""
        text = storage_get(PEER_KEY)
        if text is None:
            return None
        try:
            kept = json.loads(text)
            json.loads(kept["record"])["game"]  # a record names its game
        except (ValueError, TypeError, KeyError, RuntimeError):  # RuntimeError: too deep
            print("Warning: the kept game with a friend was not readable; it is ignored")
            return None
        return kept if kept.get("role") in ("host", "guest") else None

    def kept_game(self, role):
        """The game id of this page's kept record for ``role``, or None."""
        kept = self.kept()
        return json.loads(kept["record"])["game"] if kept and kept["role"] == role else None

    # --- the dialog ---------------------------------------------------------------

    def open(self, html_status, values=None):
        self.dom.form.hidden = True
        screen = self.screen()
        screen.innerHTML = dialog_html(self.words)
        screen.hidden = False
        self.dom.table.setAttribute("data-dialog", "peer")
        self.status(html_status, values)
        self.game.place_dialogs()
        screen.querySelector("h2").focus(to_js({"preventScroll": True}))

    def status(self, key, values=None):
        line = self.screen().querySelector(".peer-status")
        if line is not None:
            set_text(line, self.words.t(key, values))
            line.setAttribute("data-status", key)

    def close(self):
        self.screen().hidden = True
        self.screen().innerHTML = ""
        self.dom.table.removeAttribute("data-dialog")

    async def peer_module(self):
        if self.module is None:
            self.module = await window.cribbagePeerModule()
        return self.module

    def ice(self):
        """The player's STUN/TURN servers (none unless set)."""
        try:
            values = json.loads(storage_get(ICE_KEY) or "{}")
        except (ValueError, RuntimeError):  # RuntimeError: nested too deep
            values = {}
        if not isinstance(values, dict):
            print("Warning: the stored STUN/TURN servers were not readable; they are ignored")
            values = {}
        values = {name: value for name, value in values.items()
                  if name in ("stun", "turn", "username", "credential") and isinstance(value, str)}
        screen = self.screen()
        for name in ("stun", "turn", "username", "credential"):
            field = screen.querySelector("[name=" + name + "]")
            if field is not None and field.value:
                values[name] = str(field.value)
        storage_set(ICE_KEY, json.dumps(values))
        return values

    async def show_code(self, link, key):
        """The code three ways: a link to copy or share, and its QR code."""
        module = await self.peer_module()
        box = self.screen().querySelector(".peer-code")
        box.hidden = False
        box.querySelector("input[name=code-out]").value = link.url
        box.querySelector("img").src = await module.qrImage(link.url)
        self.status(key)
        self.dom.table.setAttribute("data-peer", "code")

    async def host(self):
        """Host: an invitation for a game with the dialog's rules and players (two, three
        or four: one friend on another device for each other seat)."""
        values = self.game.form_values()
        settings = shell.settings_from_form(values, self.state.hello)
        await self.leave()  # a game with a friend already here: this side leaves it
        self.open("peer.making")
        ok, hosted = await self.engine("peer_host", {"rules": settings["rules"]})
        if not ok:
            self.status("peer.failed", {"reason": shell.error_text(self.words, hosted)})
            return
        self.role, self.record, self.settings = "host", hosted["record"], settings
        self.game_id, self.save_text, self.match = hosted["game"], None, hosted["match"]
        self.take_seats(hosted["record"])
        await self.invite("peer.send_invitation")

    def take_seats(self, record):
        """The host's guest seats and the computer's, from its record."""
        data = json.loads(record)
        self.guest_seats, self.computers = data["guest_seats"], data["computers"]

    async def invite(self, key):
        """An invitation for this side's game (a new one names the same game), for the
        first guest seat with no channel (three or four players: one friend at a time)."""
        waiting = self.unlinked()
        if not waiting:
            return
        self.inviting = waiting[0]
        self.drop_invitation()
        module = await self.peer_module()
        made = await module.settle(module.invite(to_js({"iceServers": module.iceServers(
            to_js(self.ice())), "game": self.game_id})))
        if not made.ok:
            self.failed(made.reason)
            return
        self.link = made.value
        self.listen(self.link, self.inviting)
        await self.show_code(self.link, key)
        if self.many():  # which friend of how many, and who is away
            self.status("peer.send_invitation_n", {
                "n": self.guest_seats.index(self.inviting) + 1,
                "count": len(self.guest_seats), "seat": self.inviting + 1})
            self.screen().querySelector("[data-action=peer-computer]").hidden = not self.started

    async def resume_host(self):
        """After a reload: the kept game again, on the table, and a new invitation."""
        kept = self.kept()
        self.open("peer.making")
        ok, hosted = await self.engine("peer_host", {"record": kept["record"],
                                                     "save": kept["save"]})
        if not ok:
            self.status("peer.failed", {"reason": shell.error_text(self.words, hosted)})
            return
        self.role, self.record, self.game_id = "host", hosted["record"], hosted["game"]
        self.save_text, self.match = kept["save"], hosted["match"]
        self.take_seats(hosted["record"])
        self.settings = shell.settings_from_form(self.game.form_values(), self.state.hello)
        if hosted["update"] is not None:
            self.started = True
            self.handed = hosted["update"]["view"]["events_total"]
            self.show_table(hosted["update"], True)
            self.open("peer.making")
        await self.invite("peer.send_again")

    async def join(self, code):
        """Guest: the answer to an invitation (from the link's fragment or pasted)."""
        self.open("peer.making")
        module = await self.peer_module()
        joined = await module.settle(module.join(code, to_js({"iceServers": module.iceServers(
            to_js(self.ice()))})))
        if not joined.ok:
            self.failed(joined.reason)
            return
        self.link = joined.value
        game = str(self.link.game)
        record = self.record if self.role == "guest" else self.kept()["record"] if (
            self.kept_game("guest") == game) else None
        self.resuming = record is not None and json.loads(record)["game"] == game
        request = {"record": record} if self.resuming else {"game": game}
        ok, joined = await self.engine("peer_guest", request)
        if not ok:
            self.status("peer.failed", {"reason": shell.error_text(self.words, joined)})
            return
        self.role, self.record, self.game_id = "guest", joined["record"], joined["game"]
        self.match = joined["match"]
        self.settings = shell.settings_from_form(self.game.form_values(), self.state.hello)
        self.listen(self.link, None)
        await self.show_code(self.link, "peer.send_answer")
        await self.opened(joined["messages"])

    async def connect(self):
        """The host pasted the answer (or the guest an invitation)."""
        text = str(self.screen().querySelector("textarea[name=code-in]").value or "").strip()
        if self.role != "host":
            await self.join(text)
            return
        if self.link is None:  # every friend is connected: no invitation waits
            return
        module = await self.peer_module()
        accepted = await module.settle(self.link.accept(text))
        if not accepted.ok:
            self.failed(accepted.reason)
            return
        await self.opened(None)

    async def opened(self, first):
        module = await self.peer_module()
        link, seat = self.link, self.inviting
        opened = await module.settle(link.opened)
        if not opened.ok:
            self.failed(opened.reason)
            return
        self.status("peer.connected")
        if self.role == "host":
            self.links[seat], self.link = link, None  # (self.link: an invitation not taken)
            await self.tell_away()
            if self.unlinked():  # the next friend's invitation
                await self.invite("peer.send_again" if self.started else "peer.send_invitation")
                return
            self.inviting = None
        self.connected = True
        self.dom.table.setAttribute("data-peer", "playing" if self.started else "connected")
        self.reopen_button(False)
        if self.started:  # connected again: back to the game (a muggins call's time anew)
            self.close()
            if not self.state.busy:
                self.game.handoff.offer_muggins()
        for text in first or []:  # the guest's hello (and a resignation made while apart)
            self.link.send(text)

    def failed(self, reason):
        """A connection that did not open: its cause and the next step, in the page's
        language (the host may make a new invitation at once)."""
        reason = str(reason or "bad-code")
        self.status("peer.failed", {"reason": self.words.t("peer.why." + reason),
                                    "next": self.words.t("peer.next." + reason)})
        self.dom.table.setAttribute("data-peer", "failed")
        line = self.screen().querySelector(".peer-status")
        if line is None:  # the dialog was closed meanwhile
            return
        line.setAttribute("data-reason", reason)
        if self.role == "host" and reason in ("timed-out", "no-route", "closed"):
            self.screen().querySelector("[data-action=peer-reinvite]").hidden = False

    def listen(self, link, seat):
        """Take ``link``'s messages and its close (on the host, guest ``seat``'s)."""
        window.cribbagePeerLink = link  # the automation contract: the page's (last) channel
        link.onmessage = create_proxy(
            lambda text: asyncio.create_task(self.receive(str(text), seat)))
        link.onclose = create_proxy(
            lambda reason: asyncio.create_task(self.on_close(str(reason), link, seat)))

    async def on_close(self, reason, link, seat):
        """A channel closed: on the host only the one its guest seat holds counts (an
        invitation given up or replaced closes too)."""
        if self.role == "host" and self.links.get(seat) is not link:
            if self.link is link and seat not in self.links:
                async with self.lock:
                    self.closed(reason)  # the invitation that did not open
            return
        self.links.pop(seat, None)
        if self.many():
            self.inviting = seat
            await self.tell_away()
        await self.closed_after(reason)

    async def closed_after(self, reason):
        """The channel closed (the friend's page closed, the network went, the heartbeat
        went silent): the game pauses here with the offer to connect again, unless it is
        over and checked or the friend left it. The messages that came before the close
        are taken first (a friend who leaves says so, then closes)."""
        async with self.lock:
            self.closed(reason)

    def closed(self, reason):
        self.connected = False
        self.draw_over()  # no rematch over a closed channel
        if not self.started:  # (a failure to connect says more than that it closed)
            if self.dom.table.getAttribute("data-peer") != "failed":
                self.dom.table.setAttribute("data-peer", "closed")
            return
        self.dom.table.setAttribute("data-peer", "closed")
        log(self.dom, self.words.t("peer.lost", {"reason": self.words.t(
            "peer.why." + str(reason))}))
        if self.verdict is None and not self.left:  # not checked yet: connect again
            self.game.handoff.stop_countdown()  # no muggins call's time runs out meanwhile
            self.reopen_button(True)
            self.offer_again()

    def two(self):
        """Whether this game is for two (a rematch is offered between two only)."""
        if self.role == "host":
            return len(self.guest_seats) == 1
        return self.state.view is not None and self.state.view["rules"]["players"] == 2

    def many(self):
        """Whether the host has more than one guest (three or four players)."""
        return self.role == "host" and len(self.guest_seats) > 1

    def reopen_button(self, shown):
        button = self.dom.part(".peer-reactions [data-action=peer-reopen]")
        if button is not None:
            button.hidden = not shown

    def offer_again(self):
        """The dialog to connect again: the host makes a new invitation, the guest
        pastes (or opens) the one its friend sends."""
        if self.many() and self.unlinked():
            self.open("peer.again_host_seat", {"seat": self.unlinked()[0] + 1})
            self.inviting = self.unlinked()[0]
        else:
            self.open("peer.again_host" if self.role == "host" else "peer.again_guest")
        self.screen().querySelector("[data-action=peer-reinvite]").hidden = self.role != "host"
        self.screen().querySelector("[data-action=peer-computer]").hidden = not (
            self.many() and self.started)

    # --- messages --------------------------------------------------------------------

    async def receive(self, text, seat):
        """One message from the friend (on the host, from guest ``seat``'s channel): the
        engine checks it and says what follows, and to whom."""
        async with self.lock:
            request = {"text": text, "events_from": self.handed, "proof": True}
            if self.role == "host":
                request["from"] = seat
            ok, answer = await self.engine("peer_receive", request)
            if not ok:
                log(self.dom, shell.error_text(self.words, answer))
                return
            for reply in answer["replies"]:
                self.send(seat, reply)
            self.send_all(answer["others"])
            self.keep(answer.get("record"))
            self.take(answer, seat)

    def take(self, answer, seat=None):
        """Show what a message brought: a refusal, a reaction, an update, the check, a
        rematch offered or agreed."""
        self.match = answer["match"]
        if answer["game"] != self.game_id:  # the rematch's game: its update starts it
            self.next_game(answer["game"], answer["record"])
        if answer["rematch"] == "asked":
            self.rematch = "asked"
            said = self.words.t("peer.rematch_asked")
            log(self.dom, said)
            self.game.announce(said)
            self.draw_over()
        elif answer["rematch"] == "accepted":
            self.rematch = "agreed"
            self.draw_over()
        if answer["refused"]:
            log(self.dom, self.words.t("peer.refused", {"message": self.words.t(
                "peer.reason." + answer["refused"]["reason"])}))
        if answer["peer_refused"]:
            log(self.dom, self.words.t("peer.they_refused", {"message": self.words.t(
                "peer.reason." + answer["peer_refused"]["reason"])}))
            if self.role == "guest" and self.moved:  # this side's move was refused
                self.moved = False
                self.waiting.append(("refused", answer["peer_refused"]))
                self.arrived.set()
        if answer["away"] is not None:  # (three or four) the friends the game waits for
            said = self.words.t("peer.away", {"seats": ", ".join(
                str(away + 1) for away in answer["away"])}) if answer["away"] else (
                self.words.t("peer.back"))
            log(self.dom, said)
            self.game.announce(said)
        if answer["reaction"]:
            said = self.words.t("peer.reaction." + answer["reaction"])
            log(self.dom, self.words.t("peer.said", {"text": said}))
            self.game.announce(said)
        if answer["left"]:  # the game's end follows (or came before): nothing to resume
            self.left = True
            self.rematch = "left"
            self.draw_over()
            log(self.dom, self.words.t("peer.ending.left"))
            storage_set(PEER_KEY, None)
        update = answer["update"]
        if update is not None:
            # Only news, or the answer to a move, goes to the table: the game sent again
            # on connecting again while this side's person decides changes nothing.
            shown = json.dumps(dict(update["view"], events=[]))
            news, answered = shown != self.shown, self.moved
            self.moved, self.shown = False, shown
            self.handed = update["view"]["events_total"]
            if self.started and (news or answered):
                self.hand(update)
            elif not self.started:
                self.started = True
                self.show_table(update, self.resuming)
        if answer["verdict"] is not None and self.role == "host":
            self.reports[seat] = answer["verdict"]  # checked once every friend reports
            if set(self.reports) >= set(self.guest_seats) - set(self.computers):
                self.verdict = [problem for problems in self.reports.values()
                                for problem in problems]
        elif answer["verdict"] is not None:
            self.verdict = answer["verdict"]
        if answer["verdict"] is not None and self.verdict is not None:
            self.show_verdict()
            storage_set(PEER_KEY, None)  # checked: nothing is left to resume

    def show_table(self, update, resumed):
        """The first update: the table shows the game from this side's seat (a resumed
        game redrawn at once, a new one dealt before the player's eyes)."""
        view = update["view"]
        settings = dict(self.settings)
        settings["rules"] = view["rules"]
        players = view["rules"]["players"]
        settings["seats"] = [{"person": seat == view["seat"],
                              "name": "" if seat == view["seat"] else self.words.t(
                                  "peer.friend") if players == 2 else self.words.t(
                                  "peer.friend_seat", {"seat": seat + 1})}
                             for seat in range(players)]
        settings["peer"] = self.role
        self.close()
        self.game.close_dialog()
        self.dom.game_over.hidden = True  # a rematch: the last game's end goes
        self.dom.part(".announce").innerHTML = ""  # and its words (a rematch asked for)
        self.clear_over()
        self.rematch = None
        self.dom.table.setAttribute("data-peer", "playing")
        self.game.begin(settings, view)
        self.draw_reactions()
        self.state.busy = True  # until advance() runs: a later update must wait its turn
        asyncio.create_task(self.advance(update, resumed))

    async def advance(self, update, resumed):
        await next_turn()
        await self.game.advance(update, replaying=resumed)

    def draw_reactions(self):
        bar = self.dom.part(".peer-reactions")
        bar.hidden = False
        bar.innerHTML = "".join(
            '<button type="button" class="quiet" data-action="peer-react" data-reaction="'
            + name + '">' + escape(self.words.t("peer.reaction." + name)) + "</button>"
            for name in REACTIONS) + (
            '<button type="button" data-action="peer-reopen" hidden>'
            + escape(self.words.t("peer.reopen")) + "</button>"
            + '<span class="peer-match" hidden></span>')
        self.draw_match()

    def match_text(self):
        """The match score from this side ("Match: You 1 – Friend 0"), or None before a
        game of it has ended."""
        if (not self.match or not sum(self.match) or self.state.view is None
                or len(self.match) != 2 or self.state.view["rules"]["players"] != 2):
            return None  # (three or four players: no match, each game stands alone)
        mine = self.state.view["seat"]
        return self.words.t("peer.match", {"you": self.match[mine],
                                           "friend": self.match[1 - mine]})

    def draw_match(self):
        text = self.match_text()
        for line in (self.dom.part(".peer-reactions .peer-match"),
                     self.dom.game_over.querySelector(".peer-match")):
            if line is not None:
                line.hidden = text is None or self.role is None
                set_text(line, text or "")

    def draw_over(self):
        """The game-over dialog's match score and rematch: the offer to make, or the
        friend's to accept, once the game is checked and the channel open."""
        self.draw_match()
        dialog = self.dom.game_over
        line = dialog.querySelector(".peer-rematch")
        button = dialog.querySelector("[data-action=peer-rematch]")
        rematch = self.rematch if self.role is not None else None
        # (A friend who left is said in the log and the closed channel hides the offer.)
        key = {"offered": "peer.rematch_offered", "asked": "peer.rematch_asked",
               "agreed": "peer.rematch_starting"}.get(rematch)
        line.hidden = key is None
        set_text(line, self.words.t(key) if key else "")
        line.setAttribute("data-rematch", rematch or "")
        button.hidden = not (self.role is not None and self.connected and self.verdict is not None
                             and rematch in (None, "asked") and self.two())
        set_text(button, self.words.t("peer.rematch_accept" if rematch == "asked"
                                      else "peer.rematch"))

    async def ask_rematch(self):
        """This side wants a rematch: its offer, or its yes to the friend's (the host then
        deals the next game at once)."""
        ok, made = await self.engine("peer_rematch", {})
        if not ok:
            self.game.show_error(made)
            self.draw_over()
            return
        for text in made["messages"]:
            self.send(self.guest_seats[0] if self.role == "host" else None, text)
        self.match = made["match"]
        if made["game"] != self.game_id:
            self.next_game(made["game"], made["record"])
            return
        self.keep(made["record"])
        self.rematch = "agreed" if self.rematch == "asked" else "offered"
        self.draw_over()

    def ending(self):
        """How the friend ended the game, for the game-over dialog: "left", "resigned"
        (this side won by their resignation) or None."""
        view = self.state.view
        if not self.started or view is None or view["outcome"] is None:
            return None
        outcome = view["outcome"]
        if outcome["kind"] != "resign" or outcome["winner"] != self.state.team_of(view["seat"]):
            return None
        return "left" if self.left else "resigned"

    def show_verdict(self):
        """The guest's check of the reveal, on both tables (the host hears the guest's)."""
        problems = self.verdict
        key = (("peer.verified" if self.two() else "peer.verified_all") if self.role == "guest"
               else "peer.friends_verified" if self.many() else "peer.friend_verified")
        text = (self.words.t(key) if not problems else
                self.words.t(key.replace("verified", "unverified"),
                             {"what": "; ".join(problems)}))
        log(self.dom, text)
        line = self.dom.game_over.querySelector(".fair-check")
        if line is not None:
            line.hidden = False
            line.setAttribute("data-verified", "true" if not problems else "false")
            set_text(line, text)
        self.draw_over()  # checked: a rematch may be offered

    async def react(self, name):
        ok, made = await self.engine("peer_reaction", {"reaction": name})
        if ok and self.role is not None:
            for seat in self.links if self.role == "host" else [None]:
                self.send(seat, made["message"])
            log(self.dom, self.words.t("peer.you_said", {"text": self.words.t(
                "peer.reaction." + name)}))

    # --- clicks and the page's start -------------------------------------------------

    def on_action(self, action, target):
        if action == "peer-host":
            asyncio.create_task(self.host())
        elif action == "peer-connect":
            asyncio.create_task(self.connect())
        elif action == "peer-copy":
            field = self.screen().querySelector("input[name=code-out]")
            window.navigator.clipboard.writeText(field.value)
            self.status("peer.copied")
        elif action == "peer-share":
            field = self.screen().querySelector("input[name=code-out]")
            if window.navigator.share:
                window.navigator.share(to_js({"url": field.value}))
        elif action == "peer-reinvite":
            self.screen().querySelector("[data-action=peer-reinvite]").hidden = True
            asyncio.create_task(self.invite("peer.send_again") if self.role == "host"
                                else self.resume_host())
        elif action == "peer-reopen":
            self.offer_again()
        elif action == "peer-cancel" and self.started:  # back to the game, still apart
            self.close()
        elif action == "peer-cancel":
            if self.link is not None:
                self.link.close("closed")
            for link in self.links.values():  # friends who joined before the others
                link.close("closed")
            self.link, self.role, self.links = None, None, {}
            self.close()
            self.game.open_dialog()
        elif action == "peer-computer" and self.many():
            target.hidden = True
            asyncio.create_task(self.let_computer_play())
        elif action == "peer-rematch" and (self.link is not None or self.links):
            target.hidden = True  # one offer (or answer) per press
            asyncio.create_task(self.ask_rematch())
        elif action == "peer-react":
            asyncio.create_task(self.react(target.getAttribute("data-reaction")))

    async def from_address(self):
        """A page opened by an invitation link (index.html#join=CODE) answers it; a page
        with a kept game with a friend offers to connect again (True: either)."""
        fragment = str(window.location.hash or "")
        if not fragment.startswith("#join="):
            kept = self.kept()
            if kept is None:
                return False
            self.open("peer.resume_" + kept["role"])
            self.screen().querySelector("[data-action=peer-reinvite]").hidden = (
                kept["role"] != "host")
            return True
        window.history.replaceState(None, "", str(window.location.pathname)
                                    + str(window.location.search))
        await self.join(fragment[len("#join="):])
        return True


def dialog_html(words):
    """The dialog: status, the code three ways, the friend's code, the network settings."""
    def t(key):
        return escape(words.t(key))

    return ('<h2 id="peer-title" tabindex="-1">' + t("peer.title") + "</h2>"
            + '<p class="peer-status" role="status"></p>'
            + '<div class="peer-code" hidden>'
            + '<label>' + t("peer.code_label")
            + ' <input name="code-out" readonly></label>'
            + '<img class="peer-qr" alt="' + t("peer.qr_alt") + '">'
            + '<div class="dialog-buttons">'
            + '<button type="button" data-action="peer-copy">' + t("peer.copy") + "</button>"
            + '<button type="button" data-action="peer-share">' + t("peer.share") + "</button>"
            + "</div></div>"
            + "<label>" + t("peer.paste") + ' <textarea name="code-in" rows="3"></textarea></label>'
            + "<details><summary>" + t("peer.network") + "</summary>"
            + "<label>" + t("peer.stun") + ' <input name="stun"></label>'
            + "<label>" + t("peer.turn") + ' <input name="turn"></label>'
            + "<label>" + t("peer.username") + ' <input name="username"></label>'
            + "<label>" + t("peer.credential") + ' <input name="credential" type="password">'
            + "</label></details>"
            + '<div class="dialog-buttons">'
            + '<button type="button" data-action="peer-reinvite" hidden>' + t("peer.reinvite")
            + "</button>"
            + '<button type="button" data-action="peer-computer" hidden>' + t("peer.computer")
            + "</button>"
            + '<button type="button" class="quiet" data-action="peer-cancel">' + t("peer.cancel")
            + "</button>"
            + '<button type="button" data-action="peer-connect">' + t("peer.connect")
            + "</button></div>")
