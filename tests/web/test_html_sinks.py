"""Escaping by construction: no value reaches the page's HTML parser except through web/js/html.js.

The page builds markup only with the tagged template ``html`…``` (every interpolated value is escaped)
and puts it into the DOM only with ``setHTML`` / ``updateHTML``, which refuse a plain string. So the
one place that may touch ``innerHTML`` (or any other HTML sink) is html.js itself; ``raw(…)``, the
way around the escaping, is allowed only where this file lists it with a reason; and a value is never
put into an unquoted attribute, where escaping would not keep it inside the attribute.

The scan reads every module under web/js and the inline scripts of the pages (web/*.html). It runs
without a browser; the browser side of the same promise is tests/web/test_escaping.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
HELPER = "js/html.js"

#: Everything that parses a string as HTML (or runs it as a document).
SINKS = re.compile(
    r"\.innerHTML\b|\.outerHTML\b|\binsertAdjacentHTML\b|\bsetHTMLUnsafe\b|\bparseHTMLUnsafe\b"
    r"|\bdocument\.write(?:ln)?\b|\bcreateContextualFragment\b|\bparseFromString\b|\.srcdoc\b"
)
#: The sinks allowed, by file and exact line, each with its reason. Nothing else may use one.
SINKS_ALLOWED: dict[tuple[str, str], str] = {
    (HELPER, "el.innerHTML = markup;"): (
        "setHTML / updateHTML: `markup` is the text of an Html object, made only by html`…` (values escaped) "
        "or raw(…) (listed below); a plain string is refused with a TypeError before this line"
    ),
}
#: The calls of raw(…) allowed, by file and exact line, each with its reason. None are needed today:
#: even the cards' SVG is built with html`…` from the internal card codes.
RAW_ALLOWED: dict[tuple[str, str], str] = {}
RAW_CALL = re.compile(r"(?<![\w$.])raw\s*\(")
#: A value in an attribute without quotes: ` title=${x}` (escaping does not stop a space or `>` there).
UNQUOTED_ATTRIBUTE = re.compile(r"\s[A-Za-z_:][-\w:.]*\s*=\s*\$\{")
COMMENT = re.compile(r"^\s*(//|\*|/\*)")


def sources() -> dict[str, str]:
    """Every script of the page by its path under web/: the modules, and the pages' inline scripts."""
    out = {str(p.relative_to(WEB)): p.read_text() for p in sorted(WEB.rglob("*.js"))}
    for page in sorted(WEB.glob("*.html")):
        inline = re.findall(r"<script\b[^>]*>(.*?)</script>", page.read_text(), flags=re.DOTALL)
        if any(s.strip() for s in inline):
            out[page.name] = "\n".join(inline)
    return out


def violations(path: str, text: str) -> list[str]:
    """What is wrong in one source: unlisted sinks, unlisted raw(…) calls, unquoted attribute values."""
    found: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        if COMMENT.match(line):
            continue
        code = line.strip()
        where = f"web/{path}:{number}: {code}"
        if SINKS.search(line) and (path, code) not in SINKS_ALLOWED:
            found.append(f"{where}\n    an HTML sink outside the helper: use setHTML(el, html`…`) from js/html.js")
        if RAW_CALL.search(line) and path != HELPER and (path, code) not in RAW_ALLOWED:
            found.append(f"{where}\n    raw(…) skips the escaping: list it in RAW_ALLOWED with a reason, or html`…`")
        if UNQUOTED_ATTRIBUTE.search(line):
            found.append(f'{where}\n    a value in an unquoted attribute: write name="${{…}}"')
    return found


def test_every_html_sink_is_the_helpers() -> None:
    found = [v for path, text in sources().items() for v in violations(path, text)]
    assert not found, "markup not built by construction:\n" + "\n".join(found)


def test_the_allowed_sinks_are_still_there() -> None:
    # An entry that no longer matches a line would hide nothing, but would mislead the next reader.
    texts = sources()
    for path, line in [*SINKS_ALLOWED, *RAW_ALLOWED]:
        assert line in [x.strip() for x in texts[path].splitlines()], (path, line)


def test_every_module_that_builds_markup_uses_the_helper() -> None:
    # Markup-looking template literals outside html`…` would be text at best: the helper is imported.
    for path, text in sources().items():
        if path == HELPER or not re.search(r"\b(setHTML|updateHTML)\(", text):
            continue
        assert re.search(r"import \{[^}]*\b(setHTML|updateHTML)\b[^}]*\} from \"[./]*(js/)?html\.js\"", text), path


def test_the_helper_refuses_plain_strings() -> None:
    helper = (WEB / HELPER).read_text()
    assert "instanceof Html" in helper and "throw new TypeError" in helper
    assert helper.count("el.innerHTML = markup;") == 2  # setHTML and updateHTML, after markupFor's check


@pytest.mark.parametrize(
    "line",
    [
        "list.innerHTML = `<li>${name}</li>`;",
        "el.innerHTML = esc(name);",
        "el.outerHTML = html;",
        'box.insertAdjacentHTML("beforeend", `<p>${text}</p>`);',
        "document.write(text);",
        "const frag = range.createContextualFragment(text);",
        'const doc = new DOMParser().parseFromString(text, "text/html");',
        "frame.srcdoc = text;",
        "setHTML(el, raw(`<b>${name}</b>`));",
        "return html`<span title=${name}>x</span>`;",
    ],
)
def test_the_scan_catches_markup_built_by_hand(line: str) -> None:
    # The promise above fails as soon as someone writes one of these anywhere in web/js.
    assert violations("js/lobby.js", f"function f() {{\n  {line}\n}}\n")


def test_the_scan_passes_markup_built_by_construction() -> None:
    ok = (
        'import { html, setHTML } from "./html.js";\n'
        'setHTML(list, html`<li title="${name}">${name}</li>`);\n'
        "history.replaceState(null, '', `/matches.html?t=${id}&k=${k}`);\n"
        "// el.innerHTML = x: a comment\n"
    )
    assert violations("js/lobby.js", ok) == []
