"""The documentation stays true: README.md and docs/*.md.

- docs/rules.md traces each rule to tests: every test it names must exist;
- every relative link and ``#anchor`` resolves (anchors as GitHub makes them
  from headings);
- the README stays short enough to read in five minutes;
- every repository file a doc names in backticks exists (a folder ``.gitignore``
  names, made by a tool, needs only the folder it is made in), and every command it
  shows exists: ``python build.py <sub>``, ``python -m cribbage <sub>``,
  ``python <file>.py``, each with options its parser defines;
- every test file (``tests/test_*.py``, ``tests/browser/test_*.py``) has its
  row in docs/testing.md, under its own folder's table.

Each check is a function returning the problems it found, run on the real
documents and, once, on a small document with a planted fault, so that a check
that found nothing because it looked at nothing would fail.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 260

REFERENCE = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.S | re.M)
INLINE_CODE = re.compile(r"`([^`]+)`")
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
# A path into the repository: a top-level folder of it, or a file at its root.
REPO_PATH = re.compile(
    r"^(?:(?:cribbage|web|sitebuild|bench|tests|tools|docs|\.ci)/[^\s`]*|build\.py|pyproject\.toml)$"
)
BARE_MODULE = re.compile(r"^[\w-]+\.py$")
COMMAND = re.compile(r"\bpython3?\s+(-m\s+cribbage|[\w./-]+\.py)((?:\s+[^\s#]+)*)")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _prose(text: str) -> str:
    """The text outside fenced code blocks and inline code."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def _code(text: str) -> Iterator[str]:
    """Every fenced block's lines and every inline code span."""
    for block in FENCE.finditer(text):
        yield from block.group(0).splitlines()[1:-1]
    yield from INLINE_CODE.findall(FENCE.sub("", text))


# --- anchors and links --------------------------------------------------------------


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: its text lowercased, punctuation dropped,
    spaces to hyphens.

    >>> github_anchor("What your page's policy must allow")
    'what-your-pages-policy-must-allow'
    >>> github_anchor("What `dist/` holds")
    'what-dist-holds'
    >>> github_anchor("Tried, not shipped")
    'tried-not-shipped'
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = text.replace("`", "").replace("*", "").lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a document's headings make (repeats get -1, -2, …, as on GitHub)."""
    seen: dict[str, int] = {}
    found = set()
    for _, title in HEADING.findall(FENCE.sub("", text)):
        anchor = github_anchor(title)
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        found.add(anchor if count == 0 else f"{anchor}-{count}")
    return found


def broken_links(doc: Path, text: str) -> list[str]:
    """Relative links in ``text`` (the document ``doc``) whose file or anchor is missing."""
    problems = []
    for target in LINK.findall(_prose(text)):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve()
        if path and (not file.exists() or ROOT not in file.parents):
            problems.append(f"{doc.name}: {target}: no such file")
        elif anchor and anchor not in anchors(_text(file) if path else text):
            problems.append(f"{doc.name}: {target}: no heading makes #{anchor}")
    return problems


# --- files and commands named -------------------------------------------------------


@cache
def _generated() -> frozenset[str]:
    """The folders ``.gitignore`` names by their path (``tests/browser/firefox/node_modules``):
    made by a tool, so a fresh clone has none of them."""
    lines = _text(ROOT / ".gitignore").splitlines()
    return frozenset(line.strip().strip("/") for line in lines
                     if "/" in line.strip().strip("/") and not line.startswith("#"))


def _exists(name: str) -> bool:
    """A repository path exists (``<placeholder>`` and ``*`` match any part of a name).
    A generated folder (or a path inside one) needs only the folder it is made in."""
    name = name.rstrip("/.,;:")
    if "<" in name or "*" in name:
        pattern = re.sub(r"<[^>]*>", "*", name)
        return any(True for _ in ROOT.glob(pattern))
    for folder in _generated():
        if name == folder or name.startswith(folder + "/"):
            return (ROOT / folder).parent.is_dir()
    return (ROOT / name).exists()


@cache
def _modules() -> frozenset[str]:
    """The names of every Python file in the repository's own folders."""
    folders = ("cribbage", "web", "sitebuild", "bench", "tests", "tools")
    return frozenset(p.name for folder in folders for p in (ROOT / folder).rglob("*.py"))


def missing_files(doc: Path, text: str) -> list[str]:
    """Backticked repository paths (and bare module names) that no file matches."""
    problems = []
    for span in INLINE_CODE.findall(FENCE.sub("", text)):
        name = span.split("::")[0].strip()
        if REPO_PATH.match(name):
            if not _exists(name):
                problems.append(f"{doc.name}: `{span}`: no such file")
        elif BARE_MODULE.match(name) and name not in _modules():
            problems.append(f"{doc.name}: `{span}`: no such module in the repository")
    return problems


def _options(path: Path) -> set[str]:
    """Every ``--option`` string a Python file's source holds (its parsers' options)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value.startswith("--")}


@cache
def _build_commands() -> frozenset[str]:
    """The subcommands ``build.py``'s parser defines."""
    tree = ast.parse((ROOT / "build.py").read_text(encoding="utf-8"))
    return frozenset(
        node.args[0].value for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_parser"
        and node.args and isinstance(node.args[0], ast.Constant)
    )


@cache
def _cli_commands() -> frozenset[str]:
    """The subcommands ``python -m cribbage`` runs: those ``_run`` compares ``command``
    with and the keys of its table of handlers."""
    tree = ast.parse((ROOT / "cribbage" / "__main__.py").read_text(encoding="utf-8"))
    run = next(node for node in tree.body
               if isinstance(node, ast.FunctionDef) and node.name == "_run")
    names = set()
    for node in ast.walk(run):
        if isinstance(node, ast.Compare) and getattr(node.left, "id", "") == "command":
            names |= {c.value for c in node.comparators if isinstance(c, ast.Constant)}
        if isinstance(node, ast.Dict):
            names |= {k.value for k in node.keys if isinstance(k, ast.Constant)}
    return frozenset(names)


@cache
def _cli_options() -> frozenset[str]:
    return frozenset(o for p in (ROOT / "cribbage").glob("*.py") for o in _options(p))


def bad_commands(doc: Path, text: str) -> list[str]:
    """Commands shown in code that name a missing script, subcommand or option."""
    problems = []
    for line in _code(text):
        for program, rest in COMMAND.findall(line):
            words = rest.split()
            sub = words[0] if words and re.match(r"^[a-z][\w-]*$", words[0]) else None
            flags = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", rest))
            if program.startswith("-m"):
                if sub not in _cli_commands():
                    problems.append(f"{doc.name}: `python -m cribbage {sub}`: no such command")
                flags -= _cli_options()
            elif not (ROOT / program).is_file():
                problems.append(f"{doc.name}: `python {program}`: no such file")
                continue
            elif program == "build.py":
                if sub is not None and sub not in _build_commands():
                    problems.append(f"{doc.name}: `python build.py {sub}`: no such command")
                flags = set() if sub == "test" else flags - _options(ROOT / program)
            else:
                flags -= _options(ROOT / program)
            problems += [f"{doc.name}: `python {program.strip()}`: no option {flag}"
                         for flag in sorted(flags)]
    return problems


# --- the test files listed -----------------------------------------------------------


def unlisted_tests(text: str) -> list[str]:
    """Test files that docs/testing.md (``text``) does not name in backticks: those of
    ``tests/`` before its "**The site**" part, those of ``tests/browser/`` after it."""
    engine, _, site = text.partition("**The site**")
    problems = []
    for folder, part in ((ROOT / "tests", engine), (ROOT / "tests" / "browser", site)):
        named = set(INLINE_CODE.findall(FENCE.sub("", part)))
        problems += [f"{path.relative_to(ROOT)}: not in docs/testing.md"
                     for path in sorted(folder.glob("test_*.py")) if path.name not in named]
    return problems


# --- the tests ----------------------------------------------------------------------


def test_every_test_named_in_the_rules_document_exists() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    named = REFERENCE.findall(text)
    assert len(named) > 40
    for path, function in named:
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert function in defined, f"{path}::{function}"


def test_every_rule_is_numbered_and_traced() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    rules = re.split(r"\n(?=\d{1,2}\. \*\*)", text)
    numbers = [int(part.split(".")[0]) for part in rules[1:]]
    assert numbers == list(range(1, 22))
    for part in rules[1:]:
        assert "Tests:" in part, part[:40]


def test_the_readme_is_short() -> None:
    lines = _text(ROOT / "README.md").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines (at most {README_MAX_LINES})"


def test_every_test_file_is_described() -> None:
    assert unlisted_tests(_text(ROOT / "docs" / "testing.md")) == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_link_and_anchor_resolves(doc: Path) -> None:
    assert broken_links(doc, _text(doc)) == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_file_named_exists(doc: Path) -> None:
    assert missing_files(doc, _text(doc)) == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_command_shown_exists(doc: Path) -> None:
    assert bad_commands(doc, _text(doc)) == []


def test_the_docs_are_checked_at_all() -> None:
    """The checks above see the documents' links, paths and commands (not nothing)."""
    texts = {doc: _text(doc) for doc in DOCS}
    links = sum(len(LINK.findall(_prose(t))) for t in texts.values())
    paths = sum(1 for t in texts.values() for s in INLINE_CODE.findall(t) if REPO_PATH.match(s))
    commands = sum(len(COMMAND.findall(line)) for t in texts.values() for line in _code(t))
    assert len(DOCS) >= 10 and links >= 50 and paths >= 100 and commands >= 30, (
        len(DOCS), links, paths, commands)


PLANTED = """# A doc

## Known heading

[fine](#known-heading) [fine too](docs/rules.md#the-play) [gone](#unknown-heading)
[no file](docs/nowhere.md) [no anchor](docs/rules.md#no-such-rule)
![no picture](docs/nowhere.png) [elsewhere](https://example.org/x#y)
`cribbage/game.py` `cribbage/nowhere.py` `web/lang/<part>.<code>.json` `web/lang/<x>.xx.json`
`tests/test_game.py::test_x` `tablegame.py` `nowhere.py`
`tests/browser/firefox/node_modules/` `tests/browser/firefox/node_module/`
`tests/browser/nowhere/node_modules/`

```sh
python build.py serve --port 8000
python build.py deploy
python build.py serve --host x
python -m cribbage score 5S 4S 2S 6H --starter 5H
python -m cribbage shuffle
python -m cribbage arena --a expert --nonsense
python bench/page_load.py --rounds 7 --markdown
python bench/page_speed.py
python bench/page_move.py --turbo
```
"""


def test_each_check_finds_a_planted_fault() -> None:
    doc = ROOT / "README.md"
    assert broken_links(doc, PLANTED) == [
        "README.md: #unknown-heading: no heading makes #unknown-heading",
        "README.md: docs/nowhere.md: no such file",
        "README.md: docs/rules.md#no-such-rule: no heading makes #no-such-rule",
        "README.md: docs/nowhere.png: no such file",
    ]
    assert missing_files(doc, PLANTED) == [
        "README.md: `cribbage/nowhere.py`: no such file",
        "README.md: `web/lang/<x>.xx.json`: no such file",
        "README.md: `nowhere.py`: no such module in the repository",
        "README.md: `tests/browser/firefox/node_module/`: no such file",
        "README.md: `tests/browser/nowhere/node_modules/`: no such file",
    ]
    assert bad_commands(doc, PLANTED) == [
        "README.md: `python build.py deploy`: no such command",
        "README.md: `python build.py`: no option --host",
        "README.md: `python -m cribbage shuffle`: no such command",
        "README.md: `python -m cribbage`: no option --nonsense",
        "README.md: `python bench/page_speed.py`: no such file",
        "README.md: `python bench/page_move.py`: no option --turbo",
    ]


def test_an_unlisted_test_file_is_found() -> None:
    """A row renamed, and a browser file named only in the engine's table, are found."""
    text = _text(ROOT / "docs" / "testing.md")
    assert unlisted_tests(text.replace("`test_serve.py`", "`test_serving.py`")) == [
        "tests/test_serve.py: not in docs/testing.md"]
    engine, _, _ = text.partition("**The site**")
    missing = unlisted_tests(engine + "**The site** `test_tabs.py` is elsewhere")
    assert "tests/browser/test_pyscript.py: not in docs/testing.md" in missing
    assert "tests/browser/test_tabs.py: not in docs/testing.md" not in missing
    assert "tests/test_serve.py: not in docs/testing.md" not in missing
