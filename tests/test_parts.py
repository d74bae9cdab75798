"""The pages' shared markup has one source: each page's header is web/parts/header.html as
the build writes it in (sitebuild/parts.py), laid out by header.css alone, and the replay's
felt places are the table's (web/parts/felt-seats.html)."""

from __future__ import annotations

import re

import pytest

from sitebuild.assemble import PARTS, web_files
from sitebuild.common import WEB, BuildError
from sitebuild.parts import expand_parts

PAGES = ("index.html", "puzzles.html", "tutorial.html", "replay.html")
HEADER = (PARTS / "header.html").read_text(encoding="utf-8")
# What only the header part may hold: a page that writes one of these copied the header.
HEADER_MARKUP = ('id="menu"', 'id="language"', 'class="site-header', "menu-button",
                 'class="page-link"', 'class="home"')


@pytest.fixture(scope="module")
def built() -> dict[str, str]:
    files = web_files({}, taken=())
    return {name: files[name].decode() for name in PAGES}


@pytest.mark.parametrize("name", PAGES)
def test_each_page_names_the_header_part_once_and_copies_none_of_it(name: str) -> None:
    source = (WEB / "pages" / name).read_text(encoding="utf-8")
    assert len(re.findall(r"<!-- part header\.html ", source)) == 1
    assert f"<!-- part header.html here={name} " in source
    for markup in HEADER_MARKUP:
        assert markup not in source, f"{name} writes {markup} itself"


@pytest.mark.parametrize("name", PAGES)
def test_each_built_page_has_the_parts_header_with_its_own_link_marked(
        built: dict[str, str], name: str) -> None:
    page = built[name]
    assert "<!-- part" not in page and "<!-- slot" not in page
    assert page.count('class="site-header') == page.count('id="menu"') == 1
    assert page.count('id="language"') == 1
    links = re.findall(r'<a class="page-link" href="\./([\w.]+)"( aria-current="page")?', page)
    assert links == [(other, ' aria-current="page"' if other == name else "")
                     for other in PAGES]
    # Every line of the part is in the page as written there (the slots aside).
    for line in HEADER.splitlines():
        line = line.strip()
        if line and "<!-- slot" not in line and "{{part." not in line and "./" + name not in line:
            assert line in page, f"{name} lacks the header's {line[:60]}"


def test_only_header_css_styles_the_header() -> None:
    rules = re.compile(r"(\.site-header|select\.language|\.menu-button|\.page-link|\.home\b)")
    styled = {path.name for path in (WEB / "pages").glob("*.css")
              if rules.search(path.read_text(encoding="utf-8"))}
    assert styled == {"header.css"}
    for name in PAGES:
        page = (WEB / "pages" / name).read_text(encoding="utf-8")
        assert len(re.findall(r'href="\./header\.css"', page)) == 1, name


def test_the_replays_felt_places_are_the_tables(built: dict[str, str]) -> None:
    places = (PARTS / "felt-seats.html").read_text(encoding="utf-8")
    body = places.split("-->", 1)[1].strip()
    for name in ("index.html", "replay.html"):
        source = (WEB / "pages" / name).read_text(encoding="utf-8")
        assert "<!-- part felt-seats.html / -->" in source and 'class="crib-spot"' not in source
        assert body in built[name]


def test_a_part_named_wrongly_fails_the_build() -> None:
    with pytest.raises(BuildError, match="does not have"):
        expand_parts("<!-- part nothing.html / -->", {})
    with pytest.raises(BuildError, match="does not read"):
        expand_parts("<!-- part header.html -->", {"header.html": HEADER})
    with pytest.raises(BuildError, match="must start with a slot"):
        expand_parts("<!-- part header.html -->x<!-- end part -->", {"header.html": HEADER})
