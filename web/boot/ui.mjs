// Starts the table's UI: MicroPython on the main thread, running main.py.
//
// MicroPython (the pinned @micropython/micropython-webassembly-pyscript) is
// loaded directly, not through PyScript's core: PyScript 0.7.31 builds its
// hooks with Function() at start-up, which would force 'unsafe-eval' into the
// page's Content-Security-Policy (README "Content-Security-Policy"). The UI
// uses three names of PyScript's Python API, `pyscript.document`,
// `pyscript.window` and `pyscript.ffi.create_proxy`; a two-file `pyscript`
// package written here gives the same objects (the MicroPython port's own
// `js` and `jsffi` modules, which PyScript's are made of).
//
// What it does, as PyScript's `<script type="mpy" src="./main.py"
// config="./ui.json">` did: fetches ui.json (written by build.py: the UI's
// modules) and every file it lists into MicroPython's working directory, in
// parallel with the interpreter's download, then runs main.py (top-level
// await allowed). Python's output goes to the console (stderr as errors, so a
// traceback fails the browser tests).
import { loadMicroPython } from "./{{MICROPYTHON_DIR}}/micropython.mjs";

const WASM = new URL("./{{MICROPYTHON_DIR}}/micropython.wasm", import.meta.url).href;

const SHIM = {
  "pyscript/__init__.py": "from js import document, window  # noqa: F401  (as PyScript's)\n",
  "pyscript/ffi.py": "from jsffi import create_proxy, to_js  # noqa: F401  (as PyScript's)\n",
};

function text(url) {
  return fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return response.text();
  });
}

// The page's own main script: main.py (the table), or the one its <script
// src="./ui.mjs" data-main="./replay.py"> names (the replay viewer), a file
// beside the page.
function mainScript() {
  const named = document.querySelector("script[data-main]")?.dataset.main;
  return named && /^\.\/[a-z]+\.py$/.test(named) ? named : "./main.py";
}

async function start() {
  const main = text(mainScript());
  const files = fetch("./ui.json")
    .then((response) => response.json())
    .then((config) => Promise.all(Object.keys(config.files || {}).map(
      async (name) => [name, await text(name)])));
  main.catch(() => {}); // reported when awaited below
  files.catch(() => {});
  const python = await loadMicroPython({
    url: WASM,
    linebuffer: true,
    stdout: (line) => console.log(line),
    stderr: (line) => console.error(line),
  });
  python.FS.mkdir("pyscript");
  for (const [name, source] of [...Object.entries(SHIM), ...(await files)]) {
    python.FS.writeFile(name, source);
  }
  await python.runPythonAsync(await main);
}

start().catch((error) => console.error(`The table's UI could not start: ${error.message || error}`));
