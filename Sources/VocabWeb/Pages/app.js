// Vocab's web app: pairs the device, then shows the books, study and the game over /api/. Written
// by hand as ES modules (no framework, no build step); the service worker keeps it on the phone.
import { loadSession, setUpAccount } from "./account.js";
import { api, session, toast, unreachable } from "./api.js";
import { loadBooks, setUpBooks } from "./books.js";
import { loadCatalog, switchLanguage, t } from "./i18n.js";
import { $, show, showing } from "./nav.js";
import { flush } from "./outbox.js";
import { setUpGame } from "./game.js";
import { loadCard, setUpStudy } from "./study.js";
import { loadWords, setUpWords } from "./words.js";
import { followPending, setUpSharing } from "./sharing.js";
import { setUpProgress } from "./progress.js";

/**
 * A form whose submit runs `action`; a refusal shows in `errorId`, or under its field when the
 * server names one (an input `<form's prefix>-<field>`).
 */
function form(id, errorId, action) {
  $(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    $(errorId).textContent = "";
    for (const old of $(id).querySelectorAll(".field-error")) old.remove();
    try { await action(); } catch (error) {
      if (error.status === 401) return;  // the pairing page shows
      const message = unreachable(error) ? t("The server cannot be reached: try again when you are online.") : error.message;
      const input = error.field && $(id).querySelector(`[id$="-${error.field}"]`);
      if (input) {
        const note = document.createElement("p");
        note.className = "error field-error";
        note.setAttribute("role", "alert");
        note.textContent = message;
        input.after(note);
        input.focus();
      } else {
        $(errorId).textContent = message;
      }
    }
  });
}

async function pair(code) {
  await api("POST", "pair", { code });
  await loadSession();
  show("books");
}

// What was done offline is sent when the server answers again; what it refuses is said.
const sendWaiting = () => flush((entry, message) => toast(t("Not sent: %@", message))).catch(() => {});

let version = -1;
// A word added from the terminal or the window, or by a sync, shows within about a second.
async function poll() {
  if (!session.signedIn) return;  // the pairing or sign-in form shows: nothing to ask yet
  try {
    const { version: now } = await api("GET", "changes");
    if (version !== -1 && now !== version) {
      if (showing("books")) loadBooks().catch(() => {});
      if (showing("words")) loadWords().catch(() => {});
    }
    if (version === -1 || !$("offline").hidden) sendWaiting();
    version = now;
    connection(true);
  } catch (error) { if (unreachable(error)) connection(false); /* else not paired: the pairing page shows */ }
}

// Offline: the shell comes from the service worker; the page says the server cannot be reached.
function connection(online) { $("offline").hidden = online; }

form("pair-form", "pair-error", () => pair($("pair-code").value));
setUpBooks(form);
setUpWords(form);
setUpStudy();
setUpGame(form);
setUpAccount(form);
setUpSharing(form);
setUpProgress();
for (const button of document.querySelectorAll("#tabs button")) button.addEventListener("click", () => show(button.dataset.page));
window.addEventListener("online", () => { connection(true); sendWaiting(); poll(); });
window.addEventListener("offline", () => connection(false));
document.addEventListener("visibilitychange", () => { if (!document.hidden) sendWaiting(); });
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
$("language").addEventListener("click", () => switchLanguage().then(() => {
  if (showing("books")) loadBooks().catch(() => {});
  if (showing("study")) loadCard().catch(() => {});
  if (showing("progress")) show("progress");
}));

// A QR code from `vocab serve` opens this page with the code after "#pair=": paired at once.
const scanned = new URLSearchParams(location.hash.slice(1)).get("pair");
if (scanned) history.replaceState(null, "", location.pathname);
loadCatalog().then(async () => {
  if (scanned) { $("pair-code").value = scanned; await pair(scanned).catch(() => show("pair")); return; }
  // "#study", "#game" or "#progress" opens that page (a bookmark, the home screen's shortcut).
  const asked = ["study", "game", "progress"].includes(location.hash.slice(1)) ? location.hash.slice(1) : "books";
  try {
    if (!(await loadSession()).signedIn) return;
    connection(true);
    show(asked);
    await followPending();
  } catch (error) {
    if (unreachable(error)) { connection(false); show("study"); }  // offline: straight to the cards kept here
  }
  sendWaiting();
});
setInterval(poll, 1000);
