// A book's words: the list (paged as it scrolls, searched as you type), the word form with the
// original app's two buttons — Dictionary (fills the empty fields) and Done (validates; an error
// shows under the form) — editing, memorised, delete, hearing the word, import and export.
// A word added or edited with no network waits on the phone and is sent when the server answers.
import { api, element, meta, toast, unreachable } from "./api.js";
import { t } from "./i18n.js";
import { $, show } from "./nav.js";
import { keep, waiting } from "./outbox.js";
import { showSharing } from "./sharing.js";

const fields = ["word", "definition", "detail", "pronunciation", "synonym", "antonym"];
const formValues = () => Object.fromEntries(fields.map((name) => [name, $("word-" + name).value]));
/** Words asked for at once: the most one page of the server holds (`/api/meta`). */
let perPage = 200;

let book = null, editing = null, filled = {}, loaded = 0, total = 0, generation = 0;

export const currentBook = () => book;

export async function openWords(chosen) {
  book = chosen;
  $("book-title").textContent = book.name;
  $("book-edit-form").hidden = true;
  showSharing(book);
  $("word-search").value = "";
  $("export-link").href = exportURL();
  resetForm();
  show("words");
  perPage = (await meta().catch(() => null))?.wordsPerPage || perPage;
  await loadWords();
}

/** The first page of the list again (after a search, a change, or another device's change). */
export async function loadWords() {
  const mine = ++generation;
  loaded = 0;
  const rows = await pendingRows();
  let page;
  try {
    page = await fetchPage(0);
    if (!$("word-search").value.trim()) localStorage.setItem("vocab.words." + book.id, JSON.stringify(page));
  } catch (error) {
    if (!unreachable(error)) throw error;
    page = JSON.parse(localStorage.getItem("vocab.words." + book.id) || '{"total": 0, "words": []}');  // as last seen
  }
  if (mine !== generation) return;
  $("word-list").replaceChildren(...rows, ...page.words.map(row));
  loaded = page.words.length;
  total = page.total;
  showCount();
}

async function loadMore() {
  if (!book || loaded >= total) return;
  const mine = generation;
  const page = await fetchPage(loaded);
  if (mine !== generation || page.offset !== loaded) return;
  $("word-list").append(...page.words.map(row));
  loaded += page.words.length;
  showCount();
}

function fetchPage(offset) {
  const query = $("word-search").value.trim();
  return api("GET", `books/${book.id}/words?offset=${offset}&limit=${perPage}${query ? "&q=" + encodeURIComponent(query) : ""}`);
}

function showCount() {
  $("word-count").textContent = t("%d words", total);
  $("word-more").textContent = loaded < total ? t("Loading more…") : "";
}

/** Words made on this phone that wait to be sent, shown first. */
async function pendingRows() {
  const entries = (await waiting().catch(() => [])).filter((entry) => entry.kind === "word" && entry.bookId === book.id);
  return entries.map((entry) => {
    const li = element("li", undefined, "pending");
    li.append(element("div", entry.fields.word), element("div", t("Waiting to be sent"), "dim"));
    return li;
  });
}

function row(word) {
  const li = element("li");
  const open = element("button", word.word);
  open.append(element("div", word.definition, "dim"));
  open.addEventListener("click", () => edit(word));
  const box = element("input");
  box.type = "checkbox";
  box.checked = word.memorized;
  box.className = "memorized";
  box.setAttribute("aria-label", t("Memorised") + ": " + word.word);
  box.addEventListener("change", () => change(word, { memorized: box.checked }).catch((error) => { box.checked = !box.checked; toast(error.message); }));
  li.append(box, open);
  return li;
}

/** The form empty and closed (`open`: empty and ready for the next word). */
function resetForm(open = false) {
  editing = null;
  $("word-form").hidden = !open;
  filled = {};
  for (const name of fields) { $("word-" + name).value = ""; $("word-" + name).readOnly = false; }
  for (const id of ["done", "dictionary"]) $(id).hidden = false;
  $("word-form-title").textContent = t("New word");
  for (const id of ["word-memorized-row", "hear", "word-delete", "senses", "web-link"]) $(id).hidden = true;
  $("word-cancel").hidden = false;
  $("word-error").textContent = "";
  for (const old of $("word-form").querySelectorAll(".field-error")) old.remove();
  if (open) $("word-word").focus();
}

function edit(word) {
  resetForm(true);
  editing = word;
  for (const name of fields) $("word-" + name).value = word[name] || "";
  $("word-memorized").checked = word.memorized;
  $("word-form-title").textContent = t("Edit “%@”", word.word);
  for (const id of ["word-memorized-row", "hear", "word-delete"]) $(id).hidden = false;
  // A shared book's word is read here (its owner changes it); its memorised mark is the list's box.
  if (book.sharedBy !== null && book.sharedBy !== undefined) {
    for (const name of fields) $("word-" + name).readOnly = true;
    for (const id of ["done", "dictionary", "word-delete", "word-memorized-row"]) $(id).hidden = true;
    $("word-form-title").textContent = word.word;
  }
  $("word-form").scrollIntoView({ behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
}

/** An edit sent now, or kept on the phone when the server cannot be reached. */
async function change(word, changes) {
  try {
    const saved = await api("PUT", `words/${word.id}`, changes);
    Object.assign(word, saved);
  } catch (error) {
    if (!unreachable(error)) throw error;
    await keep({ id: crypto.randomUUID(), kind: "edit", wordId: word.id, changes });
    Object.assign(word, changes);
    toast(t("Saved on this phone; it is sent when the server answers."));
  }
}

async function done() {
  const added = !editing;
  if (editing) {
    await change(editing, { ...formValues(), memorized: $("word-memorized").checked });
  } else {
    const word = { id: crypto.randomUUID(), bookId: book.id, fields: formValues() };
    // Checked here too (in the server's words) so that a word made offline is not kept to be refused later.
    if (!word.fields.word.trim()) { const error = new Error(t("%@ must not be empty.", t("Word"))); error.field = "word"; throw error; }
    try {
      await api("POST", "words", { id: word.id, bookId: word.bookId, ...word.fields });
    } catch (error) {
      if (!unreachable(error)) throw error;
      await keep({ ...word, kind: "word" });
      toast(t("Saved on this phone; it is sent when the server answers."));
    }
  }
  resetForm(added);  // after a new word, the form waits for the next one
  await loadWords();
}

// Dictionary: the server fills the empty fields (the meaning met most); the others are a tap away.
async function lookUp(sense) {
  $("word-error").textContent = "";
  try {
    const answer = await api("POST", "dictionary", { ...formValues(), filled, ...(sense === undefined ? {} : { sense }) });
    for (const name of fields) $("word-" + name).value = answer.form[name];
    filled = answer.filled;
    $("senses").replaceChildren(...answer.senses.map((text, index) => {
      const button = element("button", `${index + 1}. ${text}`);
      button.type = "button";
      button.addEventListener("click", () => lookUp(index));
      return button;
    }));
    $("senses").hidden = answer.senses.length < 2;
    if (answer.webURL) { $("web-link").href = answer.webURL; $("web-link").hidden = false; }
  } catch (error) {
    $("word-error").textContent = unreachable(error) ? t("The dictionary needs the server: type the meaning yourself.") : error.message;
  }
}

const exportURL = () => `/api/books/${book.id}/export?format=${$("export-format").value}`;

// Import: the file goes up (progress as it goes), then the server imports it while the page asks how far it got.
let importing = null;
function startImport(file) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", `/api/imports?name=${encodeURIComponent(file.name)}&book=${book.id}`);
    request.setRequestHeader("X-Vocab-Request", "1");
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) { $("import-bar").max = event.total; $("import-bar").value = event.loaded; }
      $("import-text").textContent = t("Sending the file…");
    };
    request.onload = () => {
      let data = {};
      try { data = JSON.parse(request.responseText || "{}"); } catch (_) { /* not JSON: the status says it */ }
      if (request.status === 202) resolve(data.id); else reject(new Error(t(data.error || request.statusText)));
    };
    request.onerror = () => reject(new Error(t("The server cannot be reached: try again when you are online.")));
    request.send(file);
  });
}

async function followImport(id) {
  for (;;) {
    const state = await api("GET", `imports/${id}`);
    if (state.state === "running") {
      $("import-bar").removeAttribute("value");
      if (state.share !== null) { $("import-bar").max = 1; $("import-bar").value = state.share; }
      $("import-text").textContent = t("%d rows read", state.rows);
      await new Promise((resolve) => setTimeout(resolve, 400));
      continue;
    }
    if (state.state === "done") {
      const outcome = state.outcome;
      toast(t("Imported: %d added, %d updated, %d unchanged.", outcome.added, outcome.updated, outcome.unchanged));
      if (outcome.rejectedCount > 0) {
        const first = outcome.rejected[0];
        $("import-error").textContent = t("%d lines were left out.", outcome.rejectedCount) + " " + t("Line %d: %@", first.line, first.reason);
      }
    } else if (state.state === "cancelled") {
      toast(t("The import was cancelled; nothing was changed."));
    } else {
      $("import-error").textContent = t(state.error);
    }
    return;
  }
}

export function setUpWords(form) {
  form("word-form", "word-error", done);
  $("dictionary").addEventListener("click", () => lookUp());
  $("back").addEventListener("click", () => show("books"));
  $("word-cancel").addEventListener("click", () => resetForm());
  $("word-new").addEventListener("click", () => resetForm(true));
  $("hear").addEventListener("click", () => {
    if (!editing) return;
    new Audio(`/api/words/${editing.id}/sound`).play().catch(() => toast(t("The word cannot be played here.")));
  });
  $("word-delete").addEventListener("click", async () => {
    if (!editing || !confirm(t("Delete “%@”?", editing.word))) return;
    try {
      await api("DELETE", `words/${editing.id}`);
    } catch (error) {
      if (!unreachable(error)) { $("word-error").textContent = error.message; return; }
      await keep({ id: crypto.randomUUID(), kind: "delete", wordId: editing.id });
    }
    resetForm();
    await loadWords();
  });
  let typing = 0;
  $("word-search").addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(() => loadWords().catch(() => {}), 150); });
  new IntersectionObserver((seen) => { if (seen.some((entry) => entry.isIntersecting)) loadMore().catch(() => {}); })
    .observe($("word-more"));
  $("export-format").addEventListener("change", () => { $("export-link").href = exportURL(); });
  form("import-form", "import-error", async () => {
    const file = $("import-file").files[0];
    if (!file || importing) return;
    $("import-progress").hidden = false;
    $("import-start").disabled = true;
    try {
      importing = await startImport(file);
      await followImport(importing);
      $("import-file").value = "";
      await loadWords();
    } finally {
      importing = null;
      $("import-progress").hidden = true;
      $("import-start").disabled = false;
    }
  });
  $("import-cancel").addEventListener("click", () => { if (importing) api("DELETE", `imports/${importing}`).catch(() => {}); });
}
