// Parsing and validation of the widgets' URL parameters (pure: no DOM).
//
// embed.html?widget=hand|peg|deal&... — see README "Embedding widgets and the
// tutorial". parseWidget(search) returns a plain object describing the widget
// or throws a WidgetError whose message is shown, as text, inside the widget.
// Every parameter is checked: unknown names, bad or repeated cards, sizes,
// numbers (digits only, in range), text with markup, and the overall length.
// Nothing here touches the DOM, so it runs under Node for the unit tests.

export class WidgetError extends Error {}

export const MAX_QUERY = 2000; // characters in the whole query string
export const MAX_TEXT = 80; // characters in a title or a name
export const LANGS = ["en", "es", "ja"];
export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_OF_SYMBOL = { "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C" };
export const RANKS = "A23456789TJQK";
const RANK_WORDS = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "jack", "queen", "king"];
const SUIT_WORDS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

const COMMON = ["widget", "lang", "title"];
const ALLOWED = {
  hand: [...COMMON, "hand", "starter", "crib", "edit"],
  peg: [...COMMON, "cards", "players", "names", "step"],
  deal: [...COMMON, "players", "dealer", "hands", "crib", "discards", "starter", "play", "names",
    "scores", "target", "step"],
};

/** A short, printable version of user text for an error message (never markup). */
export function quote(text) {
  const clean = String(text).replace(/[\u0000-\u001f\u007f]/g, "?");
  return `"${clean.length > 24 ? clean.slice(0, 24) + "…" : clean}"`;
}

/** One card's code ("5S", "TH") from text such as 5S, 5s, 10H, TH, Q♦; throws WidgetError. */
export function parseCard(text, what = "card") {
  const cards = parseCards(text, what, 1, 1);
  return cards[0];
}

const CARD_AT = /^(10|[2-9AaTtJjQqKk])([SHDCshdc♠♥♦♣♤♡♢♧])/u;

/**
 * A list of card codes from text: separated by commas/spaces ("5S,4S 2S") or
 * run together ("5S4S2S", "10H"). Checks the count is in [min, max] and that
 * no card appears twice. With allowGo, the word "go" is kept as a token.
 */
export function parseCards(text, what, min = 0, max = 52, { allowGo = false } = {}) {
  const raw = String(text ?? "");
  if (raw.length > 200) throw new WidgetError(`The ${what} is too long (${raw.length} characters).`);
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
        throw new WidgetError(`${quote(token)} in the ${what} is not a card (use e.g. 5S, 10H, TH, QD, AC).`);
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
    throw new WidgetError(`The ${what} has too many cards (at most ${max}).`);
  }
  if (cards.length < min) {
    throw new WidgetError(min === max
      ? `The ${what} needs ${min} card${min === 1 ? "" : "s"}, not ${cards.length}.`
      : `The ${what} needs at least ${min} cards, not ${cards.length}.`);
  }
  checkDistinct(cards, `the ${what}`);
  return out;
}

/** Throws if a card appears twice. */
export function checkDistinct(cards, what) {
  const seen = new Set();
  for (const card of cards) {
    if (seen.has(card)) throw new WidgetError(`${capital(what)} has ${cardText(card)} twice.`);
    seen.add(card);
  }
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "5♠", "10♥" */
export function cardText(code) {
  const rank = code[0] === "T" ? "10" : code[0];
  return rank + SUITS[code[1]];
}

/** "five of spades" */
export function cardName(code) {
  return `${RANK_WORDS[RANKS.indexOf(code[0])]} of ${SUIT_WORDS[code[1]]}`;
}

/** Counting value: A=1 .. 10, J/Q/K 10. */
export function cardValue(code) {
  return Math.min(RANKS.indexOf(code[0]) + 1, 10);
}

/** A whole number in [min, max] from digits only. */
export function parseNumber(text, what, min, max, fallback) {
  if (text === null || text === undefined) {
    if (fallback === undefined) throw new WidgetError(`The ${what} is missing.`);
    return fallback;
  }
  if (!/^\d{1,4}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new WidgetError(`The ${what} must be a whole number from ${min} to ${max}, not ${quote(text)}.`);
  }
  return Number(text);
}

/** A yes/no flag: 0 or 1 (also false/true). */
export function parseFlag(text, what) {
  if (text === null || text === undefined || text === "") return false;
  if (text === "1" || text === "true") return true;
  if (text === "0" || text === "false") return false;
  throw new WidgetError(`The ${what} must be 0 or 1, not ${quote(text)}.`);
}

/** Plain text for a title or a name: no markup, no control characters, short. */
export function parseText(text, what, max = MAX_TEXT) {
  const value = String(text).trim();
  if (value.length > max) throw new WidgetError(`The ${what} is too long (at most ${max} characters).`);
  if (/[<>\u0000-\u001f\u007f]/u.test(value)) {
    throw new WidgetError(`The ${what} may not contain markup (< or >) or control characters.`);
  }
  return value;
}

function parseNames(text, players) {
  const defaults = Array.from({ length: players }, (_, i) => `Player ${i + 1}`);
  if (text === null) return defaults;
  const names = String(text).split(",");
  if (names.length !== players) {
    throw new WidgetError(`The names must be ${players}, separated by commas (got ${Math.min(names.length, 99)}).`);
  }
  return names.map((name, i) => parseText(name, "name", 20) || defaults[i]);
}

function parseLang(text) {
  if (text === null) return "en";
  if (!LANGS.includes(text)) {
    throw new WidgetError(`The language must be one of ${LANGS.join(", ")}, not ${quote(text)}.`);
  }
  return text;
}

/**
 * Read and check every parameter of a widget's query string (location.search).
 * Returns {widget, lang, title, ...}; throws WidgetError with a clear message.
 */
export function parseWidget(search) {
  const query = String(search ?? "");
  if (query.length > MAX_QUERY) {
    throw new WidgetError(`The widget's address is too long (${query.length} characters; at most ${MAX_QUERY}).`);
  }
  const params = new URLSearchParams(query);
  const seen = new Set();
  for (const key of params.keys()) {
    if (seen.has(key)) throw new WidgetError(`The parameter ${quote(key)} is given twice.`);
    seen.add(key);
  }
  const widget = params.get("widget") ?? "hand";
  if (!Object.hasOwn(ALLOWED, widget)) {
    throw new WidgetError(`Unknown widget ${quote(widget)}: use hand, peg or deal.`);
  }
  for (const key of seen) {
    if (!ALLOWED[widget].includes(key)) {
      throw new WidgetError(`Unknown parameter ${quote(key)} for the ${widget} widget (known: ${ALLOWED[widget].join(", ")}).`);
    }
  }
  const get = (key) => params.get(key);
  const base = {
    widget,
    lang: parseLang(get("lang")),
    title: get("title") === null ? "" : parseText(get("title"), "title"),
  };
  if (widget === "hand") return { ...base, ...parseHand(get) };
  if (widget === "peg") return { ...base, ...parsePeg(get) };
  return { ...base, ...parseDeal(get) };
}

function parseHand(get) {
  const edit = parseFlag(get("edit"), "edit flag");
  const crib = parseFlag(get("crib"), "crib flag");
  let hand = ["5S", "4S", "2S", "6H"];
  let starter = "5H";
  if (get("hand") !== null || !edit) hand = parseCards(get("hand"), "hand", 4, 4);
  if (get("starter") !== null || !edit) starter = parseCard(get("starter") ?? "", "starter");
  checkDistinct([...hand, starter], "the hand with its starter");
  return { hand, starter, crib, edit };
}

function parsePeg(get) {
  const players = parseNumber(get("players"), "number of players", 2, 4, 2);
  const cards = parseCards(get("cards"), "play", 1, 4 * players, { allowGo: true });
  const names = parseNames(get("names"), players);
  const step = parseNumber(get("step"), "step", 0, cards.length, 0);
  return { players, cards, names, step };
}

function splitHands(text, what, players) {
  if (text === null) throw new WidgetError(`The ${what} are missing (one group of cards per player, separated by |).`);
  const groups = String(text).split("|");
  if (groups.length !== players) {
    throw new WidgetError(`The ${what} must be ${players} groups of cards separated by | (got ${Math.min(groups.length, 99)}).`);
  }
  return groups;
}

function parseDeal(get) {
  const players = parseNumber(get("players"), "number of players", 2, 4, 2);
  const target = parseNumber(get("target"), "target", 61, 121, 121);
  if (target !== 61 && target !== 121) throw new WidgetError("The target must be 121 or 61.");
  const dealer = parseNumber(get("dealer"), "dealer (a seat number)", 0, players - 1, 0);
  const dealt = players === 2 ? 6 : 5;
  const groups = splitHands(get("hands"), "hands", players);
  const first = parseCards(groups[0], "first hand", 4, dealt);
  const size = first.length === 4 ? 4 : dealt;
  if (size !== first.length) {
    throw new WidgetError(`Each hand needs ${dealt} cards (as dealt) or 4 (after the discards).`);
  }
  const hands = groups.map((group, i) => parseCards(group, `hand of player ${i + 1}`, size, size));
  const cribSize = size === 4 ? 4 : players === 3 ? 1 : 0;
  const crib = parseCards(get("crib") ?? "", "crib", cribSize, cribSize);
  const starter = parseCard(get("starter") ?? "", "starter");
  checkDistinct([...hands.flat(), ...crib, starter], "the deal");
  let discards = null;
  if (get("discards") !== null) {
    if (size === 4) throw new WidgetError("The hands are already after the discards: leave out discards.");
    const each = players === 2 ? 2 : 1;
    discards = splitHands(get("discards"), "discards", players).map((group, i) => {
      const cards = parseCards(group, `discard of player ${i + 1}`, each, each);
      for (const card of cards) {
        if (!hands[i].includes(card)) {
          throw new WidgetError(`Player ${i + 1} cannot discard ${cardText(card)}: it is not in that hand.`);
        }
      }
      return cards;
    });
  }
  const play = parseCards(get("play") ?? "", "play", 0, 4 * players);
  for (const card of play) {
    if (!hands.flat().includes(card)) {
      throw new WidgetError(`${cardText(card)} in the play is in nobody's hand.`);
    }
    if (discards && discards.flat().includes(card)) {
      throw new WidgetError(`${cardText(card)} in the play was laid away to the crib.`);
    }
  }
  const teams = players === 4 ? 2 : players;
  let scores = null;
  if (get("scores") !== null) {
    const parts = String(get("scores")).split(",");
    if (parts.length !== teams) throw new WidgetError(`The scores must be ${teams} numbers separated by commas.`);
    scores = parts.map((part) => parseNumber(part, "score", 0, target - 1));
  }
  const names = parseNames(get("names"), players);
  const step = parseNumber(get("step"), "step", 0, 200, 0);
  return { players, target, dealer, hands, crib, starter, discards, play, scores, names, step };
}
