// The coach of learner tables (docs/protocol/analysis.md §22.4): the hint button and its answer (the expert
// bot's choice, the value of each alternative as a bar chart, or in the auction its bid and chance),
// and after each deal the link to its analysis with the deal's three costliest decisions as lessons; at
// the end of the match each seat's accuracy over it.
import { t } from "../i18n.js";
import { html } from "../html.js";
import { http } from "../api.js";
import { cardLabel } from "../cards.js";
import { nameOf, bidLabel } from "./names.js";
import { tableSeatName } from "./four.js";
import { altText, valuesChartHtml, lessonsHtml, matchAccuracyHtml, pollMatchAccuracy } from "./analysis.js";

const replayUrl = (S, k, i) => `/matches.html?t=${encodeURIComponent(S.tableId)}&k=${k}${i !== undefined ? `&i=${i}` : ""}`;

/** The hint button (learner tables, on this seat's turn) and the hint asked for this turn. */
export function hintHtml(S) {
  const st = S.state;
  if (!st.table.learner || st.you === null) return html``;
  const answer = S.hint && S.hint.turnKey === S.turnKey ? S.hint.msg : null;
  const button = html`<p><button type="button" class="small" data-do="hint" data-testid="hint-button" ${S.hintPending ? "disabled" : ""}>${t("hint.button")}</button></p>`;
  if (!answer) return button;
  if (answer.kind === "bid") {
    const best = ["pass", "take"].includes(answer.best) ? t(`act.${answer.best}`) : bidLabel(S, answer.best);
    const chance = answer.chance === null || answer.chance === undefined ? "" : html` · ${t("hint.chance", { n: Math.round(answer.chance * 100) })}`;
    // a bid from the talon: which two cards to lay away is half of the advice
    const discard = answer.discard && answer.discard.length === 2
      ? html`<p data-testid="hint-discard">${t("hint.discard", { a: cardLabel(answer.discard[0]), b: cardLabel(answer.discard[1]) })}</p>` : "";
    return html`${button}<div class="hint-box" data-testid="hint"><p data-testid="hint-best">${t("hint.title", { best })}${chance}</p>${discard}</div>`;
  }
  return html`${button}<div class="hint-box" data-testid="hint"><p data-testid="hint-best">${t("hint.title", { best: altText(answer.kind, answer.best) })}</p>
    ${valuesChartHtml(answer.kind, answer.values, answer.best, null, "hint-chart")}</div>`;
}

/** After a deal: the link to its analysis, and on learner tables its lessons (or the analysis's progress). */
export function afterDealHtml(S) {
  const st = S.state;
  const k = st.deal_index;
  const link = st.you !== null
    ? html`<p><a class="button small" href="${replayUrl(S, k)}" data-testid="analysis-link">${t("an.link")}</a></p>` : "";
  if (!st.table.learner || st.you === null) return link;
  const got = S.coach[k];
  if (!got || !got.analysis) {
    const p = got && got.progress ? got.progress : { done: 0, total: 0 };
    return html`${link}<p class="muted" data-testid="lessons-progress">${t("an.progress", { done: p.done, total: p.total })}</p>`;
  }
  const names = [0, 1, 2].map((s) => nameOf(S, s));
  return html`${link}<div class="lessons-box"><h4>${t("an.lessons")}</h4>${lessonsHtml(got.analysis, names, (i) => replayUrl(S, k, i))}</div>`;
}

/** Fetch (and poll) the finished deal's analysis for the lessons; `render` is called as it comes. */
export async function loadLessons(S, render) {
  const k = S.state.deal_index;
  if (S.coach[k]) return;
  S.coach[k] = { progress: null, analysis: null };
  for (let tries = 0; tries < 400; tries++) {
    let answer;
    try {
      answer = await http("GET", `/api/tables/${encodeURIComponent(S.tableId)}/deals/${k}/analysis`);
    } catch {
      return;
    }
    if (answer.status === "done") {
      S.coach[k].analysis = answer.analysis;
      render();
      return;
    }
    S.coach[k].progress = answer.progress;
    render();
    if (answer.status === "failed") return;
    await new Promise((resolve) => setTimeout(resolve, 800));
  }
}

/** At the end of the match: each seat's accuracy over its analysed deals (docs/protocol/analysis.md §22.5). */
export function matchEndHtml(S) {
  if (S.state.table.status !== "finished" || !S.matchAn) return html``;
  // a table of four's figures are by table seat (four of them): named from the table's own view
  const names = S.state.four ? [0, 1, 2, 3].map((s) => tableSeatName(S.state, s)) : [0, 1, 2].map((s) => nameOf(S, s));
  return matchAccuracyHtml(S.matchAn, names);
}

/** Fetch the match's figures once it is over (polled while its deals are analysed); `render` as they come. */
export function loadMatchAccuracy(S, render) {
  if (S.matchAnAsked) return;
  S.matchAnAsked = true;
  pollMatchAccuracy(S.tableId, (answer) => {
    S.matchAn = answer;
    render();
  });
}
