"""Names over a real server: look-alikes of an account's name are refused to accounts and guests, no
person's name holds "Bot" or a distinctive bot level as a word nor is a bare level, and the bots' own
accounts still come to be."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import quote

import httpx2
import pytest

from tests.server.conftest import ServerProcess
from ulti.client import GameClient, play_randomly

PASSWORD = "correct horse battery"


async def post(server: ServerProcess, path: str, body: dict[str, Any]) -> httpx2.Response:
    """One request without cookies (a tool)."""
    async with httpx2.AsyncClient(base_url=server.base_url, timeout=30) as http:
        return await http.post(path, json=body)


def refusal(response: httpx2.Response) -> tuple[int, str, str]:
    """(status, code, message) of an error answer."""
    error = response.json()["error"]
    return response.status_code, error["code"], error["message"]


@pytest.mark.asyncio
async def test_a_name_that_reads_like_an_accounts_name_is_refused_to_accounts_and_guests(
    server: ServerProcess,
) -> None:
    assert (await post(server, "/api/account/register", {"name": "Victim", "password": PASSWORD})).status_code == 200
    for alike in ("V\u0456ctim", "VICT\u0406M", "Vict\u0456m", "\u0412\u0456ctim".replace("\u0412", "V")):
        status, code, message = refusal(await post(server, "/api/account/register",
                                                   {"name": alike, "password": PASSWORD}))
        assert (status, code) == (409, "name_registered"), alike
        assert "reads alike" in message and "look-alike letters" in message
        status, code, _ = refusal(await post(server, "/api/session", {"name": alike}))
        assert (status, code) == (409, "name_registered"), alike
    # the owner still logs in by the name they registered
    assert (await post(server, "/api/account/login", {"name": "victim", "password": PASSWORD})).status_code == 200


@pytest.mark.asyncio
async def test_no_person_may_take_a_name_holding_bot_or_a_bot_level_as_a_word(server: ServerProcess) -> None:
    for name in ("Killer Bot", "KillerBot", "My B0t", "\u0412\u041e\u0422", "Bot2", "Strong Anna", "anna EXPERT",
                 "Random Joe", "Heuristic"):
        for path, body in (("/api/session", {"name": name}),
                           ("/api/account/register", {"name": name, "password": PASSWORD})):
            status, code, message = refusal(await post(server, path, body))
            assert (status, code) == (400, "bad_name"), (path, name)
            assert "must not hold the word" in message or "reserved" in message, message


@pytest.mark.asyncio
async def test_a_ladder_level_alone_or_beside_bot_reads_as_a_bot_and_is_refused(server: ServerProcess) -> None:
    for name in ("Club", "club 2", "C1ub", "Casual", "BEGINNER", "Club Bot", "Bot club", "CasualBot"):
        for path, body in (("/api/session", {"name": name}),
                           ("/api/account/register", {"name": name, "password": PASSWORD})):
            status, code, message = refusal(await post(server, path, body))
            assert (status, code) == (400, "bad_name"), (path, name)
            assert "must not hold the word" in message or "reserved" in message, message


@pytest.mark.asyncio
async def test_a_name_that_normalisation_makes_longer_than_its_key_column_is_refused(server: ServerProcess) -> None:
    # U+FDFA is one character that NFKC turns into 18: 32 of them would not fit the name key's column
    name = "\ufdfa" * 32
    for path, body in (("/api/session", {"name": name}),
                       ("/api/account/register", {"name": name, "password": PASSWORD})):
        status, code, message = refusal(await post(server, path, body))
        assert (status, code) == (400, "bad_name") and "once normalised (NFKC)" in message, path
    assert (await post(server, "/api/session", {"name": "\ufdfa" * 7})).status_code == 200  # 126 once normalised


@pytest.mark.asyncio
async def test_ordinary_names_with_accents_and_bot_inside_a_word_are_accepted(server: ServerProcess) -> None:
    for name in ("Árvíztűrő", "Botond", "Talbot", "Kiss-Nagy Éva"):
        assert (await post(server, "/api/session", {"name": name})).status_code == 200, name
    # the ladder's rungs are everyday words: a name may hold them (only the bare level reads as a bot)
    for name in ("Chess Club Joe", "Casual Kati", "Beginner Bea"):
        assert (await post(server, "/api/session", {"name": name})).status_code == 200, name
    for name in ("Árvíztűrő Tükörfúrógép", "Abbot"):
        response = await post(server, "/api/account/register", {"name": name, "password": PASSWORD})
        assert response.status_code == 200, response.text
    # an accent makes another name: "Arvizturo Tukorfurogep" is not the account above
    response = await post(server, "/api/account/register", {"name": "Arvizturo Tukorfurogep", "password": PASSWORD})
    assert response.status_code == 200, response.text


@pytest.mark.asyncio
async def test_the_bots_own_accounts_are_still_made_by_the_server(server: ServerProcess) -> None:
    host = GameClient(server.base_url)
    await host.login("Host")
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    table = (await host.http("POST", "/api/tables", {"deals": 6, "seats": seats, "seed": 5}))["table_id"]
    await host.connect()
    await host.open_table(table)
    await host.http("POST", f"/api/tables/{table}/start", {})
    await play_randomly(host, 3, timeout=120)
    await host.close()
    async with httpx2.AsyncClient(base_url=server.base_url, timeout=30) as http:
        for _ in range(200):  # the match is recorded, and the bots' accounts made, just after its end
            pages = [await http.get(f"/api/players/{quote(name)}") for name in ("Bot · random", "Bot · random 2")]
            if all(page.status_code == 200 for page in pages):
                break
            await asyncio.sleep(0.1)
    assert [(page.status_code, page.json()["bot"]) for page in pages] == [(200, True), (200, True)]
