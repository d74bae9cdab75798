"""Markup shared by several pages, written into each at build time (``web/parts/``).

A page names a part, with its parameters and the content of the part's slots::

    <!-- part header.html here=puzzles.html class=" page-top" -->
    <!-- slot menu -->
    <button type="button" class="quiet">Only on this page</button>
    <!-- end part -->

or, with no slot to fill, on one line: ``<!-- part felt-middle.html / -->``.
The part's own text has ``{{part.NAME}}`` for each parameter and
``<!-- slot NAME -->`` where a slot's content goes (nothing if the page gives
none). ``here=`` names the page: each of the part's links to it gets
``aria-current="page"``. The pages are plain HTML at the first frame, so the
header is there before any script runs and no page needs a script (or
``'unsafe-eval'``) to draw it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from sitebuild.common import BuildError

USE = re.compile(
    r"<!-- part (?P<name>[\w.-]+\.html)(?P<params>(?: [\w-]+=(?:\"[^\"]*\"|\S+))*)"
    r"(?: / -->| -->(?P<body>.*?)<!-- end part -->)",
    re.DOTALL,
)
PARAM = re.compile(r"([\w-]+)=(?:\"([^\"]*)\"|(\S+))")
SLOT = re.compile(r"[ \t]*<!-- slot ([\w-]+) -->\n?")
FILLED = re.compile(r"\{\{part\.([\w-]+)\}\}")


def expand_parts(html: str, parts: Mapping[str, str]) -> str:
    """``html`` with each part it names written in.

    >>> parts = {"p.html": '<b class="x{{part.class}}"><!-- slot s --></b><a href="./a.html">'}
    >>> expand_parts('<!-- part p.html class=" y" here=a.html -->\\n<!-- slot s -->\\nhi\\n'
    ...              '<!-- end part -->', parts)
    '<b class="x y">hi\\n</b><a href="./a.html" aria-current="page">'
    >>> expand_parts("<!-- part q.html / -->", parts)
    Traceback (most recent call last):
    sitebuild.common.BuildError: a page names part q.html, which web/parts/ does not have
    """

    def expand(use: re.Match[str]) -> str:
        name = use.group("name")
        if name not in parts:
            raise BuildError(f"a page names part {name}, which web/parts/ does not have")
        params = {m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
                  for m in PARAM.finditer(use.group("params"))}
        slots = page_slots(use.group("body") or "")
        text = SLOT.sub(lambda m: slots.get(m.group(1), ""), parts[name])

        def param(m: re.Match[str]) -> str:
            if m.group(1) not in params:
                return ""  # an optional parameter the page leaves out
            return params[m.group(1)]

        text = FILLED.sub(param, text)
        here = params.get("here")
        if here:
            text = text.replace(f'href="./{here}"', f'href="./{here}" aria-current="page"')
        return text

    html = USE.sub(expand, html)
    if "<!-- part " in html or "<!-- end part -->" in html:
        raise BuildError("a page names a part in a form sitebuild/parts.py does not read")
    return html


def page_slots(body: str) -> dict[str, str]:
    """A part's use: the content of each ``<!-- slot NAME -->`` up to the next (or the end).

    >>> page_slots("<!-- slot a -->\\n1\\n  <!-- slot b -->\\n2\\n")
    {'a': '1\\n', 'b': '2\\n'}
    """
    pieces = SLOT.split(body)
    if pieces[0].strip():
        raise BuildError(f"a part's content must start with a slot: {pieces[0].strip()[:40]!r}")
    return dict(zip(pieces[1::2], pieces[2::2], strict=True))
