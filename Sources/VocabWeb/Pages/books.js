// The shelf: each book with its counts; a new book; a book's name and explanation edited, or the
// book deleted (the server backs the store up first when the book holds words).
import { api, item, toast } from "./api.js";
import { t } from "./i18n.js";
import { $, show, whenShown } from "./nav.js";
import { currentBook, openWords } from "./words.js";

export let books = [];
let drawn = "";

/** Draws the shelf, unless it shows these books already (a tap on a row is never lost to a redraw). */
function drawShelf(list) {
  const key = JSON.stringify(list) + document.documentElement.lang;
  if (key === drawn) return;
  drawn = key;
  books = list;
  $("shelf").replaceChildren(...books.map((book) =>
    item(book.name, (book.sharedBy ? t("Shared by %@", book.sharedBy) + " · " : book.sharedBy === "" ? t("Shared") + " · " : "")
         + t("%d words · %d memorised · %d due", book.wordCount, book.memorizedCount, book.dueCount), () => openWords(book), book.cover)));
}

export async function loadBooks() {
  const list = await api("GET", "books");
  localStorage.setItem("vocab.books", JSON.stringify(list));
  drawShelf(list);
}

// The shelf as it was last seen at once (offline, that is all there is), then as it is now.
whenShown("books", () => {
  drawShelf(JSON.parse(localStorage.getItem("vocab.books") || "[]"));
  loadBooks().catch(() => {});
});

export function setUpBooks(form) {
  form("book-form", "book-error", async () => {
    await api("POST", "books", { name: $("book-name").value });
    $("book-name").value = "";
    await loadBooks();
  });
  $("book-edit").addEventListener("click", () => {
    const editing = $("book-edit-form").hidden;
    $("book-edit-form").hidden = !editing;
    if (editing) {
      const book = currentBook();
      $("book-edit-name").value = book.name;
      $("book-edit-explain").value = book.explain || "";
    }
  });
  form("book-edit-form", "book-edit-error", async () => {
    const book = currentBook();
    const saved = await api("PUT", `books/${book.id}`, { name: $("book-edit-name").value, explain: $("book-edit-explain").value });
    Object.assign(book, saved);
    $("book-title").textContent = saved.name;
    $("book-edit-form").hidden = true;
  });
  $("book-delete").addEventListener("click", async () => {
    const book = currentBook();
    if (!confirm(t("Delete “%@” and its %d words?", book.name, book.wordCount))) return;
    try {
      const answer = await api("DELETE", `books/${book.id}`);
      toast(answer.backup ? t("Deleted %d words; a backup was taken first.", answer.deleted) : t("The book was deleted."));
      $("book-edit-form").hidden = true;
      show("books");
    } catch (error) { $("book-edit-error").textContent = error.message; }
  });
}

