// The tutorial's quizzes: two questions at the end of each section, answered at once.
//
// tutorial.html has <div class="quiz" data-quiz="SECTION"></div> at the end of each
// section; startQuizzes(words) fills each from the catalogue (web/lang/quiz.<code>.json:
// quiz.SECTION.N.q the question, quiz.SECTION.N.a its three answers, quiz.SECTION.N.why
// the explanation) with the right answers below. Each answer is a button; the
// feedback (right or not, and why) is announced (aria-live) and the right answer
// marked. Contract: .quiz-question[data-state] is "ask", "right" or "wrong".

import { el } from "./widget-kit.mjs";

/** The right answer's index for each question of each section. */
export const ANSWERS = {
  deal: [1, 1],
  crib: [0, 1],
  starter: [1, 0],
  play: [1, 1],
  show: [1, 1],
  "twenty-nine": [2, 0],
  runs: [1, 2],
  flush: [1, 0],
  "going-out": [1, 1],
  variants: [0, 1],
};

function question(words, section, n, answer) {
  const key = `quiz.${section}.${n + 1}`;
  const id = `quiz-${section}-${n + 1}`;
  const box = el("div", { class: "quiz-question", "data-state": "ask" });
  const options = el("div", { class: "quiz-options", role: "group", "aria-labelledby": id });
  const feedback = el("p", { class: "quiz-feedback", "aria-live": "polite" });
  const answers = words.raw(`${key}.a`);
  (Array.isArray(answers) ? answers : []).forEach((text, i) => {
    const button = el("button", { type: "button", class: "quiz-option", text });
    button.addEventListener("click", () => {
      const right = i === answer;
      box.dataset.state = right ? "right" : "wrong";
      for (const [j, other] of [...options.children].entries()) {
        other.classList.toggle("chosen", j === i);
        other.classList.toggle("answer", j === answer);
        other.setAttribute("aria-pressed", String(j === i));
      }
      feedback.textContent = `${words.text(right ? "quiz.right" : "quiz.wrong")} ${words.text(`${key}.why`)}`;
    });
    options.append(button);
  });
  box.append(el("p", { class: "quiz-q", id, text: words.text(`${key}.q`) }), options, feedback);
  return box;
}

/** Fill every .quiz[data-quiz] of the page in the catalogue's language. */
export function startQuizzes(words) {
  for (const holder of document.querySelectorAll(".quiz[data-quiz]")) {
    const section = holder.dataset.quiz;
    if (!Object.hasOwn(ANSWERS, section)) continue;
    const heading = el("h3", { class: "quiz-h", id: `quiz-${section}-h`, text: words.text("quiz.h") });
    holder.setAttribute("aria-labelledby", heading.id);
    holder.setAttribute("role", "group");
    holder.replaceChildren(heading, ...ANSWERS[section].map((answer, n) => question(words, section, n, answer)));
  }
}
