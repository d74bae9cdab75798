"""The tutorial's Python cells (authors' own pages: tests/browser/test_authors.py).

- The tutorial's Python cells: no interpreter before a reader runs one, the
  reader's focus left alone; a cell edited with the keyboard and run shows its
  output; a cell that raises shows Python's error as text in the cell, and
  the other cells still run; axe finds nothing in the section.
"""

from __future__ import annotations

from typing import Any

from tests.browser.axe import assert_no_violations

# --- the tutorial's cells ----------------------------------------------------------

CELLS = "#python script[type^=py-editor]"
PYTHON_ONLY = ("/python_stdlib.zip", ".whl", "/pyodide-lock.json")  # what only the cells load


def open_cells(page: Any) -> None:
    page.goto("/tutorial.html")
    page.wait_for_function("() => document.querySelectorAll('.py-editor-run-button').length === 3")


def run(page: Any, index: int, keys: str | None = None) -> tuple[str, str]:
    """Run cell ``index`` (with its Run button, or ``keys`` in its editor); its output and state."""
    status = page.locator("#python .py-status").nth(index)
    status.evaluate("status => delete status.dataset.state")
    if keys is None:
        page.locator("#python .py-editor-run-button").nth(index).click()
    else:
        page.keyboard.press(keys)
    page.wait_for_function(
        """i => ['done', 'error'].includes(
            document.querySelectorAll('#python .py-status')[i].dataset.state)""",
        arg=index,
    )
    output = page.locator("#python .py-editor-output").nth(index).inner_text()
    return output, str(status.get_attribute("data-state"))


def edit(page: Any, index: int, lines: list[str]) -> None:
    """Replace cell ``index``'s program, typed as a reader types it."""
    page.locator("#python .cm-content").nth(index).click()
    page.keyboard.press("Control+A")
    for number, line in enumerate(lines):
        if number:
            page.keyboard.press("Enter")
        page.keyboard.type(line)


def test_a_tutorial_cell_is_edited_and_run(page: Any, requests_seen: list[str]) -> None:
    open_cells(page)
    assert page.locator(CELLS).count() == 3
    # the page's start and the editors load no interpreter, and leave the focus alone
    assert not [u for u in requests_seen if u.endswith(PYTHON_ONLY)]
    assert page.evaluate("document.activeElement === document.body")
    assert page.evaluate("scrollY") == 0

    edit(page, 0, ["from cribbage import Card, parse_cards, score_hand",
                   'print(score_hand(parse_cards("5C 5D 5H JS"), Card.parse("5S")).total)'])
    output, state = run(page, 0, keys="Shift+Enter")
    assert (output.strip(), state) == ("29", "done")
    assert any(u.endswith("/cribbage-0.1.0-py3-none-any.whl") for u in requests_seen)

    edit(page, 1, ['print("before")', 'raise ValueError("<no> cards")'])
    output, state = run(page, 1)
    assert state == "error" and output.startswith("before")
    assert "ValueError: <no> cards" in output and "<module>" in output  # as text, not HTML
    output, state = run(page, 2)  # the page and its Python carry on
    assert state == "done" and output.startswith("10♠ K♣ | 4♥ 6♦ 7♣ J♥"), output
    assert_no_violations(page, "the Python cells, run", "#python")


def test_the_cells_speak_the_pages_language(page: Any) -> None:
    page.context.add_init_script("localStorage.setItem('cribbage-lang', 'ja')")
    open_cells(page)
    button = page.locator("#python .py-editor-run-button").first
    assert button.inner_text() == "実行"
    assert button.get_attribute("aria-label") == "実行：手札を数える"
    code = page.locator("#python script[type^=py-editor]").nth(1).evaluate("s => s.code")
    assert '"ja", ["アリス", "ボブ"]' in code
