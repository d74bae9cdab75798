// Loads Pyodide for the engine worker and reports real progress to the page.
//
// PyScript's config points its `interpreter` at this module (copied beside
// pyodide.mjs by build.py, so PyScript derives the right indexURL from it).
// PyScript calls our loadPyodide as it would Pyodide's own. While it runs we:
//  - count the bytes of the runtime's big downloads (reading a clone of each
//    response, so Pyodide still gets the original and V8 can cache the wasm),
//  - forward PyScript's own "py:progress" stages from this worker,
// and post each step to the page as {cribbageProgress: {...}} messages.
import { loadPyodide as realLoadPyodide, version } from "./pyodide.mjs";

export { version };

const TRACKED = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

function report(stage, detail = {}) {
  try {
    postMessage({ cribbageProgress: { stage, time: performance.now(), ...detail } });
  } catch (error) {
    // Progress is best effort: never let it break loading.
  }
}

function trackDownloads() {
  const realFetch = globalThis.fetch;
  // pending: tracked downloads started and not finished (sizes are known only
  // once each response's headers arrive, so "done" means pending === 0).
  const totals = { loaded: 0, total: 0, pending: 0 };
  globalThis.fetch = async (input, init) => {
    const url = String(input && input.url ? input.url : input);
    if (!TRACKED.some((name) => url.endsWith(name))) return realFetch(input, init);
    totals.pending += 1;
    report("download", { ...totals });
    let response;
    try {
      response = await realFetch(input, init);
    } catch (error) {
      totals.pending -= 1;
      throw error;
    }
    totals.total += Number(response.headers.get("Content-Length") || 0);
    if (response.body) countBytes(response.clone(), totals);
    else totals.pending -= 1;
    report("download", { ...totals });
    return response;
  };
}

async function countBytes(response, totals) {
  const reader = response.body.getReader();
  let last = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      totals.loaded += value.byteLength;
      const now = performance.now();
      if (now - last > 50) {
        last = now;
        report("download", { ...totals });
      }
    }
  } finally {
    totals.pending -= 1;
    report("download", { ...totals });
  }
}

addEventListener("py:progress", (event) => report("pyscript", { text: String(event.detail) }));

export async function loadPyodide(options) {
  report("runtime");
  trackDownloads();
  const pyodide = await realLoadPyodide(options);
  report("python");
  return pyodide;
}
