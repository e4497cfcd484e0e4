"""The site installs on a phone's home screen: a web app manifest with icons drawn from the favicon, and a
service worker that keeps the static shell only (never an API answer) and opens the site offline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import CHROMIUM_ARGS, PHONE
from tests.web.driver import create_table, sign_in

READY = """() => navigator.serviceWorker.ready.then((r) => r.active.state === "activated" ? "activated"
  : new Promise((done) => r.active.addEventListener("statechange", (ev) => ev.target.state === "activated"
    && done("activated"))))"""
CACHED = """() => caches.keys().then((keys) => Promise.all(keys.map((k) => caches.open(k)
  .then((c) => c.keys()).then((reqs) => reqs.map((r) => new URL(r.url).pathname))))).then((lists) => lists.flat())"""


def test_the_manifest_names_the_app_and_its_icons_load(web_server: Any, new_page: Any) -> None:
    page = new_page(PHONE)
    page.goto(web_server.base_url + "/")
    href = page.evaluate("document.querySelector('link[rel=manifest]').href")
    response = page.request.get(href)
    assert response.ok and response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["name"] == "Ulti online" and manifest["short_name"] == "Ulti"
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/index.html"
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= set(sizes)
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        # each icon loads, as an image of the size the manifest says
        drawn = page.evaluate(
            """(src) => new Promise((done) => { const img = new Image();
                 img.onload = () => done([img.naturalWidth, img.naturalHeight]); img.onerror = () => done(null);
                 img.src = src; })""",
            icon["src"],
        )
        assert drawn is not None, icon["src"]
        if icon["sizes"] != "any":
            assert f"{drawn[0]}x{drawn[1]}" == icon["sizes"]
    assert page.evaluate("document.querySelector('meta[name=theme-color]').content")
    assert page.js_errors == []


def test_chromium_finds_the_site_installable(web_server: Any, browser: Any, tmp_path: Path) -> None:
    # a persistent profile: a browser offers no install in an incognito context (every new_context is one)
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, viewport=PHONE
    )
    try:
        page = context.new_page()
        page.goto(web_server.base_url + "/")
        assert page.evaluate(READY) == "activated"
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
    finally:
        context.close()


def test_the_service_worker_keeps_the_shell_only_and_opens_the_site_offline(web_server: Any, new_page: Any) -> None:
    page = new_page()
    sign_in(page, web_server.base_url, "Offline")
    assert page.evaluate(READY) == "activated"
    create_table(page, ("me", "bot.random", "bot.random"))
    page.wait_for_selector("[data-testid=table][data-my-turn='1']")
    page.evaluate("fetch('/api/tables').then((r) => r.json())")  # an API answer goes through the page
    page.wait_for_timeout(300)
    cached = page.evaluate(CACHED)
    assert {"/index.html", "/table.html", "/css/style.css", "/css/theme.css", "/manifest.webmanifest"} <= set(cached)
    assert "/js/table.js" in cached  # a script the page loaded, kept for an offline start
    assert not [path for path in cached if path.startswith("/api/") or path == "/ws"], cached
    # offline, the site still opens from the home screen: the shell comes from the cache
    page.context.set_offline(True)
    page.goto(web_server.base_url + "/index.html")
    page.get_by_test_id("brand").wait_for()
    assert page.get_by_test_id("settings-toggle").is_visible()
    page.context.set_offline(False)


def test_a_new_worker_version_replaces_the_old_shell_cache(web_server: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(web_server.base_url + "/rules.html")
    assert page.evaluate(READY) == "activated"
    # a cache left by an older version of the worker is deleted when this one takes over
    page.evaluate("caches.open('ulti-shell-v0').then((c) => c.put('/old.html', new Response('old')))")
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.unregister())")
    page.reload()
    assert page.evaluate(READY) == "activated"
    page.wait_for_function("caches.keys().then((k) => !k.includes('ulti-shell-v0'))")
    version = page.evaluate("caches.keys()")
    assert version == ["ulti-shell-v1"]
    assert page.js_errors == []
