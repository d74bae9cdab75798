// Starts the table's UI: MicroPython on the main thread, running main.py.
//
// MicroPython (the pinned @micropython/micropython-webassembly-pyscript) is
// loaded directly, not through PyScript's core: PyScript 0.7.31 builds its
// hooks with Function() at start-up, which would force 'unsafe-eval' into the
// page's Content-Security-Policy (docs/site.md, "Content-Security-Policy"). The UI
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

// How the page's <link rel="preload" as="fetch"> (no crossorigin) asks for ui.json and the
// interpreter's wasm: mode no-cors, credentials included (a same-origin response stays
// readable). A fetch reuses a preload only if its request matches; WebKit compares the
// Origin header too, which a crossorigin preload sends and a same-origin fetch does not,
// so only this pair is downloaded once in Chromium, Firefox and WebKit alike.
const PRELOADED = { mode: "no-cors", credentials: "include" };

const SHIM = {
  "pyscript/__init__.py": "from js import document, window  # noqa: F401  (as PyScript's)\n",
  "pyscript/ffi.py": "from jsffi import create_proxy, to_js  # noqa: F401  (as PyScript's)\n",
};

// A promise that settles in a later task: awaited from Python (dom.next_turn), it
// gives the browser a turn between two pieces of the UI's work.
globalThis.cribbageNextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));
// The connection to a friend's device (peer.mjs), loaded only when the table needs it.
globalThis.cribbagePeerModule = () => import("./peer.mjs");

// The browser's storage for the UI (web/table/dom.py). Every call is made and checked
// here, on the JavaScript side: an error the browser throws inside a call from Python
// (a QuotaExceededError when the storage is full) escapes MicroPython's try/except
// and would stop the table. A write answers true or false; the page goes on in
// memory either way and says so (web/table/tablesaves.py).
globalThis.cribbageStorage = {
  get(key) {
    try {
      const text = globalThis.localStorage.getItem(key);
      return typeof text === "string" ? text : null;
    } catch {
      return null; // storage blocked (some private modes): nothing stored
    }
  },
  set(key, text) {
    try {
      if (text === null || text === undefined) globalThis.localStorage.removeItem(key);
      else globalThis.localStorage.setItem(key, String(text));
      return true;
    } catch (error) {
      console.warn(`Not stored (${key}): ${error.name || error}`);
      return false;
    }
  },
  // Every key, as JSON text (a list crosses into MicroPython most simply as text).
  keys() {
    try {
      const store = globalThis.localStorage;
      return JSON.stringify(Array.from({ length: store.length }, (_, index) => store.key(index)));
    } catch {
      return "[]";
    }
  },
  // Ask the browser to keep the site's data under storage pressure; resolves to whether
  // it will (false where the browser cannot say).
  async persist() {
    try {
      return (await navigator.storage?.persisted?.()) || Boolean(await navigator.storage?.persist?.());
    } catch {
      return false;
    }
  },
  // {usage, quota, persisted} in bytes as JSON text, or "null" where the browser cannot say.
  async estimate() {
    try {
      const { usage, quota } = await navigator.storage.estimate();
      const persisted = Boolean(await navigator.storage.persisted?.());
      return JSON.stringify({ usage, quota, persisted });
    } catch {
      return "null";
    }
  },
  // Offer `text` as a file called `name` (a download; nothing leaves the device).
  download(name, text) {
    const url = URL.createObjectURL(new Blob([String(text)], { type: "application/json" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  },
};

// The page's own main script: ui.json's main (main.py, the table), or the
// module its <script src="./ui.mjs" data-main="./replay.py"> names (the replay
// viewer), one of ui.json's files.
function mainScript(files, main) {
  const named = document.querySelector("script[data-main]")?.dataset.main;
  return named && Object.hasOwn(files, named) ? named : main;
}

// MicroPython, its wasm taken from the page's preload. The pinned loader fetches the wasm
// itself with a request of its own (cors), which WebKit never matches to a preload; so
// its first fetch of that one URL, while it loads, gets the response of our PRELOADED
// request instead. Every other fetch, and any later one of the wasm, goes to the network.
async function loadInterpreter() {
  const pageFetch = globalThis.fetch;
  let preloaded = pageFetch(WASM, PRELOADED);
  globalThis.fetch = (input, init) => {
    const response = String(input) === WASM ? preloaded : null;
    preloaded = null;
    return response || pageFetch(input, init);
  };
  try {
    return await loadMicroPython({
      url: WASM,
      linebuffer: true,
      stdout: (line) => console.log(line),
      stderr: (line) => console.error(line),
    });
  } finally {
    globalThis.fetch = pageFetch;
  }
}

async function start() {
  const bundle = fetch("./ui.json", PRELOADED).then((response) => {
    if (!response.ok) throw new Error(`./ui.json answered ${response.status}`);
    return response.json();
  });
  bundle.catch(() => {}); // reported when awaited below
  const python = await loadInterpreter();
  python.FS.mkdir("pyscript");
  const { main, files } = await bundle;
  for (const [name, source] of [...Object.entries(SHIM), ...Object.entries(files)]) {
    python.FS.writeFile(name, source);
  }
  await cribbageNextTurn(); // the interpreter's start and main.py: two tasks, not one long one
  await python.runPythonAsync(files[mainScript(files, main)]);
}

start().catch((error) => console.error(`The table's UI could not start: ${error.message || error}`));
