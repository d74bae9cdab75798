"""CPython tests of the table's pure picture modules: the peg board (web/views/pegboard.mjs,
the one board of the table, the replay and the widgets, run in Node), the charts, and
the statistics' stored format (older statistics must still load)."""

from __future__ import annotations

import doctest
import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from pegboard_js import board

WEB = Path(__file__).resolve().parents[1] / "web"
sys.path[:0] = [str(WEB / "views"), str(WEB / "table")]

shell = importlib.import_module("shell")
charts = importlib.import_module("charts")
statsview = importlib.import_module("statsview")

PHONE_BOARD_PX = 348  # a 360 px phone less the table's padding


def board_svg(target: int, names: list[str], **options: Any) -> str:
    return str(board(f"B.boardSvg({json.dumps({'target': target, 'names': names, **options})})"))


def test_doctests() -> None:
    assert doctest.testmod(charts, extraglobs={"words": shell.Words()}).failed == 0


def test_the_boards_functions() -> None:
    """What each of the module's functions answers (its examples)."""
    assert board("""[
      B.holePosition(121, 2, 0, 1)[0] < B.holePosition(121, 2, 0, 30)[0],
      B.holePosition(121, 2, 0, 31)[1] > B.holePosition(121, 2, 0, 30)[1],
      B.holePosition(121, 2, 0, 31)[0] === B.holePosition(121, 2, 0, 30)[0],
      B.holePosition(121, 2, 1, 0),
      B.holePosition(121, 2, 1, 31)[1] === B.holePosition(121, 2, 0, 31)[1] - B.LANE,
      [B.boardRatio(121, 2), B.boardRatio(121, 3), B.boardRatio(61, 2)],
      B.pegTransform(121, 2, 0, 0), B.pegPlace(121, 2, 0, 0),
      [0, 5, 35, 65, 121].map((points) => B.tagSide(121, 2, 0, points)),
      [0, 1, 2].map((track) => B.tagSide(121, 3, track, 35)),
      [B.tagFacts(121, 2, 1, 121), B.tagFacts(121, 2, 0, 47), B.tagFacts(121, 2, 1, 5)],
      [B.leapfrog(0, -1, 5), B.leapfrog(5, -1, 8), B.leapfrog(8, 5, 8)],
      B.pegsAlong([[0, 0], [2, 0], [2, 3], [6, 3]]).at(-1),
      B.pegsAlong([[110, 0], [115, 0]]),
      [B.trades([5, 0], [8, 5]), B.trades([8, 5], [5, 0]), B.trades([8, 5], [8, 5]),
       B.trades([5, 0], [9, 0])],
      B.escape('<b>"Tom" & Jerry</b>'),
    ]""") == [
        True, True, True, [34, 37], True, ["0.3045", "0.4218", "0.162"],
        "translate(34px, 16px)", "translate(34 16)",
        ["mid", "mid", "after", "before", "mid"], ["after", "mid", "before"],
        [["121", "mid"], ["47", "after"], ["5", "after"]],
        [[5, 0], [8, 5], [8, 5]],
        [[6, 2], [3, 0]],
        [[[110, 110], [0, -1]], [[115, 110], [0, -1]]],  # a game begun: the back peg under
        [True, True, False, False],
        "&lt;b&gt;&quot;Tom&quot; &amp; Jerry&lt;/b&gt;",
    ]
    svg = board_svg(61, ["You", "Computer", "Left"], label="Board", skunkLines=[31],
                    skunkTitles=["skunk"])
    assert (svg.count('class="hole"'), svg.count('data-skunk="31"'), ">60</text>" in svg) == (
        186, 1, True)
    assert 'id="peg-1-front"' in board_svg(121, ["You", "Computer"])
    # small: parsed again each game (18,031 characters with each peg's score)
    assert len(board_svg(121, ["You", "Computer"])) < 18200


@pytest.mark.parametrize("target,tracks", [(121, 2), (121, 3), (61, 2), (61, 3)])
def test_every_hole_has_its_own_place_on_the_board(target: int, tracks: int) -> None:
    (width, height), holes, game, past = board(
        f"[B.boardSize({target}, {tracks}), [...Array({tracks}).keys()].map((track) => "
        f"[...Array({target + 1}).keys()].map((i) => B.holePosition({target}, {tracks}, "
        f"track, i - 1))), B.holePosition({target}, {tracks}, 0, {target}), "
        f"B.holePosition({target}, {tracks}, 1, {target + 5})]")
    places = set()
    for track, lane in enumerate(holes):
        for points, (x, y) in enumerate(lane, start=-1):
            assert 8 <= x <= width - 8 and 8 <= y <= height - 8, (track, points)
            places.add((x, y))
    assert len(places) == tracks * (target + 1)
    assert tuple(game) not in places and game == past


def test_the_track_is_continuous_in_streets_of_thirty_in_groups_of_five() -> None:
    holes, streets, pitch, gap = board(
        "[[...Array(121).keys()].map((i) => B.holePosition(121, 2, 0, i + 1)), "
        "[B.streets(121), B.streets(61)], B.PITCH, B.GROUP_GAP]")
    assert streets == [4, 2]
    for points in range(1, 120):
        (x1, y1), (x2, y2) = holes[points - 1], holes[points]
        if points % 30:  # along a street: the next hole, a wider step between fives
            assert y1 == y2
            assert abs(x2 - x1) == pitch + (gap if points % 5 == 0 else 0)
        else:  # the turn: the next street starts below, at the same end
            assert x1 == x2 and y2 > y1


def translated(transform: str) -> tuple[float, float]:
    """The (x, y) of ``translate(34px, 16px)`` (CSS) or ``translate(34 16)`` (SVG)."""
    found = re.fullmatch(r"translate\(([-\d.]+)(?:px)?,? ([-\d.]+)(?:px)?\)", transform)
    assert found, transform
    return float(found.group(1)), float(found.group(2))


def counted_holes(svg: str, track: int) -> list[tuple[float, float]]:
    """One lane's holes as a player counts them on the drawn board: the holes of its
    street rows (not its two start holes) top street first, the first street left to
    right, the next back, and so on; the game hole last."""
    lane = re.search(f'<g class="holes" data-track="{track}">(.*?)</g>', svg)
    assert lane
    starts = {(float(x), float(y)) for x, y in
              re.findall(r'<circle class="start" cx="([-\d.]+)" cy="([-\d.]+)"', lane.group(1))}
    holes = {(float(x), float(y)) for x, y in
             re.findall(r'<use class="hole" href="#pb-hole" x="([-\d.]+)" y="([-\d.]+)"',
                        lane.group(1))} - starts
    assert len(starts) == 2
    rows = sorted({y for _, y in holes})
    counted = []
    for street, row in enumerate(rows):
        along = sorted(x for x, y in holes if y == row)
        assert len(along) == 30
        counted += [(x, row) for x in (along if street % 2 == 0 else along[::-1])]
    game = re.search(r'<circle class="game-hole" cx="([-\d.]+)" cy="([-\d.]+)"', svg)
    assert game
    return counted + [(float(game.group(1)), float(game.group(2)))]


@pytest.mark.parametrize("target", [121, 61, 181])
@pytest.mark.parametrize("tracks", [2, 3])
def test_every_score_pegs_in_the_hole_the_board_draws_for_it(target: int, tracks: int) -> None:
    names = ["A", "B", "C"][:tracks]
    # Per lane: the board, and for each score the peg's CSS and SVG places and the front
    # and back pegs' places on a board drawn with every lane at [score, score - 1].
    svg, lanes, past = board(f"""[
      B.boardSvg({{target: {target}, names: {json.dumps(names)}}}),
      [...Array({tracks}).keys()].map((track) => ({{
        start: B.pegPlace({target}, {tracks}, track, 0),
        behind: B.pegPlace({target}, {tracks}, track, -1),
        scores: [...Array({target}).keys()].map((i) => {{
          const score = i + 1;
          const drawn = B.boardSvg({{target: {target}, names: {json.dumps(names)},
                                     pegs: Array({tracks}).fill([score, score - 1])}});
          const peg = (which) => drawn.match(new RegExp(
            `id="peg-${{track}}-${{which}}" data-points="([-0-9]+)" transform="([^"]+)"`));
          return [B.pegTransform({target}, {tracks}, track, score),
                  B.pegPlace({target}, {tracks}, track, score),
                  peg("front").slice(1), peg("back").slice(1)];
        }}),
      }})),
      B.pegTransform({target}, {tracks}, 0, {target + 7}),
    ]""")
    for track, lane in enumerate(lanes):
        holes = counted_holes(svg, track)
        assert len(holes) == target  # hole n is holes[n - 1]; the game hole is the target's
        numbers = re.findall(r'class="number" x="([-\d.]+)" y="([-\d.]+)">(\d+)</text>', svg)
        for x, y, text in numbers:  # "where is 30?": above its number
            hole = holes[int(text) - 1]
            assert hole[0] == float(x) and hole[1] < float(y), text
        start, behind = translated(lane["start"]), translated(lane["behind"])
        assert start[1] == behind[1] and behind[0] < start[0] < holes[0][0]
        for score, (css, place, front, back) in enumerate(lane["scores"], start=1):
            hole = holes[score - 1]
            assert translated(css) == hole and translated(place) == hole, score
            assert front[0] == str(score) and translated(front[1]) == hole, score
            assert back[0] == str(score - 1)
            assert translated(back[1]) == (holes[score - 2] if score > 1 else start)
    assert translated(past) == counted_holes(svg, 0)[-1]  # past the target: the game hole


def test_holes_are_at_least_8_px_on_a_phone() -> None:
    (width, _), radius = board("[B.boardSize(121, 3), B.HOLE_R]")
    assert 2 * float(radius) * PHONE_BOARD_PX / width >= 8


def test_numbers_every_ten_marks_every_five_and_the_skunk_lines() -> None:
    svg = board_svg(121, ["You", "Computer"], label="Peg board to 121", skunkLines=[91, 61],
                    skunkTitles=["Skunk line: 91", "Skunk line: 61"], pegs=[[36, 30], [12, 5]])
    numbers = re.findall(r'class="number"[^>]*>(\d+)</text>', svg)
    assert numbers == [str(n) for n in range(10, 121, 10)]
    assert svg.count('class="five"') == 12
    assert re.findall(r'data-skunk="(\d+)"', svg) == ["91", "61"]
    assert "<title>Skunk line: 91</title>" in svg
    front = re.search(r'id="peg-0-front"[^>]*transform="([^"]+)"', svg)
    assert front and front.group(1) == board("B.pegPlace(121, 2, 0, 36)")
    assert "style=" not in svg  # the table page's CSP allows no style attributes
    assert 'aria-label="Peg board to 121"' in svg and 'role="img"' in svg
    short = board_svg(61, ["A", "B"], skunkLines=[31])
    assert re.findall(r'data-skunk="(\d+)"', short) == ["31"]
    assert re.findall(r'class="number"[^>]*>(\d+)</text>', short)[-1] == "60"
    named = board_svg(61, ['<b>"Tom" & Jerry</b>', "B"])  # names are the players' own text
    assert "<title>&lt;b&gt;&quot;Tom&quot; &amp; Jerry&lt;/b&gt;</title>" in named


def test_the_tables_options_draw_its_board_in_every_language() -> None:
    """What the table and the replay pass the board (tableview.board_options), drawn."""
    tableview = importlib.import_module("tableview")
    for lang in ("en", "es", "ja"):
        words = shell.Words(lang)
        options = tableview.board_options(words, 121, ["A", "B"], [91, 61], [[5, 0], [3, -1]])
        svg = str(board(f"B.boardSvg({json.dumps(options)})"))
        assert 'aria-label="' + shell.escape(words.t("board", {"target": 121})) + '"' in svg
        assert "<title>" + shell.escape(words.t("board.skunk", {"score": 61})) + "</title>" in svg
        assert re.search(r'id="peg-1-back" data-points="-1"', svg)


def test_the_score_chart_draws_the_engines_scores_in_every_language() -> None:
    series = [[0, 12, 14], [0, 2, 2]]
    for lang, deal in (("en", "Deal 2"), ("es", "Mano 2"), ("ja", "第2ディール")):
        html = charts.score_chart(shell.Words(lang), series, ["A", "B"], 121)
        assert deal + ": A 14, B 2" in html
        assert 'role="img" aria-label="' + shell.Words(lang).t("chart.scores.title") in html


def test_the_statistics_charts_say_in_words_what_they_show() -> None:
    words = shell.Words()
    assert "No games finished yet." in charts.results_chart(words, [])
    assert "No hands counted yet." in charts.hands_chart(words, [0] * 30)
    results = [{"won": n % 3 != 0, "me": 121, "op": 100 - n, "level": "easy"} for n in range(60)]
    html = charts.results_chart(words, results)
    assert html.count("<rect") == 40 and "Game 60: won by 80" in html
    everyone = [1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236,
                361224, 388740, 51680, 317340, 19656, 90100, 9168, 58248, 11196, 2708, 0, 8068,
                2496, 444, 356, 3680, 0, 0, 0, 76, 4]
    mine = [0] * 30
    mine[4], mine[8] = 3, 1
    html = charts.hands_chart(words, mine, everyone)
    assert "Average: you 5.00, all hands 4.77" in html
    assert "4 points: you 75.0%, all hands 22.0%" in html
    assert "19 points" not in html  # no hand scores 19: nothing to say


def test_old_statistics_still_load_and_new_ones_keep_results_and_hands() -> None:
    old = {"version": 1, "levels": {"easy": [2, 1]}, "skunks": [1, 0], "deals": 9, "hand": 70,
           "pegging": 30, "cribs": 4, "crib": 20, "best": None,
           "last": {"game": "abc", "deal": 9, "over": True}}
    stats = statsview.read_stats(json.dumps(old))
    assert stats["levels"] == {"easy": [2, 1]} and stats["deals"] == 9
    assert stats["results"] == [] and stats["hands"] == [0] * 30
    events = [{"kind": "deal", "seat": 1, "deal": 1},
              {"kind": "starter", "seat": 1, "cards": ["5H"], "deal": 1},
              {"kind": "hand", "seat": 0, "points": 6, "refused": 2, "worth": 8, "source": "hand",
               "cards": ["5S", "5D", "TH", "JC"], "deal": 1}]
    assert statsview.add_deal(stats, "g", 1, events, 0)
    assert stats["hands"][8] == 1
    outcome = {"winner": 0, "kind": "win", "game_points": 1, "scores": [121, 97]}
    assert statsview.add_game(stats, "g", "easy", outcome, 0)
    again = statsview.read_stats(json.dumps(stats))
    assert again["results"] == [{"won": True, "me": 121, "op": 97, "level": "easy"}]
    assert again["hands"][8] == 1
    for bad in ({"hands": [1] * 29}, {"hands": [-1] * 30}, {"results": [{"won": 1}]},
                {"results": "x"}):
        assert statsview.read_stats(json.dumps({**old, **bad})) == statsview.new_stats()
    text = statsview.stats_html(shell.Words("ja"), again, ["easy"])
    assert 'data-chart="results"' in text and 'data-chart="hands"' in text
    assert "第1局：24点差で勝ち" in text


def test_results_are_capped() -> None:
    stats = statsview.new_stats()
    for n in range(statsview.RESULTS_KEPT + 5):
        outcome = {"winner": 1, "kind": "win", "game_points": 1, "scores": [n % 120, 121]}
        statsview.add_game(stats, "g" + str(n), "standard", outcome, 0)
    assert len(stats["results"]) == statsview.RESULTS_KEPT
    assert statsview.read_stats(json.dumps(stats))["results"] == stats["results"]
