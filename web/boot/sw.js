// The offline service worker. build.py fills in the placeholders and writes it
// to dist/sw.js; this template is not copied as it is.
//
// - install: precache exactly the site's files (the list build.py wrote, with
//   each file's SHA-256) into one cache named by their content. Requests are
//   made with cache: "no-cache", so files the page has just loaded come back
//   as 304s from the HTTP cache (validated by ETag) instead of downloading
//   twice. A file whose bytes do not match this build is asked for once more
//   past the HTTP cache (cache: "reload": a host that validated by date can
//   have answered 304 for a deploy whose files are older by date); if it
//   still does not match (a newer deploy mid-install), the whole install
//   fails, so a cache never mixes two builds. The page registers this worker
//   with updateViaCache: "none", so the browser's update checks of this
//   script never stop at the HTTP cache either.
// - activate: delete every other cache of ours (older builds of this copy of
//   the site: one that holds this scope's index.html; a copy of the site under
//   another path of the same origin keeps its own), and take control
//   of the open pages (clients.claim): a first visit's page, once it tells this
//   worker it came from the network ("loaded-online"), starts the engine once
//   more under this worker's control, so that V8 keeps Pyodide's compiled JS
//   for the next visit (engine-client.mjs primeEngine; docs/offline.md).
//   A page open on another build learns that this one took over (its
//   controllerchange; it asks "build" and gets BUILD) and offers a reload at
//   a calm moment (update.mjs).
// - fetch: a page load is either ONLINE or OFFLINE as a whole.
//   * A navigation goes to the network first (navigation preload). If that
//     answers, the page is online and its subresources are not touched at
//     all: the browser fetches them as if there were no service worker, so
//     the HTTP cache and V8's compiled-wasm cache work as without one (a worker
//     that passes responses through, or serves them from Cache Storage, made
//     warm loads slower: docs/performance.md, "What was tried").
//   * If the network fails (or is too slow), the page comes from this cache,
//     and so does every file it asks for: old page with old files, never a
//     mix. Files of a page we know nothing about (e.g. this worker was
//     restarted) go to the network with this cache as the fallback.
"use strict";

const BUILD = "{{SW_BUILD}}"; // a hash of every file below (the table page holds it too)
const CACHE = "cribbage-{{SW_BUILD}}";
const PREFIX = "cribbage-";
const FILES = {{SW_FILES}}; // path relative to this script -> sha256 hex
const NAVIGATION_TIMEOUT_MS = 5000; // then serve the cached page

const scope = new URL("./", self.location.href);
const modes = new Map(); // client id -> "online" | "offline"
let lastNavigation = null; // the mode of the latest navigation, for unknown clients

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The file at `url` if its bytes are `digest`'s, else null.
async function fetchChecked(url, cache, digest) {
  const response = await fetch(new Request(url, { cache }));
  if (!response.ok) throw new Error(`precache: ${url} answered ${response.status}`);
  const body = await response.clone().arrayBuffer();
  return hex(await crypto.subtle.digest("SHA-256", body)) === digest ? response : null;
}

async function precache() {
  const entries = await Promise.all(
    Object.entries(FILES).map(async ([path, digest]) => {
      const url = new URL(path, scope).href;
      const response = (await fetchChecked(url, "no-cache", digest))
        || (await fetchChecked(url, "reload", digest));
      if (!response) throw new Error(`precache: ${path} is not the file of this build`);
      return [url, response];
    }),
  );
  const cache = await caches.open(CACHE);
  await Promise.all(entries.map(([url, response]) => cache.put(url, response)));
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    precache()
      .catch(async (error) => {
        await caches.delete(CACHE); // nothing half-made stays behind
        throw error;
      })
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const page = new URL("index.html", scope).href;
      for (const name of await caches.keys()) {
        if (!name.startsWith(PREFIX) || name === CACHE) continue;
        if (await (await caches.open(name)).match(page)) await caches.delete(name);
      }
      if (self.registration.navigationPreload) {
        await self.registration.navigationPreload.enable();
      }
      await self.clients.claim();
    })(),
  );
});

// A page loaded before this worker controlled it (a first visit) came from the
// network: online, so its requests and its workers' are left to the browser,
// as for any page navigated online. It says so, and waits for the answer,
// before it starts a worker.
// Any page may ask which build this worker is ("build"): update.mjs does, when
// this worker takes control of it.
self.addEventListener("message", (event) => {
  if (event.data === "build") {
    event.ports[0]?.postMessage(BUILD);
    return;
  }
  if (event.data !== "loaded-online" || !event.source) return;
  modes.set(event.source.id, "online");
  event.ports[0]?.postMessage("online");
});

function cachedPage(url) {
  const path = new URL(url).pathname;
  const page = path.endsWith("/") ? new URL("index.html", new URL(path, scope)).href : url;
  return caches.open(CACHE).then((cache) => cache.match(page, { ignoreSearch: true }));
}

function timeout(ms) {
  return new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), ms));
}

async function navigate(event) {
  const remember = (mode) => {
    lastNavigation = mode;
    if (event.resultingClientId) modes.set(event.resultingClientId, mode);
  };
  try {
    const network = Promise.resolve(event.preloadResponse).then(
      (preloaded) => preloaded || fetch(event.request),
    );
    const response = await Promise.race([network, timeout(NAVIGATION_TIMEOUT_MS)]);
    remember("online");
    return response;
  } catch (error) {
    const cached = await cachedPage(event.request.url);
    if (!cached) throw error;
    remember("offline");
    return cached;
  }
}

async function fromCache(request) {
  const cached = await caches.open(CACHE).then((cache) => cache.match(request, { ignoreSearch: true }));
  return cached || fetch(request);
}

async function networkThenCache(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await caches.open(CACHE).then((cache) => cache.match(request, { ignoreSearch: true }));
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(scope.href)) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event));
    return;
  }
  const mode = modes.get(event.clientId) || lastNavigation;
  // A worker started by a page inherits the page's mode.
  if (event.resultingClientId && mode) modes.set(event.resultingClientId, mode);
  if (mode === "online") return; // the browser's own fetch: HTTP cache, wasm code cache
  if (mode === "offline") event.respondWith(fromCache(request));
  else event.respondWith(networkThenCache(request));
});
