"""Inline a page's first-screen stylesheet and start-up script, each allowed by its hash.

A page marks the files its first frame waits for with ``data-inline``::

    <script src="./engine.js" data-inline></script>
    <link rel="stylesheet" href="./style.css" data-inline>

and the build writes their text into the page instead. Why: the first paint
waits for a stylesheet (render-blocking) and the parser for a classic script,
and on a cold load those two requests queue behind the worker's and the UI's
downloads (traced: the table's stylesheet arrived ~180 ms after navigation,
and the page was painted only then). Inlined, the first frame needs the HTML
alone.

The Content-Security-Policy stays strict: no ``'unsafe-inline'``, only the
SHA-256 of each inlined text is added to ``script-src`` or ``style-src``, so
any other inline script or style is still refused. The files themselves stay
in the site (and in the offline cache), though no page links them now.

The court cards' figures (``web/cards/*.svg``) are written into the stylesheets
that name them, as ``data:`` URLs (:func:`inline_images`): the custom elements
draw cards inside an author's page, whose policy allows ``data:`` images far
more often than images from this site.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable, Mapping

from sitebuild.common import BuildError

SCRIPT = re.compile(r'<script src="\./([\w.-]+\.js)" data-inline></script>')
STYLE = re.compile(r'<link rel="stylesheet" href="\./([\w.-]+\.css)" data-inline>')
IMAGE = re.compile(r"url\(([\w.-]+\.svg)\)")
POLICY = re.compile(r'(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")')


def source_hash(text: str) -> str:
    """The CSP source that allows exactly ``text`` as an inline script or style.

    >>> source_hash("x")
    "'sha256-LXEWQrcmsEQBYnyp+6wy9chTD7GQPMTbAiWHF5IaSIE='"
    """
    digest = hashlib.sha256(text.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def inline_marked(html: str, files: Mapping[str, bytes]) -> str:
    """``html`` with each ``data-inline`` script and stylesheet written in, and allowed.

    >>> csp = "script-src 'self'; style-src 'self'"
    >>> page = f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
    >>> page += '<script src="./a.js" data-inline></script>'
    >>> out = inline_marked(page, {"a.js": b"go()"})
    >>> out.split('"><', 1)[1]
    'script>go()</script>'
    >>> f"script-src 'self' {source_hash('go()')}; style-src 'self'" in out
    True
    """
    hashes: dict[str, list[str]] = {"script-src": [], "style-src": []}

    def inliner(tag: str, directive: str) -> Callable[[re.Match[str]], str]:
        def replace(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in files:
                raise BuildError(f"data-inline names {name}, which the site does not have")
            text = files[name].decode()
            if f"</{tag}" in text.lower():
                raise BuildError(f"{name} cannot be inlined: it contains </{tag}")
            hashes[directive].append(source_hash(text))
            return f"<{tag}>{text}</{tag}>"
        return replace

    html = SCRIPT.sub(inliner("script", "script-src"), html)
    html = STYLE.sub(inliner("style", "style-src"), html)
    if not any(hashes.values()):
        return html
    if len(POLICY.findall(html)) != 1:
        raise BuildError("a page with data-inline needs exactly one CSP <meta>")
    return POLICY.sub(lambda m: m.group(1) + allowing(m.group(2), hashes) + m.group(3), html)


def allowing(policy: str, hashes: Mapping[str, list[str]]) -> str:
    """``policy`` with each directive's hashes added to its sources.

    >>> allowing("default-src 'self'; style-src 'self'", {"style-src": ["'sha256-A='"]})
    "default-src 'self'; style-src 'self' 'sha256-A='"
    """
    parts = [part.strip() for part in policy.split(";")]
    names = {part.split(" ", 1)[0] for part in parts}
    missing = [name for name, added in hashes.items() if added and name not in names]
    if missing:
        raise BuildError(f"the page's CSP has no {', '.join(missing)} to allow an inlined file")
    return "; ".join(" ".join([part, *hashes.get(part.split(" ", 1)[0], [])]) for part in parts)


def inline_images(css: str, images: Mapping[str, bytes]) -> str:
    """``css`` with each ``url(name.svg)`` of ``images`` written in as a ``data:`` URL
    (percent-encoded where a URL or CSS string needs it; newlines and indents dropped).

    >>> inline_images("a { b: url(x.svg); }", {"x.svg": b'<svg a="1">\\n  <g/></svg>'})
    'a { b: url("data:image/svg+xml,%3Csvg a=\\'1\\'%3E%3Cg/%3E%3C/svg%3E"); }'
    """

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in images:
            raise BuildError(f"the stylesheet names {name}, which is not in web/cards/")
        text = re.sub(r">\s+<", "><", images[name].decode().strip())
        text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
        for char, code in (("%", "%25"), ("#", "%23"), ("<", "%3C"), (">", "%3E"),
                           ("\n", " "), ('"', "'")):
            text = text.replace(char, code)
        return f'url("data:image/svg+xml,{text}")'

    return IMAGE.sub(replace, css)
