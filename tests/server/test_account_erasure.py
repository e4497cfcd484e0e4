"""Erasing a deleted player's name from a table's events: only what names them changes."""

from __future__ import annotations

from typing import Any

from ulti.server.account_erasure import DELETED_NAME, erased_events


def test_only_the_players_sit_host_name_and_chat_lines_while_seated_are_renamed() -> None:
    raw: list[dict[str, Any]] = [
        {"type": "created", "host": "p1", "host_name": "Anna", "deals": 6, "move_seconds": 0, "seed": 1,
         "seats": [{"kind": "open"}] * 3},
        {"type": "sit", "seat": 0, "player": "p1", "name": "Anna"},
        {"type": "sit", "seat": 1, "player": "p2", "name": "Anna"},  # another player of the same name
        {"type": "chat", "seat": 0, "name": "Anna", "text": "hi"},
        {"type": "chat", "seat": 1, "name": "Anna", "text": "hello"},
        {"type": "chat", "seat": None, "name": "Anna", "text": "a spectator"},
        {"type": "leave", "seat": 0},
        {"type": "sit", "seat": 0, "player": "p3", "name": "Cili"},
        {"type": "chat", "seat": 0, "name": "Cili", "text": "my seat now"},
    ]
    changed = erased_events(raw, "p1")
    assert sorted(changed) == [1, 2, 4]
    assert changed[1]["host_name"] == DELETED_NAME and changed[1]["seed"] == 1
    assert changed[2] == {"type": "sit", "seat": 0, "player": "p1", "name": DELETED_NAME}
    assert changed[4] == {"type": "chat", "seat": 0, "name": DELETED_NAME, "text": "hi"}
    assert raw[1]["name"] == "Anna"  # the events read are not changed in place
    assert erased_events(raw, "p9") == {}
