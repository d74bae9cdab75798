"""Browser tests of the replay viewer (replay.html).

- A game in progress at the table opens in the viewer (the header's Replay
  link) on its first deal, with a caption; the buttons and the keys (arrows,
  Home, End) step through it, the pile and the pegs following; no other seat's
  hidden card is in the DOM.
- Play advances frame by frame and Pause (the button or Space) stops it, the
  state said; the scrubber's marks are the game's deals and a mark shows its
  deal; each count of the show is a frame with its hand, the starter and its
  items; the felt's cards are the table's size at 360x640 and 1280x800, with
  nothing to scroll.
- Without a game the felt offers "Play a game" and our own "Open a game file"
  in the page's language (the browser's file control out of sight, its input
  focusable and named).
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

from cribbage.protocol import Session
from sitebuild.common import DIST

from .axe import assert_no_violations
from .driver import Table
from .games import last_deal_save

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


# The parts of the felt a step fills (not the controls, nor a message over them).
FELT = """() => ['.you', '.opponents', '.centre', '.replay-show', '.seat-human', '.says']
    .map((part) => document.querySelector('#replay .felt ' + part).innerHTML).join('|')"""


def one_screen(page: Any) -> None:
    """Nothing to scroll: the page is the viewport, as the table is."""
    sizes = page.evaluate("""() => [document.documentElement.scrollWidth, innerWidth,
        document.documentElement.scrollHeight, innerHeight]""")
    assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3], sizes


def test_a_game_in_progress_steps_back_and_forward(app: Any, page: Any) -> None:
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "play"
                     and page.locator("#table .pile .card").count() >= 2)
    page.get_by_role("link", name="Replay").click()
    page.wait_for_selector(READY, timeout=120_000)
    # It opens on the first deal, dealt (not on the cut before it), and says what happens.
    opening = step(page)
    assert opening == int(page.get_attribute("#replay", "data-opening")) > 0
    assert page.locator("#replay .seat-human .hand .card:not(.back)").count() == 6
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
    assert page.locator("#replay .opponent[data-seat='1'] .card:not(.back)").count() == 0
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
    shown = page.evaluate(FELT)
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
    assert other.evaluate(FELT) == shown
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
    for part in (".you", ".opponents", ".starter", ".pile", ".crib-spot", ".seat-human .hand",
                 ".replay-show", ".replay-events", ".replay-caption", ".board",
                 ".replay-position", ".deal-marks"):
        assert page.locator("#replay " + part).inner_html() == "", part
    assert page.locator("[data-card], svg.pegboard, img").count() == 0
    assert page.get_by_label("Open a game file").count() == 1  # the start, under the reason
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
    assert page.locator("#replay .seat-human .hand .card:not(.back)").count() == 6
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
    shown = page.evaluate(FELT)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(data, moves=data["moves"][:2] + ["play 5S"])))
    page.locator(".replay-file").set_input_files(str(bad))
    page.wait_for_function(
        "() => document.querySelector('.replay-message').textContent.includes('nothing was')")
    assert step(page) == 1 and page.evaluate(FELT) == shown
    assert page.locator(".replay-message").is_visible()  # over the felt, the replay kept
    # The good file opens from its first step, the address no longer a link.
    page.locator(".replay-file").set_input_files(str(saved))
    page.wait_for_function(
        "() => document.querySelector('.replay-message').textContent.includes('is open')")
    wait_step(page, 0)
    assert "#r=" not in page.url


@pytest.mark.parametrize("lang, words", [("en", ("Play a game", "Open a game file")),
                                         ("ja", ("ゲームを遊ぶ", "ゲームのファイルを開く"))])
def test_no_game_yet_starts_on_the_felt(page: Any, lang: str, words: tuple[str, str]) -> None:
    """A start on the felt: a sentence, Play a game (to the table) and our own Open a game
    file in the page's language; the file input in the page, focusable and named by it,
    the browser's own control out of sight."""
    page.set_viewport_size({"width": 360, "height": 640})
    open_replay(page, f"?lang={lang}")
    page.wait_for_selector("#replay[data-state=empty]")
    if lang == "en":
        assert "no game to replay" in page.locator(".replay-message").inner_text()
    play, open_file = words
    link = page.get_by_role("link", name=play)
    assert link.is_visible() and link.get_attribute("href") == "./index.html"
    ours = page.locator(".replay-start").get_by_text(open_file, exact=True)
    assert ours.is_visible()
    field = page.get_by_label(open_file)
    assert field.count() == 1 and field.evaluate("(e) => e.type") == "file"
    field.focus()
    assert page.evaluate("() => document.activeElement.classList.contains('replay-file')")
    box = field.bounding_box()
    assert box is not None and box["width"] <= 1 and box["height"] <= 1
    assert page.get_by_text("Choose File").count() == 0
    assert page.get_by_text("No file chosen").count() == 0
    one_screen(page)
    assert page.locator("#replay .felt").is_visible()
    assert page.locator("#replay .board").is_hidden()  # the start has the felt to itself
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"replay-empty-360-{lang}.png"))
    assert_no_violations(page, f"no game ({lang})")
    # Our button opens the browser's chooser (the input's own click).
    with page.expect_file_chooser() as chooser:
        ours.click()
    assert chooser.value is not None


def test_a_finished_game_shows_every_hand(app: Any, page: Any) -> None:
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "play")
    page.locator(".table-header [data-action=new-game]").click()
    page.locator("#new-game [data-action=resign]").click()
    page.locator("#game-over").wait_for(state="visible")
    page.locator("#game-over").get_by_role("link", name="Watch the replay").click()
    page.wait_for_selector(READY, timeout=120_000)
    assert page.get_attribute("#replay", "data-over") == "true"
    assert "every hand" in (page.locator(".replay-seen").text_content() or "")
    page.keyboard.press("End")
    page.keyboard.press("Home")
    wait_step(page, 0)
    # Deal 1 as dealt: the computer's six cards face up too, the crib empty.
    seat = "#replay .opponent[data-seat='1'] .hand .card"
    if page.locator(seat).count():
        assert page.locator(seat + ":not(.back)").count() == page.locator(seat).count()
    laid = "#replay .felt :is(.opponents, .centre, .seat-human) .card.back"
    assert page.locator(laid).count() == 0
    assert_no_violations(page, "a finished game")


def test_the_address_changed_in_place_opens_what_it_names(page: Any) -> None:
    """A new fragment typed into the address bar (no reload): a link shows its game, anything
    else is said to be a bad link and the game shown before is cleared."""
    open_replay(page)
    page.wait_for_selector("#replay[data-state=empty]")
    page.evaluate("(f) => { location.hash = f; }", "#r=" + GOOD)
    page.wait_for_selector(READY)
    assert page.locator("#replay .felt [data-card]").count() > 0
    page.evaluate("() => { location.hash = '#nothing-here'; }")
    page.wait_for_selector("#replay[data-state=error]")
    assert page.locator(".replay-message").inner_text().startswith(
        "This replay link cannot be opened.")
    assert page.locator("#replay .felt [data-card], #replay svg.pegboard").count() == 0


def frame(page: Any) -> int:
    return int(page.get_attribute("#replay", "data-frame"))


def test_play_advances_and_pause_stops(page: Any) -> None:
    """Play steps through the game by itself, the button and a status line saying so;
    Pause (the button or Space) stops it where it is; at ?speed=0 it plays to the end."""
    open_replay(page, "?speed=4#r=" + GOOD)  # 4x: a move every 0.35 s
    page.wait_for_selector(READY)
    start = frame(page)
    page.get_by_role("button", name="Play").click()
    page.wait_for_selector("#replay[data-playing=true]")
    assert page.locator(".replay-playing").text_content() == "Playing"
    page.wait_for_function(f"() => +document.querySelector('#replay').dataset.frame >= {start + 2}")
    page.locator("body").focus()
    page.keyboard.press("Space")
    page.wait_for_selector("#replay[data-playing=false]")
    paused = frame(page)
    page.wait_for_timeout(1000)
    assert frame(page) == paused and paused >= start + 2
    assert page.locator(".replay-playing").text_content() == "Paused"
    assert page.get_by_role("button", name="Play").is_visible()
    assert_no_violations(page, "paused")
    # At speed 0 a game plays to its end at once, and stops there.
    open_replay(page, "?speed=0#r=" + GOOD)
    page.wait_for_selector(READY)
    last = int(page.get_attribute(".replay-scrubber", "max"))
    page.get_by_role("button", name="Play").click()
    page.wait_for_function(
        f"() => document.querySelector('#replay').dataset.frame === '{last}'"
        " && document.querySelector('#replay').dataset.playing === 'false'")
    assert page.get_by_role("button", name="End »").is_disabled()


def long_game(page: Any, seed: int = 11) -> dict[str, Any]:
    """The table's save of a seeded game at its last deal, in storage, and the engine's
    replay of it (the steps the viewer shows)."""
    text = last_deal_save(seed)
    page.goto("/replay.html?speed=0")
    page.evaluate("text => localStorage.setItem('cribbage.save', text)", text)
    save = json.loads(text)["game"]
    reply = json.loads(Session().call("replay", json.dumps({"save": save, "seat": 0})))
    assert reply["ok"], reply
    return dict(reply["result"])


def test_the_scrubber_marks_each_deal_and_jumps_to_it(page: Any) -> None:
    replay = long_game(page)
    deals: dict[int, int] = {}  # each deal and the step that dealt it
    for index, entry in enumerate(replay["steps"]):
        for event in entry["view"]["events"]:
            if event["kind"] == "deal":
                deals[event["deal"]] = index
    assert len(deals) >= 4
    page.reload()
    page.wait_for_selector(READY, timeout=120_000)
    marks = page.locator(".deal-marks .deal-mark")
    assert marks.count() == len(deals)
    assert [int(marks.nth(n).get_attribute("data-deal")) for n in range(marks.count())] \
        == sorted(deals)
    page.get_by_role("button", name="Deal 3", exact=True).click()
    page.wait_for_selector("#replay[data-deal='3']")
    assert step(page) == deals[3]
    assert page.locator(".replay-caption").inner_text().startswith("Deal 3: ")
    assert page.locator(".deal-mark[aria-current=true]").get_attribute("data-deal") == "3"
    assert int(page.locator(".replay-scrubber").input_value()) == frame(page)
    assert page.locator(".replay-scrubber").get_attribute("aria-valuetext").startswith(
        "Deal 3, move ")
    # The keyboard reaches the marks: PageDown from the scrubber to the next deal.
    page.locator(".replay-scrubber").focus()
    page.keyboard.press("PageDown")
    page.wait_for_selector("#replay[data-deal='4']")
    assert step(page) == deals[4]
    # Back from a deal's start: the crib of the deal before, counted in the middle of the felt.
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#replay[data-show=crib]")
    show = page.locator("#replay .replay-show")
    assert show.is_visible() and show.locator(".show-starter [data-card]").count() == 1
    assert show.locator(".show-cards > .card").count() == 4
    assert page.locator("#replay .seat-human").is_hidden()
    assert page.locator(".replay-caption").inner_text().startswith("Your crib: ")
    assert_no_violations(page, "a count of the show")
    # The scrubber itself: its arrow keys step a frame.
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("(n) => document.querySelector('#replay').dataset.frame === String(n)",
                           arg=int(page.locator(".replay-scrubber").input_value()))


@pytest.mark.parametrize("width, height", [(360, 640), (1280, 800)])
def test_the_felt_is_the_tables(page: Any, width: int, height: int) -> None:
    """The same felt, cards, panels and board as the table's at the same size, on one
    screen: at the start of a deal, in a count of the show, and at the end."""
    page.set_viewport_size({"width": width, "height": height})
    long_game(page)
    page.goto("/index.html?speed=0")
    page.wait_for_selector("#table[data-phase=discard]", timeout=120_000)
    sizes = """(root) => ['.seat-human .hand .card', '.opponent .hand .card', '.board svg',
        '.felt'].map((part) => Math.round(document.querySelector(root + ' ' + part)
        .getBoundingClientRect().width * 10) / 10)"""
    table = page.evaluate(sizes, "#table")
    page.goto("/replay.html?speed=0")
    page.wait_for_selector(READY, timeout=120_000)
    assert page.evaluate(sizes, "#replay") == table
    one_screen(page)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"replay-deal-{width}.png"))
    page.keyboard.press("PageDown")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#replay[data-show]")
    one_screen(page)
    page.screenshot(path=str(SHOTS / f"replay-show-{width}.png"))
    page.keyboard.press("End")
    one_screen(page)
