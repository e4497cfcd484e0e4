"""The ``patch`` event form (docs/protocol/events.md §9.1): a client that applies each event's patch holds
exactly the view the full form carries, over whole matches, for every seat and for spectators."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any, cast

import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from ulti.bots.random_bot import RandomBot
from ulti.client import GameClient, play_randomly
from ulti.engine.record import action_to_json
from ulti.server import tablerules, tableviews
from ulti.server.broadcast import Broadcaster
from ulti.server.events import Event
from ulti.server.hubcore import TableRegistry
from ulti.server.patches import apply_patch, view_patch
from ulti.server.tablestate import TableState

# ---------------------------------------------------------------- the patch of two views, in process


def _views_over_a_match(
    seed: int, deals: int = 6, after_each: Callable[[TableState], None] | None = None
) -> list[dict[int | None, dict[str, Any]]]:
    """The table view of each seat and of a spectator after every event of a whole match (random play);
    ``after_each`` is called with the table once those views are built."""
    state = TableState("t1")
    state.apply({"type": "created", "host": "h0", "deals": deals, "move_seconds": 0, "seed": seed,
                 "chosen_seed": True, "seats": [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}]})
    steps: list[dict[int | None, dict[str, Any]]] = []

    def snapshot() -> None:
        steps.append({seat: tableviews.wire_view(state, seat) for seat in (0, 1, 2, None)})
        if after_each is not None:
            after_each(state)

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


def test_the_summary_and_score_sheet_the_views_share_are_those_of_the_moment() -> None:
    # ``tableviews.view`` keeps them until the table or its finished deals change: after every event of a
    # whole match they equal what a fresh build gives (a deal's start keeps those of its predecessor's end)
    seen: list[object] = []  # the parts after each event (the same object while kept)
    dealt: list[int] = []  # the deals dealt after each event

    def fresh(state: TableState) -> None:
        parts = state.view_parts
        assert parts is not None
        assert parts[1] == tableviews.summary(state), state.seq
        assert parts[2] == tableviews.match_view(state), state.seq
        seen.append(parts)
        dealt.append(len(state.match.deals) if state.match else 0)

    steps = _views_over_a_match(4, after_each=fresh)
    assert len(steps) == len(seen) > 100
    rebuilt = sum(1 for before, after in itertools.pairwise(seen) if after is not before)
    assert rebuilt < len(seen) / 10  # mostly kept
    # a deal dealt after the first leaves them as the last deal's end made them: the same objects
    starts = [i for i in range(1, len(dealt)) if dealt[i] > dealt[i - 1] > 0]
    assert len(starts) == 5  # deals 2 to 6 of the match
    assert all(seen[i] is seen[i - 1] for i in starts)


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


# ---------------------------------------------------------------- a broadcast's patches, in process


class _Watcher:
    """What the broadcaster uses of a connection: who it is, its form and base, what it was sent."""

    def __init__(self, player_id: str, patches: bool) -> None:
        self.player_id = player_id
        self.patches = patches
        self.base: dict[str, Any] | None = None
        self.sent: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


class _Source:
    """A table as the broadcaster reads it (``seam.TableSource``)."""

    def __init__(self, state: TableState) -> None:
        self.table_id = state.table_id
        self.state = state
        self.deadline: float | None = None
        self.present: set[int] = {0, 1, 2}
        self.trick_pause = 0.0
        self.waiting: list[dict[str, Any]] = []


@pytest.mark.parametrize("seed", [7, 8])
def test_every_watcher_of_a_broadcast_gets_the_change_of_its_own_view(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over a whole match with players coming and going, bots playing for absent players, a move clock and
    watchers opening the table again, every watcher of the patch form is sent exactly the change from the
    view it held to its seat's view (built whole), whether the change was found from the action
    (``actionpatch.ActionPatches``) or by comparing the views; the full form's ``state`` is that view."""
    rng = random.Random(seed)
    state = TableState("t1")
    state.apply({"type": "created", "host": "h0", "deals": 12, "move_seconds": 0, "seed": seed,
                 "chosen_seed": True, "seats": [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}]})
    for i, player in enumerate(("h0", "p1", "p2")):
        state.apply(tablerules.join_event(state, player, f"P{i}", i, None))
    for start in tablerules.start_events(state, "h0", False):
        state.apply(start)
    source = _Source(state)
    watchers = [_Watcher(p, patches) for p in ("h0", "p1", "p2", "spectator") for patches in (True, False)]
    registry = TableRegistry()
    broadcaster = Broadcaster(registry, cast(Any, None), None, lambda _: None)
    monkeypatch.setattr(registry.connections, "watching", lambda table_id: watchers)
    # a patch found from the action makes the watcher's next base from its last, whose table part it keeps
    # (the very object); a view built whole has a table part of its own: so each broadcast shows which way
    # each watcher's patch was found (counted by what it left, not by patching the code: it may be compiled)
    from_the_action = 0
    held: dict[int, dict[str, Any]] = {}

    def sync(n: int) -> None:
        watcher = watchers[n]
        view = broadcaster.table_view(cast(Any, source), state.seat_of(watcher.player_id))
        watcher.base = view if watcher.patches else None
        held[n] = view

    for n in range(len(watchers)):
        sync(n)
    played_for = 0
    moments: Counter[str] = Counter()  # what the match went through: each kind of action, open hands, chains
    while state.status == "playing":
        event: Event
        if state.ready_for_next or state.deal is None:
            event = tablerules.next_deal_event(state)
        else:
            deal = state.deal
            assert deal is not None and deal.to_move is not None
            payload = action_to_json(RandomBot(rng).act(deal.seat_view(deal.to_move)))
            payload.pop("seat")
            event = tablerules.action_event(state, deal.to_move, payload, "bot" if rng.random() < 0.1 else "player")
        state.apply(event)
        played_for += bool(state.played_for)
        if state.deal is not None and state.deal.history:
            moments[state.deal.history[-1].kind.value] += 1
            moments["hands open"] += state.deal.hands_open()
            moments["chain open"] += state.deal.in_chain
        if rng.random() < 0.05:
            source.present ^= {rng.randrange(3)}  # a player comes or goes: the table's connected flags
        if rng.random() < 0.2:
            source.deadline = None if rng.random() < 0.3 else rng.random()  # a move clock
        if rng.random() < 0.03:
            sync(rng.randrange(len(watchers)))  # a watcher opens the table again: a new base
        bases_before = [watcher.base for watcher in watchers]
        broadcaster.broadcast_events(cast(Any, source), [broadcaster.filter_event(cast(Any, source), state.seq, event)])
        from_the_action += sum(
            before is not None and watcher.base is not None and watcher.base is not before
            and watcher.base["table"] is before["table"]
            for watcher, before in zip(watchers, bases_before, strict=True)
        )
        for n, watcher in enumerate(watchers):
            message = watcher.sent.pop()
            assert not watcher.sent
            own = broadcaster.table_view(cast(Any, source), state.seat_of(watcher.player_id))
            if watcher.patches:
                assert message["patch"] == view_patch(held[n], own), (watcher.player_id, state.seq)
                held[n] = apply_patch(held[n], message["patch"])
                assert held[n] == own
            else:
                assert message["state"] == own, (watcher.player_id, state.seq)
    assert played_for > 10 and from_the_action > 500
    reached = ("bid", "pass", "take", "kontra", "play", "hands open", "chain open")
    assert all(moments[kind] > 0 for kind in reached), moments
