// Optional helper for pages that embed cribbage widgets (embed.html in iframes).
//
//   <script src="https://YOUR-SITE/embed-resize.js" defer></script>
//
// Each widget posts {type: "cribbage-widget-size", height} to its parent when
// its content changes; this script sets the height of the iframe that sent
// it (matched by event.source, so no other frame can resize it; the height is
// clamped). Without it, give each iframe a fixed height.
(() => {
  "use strict";
  addEventListener("message", (event) => {
    const data = event.data;
    if (!data || data.type !== "cribbage-widget-size") return;
    const height = Number(data.height);
    if (!Number.isFinite(height)) return;
    for (const frame of document.querySelectorAll("iframe")) {
      if (frame.contentWindow === event.source) {
        frame.style.height = `${Math.max(60, Math.min(2000, Math.ceil(height) + 2))}px`;
      }
    }
  });
})();
