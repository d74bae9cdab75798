"""The peg board's module (web/views/pegboard.mjs, the one board of the table, the replay
viewer and the widgets) run in Node for the CPython tests: the module the pages run, as
they run it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

BOARD = Path(__file__).resolve().parents[1] / "web" / "views" / "pegboard.mjs"


def board(expression: str) -> Any:
    """The JSON value of a JavaScript ``expression`` over the board's module (``B``)."""
    script = (f"import * as B from {json.dumps(BOARD.as_uri())};\n"
              f"process.stdout.write(JSON.stringify({expression}));")
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True,
                          text=True, check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
