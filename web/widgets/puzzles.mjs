// The puzzles page: the discard and the play of the day, practice puzzles and the
// counting drill, played on a felt like the table's.
//
// The day's puzzles are the engine's (the `puzzle` endpoint, cribbage/puzzles.py):
// made from the date alone, so everyone gets the same ones, with every choice
// ranked by the coach (expected points and the reason, in the page's language).
// Both are asked as soon as this module runs: the calls wait in the worker and
// are answered the moment Python is up (engine.js started the worker at
// navigation). Nothing heavy runs here: the page only draws, and sends the
// cards tapped; which choice they are, its rank and its figures are the engine's.
//
// Contract (docs/accessibility.md): #puzzle[data-state] is "loading", "ask" or
// "answered"; #puzzle[data-kind] is discard or play, [data-practice] the practice
// number (absent for a daily puzzle), [data-picked] the cards tapped ("4S 5H").
// Each card of your hand is a toggle button named in words with data-card;
// Check (button.check) is enabled once a choice's cards are picked (two for a
// discard, one for a play). After answering, #puzzle[data-rank] is the choice's
// rank among all (1 = best) and [data-of] the number of choices, and the chart
// has one li.bar-row per choice, best first ([data-cards], [data-rank], .best,
// .chosen). localStorage "cribbage-puzzles" keeps the answers by date
// ({history: {date: {discard, play}}, practice: n}); the streak is the number of
// days in a row, up to today, with both daily puzzles answered. ?date=YYYY-MM-DD
// shows another day's puzzles. Performance marks: cribbage:engine-ready,
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
  for (const node of document.querySelectorAll("[data-i18n-title]")) {
    node.setAttribute("title", t(node.dataset.i18nTitle));
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

// --- one puzzle on the felt -------------------------------------------------------------

// picked: the cards tapped, in the order tapped (the puzzle on screen's only state).
const state = { date: null, store: null, daily: {}, showing: null, puzzle: null, picked: [] };

/** How many cards a choice holds: two for a discard, one for a play (the engine's choices say). */
const needed = (puzzle) => puzzle.choices[0].cards.length;
const sameCards = (a, b) => a.length === b.length && a.every((code) => b.includes(code));
const choiceOf = (puzzle, cards) => puzzle.choices.find((c) => sameCards(c.cards, cards));

/** A card of your hand as a toggle button named in words (kit.css draws its face). */
function cardButton(code, enabled) {
  const face = kit.card(code);
  const button = kit.el("button", { type: "button", class: face.className, "data-card": code,
    "aria-label": words.cardName(code), "aria-pressed": "false" });
  for (const part of face.children) part.setAttribute("aria-hidden", "true");
  button.append(...face.children);
  button.disabled = !enabled;
  return button;
}

/** A face-down card (the other player's hand). */
const cardBack = () => kit.el("span", { class: "card back", "aria-hidden": "true" });

/** A player's panel on the felt: the name, the score in large type, the dealer's button. */
function playerPanel(name, score, extra, dealer) {
  return kit.el("div", { class: `pz-player ${extra}` },
    kit.el("span", { class: "pz-name", text: name }), kit.el("b", { class: "pz-score", text: String(score) }),
    dealer ? kit.el("span", { class: "dealer-mark", "aria-hidden": "true", text: t("puzzles.dealer_mark") })
      : null);
}

function titleOf(puzzle) {
  return puzzle.practice
    ? t(`puzzles.title.practice_${puzzle.kind}`, { n: puzzle.practice })
    : t(`puzzles.title.${puzzle.kind}`, { date: puzzle.date });
}

/** The top of the felt: the puzzle's title, and for a discard who deals (a play shows it
 * on the dealer's panel, as the table does). */
function feltTop(puzzle) {
  const { el } = kit;
  const dealer = puzzle.seat === "dealer";
  return el("div", { class: "felt-top" },
    el("h3", { class: "puzzle-title", text: titleOf(puzzle) }),
    puzzle.kind === "discard" ? el("span", { class: `seat-chip${dealer ? " dealer" : ""}`, "aria-hidden": "true",
      text: t(dealer ? "puzzles.chip.dealer" : "puzzles.chip.pone") }) : null);
}

/** What to do, and what is picked so far (said as it changes). The seat in words is for
 * screen readers: the felt shows it (the dealer's chip, whose crib). */
function taskBox(puzzle) {
  const { el } = kit;
  const seat = t(puzzle.seat === "dealer" ? "puzzles.seat.dealer" : "puzzles.seat.pone");
  return el("div", { class: "task-box" },
    el("p", { class: "task" }, el("span", { class: "visually-hidden", text: `${seat} ` }),
      t(`puzzles.ask.${puzzle.kind}`)),
    el("p", { class: "picked", "aria-live": "polite" }));
}

/** The discard's middle: the crib your two cards go to, and what to do. */
function discardMiddle(puzzle) {
  const { el } = kit;
  const mine = puzzle.seat === "dealer";
  const slots = el("div", { class: "crib-slots", "aria-hidden": "true" });
  for (let i = 0; i < needed(puzzle); i += 1) slots.append(el("span", { class: "slot" }));
  return el("div", { class: "felt-middle" },
    el("div", { class: `crib-spot ${mine ? "mine" : "theirs"}` },
      el("span", { class: "felt-label", text: t(mine ? "puzzles.crib.yours" : "puzzles.crib.theirs") }), slots),
    taskBox(puzzle));
}

/** The play's table: their panel and cards, the starter, the pile and its count. */
function playTable(puzzle) {
  const { el } = kit;
  const theirs = el("div", { class: "their-cards" });
  for (let i = 0; i < puzzle.their_cards; i += 1) theirs.append(cardBack());
  const them = el("div", { class: "pz-row them" },
    playerPanel(t("puzzles.player.them"), puzzle.scores.them, "", puzzle.seat === "pone"), theirs,
    puzzle.they_said_go ? el("span", { class: "bubble", text: t("puzzles.go_bubble") }) : null);
  const pile = kit.cards(puzzle.pile, t("widget.pile"), "");
  pile.classList.add("pile");
  const centre = el("div", { class: "felt-middle play" },
    el("div", { class: "starter-spot" }, el("span", { class: "felt-label", text: t("widget.starter") }),
      kit.cards([puzzle.starter], t("widget.starter"), "starter")),
    el("div", { class: "pile-spot" }, pile,
      el("p", { class: "pile-count" }, el("span", { class: "felt-label", text: t("puzzles.count") }),
        el("strong", { text: String(puzzle.count) }))));
  const mine = puzzle.played.filter((p) => p.who === "you").map((p) => p.card);
  const seen = puzzle.played.filter((p) => p.who === "them").map((p) => p.card);
  const known = el("p", { class: "known", text: t("puzzles.known", {
    kept: puzzle.kept.map(cardText).join(" "),
    mine: mine.length ? mine.map(cardText).join(" ") : t("puzzles.nothing"),
    theirs: seen.length ? seen.map(cardText).join(" ") : t("puzzles.nothing"),
    left: puzzle.their_cards }) });
  const you = el("div", { class: "pz-row you" }, playerPanel(t("puzzles.player.me"), puzzle.scores.you, "mine",
    puzzle.seat === "dealer"),
    taskBox(puzzle));
  return [them, centre, known, you];
}

/** Your hand: every card a button; those no choice holds (over 31) cannot be played. */
function handRow(puzzle) {
  const playable = new Set(puzzle.choices.flatMap((c) => c.cards));
  const hand = kit.el("div", { class: "puzzle-hand", role: "group", "data-size": String(puzzle.hand.length),
    "aria-label": t(puzzle.kind === "discard" ? "puzzles.your_cards" : "puzzles.your_hand") });
  for (const code of puzzle.hand) {
    const button = cardButton(code, playable.has(code));
    button.addEventListener("click", () => pick(puzzle, code));
    hand.append(button);
  }
  return hand;
}

function drawPuzzle(puzzle, answer) {
  const { el } = kit;
  state.puzzle = puzzle;
  state.picked = [];
  root.replaceChildren();
  root.dataset.kind = puzzle.kind;
  root.dataset.id = puzzle.id;
  if (puzzle.practice) root.dataset.practice = String(puzzle.practice);
  else delete root.dataset.practice;
  for (const name of ["rank", "of", "picked"]) delete root.dataset[name];
  const check = el("button", { type: "button", class: "button check", text: t("puzzles.check"), disabled: "" });
  check.addEventListener("click", () => answerPuzzle(puzzle));
  const felt = el("div", { class: `puzzle-felt felt ${puzzle.kind}` }, feltTop(puzzle),
    ...(puzzle.kind === "discard" ? [discardMiddle(puzzle)] : playTable(puzzle)),
    handRow(puzzle), el("div", { class: "felt-actions" }, check));
  root.append(felt, el("div", { class: "answer" }));
  const chosen = answer && choiceOf(puzzle, answer.cards);
  if (chosen) {
    state.picked = [...chosen.cards];
    showPicked(puzzle);
    return showAnswer(puzzle, chosen, false);
  }
  showPicked(puzzle);
  root.dataset.state = "ask";
  root.setAttribute("aria-busy", "false");
  return null;
}

/** A tap on a card of your hand: pick it or put it back (a discard holds two, a play one). */
function pick(puzzle, code) {
  if (root.dataset.state !== "ask" || state.puzzle !== puzzle) return;
  const need = needed(puzzle);
  if (state.picked.includes(code)) state.picked = state.picked.filter((c) => c !== code);
  else if (need === 1) state.picked = [code];
  else if (state.picked.length < need) state.picked = [...state.picked, code];
  showPicked(puzzle);
  // the choice made: on to Check, as the table goes on to Send to crib
  if (state.picked.length === need) root.querySelector("button.check").focus();
}

/** The picked cards lifted (aria-pressed), in the crib's slots, said, and Check enabled. */
function showPicked(puzzle) {
  const need = needed(puzzle);
  for (const button of root.querySelectorAll(".puzzle-hand button.card")) {
    const chosen = state.picked.includes(button.dataset.card);
    button.classList.toggle("selected", chosen);
    button.setAttribute("aria-pressed", String(chosen));
  }
  const slots = root.querySelectorAll(".crib-slots .slot");
  slots.forEach((slot, i) => slot.replaceChildren(...(state.picked[i] ? [kit.card(state.picked[i])] : [])));
  root.dataset.picked = state.picked.join(" ");
  root.querySelector("button.check").disabled = state.picked.length !== need;
  const said = root.querySelector(".picked");
  if (said) {
    const names = state.picked.map((c) => words.cardName(c));
    if (!names.length) said.textContent = t(need === 1 ? "puzzles.tap.play" : "puzzles.tap.discard", { need });
    else if (need === 1) said.textContent = t("puzzles.picked.one", { card: names[0] });
    else said.textContent = t("puzzles.picked", { cards: names.join(t("puzzles.comma")), n: names.length, need });
  }
}

function answerPuzzle(puzzle) {
  if (root.dataset.state !== "ask" || state.puzzle !== puzzle) return;
  const chosen = choiceOf(puzzle, state.picked);
  if (!chosen) return;
  const result = { rank: chosen.rank, of: puzzle.choices.length, cards: chosen.cards };
  if (!puzzle.practice) {
    const day = state.store.history[puzzle.date] || {};
    day[puzzle.kind] = result;
    state.store.history[puzzle.date] = day;
    saveStore(state.store);
  }
  showAnswer(puzzle, chosen, true);
  drawDays();
}

function showAnswer(puzzle, chosen, fresh) {
  const { el } = kit;
  const best = puzzle.choices[0];
  root.dataset.rank = String(chosen.rank);
  root.dataset.of = String(puzzle.choices.length);
  const bestCards = new Set(puzzle.choices.filter((c) => c.rank === 1).flatMap((c) => c.cards));
  for (const button of root.querySelectorAll(".puzzle-hand button.card")) {
    button.disabled = true;
    button.classList.toggle("best", bestCards.has(button.dataset.card));
  }
  root.querySelector(".felt-actions").hidden = true;
  const lost = Math.max(0, best.value - chosen.value).toFixed(2);
  const headline = chosen.rank === 1
    ? t("puzzles.verdict.best", { choice: chosen.name })
    : t("puzzles.verdict.other", { choice: chosen.name, place: ordinal(chosen.rank),
      of: puzzle.choices.length, best: best.name, lost });
  const said = el("p", { class: `headline ${chosen.rank === 1 ? "right" : "wrong"}`, tabindex: "-1",
    text: headline });
  const why = el("div", { class: "why" },
    el("p", { class: "why-best", text: t("puzzles.why.best", { choice: best.name, reason: best.reason }) }));
  if (chosen !== best) {
    why.append(el("p", { class: "why-yours",
      text: t("puzzles.why.yours", { choice: chosen.name, reason: chosen.reason }) }));
  }
  const after = [said, why, rankingChart(puzzle, chosen),
    el("p", { class: "explain", text: t(`puzzles.explain.${puzzle.kind}`) })];
  const buttons = el("div", { class: "answer-buttons" });
  if (puzzle.practice) {
    const more = el("button", { type: "button", class: "button more", text: t("puzzles.next_practice") });
    more.addEventListener("click", () => show(`practice-${puzzle.kind}`, true));
    buttons.append(more);
  } else if (!state.store.history[puzzle.date]?.[puzzle.kind === "discard" ? "play" : "discard"]) {
    const other = puzzle.kind === "discard" ? "play" : "discard";
    const go = el("button", { type: "button", class: "button more", text: t(`puzzles.go.${other}`) });
    go.addEventListener("click", () => show(other));
    buttons.append(go);
  }
  if (buttons.children.length) after.push(buttons);
  root.querySelector(".answer").replaceChildren(...after);
  root.dataset.state = "answered";
  root.setAttribute("aria-busy", "false");
  if (fresh) said.focus(); // the verdict is read out, and the chart scrolled to
  return chosen;
}

// --- the ranking as a chart --------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/** A choice's bars as the engine's figures place them: a discard's hand, then the crib added
 * (yours) or taken off (theirs); a play's value to the end of the play, and on a thin lane
 * what it pegs now against the reply it may meet. The marker is the value in all. */
function barsOf(puzzle, choice) {
  if (puzzle.kind === "discard") {
    const crib = puzzle.seat === "dealer"
      ? { part: "crib-mine", from: choice.hand, to: choice.value }
      : { part: "crib-theirs", from: -choice.crib, to: 0 };
    return [{ part: "hand", from: 0, to: choice.hand }, crib];
  }
  return [
    { part: choice.value >= 0 ? "gain" : "loss", from: Math.min(0, choice.value), to: Math.max(0, choice.value) },
    { part: "now", from: 0, to: choice.points_now, thin: true },
    { part: "reply", from: -choice.reply_risk, to: 0, thin: true },
  ];
}

/** The chart's parts, in its legend's order. */
function legendParts(puzzle) {
  if (puzzle.kind === "play") return ["gain", "loss", "now", "reply"];
  return ["hand", puzzle.seat === "dealer" ? "crib-mine" : "crib-theirs", "total"];
}

/** "13.51" for a discard, "+1.31" / "−0.05" for a play (a lead over the other player). */
function figure(puzzle, value) {
  const text = Math.abs(value).toFixed(2);
  if (puzzle.kind === "discard") return value < 0 ? `−${text}` : text;
  return `${value < 0 ? "−" : "+"}${text}`;
}

/** One SVG per row, on the chart's one scale (lo..hi mapped to 0..1000); no text inside. */
function barPicture(bars, value, lo, hi) {
  const x = (v) => ((v - lo) / (hi - lo)) * 1000;
  const picture = svg("svg", { viewBox: "0 0 1000 30", preserveAspectRatio: "none", "aria-hidden": "true",
    focusable: "false", class: "bar-svg" });
  for (const bar of bars) {
    if (bar.to - bar.from <= 0) continue;
    picture.append(svg("rect", { class: `seg ${bar.part}`, x: x(bar.from).toFixed(1),
      width: (x(bar.to) - x(bar.from)).toFixed(1), y: bar.thin ? 22 : 3, height: bar.thin ? 7 : 17 }));
  }
  if (lo < 0) picture.append(svg("line", { class: "zero", x1: x(0), x2: x(0), y1: 0, y2: 30 }));
  picture.append(svg("line", { class: "marker", x1: x(value), x2: x(value), y1: 0, y2: 22 }));
  return picture;
}

/** One choice's row: its rank, its cards (faces, and in words for screen readers), "best"
 * and "yours", its bars, its value, and the coach's reason for screen readers. */
function barRow(puzzle, choice, bars, mine, lo, hi) {
  const { el } = kit;
  const row = el("li", { class: `bar-row${choice.rank === 1 ? " best" : ""}${mine ? " chosen" : ""}`,
    "data-cards": choice.cards.join(" "), "data-rank": String(choice.rank), "data-value": String(choice.value) });
  const faces = el("span", { class: "bar-cards" });
  for (const code of choice.cards) {
    faces.append(el("span", { class: `face ${code[1] === "H" || code[1] === "D" ? "red" : "black"}`,
      "aria-hidden": "true", text: cardText(code) }));
  }
  faces.append(el("span", { class: "visually-hidden", text: choice.name }));
  const tags = el("span", { class: "bar-tags" });
  if (choice.rank === 1) tags.append(el("span", { class: "tag best", text: t("puzzles.tag.best") }));
  if (mine) tags.append(el("span", { class: "tag yours", text: t("puzzles.tag.yours") }));
  row.append(
    el("span", { class: "bar-rank", text: String(choice.rank) }), faces, tags,
    el("span", { class: "bar-plot" }, barPicture(bars, choice.value, lo, hi)),
    el("span", { class: "bar-total", text: figure(puzzle, choice.value) }),
    el("span", { class: "visually-hidden", text: `${t("puzzles.comma")}${choice.reason}` }));
  return row;
}

/** Every choice ranked, best first: one bar per choice on one scale (zero included), the
 * best and yours marked in words too; every reason is listed under the chart. */
function rankingChart(puzzle, chosen) {
  const { el } = kit;
  const bars = puzzle.choices.map((choice) => barsOf(puzzle, choice));
  const ends = bars.flat().flatMap((bar) => [bar.from, bar.to]).concat(puzzle.choices.map((c) => c.value), 0);
  const lo = Math.min(...ends);
  const hi = Math.max(...ends, lo + 1);
  const legend = el("ul", { class: "legend" }, ...legendParts(puzzle).map((part) => el("li", {},
    el("span", { class: `swatch ${part}`, "aria-hidden": "true" }),
    el("span", { text: t(`puzzles.legend.${part}`) }))));
  const list = el("ol", { class: "bars", "aria-label": t("puzzles.ranking") },
    ...puzzle.choices.map((choice, i) => barRow(puzzle, choice, bars[i], choice === chosen, lo, hi)));
  const reasons = el("ol", { class: "reasons" }, ...puzzle.choices.map((choice) =>
    el("li", { value: String(choice.rank) }, el("b", { text: choice.cards.map(cardText).join(" ") }),
      ` ${choice.reason}`)));
  return el("figure", { class: "ranking-chart", "data-kind": puzzle.kind },
    el("figcaption", { text: t(`puzzles.chart.${puzzle.kind}`) }), legend, list,
    el("details", { class: "all-reasons" }, el("summary", { text: t("puzzles.reasons") }), reasons));
}

// --- your days: the streak, the last 14 days, the share text ---------------------------------

const DAYS_SHOWN = 14;

/** A day's mark for one puzzle: best, answered (not the best) or open. */
const markOf = (result) => (!result ? "open" : result.rank === 1 ? "best" : "answered");

/** A day of the last 14 as a link to its puzzles: the discard's mark above the play's,
 * the day of the month, and the day in words for screen readers. */
function dayLink(date) {
  const { el } = kit;
  const entry = state.store.history[date] || {};
  const done = entry.discard && entry.play ? "both" : entry.discard || entry.play ? "one" : "none";
  const link = el("a", { href: `?date=${date}`, class: `day ${done}` },
    el("span", { class: `mark ${markOf(entry.discard)}`, "aria-hidden": "true" }),
    el("span", { class: `mark ${markOf(entry.play)}`, "aria-hidden": "true" }),
    el("span", { class: "day-of-month", "aria-hidden": "true", text: String(Number(date.slice(8))) }),
    el("span", { class: "visually-hidden", text: t("puzzles.history.line", {
      date, discard: placeText(entry.discard), play: placeText(entry.play) }) }));
  if (date === state.date) link.setAttribute("aria-current", "date");
  return link;
}

/** Your days: the streak, the last 14 days, the share text of the day shown, every day answered. */
function drawDays() {
  const { el } = kit;
  const today = isoDate();
  const day = state.store.history[state.date];
  const days = streak(state.store.history, today);
  document.getElementById("streak-days").textContent = String(days);
  document.getElementById("streak").textContent = t("puzzles.streak", { days });
  document.querySelector(".share").hidden = !day;
  if (day) document.getElementById("share-text").textContent = shareText(state.date, day, days);
  const dates = [today];
  while (dates.length < DAYS_SHOWN) dates.unshift(dayBefore(dates[0]));
  document.getElementById("days-chart").replaceChildren(...dates.map((date) => el("li", {}, dayLink(date))));
  const list = document.getElementById("history-list");
  const answered = Object.keys(state.store.history).sort().reverse().slice(0, 60);
  list.replaceChildren(...answered.map((date) => el("li", { text: t("puzzles.history.line", {
    date, discard: resultMark(state.store.history[date].discard),
    play: resultMark(state.store.history[date].play) }) })));
  if (!answered.length) list.append(el("li", { text: t("puzzles.history.empty") }));
}

/** Show a puzzle; `chosen` when the player asked for it (a tab, the next one): then the
 * felt is brought into view, whole where it fits, as a new deal is at the table. */
async function show(which, nextPractice = false, chosen = true) {
  state.showing = which;
  for (const button of document.querySelectorAll(".chooser button")) {
    button.setAttribute("aria-pressed", String(button.dataset.show === which));
  }
  state.puzzle = null;
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
    if (chosen) root.querySelector(".puzzle-felt").scrollIntoView({ block: "nearest" });
    if (!puzzle.practice) performance.mark(`cribbage:puzzle-ready:${puzzle.kind}`);
  } catch (error) {
    if (state.showing !== which) return;
    root.replaceChildren(kit.failed(error));
    root.dataset.state = "error";
  }
}

/** Keys 1-9 pick (or put back) the n-th card of your hand while the focus is in the puzzle. */
function onPuzzleKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || !/^[1-9]$/.test(event.key)) return;
  const card = root.querySelectorAll(".puzzle-hand button.card")[Number(event.key) - 1];
  if (!card || card.disabled) return;
  event.preventDefault();
  card.click();
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
    drillWidget(drillKit, { level: select.value, seed: null, timed: timed.checked }, { pad: true });
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
  root.addEventListener("keydown", onPuzzleKey);
  drawDays();
  const today = state.store.history[state.date] || {};
  show(today.discard && !today.play ? "play" : "discard", false, false);
  startDrill();
}

main();
