// "Count this hand": the counting drill, on the puzzles page and as the embeddable
// widget (embed.html?widget=drill&level=...).
//
// The engine deals a hand (or crib) and starter that fit the level (the `drill`
// endpoint, cribbage/drills.py) and scores it in the page's language; the
// player enters the points and sees the breakdown: each item, the total per
// kind of item, what was missed (or claimed too many) and the cadence. Against
// the clock (timed): as many hands as you can in 60 s. Progress per level is
// kept in localStorage ("cribbage-drills"); storage blocked is never an error.
//
// Contract: the drill's root element has data-state "waiting", "ask" or
// "answered"; after an answer data-total holds the hand's points and
// data-correct "true" or "false"; the answer field is labelled "Points".
import { DRILL_LEVELS } from "./embed-params.mjs";

export const STORAGE_KEY = "cribbage-drills";
export const CLOCK_SECONDS = 60;
const KIND_ORDER = ["fifteen", "pair", "run", "flush", "nobs"];

/** The stored progress: {level: {tried, right, streak, best_timed}}, checked on read. */
export function loadProgress() {
  let data = null;
  try {
    data = JSON.parse(globalThis.localStorage?.getItem(STORAGE_KEY) ?? "null");
  } catch {
    data = null;
  }
  const out = {};
  for (const level of DRILL_LEVELS) {
    const entry = data && typeof data === "object" ? data[level] : null;
    const whole = (value) => (Number.isInteger(value) && value >= 0 && value < 1e7 ? value : 0);
    out[level] = {
      tried: whole(entry?.tried), right: whole(entry?.right),
      streak: whole(entry?.streak), best_timed: whole(entry?.best_timed),
    };
  }
  return out;
}

function saveProgress(progress) {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(progress));
  } catch {
    // storage blocked: progress lasts for this page only
  }
}

/** The points as buttons, 0 to 29 (every number a hand may be said to count): a tap writes
 * it in the field, pressed, and takes the focus on to Check. reset(off, said) clears them,
 * turns them off or on, and keeps the number answered pressed. */
function pointsPad(el, label, input, check) {
  const pad = el("div", { class: "drill-pad", role: "group", "aria-label": label });
  const keys = [];
  for (let n = 0; n <= 29; n += 1) {
    const key = el("button", { type: "button", class: "pad-key", "data-points": String(n), "aria-pressed": "false",
      text: String(n) });
    key.addEventListener("click", () => {
      input.value = String(n);
      for (const other of keys) other.setAttribute("aria-pressed", String(other === key));
      check.focus();
    });
    keys.push(key);
  }
  input.addEventListener("input", () => {
    for (const key of keys) key.setAttribute("aria-pressed", String(key.dataset.points === input.value));
  });
  pad.append(...keys);
  function reset(off, said = null) {
    for (const key of keys) {
      key.disabled = off;
      key.setAttribute("aria-pressed", String(said !== null && Number(key.dataset.points) === said));
    }
  }
  return { node: pad, reset };
}

function randomSeed() {
  const words = new Uint32Array(1);
  globalThis.crypto.getRandomValues(words);
  return words[0];
}

/**
 * Draw a drill into kit's root. spec: {level, seed (null: random), timed}.
 * options.onProgress(progress) is told after each answer (the puzzles page shows it);
 * options.pad adds a pad of points to tap (0 to 29) beside the field (the puzzles page).
 */
export function drillWidget(kit, spec, options = {}) {
  const { el, t } = kit;
  const root = options.root || kit.root;
  const box = el("div", { class: "drill", "data-state": "waiting", "data-level": spec.level });
  const status = el("p", { class: "drill-progress", "aria-live": "polite" });
  const clock = el("p", { class: "drill-clock", "aria-live": "off" });
  const picture = el("div", { class: "show-cards" });
  const input = el("input", { type: "number", min: "0", max: "29", inputmode: "numeric",
    name: "points", class: "drill-points", "aria-label": t("drill.points") });
  const check = el("button", { type: "submit", class: "button drill-check", text: t("drill.check") });
  const form = el("form", { class: "drill-form", novalidate: "" },
    el("label", {}, el("span", { text: t("drill.points") }), input), check);
  const result = el("div", { class: "drill-result", "aria-live": "polite" });
  const next = el("button", { type: "button", class: "button drill-next", text: t("drill.next") });
  const start = el("button", { type: "button", class: "button drill-start", text: t("drill.start_clock") });
  box.append(el("p", { class: "drill-level", text: t(`drill.level.${spec.level}`) }), status);
  if (spec.timed) box.append(clock);
  const pad = options.pad ? pointsPad(el, t("drill.pad"), input, check) : null;
  box.append(...[picture, pad?.node, form, result].filter(Boolean),
    el("div", { class: "drill-buttons" }, spec.timed ? start : next));
  root.append(box);

  const progress = loadProgress();
  let seed = spec.seed ?? randomSeed();
  let current = null;
  let generation = 0;
  let timer = null;
  let deadline = 0;
  let round = { right: 0, tried: 0 }; // against the clock
  const timedRunning = () => spec.timed && timer !== null;

  function setState(state) {
    box.dataset.state = state;
    box.setAttribute("aria-busy", state === "waiting" ? "true" : "false");
    kit.setState(state === "waiting" ? "waiting" : "ready");
  }

  function showProgress() {
    const mine = progress[spec.level];
    let text = t("drill.progress", { right: mine.right, tried: mine.tried, streak: mine.streak });
    if (spec.timed) text += ` · ${t("drill.best_timed", { best: mine.best_timed })}`;
    status.textContent = text;
  }

  /** Deals the next hand. The field takes the focus only when the player asked for it (Next,
   * an answer in a timed run, Start): a page that opens with a drill leaves the focus where
   * the reader has it. */
  async function deal(asked = true) {
    const mine = ++generation;
    setState("waiting");
    input.value = "";
    input.disabled = true;
    check.disabled = true;
    pad?.reset(true);
    try {
      const hand = await kit.engine.call("drill", { level: spec.level, seed, lang: kit.words.lang });
      if (mine !== generation) return;
      current = hand;
      const what = t(hand.crib ? "widget.crib" : "widget.hand");
      picture.replaceChildren(
        el("div", { class: "group" }, el("span", { class: "label", text: what }), kit.cards(hand.hand, what)),
        el("div", { class: "group" }, el("span", { class: "label", text: t("widget.starter") }),
          kit.cards([hand.starter], t("widget.starter"), "starter")));
      delete box.dataset.total;
      delete box.dataset.correct;
      input.disabled = false;
      check.disabled = false;
      pad?.reset(false);
      setState("ask");
      if (asked && (!spec.timed || timedRunning())) input.focus({ preventScroll: true });
    } catch (error) {
      result.replaceChildren(kit.failed(error));
      setState("error");
    }
  }

  function breakdown(hand, said) {
    const totals = new Map();
    for (const item of hand.items) totals.set(item.kind, (totals.get(item.kind) || 0) + item.points);
    const parts = KIND_ORDER.filter((kind) => totals.has(kind))
      .map((kind) => t("drill.kind_total", { kind: t(`drill.kind.${kind}`), points: totals.get(kind) }));
    let verdict;
    if (said === hand.total) verdict = t("drill.right", { total: hand.total });
    else if (said < hand.total) verdict = t("drill.missed", { said, total: hand.total, missed: hand.total - said });
    else verdict = t("drill.too_many", { said, total: hand.total, over: said - hand.total });
    const list = el("ol", { class: "items" });
    for (const item of hand.items) list.append(kit.itemLine(item));
    return [
      el("p", { class: `drill-verdict ${said === hand.total ? "right" : "wrong"}`, text: verdict }),
      el("p", { class: "drill-kinds", text: parts.length ? parts.join(" · ") : t("widget.nineteen") }),
      hand.items.length ? list : null,
      el("p", { class: "said", text: t("widget.said", { said: hand.said }) }),
    ].filter(Boolean);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!current || box.dataset.state !== "ask") return;
    if (!/^\d{1,2}$/.test(input.value) || Number(input.value) > 29) {
      result.replaceChildren(el("p", { class: "widget-error", role: "alert", text: t("drill.enter_number") }));
      return;
    }
    const said = Number(input.value);
    const right = said === current.total;
    const mine = progress[spec.level];
    mine.tried += 1;
    if (right) {
      mine.right += 1;
      mine.streak += 1;
    } else {
      mine.streak = 0;
    }
    box.dataset.total = String(current.total);
    box.dataset.correct = String(right);
    result.replaceChildren(...breakdown(current, said));
    input.disabled = true;
    check.disabled = true;
    pad?.reset(true, said);
    setState("answered");
    seed += 1;
    if (timedRunning()) {
      round.tried += 1;
      if (right) round.right += 1;
      deal();
    }
    saveProgress(progress);
    showProgress();
    options.onProgress?.(progress);
    kit.resize?.();
  });

  next.addEventListener("click", () => {
    if (box.dataset.state === "ask") seed += 1; // skipped: another hand, not the same one
    result.replaceChildren();
    deal();
  });

  function tick() {
    const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
    clock.textContent = t("drill.clock", { seconds: left, right: round.right });
    if (left > 0) return;
    clearInterval(timer);
    timer = null;
    generation += 1; // a hand still coming is dropped
    const mine = progress[spec.level];
    mine.best_timed = Math.max(mine.best_timed, round.right);
    saveProgress(progress);
    showProgress();
    clock.textContent = t("drill.time_up", { right: round.right, tried: round.tried });
    input.disabled = true;
    check.disabled = true;
    pad?.reset(true);
    start.disabled = false;
    box.dataset.state = "over";
  }

  start.addEventListener("click", () => {
    round = { right: 0, tried: 0 };
    deadline = performance.now() + CLOCK_SECONDS * 1000;
    start.disabled = true;
    result.replaceChildren();
    timer = setInterval(tick, 250);
    tick();
    deal();
  });

  showProgress();
  if (spec.timed) {
    clock.textContent = t("drill.clock_ready", { seconds: CLOCK_SECONDS });
    input.disabled = true;
    check.disabled = true;
    pad?.reset(true);
    box.dataset.state = "ready";
  } else {
    deal(false);
  }
  return box;
}
