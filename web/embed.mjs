// The widgets of embed.html: hand scorer, pegging sequence, scripted deal.
//
// 1. The URL parameters are read and checked at once (embed-params.mjs); a
//    bad one shows a message inside the widget and nothing else happens.
// 2. The cards are drawn at once from the parameters with plain DOM calls
//    (textContent only: no parameter text ever reaches innerHTML).
// 3. The engine's answers (itemised scores, the play, the deal's steps) come
//    from ONE engine per page: the first widget starts engine-worker.mjs and
//    the other widgets of the page use it (see "the engine" below).
// The page reports its height to the host (postMessage, for embed-resize.js).
import {
  WidgetError,
  cardName,
  cardText,
  checkDistinct,
  parseWidget,
  RANKS,
  SUITS,
} from "./embed-params.mjs";

const root = document.getElementById("widget");

// --- the engine -------------------------------------------------------------
//
// One engine per host page, shared by all its widgets: the first widget to run
// starts a dedicated worker (engine-worker.mjs: Pyodide and the engine) and
// publishes its client as window.__cribbageWidgetEngine; every later widget
// finds it in a sibling frame of the same origin (window.parent.frames[i]:
// same-origin frames of one page share one event loop, so the check and the
// start cannot race) and calls it directly. This works whatever the host's
// origin is; the host needs no script. Frames of other origins throw on
// access and are skipped. (A SharedWorker was tried first: Chromium does not
// start one from iframes on a page of another site, so widgets embedded
// elsewhere never got an answer.) If the owning widget is removed from the
// page, the others lose its engine: they then show an error on their next call.

const ENGINE_KEY = "__cribbageWidgetEngine";

function siblingEngine() {
  const places = [];
  try {
    for (let i = 0; i < window.parent.frames.length; i += 1) places.push(window.parent.frames[i]);
  } catch {
    // no access to the parent's frame list: start our own engine
  }
  places.push(window.parent);
  for (const place of places) {
    try {
      if (place !== window && place[ENGINE_KEY]) return place[ENGINE_KEY];
    } catch {
      // a frame of another origin
    }
  }
  return null;
}

function startEngine() {
  const pending = new Map();
  let nextId = 1;
  let readyResolve;
  let readyReject;
  const ready = new Promise((resolve, reject) => {
    readyResolve = resolve;
    readyReject = reject;
  });
  ready.catch(() => {});
  const worker = new Worker(new URL("./engine-worker.mjs", import.meta.url), { type: "module" });
  const id = Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
  const fail = (message) => {
    readyReject(new Error(message));
    for (const { reject } of pending.values()) reject(new Error(message));
    pending.clear();
  };
  worker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.id !== undefined) {
      const waiting = pending.get(data.id);
      pending.delete(data.id);
      if (waiting) waiting.resolve(data.reply);
    } else if (data.ready) {
      readyResolve(data.ready);
    } else if (data.failed) {
      fail(data.failed);
    }
  });
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    fail("the engine's worker did not start");
  });
  return {
    id,
    ready,
    users: 0,
    send(name, text) {
      return new Promise((resolve, reject) => {
        const callId = nextId++;
        pending.set(callId, { resolve, reject });
        worker.postMessage({ id: callId, name, text });
      });
    },
  };
}

let engine = null;
function getEngine() {
  if (!engine) {
    let shared = siblingEngine();
    document.documentElement.dataset.engine = shared ? "borrowed" : "own";
    if (!shared) {
      shared = startEngine();
      window[ENGINE_KEY] = shared;
    }
    shared.users += 1;
    document.documentElement.dataset.engineWorker = shared.id;
    engine = {
      async call(name, payload) {
        const text = await shared.send(name, JSON.stringify(payload));
        const reply = JSON.parse(String(text));
        if (!reply.ok) throw new WidgetError(reply.error.message);
        return reply.result;
      },
    };
  }
  return engine;
}

// --- drawing ----------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function card(code, extra = "") {
  if (!code) return el("span", { class: `card back ${extra}`, role: "img", "aria-label": "face-down card" });
  const red = code[1] === "H" || code[1] === "D";
  return el(
    "span",
    { class: `card ${red ? "red" : "black"} ${extra}`, role: "img", "aria-label": cardName(code), "data-card": code },
    el("span", { class: "rank", text: code[0] === "T" ? "10" : code[0] }),
    el("span", { class: "suit", text: SUITS[code[1]] }),
  );
}

function cards(codes, label, extra = "") {
  const row = el("div", { class: "cards", role: "group", "aria-label": label });
  for (const code of codes) row.append(card(code, extra));
  return row;
}

function setState(state) {
  root.dataset.state = state;
  root.setAttribute("aria-busy", state === "waiting" ? "true" : "false");
  reportSize();
}

function showError(message) {
  root.replaceChildren(
    el("p", { class: "widget-error", role: "alert", text: `This widget cannot be shown: ${message}` }),
  );
  setState("error");
}

function status(text) {
  return el("p", { class: "status", role: "status", text });
}

function failed(error) {
  const message = error instanceof WidgetError ? error.message : `the engine could not answer (${error.message}).`;
  return el("p", { class: "widget-error", role: "alert", text: message });
}

function itemLine(item) {
  const li = el("li", { class: "item", "data-kind": item.kind });
  li.append(el("span", { class: "item-text", text: item.text }));
  li.append(el("span", { class: "item-cards", text: item.cards.map(cardText).join(" ") }));
  li.append(el("span", { class: "item-points", text: `${item.points}` }));
  return li;
}

let lastHeight = 0;
function reportSize() {
  if (window.parent === window) return;
  const height = Math.ceil(document.documentElement.scrollHeight);
  if (height === lastHeight) return;
  lastHeight = height;
  window.parent.postMessage({ type: "cribbage-widget-size", height }, "*");
}

// --- the hand scorer ----------------------------------------------------------

const ALL_CARDS = [];
for (const rank of RANKS) for (const suit of "SHDC") ALL_CARDS.push(rank + suit);

function handWidget(spec) {
  const state = { hand: [...spec.hand], starter: spec.starter, crib: spec.crib };
  const picture = el("div", { class: "show-cards" });
  const breakdown = el("div", { class: "breakdown", "aria-live": "polite" });
  const parts = [];
  if (spec.edit) parts.push(editor(state, update));
  parts.push(picture, breakdown);
  root.append(...parts);
  let generation = 0;

  function drawCards() {
    picture.replaceChildren(
      el("div", { class: "group" }, el("span", { class: "label", text: state.crib ? "Crib" : "Hand" }),
        cards(state.hand, state.crib ? "Crib" : "Hand")),
      el("div", { class: "group" }, el("span", { class: "label", text: "Starter" }),
        cards([state.starter], "Starter", "starter")),
    );
  }

  async function update() {
    const mine = ++generation;
    try {
      checkDistinct([...state.hand, state.starter], "the hand with its starter");
    } catch (error) {
      breakdown.replaceChildren(failed(error));
      setState("error-input");
      return;
    }
    drawCards();
    breakdown.replaceChildren(status("Counting… (the engine is loading)"));
    setState("waiting");
    try {
      const score = await getEngine().call("show_score", {
        hand: state.hand, starter: state.starter, crib: state.crib,
      });
      if (mine !== generation) return;
      const list = el("ol", { class: "items" });
      for (const item of score.items) list.append(itemLine(item));
      breakdown.replaceChildren(
        el("p", { class: "total" }, "Total: ", el("strong", { class: "total-points", text: String(score.total) })),
        score.items.length ? list : el("p", { class: "none", text: "No points: a “nineteen” hand." }),
        el("p", { class: "said", text: `Said aloud: ${score.said}` }),
      );
      setState("ready");
    } catch (error) {
      if (mine !== generation) return;
      breakdown.replaceChildren(failed(error));
      setState("error");
    }
  }
  drawCards();
  update();
}

function editor(state, update) {
  const form = el("form", { class: "editor", "aria-label": "Choose the cards" });
  const selects = [];
  const names = ["Card 1", "Card 2", "Card 3", "Card 4", "Starter"];
  names.forEach((name, index) => {
    const select = el("select", { name: `card${index}`, "aria-label": name });
    for (const code of ALL_CARDS) {
      const option = el("option", { value: code, text: `${cardText(code)} (${cardName(code)})` });
      select.append(option);
    }
    select.value = index < 4 ? state.hand[index] : state.starter;
    selects.push(select);
    form.append(el("label", {}, el("span", { text: name }), select));
  });
  const crib = el("input", { type: "checkbox", name: "crib" });
  crib.checked = state.crib;
  form.append(el("label", { class: "check" }, crib, el("span", { text: " Crib (a flush needs all five)" })));
  form.addEventListener("change", () => {
    state.hand = selects.slice(0, 4).map((s) => s.value);
    state.starter = selects[4].value;
    state.crib = crib.checked;
    update();
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  return form;
}

// --- stepping controls ----------------------------------------------------------

function stepper(total, onStep, start = 0) {
  let at = Math.min(start, total);
  const back = el("button", { type: "button", class: "back", text: "◀ Back", "aria-label": "Back one step" });
  const next = el("button", { type: "button", class: "next", text: "Next ▶", "aria-label": "Next step" });
  const where = el("span", { class: "where", "aria-live": "polite" });
  const bar = el("div", { class: "stepper" }, back, where, next);
  function go(to) {
    at = Math.max(0, Math.min(total, to));
    back.disabled = at === 0;
    next.disabled = at === total;
    where.textContent = `Step ${at} of ${total}`;
    root.dataset.step = String(at);
    onStep(at);
    reportSize();
  }
  back.addEventListener("click", () => go(at - 1));
  next.addEventListener("click", () => go(at + 1));
  bar.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") go(at - 1);
    if (event.key === "ArrowRight") go(at + 1);
  });
  return { bar, go: () => go(at) };
}

function disabledStepper(text) {
  return el("div", { class: "stepper" },
    el("button", { type: "button", class: "back", text: "◀ Back", disabled: "" }),
    el("span", { class: "where", text }),
    el("button", { type: "button", class: "next", text: "Next ▶", disabled: "" }));
}

// --- the pegging sequence ----------------------------------------------------------

function pegWidget(spec) {
  const sequence = el("ol", { class: "sequence", "aria-label": "Cards laid in order" });
  spec.cards.forEach((code) => {
    sequence.append(el("li", {}, code === "go" ? el("span", { class: "go-chip", text: "go" }) : card(code, "small")));
  });
  const controls = el("div", { class: "controls" }, disabledStepper("Loading the engine…"));
  const table = el("div", { class: "peg-table", "aria-live": "polite" });
  const scores = el("p", { class: "scores" });
  root.append(sequence, controls, table, scores);
  setState("waiting");
  stepThrough("peg_sequence", { cards: spec.cards, players: spec.players }, controls, ({ steps }) =>
    stepper(steps.length, (at) => drawPeg(spec, steps, at, table, scores, sequence), spec.step));
}

// Ask the engine for a widget's steps, put the stepper `makeStepper(result)` in
// `controls` and show its first step; an engine failure is shown there instead.
function stepThrough(name, payload, controls, makeStepper) {
  getEngine()
    .call(name, payload)
    .then((result) => {
      const control = makeStepper(result);
      controls.replaceChildren(control.bar);
      control.go();
      setState("ready");
    })
    .catch((error) => {
      controls.replaceChildren(failed(error));
      setState("error");
    });
}

function pointsText(step) {
  return step.items.map((item) => `${item.text} ${item.points}`).join(", ");
}

function drawPeg(spec, steps, at, table, scores, sequence) {
  [...sequence.children].forEach((li, i) => li.classList.toggle("done", i < at));
  [...sequence.children].forEach((li, i) => li.classList.toggle("current", i === at - 1));
  if (at === 0) {
    table.replaceChildren(el("p", { class: "say", text: `${spec.names[0]} leads. Press Next to lay the first card.` }));
    scores.textContent = spec.names.map((n) => `${n} 0`).join(" · ");
    return;
  }
  // the pile: cards since the last reset, up to this step
  let from = 0;
  for (let i = 0; i < at - 1; i += 1) if (steps[i].reset) from = i + 1;
  const pile = steps.slice(from, at).filter((s) => s.card).map((s) => s.card);
  const step = steps[at - 1];
  const who = spec.names[step.seat];
  const said = step.go
    ? `${who} says “go”.`
    : `${who} lays ${cardText(step.card)}: ${step.count}${step.points ? ` — ${pointsText(step)}, ${step.points} point${step.points === 1 ? "" : "s"}` : ""}.`;
  const lines = [el("p", { class: "say", "data-points": String(step.points), text: said })];
  for (const then of step.then) {
    const kind = then.kind === "go" ? "the go" : "last card";
    lines.push(el("p", { class: "then", text: `${spec.names[then.seat]} pegs ${then.points} for ${kind}.` }));
  }
  if (step.reset && at < steps.length) lines.push(el("p", { class: "then", text: "The count starts again at 0." }));
  table.replaceChildren(
    el("div", { class: "count-box" }, el("span", { class: "label", text: "Count" }),
      el("strong", { class: "count", text: String(step.count) })),
    cards(pile, "Cards in this count"),
    ...lines,
  );
  scores.textContent = spec.names.map((n, i) => `${n} ${step.scores[i]}`).join(" · ");
}

// --- the scripted deal ----------------------------------------------------------

function nameLines(lines, names) {
  return lines.map((line) => line.replace(/Seat (\d)/g, (_, seat) => names[Number(seat)] ?? `Seat ${seat}`));
}

function dealWidget(spec) {
  const table = el("div", { class: "deal-table", "aria-live": "polite" });
  const controls = el("div", { class: "controls" }, disabledStepper("Loading the engine…"));
  const initial = {
    title: "The deal", lines: [`${spec.names[spec.dealer]} deals.`], phase: "discard",
    hands: spec.hands, crib: spec.crib, starter: null, pile: [], count: 0,
    scores: spec.scores || spec.names.slice(0, spec.players === 4 ? 2 : spec.players).map(() => 0), show: null,
  };
  root.append(controls, table);
  drawDeal(spec, initial, table);
  setState("waiting");
  const payload = {
    players: spec.players, target: spec.target, dealer: spec.dealer, hands: spec.hands,
    crib: spec.crib, starter: spec.starter, discards: spec.discards, play: spec.play,
    scores: spec.scores,
  };
  stepThrough("deal_steps", payload, controls, ({ steps }) =>
    stepper(steps.length - 1, (at) => drawDeal(spec, steps[at], table), spec.step));
}

function drawDeal(spec, step, table) {
  const seats = el("div", { class: "seats" });
  const teams = spec.players === 4 ? 2 : spec.players;
  spec.names.forEach((name, seat) => {
    const team = teams === spec.players ? seat : seat % 2;
    const label = `${name}${seat === spec.dealer ? " (dealer)" : ""}: ${step.scores[team]}`;
    const shown = step.show && step.show.kind === "hand" && step.show.seat === seat;
    const box = el("div", { class: `seat${shown ? " showing" : ""}`, "data-seat": String(seat) },
      el("span", { class: "label", text: label }),
      cards(step.hands[seat], `${name}'s hand`));
    seats.append(box);
  });
  const cribShown = step.show && step.show.kind === "crib";
  const middle = el("div", { class: "middle" },
    el("div", { class: `group${cribShown ? " showing" : ""}` },
      el("span", { class: "label", text: `Crib (${spec.names[spec.dealer]}'s)` }),
      cards(step.crib, "Crib", "small")),
    el("div", { class: "group" }, el("span", { class: "label", text: "Starter" }),
      step.starter ? cards([step.starter], "Starter", "starter") : card(null)),
    el("div", { class: "group" }, el("span", { class: "label", text: `Count ${step.count}` }),
      cards(step.pile, "Cards in this count", "small")));
  const story = el("div", { class: "story" },
    el("p", { class: "step-title", text: nameLines([step.title], spec.names)[0] }));
  for (const line of nameLines(step.lines, spec.names)) story.append(el("p", { class: "line", text: line }));
  if (step.show) {
    const who = step.show.kind === "crib" ? `${spec.names[step.show.seat]}'s crib` : `${spec.names[step.show.seat]}'s hand`;
    const list = el("ol", { class: "items" });
    for (const item of step.show.items) list.append(itemLine(item));
    story.append(
      el("div", { class: "show", "data-total": String(step.show.total) },
        el("span", { class: "label", text: `${who} with the starter` }),
        cards([...step.show.cards, step.starter], who),
        el("p", { class: "total" }, "Total: ", el("strong", { class: "total-points", text: String(step.show.total) })),
        list),
    );
  }
  table.replaceChildren(seats, middle, story);
  reportSize();
}

// --- start ----------------------------------------------------------------------

function main() {
  let spec;
  try {
    spec = parseWidget(location.search);
  } catch (error) {
    if (error instanceof WidgetError) {
      showError(error.message);
      return;
    }
    throw error;
  }
  root.replaceChildren();
  root.dataset.widget = spec.widget;
  document.documentElement.lang = "en"; // es/ja arrive with the languages work
  if (spec.title) root.append(el("h2", { class: "widget-title", text: spec.title }));
  if (spec.widget === "hand") handWidget(spec);
  else if (spec.widget === "peg") pegWidget(spec);
  else dealWidget(spec);
  new ResizeObserver(reportSize).observe(document.body);
}

main();
