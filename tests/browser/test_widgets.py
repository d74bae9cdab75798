"""Browser tests of the embeddable widgets (embed.html) and the rules tutorial.

- Each widget renders and scores the seeds' worked example through the engine
  (Bob's hand 9, Alice's 12, Alice's crib 6) and the 29 hand.
- A host page on ANOTHER origin (127.0.0.1 vs localhost, two loopback ports)
  embedding five widgets starts one engine: the widget server sees one
  request for pyodide.asm.wasm and every widget reports the same worker.
- Hostile parameters show a message inside the widget and execute nothing.
- The tutorial loads, its widgets work, no console errors, nothing leaves
  the origin.
- Languages: each widget with lang=es / lang=ja (and, without lang, from the
  browser's locale) shows its words, the engine's cadence and the cards'
  accessible names in that language; hostile lang values give English and
  run nothing; the tutorial follows the browser's locale and its switch is
  remembered across reloads.
"""

from __future__ import annotations

import re
import sys
import tempfile
import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import pytest

from sitebuild.common import DIST
from sitebuild.serve import SiteHandler, SiteServer, make_server

from .axe import assert_no_violations

SEED_DEAL = (
    "widget=deal&dealer=0&names=Alice,Bob&hands=5S4S2S8D6H8C|TS6DJH4HKC7C"
    "&discards=8D8C|TSKC&starter=5H&play=JH,5S,7C,6H,2S,6D,4S,4H"
)
SEED_PEG = "widget=peg&names=Bob,Alice&cards=JH,5S,7C,6H,go,2S,6D,4S,4H"
DONE = "#widget[data-state=ready], #widget[data-state=error]"
ENGINE_PACKAGE = re.compile(r".*/cribbage-[0-9a-f]+\.(zip|tar\.gz)$")  # the engine's files


def open_widget(page: Any, query: str) -> Any:
    page.goto("/embed.html?" + query)
    page.wait_for_selector(DONE)
    return page.locator("#widget")


def total(page: Any) -> int:
    return int(page.locator("#widget .total-points").first.inner_text())


@pytest.mark.parametrize(
    ("query", "points"),
    [
        ("hand=6D,JH,4H,7C&starter=5H", 9),  # Bob's hand in the seeds
        ("hand=5S,4S,2S,6H&starter=5H&crib=0", 12),  # Alice's hand
        ("hand=TS,8D,KC,8C&starter=5H&crib=1", 6),  # Alice's crib
        ("hand=5C,5D,5H,JS&starter=5S", 29),  # the 29 hand
        ("hand=2H,4H,6H,8H&starter=TS&crib=1", 0),  # a 4-card flush does not count in the crib
        ("hand=2H,4H,6H,8H&starter=TS&crib=0", 4),  # but does in a hand
    ],
)
def test_hand_scorer(page: Any, query: str, points: int) -> None:
    widget = open_widget(page, "widget=hand&" + query)
    assert widget.get_attribute("data-state") == "ready"
    assert total(page) == points
    assert page.locator("#widget .show-cards .card").count() == 5
    if points == 12:
        said = page.locator("#widget .said").inner_text()
        assert "fifteen two, fifteen four, a pair is six" in said
        kinds = page.locator("#widget .item").evaluate_all("els => els.map(e => e.dataset.kind)")
        assert kinds == ["fifteen", "fifteen", "pair", "run", "run"]


def test_hand_scorer_edit_mode(page: Any) -> None:
    open_widget(page, "widget=hand&hand=5S,4S,2S,6H&starter=5H&edit=1")
    assert total(page) == 12
    page.select_option("select[name=card2]", "3S")  # 5S 4S 3S 6H + 5H: runs of four
    page.wait_for_function(  # a function, not an expression: Playwright evals those (CSP)
        "() => document.querySelector('#widget .total-points')?.textContent === '14'"
    )
    page.select_option("select[name=card2]", "5D")  # three fives
    page.wait_for_function("() => document.querySelector('#widget').dataset.state === 'ready'")
    assert total(page) == 23  # 5S 4S 5D 6H + 5H: fifteens 8, three fives 6, 3 runs of 3
    page.select_option("select[name=card2]", "5H")  # the starter's card: a clear message
    page.wait_for_selector("#widget[data-state=error-input] .widget-error")
    assert "twice" in page.locator("#widget .widget-error").inner_text()


def test_pegging_sequence(page: Any) -> None:
    open_widget(page, SEED_PEG)
    counts, points = [], []
    nxt = page.locator("#widget button.next")
    for _ in range(9):
        nxt.click()
        counts.append(page.locator("#widget .count").inner_text())
        points.append(page.locator("#widget .say").get_attribute("data-points"))
    assert counts == ["10", "15", "22", "28", "28", "30", "6", "10", "14"]
    assert points == ["0", "2", "0", "3", "0", "0", "0", "0", "2"]
    assert nxt.is_disabled()
    assert page.locator("#widget .scores").inner_text() == "Bob 3 · Alice 6"
    text = page.locator("#widget .peg-table").inner_text()
    assert "Bob pegs 1 for last card" in text
    page.locator("#widget button.back").click()
    page.locator("#widget button.back").click()
    page.locator("#widget button.back").click()
    assert page.locator("#widget .count").inner_text() == "30"
    assert "Alice pegs 1 for the go" in page.locator("#widget .peg-table").inner_text()


def test_pegging_thirty_one_resets(page: Any) -> None:
    open_widget(page, "widget=peg&cards=KS,QH,5C,6D,7C&step=5")
    assert page.locator("#widget .count").inner_text() == "7"
    page.locator("#widget button.back").click()
    assert page.locator("#widget .count").inner_text() == "31"
    assert "thirty-one" in page.locator("#widget .say").inner_text()


def test_scripted_deal_steps_forward_and_back(page: Any) -> None:
    open_widget(page, SEED_DEAL)
    nxt, back = page.locator("#widget button.next"), page.locator("#widget button.back")
    shows = []
    titles = []
    while not nxt.is_disabled():
        nxt.click()
        titles.append(page.locator("#widget .step-title").inner_text())
        show = page.locator("#widget .show")
        if show.count():
            shows.append(int(show.get_attribute("data-total")))
    assert shows == [9, 12, 6]
    assert titles[0] == "Bob laid away to the crib"
    assert any("The starter is 5♥" in t for t in titles)
    assert "Alice 24" not in page.locator("#widget .seats").inner_text()  # names carry scores
    assert "Alice (dealer): 24" in page.locator("#widget .seats").inner_text()
    assert "Bob: 12" in page.locator("#widget .seats").inner_text()
    back.click()
    assert int(page.locator("#widget .show").get_attribute("data-total")) == 12
    for _ in range(30):
        if back.is_disabled():
            break
        back.click()
    assert page.locator("#widget .seat .card").count() == 12  # both dealt hands again


def test_scripted_deal_with_kept_hands_and_computer_play(page: Any) -> None:
    widget = open_widget(page, "widget=deal&players=3&dealer=2"
                         "&hands=5C5D5H6S|2S3S4S9D|JH4D7D8D&crib=KS,QD,AC,5S&starter=JC")
    assert widget.get_attribute("data-state") == "ready"
    shows = []
    while not page.locator("#widget button.next").is_disabled():
        page.locator("#widget button.next").click()
        if page.locator("#widget .show").count():
            shows.append(int(page.locator("#widget .show").get_attribute("data-total")))
    assert len(shows) == 4  # three hands and the crib


def test_cards_are_drawn_before_the_engine_answers(page: Any) -> None:
    """Hold back the engine's package: the cards are on screen, the score waits."""
    held: list[Any] = []
    page.context.route(ENGINE_PACKAGE, lambda route: held.append(route))
    page.goto("/embed.html?widget=hand&hand=5S,4S,2S,6H&starter=5H")
    page.wait_for_selector("#widget[data-state=waiting]")
    assert page.locator("#widget .card").count() == 5
    assert "Counting" in page.locator("#widget .status").inner_text()


# --- hostile and wrong input -----------------------------------------------------

HOSTILE = [
    ("widget=hand&hand=5S,4S,2S,6H&starter=<script>window.__pwned=1</script>", "not a card"),
    ("widget=hand&hand=<img src=x onerror=window.__pwned=1>&starter=5H", "not a card"),
    ("widget=hand&hand=5S,4S,2S,6H&starter=5H&title=<b onmouseover=window.__pwned=1>hi</b>",
     "markup"),
    ("widget=hand&hand=5S,4S,2S,5S&starter=5H", "twice"),
    ("widget=hand&hand=5S,4S,2S,6H&starter=5S", "twice"),
    ("widget=hand&hand=5S,4S,2S&starter=5H", "needs 4 cards"),
    ("widget=hand&hand=1S,4S,2S,6H&starter=5H", "not a card"),
    ("widget=hand&hand=5S,4S,2S,6H&starter=5H&crib=99999999999999999999", "0 or 1"),
    ("widget=hand&hand=5S,4S,2S,6H&starter=5H&bogus=1", "Unknown parameter"),
    ("widget=hand&hand=5S,4S,2S,6H&hand=5S,4S,2S,6H&starter=5H", "twice"),
    ("widget=<svg/onload=window.__pwned=1>", "Unknown widget"),
    ("widget=peg&cards=" + ",".join(["5S"] * 10_000), "too long"),
    ("widget=peg&cards=" + "".join(f"{r}{s}" for r in "A23456789" for s in "SH"), "too many"),
    ("widget=peg&cards=JH,5S,7C,6H,5C,6D,KS,2S,3S", "too many"),
    ("widget=peg&cards=JH,5S&players=1000000000000000", "number of players"),
    ("widget=peg&cards=JH,5S&players=-2", "number of players"),
    ("widget=peg&cards=JH,5S&step=1e9", "step"),
    ("widget=peg&cards=JH,5S&names=<i>x</i>,y", "markup"),
    ("widget=peg&cards=go,5S", "go with no count"),
    ("widget=deal&hands=5S4S2S8D6H8C|TS6DJH4HKC5S&starter=5H", "twice"),
    ("widget=deal&hands=5S4S2S8D6H8C|TS6DJH4HKC7C&starter=5H&discards=8D8C|TSQC",
     "not in that hand"),
    ("widget=deal&hands=5S4S2S8D6H8C|TS6DJH4HKC7C&starter=5H&dealer=7", "dealer"),
    ("widget=deal&hands=5S4S2S8D6H8C&starter=5H", "2 groups"),
    ("widget=deal&hands=5S4S2S8D6H8C|TS6DJH4HKC7C&starter=5H&play=9C", "nobody's hand"),
    ("widget=deal&hands=5S4S2S8D6H8C|TS6DJH4HKC7C&starter=5H&scores=0,121", "score"),
    ("widget=hand&hand=5S,4S,2S,6H&starter=5H&theme=<b>x</b>", "Unknown theme"),
    ("widget=hand&hand=5S,4S,2S,6H&starter=5H&theme=Dark", "Unknown theme"),
    ("widget=hand&hand=5S,4S,2S,6H&starter=5H&card-width=60px", "card width"),
    ("widget=hand&hand=5S,4S,2S,6H&starter=5H&card-width=9999", "card width"),
    ("widget=hand&hand=5S,4S,2S,6H&starter=5H&card-width=1;background:red", "card width"),
]


@pytest.mark.parametrize(("query", "message"), HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_parameters_show_a_message(page: Any, query: str, message: str) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    widget = open_widget(page, query)
    assert widget.get_attribute("data-state") == "error"
    text = page.locator("#widget .widget-error").inner_text()
    assert message.lower() in text.lower(), text
    assert len(text) < 400
    assert page.evaluate("window.__pwned") is None
    injected = "#widget script, #widget img, #widget svg, #widget b, #widget i"
    assert page.locator(injected).count() == 0
    assert not dialogs


def test_engine_refusal_is_shown_in_the_widget(page: Any) -> None:
    """A play the rules forbid (Alice's card when Bob leads) is refused by the engine."""
    widget = open_widget(page, SEED_DEAL.replace("play=JH,5S,", "play=5S,JH,"))
    assert widget.get_attribute("data-state") == "error"
    assert "cannot play 5S" in page.locator("#widget .widget-error").inner_text()
    assert page.locator("#widget .seat .card").count() == 12  # the cards are still drawn


# --- the look: the table's cards, the author's card width and surround ---------------

# A card's look, as computed: its box, edge, shadow, colours and type, its corners and
# pip (their size and what CSS draws in them). `card` is a card element.
CARD_LOOK = """(card) => {
  const cs = getComputedStyle(card);
  const part = (selector) => {
    const element = card.querySelector(selector);
    const box = getComputedStyle(element);
    return [getComputedStyle(element, '::before').content, box.fontSize, box.top, box.left];
  };
  const rect = card.getBoundingClientRect();
  return {width: rect.width, height: rect.height, radius: cs.borderTopLeftRadius,
          border: cs.borderTop, shadow: cs.boxShadow, background: cs.backgroundColor,
          colour: cs.color, weight: cs.fontWeight, family: cs.fontFamily,
          corner: part('.corner'), end: part('.corner-end'), pip: part('.pip')};
}"""

# The relative luminance (WCAG) of an element's computed colour property.
LUMINANCE = """([element, property]) => {
  const [r, g, b] = getComputedStyle(element)[property].match(/[\\d.]+/g).map(Number);
  const linear = (c) => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}"""


def table_card_look(page: Any, code: str, width: int) -> dict[str, Any]:
    """The look of the table's own card (tableview.card_html's markup) in the table's hand,
    its width --cw set to `width` px as the table sets it from the felt's size."""
    sys.path[:0] = [str(Path(__file__).resolve().parents[2] / "web" / "views")]
    import tableview  # noqa: PLC0415 (the table's MicroPython view, pure Python)

    markup = tableview.card_html(SimpleNamespace(lang="en"), code)
    page.goto("/")
    return dict(page.evaluate(f"""([markup, width]) => {{
      const hand = document.querySelector('.seat-human .hand');
      hand.style.setProperty('--cw', width + 'px');
      const holder = document.createElement('div');
      holder.innerHTML = markup;
      const card = holder.firstElementChild;
      hand.append(card);
      const look = ({CARD_LOOK})(card);
      card.remove();
      return look;
    }}""", [markup, width]))


def test_the_widgets_cards_are_the_tables(page: Any) -> None:
    """At the same width a widget's card is the table's: one source of the rules (kit.css,
    which the table's page writes into itself and the widgets link), the same markup."""
    table = table_card_look(page, "5H", 60)
    assert table["width"] == 60 and table["height"] == 84
    open_widget(page, "widget=hand&hand=5S,4S,2S,6H&starter=5H&card-width=60")
    widget = page.locator("#widget .card[data-card='5H']").evaluate(CARD_LOOK)
    assert widget == table
    assert "5" in table["corner"][0] and "♥" in table["corner"][0] and "♥" in table["pip"][0]


def test_one_source_of_the_card_rules() -> None:
    """The card's face is drawn by kit.css alone: no other stylesheet restyles its parts,
    and the table's page, the widgets' page and the custom elements all take kit.css."""
    pages = Path(__file__).resolve().parents[2] / "web" / "pages"
    face = re.compile(r"\.card\s+\.(corner|pip)\b|\.card\.(red|black|back)\b|(^|,\s*)\.card\s*[{,]",
                      re.M)
    owners = sorted(css.name for css in pages.glob("*.css") if face.search(css.read_text()))
    assert owners == ["kit.css"]
    for html in ("index.html", "replay.html", "embed.html", "puzzles.html"):
        assert 'href="./kit.css"' in (pages / html).read_text(), html
    elements = (pages.parent / "widgets" / "elements.mjs").read_text()
    assert '"./kit.css", "./embed.css", "./elements.css"' in elements


def test_the_look_card_width_and_dark_surround(page: Any) -> None:
    """theme=dark draws a widget on the table's felt, card-width= sizes its cards; the
    words keep their contrast (axe) on the dark surround."""
    open_widget(page, SEED_DEAL + "&step=9&theme=dark&card-width=64")
    sizes = page.locator("#widget .card").evaluate_all(
        "cards => cards.map(c => [c.classList.contains('small'), c.getBoundingClientRect().width])")
    assert {width for small, width in sizes if not small} == {64}  # the hands
    assert {round(width, 1) for small, width in sizes if small} == {51.2}  # the middle's, 0.8
    open_widget(page, SEED_DEAL + "&step=30&theme=dark&card-width=64")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    sizes = page.locator("#widget .card").evaluate_all(
        "cards => cards.map(c => c.getBoundingClientRect().width)")
    assert set(sizes) == {64}  # the crib counted with the starter
    body = page.locator("body").element_handle()
    assert page.evaluate(LUMINANCE, [body, "backgroundColor"]) < 0.1
    assert page.evaluate(LUMINANCE, [body, "color"]) > 0.8
    button = page.locator("#widget .button.back").element_handle()
    assert page.evaluate(LUMINANCE, [button, "backgroundColor"]) > 0.4  # gold, as on the felt
    page.locator("#widget .show .card").first.wait_for()
    assert_no_violations(page, "a deal's show on the dark surround")
    open_widget(page, "widget=drill&level=runs&seed=3&theme=dark")
    page.locator("#widget .drill-points").fill("0")
    page.locator("#widget .drill-check").click()
    page.locator("#widget .drill-verdict").wait_for()
    assert_no_violations(page, "the drill's verdict on the dark surround")
    # without the parameters: the paper, and the widget's own size
    open_widget(page, "widget=hand&hand=5S,4S,2S,6H&starter=5H")
    body = page.locator("body").element_handle()
    assert page.evaluate(LUMINANCE, [body, "backgroundColor"]) > 0.9
    width = page.locator("#widget .card").first.evaluate("c => c.getBoundingClientRect().width")
    assert width == pytest.approx(2.6 * 16, abs=0.05)  # layout rounds to 1/64 px


# --- languages ---------------------------------------------------------------------

SPANISH_CARD = re.compile(
    r"^(as|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|jota|reina|rey) de "
    r"(picas|corazones|diamantes|tréboles)$"
)
JAPANESE_CARD = re.compile(
    r"^(スペード|ハート|ダイヤ|クラブ)の(エース|[2-9]|10|ジャック|クイーン|キング)$"
)
CARD_NAME = {"es": SPANISH_CARD, "ja": JAPANESE_CARD}


def card_labels(page: Any) -> list[str]:
    return page.locator("#widget .card[data-card]").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")


def assert_language(page: Any, lang: str) -> None:
    """The widget is in ``lang``: its root, its document, and every card's accessible name."""
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.locator("#widget").get_attribute("data-lang") == lang
    labels = card_labels(page)
    assert labels and all(CARD_NAME[lang].match(label) for label in labels), labels


HAND_WORDS = {
    "es": ("Mano", "Corte", "Dicho en voz alta: quince dos, quince cuatro, un par son seis",
           "cinco de picas", "par de cincos"),
    "ja": ("手札", "スターター", "数え方：フィフティーン2、フィフティーン4、ペアで6",
           "スペードの5", "5のペア"),
}


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_hand_scorer_in_each_language(page: Any, lang: str) -> None:
    hand, starter, said, five, pair = HAND_WORDS[lang]
    open_widget(page, f"widget=hand&hand=5S,4S,2S,6H&starter=5H&lang={lang}")
    assert_language(page, lang)
    assert total(page) == 12
    assert page.locator("#widget .show-cards .label").all_inner_texts() == [hand, starter]
    assert page.locator("#widget .said").inner_text().startswith(said)
    assert page.locator("#widget .card[data-card='5S']").get_attribute("aria-label") == five
    assert pair in page.locator("#widget .items").inner_text()
    assert page.title() != "Cribbage widget"


PEG_WORDS = {
    "es": ("Alicia juega 5♠: 15 — quince 2 (2 puntos en total).", "Paso 2 de 9", "Siguiente ▶",
           "Alicia se anota 1 por el «go».", "«go»"),
    "ja": ("アリスが5♠を出す：15 — フィフティーン 2点（計2点）。", "ステップ 2/9", "次へ ▶",
           "アリスがゴーの1点をペグ。", "ゴー"),
}


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_pegging_in_each_language(page: Any, lang: str) -> None:
    lays, where, next_text, go_point, chip = PEG_WORDS[lang]
    names = {"es": "Pepe,Alicia", "ja": "ボブ,アリス"}[lang]
    open_widget(page, f"{SEED_PEG.replace('Bob,Alice', quote(names))}&lang={lang}")
    nxt = page.locator("#widget button.next")
    assert nxt.inner_text() == next_text
    assert page.locator("#widget .go-chip").inner_text() == chip
    nxt.click()
    nxt.click()
    assert page.locator("#widget .say").inner_text() == lays
    assert page.locator("#widget .where").inner_text() == where
    for _ in range(4):
        nxt.click()
    assert go_point in page.locator("#widget .peg-table").inner_text()
    assert_language(page, lang)


DEAL_WORDS = {
    "es": ("Mano 1: reparte Alicia", "Pepe descarta a la criba", "El corte es 5♥",
           "Alicia (reparte): 24", "Mano de Pepe con el corte", "quince dos"),
    "ja": ("第1ディール：ディーラーはアリス", "ボブがクリブに捨て札", "スターターは5♥",
           "アリス（ディーラー）：24", "ボブの手札とスターター", "フィフティーン2"),
}


@pytest.mark.parametrize("lang", ["es", "ja"])
def test_scripted_deal_in_each_language(page: Any, lang: str) -> None:
    opening, discard, starter, dealer, show, cadence = DEAL_WORDS[lang]
    names = {"es": "Alicia,Pepe", "ja": "アリス,ボブ"}[lang]
    open_widget(page, f"{SEED_DEAL.replace('Alice,Bob', quote(names))}&lang={lang}")
    assert page.locator("#widget .step-title").inner_text() == opening
    titles, shows = [], []
    nxt = page.locator("#widget button.next")
    while not nxt.is_disabled():
        nxt.click()
        titles.append(page.locator("#widget .step-title").inner_text())
        if page.locator("#widget .show").count() and not shows:
            shows.append(page.locator("#widget .show .label").inner_text())
            assert cadence in page.locator("#widget .story").inner_text()
    assert titles[0] == discard and any(starter in t for t in titles)
    assert dealer in page.locator("#widget .seats").inner_text()
    assert shows == [show]
    assert_language(page, lang)


@pytest.mark.browser_context_args(locale="ja-JP")
def test_widget_without_lang_follows_the_browser(page: Any) -> None:
    open_widget(page, "widget=hand&hand=5C,5D,5H,JS&starter=5S")
    assert_language(page, "ja")
    assert page.locator("#widget .said").inner_text().endswith("ノブスで29")


@pytest.mark.browser_context_args(locale="ja-JP")
def test_lang_parameter_wins_over_the_browser(page: Any) -> None:
    open_widget(page, "widget=hand&hand=5C,5D,5H,JS&starter=5S&lang=es")
    assert_language(page, "es")
    widget = open_widget(page, "widget=hand&hand=5S,4S,2S&starter=5H&lang=es")
    assert widget.get_attribute("data-state") == "error"
    assert page.locator("#widget .widget-error").inner_text() == (
        "Este widget no se puede mostrar: La mano necesita 4 cartas, no 3.")


HOSTILE_LANGS = [
    quote("<script>window.__pwned=1</script>"),
    quote('"><img src=x onerror=window.__pwned=1>'),
    "../../x",
    quote("../../lang/es"),
    "es%00",
    "javascript:alert(1)",
    "e" * 10_000,
]


@pytest.mark.parametrize("value", HOSTILE_LANGS, ids=range(len(HOSTILE_LANGS)))
@pytest.mark.browser_context_args(locale="es-ES")
def test_hostile_lang_gives_english(page: Any, requests_seen: list[str], value: str) -> None:
    """Anything but en/es/ja is English (even in a Spanish browser), never echoed, never fetched."""
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    widget = open_widget(page, f"widget=hand&hand=5S,4S,2S,6H&starter=5H&lang={value}")
    assert page.evaluate("document.documentElement.lang") == "en"
    text = widget.inner_text()
    if len(value) > 1000:  # the whole query is too long: a message, in English
        assert widget.get_attribute("data-state") == "error"
        assert "too long" in text
    else:
        assert widget.get_attribute("data-state") == "ready"
        assert "Said aloud: fifteen two" in text and total(page) == 12
    assert unquote(value)[:50] not in text
    assert page.evaluate("window.__pwned") is None and not dialogs
    assert page.locator("#widget script, #widget img").count() == 0
    langs = [url for url in requests_seen if "/lang/" in urlsplit(url).path]
    assert langs and all(url.endswith("/lang/en.json") for url in langs), langs


def test_cards_show_before_the_engine_in_every_language(page: Any) -> None:
    """The catalogue is small and same-origin: the cards (with their names) are drawn
    while the engine is held back, and the first paint waits only for the catalogue."""
    held: list[Any] = []
    page.context.route(ENGINE_PACKAGE, lambda route: held.append(route))
    for lang in ("en", "es", "ja"):
        page.goto(f"/embed.html?widget=hand&hand=5S,4S,2S,6H&starter=5H&lang={lang}")
        page.wait_for_selector("#widget[data-state=waiting]")
        assert page.locator("#widget .card").count() == 5
        if lang != "en":
            assert_language(page, lang)


# --- one engine per page, from another origin ----------------------------------


class CountingHandler(SiteHandler):
    """The site's handler, recording every path it is asked for."""

    seen: list[str] = []

    def send_head(self):  # type: ignore[no-untyped-def]
        type(self).seen.append(self.path)
        return super().send_head()


@pytest.fixture
def two_origins(site: str) -> Iterator[tuple[str, str, list[str], Path]]:
    """The widgets on http://localhost:P1 (counted), a host dir on http://127.0.0.1:P2."""
    seen: list[str] = []
    handler = type("Counting", (CountingHandler,), {"seen": seen})
    widgets = SiteServer(("127.0.0.1", 0), partial(handler, directory=str(DIST)))
    threading.Thread(target=widgets.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as tmp:
        host = make_server(0, Path(tmp))
        threading.Thread(target=host.serve_forever, daemon=True).start()
        widget_url = f"http://localhost:{widgets.server_address[1]}/"
        host_url = f"http://127.0.0.1:{host.server_address[1]}/"
        yield widget_url, host_url, seen, Path(tmp)
        host.shutdown()
        host.server_close()
    widgets.shutdown()
    widgets.server_close()


def host_page(widget_url: str, queries: list[str]) -> str:
    frames = "\n".join(
        f'<iframe title="widget {i}" src="{widget_url}embed.html?{q}" '
        f'style="width:100%;height:200px;border:0"></iframe>'
        for i, q in enumerate(queries)
    )
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>Host</title>
<link rel="icon" href="data:,">
<script src="{widget_url}embed-resize.js" defer></script></head>
<body><h1 id="host-title">A tutorial author's page</h1>{frames}
<p id="host-after">The host page still works.</p></body></html>"""


def test_five_widgets_on_another_origin_start_one_engine(page: Any, two_origins: Any) -> None:
    widget_url, host_url, seen, folder = two_origins
    queries = [
        "widget=hand&hand=6D,JH,4H,7C&starter=5H",
        "widget=hand&hand=5S,4S,2S,6H&starter=5H",
        "widget=hand&hand=TS,8D,KC,8C&starter=5H&crib=1",
        SEED_PEG,
        SEED_DEAL,
    ]
    (folder / "host.html").write_text(host_page(widget_url, queries))
    page.goto(host_url + "host.html")
    frames = [page.frame_locator(f"iframe >> nth={i}") for i in range(len(queries))]
    for frame in frames:
        frame.locator("#widget[data-state=ready]").wait_for()
    totals = [int(frames[i].locator(".total-points").inner_text()) for i in range(3)]
    assert totals == [9, 12, 6]
    workers = {
        f.evaluate("() => document.documentElement.dataset.engineWorker")
        for f in page.frames
        if f != page.main_frame
    }
    assert len(workers) == 1 and None not in workers, workers
    engine_types = {
        f.evaluate("() => document.documentElement.dataset.engine")
        for f in page.frames
        if f != page.main_frame
    }
    assert sorted(engine_types) == ["borrowed", "own"]
    wasm = [p for p in seen if p.endswith("pyodide.asm.wasm")]
    assert len(wasm) == 1, seen
    assert len([p for p in seen if ENGINE_PACKAGE.match(p)]) == 1
    assert len([p for p in seen if p.startswith("/embed.html")]) == len(queries)
    # the iframes resized themselves through embed-resize.js; the host is intact
    heights = page.locator("iframe").evaluate_all("els => els.map(e => e.style.height)")
    assert all(h and h != "200px" for h in heights), heights
    assert page.locator("#host-after").is_visible()


def test_hostile_widget_does_not_break_its_host(page: Any, two_origins: Any) -> None:
    widget_url, host_url, seen, folder = two_origins
    queries = [
        "widget=hand&hand=" + quote("<script>parent.__pwned=1</script>") + "&starter=5H",
        "widget=hand&hand=5S,4S,2S,6H&starter=5H&title=" + quote('"><img src=x onerror=alert(1)>'),
        "widget=hand&hand=5S,4S,2S,6H&starter=5H",
    ]
    (folder / "host.html").write_text(host_page(widget_url, queries))
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(host_url + "host.html")
    frames = [page.frame_locator(f"iframe >> nth={i}") for i in range(len(queries))]
    frames[0].locator("#widget[data-state=error]").wait_for()
    frames[1].locator("#widget[data-state=error]").wait_for()
    frames[2].locator("#widget[data-state=ready]").wait_for()
    assert int(frames[2].locator(".total-points").inner_text()) == 12
    assert page.evaluate("window.__pwned") is None
    assert not dialogs
    assert page.locator("#host-title").inner_text() == "A tutorial author's page"


# --- the tutorial ------------------------------------------------------------------


def test_tutorial_page(page: Any, app: Any, requests_seen: list[str]) -> None:
    page.goto("/tutorial.html")
    frames = page.locator("iframe.widget-frame")
    count = frames.count()
    assert count >= 10
    # tutorial.mjs writes the headings in the page's language once its words have come
    page.wait_for_function("() => [...document.querySelectorAll('main section h2')]"
                           ".every((h) => h.textContent.trim() !== '')")
    sections = page.locator("main section h2").all_inner_texts()
    for topic in ("deal", "crib", "starter", "play", "show", "29", "double", "flush",
                  "going out", "variants"):
        assert any(topic.lower() in s.lower() for s in sections), (topic, sections)
    for i in range(count):
        page.frame_locator(f"iframe.widget-frame >> nth={i}").locator(
            "#widget[data-state=ready]"
        ).wait_for()
    workers = {
        f.evaluate("() => document.documentElement.dataset.engineWorker")
        for f in page.frames
        if f != page.main_frame
    }
    assert len(workers) == 1, workers
    # the seeds' example hands and the 29 hand, from the tutorial's own widgets
    shown = [
        int(t)
        for f in page.frames
        if f != page.main_frame and "widget=hand" in f.url
        for t in f.locator(".total-points").all_inner_texts()
    ]
    assert {9, 12, 6, 29} <= set(shown), shown
    app.assert_same_origin(requests_seen)
    assert len([u for u in requests_seen if u.endswith("pyodide.asm.wasm")]) == 1


TUTORIAL_WORDS = {
    "es": ("Aprende cribbage", "La criba", "Alicia", "quince"),
    "ja": ("クリベッジを覚えよう", "クリブ", "アリス", "フィフティーン"),
}


def tutorial_language(page: Any, lang: str) -> None:
    """The tutorial, its switch and its widgets are all in ``lang``."""
    page.wait_for_selector(f"html[data-lang={lang}]")
    h1, crib, alice, fifteen = TUTORIAL_WORDS[lang]
    assert page.locator("h1").inner_text() == h1
    assert page.locator("#crib h2").inner_text() == crib
    assert page.locator("#language").input_value() == lang
    sources = page.locator("iframe.widget-frame").evaluate_all("els => els.map(e => e.src)")
    assert len(sources) == 17 and all(src.endswith(f"&lang={lang}") for src in sources)
    frame = page.frame_locator("#show iframe >> nth=1")
    frame.locator("#widget[data-state=ready]").wait_for()
    assert alice in frame.locator(".widget-title").inner_text()
    assert fifteen in frame.locator(".said").inner_text()
    assert CARD_NAME[lang].match(frame.locator(".card").first.get_attribute("aria-label"))


@pytest.mark.browser_context_args(locale="es-ES")
def test_tutorial_in_spanish_from_the_browser(page: Any) -> None:
    page.goto("/tutorial.html")
    tutorial_language(page, "es")
    assert page.evaluate("document.documentElement.lang") == "es"
    assert page.locator("#play .note").inner_text().startswith("El 6 de Alicia")


@pytest.mark.browser_context_args(locale="ja-JP")
def test_tutorial_in_japanese_and_the_switch_is_remembered(page: Any) -> None:
    page.goto("/tutorial.html")
    tutorial_language(page, "ja")
    with page.expect_navigation():  # the page loads again in the new language
        page.select_option("#language", "es")
    page.wait_for_selector("html[data-lang=es]")
    assert page.evaluate("localStorage.getItem('cribbage-lang')") == "es"
    page.reload()
    tutorial_language(page, "es")  # the stored choice wins over the Japanese browser
    with page.expect_navigation():
        page.select_option("#language", "en")
    page.wait_for_selector("html[data-lang=en]")
    page.reload()
    page.wait_for_selector("html[data-lang=en]")
    assert page.locator("h1").inner_text() == "Learn cribbage"


def test_table_header_links_the_tutorial(page: Any, app: Any) -> None:
    app.open()
    link = page.locator(".site-header a[href='./tutorial.html']")
    assert link.count() == 1
