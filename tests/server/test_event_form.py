"""The ``patch`` event form (docs/protocol/events.md §9.1): a client that applies each event's patch holds
exactly the view the full form carries, over whole matches, for every seat and for spectators."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from ulti.bots.random_bot import RandomBot
from ulti.client import GameClient, play_randomly
from ulti.engine.record import action_to_json
from ulti.server import tablerules, tableviews
from ulti.server.patches import apply_patch, view_patch
from ulti.server.tablestate import TableState

# ---------------------------------------------------------------- the patch of two views, in process


def _views_over_a_match(seed: int, deals: int = 6) -> list[dict[int | None, dict[str, Any]]]:
    """The table view of each seat and of a spectator after every event of a whole match (random play)."""
    state = TableState("t1")
    state.apply({"type": "created", "host": "h0", "deals": deals, "move_seconds": 0, "seed": seed,
                 "chosen_seed": True, "seats": [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}]})
    steps: list[dict[int | None, dict[str, Any]]] = []

    def snapshot() -> None:
        steps.append({seat: tableviews.wire_view(state, seat) for seat in (0, 1, 2, None)})

    snapshot()
    for i, player in enumerate(("h0", "p1", "p2")):
        state.apply(tablerules.join_event(state, player, f"P{i}", i, None))
        snapshot()
    for event in tablerules.start_events(state, "h0", False):
        state.apply(event)
    rng = random.Random(seed)
    while state.status == "playing":
        if state.ready_for_next or state.deal is None:
            state.apply(tablerules.next_deal_event(state))
        else:
            deal = state.deal
            assert deal is not None
            seat = deal.to_move
            assert seat is not None  # the deal is not over
            payload = action_to_json(RandomBot(rng).act(deal.seat_view(seat)))
            payload.pop("seat")
            state.apply(tablerules.action_event(state, seat, payload, "player"))
            if rng.random() < 0.05:
                state.apply(tablerules.chat_event(state, seat, f"P{seat}", None, "hello"))
        snapshot()
    return steps


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_applying_each_patch_rebuilds_every_view_of_a_whole_match(seed: int) -> None:
    steps = _views_over_a_match(seed)
    for seat in (0, 1, 2, None):
        held = steps[0][seat]
        for step in steps[1:]:
            new = step[seat]
            before = repr(held), repr(new)
            rebuilt = apply_patch(held, view_patch(held, new))
            assert rebuilt == new
            assert (repr(held), repr(new)) == before  # neither view is changed in place
            held = rebuilt


def test_a_patch_names_only_what_changed() -> None:
    old = {"seq": 1, "table": {"a": 1}, "deal": {"log": [1, 2], "to_move": 0, "choices": {"x": 1}}, "chat": []}
    new = {"seq": 2, "table": {"a": 1}, "deal": {"log": [1, 2, 3], "to_move": 1}, "chat": [], "next_deal": None}
    patch = view_patch(old, new)
    assert patch == {"set": {"seq": 2, "next_deal": None, "deal.to_move": 1}, "append": {"deal.log": [3]},
                     "unset": ["deal.choices"]}
    assert apply_patch(old, patch) == new
    assert view_patch(new, new) == {}
    # a view whose deal is replaced (the next deal, or none yet) sets it whole
    assert view_patch({"deal": None}, {"deal": {"a": 1}}) == {"set": {"deal": {"a": 1}}}


# ---------------------------------------------------------------- over real sockets


async def _watch(base_url: str, token: str, player_id: str, table_id: str, events: str) -> GameClient:
    """Another connection of a logged-in player (or a spectator), watching ``table_id``."""
    client = GameClient(base_url, events=events)
    client.token, client.player_id = token, player_id
    await client.connect()
    await client.open_table(table_id)
    return client


def _states(client: GameClient) -> dict[int, dict[str, Any]]:
    """The view a client held after each event it received, by the event's number."""
    states: dict[int, dict[str, Any]] = {}
    for message in client.received:
        if message.get("type") == "event":
            state = message.get("_state", message.get("state"))
            if state is not None:
                states[message["seq"]] = state
    return states


@pytest.mark.asyncio
async def test_patch_clients_rebuild_the_full_form_over_whole_matches(server: ServerProcess) -> None:
    """Each seat and a spectator watch with both forms: at every event number, the view rebuilt from
    patches equals the view the full form carried. One patch watcher opens the table mid-match, and
    another switches to a second table and back (its patches then start from its new sync)."""
    table_id, players = await three_players(server.base_url, deals=6, seed=21)
    other_table, others = await three_players(server.base_url, deals=6, seed=22, names="Other")
    spectator = GameClient(server.base_url)
    await spectator.login("Watcher")
    watchers: list[tuple[GameClient, GameClient]] = []
    for client in [*players, spectator]:
        full = await _watch(server.base_url, client.token, client.player_id, table_id, "full")
        patch = await _watch(server.base_url, client.token, client.player_id, table_id, "patch")
        watchers.append((full, patch))
    assert any(m.get("events") == "patch" for m in watchers[0][1].received if m["type"] == "welcome")
    assert not any("events" in m for m in watchers[0][0].received if m["type"] == "welcome")
    await players[0].http("POST", f"/api/tables/{table_id}/start", {})

    async def late_and_switching() -> tuple[GameClient, GameClient]:
        first = players[0]
        await first.wait_for(lambda: first.seq >= 40, 60)
        late = await _watch(server.base_url, spectator.token, spectator.player_id, table_id, "patch")
        switching = await _watch(server.base_url, players[1].token, players[1].player_id, table_id, "patch")
        await first.wait_for(lambda: first.seq >= 80, 60)
        await switching.open_table(other_table)
        await first.wait_for(lambda: first.seq >= 120, 60)
        await switching.open_table(table_id)
        return late, switching

    plays = asyncio.gather(*(play_randomly(c, 210 + i) for i, c in enumerate(players)))
    late, switching = await asyncio.wait_for(_both(late_and_switching(), plays), 300)
    final_seq = max(c.seq for c in players)
    clients = [c for pair in watchers for c in pair] + [late, switching]
    for client in clients:
        await client.wait_for(lambda client=client: client.seq >= final_seq, 30)
    try:
        assert players[0].state is not None and players[0].state["match"]["winner"] is not None
        for full, patch in watchers:
            full_states, patch_states = _states(full), _states(patch)
            assert len(patch_states) > 100  # every event of a whole match
            assert patch_states.keys() == full_states.keys()
            for seq, state in full_states.items():
                assert patch_states[seq] == state, f"seq {seq}"
            assert patch.state == full.state
        # the late and the switching watchers hold what the full form holds for them from their sync on
        assert late.state == watchers[3][0].state
        assert switching.state == watchers[1][0].state
        late_states, full_states = _states(late), _states(watchers[3][0])
        assert len(late_states) > 20 and all(full_states[seq] == state for seq, state in late_states.items())
        switching_states = _states(switching)
        assert len(switching_states) > 20
        assert all(_states(watchers[1][0])[seq] == state for seq, state in switching_states.items())
        # a patch event carries no whole view
        assert all("state" not in m for m in watchers[0][1].received if m["type"] == "event" and "patch" in m)
    finally:
        for client in [*clients, *players, *others, spectator]:
            await client.close()


async def _both(first: Any, second: Any) -> Any:
    results = await asyncio.gather(first, second)
    return results[0]
