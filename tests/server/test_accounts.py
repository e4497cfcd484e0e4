"""Accounts over a real server process: register, log in and out, change the password, delete; the
sessions that end with them on HTTP and on the WebSocket; origin checks; the login guard."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest
import pytest_asyncio
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.server.conftest import ServerProcess
from ulti.client import GameClient, play_randomly

PASSWORD = "correct horse battery"


@pytest_asyncio.fixture
async def browser(server: ServerProcess) -> AsyncIterator[httpx2.AsyncClient]:
    """A browser on the server's own page: it keeps cookies and sends this site's Origin."""
    async with httpx2.AsyncClient(base_url=server.base_url, timeout=30, headers={"origin": server.base_url}) as http:
        yield http


async def call(server: ServerProcess, method: str, path: str, token: str = "", **kwargs: Any) -> httpx2.Response:
    """One request without cookies (a tool), authenticated by ``token`` as a bearer when given."""
    headers = dict(kwargs.pop("headers", {}))
    if token:
        headers["authorization"] = f"Bearer {token}"
    async with httpx2.AsyncClient(base_url=server.base_url, timeout=30) as http:
        return await http.request(method, path, headers=headers, **kwargs)


def error_of(response: httpx2.Response) -> dict[str, Any]:
    """The error object of a JSON error answer."""
    error: dict[str, Any] = response.json()["error"]
    return error


async def register(server: ServerProcess, name: str, password: str = PASSWORD) -> dict[str, Any]:
    """A new account (no guest session before it); its answer."""
    response = await call(server, "POST", "/api/account/register", json={"name": name, "password": password})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def socket_refused(server: ServerProcess, token: str) -> bool:
    """Whether the WebSocket handshake with ``token`` is refused."""
    try:
        async with connect(server.base_url.replace("http", "ws", 1) + f"/ws?token={token}") as ws:
            await asyncio.wait_for(ws.recv(), 5)  # the welcome
    except InvalidStatus:
        return True
    return False


async def wait_closed_with(ws: Any, code: str) -> dict[str, Any]:
    """The error ``code`` a socket is told before the server closes it."""
    told: dict[str, Any] = {}
    with pytest.raises(ConnectionClosed):
        async with asyncio.timeout(10):
            while True:
                message = json.loads(await ws.recv())
                if message.get("type") == "error":
                    told = message
    assert told.get("code") == code, told
    return told


# ---------------------------------------------------------------- 1. accounts


@pytest.mark.asyncio
async def test_a_guest_who_registers_keeps_their_id_and_matches_and_their_guest_token_stops_working(
    server: ServerProcess, browser: httpx2.AsyncClient
) -> None:
    guest = (await browser.post("/api/session", json={"name": "Anna"})).json()
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
    table = (await browser.post("/api/tables", json={"deals": 6, "seats": seats})).json()
    assert (await browser.get("/api/me")).json()["kind"] == "guest"

    response = await browser.post("/api/account/register", json={"name": "Anna K", "password": PASSWORD})
    assert response.status_code == 200, response.text
    account = response.json()
    assert account["player"] == {"id": guest["player"]["id"], "name": "Anna K", "kind": "account"}
    assert account["token"] != guest["token"] and browser.cookies["ulti_session"] == account["token"]
    assert (await browser.get("/api/me")).json() == {
        "id": guest["player"]["id"], "name": "Anna K", "kind": "account",
        "rating": {"value": 1500, "provisional": True, "matches": 0},  # a newcomer's (docs/protocol/players.md §20.3)
    }
    matches = (await browser.get("/api/me/matches")).json()["matches"]
    assert [m["table_id"] for m in matches] == [table["table_id"]]
    # the old guest token names the same player: it would outlive every logout, so it is refused
    assert (await call(server, "GET", "/api/me", guest["token"])).status_code == 401
    assert await socket_refused(server, guest["token"])
    # logged in to an account, one does not register another
    again = await browser.post("/api/account/register", json={"name": "Other", "password": PASSWORD})
    assert again.status_code == 409 and error_of(again)["code"] == "already_account"


@pytest.mark.asyncio
async def test_names_are_unique_whatever_their_case_and_bad_names_and_passwords_are_refused_clearly(
    server: ServerProcess,
) -> None:
    await register(server, "Béla")
    for taken in ("béla", "BÉLA", " Béla "):
        response = await call(server, "POST", "/api/account/register", json={"name": taken, "password": PASSWORD})
        assert response.status_code == 409 and error_of(response)["code"] == "name_registered", response.text
    cases = [
        ({"name": "", "password": PASSWORD}, "bad_name", "1 to 32 characters"),
        ({"name": "x" * 33, "password": PASSWORD}, "bad_name", "1 to 32 characters"),
        ({"name": "admin", "password": PASSWORD}, "bad_name", "reserved"),
        ({"name": "Deleted Player", "password": PASSWORD}, "bad_name", "reserved"),
        ({"name": "Cili", "password": "short"}, "bad_password", "8 to 256 characters"),
        ({"name": "Cili", "password": 12345678}, "bad_password", "must be a string"),
    ]
    for body, code, words in cases:
        response = await call(server, "POST", "/api/account/register", json=body)
        assert response.status_code == 400, response.text
        assert error_of(response)["code"] == code and words in error_of(response)["message"]
    # 32 characters is the longest name
    assert (await register(server, "y" * 32))["player"]["name"] == "y" * 32
    # nor may a guest take an account's name, whatever its case
    response = await call(server, "POST", "/api/session", json={"name": "BÉLA"})
    assert response.status_code == 409 and error_of(response)["code"] == "name_registered", response.text
    assert (await call(server, "POST", "/api/session", json={"name": "Béla the guest"})).status_code == 200


# ---------------------------------------------------------------- 2. sessions that end


@pytest.mark.asyncio
async def test_logout_ends_the_session_on_http_and_on_the_websocket(server: ServerProcess) -> None:
    token = (await register(server, "Dóra"))["token"]
    ws = await connect(server.base_url.replace("http", "ws", 1) + f"/ws?token={token}")
    assert json.loads(await ws.recv())["type"] == "welcome"
    response = await call(server, "POST", "/api/account/logout", token, json={})
    assert response.status_code == 200 and response.json() == {"ok": True, "ended": True}
    assert "ulti_session=" in response.headers["set-cookie"] and "Max-Age=0" in response.headers["set-cookie"]
    await wait_closed_with(ws, "session_ended")  # the open socket is told and closed at once
    assert (await call(server, "GET", "/api/me", token)).status_code == 401
    assert (await call(server, "POST", "/api/tables", token, json={"deals": 6})).status_code == 401
    assert await socket_refused(server, token)
    # the account itself is fine: a new login works
    login = await call(server, "POST", "/api/account/login", json={"name": "dóra", "password": PASSWORD})
    assert login.status_code == 200 and not await socket_refused(server, login.json()["token"])


@pytest.mark.asyncio
async def test_a_password_change_ends_every_session_and_gives_the_changer_a_new_one(server: ServerProcess) -> None:
    first = (await register(server, "Erik"))["token"]
    login = await call(server, "POST", "/api/account/login", json={"name": "Erik", "password": PASSWORD})
    second = login.json()["token"]
    ws = await connect(server.base_url.replace("http", "ws", 1) + f"/ws?token={second}")
    assert json.loads(await ws.recv())["type"] == "welcome"
    wrong = await call(server, "POST", "/api/account/password", first,
                       json={"current_password": "not it at all", "new_password": "a new secret"})
    assert wrong.status_code == 403 and error_of(wrong)["code"] == "wrong_password"
    changed = await call(server, "POST", "/api/account/password", first,
                         json={"current_password": PASSWORD, "new_password": "a new secret"})
    assert changed.status_code == 200, changed.text
    fresh = changed.json()["token"]
    assert fresh not in (first, second) and f"ulti_session={fresh}" in changed.headers["set-cookie"]
    await wait_closed_with(ws, "session_ended")
    for old in (first, second):
        assert (await call(server, "GET", "/api/me", old)).status_code == 401
        assert await socket_refused(server, old)
    assert (await call(server, "GET", "/api/me", fresh)).json()["name"] == "Erik"
    assert not await socket_refused(server, fresh)
    old_password = await call(server, "POST", "/api/account/login", json={"name": "Erik", "password": PASSWORD})
    assert old_password.status_code == 401
    new_password = await call(server, "POST", "/api/account/login", json={"name": "Erik", "password": "a new secret"})
    assert new_password.status_code == 200


@pytest.mark.asyncio
async def test_a_login_issues_a_new_session_id_and_ends_the_one_the_client_brought(
    server: ServerProcess, browser: httpx2.AsyncClient
) -> None:
    registered = await browser.post("/api/account/register", json={"name": "Feri", "password": PASSWORD})
    before = registered.json()["token"]
    cookie = registered.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    again = await browser.post("/api/account/login", json={"name": "Feri", "password": PASSWORD})
    after = again.json()["token"]
    assert after != before and browser.cookies["ulti_session"] == after
    assert (await call(server, "GET", "/api/me", before)).status_code == 401
    assert (await browser.get("/api/me")).json()["kind"] == "account"


@pytest.mark.asyncio
async def test_a_cross_origin_post_with_the_session_cookie_is_refused(
    server: ServerProcess, browser: httpx2.AsyncClient
) -> None:
    await browser.post("/api/account/register", json={"name": "Gabi", "password": PASSWORD})
    evil = {"origin": "https://evil.example"}
    for method, path, body in (
        ("POST", "/api/account/logout", {}),
        ("POST", "/api/account/password", {"current_password": PASSWORD, "new_password": "taken over!"}),
        ("DELETE", "/api/account", {"password": PASSWORD}),
        ("POST", "/api/account/login", {"name": "Gabi", "password": PASSWORD}),
    ):
        response = await browser.request(method, path, json=body, headers=evil)
        assert response.status_code == 403 and error_of(response)["code"] == "bad_origin", (path, response.text)
    # nothing happened: the session lives and the password is unchanged
    assert (await browser.get("/api/me")).json()["name"] == "Gabi"
    login = await call(server, "POST", "/api/account/login", json={"name": "Gabi", "password": PASSWORD})
    assert login.status_code == 200
    # another site cannot log a visitor (no cookie yet) into an account of its own either
    response = await call(server, "POST", "/api/account/login", json={"name": "Gabi", "password": PASSWORD},
                          headers=evil)
    assert response.status_code == 403 and error_of(response)["code"] == "bad_origin"


# ---------------------------------------------------------------- 3. login protection


@pytest.mark.asyncio
async def test_a_wrong_password_is_answered_the_same_for_a_known_and_an_unknown_name(server: ServerProcess) -> None:
    await register(server, "Hanna")
    answers = []
    for name in ("Hanna", "Nobody Here"):
        started = time.perf_counter()
        response = await call(server, "POST", "/api/account/login", json={"name": name, "password": "wrong guess"})
        answers.append((response.status_code, response.content, time.perf_counter() - started))
    (known_status, known_body, _), (unknown_status, unknown_body, unknown_time) = answers
    assert known_status == unknown_status == 401
    assert known_body == unknown_body == b'{"error":{"code":"bad_credentials","message":"wrong name or password"}}'
    # the unknown name was checked against a dummy Argon2 hash too (tens of milliseconds, not a lookup's one)
    assert unknown_time > 0.02


@pytest.mark.asyncio
async def test_repeated_failures_are_refused_per_name_saying_when_to_try_again(server: ServerProcess) -> None:
    await register(server, "Ica")
    for _ in range(5):
        response = await call(server, "POST", "/api/account/login", json={"name": "ica", "password": "wrong guess"})
        assert response.status_code == 401
    for password in ("wrong guess", PASSWORD):  # while refused, even the right password waits
        response = await call(server, "POST", "/api/account/login", json={"name": "ICA", "password": password})
        assert response.status_code == 429, response.text
        error = error_of(response)
        assert error["code"] == "too_many_failures"
        assert 1 <= error["args"]["retry_after"] <= 60 and response.headers["retry-after"] == str(
            error["args"]["retry_after"]
        )
        assert f"try again in {error['args']['retry_after']} s" in error["message"]
    # an unknown name is limited the same way (the limit tells nobody which names exist)
    for _ in range(5):
        assert (await call(server, "POST", "/api/account/login",
                           json={"name": "ghost", "password": "wrong guess"})).status_code == 401
    response = await call(server, "POST", "/api/account/login", json={"name": "ghost", "password": "wrong guess"})
    assert response.status_code == 429 and error_of(response)["code"] == "too_many_failures"


@pytest.mark.asyncio
async def test_repeated_failures_are_refused_per_address_over_many_names(server: ServerProcess) -> None:
    await register(server, "Jani")
    codes = []
    for i in range(31):  # 30 checks a minute from one address, spread over names that each stay under 5
        response = await call(server, "POST", "/api/account/login",
                              json={"name": f"guess {i // 3}", "password": "wrong guess"})
        codes.append(response.status_code)
    assert codes[:30] == [401] * 30 and codes[30] == 429
    response = await call(server, "POST", "/api/account/login", json={"name": "Jani", "password": PASSWORD})
    assert response.status_code == 429 and int(response.headers["retry-after"]) >= 1


# ---------------------------------------------------------------- deleting an account


@pytest.mark.asyncio
async def test_a_deleted_account_leaves_its_finished_matches_as_deleted_player(server: ServerProcess) -> None:
    account = await register(server, "Kati")
    kati = GameClient(server.base_url)
    kati.token, kati.player_id = account["token"], account["player"]["id"]
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table_id = (await kati.http("POST", "/api/tables", {"deals": 6, "seats": seats, "seed": 11}))["table_id"]
    await kati.connect()
    await kati.open_table(table_id)
    # seated at an unfinished table, the account cannot go
    busy = await call(server, "DELETE", "/api/account", kati.token, json={"password": PASSWORD})
    assert busy.status_code == 409 and error_of(busy)["code"] == "account_busy"
    assert error_of(busy)["args"] == {"tables": [table_id]}
    await kati.http("POST", f"/api/tables/{table_id}/start", {})
    await asyncio.wait_for(play_randomly(kati, 5, timeout=240), 240)
    record = await call(server, "GET", f"/api/tables/{table_id}/record")
    assert "Kati" in record.text

    wrong = await call(server, "DELETE", "/api/account", kati.token, json={"password": "not the password"})
    assert wrong.status_code == 403 and error_of(wrong)["code"] == "wrong_password"
    deleted = await call(server, "DELETE", "/api/account", kati.token, json={"password": PASSWORD})
    assert deleted.status_code == 200 and deleted.json() == {"ok": True, "tables_renamed": 1}
    told = await kati.wait_for_message(lambda m: m.get("type") == "error")
    assert told["code"] == "session_ended", told
    assert kati.ws is not None
    await asyncio.wait_for(kati.ws.wait_closed(), 10)

    record = await call(server, "GET", f"/api/tables/{table_id}/record")
    assert record.status_code == 200 and "Kati" not in record.text and "deleted player" in record.text
    assert record.json()["deals"], "the finished deals stay"
    view = (await call(server, "GET", f"/api/tables/{table_id}", (await register(server, "Viewer"))["token"])).json()
    assert view["table"]["seats"][0]["name"] == "deleted player" and "Kati" not in json.dumps(view)
    # the sessions ended, the name is free, and the old name and password log nobody in
    assert (await call(server, "GET", "/api/me", kati.token)).status_code == 401
    login = await call(server, "POST", "/api/account/login", json={"name": "Kati", "password": PASSWORD})
    assert login.status_code == 401 and error_of(login)["code"] == "bad_credentials"
    assert (await register(server, "kati"))["player"]["id"] != kati.player_id


@pytest.mark.asyncio
async def test_guest_tokens_keep_working_and_account_routes_refuse_guests_clearly(server: ServerProcess) -> None:
    guest = await GameClient(server.base_url).http("POST", "/api/session", {"name": "Lili"})
    token = guest["token"]
    assert (await call(server, "GET", "/api/me", token)).json() == {
        "id": guest["player"]["id"], "name": "Lili", "kind": "guest"}
    assert not await socket_refused(server, token)
    for method, path, body in (
        ("POST", "/api/account/password", {"current_password": PASSWORD, "new_password": "whatever it is"}),
        ("DELETE", "/api/account", {"password": PASSWORD}),
    ):
        response = await call(server, method, path, token, json=body)
        assert response.status_code == 409 and error_of(response)["code"] == "not_account", response.text
    assert (await call(server, "POST", "/api/account/logout", token, json={})).json() == {"ok": True, "ended": False}
    assert (await call(server, "GET", "/api/me", token)).status_code == 200  # a guest token cannot be revoked
    no_session = await call(server, "POST", "/api/account/logout", json={})
    assert no_session.status_code == 401 and error_of(no_session)["code"] == "unauthorized"
