"""The table for keyboards, screen readers, phones and three languages: dialogs that
fit, focus that never falls to <body>, shortcuts, fresh text, a show that survives a
reload, claims in words, a
compact coach, opponents seated by position, the tally's wording, axe-core in every
phase, CJK glyphs, and the comforts (auto Go, take back, resign, double click and
drag, four colours, larger cards, sounds).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .axe import assert_no_violations
from .driver import Table, more_options
from .games import must_go_save

WIDTHS = (360, 390, 768, 1280, 1920)
HEIGHTS = {360: 740, 390: 844, 768: 1024, 1280: 800, 1920: 1080}
FOCUS_SETTLED = ("() => { const a = document.activeElement;"
                 " return a && a !== document.body && a.isConnected; }")

# Everything about the visible dialog that must hold at any size: inside the viewport,
# nothing sticking out sideways, below the header (which stays usable), no page wider
# than the viewport.
FIT = """() => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const dialogs = [...document.querySelectorAll('.dialog')].filter(d => !d.hidden);
  const problems = [];
  const page = document.documentElement.scrollWidth;
  if (page > vw) problems.push('page ' + page);
  if (dialogs.length !== 1) problems.push(dialogs.length + ' dialogs open');
  for (const d of dialogs) {
    const r = d.getBoundingClientRect();
    if (r.left < 0 || r.right > vw + 0.5 || r.top < 0 || r.bottom > vh + 0.5)
      problems.push(d.id + ' outside ' + JSON.stringify([r.left, r.top, r.right, r.bottom]));
    if (d.scrollWidth > d.clientWidth + 1) problems.push(d.id + ' scrolls sideways');
    for (const b of d.querySelectorAll('button:not([hidden]), h2, .headline')) {
      if (!b.getClientRects().length) continue;
      const e = b.getBoundingClientRect();
      if (e.left < r.left - 0.5 || e.right > r.right + 0.5)
        problems.push(d.id + ': ' + b.textContent + ' sticks out');
    }
    const header = document.querySelector('.table-header').getBoundingClientRect();
    if (window.scrollY === 0 && r.top < header.bottom - 0.5)
      problems.push(d.id + ' covers the header');
  }
  const controls = '.table-header button:not([hidden]), .table-header a, .table-header select';
  for (const b of document.querySelectorAll(controls)) {
    const e = b.getBoundingClientRect();
    if (window.scrollY === 0 && e.width) {
      const hit = document.elementFromPoint(e.left + e.width / 2, e.top + e.height / 2);
      if (!b.contains(hit)) problems.push('header control covered: ' + (b.textContent || b.id));
    }
  }
  return problems;
}"""


def language(page: Any, code: str) -> None:
    page.select_option("#language", code)
    page.wait_for_function("code => document.documentElement.lang === code", arg=code)


def fits_everywhere(page: Any, where: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": HEIGHTS[width]})
        page.wait_for_timeout(50)
        problems = page.evaluate(FIT)
        assert not problems, f"{where} at {width}px: {problems}"


def resign(page: Any) -> None:
    page.locator(".table-header [data-action=new-game]").click()
    page.locator("#new-game [data-action=resign]").click()
    page.wait_for_selector("#table[data-phase=over]")
    page.locator("#game-over").wait_for(state="visible")


@pytest.mark.parametrize("code", ["en", "es", "ja"])
def test_every_dialog_fits_every_viewport_below_a_usable_header(app: Any, page: Any,
                                                                code: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    table = Table(app, page).open()
    language(page, code)
    fits_everywhere(page, "the new-game dialog")
    language(page, "en")  # the driver reads English button names
    page.locator("#new-game button[name=start]").click()
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None)
    language(page, code)
    computer = {"en": "Computer", "es": "Ordenador", "ja": "コンピューター"}[code]
    assert computer in page.locator(".opponent .seat-name").inner_text()  # redrawn mid-show
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # a scrolled show
    page.locator(".table-header [data-action=new-game]").click()
    fits_everywhere(page, "the new-game dialog during a game")
    page.locator("#new-game [data-action=resign]").click()
    page.locator("#game-over").wait_for(state="visible")
    fits_everywhere(page, "game over after a scrolled show")
    page.evaluate("window.scrollTo(0, 0)")
    fits_everywhere(page, "game over")
    page.locator("#game-over [data-action=stats]").click()
    assert page.locator("#game-over").is_hidden()  # statistics replace it, never stack
    fits_everywhere(page, "statistics from game over")
    page.locator("#stats [data-action=stats-close]").click()
    assert page.locator("#game-over").is_visible() and page.locator("#stats").is_hidden()
    page.set_viewport_size({"width": 360, "height": 740})
    page.screenshot(path=f"test-results/over-360-{code}.png", full_page=False)


def test_the_keyboard_plays_a_deal_and_focus_never_falls_to_the_body(app: Any,
                                                                     page: Any) -> None:
    table = Table(app, page).open()
    page.locator("#new-game button[name=start]").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#table:not([data-phase=setup])")
    seen = set()
    for _ in range(400):
        page.wait_for_function(FOCUS_SETTLED, timeout=5000)
        phase = table.phase
        seen.add(phase)
        if phase == "show" and page.locator(".actions [data-action=continue]").count():
            page.wait_for_function("() => document.activeElement.dataset.action === 'continue'",
                                   timeout=3000)
            page.keyboard.press("Enter")
            break
        if phase == "cut" and table.enabled("Cut"):
            page.wait_for_function("() => document.activeElement.dataset.action === 'cut'",
                                   timeout=3000)
            page.keyboard.press("Enter")
        elif phase == "discard" and table.my_cards().count() == 6 and table.enabled("1") is None:
            cards = table.my_cards()
            if cards.first.is_enabled():
                assert [cards.nth(i).get_attribute("aria-pressed") for i in range(6)] == [
                    "false"] * 6
                page.keyboard.press("1")
                page.wait_for_selector(".seat-human button.card[aria-pressed=true]")
                assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") \
                    == "true"
                page.keyboard.press("2")
                page.wait_for_function("() => document.activeElement.getAttribute('data-action')"
                                       " === 'send'")
                # the tab order follows the table: the hand, then its action
                page.keyboard.press("Shift+Tab")
                assert page.evaluate("document.activeElement.getAttribute('data-card')")
                page.keyboard.press("Tab")
                page.keyboard.press("Enter")
        elif phase == "play":
            # the human's turn comes with focus on a card it may play (or the turn passed)
            page.wait_for_function("""() => document.activeElement.matches(
                '.seat-human button.card:not([disabled])')
                || !document.querySelector('.seat-human button.card:not([disabled])')""",
                                   timeout=3000)
            playable = page.locator(".seat-human button.card:not([disabled])")
            if playable.count():
                number = page.evaluate("""() => [...document.querySelectorAll(
                    '.seat-human .hand button.card')].findIndex(b => !b.disabled) + 1""")
                page.keyboard.press(str(number))
        page.wait_for_timeout(30)
    assert {"cut", "discard", "play", "show"} <= seen
    page.wait_for_selector("#table[data-phase=discard]")
    page.wait_for_function(FOCUS_SETTLED, timeout=5000)
    page.get_by_role("button", name="Statistics").focus()
    page.keyboard.press("Enter")
    page.locator("#stats").wait_for(state="visible")
    page.keyboard.press("Escape")  # closes, and focus goes back to the opener
    page.locator("#stats").wait_for(state="hidden")
    assert page.evaluate("document.activeElement.dataset.action") == "stats"
    help_line = page.locator("#keys-help")
    assert help_line.is_hidden()  # quiet by default: behind the "?" button
    page.locator(".keys > summary").click()
    assert "1–7" in help_line.inner_text() and "Enter" in help_line.inner_text()


def test_enter_in_the_points_field_says_the_count(app: Any, page: Any) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    table = Table(app, page).open().start(counting="manual", level="beginner")
    field = page.locator(".actions input[name=points]")
    for _ in range(5):
        table.play_until(lambda: field.count() == 1)
        try:  # the field seen may be one a step just answered (the claim in flight):
            field.fill("0", timeout=3000)  # then it goes, and the next one is played to
            field.press("Enter", timeout=3000)
            break
        except PlaywrightTimeout:
            continue
    page.wait_for_function("() => document.querySelector('.log-lines').textContent"
                           ".includes('You claimed')")
    assert "You claimed 0" in page.locator(".log-lines").text_content()
    page.wait_for_function(FOCUS_SETTLED, timeout=5000)


def test_no_stale_text_between_the_cut_the_play_and_the_show(app: Any, page: Any) -> None:
    table = Table(app, page).open().start()
    assert table.phase == "cut"
    assert page.locator(".dealer-mark").count() == 0  # nobody deals before the cut
    assert page.locator(".crib-spot small").inner_text() == ""
    table.play_until(lambda: table.phase == "discard" and table.my_cards().count() == 6)
    assert page.locator(".cut-card").count() == 0  # the cut cards left with the cut
    assert page.locator(".dealer-mark").count() == 1
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None)
    assert page.locator(".pile").inner_text().strip() == ""
    assert page.locator(".count").inner_text().strip() == ""
    assert " plays " not in page.locator(".announce").inner_text()  # the show's words only
    table.step()  # Continue
    table.play_until(lambda: table.phase == "discard")
    assert page.locator(".announce").inner_text().strip() == ""


def test_a_reload_during_the_show_brings_the_show_back(app: Any, page: Any) -> None:
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None)
    totals = page.locator(".felt .show-points[data-points]")
    rows = [totals.nth(i).get_attribute("data-points") for i in range(totals.count())]
    assert len(rows) == 3
    scores = table.scores()
    page.reload()
    page.wait_for_selector("#table[data-phase=show]")
    page.get_by_role("button", name="Continue").wait_for()
    page.wait_for_function("() => document.querySelectorAll("
                           "'.felt .show-points[data-points]').length === 3")
    assert [totals.nth(i).get_attribute("data-points") for i in range(3)] == rows
    assert table.scores() == scores  # the pegs are not moved twice
    page.get_by_role("button", name="Continue").click()
    page.wait_for_selector("#table[data-phase=discard]")
    page.reload()  # after Continue the show is over: a reload lands in the discard
    page.wait_for_selector("#table[data-phase=discard]")
    assert page.locator(".felt .shown").count() == 0


def test_manual_counting_shows_the_claim_and_the_true_breakdown(app: Any, page: Any) -> None:
    table = Table(app, page).open().start(counting="manual", level="beginner")
    panel = page.locator(".claim-panel")
    seen = {"claimed": False, "worth": False, "muggins": False}

    def look() -> bool:
        if panel.is_visible():
            text = panel.inner_text()
            seen["claimed"] = seen["claimed"] or "claim" in text
            seen["worth"] = seen["worth"] or "Worth" in text
            seen["muggins"] = seen["muggins"] or ("Muggins!" in text and "took" in text)
        return all(seen.values())

    table.play_until(lambda: look() or table.phase == "over", claim=0)
    assert all(seen.values()), seen


def test_the_hint_shows_at_once_and_keeps_the_hand_in_view_on_a_phone(app: Any,
                                                                      page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "discard" and table.enabled("Hint") is not None)
    page.get_by_role("button", name="Hint").click()
    panel = page.locator(".coach-panel")
    page.wait_for_function("() => document.querySelector('.coach-panel').textContent.trim()",
                           timeout=500)  # "thinking" at once
    panel.locator("table").wait_for(timeout=20000)
    for part in (panel, page.get_by_role("button", name="Send to crib"), table.my_cards().first):
        box = part.bounding_box()
        assert box and 0 <= box["y"] and box["y"] + min(box["height"], 60) <= 740, box
    assert panel.bounding_box()["height"] <= 0.45 * 740  # compact: it scrolls inside
    page.screenshot(path="test-results/hint-360.png")


def test_four_players_sit_by_position_on_a_phone(app: Any, page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    Table(app, page).open().start(players="4")
    boxes = [page.locator(f".opponent[data-seat='{seat}']").bounding_box() for seat in (1, 2, 3)]
    centres = [box["x"] + box["width"] / 2 for box in boxes]
    assert centres[0] < centres[1] < centres[2], centres  # Left, Partner, Right
    assert abs(boxes[0]["y"] - boxes[2]["y"]) < 5  # Right beside Left, not under them
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path="test-results/four-players-360.png")


@pytest.mark.parametrize(("players", "code", "words"), [
    ("2", "en", "Match: You 0, Computer "),
    ("3", "en", "Match: You 0, the computers "),
    ("4", "en", "Match: You & Partner 0, Opponents "),
    ("4", "es", "Encuentro: Tú y tu compañero 0, Rivales "),
    ("3", "ja", "通算：あなた 0、コンピューターたち "),
])
def test_the_tally_names_the_sides(app: Any, page: Any, players: str, code: str,
                                   words: str) -> None:
    Table(app, page).open().start(players=players)
    language(page, code)
    resign(page)
    assert words in page.locator("#game-over .tally").inner_text()
    headline = page.locator("#game-over .headline").inner_text()
    assert headline and "you" not in headline.split()[0:1]


def test_axe_finds_nothing_in_any_phase_or_dialog(app: Any, page: Any) -> None:
    table = Table(app, page).open()
    assert_no_violations(page, "setup")
    more_options(page)
    assert_no_violations(page, "setup, more options")
    page.get_by_role("button", name="Statistics").click()
    assert_no_violations(page, "statistics")
    page.locator("#stats [data-action=stats-close]").click()
    table.start(counting="manual", level="beginner")
    checked = set()

    def check() -> bool:
        phase = table.phase
        key = phase + ("-claim" if page.locator("input[name=points]").count() else "")
        if key not in checked and not page.locator(".seat-human[aria-busy=true]").count():
            assert_no_violations(page, key)
            checked.add(key)
        return {"cut", "discard", "play", "show", "show-claim"} <= checked

    table.play_until(lambda: check() or table.phase == "over", claim=0)
    page.get_by_role("button", name="Hint").count()
    resign(page)
    assert_no_violations(page, "game over")
    assert {"cut", "discard", "play", "show"} <= checked, checked


@pytest.mark.parametrize("path", [
    "tutorial.html", "embed.html?widget=hand&hand=5S,4S,2S,6H&starter=5H",
    "embed.html?widget=peg&cards=JH,5S,7C,6H,go,2S,6D,4S,4H",
    "embed.html?widget=deal&dealer=0&names=Alice,Bob&hands=5S4S2S8D6H8C|TS6DJH4HKC7C"
    "&discards=8D8C|TSKC&starter=5H&play=JH,5S,7C,6H,2S,6D,4S,4H"])
def test_axe_finds_nothing_in_the_tutorial_and_the_widgets(page: Any, path: str) -> None:
    page.goto("/" + path)
    if path.startswith("embed"):
        page.wait_for_selector("#widget[data-state=ready], #widget[data-state=waiting]",
                               timeout=90_000)
    else:
        page.wait_for_selector("html:not(.i18n-pending)")
        page.frame_locator("iframe").first.locator("#widget[data-state=ready]").wait_for(
            timeout=90_000)
    page.wait_for_timeout(300)
    assert_no_violations(page, path)


def test_japanese_is_drawn_with_real_glyphs(app: Any, page: Any) -> None:
    """fonts-noto-cjk (Debian) draws Japanese: two different kana differ on a canvas
    (a missing font would draw the same empty box for both)."""
    Table(app, page).open()
    language(page, "ja")
    differ = page.evaluate("""() => {
        const c = document.createElement('canvas'); c.width = 40; c.height = 40;
        const x = c.getContext('2d'); const sums = [];
        for (const ch of ['あ', 'ク']) {
            x.clearRect(0, 0, 40, 40); x.font = '32px sans-serif'; x.fillText(ch, 2, 32);
            const d = x.getImageData(0, 0, 40, 40).data; let s = 0;
            for (let i = 3; i < d.length; i += 4) s += d[i] * (i % 97);
            sums.push(s);
        }
        return sums[0] !== sums[1];
    }""")
    assert differ, "Japanese needs a CJK font: apt-get install fonts-noto-cjk"
    page.screenshot(path="test-results/ja-table.png")


def test_auto_go_says_go_for_the_human(app: Any, page: Any) -> None:
    table = Table(app, page).open().start()
    go_enabled = False

    def look() -> bool:
        nonlocal go_enabled
        button = page.locator(".actions [data-action=go]:not([disabled])")
        go_enabled = go_enabled or button.count() > 0
        return "You said go" in (page.locator(".log-lines").text_content() or "")

    table.play_until(lambda: look() or table.phase == "over")
    assert not go_enabled  # the table said it: the Go button was never waiting


def test_go_is_offered_only_when_going_is_your_move(app: Any, page: Any) -> None:
    """Without auto Go, the Go button is on the table exactly when the engine says going is
    the human's move (no card of theirs fits), and never otherwise (not greyed out)."""
    table = Table(app, page).open()
    page.evaluate("""save => {
        localStorage.setItem('cribbage.settings', JSON.stringify({auto_go: false}));
        localStorage.setItem('cribbage.save', save);
    }""", must_go_save())
    page.reload()
    app.wait_engine()
    page.wait_for_selector("#table[data-phase=discard]")
    seen = set()

    def look() -> bool:
        if table.phase == "play":
            # Wait for the table to wait on you: otherwise the driver's next step could say
            # Go (or play) before this look has seen the table offer it.
            try:
                page.wait_for_selector("#table:not([data-busy])", timeout=10_000)
            except Exception:  # the deal ended meanwhile: the next look sees the new phase
                return table.phase == "over"
        if table.phase == "play" and page.locator("#table[data-busy]").count() == 0:
            shown = page.locator(".actions [data-action=go]").count()
            legal = app.result("legal_moves")  # {"player", "moves"}: the player to move's
            if page.locator("#table[data-busy]").count() == 0 and table.phase == "play":
                mine = legal["player"] == 0 and legal["moves"] == ["go"]
                assert shown == (1 if mine else 0), (legal, shown)
                seen.add(mine)
        return table.phase == "over"

    table.play_until(lambda: look() or table.phase == "show")
    assert seen == {True, False}  # both seen: Go there when yours, absent otherwise


def test_take_back_and_resign_are_recorded(app: Any, page: Any) -> None:
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "play" and table.enabled("Take back") is not None)
    hand = table.my_cards().count()
    table.enabled("Take back").click()
    page.wait_for_function("n => document.querySelectorAll('.seat-human .hand button.card')"
                           ".length > n || document.querySelector('#table').dataset.phase"
                           " === 'discard'", arg=hand)
    save = json.loads(json.loads(page.evaluate("localStorage.getItem('cribbage.save')"))["game"])
    assert save["setup"]["undos"] == 1
    page.wait_for_function(FOCUS_SETTLED, timeout=5000)
    resign(page)
    assert "taken back in this game: 1" in page.locator("#game-over").inner_text()
    assert "by resignation" in page.locator("#game-over .headline").inner_text()
    page.locator("#game-over [data-action=stats]").click()
    text = page.locator("#stats").inner_text()
    assert "Games resigned: 1" in text and "Games with moves taken back: 1" in text


def test_double_click_sends_and_a_drag_to_the_pile_plays(app: Any, page: Any) -> None:
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "discard" and table.my_cards().count() == 6
                     and table.my_cards().first.is_enabled())
    picked = page.locator(".seat-human button.card.selected")  # the driver may have picked
    while picked.count():
        picked.first.click()
    table.my_cards().nth(0).click()
    table.my_cards().nth(1).dblclick()
    page.wait_for_function(
        "() => document.querySelectorAll('.seat-human .hand .card').length === 4")
    def my_turn_to_play() -> bool:
        """A card to play, seen twice with the table idle: the driver's last click (a card
        of its own) may still be on its way when the cards are first looked at."""
        for look in range(2):
            if look:
                page.wait_for_timeout(250)
            if not (table.phase == "play" and page.get_attribute("#table", "data-busy") is None
                    and page.locator(".seat-human button.card:not([disabled])").count()):
                return False
        return True

    table.play_until(my_turn_to_play)
    before = page.locator(".seat-human .hand button.card").count()
    page.locator(".seat-human button.card:not([disabled])").first.drag_to(
        page.locator(".play-area"))
    page.wait_for_function("n => document.querySelectorAll('.seat-human .hand button.card')"
                           ".length < n", arg=before)


def test_four_colours_larger_cards_and_sounds_are_settings(app: Any, page: Any) -> None:
    page.add_init_script("""
        window.__tones = 0;
        window.AudioContext = class { constructor() { this.currentTime = 0;
            this.destination = {}; }
          createOscillator() { window.__tones++; return {frequency: {}, connect() {},
            start() {}, stop() {}}; }
          createGain() { return {gain: {setValueAtTime() {},
            exponentialRampToValueAtTime() {}}, connect() {}}; } };""")
    table = Table(app, page).open()
    more_options(page)
    for name in ("four_colour", "large_cards", "sounds"):
        page.locator(f"#new-game input[name={name}]").check()
    page.reload()
    app.wait_engine()
    assert page.get_attribute("#table", "data-deck") == "four"
    assert page.get_attribute("#table", "data-cards") == "large"
    assert page.locator("#new-game input[name=sounds]").is_checked()
    table.start()
    table.play_until(lambda: table.phase == "play" and page.locator(".pile .card").count() > 0)
    assert page.evaluate("window.__tones") > 0
    # Any card on the table is drawn large (the hand may be redrawn between two looks).
    width = page.evaluate("() => Math.max(...[...document.querySelectorAll("
                          "'.felt .card:not(.back)')].map(c => c.getBoundingClientRect().width))")
    assert width > 60  # 4.3rem


# Cards drawn by the table's own markup (tableview.card_face) at two sizes, with the page's CSS.
COURT_CARDS = """(faces) => {
  const box = document.createElement('div');
  box.id = 'court-test';
  for (const [width, code, face] of faces) {
    const card = document.createElement('span');
    card.className = 'card ' + ('HD'.includes(code[1]) ? 'red' : 'black');
    card.style.setProperty('--card-w', width);
    card.dataset.card = code;
    card.innerHTML = face;
    box.append(card);
  }
  document.querySelector('.felt').append(box);
}"""
COURT_LOOK = """() => [...document.querySelectorAll('#court-test .card')].map(card => {
  const court = card.querySelector('.court');
  if (!court) return {card: card.dataset.card, figure: false};
  const style = getComputedStyle(court);
  return {card: card.dataset.card, figure: style.display !== 'none',
          art: getComputedStyle(court, '::after').backgroundImage,
          robe: getComputedStyle(court, '::before').backgroundColor,
          colour: getComputedStyle(card).color,
          width: court.getBoundingClientRect().width};
})"""


def test_court_cards_have_figures_when_large_and_plain_faces_are_a_setting(
        app: Any, page: Any) -> None:
    """A jack, queen or king is drawn with its figure (web/cards/, its robe in the card's
    colour) where the card is large; the smallest cards and the plain setting keep the
    letter and the pip."""
    from .games import tableview
    Table(app, page).open()
    faces = [[width, code, tableview.card_face(code)]
             for width in ("6rem", "1.7rem") for code in ("JH", "QS", "KD", "5C")]
    page.evaluate(COURT_CARDS, faces)
    looks = page.evaluate(COURT_LOOK)
    large, small = looks[:4], looks[4:]
    for look in large[:3]:  # each figure written into the stylesheet (any policy draws it)
        assert look["figure"] and look["art"].startswith('url("data:image/svg+xml,'), look
        assert look["robe"] == look["colour"], look  # the robe in the suit's colour
        assert look["width"] > 40, look
    assert len({look["art"] for look in large[:3]}) == 3  # a jack, a queen, a king
    assert large[3] == {"card": "5C", "figure": False}
    assert not any(look["figure"] for look in small), small
    more_options(page)
    page.locator("#new-game input[name=simple_faces]").check()
    assert page.get_attribute("#table", "data-faces") == "simple"
    assert not any(look["figure"] for look in page.evaluate(COURT_LOOK))
    page.reload()
    app.wait_engine()
    assert page.get_attribute("#table", "data-faces") == "simple"  # kept with the settings
