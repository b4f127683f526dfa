// The server's JSON API. Every write says it comes from this page (a header no other site's form
// can send); a refusal comes back as an Error with the server's message (in the page's language
// when the catalogue has it) and the field it concerns.
import { language, t } from "./i18n.js";
import { show } from "./nav.js";

export class ApiError extends Error {
  constructor(message, status, field) { super(message); this.status = status; this.field = field; }
}

/** Whether `error` means the server could not be reached (not a refusal). */
export const unreachable = (error) => error instanceof TypeError;

/** Whether this device is paired or signed in, as far as the page knows (no polling before). */
export const session = { signedIn: false };

/**
 * Shows how this device gets in: a server of many learners signs in with an account
 * (`how` "account"), one learner's server pairs with a code.
 */
export function askToSignIn(how) {
  session.signedIn = false;
  const account = how === "account";
  document.getElementById("pair-part").hidden = account;
  document.getElementById("signin-part").hidden = !account;
  show("pair");
}

export async function api(method, path, body, { raw = false } = {}) {
  // The page's language: a refusal naming a book or a word comes worded in it.
  const headers = method === "GET" ? { "X-Vocab-Language": language() } : { "X-Vocab-Request": "1", "X-Vocab-Language": language() };
  if (body !== undefined && !raw) headers["Content-Type"] = "application/json";
  const response = await fetch("/api/" + path, {
    method, credentials: "same-origin", headers,
    body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let data = {};
  try { data = text ? JSON.parse(text) : {}; } catch (_) { data = { error: response.statusText }; }
  if (response.status === 401) askToSignIn(data.signIn);
  if (!response.ok) throw new ApiError(t(data.error || response.statusText), response.status, data.field);
  return data;
}

let metaAsked = null;
/**
 * The server's bounds and names (`GET /api/meta`: the ratings, how many reviews one request
 * takes, …), asked once per load and kept for a load with no network.
 */
export function meta() {
  metaAsked = metaAsked || api("GET", "meta").then((answer) => {
    localStorage.setItem("vocab.meta", JSON.stringify(answer));
    return answer;
  }).catch((error) => {
    metaAsked = null;
    const kept = localStorage.getItem("vocab.meta");
    if (kept) return JSON.parse(kept);
    throw error;
  });
  return metaAsked;
}

/** A small element: `tag` with `text`, and `className` when given. */
export function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

/** A list row that is one big button (or an inert row without `onClick`), with a picture when given. */
export function item(text, detail, onClick, picture) {
  const li = element("li");
  const button = element("button", text);
  if (picture) {
    const image = element("img", undefined, "cover");
    image.src = picture;
    image.alt = "";
    button.prepend(image);
  }
  if (detail) button.append(element("div", detail, "dim"));
  if (onClick) button.addEventListener("click", onClick); else button.disabled = true;
  li.append(button);
  return li;
}

let toastTimer = 0;
/** A short note at the bottom of the screen. */
export function toast(text) {
  const note = document.getElementById("toast");
  note.textContent = text;
  note.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { note.hidden = true; }, 4000);
}
