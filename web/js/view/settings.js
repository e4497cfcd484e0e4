// The settings panel, opened from the header of every page: sound, theme, card size and the pause
// after a trick, each a group of radio buttons that takes effect (and is remembered, prefs.js) at once.
import { t } from "../i18n.js";
import { html, setHTML } from "../html.js";
import { PREFS, getPref, setPref } from "../prefs.js";

/** The settings shown, in order, with the key prefix of their words. */
const SHOWN = [
  ["sound", "settings.sound"],
  ["theme", "settings.theme"],
  ["cardSize", "settings.cards"],
  ["trickPause", "settings.pause"],
];

function groupHtml(name, prefix) {
  const current = getPref(name);
  return html`<fieldset class="choice-row settings-group" data-testid="settings-${name}">
    <legend>${t(prefix)}</legend>
    ${PREFS[name].values.map((value) => html`<label><input type="radio" name="${name}" value="${value}"
      data-testid="settings-${name}-${value}" ${value === current ? "checked" : ""}> ${t(`${prefix}.${value}`)}</label>`)}
  </fieldset>`;
}

function dialog() {
  let dlg = document.getElementById("settings-dialog");
  if (!dlg) {
    dlg = document.createElement("dialog");
    dlg.id = "settings-dialog";
    dlg.className = "settings-dialog";
    dlg.dataset.testid = "settings-dialog";
    dlg.setAttribute("aria-labelledby", "settings-title");
    document.body.appendChild(dlg);
  }
  return dlg;
}

/** Draw the panel's contents (again: after a language change, or to show the values in force). */
export function renderSettings() {
  const dlg = dialog();
  setHTML(dlg, html`
    <div class="dialog-head">
      <h2 id="settings-title">${t("settings.title")}</h2>
      <button type="button" class="close" data-testid="settings-close">${t("table.close")}</button>
    </div>
    <form method="dialog" class="settings-form">
      ${SHOWN.map(([name, prefix]) => groupHtml(name, prefix))}
      <p class="muted">${t("settings.note")}</p>
    </form>`);
  dlg.querySelector("[data-testid=settings-close]").addEventListener("click", () => dlg.close());
  dlg.querySelectorAll("input[type=radio]").forEach((input) => {
    input.addEventListener("change", () => setPref(input.name, input.value));
  });
}

/** Open the settings panel as a modal dialog. */
export function openSettings() {
  renderSettings();
  const dlg = dialog();
  if (!dlg.open) dlg.showModal();
}
