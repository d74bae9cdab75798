"""The site in dist/: web/ flattened, the pinned packages, the engine archive, catalogues, configs.

Third-party files land in directories named by version and content hash
(``pyodide-314.0.7-1a2b3c4d/``) so they can be served as immutable; the page,
its configs and the UI code are revalidated on every load.
"""

from __future__ import annotations

import ast
import gzip
import io
import json
import re
import sys
import tarfile
import zipfile
from collections.abc import Container
from pathlib import Path

from sitebuild.common import (
    DIST,
    ENGINE_PACKAGE,
    ROOT,
    WEB,
    BuildError,
    short_hash,
    write_if_changed,
)
from sitebuild.compress import precompressed
from sitebuild.inline import inline_images, inline_marked
from sitebuild.offline import SW_TEMPLATE, offline_files
from sitebuild.parts import expand_parts
from sitebuild.pins import PINS, extract, fetch_tarball
from sitebuild.precompile import (
    cut_stdlib,
    engine_modules,
    engine_snapshot,
    precompiled_engine,
    precompiled_stdlib,
)
from sitebuild.python_pages import (
    editor_style_source,
    engine_wheel,
    hashed_wheel_path,
    pages_files,
    unused_chunks,
)
from sitebuild.sparse import data_segments, pack_memory, pyodide_memory_start
from sitebuild.trimwasm import trimmed_wasm

# Text files in web/ whose {{PLACEHOLDERS}} are replaced at build time.
TEMPLATED = (".html", ".json", ".mjs", ".js", ".css", ".py")

START_STDLIB = "python_stdlib-start.zip"  # the stdlib of a start without the snapshot
SNAPSHOT_STDLIB = "python_stdlib-snapshot.zip"  # beside the snapshot, what it lacks
ENGINE_ENTRY = WEB / "engine" / "bridge.py"  # the worker's protocol module, shipped in the zip
# Pure modules shared by the engine and the MicroPython UI: words, and the card vocabulary.
SHARED_MODULES = (ENGINE_PACKAGE / "i18n.py", ENGINE_PACKAGE / "faces.py")
LANG_SOURCES = (ENGINE_PACKAGE / "lang", WEB / "lang")  # engine words, then the page's
CARD_IMAGES = WEB / "cards"  # the court cards' figures, written into the stylesheets
UI_FOLDERS = ("table", "replay", "views")  # the MicroPython UI: table, replay viewer, views
# The pages' main scripts (``<script type="mpy" src>``): PyScript fetches each itself.
UI_MAINS = ("main.py", "replay.py")
# The table's modules that come after its first screen (main.py's boot fetches it).
TABLE_LATER = "table-modules.json"
# Markup several pages share, written into each (sitebuild/parts.py); never served itself.
PARTS = WEB / "parts"
# At a fixed address: the current files an author's page loads (docs/embedding.md).
EMBED_MANIFEST = "embed.json"


# --- the whole site ----------------------------------------------------------


def build(quiet: bool = False) -> Path:
    """Assemble dist/ and return its path."""
    site = site_files()
    DIST.mkdir(exist_ok=True)
    for name, data in site.items():
        write_if_changed(DIST / name, data)
    remove_stale(set(site))
    if not quiet:
        total = sum(len(d) for d in site.values())
        print(
            f"built {DIST.relative_to(ROOT)}/: {len(site)} files, {total / 1e6:.1f} MB",
            file=sys.stderr,
        )
    return DIST


def site_files() -> dict[str, bytes]:
    """Every file of the site, keyed by its path in dist/."""
    vendor, stock = third_party_files()
    pyodide = next(pin for pin in PINS if pin.key == "pyodide")
    precompiled = precompiled_engine(pyodide, stock, engine_zip())
    engine = engine_archive(precompiled)  # every file: a start without the snapshot
    whole_name = f"engine-whole-{short_hash({'engine': engine})}.tar.gz"
    # The stdlib cut to what Pyodide's start and the engine's whole protocol
    # import, and Python's memory with the engine imported, made on those files.
    runtime = vendor["pyodide"]
    runtime["pyodide.asm.wasm"] = trimmed_wasm(runtime["pyodide.asm.wasm"], page_js(runtime))
    modules = engine_modules(pyodide, runtime, engine)
    whole = runtime["python_stdlib.zip"]
    start = cut_stdlib(whole, modules, snapshot=False)  # if the snapshot is refused
    lazy = cut_stdlib(whole, modules, snapshot=True)
    snapshot = engine_snapshot(pyodide, {**runtime, "python_stdlib.zip": start}, engine, modules,
                               lazy)
    runtime[SNAPSHOT_STDLIB], runtime[START_STDLIB] = lazy, start
    # The engine's worker is given its lock (no packages) inline; the folder's files
    # under Pyodide's usual names are PyScript pages' (sitebuild/python_pages.py).
    engine_lock = runtime["pyodide-lock.json"]
    runtime.update(pages_files(stock["pyodide-lock.json"], whole))
    # The page makes the zeros and the wasm's static data itself (sitebuild/sparse.py).
    snapshot = pack_memory(snapshot, pyodide_memory_start(snapshot),
                           data_segments(runtime["pyodide.asm.wasm"]))
    snapshot_name = f"cribbage-{short_hash({'snapshot': snapshot})}.snapshot"
    # Beside the snapshot (it holds every module the page imports), only the data.
    beside = engine_archive(precompiled, with_modules=False)
    engine_name = f"cribbage-{short_hash({'engine': beside})}.tar.gz"
    dirs = {
        f"{pin.key.upper()}_DIR": f"{pin.key}-{pin.version}-{short_hash(vendor[pin.key])}"
        for pin in PINS
    }

    wheel_name, wheel = engine_wheel()
    hashed_wheel = hashed_wheel_path(wheel_name, wheel)
    site: dict[str, bytes] = {engine_name: beside, whole_name: engine, snapshot_name: snapshot,
                              wheel_name: wheel, hashed_wheel: wheel,
                              EMBED_MANIFEST: embed_manifest(dirs, hashed_wheel)}
    for pin in PINS:
        for name, data in vendor[pin.key].items():
            site[f"{dirs[pin.key.upper() + '_DIR']}/{name}"] = data
    # The worker shows download progress against the files' own sizes (a
    # compressing host's Content-Length is the compressed size).
    sizes = {
        "pyodide.asm.wasm": len(runtime["pyodide.asm.wasm"]),
        SNAPSHOT_STDLIB: len(runtime[SNAPSHOT_STDLIB]),
        START_STDLIB: len(runtime[START_STDLIB]),
        engine_name: len(beside),
        whole_name: len(engine),
        snapshot_name: len(snapshot),
    }
    placeholders = {
        **dirs,
        "ENGINE_ARCHIVE": engine_name,
        "WHOLE_ENGINE": whole_name,
        "ENGINE_SNAPSHOT": snapshot_name,
        "DOWNLOAD_SIZES": json.dumps(sizes),
        # Given to loadPyodide, so the worker never fetches it (a JSON object is JS).
        "PYODIDE_LOCK": engine_lock.decode(),
        "ENGINE_WHEEL": hashed_wheel,
        "PY_EDITOR_STYLE": editor_style_source(vendor["pyscript"]),
        "TABLE_UI_CONFIG": ui_config(dirs["MICROPYTHON_DIR"], "main.py"),
        "TABLE_UI_PRELOADS": ui_preloads("main.py"),
        "REPLAY_UI_CONFIG": ui_config(dirs["MICROPYTHON_DIR"], "replay.py"),
        "REPLAY_UI_PRELOADS": ui_preloads("replay.py"),
        "PYSCRIPT_PRELOADS": pyscript_preloads(dirs["PYSCRIPT_DIR"], vendor["pyscript"]),
    }
    site.update(web_files(placeholders, taken=site))
    for name in [n for n in site if n.endswith(".html")]:  # the first frame needs the HTML only
        site[name] = inline_marked(site[name].decode(), site).encode()
    site.update(language_files())
    site.update(ui_modules(taken=site))
    # A start without the snapshot is the rare path: its files are fetched only then.
    # The wheel under its plain name is for authors' pages written before embed.json;
    # ours name the content-named copy.
    fallbacks = {f"{dirs['PYODIDE_DIR']}/{START_STDLIB}", whole_name, wheel_name}
    fallbacks |= {f"{dirs['PYSCRIPT_DIR']}/{name}" for name in unused_chunks(vendor["pyscript"])}
    site.update(offline_files(site, fallbacks=fallbacks))
    site.update(precompressed(site))  # after the service worker: it lists the originals only
    return site


def embed_manifest(dirs: dict[str, str], wheel: str) -> bytes:
    """``embed.json``: the paths, relative to it, of what an author's page loads.

    The pinned packages and the wheel live in content-named folders that
    change with every pin or engine change; a page that reads them from here
    keeps working across builds (docs/embedding.md).

    >>> dirs = {"PYSCRIPT_DIR": "pyscript-0.7.31-1", "PYODIDE_DIR": "pyodide-314.0.7-2"}
    >>> json.loads(embed_manifest(dirs, "cribbage-0.1.0-3/cribbage-0.1.0-py3-none-any.whl"))
    ... # doctest: +NORMALIZE_WHITESPACE
    {'pyscript': 'pyscript-0.7.31-1/core.js', 'pyscript_css': 'pyscript-0.7.31-1/core.css',
     'pyodide': 'pyodide-314.0.7-2/pyodide.mjs',
     'wheel': 'cribbage-0.1.0-3/cribbage-0.1.0-py3-none-any.whl',
     'elements': 'elements.mjs', 'widget': 'embed.html'}
    """
    manifest = {
        "pyscript": f"{dirs['PYSCRIPT_DIR']}/core.js",
        "pyscript_css": f"{dirs['PYSCRIPT_DIR']}/core.css",
        "pyodide": f"{dirs['PYODIDE_DIR']}/pyodide.mjs",
        "wheel": wheel,
        "elements": "elements.mjs",
        "widget": "embed.html",
    }
    return (json.dumps(manifest, indent=1) + "\n").encode()


def third_party_files() -> tuple[dict[str, dict[str, bytes]], dict[str, bytes]]:
    """Each pin's files as the page gets them (keyed by pin), and Pyodide's stock files.

    The page gets Pyodide's stdlib precompiled and its lock file emptied (the
    engine's; ``site_files`` then adds PyScript pages' own); the stock files are
    what the precompiler itself runs on.
    """
    vendor: dict[str, dict[str, bytes]] = {}
    stock: dict[str, bytes] = {}
    for pin in PINS:
        files = extract(pin, fetch_tarball(pin))
        if pin.key == "pyodide":
            stock = dict(files)
            files["python_stdlib.zip"] = precompiled_stdlib(pin, stock)
            files["pyodide-lock.json"] = lock_without_packages(stock["pyodide-lock.json"])
        vendor[pin.key] = files
    return vendor, stock


def page_js(runtime: dict[str, bytes]) -> list[str]:
    """The JS that may call into Pyodide's wasm: Pyodide's own and our engine worker's."""
    ours = [path.read_text() for path in sorted((WEB / "engine").glob("*.mjs"))]
    return [runtime["pyodide.asm.mjs"].decode(), runtime["pyodide.mjs"].decode(), *ours]


def web_files(placeholders: dict[str, str], taken: Container[str]) -> dict[str, bytes]:
    """web/'s files as served, placeholders filled; the site is flat: web/<role>/<file> is /<file>.

    A name served twice (by two folders, or already in ``taken``) fails the build.
    """
    out: dict[str, bytes] = {}
    images = {path.name: path.read_bytes() for path in sorted(CARD_IMAGES.glob("*.svg"))}
    parts = {path.name: path.read_text(encoding="utf-8") for path in sorted(PARTS.glob("*.html"))}
    for path in sorted(WEB.rglob("*")):
        if not is_copied(path):
            continue
        data = path.read_bytes()
        if path.suffix == ".html":
            data = expand_parts(data.decode(), parts).encode()
        if path.suffix in TEMPLATED:
            data = fill_placeholders(data.decode(), placeholders).encode()
        if path.suffix == ".css":
            data = inline_images(data.decode(), images).encode()
        if path.name in out or path.name in taken:
            raise BuildError(f"two files would be served as {path.name}")
        out[path.name] = data
    return out


def is_copied(path: Path) -> bool:
    """Whether the web/ file ``path`` is copied into the site (its placeholders filled).

    Not copied: bytecode, the worker's bridge.py (it ships in the engine
    archive), the UI's modules (:func:`ui_modules` serves them as they are),
    the service worker template, the page's catalogues, the pages' shared
    parts and the cards' images (all rendered into other files).
    """
    return (
        path.is_file()
        and "__pycache__" not in path.parts
        and CARD_IMAGES not in path.parents
        and not (path.suffix == ".py" and path.parent.name in UI_FOLDERS)
        and path not in (ENGINE_ENTRY, SW_TEMPLATE)
        and LANG_SOURCES[1] not in path.parents
        and PARTS not in path.parents
    )


def fill_placeholders(text: str, placeholders: dict[str, str]) -> str:
    """``text`` with each ``{{KEY}}`` replaced by its value.

    >>> fill_placeholders('import "./{{PYODIDE_DIR}}/pyodide.mjs"', {"PYODIDE_DIR": "pyodide-1"})
    'import "./pyodide-1/pyodide.mjs"'
    """
    for key, value in placeholders.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def remove_stale(keep: set[str]) -> None:
    """Delete files (and emptied dirs) in dist/ that the build did not write."""
    for path in sorted(DIST.rglob("*"), reverse=True):
        rel = path.relative_to(DIST).as_posix()
        if path.is_file() and rel not in keep:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


# --- the engine --------------------------------------------------------------


def engine_zip() -> bytes:
    """The ``cribbage`` package and ``bridge.py`` as one zip (deterministic).

    The engine worker unpacks it into Python's working directory (on
    ``sys.path``) and imports ``bridge``.
    """
    files = {
        path.relative_to(ROOT).as_posix(): path
        for path in sorted(ENGINE_PACKAGE.rglob("*"))
        if path.is_file() and path.suffix in (".py", ".json") and "__pycache__" not in path.parts
    }
    files[ENGINE_ENTRY.name] = ENGINE_ENTRY
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, files[name].read_bytes())
    return buffer.getvalue()


def lock_without_packages(lock: bytes) -> bytes:
    """Pyodide's lock file with no packages: the engine is pure Python and loads none.

    loadPyodide fetches and indexes the lock file before Python starts; the
    stock one lists 357 packages in 119 kB. Its ``info`` (ABI, Python
    version) is kept, so Pyodide's version check still applies.

    >>> lock_without_packages(b'{"info": {"abi_version": "x"}, "packages": {"numpy": {}}}')
    b'{"info":{"abi_version":"x"},"packages":{}}'
    """
    info = json.loads(lock)["info"]
    return json.dumps({"info": info, "packages": {}}, separators=(",", ":")).encode()


def engine_archive(precompiled: bytes, with_modules: bool = True) -> bytes:
    """The precompiled engine zip repacked as a deterministic ``.tar.gz`` for the page.

    The worker inflates it with the browser's own DecompressionStream and
    writes the files into Python's file system from JS, which is faster than
    Python's zipfile (used by ``pyodide.unpackArchive``) at start-up. Only the
    bytecode travels, as sourceless modules (:func:`sourceless_name`), like
    the stdlib's: the sources would add a quarter to the download for the
    source lines of a traceback. Without modules: the data files only.
    """
    tar_buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(precompiled)) as source, tarfile.open(
        fileobj=tar_buffer, mode="w", format=tarfile.USTAR_FORMAT
    ) as tar:
        names = source.namelist()
        compiled = {sourceless_name(n) for n in names} - {None}
        for name in sorted(names):
            target = sourceless_name(name) or name
            if target.endswith(".py") and target + "c" in compiled:
                continue  # the source of a module whose bytecode travels
            if not with_modules and target.endswith((".py", ".pyc")):
                continue
            data = source.read(name)
            info = tarfile.TarInfo(target)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=9, mtime=0) as gz:
        gz.write(tar_buffer.getvalue())
    return out.getvalue()


def sourceless_name(name: str) -> str | None:
    """Where a cached bytecode file goes to be imported without its source, else None.

    >>> sourceless_name("cribbage/__pycache__/game.cpython-314.pyc"), sourceless_name("a.py")
    ('cribbage/game.pyc', None)
    """
    folder, _, file = name.rpartition("__pycache__/")
    if not _ or not file.endswith(".pyc"):
        return None
    return folder + file.split(".", 1)[0] + ".pyc"


# --- languages and configs ---------------------------------------------------


def language_files() -> dict[str, bytes]:
    """``lang/<code>.json`` for each language: the engine's catalogue merged with the page's.

    Sources: ``cribbage/lang/<code>.json`` and ``web/lang/<part>.<code>.json``.
    Every language must have exactly English's keys (the second-person forms
    ``<key>.you`` are optional) and no key may be defined twice, so a missing
    translation fails the build instead of showing English.
    """
    merged = merged_catalogues()
    for lang, entries in merged.items():
        check_keys(lang, set(entries), set(merged["en"]))
    return {
        f"lang/{lang}.json": json.dumps(entries, ensure_ascii=False, separators=(",", ":")).encode()
        for lang, entries in merged.items()
    }


def merged_catalogues() -> dict[str, dict[str, object]]:
    """Each language's entries from all its source files; a key defined twice fails the build."""
    languages = sorted(path.stem for path in LANG_SOURCES[0].glob("*.json"))
    merged: dict[str, dict[str, object]] = {}
    for lang in languages:
        parts = [LANG_SOURCES[0] / f"{lang}.json", *sorted(LANG_SOURCES[1].glob(f"*.{lang}.json"))]
        merged[lang] = {}
        for part in parts:
            entries = json.loads(part.read_text(encoding="utf-8"))
            twice = sorted(set(entries) & set(merged[lang]))
            if twice:
                raise BuildError(f"{part.relative_to(ROOT)} defines {', '.join(twice)} again")
            merged[lang].update(entries)
    return merged


def check_keys(lang: str, keys: set[str], english: set[str]) -> None:
    """Fail the build unless ``lang`` has English's keys; ``<key>.you`` forms are optional.

    A language may add ``<key>.you`` (a second-person form its grammar needs)
    only beside ``<key>``.

    >>> check_keys("es", {"a", "a.you"}, {"a"})
    >>> check_keys("es", {"b.you"}, {"a"})
    Traceback (most recent call last):
    sitebuild.common.BuildError: lang/es.json: missing ['a'], not in English ['b.you']
    """
    missing = sorted(required(english) - keys)
    extra = sorted(required(keys) - english)
    extra += sorted(k for k in keys - required(keys) if k[: -len(".you")] not in keys)
    if missing or extra:
        raise BuildError(f"lang/{lang}.json: missing {missing[:5]}, not in English {extra[:5]}")


def required(keys: set[str]) -> set[str]:
    """The keys every language must have: all but the optional ``<key>.you`` forms."""
    return {key for key in keys if not key.endswith(".you")}


def ui_module_paths() -> list[Path]:
    """The MicroPython UI's modules: web/table, web/replay, web/views and the two it
    shares with the engine (``i18n.py``, ``faces.py``)."""
    modules = [p for folder in UI_FOLDERS for p in sorted((WEB / folder).glob("*.py"))]
    return [*modules, *SHARED_MODULES]


def ui_modules(taken: Container[str]) -> dict[str, bytes]:
    """The UI's modules, served as they are beside the pages (the site is flat), and the
    table's later modules in one file."""
    out: dict[str, bytes] = {}
    for path in ui_module_paths():
        if path.name in out or path.name in taken:
            raise BuildError(f"two files would be served as {path.name}")
        out[path.name] = path.read_bytes()
    out[TABLE_LATER] = later_modules("main.py")
    return out


def ui_config(micropython_dir: str, main: str) -> str:
    """PyScript's config for the ``<script type="mpy">`` running ``main``, as JSON for
    the attribute.

    ``interpreter`` is the pinned MicroPython (resolved against the page's
    address); ``files`` puts the UI modules ``main`` imports at its top level
    (:func:`first_modules`) into MicroPython's working directory (on
    ``sys.path``), fetched beside the page. PyScript runs ``main`` only once
    every file is in: the table's other modules come later, in one file
    (:func:`later_modules`), so that they do not hold up its first screen.

    >>> config = json.loads(ui_config("micropython-1", "main.py"))
    >>> config["interpreter"], sorted(config["files"])
    ('./micropython-1/micropython.mjs', ['./dom.py', './stored.py'])
    """
    files = {f"./{name}": "" for name in first_modules(main)}
    config = {"interpreter": f"./{micropython_dir}/micropython.mjs", "files": files}
    return json.dumps(config, separators=(",", ":"))


def first_modules(main: str) -> list[str]:
    """The UI modules ``main`` imports at its top level, and theirs, by file name.

    Imports inside a function (the table's ``boot``) are not followed: they
    come after the first screen.

    >>> first_modules("main.py")
    ['dom.py', 'stored.py']
    >>> "tableview.py" in first_modules("replay.py")
    True
    """
    paths = {path.name: path for path in ui_module_paths()}
    seen: set[str] = set()
    todo = [main]
    while todo:
        for name in top_level_imports(paths[todo.pop()].read_text()):
            if f"{name}.py" in paths and f"{name}.py" not in seen | {main}:
                seen.add(f"{name}.py")
                todo.append(f"{name}.py")
    return sorted(seen)


def top_level_imports(source: str) -> list[str]:
    """The modules a module's own statements import (not those inside functions).

    >>> top_level_imports("import a, b.c\\nfrom d import e\\ntry:\\n    import f\\n"
    ...                   "except ImportError:\\n    import g\\ndef h():\\n    import i")
    ['a', 'b', 'd', 'f', 'g']
    """
    names: list[str] = []
    stack: list[ast.AST] = list(ast.parse(source).body)
    while stack:
        node = stack.pop(0)
        if isinstance(node, ast.Import):
            names += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module.split(".")[0])
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stack += [child for child in ast.iter_child_nodes(node)
                      if isinstance(child, (ast.stmt, ast.excepthandler))]
    return names


def later_modules(main: str) -> bytes:
    """The UI modules ``main`` does not import first, as one JSON object of file name
    to source: the table fetches it once its first screen is live (``main.py``'s
    ``boot``), one request instead of one per module.

    >>> modules = json.loads(later_modules("main.py"))
    >>> "tablegame.py" in modules and "dom.py" not in modules and "main.py" not in modules
    True
    """
    first = set(first_modules(main)) | set(UI_MAINS)
    sources = {path.name: path.read_text() for path in ui_module_paths() if path.name not in first}
    return json.dumps(sources, separators=(",", ":"), sort_keys=True).encode()


def ui_preloads(main: str) -> str:
    """A ``<link rel="preload">`` per module of ``main``'s config, for the page's ``<head>``.

    PyScript fetches the config's ``files`` only once MicroPython has
    started; by then the engine's worker holds the connections with its
    downloads, and the modules' requests would queue behind them. Preloaded,
    they are requested while the page is parsed and PyScript's fetches are
    answered from the preload cache.

    >>> ui_preloads("main.py").split(chr(10))[0]
    '<link rel="preload" href="./dom.py" as="fetch">'
    """
    links = [f'<link rel="preload" href="./{name}" as="fetch">' for name in first_modules(main)]
    return "\n  ".join(links)


def pyscript_preloads(folder: str, pyscript: dict[str, bytes]) -> str:
    """``<link rel="modulepreload">`` for what PyScript's ``core.js`` imports at once.

    ``core.js`` imports its ``core-<hash>.js`` chunk, which imports its
    plugins' chunks (the error banner, the editor's and the terminal's
    small loaders, ...) before it starts any interpreter: PyScript imports
    every plugin for its ``py`` type, whose config (none on our pages) is
    the only one that could leave them out. Preloaded, none of these waits
    for the one before it.

    >>> chunk = b'{error:()=>import("./error-Y2.js"),get x(){return import("./z.js")}}'
    >>> files = {"core.js": b'export{a}from"./core-X1.js";', "core-X1.js": chunk}
    >>> print(pyscript_preloads("ps", files))
    <link rel="modulepreload" href="./ps/core-X1.js">
      <link rel="modulepreload" href="./ps/error-Y2.js">
    """
    core = re.search(rb'from"\./(core-[\w-]+\.js)"', pyscript["core.js"])
    if not core:
        raise BuildError("PyScript's core.js imports no core-<hash>.js chunk")
    chunk = core.group(1).decode()
    plugins = re.findall(rb'[\w"-]+:\(\)=>import\("\./([\w.-]+\.js)"\)', pyscript[chunk])
    if not plugins:
        raise BuildError(f"PyScript's {chunk} names no plugin chunk")
    names = [chunk, *dict.fromkeys(name.decode() for name in plugins)]
    return "\n  ".join(f'<link rel="modulepreload" href="./{folder}/{name}">' for name in names)
