"""The host can fetch invite links again; nobody else sees them. Past matches carry their date."""

from __future__ import annotations

import pytest

from tests.server.conftest import ServerProcess
from ulti.client import GameClient, ServerError


@pytest.mark.asyncio
async def test_only_the_host_sees_the_invite_tokens(server: ServerProcess) -> None:
    host, guest = GameClient(server.base_url), GameClient(server.base_url)
    await host.login("Host")
    await guest.login("Guest")
    body = {"deals": 6, "seats": [{"kind": "me"}, {"kind": "invite"}, {"kind": "open"}]}
    created = await host.http("POST", "/api/tables", body)
    table_id, token = created["table_id"], created["invites"]["1"]
    assert (await host.http("GET", f"/api/tables/{table_id}"))["invites"] == {"1": token}
    guest_view = await guest.http("GET", f"/api/tables/{table_id}")
    assert "invites" not in guest_view
    assert token not in str(guest_view)
    with pytest.raises(ServerError) as refused:
        await guest.http("POST", f"/api/tables/{table_id}/join", {"seat": 1})
    assert refused.value.code == "reserved"
    assert (await guest.http("POST", f"/api/tables/{table_id}/join", {"seat": 1, "invite": token}))["seat"] == 1
    assert (await host.http("GET", f"/api/tables/{table_id}"))["invites"] == {}
    past = await guest.http("GET", "/api/me/matches")
    assert past["matches"][0]["table_id"] == table_id
    assert isinstance(past["matches"][0]["created_at"], int)
