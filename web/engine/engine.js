// Starts the engine's worker at navigation, and nothing else.
//
// A classic script, the first thing in <head> (the build writes it into the
// page: sitebuild/inline.py), so the parser creates the engine's worker
// (engine-worker.mjs: Pyodide running the cribbage engine) before it even
// reads the stylesheets: the worker's downloads and Python's start overlap
// everything else the page does. The worker's first messages (its loading
// reports, perhaps "ready") are held until the one engine client
// (engine-client.mjs, through loading.mjs) adopts the worker and publishes
// window.cribbageEngine (see engine-client.mjs and docs/engine.md, "The engine from the page").
(() => {
  "use strict";
  const here = document.currentScript?.src || location.href; // inlined: no src
  // Named "stored" when the offline service worker controls this page: its cache
  // holds the engine's files, which the worker then reads from there (as
  // engine-client.mjs's workerOptions: this classic script cannot import it).
  const name = navigator.serviceWorker?.controller ? "cribbage-engine:stored" : "cribbage-engine";
  const worker = new Worker(new URL("./engine-worker.mjs", here), { type: "module", name });
  const early = [];
  const hold = (event) => {
    if (event.type === "error") event.preventDefault(); // reported by the client
    early.push(event);
  };
  worker.addEventListener("message", hold);
  worker.addEventListener("error", hold);
  globalThis.cribbageEngineWorker = {
    worker,
    adopt() {
      worker.removeEventListener("message", hold);
      worker.removeEventListener("error", hold);
      return early.splice(0);
    },
  };
})();
