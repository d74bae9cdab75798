// Firefox for tests/browser/engines.py: one page of a headless Firefox driven by the
// pinned puppeteer-core over WebDriver BiDi (no geckodriver). Usage:
//   node driver.mjs /usr/bin/firefox-esr
// then one JSON request a line on stdin ({"op": "open", "url": ...}), one JSON reply a
// line on stdout ({"ok": true, "value": ...} or {"ok": false, "error": "..."}).
import readline from "node:readline";
import puppeteer from "puppeteer-core";

const executablePath = process.argv[2];
const browser = await puppeteer.launch({
  browser: "firefox",
  protocol: "webDriverBiDi",
  executablePath,
  headless: true,
  extraPrefsFirefox: {
    "intl.accept_languages": "en-US, en", // the page's language is chosen by its own switch
    "browser.shell.checkDefaultBrowser": false,
  },
});
const page = await browser.newPage();
const errors = [];
page.on("console", (message) => {
  if (message.type() === "error") errors.push(`console.error: ${message.text()}`);
});
page.on("pageerror", (error) => errors.push(`page error: ${error.message || error}`));

const ops = {
  ready: async () => (await browser.version()),
  open: async ({ url }) => { await page.goto(url, { waitUntil: "load", timeout: 120000 }); },
  // `script` is a JavaScript function's source, called with `args` in the page.
  run: async ({ script, args }) => page.evaluate(`(${script})(...${JSON.stringify(args)})`),
  resize: async ({ width, height }) => { await page.setViewport({ width, height }); },
  screenshot: async ({ path }) => { await page.screenshot({ path }); },
  errors: async () => errors.splice(0),
  close: async () => { await browser.close(); },
};

for await (const line of readline.createInterface({ input: process.stdin })) {
  const { op, ...args } = JSON.parse(line);
  let reply;
  try {
    if (!Object.hasOwn(ops, op)) throw new Error(`no such request: ${op}`);
    reply = { ok: true, value: (await ops[op](args)) ?? null };
  } catch (error) {
    reply = { ok: false, error: String(error?.message || error) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
  if (op === "close") break;
}
process.exit(0);
