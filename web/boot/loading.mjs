// The engine's loading indicator, in plain JS so it works before any Python.
//
// Progress is real: the engine's worker (engine-worker.mjs) posts its stages
// and the bytes of its downloads as they arrive; engine.js started that worker
// at navigation, and the engine client (engine-client.mjs) adopts it here,
// publishes window.cribbageEngine and passes each report on through watch(). The MicroPython UI calls
// cribbageLoading.ready() once the engine has answered, or
// cribbageLoading.failed(message) if it cannot load.
//
// The page's language is chosen here too, before any Python, so that a
// Spanish or Japanese player sees the page in their language at once: a link's
// `?lang=ja`, else the stored choice, else the browser's languages, else English (lang.mjs, the
// JS side of cribbage/i18n.py; a browser test compares the two). The
// catalogue is dist/lang/<code>.json (build.py merges the engine's words and
// the page's); the static page marks its words with data-i18n (text) and
// data-i18n-aria-label / data-i18n-title (attributes). The header's language
// switch changes the language at once and keeps the choice in localStorage;
// the UI (MicroPython) takes the same catalogue through
// cribbageLoading.language() and the "cribbage:language" event.
//
// A module (deferred like the classic script it was, and still before
// the UI's scripts: uihost.mjs, PyScript's core), so it shares lang.mjs with the
// tutorial and widgets.
import { primeEngine, tableEngine } from "./engine-client.mjs";
import { registerOffline } from "./offline.mjs";
import {
  LANGUAGES, browserLanguages, chooseLanguage, fill, linkedLanguage, storeLanguage, storedLanguage,
  withoutLinkedLanguage,
} from "./lang.mjs";

const engine = tableEngine(); // window.cribbageEngine, before the UI (PyScript, main.py) runs

const bar = () => document.getElementById("engine-progress");
const label = () => document.getElementById("engine-stage");
let shown = 0;
let said = null; // the stage on the label: [key, values], said again in a new language
let stopped = false; // a failure was said: the progress says nothing more
let lang = linkedLanguage(location.search) ?? chooseLanguage(browserLanguages(), storedLanguage());
let words = null; // the catalogue of `lang`, once it has arrived
const texts = {}; // language -> promise of its catalogue's text

function catalogueText(code) {
  if (!texts[code]) {
    texts[code] = fetch(`./lang/${code}.json`).then((response) => {
      if (!response.ok) throw new Error(`lang/${code}.json: ${response.status}`);
      return response.text();
    });
    texts[code].catch(() => delete texts[code]); // a later call tries again
  }
  return texts[code];
}

// `{name}` in a template filled in, as i18n.fill does; null if the key is missing.
function say(key, values = {}) {
  const template = words && words[key];
  if (typeof template !== "string") return null;
  return fill(template, values);
}

// Only words that change are written: the page is English as served, and an
// unchanged write would still cost the main thread a style and layout pass
// while the engine loads.
function translatePage() {
  if (document.documentElement.lang !== lang) document.documentElement.lang = lang;
  const title = say("ui.title");
  if (title && document.title !== title) document.title = title;
  for (const element of document.querySelectorAll("[data-i18n]")) {
    const text = say(element.dataset.i18n);
    if (text !== null && element.textContent !== text) element.textContent = text;
  }
  for (const attribute of ["aria-label", "title"]) {
    for (const element of document.querySelectorAll(`[data-i18n-${attribute}]`)) {
      const text = say(element.getAttribute(`data-i18n-${attribute}`));
      if (text !== null && element.getAttribute(attribute) !== text) {
        element.setAttribute(attribute, text);
      }
    }
  }
  const picker = document.getElementById("language");
  if (picker) picker.value = lang;
  if (said) sayStage(...said);
}

// Make `code` the page's language: fetch its catalogue, translate the page.
// Resolves to {lang, text} of the newest choice (a later switch wins).
async function setLanguage(code) {
  lang = LANGUAGES.includes(code) ? code : "en";
  for (;;) {
    const wanted = lang;
    let text;
    try {
      text = await catalogueText(wanted);
    } catch (error) {
      console.warn(`The page's words could not load: ${error.message}`);
      if (wanted === "en") return { lang: "en", text: "{}" };
      if (lang === wanted) lang = "en";
      continue;
    }
    if (lang !== wanted) continue; // switched again meanwhile
    words = JSON.parse(text);
    translatePage();
    return { lang: wanted, text };
  }
}

function pick(event) {
  const code = event.target.value;
  storeLanguage(code); // if storage is blocked, the switch still works for this visit
  if (new URLSearchParams(location.search).has("lang")) { // the link's ?lang= must not win again
    history.replaceState(history.state, "", withoutLinkedLanguage(location.href));
  }
  setLanguage(code).then((detail) => {
    if (detail.lang === code) {
      document.dispatchEvent(new CustomEvent("cribbage:language", { detail }));
    }
  });
}

function sayStage(key, values) {
  said = [key, values];
  const text = say(key, values);
  if (text !== null && label()) label().textContent = text;
}

function show(percent, key, values) {
  if (stopped) return; // a failure stays said
  shown = Math.max(shown, percent); // never moves backwards
  if (bar()) bar().value = shown;
  sayStage(key, values);
}

function megabytes(bytes) {
  return (bytes / 1e6).toFixed(1);
}

function progress({ stage, loaded = 0, total = 0, pending = 0 }) {
  if (stage === "runtime") show(5, "ui.loading.download");
  else if (stage === "download" && pending > 0) {
    const part = total > 0 ? loaded / total : 0;
    const sizes = { loaded: megabytes(loaded), total: megabytes(total) };
    show(5 + 55 * Math.min(part, 0.99),
         total > 0 ? "ui.loading.download_sizes" : "ui.loading.download", sizes);
  } else if (stage === "download") show(60, "ui.loading.starting");
  else if (stage === "python") show(85, "ui.loading.engine");
  else if (stage === "engine") show(95, "ui.loading.engine");
}

// The UI's message (already in the page's language), or the reason with the words of
// `key` (the engine's failure unless the UI names its own).
function failed(message, reason, key = "ui.loading.failed") {
  stopped = true;
  if (bar()) bar().removeAttribute("value");
  if (reason === undefined) {
    said = null;
    if (label()) label().textContent = message;
  } else sayStage(key, { reason });
}

// Whether the offline service worker controlled this page as it loaded (no on
// a first visit), and which one. Read as this module loads.
const controllerAtLoad = globalThis.navigator?.serviceWorker?.controller ?? null;
const controlledAtLoad = Boolean(controllerAtLoad);
// The build this page belongs to (build.py writes it in: the id of the service
// worker of the same build), so update.mjs can tell another build taking over.
const BUILD = "{{BUILD_ID}}";

// The offline service worker, registered only once the engine has answered
// (offline.mjs); then the page watches for a new build taking over (update.mjs).
async function startOffline() {
  const registration = await registerOffline();
  if (registration === null) return;
  import("./update.mjs").then(
    ({ watchUpdates }) => watchUpdates(registration, { build: BUILD, controllerAtLoad, say }),
    (error) => console.warn(`New versions will not be announced: ${error.message}`),
  );
  // Not on a device that says it has under 2 GB of memory: the throwaway
  // engine holds a second Python's memory (31 MB) and code while it starts.
  if (!controlledAtLoad && !(navigator.deviceMemory < 2)) {
    navigator.serviceWorker.addEventListener("controllerchange", primeOnce, { once: true });
  }
}

// A first visit, once the new service worker has stored the site and taken
// control of this page (sw.js activate): tell it this page came from the
// network, then start the engine once more in a throwaway worker and end it,
// so that the next visit finds Pyodide's JS compiled (primeEngine). Marked
// "cribbage:engine-primed" ({primed}) when done; the page's engine is untouched.
async function primeOnce() {
  let primed = false;
  try {
    const channel = new MessageChannel();
    const answered = new Promise((resolve) => {
      channel.port1.onmessage = () => resolve(true);
      setTimeout(() => resolve(false), 5000); // not this build's worker: no priming
    });
    navigator.serviceWorker.controller.postMessage("loaded-online", [channel.port2]);
    if (await answered) primed = await primeEngine();
  } catch {
    // Only a head start for the next visit: nothing to tell the player.
  }
  performance.mark("cribbage:engine-primed", { detail: { primed } });
}

globalThis.cribbageLoading = {
  ready() {
    show(100, "ui.loading.ready");
    performance.mark("cribbage:engine-ready");
    setTimeout(startOffline, 0);
  },
  failed,
  chooseLanguage, // for the test that it follows i18n.choose_language
  language: () => setLanguage(lang), // {lang, text}: the UI's catalogue
};

document.getElementById("language")?.addEventListener("change", pick);
setLanguage(lang);

engine.watch((report) => {
  if (report.progress) progress(report.progress);
  else if (report.failed) failed(null, report.failed);
});
