// The leaderboard: the top 100 rated players (GET /api/leaderboard), and where the viewer stands.
import { initPage, errorText } from "./common.js";
import { t, onLangChange } from "./i18n.js";
import { html, setHTML } from "./html.js";
import { fetchLeaderboard, playerLink, playerUrl, ratingHtml } from "./players.js";

const $ = (id) => document.getElementById(id);
let data = null;

function renderMe(me) {
  const box = $("leaderboard-me");
  box.hidden = !me;
  if (!me) return;
  if (!me.account) setHTML(box, html`${t("leaderboard.me.guest")} <a href="/account.html">${t("player.account")}</a>`);
  else if (me.rank === null) setHTML(box, html`${t("leaderboard.me.unranked")} <a href="${playerUrl(me.name)}" data-testid="my-page">${me.name}</a>`);
  else {
    setHTML(box, html`${t("leaderboard.me", { rank: me.rank })} ${ratingHtml(me.rating, me.provisional)}
      · <a href="${playerUrl(me.name)}" data-testid="my-page">${me.name}</a>`);
  }
}

function render() {
  if (!data) return;
  renderMe(data.me);
  if (!data.players.length) {
    setHTML($("leaderboard-table"), html`<p class="muted">${t("leaderboard.empty")}</p>`);
  } else {
    const mine = data.me && data.me.account ? data.me.name : null;
    setHTML($("leaderboard-table"), html`<table class="stats-table leaderboard-list">
      <thead><tr><th scope="col">#</th><th scope="col">${t("leaderboard.name")}</th>
        <th scope="col">${t("leaderboard.rating")}</th><th scope="col">${t("leaderboard.matches")}</th></tr></thead>
      <tbody>${data.players.map((p) => html`<tr data-testid="leaderboard-row" class="${p.name === mine ? "me" : ""}">
        <td>${p.rank}</td><td>${playerLink(p.name, p.bot)}</td><td>${ratingHtml(p.rating, p.provisional)}</td><td>${p.matches}</td></tr>`)}</tbody>
    </table>`);
  }
  document.querySelector("[data-testid=leaderboard]").dataset.loaded = "1";
}

async function main() {
  initPage("leaderboard");
  onLangChange(render);
  data = await fetchLeaderboard();
  render();
}

main().catch((e) => {
  const box = $("leaderboard-error");
  box.hidden = false;
  box.textContent = errorText(e);
});
