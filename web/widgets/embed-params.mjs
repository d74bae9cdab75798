// Parsing and validation of the widgets' URL parameters (pure: no DOM).
//
// embed.html?widget=hand|peg|deal&... — see docs/embedding.md, "Parameters".
// parseWidget(search) returns a plain object describing the widget
// or throws a WidgetError whose message is shown, as text, inside the widget.
// Every parameter is checked: unknown names, bad or repeated cards, sizes,
// numbers (digits only, in range), text with markup, and the overall length.
// Nothing here touches the DOM, so it runs under Node for the unit tests.
// Messages are keys of the language catalogue (web/lang/widgets.<code>.json)
// with their values, rendered in the widget's language by lang.mjs.

import { cardText, language, msg, RANKS, SUITS, SUIT_SYMBOLS } from "./lang.mjs";

/** A problem to show inside the widget: `key` and `values` of a catalogue message. */
export class WidgetError extends Error {
  constructor(key, values = {}) {
    super(key);
    this.key = key;
    this.values = values;
  }
}

/** The msg() naming a list or a value in messages: noun("hand") is "the hand". */
export function noun(key, values = {}) {
  return msg(`widget.what.${key}`, values);
}

export const MAX_QUERY = 2000; // characters in the whole query string
export const MAX_TEXT = 80; // characters in a title or a name
// Each suit's symbol (and its outline twin, ♤♡♢♧) to its code.
const SUIT_OF_SYMBOL = Object.fromEntries([...SUIT_SYMBOLS, ..."♤♡♢♧"].map((symbol, i) => [symbol, SUITS[i % 4]]));

// Every widget's: its language, its heading and the author's look (docs/embedding.md, "The look").
const COMMON = ["widget", "lang", "title", "theme", "card-width"];
/** The surrounds a widget is drawn on: the paper of the table's dialogs, or its felt. */
export const THEMES = ["light", "dark"];
/** A card's width in CSS pixels as the card-width parameter may set it (the table's are 36-170). */
export const CARD_WIDTH = { min: 24, max: 160 };
/** The counting drill's levels, easiest first (cribbage.drills.LEVELS; a test keeps them equal). */
export const DRILL_LEVELS = ["easy", "runs", "flush-nobs", "double-runs", "crib", "double-double", "big"];
const ALLOWED = {
  hand: [...COMMON, "hand", "starter", "crib", "edit"],
  peg: [...COMMON, "cards", "players", "names", "step"],
  deal: [...COMMON, "players", "dealer", "hands", "crib", "discards", "starter", "play", "names",
    "scores", "target", "step"],
  drill: [...COMMON, "level", "seed", "timed"],
};

/** A short, printable version of user text for an error message (never markup). */
export function quote(text) {
  const clean = String(text).replace(/[\u0000-\u001f\u007f]/g, "?");
  return `"${clean.length > 24 ? clean.slice(0, 24) + "…" : clean}"`;
}

/** One card's code ("5S", "TH") from text such as 5S, 5s, 10H, TH, Q♦; throws WidgetError. */
export function parseCard(text, what) {
  const cards = parseCards(text, what, 1, 1);
  return cards[0];
}

const CARD_AT = /^(10|[2-9AaTtJjQqKk])([SHDCshdc♠♥♦♣♤♡♢♧])/u;

/**
 * A list of card codes from text: separated by commas/spaces ("5S,4S 2S") or
 * run together ("5S4S2S", "10H"). Checks the count is in [min, max] and that
 * no card appears twice. With allowGo, the word "go" is kept as a token.
 * `what` names the list in messages (a msg(), e.g. noun("hand")).
 */
export function parseCards(text, what, min = 0, max = 52, { allowGo = false } = {}) {
  const raw = String(text ?? "");
  if (raw.length > 200) throw new WidgetError("widget.error.cards_long", { what, length: raw.length });
  const out = [];
  for (const token of raw.split(/[\s,;]+/u).filter(Boolean)) {
    if (allowGo && token.toLowerCase() === "go") {
      out.push("go");
      continue;
    }
    let rest = token;
    while (rest.length) {
      const match = CARD_AT.exec(rest);
      if (!match) {
        throw new WidgetError("widget.error.not_card", { token: quote(token), what });
      }
      const rank = match[1] === "10" ? "T" : match[1].toUpperCase();
      const suit = SUIT_OF_SYMBOL[match[2]] || match[2].toUpperCase();
      out.push(rank + suit);
      if (out.length > 2 * max) break;
      rest = rest.slice(match[0].length);
    }
    if (out.length > 2 * max) break;
  }
  const cards = out.filter((c) => c !== "go");
  if (out.length > 2 * max || cards.length > max) {
    throw new WidgetError("widget.error.too_many", { what, max });
  }
  if (cards.length < min) {
    const key = min !== max ? "needs_at_least" : min === 1 ? "needs_one" : "needs";
    throw new WidgetError(`widget.error.${key}`, { what, min, count: cards.length });
  }
  checkDistinct(cards, what);
  return out;
}

/** Throws if a card appears twice (`what` a msg() naming the cards). */
export function checkDistinct(cards, what) {
  const seen = new Set();
  for (const card of cards) {
    if (seen.has(card)) throw new WidgetError("widget.error.twice", { what, card: cardText(card) });
    seen.add(card);
  }
}

/** Counting value: A=1 .. 10, J/Q/K 10. */
export function cardValue(code) {
  return Math.min(RANKS.indexOf(code[0]) + 1, 10);
}

/** A whole number in [min, max] from digits only. */
export function parseNumber(text, what, min, max, fallback) {
  if (text === null || text === undefined) {
    if (fallback === undefined) throw new WidgetError("widget.error.missing", { what });
    return fallback;
  }
  if (!/^\d{1,4}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new WidgetError("widget.error.number", { what, min, max, value: quote(text) });
  }
  return Number(text);
}

/** A yes/no flag: 0 or 1 (also false/true). */
export function parseFlag(text, what) {
  if (text === null || text === undefined || text === "") return false;
  if (text === "1" || text === "true") return true;
  if (text === "0" || text === "false") return false;
  throw new WidgetError("widget.error.flag", { what, value: quote(text) });
}

/** Plain text for a title or a name: no markup, no control characters, short. */
export function parseText(text, what, max = MAX_TEXT) {
  const value = String(text).trim();
  if (value.length > max) throw new WidgetError("widget.error.text_long", { what, max });
  if (/[<>\u0000-\u001f\u007f]/u.test(value)) throw new WidgetError("widget.error.markup", { what });
  return value;
}

/** The players' names; null for a seat left unnamed (the widget says "Player N" in its language). */
function parseNames(text, players) {
  if (text === null) return Array(players).fill(null);
  const names = String(text).split(",");
  if (names.length !== players) {
    throw new WidgetError("widget.error.names", { players, count: Math.min(names.length, 99) });
  }
  return names.map((name) => parseText(name, noun("name"), 20) || null);
}

/**
 * The widget's language from the `lang` parameter: null when absent (the widget
 * then follows the browser), English for anything not ours. Never an error, and
 * the value itself is never shown: only "en", "es" or "ja" leave this function.
 */
export function parseLang(search) {
  let text = null;
  try {
    text = new URLSearchParams(String(search ?? "").slice(0, MAX_QUERY)).get("lang");
  } catch {
    return "en";
  }
  if (text === null) return null;
  return language(text) ?? "en";
}

/**
 * Read and check every parameter of a widget's query string (location.search).
 * Returns {widget, lang, title, ...}; throws WidgetError with a clear message.
 */
export function parseWidget(search) {
  const query = String(search ?? "");
  if (query.length > MAX_QUERY) {
    throw new WidgetError("widget.error.query_long", { length: query.length, max: MAX_QUERY });
  }
  const params = new URLSearchParams(query);
  const seen = new Set();
  for (const key of params.keys()) {
    if (seen.has(key)) throw new WidgetError("widget.error.param_twice", { name: quote(key) });
    seen.add(key);
  }
  const widget = params.get("widget") ?? "hand";
  if (!Object.hasOwn(ALLOWED, widget)) {
    throw new WidgetError("widget.error.unknown_widget", { name: quote(widget) });
  }
  for (const key of seen) {
    if (!ALLOWED[widget].includes(key)) {
      throw new WidgetError("widget.error.unknown_param",
        { name: quote(key), widget, known: ALLOWED[widget].join(", ") });
    }
  }
  const get = (key) => params.get(key);
  const base = {
    widget,
    lang: parseLang(query),
    title: get("title") === null ? "" : parseText(get("title"), noun("title")),
    ...parseLook(get),
  };
  if (widget === "hand") return { ...base, ...parseHand(get) };
  if (widget === "peg") return { ...base, ...parsePeg(get) };
  if (widget === "drill") return { ...base, ...parseDrill(get) };
  return { ...base, ...parseDeal(get) };
}

/** The look: `theme` (light or dark, default light) and `card-width` (px, else the widget's own). */
function parseLook(get) {
  const theme = get("theme") ?? "light";
  if (!THEMES.includes(theme)) {
    throw new WidgetError("widget.error.theme", { value: quote(theme), known: THEMES.join(", ") });
  }
  const cardWidth = parseNumber(get("card-width"), noun("card_width"), CARD_WIDTH.min, CARD_WIDTH.max, null);
  return { theme, cardWidth };
}

function parseHand(get) {
  const edit = parseFlag(get("edit"), noun("edit"));
  const crib = parseFlag(get("crib"), noun("crib_flag"));
  let hand = ["5S", "4S", "2S", "6H"];
  let starter = "5H";
  if (get("hand") !== null || !edit) hand = parseCards(get("hand"), noun("hand"), 4, 4);
  if (get("starter") !== null || !edit) starter = parseCard(get("starter") ?? "", noun("starter"));
  checkDistinct([...hand, starter], noun("hand_starter"));
  return { hand, starter, crib, edit };
}

function parsePeg(get) {
  const players = parseNumber(get("players"), noun("players"), 2, 4, 2);
  const cards = parseCards(get("cards"), noun("play"), 1, 4 * players, { allowGo: true });
  const names = parseNames(get("names"), players);
  const step = parseNumber(get("step"), noun("step"), 0, cards.length, 0);
  return { players, cards, names, step };
}

function splitHands(text, what, players) {
  if (text === null) throw new WidgetError("widget.error.groups_missing", { what });
  const groups = String(text).split("|");
  if (groups.length !== players) {
    throw new WidgetError("widget.error.groups", { what, players, count: Math.min(groups.length, 99) });
  }
  return groups;
}

function parseDeal(get) {
  const players = parseNumber(get("players"), noun("players"), 2, 4, 2);
  const target = parseNumber(get("target"), noun("target"), 61, 121, 121);
  if (target !== 61 && target !== 121) throw new WidgetError("widget.error.target");
  const dealer = parseNumber(get("dealer"), noun("dealer"), 0, players - 1, 0);
  const dealt = players === 2 ? 6 : 5;
  const groups = splitHands(get("hands"), noun("hands"), players);
  const first = parseCards(groups[0], noun("first_hand"), 4, dealt);
  const size = first.length === 4 ? 4 : dealt;
  if (size !== first.length) throw new WidgetError("widget.error.hand_size", { dealt });
  const hands = groups.map((group, i) => parseCards(group, noun("hand_of", { player: i + 1 }), size, size));
  const cribSize = size === 4 ? 4 : players === 3 ? 1 : 0;
  const crib = parseCards(get("crib") ?? "", noun("crib"), cribSize, cribSize);
  const starter = parseCard(get("starter") ?? "", noun("starter"));
  checkDistinct([...hands.flat(), ...crib, starter], noun("deal"));
  let discards = null;
  if (get("discards") !== null) {
    if (size === 4) throw new WidgetError("widget.error.kept_discards");
    const each = players === 2 ? 2 : 1;
    discards = splitHands(get("discards"), noun("discards"), players).map((group, i) => {
      const cards = parseCards(group, noun("discard_of", { player: i + 1 }), each, each);
      for (const card of cards) {
        if (!hands[i].includes(card)) {
          throw new WidgetError("widget.error.not_in_hand", { player: i + 1, card: cardText(card) });
        }
      }
      return cards;
    });
  }
  const play = parseCards(get("play") ?? "", noun("play"), 0, 4 * players);
  for (const card of play) {
    if (!hands.flat().includes(card)) throw new WidgetError("widget.error.nobodys", { card: cardText(card) });
    if (discards && discards.flat().includes(card)) {
      throw new WidgetError("widget.error.laid_away", { card: cardText(card) });
    }
  }
  const teams = players === 4 ? 2 : players;
  let scores = null;
  if (get("scores") !== null) {
    const parts = String(get("scores")).split(",");
    if (parts.length !== teams) throw new WidgetError("widget.error.scores", { teams });
    scores = parts.map((part) => parseNumber(part, noun("score"), 0, target - 1));
  }
  const names = parseNames(get("names"), players);
  const step = parseNumber(get("step"), noun("step"), 0, 200, 0);
  return { players, target, dealer, hands, crib, starter, discards, play, scores, names, step };
}

/** The drill: `level` (one of DRILL_LEVELS, default easy), `seed` (digits, else random), `timed` (0/1). */
function parseDrill(get) {
  const level = get("level") ?? "easy";
  if (!DRILL_LEVELS.includes(level)) {
    throw new WidgetError("widget.error.level", { value: quote(level), known: DRILL_LEVELS.join(", ") });
  }
  let seed = null;
  if (get("seed") !== null) {
    if (!/^\d{1,9}$/.test(get("seed"))) throw new WidgetError("widget.error.seed", { value: quote(get("seed")) });
    seed = Number(get("seed"));
  }
  return { level, seed, timed: parseFlag(get("timed"), noun("timed")) };
}
