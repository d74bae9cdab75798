// The engine's Web Worker: Pyodide running web/engine/bridge.py.
//
// A plain module worker, started by engine.js the moment the table page's <head>
// is parsed (by engine-client.mjs's startEngine when a widget first needs it;
// engine-client.mjs is the one client of these messages), with no PyScript
// bootstrap in front of it (see docs/site.md, "The page and its engine"). It
//  1. starts every download the moment it runs, before Pyodide's own modules
//     (imported alongside, not first: a static import would hold the downloads
//     back by a round trip): the wasm (compiled once it is in), the memory
//     snapshot, the engine archive, the stdlib zip, pyodide.mjs and
//     pyodide.asm.mjs; the lock file is written in here (no request at all);
//  2. reports real progress to the page: bytes of the big downloads as they
//     arrive, then "python" (the interpreter is up), then "engine";
//  3. writes the engine archive (the `cribbage` package and bridge.py with
//     their bytecode) into Python's working directory and imports bridge;
//  4. answers {id, name, text} with {id, reply}: reply is the JSON text that
//     bridge.call(name, text) returned (it never raises; a failure in
//     transit still comes back as a protocol error reply).
// Messages to the page: {progress: {stage, ...}}, {ready: [names], hello: reply},
// {failed: message}, {id, reply}.
const PYODIDE = new URL("./{{PYODIDE_DIR}}/", import.meta.url).href;

// The engine's files the snapshot does not hold (its data and catalogues), and,
// for a start without the snapshot, every file (fetched only then).
const ENGINE_ARCHIVE = "./{{ENGINE_ARCHIVE}}";
const WHOLE_ENGINE = "./{{WHOLE_ENGINE}}";
// Python's memory with the engine imported, taken at build time by this very
// Pyodide under Node (sitebuild/precompile.py): restored instead of starting Python.
const ENGINE_SNAPSHOT = "./{{ENGINE_SNAPSHOT}}";
// The stdlib beside the snapshot: only the modules it does not hold. (The
// folder's python_stdlib.zip is the whole stdlib, for PyScript's pages.)
const SNAPSHOT_STDLIB = `${PYODIDE}python_stdlib-snapshot.zip`;
// The tracked downloads' own sizes (a compressing host's Content-Length is not).
const SIZES = {{DOWNLOAD_SIZES}};
const TRACKED = Object.keys(SIZES);

function report(stage, detail = {}) {
  postMessage({ progress: { stage, time: performance.now(), ...detail } });
}

// Count the bytes of the tracked downloads: the wasm's once it is all in (the
// browser collects it: see whole), the others' as their consumer reads them
// (not through a clone, which copies every byte). Files read from the offline
// copy count as loaded at once: they are on this device, and counting them
// cost a return visit 20-30 ms of this thread. pending = tracked downloads
// started and not finished.
const totals = { loaded: 0, total: 0, pending: 0 };
const realFetch = globalThis.fetch;
let lastReport = 0;

function arrived(bytes) {
  totals.loaded += bytes;
  const now = performance.now();
  if (now - lastReport > 50) {
    lastReport = now;
    report("download", { ...totals });
  }
}

function finished() {
  totals.pending -= 1;
  report("download", { ...totals });
}

// `response` with its body collected by the browser as a blob, counted once it
// is all in. For the wasm from the network: streamed, its bytes passed through
// this thread, which Pyodide's own JS holds for a tenth of a second while the
// big downloads run on a first visit, and both downloads stalled meanwhile (a
// trace); collected as a blob, they do not wait on this thread, and compiling
// the whole module then takes a few tens of ms (engine ready on a cold visit
// 865 against 905 ms, 16 alternating rounds: docs/performance.md).
async function whole(response) {
  const blob = await response.blob();
  arrived(blob.size);
  finished();
  const { status, statusText, headers } = response;
  return new Response(blob, { status, statusText, headers });
}

// `response` with its body counted as it is read.
function counted(response) {
  const counter = new TransformStream({
    transform(chunk, controller) {
      arrived(chunk.byteLength);
      controller.enqueue(chunk);
    },
    flush: finished,
  });
  const { status, statusText, headers } = response;
  return new Response(response.body.pipeThrough(counter), { status, statusText, headers });
}

// Files asked for first thing (start), answered from here when Pyodide asks.
const early = new Map();

// On a return visit the offline service worker's cache (web/boot/sw.js, which
// checked every file's SHA-256 when it stored it) already holds the downloads,
// inflated: read from there they skip the HTTP cache's brotli decoding, most
// of a warm start (docs/performance.md). Every tracked file is named by its
// content, so a stored copy is this very file. Null when there is none.
// Looked up only when the page that started this worker says the service worker
// controls it (the worker's name, engine-client.mjs workerOptions): the first
// opening of Cache Storage in a new profile took 4-250 ms, which a first visit
// would spend before every download.
const STORED = globalThis.name === "cribbage-engine:stored" && Boolean(globalThis.caches);
let ourCaches = null; // the names of the service worker's caches, looked up once
const lookups = []; // every look-up begun (start lets them finish before the imports)

function stored(url) {
  if (!STORED) return Promise.resolve(null);
  const lookup = lookUp(url);
  lookups.push(lookup);
  return lookup;
}

async function lookUp(url) {
  try {
    ourCaches ??= caches.keys().then((names) => names.filter((n) => n.startsWith("cribbage-")));
    for (const name of await ourCaches) {
      const response = await (await caches.open(name)).match(url);
      if (response) return response;
    }
  } catch {
    // Storage refused (a private window's quota, a cache being deleted): the network.
  }
  return null;
}

globalThis.fetch = async (input, init) => {
  const url = String(input && input.url ? input.url : input);
  if (wasmModule && url === WASM) return new Response(null); // Pyodide's: never read
  if (early.has(url)) {
    const response = early.get(url);
    early.delete(url); // once: a later request (a start without the snapshot) goes out
    return response;
  }
  if (!TRACKED.some((name) => url.endsWith(name))) return realFetch(input, init);
  totals.pending += 1;
  report("download", { ...totals });
  let response;
  let local;
  try {
    local = await stored(url);
    response = local || (await realFetch(input, init));
  } catch (error) {
    totals.pending -= 1;
    throw error;
  }
  const size = SIZES[TRACKED.find((name) => url.endsWith(name))];
  totals.total += size;
  if (local || !response.ok || !response.body) {
    if (local) totals.loaded += size;
    finished();
    return response;
  }
  report("download", { ...totals });
  return url === WASM ? whole(response) : counted(response);
};

// The wasm compiles as soon as it is in, whatever the snapshot's state. Left
// to itself, Pyodide would start compiling only once the whole snapshot is in
// (it sizes the memory from it); it asks for the module through
// WebAssembly.instantiateStreaming, answered here with this module. Its own
// request for the file is answered with nothing, as it is never read.
// `restoring` (the snapshot being read, if any) completes the snapshot from
// the fresh instance, which Pyodide restores right after.
const WASM = `${PYODIDE}pyodide.asm.wasm`;
let wasmModule = null; // started first thing in start()
let restoring = null;

WebAssembly.instantiateStreaming = async (_source, imports) => {
  const module = await wasmModule;
  const snapshot = restoring;
  if (snapshot) await snapshot.filled;
  const instance = await WebAssembly.instantiate(module, imports);
  if (snapshot) {
    try {
      snapshot.takeStaticData(instance.exports.memory);
    } catch (error) {
      snapshot.fail(error); // Pyodide would only log it, and wait for ever
      throw error;
    }
  }
  return { module, instance };
};

function fail(error) {
  const message = error && error.message ? error.message : String(error);
  postMessage({ failed: message });
}

// The engine archive (a .tar.gz made by build.py), inflated as it downloads.
async function fetchEngine(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const inflated = response.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
}

// The files of a ustar archive: [[path, bytes], ...] (build.py writes only files).
function untar(tar) {
  const decoder = new TextDecoder();
  const text = (start, length) => {
    const bytes = tar.subarray(start, start + length);
    const end = bytes.indexOf(0);
    return decoder.decode(end < 0 ? bytes : bytes.subarray(0, end));
  };
  const files = [];
  for (let offset = 0; offset + 512 <= tar.length && tar[offset] !== 0; ) {
    const size = parseInt(text(offset + 124, 12).trim() || "0", 8);
    const prefix = text(offset + 345, 155);
    const name = (prefix ? `${prefix}/` : "") + text(offset, 100);
    files.push([name, tar.subarray(offset + 512, offset + 512 + size)]);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

// Written from JS: faster at start-up than Python's zipfile (pyodide.unpackArchive).
function install(pyodide, tar, home) {
  for (const [name, bytes] of untar(tar)) {
    const path = `${home}/${name}`;
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    pyodide.FS.writeFile(path, bytes);
  }
}

// The snapshot file holds only what the page cannot make itself
// (sitebuild/sparse.py): a header (magic, the snapshot's size, where the wasm
// memory starts in it), then records of (offset, length, bytes). A record whose
// length has its top bit (FROM_WASM) set carries no bytes: they are the wasm's own static
// data, copied from the fresh instance's memory (takeStaticData); bytes no
// record covers are zero. `memory` resolves with the whole snapshot, zeroed, as
// soon as the header is in (Pyodide sizes the wasm memory from it); `filled`
// once every record's bytes have been copied in as they streamed.
function readSnapshot() {
  let sized;
  const memory = new Promise((resolve, reject) => { sized = { resolve, reject }; });
  const snapshot = { memory, takeStaticData: null };
  snapshot.failed = new Promise((_, reject) => { snapshot.fail = reject; });
  snapshot.failed.catch(() => {}); // reported through startPython
  snapshot.filled = fillSnapshot(snapshot, sized.resolve);
  snapshot.filled.catch((error) => sized.reject(error)); // no header: memory fails too
  memory.catch(() => {}); // reported through `filled`
  return snapshot;
}

async function fillSnapshot(snapshot, sized) {
  const response = await fetch(ENGINE_SNAPSHOT);
  if (!response.ok) throw new Error(`${ENGINE_SNAPSHOT} answered ${response.status}`);
  const reader = response.body.getReader();
  const unpacker = snapshotUnpacker(ENGINE_SNAPSHOT, sized);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    unpacker.feed(value);
  }
  snapshot.takeStaticData = unpacker.finish();
}

// --- snapshotUnpacker: no I/O (tests/browser/test_web_units.py runs it under Node)
// The packed snapshot's reader, fed its bytes in chunks of any size:
// feed(chunk) copies each record's bytes into the snapshot as they come (the
// snapshot is allocated, zeroed, and handed to sized() once the file's header
// is in); finish() checks that the file ended where a record did and returns
// takeStaticData(wasmMemory), which copies the FROM_WASM records' bytes from a
// fresh instance's memory. 28,000 records, half of them under 32 bytes: the
// reader reads headers in place and copies short runs byte by byte, as a view
// per record (subarray) cost a tenth of a second of a return visit in
// allocations and garbage collection.
function snapshotUnpacker(name, sized) {
  const MAGIC = "CRIBMEM2";
  const LENGTH = 0x7fffffff; // a record's length without its FROM_WASM bit
  const FILE_HEADER = 16;
  const RECORD_HEADER = 8;
  const split = new Uint8Array(FILE_HEADER); // a header cut between two chunks
  const splitFields = new DataView(split.buffer);
  let have = 0; // bytes of `split` filled
  let memory = null; // the snapshot, once the file's header is in
  let start = 0; // where the wasm memory starts in the snapshot
  let at = 0; // where the current record's bytes go
  let left = 0; // bytes of the current record still to come
  const fromWasm = []; // offset, length, offset, length, ...

  function header(fields, base) {
    if (!memory) {
      const magic = String.fromCharCode(...new Uint8Array(fields.buffer, fields.byteOffset + base, 8));
      if (magic !== MAGIC) throw new Error(`${name} is not a packed memory`);
      memory = new Uint8Array(fields.getUint32(base + 8, true));
      start = fields.getUint32(base + 12, true);
      sized(memory);
      return;
    }
    at = fields.getUint32(base, true);
    const length = fields.getUint32(base + 4, true);
    left = length & LENGTH;
    if (at + left > memory.length || (length !== left && at < start)) {
      throw new Error(`${name} is damaged`);
    }
    if (length !== left) { // FROM_WASM: no bytes follow
      fromWasm.push(at, left);
      left = 0;
    }
  }

  function feed(chunk) {
    const fields = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let pos = 0;
    while (pos < chunk.length) {
      if (left > 0) {
        const count = Math.min(left, chunk.length - pos);
        copy(chunk, pos, count, memory, at);
        pos += count;
        at += count;
        left -= count;
        continue;
      }
      const size = memory ? RECORD_HEADER : FILE_HEADER;
      if (have === 0 && chunk.length - pos >= size) {
        header(fields, pos);
        pos += size;
        continue;
      }
      const count = Math.min(size - have, chunk.length - pos);
      copy(chunk, pos, count, split, have);
      pos += count;
      have += count;
      if (have < size) break; // the rest comes in the next chunk
      have = 0;
      header(splitFields, 0);
    }
  }

  function finish() {
    if (!memory || left > 0 || have > 0) throw new Error(`${name} is cut short`);
    return (wasmMemory) => {
      const fresh = new Uint8Array(wasmMemory.buffer);
      for (let i = 0; i < fromWasm.length; i += 2) {
        const from = fromWasm[i] - start;
        if (from + fromWasm[i + 1] > fresh.length) throw new Error(`${name} is damaged`);
        copy(fresh, from, fromWasm[i + 1], memory, fromWasm[i]);
      }
    };
  }

  return { feed, finish };
}

function copy(source, from, count, target, to) {
  if (count > 64) target.set(source.subarray(from, from + count), to);
  else for (let i = 0; i < count; i++) target[to + i] = source[from + i];
}
// --- end snapshotUnpacker

// Python from the build's memory snapshot (the engine already imported), or,
// if there is none or Pyodide refuses it, started as usual. Each waits on the
// wasm module too: Pyodide would hang, not fail, if instantiating it failed.
async function startPython(snapshot, modules) {
  // Pyodide's options: the lock file as build.py wrote it (no packages), and
  // the module factory already imported (pyodide.asm.mjs), so neither is fetched.
  const [{ loadPyodide }, { default: createPyodideModule }] = await modules;
  const options = { indexURL: PYODIDE, lockFileContents: {{PYODIDE_LOCK}}, createPyodideModule };
  try {
    restoring = snapshot;
    const [pyodide] = await Promise.race([snapshot.failed, Promise.all([
      loadPyodide({ ...options, stdLibURL: SNAPSHOT_STDLIB, _loadSnapshot: snapshot.memory }),
      snapshot.filled, wasmModule])]);
    return { pyodide, restored: true };
  } catch (error) {
    restoring = null;
    console.warn(`The engine's snapshot was not used (${error && error.message}): starting Python.`);
    const stdLibURL = `${PYODIDE}python_stdlib-start.zip`;
    const [pyodide] = await Promise.all([loadPyodide({ ...options, stdLibURL }), wasmModule]);
    return { pyodide, restored: false };
  }
}

async function start() {
  report("runtime");
  wasmModule = WebAssembly.compileStreaming(fetch(WASM));
  wasmModule.catch(() => {}); // reported when Python starts
  const snapshot = readSnapshot();
  const engineArchive = fetchEngine(ENGINE_ARCHIVE);
  engineArchive.catch(() => {}); // reported when awaited below
  early.set(SNAPSHOT_STDLIB, fetch(SNAPSHOT_STDLIB)); // Pyodide asks for it once the wasm is in
  // Compiling Pyodide's 1.25 MB of JS holds this thread: the cache's answers
  // (a return visit) come first, so its files stream in meanwhile.
  await Promise.all(lookups);
  const modules = Promise.all([import(`${PYODIDE}pyodide.mjs`), import(`${PYODIDE}pyodide.asm.mjs`)]);
  modules.catch(() => {}); // reported when Python starts
  const { pyodide, restored } = await startPython(snapshot, modules);
  report("python", { restored });
  // The file system lives outside Python's memory: the engine's files are
  // written either way (beside the snapshot its data; else every module too).
  install(pyodide, await (restored ? engineArchive : fetchEngine(WHOLE_ENGINE)), "/home/pyodide");
  const bridge = pyodide.pyimport("bridge");
  if (restored) bridge.reseed();
  const names = bridge.ENDPOINTS.toJs();
  report("engine");
  return { names, call: (name, text) => String(bridge.call(name, text)) };
}

// Ready comes with the endpoints' names and the engine's hello reply, so the
// page keeps no list of names and need not ask for hello.
const engine = start();
engine.then(
  (bridge) => postMessage({ ready: bridge.names, hello: bridge.call("hello", "{}") }),
  fail,
);

function internalError(error) {
  const message = `The engine could not answer: ${error && error.message ? error.message : error}`;
  return JSON.stringify({ ok: false, error: { kind: "internal", type: "WorkerError", message } });
}

// Calls may arrive before Python is up: each waits for the engine, in order.
addEventListener("message", async (event) => {
  const { id, name, text } = event.data || {};
  let reply;
  try {
    const bridge = await engine;
    reply = bridge.call(String(name), text === undefined ? "{}" : String(text));
  } catch (error) {
    reply = internalError(error);
  }
  postMessage({ id, reply });
});
