"""Write tests/fixtures/saves/: what older commits of the table kept in localStorage.

Each fixture is made by the code of the commit it names, run once under CPython:
``git archive`` extracts that commit's ``cribbage/`` and ``web/`` into a temporary
folder, and a recipe run there plays a seeded game through that commit's own
engine entry points (the worker's functions, later the protocol's ``Session``) and
writes the settings, the save envelope and the other keys the way that commit's
table did (its ``shell.settings_from_form``, ``tableview.save_envelope``,
``statsview``). The fixture is ``{"commit", "date", "what", "storage": {key: text}}``.

    python tools/make_old_saves.py          # writes every fixture again

The fixtures are committed; tests/test_old_saves.py and a browser test load them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "fixtures" / "saves"

# Shared by the recipes: play the seats as computers (through ``move(level)``) until
# ``stop(update)`` says so; each recipe defines ``move``, ``stop`` and what to write.
PLAY = """
def play(first, move, stop, limit=400):
    update = first
    for _ in range(limit):
        if stop(update):
            return update
        update = move()
    raise SystemExit("the game never reached the point to save at")
"""

# The recipes over the protocol's Session: ``call(name, payload)``'s result.
SESSION_CALLS = """
session = Session()
def call(name, payload):
    reply = json.loads(session.call(name, json.dumps(payload)))
    assert reply["ok"], reply
    return reply["result"]
"""

# The first table (web/main.py over the worker's functions in web/engine_worker.py).
FIRST_TABLE = PLAY + """
import json, sys
sys.path[:0] = ["web", "."]
import engine_worker as worker, shell, tableview

def call(function, payload):
    reply = json.loads(function(json.dumps(payload)))
    assert reply["ok"], reply
    return reply["result"]

values = {"players": "2", "target": "121", "level": "easy", "level2": "easy",
          "level3": "easy", "counting": "automatic", "skunk": "acc", "exact_finish": False,
          "speed": "0.5", "start": ""}
settings = shell.settings_from_form(values)
call(worker.new_game, {"rules": settings["rules"], "seed": 290001})
def move():
    return call(worker.computer_move, {"level": "easy"})
def stop(update):
    return update.get("phase") == "play" and len(update.get("events", [])) and (
        call(worker.view, {"seat": 0})["count"] > 0)
play({}, move, stop)
game = call(worker.save, {})["save"]
print(json.dumps({"cribbage.settings": json.dumps(values),
                  "cribbage.save": tableview.save_envelope(settings, game),
                  "cribbage.tally": json.dumps({"won": 2, "lost": 1})}))
"""

# The table as a component over the protocol's Session: three players, manual counting
# with muggins in the play, a take-back (setup.undos), the statistics of that commit.
SESSION_TABLE = PLAY + """
import json, sys
sys.path[:0] = ["web/views", "web/table", "."]
from cribbage.protocol import Session
import cribbage.protocol
import shell, statsview, tableview

# This commit's computers drew their seed from the system: seeded here, so that the
# fixture is the same at every run (the save's format does not depend on it).
unseeded = cribbage.protocol.make_player
cribbage.protocol.make_player = lambda level, seed=None: unseeded(level, 300002)
""" + SESSION_CALLS + """
hello = call("hello", {})
values = {"players": "3", "target": "121", "level": "expert", "level2": "beginner",
          "level3": "standard", "counting": "pegging", "skunk": "lurch",
          "exact_finish": True, "review": True, "speed": "1", "start": ""}
settings = shell.settings_from_form(values, hello)
first = call("new_game", {"rules": settings["rules"], "seat": 0, "proof": True,
                          "seed": 300002})
events = []
def move():
    seat = game_view()["current_player"]
    level = tableview.computer_level(settings, seat if seat is not None else 1)
    update = call("computer_move", {"level": level, "seat": 0, "events_from": 0})
    return update
def game_view():
    return call("view", {"seat": 0})
def stop(update):
    view = game_view()
    return view["phase"] == "play" and len(view["hand"]) == 3 and view["current_player"] == 0
play(first, move, stop)
call("apply_move", {"move": "play " + game_view()["hand"][0], "seat": 0})
back = call("undo", {"seat": 0, "events_from": 0})
save = call("save", {})["save"]
assert json.loads(save)["setup"].get("undos") == 1, save
view = call("view", {"seat": 0})
stats = statsview.new_stats()
statsview.add_deal(stats, "old-game", 1, view["events"], 0)
print(json.dumps({"cribbage.settings": json.dumps(values),
                  "cribbage.save": tableview.save_envelope(settings, save),
                  "cribbage.stats": json.dumps(stats),
                  "cribbage.tally": json.dumps({"won": 0, "lost": 3})}))
"""

# Pass-and-play (seats with names, the viewer kept, statistics per name) and the
# five-card variant, just after both were merged.
PASS_AND_PLAY = PLAY + """
import json, sys
sys.path[:0] = ["web/views", "web/table", "."]
from cribbage.protocol import Session
import handoffview, shell, statsview, tableview

""" + SESSION_CALLS + """
hello = call("hello", {})
values = {"players": "4", "target": "121", "cards": "6", "who0": "person", "name0": "Ana",
          "who1": "computer", "name1": "", "who2": "person", "name2": "Bo",
          "who3": "computer", "name3": "", "level": "standard", "level2": "easy",
          "level3": "expert", "counting": "automatic", "skunk": "acc", "exact_finish": False,
          "review": False, "auto_go": True, "four_colour": True, "large_cards": False,
          "sounds": False, "speed": "0", "start": ""}
settings = shell.settings_from_form(values, hello)
settings["seats"] = handoffview.seats_from_form(values, 4)
first = call("new_game", {"rules": settings["rules"], "seat": 0, "proof": True,
                          "seed": 310003})
def move():
    seat = call("view", {"seat": 0})["current_player"]
    level = tableview.computer_level(settings, seat if seat is not None else 1)
    return call("computer_move", {"level": level,
                                  "seat": 0, "events_from": 0})
def stop(update):
    view = call("view", {"seat": 2})
    return view["phase"] == "discard" and view["current_player"] == 2
play(first, move, stop)
call("hand_off", {"seat": 2, "events_from": 0})
save = call("save", {})["save"]
ana, bo = statsview.new_stats(), statsview.new_stats()
ana["levels"]["mixed"] = [1, 0]
bo["levels"]["mixed"] = [0, 1]
storage = {"cribbage.settings": json.dumps(values),
           "cribbage.save": tableview.save_envelope(settings, save),
           "cribbage.viewer": "2",
           "cribbage.stats:Ana": json.dumps(ana), "cribbage.stats:Bo": json.dumps(bo),
           "cribbage.stats.books": json.dumps(["Ana", "Bo"])}

five = Session()
values5 = {"players": "2", "target": "61", "cards": "5", "level": "expert",
           "counting": "manual", "skunk": "none", "speed": "1"}
settings5 = shell.settings_from_form(values5, hello)
settings5["seats"] = handoffview.seats_from_form(values5, 2)
session = five
call("new_game", {"rules": settings5["rules"], "seat": 0, "seed": 310004})
for _ in range(6):
    call("computer_move", {"level": "expert"})
print(json.dumps({"pass_and_play": storage, "five_cards": {
    "cribbage.settings": json.dumps(values5),
    "cribbage.save": tableview.save_envelope(settings5, call("save", {})["save"])}}))
"""

RECIPES = [
    ("9cc3b33", FIRST_TABLE, {"first_table": "the first table: two players, mid-play, "
                              "the match tally"}),
    ("4283b96", SESSION_TABLE, {"manual_pegging": "three players, manual counting with "
                                "muggins in the play, a take-back, statistics before "
                                "results, hands and accuracy"}),
    ("f56b293", PASS_AND_PLAY, {"pass_and_play": "four players, two people with names, "
                                "the viewer and statistics per name",
                                "five_cards": "the five-card game to 61, manual counting"}),
]


def extract(commit: str, into: Path) -> None:
    """``commit``'s cribbage/ and web/ under ``into``."""
    archive = subprocess.run(["git", "archive", commit, "cribbage", "web"], cwd=ROOT,
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def run(commit: str, recipe: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        extract(commit, Path(folder))
        done = subprocess.run([sys.executable, "-c", recipe], cwd=folder,
                              capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{commit}: the recipe failed:\n{done.stderr}")
    return dict(json.loads(done.stdout))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for commit, recipe, names in RECIPES:
        made = run(commit, recipe)
        date = subprocess.run(["git", "log", "-1", "--format=%cs", commit], cwd=ROOT,
                              check=True, capture_output=True, text=True).stdout.strip()
        for name, what in names.items():
            storage = made if len(names) == 1 else made[name]
            fixture = {"commit": commit, "date": date, "what": what, "storage": storage}
            path = OUT / f"{name}.json"
            path.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n")
            print(f"{path.relative_to(ROOT)}: {commit} ({date}), {len(storage)} keys")


if __name__ == "__main__":
    main()
