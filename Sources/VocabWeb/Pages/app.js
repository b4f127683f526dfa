// Vocab's web app: pairs the device, then talks to /api/ (every write says it comes from here).
const $ = (id) => document.getElementById(id);
const pages = ["pair", "books", "words", "study"];
const RATINGS = { again: "Again", hard: "Hard", good: "Good", easy: "Easy" };

// The window's catalogue (English text is the key), in the browser's language or the one chosen.
let catalog = {};
function t(text, ...values) {
  let out = catalog[text] || text;
  for (const value of values) out = out.replace(/%[@d]/, value);
  return out;
}
async function loadCatalog() {
  const chosen = localStorage.getItem("vocab.language") || (navigator.language || "en").slice(0, 2);
  const answer = await fetch(`/catalog.json?lang=${encodeURIComponent(chosen)}`).then((r) => r.json())
    .catch(() => ({ language: "en", entries: {} }));
  catalog = answer.entries || {};
  document.documentElement.lang = answer.language;
  for (const element of document.querySelectorAll("[data-t]")) element.textContent = t(element.dataset.t);
  for (const element of document.querySelectorAll("[data-t-placeholder]")) element.placeholder = t(element.dataset.tPlaceholder);
  for (const element of document.querySelectorAll("[data-t-label]")) element.setAttribute("aria-label", t(element.dataset.tLabel));
  $("language").textContent = answer.language === "ko" ? "English" : "한국어";
}
let openBook = null, card = null, version = -1, filled = {};
const fields = ["word", "definition", "detail", "pronunciation", "synonym", "antonym"];
const formValues = () => Object.fromEntries(fields.map((name) => [name, $("word-" + name).value]));

async function api(method, path, body) {
  const response = await fetch("/api/" + path, {
    method, credentials: "same-origin",
    headers: body === undefined ? {} : { "Content-Type": "application/json", "X-Vocab-Request": "1" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) { show("pair"); throw new Error("not paired"); }
  const text = await response.text();
  const data = text ? JSON.parse(text) : {};
  if (!response.ok) { const error = new Error(t(data.error || response.statusText)); error.field = data.field; throw error; }
  return data;
}

function show(page) {
  for (const name of pages) $(name).hidden = name !== page;
  $("tabs").hidden = page === "pair";
  if (page === "books") loadBooks();
  if (page === "study") loadCard();
}

function item(text, detail, onClick) {
  const li = document.createElement("li");
  const button = document.createElement("button");
  button.textContent = text;
  if (detail) { const small = document.createElement("div"); small.className = "dim"; small.textContent = detail; button.append(small); }
  if (onClick) button.addEventListener("click", onClick); else button.disabled = true;
  li.append(button);
  return li;
}

async function loadBooks() {
  const books = await api("GET", "books");
  $("shelf").replaceChildren(...books.map((book) =>
    item(book.name, t("%d words · %d due", book.wordCount, book.dueCount), () => openWords(book))));
}

async function openWords(book) {
  openBook = book;
  $("book-title").textContent = book.name;
  show("words");
  await loadWords();
}

async function loadWords() {
  const page = await api("GET", `books/${openBook.id}/words?limit=100`);
  $("word-list").replaceChildren(...page.words.map((word) => item(word.word, word.definition)));
}

// IndexedDB: reviews made with no network wait here, each with an id made on the phone.
function outbox(mode, work) {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open("vocab", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("outbox", { keyPath: "id" });
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const transaction = opening.result.transaction("outbox", mode);
      const request = work(transaction.objectStore("outbox"));
      transaction.oncomplete = () => resolve(request && request.result);
      transaction.onerror = () => reject(transaction.error);
    };
  });
}

// Sends what waits (at start, when back online, when the page is shown again: Safari has
// no background sync); the server keeps each review's time and ignores one it has.
async function flush() {
  const waiting = await outbox("readonly", (store) => store.getAll());
  if (!waiting || waiting.length === 0) return;
  await api("POST", "reviews", { reviews: waiting });
  await outbox("readwrite", (store) => { for (const review of waiting) store.delete(review.id); });
}

// The day's queue, kept on the phone: studying goes on in a tunnel.
async function keepQueue() {
  const queue = await api("GET", "study/queue");
  // Cards graded on the phone while this was on its way stay graded.
  const { kept } = offlineCard();
  const graded = kept.graded.filter((id) => queue.cards.some((card) => card.id === id));
  localStorage.setItem("vocab.queue", JSON.stringify({ cards: queue.cards, graded }));
}

function offlineCard() {
  const kept = JSON.parse(localStorage.getItem("vocab.queue") || '{"cards": [], "graded": []}');
  const left = kept.cards.filter((card) => !kept.graded.includes(card.id));
  return { kept, card: left[0] || null, left: left.length };
}

// The card whose answer is showing (it stays so when the page is drawn again), and the
// newest load (an older one that answers late draws nothing).
let revealed = null, loading = 0;

async function loadCard() {
  const mine = ++loading;
  let next;
  try {
    next = await api("GET", "study");
    keepQueue().catch(() => {});
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const { card: kept, left } = offlineCard();
    next = { card: kept, dueCount: left, newCount: 0, intervals: ["again", "hard", "good", "easy"].map((rating) => ({ rating })),
             reason: "nothingDue", offline: true };
  }
  if (mine !== loading) return;
  card = next.card;
  // A card whose answer is showing stays so (the learner is rating it), as in the window.
  const keep = !!card && revealed === card.id;
  $("show").hidden = !card || keep;
  $("ratings").hidden = !keep;
  $("card-answer").hidden = !keep;
  $("card-word").textContent = card ? card.word : "";
  $("study-status").textContent = card ? (next.offline ? t("%d left on this phone", next.dueCount) : t("%d due · %d new", next.dueCount, next.newCount))
    : next.reason === "noWords" ? t("No words yet: add some on the Books page.") : t("Nothing to study now.");
  if (card) {
    $("card-answer").textContent = card.definition;
    $("ratings").replaceChildren(...next.intervals.map((choice) => {
      const button = document.createElement("button");
      button.textContent = t(RATINGS[choice.rating] || choice.rating);
      button.dataset.rating = choice.rating;
      if (choice.interval) {
        const interval = document.createElement("small");
        interval.textContent = intervalText(choice.interval);
        button.append(document.createElement("br"), interval);
      }
      button.addEventListener("click", () => grade(choice.rating));
      return button;
    }));
  }
}

// "10m", "4d", "1.5y" (Korean "10분", "4일", "1.5년"): the server rounds as the window's buttons do.
function intervalText(interval) {
  return t(interval.unit === "y" ? "%@y" : `%d${interval.unit}`, interval.count);
}

// A grade waits in IndexedDB first (with its own id and time) and is sent at once when
// the server can be reached: offline or not, nothing is lost and nothing counts twice.
async function grade(rating) {
  const review = { id: crypto.randomUUID(), wordId: card.id, rating, at: new Date().toISOString() };
  revealed = null;
  await outbox("readwrite", (store) => store.put(review));
  const { kept } = offlineCard();
  kept.graded.push(card.id);
  localStorage.setItem("vocab.queue", JSON.stringify(kept));
  try { await flush(); } catch (_) { /* offline: sent when back */ }
  await loadCard();
}

async function poll() {
  try {
    const { version: now } = await api("GET", "changes");
    if (version !== -1 && now !== version) {
      if (!$("books").hidden) loadBooks();
      if (!$("words").hidden) loadWords();
    }
    version = now;
    connection(true);
  } catch (error) { if (error instanceof TypeError) connection(false); /* else not paired: try again later */ }
}

function form(id, errorId, action) {
  $(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    $(errorId).textContent = "";
    try { await action(); } catch (error) { if (error.message !== "not paired") $(errorId).textContent = error.message; }
  });
}

form("pair-form", "pair-error", async () => { await api("POST", "pair", { code: $("pair-code").value }); show("books"); });
form("book-form", "book-error", async () => { await api("POST", "books", { name: $("book-name").value }); $("book-name").value = ""; loadBooks(); });
form("word-form", "word-error", async () => {
  await api("POST", "words", { bookId: openBook.id, ...formValues() });
  for (const name of fields) $("word-" + name).value = "";
  filled = {}; $("senses").hidden = true; $("web-link").hidden = true;
  loadWords();
});

// Dictionary: the server fills the empty fields (the meaning met most); the others are a tap away.
async function lookUp(sense) {
  $("word-error").textContent = "";
  try {
    const answer = await api("POST", "dictionary", { ...formValues(), filled, ...(sense === undefined ? {} : { sense }) });
    for (const name of fields) $("word-" + name).value = answer.form[name];
    filled = answer.filled;
    $("senses").replaceChildren(...answer.senses.map((text, index) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `${index + 1}. ${text}`;
      button.addEventListener("click", () => lookUp(index));
      return button;
    }));
    $("senses").hidden = answer.senses.length < 2;
    if (answer.webURL) { $("web-link").href = answer.webURL; $("web-link").hidden = false; }
  } catch (error) { if (error.message !== "not paired") $("word-error").textContent = error.message; }
}
$("dictionary").addEventListener("click", () => lookUp());
$("back").addEventListener("click", () => show("books"));
$("show").addEventListener("click", () => {
  revealed = card && card.id;
  $("card-answer").hidden = false; $("ratings").hidden = false; $("show").hidden = true;
});
for (const button of document.querySelectorAll("#tabs button")) button.addEventListener("click", () => show(button.dataset.page));
// Offline: the shell comes from the service worker; the page says the server cannot be reached.
function connection(online) { $("offline").hidden = online; }
window.addEventListener("online", () => { connection(true); flush().catch(() => {}); poll(); });
document.addEventListener("visibilitychange", () => { if (!document.hidden) flush().catch(() => {}); });
flush().catch(() => {});
window.addEventListener("offline", () => connection(false));
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
$("language").addEventListener("click", () => {
  localStorage.setItem("vocab.language", document.documentElement.lang === "ko" ? "en" : "ko");
  loadCatalog().then(() => { if (!$("books").hidden) loadBooks(); if (!$("study").hidden) loadCard(); });
});
loadCatalog().then(() => api("GET", "books")).then(() => { connection(true); show("books"); },
                                                  (error) => { if (error instanceof TypeError) connection(false); });
setInterval(poll, 1000);
