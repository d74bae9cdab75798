#!/usr/bin/env python3
"""Build, serve and test the cribbage site (standard library only).

    python build.py test [pytest args]   run the whole test suite
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def cmd_test(args: list[str]) -> int:
    """Run the whole suite with pytest."""
    return subprocess.call([sys.executable, "-m", "pytest", *args], cwd=ROOT)


def main(argv: list[str]) -> int:
    if argv[:1] == ["test"]:
        return cmd_test(argv[1:])
    print("usage: python build.py test [pytest args]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
