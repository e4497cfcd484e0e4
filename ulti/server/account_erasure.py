"""Erasing a deleted account's name from the tables it sat at: its finished records stay, the name goes.

The name a player had is written into a table's events (``sit``, the host's name in ``created``,
its chat lines), so the events themselves are rewritten, once, at deletion: every view, record and
summary made from them afterwards shows ``DELETED_NAME``. The moves, scores and the other players
are untouched. This is the only place an event log is ever rewritten.
"""

from __future__ import annotations

from typing import Any, Protocol

from ulti.server import tableviews
from ulti.server.events import parse_event
from ulti.server.hub import Hub
from ulti.server.tablestate import TableState
from ulti.store.ports import Erasure, TableIndex, TableLog

#: the name shown for a player whose account was deleted (a name no one may take: inputs.RESERVED_NAMES)
DELETED_NAME = "deleted player"
#: tables a player may still be playing at: their account cannot be deleted until they are done
UNFINISHED = ("open", "playing")


class ErasingStore(Erasure, TableLog, TableIndex, Protocol):
    """The store's part erasing uses: the tables a player sat at, their logs rewritten and summaries saved,
    and the names in the finished matches."""


async def unfinished_tables(store: TableIndex, player_id: str) -> list[str]:
    """The tables ``player_id`` sat at (even if they left) that are still open or playing.

    Their names are in those tables' live state, which only the table's actor may change: the
    account is deleted once they are over (finished, or expired for a table never started).
    """
    return [t["table_id"] for t in await store.tables_of_player(player_id) if t["status"] in UNFINISHED]


def erased_events(raw: list[dict[str, Any]], player_id: str) -> dict[int, dict[str, Any]]:
    """The events of one table that name ``player_id``, with the name replaced, by event number.

    A chat line names its seat, not its player: it is the player's while they sat in that seat.
    """
    sitting: dict[int, str | None] = {}
    changed: dict[int, dict[str, Any]] = {}
    for seq, event in enumerate(raw, start=1):
        kind = event.get("type")
        if kind == "created" and event.get("host") == player_id and "host_name" in event:
            changed[seq] = {**event, "host_name": DELETED_NAME}
        elif kind == "sit":
            sitting[event["seat"]] = event.get("player")
            if event.get("player") == player_id:
                changed[seq] = {**event, "name": DELETED_NAME}
        elif kind in ("leave", "bot"):
            sitting[event["seat"]] = None
        elif kind == "chat" and event.get("seat") is not None and sitting.get(event["seat"]) == player_id:
            changed[seq] = {**event, "name": DELETED_NAME}
    return changed


async def erase_player(hub: Hub, store: ErasingStore, player_id: str) -> int:
    """Replace ``player_id``'s name in the events and summaries of every table they sat at; how many tables.

    A table loaded in this process is unloaded, so that it is read again from its rewritten log.
    (Another process of a cluster shows the old name until it unloads the table: at most
    ``--unload-idle-seconds`` after its last use, since only finished tables are concerned.)
    """
    count = 0
    # the lines of their finished matches (player pages, leaderboard) show the name too
    await store.erase_match_names(player_id, DELETED_NAME)
    for entry in await store.tables_of_player(player_id):
        table_id = entry["table_id"]
        raw = await store.events(table_id)
        changed = erased_events(raw, player_id)
        if not changed:
            continue
        await store.replace_events(table_id, changed)
        state = TableState(table_id)
        for seq, event in enumerate(raw, start=1):
            state.apply(parse_event(changed.get(seq, event)))
        await store.save_table(table_id, state.status, tableviews.summary_row(state))
        actor = hub.actors.get(table_id)
        if actor is not None and not actor.is_busy():
            await hub.unload(table_id, actor)
        count += 1
    return count
