// The widgets' engine: ONE Pyodide for every widget of a page, as a SharedWorker.
//
// Each embed.html (an iframe on a tutorial author's page) connects to the
// SharedWorker "cribbage-widgets" at this URL. The browser starts it once for
// all the iframes of the same origin within one top-level site (Chrome
// partitions shared workers by the top-level site, so a host page on another
// origin still gets one engine for all its widgets) and keeps it while any of
// them is open. It loads the pinned Pyodide and the engine zip exactly as
// engine-worker.mjs does, then answers every port:
//   port -> worker: {id, name, text}      (a protocol call, see engine_worker.py)
//   worker -> port: {id, reply}           (the JSON reply text)
//                   {ready: {names, worker, connections}}  once the engine is up
//                   {failed: message}     if it cannot load
// Widgets only use stateless calls (show_score, peg_sequence, deal_steps), so
// sharing one interpreter between them needs no locking.
import { loadPyodide } from "./{{PYODIDE_DIR}}/pyodide.mjs";

const ENGINE_ZIP = "./{{ENGINE_ZIP}}";
const WORKER_ID = Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
const ports = new Set();

async function start() {
  const zip = fetch(ENGINE_ZIP).then((response) => {
    if (!response.ok) throw new Error(`${ENGINE_ZIP} answered ${response.status}`);
    return response.arrayBuffer();
  });
  zip.catch(() => {}); // reported when awaited below
  const pyodide = await loadPyodide();
  pyodide.unpackArchive(await zip, "zip", { extractDir: "/home/pyodide" });
  const module = pyodide.pyimport("engine_worker");
  const names = module.__export__.toJs();
  return Object.fromEntries(names.map((name) => [name, module[name]]));
}

const engine = start();
engine.catch(() => {});

function internalError(error) {
  const message = `The engine could not answer: ${error && error.message ? error.message : error}`;
  return JSON.stringify({ ok: false, error: { kind: "internal", type: "WorkerError", message } });
}

function serve(port) {
  ports.add(port);
  port.addEventListener("message", async (event) => {
    const { id, name, text, bye } = event.data || {};
    if (bye) {
      ports.delete(port);
      return;
    }
    let reply;
    try {
      const functions = await engine;
      if (!Object.hasOwn(functions, name)) throw new Error(`no engine function ${name}`);
      reply = String(functions[name](String(text)));
    } catch (error) {
      reply = internalError(error);
    }
    port.postMessage({ id, reply });
  });
  port.start();
  engine.then(
    (functions) =>
      port.postMessage({
        ready: { names: Object.keys(functions), worker: WORKER_ID, connections: ports.size },
      }),
    (error) => port.postMessage({ failed: error && error.message ? error.message : String(error) }),
  );
}

addEventListener("connect", (event) => serve(event.ports[0]));
