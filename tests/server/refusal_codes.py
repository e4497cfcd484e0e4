"""Every refusal the server can answer with, collected from the source, and the page's words for them.

The engine's rule codes come from its registry (``ulti.engine.errors.RULES``); the server's error
codes are collected from the source (``CommandError("…"``, ``BadInput("…"``, ``"code": "…"``, the
HTTP guard's and the framework's refusals) and from the complete list in docs/protocol/errors.md §16.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER_SOURCES = sorted((ROOT / "ulti" / "server").glob("*.py"))
I18N = ROOT / "web" / "js" / "i18n.js"  # the wording functions and the phrase keys
I18N_DICTIONARIES = ROOT / "web" / "js" / "i18n"  # one dictionary per language
PROTOCOL = ROOT / "docs" / "protocol" / "errors.md"  # §16: the complete list of error codes

#: the values (``args``) each server error code carries; every other code carries none
ERROR_ARGS: dict[str, set[str]] = {
    "already_seated": {"seat"},
    "name_taken": {"name"},
    "reserved": {"seat"},
    "seat_taken": {"seat"},
    "seats_empty": {"seats"},
    "invite_pending": {"seats"},
    "not_your_turn": {"seat"},
    "not_waiting": {"seat"},
    "wait_longer": {"retry_after"},
    "rate_limited": {"retry_after"},
    "too_many_connections": {"limit"},
    "too_large": {"max_bytes"},
    "too_deep": {"max_depth"},
    "too_many_failures": {"retry_after"},
    "work_quota": {"retry_after", "kind"},
    "no_worker": {"seconds"},
    "account_busy": {"tables"},
}
#: codes the page makes itself (api.js: the server could not be reached)
CLIENT_CODES = {"network"}

_CODE_PATTERNS = [
    re.compile(r"\b(?:CommandError|BadInput)\(\s*\"([a-z_]+)\""),  # raise CommandError("seat_taken", ...)
    re.compile(r"\bcls\(\s*\"([a-z_]+)\""),  # CommandError.illegal: cls("illegal", ...)
    re.compile(r"\"code\":\s*\"([a-z_]+)\""),  # {"type": "error", "code": "internal", ...}
    re.compile(r"\breturn\s+\d{3},\s*\"([a-z_]+)\""),  # the HTTP guard's refusals: return 413, "too_large", ...
    re.compile(r"\b_answer\(send,\s*\d{3},\s*\"([a-z_]+)\""),
    re.compile(r"\b\d{3}:\s*\"([a-z_]+)\""),  # {404: "not_found", 405: "method_not_allowed"}
    re.compile(r"status_code,\s*\"([a-z_]+)\"\)"),  # .get(exc.status_code, "http_error")
    re.compile(r"\brefused_code\(\"([a-z_]+)\"\)"),
    re.compile(r"\bcode: str = \"([a-z_]+)\""),  # clean_text(..., code="bad_chat")
]
_FIELD_CODES = re.compile(r"_FIELD_CODES\s*=\s*\{([^}]*)\}")


def server_error_codes() -> set[str]:
    """Every error code a server module names in a refusal."""
    codes: set[str] = set()
    for path in SERVER_SOURCES:
        text = path.read_text()
        for pattern in _CODE_PATTERNS:
            codes.update(pattern.findall(text))
        for table in _FIELD_CODES.findall(text):
            codes.update(re.findall(r":\s*\"([a-z_]+)\"", table))
    return codes


def protocol_error_codes() -> set[str]:
    """The codes of docs/protocol/errors.md §16 (the complete list of error codes)."""
    text = PROTOCOL.read_text()
    section = text.split("## 16. Error codes", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    return set(re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE))


def i18n_dictionary(lang: str) -> dict[str, str]:
    """The quoted ``"key": "text"`` entries of the page's dictionary web/js/i18n/{lang}.js."""
    text = (I18N_DICTIONARIES / f"{lang}.js").read_text()
    body = text.split(f"const {lang} = {{", 1)[1].split("\n};", 1)[0]
    return dict(re.findall(r"\"([^\"]+)\":\s*\"((?:[^\"\\]|\\.)*)\"", body))


def placeholders(template: str) -> set[str]:
    """The ``{name}`` fields of a page template."""
    return set(re.findall(r"\{(\w+)\}", template))
