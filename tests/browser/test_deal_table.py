"""Browser tests of the scripted deal widget as a small table (widget=deal, the tutorial's
worked deals): checked against the engine's own snapshots of the seeds' deal
(``cribbage.tutor.scripted_deal_steps`` under CPython), never against the widget's.

- The tutorial at 360 px: its deal widget's full-size cards at least 56 px wide, nothing
  wider than its frame or the page; at 1280 px larger cards.
- The peg board (from 0, and from scores before the deal to the game hole): after
  every step each front peg is in the hole of its side's score in
  the engine's snapshot, each back peg where that side stood before it last scored, and
  each front peg's score written beside it; stepping back moves them back.
- The pile: the running count and, beside each card, the points the engine says it made.
- The show: in the middle, a chip per step of the engine's count with its running total;
  pressing a chip lights exactly the cards of that step; axe-core clean on the felt.
"""

from __future__ import annotations

from typing import Any

from cribbage.tutor import scripted_deal_steps

from .axe import assert_no_violations

SEED_DEAL = (
    "widget=deal&theme=dark&dealer=0&names=Alice,Bob&hands=5S4S2S8D6H8C|TS6DJH4HKC7C"
    "&discards=8D8C|TSKC&starter=5H&play=JH,5S,7C,6H,2S,6D,4S,4H"
)
ENGINE_STEPS = scripted_deal_steps({
    "dealer": 0, "hands": ["5S 4S 2S 8D 6H 8C".split(), "TS 6D JH 4H KC 7C".split()],
    "starter": "5H", "discards": [["8D", "8C"], ["TS", "KC"]],
    "play": "JH 5S 7C 6H 2S 6D 4S 4H".split()})
DEAL_FRAME = "iframe[data-query*='widget=deal'] >> nth=0"

# Each peg as drawn: its lane and role (its id, peg-<lane>-<front|back>), the score it
# holds, and the index of the hole under it in its lane's holes as the board draws them
# (its start holes -1 and 0, then 1 to the target less one) with the game hole last.
PEGS = """() => {
  const board = document.querySelector('.deal-board svg.pegboard');
  const at = (node) => { const m = new DOMMatrix(getComputedStyle(node).transform);
                         return [m.e, m.f]; };
  return [...board.querySelectorAll('.peg')].map((peg) => {
    const [, team, role] = peg.id.split('-');
    const holes = [...board.querySelectorAll(`.holes[data-track="${team}"] .hole`)]
      .map((hole) => [+hole.getAttribute('x'), +hole.getAttribute('y')]);
    const game = board.querySelector('.game-hole');
    holes.push([+game.getAttribute('cx'), +game.getAttribute('cy')]);
    const [x, y] = at(peg);
    const under = holes.findIndex(([hx, hy]) => Math.hypot(hx - x, hy - y) < 0.5);
    return { team: +team, role, score: +peg.dataset.points, under };
  });
}"""


def open_deal(page: Any, query: str = SEED_DEAL) -> None:
    page.goto("/embed.html?" + query)
    page.wait_for_selector("#widget[data-state=ready]")


def pegs_at(page: Any, fronts: list[int], backs: list[int], target: int = 121) -> None:
    """Each side's front and back peg in the hole of its score on the table's board
    (web/views/pegboard.mjs), each holding that score, and each front peg's tag saying it."""
    page.wait_for_function("() => [...document.querySelectorAll('.deal-board *')]"
                           ".every((node) => !node.getAnimations().length)")
    for peg in page.evaluate(PEGS):
        score = (fronts if peg["role"] == "front" else backs)[peg["team"]]
        assert peg["score"] == score, peg
        assert peg["under"] == min(score, target) + 1, peg
    tags = page.locator(".deal-board .tag").all_text_contents()
    assert tags == [str(score) for score in fronts]


def test_the_tutorial_deal_at_360_and_1280(page: Any) -> None:
    for width, height, least in ((360, 640, 56), (1280, 800, 80)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/tutorial.html")
        frame = page.frame_locator(DEAL_FRAME)
        frame.locator("#widget[data-state=ready]").wait_for()
        widths = frame.locator(".seat .card").evaluate_all(
            "cards => cards.map(c => c.getBoundingClientRect().width)")
        assert len(widths) == 12 and min(widths) >= least, (width, widths)
        # the hands fit their frame, overlapping if they must; nothing scrolls sideways
        assert frame.locator("html").evaluate(
            "h => h.scrollWidth <= h.clientWidth && [...document.querySelectorAll('.card')]"
            ".every(c => c.getBoundingClientRect().right <= h.clientWidth)")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        board = frame.locator(".deal-board").bounding_box()
        assert board is not None and board["width"] <= width


def test_the_board_follows_the_engines_scores(page: Any) -> None:
    open_deal(page)
    pegs_at(page, [0, 0], [-1, -1])
    fronts, backs = [0, 0], [-1, -1]
    history = []
    for step in ENGINE_STEPS[1:]:
        page.locator("#widget button.next").click()
        for team, score in enumerate(step["scores"]):
            if score != fronts[team]:
                backs[team], fronts[team] = fronts[team], score
        history.append((list(fronts), list(backs)))
        pegs_at(page, fronts, backs)
    assert fronts == [24, 12] and backs == [18, 3]
    label = page.locator(".deal-board .pegboard").get_attribute("aria-label")
    assert label == "Peg board: Alice: 24 · Bob: 12"
    page.locator("#widget button.back").click()
    pegs_at(page, *history[-2])
    assert history[-2] == ([18, 12], [6, 3])


def test_the_board_of_a_game_going_out(page: Any) -> None:
    """From scores before the deal (the tutorial's going out) to the game hole."""
    steps = scripted_deal_steps({
        "dealer": 0, "hands": ["5S 4S 2S 8D 6H 8C".split(), "TS 6D JH 4H KC 7C".split()],
        "starter": "5H", "discards": [["8D", "8C"], ["TS", "KC"]], "scores": [110, 112],
        "play": "JH 5S 7C 6H 2S 6D 4S 4H".split()})
    open_deal(page, SEED_DEAL + "&scores=110,112")
    pegs_at(page, [110, 112], [110, 112])  # the back pegs under the front ones
    page.locator("#widget button.next").click()
    while not page.locator("#widget button.next").is_disabled():
        page.locator("#widget button.next").click()
    assert steps[-1]["scores"] == [116, 121] and steps[-2]["scores"] == [116, 115]
    pegs_at(page, [116, 121], [115, 115])  # Bob's front peg in the game hole


def test_the_pile_calls_the_engines_points(page: Any) -> None:
    open_deal(page)
    seen = 0
    for step in ENGINE_STEPS[1:]:
        page.locator("#widget button.next").click()
        if step["show"]:
            continue
        assert page.locator(".play-area .count").inner_text() == str(step["count"])
        assert page.locator(".pile .card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)") == step["pile"]
        calls = page.locator(".pile .played").evaluate_all(
            "played => played.map(p => p.querySelector('.call')?.textContent ?? '')")
        assert calls == [" · ".join(c["text"] for c in made) for made in step["calls"]]
        seen += sum(1 for call in calls if call)
    assert seen >= 6  # the 15, the run, the go, the pair and last card, kept with the pile


def test_the_show_counted_chip_by_chip(page: Any) -> None:
    open_deal(page)
    shows = [step for step in ENGINE_STEPS if step["show"]]
    assert [s["show"]["total"] for s in shows] == [9, 12, 6]
    nxt = page.locator("#widget button.next")
    for show in shows:
        while not page.locator(f".seats .show[data-total='{show['show']['total']}']").count():
            nxt.click()
        chips = page.locator(".seats .show .show-item")
        steps = show["show"]["steps"]
        assert chips.count() == len(steps)
        for i, said in enumerate(steps):
            chip = chips.nth(i)
            assert chip.locator(".said-text").inner_text() == said["text"]
            assert chip.locator(".running").inner_text() == str(said["total"])
            chip.click()
            assert chip.get_attribute("aria-pressed") == "true"
            lit = page.locator(".show .card.lit").evaluate_all("cs => cs.map(c => c.dataset.card)")
            assert sorted(lit) == sorted(said["cards"]), (said, lit)
        assert page.locator(".show .total-points").inner_text() == str(show["show"]["total"])
        chips.nth(len(steps) - 1).click()  # pressed again: nothing lit
        assert page.locator(".show .card.lit").count() == 0
        chips.first.click()
        assert_no_violations(page, f"the show of {show['show']['kind']} {show['show']['seat']}")
