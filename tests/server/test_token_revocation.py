"""A password change ends the account's API tokens, and the bot clients end cleanly when theirs is revoked."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest

from tests.server.botapi_helpers import SCOPES, Reader, new_account
from tests.server.conftest import ServerProcess
from tests.server.test_botapi_processes import invite_until_seated
from ulti.client import GameClient

ROOT = Path(__file__).resolve().parents[2]


async def change_password(base_url: str, session: str, current: str, new: str) -> httpx2.Response:
    """``POST /api/account/password`` as a tool would send it (the session as a bearer)."""
    async with httpx2.AsyncClient(base_url=base_url, timeout=30) as client:
        return await client.post("/api/account/password", json={"current_password": current, "new_password": new},
                                 headers={"authorization": f"Bearer {session}"})


@pytest.mark.asyncio
async def test_a_password_change_revokes_every_api_token_of_the_account_and_ends_its_streams(
    server: ServerProcess,
) -> None:
    robo = await new_account(server.base_url, "Robo", bot=False)
    other = await new_account(server.base_url, "Somebody Else", bot=False)
    async with robo.web(server.base_url) as web:
        second = (await web.post("/api/account/tokens", json={"name": "laptop", "scopes": ["table:read"]})).json()
    async with robo.api(server.base_url) as api, other.api(server.base_url) as others:
        assert (await api.get("/api/bot/account")).status_code == 200
        events = Reader(api, "/api/stream/event").start()
        await events.wait_for(lambda r: len(r.messages) >= 1)
        changed = await change_password(server.base_url, robo.session, "correct horse", "a new passphrase")
        assert changed.status_code == 200, changed.text
        # the open stream is told and ends; both tokens are refused from the next request on
        await events.wait_for(lambda r: r.ended, 10)
        assert events.messages[-1]["code"] == "token_revoked"
        for token in (robo.token, second["token"]):
            refused = await api.get("/api/bot/account", headers={"authorization": f"Bearer {token}"})
            assert (refused.status_code, refused.json()["error"]["code"]) == (401, "unauthorized")
        # another account's token lives on
        assert (await others.get("/api/bot/account")).status_code == 200
    # the account page lists no token any more; a token made after the change works
    async with httpx2.AsyncClient(base_url=server.base_url, timeout=30,
                                  headers={"authorization": f"Bearer {changed.json()['token']}"}) as web:
        assert (await web.get("/api/account/tokens")).json()["tokens"] == []
        fresh = (await web.post("/api/account/tokens", json={"name": "new", "scopes": SCOPES})).json()["token"]
        assert (await web.get("/api/bot/account", headers={"authorization": f"Bearer {fresh}"})).status_code == 200


@pytest.mark.asyncio
async def test_a_refused_password_change_revokes_no_token(server: ServerProcess) -> None:
    robo = await new_account(server.base_url, "Robo", bot=False)
    refused = await change_password(server.base_url, robo.session, "not my password", "a new passphrase")
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "wrong_password")
    async with robo.api(server.base_url) as api:
        assert (await api.get("/api/bot/account")).status_code == 200


def start(args: list[str], out: Path, err: Path) -> subprocess.Popen[bytes]:
    """A bot process with its standard output and error in two files."""
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        return subprocess.Popen(args, stdout=stdout, stderr=stderr, cwd=ROOT,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})


@pytest.mark.asyncio
async def test_ulti_bot_and_the_example_bot_end_with_one_line_when_their_token_is_revoked_mid_game(
    server: ServerProcess, tmp_path: Path
) -> None:
    ours = await new_account(server.base_url, "Ulti Process", bot=False)  # `ulti bot --upgrade` makes it a bot
    example = await new_account(server.base_url, "Example Robo")
    processes = {
        "ulti": start([sys.executable, "-m", "ulti.cli", "bot", "--server", server.base_url, "--token", ours.token,
                       "--level", "heuristic", "--upgrade"], tmp_path / "ulti.out", tmp_path / "ulti.err"),
        "example": start([sys.executable, str(ROOT / "examples" / "bot.py"), server.base_url, example.token],
                         tmp_path / "example.out", tmp_path / "example.err"),
    }
    try:
        host = GameClient(server.base_url)
        await host.login("Scripted")
        seats = [{"kind": "me"}, {"kind": "invite"}, {"kind": "invite"}]
        table = (await host.http("POST", "/api/tables", {"deals": 6, "seats": seats, "seed": 7}))["table_id"]
        await host.connect()
        await host.open_table(table)
        await asyncio.wait_for(asyncio.gather(invite_until_seated(host, table, 1, "Ulti Process"),
                                              invite_until_seated(host, table, 2, "Example Robo")), 60)
        for seat in (1, 2):  # each bot follows the table's stream before the start
            await host.wait_for_message(lambda m, s=seat: m.get("type") == "presence" and m["seat"] == s
                                        and m["connected"], 30)
        await host.http("POST", f"/api/tables/{table}/start", {})
        # mid-game: both owners change their passwords, which revokes the bots' tokens
        for account in (ours, example):
            changed = await change_password(server.base_url, account.session, "correct horse", "a new passphrase")
            assert changed.status_code == 200, changed.text
        codes = {name: await asyncio.to_thread(proc.wait, 30) for name, proc in processes.items()}
    finally:
        for proc in processes.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    await host.close()
    for name in processes:
        err = (tmp_path / f"{name}.err").read_text()
        lines = [line for line in err.splitlines() if line.strip()]
        assert codes[name] == 1, (name, codes[name], err)
        assert "Traceback" not in err, err
        # one line naming the reason, after whatever the bot logged while it played
        assert lines and ("token_revoked" in lines[-1] or "unauthorized" in lines[-1]), err
        assert lines[-1].startswith(("ulti bot: the server refused the token", "bot.py: the server refused the token"))
        assert [line for line in lines if "refused the token" in line] == [lines[-1]], err


@pytest.mark.asyncio
async def test_both_bot_clients_end_with_one_line_when_their_token_is_refused_from_the_start(
    server: ServerProcess, tmp_path: Path
) -> None:
    revoked = "ulti_" + "A" * 43  # the shape of a token, but none the server knows (a revoked one)
    runs = {
        "ulti": [sys.executable, "-m", "ulti.cli", "bot", "--server", server.base_url, "--token", revoked],
        "example": [sys.executable, str(ROOT / "examples" / "bot.py"), server.base_url, revoked],
    }
    for name, args in runs.items():
        done = await asyncio.to_thread(subprocess.run, args, cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 1, (name, done.stderr)
        assert "Traceback" not in done.stderr
        [line] = done.stderr.splitlines()
        assert line.endswith("the server refused the token (unauthorized): no valid API token: send"
                             " 'Authorization: Bearer <token>' with a token from your account page"), line
