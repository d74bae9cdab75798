"""axe-core in the browser tests: the pinned tarball (sitebuild/pins.py's AXE, fetched
once with ``npm pack`` into .cache/npm like the build's pins) is injected into the page
under test, which then checks itself. Never part of dist/.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from sitebuild.pins import AXE, extract, fetch_tarball

# Rules off by default in axe that the table must pass too (experimental ones included).
EXTRA_RULES = {"label-content-name-mismatch": {"enabled": True}}


@functools.cache
def axe_source() -> str:
    return extract(AXE, fetch_tarball(AXE))["axe.min.js"].decode("utf-8")


def violations(page: Any, context: str = "document") -> list[dict[str, Any]]:
    """axe's violations on the page (or on the element ``context`` selects), in short."""
    # evaluate() runs outside the page's Content-Security-Policy, unlike a <script> tag.
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found = page.evaluate(
        """async ([context, rules]) => {
            const target = context === "document" ? document : document.querySelector(context);
            const result = await axe.run(target, {rules, resultTypes: ["violations"]});
            return result.violations.map(v => ({id: v.id, impact: v.impact,
                nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + " :: "
                                                    + n.failureSummary)}));
        }""",
        [context, EXTRA_RULES],
    )
    return list(found)


def assert_no_violations(page: Any, where: str, context: str = "document") -> None:
    found = violations(page, context)
    assert not found, f"axe found problems ({where}):\n" + json.dumps(found, indent=1)
