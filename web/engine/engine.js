// Starts the engine at navigation and bridges the page to it.
//
// A classic script, the first thing in <head>, so the parser starts the
// engine's worker (engine-worker.mjs: Pyodide running the cribbage engine)
// before it even reads the stylesheets: the worker's downloads and Python's
// start overlap everything else the page does. It exposes the engine as
// `window.cribbageEngine`:
//
//   const engine = await window.cribbageEngine.ready;   // rejects if it cannot load
//   const reply = JSON.parse(await engine.new_game('{"seed": 7}'));
//
// Each protocol function (see web/bridge.py) takes one JSON string and
// returns a promise of one JSON string. Calls made before the engine is ready
// wait for it. MicroPython awaits these promises as it awaits its own.
// `engine.watch(listener)` reports loading: listener({progress}) for each real
// stage (the latest one replayed at once) and listener({failed: message}).
(() => {
  "use strict";
  const NAMES = [
    "hello",
    "new_game",
    "state",
    "view",
    "legal_moves",
    "apply_move",
    "computer_move",
    "save",
    "load",
    "score",
  ];
  const here = document.currentScript ? document.currentScript.src : location.href;
  const worker = new Worker(new URL("./engine-worker.mjs", here), { type: "module" });
  const pending = new Map(); // call id -> {resolve, reject}
  const listeners = [];
  let nextId = 1;
  let latest = null; // the last loading report, replayed to late listeners
  let broken = null; // the error once the engine cannot answer

  let markReady;
  let markFailed;
  const ready = new Promise((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  ready.catch(() => {}); // shown through watch(); callers see it when they await

  function tell(report) {
    latest = report;
    for (const listener of listeners) listener(report);
  }

  function breakDown(message) {
    if (broken) return;
    broken = new Error(message);
    markFailed(broken);
    for (const { reject } of pending.values()) reject(broken);
    pending.clear();
    tell({ failed: message });
  }

  function call(name, text = "{}") {
    if (broken) return Promise.reject(broken);
    return new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, name, text: String(text) });
    });
  }

  const engine = {
    ready,
    watch(listener) {
      listeners.push(listener);
      if (latest) listener(latest);
    },
  };
  for (const name of NAMES) engine[name] = (text) => call(name, text);

  worker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.id !== undefined) {
      const waiting = pending.get(data.id);
      pending.delete(data.id);
      if (waiting) waiting.resolve(data.reply);
    } else if (data.progress) {
      performance.mark(`cribbage:progress:${data.progress.stage}`);
      tell({ progress: data.progress });
    } else if (data.ready) {
      for (const name of data.ready) engine[name] ??= (text) => call(name, text);
      // The worker said hello as it became ready: a plain hello needs no round trip.
      const greeting = data.hello;
      engine.hello = (text = "{}") =>
        greeting && String(text) === "{}" ? Promise.resolve(greeting) : call("hello", text);
      markReady(engine);
    } else if (data.failed) {
      breakDown(data.failed);
    }
  });
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    breakDown(event.message || "the engine's worker stopped.");
  });

  globalThis.cribbageEngine = engine;
})();
