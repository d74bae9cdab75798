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
  const totals = { loaded: 0, total: 0 };
  globalThis.fetch = async (input, init) => {
    const response = await realFetch(input, init);
    const url = String(input && input.url ? input.url : input);
    if (!TRACKED.some((name) => url.endsWith(name)) || !response.body) return response;
    totals.total += Number(response.headers.get("Content-Length") || 0);
    report("download", { ...totals });
    countBytes(response.clone(), totals);
    return response;
  };
}

async function countBytes(response, totals) {
  const reader = response.body.getReader();
  let last = 0;
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
  report("download", { ...totals });
}

addEventListener("py:progress", (event) => report("pyscript", { text: String(event.detail) }));

export async function loadPyodide(options) {
  report("runtime");
  trackDownloads();
  const pyodide = await realLoadPyodide(options);
  report("python");
  return pyodide;
}
