// Signing in with a cloud account (a server of many learners), the account's devices, the
// backups the cloud keeps of it (brought back here), and signing out — this device, another, or
// all of them. What this phone keeps of a learner (the
// shelf, the day's queue, the changes waiting to be sent) belongs to that learner: it is cleared
// when they sign out, and when someone else signs in here.
import { api, askToSignIn, element, item, session, toast } from "./api.js";
import { t } from "./i18n.js";
import { $, show, whenShown } from "./nav.js";
import { clear, waiting } from "./outbox.js";
import { followPending } from "./sharing.js";

/** Forgets what this phone keeps of the learner (not the page's language). */
async function forgetLearner() {
  for (const key of Object.keys(localStorage)) {
    if (key.startsWith("vocab.") && key !== "vocab.language" && key !== "vocab.catalog") localStorage.removeItem(key);
  }
  await clear();
}

/**
 * Asks the server whose session this is: signed in, the page goes on (on a server of many with
 * the Account tab); not, it shows the pairing code's or the account's form.
 */
export async function loadSession() {
  const answer = await api("GET", "session");
  if (!answer.signedIn) { askToSignIn(answer.signIn); return answer; }
  session.signedIn = true;
  session.mode = answer.mode;
  $("account-tab").hidden = answer.mode !== "cloud";
  $("follow-part").hidden = answer.mode !== "cloud";
  if (answer.mode === "cloud") $("account-name").textContent = answer.account;
  return answer;
}

async function signIn() {
  const user = $("signin-user").value.trim();
  await api("POST", "signin", { user, password: $("signin-password").value });
  $("signin-password").value = "";
  if (localStorage.getItem("vocab.account") !== user) await forgetLearner();
  localStorage.setItem("vocab.account", user);
  await loadSession();
  show("books");
  await followPending();
}

async function loadDevices() {
  $("account-error").textContent = "";
  const devices = await api("GET", "v1/devices");
  const list = $("device-list");
  list.replaceChildren(...devices.map((device) => {
    const when = new Date(device.created * 1000).toLocaleDateString();
    const seen = device.seen ? t("last seen %@", new Date(device.seen * 1000).toLocaleString()) : "";
    const row = item(device.label, [t("signed in %@", when), seen, device.this ? t("this device") : ""].filter(Boolean).join(" · "));
    if (!device.this) {
      const button = element("button", t("Sign out"), "signout");
      button.addEventListener("click", async () => {
        try { await api("DELETE", `v1/devices/${encodeURIComponent(device.id)}`); await loadDevices(); }
        catch (error) { $("account-error").textContent = error.message; }
      });
      row.append(button);
    }
    return row;
  }));
}

/** The backups the cloud keeps of the account (the words an Anki app's upload deleted), each with a button that brings it back. */
async function loadBackups() {
  const backups = await api("GET", "v1/backups");
  $("backups-part").hidden = backups.length === 0;
  $("backup-list").replaceChildren(...backups.map((backup) => {
    const row = item(new Date(backup.taken * 1000).toLocaleString(), t("Words deleted: %@", backup.words));
    const button = element("button", t("Bring back"), "restore");
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const restored = await api("POST", `v1/backups/${encodeURIComponent(backup.id)}/restore`);
        toast(t("Brought back: words %@, reviews %@.", restored.words, restored.reviews));
      } catch (error) { $("account-error").textContent = error.message; }
      button.disabled = false;
    });
    row.append(button);
    return row;
  }));
}

async function signOut(everywhere) {
  const unsent = (await waiting()).length;
  if (unsent > 0 && !confirm(t("%@ changes made offline have not been sent yet and will be lost. Sign out anyway?", unsent))) return;
  try {
    await api("POST", "v1/signout", { everywhere });
  } catch (error) {
    if (error.status !== 401) { $("account-error").textContent = error.message; return; }
  }
  await forgetLearner();
  localStorage.removeItem("vocab.account");
  $("account-tab").hidden = true;
  askToSignIn("account");
}

export function setUpAccount(form) {
  form("signin-form", "signin-error", signIn);
  whenShown("account", () => Promise.all([loadDevices(), loadBackups()]).catch((error) => { $("account-error").textContent = error.message; }));
  $("signout").addEventListener("click", () => signOut(false));
  $("signout-everywhere").addEventListener("click", () => signOut(true));
}
