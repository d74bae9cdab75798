// Custom elements for embedders: the widgets as tags, on any page of any origin.
//
//   <script type="module" src="https://cards.example/elements.mjs"></script>
//   <cribbage-hand cards="5S 4S 2S 6H" starter="5H"></cribbage-hand>
//   <cribbage-pegging cards="JH,5S,7C,6H,go,2S" names="Bob,Alice"></cribbage-pegging>
//   <cribbage-deal dealer="0" names="Alice,Bob" hands="5S4S2S8D6H8C|TS6DJH4HKC7C" starter="5H"></cribbage-deal>
//   <cribbage-drill level="runs"></cribbage-drill>
//
// Each element is one widget of embed.html drawn in its own Shadow DOM (styles
// isolated both ways; kit.css, embed.css and elements.css are linked into the shadow
// root, so no inline <style> is needed; the look is the author's through CSS custom
// properties, --cribbage-card-width, --cribbage-felt, --cribbage-ink and the others of
// docs/embedding.md, and theme="dark"). The attributes are the iframe widget's
// parameters (cards= is the hand widget's hand=; a bare crib, edit or timed
// means 1), checked by the same code (embed-params.mjs): anything wrong is a
// message inside the element. lang= picks en, es or ja (else the browser's).
// The drawing is widget-kit.mjs's, the same as the iframe widgets'.
//
// One engine per page however many elements: the first element that needs the
// engine starts its worker through engine-client.mjs; the others share it. On
// the site's own origin the worker is engine-worker.mjs itself; on another
// origin a module worker must be same-origin, so the worker is a small blob:
// module (the host's origin) that imports engine-worker.mjs from the site over
// CORS and resolves its relative fetches against the site. The host's policy
// then governs the worker: see docs/embedding.md, "Custom elements", for what it must allow
// (and the site must send Access-Control-Allow-Origin for its files).
import { parseLang, parseWidget, WidgetError } from "./embed-params.mjs";
import { connect, workerOptions } from "./engine-client.mjs";
import { drillWidget } from "./drill.mjs";
import { browserLanguages, chooseLanguage, loadCatalogue } from "./lang.mjs";
import { engineCalls, widgetKit } from "./widget-kit.mjs";

const WORKER = new URL("./engine-worker.mjs", import.meta.url);
const STYLES = ["./kit.css", "./embed.css", "./elements.css"].map((path) => new URL(path, import.meta.url).href);

/** The source of the blob: worker used on another origin (see above). */
export function bridgeSource(workerUrl) {
  return `// the cribbage engine's worker, from ${workerUrl}
const base = ${JSON.stringify(String(workerUrl))};
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) =>
  realFetch(typeof input === "string" ? new URL(input, base).href : input, init);
const early = [];
const hold = (event) => early.push(event.data);
addEventListener("message", hold);
await import(base);
removeEventListener("message", hold);
for (const data of early) dispatchEvent(new MessageEvent("message", { data }));
`;
}

function makeWorker() {
  if (WORKER.origin === globalThis.location?.origin) return new Worker(WORKER, workerOptions());
  const blob = new Blob([bridgeSource(WORKER.href)], { type: "text/javascript" });
  return new Worker(URL.createObjectURL(blob), { type: "module" });
}

let shared = null; // {client, calls}: the page's one engine
function pageEngine() {
  if (!shared) {
    const client = connect(makeWorker());
    shared = { client, calls: engineCalls(client) };
    globalThis.__cribbageElementsEngine = client; // for tests and pages that want the same engine
  }
  return shared.calls;
}

/** Global HTML attributes an element may carry that are not widget parameters. */
function isGlobal(name) {
  return ["id", "class", "style", "hidden", "slot", "part", "role", "tabindex", "dir", "translate",
    "draggable", "inert", "is", "exportparts", "nonce", "autofocus", "contenteditable", "spellcheck",
    "popover", "accesskey", "enterkeyhint", "inputmode"].includes(name) ||
    name.startsWith("data-") || name.startsWith("aria-") || name.startsWith("on");
}

const FLAGS = ["crib", "edit", "timed"];

/** The element's attributes as the iframe widget's query string. */
export function queryOf(widget, attributes, rename = {}) {
  const params = new URLSearchParams();
  params.set("widget", widget);
  for (const { name, value } of attributes) {
    if (isGlobal(name)) continue;
    params.append(rename[name] || name, FLAGS.includes(name) && value === "" ? "1" : value);
  }
  return `?${params}`;
}

class CribbageElement extends HTMLElement {
  static widget = "hand";
  static rename = {};
  static observedAttributes = [];

  constructor() {
    super();
    this.attachShadow({ mode: "open" });
    this.generation = 0;
  }

  connectedCallback() {
    this.schedule();
  }

  attributeChangedCallback() {
    if (this.isConnected) this.schedule();
  }

  schedule() {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.render();
    });
  }

  async render() {
    const mine = ++this.generation;
    const { widget, rename } = this.constructor;
    const query = queryOf(widget, [...this.attributes], rename);
    const lang = parseLang(query) ?? chooseLanguage(browserLanguages());
    let spec = null;
    let problem = null;
    try {
      spec = parseWidget(query);
    } catch (error) {
      if (!(error instanceof WidgetError)) throw error;
      problem = error;
    }
    const words = await loadCatalogue(lang);
    if (mine !== this.generation) return;
    const root = document.createElement("div");
    root.className = "widget";
    root.lang = lang;
    root.dataset.state = "loading";
    root.setAttribute("aria-live", "polite");
    const links = STYLES.map((href) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      return link;
    });
    this.shadowRoot.replaceChildren(...links, root);
    const lazy = { call: (name, payload) => pageEngine().call(name, payload) };
    const kit = widgetKit({ root, words, engine: lazy, resize: () => this.mirror(root) });
    new MutationObserver(() => this.mirror(root)).observe(root, { attributes: true, attributeFilter: ["data-state"] });
    if (problem) {
      kit.showError(words.message(problem));
      return;
    }
    spec.names = spec.names?.map((name, seat) => name ?? kit.t("widget.player", { player: seat + 1 }));
    kit.setLook(spec); // theme= needs nothing here: embed.css reads the attribute itself
    root.dataset.widget = spec.widget;
    if (spec.title) root.append(kit.el("h2", { class: "widget-title", text: spec.title }));
    if (spec.widget === "hand") kit.handWidget(spec);
    else if (spec.widget === "peg") kit.pegWidget(spec);
    else if (spec.widget === "drill") drillWidget(kit, spec);
    else kit.dealWidget(spec);
  }

  /** The widget's state on the element itself (data-state), for pages and tests. */
  mirror(root) {
    if (root.dataset.state) this.dataset.state = root.dataset.state;
  }
}

const PARAMS = {
  hand: ["cards", "starter", "crib", "edit"],
  peg: ["cards", "players", "names", "step"],
  deal: ["players", "dealer", "hands", "crib", "discards", "starter", "play", "names", "scores", "target",
    "step"],
  drill: ["level", "seed", "timed"],
};

function define(tag, widget, rename = {}) {
  if (customElements.get(tag)) return;
  customElements.define(tag, class extends CribbageElement {
    static widget = widget;
    static rename = rename;
    static observedAttributes = ["lang", "title", ...PARAMS[widget]];
  });
}

define("cribbage-hand", "hand", { cards: "hand" });
define("cribbage-pegging", "peg");
define("cribbage-deal", "deal");
define("cribbage-drill", "drill");
