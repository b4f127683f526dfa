// The test game: pick books, a mode and a count; answer by tapping (or the number keys), typing
// (spelling) or grading yourself (flashcards); right and wrong in colour; at the end the score,
// the words to review, and the offer to mark as memorised the words answered right often enough.
// The server judges every answer (the page never gets the answers ahead).
import { api, element, item, meta, toast, unreachable } from "./api.js";
import { t } from "./i18n.js";
import { $, showing, whenShown } from "./nav.js";

let game = null, index = 0, answered = false, memorizable = 0;

/** The numbers of questions to choose from, as the server has them (kept for offline). */
async function showCounts() {
  const { gameCounts, gameCount } = await meta();
  if (!Array.isArray(gameCounts) || $("game-count").options.length === gameCounts.length) return;
  $("game-count").replaceChildren(...gameCounts.map((count) => {
    const option = element("option", String(count));
    option.selected = count === gameCount;
    return option;
  }));
}

async function setUp() {
  $("game-setup").hidden = false; $("game-play").hidden = true; $("game-end").hidden = true;
  $("game-error").textContent = "";
  await showCounts().catch(() => {});
  let books;
  try { books = await api("GET", "books"); } catch (error) {
    if (!unreachable(error)) throw error;
    books = [];
    $("game-error").textContent = t("The game needs the server: study goes on offline on the Study page.");
  }
  $("game-books").replaceChildren(element("legend", t("Books")), ...books.map((book) => {
    const label = element("label");
    const box = element("input");
    box.type = "checkbox"; box.value = book.id; box.checked = true;
    label.append(box, " " + book.name + " ", element("span", t("%d words", book.wordCount), "dim"));
    return label;
  }));
}

async function start() {
  const chosen = [...$("game-books").querySelectorAll("input:checked")].map((box) => box.value);
  if (chosen.length === 0) throw new Error(t("Choose at least one book."));
  game = await api("POST", "games", { books: chosen, mode: $("game-mode").value, count: Number($("game-count").value) });
  index = 0;
  if (game.shorter) toast(t("The books hold fewer words: this game has %d questions.", game.questions.length));
  $("game-setup").hidden = true; $("game-play").hidden = false; $("game-end").hidden = true;
  showQuestion();
}

function showQuestion() {
  const question = game.questions[index];
  answered = false;
  $("game-progress").textContent = t("Question %d of %d", index + 1, game.questions.length);
  $("game-prompt").textContent = question.prompt;
  $("game-hint").textContent = question.hint || "";
  $("game-verdict").textContent = ""; $("game-verdict").className = "";
  $("game-next").hidden = true;
  $("game-options").replaceChildren(...question.options.map((option, place) => {
    const button = element("button", `${place + 1}. ${option}`);
    button.addEventListener("click", () => answer({ choice: place }));
    return button;
  }));
  const typed = game.mode === "spelling", flashcard = game.mode === "flashcard";
  $("game-typed").hidden = !typed;
  $("game-reveal").hidden = !flashcard;
  $("game-grades").hidden = true;
  if (typed) { $("game-answer").value = ""; $("game-answer").focus(); }
}

async function answer(given) {
  if (answered) return;
  answered = true;
  let verdict;
  try {
    verdict = await api("POST", `games/${game.id}/answer`, given);
  } catch (error) {
    answered = false;
    $("game-verdict").textContent = error.message;
    return;
  }
  const buttons = $("game-options").querySelectorAll("button");
  if (verdict.correctOption !== null && buttons[verdict.correctOption]) buttons[verdict.correctOption].classList.add("right");
  if (given.choice !== undefined && !verdict.correct && buttons[given.choice]) buttons[given.choice].classList.add("wrong");
  for (const button of buttons) button.disabled = true;
  $("game-verdict").textContent = verdict.correct ? t("Right!") : t("Wrong: %@", verdict.answer);
  $("game-verdict").className = verdict.correct ? "right" : "wrong";
  $("game-grades").hidden = true;
  $("game-typed").hidden = true;
  $("game-next").hidden = false;
  $("game-next").textContent = verdict.done ? t("See the score") : t("Next");
  $("game-next").focus();
}

async function next() {
  if (index + 1 < game.questions.length) { index += 1; showQuestion(); return; }
  const summary = await api("POST", `games/${game.id}/finish`);
  $("game-play").hidden = true; $("game-end").hidden = false;
  $("game-score").textContent = t("%d of %d right", summary.right, summary.answered) + ` (${summary.percent}%)`;
  $("game-review-title").hidden = summary.review.length === 0;
  $("game-review").replaceChildren(...summary.review.map((word) => item(word.word, word.definition)));
  memorizable = summary.memorize.length;
  $("game-memorize").hidden = memorizable === 0;
  $("game-memorize").textContent = t("Mark %d words memorised", memorizable);
}

export function setUpGame(form) {
  whenShown("game", () => setUp().catch((error) => { $("game-error").textContent = error.message; }));
  form("game-setup", "game-error", start);
  form("game-typed", "game-verdict", () => answer({ typed: $("game-answer").value }));
  $("game-reveal").addEventListener("click", async () => {
    const { ratings } = await meta();
    $("game-reveal").hidden = true;
    $("game-grades").hidden = false;
    $("game-grades").replaceChildren(...ratings.map((rating) => {
      const button = element("button", t(rating[0].toUpperCase() + rating.slice(1)));
      button.addEventListener("click", () => answer({ rating }));
      return button;
    }));
  });
  $("game-next").addEventListener("click", () => next().catch((error) => { $("game-verdict").textContent = error.message; }));
  $("game-again").addEventListener("click", () => setUp());
  $("game-memorize").addEventListener("click", async () => {
    const done = await api("POST", `games/${game.id}/memorize`);
    $("game-memorize").hidden = true;
    $("game-score").after(element("p", t("%d words marked memorised.", done.memorized), "dim"));
  });
  document.addEventListener("keydown", (event) => {
    if (!showing("game") || $("game-play").hidden || event.target.tagName === "INPUT") return;
    if (event.key === "Enter" && !$("game-next").hidden) return;  // the focused Next button takes it
    const place = Number(event.key) - 1;
    if (!answered && game && game.questions[index].options[place] !== undefined) answer({ choice: place });
  });
}
