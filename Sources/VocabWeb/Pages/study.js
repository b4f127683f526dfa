// Study: the card, Show answer, four ratings with their intervals (tap, keys 1-4, or swipe the
// card: left "again", right "good"); the day's counts. The day's queue is kept on the phone, so
// studying goes on with no network; each grade waits in the outbox until it is sent.
import { api, element, meta, unreachable } from "./api.js";
import { t } from "./i18n.js";
import { $, showing, whenShown } from "./nav.js";
import { flush, keep } from "./outbox.js";

// The four ratings by name, as the server names them (its meta); a button says "Again" for "again".
let ratings = [];
const ratingLabel = (name) => t(name.charAt(0).toUpperCase() + name.slice(1));

// The card whose answer is showing (it stays so when the page is drawn again), and the newest
// load (an older one that answers late draws nothing).
let card = null, revealed = null, loading = 0;

// The day's queue, kept on the phone: studying goes on in a tunnel.
async function keepQueue() {
  const queue = await api("GET", "study/queue");
  // Cards graded on the phone while this was on its way stay graded.
  const { kept } = offlineCard();
  const graded = kept.graded.filter((id) => queue.cards.some((card) => card.id === id));
  localStorage.setItem("vocab.queue", JSON.stringify({ cards: queue.cards, graded, at: Date.now() }));
}

// The kept queue is asked for again only when it may be out of date (the whole queue after
// every card was most of what a phone downloaded): none kept, kept ten minutes ago, the
// server's next card not one of those left in it (a new day, words added elsewhere, a card to
// see again, the kept ones all studied), or cards left in it when the server has none due.
const queueKeptFor = 10 * 60 * 1000;
function queueOutOfDate(next) {
  const { kept } = offlineCard();
  if (!kept.at || Date.now() - kept.at > queueKeptFor) return true;
  const left = kept.cards.filter((card) => !kept.graded.includes(card.id));
  return next.card ? !left.some((card) => card.id === next.card.id) : left.length > 0;
}

function offlineCard() {
  const kept = JSON.parse(localStorage.getItem("vocab.queue") || '{"cards": [], "graded": []}');
  const left = kept.cards.filter((card) => !kept.graded.includes(card.id));
  return { kept, card: left[0] || null, left: left.length };
}

export async function loadCard() {
  const mine = ++loading;
  let next;
  try {
    next = await api("GET", "study");
    if (queueOutOfDate(next)) keepQueue().catch(() => {});
  } catch (error) {
    if (!unreachable(error)) throw error;
    const { card: kept, left } = offlineCard();
    next = { card: kept, dueCount: left, newCount: 0, intervals: ratings.map((rating) => ({ rating })),
             reason: "nothingDue", offline: true };
  }
  if (mine !== loading) return;
  card = next.card;
  // A card whose answer is showing stays so (the learner is rating it), as in the window.
  const keepShown = !!card && revealed === card.id;
  $("show").hidden = !card || keepShown;
  $("ratings").hidden = !keepShown;
  $("card-answer").hidden = !keepShown;
  $("card-word").textContent = card ? card.word : "";
  $("card-pronunciation").textContent = card ? card.pronunciation : "";
  $("study-status").textContent = card ? (next.offline ? t("%d left on this phone", next.dueCount) : t("%d due · %d new", next.dueCount, next.newCount))
    : next.reason === "noWords" ? t("No words yet: add some on the Books page.")
    : next.nextReview ? t("Nothing to study now. %@", next.nextReview) : t("Nothing to study now.");
  if (card) {
    if (performance.getEntriesByName("vocab-card-shown").length === 0) performance.mark("vocab-card-shown");  // for vocab-bench
    $("card-answer").textContent = card.definition;
    $("ratings").replaceChildren(...next.intervals.map((choice) => {
      const button = element("button", ratingLabel(choice.rating));
      button.dataset.rating = choice.rating;
      if (choice.interval) button.append(element("br"), element("small", choice.interval));
      button.addEventListener("click", () => grade(choice.rating));
      return button;
    }));
  }
}

function reveal() {
  if (!card) return;
  revealed = card.id;
  $("card-answer").hidden = false; $("ratings").hidden = false; $("show").hidden = true;
}

// A grade waits in IndexedDB first (with its own id and time) and is sent at once when the
// server can be reached: offline or not, nothing is lost and nothing counts twice.
async function grade(rating) {
  if (!card) return;
  const review = { id: crypto.randomUUID(), kind: "review", wordId: card.id, rating, at: new Date().toISOString() };
  revealed = null;
  await keep(review);
  const { kept } = offlineCard();
  kept.graded.push(card.id);
  localStorage.setItem("vocab.queue", JSON.stringify(kept));
  try { await flush(); } catch (_) { /* offline: sent when back */ }
  await loadCard();
}

export function setUpStudy() {
  whenShown("study", () => meta().then((known) => { ratings = known.ratings; }).then(loadCard).catch(() => {}));
  $("show").addEventListener("click", reveal);
  document.addEventListener("keydown", (event) => {
    if (!showing("study") || event.target.tagName === "INPUT") return;
    if (event.key === " " || event.key === "Enter") { if ($("ratings").hidden) { event.preventDefault(); reveal(); } return; }
    const rating = ratings[Number(event.key) - 1];
    if (rating && !$("ratings").hidden) grade(rating);
  });
  // A swipe across the card: to the left "again", to the right "good" (once the answer shows).
  let start = null;
  $("card").addEventListener("pointerdown", (event) => { start = { x: event.clientX, y: event.clientY }; });
  $("card").addEventListener("pointerup", (event) => {
    if (!start) return;
    const dx = event.clientX - start.x, dy = event.clientY - start.y;
    start = null;
    if (Math.abs(dx) < 80 || Math.abs(dx) < 2 * Math.abs(dy)) { if (Math.abs(dx) < 10 && Math.abs(dy) < 10) reveal(); return; }
    if (!$("ratings").hidden) grade(dx < 0 ? "again" : "good");
  });
}
