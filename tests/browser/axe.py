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


def violations(page: Any, context: str = "document", cssom: bool = True) -> list[dict[str, Any]]:
    """axe's violations on the page (or on the element ``context`` selects), in short.

    ``cssom=False`` leaves out axe's reading of the stylesheets (its one use: the
    orientation-lock rule): for a shadow root's stylesheets from another origin it inserts
    their text as a ``<style>``, which a page's strict policy rightly refuses."""
    # evaluate() runs outside the page's Content-Security-Policy, unlike a <script> tag.
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found = page.evaluate(
        """async ([context, rules, preload]) => {
            const target = context === "document" ? document : document.querySelector(context);
            const result = await axe.run(target, {rules, preload, resultTypes: ["violations"]});
            return result.violations.map(v => ({id: v.id, impact: v.impact,
                nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + " :: "
                                                    + n.failureSummary)}));
        }""",
        [context, EXTRA_RULES, cssom],
    )
    return list(found)


def assert_no_violations(page: Any, where: str, context: str = "document",
                         cssom: bool = True) -> None:
    found = violations(page, context, cssom)
    assert not found, f"axe found problems ({where}):\n" + json.dumps(found, indent=1)
