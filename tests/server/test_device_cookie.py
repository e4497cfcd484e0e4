"""The login throttle slows the guesser, not the owner: a browser that logged in before (its device
cookie) still logs in after failures from elsewhere, while unknown devices are refused as before."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx2
import pytest
import pytest_asyncio

from tests.server.conftest import ServerProcess
from ulti.accounts import devices

PASSWORD = "correct horse battery"
RIGHT = {"password": PASSWORD}


def browser_at(server: ServerProcess, address: str) -> httpx2.AsyncClient:
    """A browser on the server's page (cookies kept, this site's Origin) reaching it from ``address``.

    The test server trusts X-Forwarded-For from 127.0.0.1, as behind the proxy (docs/deploy.md).
    """
    return httpx2.AsyncClient(base_url=server.base_url, timeout=30,
                              headers={"origin": server.base_url, "x-forwarded-for": address})


async def login_from(server: ServerProcess, address: str, name: str, password: str) -> int:
    """A login without cookies from ``address`` (an unknown device); its status."""
    async with browser_at(server, address) as stranger:
        response = await stranger.post("/api/account/login", json={"name": name, "password": password})
    return response.status_code


@pytest_asyncio.fixture
async def owner(server: ServerProcess) -> AsyncIterator[httpx2.AsyncClient]:
    """The owner's browser: it registered ``Victim`` (so it holds a device cookie) and logged out."""
    async with browser_at(server, "10.0.0.1") as browser:
        registered = await browser.post("/api/account/register", json={"name": "Victim", **RIGHT})
        assert registered.status_code == 200, registered.text
        await browser.post("/api/account/logout", json={})
        yield browser


async def lock_out_unknown_devices(server: ServerProcess, name: str, failures: int = 20) -> list[int]:
    """``failures`` wrong passwords for ``name``, each from another address; their statuses."""
    return [await login_from(server, f"10.9.0.{i}", name, "wrong guess") for i in range(failures)]


@pytest.mark.asyncio
async def test_the_owners_browser_logs_in_after_20_failures_from_other_addresses_an_unknown_device_does_not(
    server: ServerProcess, owner: httpx2.AsyncClient
) -> None:
    codes = await lock_out_unknown_devices(server, "Victim")
    assert codes == [401] * 5 + [429] * 15  # the guesser is slowed as before
    # the right password from a device the account has never seen, from a fresh address: still refused
    assert await login_from(server, "10.8.0.1", "victim", PASSWORD) == 429
    # the owner's browser is judged by its own count only
    response = await owner.post("/api/account/login", json={"name": "Victim", **RIGHT})
    assert response.status_code == 200, response.text
    assert response.json()["player"]["name"] == "Victim"
    # logged in, it may change the password (asked again) although the name is locked for others
    changed = await owner.post("/api/account/password",
                               json={"current_password": PASSWORD, "new_password": "a new passphrase"})
    assert changed.status_code == 200, changed.text


@pytest.mark.asyncio
async def test_the_device_cookie_is_signed_http_only_strict_and_sent_to_account_routes_only(
    server: ServerProcess,
) -> None:
    async with browser_at(server, "10.0.0.2") as browser:
        registered = await browser.post("/api/account/register", json={"name": "Cookie Owner", **RIGHT})
    [header] = [h for h in registered.headers.get_list("set-cookie") if h.startswith(devices.COOKIE + "=")]
    attributes = {part.strip().split("=")[0].lower() for part in header.split(";")[1:]}
    assert {"httponly", "samesite", "path", "max-age"} <= attributes
    assert "samesite=strict" in header.lower() and "path=/api/account" in header.lower()
    value = header.split(";")[0].split("=", 1)[1]
    assert value.split(".")[0] == registered.json()["player"]["id"]  # bound to the account
    assert PASSWORD not in value and registered.json()["token"] not in value


@pytest.mark.asyncio
async def test_a_known_device_that_fails_itself_is_locked_like_any_other(
    server: ServerProcess, owner: httpx2.AsyncClient
) -> None:
    await lock_out_unknown_devices(server, "Victim", 6)
    for _ in range(5):  # the device's own allowance: five wrong passwords in a minute
        response = await owner.post("/api/account/login", json={"name": "Victim", "password": "wrong guess"})
        assert response.status_code == 401
    # over it, the device is trusted no more: counted per name, which guessers have filled
    response = await owner.post("/api/account/login", json={"name": "Victim", **RIGHT})
    assert response.status_code == 429 and response.json()["error"]["code"] == "too_many_failures"


@pytest.mark.asyncio
async def test_another_accounts_device_cookie_or_a_forged_one_is_no_device(
    server: ServerProcess, owner: httpx2.AsyncClient
) -> None:
    async with browser_at(server, "10.0.0.3") as other:
        assert (await other.post("/api/account/register", json={"name": "Other", **RIGHT})).status_code == 200
        others_cookie = other.cookies[devices.COOKIE]
    await lock_out_unknown_devices(server, "Victim", 6)
    genuine = owner.cookies[devices.COOKIE]
    player, device, mac = genuine.split(".")
    forged = [
        others_cookie,  # genuine, of another account
        f"{player}.{device}.{'0' * len(mac)}",  # a made-up signature
        f"{player}.{device}x.{mac}",  # another device id under the same signature
        genuine + "." + "a" * 200,  # too long, not three parts
    ]
    for cookie in forged:
        async with httpx2.AsyncClient(base_url=server.base_url, timeout=30, cookies={devices.COOKIE: cookie},
                                      headers={"origin": server.base_url, "x-forwarded-for": "10.0.0.1"}) as thief:
            response = await thief.post("/api/account/login", json={"name": "Victim", **RIGHT})
        assert response.status_code == 429, cookie
    assert (await owner.post("/api/account/login", json={"name": "Victim", **RIGHT})).status_code == 200
