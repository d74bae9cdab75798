// What the table's and the replay viewer's Python UI needs on the JavaScript side.
//
// The UI is MicroPython on the main thread, started by PyScript's core (the
// pages' <script type="mpy" src="./main.py" config=…>: docs/site.md, "The page
// and its engine"). This module, a module script before PyScript's in the
// page's <head>, gives the UI the few JS helpers below (it reaches them through
// `pyscript.window`) and adds two of PyScript's hooks (its plugin API), which
// keep the start in short main-thread tasks:
//  - before the page's script, PyScript runs its own prologue: it writes its
//    `pyscript` package into MicroPython's file system and imports it, in one
//    task. On a cold page MicroPython's wasm is compiled by V8 function by
//    function as it first runs, so that task would also pay for compiling
//    MicroPython's own compiler. `onReady` first runs, one per turn, the
//    imports the prologue needs that are frozen into MicroPython (no compile)
//    and the UI's first pure module (`stored`, which main.py and replay.py
//    import first), so the prologue finds them done and the compiler warm;
//  - after the prologue, a turn (`codeBeforeRunAsync`), so the page's script
//    starts in a task of its own.
import { hooks } from "./{{PYSCRIPT_DIR}}/core.js";
import * as board from "./pegboard.mjs";

// The page preloads the interpreter's wasm and the UI's modules with
// <link rel="preload" as="fetch"> and no crossorigin: mode no-cors, credentials
// included (a same-origin response stays readable). A fetch reuses a preload only
// if its request matches, and WebKit compares the Origin header too, which a
// crossorigin preload sends and PyScript's plain fetch() does not. So the first
// fetch of each preloaded file (PyScript's, MicroPython's loader's) is made as the
// preload was, and each is downloaded once in Chromium, Firefox and WebKit alike.
const PRELOADED = { mode: "no-cors", credentials: "include" };
const preloads = new Set(
  [...document.querySelectorAll('link[rel="preload"][as="fetch"]')].map((link) => link.href),
);
const pageFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = typeof input === "string" || input instanceof URL
    ? new URL(input, document.baseURI).href : null;
  const plain = !init || ((init.method ?? "GET") === "GET" && init.body == null);
  if (url && plain && preloads.delete(url)) return pageFetch(url, { ...init, ...PRELOADED });
  return pageFetch(input, init);
};

// Run, one event-loop turn each, before PyScript's prologue (see above).
const WARM_UP = [
  "import base64", // pyscript.display's; its module body is the slowest of them
  "import asyncio, collections, functools, html, inspect, io, json, os, pathlib",
  "import stored",
];

// A promise that settles in a later task: awaited from Python (dom.next_turn), it
// gives the browser a turn between two pieces of the UI's work.
globalThis.cribbageNextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));
// The peg board (pegboard.mjs): the table and the replay viewer draw and move it with the
// widgets' own code, so there is one board.
globalThis.cribbageBoard = board;
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

hooks.main.onReady.add(async ({ interpreter }) => {
  for (const code of WARM_UP) {
    await cribbageNextTurn();
    interpreter.runPython(code);
  }
  await cribbageNextTurn();
});
hooks.main.codeBeforeRunAsync.add("import js\nawait js.cribbageNextTurn()");
