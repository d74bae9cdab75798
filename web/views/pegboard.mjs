// The peg board: the one drawing of it, for the table, the replay viewer and the widgets.
//
// A classic continuous board: one lane per score (two or three), streets of 30 holes in
// six groups of five, running out and back (four streets to 121, two to 61), from two
// start holes per lane to the one game hole. Below each street its holes are numbered
// every ten and marked every five ("where is 36?": the second street, six past the 30
// mark); the skunk lines the engine names (91 and 61 in the long game, 31 in the short
// one) cross the board where they fall, which is always at a turn. Each lane has two
// pegs that leapfrog: the front peg shows the score, the back peg the score before it,
// and the front peg wears the score as a tag in its lane's colour (a tag moves with its
// peg), so the score reads from the board even where its holes and numbers are small.
//
// The board is SVG markup (`boardSvg`) drawn once; its pegs are then moved by their CSS
// `transform` (`placePegs`), which a transition on `transform` animates (kit.css, the
// pages' and the widgets' shared stylesheet, also gives the board its lines and type
// and sizes the tags in screen terms). No style attribute is written into the markup,
// so the strictest page policy (an author's, the table's) allows it. The board is sized
// so a phone 360 px wide shows holes at least 8 px across; `boardRatio` tells a page
// how wide it is for its length.
//
// It runs in the page: the widgets import it; the table's and the replay viewer's
// MicroPython reach it as `window.cribbageBoard` (web/boot/uihost.mjs). The CPython
// tests run it in Node (tests/test_web_board.py).

export const PITCH = 20; // distance between holes in a group of five (SVG units)
export const GROUP_GAP = 6; // extra space between groups
export const STREET = 30; // holes per street
const FIRST = 56; // x of a street's first column (the start and game holes are left of it)
const START_X = [12, 34]; // x of the back (-1) and front (0) start holes
export const LANE = 21; // distance between the lanes of one street
const GAP = 30; // from a street's last lane to the next street's first (its numbers between)
const TOP = 16; // y of the first street's first lane
const MARGIN = 50; // right of the last column: room for the turns
export const HOLE_R = "9"; // hole radius: 18 units, over 8.5 px on a 360 px phone (board ~350 px wide)
export const WIDTH = FIRST + (STREET - 1) * PITCH + 5 * GROUP_GAP + MARGIN;
export const COLOURS = ["#c0392b", "#1f5fa8", "#1e8449"]; // red, blue, green pegs
// The static picture's paints, drawn once per board: wood, grain, drilled holes, brass,
// and a pin for each colour (a head lit from the top left over a soft shadow).
const DEFS = '<defs><linearGradient id="pb-wood" x1="0" y1="0" x2="0" y2="1">'
  + '<stop offset="0" stop-color="#d7a56a"/><stop offset=".45" stop-color="#b98048"/>'
  + '<stop offset="1" stop-color="#8f5a2c"/></linearGradient>'
  + '<pattern id="pb-grain" width="240" height="46" patternUnits="userSpaceOnUse">'
  + '<path d="M0 9q60-7 120 0t120 0M0 21q80 8 160-2t80 3M0 35q50-6 110 1t130-1" fill="none" '
  + 'stroke="#5a3312" stroke-opacity=".2" stroke-width="1.4"/>'
  + '<path d="M0 15q70 5 140-1t100 1M0 42q90-5 170 2t70-1" fill="none" stroke="#fff3dc" '
  + 'stroke-opacity=".13" stroke-width="1.2"/></pattern>'
  + '<radialGradient id="pb-drill" fx=".38" fy=".3" r=".6"><stop offset="0" stop-color="#050302"/>'
  + '<stop offset=".65" stop-color="#24150a"/><stop offset="1" stop-color="#6b4321"/>'
  + "</radialGradient>"
  + '<linearGradient id="pb-brass" x1="0" y1="0" x2="1" y2="1"><stop offset="0" '
  + 'stop-color="#fff0b3"/><stop offset=".5" stop-color="#c9962c"/><stop offset="1" '
  + 'stop-color="#6e4e12"/></linearGradient>'
  + '<radialGradient id="pb-shadow"><stop offset=".3" stop-color="#000" stop-opacity=".55"/>'
  + '<stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>'
  + `<circle id="pb-hole" r="${HOLE_R}" fill="url(#pb-drill)"/>`;
// One pin a colour: its gradient and its drawing (shadow, head, highlight).
const PIN_DEFS = COLOURS.map((colour, index) => {
  const name = `pb-pin${index}`;
  return `<radialGradient id="${name}g" fx=".35" fy=".3" r=".7"><stop offset="0" `
    + `stop-color="#fff" stop-opacity=".85"/><stop offset=".25" stop-color="${colour}"/>`
    + '<stop offset="1" stop-color="#000" stop-opacity=".9"/></radialGradient>'
    + `<g id="${name}"><ellipse cx="3" cy="4" rx="11" ry="9" fill="url(#pb-shadow)"/>`
    + `<circle class="pin" r="9" fill="${colour}"/><circle r="9" fill="url(#${name}g)"/></g>`;
}).join("");

/** Text made safe inside SVG/HTML markup. */
export function escape(text) {
  return String(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** The board's breadth over its length, as text ("0.3045" for 121 and two lanes): how
 * wide a column the board standing up its length needs for each pixel of height (the
 * table sizes its board column by it). */
export function boardRatio(target, tracks) {
  const [width, height] = boardSize(target, tracks);
  return String(Math.round((height / width) * 1e4) / 1e4);
}

/** How many streets of 30 a board for `target` has (4 for 121, 2 for 61). */
export function streets(target) {
  return Math.floor((target - 1) / STREET);
}

/** From one street's first lane to the next street's first lane. */
const pitch = (tracks) => (tracks - 1) * LANE + GAP;
/** y of the first lane's holes in `street` (0-based). */
const streetTop = (street, tracks) => TOP + street * pitch(tracks);
/** The baseline of the numbers under `street`. */
const numbersY = (street, tracks) => streetTop(street, tracks) + (tracks - 1) * LANE + 20;
const columnX = (column) => FIRST + column * PITCH + Math.floor(column / 5) * GROUP_GAP;
/** Where `track` runs across `street`: the lanes swap sides at each turn, as on a real
 * continuous board, so the outer lane stays outside round every turn. */
const laneOf = (street, tracks, track) => (street % 2 === 0 ? track : tracks - 1 - track);

/** [width, height] of the board in SVG units. */
export function boardSize(target, tracks) {
  return [WIDTH, numbersY(streets(target) - 1, tracks) + 8];
}

/** Centre [x, y] of the hole of `track` (of `tracks`) for `points`: 0 and -1 are the two
 * start holes, `target` (and beyond) the game hole. */
export function holePosition(target, tracks, track, points) {
  if (points <= 0) return [START_X[points + 1], streetTop(0, tracks) + track * LANE];
  const last = streets(target) - 1;
  if (points >= target) {
    return [Math.floor((START_X[0] + START_X[1]) / 2),
      streetTop(last, tracks) + Math.floor(((tracks - 1) * LANE) / 2)];
  }
  const street = Math.floor((points - 1) / STREET);
  const index = (points - 1) % STREET;
  const column = street % 2 === 0 ? index : STREET - 1 - index;
  return [columnX(column), streetTop(street, tracks) + laneOf(street, tracks, track) * LANE];
}

/** The CSS `transform` that puts a peg in the hole for `points` (CSS, not the SVG
 * attribute, so that a transition animates the move). */
export function pegTransform(target, tracks, track, points) {
  const [x, y] = holePosition(target, tracks, track, points);
  return `translate(${x}px, ${y}px)`;
}

/** The SVG `transform` attribute for a peg in the hole for `points`: where the board is
 * first drawn (no style attribute, so a strict CSP allows it; the pegs then move through
 * the CSSOM, `pegTransform`). */
export function pegPlace(target, tracks, track, points) {
  const [x, y] = holePosition(target, tracks, track, points);
  return `translate(${x} ${y})`;
}

/** Which way a lane's score tag leans from its hole, across its street: "before" (the
 * street's first lane: up, or left on a board standing up its length), "after" (its
 * last lane) or "mid" (a middle lane, the game hole, and the board's two outer lanes,
 * where a tag leaning out would leave the board), so the tags of two lanes side by side
 * lean apart. The lanes swap sides at each turn, and so do their tags. */
export function tagSide(target, tracks, track, points) {
  const street = points <= 0 ? 0 : Math.floor((points - 1) / STREET);
  const lane = laneOf(street, tracks, track);
  if (points >= target || (street === 0 && lane === 0)
      || (street === streets(target) - 1 && lane === tracks - 1)) return "mid";
  return lane === 0 ? "before" : lane === tracks - 1 ? "after" : "mid";
}

/** A lane's score tag for its front peg at `points`: [text, side], the score (the engine
 * pegs none past the target) and `tagSide`. */
export function tagFacts(target, tracks, track, points) {
  return [String(Math.max(0, points)), tagSide(target, tracks, track, points)];
}

/** Where the two pegs stand after scoring: the back peg jumps ahead. */
export function leapfrog(front, back, newScore) {
  return newScore === front ? [front, back] : [newScore, front];
}

/** Where each side's two pegs stand ([front, back]) at each of a list of scores: at the
 * first, each front peg at its score and its back peg in its start hole (or under the
 * front peg in a game begun before), then the back peg leapfrogs whenever a score moves. */
export function pegsAlong(scores) {
  let pegs = scores[0].map((score) => [score, score ? score : -1]);
  return scores.map((now) => {
    pegs = pegs.map(([front, back], side) => leapfrog(front, back, now[side]));
    return pegs;
  });
}

/** Whether a lane's two pegs trade places going from `old` to `now` ([front, back]): the
 * back peg leapfrogs the front one (forward) or the front one jumps back behind it
 * (stepping back), so one peg moves and the other stays in its hole. */
export function trades(old, now) {
  return (old[0] !== now[0] || old[1] !== now[1]) && (now[1] === old[0] || now[0] === old[1]);
}

/** A lane's score tag, drawn over every peg and moved with its lane's front peg (its
 * colour is the page's CSS, by its id). */
function tag(target, tracks, track, points) {
  const [text, side] = tagFacts(target, tracks, track, points);
  return `<g class="tag" id="tag-${track}" data-points="${text}" data-side="${side}" transform="`
    + `${pegPlace(target, tracks, track, points)}"><text>${text}</text></g>`;
}

/** A number or mark on the board, in a group of its own: a board standing up its length
 * turns the group back upright (WebKit loses a text turned about its own box). */
function text(x, y, words, cls) {
  return `<g><text class="${cls}" x="${x}" y="${y}">${escape(words)}</text></g>`;
}

/** The turn from `street` to the next: [x, centre y, sweep, radii of each lane]. Each
 * lane's turn is half an ellipse round the same centre, the outer lane widest, bulging
 * right after an outward street and left after a return one. */
function turn(target, tracks, street) {
  const points = (street + 1) * STREET;
  const x = holePosition(target, tracks, 0, points)[0];
  const top = streetTop(street, tracks);
  const centre = (2 * top + pitch(tracks) + (tracks - 1) * LANE) / 2;
  const radii = [];
  for (let lane = 0; lane < tracks; lane += 1) {
    const ry = centre - (top + lane * LANE);
    radii.push([ry * 0.55 + 4, ry]);
  }
  return [x, centre, street % 2 === 0 ? 1 : 0, radii];
}

/** A coordinate, short: "12" or "12.5" (to a tenth, halves to even as the board's first
 * drawing in Python did, so the markup is the same). */
function n(value) {
  const tenths = value * 10;
  let whole = Math.round(tenths);
  if (Math.abs(tenths % 1) === 0.5 && whole % 2) whole -= 1;
  return String(whole / 10);
}

/** The routed channel the holes sit in: a bar a street and half an ellipse a turn. */
function channel(target, tracks) {
  const left = FIRST - 13;
  const right = columnX(STREET - 1) + 13;
  const parts = ['<g class="channel">'];
  for (let street = 0; street < streets(target); street += 1) {
    const top = streetTop(street, tracks);
    parts.push(`<rect class="street" x="${left}" y="${top - 13}" width="${right - left}" `
      + `height="${(tracks - 1) * LANE + 26}" rx="13"/>`);
  }
  for (let street = 0; street < streets(target) - 1; street += 1) {
    const [x, centre, sweep, radii] = turn(target, tracks, street);
    const rx = radii[0][0] + 13;
    const ry = radii[0][1] + 13;
    const sign = sweep ? 1 : -1;
    parts.push(`<path class="street" d="M${n(x)} ${n(centre - ry)}A${n(rx)} ${n(ry)} 0 0 `
      + `${sweep} ${n(x)} ${n(centre + ry)}h${-13 * sign}v${n(-2 * ry)}z"/>`);
  }
  parts.push("</g>");
  return parts.join("");
}

/** One lane's groove from its start holes round every turn to the game hole. */
function lanePath(target, tracks, track) {
  let [x, y] = holePosition(target, tracks, track, -1);
  let d = `M${x} ${y}`;
  for (let street = 0; street < streets(target); street += 1) {
    [x, y] = holePosition(target, tracks, track, (street + 1) * STREET);
    d += `L${x} ${y}`;
    if (street < streets(target) - 1) {
      const [tx, centre, sweep, radii] = turn(target, tracks, street);
      const [rx, ry] = radii[laneOf(street, tracks, track)];
      d += `A${n(rx)} ${n(ry)} 0 0 ${sweep} ${tx} ${n(centre + ry)}`;
    }
  }
  [x, y] = holePosition(target, tracks, track, target);
  d += `L${x} ${y}`;
  return `<path class="lane" d="${d}" stroke="${COLOURS[track % COLOURS.length]}"/>`;
}

/** A street's numbers every ten and its marks every five, below its holes. */
function streetMarks(target, tracks, street) {
  const parts = [];
  const y = numbersY(street, tracks);
  for (let step = 5; step <= STREET; step += 5) {
    const points = street * STREET + step;
    const x = holePosition(target, tracks, 0, points)[0];
    parts.push(step % 10 ? `<circle class="five" cx="${x}" cy="${y - 4}" r="2"/>`
      : text(x, y, String(points), "number"));
  }
  return parts.join("");
}

/** The line a loser must pass: across the turn before the line's first safe hole. */
function skunkLine(target, tracks, line, title) {
  const [x, centre, sweep, radii] = turn(target, tracks, Math.floor((line - 1) / STREET) - 1);
  const reach = radii[0][0] + 11;
  const side = sweep ? 1 : -1;
  const end = x + side * reach;
  const mark = end - side * 4;
  return `<g class="skunk" data-skunk="${line}"><title>${escape(title)}</title><line x1="`
    + `${x + side * 12}" x2="${n(end)}" y1="${n(centre)}" y2="${n(centre)}"/>`
    + `${text(n(mark), n(centre - 4), "S", "skunk-mark")}</g>`;
}

/** One lane's holes (its two start holes first) as uses of the one drilled hole. */
function holes(target, tracks, track) {
  const parts = [`<g class="holes" data-track="${track}">`];
  for (const points of [-1, 0]) { // the start holes, ringed in brass
    const [x, y] = holePosition(target, tracks, track, points);
    parts.push(`<circle class="start" cx="${x}" cy="${y}" r="10" fill="url(#pb-brass)"/>`);
  }
  for (let points = -1; points < target; points += 1) {
    const [x, y] = holePosition(target, tracks, track, points);
    parts.push(`<use class="hole" href="#pb-hole" x="${x}" y="${y}"/>`);
  }
  parts.push("</g>");
  return parts.join("");
}

/**
 * SVG markup for a board with one lane per entry of `names`.
 *
 * `label` names the board for screen readers (the page's language); `skunkLines` are
 * the engine's (lowest safe scores), `skunkTitles` their words (one each); `pegs` the
 * [front, back] of each lane (the start holes if not given). The board scales to its
 * box (`viewBox`, kept in proportion), and its paints (wood, grain, drilled holes,
 * brass, pins) are defined once in it. Each peg carries the score of its hole
 * (`data-points`), which `placePegs` keeps.
 */
export function boardSvg({ target, names, label = null, skunkLines = [], skunkTitles = [],
  pegs = null }) {
  const tracks = names.length;
  const [width, height] = boardSize(target, tracks);
  const parts = [`<svg class="pegboard" viewBox="0 0 ${width} ${height}" role="img" `
    + `data-target="${target}" data-tracks="${tracks}" aria-label="`
    + `${escape(label ?? `Peg board to ${target}`)}">${DEFS}${PIN_DEFS}</defs>`
    + `<rect class="wood" width="${width}" height="${height}" rx="14" fill="url(#pb-wood)"/>`
    + `<rect class="grain" width="${width}" height="${height}" rx="14" fill="url(#pb-grain)"/>`,
  channel(target, tracks)];
  for (let track = 0; track < tracks; track += 1) parts.push(lanePath(target, tracks, track));
  for (let street = 0; street < streets(target); street += 1) {
    parts.push(streetMarks(target, tracks, street));
  }
  skunkLines.forEach((line, index) => {
    if (line > 1 && line < target && (line - 1) % STREET === 0) {
      parts.push(skunkLine(target, tracks, line, skunkTitles[index] ?? String(line)));
    }
  });
  for (let track = 0; track < tracks; track += 1) parts.push(holes(target, tracks, track));
  const [gx, gy] = holePosition(target, tracks, 0, target);
  parts.push(`<circle class="game-hole" cx="${gx}" cy="${gy}" r="12" fill="url(#pb-drill)" `
    + 'stroke="url(#pb-brass)" stroke-width="3"/>');
  names.forEach((name, track) => {
    const pin = `#pb-pin${track % COLOURS.length}`;
    const at = pegs ? pegs[track] : [0, -1];
    for (const [which, points] of [["back", at[1]], ["front", at[0]]]) {
      parts.push(`<g class="peg peg-${which}" id="peg-${track}-${which}" data-points="${points}" `
        + `transform="${pegPlace(target, tracks, track, points)}"><title>${escape(name)}</title>`
        + `<use href="${pin}"/></g>`);
    }
  });
  for (let track = 0; track < tracks; track += 1) {
    parts.push(tag(target, tracks, track, pegs ? pegs[track][0] : 0));
  }
  parts.push("</svg>");
  return parts.join("");
}

/** Draw the board (`boardSvg`'s options) into `box`, replacing what it held; answers the
 * board's <svg>. */
export function drawBoard(box, options) {
  box.innerHTML = boardSvg(options);
  return box.querySelector("svg.pegboard");
}

/**
 * Move lane `track`'s pegs on the board drawn in `box` to `front` and `back`, through
 * the CSSOM (a transition animates them). A peg that leapfrogs the other (or jumps back
 * behind it, stepping back) trades places with it: the two elements trade ids and
 * classes, so the peg that stays in its hole does not move and the other jumps over
 * it. The lane's tag goes with its front peg, with its new facts.
 */
export function placePegs(box, track, front, back) {
  const board = box.matches?.("svg.pegboard") ? box : box.querySelector("svg.pegboard");
  if (!board) return;
  const target = Number(board.dataset.target);
  const tracks = Number(board.dataset.tracks);
  let frontPeg = board.querySelector(`#peg-${track}-front`);
  let backPeg = board.querySelector(`#peg-${track}-back`);
  if (!frontPeg || !backPeg) return;
  const old = [Number(frontPeg.dataset.points), Number(backPeg.dataset.points)];
  if (trades(old, [front, back])) {
    [frontPeg, backPeg] = [backPeg, frontPeg];
    [frontPeg.id, backPeg.id] = [backPeg.id, frontPeg.id];
    frontPeg.classList.replace("peg-back", "peg-front");
    backPeg.classList.replace("peg-front", "peg-back");
  }
  for (const [peg, points] of [[frontPeg, front], [backPeg, back]]) {
    peg.style.transform = pegTransform(target, tracks, track, points);
    peg.dataset.points = String(points);
  }
  const tagged = board.querySelector(`#tag-${track}`);
  if (tagged) {
    const [words, side] = tagFacts(target, tracks, track, front);
    tagged.style.transform = pegTransform(target, tracks, track, front);
    tagged.setAttribute("data-points", words);
    tagged.setAttribute("data-side", side);
    tagged.querySelector("text").textContent = words;
  }
}
