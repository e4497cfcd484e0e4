"""A first visit logs no console error (UI issue, item 8): no 401 from asking who the visitor is, no favicon 404."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import DESKTOP, PHONE

# path: whether it asks for a name
PAGES = {"/": True, "/index.html": True, "/rules.html": False, "/learn.html": False, "/matches.html": True}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_first_visit_logs_no_console_error(web_server: Any, browser: Any, viewport: dict[str, int]) -> None:
    ctx = browser.new_context(viewport=viewport)  # no cookie, no localStorage: a first visit
    try:
        page = ctx.new_page()
        problems: list[str] = []
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
        page.on("response", lambda r: problems.append(f"HTTP {r.status} {r.url}") if r.status >= 400 else None)
        # a request cut short by the next navigation (net::ERR_ABORTED) is no error of the page
        page.on("requestfailed", lambda r: None if "ERR_ABORTED" in (r.failure or "")
                else problems.append(f"failed {r.url}: {r.failure}"))
        for path, asks in PAGES.items():
            page.goto(web_server.base_url + path)
            page.wait_for_load_state("networkidle")
            page.get_by_test_id("nav-lobby").wait_for()
            if asks:  # the page asked who the visitor is, and, without a session, asks for a name
                page.get_by_test_id("name-form").wait_for()
            icon = page.evaluate("() => document.querySelector('link[rel=icon]').href")
            assert icon.endswith("/favicon.svg")
        assert problems == []
        # the icon is there
        status = page.evaluate("() => fetch('/favicon.svg').then((r) => [r.status, r.headers.get('content-type')])")
        assert status[0] == 200 and status[1].startswith("image/svg+xml")
        # after choosing a name, the lobby knows the player on the next load (the session still works)
        page.goto(web_server.base_url + "/")
        page.get_by_test_id("name-input").fill("Első Elek")
        page.get_by_test_id("name-submit").click()
        page.get_by_test_id("more-options").wait_for()
        page.reload()
        page.get_by_test_id("more-options").wait_for()
        assert page.get_by_test_id("name-form").count() == 0
        assert "Első Elek" in page.get_by_test_id("who").inner_text()
        page.wait_for_load_state("networkidle")
        assert problems == []
    finally:
        ctx.close()
