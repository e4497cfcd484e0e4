// HTML built by construction: the one module that writes markup into the page.
//
//   html`<li>${name}</li>`        every interpolated value is escaped: strings, numbers, booleans;
//                                 null / undefined give nothing; an array gives its items one after
//                                 the other, each escaped or itself an html`…` result
//   html`<ul>${items.map((x) => html`<li>${x}</li>`)}</ul>`   fragments nest as they are
//   raw(trusted)                  markup this page made itself and vouches for (none today): passes as is
//   setHTML(el, h)                put an html`…` result into an element (a plain string is refused)
//   updateHTML(el, h)             the same, only when it differs from what this function put there
//                                 last: no flicker, focus and hover survive, clicks are not lost
//
// Only attribute values in quotes are safe places for a value: `title="${x}"`, never `title=${x}`.
// tests/web/test_html_sinks.py checks that no other module touches innerHTML and the like.

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** A piece of markup that is safe to put into the page as it is. Made only by html`…` and raw(). */
class Html {
  constructor(markup) {
    this.markup = markup;
    Object.freeze(this);
  }

  toString() {
    return this.markup;
  }
}

/** Text with the five characters that mean something in HTML (& < > " ') replaced by entities. */
export function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

function markupOf(value) {
  if (value instanceof Html) return value.markup;
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(markupOf).join("");
  return escapeHtml(value);
}

/** The tag: the literal parts of the template are markup, every `${value}` is text (see the top). */
export function html(strings, ...values) {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += markupOf(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Markup taken as it is: only for fragments this page built itself from no outside value. */
export function raw(trusted) {
  return new Html(String(trusted ?? ""));
}

/** Is `value` an html`…` / raw() result? */
export function isHtml(value) {
  return value instanceof Html;
}

function markupFor(el, h) {
  if (!(h instanceof Html)) throw new TypeError("setHTML/updateHTML take html`…` or raw(…), not a string");
  if (!el) throw new TypeError("setHTML/updateHTML need an element");
  return h.markup;
}

/** Replace the content of `el` with `h` (an html`…` result). */
export function setHTML(el, h) {
  const markup = markupFor(el, h);
  el._html = markup;
  el.innerHTML = markup;
}

/** Replace the content of `el` only when `h` differs from the last markup put there; true when it did. */
export function updateHTML(el, h) {
  const markup = markupFor(el, h);
  if (el._html === markup) return false;
  el._html = markup;
  el.innerHTML = markup;
  return true;
}

/** The items (html`…` results or text) one after the other with `separator` (text or html`…`) between them. */
export function join(items, separator) {
  return html`${items.map((item, i) => (i ? html`${separator}${item}` : item))}`;
}
