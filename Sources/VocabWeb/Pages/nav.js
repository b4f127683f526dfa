// Which page shows; each page says what to do when it is shown.
const pages = ["pair", "books", "words", "study", "game", "progress", "account"];
const onShown = {};

export const $ = (id) => document.getElementById(id);

export function whenShown(page, load) { onShown[page] = load; }

export function show(page) {
  for (const name of pages) $(name).hidden = name !== page;
  $("tabs").hidden = page === "pair";
  if (onShown[page]) onShown[page]();
}

export const showing = (page) => !$(page).hidden;
