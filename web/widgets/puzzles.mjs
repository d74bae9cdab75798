// The puzzles page: the discard and the play of the day, practice puzzles and the
// counting drill.
//
// The day's puzzles are the engine's (the `puzzle` endpoint, cribbage/puzzles.py):
// made from the date alone, so everyone gets the same ones, with every choice
// ranked by the coach (expected points and the reason, in the page's language).
// Both are asked as soon as this module runs: the calls wait in the worker and
// are answered the moment Python is up (engine.js started the worker at
// navigation). Nothing heavy runs here: the page only draws.
//
// Contract: #puzzle[data-state] is "loading", "ask" or "answered";
// #puzzle[data-kind] is discard or play, [data-practice] the practice number
// (absent for a daily puzzle); each choice is a button named in words ("four of
// spades and five of hearts", "five of spades"); after answering,
// #puzzle[data-rank] is the chosen choice's rank among all (1 = best) and
// [data-of] the number of choices. localStorage "cribbage-puzzles" keeps the
// answers by date ({history: {date: {discard, play}}, practice: n}); the streak
// is the number of days in a row, up to today, with both daily puzzles answered.
// ?date=YYYY-MM-DD shows another day's puzzles. Performance marks: cribbage:engine-ready,
// cribbage:puzzle-computed:<kind> (the reply is in), cribbage:puzzle-ready:<kind> (drawn).
import { engineCalls, widgetKit } from "./widget-kit.mjs";
import { tableEngine } from "./engine-client.mjs";
import { registerOffline } from "./offline.mjs";
import { drillWidget, loadProgress } from "./drill.mjs";
import { DRILL_LEVELS } from "./embed-params.mjs";
import {
  browserLanguages,
  cardText,
  chooseLanguage,
  linkedLanguage,
  loadCatalogue,
  showLanguageSwitch,
  storedLanguage,
} from "./lang.mjs";

export const STORAGE_KEY = "cribbage-puzzles";
const root = document.getElementById("puzzle");
let words = null;
let kit = null;
const t = (key, values) => words.text(key, values);

// --- dates and storage ----------------------------------------------------------

/** The local calendar date as YYYY-MM-DD. */
export function isoDate(date = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The day before `iso` (YYYY-MM-DD). */
export function dayBefore(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  return isoDate(new Date(y, m - 1, d - 1));
}

/** ?date=YYYY-MM-DD if it is a real date, else today. */
function chosenDate() {
  const text = new URLSearchParams(location.search.slice(0, 200)).get("date");
  if (text && /^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const [y, m, d] = text.split("-").map(Number);
    if (isoDate(new Date(y, m - 1, d)) === text && y >= 2000 && y <= 2999) return text;
  }
  return isoDate();
}

const RESULT = (value) =>
  value && typeof value === "object" && Number.isInteger(value.rank) && value.rank >= 1 &&
  Number.isInteger(value.of) && value.of >= value.rank && value.of <= 20 &&
  Array.isArray(value.cards) && value.cards.every((c) => typeof c === "string" && /^[A2-9TJQK][SHDC]$/.test(c));

/** The stored answers, checked (anything malformed is dropped). */
export function loadStore() {
  let data = null;
  try {
    data = JSON.parse(globalThis.localStorage?.getItem(STORAGE_KEY) ?? "null");
  } catch {
    data = null;
  }
  const store = { history: {}, practice: 0 };
  if (!data || typeof data !== "object") return store;
  if (Number.isInteger(data.practice) && data.practice >= 0 && data.practice < 1e6) store.practice = data.practice;
  for (const [date, day] of Object.entries(data.history || {})) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !day || typeof day !== "object") continue;
    const kept = {};
    for (const kind of ["discard", "play"]) if (RESULT(day[kind])) kept[kind] = day[kind];
    if (Object.keys(kept).length) store.history[date] = kept;
  }
  return store;
}

function saveStore(store) {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(store));
  } catch {
    // storage blocked: the answers last for this page
  }
}

/** Days in a row with both daily puzzles answered, ending at `today` (or the day before). */
export function streak(history, today) {
  const done = (date) => Boolean(history[date]?.discard && history[date]?.play);
  let day = done(today) ? today : dayBefore(today);
  let count = 0;
  while (done(day)) {
    count += 1;
    day = dayBefore(day);
  }
  return count;
}

// --- words --------------------------------------------------------------------------

function translatePage() {
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-aria-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nAriaLabel));
  }
  for (const node of document.querySelectorAll("[data-i18n-content]")) {
    node.setAttribute("content", t(node.dataset.i18nContent));
  }
}

/** "3rd", "3.º", "3位" (the catalogue's list, else the digits). */
function ordinal(n) {
  const list = words.raw("puzzles.ordinals");
  return Array.isArray(list) && list[n - 1] ? list[n - 1] : String(n);
}

/** "best", "3rd of 4": a result in words (for the share text and the history). */
function placeText(result) {
  if (!result) return t("puzzles.result.none");
  if (result.rank === 1) return t("puzzles.result.best");
  return t("puzzles.result.place", { place: ordinal(result.rank), of: result.of });
}

function resultMark(result) {
  if (!result) return "–";
  return `${result.rank === 1 ? "✓" : "✗"} (${placeText(result)})`;
}

/** The spoiler-free share text of a day: marks and places, never a card. */
export function shareText(date, day, days) {
  return t("puzzles.share.text", {
    date, discard: resultMark(day?.discard), play: resultMark(day?.play), streak: days,
  });
}

// --- the engine --------------------------------------------------------------------

let engine = null;

function puzzleRequest(kind, date, practice) {
  const payload = { date, kind, lang: words.lang };
  if (practice) payload.practice = practice;
  return engine.call("puzzle", payload);
}

// --- one puzzle on screen -------------------------------------------------------------

const state = { date: null, store: null, daily: {}, showing: null };

/** A choice's button, named by its content: each card an image named in words ("four of
 * spades"), joined by the language's "and" (hidden), so the name is "four of spades and
 * five of hearts" and the visible faces are the name's own images. */
function namedButton(choice, onClick) {
  const button = kit.el("button", { type: "button", class: "choice", "data-cards": choice.cards.join(" ") });
  choice.cards.forEach((code, i) => {
    if (i > 0) {
      const joiner = i === choice.cards.length - 1 ? t("puzzles.and") : t("puzzles.comma");
      button.append(kit.el("span", { class: "visually-hidden", text: joiner }));
    }
    button.append(kit.card(code, "small"));
  });
  button.addEventListener("click", () => onClick(choice));
  return button;
}

function positionOf(puzzle) {
  const { el } = kit;
  const seat = t(puzzle.seat === "dealer" ? "puzzles.seat.dealer" : "puzzles.seat.pone");
  if (puzzle.kind === "discard") {
    return [
      el("p", { class: "task", text: t("puzzles.ask.discard", { seat }) }),
      el("div", { class: "group" }, el("span", { class: "label", text: t("puzzles.your_cards") }),
        kit.cards(puzzle.hand, t("puzzles.your_cards"))),
    ];
  }
  const mine = puzzle.played.filter((p) => p.who === "you").map((p) => p.card);
  const theirs = puzzle.played.filter((p) => p.who === "them").map((p) => p.card);
  const lines = [
    el("p", { class: "task", text: t("puzzles.ask.play", { seat }) }),
    el("div", { class: "position" },
      el("div", { class: "group" }, el("span", { class: "label", text: t("widget.starter") }),
        kit.cards([puzzle.starter], t("widget.starter"), "starter")),
      el("div", { class: "group" }, el("span", { class: "label", text: t("puzzles.your_hand") }),
        kit.cards(puzzle.hand, t("puzzles.your_hand"))),
      el("div", { class: "group" },
        el("span", { class: "label", text: t("widget.count_of", { count: puzzle.count }) }),
        kit.cards(puzzle.pile, t("widget.pile"), "small"))),
    el("p", { class: "known", text: t("puzzles.known", {
      kept: puzzle.kept.map(cardText).join(" "),
      mine: mine.length ? mine.map(cardText).join(" ") : t("puzzles.nothing"),
      theirs: theirs.length ? theirs.map(cardText).join(" ") : t("puzzles.nothing"),
      left: puzzle.their_cards }) }),
  ];
  if (puzzle.they_said_go) lines.push(el("p", { class: "known", text: t("puzzles.they_said_go") }));
  return lines;
}

function drawPuzzle(puzzle, answer) {
  const { el } = kit;
  root.replaceChildren();
  root.dataset.kind = puzzle.kind;
  root.dataset.id = puzzle.id;
  if (puzzle.practice) root.dataset.practice = String(puzzle.practice);
  else delete root.dataset.practice;
  delete root.dataset.rank;
  delete root.dataset.of;
  const title = puzzle.practice
    ? t(`puzzles.title.practice_${puzzle.kind}`, { n: puzzle.practice })
    : t(`puzzles.title.${puzzle.kind}`, { date: puzzle.date });
  root.append(el("h3", { class: "puzzle-title", text: title }), ...positionOf(puzzle));
  // the choices in the cards' order, never the ranking's (that would give it away)
  const order = [...puzzle.choices];
  const byCards = (cards) => puzzle.choices.find((c) => c.cards.join() === cards.join());
  const handOrder = (code) => (puzzle.hand.indexOf(code) + 1) || 99;
  order.sort((a, b) => a.cards.map(handOrder).join(",").localeCompare(b.cards.map(handOrder).join(","),
    undefined, { numeric: true }));
  const list = el("div", { class: "choices", role: "group", "aria-label": t(`puzzles.choices.${puzzle.kind}`) });
  for (const choice of order) list.append(namedButton(choice, (chosen) => answerPuzzle(puzzle, chosen)));
  root.append(list, el("div", { class: "verdict", "aria-live": "polite" }));
  if (answer) {
    const chosen = byCards(answer.cards);
    if (chosen) return showAnswer(puzzle, chosen, false);
  }
  root.dataset.state = "ask";
  root.setAttribute("aria-busy", "false");
  return null;
}

function answerPuzzle(puzzle, chosen) {
  if (root.dataset.state !== "ask" || root.dataset.id !== puzzle.id) return;
  const result = { rank: chosen.rank, of: puzzle.choices.length, cards: chosen.cards };
  if (!puzzle.practice) {
    const day = state.store.history[puzzle.date] || {};
    day[puzzle.kind] = result;
    state.store.history[puzzle.date] = day;
    saveStore(state.store);
  }
  showAnswer(puzzle, chosen, true);
  drawShare();
}

function showAnswer(puzzle, chosen, fresh) {
  const { el } = kit;
  const best = puzzle.choices[0];
  root.dataset.rank = String(chosen.rank);
  root.dataset.of = String(puzzle.choices.length);
  for (const button of root.querySelectorAll("button.choice")) {
    button.disabled = true;
    const cards = button.dataset.cards;
    if (cards === chosen.cards.join(" ")) button.classList.add("chosen");
    if (puzzle.choices.some((c) => c.rank === 1 && c.cards.join(" ") === cards)) button.classList.add("best");
  }
  const verdict = root.querySelector(".verdict");
  const lost = Math.max(0, best.value - chosen.value).toFixed(2);
  const headline = chosen.rank === 1
    ? t("puzzles.verdict.best", { choice: chosen.name })
    : t("puzzles.verdict.other", { choice: chosen.name, place: ordinal(chosen.rank),
      of: puzzle.choices.length, best: best.name, lost });
  const table = el("ol", { class: "ranking", "aria-label": t("puzzles.ranking") });
  for (const choice of puzzle.choices) {
    const mine = choice.cards.join() === chosen.cards.join();
    const item = el("li", { class: `ranked${mine ? " chosen" : ""}${choice.rank === 1 ? " best" : ""}`,
      value: String(choice.rank) });
    item.append(
      el("span", { class: "ranked-cards", text: choice.cards.map(cardText).join(" ") }),
      el("span", { class: "ranked-value", text: t("puzzles.value", { value: choice.value.toFixed(2) }) }),
      el("span", { class: "ranked-reason", text: choice.reason }),
    );
    if (mine) item.append(el("span", { class: "ranked-mine", text: t("puzzles.your_choice") }));
    table.append(item);
  }
  const after = [el("p", { class: `headline ${chosen.rank === 1 ? "right" : "wrong"}`, text: headline }),
    el("p", { class: "explain", text: t(`puzzles.explain.${puzzle.kind}`) }), table];
  if (puzzle.practice) {
    const more = el("button", { type: "button", class: "button more", text: t("puzzles.next_practice") });
    more.addEventListener("click", () => show(`practice-${puzzle.kind}`, true));
    after.push(more);
  } else if (!state.store.history[puzzle.date]?.[puzzle.kind === "discard" ? "play" : "discard"]) {
    const other = puzzle.kind === "discard" ? "play" : "discard";
    const go = el("button", { type: "button", class: "button more", text: t(`puzzles.go.${other}`) });
    go.addEventListener("click", () => show(other));
    after.push(go);
  }
  verdict.replaceChildren(...after);
  root.dataset.state = "answered";
  root.setAttribute("aria-busy", "false");
  if (fresh) kit.resize();
  return chosen;
}

function drawShare() {
  const day = state.store.history[state.date];
  const box = document.querySelector(".share");
  const days = streak(state.store.history, isoDate());
  document.getElementById("streak").textContent = t("puzzles.streak", { days });
  box.hidden = !day;
  if (day) document.getElementById("share-text").textContent = shareText(state.date, day, days);
  const list = document.getElementById("history-list");
  list.replaceChildren();
  const dates = Object.keys(state.store.history).sort().reverse().slice(0, 60);
  for (const date of dates) {
    const entry = state.store.history[date];
    list.append(kit.el("li", { text: t("puzzles.history.line", {
      date, discard: resultMark(entry.discard), play: resultMark(entry.play) }) }));
  }
  if (!dates.length) list.append(kit.el("li", { text: t("puzzles.history.empty") }));
}

async function show(which, nextPractice = false) {
  state.showing = which;
  for (const button of document.querySelectorAll(".chooser button")) {
    button.setAttribute("aria-pressed", String(button.dataset.show === which));
  }
  root.dataset.state = "loading";
  root.setAttribute("aria-busy", "true");
  root.replaceChildren(kit.status(t("puzzles.thinking")));
  try {
    let puzzle;
    if (which.startsWith("practice-")) {
      const kind = which.slice("practice-".length);
      if (nextPractice || !state.store.practice) {
        state.store.practice = (state.store.practice % 999999) + 1;
        saveStore(state.store);
      }
      puzzle = await puzzleRequest(kind, state.date, state.store.practice);
    } else {
      puzzle = await state.daily[which];
    }
    if (state.showing !== which) return;
    drawPuzzle(puzzle, puzzle.practice ? null : state.store.history[puzzle.date]?.[puzzle.kind]);
    if (!puzzle.practice) performance.mark(`cribbage:puzzle-ready:${puzzle.kind}`);
  } catch (error) {
    if (state.showing !== which) return;
    root.replaceChildren(kit.failed(error));
    root.dataset.state = "error";
  }
}

// --- the drill ----------------------------------------------------------------------

function startDrill() {
  const holder = document.getElementById("drill");
  const select = document.getElementById("drill-level");
  const timed = document.getElementById("drill-timed");
  const progress = loadProgress();
  for (const level of DRILL_LEVELS) {
    const mine = progress[level];
    select.append(kit.el("option", { value: level,
      text: `${t(`drill.level.${level}`)}${mine.tried ? ` (${mine.right}/${mine.tried})` : ""}` }));
  }
  const drillKit = widgetKit({ root: holder, words, engine });
  function restart() {
    holder.replaceChildren();
    drillWidget(drillKit, { level: select.value, seed: null, timed: timed.checked });
  }
  select.addEventListener("change", restart);
  timed.addEventListener("change", restart);
  document.getElementById("drill-settings").addEventListener("submit", (event) => event.preventDefault());
  restart();
}

// --- start ------------------------------------------------------------------------

async function main() {
  const lang = linkedLanguage(location.search) ?? chooseLanguage(browserLanguages(), storedLanguage());
  document.documentElement.lang = lang;
  showLanguageSwitch(lang);
  const client = tableEngine(); // adopts the worker engine.js started at navigation
  engine = engineCalls({ call: (name, text) => client[name](text) });
  client.ready.then(() => {
    performance.mark("cribbage:engine-ready");
    registerOffline(); // as the table does: once the engine's files are in the HTTP cache
  }, () => {});
  try {
    words = await loadCatalogue(lang);
    translatePage();
  } finally {
    document.documentElement.classList.remove("i18n-pending");
  }
  document.documentElement.dataset.lang = words.lang;
  kit = widgetKit({ root, words, engine });
  state.date = chosenDate();
  state.store = loadStore();
  // both of the day's puzzles are asked at once: the worker answers them as soon as it is up
  for (const kind of ["discard", "play"]) {
    state.daily[kind] = puzzleRequest(kind, state.date, null);
    state.daily[kind].then(() => performance.mark(`cribbage:puzzle-computed:${kind}`), () => {});
  }
  for (const button of document.querySelectorAll(".chooser button")) {
    button.addEventListener("click", () => show(button.dataset.show));
  }
  document.getElementById("share-copy").addEventListener("click", async () => {
    const said = document.getElementById("share-copied");
    try {
      await navigator.clipboard.writeText(document.getElementById("share-text").textContent);
      said.textContent = t("puzzles.share.copied");
    } catch {
      said.textContent = t("puzzles.share.select");
    }
  });
  drawShare();
  const today = state.store.history[state.date] || {};
  show(today.discard && !today.play ? "play" : "discard");
  startDrill();
}

main();
