"""The account page in Chromium: register, log out, log in; the session cookie stays out of reach of scripts."""

from __future__ import annotations

from typing import Any


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
    assert page.get_by_test_id("account-error").inner_text() == "wrong name or password"
    login.locator("input[name=password]").fill("correct horse battery")
    page.get_by_test_id("login").click()
    page.wait_for_function("document.querySelector('[data-testid=account-status]').textContent.startsWith('Logged')")
    assert page.js_errors == []
