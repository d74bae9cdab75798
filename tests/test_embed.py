"""CPython tests of the widgets' non-browser parts: the URL-parameter parser
(web/embed-params.mjs, run under Node, its messages rendered with the
catalogue of each language as build.py merges it), the language helpers
(web/lang.mjs) and the stateless protocol calls the widgets use
(cribbage.protocol: show_score, peg_sequence, deal_steps, each with a
``lang``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cribbage.protocol import Session

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
session = Session()

NODE_SCRIPT = """
import { parseWidget } from %s;
import { Catalogue, chooseLanguage, language } from %s;
const [cases, entries, tags] = JSON.parse(process.argv[1]);
const words = new Catalogue("xx", entries);
const out = cases.map((q) => {
  try { return { ok: parseWidget(q) }; }
  catch (e) { return { error: words.message(e), type: e.constructor.name }; }
});
const langs = tags.map((tag) => [language(tag), chooseLanguage([tag])]);
console.log(JSON.stringify({ out, langs, card: words.cardName("QH") }));
"""


def catalogue(lang: str) -> dict:
    """``lang``'s words as build.py merges them: the engine's and the widgets'."""
    entries = json.loads((ROOT / "cribbage" / "lang" / f"{lang}.json").read_text("utf-8"))
    entries.update(json.loads((ROOT / "web" / "lang" / f"widgets.{lang}.json").read_text("utf-8")))
    return entries


def run_node(queries: list[str], lang: str = "en", tags: list[str] | None = None) -> dict:
    if shutil.which("node") is None:
        pytest.skip("node is needed to run the widget parameter parser")
    # The site is served flat (web/<role>/<file> becomes /<file>), so the modules'
    # relative imports hold only side by side: copy them into one folder first.
    flat = Path(tempfile.mkdtemp(prefix="cribbage-widgets-"))
    for source in (WEB / "widgets" / "embed-params.mjs", WEB / "boot" / "lang.mjs"):
        shutil.copy(source, flat / source.name)
    modules = [json.dumps((flat / name).as_uri()) for name in ("embed-params.mjs", "lang.mjs")]
    done = subprocess.run(
        ["node", "--input-type=module", "-e", NODE_SCRIPT % tuple(modules),
         json.dumps([queries, catalogue(lang), tags or []])],
        capture_output=True, text=True, check=True,
    )
    return json.loads(done.stdout)


def parse_all(queries: list[str], lang: str = "en") -> list[dict]:
    return run_node(queries, lang)["out"]


def test_good_parameters() -> None:
    hand, peg, deal = parse_all([
        "?widget=hand&hand=5s,4S,2♠,10H&starter=5H&crib=1",
        "widget=peg&cards=JH 5S go 7C&names=Bob,Alice",
        "widget=deal&dealer=1&hands=5S4S2S8D6H8C|TS6DJH4HKC7C&discards=8D8C|TSKC&starter=5H",
    ])
    assert hand["ok"]["hand"] == ["5S", "4S", "2S", "TH"] and hand["ok"]["crib"] is True
    assert peg["ok"]["cards"] == ["JH", "5S", "go", "7C"] and peg["ok"]["names"] == ["Bob", "Alice"]
    assert deal["ok"]["hands"][1] == ["TS", "6D", "JH", "4H", "KC", "7C"]
    assert deal["ok"]["discards"] == [["8D", "8C"], ["TS", "KC"]] and deal["ok"]["dealer"] == 1


@pytest.mark.parametrize(("query", "message"), [
    ("widget=hand&hand=5S,4S,2S,5S&starter=5H", "twice"),
    ("widget=hand&hand=5S,4S,2S,6H&starter=<script>", "not a card"),
    ("widget=hand&hand=5S,4S,2S,6H&starter=5H&title=<b>x</b>", "markup"),
    ("widget=hand&hand=5S,4S,2S,6H&starter=5H&crib=2", "0 or 1"),
    ("widget=peg&cards=" + ",".join(["5S"] * 10_000), "too long"),
    ("widget=peg&cards=AS&players=99999999999", "number of players"),
    ("widget=deal&hands=5S4S2S8D6H8C&starter=5H", "2 groups"),
    ("widget=hand&x=1", "Unknown parameter"),
])
def test_bad_parameters(query: str, message: str) -> None:
    (result,) = parse_all([query])
    assert result.get("type") == "WidgetError", result
    assert message.lower() in result["error"].lower()


def test_lang_parameter_is_ours_or_english() -> None:
    """Absent: null (the widget follows the browser); ours (any case, with a region):
    that language; anything else, however hostile, English, and never echoed."""
    queries = ["widget=hand&hand=5S,4S,2S,6H&starter=5H" + extra for extra in (
        "", "&lang=es", "&lang=JA-jp", "&lang=fr", "&lang=%3Cscript%3Ealert(1)%3C/script%3E",
        "&lang=../../x", "&lang=" + "e" * 10_000)]
    out = parse_all(queries)
    langs = [case.get("ok", {}).get("lang") for case in out]
    assert langs[:6] == [None, "es", "ja", "en", "en", "en"]
    assert "too long" in out[6]["error"]  # the query's length, said in English


def test_language_choice_matches_cribbage_i18n() -> None:
    from cribbage import i18n

    tags = ["ja-JP", "es_MX", "EN", "fr-FR", "", "<b>", "x" * 100]
    langs = run_node([], tags=tags)["langs"]
    assert [choice for _, choice in langs] == [i18n.choose_language([t]) for t in tags]
    assert [lang for lang, _ in langs] == ["ja", "es", "en", None, None, None, None]


@pytest.mark.parametrize(("lang", "message", "card"), [
    ("es", "La mano necesita 4 cartas, no 3.", "reina de corazones"),
    ("ja", "手札にはカードが4枚必要です（3枚ではなく）。", "ハートのクイーン"),
])
def test_messages_and_card_names_in_each_language(lang: str, message: str, card: str) -> None:
    result = run_node(["widget=hand&hand=5S,4S,2S&starter=5H"], lang)
    assert result["out"][0]["error"] == message
    assert result["card"] == card


def test_every_message_key_is_in_every_language() -> None:
    """Each key the parser can raise exists in the widgets' catalogue of every language."""
    import re

    source = (WEB / "widgets" / "embed-params.mjs").read_text("utf-8")
    keys = set(re.findall(r'"(widget\.[a-z_.]+)"', source))
    keys |= {"widget.what." + k for k in re.findall(r'noun\("([a-z_]+)"', source)}
    keys |= {f"widget.error.{k}" for k in ("needs", "needs_one", "needs_at_least")}
    for lang in ("en", "es", "ja"):
        assert keys <= set(catalogue(lang)), (lang, keys - set(catalogue(lang)))


def call(name: str, payload: dict) -> dict:
    return json.loads(session.call(name, json.dumps(payload)))


def test_show_score_has_cadence_and_texts() -> None:
    reply = call("show_score", {"hand": ["5C", "5D", "5H", "JS"], "starter": "5S"})
    assert reply["result"]["total"] == 29
    assert reply["result"]["said"].endswith("his nobs is twenty-nine")
    # The itemised list the table's show writes beside the hand.
    assert reply["result"]["tally"] == "15 for 2 ×8 · double pair royal 12 · his nobs 1 = 29"
    assert reply["result"]["items"][-1]["cards"] == ["JS", "5S"]  # his nobs: jack and starter
    assert call("show_score", {"hand": ["5C", "5C", "5H", "JS"], "starter": "5S"})["ok"] is False


def test_peg_sequence_seed_example_and_errors() -> None:
    result = call("peg_sequence", {"cards": "JH 5S 7C 6H go 2S 6D 4S 4H".split()})["result"]
    assert result["scores"] == [3, 6] and result["complete"]
    assert call("peg_sequence", {"cards": ["go"]})["error"]["kind"] == "bad-request"
    assert call("peg_sequence", {"cards": ["5S"] * 100})["ok"] is False
    thirty_one = call("peg_sequence", {"cards": ["KS", "QH", "5C", "6D", "7C"]})["result"]
    assert thirty_one["steps"][3]["reset"] and thirty_one["steps"][4]["count"] == 7


@pytest.mark.parametrize(("lang", "said", "text"), [
    ("es", "y el nobs son veintinueve", "nobs (jota del palo del corte)"),
    ("ja", "ノブスで29", "ノブス"),
])
def test_show_score_speaks_the_language(lang: str, said: str, text: str) -> None:
    result = call("show_score", {"hand": ["5C", "5D", "5H", "JS"], "starter": "5S",
                                 "lang": lang})["result"]
    assert result["total"] == 29 and result["said"].endswith(said)
    assert result["items"][-1]["text"] == text


def test_peg_and_deal_speak_the_language() -> None:
    peg = call("peg_sequence", {"cards": "JH 5S 7C 6H".split(), "lang": "es"})["result"]
    assert [s["reasons"] for s in peg["steps"]] == ["", "quince 2", "", "escalera 3"]
    steps = call("deal_steps", {
        "dealer": 0, "hands": ["5S 4S 2S 8D 6H 8C".split(), "TS 6D JH 4H KC 7C".split()],
        "starter": "5H", "discards": [["8D", "8C"], ["TS", "KC"]], "names": ["Alicia", "Pepe"],
        "play": "JH 5S 7C 6H 2S 6D 4S 4H".split(), "lang": "ja"})["result"]["steps"]
    assert steps[0]["title"] == "第1ディール：ディーラーはAlicia"
    assert steps[1]["title"] == "Pepeがクリブに捨て札"
    shows = [s for s in steps if s["show"]]
    assert shows[0]["title"].startswith("Pepeの手札")
    assert shows[0]["lines"] == [shows[0]["show"]["said"]]
    assert "フィフティーン2" in shows[0]["show"]["said"]


@pytest.mark.parametrize("lang", ["fr", "<script>", 3, None, ["es"]])
def test_bad_lang_is_a_clear_error(lang: object) -> None:
    """Callers other than the widgets get a bad-request naming the languages (documented)."""
    for name, payload in [("show_score", {"hand": ["5S", "4S", "2S", "6H"], "starter": "5H"}),
                          ("peg_sequence", {"cards": ["5S"]})]:
        reply = call(name, {**payload, "lang": lang})
        assert reply["error"]["kind"] == "bad-request"
        assert "en, es, ja" in reply["error"]["message"]
    names = call("deal_steps", {"dealer": 0, "hands": [["5S"], ["6S"]], "starter": "5H",
                                "names": ["<b>" * 20, "x"]})
    assert names["error"]["kind"] == "bad-request" and "'names'" in names["error"]["message"]


def test_deal_steps_is_stateless() -> None:
    call("new_game", {"seed": 3, "first_dealer": 0})
    before = session.call("save")
    steps = call("deal_steps", {
        "dealer": 0, "hands": ["5S 4S 2S 8D 6H 8C".split(), "TS 6D JH 4H KC 7C".split()],
        "starter": "5H", "discards": [["8D", "8C"], ["TS", "KC"]],
        "play": "JH 5S 7C 6H 2S 6D 4S 4H".split(), "scores": [110, 112],
    })["result"]["steps"]
    assert steps[-1]["scores"][1] >= 121 and steps[-1]["show"]["total"] == 9  # Bob goes out
    assert session.call("save") == before
    bad = call("deal_steps", {"dealer": 0, "hands": [["5S"], ["6S"]], "starter": "5H"})
    assert bad["ok"] is False


LINK_SCRIPT = """
import { linkedLanguage, withoutLinkedLanguage } from %s;
console.warn = () => {};
const [queries] = JSON.parse(process.argv[1]);
console.log(JSON.stringify({
  langs: queries.map((q) => linkedLanguage(q)),
  href: withoutLinkedLanguage("https://example.org/?speed=0&lang=ja#x"),
}));
"""


def test_a_link_chooses_the_tables_language_or_nothing() -> None:
    """``?lang=`` on the table: ours (any case, with a region) or null (then the stored
    choice and the browser decide), never English by default and never echoed."""
    if shutil.which("node") is None:
        pytest.skip("node is needed to run lang.mjs")
    queries = ["", "?speed=0", "?lang=ja", "?lang=ES-mx&speed=0", "?lang=fr",
               "?lang=%3Cscript%3E", "?lang=" + "j" * 5000]
    done = subprocess.run(
        ["node", "--input-type=module", "-e",
         LINK_SCRIPT % json.dumps((WEB / "boot" / "lang.mjs").as_uri()), json.dumps([queries])],
        capture_output=True, text=True, check=True,
    )
    result = json.loads(done.stdout)
    assert result["langs"] == [None, None, "ja", "es", None, None, None]
    assert result["href"] == "https://example.org/?speed=0#x"
