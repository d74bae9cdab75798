// The offline service worker (sw.js, made by the build), registered by every page
// of the site: a visit to any one of them stores the whole site, so the table, the
// tutorial (its Python cells included), the puzzles, the replay viewer and the
// widgets all work offline after it (docs/offline.md).
//
// Registered once the page has started (its caller says when): the precache then
// finds its files in the HTTP cache instead of competing with the first load. The
// worker's script is never read from the HTTP cache (updateViaCache "none"), so a
// new build's worker is always found. Not where service workers are unavailable
// (plain http on another host, some embedded views): the page works as before.

/** Register sw.js; the registration, or null where there is none. */
export async function registerOffline() {
  if (!("serviceWorker" in navigator) || !globalThis.isSecureContext) return null;
  try {
    const script = new URL("./sw.js", document.baseURI);
    const registration = await navigator.serviceWorker.register(script, { updateViaCache: "none" });
    performance.mark("cribbage:offline-registered");
    return registration;
  } catch (error) {
    console.warn(`Offline play is unavailable: ${error.message}`);
    return null;
  }
}

/** Register sw.js once the page has loaded and the browser is idle (pages without an engine). */
export function registerOfflineWhenIdle() {
  const idle = globalThis.requestIdleCallback ?? ((run) => setTimeout(run, 200));
  const later = () => idle(() => registerOffline());
  if (document.readyState === "complete") later();
  else addEventListener("load", later, { once: true });
}
