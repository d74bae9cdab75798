"""CPython tests of the table page's words: the pure UI modules in each language,
and every key the page uses present in the English catalogue (the build then
requires it in Spanish and Japanese too)."""

from __future__ import annotations

import doctest
import importlib
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

WEB = Path(__file__).resolve().parents[1] / "web"
sys.path[:0] = [str(WEB / "views"), str(WEB / "table")]

shell = importlib.import_module("shell")
tableview = importlib.import_module("tableview")
coachview = importlib.import_module("coachview")
statsview = importlib.import_module("statsview")
showview = importlib.import_module("showview")

ENGLISH = json.loads((WEB / "lang" / "table.en.json").read_text(encoding="utf-8"))
# The replay viewer's own words (ui.replay.*), beside the table's.
REPLAY = json.loads((WEB / "lang" / "replay.en.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("module", [shell, tableview, showview],
                         ids=["shell", "tableview", "showview"])
def test_doctests(module: ModuleType) -> None:
    assert doctest.testmod(module, extraglobs={"words": shell.Words()}).failed == 0


def keys_used() -> set[str]:
    """Every catalogue key the page names: t("...")/markup("...") in the UI's Python,
    data-i18n* in index.html, "ui...." in loading.mjs and update.mjs."""
    keys = set()
    for path in WEB.rglob("*.py"):
        if path.name in ("bridge.py",):
            continue
        text = path.read_text(encoding="utf-8")
        keys |= {"ui." + key for key in re.findall(r'\b(?:t|markup)\(\s*"([\w.-]+)"', text)}
    for page in ("index.html", "replay.html"):
        html = (WEB / "pages" / page).read_text(encoding="utf-8")
        keys |= set(re.findall(r'data-i18n(?:-[\w-]+)?="([\w.-]+)"', html))
    for script in ("loading.mjs", "update.mjs"):
        text = (WEB / "boot" / script).read_text(encoding="utf-8")
        keys |= set(re.findall(r'"(ui\.[\w.-]+)"', text))
    return keys


def test_every_key_the_page_names_is_in_the_catalogue() -> None:
    used = keys_used()
    assert len(used) > 100  # the rest are built from a prefix (level., coach.col., ...)
    prefixes = {key for key in used if key.endswith(".")}  # t("level." + level) and such
    assert not sorted(used - prefixes - set(ENGLISH) - set(REPLAY))
    assert all(any(key.startswith(prefix) for key in ENGLISH) for prefix in prefixes)


@pytest.mark.parametrize("code", ["es", "ja"])
def test_the_other_languages_have_every_english_key(code: str) -> None:
    other = json.loads((WEB / "lang" / f"table.{code}.json").read_text(encoding="utf-8"))
    assert set(other) == set(ENGLISH)


def test_status_lines_in_each_language() -> None:
    w = shell.Words()
    view = {"phase": "play", "current_player": 0, "dealer": 1, "discards_each": 2,
            "legal_moves": ["play 5S"], "count": 12}
    w = shell.Words("es")
    assert shell.status_text(w, view, tableview.seat_names(w, [0, 1])) == (
        "Te toca: juega una carta (cuenta 12).")
    assert shell.status_text(w, dict(view, current_player=1), tableview.seat_names(w, [0, 1])) == (
        "Ordenador está pensando…")
    w = shell.Words("ja")
    discard = dict(view, phase="discard", dealer=0)
    assert shell.status_text(w, discard, tableview.seat_names(w, [0, 1]), cuts_fresh=True) == (
        "あなたが一番低いカードを引いたので親です。自分のクリブに出すカードを2枚選んでください。")


def test_log_lines_and_card_names_follow_the_language() -> None:
    w = shell.Words()
    play = {"kind": "play", "seat": 0, "cards": ["QH"], "count": 25, "points": 2,
            "items": [{"kind": "pair", "points": 2, "cards": ["QH", "QS"]}]}
    w = shell.Words("es")
    names = tableview.seat_names(w, [0, 1])
    assert tableview.event_text(w, play, names) == "Tú juegas Q♥ — 25 — par 2"
    assert 'aria-label="reina de corazones"' in tableview.card_html(w, "QH", "play")
    assert 'data-card="QH" data-action="play"' in tableview.card_html(w, "QH", "play")
    w = shell.Words("ja")
    assert tableview.event_text(w, dict(play, seat=1), tableview.seat_names(w, [0, 1])) == (
        "コンピューターがQ♥を出す — 25 — ペア 2点")
    assert tableview.card_words(w, "QH") == "ハートのクイーン"


def test_game_over_words() -> None:
    w = shell.Words()
    outcome = {"winner": 0, "kind": "double skunk", "game_points": 3, "scores": [121, 50]}
    teams = tableview.score_names(w, tableview.seat_names(w, [0, 1, 0, 1]), 2)
    assert tableview.outcome_text(w, outcome, teams, 0, partners=True) == (
        "You & Partner win with a double skunk! (3 game points)")
    w = shell.Words("es")
    assert tableview.outcome_text(w, outcome, tableview.seat_names(w, [0, 1]), 0) == (
        "¡Has ganado con doble capote! (3 puntos de partida)")
    assert tableview.final_scores(w, [121, 50], tableview.seat_names(w, [0, 1])) == (
        "Tú 121, Ordenador 50")
    w = shell.Words("ja")
    assert tableview.outcome_text(w, dict(outcome, winner=1, kind="win", game_points=1),
                                  tableview.seat_names(w, [0, 1]), 0) == (
        "コンピューターの勝ち！（ゲームポイント1）")


def test_a_team_wins_in_the_plural_in_every_language() -> None:
    outcome = {"winner": 1, "kind": "skunk", "game_points": 2, "scores": [80, 121]}
    said = {}
    for lang in ("en", "es", "ja"):
        w = shell.Words(lang)
        teams = tableview.score_names(w, tableview.seat_names(w, [0, 1, 0, 1]), 2)
        said[lang] = tableview.outcome_text(w, outcome, teams, 0, partners=True)
    assert said == {"en": "Opponents win with a skunk! (2 game points)",
                    "es": "¡Ganan los rivales con capote! (2 puntos de partida)",
                    "ja": "相手チームの勝ち（スカンク）！（ゲームポイント2）"}
    w = shell.Words()  # a named player alone wins in the singular
    assert tableview.outcome_text(w, outcome, ["Ana", "Bo"], None).startswith("Bo wins ")


def test_engine_errors_are_said_by_kind() -> None:
    w = shell.Words()
    error = {"kind": "no-game", "type": "ProtocolError", "message": "Start a game first."}
    assert shell.error_text(w, error) == "Start a game first."
    assert shell.error_text(w, {"kind": "???", "message": "boom"}).startswith("The engine had")
    w = shell.Words("ja")
    assert shell.error_text(w, error) == (
        "進行中のゲームがありません。新しいゲームを始めてください。")


def test_the_coach_and_the_statistics_in_spanish() -> None:
    w = shell.Words("es")
    text = coachview.advice_html(w, {"kind": "play", "choices": [
        {"card": "TS", "value": 1.5, "points_now": 2, "reply_risk": 0.0}]}, 5)
    assert "<h2>Entrenador</h2>" in text and "cuenta 15; anota 2 ya" in text
    review = coachview.review_html(w, {"deal": 1, "lost": 0.0, "decisions": [
        {"kind": "discard", "chosen": ["5S", "KH"], "best": ["5S", "KH"], "chosen_value": 1.0,
         "best_value": 1.0, "loss": 0.0, "count": 0}]})
    assert "Descartaste cinco de picas y rey de corazones: la mejor opción" in review
    assert "<th>Principiante</th>" in statsview.stats_html(w, statsview.new_stats(), ["beginner"])


def test_markup_escapes_the_template_not_the_values() -> None:
    assert shell.Words().markup("stats.best_hand", {"points": 29, "cards": "<b>x</b>",
                                            "starter": "<i>y</i>"}) == (
        "29 points: <b>x</b> with <i>y</i>")
