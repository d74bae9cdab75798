"""Browser tests of the static site (pytest-playwright) and its Python under CPython."""
