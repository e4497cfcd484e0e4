"""Client messages are parsed once, at the edge, into one typed model each; anything else is
refused there with the code and the field that is wrong."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from ulti.server.inputs import BadInput
from ulti.server.messages import (
    Act,
    Back,
    Chat,
    LobbyChat,
    OpenTable,
    Ping,
    Ready,
    WatchLobby,
    parse_client_message,
)


@pytest.mark.parametrize(
    ("data", "model"),
    [
        ({"type": "ping"}, Ping),
        ({"type": "ping", "id": 7}, Ping),
        ({"type": "watch_lobby"}, WatchLobby),
        ({"type": "lobby_chat", "text": "hi"}, LobbyChat),
        ({"type": "open_table", "table": "abc123"}, OpenTable),
        ({"type": "act", "id": "c1", "action": {"action": "pass"}}, Act),
        ({"type": "chat", "id": "c2", "phrase": "hello"}, Chat),
        ({"type": "back", "id": 3}, Back),
        ({"type": "ready", "id": "r1"}, Ready),
    ],
)
def test_each_known_message_parses_to_its_model(data: dict[str, Any], model: type) -> None:
    message = parse_client_message(data)
    assert isinstance(message, model)
    assert message.type == data["type"] and message.id == data.get("id")


@pytest.mark.parametrize(
    ("data", "code", "words"),
    [
        ({"id": 1}, "bad_message", "'type'"),
        ({"type": 5}, "bad_message", "'type'"),
        ({"type": "dance"}, "unknown_type", "'dance'"),
        ({"type": "ping", "extra": 1}, "bad_message", "unknown field 'extra'"),
        ({"type": "act", "action": {"action": "pass"}}, "bad_message", "needs an id"),
        ({"type": "back"}, "bad_message", "needs an id"),
        ({"type": "ready"}, "bad_message", "needs an id"),
        ({"type": "ready", "id": "r", "seat": 1}, "bad_message", "unknown field 'seat'"),
        ({"type": "act", "id": "c", "action": "pass"}, "bad_message", "action must be an object"),
        ({"type": "act", "id": "c"}, "bad_message", "needs 'action'"),
        ({"type": "act", "id": True, "action": {}}, "bad_message", "id must be"),
        ({"type": "act", "id": 1.5, "action": {}}, "bad_message", "id must be"),
        ({"type": "open_table", "table": 12}, "bad_id", "table must be an id"),
        ({"type": "open_table"}, "bad_id", "needs 'table'"),
        ({"type": "chat", "id": "c", "text": ["a"]}, "bad_chat", "text must be a string"),
        ({"type": "chat", "id": "c", "phrase": 1}, "bad_chat", "phrase must be a string"),
        ({"type": "lobby_chat", "text": None}, "bad_chat", "text must be a string"),
    ],
)
def test_malformed_messages_are_refused_naming_the_field(data: dict[str, Any], code: str, words: str) -> None:
    with pytest.raises(BadInput) as refused:
        parse_client_message(data)
    assert refused.value.code == code and words in refused.value.message, refused.value.message


def test_messages_are_immutable() -> None:
    message = parse_client_message({"type": "ping", "id": "p"})
    with pytest.raises(ValidationError):
        message.id = "q"  # type: ignore[misc]
