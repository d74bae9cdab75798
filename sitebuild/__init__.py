"""The steps of ``python build.py`` (standard library only), one module per concern.

- ``common``: the repository's paths, the build's one-line error, content hashes and caches.
- ``pins``: the pinned npm packages, fetched once with ``npm pack`` and checked.
- ``precompile``: running the pinned Pyodide under Node to compile the stdlib and the engine.
- ``assemble``: the engine archive, language catalogues, configs and the site in dist/.
- ``python_pages``: what PyScript pages get: the engine's wheel (pip), micropip, their lock.
- ``icons``: the app's PNG icons, drawn here, and its web manifest.
- ``offline``: the service worker that precaches the site.
- ``serve``: the dev server, with the caching headers a good static host sends.
- ``browsers``: finding (or installing) a browser, and the test command.

``docs/architecture.md`` explains how the pieces fit together.
"""
