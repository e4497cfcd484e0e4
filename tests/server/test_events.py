"""Stored events have one typed shape per kind: every event a real match stores parses as its
kind, unchanged, and a malformed one is refused by ``parse_event`` naming where it is wrong."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.server.test_actor import RecordingHost, create, new_actor, start, stop
from ulti.server.events import BadEvent, parse_event
from ulti.store.eventstore import EventStore


@pytest.mark.asyncio
async def test_every_event_of_a_whole_match_parses_unchanged(store: EventStore) -> None:
    host = RecordingHost(store)
    actor = new_actor(store, host)
    await create(actor, [{"kind": "bot", "level": "random"}] * 3)
    await start(actor)
    async with asyncio.timeout(120):
        while actor.state.status != "finished":
            await asyncio.sleep(0.02)
    await stop(actor, host)
    stored = await store.events("t1")
    assert {e["type"] for e in stored} >= {"created", "start", "deal", "action"}
    assert [parse_event(e) for e in stored] == stored


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        ({"type": "sit", "seat": "1", "player": "p", "name": "A"}, "sit.seat"),
        ({"type": "sit", "seat": 1, "name": "A"}, "sit.player"),
        ({"type": "teleport"}, "top"),
        ({"type": "action", "action": {"action": "pass", "seat": 0}, "by": "ghost"}, "action.by"),
        ({"type": "chat", "seat": None, "name": "x", "text": "a", "colour": "red"}, "chat.colour"),
        ({"type": "deal", "index": 0, "hands": [["AS", 7]]}, "deal.hands"),
        ({"type": "created", "host": "h", "deals": 6, "move_seconds": 0, "seed": 1,
          "seats": [{"kind": "robot"}]}, "created.seats"),
        (["not", "an", "object"], "top"),
    ],
)
def test_a_malformed_stored_event_is_refused_naming_where(raw: Any, where: str) -> None:
    with pytest.raises(BadEvent) as refused:
        parse_event(raw)
    assert where in str(refused.value), str(refused.value)


def test_events_of_older_versions_still_parse() -> None:
    old_created = {"type": "created", "host": "h", "deals": 6, "move_seconds": 0, "seed": 5,
                   "seats": [{"kind": "open"}, {"kind": "invite", "invite": "x"}, {"kind": "bot", "level": "random"}]}
    old_chat = {"type": "chat", "seat": 1, "name": "Anna", "text": "Good luck!", "cid": "p:1"}
    assert parse_event(old_created) == old_created
    assert parse_event(old_chat) == old_chat
