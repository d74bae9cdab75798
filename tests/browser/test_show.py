"""The count a player can follow: the show counted in the middle of the felt and the play
readable (docs/table.md#the-play-and-the-show), checked against the engine's own scoring through
the protocol (``show_score``), never against the page's own arithmetic.

Set ``SHOW_SHOTS=<folder>`` to keep a screenshot of each count (for looking at).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from .driver import Table

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cribbage import i18n  # noqa: E402

SHOTS = os.environ.get("SHOW_SHOTS")

# Each count of the show as drawn: its tab, its cards, the starter, its list, in one snapshot.
COUNTS = """() => [...document.querySelectorAll('.show-hand')].map((panel, index) => {
  const tab = document.querySelector('#show-tab-' + index);
  const points = tab.querySelector('.show-points');
  return {
    kind: panel.dataset.kind, seat: +panel.dataset.seat, hidden: panel.hidden,
    selected: tab.getAttribute('aria-selected') === 'true',
    cards: [...panel.querySelectorAll('.show-cards > .card')].map(c => c.dataset.card),
    widths: [...panel.querySelectorAll('.show-cards .card')]
      .map(c => c.getBoundingClientRect().width),
    starter: panel.querySelector('.show-starter .card').dataset.card,
    list: panel.querySelector('.show-list').textContent,
    claims: [...panel.querySelectorAll('.show-claim')].map(p => p.textContent),
    total: points.dataset.points === undefined ? null : +points.dataset.points,
    shown: points.textContent,
  };
})"""

HAND_WIDTH = """() => Math.min(...[...document.querySelectorAll('.seat-human .hand .card')]
  .map(c => c.getBoundingClientRect().width))"""


def engine_score(app: Any, count: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """The engine's own score of a count (the protocol's show_score, from the page)."""
    return dict(app.result("show_score", {"hand": count["cards"], "starter": count["starter"],
                                          "crib": count["kind"] == "crib", "lang": lang}))


def to_the_show(table: Table, page: Any) -> float:
    """Play to the show's Continue; your hand's card width as the play showed it."""
    table.play_until(lambda: table.phase == "play" and table.my_cards().count() > 0)
    width = float(page.evaluate(HAND_WIDTH))
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None)
    return width


@pytest.mark.parametrize("size", [(1280, 800), (360, 640), (844, 390)])
def test_each_count_stays_itemised_as_the_engine_scores_it_at_your_hands_size(
        app: Any, page: Any, size: tuple[int, int]) -> None:
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    table = Table(app, page).open().start()  # ?speed=0: everything at once
    yours = to_the_show(table, page)
    counts = page.evaluate(COUNTS)
    # The pone's hand, the dealer's, the dealer's crib: in the engine's order, all counted.
    assert [c["kind"] for c in counts] == ["hand", "hand", "crib"], counts
    assert counts[0]["seat"] != counts[1]["seat"] == counts[2]["seat"], counts
    assert [c["selected"] for c in counts] == [False, False, True]  # the last count in view
    assert page.locator(".felt .card.lit").count() == 0  # counted: nothing left lit
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for index in range(3):
        page.locator(f"#show-tab-{index}").click()  # one tap apart
        count = page.evaluate(COUNTS)[index]
        assert not count["hidden"] and count["selected"], count
        score = engine_score(app, count)
        # The itemised list beside the hand is the engine's, with the engine's total.
        assert count["list"] == score["tally"], (count, score)
        assert count["total"] == score["total"] and count["shown"] == str(score["total"])
        # The hand at the size of your own (the starter too), within 10 %.
        assert len(count["widths"]) == len(count["cards"]) + 1 == 5
        assert all(abs(w - yours) <= 0.1 * yours for w in count["widths"]), (yours, count)
        # Read back: a tap on an entry lights the cards of its first step again, the next
        # tap its next step, then none.
        groups = i18n.tally_groups(score["items"])
        entry = page.locator(f"#show-hand-{index} button.show-item").first
        for cards in (groups[0]["each"] if groups else []):
            entry.click()
            lit = page.locator(f"#show-hand-{index} .card.lit")
            assert sorted(lit.evaluate_all("cs => cs.map(c => c.dataset.card)")) == sorted(cards)
        if groups:
            entry.click()
            assert entry.get_attribute("aria-pressed") == "false"
            assert page.locator(".felt .card.lit").count() == 0
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            page.screenshot(path=os.path.join(SHOTS, f"show-{width}x{height}-{index}.png"))
    # The keyboard moves between the counts with the arrow keys (the tabs' own way).
    page.locator("#show-tab-2").focus()
    page.keyboard.press("ArrowLeft")
    assert page.locator("#show-tab-1").get_attribute("aria-selected") == "true"
    assert page.evaluate("document.activeElement.id") == "show-tab-1"
    assert page.locator("#show-hand-1").is_visible() and page.locator("#show-hand-2").is_hidden()
    # Each count said once for screen readers: whose, the cards, the cadence, the total.
    heard = page.locator(".show-heard p").all_text_contents()
    assert len(heard) == 3 and heard[2].startswith(("Your crib", "Computer's crib")), heard
    assert all(line.endswith(f"({c['total']})") for line, c in zip(heard, counts)), heard


def test_the_steps_light_their_cards_one_by_one_with_the_running_total(app: Any,
                                                                      page: Any) -> None:
    table = Table(app, page).open("?speed=0.3").start()
    # Record every step as it is said: the chip, the lit cards, the total on its tab.
    page.evaluate("""() => {
      window.__steps = [];
      window.__slides = {};  // each count's hand, as it appears: how many of its cards move
      new MutationObserver(() => {
        for (const panel of document.querySelectorAll('.show-hand')) {
          if (panel.id in window.__slides) continue;
          const cards = [...panel.querySelectorAll('.show-cards > .card')];
          window.__slides[panel.id] = document.getAnimations()
            .filter(a => cards.includes(a.effect.target)).length;
        }
        const chip = document.querySelector('.show-hand:not([hidden]) .show-item.now');
        if (!chip) return;
        const panel = chip.closest('.show-hand');
        const lit = [...panel.querySelectorAll('.card.lit')].map(c => c.dataset.card).sort();
        const tab = document.querySelector('.show-tab[aria-selected=true] .show-points');
        const hand = [...panel.querySelectorAll('.show-cards > .card')].map(c => c.dataset.card);
        const step = {panel: panel.id, hand: hand.join(' '), chip: chip.textContent, lit,
                      total: tab.textContent};
        const last = window.__steps[window.__steps.length - 1];
        if (!last || JSON.stringify(last) !== JSON.stringify(step)) window.__steps.push(step);
      }).observe(document.body, {subtree: true, attributes: true, childList: true});
    }""")
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None)
    seen = page.evaluate("window.__steps")
    for index, count in enumerate(page.evaluate(COUNTS)):
        items = engine_score(app, count)["items"]
        steps = i18n.count_steps(items)
        expected = [{"panel": f"show-hand-{index}", "total": str(step["total"]),
                     "chip": i18n.tally_groups(steps[:number + 1])[-1]["text"],
                     "lit": sorted(set(step["cards"]))}
                    for number, step in enumerate(steps)]
        # This count's steps (a show of an earlier deal may have been said before it).
        hand = " ".join(count["cards"])
        said = [{key: value for key, value in step.items() if key != "hand"} for step in seen
                if step["panel"] == f"show-hand-{index}" and step["hand"] == hand]
        # Each step in the rules' order, lighting exactly the cards that make it.
        assert said == expected, (count, said, expected)
    # Each hand slid from where it lay to the middle: all its cards moving as it appeared.
    slides = page.evaluate("window.__slides")
    assert slides and all(moved == 4 for moved in slides.values()), slides


def test_reduced_motion_shows_every_count_at_once(app: Any, page: Any) -> None:
    page.emulate_media(reduced_motion="reduce")
    table = Table(app, page).open("?speed=1").start()
    page.evaluate("""() => {
      window.__show = {};
      new MutationObserver(() => {
        const show = document.querySelector('#table').dataset.show;
        if (show && !(show in window.__show)) window.__show[show] = performance.now();
      }).observe(document.querySelector('#table'), {attributes: true});
    }""")
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None)
    times = page.evaluate("window.__show")  # both in one task: "counting" never seen alone
    assert page.evaluate("document.getAnimations().length") == 0  # no hand slides either
    assert times["counted"] - times.get("counting", times["counted"]) < 300, times
    assert len(page.evaluate(COUNTS)) == 3


def test_manual_counting_shows_each_claim_against_the_count(app: Any, page: Any) -> None:
    table = Table(app, page).open().start(counting="manual", level="expert")
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None,
                     claim=0)  # you claim nothing: whatever your hand held was missed
    for count in page.evaluate(COUNTS):
        score = engine_score(app, count)
        assert count["list"] == score["tally"], count
        mine = count["seat"] == 0
        if not mine:  # the expert counts right
            assert count["claims"][0] == f"claimed {score['total']}: right", count
        elif score["total"]:  # yours was missed, and the expert took it
            assert count["claims"][0] == f"claimed 0: {score['total']} missed", count
            assert count["claims"][1].startswith("Muggins! Computer took"), count
        else:
            assert count["claims"] == ["claimed 0: right"], count


def test_the_play_calls_each_cards_points_and_keeps_a_finished_pile(app: Any,
                                                                   page: Any) -> None:
    table = Table(app, page).open("?speed=1").start()
    # Watch the pile: when a finished pile (31, a go) shows, and when the next lead clears it.
    page.evaluate("""() => {
      window.__piles = []; window.__calls = new Set();
      const area = document.querySelector('.play-area');
      new MutationObserver(() => {
        for (const c of document.querySelectorAll('.pile .call')) window.__calls.add(c.textContent);
        const finished = area.hasAttribute('data-finished');
        const last = window.__piles[window.__piles.length - 1];
        if (finished && (!last || last.cleared)) {
          window.__piles.push({at: performance.now(),
                               count: area.querySelector('.count b').textContent});
        } else if (!finished && last && !last.cleared) {
          const first = document.querySelector('.pile .played');
          last.cleared = performance.now() - last.at;
          last.by = first ? first.title : null;
        }
      }).observe(document.querySelector('.felt'), {subtree: true, attributes: true,
                                                    childList: true, characterData: true});
    }""")
    table.play_until(lambda: table.phase == "show")
    piles = page.evaluate("window.__piles")
    calls = page.evaluate("[...window.__calls]")
    assert piles, "no 31 or go in a deal"
    for pile in piles:
        assert 1 <= int(pile["count"]) <= 31, pile
        if pile.get("by") == "Computer":  # the computer leads only once it has been read
            assert pile["cleared"] >= 1100, piles
    assert any(call.startswith(("go 1", "31 for 2", "last card 1")) or " · go 1" in call
               for call in calls), calls


def test_a_card_you_play_is_on_the_pile_before_the_engine_answers(app: Any,
                                                                   page: Any) -> None:
    """Your card leaves the hand for the pile at once (tablerender.lay_at_once), before
    the table is redrawn from the engine's reply, and lies on the pile once, with its count."""
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "play" and table.my_cards().count() > 0)
    page.wait_for_selector("#table:not([data-busy])")
    code = page.locator(".seat-human button.card:not([disabled])").first.get_attribute("data-card")
    times = page.evaluate("""(code) => new Promise((resolve) => {
      const start = performance.now(), seen = {};
      new MutationObserver(() => {
        const laid = [...document.querySelectorAll('.pile .played .card')]
          .filter(c => c.dataset.card === code);
        if (laid.length && seen.pile === undefined) {
          seen.pile = performance.now() - start;
          // laid before the engine answered: the page's own copy, drawn again from the reply
          seen.early = laid[0].closest('.played').hasAttribute('data-pending');
        }
      }).observe(document.querySelector('.felt'), {subtree: true, childList: true});
      new PerformanceObserver((list) => {
        for (const mark of list.getEntriesByName('cribbage:table-drawn')) {
          // the redraw of this move: after the card was seen (a computer's move that was
          // still being drawn when the card was clicked marks one too)
          if (seen.pile !== undefined && mark.startTime >= start && seen.drawn === undefined) {
            seen.drawn = mark.startTime - start;
            // The table as that redraw left it, read at once: at ?speed=0 the computer's
            // answer may start a new pile before the test could look again.
            seen.laid = [...document.querySelectorAll('.pile .played .card')]
              .filter(c => c.dataset.card === code).length;
            seen.pending = document.querySelectorAll('.pile .played[data-pending]').length;
            seen.inHand = document.querySelectorAll(
              `.seat-human .card[data-card="${code}"]`).length;
            resolve(seen);
          }
        }
      }).observe({type: 'mark'});
      document.querySelector(`.seat-human button.card[data-card="${code}"]`).click();
    })""", code)
    assert times["early"] and times["pile"] < times["drawn"], times
    assert (times["laid"], times["pending"], times["inHand"]) == (1, 0, 0), times


def test_the_cards_you_send_are_in_the_crib_before_the_engine_answers(app: Any,
                                                                     page: Any) -> None:
    """Send to crib: the two cards leave your hand and the crib shows them at once
    (tablerender.discard_at_once), before the table is redrawn from the engine's reply;
    the redraw leaves your four cards and the crib as the engine has them."""
    table = Table(app, page).open().start()
    table.play_until(lambda: table.phase == "discard" and table.my_cards().count() == 6)
    page.wait_for_selector("#table:not([data-busy])")
    for card in table.my_cards().all()[:2]:
        card.click()
    codes = [c.get_attribute("data-card") for c in page.locator(".seat-human .card.selected").all()]
    seen = page.evaluate("""(codes) => new Promise((resolve) => {
      const start = performance.now(), seen = {};
      const inHand = () => codes.filter(code =>
        document.querySelector(`.seat-human .card[data-card="${code}"]`)).length;
      const crib = () => document.querySelectorAll('.crib-spot .card.back').length;
      new MutationObserver(() => {
        if (seen.gone === undefined && !inHand()) {
          seen.gone = performance.now() - start;
          seen.cribThen = crib();
        }
      }).observe(document.querySelector('.felt'), {subtree: true, childList: true});
      new PerformanceObserver((list) => {
        for (const mark of list.getEntriesByName('cribbage:table-drawn')) {
          if (seen.gone !== undefined && mark.startTime >= start && seen.drawn === undefined) {
            seen.drawn = mark.startTime - start;
            seen.inHand = inHand();
            seen.hand = document.querySelectorAll('.seat-human .card').length;
            resolve(seen);
          }
        }
      }).observe({type: 'mark'});
      document.querySelector('.actions button[data-action=send]').click();
    })""", codes)
    assert seen["gone"] < seen["drawn"] and seen["cribThen"] >= 2, seen
    assert (seen["inHand"], seen["hand"]) == (0, 4), seen


# The stage's parts, each in view, measured in one snapshot.
STAGE_IN_VIEW = """() => {
  const d = document.documentElement, vw = innerWidth, vh = innerHeight;
  const outside = [];
  for (const e of document.querySelectorAll('.show-tab, .show-hand:not([hidden]) .card, '
      + '.show-hand:not([hidden]) .show-list, .felt .player, .actions button')) {
    const r = e.getBoundingClientRect();
    if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
      outside.push(e.className);
    }
  }
  return {scroll: [d.scrollWidth - vw, d.scrollHeight - vh], outside};
}"""


def test_the_show_of_four_fits_one_screen_at_every_size(app: Any, page: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 640})
    table = Table(app, page).open().start(players="4")
    table.play_until(lambda: table.phase == "show" and table.enabled("Continue") is not None)
    assert len(page.evaluate(COUNTS)) == 5  # four hands and the crib
    for width, height in ((360, 640), (390, 844), (844, 390), (768, 1024), (1280, 800),
                          (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("w => innerWidth === w", arg=width)
        for index in (0, 4):
            page.locator(f"#show-tab-{index}").click()
            seen = page.evaluate(STAGE_IN_VIEW)
            assert seen["scroll"][0] <= 0 and seen["scroll"][1] <= 0, (width, height, seen)
            assert not seen["outside"], (width, height, seen)
