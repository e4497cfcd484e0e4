"""GET /api/whoami: the session's player, or null (never a 401, which a browser logs as an error)."""

from __future__ import annotations

import httpx2
import pytest

from tests.server.conftest import ServerProcess


@pytest.mark.asyncio
async def test_whoami_answers_with_and_without_a_session(server: ServerProcess) -> None:
    async with httpx2.AsyncClient(base_url=server.base_url, timeout=10) as http:
        first = await http.get("/api/whoami")
        assert first.status_code == 200 and first.json() == {"player": None}
        tampered = await http.get("/api/whoami", headers={"authorization": "Bearer abc.def"})
        assert tampered.status_code == 200 and tampered.json() == {"player": None}
        made = await http.post("/api/session", json={"name": "Vera"})
        player = made.json()["player"]
        mine = await http.get("/api/whoami")  # the cookie of the session just made
        assert mine.status_code == 200 and mine.json() == {"player": player}
    async with httpx2.AsyncClient(base_url=server.base_url, timeout=10) as bare:
        # /api/me keeps its 401 for a client without a session
        assert (await bare.get("/api/me")).status_code == 401
