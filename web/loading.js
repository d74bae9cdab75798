// The engine's loading indicator, in plain JS so it works before any Python.
//
// Progress is real: the engine's worker (engine-worker.mjs) posts its stages
// and the bytes of its downloads as they arrive, and engine.js passes each
// report on through cribbageEngine.watch(). The MicroPython UI calls
// cribbageLoading.ready() once the engine has answered, or
// cribbageLoading.failed(message) if it cannot load.
(() => {
  "use strict";
  const bar = () => document.getElementById("engine-progress");
  const label = () => document.getElementById("engine-stage");
  let shown = 0;

  function show(percent, text) {
    shown = Math.max(shown, percent); // never moves backwards
    if (bar()) bar().value = shown;
    if (label()) label().textContent = text;
  }

  function megabytes(bytes) {
    return (bytes / 1e6).toFixed(1);
  }

  function progress({ stage, loaded = 0, total = 0, pending = 0 }) {
    if (stage === "runtime") show(5, "Downloading Python…");
    else if (stage === "download" && pending > 0) {
      const part = total > 0 ? loaded / total : 0;
      const sizes = total > 0 ? ` ${megabytes(loaded)} of ${megabytes(total)} MB` : "";
      show(5 + 55 * Math.min(part, 0.99), `Downloading Python…${sizes}`);
    } else if (stage === "download") show(60, "Starting Python…");
    else if (stage === "python") show(85, "Loading the cribbage engine…");
    else if (stage === "engine") show(95, "Loading the cribbage engine…");
  }

  function failed(message) {
    if (bar()) bar().removeAttribute("value");
    if (label()) label().textContent = message;
  }

  // The offline service worker (sw.js, made by build.py), registered only once
  // the engine has answered: its precache then finds every file in the HTTP
  // cache (304s) instead of downloading the site a second time, and it never
  // competes with the first load. Not where service workers are unavailable
  // (plain http on another host, some embedded views).
  function registerOffline() {
    if (!("serviceWorker" in navigator) || !globalThis.isSecureContext) return;
    const script = new URL("./sw.js", document.baseURI);
    navigator.serviceWorker.register(script).then(
      () => performance.mark("cribbage:offline-registered"),
      (error) => console.warn(`Offline play is unavailable: ${error.message}`),
    );
  }

  globalThis.cribbageLoading = {
    ready() {
      show(100, "Ready");
      performance.mark("cribbage:engine-ready");
      setTimeout(registerOffline, 0);
    },
    failed,
  };

  globalThis.cribbageEngine.watch((report) => {
    if (report.progress) progress(report.progress);
    else if (report.failed) failed(`The engine could not load: ${report.failed} Reload to try again.`);
  });
})();
