"""The command line (`python -m cribbage ...`): output, JSON and one-line errors."""

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return subprocess.run([sys.executable, "-m", "cribbage", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_score_prints_breakdown_and_json():
    result = run("score", "5S", "4S", "2S", "6H", "--starter", "5H")
    assert result.returncode == 0 and "total" in result.stdout and "12" in result.stdout
    assert "fifteen two, fifteen four" in result.stdout
    data = json.loads(run("score", "6D", "JH", "4H", "7C", "--starter", "5H", "--json").stdout)
    assert data["total"] == 9 and [i["kind"] for i in data["items"]][-1] == "nobs"


def test_score_and_peg_speak_the_language_asked_for():
    spanish = run("score", "5S", "4S", "2S", "6H", "--starter", "5H", "--lang", "es").stdout
    assert "Said: quince dos, quince cuatro" in spanish and "par de cincos" in spanish
    japanese = run("peg", "4S", "5S", "6H", "--lang", "ja").stdout
    assert "3枚のラン" in japanese
    refused = run("score", "5S", "4S", "2S", "6H", "--starter", "5H", "--lang", "xx")
    assert refused.returncode == 2 and "invalid choice" in refused.stderr


def test_score_crib_flag():
    data = json.loads(run("score", "2H", "4H", "6H", "8H", "--starter", "KS", "--crib",
                          "--json").stdout)
    assert data["total"] == 0


def test_peg():
    data = json.loads(run("peg", "JH", "5S", "7C", "6H", "--json").stdout)
    assert (data["count"], data["total"], data["items"][0]["kind"]) == (28, 3, "run")


def test_stats_json_matches_known_totals():
    data = json.loads(run("stats", "--json").stdout)
    assert sum(data["hand"].values()) == 12_994_800 and data["hand"]["29"] == 4
    assert data["crib"]["0"] == 1_022_208


@pytest.mark.parametrize("args", [
    ["score", "5S", "4S", "2S", "6X", "--starter", "5H"],
    ["score", "5S", "4S", "--starter", "5H"],
    ["score", "5S", "4S", "2S", "6H"],
    ["peg", "KS", "QS", "JS", "2S"],
    ["peg", "5S", "5S"],
    ["frobnicate"],
    [],
    ["advise", "5S", "4S", "--json"],
    ["advise"],
    ["advise", "5S", "4S", "2S", "8D", "6H", "8C", "--players", "5"],
    ["arena", "--games", "0"],
    ["arena", "--bogus"],
    ["arena", "--a", "grandmaster"],
    ["arena", "--counting", "sometimes"],
])
def test_errors_are_one_line_without_traceback(args):
    result = run(*args)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) <= 1 or args == []
    assert "usage:" not in result.stderr or args == []


@pytest.mark.parametrize("args", [
    ["advise", "5S", "4S", "2S", "8D", "6H", "8C", "--json"],
    ["advise", "5S", "4S", "2S", "8D", "6H", "8C"],
    ["score", "5S", "4S", "2S", "6H", "--starter", "5H", "--json"],
])
def test_output_into_a_closed_pipe_ends_quietly(args):
    """``python -m cribbage advise ... --json | head -c 10``: no BrokenPipeError traceback."""
    command = " ".join(shlex.quote(word) for word in [sys.executable, "-m", "cribbage", *args])
    result = subprocess.run(["sh", "-c", command + " | head -c 10"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert len(result.stdout) == 10
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr, result.stderr
