"""The account page in Chromium: register, log out, log in; the session cookie stays out of reach of scripts."""

from __future__ import annotations

from typing import Any

import httpx2


def test_register_log_out_and_log_in_on_the_account_page(web_server: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(web_server.base_url + "/index.html")
    page.get_by_test_id("account-link").click()
    page.wait_for_url("**/account.html")
    status = page.get_by_test_id("account-status")
    page.wait_for_function("document.querySelector('[data-testid=account-status]').textContent.length > 0")
    assert status.inner_text() == "Not logged in."

    register = page.get_by_test_id("register-form")
    register.locator("input[name=name]").fill("Zsófi <b>")
    register.locator("input[name=password]").fill("correct horse battery")
    page.get_by_test_id("register").click()
    page.wait_for_function("document.querySelector('[data-testid=account-status]').textContent.startsWith('Logged')")
    assert status.inner_text() == "Logged in as Zsófi <b>."  # the name is text, not markup
    assert "ulti_session" not in page.evaluate("document.cookie")  # HttpOnly: no script can read it

    page.get_by_test_id("logout").click()
    page.wait_for_function("document.querySelector('[data-testid=account-status]').textContent === 'Not logged in.'")
    login = page.get_by_test_id("login-form")
    login.locator("input[name=name]").fill("zsófi <b>")
    login.locator("input[name=password]").fill("wrong password")
    page.get_by_test_id("login").click()
    page.get_by_test_id("account-error").wait_for(state="visible")
    assert page.get_by_test_id("account-error").inner_text() == "Wrong name or password."  # worded from its code
    login.locator("input[name=password]").fill("correct horse battery")
    page.get_by_test_id("login").click()
    page.wait_for_function("document.querySelector('[data-testid=account-status]').textContent.startsWith('Logged')")
    assert page.js_errors == []


def register_on_the_page(page: Any, base_url: str, name: str) -> None:
    """Register ``name`` (password "correct horse battery") through the account page's form; logged in."""
    page.goto(base_url + "/account.html")
    register = page.get_by_test_id("register-form")
    register.locator("input[name=name]").fill(name)
    register.locator("input[name=password]").fill("correct horse battery")
    page.get_by_test_id("register").click()
    page.wait_for_function("document.querySelector('[data-testid=account-status]').textContent.startsWith('Logged')")


def test_a_password_change_on_the_account_page_says_it_revokes_the_tokens_and_the_list_empties(
    web_server: Any, new_page: Any
) -> None:
    page = new_page()
    register_on_the_page(page, web_server.base_url, "Tokenes Teri")
    assert "every API token below is revoked" in page.get_by_test_id("password-note").inner_text()
    tokens = page.get_by_test_id("token-form")
    tokens.locator("input[name=name]").fill("my bot")
    page.get_by_test_id("create-token").click()
    page.get_by_test_id("token-list").locator("li").first.wait_for()
    assert "my bot" in page.get_by_test_id("token-list").inner_text()
    change = page.get_by_test_id("password-form")
    change.locator("input[name=current_password]").fill("correct horse battery")
    change.locator("input[name=new_password]").fill("a new passphrase")
    page.get_by_test_id("change-password").click()
    page.wait_for_function("document.querySelectorAll('[data-testid=token-list] li').length === 0")
    assert page.get_by_test_id("account-status").inner_text() == "Logged in as Tokenes Teri."
    assert page.js_errors == []


def test_the_owners_browser_logs_in_after_20_failures_from_other_addresses_a_new_browser_waits(
    web_server: Any, new_page: Any
) -> None:
    page = new_page()
    register_on_the_page(page, web_server.base_url, "Böngésző Bea")
    page.get_by_test_id("logout").click()
    page.wait_for_function("document.querySelector('[data-testid=account-status]').textContent === 'Not logged in.'")
    # a guesser, from 20 other addresses (the server trusts X-Forwarded-For from 127.0.0.1, as behind its proxy)
    with httpx2.Client(base_url=web_server.base_url, timeout=30) as guesser:
        codes = [guesser.post("/api/account/login", json={"name": "Böngésző Bea", "password": "wrong guess"},
                              headers={"x-forwarded-for": f"10.7.0.{i}"}).status_code for i in range(20)]
    assert codes == [401] * 5 + [429] * 15

    def log_in(browser_page: Any) -> None:
        login = browser_page.get_by_test_id("login-form")
        login.locator("input[name=name]").fill("böngésző bea")
        login.locator("input[name=password]").fill("correct horse battery")
        browser_page.get_by_test_id("login").click()

    stranger = new_page()  # another browser (no device cookie) with the right password waits
    stranger.goto(web_server.base_url + "/account.html")
    stranger.wait_for_function("document.querySelector('[data-testid=account-status]').textContent.length > 0")
    log_in(stranger)
    stranger.get_by_test_id("account-error").wait_for(state="visible")
    assert "too many password attempts" in stranger.get_by_test_id("account-error").inner_text().lower()
    log_in(page)  # the owner's browser gets in
    page.wait_for_function("document.querySelector('[data-testid=account-status]').textContent.startsWith('Logged')")
    assert page.get_by_test_id("account-status").inner_text() == "Logged in as Böngésző Bea."
    assert "ulti_device" not in page.evaluate("document.cookie")  # HttpOnly
    assert page.js_errors == [] and stranger.js_errors == []
