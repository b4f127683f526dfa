// Shared books on a server of many learners: share one of your books (a link and a code), follow
// one by its link or code or from the catalogue, stop following. A followed book is read-only
// here and stays up to date; your progress on it is your own.
import { api, element, item, session, toast } from "./api.js";
import { t } from "./i18n.js";
import { $, show } from "./nav.js";

/** Shows what the words page offers for `book`: a followed book's note, or sharing one's own. */
export function showSharing(book) {
  const shared = book.sharedBy !== null && book.sharedBy !== undefined;
  const cloud = session.mode === "cloud";
  $("shared-note").hidden = !shared;
  $("shared-note-text").textContent = book.sharedBy ? t("Shared by %@: its owner keeps it up to date.", book.sharedBy)
    : t("A shared book: its owner keeps it up to date.");
  for (const id of ["book-edit", "word-new", "transfer"]) $(id).hidden = shared;
  $("share-part").hidden = shared || !cloud;
  $("book-unfollow").hidden = !cloud;  // a computer's own server: followed there, in its terminal or window
  $("share-info").hidden = true;
}

/** Asks about the book of a link this page was opened with ("#follow=CODE"), once signed in:
 * its title, who shares it and its size, with Follow and Cancel (nothing is followed unasked). */
export async function followPending() {
  const code = sessionStorage.getItem("vocab.follow");
  if (!code || !session.signedIn) return;
  sessionStorage.removeItem("vocab.follow");
  try {
    const offered = await api("GET", `shared/${encodeURIComponent(code)}`);
    $("follow-ask-book").textContent = offered.title;
    $("follow-ask-detail").textContent = offered.own ? t("This book is your own.")
      : offered.following ? t("You follow this book already.")
      : [t("by %@", offered.sharer), offered.words === 1 ? t("1 word") : t("%d words", offered.words),
         offered.followers === 1 ? t("1 follower") : t("%d followers", offered.followers)].join(" · ");
    $("follow-ask-yes").hidden = offered.own || offered.following;
    $("follow-ask-error").textContent = "";
    $("follow-ask").dataset.code = code;
    $("follow-ask").hidden = false;
    $("follow-ask-yes").hidden ? $("follow-ask-no").focus() : $("follow-ask-yes").focus();
  } catch (error) { toast(error.message); }
}

async function follow(code) {
  const followed = await api("POST", "follows", { code });
  toast(t("Following “%@”.", followed.title));
  show("books");
}

export function setUpSharing(form) {
  const linked = new URLSearchParams(location.hash.slice(1)).get("follow");
  if (linked) {
    sessionStorage.setItem("vocab.follow", linked);
    history.replaceState(null, "", location.pathname);
  }
  $("follow-ask-yes").addEventListener("click", async () => {
    try {
      await follow($("follow-ask").dataset.code);
      $("follow-ask").hidden = true;
    } catch (error) { $("follow-ask-error").textContent = error.message; }
  });
  $("follow-ask-no").addEventListener("click", () => { $("follow-ask").hidden = true; });
  form("follow-form", "follow-error", async () => {
    await follow($("follow-code").value.trim());
    $("follow-code").value = "";
  });
  form("catalog-form", "catalog-error", async () => {
    const found = await api("GET", `v1/catalog?q=${encodeURIComponent($("catalog-query").value)}`);
    $("catalog-list").replaceChildren(...found.map((entry) =>
      item(entry.title, (entry.languages ? `[${entry.languages}] ` : "") + [t("by %@", entry.sharer), entry.words === 1 ? t("1 word") : t("%d words", entry.words),
        entry.followers === 1 ? t("1 follower") : t("%d followers", entry.followers)].join(" · "),
           () => follow(entry.code).catch((error) => { $("catalog-error").textContent = error.message; }))));
    if (found.length === 0) $("catalog-list").replaceChildren(element("li", t("No shared book matches."), "dim"));
  });
  $("book-share").addEventListener("click", async () => {
    const book = (await import("./words.js")).currentBook();
    try {
      const shared = await api("POST", `books/${book.id}/share`, {});  // its listing as it is
      $("share-link").value = shared.link;
      $("share-code").textContent = shared.code.match(/.{1,4}/g).join("-");
      $("share-info").hidden = false;
    } catch (error) { $("share-error").textContent = error.message; }
  });
  $("book-unshare").addEventListener("click", async () => {
    const book = (await import("./words.js")).currentBook();
    try {
      await api("DELETE", `v1/shares/${book.id}`);
      $("share-info").hidden = true;
      toast(t("“%@” is no longer shared.", book.name));
    } catch (error) { $("share-error").textContent = error.message; }
  });
  $("book-unfollow").addEventListener("click", async () => {
    const book = (await import("./words.js")).currentBook();
    if (!confirm(t("Stop following “%@”? It goes from your devices; copy it first to keep its words.", book.name))) return;
    try {
      await api("DELETE", `books/${book.id}/follow`);
      show("books");
    } catch (error) { $("shared-error").textContent = error.message; }
  });
}
