// The widgets' drawing, shared by embed.html (one widget per iframe) and the
// custom elements of elements.mjs (one widget per element, in its shadow root):
// the hand scorer, the pegging sequence and the scripted deal, plus the small
// DOM helpers the drill (drill.mjs) and the puzzles page use.
//
// widgetKit({root, words, engine, resize}) draws into `root` (any element),
// with `words` a lang.mjs Catalogue, `engine` an object with
// call(name, payload) -> promise of the reply's result (EngineError when the
// engine refuses), and `resize` called when the content's size may have changed.
// Every text reaches the DOM through textContent or attributes, never markup, but for
// the peg board's (pegboard.mjs, the table's board), which escapes the names in it.
import { checkDistinct, noun, WidgetError } from "./embed-params.mjs";
import { cardText, RANKS, SUITS, SUIT_SYMBOLS } from "./lang.mjs";
import { drawBoard, pegsAlong, placePegs } from "./pegboard.mjs";

/** An answer the engine refused (a rule, a card out of turn): shown with its message. */
export class EngineError extends Error {}

/** A client's call as the kit wants it: the reply's result, or EngineError. */
export function engineCalls(client) {
  return {
    async call(name, payload) {
      const text = await client.call(name, JSON.stringify(payload));
      const reply = JSON.parse(String(text));
      if (!reply.ok) throw new EngineError(reply.error.message);
      return reply.result;
    },
  };
}

/** An element with attributes ("class", "text" or any attribute) and children (falsy
 * ones left out): the widgets', the custom elements' and the tutorial quizzes' drawing. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

export function widgetKit({ root, words, engine, resize = () => {} }) {
  const t = (key, values) => words.text(key, values);
  const getEngine = () => engine;
  const reportSize = resize;

  // --- drawing ----------------------------------------------------------------

  // The table's card (kit.css draws its face from data attributes, as tableview.card_face
  // writes it): the only text is the card's name in words.
  function card(code, extra = "") {
    if (!code) return el("span", { class: `card back ${extra}`, role: "img", "aria-label": t("widget.card.back") });
    const red = code[1] === "H" || code[1] === "D";
    const label = words.cardName(code);
    const face = { "data-rank": code[0] === "T" ? "10" : code[0], "data-suit": SUIT_SYMBOLS[SUITS.indexOf(code[1])] };
    return el(
      "span",
      { class: `card ${red ? "red" : "black"} suit-${code[1]} ${extra}`, role: "img", "aria-label": label,
        "data-card": code },
      el("span", { class: "corner", ...face }),
      el("span", { class: "pip", "data-suit": face["data-suit"] },
        ...("JQK".includes(code[0]) ? [el("span", { class: "court", "data-court": code[0] })] : [])),
      el("span", { class: "corner corner-end", ...face }),
    );
  }

  function cards(codes, label, extra = "") {
    const row = el("div", { class: "cards", role: "group", "aria-label": label });
    for (const code of codes) row.append(card(code, extra));
    return row;
  }

  /** The author's card width (the card-width parameter or attribute), on the widget's root:
   * embed.css sizes its cards from --cribbage-card-width (docs/embedding.md, "The look"). */
  function setLook(spec) {
    if (spec.cardWidth) root.style.setProperty("--cribbage-card-width", `${spec.cardWidth}px`);
    else root.style.removeProperty("--cribbage-card-width");
  }

  function setState(state) {
    root.dataset.state = state;
    root.setAttribute("aria-busy", state === "waiting" ? "true" : "false");
    reportSize();
  }

  function showError(message) {
    root.replaceChildren(
      el("p", { class: "widget-error", role: "alert", text: t("widget.error.prefix", { message }) }),
    );
    setState("error");
  }

  function status(text) {
    return el("p", { class: "status", role: "status", text });
  }

  function failed(error) {
    let message;
    if (error instanceof WidgetError) message = words.message(error);
    else if (error instanceof EngineError) message = t("widget.error.refused", { message: error.message });
    else message = t("widget.error.engine", { message: error.message });
    return el("p", { class: "widget-error", role: "alert", text: message });
  }

  function itemLine(item) {
    const li = el("li", { class: "item", "data-kind": item.kind });
    li.append(el("span", { class: "item-text", text: item.text }));
    li.append(el("span", { class: "item-cards", text: item.cards.map(cardText).join(" ") }));
    li.append(el("span", { class: "item-points", text: `${item.points}` }));
    return li;
  }

  // --- the hand scorer ----------------------------------------------------------

  const ALL_CARDS = [];
  for (const rank of RANKS) for (const suit of SUITS) ALL_CARDS.push(rank + suit);

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
      const what = t(state.crib ? "widget.crib" : "widget.hand");
      picture.replaceChildren(
        el("div", { class: "group" }, el("span", { class: "label", text: what }), cards(state.hand, what)),
        el("div", { class: "group" }, el("span", { class: "label", text: t("widget.starter") }),
          cards([state.starter], t("widget.starter"), "starter")),
      );
    }

    async function update() {
      const mine = ++generation;
      try {
        checkDistinct([...state.hand, state.starter], noun("hand_starter"));
      } catch (error) {
        breakdown.replaceChildren(failed(error));
        setState("error-input");
        return;
      }
      drawCards();
      breakdown.replaceChildren(status(t("widget.counting")));
      setState("waiting");
      try {
        const score = await getEngine().call("show_score", {
          hand: state.hand, starter: state.starter, crib: state.crib, lang: words.lang,
        });
        if (mine !== generation) return;
        const list = el("ol", { class: "items" });
        for (const item of score.items) list.append(itemLine(item));
        breakdown.replaceChildren(
          totalLine(score.total),
          score.items.length ? list : el("p", { class: "none", text: t("widget.nineteen") }),
          el("p", { class: "said", text: t("widget.said", { said: score.said }) }),
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

  function totalLine(points) {
    return el("p", { class: "total" }, `${t("widget.total")} `,
      el("strong", { class: "total-points", text: String(points) }));
  }

  function editor(state, update) {
    const form = el("form", { class: "editor", "aria-label": t("widget.editor") });
    const selects = [];
    const names = [1, 2, 3, 4].map((n) => t("widget.editor.card", { n }));
    names.push(t("widget.starter"));
    names.forEach((name, index) => {
      const select = el("select", { name: `card${index}`, "aria-label": name });
      for (const code of ALL_CARDS) {
        const option = el("option", { value: code, text: `${cardText(code)} (${words.cardName(code)})` });
        select.append(option);
      }
      select.value = index < 4 ? state.hand[index] : state.starter;
      selects.push(select);
      form.append(el("label", {}, el("span", { text: name }), select));
    });
    const crib = el("input", { type: "checkbox", name: "crib" });
    crib.checked = state.crib;
    form.append(el("label", { class: "check" }, crib, el("span", { text: ` ${t("widget.editor.crib")}` })));
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
    const back = el("button", { type: "button", class: "button back", text: t("widget.step.back"),
      "aria-label": t("widget.step.back_label") });
    const next = el("button", { type: "button", class: "button next", text: t("widget.step.next"),
      "aria-label": t("widget.step.next_label") });
    const where = el("span", { class: "where", "aria-live": "polite" });
    const bar = el("div", { class: "stepper" }, back, where, next);
    function go(to) {
      at = Math.max(0, Math.min(total, to));
      back.disabled = at === 0;
      next.disabled = at === total;
      where.textContent = t("widget.step.where", { at, total });
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
      el("button", { type: "button", class: "button back", text: t("widget.step.back"), disabled: "" }),
      el("span", { class: "where", text }),
      el("button", { type: "button", class: "button next", text: t("widget.step.next"), disabled: "" }));
  }

  // --- the pegging sequence ----------------------------------------------------------

  function pegWidget(spec) {
    const sequence = el("ol", { class: "sequence", "aria-label": t("widget.peg.sequence") });
    spec.cards.forEach((code) => {
      const chip = code === "go" ? el("span", { class: "go-chip", text: t("widget.peg.go") }) : card(code, "small");
      sequence.append(el("li", {}, chip));
    });
    const controls = el("div", { class: "controls" }, disabledStepper(t("widget.loading_engine")));
    const table = el("div", { class: "peg-table", "aria-live": "polite" });
    const scores = el("p", { class: "scores" });
    root.append(sequence, controls, table, scores);
    setState("waiting");
    stepThrough("peg_sequence", { cards: spec.cards, players: spec.players, lang: words.lang }, controls, ({ steps }) =>
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

  /** "2 points" / "2 puntos" / "2点". */
  function pointsText(points) {
    return t(points === 1 ? "widget.points.one" : "widget.points.many", { points });
  }

  /** "Bob lays 5♠: 15 — fifteen 2, 2 points." (the reasons are the engine's). */
  function layText(who, step) {
    const laid = { who, card: cardText(step.card), count: step.count };
    if (!step.points) return t("widget.peg.lays", laid);
    return t("widget.peg.lays_points", { ...laid, reasons: step.reasons, points: pointsText(step.points) });
  }

  function drawPeg(spec, steps, at, table, scores, sequence) {
    [...sequence.children].forEach((li, i) => li.classList.toggle("done", i < at));
    [...sequence.children].forEach((li, i) => li.classList.toggle("current", i === at - 1));
    if (at === 0) {
      table.replaceChildren(el("p", { class: "say", text: t("widget.peg.leads", { who: spec.names[0] }) }));
      scores.textContent = spec.names.map((n) => `${n} 0`).join(" · ");
      return;
    }
    // the pile: cards since the last reset, up to this step
    let from = 0;
    for (let i = 0; i < at - 1; i += 1) if (steps[i].reset) from = i + 1;
    const pile = steps.slice(from, at).filter((s) => s.card).map((s) => s.card);
    const step = steps[at - 1];
    const who = spec.names[step.seat];
    const said = step.go ? t("widget.peg.says_go", { who }) : layText(who, step);
    const lines = [el("p", { class: "say", "data-points": String(step.points), text: said })];
    for (const then of step.then) {
      const text = t(`widget.peg.then.${then.kind}`, { who: spec.names[then.seat], points: then.points });
      lines.push(el("p", { class: "then", text }));
    }
    if (step.reset && at < steps.length) lines.push(el("p", { class: "then", text: t("widget.peg.reset") }));
    table.replaceChildren(
      el("div", { class: "count-box" }, el("span", { class: "label", text: t("widget.count") }),
        el("strong", { class: "count", text: String(step.count) })),
      cards(pile, t("widget.pile")),
      ...lines,
    );
    scores.textContent = spec.names.map((n, i) => `${n} ${step.scores[i]}`).join(" · ");
  }

  // --- the scripted deal: a small table -----------------------------------------------
  //
  // The seats round the middle (the crib, the starter, the pile with its count in large
  // type and each card's points called beside it, as the engine's snapshot gives them),
  // a peg board above, and the show counted step by step below: each step a chip that
  // lights the cards it is made of, with the running total.

  function dealWidget(spec) {
    const teams = spec.players === 4 ? 2 : spec.players;
    const table = el("div", { class: "deal-table", "aria-live": "polite" });
    const controls = el("div", { class: "controls" }, disabledStepper(t("widget.loading_engine")));
    const initial = {
      title: t("widget.deal.title"), lines: [t("widget.deal.deals", { who: spec.names[spec.dealer] })], phase: "discard",
      hands: spec.hands, crib: spec.crib, starter: null, pile: [], calls: [], count: 0,
      scores: spec.scores || Array(teams).fill(0), show: null,
    };
    const board = pegBoard(spec, teams, initial.scores);
    root.append(controls, board.node, table);
    drawDeal(spec, initial, table);
    board.move([initial]);
    setState("waiting");
    const payload = {
      players: spec.players, target: spec.target, dealer: spec.dealer, hands: spec.hands,
      crib: spec.crib, starter: spec.starter, discards: spec.discards, play: spec.play,
      scores: spec.scores, names: spec.names, lang: words.lang,
    };
    stepThrough("deal_steps", payload, controls, ({ steps }) =>
      stepper(steps.length - 1, (at) => {
        drawDeal(spec, steps[at], table);
        board.move(steps.slice(0, at + 1));
      }, spec.step));
  }

  /** The names of a team's seats ("Alice" or, with four players, "Alice & Carol"). */
  function teamName(spec, teams, team) {
    return spec.names.filter((_, seat) => seat % teams === team).join(" & ");
  }

  function seatBox(spec, step, seat, teams) {
    const name = spec.names[seat];
    const label = t(seat === spec.dealer ? "widget.deal.dealer" : "widget.deal.seat",
      { who: name, score: step.scores[seat % teams] });
    const shown = step.show && step.show.seat === seat && (step.show.kind === "hand" || seat === spec.dealer);
    const hand = cards(step.hands[seat], t("widget.deal.hand_of", { who: name }));
    hand.style.setProperty("--n", String(Math.max(step.hands[seat].length, 1)));
    return el("div", { class: `seat${shown ? " showing" : ""}`, "data-seat": String(seat),
      "data-team": String(seat % teams) },
      el("span", { class: "label seat-name", text: label }), hand);
  }

  /** The pile: each card with the points it made called beside it (the engine's words). */
  function pileOf(step) {
    const pile = el("div", { class: "pile", role: "group", "aria-label": t("widget.pile") });
    step.pile.forEach((code, i) => {
      const made = (step.calls || [])[i] || [];
      const played = el("span", { class: "played" }, card(code, "small"));
      if (made.length) played.append(el("span", { class: "call", text: made.map((c) => c.text).join(" · ") }));
      pile.append(played);
    });
    return pile;
  }

  function drawDeal(spec, step, table) {
    const teams = spec.players === 4 ? 2 : spec.players;
    const far = el("div", { class: "far" });
    for (let seat = 1; seat < spec.players; seat += 1) far.append(seatBox(spec, step, seat, teams));
    // the show takes the middle of the table, hand by hand, as on the table's felt
    const middle = step.show ? showPanel(spec, step) : el("div", { class: "middle" },
      el("div", { class: "group crib" },
        el("span", { class: "label", text: t("widget.deal.crib_label", { who: spec.names[spec.dealer] }) }),
        cards(step.crib, t("widget.crib"), "small")),
      el("div", { class: "group" }, el("span", { class: "label", text: t("widget.starter") }),
        step.starter ? cards([step.starter], t("widget.starter"), "starter small") : card(null, "small")),
      el("div", { class: "group play-area", "data-count": String(step.count) },
        el("div", { class: "count-box" }, el("span", { class: "label", text: t("widget.count") }),
          el("strong", { class: "count", "aria-label": t("widget.count_of", { count: step.count }),
            text: String(step.count) })),
        pileOf(step)));
    const seats = el("div", { class: "seats" }, far, middle, seatBox(spec, step, 0, teams));
    const story = el("div", { class: "story" }, el("p", { class: "step-title", text: step.title }));
    for (const line of step.lines) {
      if (line !== step.title) story.append(el("p", { class: "line", text: line }));
    }
    table.replaceChildren(seats, story);
    reportSize();
  }

  /** A hand of the show: its cards, then each step of its count as a chip (pressing one
   * lights the cards it is made of) with the running total, and the total. */
  function showPanel(spec, step) {
    const whose = { who: spec.names[step.show.seat] };
    const codes = [...step.show.cards, step.starter];
    const shown = cards(step.show.cards, t(`widget.deal.${step.show.kind}_of`, whose));
    shown.append(card(step.starter, "starter"));
    shown.style.setProperty("--n", String(codes.length));
    const chips = el("p", { class: "show-list", role: "group", "aria-label": t("widget.deal.steps") });
    const light = (lit, chip) => {
      for (const other of chips.querySelectorAll(".show-item")) {
        other.setAttribute("aria-pressed", String(other === chip));
        other.classList.toggle("now", other === chip);
      }
      for (const node of shown.children) node.classList.toggle("lit", lit.includes(node.dataset.card));
    };
    step.show.steps.forEach((said, i) => {
      if (i) chips.append(el("span", { class: "sep", "aria-hidden": "true", text: " " }));
      const chip = el("button", { type: "button", class: "show-item", "aria-pressed": "false",
        "data-kind": said.kind, "data-points": String(said.points), "data-cards": said.cards.join(" ") },
      el("span", { class: "said-text", text: said.text }),
      el("span", { class: "running", text: String(said.total) }));
      chip.addEventListener("click", () => (chip.getAttribute("aria-pressed") === "true"
        ? light([], null) : light(said.cards, chip)));
      chips.append(chip);
    });
    return el("div", { class: "show", "data-total": String(step.show.total) },
      el("span", { class: "label", text: t(`widget.deal.show.${step.show.kind}`, whose) }),
      shown, chips, totalLine(step.show.total));
  }

  // --- the peg board -------------------------------------------------------------------
  //
  // The table's board (pegboard.mjs), at the widget's width: a lane per team, each with a
  // front peg (its score, with the score beside it) and a back peg (its score before it
  // last pegged), which move as the steps add points.

  function pegBoard(spec, teams, scores) {
    const names = Array.from({ length: teams }, (_, team) => teamName(spec, teams, team));
    // the board named with each team's score
    const label = (pegs) => t("widget.board", {
      scores: pegs.map(([score], team) => t("widget.deal.seat", { who: names[team], score }))
        .join(" · ") });
    const start = pegsAlong([scores])[0];
    const node = el("div", { class: "board deal-board" });
    const drawing = drawBoard(node, { target: spec.target || 121, names, label: label(start),
      pegs: start });
    /** The pegs after the last of `steps`, as pegsAlong puts them. */
    function move(steps) {
      const pegs = pegsAlong(steps.map((step) => step.scores)).at(-1);
      pegs.forEach(([front, back], team) => placePegs(drawing, team, front, back));
      drawing.setAttribute("aria-label", label(pegs));
    }
    return { node, move };
  }

  return { root, words, engine, resize, el, card, cards, setLook, setState, showError, status, failed,
    itemLine, totalLine, stepper, handWidget, pegWidget, dealWidget, t };
}
