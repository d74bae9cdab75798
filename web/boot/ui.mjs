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
// config="./ui.json">` did, in one request: fetches ui.json (written by
// build.py: the source of every UI module) in parallel with the interpreter's
// download, writes the modules into MicroPython's working directory, then runs
// main.py (top-level await allowed). Python's output goes to the console (stderr as errors, so a
// traceback fails the browser tests).
import { loadMicroPython } from "./{{MICROPYTHON_DIR}}/micropython.mjs";

const WASM = new URL("./{{MICROPYTHON_DIR}}/micropython.wasm", import.meta.url).href;

const SHIM = {
  "pyscript/__init__.py": "from js import document, window  # noqa: F401  (as PyScript's)\n",
  "pyscript/ffi.py": "from jsffi import create_proxy, to_js  # noqa: F401  (as PyScript's)\n",
};

// A promise that settles in a later task: awaited from Python (dom.next_turn), it
// gives the browser a turn between two pieces of the UI's work.
globalThis.cribbageNextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));
// The connection to a friend's device (peer.mjs), loaded only when the table needs it.
globalThis.cribbagePeerModule = () => import("./peer.mjs");

// The page's own main script: ui.json's main (main.py, the table), or the
// module its <script src="./ui.mjs" data-main="./replay.py"> names (the replay
// viewer), one of ui.json's files.
function mainScript(files, main) {
  const named = document.querySelector("script[data-main]")?.dataset.main;
  return named && Object.hasOwn(files, named) ? named : main;
}

async function start() {
  const bundle = fetch("./ui.json").then((response) => {
    if (!response.ok) throw new Error(`./ui.json answered ${response.status}`);
    return response.json();
  });
  bundle.catch(() => {}); // reported when awaited below
  const python = await loadMicroPython({
    url: WASM,
    linebuffer: true,
    stdout: (line) => console.log(line),
    stderr: (line) => console.error(line),
  });
  python.FS.mkdir("pyscript");
  const { main, files } = await bundle;
  for (const [name, source] of [...Object.entries(SHIM), ...Object.entries(files)]) {
    python.FS.writeFile(name, source);
  }
  await cribbageNextTurn(); // the interpreter's start and main.py: two tasks, not one long one
  await python.runPythonAsync(files[mainScript(files, main)]);
}

start().catch((error) => console.error(`The table's UI could not start: ${error.message || error}`));
