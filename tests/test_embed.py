"""CPython tests of the widgets' non-browser parts: the URL-parameter parser
(web/embed-params.mjs, run under Node) and the stateless protocol calls the
widgets use (web/engine_worker.py: show_score, peg_sequence, deal_steps)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location(
    "embed_engine_worker", ROOT / "web" / "engine_worker.py")
assert spec and spec.loader
worker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(worker)

NODE_SCRIPT = """
import { parseWidget } from %s;
const cases = JSON.parse(process.argv[1]);
const out = cases.map((q) => {
  try { return { ok: parseWidget(q) }; }
  catch (e) { return { error: e.message, type: e.constructor.name }; }
});
console.log(JSON.stringify(out));
"""


def parse_all(queries: list[str]) -> list[dict]:
    if shutil.which("node") is None:
        pytest.skip("node is needed to run the widget parameter parser")
    module = json.dumps((ROOT / "web" / "embed-params.mjs").as_uri())
    done = subprocess.run(
        ["node", "--input-type=module", "-e", NODE_SCRIPT % module, json.dumps(queries)],
        capture_output=True, text=True, check=True,
    )
    return json.loads(done.stdout)


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
    ("widget=hand&hand=5S,4S,2S,6H&starter=5H&lang=fr", "language"),
])
def test_bad_parameters(query: str, message: str) -> None:
    (result,) = parse_all([query])
    assert result.get("type") == "WidgetError", result
    assert message.lower() in result["error"].lower()


def call(name: str, payload: dict) -> dict:
    return json.loads(getattr(worker, name)(json.dumps(payload)))


def test_show_score_has_cadence_and_texts() -> None:
    reply = call("show_score", {"hand": ["5C", "5D", "5H", "JS"], "starter": "5S"})
    assert reply["result"]["total"] == 29
    assert reply["result"]["said"].endswith("his nobs is twenty-nine")
    assert call("show_score", {"hand": ["5C", "5C", "5H", "JS"], "starter": "5S"})["ok"] is False


def test_peg_sequence_seed_example_and_errors() -> None:
    result = call("peg_sequence", {"cards": "JH 5S 7C 6H go 2S 6D 4S 4H".split()})["result"]
    assert result["scores"] == [3, 6] and result["complete"]
    assert call("peg_sequence", {"cards": ["go"]})["error"]["kind"] == "bad-request"
    assert call("peg_sequence", {"cards": ["5S"] * 100})["ok"] is False
    thirty_one = call("peg_sequence", {"cards": ["KS", "QH", "5C", "6D", "7C"]})["result"]
    assert thirty_one["steps"][3]["reset"] and thirty_one["steps"][4]["count"] == 7


def test_deal_steps_is_stateless() -> None:
    worker.new_game(json.dumps({"seed": 3, "first_dealer": 0}))
    before = worker.save("{}")
    steps = call("deal_steps", {
        "dealer": 0, "hands": ["5S 4S 2S 8D 6H 8C".split(), "TS 6D JH 4H KC 7C".split()],
        "starter": "5H", "discards": [["8D", "8C"], ["TS", "KC"]],
        "play": "JH 5S 7C 6H 2S 6D 4S 4H".split(), "scores": [110, 112],
    })["result"]["steps"]
    assert steps[-1]["scores"][1] >= 121 and steps[-1]["show"]["total"] == 9  # Bob goes out
    assert worker.save("{}") == before
    bad = call("deal_steps", {"dealer": 0, "hands": [["5S"], ["6S"]], "starter": "5H"})
    assert bad["ok"] is False
