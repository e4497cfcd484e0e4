// The account page's "Your bot accounts": an account owns a bot account by pasting one of the bot's API
// tokens (POST /api/account/bots, docs/bot-api.md §2); the waiting rooms of its tables then offer that bot.
import { http } from "./api.js";
import { errorText } from "./common.js";
import { t, onLangChange } from "./i18n.js";
import { html, setHTML } from "./html.js";

let mine = [];
let note = "";

function render() {
  const member = document.getElementById("account-member");
  if (!member) return;
  let box = document.getElementById("my-bots");
  if (!box) {
    box = document.createElement("section");
    box.id = "my-bots";
    box.dataset.testid = "my-bots";
    member.appendChild(box);
  }
  setHTML(box, html`<h2>${t("account.bots.title")}</h2>
    <p>${t("account.bots.text")}</p>
    <ul class="token-list" data-testid="my-bot-list">${mine.length
      ? mine.map((b) => html`<li data-testid="my-bot">${b.name} [BOT]</li>`)
      : html`<li class="muted">${t("account.bots.none")}</li>`}</ul>
    <form id="claim-bot-form" data-testid="claim-bot-form">
      <label class="field"><span>${t("account.bots.token")}</span>
        <input name="token" required autocomplete="off" spellcheck="false" data-testid="claim-bot-token"></label>
      <button type="submit" data-testid="claim-bot">${t("account.bots.add")}</button>
    </form>
    <p class="form-error" role="alert" data-testid="claim-bot-error">${note}</p>`);
  box.querySelector("form").addEventListener("submit", onClaim);
}

async function refresh() {
  try {
    mine = (await http("GET", "/api/bots/seatable")).bots.filter((b) => b.mine);
  } catch {
    mine = [];
  }
  render();
}

async function onClaim(ev) {
  ev.preventDefault();
  const token = new FormData(ev.target).get("token").trim();
  try {
    await http("POST", "/api/account/bots", { token });
    note = "";
  } catch (e) {
    note = errorText(e);
  }
  await refresh();
}

refresh();
onLangChange(render);
