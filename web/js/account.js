// The account page: register (a guest keeps their matches), log in and out, change the password, delete.
// Speaks docs/protocol/accounts.md §3.1; the session itself is the HttpOnly cookie, which this page never reads.
import { http } from "./api.js";
import { initPage, errorText } from "./common.js";
import { t, lang, onLangChange } from "./i18n.js";
import { html, setHTML } from "./html.js";

const $ = (id) => document.getElementById(id);

function fields(form) {
  return Object.fromEntries(new FormData(form).entries());
}

function showError(e) {
  const box = $("account-error");
  box.hidden = false;
  // worded from the refusal's code in the page's language (protocol §16), its wait included
  box.textContent = errorText(e);
}

async function refresh() {
  $("account-error").hidden = true;
  const who = await http("GET", "/api/whoami");
  let me = null;
  if (who && who.player) me = await http("GET", "/api/me");
  const status = $("account-status");
  if (me && me.kind === "account") {
    setHTML(status, html`${t("acct.status.account")} <strong>${me.name}</strong>.`);
  } else if (me) {
    setHTML(status, html`${t("acct.status.guest")} <strong>${me.name}</strong>.`);
  } else {
    setHTML(status, html`${t("acct.status.none")}`);
  }
  $("account-member").hidden = !(me && me.kind === "account");
  if (me && me.kind === "account") $("my-page-link").href = `/@/${encodeURIComponent(me.name)}`;
  $("account-guest").hidden = Boolean(me && me.kind === "account");
  if (me && me.kind === "account") await refreshTokens();
}

// Personal API tokens (docs/bot-api.md): listed without the token itself, which is shown once at creation.
async function refreshTokens() {
  const data = await http("GET", "/api/account/tokens");
  const when = (ms) => (ms ? new Date(ms).toLocaleString(lang() === "hu" ? "hu-HU" : "en-GB") : t("acct.tokens.never"));
  setHTML($("token-list"), html`${data.tokens.map((tk) => html`<li data-testid="token-${tk.id}">
    <strong>${tk.name}</strong> · ${tk.scopes.join(", ")} · ${t("acct.tokens.created", { when: when(tk.created_at) })} · ${t("acct.tokens.used", { when: when(tk.last_used_at) })}
    <button type="button" data-revoke="${tk.id}" data-testid="revoke-${tk.id}">${t("acct.tokens.revoke")}</button></li>`)}`);
  $("bot-status").textContent = data.bot ? t("acct.bot") : "";
}

$("token-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    const made = await http("POST", "/api/account/tokens", { name: form.get("name"), scopes: form.getAll("scope") });
    $("new-token").textContent = made.token;
    $("new-token-box").hidden = false;
    event.target.reset();
    await refreshTokens();
  } catch (e) {
    showError(e);
  }
});

$("token-list").addEventListener("click", async (event) => {
  const id = event.target.dataset && event.target.dataset.revoke;
  if (!id) return;
  try {
    await http("DELETE", `/api/account/tokens/${encodeURIComponent(id)}`);
    await refreshTokens();
  } catch (e) {
    showError(e);
  }
});

function onSubmit(id, method, path, after) {
  $(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await http(method, path, fields(event.target));
      event.target.reset();
      if (after) after();
      await refresh();
    } catch (e) {
      showError(e);
    }
  });
}

initPage("account");
onSubmit("register-form", "POST", "/api/account/register");
onSubmit("login-form", "POST", "/api/account/login");
onSubmit("password-form", "POST", "/api/account/password");
onSubmit("delete-form", "DELETE", "/api/account");
$("logout").addEventListener("click", async () => {
  try {
    await http("POST", "/api/account/logout", {});
    await refresh();
  } catch (e) {
    showError(e);
  }
});
refresh().catch(showError);
onLangChange(() => refresh().catch(showError));
