#!/usr/bin/env bash
# The README's first command as a new user runs it: in a virtual environment made from
# the stock interpreter (its own pip and setuptools, nothing added), `python build.py`
# builds dist/ and `python build.py serve` answers on a free port. Run by .ci/run
# before anything is installed; by hand: bash tests/fresh_machine.sh
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$(mktemp -d)/venv"
python -m venv "$venv"
fresh="$venv/bin/python"
"$fresh" -m pip list --disable-pip-version-check --format=freeze
"$fresh" build.py
log="$(mktemp)"
"$fresh" build.py serve --port 0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$(dirname "$venv")" "$log"' EXIT
for _ in $(seq 1 240); do
    url="$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" | head -n 1 || true)"
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$log"; echo "serve stopped"; exit 1; }
    sleep 1
done
[ -n "$url" ] || { cat "$log"; echo "serve never said where it serves"; exit 1; }
"$fresh" - "$url" <<'PY'
import sys, urllib.request
url = sys.argv[1]
for path in ("", "embed.json", "cribbage-0.1.0-py3-none-any.whl"):
    with urllib.request.urlopen(url + path, timeout=30) as response:
        assert response.status == 200, (path, response.status)
        assert response.headers["Access-Control-Allow-Origin"] == "*", path
print(f"fresh machine: python build.py serve answers at {url}")
PY
