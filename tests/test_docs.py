"""docs/rules.md traces each rule to tests: every test it names must exist."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def test_every_test_named_in_the_rules_document_exists():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    named = REFERENCE.findall(text)
    assert len(named) > 40
    for path, function in named:
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert function in defined, f"{path}::{function}"


def test_every_rule_is_numbered_and_traced():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    rules = re.split(r"\n(?=\d{1,2}\. \*\*)", text)
    numbers = [int(part.split(".")[0]) for part in rules[1:]]
    assert numbers == list(range(1, 22))
    for part in rules[1:]:
        assert "Tests:" in part, part[:40]
