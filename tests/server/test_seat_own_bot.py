"""(issue 35, item 10) A host's own bot accounts and bots accepting challenges, listed and seated by invitation."""

from __future__ import annotations

import pytest

from tests.server.botapi_helpers import Reader, new_account
from tests.server.conftest import ServerProcess
from tests.server.test_botapi import host_table
from ulti.client import GameClient, ServerError
from ulti.store.eventstore import EventStore


@pytest.mark.asyncio
async def test_a_host_lists_its_own_bots_and_those_accepting_challenges(server: ServerProcess) -> None:
    base = server.base_url
    owner = await new_account(base, "Olga Owner", bot=False)
    mine = await new_account(base, "Olgas Robo")
    open_bot = await new_account(base, "Public Robo")
    await new_account(base, "Shy Robo")  # neither owned nor accepting challenges: never listed
    async with owner.web(base) as web, open_bot.api(base) as public:
        # the owner proves control of the bot by presenting one of its tokens
        claimed = await web.post("/api/account/bots", json={"token": mine.token})
        assert claimed.json() == {"ok": True, "bot": {"id": mine.player_id, "name": "Olgas Robo"}}
        # a token of a person's account, a token that does not work, or a bad body are refused, naming why
        refused = await web.post("/api/account/bots", json={"token": owner.token})
        assert refused.json()["error"]["code"] == "not_bot_account"
        refused = await web.post("/api/account/bots", json={"token": "ulti_" + "x" * 43})
        assert refused.json()["error"]["code"] == "not_found"
        refused = await web.post("/api/account/bots", json={"token": 5})
        assert refused.json()["error"]["code"] == "bad_request"
        # the bot itself offers itself to every host
        offered = await public.post("/api/bot/account/challenges", json={"accept": True})
        assert offered.json() == {"ok": True, "challenges": True}
        refused = await public.post("/api/bot/account/challenges", json={"accept": "yes"})
        assert refused.json()["error"]["code"] == "bad_request"
        # only a bot account may say so (with its own token)
        refused = await web.post("/api/bot/account/challenges", json={"accept": True})
        assert refused.status_code == 401
        listed = (await web.get("/api/bots/seatable")).json()["bots"]
        assert listed == [{"id": mine.player_id, "name": "Olgas Robo", "mine": True},
                          {"id": open_bot.player_id, "name": "Public Robo", "mine": False}]
        # a guest host sees the bots accepting challenges only
        guest = GameClient(base)
        await guest.login("Gus")
        assert [b["name"] for b in (await guest.http("GET", "/api/bots/seatable"))["bots"]] == ["Public Robo"]
        # and a bot that stops accepting leaves the list
        await public.post("/api/bot/account/challenges", json={"accept": False})
        assert [b["name"] for b in (await guest.http("GET", "/api/bots/seatable"))["bots"]] == []


@pytest.mark.asyncio
async def test_a_bot_account_is_invited_to_an_open_seat_and_sits_down(server: ServerProcess) -> None:
    bot = await new_account(server.base_url, "Open Seat Robo")
    host, table = await host_table(server.base_url, [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}])
    async with bot.api(server.base_url) as api:
        events = Reader(api, "/api/stream/event").start()
        await events.wait_for(lambda r: len(r.messages) >= 1)
        await host.http("POST", f"/api/tables/{table}/invite_bot", {"seat": 2, "bot": "Open Seat Robo"})
        await events.wait_for(lambda r: len(r.messages) >= 2)
        invited = events.messages[1]
        assert invited["type"] == "invited" and invited["seat"] == 2 and invited["invite"] is None
        joined = await api.post(f"/api/bot/tables/{table}/join", json={"seat": 2, "invite": invited["invite"]})
        assert joined.json() == {"seat": 2}
        await host.wait_for(lambda: bool(host.state and host.state["table"]["seats"][2].get("bot")))
        # a taken seat is no seat to invite to
        await host.wait_for(lambda: bool(host.state and host.state["table"]["seats"][2]["kind"] == "player"))
        with pytest.raises(ServerError, match="bad_request"):
            await host.http("POST", f"/api/tables/{table}/invite_bot", {"seat": 2, "bot": "Open Seat Robo"})
        await events.stop()
    await host.close()


@pytest.mark.asyncio
async def test_a_deleted_owners_bots_are_nobodys_and_stay(store: EventStore) -> None:
    for pid, name in (("owner01", "Owner"), ("robo01", "Robo One")):
        await store.create_account(pid, name, name.casefold(), "hash", new_player=True, skeleton=f"sk-{pid}")
    await store.make_bot_account("robo01")
    await store.set_bot_owner("robo01", "owner01")
    assert await store.bots_for_host("owner01") == [("robo01", "Robo One", True)]
    assert await store.delete_account("owner01")
    assert await store.bots_for_host("owner01") == []
    assert await store.is_bot_account("robo01")
    await store.set_bot_challenges("robo01", True)
    assert await store.bots_for_host("anyone") == [("robo01", "Robo One", False)]
