// The engine's loading indicator, in plain JS so it works before any Python.
//
// Progress is real: the engine worker's loader (pyodide-loader.mjs) posts
// {cribbageProgress: {stage, ...}} messages as bytes arrive and as Python
// starts; the MicroPython UI calls cribbageLoading.ready() once the engine
// has answered, or cribbageLoading.failed(message) if it cannot load.
import { hooks } from "./{{PYSCRIPT_DIR}}/core.js";

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

function onProgress({ stage, loaded = 0, total = 0, pending = 0, text = "" }) {
  if (stage === "runtime") show(8, "Downloading Python…");
  else if (stage === "download" && pending > 0) {
    const part = total > 0 ? loaded / total : 0;
    const sizes = total > 0 ? ` ${megabytes(loaded)} of ${megabytes(total)} MB` : "";
    show(8 + 52 * Math.min(part, 0.99), `Downloading Python…${sizes}`);
  } else if (stage === "download") show(60, "Starting Python…");
  else if (stage === "python") show(85, "Loading the cribbage engine…");
  else if (stage === "pyscript" && text === "Loaded files") show(92, "Loading the cribbage engine…");
  performance.mark(`cribbage:progress:${stage}`);
}

hooks.main.onWorker.add((wrap, xworker) => {
  show(5, "Starting the engine…");
  xworker.addEventListener("message", (event) => {
    const progress = event.data && event.data.cribbageProgress;
    if (progress) onProgress(progress);
  });
});

globalThis.cribbageLoading = {
  ready() {
    show(100, "Ready");
    performance.mark("cribbage:engine-ready");
  },
  failed(message) {
    if (bar()) bar().removeAttribute("value");
    if (label()) label().textContent = message;
  },
};
