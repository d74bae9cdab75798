// The page's words in English, Spanish and Japanese (the JS side of cribbage/i18n.py).
//
// build.py merges the engine's catalogue (cribbage/lang/<code>.json) with the
// page's parts (web/lang/<part>.<code>.json) into ./lang/<code>.json: one flat
// object of key -> template ("{who} deals."), plus lists ("ranks", "suits").
// The widgets (embed.mjs) and the tutorial use this module; the engine renders
// its own texts (the cadence, score items, the log) with cribbage.i18n, so
// nothing here re-implements them. Pure apart from loadCatalogue (fetch), so
// it runs under Node for the unit tests.

export const LANGUAGES = ["en", "es", "ja"];
export const DEFAULT = "en";
export const STORAGE_KEY = "cribbage-lang"; // shared with the game's page
// The card vocabulary, as cribbage/faces.py has it (one copy on the JS side):
// rank and suit codes, and each suit's symbol in that order.
export const RANKS = "A23456789TJQK";
export const SUITS = "SHDC";
export const SUIT_SYMBOLS = "♠♥♦♣";

/** A card's short face: "5♠", "10♥" (faces.face). */
export function cardText(code) {
  return (code[0] === "T" ? "10" : code[0]) + SUIT_SYMBOLS[SUITS.indexOf(code[1])];
}

/** The language the player chose on this site (localStorage "cribbage-lang"), or null
 * (none stored, or storage blocked: then the browser's languages decide). A stored
 * value that is not one of ours is dropped with a warning (the page never stops on it). */
export function storedLanguage() {
  let stored = null;
  try {
    stored = globalThis.localStorage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
  if (stored === null || LANGUAGES.includes(stored)) return stored;
  console.warn(`Stored ${STORAGE_KEY} dropped (not a language of the site: ${String(stored).slice(0, 20)})`);
  return null;
}

/** Remember the player's choice for the whole site; false if storage is blocked
 * (the choice then lasts for this page only). */
export function storeLanguage(lang) {
  try {
    globalThis.localStorage.setItem(STORAGE_KEY, lang);
    return true;
  } catch {
    return false;
  }
}

/** Wire the header's language picker (`#language`, web/parts/header.html) on a page that
 * reloads in another language: the current one shown, another stored and the page reloaded.
 * (The table and the replay switch at once instead: loading.mjs.) */
export function showLanguageSwitch(lang) {
  const picker = document.getElementById("language");
  if (!picker) return;
  picker.value = lang;
  picker.addEventListener("change", () => {
    if (picker.value === lang || !LANGUAGES.includes(picker.value)) return;
    storeLanguage(picker.value);
    location.replace(withoutLinkedLanguage(location.href)); // a link's ?lang= must not win again
  });
}

/** One of ours from a language tag ("es", "es-MX", "JA_jp"), else null. Never echoes input. */
export function language(tag) {
  if (typeof tag !== "string" || tag.length > 35) return null;
  const primary = tag.split(/[-_]/)[0].toLowerCase();
  return LANGUAGES.includes(primary) ? primary : null;
}

/** The language a link asks for with `?lang=` ("ja", "es-MX"), or null when it asks for none
 * or for one that is not ours: then the usual choice stands (a warning says the value was
 * ignored, never more than 20 characters of it). The link's choice is not stored. */
export function linkedLanguage(search) {
  let text = null;
  try {
    text = new URLSearchParams(String(search ?? "").slice(0, 2000)).get("lang");
  } catch {
    return null;
  }
  if (text === null) return null;
  const lang = language(text);
  if (lang === null) {
    console.warn(`?lang= ignored (not a language of the site: ${JSON.stringify(text.slice(0, 20))})`);
  }
  return lang;
}

/** The address `href` without its `?lang=` (the player has chosen a language since). */
export function withoutLinkedLanguage(href) {
  const url = new URL(href);
  url.searchParams.delete("lang");
  return url.href;
}

/** The stored choice if it is ours, else the first of the browser's tags we speak, else English
 * (the same rule as cribbage.i18n.choose_language). */
export function chooseLanguage(preferred, stored = null) {
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of preferred || []) {
    const lang = language(tag);
    if (lang) return lang;
  }
  return DEFAULT;
}

/** The browser's own preference (navigator.languages), as chooseLanguage reads it. */
export function browserLanguages() {
  if (typeof navigator === "undefined") return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/** Replace each {name} in template by values[name] (other braces stay), as i18n.fill. */
export function fill(template, values = {}) {
  let out = String(template);
  for (const [name, value] of Object.entries(values)) out = out.split(`{${name}}`).join(String(value));
  return out;
}

/** A message to render later: a key and its values (a value may itself be a message). */
export function msg(key, values = {}) {
  return { key, values };
}

/** One language's words: text(key, values), message(msg), cardName(code). */
export class Catalogue {
  constructor(lang, entries, fallback = null) {
    this.lang = lang;
    this.entries = entries || {};
    this.fallback = fallback; // English, for a key a part lacks (the build forbids it; belt and braces)
  }

  raw(key) {
    if (Object.hasOwn(this.entries, key)) return this.entries[key];
    return this.fallback ? this.fallback.raw(key) : key;
  }

  /** The template `key` filled in; values that are messages (msg()) are rendered first. */
  text(key, values = {}) {
    const filled = {};
    for (const [name, value] of Object.entries(values)) {
      filled[name] = value && typeof value === "object" && "key" in value ? this.message(value) : value;
    }
    return fill(this.raw(key), filled);
  }

  /** A msg() rendered, its first letter a capital ("the hand needs…" starts a sentence). */
  message({ key, values }) {
    const text = this.text(key, values);
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  /** A card code (5S) in words, as a screen reader says it (i18n.card_name). */
  cardName(code) {
    const rank = this.raw("ranks")[RANKS.indexOf(code[0])];
    const suit = this.raw("suits")[SUITS.indexOf(code[1])];
    return this.text("card", { rank, suit });
  }
}

const loaded = new Map();

/** The catalogue of `lang` from ./lang/<code>.json beside this module (fetched once per page).
 * If it cannot be fetched the English one is used; if neither, keys show (never a crash). */
export function loadCatalogue(lang, base = import.meta.url) {
  lang = LANGUAGES.includes(lang) ? lang : DEFAULT;
  if (!loaded.has(lang)) {
    const entries = fetch(new URL(`./lang/${lang}.json`, base))
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(response.status))))
      .catch(() => (lang === DEFAULT ? {} : null));
    loaded.set(lang, entries.then(async (found) => {
      if (found) return new Catalogue(lang, found);
      return loadCatalogue(DEFAULT, base);
    }));
  }
  return loaded.get(lang);
}
