// "A new version is ready. Reload": the table's offer of a new build of the site.
//
// The offline service worker (sw.js) installs a new build in the background as
// soon as the browser finds a new sw.js (the browser checks at every
// navigation; this page asks too when it comes back into view, when the
// network comes back, and every hour), then takes control of the open pages.
// This page asks the worker that took over which build it is ("build"): if it
// is not the page's own (the build id loading.mjs holds), another build is live
// (a new version, or a rollback) and this page is not it (marked
// "cribbage:update-found", {build}, at once). The offer waits for a
// calm moment: the table is up and no move is on its way (#table has a
// data-phase other than "loading" and no data-busy, the automation contract),
// so nothing appears or reloads while a card is moving. After the reload the
// table resumes the saved game on the new build. Nothing is said when the
// page already is the build that took over (a reload that fetched the new
// page before its worker was installed).
//
// Loaded by loading.mjs once the engine is ready, on the table page only.

const CHECK_EVERY_MS = 60 * 60 * 1000; // a page left open still hears of a deploy
const ANSWER_MS = 3000; // a worker that does not answer "build" is of a build before this code

// The build of `worker` (its answer to "build"), or null if it does not answer.
function workerBuild(worker) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), ANSWER_MS);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(typeof event.data === "string" ? event.data : null);
    };
    worker.postMessage("build", [channel.port2]);
  });
}

// Whether the table waits for the player: up, and no move on its way.
function calm(table) {
  const phase = table.getAttribute("data-phase");
  return Boolean(phase) && phase !== "loading" && !table.hasAttribute("data-busy");
}

// Run `action` at the table's next calm moment (now, if it is calm).
function whenCalm(table, action) {
  if (calm(table)) {
    action();
    return;
  }
  const observer = new MutationObserver(() => {
    if (!calm(table)) return;
    observer.disconnect();
    action();
  });
  observer.observe(table, { attributes: true, attributeFilter: ["data-phase", "data-busy"] });
}

// The offer, in the status region: its words carry data-i18n, so a language
// switch (loading.mjs translatePage) translates them like the rest of the page.
function offer(region, table, say) {
  if (region.childElementCount) return; // already offered
  const text = document.createElement("span");
  text.dataset.i18n = "ui.update.ready";
  text.textContent = say("ui.update.ready") ?? "A new version is ready.";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "quiet";
  button.dataset.i18n = "ui.update.reload";
  button.textContent = say("ui.update.reload") ?? "Reload";
  button.addEventListener("click", () => {
    button.disabled = true; // once; the reload waits for a move on its way to land
    whenCalm(table, () => location.reload());
  });
  region.append(text, " ", button);
  // The header grew: the table places its open dialogs below it again, as on a resize.
  dispatchEvent(new Event("resize"));
}

/**
 * Watch for another build taking over this page, and offer a reload at a calm moment.
 * `registration`: the offline service worker's; `build`: this page's build id;
 * `controllerAtLoad`: the worker that controlled the page as it loaded (or null);
 * `say(key)`: a word of the page's catalogue, or null.
 */
export function watchUpdates(registration, { build, controllerAtLoad, say }) {
  const table = document.getElementById("table");
  if (!table) return;
  // The live region exists before anything is said in it, so the offer is announced.
  const region = document.createElement("div");
  region.className = "update-ready";
  region.setAttribute("role", "status");
  (table.querySelector(".table-header") ?? table).append(region);

  let asked = null;
  const check = async () => {
    const worker = navigator.serviceWorker.controller;
    if (!worker || worker === controllerAtLoad || worker === asked) return;
    asked = worker;
    const theirs = await workerBuild(worker);
    if (theirs === build) return;
    performance.mark("cribbage:update-found", { detail: { build: theirs } });
    whenCalm(table, () => offer(region, table, say));
  };
  navigator.serviceWorker.addEventListener("controllerchange", check);
  check(); // a worker that took over before this page was listening

  const update = () => registration.update().catch(() => {}); // offline: the next time
  addEventListener("online", update);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") update();
  });
  setInterval(update, CHECK_EVERY_MS);
}
