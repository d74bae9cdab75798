#!/usr/bin/env python3
"""Build, serve and test the cribbage site (standard library only).

    python build.py                      assemble the static site in dist/
    python build.py serve [--port N] [--base /path/]
                                         build, then serve dist/ on 127.0.0.1 (under /path/)
    python build.py test [pytest args]   build, find a browser, run the whole suite

The work is done by the ``sitebuild`` package, one module per concern (its
docstring lists them); this file is only the command line.
"""

from __future__ import annotations

import argparse
import sys

from sitebuild.assemble import build
from sitebuild.browsers import run_tests
from sitebuild.common import BuildError
from sitebuild.serve import build_and_serve


def main(argv: list[str]) -> int:
    """Run the command in ``argv``; return the exit status."""
    parser = argparse.ArgumentParser(prog="build.py", description=(__doc__ or "").split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--base", default="/", help="the URL path to serve the site under, "
                       "as a host that puts it in a folder does (e.g. /games/cribbage/)")
    sub.add_parser(
        "test", help="build, find a browser and run the whole test suite", add_help=False
    )
    # Everything after "test" goes to pytest untouched, its own options included.
    if argv[:1] == ["test"]:
        command, rest = "test", argv[1:]
    else:
        ns = parser.parse_args(argv)
        command, rest = ns.command, []
    try:
        if command == "test":
            return run_tests(rest)
        if command == "serve":
            return build_and_serve(ns.port, ns.base)
        build()
        return 0
    except BuildError as error:
        print(f"build.py: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
