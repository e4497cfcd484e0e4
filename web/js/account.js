// The account page: register (a guest keeps their matches), log in and out, change the password, delete.
// Speaks docs/protocol.md §3.2; the session itself is the HttpOnly cookie, which this page never reads.
import { http, ApiError } from "./api.js";
import { initPage } from "./common.js";
import { html, setHTML } from "./html.js";

const $ = (id) => document.getElementById(id);

function fields(form) {
  return Object.fromEntries(new FormData(form).entries());
}

function showError(e) {
  const box = $("account-error");
  box.hidden = false;
  let text = e instanceof ApiError ? e.message : String(e);
  if (e instanceof ApiError && e.args && e.args.retry_after) text += ` (${e.args.retry_after} s)`;
  box.textContent = text;
}

async function refresh() {
  $("account-error").hidden = true;
  const who = await http("GET", "/api/whoami");
  let me = null;
  if (who && who.player) me = await http("GET", "/api/me");
  const status = $("account-status");
  if (me && me.kind === "account") {
    setHTML(status, html`Logged in as <strong>${me.name}</strong>.`);
  } else if (me) {
    setHTML(status, html`Playing as the guest <strong>${me.name}</strong>.`);
  } else {
    setHTML(status, html`Not logged in.`);
  }
  $("account-member").hidden = !(me && me.kind === "account");
  if (me && me.kind === "account") $("my-page-link").href = `/@/${encodeURIComponent(me.name)}`;
  $("account-guest").hidden = Boolean(me && me.kind === "account");
  if (me && me.kind === "account") await refreshTokens();
}

// Personal API tokens (docs/bot-api.md): listed without the token itself, which is shown once at creation.
async function refreshTokens() {
  const data = await http("GET", "/api/account/tokens");
  const when = (ms) => (ms ? new Date(ms).toLocaleString() : "never");
  setHTML($("token-list"), html`${data.tokens.map((tk) => html`<li data-testid="token-${tk.id}">
    <strong>${tk.name}</strong> · ${tk.scopes.join(", ")} · created ${when(tk.created_at)} · last used ${when(tk.last_used_at)}
    <button type="button" data-revoke="${tk.id}" data-testid="revoke-${tk.id}">Revoke</button></li>`)}`);
  $("bot-status").textContent = data.bot ? "BOT: this is a bot account; it plays through the bot API only." : "";
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
