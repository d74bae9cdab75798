// The widgets of embed.html: hand scorer, pegging sequence, scripted deal, counting drill.
// (Their drawing is widget-kit.mjs and drill.mjs, shared with the custom elements of
// elements.mjs and the puzzles page; this module is the iframe's own part: the
// parameters, the words, the engine shared between sibling frames, the height.)
//
// 1. The URL parameters are read and checked at once (embed-params.mjs); a
//    bad one shows a message inside the widget and nothing else happens.
// 2. The cards are drawn at once from the parameters with plain DOM calls
//    (textContent only: no parameter text ever reaches innerHTML).
// 3. The engine's answers (itemised scores, the play, the deal's steps) come
//    from ONE engine per page: the first widget starts engine-worker.mjs and
//    the other widgets of the page use it (see "the engine" below).
// The page reports its height to the host (postMessage, for embed-resize.js).
// Words: the `lang` parameter (en, es, ja; anything else is English), else the
// browser's languages. The widget's words and the card names come from
// ./lang/<code>.json (lang.mjs); the engine's texts (cadence, score items, the
// deal's log lines) come from the engine itself, asked in the same language.
import { WidgetError, parseLang, parseWidget } from "./embed-params.mjs";
import { drillWidget } from "./drill.mjs";
import { engineCalls, widgetKit } from "./widget-kit.mjs";
import { startEngine } from "./engine-client.mjs";
import { registerOfflineWhenIdle } from "./offline.mjs";
import { browserLanguages, chooseLanguage, loadCatalogue } from "./lang.mjs";

const root = document.getElementById("widget");
let words = null; // the widget's Catalogue, loaded before anything is drawn
let kit = null; // widget-kit.mjs's drawing, bound to this page's root, words and engine

// --- the engine -------------------------------------------------------------
//
// One engine per host page, shared by all its widgets: the first widget to run
// starts a dedicated worker (engine-client.mjs's startEngine: Pyodide and the
// engine in engine-worker.mjs) and publishes {id, client} as
// window.__cribbageWidgetEngine; every later widget finds it in a sibling frame
// of the same origin (window.parent.frames[i]: same-origin frames of one page
// share one event loop, so the check and the start cannot race) and calls that
// client directly. This works whatever the host's origin is; the host needs no
// script. Frames of other origins throw on access and are skipped. (A
// SharedWorker would not do: Chromium does not start one from iframes on a
// page of another site, so widgets embedded elsewhere never got an answer.) If
// the owning widget is removed from the page, the others lose its engine: they
// then show an error on their next call.

const ENGINE_KEY = "__cribbageWidgetEngine";

function siblingEngine() {
  const places = [];
  try {
    for (let i = 0; i < window.parent.frames.length; i += 1) places.push(window.parent.frames[i]);
  } catch {
    // no access to the parent's frame list: start our own engine
  }
  places.push(window.parent);
  for (const place of places) {
    try {
      if (place !== window && place[ENGINE_KEY]) return place[ENGINE_KEY];
    } catch {
      // a frame of another origin
    }
  }
  return null;
}

let engine = null;
function getEngine() {
  if (!engine) {
    let shared = siblingEngine();
    document.documentElement.dataset.engine = shared ? "borrowed" : "own";
    if (!shared) {
      const id = Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
      shared = { id, client: startEngine() };
      window[ENGINE_KEY] = shared;
    }
    document.documentElement.dataset.engineWorker = shared.id;
    engine = engineCalls(shared.client);
  }
  return engine;
}

// --- the page's size, for embed-resize.js ----------------------------------------

let lastHeight = 0;
function reportSize() {
  if (window.parent === window) return;
  const height = Math.ceil(document.documentElement.scrollHeight);
  if (height === lastHeight) return;
  lastHeight = height;
  window.parent.postMessage({ type: "cribbage-widget-size", height }, "*");
}

// --- start ----------------------------------------------------------------------

async function main() {
  const lang = parseLang(location.search) ?? chooseLanguage(browserLanguages());
  document.documentElement.lang = lang;
  const catalogue = loadCatalogue(lang); // small and same-origin: a few ms before the first paint
  let spec = null;
  let problem = null;
  try {
    spec = parseWidget(location.search);
  } catch (error) {
    if (!(error instanceof WidgetError)) throw error;
    problem = error;
  }
  // the surround (embed.css: html[data-theme=dark]) as soon as it is known, before the words
  if (spec) document.documentElement.dataset.theme = spec.theme;
  words = await catalogue; // the engine starts after the first paint: it would slow this fetch
  // the engine starts on the first call (getEngine), not before
  const lazyEngine = { call: (name, payload) => getEngine().call(name, payload) };
  kit = widgetKit({ root, words, engine: lazyEngine, resize: reportSize });
  document.title = kit.t("widget.page_title");
  if (problem) {
    kit.showError(words.message(problem));
    return;
  }
  spec.names = spec.names?.map((name, seat) => name ?? kit.t("widget.player", { player: seat + 1 }));
  root.replaceChildren();
  kit.setLook(spec);
  root.dataset.widget = spec.widget;
  root.dataset.lang = lang;
  if (spec.title) root.append(kit.el("h2", { class: "widget-title", text: spec.title }));
  if (spec.widget === "hand") kit.handWidget(spec);
  else if (spec.widget === "peg") kit.pegWidget(spec);
  else if (spec.widget === "drill") drillWidget(kit, spec);
  else kit.dealWidget(spec);
  new ResizeObserver(reportSize).observe(document.body);
}

main();
registerOfflineWhenIdle();
