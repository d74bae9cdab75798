// The one client of the engine's worker (engine-worker.mjs), for the table, the
// widgets and the tutorial.
//
// The worker speaks: page -> worker {id, name, text}; worker -> page
// {progress: {stage, ...}}, {ready: [endpoint names], hello: reply}, {failed: message},
// {id, reply}. connect(worker) wraps one worker in a client:
//
//   client.call(name, text)  -> promise of the reply text (posted at once: the
//                               worker answers calls in order once Python is up)
//   client.hello(text)       -> the hello reply the worker sent with "ready"
//                               (no round trip for a plain hello)
//   client.ready             -> promise of the endpoint names, the engine's own
//                               list (cribbage.protocol.ENDPOINTS, sent with "ready");
//                               rejects with the worker's error
//   client.watch(listener)   -> listener({progress}) for each loading report (the
//                               latest replayed at once) and listener({failed: message})
//   client.endpoints, client.error   (null until known)
//
// Who starts the worker:
// - the table page: engine.js, a classic script first in <head>, creates it at
//   navigation and holds its first messages; tableEngine() (called by
//   loading.mjs) adopts that worker and publishes window.cribbageEngine, with
//   one method per endpoint (see engineObject);
// - the widgets: startEngine() when a widget first needs the engine (embed.mjs
//   shares that one client with its sibling frames).

const WORKER = new URL("./engine-worker.mjs", import.meta.url);

/** A new engine worker's options: a module worker named "stored" when the offline
 * service worker controls this page, so its cache holds the engine's files and the
 * worker reads them from there (engine-worker.mjs); a first visit never waits on
 * Cache Storage, whose first opening in a new profile can take a quarter second. */
export function workerOptions() {
  const stored = globalThis.navigator?.serviceWorker?.controller;
  return { type: "module", name: stored ? "cribbage-engine:stored" : "cribbage-engine" };
}

/** A new engine worker and its client. */
export function startEngine() {
  return connect(new Worker(WORKER, workerOptions()));
}

/**
 * An engine started and ended at once, for V8's sake: a promise of true once a
 * throwaway engine worker was ready, false if it failed or took over
 * `timeoutMs`. Started by a first visit's page once the offline service
 * worker controls it (loading.mjs): V8 keeps the code it compiled for
 * Pyodide's JS in a worker the service worker controls, and the next visit's
 * engine starts from that code instead of compiling 1.25 MB of JS again
 * (docs/offline.md). A worker started before the page was controlled
 * leaves only part of that code behind, and for good.
 */
export function primeEngine(timeoutMs = 60000) {
  const worker = new Worker(WORKER, workerOptions());
  const client = connect(worker, [], { marks: false }); // its reports are not the page's
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(false), timeoutMs); });
  return Promise.race([client.ready.then(() => true, () => false), late]).then((ready) => {
    clearTimeout(timer);
    worker.terminate();
    return ready;
  });
}

/** A client for `worker`; `early` are the events it sent before (replayed in order).
 * Each loading report is marked on the page's performance timeline
 * (cribbage:progress:<stage>) unless `marks` is false. */
export function connect(worker, early = [], { marks = true } = {}) {
  const pending = new Map(); // call id -> {resolve, reject}
  const listeners = [];
  let nextId = 1;
  let latest = null; // the last loading report, replayed to late listeners
  let greeting = null; // the hello reply sent with "ready"

  let markReady;
  let markFailed;
  const ready = new Promise((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  ready.catch(() => {}); // shown through watch(); callers see it when they await

  const client = {
    ready,
    endpoints: null,
    error: null,
    call(name, text = "{}") {
      if (client.error) return Promise.reject(client.error);
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, name: String(name), text: String(text) });
      });
    },
    hello(text = "{}") {
      if (String(text) !== "{}") return client.call("hello", text);
      if (greeting !== null) return Promise.resolve(greeting);
      return ready.then(() => (greeting !== null ? greeting : client.call("hello", text)));
    },
    watch(listener) {
      listeners.push(listener);
      if (latest) listener(latest);
    },
  };

  function tell(report) {
    latest = report;
    for (const listener of listeners) listener(report);
  }

  function breakDown(message) {
    if (client.error) return;
    client.error = new Error(message);
    markFailed(client.error);
    for (const { reject } of pending.values()) reject(client.error);
    pending.clear();
    tell({ failed: message });
  }

  function receive(event) {
    if (event.type === "error") {
      event.preventDefault?.();
      breakDown(event.message || "the engine's worker stopped.");
      return;
    }
    const data = event.data || {};
    if (data.id !== undefined) {
      const waiting = pending.get(data.id);
      pending.delete(data.id);
      if (waiting) waiting.resolve(data.reply);
    } else if (data.progress) {
      // when the report arrived (a replayed one keeps its own time)
      if (marks) {
        performance.mark(`cribbage:progress:${data.progress.stage}`, {
          startTime: event.timeStamp,
          detail: data.progress,
        });
      }
      tell({ progress: data.progress });
    } else if (data.ready) {
      client.endpoints = Array.from(data.ready, String);
      greeting = typeof data.hello === "string" ? data.hello : null;
      markReady(client.endpoints);
    } else if (data.failed) {
      breakDown(data.failed);
    }
  }

  for (const event of early) receive(event);
  worker.addEventListener("message", receive);
  worker.addEventListener("error", receive);
  return client;
}

/**
 * The page's face of a client, as window.cribbageEngine: `ready` (a promise of
 * this same object, rejecting if the engine cannot load), `watch`, `hello`, and
 * one method per endpoint, each taking a JSON string and returning a promise of
 * a JSON string. The endpoints are the worker's list, known once it is ready;
 * until then any endpoint's method may be called (it is posted at once and
 * answered when the engine is up; a name the engine lacks gets its bad-request
 * reply). `then` is never a method: the object is what `ready` resolves to.
 */
export function engineObject(client) {
  const methods = new Map();
  const method = (name) => {
    if (!methods.has(name)) methods.set(name, (text = "{}") => client.call(name, text));
    return methods.get(name);
  };
  const own = { watch: client.watch, hello: client.hello };
  let engine = null;
  const endpoint = (name) =>
    typeof name === "string" && name !== "then" && /^[a-z][a-z0-9_]*$/.test(name) &&
    (client.endpoints === null ? !client.error : client.endpoints.includes(name));
  engine = new Proxy(own, {
    get(target, name) {
      if (name === "ready") return ready;
      if (name in target) return target[name]; // watch, hello, and Object's own (toString…)
      return endpoint(name) ? method(name) : undefined;
    },
    has(target, name) {
      return name === "ready" || Object.hasOwn(target, name) ||
        (client.endpoints !== null && client.endpoints.includes(name));
    },
    ownKeys(target) {
      return ["ready", ...Reflect.ownKeys(target), ...(client.endpoints || [])
        .filter((name) => !Object.hasOwn(target, name))];
    },
    getOwnPropertyDescriptor(target, name) {
      if (Object.hasOwn(target, name)) return Reflect.getOwnPropertyDescriptor(target, name);
      if (name === "ready" || (client.endpoints || []).includes(name)) {
        return { value: engine[name], writable: false, enumerable: true, configurable: true };
      }
      return undefined;
    },
  });
  const ready = client.ready.then(() => engine);
  ready.catch(() => {});
  return engine;
}

/**
 * The table page's engine: adopts the worker that engine.js started at
 * navigation (window.cribbageEngineWorker: the worker and the events it sent
 * meanwhile) and publishes it as window.cribbageEngine. Without engine.js it
 * starts the worker itself.
 */
export function tableEngine() {
  if (!globalThis.cribbageEngine) {
    const started = globalThis.cribbageEngineWorker;
    delete globalThis.cribbageEngineWorker;
    const client = started ? connect(started.worker, started.adopt()) : startEngine();
    globalThis.cribbageEngine = engineObject(client);
  }
  return globalThis.cribbageEngine;
}
