// The rules tutorial's words and its language switch.
//
// The page's prose lives in one catalogue per language (web/lang/tutorial.<code>.json,
// merged by build.py into ./lang/<code>.json): each element with data-i18n gets
// its text from there (*words* become <em>, always through textContent), and
// data-i18n-title / -content / -aria-label fill those attributes. The language
// is the stored choice (localStorage "cribbage-lang", shared with the game's
// page) or else the browser's (navigator.languages), else English. The widgets'
// iframes get their src here, with lang= and the players' names and headings in
// that language. Choosing another language stores it and reloads the page: the
// widgets share one engine between frames, and reloading them one by one could
// leave a widget borrowing the engine of a frame that is going away. Each section
// ends with a short quiz (quiz.mjs), answered at once in the page's language.
// The last section's Python cells (pycells.mjs) start once all that is done.
import {
  browserLanguages,
  chooseLanguage,
  linkedLanguage,
  fill,
  loadCatalogue,
  showLanguageSwitch,
  storedLanguage,
} from "./lang.mjs";
import { startPythonCells } from "./pycells.mjs";
import { startQuizzes } from "./quiz.mjs";
import { registerOfflineWhenIdle } from "./offline.mjs";

const PLAYERS = ["alice", "bob", "carol", "dan"];

/** Text with *emphasis* as DOM nodes (text nodes and <em>; never markup from the catalogue). */
function richText(text) {
  return String(text).split("*").map((part, i) => {
    if (i % 2 === 0) return document.createTextNode(part);
    const em = document.createElement("em");
    em.textContent = part;
    return em;
  });
}

function translate(words) {
  for (const node of document.querySelectorAll("[data-i18n]")) {
    node.replaceChildren(...richText(words.text(node.dataset.i18n)));
  }
  const attributes = { i18nTitle: "title", i18nContent: "content", i18nAriaLabel: "aria-label" };
  for (const [data, attribute] of Object.entries(attributes)) {
    const selector = `[data-${data.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`;
    for (const node of document.querySelectorAll(selector)) {
      node.setAttribute(attribute, words.text(node.dataset[data]).replaceAll("*", ""));
    }
  }
}

/** Each widget's address: its query with the names filled in, its heading and lang=. */
function startWidgets(words) {
  const names = {};
  for (const player of PLAYERS) names[player] = encodeURIComponent(words.text(`tutorial.name.${player}`));
  for (const frame of document.querySelectorAll("iframe[data-query]")) {
    let query = fill(frame.dataset.query, names);
    if (frame.dataset.widgetTitle) {
      query += `&title=${encodeURIComponent(words.text(frame.dataset.widgetTitle).replaceAll("*", ""))}`;
    }
    frame.src = `./embed.html?${query}&lang=${words.lang}`;
  }
}

async function main() {
  const lang = linkedLanguage(location.search) ?? chooseLanguage(browserLanguages(), storedLanguage());
  document.documentElement.lang = lang;
  showLanguageSwitch(lang);
  let words;
  try {
    words = await loadCatalogue(lang);
    translate(words);
    startQuizzes(words);
    startWidgets(words);
    document.documentElement.dataset.lang = words.lang;
  } finally {
    document.documentElement.classList.remove("i18n-pending");
  }
  return words;
}

main().then(startPythonCells);
registerOfflineWhenIdle();
