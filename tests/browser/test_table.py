"""The game table through the page, using only the automation contract (docs/accessibility.md):
``#table[data-phase]``, card buttons named in words, the buttons Start, Cut,
Send to crib, Go, Continue and New game, ``[data-score]``, and ``?speed=0``.
"""

from __future__ import annotations

import re
from typing import Any

from .driver import CARD_NAME, Table, more_options


def test_whole_two_player_game_to_the_game_over_screen(app: Any, page: Any,
                                                       requests_seen: list[str]) -> None:
    table = Table(app, page).open().start()
    seen = set()
    checked_names = False
    def over() -> bool:
        nonlocal checked_names
        phase = table.phase  # read once: the table moves on by itself
        seen.add(phase)
        if phase == "discard" and not checked_names and table.my_cards().count() == 6:
            names = [table.my_cards().nth(i).get_attribute("aria-label") for i in range(6)]
            assert all(CARD_NAME.match(name) for name in names), names
            checked_names = True
        return phase == "over"
    table.play_until(over)
    assert {"cut", "discard", "play", "show", "over"} <= seen and checked_names
    assert max(table.scores()) >= 121 and len(table.scores()) == 2
    dialog = page.locator("#game-over")
    assert dialog.is_visible()
    assert re.search(r"(You win|Computer wins)", dialog.text_content())
    assert "Match:" in dialog.text_content()
    log = page.locator(".log-lines li")
    text = page.locator(".log-lines").text_content() or ""
    # Every deal's play ends on 31 or the last card; the play's points give their reasons.
    # (Not "fifteen" alone: a whole game can pass without a fifteen pegged; CI saw one.)
    assert log.count() > 50 and ("thirty-one" in text or "for last card" in text), text
    assert re.search(r" — (fifteen|pair|run|thirty-one)", text), text
    page.get_by_role("button", name="New game").click()
    assert page.get_by_role("button", name="Start").is_visible()
    app.assert_same_origin(requests_seen)


def test_the_show_is_counted_on_the_felt_in_cribbage_cadence(app: Any, page: Any) -> None:
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None)
    felt = page.locator("#table > .felt")
    # Each count in the middle of the felt, a tab each with its total; no second panel.
    assert felt.locator(".shown").count() == 3  # pone's hand, dealer's hand, dealer's crib
    assert felt.locator(".show-points[data-points]").count() == 3
    assert page.locator(".show-panel").count() == 0
    listed = felt.locator(".show-hand:not([hidden]) .show-list").inner_text()  # the crib's
    assert "=" in listed, listed  # its itemised list with its total
    # The words of every count for screen readers (a log, each line read) and in the log.
    heard = felt.locator(".show-heard").text_content() or ""
    assert "crib:" in heard and "starter" in heard and heard.endswith(")"), heard
    assert "crib" in (page.locator(".log-lines").text_content() or "")


def test_a_deal_with_three_and_with_four_players(app: Any, page: Any) -> None:
    for players, scores in (("3", 3), ("4", 2)):
        table = Table(app, page).open().start(players=players)
        assert len(table.scores()) == scores
        assert page.locator(".opponent").count() == int(players) - 1
        table.play_until(lambda t=table: t.phase == "show" and t.enabled("Continue") is not None)
        assert page.locator(".felt .show-points[data-points]").count() == int(players) + 1
        table.step()  # Continue
        table.play_until(lambda t=table: t.phase in ("discard", "over"))
        # Forget the game once the table has gone (about:blank), so no save still on its
        # way from the table can land after the clear and be resumed by the next open().
        origin = page.evaluate("location.origin")
        page.goto("about:blank")
        page.context.new_cdp_session(page).send(
            "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "local_storage"})


def play_games_until(table: Table, page: Any, done: Any, counting: str) -> None:
    """Claim 0 and call muggins whenever possible, up to eight games against the
    beginner, until ``done()``. The beginner misses at random (a third of its scorings),
    so a game rarely ends before it has missed; most runs need one game, and eight make
    a false failure vanishingly unlikely (three once failed in a full run)."""
    for _ in range(8):
        table.play_until(lambda: done() or table.phase == "over", claim=0, muggins=True)
        if done():
            return
        page.locator("#game-over").get_by_role("button", name="New game").click()
        table.start(counting=counting, level="beginner")


def test_manual_counting_and_muggins_both_ways(app: Any, page: Any) -> None:
    table = Table(app, page).open().start(counting="manual", level="beginner")
    log = page.locator(".log-lines")
    seen = {"Muggins! Computer took": False, "Muggins! You took": False}

    def both_ways() -> bool:
        text = log.text_content() or ""
        for line in seen:
            seen[line] = seen[line] or line in text
        return all(seen.values())

    # The human under-counts every hand (claims 0): the computer may take the points;
    # the beginner miscounts now and then, and the human calls muggins on it. A game can
    # end before the beginner has miscounted (a few per cent of games): then play another.
    play_games_until(table, page, both_ways, counting="manual")
    assert both_ways(), seen


def test_manual_pegging_with_muggins_in_the_play(app: Any, page: Any) -> None:
    """Each card's points are claimed by whoever laid it; a short claim can be taken."""
    table = Table(app, page).open().start(counting="pegging", level="beginner")
    log = page.locator(".log-lines")
    seen = {"claim": False, "human may call": False, "computer took": False}

    def look() -> bool:
        text = log.text_content() or ""
        playing = table.phase == "play"
        seen["claim"] = seen["claim"] or (
            playing and page.locator(".actions input[name=points]").count() == 1)
        seen["computer took"] = seen["computer took"] or "Muggins! Computer took" in text
        seen["human may call"] = seen["human may call"] or (
            playing and table.enabled("Muggins!") is not None)
        return all(seen.values())

    # The human claims 0 for every card (the computer may take what was missed); the
    # beginner misses now and then, and the human calls muggins on it.
    play_games_until(table, page, look, counting="pegging")
    assert look(), seen


def test_a_card_played_redraws_only_what_it_changed(app: Any, page: Any) -> None:
    """A move writes only the table's regions whose markup changed (tablestate.Regions):
    the starter and the crib keep their elements through a card played and answered."""
    table = Table(app, page).open().start(level="beginner")
    playable = page.locator(".seat-human button.card[data-action=play]:not([disabled])")
    table.play_until(lambda: table.phase == "play" and playable.count() == 4)
    page.evaluate("() => { window.keptParts = ['.starter .card', '.crib-spot .crib-cards',"
                  " '.felt .you .player'].map((s) => document.querySelector(s)); }")
    code = playable.first.get_attribute("data-card")
    playable.first.click()
    # The card drawn from the engine's reply and the computer's answer taken in.
    page.wait_for_function(
        """(code) => document.querySelector(`.pile .played:not([data-pending])
               [data-card="${code}"]`) && !document.getElementById('table')
               .hasAttribute('data-busy')""", arg=code)
    assert table.phase == "play"
    kept = page.evaluate("() => window.keptParts.map((part) => part !== null && part.isConnected)")
    assert kept == [True, True, False], kept  # whose turn it is: your panel drawn again
    assert page.locator(".felt .you .player.turn").count() == 1
    assert page.locator(".opponent .player.turn").count() == 0


def test_reload_resumes_in_the_middle_of_the_play(app: Any, page: Any) -> None:
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "play" and table.my_cards().count() == 3
                     and page.locator(".seat-human button.card:not([disabled])").count() > 0)
    hand = [table.my_cards().nth(i).get_attribute("aria-label") for i in range(3)]
    scores, pile = table.scores(), page.locator(".pile").inner_text()
    page.reload()
    page.wait_for_selector("#table[data-phase=play]")
    page.wait_for_selector(".seat-human button.card:not([disabled])")
    assert [table.my_cards().nth(i).get_attribute("aria-label") for i in range(3)] == hand
    assert table.scores() == scores and page.locator(".pile").inner_text() == pile
    assert page.locator("#new-game").is_hidden()
    table.play_until(lambda: table.phase == "show")  # and the game goes on


def test_a_corrupt_save_shows_a_message_and_starts_fresh(app: Any, page: Any) -> None:
    # Wait for the engine first: a page whose engine becomes ready between the setItem and
    # the reload below would itself find the junk, put it aside, and leave the reloaded
    # page nothing to complain about.
    app.open().wait_engine()
    for junk in ('{"format": "cribbage-table", "version": 1, "settings": {}, "game": "{}"}',
                 "not json at all", '{"format": "cribbage-table", "version": 1, "settings": '
                 '{"rules": {"players": 9}}, "game": "{}"}'):
        page.evaluate("text => localStorage.setItem('cribbage.save', text)", junk)
        page.reload()
        app.wait_engine()
        notice = page.locator("#new-game .notice")
        notice.wait_for(state="visible")
        assert "saved game" in notice.inner_text()
        assert page.evaluate("localStorage.getItem('cribbage.save')") is None
    table = Table(app, page).start()
    assert table.phase == "cut"


def test_settings_persist(app: Any, page: Any) -> None:
    Table(app, page).open().start(players="3", counting="manual", target="61")
    page.reload()
    app.wait_engine()
    page.get_by_role("button", name="New game").click()
    assert page.get_by_label("Players").input_value() == "3"
    assert page.get_by_label("Game to").input_value() == "61"
    assert page.get_by_label("Counting").input_value() == "manual"


def test_phone_size_stays_usable(app: Any, page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "play" and page.locator(
        ".seat-human button.card:not([disabled])").count() > 0)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page scrolls sideways: {width}px"
    for x, _, w, h in table.hand_boxes():
        assert x >= 0 and x + w <= 360
        assert w >= 40 and h >= 56  # big enough to tap
    assert page.locator(".pegboard").bounding_box()["width"] <= 360
    table.play_until(lambda: table.phase == "show")


def test_the_start_screen_fits_a_phone_and_keeps_more_options_as_left(app: Any,
                                                                      page: Any) -> None:
    """Start and the computer's level at once at 360x640, nothing to scroll; the other
    choices under More options, open or closed as the player left it (after a reload)."""
    page.set_viewport_size({"width": 360, "height": 640})
    app.open("?speed=0").wait_engine()
    box = page.get_by_role("button", name="Start").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 640, box
    assert page.evaluate("[scrollY, document.documentElement.scrollHeight <= innerHeight]") == [
        0, True]
    assert page.locator("select[name=level]").is_visible()
    players = page.get_by_label("Players")
    assert not players.is_visible()
    more_options(page)
    assert players.is_visible()
    kept = ("open => JSON.parse(localStorage.getItem('cribbage.settings') || '{}')"
            ".more_options === open")  # kept by the toggle's own event, a task later
    page.wait_for_function(kept, arg=True)
    page.reload()
    app.wait_engine()
    assert players.is_visible()  # still open
    page.locator("#new-game details.more-options summary").click()
    page.wait_for_function(kept, arg=False)
    page.reload()
    app.wait_engine()
    assert not players.is_visible()  # closed again


# Every status line shown, with the phase and the hand at that moment.
WATCH_STATUS = """() => {
  window.__statuses = [];
  const table = document.getElementById("table");
  new MutationObserver(() => window.__statuses.push({
    text: table.querySelector(".status").textContent, phase: table.dataset.phase,
    dealer: table.querySelector(".felt .you .dealer-mark") !== null,
    cards: table.querySelectorAll(".seat-human .hand button.card").length,
    enabled: table.querySelectorAll(".seat-human .hand button.card:not([disabled])").length,
  })).observe(table.querySelector(".status"),
                {childList: true, characterData: true, subtree: true});
}"""


def test_the_status_asks_for_your_discards_while_the_computer_chooses_its_own(
        app: Any, page: Any) -> None:
    """When you deal, the computer (the pone) is asked first; meanwhile the status asks
    for your discards (never "Computer is thinking…") and your cards can be chosen."""
    table = Table(app, page).open().start()
    page.evaluate(WATCH_STATUS)
    dealing = ("() => window.__statuses.some(s => s.phase === 'discard' && s.dealer"
               " && s.cards === 6)")
    table.play_until(lambda: page.evaluate(dealing))  # the first or the second deal is yours
    seen = page.evaluate("window.__statuses.filter(s => s.phase === 'discard' && s.cards === 6)")
    assert seen and all(s["text"].endswith("Choose 2 cards for your crib.") or not s["dealer"]
                        for s in seen), seen
    assert not [s for s in seen if "thinking" in s["text"] or s["enabled"] != 6], seen


# Every Web Animation the page starts, with its timing (tablemotion.py's moves of the cards:
# the CSS transitions and animations do not go through Element.animate).
RECORD_MOVES = """
window.__moves = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, timing) {
  window.__moves.push({duration: timing.duration, delay: timing.delay || 0});
  return animate.call(this, frames, timing);
};
"""


def test_the_cut_on_the_fanned_deck_then_short_moves_and_none_for_reduced_motion(
        app: Any, page: Any) -> None:
    """A tap on the fanned deck cuts; a banner says who deals; the cards dealt move, each
    within 300 ms; with reduced motion nothing moves."""
    page.add_init_script(RECORD_MOVES)
    app.open().wait_engine()  # normal speed
    page.get_by_role("button", name="Start").click()
    banner = page.locator(".announce .cut-banner")
    fan = page.locator("#table[data-phase=cut] .deck.cut-fan[data-action=cut]")
    for _ in range(10):  # a tie for lowest: cut again
        fan.click()
        fan.wait_for(state="detached")  # the cut was taken: the deck waits for the computer's
        page.wait_for_function("() => document.querySelector('.cut-banner') !== null"
                               " || document.querySelector('.deck[data-action=cut]') !== null")
        if banner.count():
            break
    assert re.fullmatch(r"(You|Computer) deals?", banner.inner_text()), banner.inner_text()
    page.wait_for_function("() => window.__moves.length >= 6")
    moves = page.evaluate("window.__moves")
    assert all(m["duration"] + m["delay"] <= 300 for m in moves), moves
    banner.wait_for(state="detached")  # gone after its moment
    page.emulate_media(reduced_motion="reduce")
    page.evaluate("window.__moves = []")
    Table(app, page).play_until(lambda: page.locator(".pile .played").count() > 0)
    assert page.evaluate("window.__moves") == []
