"""Browser tests of the web front end: a real server process and Debian's chromium through Playwright.

No pytest-playwright (docs/stack.md §7.1): a module-scoped browser fixture of our own, sync API, plain tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server per test module: bots wait 0.05 s (no trick pause: test_trick_pacing.py has its own server)
    and deals follow 0.3 s apart, so people could follow."""
    tmp = tmp_path_factory.mktemp("web")
    srv = ServerProcess(
        db_url=f"sqlite+aiosqlite:///{tmp / 'ulti.db'}",
        args=("--bot-delay", "0.05", "--between-deals", "0.3", "--disconnect-grace", "5", "--trick-pause", "0"),
    )
    srv.start(tmp / "server.log")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian chromium, headless, one per module (module scope releases the loop: docs/stack.md §7.1)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """A factory of pages, each in its own context (own cookies = own player); all closed afterwards."""
    contexts: list[Any] = []

    def make(viewport: dict[str, int] | None = None, lang: str = "en") -> Any:
        ctx = browser.new_context(viewport=viewport or DESKTOP)
        ctx.add_init_script(
            f"try {{ if (!localStorage.getItem('ulti.lang')) localStorage.setItem('ulti.lang', '{lang}'); }}"
            " catch (e) {}"
        )
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.js_errors = errors  # checked by the tests: no uncaught exception on any page
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="session", autouse=True)
def screenshot_dir() -> Path:
    """Screenshots are artifacts for people to look at (gitignored), never compared pixel by pixel."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
