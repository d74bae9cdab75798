// The tutorial's Python cells ("Count it in Python"): PyScript's editor.
//
// Each <script type="py-editor"> in the page becomes an editor with a Run button
// once PyScript's core (the pinned, self-hosted copy) is imported, which
// startPythonCells does after the page's own start, so nothing of that start
// waits for it. The interpreter (Pyodide, in a worker PyScript makes, with the
// engine installed from its wheel as ./tutorial-python.json says) starts only
// when a reader first runs a cell; the cells share it (one env). Around
// PyScript's own editor this module
//  - fills {lang}, {alice} and {bob} in the programs with the page's words;
//  - names each editor, its Run button and its group in the page's language
//    (PyScript's names are English, and its input box has a label but no role);
//  - says in the cell's status line what is happening (the first run takes seconds);
//  - writes Python's errors into the output as text: PyScript writes them as
//    `<span style='color:red'>…</span>` HTML, an inline style the page's policy
//    refuses, and as HTML a traceback's `<module>` would vanish;
//  - gives the focus back: PyScript focuses each editor it makes;
//  - keeps CodeMirror's colours readable and typing over a selection of several
//    lines within the policy (see readableColors and typeOver).
import { fill } from "./lang.mjs";

const PYSCRIPT_CORE = "./{{PYSCRIPT_DIR}}/core.js";
const ERROR_HTML = /^<span style='color:red'>([\s\S]*)<\/span>\n$/;
// CodeMirror's default highlighting draws escapes and f-strings' format parts in
// #e40 and invalid code in #f00, under 4.5:1 on white: darker shades of each.
const DARKER = { "rgb(238, 68, 0)": "#b33300", "rgb(255, 0, 0)": "#c00000" };

let pythonStarted = false; // whether any cell has run yet (the first run starts Python)

function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Fill the programs and set the button's words, then import PyScript's core. */
export function startPythonCells(words) {
  const cells = [...document.querySelectorAll('script[type="py-editor"]')];
  if (!cells.length) return Promise.resolve();
  const values = {
    lang: words.lang,
    alice: words.text("tutorial.name.alice"),
    bob: words.text("tutorial.name.bob"),
  };
  for (const cell of cells) {
    cell.textContent = fill(cell.textContent, values);
    // PyScript's own buttons are SVGs with style attributes, which the policy refuses.
    cell.dataset.run = `<span>${escapeHTML(words.text("tutorial.python.run"))}</span>`;
    cell.dataset.stop = `<span>${escapeHTML(words.text("tutorial.python.stop"))}</span>`;
  }
  // The reader's own focus, outside the editors, to give back (setUpCell).
  let focused = document.activeElement;
  document.addEventListener("focusin", (event) => {
    if (!event.target.closest?.("py-editor")) focused = event.target;
  });
  const core = import(PYSCRIPT_CORE);
  const editorView = core.then((module) => module.codemirror.view).then((m) => m.EditorView);
  editorView.catch(() => {}); // said in the status lines below
  document.addEventListener("py-editor", (event) => {
    const code = setUpCell(event.target, words, focused);
    editorView.then((EditorView) => typeOver(EditorView.findFromDOM(code), code));
  });
  return core.catch((error) => {
    for (const status of document.querySelectorAll(".py-status")) {
      status.textContent = words.text("tutorial.python.unavailable", { reason: error.message });
    }
  });
}

/** A cell PyScript has just made an editor of (``script.target`` holds the editor). */
function setUpCell(script, words, focused) {
  const box = script.target;
  const status = box.nextElementSibling;
  const title = document.getElementById(script.dataset.title).textContent;
  const input = box.querySelector(".py-editor-input");
  input.removeAttribute("aria-label");
  input.setAttribute("role", "group");
  input.setAttribute("aria-labelledby", script.dataset.title);
  const root = input.querySelector(":scope > div").shadowRoot;
  const code = root.querySelector(".cm-content");
  code.setAttribute("aria-label", words.text("tutorial.python.code", { title }));
  readableColors(root);
  const output = box.querySelector(".py-editor-output");
  output.dataset.label = words.text("tutorial.python.output"); // tutorial.css shows it above the output
  textErrors(output);
  const button = box.querySelector(".py-editor-run-button");
  const label = (running) => {
    const key = running ? "tutorial.python.stop_label" : "tutorial.python.run_label";
    button.setAttribute("aria-label", words.text(key, { title }));
  };
  label(false);
  button.addEventListener("click", () => {
    // PyScript's own listener came first: "running" now means a run has begun.
    if (!button.classList.contains("running")) return;
    label(true);
    const key = pythonStarted ? "tutorial.python.running" : "tutorial.python.starting";
    pythonStarted = true;
    showStatus(status, "running", words.text(key));
  });
  script.addEventListener("py-editor:done", () => {
    label(false);
    const failed = output.querySelector(".py-error") !== null;
    showStatus(status, failed ? "error" : "done",
      words.text(failed ? "tutorial.python.error" : "tutorial.python.done"));
  });
  // PyScript focused the new editor: the reader's focus goes back where it was.
  if (box.contains(document.activeElement)) {
    if (focused && focused !== document.body && focused.isConnected) focused.focus({ preventScroll: true });
    else document.activeElement.blur();
  }
  return code;
}

/** Darker shades for CodeMirror's low-contrast colours, in the editor's own style sheets. */
function readableColors(root) {
  for (const sheet of root.adoptedStyleSheets) {
    for (const rule of sheet.cssRules) {
      const darker = DARKER[rule.style?.color];
      if (darker) rule.style.color = darker;
    }
  }
}

// Typing over a selection of several lines (select all, then type) is left by
// CodeMirror to Chrome's own editing, which then writes an inline style attribute
// that the page's policy refuses (a violation, though CodeMirror redraws the line):
// that keystroke goes to CodeMirror as a transaction instead, through its input
// handlers (auto-closed brackets) as its own typing does.
function typeOver(view, code) {
  code.addEventListener("beforeinput", (event) => {
    const { state } = view;
    const { from, to } = state.selection.main;
    if (event.inputType !== "insertText" || !event.data) return;
    if (state.doc.lineAt(from).number === state.doc.lineAt(to).number) return;
    event.preventDefault();
    const insert = () => state.update(state.replaceSelection(event.data),
      { scrollIntoView: true, userEvent: "input.type" });
    const handlers = state.facet(view.constructor.inputHandler);
    if (!handlers.some((handler) => handler(view, from, to, event.data, insert))) view.dispatch(insert());
  });
}

function showStatus(status, state, text) {
  status.dataset.state = state;
  status.textContent = text;
}

/** PyScript's error HTML for ``output`` written as text in a span of ours, never parsed. */
function textErrors(output) {
  output.insertAdjacentHTML = (position, html) => {
    const span = document.createElement("span");
    span.className = "py-error";
    span.textContent = (ERROR_HTML.exec(html)?.[1] ?? html) + "\n";
    output.insertAdjacentElement(position, span);
  };
}
