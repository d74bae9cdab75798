"""Browser tests of the replay viewer (replay.html).

- A game in progress at the table opens in the viewer (the header's Replay
  link) on its first deal, with a caption; the buttons and the keys (arrows,
  Home, End) step through it, the pile and the pegs following; no other seat's
  hidden card is in the DOM.
- A share link made by the viewer opens the same game on a fresh page.
- Hostile links (garbage, script text, another version, illegal moves,
  tampered scores, a huge fragment) get a message and nothing else: no step
  is drawn, the message is text, no console error.
- The tutorial's link opens the replay of its worked example.
- Download writes the save; opening it replays it; a tampered file gets a
  message and the replay on screen stays as it was.
- axe-core finds nothing; nothing is wider than a 360 px screen (screenshots
  in test-results/ to look at).
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest

from sitebuild.common import DIST

from .axe import assert_no_violations
from .driver import Table

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-results"
READY = "#replay[data-state=ready]"


def open_replay(page: Any, fragment: str = "") -> Any:
    page.goto("/replay.html" + fragment)
    page.wait_for_selector("#replay:not([data-state=loading])", timeout=120_000)
    return page.locator("#replay")


def step(page: Any) -> int:
    return int(page.get_attribute("#replay", "data-step"))


def wait_step(page: Any, number: int) -> None:
    page.wait_for_function(
        "(n) => document.querySelector('#replay').getAttribute('data-step') === String(n)",
        arg=number)


def link_body(link: str) -> dict[str, Any]:
    payload = link[2:]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def link_text(body: dict[str, Any]) -> str:
    data = json.dumps(body).encode()
    return "1." + base64.urlsafe_b64encode(data).decode().rstrip("=")


def tutorial_link() -> str:
    page = (ROOT / "web" / "pages" / "tutorial.html").read_text()
    match = re.search(r'href="\./replay\.html#r=([^"]+)"', page)
    assert match
    return match.group(1)


def fits_360(page: Any) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 360, wide


def test_a_game_in_progress_steps_back_and_forward(app: Any, page: Any) -> None:
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "play"
                     and page.locator("#table .pile .card").count() >= 2)
    page.get_by_role("link", name="Replay").click()
    page.wait_for_selector(READY, timeout=120_000)
    # It opens on the first deal, dealt (not on the cut before it), and says what happens.
    opening = step(page)
    assert opening == int(page.get_attribute("#replay", "data-opening")) > 0
    assert page.locator(".replay-seat[data-seat='0'] .card:not(.back)").count() == 6
    assert page.locator(".replay-caption").inner_text().startswith("Deal 1: ")
    page.get_by_role("button", name="End »").click()
    wait_step(page, int(page.locator(".replay-position").inner_text().split()[-1]))
    last = step(page)
    assert last >= 2
    piles = []  # the pile follows the steps: cards on it late in the play, none at the start
    for back in range(min(last, 8)):
        piles.append(page.locator(".replay-felt .pile .card").count())
        page.keyboard.press("ArrowLeft")
        wait_step(page, last - back - 1)
    assert max(piles) >= 1, piles
    page.keyboard.press("Home")
    wait_step(page, 0)
    assert page.locator(".replay-felt .pile .card").count() == 0
    assert page.get_by_role("button", name="◀ Back").is_disabled()
    page.keyboard.press("ArrowRight")
    wait_step(page, 1)
    assert page.locator(".replay-events li").count() >= 1
    page.get_by_role("button", name="Forward ▶").click()
    wait_step(page, 2)
    page.keyboard.press("ArrowLeft")
    wait_step(page, 1)
    page.keyboard.press("End")
    wait_step(page, last)
    # The game is in progress: only the viewer's seat (0) is face up among the hands.
    assert page.locator(".replay-seat[data-seat='1'] .card:not(.back)").count() == 0
    assert page.locator("#replay").get_attribute("data-over") == "false"
    save = json.loads(page.evaluate("() => JSON.parse(localStorage.getItem('cribbage.save')).game"))
    hidden = hidden_cards(app, save)
    html = page.content()
    assert [code for code in hidden if f'data-card="{code}"' in html] == []
    assert_no_violations(page, "a game in progress")
    page.set_viewport_size({"width": 360, "height": 800})
    fits_360(page)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "replay-360.png"), full_page=True)


def hidden_cards(app: Any, save: dict[str, Any]) -> list[str]:
    """The cards of the computer's hand now (the engine's view of seat 1)."""
    result = app.result("load", {"save": json.dumps(save), "seat": 1})
    return list(result["view"]["hand"])


def test_a_share_link_opens_the_same_game(page: Any, context: Any) -> None:
    open_replay(page, "#r=" + tutorial_link())
    page.wait_for_selector(READY)
    page.keyboard.press("End")
    total = len(link_body(tutorial_link())["moves"])
    wait_step(page, total)
    shown = page.locator(".replay-felt").inner_html()
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy the share link").click()
    page.wait_for_function(
        "() => document.querySelector('.replay-message').textContent.includes('copied')")
    address = page.locator(".replay-link").input_value()
    assert address.split("#r=")[1] == tutorial_link()
    other = context.new_page()
    other.goto(address)
    other.wait_for_selector(READY, timeout=120_000)
    other.keyboard.press("End")
    wait_step(other, total)
    assert other.locator(".replay-felt").inner_html() == shown
    other.close()


GOOD = tutorial_link()


def tampered(change: Any) -> str:
    body = link_body(GOOD)
    change(body)
    return link_text(body)


HOSTILE = {
    "garbage": "!!!!",
    "script": "<script>alert(1)</script>",
    "escaped-script": "1.%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
    "version": "7." + GOOD[2:],
    "illegal-move": tampered(lambda b: b.update(moves=b["moves"][:3] + "_")),
    "scores": tampered(lambda b: b["setup"]["script"].update(scores=[500, 0])),
    "card-markup": tampered(lambda b: b["setup"]["script"].update(starter="<b>x</b>")),
    "huge": "1." + "A" * 200_000,
}
# Fragments that are not share links at all: said to be bad links, never the table's game.
FRAGMENTS = {
    **{name: "#r=" + text for name, text in HOSTILE.items()},
    "not-a-link": "#<img src=x onerror=alert(1)>",
    "wrong-key": "#R=" + GOOD,
}


@pytest.mark.parametrize("name", list(FRAGMENTS))
def test_a_hostile_link_gets_a_message_and_nothing_else(page: Any, name: str) -> None:
    open_replay(page, FRAGMENTS[name])
    page.wait_for_selector("#replay[data-state=error]")
    message = page.locator(".replay-message")
    assert message.is_visible()
    assert message.inner_text().startswith("This replay link cannot be opened.")
    assert message.evaluate("(e) => e.children.length") == 0  # text, never markup
    assert page.locator(".replay-view").is_hidden()
    for part in (".replay-felt", ".replay-events", ".replay-board", ".replay-position"):
        assert page.locator(part).inner_html() == ""
    assert page.locator(".card, svg.pegboard, img").count() == 0
    # No script but the page's own: the engine's starter the build wrote in.
    own = (DIST / "replay.html").read_text().count("<script>")
    assert page.locator("script:not([src])").count() == own == 1
    assert page.get_by_role("button", name="Copy the share link").is_hidden()
    assert page.evaluate("() => window.alerted === undefined")


def test_the_tutorial_links_to_the_replay_of_its_worked_example(page: Any) -> None:
    page.goto("/tutorial.html")
    link = page.locator("a[href^='./replay.html#r=']")
    link.wait_for()
    assert link.inner_text().startswith("Replay this deal")
    link.click()
    page.wait_for_selector(READY, timeout=120_000)
    assert page.locator(".replay-seat[data-seat='0'] .card:not(.back)").count() == 6
    page.keyboard.press("ArrowRight")
    wait_step(page, 1)
    assert "Seat 2" in page.locator(".replay-events").inner_text()
    assert_no_violations(page, "the tutorial's replay")


def test_download_and_open_a_game_file(page: Any, tmp_path: Path) -> None:
    open_replay(page, "#r=" + GOOD)
    page.wait_for_selector(READY)
    with page.expect_download() as waiting:
        page.get_by_role("button", name="Download the game").click()
    saved = tmp_path / "game.json"
    waiting.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["format"] == "cribbage-game" and len(data["moves"]) == len(link_body(GOOD)["moves"])
    # A tampered file: a message, and the replay on screen stays.
    page.keyboard.press("ArrowRight")
    wait_step(page, 1)
    shown = page.locator(".replay-felt").inner_html()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(data, moves=data["moves"][:2] + ["play 5S"])))
    page.locator(".replay-file").set_input_files(str(bad))
    page.wait_for_function(
        "() => document.querySelector('.replay-message').textContent.includes('nothing was')")
    assert step(page) == 1 and page.locator(".replay-felt").inner_html() == shown
    # The good file opens from its first step, the address no longer a link.
    page.locator(".replay-file").set_input_files(str(saved))
    page.wait_for_function(
        "() => document.querySelector('.replay-message').textContent.includes('is open')")
    wait_step(page, 0)
    assert "#r=" not in page.url


def test_no_game_yet_says_so(page: Any) -> None:
    open_replay(page)
    page.wait_for_selector("#replay[data-state=empty]")
    assert "no game to replay" in page.locator(".replay-message").inner_text()
    assert_no_violations(page, "no game")


def test_a_finished_game_shows_every_hand(app: Any, page: Any) -> None:
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "play")
    page.locator(".table-header [data-action=new-game]").click()
    page.locator("#new-game [data-action=resign]").click()
    page.locator("#game-over").wait_for(state="visible")
    page.locator("#game-over").get_by_role("link", name="Watch the replay").click()
    page.wait_for_selector(READY, timeout=120_000)
    assert page.get_attribute("#replay", "data-over") == "true"
    assert "every hand" in page.locator(".replay-seen").inner_text()
    page.keyboard.press("End")
    page.keyboard.press("Home")
    wait_step(page, 0)
    # Deal 1 as dealt: the computer's six cards face up too, the crib empty.
    dealt = page.locator(".replay-seat[data-seat='1'] .card:not(.back)")
    if page.locator(".replay-seat[data-seat='1'] .card").count():
        assert dealt.count() == page.locator(".replay-seat[data-seat='1'] .card").count()
    assert page.locator(".replay-felt .card.back").count() == 0
    assert_no_violations(page, "a finished game")


def test_the_address_changed_in_place_opens_what_it_names(page: Any) -> None:
    """A new fragment typed into the address bar (no reload): a link shows its game, anything
    else is said to be a bad link and the game shown before is cleared."""
    open_replay(page)
    page.wait_for_selector("#replay[data-state=empty]")
    page.evaluate("(f) => { location.hash = f; }", "#r=" + GOOD)
    page.wait_for_selector(READY)
    assert page.locator(".replay-felt .card").count() > 0
    page.evaluate("() => { location.hash = '#nothing-here'; }")
    page.wait_for_selector("#replay[data-state=error]")
    assert page.locator(".replay-message").inner_text().startswith(
        "This replay link cannot be opened.")
    assert page.locator(".replay-felt").inner_html() == ""
