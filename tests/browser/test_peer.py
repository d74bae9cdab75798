"""Two pages, each in its own browser process, play over a WebRTC data channel on
the loopback network: the codes go from page to page through the UI only (the
invitation link, the pasted answer), the guest's page never holds a card hidden
from it, hostile messages injected into the channel are refused, a closed page
reconnects by new codes at the same move, and a guest that resigns gets the
host's reveal: "fair deal verified" on its page, and the host is told. Each way
of failing to connect names its cause and the next step; a resignation, a
leaving, a closed page and a lost connection reach the other table in every
phase."""

from __future__ import annotations

import base64
import json
import time
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cribbage import Game

from .axe import assert_no_violations
from .driver import Table, more_options

# Chromium's WebRTC on one machine: gather loopback candidates, and show real
# addresses rather than mDNS names (nothing resolves those in a headless test).
LOOPBACK_FLAGS = ["--allow-loopback-in-peer-connection",
                  "--disable-features=WebRtcHideLocalIpsWithMdns"]


@pytest.fixture
def browsers(browser_type: Any, browser_type_launch_args: dict[str, Any]) -> Iterator[list[Any]]:
    """Two browsers (two processes), each with the loopback flags."""
    args = {**browser_type_launch_args,
            "args": [*browser_type_launch_args.get("args", []), *LOOPBACK_FLAGS]}
    launched = [browser_type.launch(**args) for _ in range(2)]
    yield launched
    for browser in launched:
        browser.close()


def new_page(browser: Any, base_url: str, errors: list[str], context: Any = None,
             name: str = "page") -> Any:
    page = (context or browser.new_context(base_url=base_url)).new_page()
    page.set_default_timeout(90_000)

    def on_console(msg: Any) -> None:
        print(f"{name}: console.{msg.type}: {msg.text}")  # shown for a failed test only
        if msg.type == "error":
            errors.append(msg.text)

    page.on("console", on_console)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def host_game(page: Any) -> Game:
    kept = json.loads(page.evaluate("() => localStorage.getItem('cribbage.peer')"))
    return Game.from_json(kept["save"])


def hidden_cards(game: Game) -> set[str]:
    """The host's cards the guest may not see now (its hand; its discards before the show)."""
    shown = any(event.kind == "crib" and event.deal == game.deal_number for event in game.events)
    return {card.code for card in game.hands[0]} | (
        set() if shown else {card.code for card in game.discards[0]})


def assert_guest_holds_nothing_hidden(guest: Any, game: Game) -> None:
    """Every card on the guest's page is its own or was shown in public (an event the
    host's view sent), and none of the host's hidden cards is in what the guest keeps."""
    cards = set(guest.evaluate(
        "() => [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card)"))
    stored = guest.evaluate("() => JSON.stringify(Object.assign({}, localStorage))")
    record = json.loads(json.loads(guest.evaluate(
        "() => localStorage.getItem('cribbage.peer')"))["record"])
    public = {card for event in record["events"] for card in event["cards"]}
    own = {card for held in record["held"].values() for card in held}
    assert cards <= public | own, cards - public - own
    assert not set(record["held"].get(str(game.deal_number), [])) & hidden_cards(game)
    assert str(game.setup["seed"]) not in stored and '"save"' not in json.dumps(record)


def under_claimed(game: Game, seat: int, deal: int) -> bool:
    """Whether ``seat`` claimed less than a score was worth in ``deal``, with every claim 0:
    a claimed score ("peg", "hand", "crib") whose own items are worth something."""
    return any(event.deal == deal and event.seat == seat and event.kind in ("peg", "hand", "crib")
               and sum(item.points for item in event.items) > 0 for event in game.events)


def kept_record(page: Any) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(json.loads(page.evaluate(
        "() => localStorage.getItem('cribbage.peer')"))["record"])
    return record


def hand(page: Any) -> list[str]:
    return list(page.evaluate("() => [...document.querySelectorAll('.seat-human [data-card]')]"
                              ".map(e => e.dataset.card)"))


def exchange_codes(host: Any, guest: Any, invitation: str) -> str:
    """The guest opens the invitation link; the host pastes the answer: connected."""
    guest.goto(invitation)
    guest.wait_for_selector("#table[data-peer=code]")
    answer: str = guest.locator("input[name=code-out]").input_value()
    host.locator("textarea[name=code-in]").fill(answer)
    host.get_by_role("button", name="Connect", exact=True).click()
    for page in (host, guest):
        try:
            page.wait_for_selector("#table[data-peer=playing]")
        except Exception:  # say where each side stood (a connection that never came up)
            for side, seen in (("host", host), ("guest", guest)):
                print(side, seen.evaluate("""() => ({peer: document.querySelector('#table')
                  .dataset.peer, phase: document.querySelector('#table').dataset.phase,
                  status: document.querySelector('.peer-status, [role=status]')?.textContent,
                  channel: window.cribbagePeerLink?.channel?.readyState,
                  closed: window.cribbagePeerLink?.closed,
                  counts: window.cribbagePeerLink?.counts,
                  log: [...document.querySelectorAll('.log-lines li')].slice(-6)
                    .map(li => li.textContent)})"""))
            raise
    return answer


def paste_codes(host: Any, guest: Any) -> None:
    """The guest pastes the host's code and connects; the host pastes the answer and
    connects (the callers wait for the state they need)."""
    guest.locator("textarea[name=code-in]").fill(host.locator("input[name=code-out]")
                                                 .input_value())
    guest.get_by_role("button", name="Connect", exact=True).click()
    guest.wait_for_selector("#table[data-peer=code]")
    host.locator("textarea[name=code-in]").fill(guest.locator("input[name=code-out]")
                                                 .input_value())
    host.get_by_role("button", name="Connect", exact=True).click()


def in_step(host: Any, guest: Any) -> None:
    """Wait until the guest's page shows the host's game: every event, and its hand."""
    game = host_game(host)
    cards = sorted(card.code for card in game.hands[1])
    guest.wait_for_function(
        "([n, cards]) => JSON.parse(JSON.parse(localStorage.getItem('cribbage.peer')).record)"
        ".events.length == n && JSON.stringify([...document.querySelectorAll("
        "'.seat-human [data-card]')].map(e => e.dataset.card).sort()) == JSON.stringify(cards)",
        arg=[len(game.events), cards])


def play_until(host: Any, guest: Any, done: Any) -> None:
    tables = [Table(None, host), Table(None, guest)]
    for _ in range(3000):
        if done():
            return
        for table in tables:
            table.step()
        host.wait_for_timeout(20)
    raise AssertionError("the game did not get there")


def reconnect_mid_deal(host: Any, guest: Any, errors: list[str]) -> Any:
    """Close the guest's page in the play; open the host's new invitation in a new page:
    the same game at the same move, nothing lost on either side."""
    play_until(host, guest, lambda: host_game(host).phase == "play" and host_game(host).pile)
    in_step(host, guest)
    saved, record = host_game(host).to_json(), kept_record(guest)
    context = guest.context
    guest.close()
    host.get_by_role("button", name="New invitation for this game").click()
    host.wait_for_selector("#table[data-peer=code]")
    invitation = host.locator("input[name=code-out]").input_value()
    guest = new_page(None, "", errors, context)
    exchange_codes(host, guest, invitation)
    assert host_game(host).to_json() == saved  # the same move
    in_step(host, guest)  # the guest's page shows it again, from its kept record
    assert kept_record(guest)["events"][:len(record["events"])] == record["events"]
    moves = len(host_game(host).moves)
    enabled = guest.locator(".seat-human button.card:not([disabled])")
    play_until(host, guest, lambda: len(host_game(host).moves) >= moves + 4
               and host_game(host).current_player == 1 and enabled.count() > 0)
    return guest


def assert_verified(host: Any, guest: Any) -> None:
    """The guest's engine replayed the host's reveal: both pages say the deal was fair."""
    for page, text in ((guest, "Fair deal verified"), (host, "Your friend's device verified")):
        line = page.locator(".fair-check[data-verified]")
        line.wait_for(timeout=30_000)
        assert line.get_attribute("data-verified") == "true", line.inner_text()
        assert text in line.inner_text()


def reload_host(host: Any, guest: Any) -> None:
    """Reload the host's page: it offers a new invitation for the kept game; the guest's
    page, told the connection was lost, takes it: the same move again."""
    saved = host_game(host).to_json()
    host.reload()
    host.get_by_role("button", name="New invitation for this game").click()
    host.wait_for_selector("#table[data-peer=code]")
    guest.wait_for_selector("#table[data-peer=closed]")
    paste_codes(host, guest)
    for page in (host, guest):
        page.wait_for_selector("#table[data-peer=playing]")
    assert host_game(host).to_json() == saved
    in_step(host, guest)


def host_invites(browser: Any, base_url: str, errors: list[str],
                 counting: str | None = None) -> tuple[Any, str]:
    """A host's page with a game to 61 (``counting`` chosen if given) inviting a friend:
    the page and its invitation link."""
    host = new_page(browser, base_url, errors)
    host.goto("/?speed=0")
    host.wait_for_selector("#table[data-engine=ready]")
    more_options(host)
    host.get_by_label("Game to").select_option("61")
    if counting:
        host.get_by_label("Counting").select_option(counting)
    host.get_by_role("button", name="Play a friend on another device").click()
    host.wait_for_selector("#table[data-peer=code]")
    return host, host.locator("input[name=code-out]").input_value()


def test_two_pages_connect_by_codes_and_play_over_the_data_channel(
        browsers: list[Any], base_url: str) -> None:
    errors: list[str] = []
    # Manual counting: muggins between the two people.
    host, invitation = host_invites(browsers[0], base_url, errors, counting="manual")
    assert "#join=" in invitation and host.locator("img.peer-qr").get_attribute("src")

    guest = new_page(browsers[1], base_url, errors)
    guest.goto(invitation)
    guest.wait_for_selector("#table[data-peer=code]")
    answer = guest.locator("input[name=code-out]").input_value()
    assert "#answer=" in answer
    assert_no_violations(guest, "the answer dialog", "#peer")
    print("invitation", len(invitation.split("#join=")[1]), "answer",
          len(answer.split("#answer=")[1]))

    host.locator("textarea[name=code-in]").fill(invitation)  # our own invitation: refused
    host.get_by_role("button", name="Connect", exact=True).click()
    host.wait_for_selector(".peer-status[data-status='peer.failed']")
    host.locator("textarea[name=code-in]").fill(answer)
    host.get_by_role("button", name="Connect", exact=True).click()
    for page in (host, guest):
        page.wait_for_selector("#table[data-peer=playing]")

    tables = [Table(None, host), Table(None, guest)]
    game = host_game(host)
    for page in (host, guest):  # note any muggins offer with its time to decide
        page.evaluate("() => new MutationObserver(() => { if (document.querySelector("
                      "'.actions .countdown[data-seconds]')) window.offered = true; })"
                      ".observe(document.querySelector('.actions'), {childList: true, "
                      "subtree: true, attributes: true})")
    for _ in range(3000):  # one whole deal, both people moving from their own pages
        game = host_game(host)
        if game.deal_number >= 2:
            break
        assert_guest_holds_nothing_hidden(guest, game)
        for table in tables:
            table.step()  # claims 0: the other person is offered muggins (steps accept)
        host.wait_for_timeout(20)
    assert game.deal_number >= 2
    # Each page was offered muggins if, and only if, the other person under-claimed (the
    # steps claim 0; the deal is random, and a deal can leave one person nothing to count).
    for page, other in ((host, 1), (guest, 0)):
        assert page.evaluate("() => window.offered === true") == under_claimed(game, other, 1)
    assert_guest_holds_nothing_hidden(guest, game)
    tables[1].play_until(lambda: guest.locator(".seat-human button.card").count() > 0, 200)
    assert_guest_holds_nothing_hidden(guest, host_game(host))  # deal 2 on the guest's page

    before = host.evaluate("() => localStorage.getItem('cribbage.peer')")
    for text in ('{"v":9,"kind":"ping"}', '{"v":1,"kind":"move","game":"0000000000000000",'
                 '"move":"play AS","seen":0}', "x" * 70_000):
        guest.evaluate("(text) => window.cribbagePeerLink.send(text)", text)
    guest.wait_for_function("() => document.querySelectorAll('.log-lines li').length && "
                            "[...document.querySelectorAll('.log-lines li')].filter(li => "
                            "li.textContent.includes('refused a message')).length >= 3")
    assert guest.get_by_text("refused a message: it was too large.").count() == 1
    assert host.evaluate("() => localStorage.getItem('cribbage.peer')") == before

    guest = reconnect_mid_deal(host, guest, errors)
    reload_host(host, guest)
    guest.locator(".table-header [data-action=new-game]").click()
    guest.get_by_role("button", name="Resign this game").click()
    assert_verified(host, guest)
    assert not errors, errors


def test_a_whole_game_over_the_channel_ends_in_a_verified_deal(
        browsers: list[Any], base_url: str) -> None:
    """A game to 61 played to its natural end from both pages: both tables show the
    same final scores, game over, and the guest's own engine verifies every deal."""
    errors: list[str] = []
    host, invitation = host_invites(browsers[0], base_url, errors)
    guest = new_page(browsers[1], base_url, errors)
    exchange_codes(host, guest, invitation)

    deals = 0

    def over() -> bool:
        nonlocal deals
        if host.locator("#table[data-phase=over]").count():
            return True
        kept = host.evaluate("() => localStorage.getItem('cribbage.peer')")
        if kept is None:  # not written yet, or let go at the end (the phase says which)
            return False
        deals = Game.from_json(json.loads(kept)["save"]).deal_number
        return False

    play_until(host, guest, over)
    for page in (host, guest):
        page.wait_for_selector("#table[data-phase=over]")
    scores = Table(None, host).scores()
    assert max(scores) >= 61 and deals >= 3, (scores, deals)
    # Both tables show the same final scores (each from its own seat).
    assert sorted(Table(None, guest).scores()) == sorted(scores)
    assert_verified(host, guest)
    assert not errors, errors


def resign(page: Any) -> None:
    page.locator(".table-header [data-action=new-game]").click()
    page.get_by_role("button", name="Resign this game", exact=True).click()


def rematch(asker: Any, taker: Any) -> None:
    """Both games over and checked: ``asker`` offers a rematch, ``taker`` is asked and
    accepts; both tables then play a new game (the last one's end gone)."""
    asker.get_by_role("button", name="Rematch", exact=True).click()
    asker.wait_for_selector("#game-over .peer-rematch[data-rematch=offered]")
    taker.wait_for_selector("#game-over .peer-rematch[data-rematch=asked]")
    assert taker.locator("#game-over .peer-rematch").inner_text() == (
        "Your friend wants a rematch.")
    taker.get_by_role("button", name="Accept rematch", exact=True).click()
    for page in (asker, taker):
        page.wait_for_selector("#table[data-peer=playing]:not([data-phase=over])"
                               " #game-over[hidden]", state="attached")


def match_shown(page: Any, you: int, friend: int) -> None:
    """The match score on the table's bar (and kept in the page's record)."""
    text = f"Match: You {you} – Friend {friend}"
    page.wait_for_function("(text) => document.querySelector('.peer-reactions .peer-match')"
                           "?.textContent == text", arg=text)
    assert page.locator(".peer-reactions .peer-match").is_visible()


def test_a_rematch_over_the_same_channel_with_a_fresh_shuffle_and_the_match_score(
        browsers: list[Any], base_url: str) -> None:
    """The guest resigns at once; both games are checked; the host offers a rematch and
    the guest accepts: a new game (its own id and commitment) over the same channel, the
    match 1-0 on both tables. The host resigns that one: checked again, the guest offers,
    the host accepts: 1-1."""
    errors: list[str] = []
    host, invitation = host_invites(browsers[0], base_url, errors)
    guest = new_page(browsers[1], base_url, errors)
    exchange_codes(host, guest, invitation)
    first = (kept_record(host)["game"], kept_record(guest)["commitment"])
    resign(guest)
    assert_verified(host, guest)
    for page, text in ((host, "Match: You 1 – Friend 0"), (guest, "Match: You 0 – Friend 1")):
        line = page.locator("#game-over .peer-match")
        line.wait_for()
        assert line.inner_text() == text
    rematch(host, guest)
    match_shown(host, 1, 0)
    match_shown(guest, 0, 1)
    second = (kept_record(host)["game"], kept_record(guest)["commitment"])
    assert second[0] != first[0] and second[1] != first[1]  # a new game, a new commitment
    assert kept_record(host)["match"] == kept_record(guest)["match"] == [1, 0]
    assert kept_record(guest)["game"] == second[0]

    resign(host)  # the rematch's reveal is checked as the first game's was
    assert_verified(host, guest)
    assert guest.locator("#game-over .peer-match").inner_text() == "Match: You 1 – Friend 1"
    guest.get_by_role("button", name="Rematch", exact=True).click()
    host.wait_for_selector("#game-over .peer-rematch[data-rematch=asked]")
    assert_no_violations(host, "the game-over dialog offering a rematch", "#game-over")
    host.get_by_role("button", name="Accept rematch", exact=True).click()
    for page in (host, guest):
        page.wait_for_selector("#table[data-peer=playing]:not([data-phase=over])"
                               " #game-over[hidden]", state="attached")
    match_shown(host, 1, 1)
    match_shown(guest, 1, 1)
    assert "rematch" not in host.locator(".announce").inner_text()  # the last game's words go
    assert kept_record(host)["game"] not in (first[0], second[0])
    assert not errors, errors


def test_a_resignation_made_while_apart_reaches_the_friend_on_connecting_again(
        browsers: list[Any], base_url: str) -> None:
    """The host's page closes; the guest, apart, resigns: its record keeps the
    resignation. The host's page opens again and the two connect: the host's table shows
    the guest's resignation, and the guest checks the reveal."""
    errors: list[str] = []
    host, invitation = host_invites(browsers[0], base_url, errors)
    guest = new_page(browsers[1], base_url, errors)
    exchange_codes(host, guest, invitation)
    context = host.context
    host.close()
    guest.wait_for_selector("#table[data-peer=closed][data-dialog=peer]")
    guest.get_by_role("button", name="Cancel", exact=True).click()  # back to the table, apart
    resign(guest)
    logged(guest, "You resigned while apart from your friend")
    assert kept_record(guest)["resigning"] is True
    host = new_page(None, "", errors, context, "host")
    host.goto("/?speed=0")
    host.get_by_role("button", name="New invitation for this game").click()
    host.wait_for_selector("#table[data-peer=code]")
    guest.locator(".peer-reactions [data-action=peer-reopen]").click()
    paste_codes(host, guest)
    host.wait_for_selector("#table[data-phase=over] #game-over:not([hidden])")
    assert host.locator("#game-over .peer-ending").get_attribute("data-ending") == "resigned"
    assert_verified(host, guest)
    assert not errors, errors


# --- why a connection failed ---------------------------------------------------------


def code_line(link: str) -> str:
    """A code's cut SDP line (web/peer/peer.mjs: deflate-raw, base64url)."""
    text = link.split("#", 1)[1].split("=", 1)[1]
    return zlib.decompress(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)),
                           -15).decode()


def line_code(line: str) -> str:
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = squeeze.compress(line.encode()) + squeeze.flush()
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def without_candidates(link: str) -> str:
    """The same code naming no network address (its first 7 fields are the SDP's)."""
    page, fragment = link.split("#", 1)
    name = fragment.split("=", 1)[0]
    return f"{page}#{name}=" + line_code(" ".join(code_line(link).split(" ")[:7]))


def failure(page: Any, reason: str) -> str:
    """The dialog's status once it names ``reason``: its text."""
    line = page.locator(f".peer-status[data-status='peer.failed'][data-reason='{reason}']")
    line.wait_for(timeout=60_000)
    assert page.locator("#table[data-peer=failed]").count() == 1
    return str(line.inner_text())


def test_a_damaged_code_is_named_so_in_the_pages_language(
        browsers: list[Any], base_url: str) -> None:
    errors: list[str] = []
    _, invitation = host_invites(browsers[0], base_url, errors)
    guest = new_page(browsers[1], base_url, errors)
    guest.goto(invitation.replace("?speed=0#", "?speed=0&lang=es#")[:-12])  # cut short
    text = failure(guest, "bad-code")
    assert "el código está dañado" in text and "Copia de nuevo el enlace" in text, text
    assert_no_violations(guest, "a failed connection", "#peer")
    assert not errors, errors


def test_an_answer_to_a_cancelled_invitation_is_named_so(
        browsers: list[Any], base_url: str) -> None:
    errors: list[str] = []
    host, cancelled = host_invites(browsers[0], base_url, errors)
    host.get_by_role("button", name="Cancel").click()
    host.get_by_role("button", name="Play a friend on another device").click()
    host.wait_for_selector("#table[data-peer=code]")
    invitation = host.locator("input[name=code-out]").input_value()
    assert invitation != cancelled
    guest = new_page(browsers[1], base_url, errors)
    guest.goto(cancelled)
    guest.wait_for_selector("#table[data-peer=code]")
    host.locator("textarea[name=code-in]").fill(guest.locator("input[name=code-out]")
                                                 .input_value())
    host.get_by_role("button", name="Connect", exact=True).click()
    text = failure(host, "other-invitation")
    assert "another invitation (an earlier or cancelled one)" in text, text
    assert "Ask your friend to open the invitation shown here" in text, text
    guest.goto("about:blank")  # (a link differing only in its fragment would not load)
    exchange_codes(host, guest, invitation)  # the invitation shown still works
    assert not errors, errors


def test_an_answer_never_pasted_runs_out_of_time(browsers: list[Any], base_url: str) -> None:
    errors: list[str] = []
    _, invitation = host_invites(browsers[0], base_url, errors)
    guest = new_page(browsers[1], base_url, errors)
    guest.goto(invitation)
    guest.wait_for_selector("#table[data-peer=code]")
    made = time.monotonic()
    text = failure(guest, "timed-out")  # the host never pastes the answer
    assert time.monotonic() - made > 25  # peer.mjs's CONNECT_MS: 30 s from the answer
    assert "the invitation expired or the time ran out" in text, text
    assert "Exchange new codes" in text, text
    assert not errors, errors


def test_codes_naming_no_network_address_say_there_is_no_route(
        browsers: list[Any], base_url: str) -> None:
    """No real network failure can be made on loopback (every address answers); a code
    with no candidate is the case the pages can tell at once: that device has no route."""
    errors: list[str] = []
    host, invitation = host_invites(browsers[0], base_url, errors)
    guest = new_page(browsers[1], base_url, errors)
    guest.goto(without_candidates(invitation))
    text = failure(guest, "no-route")
    assert "no route between the devices" in text, text
    assert "the same network" in text and "STUN or TURN server under Network" in text, text
    guest.goto("about:blank")
    guest.goto(invitation)
    guest.wait_for_selector("#table[data-peer=code]")
    answer = guest.locator("input[name=code-out]").input_value()
    host.locator("textarea[name=code-in]").fill(without_candidates(answer))
    host.get_by_role("button", name="Connect", exact=True).click()
    failure(host, "no-route")
    host.get_by_role("button", name="New invitation for this game").click()  # the next step
    host.wait_for_selector("#table[data-peer=code]")
    assert not errors, errors


# --- the end of a game, or a pause, reaching the other table in every phase ------------

# Each page's engine draws its random bytes from a fixed generator (the worker's
# crypto.getRandomValues, replaced before Pyodide starts): every run deals the same game.
SEEDED_WORKER = """{ let state = SEED;
  crypto.getRandomValues = (array) => {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let i = 0; i < bytes.length; i++) {
      state ^= state << 13; state ^= state >>> 17; state ^= state << 5; state >>>= 0;
      bytes[i] = state & 255;
    }
    return array;
  }; }
"""
SEATS = {"host": 0, "guest": 1}
# A friend's resignation or leaving shows on the other table in this time (it used to
# never show on a table waiting on its own person, and took 10 s on the resigner's).
AT_ONCE_MS = 5000


def seeded_context(browser: Any, base_url: str, seed: int) -> Any:
    context = browser.new_context(base_url=base_url)

    def handle(route: Any) -> None:
        from playwright.sync_api import Error

        try:
            response = route.fetch()
            route.fulfill(response=response,
                          body=SEEDED_WORKER.replace("SEED", str(seed)) + response.text())
        except Error:  # the page went (a worker started late: loading.mjs's priming)
            pass

    context.route("**/engine-worker.mjs", handle)
    return context


class Pair:
    """A host's page and a guest's, each in its own browser, connected by the codes, with
    seeded engines, the animations off and a long time to decide on muggins."""

    def __init__(self, browsers: list[Any], base_url: str, counting: str,
                 guest_decide: int = 600) -> None:
        self.errors: list[str] = []
        self.base_url = base_url
        self.pages = {side: new_page(None, base_url, self.errors,
                                     seeded_context(browser, base_url, seed), side)
                      for side, browser, seed in (("host", browsers[0], 2024),
                                                  ("guest", browsers[1], 61))}
        host = self.pages["host"]
        host.goto("/?speed=0&decide=600")
        host.wait_for_selector("#table[data-engine=ready]")
        more_options(host)
        host.get_by_label("Game to").select_option("61")
        host.get_by_label("Counting").select_option(counting)
        host.get_by_role("button", name="Play a friend on another device").click()
        host.wait_for_selector("#table[data-peer=code]")
        invitation = host.locator("input[name=code-out]").input_value()
        exchange_codes(host, self.pages["guest"],
                       invitation.replace("decide=600", f"decide={guest_decide}"))

    @property
    def host(self) -> Any:
        return self.pages["host"]

    def turn(self) -> str | None:
        """Whose turn it is in the host's game (its last save), or None."""
        kept = self.host.evaluate("() => localStorage.getItem('cribbage.peer')")
        save = json.loads(kept)["save"] if kept else None
        if not save:
            return None
        seat = Game.from_json(save).current_player
        return next((side for side, number in SEATS.items() if number == seat), None)

    def phase(self, side: str) -> str:
        return str(self.pages[side].get_attribute("#table", "data-phase"))

    def drive(self, done: Callable[[], bool], sides: tuple[str, ...] = ("host", "guest")) -> None:
        """Both people (or those of ``sides``) play, claiming 0 and accepting claims, until
        ``done`` (asked before every action)."""
        tables = [Table(None, self.pages[side]) for side in sides]
        for _ in range(1500):
            for table in tables:
                if done():
                    return
                table.step()
            self.host.wait_for_timeout(20)
        raise AssertionError("the game did not get there")


def other(side: str) -> str:
    return "guest" if side == "host" else "host"


def picked(page: Any) -> int:
    return int(page.locator(".seat-human button.card.selected").count())


def pick_one(page: Any) -> None:
    """Exactly one card chosen for the crib, and not sent."""
    while picked(page) > 1:
        page.locator(".seat-human button.card.selected").first.click()
    if picked(page) == 0:
        page.locator(".seat-human button.card:not([disabled])").first.click()
    assert picked(page) == 1


def ready(pair: Pair, holder: str) -> bool:
    """The table of ``holder`` waits on its own person (its turn), nothing on its way."""
    page = pair.pages[holder]
    return pair.turn() == holder and page.locator("#table:not([data-busy])").count() == 1


def reach(pair: Pair, phase: str, holder: str) -> None:
    """Play until ``holder``'s table waits on its person in ``phase``: to cut; to discard
    with one card chosen; to play a card; in the show, before Continue; to claim a count
    (manual counting); offered muggins on the friend's claim, with its countdown."""
    page = pair.pages[holder]
    if phase == "discard":
        pair.drive(lambda: pair.turn() is not None and pair.phase("host") == "discard"
                   and pair.phase("guest") == "discard")
        pair.drive(lambda: ready(pair, holder), (other(holder),))  # the pone discards first
        pick_one(page)
        return
    where = {
        "cut": lambda: page.get_by_role("button", name="Cut", exact=True).count() == 1,
        "play": lambda: pair.phase(holder) == "play" and page.locator(
            ".seat-human button.card:not([disabled])").count() > 0,
        "show": lambda: page.get_by_role("button", name="Continue", exact=True).count() == 1,
        "count": lambda: page.locator(".actions input[name=points]").count() == 1,
        "muggins": lambda: page.locator(".actions .countdown[data-seconds]").count() == 1,
    }[phase]
    pair.drive(lambda: where() and (phase == "show" or ready(pair, holder)))


def table_at(pair: Pair, holder: str, phase: str, paused: bool = False) -> None:
    """``holder``'s table is still where ``reach`` left it (``paused``: a muggins call's
    countdown waits for the friend to come back)."""
    page = pair.pages[holder]
    shown = {"count": ("play", "show"), "muggins": ("play", "show")}.get(phase, (phase,))
    assert pair.phase(holder) in shown, (pair.phase(holder), phase)
    if phase == "discard":
        assert picked(page) == 1
    if phase == "muggins" and paused:
        assert page.locator(".actions .countdown").count() == 0
    elif phase == "muggins":
        page.wait_for_selector(".actions .countdown[data-seconds]")


def reconnect(pair: Pair) -> None:
    """Both tables offer to connect again: the host makes a new invitation, the guest
    pastes it, the host pastes the answer; both play on."""
    host, guest = pair.host, pair.pages["guest"]
    host.get_by_role("button", name="New invitation for this game").click()
    host.wait_for_selector("#table[data-peer=code]")
    paste_codes(host, guest)
    for page in (host, guest):
        page.wait_for_selector("#table[data-peer=playing]:not([data-dialog])")


def assert_paused(page: Any, within_ms: int) -> None:
    """The table offers to connect again (the game waits) within ``within_ms``."""
    page.wait_for_selector("#table[data-peer=closed][data-dialog=peer]", timeout=within_ms)
    assert page.locator(".peer-reactions [data-action=peer-reopen]").is_visible()


def lose_connection(pair: Pair, side: str, holder: str, phase: str) -> None:
    """``side``'s channel goes silent (as when the network goes): the heartbeat closes it
    and both tables offer to connect again, ``holder``'s still where it was."""
    pair.pages[side].evaluate("() => { window.cribbagePeerLink.channel.send = () => {}; }")
    for page in pair.pages.values():
        assert_paused(page, 20_000)  # SILENCE_MS (9 s) and a heartbeat
    table_at(pair, holder, phase, paused=True)
    reconnect(pair)
    table_at(pair, holder, phase)


def close_page(pair: Pair, side: str, holder: str, phase: str) -> None:
    """``side``'s page closes: the other table offers to connect again at once (not after
    the heartbeat's silence); the page opens again and connects at the same move."""
    page = pair.pages[side]
    context = page.context
    page.close()
    assert_paused(pair.pages[holder], 6000)
    table_at(pair, holder, phase, paused=True)
    reopened = new_page(None, "", pair.errors, context, side)
    if side == "guest":
        pair.host.get_by_role("button", name="New invitation for this game").click()
        pair.host.wait_for_selector("#table[data-peer=code]")
        exchange_codes(pair.host, reopened, pair.host.locator("input[name=code-out]")
                       .input_value())
        pair.pages["guest"] = reopened
    else:
        reopened.goto("/?speed=0&decide=600")  # the kept game: a new invitation for it
        pair.pages["host"] = reopened
        reconnect(pair)
    pair.pages[holder].wait_for_selector("#table[data-peer=playing]:not([data-dialog])")
    table_at(pair, holder, phase)


def end_by(pair: Pair, side: str, how: str) -> float:
    """``side`` resigns, or leaves (starts a game against the computer); the seconds from
    the click to the other table's game over."""
    page = pair.pages[side]
    page.locator(".table-header [data-action=new-game]").click()
    name = "Resign this game" if how == "resign" else "Start"
    clicked = time.monotonic()
    page.get_by_role("button", name=name, exact=True).click()
    friend = pair.pages[other(side)]
    friend.wait_for_selector("#table[data-phase=over] #game-over:not([hidden])",
                             timeout=30_000)
    return time.monotonic() - clicked


# (phase, counting, the table waiting on its own person): each case ends once by a
# resignation after a lost connection, and once by leaving after a closed page, from
# the side whose turn it is not; the holder alternates so that both sides resign and
# both leave while the friend has the turn.
PHASES = [("cut", "automatic", "host"), ("discard", "automatic", "host"),
          ("play", "automatic", "guest"), ("show", "automatic", "guest"),
          ("count", "manual", "host"), ("muggins", "manual", "guest")]
CASES = [pytest.param(phase, counting, holder if how == "resign" else other(holder), how,
                      id=f"{phase}-{how}")
         for phase, counting, holder in PHASES for how in ("resign", "leave")]


@pytest.mark.parametrize(("phase", "counting", "holder", "how"), CASES)
def test_the_friends_end_or_absence_reaches_a_table_in_every_phase(
        browsers: list[Any], base_url: str, phase: str, counting: str, holder: str,
        how: str) -> None:
    """The table of ``holder`` waits on its own person in ``phase`` (a card picked in the
    discard); the other side's connection is lost (resign) or its page closed (leave):
    the holder's table pauses with the offer to connect again, and takes it up where it
    was; then the other side resigns or leaves: the holder's table shows game over at
    once, saying so."""
    pair = Pair(browsers, base_url, counting)
    ender = other(holder)
    reach(pair, phase, holder)
    if how == "resign":
        lose_connection(pair, ender, holder, phase)
    else:
        close_page(pair, ender, holder, phase)
    seconds = end_by(pair, ender, how)
    assert seconds * 1000 < AT_ONCE_MS, seconds
    page = pair.pages[holder]
    ending = page.locator("#game-over .peer-ending")
    assert ending.get_attribute("data-ending") == ("resigned" if how == "resign" else "left")
    assert ending.inner_text() == ("Your friend resigned." if how == "resign"
                                   else "Your friend left the game.")
    if how == "resign":
        pair.pages[ender].wait_for_selector("#table[data-phase=over]", timeout=AT_ONCE_MS)
        assert_verified(pair.host, pair.pages["guest"])
    else:  # the leaver plays the computer; the table left behind offers no reconnection
        page.wait_for_selector("#table[data-peer=closed]")
        assert page.locator("#table[data-dialog=peer]").count() == 0
        leaver = Table(None, pair.pages[ender])
        leaver.play_until(lambda: leaver.phase == "discard", 200)
        assert pair.pages[ender].locator("#table[data-peer]").count() == 0
    assert not pair.errors, pair.errors


def logged(page: Any, start: str) -> None:
    """Wait until the page's log has a line beginning with ``start``."""
    page.wait_for_function("(start) => [...document.querySelectorAll('.log-lines li')]"
                           ".some(li => li.textContent.startsWith(start))", arg=start)


def test_muggins_between_the_two_people_a_call_and_a_time_run_out(
        browsers: list[Any], base_url: str) -> None:
    """Manual counting over the channel: the guest's short claim is offered to the host
    with its countdown, the host calls Muggins! and both tables score it; later the
    host's short claim is offered to the guest, whose time to decide (3 s here) runs
    out: the pass goes to the host's game, which goes on."""
    pair = Pair(browsers, base_url, "manual", guest_decide=3)
    host, guest = pair.host, pair.pages["guest"]
    reach(pair, "muggins", "host")
    host.get_by_role("button", name="Muggins!", exact=True).click()
    logged(host, "Muggins! You took")
    logged(guest, "Muggins! Friend took")
    guest.wait_for_function("(scores) => JSON.stringify([...document.querySelectorAll("
                            "'[data-score]')].map(e => +e.dataset.score).sort((a, b) => a - b))"
                            " == JSON.stringify(scores)", arg=sorted(Table(None, host).scores()))
    assert any(event.kind == "muggins" and event.seat == 0 for event in host_game(host).events)

    reach(pair, "muggins", "guest")
    made = len(host_game(host).moves)
    guest.wait_for_selector(".actions .countdown[data-seconds]", state="detached",
                            timeout=15_000)  # 3 s, then the pass
    logged(guest, "Time ran out for You: no call, a pass")
    host.wait_for_function("(made) => { const kept = localStorage.getItem('cribbage.peer');"
                           " return kept && JSON.parse(JSON.parse(kept).save).moves.length"
                           " > made; }", arg=made)
    assert host_game(host).moves[made] == "pass"
    assert not pair.errors, pair.errors


# --- three and four players: one browser process per person -------------------------


def seat_holds_nothing_hidden(page: Any, game: Game, seat: int) -> None:
    """Guest ``seat``'s page shows only its own cards and public ones, and what it keeps
    holds none of another seat's hidden cards (their hands; their discards before the
    crib is shown) and no save or seed."""
    cards = set(page.evaluate(
        "() => [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card)"))
    stored = page.evaluate("() => JSON.stringify(Object.assign({}, localStorage))")
    record = kept_record(page)
    public = {card for event in record["events"] for card in event["cards"]}
    own = {card for held in record["held"].values() for card in held}
    assert cards <= public | own, (seat, cards - public - own)
    shown = any(event.kind == "crib" and event.deal == game.deal_number
                for event in game.events)
    hidden = {card.code for other, held in enumerate(game.hands) if other != seat
              for card in held} | (set() if shown else {
                  card.code for other, thrown in enumerate(game.discards) if other != seat
                  for card in thrown})
    assert not set(record["held"].get(str(game.deal_number), [])) & hidden, seat
    assert str(game.setup["seed"]) not in stored and '"save"' not in json.dumps(record)


def fits(page: Any) -> None:
    """The dialog fits a phone's 360 px with no sideways scroll."""
    size = page.viewport_size
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate("() => document.documentElement.scrollWidth <= 360")
    page.set_viewport_size(size)


def invite_in_turn(host: Any, guests: list[Any]) -> None:
    """The host's dialog shows one invitation after another; each guest opens its own
    and the host pastes that guest's answer."""
    invitation = ""
    for number, guest in enumerate(guests, 1):
        host.wait_for_function(
            "([n, old]) => document.querySelector('.peer-status')?.textContent"
            ".startsWith(`Invitation ${n} of`) && document.querySelector("
            "'input[name=code-out]')?.value && document.querySelector("
            "'input[name=code-out]').value != old", arg=[number, invitation])
        invitation = host.locator("input[name=code-out]").input_value()
        if number == 2:  # the second invitation: the dialog as it is then
            assert_no_violations(host, "the second friend's invitation", "#peer")
            fits(host)
        guest.goto(invitation)
        guest.wait_for_selector("#table[data-peer=code]")
        host.locator("textarea[name=code-in]").fill(
            guest.locator("input[name=code-out]").input_value())
        host.get_by_role("button", name="Connect", exact=True).click()
        guest.wait_for_selector("#table[data-peer=connected], #table[data-peer=playing]")


@pytest.fixture
def launch(browser_type: Any, browser_type_launch_args: dict[str, Any]) -> Iterator[Any]:
    """Launches browsers (one process each, with the loopback flags) on demand."""
    args = {**browser_type_launch_args,
            "args": [*browser_type_launch_args.get("args", []), *LOOPBACK_FLAGS]}
    launched: list[Any] = []

    def more(count: int) -> list[Any]:
        launched.extend(browser_type.launch(**args) for _ in range(count))
        return launched[-count:]

    yield more
    for browser in launched:
        browser.close()


def party(launched: list[Any], base_url: str, errors: list[str]) -> tuple[Any, list[Any]]:
    """A host's page for as many players as browsers, each friend invited in turn
    through the UI: every page playing, each guest in its own seat."""
    host = new_page(launched[0], base_url, errors, name="host")
    host.goto("/?speed=0")
    host.wait_for_selector("#table[data-engine=ready]")
    more_options(host)
    host.get_by_label("Players").select_option(str(len(launched)))
    host.get_by_label("Game to").select_option("61")
    host.get_by_role("button", name="Play a friend on another device").click()
    guests = [new_page(browser, base_url, errors, name=f"guest{seat}")
              for seat, browser in enumerate(launched[1:], 1)]
    invite_in_turn(host, guests)
    for page in (host, *guests):
        page.wait_for_selector("#table[data-peer=playing]")
    for seat, guest in enumerate(guests, 1):  # each page: its own seat at the bottom
        guest.wait_for_function(
            "(seat) => JSON.parse(JSON.parse(localStorage.getItem('cribbage.peer'))"
            ".record).seat == seat", arg=seat)
    return host, guests


def first_deal(pages: list[Any], guests: dict[int, Any]) -> Game:
    """Every page's person moves until the second deal, each guest's page checked for
    hidden cards at every step; the host's game then."""
    tables = [Table(None, page) for page in pages]
    for _ in range(3000):
        game = host_game(pages[0])
        if game.deal_number >= 2:
            return game
        for seat, guest in guests.items():
            seat_holds_nothing_hidden(guest, game, seat)
        for table in tables:
            table.step()
        pages[0].wait_for_timeout(20)
    raise AssertionError("the first deal did not end")


def verified(pages: list[Any], host: Any) -> None:
    """Each guest's page says its engine verified the reveal; the host's, that all did."""
    for page, text in [*((page, "Fair deal verified") for page in pages),
                       (host, "Every friend's device verified")]:
        line = page.locator(".fair-check[data-verified]")
        line.wait_for(timeout=30_000)
        assert line.get_attribute("data-verified") == "true", line.inner_text()
        assert text in line.inner_text()


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_pages_play_and_every_guest_verifies_the_deal(
        launch: Any, base_url: str, players: int) -> None:
    """The host picks the players, invites one friend after another through the UI; each
    page sits at the bottom with only its own cards; after the first deal's show the
    host resigns, and every guest's own engine verifies the reveal."""
    errors: list[str] = []
    host, guests = party(launch(players), base_url, errors)
    game = first_deal([host, *guests], dict(enumerate(guests, 1)))
    assert game.players == players
    resign(host)
    for page in (host, *guests):
        page.wait_for_selector("#table[data-phase=over]")
    verified(guests, host)
    assert not errors, errors


def test_the_computer_takes_the_seat_of_a_friend_who_went_away(
        launch: Any, base_url: str) -> None:
    """Three players: the last friend's page closes; the host's table offers a new
    invitation for that seat or the computer, the host picks the computer, which plays
    that seat through the first deal; the other friend verifies the reveal."""
    errors: list[str] = []
    host, guests = party(launch(3), base_url, errors)
    guests[1].close()
    host.wait_for_selector(".peer-status[data-status='peer.again_host_seat']")
    assert_no_violations(host, "a friend away, the computer offered", "#peer")
    fits(host)
    host.get_by_role("button", name="Let the computer play this seat").click()
    host.wait_for_selector("#table[data-peer=playing]")
    game = first_deal([host, guests[0]], {1: guests[0]})
    assert kept_record(host)["computers"] == [2] and game.deal_number >= 2
    resign(host)
    for page in (host, guests[0]):
        page.wait_for_selector("#table[data-phase=over]")
    verified([guests[0]], host)
    assert not errors, errors


def test_a_friend_of_three_who_went_away_comes_back_by_a_new_invitation(
        launch: Any, base_url: str) -> None:
    """Three players: the last friend's page closes in the first deal; the host makes a
    new invitation for that seat, the friend opens it in a new page (its kept record):
    the same game at the same move, played on to the second deal and verified."""
    errors: list[str] = []
    host, guests = party(launch(3), base_url, errors)
    tables = [Table(None, page) for page in (host, *guests)]
    for _ in range(3000):  # every page's person moves until the discard
        if host_game(host).phase == "discard":
            break
        for table in tables:
            table.step()
        host.wait_for_timeout(20)
    saved, context = host_game(host).to_json(), guests[1].context
    guests[1].close()
    host.wait_for_selector(".peer-status[data-status='peer.again_host_seat']")
    logged(guests[0], "A friend went away (seat 3)")  # the other friend is told
    host.get_by_role("button", name="New invitation for this game").click()
    host.wait_for_function("() => document.querySelector('.peer-status')?.textContent"
                           ".startsWith('Invitation 2 of 2')")
    invitation = host.locator("input[name=code-out]").input_value()
    guest = new_page(None, "", errors, context, name="guest2 again")
    guest.goto(invitation)
    guest.wait_for_selector("#table[data-peer=code]")
    host.locator("textarea[name=code-in]").fill(guest.locator("input[name=code-out]")
                                                .input_value())
    host.get_by_role("button", name="Connect", exact=True).click()
    for page in (host, guest):
        page.wait_for_selector("#table[data-peer=playing]")
    assert host_game(host).to_json() == saved  # the same move: the game waited
    assert kept_record(guest)["seat"] == 2
    logged(guests[0], "Every friend is here again")
    first_deal([host, guests[0], guest], {1: guests[0], 2: guest})
    resign(host)
    verified([guests[0], guest], host)
    assert not errors, errors
