// The window's catalogue (its English text is the key), in the browser's language or the one chosen.
let catalog = {};

/** `text` in the page's language, with %d / %@ replaced by `values` in order and %% by % (as Sentence.fill). */
export function t(text, ...values) {
  let next = 0;
  return (catalog[text] || text).replace(/%([@d%])/g, (_, kind) => (kind === "%" ? "%" : String(values[next++] ?? "")));
}

export const language = () => document.documentElement.lang;

/** Loads the catalogue and words every element marked with data-t, data-t-placeholder or data-t-label. */
export async function loadCatalog() {
  const chosen = localStorage.getItem("vocab.language") || (navigator.language || "en").slice(0, 2);
  const answer = await fetch(`/catalog.json?lang=${encodeURIComponent(chosen)}`).then((r) => r.json())
    .catch(() => JSON.parse(localStorage.getItem("vocab.catalog") || '{"language": "en", "entries": {}}'));
  localStorage.setItem("vocab.catalog", JSON.stringify(answer));  // offline, the page keeps its language
  catalog = answer.entries || {};
  document.documentElement.lang = answer.language;
  for (const element of document.querySelectorAll("[data-t]")) element.textContent = t(element.dataset.t);
  for (const element of document.querySelectorAll("[data-t-placeholder]")) element.placeholder = t(element.dataset.tPlaceholder);
  for (const element of document.querySelectorAll("[data-t-label]")) element.setAttribute("aria-label", t(element.dataset.tLabel));
  document.getElementById("language").textContent = answer.language === "ko" ? "English" : "한국어";
}

export function switchLanguage() {
  localStorage.setItem("vocab.language", language() === "ko" ? "en" : "ko");
  return loadCatalog();
}
