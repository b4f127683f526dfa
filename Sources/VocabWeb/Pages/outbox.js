// What the learner did while the server could not be reached — grades, new words, edits — waits
// here in IndexedDB, each with an id made on the phone, and is sent in the order it was made when
// the server answers again (at start, on the `online` event, when the page is shown again: Safari
// has no background sync). The server keeps each review's time and adds a word or a review it
// already has only once, so sending twice changes nothing.
import { api, ApiError, unreachable, meta } from "./api.js";

function withStore(mode, work) {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open("vocab", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("outbox", { keyPath: "id" });
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const transaction = opening.result.transaction("outbox", mode);
      const request = work(transaction.objectStore("outbox"));
      transaction.oncomplete = () => { opening.result.close(); resolve(request && request.result); };
      transaction.onerror = () => reject(transaction.error);
    };
  });
}

let sequence = Date.now() * 1000;

/** Keeps `entry` ({id, kind: "review"|"word"|"edit"|"delete", …}) until it is sent. */
export function keep(entry) {
  return withStore("readwrite", (store) => store.put({ ...entry, seq: ++sequence }));
}

/** What still waits, oldest first (entries from before kinds existed are reviews). */
export async function waiting() {
  const all = (await withStore("readonly", (store) => store.getAll())) || [];
  return all.map((entry) => ({ kind: "review", seq: 0, ...entry })).sort((a, b) => a.seq - b.seq);
}

/** Forgets everything that waits (the learner signed out). */
export const clear = () => withStore("readwrite", (store) => { store.clear(); });

const forget = (entries) => withStore("readwrite", (store) => { for (const entry of entries) store.delete(entry.id); });

function send(entry) {
  switch (entry.kind) {
    case "word": return api("POST", "words", { id: entry.id, bookId: entry.bookId, ...entry.fields });
    case "edit": return api("PUT", `words/${entry.wordId}`, entry.changes);
    case "delete": return api("DELETE", `words/${entry.wordId}`);
    default: throw new Error("unknown kind");
  }
}

let running = null;

/**
 * Sends what waits. A refusal that sending again cannot cure (a word already in the book, say)
 * drops that entry and is told to `refused(entry, message)`; no network stops until next time.
 */
export function flush(refused = () => {}) {
  running = running || (async () => {
    try {
      let entries = await waiting();
      while (entries.length > 0) {
        const reviews = [];
        for (const entry of entries) { if (entry.kind !== "review") break; reviews.push(entry); }
        const batch = reviews.length > 0 ? reviews.slice(0, (await meta()).reviewsPerRequest) : [entries[0]];
        try {
          if (reviews.length > 0) {
            await api("POST", "reviews", { reviews: batch.map(({ id, wordId, rating, at }) => ({ id, wordId, rating, at })) });
          } else {
            await send(batch[0]);
          }
        } catch (error) {
          if (unreachable(error) || !(error instanceof ApiError) || error.status === 401 || error.status >= 500 || error.status === 429) throw error;
          for (const entry of batch) refused(entry, error.message);
        }
        await forget(batch);
        entries = entries.slice(batch.length);
      }
    } finally {
      running = null;
    }
  })();
  return running;
}
