"""The packages' import graphs have no cycles.

Every ``import`` statement counts, including those under ``TYPE_CHECKING`` and
inside functions: a cycle hidden in a function is still two modules that need
each other. ``from package import name`` counts as importing the submodule
``package.name`` when there is one, else the package itself; a package's
``__init__`` importing its own submodules is how packages work, not a cycle
(importing a submodule runs its package's ``__init__``, so that edge is left out).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cribbage", "sitebuild")


def module_files(package: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module under ``package``."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def imported(module: str, is_package: bool, node: ast.Import | ast.ImportFrom,
             modules: dict[str, Path]) -> set[str]:
    """The modules of ``modules`` that one import statement of ``module`` loads."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names} & set(modules)
    base = module.split(".") if is_package else module.split(".")[:-1]
    if node.level:
        base = base[:len(base) - node.level + 1]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    targets = {f"{source}.{alias.name}" for alias in node.names} & set(modules)
    if len(targets) < len(node.names):
        targets.add(source)  # some names are the module's own, not submodules
    return targets & set(modules)


def import_graph(package: Path) -> dict[str, set[str]]:
    """Each module of ``package`` -> the modules of ``package`` it imports."""
    modules = module_files(package)
    graph = {}
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                targets |= imported(module, is_package, node, modules)
        graph[module] = targets - {module}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that returns to its start, or None."""
    state: dict[str, str] = {}  # "open" while on the path, "done" after
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        state[node] = "done"
        path.pop()
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_find_cycle_finds_one_and_only_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_lazy_and_type_checking_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from .a import A\n")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\nA = 1\n")
    (package / "b.py").write_text("def f():\n    from . import a\n    from .sub import c\n")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "c.py").write_text("from .. import b\nfrom pkg import A\n")
    graph = import_graph(package)
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a", "pkg.sub.c"},
                     "pkg.sub": set(), "pkg.sub.c": {"pkg.b", "pkg"}}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.a"]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycles(package: str) -> None:
    graph = import_graph(ROOT / package)
    assert len(graph) > 5
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph) or [])}"
