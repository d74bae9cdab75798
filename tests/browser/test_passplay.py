"""Pass-and-play through the page: people share the device, the table hands it over.

At every step the test reads the game from the page's own save (localStorage),
replays it with the engine, and checks that no card hidden from the person at
the device (the other people's hands, their discards before the show) is
anywhere in the page: not in its HTML (``page.content()``), not in its
accessibility tree (``aria_snapshot``), not in the log.
"""

from __future__ import annotations

import json
import re
from typing import Any

from cribbage import Game
from cribbage.i18n import card_label, card_name

from .axe import assert_no_violations
from .driver import Table, more_options

HOSTILE = '<img src=x onerror="window.pwned=1">'


def start(page: Any, app: Any, seats: list[tuple[str, str]], query: str = "?speed=0",
          counting: str = "automatic", players: str | None = None, wait: bool = True) -> None:
    """Open the table and start a game with these (kind, name) seats."""
    app.open(query).wait_engine()
    more_options(page)
    page.get_by_label("Players").select_option(players or str(len(seats)))
    for seat, (kind, name) in enumerate(seats):
        page.locator(f"select[name=who{seat}]").select_option(kind)
        page.locator(f"input[name=name{seat}]").fill(name)
    page.get_by_label("Counting").select_option(counting)
    page.get_by_role("button", name="Start").click()
    if wait:
        page.wait_for_selector("#table:not([data-phase=setup])")


def game_in_page(page: Any) -> tuple[Game, dict[str, Any]]:
    envelope = json.loads(page.evaluate("() => localStorage.getItem('cribbage.save')"))
    return Game.from_json(envelope["game"]), envelope["settings"]


def viewer(page: Any) -> int | None:
    text = page.evaluate("() => localStorage.getItem('cribbage.viewer')")
    return int(text) if text is not None else None


def hidden_from(game: Game, persons: list[int], seat: int | None) -> set[str]:
    """Cards the person at ``seat`` (None: nobody, during a hand-off) may not see."""
    hidden: set[str] = set()
    shown_crib = any(event.kind == "crib" and event.deal == game.deal_number
                     for event in game.events)
    for other in persons:
        if other == seat:
            continue
        hidden |= {card.code for card in game.hands[other]}
        if not shown_crib:
            hidden |= {card.code for card in game.discards[other]}
    return hidden


def assert_nothing_hidden(page: Any, persons: list[int], seat: int | None) -> int:
    """No hidden card in the HTML, the accessibility tree or the log; returns how many
    cards were checked."""
    for _ in range(20):  # the table may move on while we read: wait until it stands still
        before = (saved(page), viewer(page), page.content())
        page.wait_for_timeout(250)
        html = page.content()
        tree = page.locator("body").aria_snapshot()
        log = this_deal(page.locator(".log-lines").inner_text())
        if (saved(page), viewer(page), page.content()) == before[:2] + (html,) == before:
            break
    else:
        raise AssertionError("the table never stood still")
    game, _ = game_in_page(page)
    hidden = hidden_from(game, persons, seat)
    for code in hidden:
        assert f'data-card="{code}"' not in html, (code, seat, game.phase, page.evaluate(
            """code => [...document.querySelectorAll(`[data-card="${code}"]`)].map(card => {
                const path = []; for (let e = card; e; e = e.parentElement)
                    path.push(e.tagName + "." + e.className); return path.join(" < "); })""",
            code))
        assert card_name(code, "en") not in html and card_name(code, "en") not in tree, code
        assert card_label(code) not in log, code
    return len(hidden)


def this_deal(log: str) -> str:
    """The log's lines of the deal in progress (earlier deals' cards are history: a card
    played last deal may be in a hidden hand now)."""
    lines = log.splitlines()
    starts = [index for index, line in enumerate(lines) if line.startswith("Deal ")]
    return "\n".join(lines[starts[-1]:] if starts else lines)


def saved(page: Any) -> str:
    return str(page.evaluate("() => localStorage.getItem('cribbage.save')"))


def show_my_cards(page: Any) -> None:
    """The person the device was passed to shows their cards; that hand-off screen goes.

    The next may follow within the same task (when the person's only move is a Go
    said for them, the turn passes on at once), so the table's phase may never be seen
    leaving ``handoff``: the pressed button leaving the page is the sign.
    """
    button = page.get_by_role("button", name="Show my cards")
    pressed = button.element_handle()
    button.click()
    page.wait_for_function("(button) => !button.isConnected || document.querySelector("
                           "'#table').getAttribute('data-phase') !== 'handoff'", arg=pressed)


def test_two_people_hand_off_at_each_turn_and_never_see_each_others_cards(
        app: Any, page: Any) -> None:
    start(page, app, [("person", "Ana"), ("person", "Bo")])
    handoffs, checked, seen_phases = 0, 0, set()
    for _ in range(600):
        phase = page.get_attribute("#table", "data-phase")
        seen_phases.add(phase)
        if phase == "handoff":
            screen = page.locator("#handoff")
            assert screen.is_visible() and re.match(r"Pass to (Ana|Bo)", screen.inner_text())
            assert page.locator(".seat-human .hand .card").count() == 0
            checked += assert_nothing_hidden(page, [0, 1], None)
            if handoffs == 0:
                assert_no_violations(page, "the hand-off screen")
            handoffs += 1
            show_my_cards(page)
            continue
        if phase in ("discard", "play"):
            seat = viewer(page)
            assert seat in (0, 1)
            checked += assert_nothing_hidden(page, [0, 1], seat)
        if handoffs >= 8 and "show" in seen_phases and phase in ("discard", "play"):
            break
        Table(app, page).step()
        page.wait_for_timeout(30)
    assert handoffs >= 8 and checked > 20, (handoffs, checked)
    assert "show" in seen_phases
    assert page.locator("[data-action=undo]").count() == 0  # no take-backs between people
    # The finished deal counted in each person's statistics, not in the solo player's.
    books = page.evaluate("() => JSON.parse(localStorage.getItem('cribbage.stats.books'))")
    assert books == ["Ana", "Bo"]
    for name in books:
        stats = json.loads(page.evaluate(f"() => localStorage.getItem('cribbage.stats:{name}')"))
        assert stats["deals"] == 1
    assert page.evaluate("() => localStorage.getItem('cribbage.stats')") is None
    page.get_by_role("button", name="Statistics").first.click()
    choice = page.locator("#stats select[name=stats-book]")
    choice.select_option("Bo")
    page.wait_for_function("() => document.querySelector('#stats select').value === 'Bo'")


def test_four_players_as_partners_with_two_people(app: Any, page: Any) -> None:
    start(page, app, [("person", "Ana"), ("computer", ""), ("person", "Cy"), ("computer", "")])
    names = page.locator(".felt .player .who").all_inner_texts()
    assert sorted(names) == ["Ana", "Computer 2", "Computer 4", "Cy"], names
    handoffs = 0
    for _ in range(600):
        phase = page.get_attribute("#table", "data-phase")
        if phase == "handoff":
            handoffs += 1
            assert_nothing_hidden(page, [0, 2], None)
            show_my_cards(page)
            continue
        if phase in ("discard", "play"):
            seat = viewer(page)
            assert seat in (0, 2)
            assert_nothing_hidden(page, [0, 2], seat)
            assert page.locator(".opponent").count() == 3
        if handoffs >= 4:
            break
        Table(app, page).step()
        page.wait_for_timeout(30)
    assert handoffs >= 4


def test_names_with_html_in_them_stay_text(app: Any, page: Any) -> None:
    start(page, app, [("person", HOSTILE), ("person", "<b>Bo</b> & co")])
    page.wait_for_selector("#table[data-phase=handoff]")
    assert page.evaluate("() => window.pwned === undefined")
    assert page.locator("img").count() == 0 and page.locator("b", has_text="Bo").count() == 0
    shown = page.locator(".felt .player .who").all_inner_texts()
    assert any(HOSTILE[:20] in name for name in shown) and "<b>Bo</b> & co" in shown
    assert page.locator("input[name=name0]").get_attribute("maxlength") == "20"


def test_a_reload_at_a_hand_off_returns_to_the_hand_off(app: Any, page: Any) -> None:
    start(page, app, [("person", "Ana"), ("person", "Bo")])
    page.wait_for_selector("#table[data-phase=handoff]")
    page.get_by_role("button", name="Show my cards").click()
    for _ in range(200):  # play until the device must change hands again
        if page.get_attribute("#table", "data-phase") == "handoff":
            break
        Table(app, page).step()
        page.wait_for_timeout(30)
    for _ in range(2):  # a reload mid-game, and one more right away
        page.reload()
        app.wait_engine()
        page.wait_for_selector("#table[data-phase=handoff]", timeout=60_000)
        assert page.locator(".seat-human .hand .card").count() == 0
        assert_nothing_hidden(page, [0, 1], None)
    show_my_cards(page)
    page.wait_for_selector(".seat-human .hand .card, .actions [data-action=cut]")


def test_solo_games_never_hand_off(app: Any, page: Any) -> None:
    start(page, app, [("person", ""), ("computer", "")])
    table = Table(app, page)
    seen = set()
    for _ in range(300):
        phase = page.get_attribute("#table", "data-phase")
        seen.add(phase)
        assert phase != "handoff"
        if "show" in seen and phase == "discard":
            break
        table.step()
        page.wait_for_timeout(20)
    assert "show" in seen
    assert "You" in page.locator(".felt .you .player").inner_text()


def test_muggins_is_offered_to_the_other_person_with_a_time_to_decide(
        app: Any, page: Any) -> None:
    start(page, app, [("person", "Ana"), ("person", "Bo")], query="?speed=0&decide=4",
          counting="manual")
    offers = 0
    for _ in range(900):
        phase = page.get_attribute("#table", "data-phase")
        if phase == "handoff":
            show_my_cards(page)
            continue
        timer = page.locator(".actions .countdown")
        if timer.count():
            offers += 1
            assert re.search(r"\d+ s left to decide", timer.inner_text())
            assert "claimed" in page.locator(".status").inner_text()
            if offers == 1:  # the first offer: let the time run out (a pass, said in the log)
                page.wait_for_function(
                    "() => document.querySelector('.log-lines').textContent"
                    ".includes('Time ran out')", timeout=30_000)
                page.wait_for_function("() => !document.querySelector('.actions .countdown')")
                continue
            page.get_by_role("button", name="Muggins!").click()  # the second: call it
            page.wait_for_function("() => !document.querySelector('.actions .countdown')")
            break
        Table(app, page).step(claim=0)
        page.wait_for_timeout(30)
    assert offers == 2


def test_a_game_needs_a_person(app: Any, page: Any) -> None:
    start(page, app, [("computer", ""), ("computer", "")], wait=False)
    page.wait_for_selector("#new-game .notice:not([hidden])")
    assert page.get_attribute("#table", "data-phase") == "setup"
    assert "At least one seat must be a person." in page.locator("#new-game .notice").inner_text()
