"""The hub's broadcasting: each watcher's version of an event, replicas fed by other processes, presence."""

from __future__ import annotations

from typing import Any

from ulti.server import tableviews
from ulti.server.actionpatch import RUNNING_PARTS, ActionPatches, connected_flags, running_parts
from ulti.server.actor import TableActor
from ulti.server.cluster import Cluster
from ulti.server.events import Event, parse_event
from ulti.server.hubcore import Replica, Spawn, TableRegistry, load_state
from ulti.server.patches import Patch, view_patch
from ulti.server.seam import Filtered, TableSource
from ulti.server.visibility import live_to_onlookers
from ulti.store.ports import TableLog


class Broadcaster:
    """The hub's broadcasting: each watcher's version of an event, replicas fed by other processes, presence."""

    def __init__(self, tables: TableRegistry, log: TableLog, cluster: Cluster | None, spawn: Spawn) -> None:
        """Send to the watchers in ``tables``; read ``log`` to catch a replica up; publish on ``cluster``."""
        self.tables = tables
        self.log = log
        self.cluster = cluster
        self._spawn = spawn

    # ---------------------------------------------------------------- replicas, presence and publishing
    async def replica(self, table_id: str) -> Replica:
        """A replica of ``table_id`` that follows the owner's events (subscribe first, then load)."""
        assert self.cluster is not None
        replica = self.tables.replicas.get(table_id)
        if replica is None:
            await self.cluster.watch_table(table_id)
            replica = Replica(table_id, await load_state(self.log, table_id))
            self.tables.replicas[table_id] = replica
        return replica

    async def on_table_event(self, data: dict[str, Any]) -> None:
        """An event published by a table's owner: update the replica and tell the watchers here."""
        table_id = data["table"]
        replica = self.tables.replicas.get(table_id)
        if replica is None or table_id in self.tables.actors:
            return
        if data.get("kind") == "presence":
            replica.present = set(data["present"])
            await self.presence_changed(replica, data["seat"], data["connected"])
            return
        if data.get("kind") == "waiting":
            replica.waiting = list(data["waiting"])
            self._send_waiting(replica)
            return
        seq = data["seq"]
        if seq <= replica.state.seq:
            return
        outgoing: list[Filtered] = []
        if seq == replica.state.seq + 1:
            event = parse_event(data["event"])
            replica.state.apply(event)
            outgoing.append(self.filter_event(replica, seq, event))
        else:  # a gap (missed message): catch up from the log, which holds every published event
            for raw in await self.log.events(table_id, after=replica.state.seq):
                event = parse_event(raw)
                replica.state.apply(event)
                outgoing.append(self.filter_event(replica, replica.state.seq, event))
        replica.deadline = data.get("deadline")
        replica.trick_pause = float(data.get("trick_pause", replica.trick_pause))
        replica.waiting = list(data.get("waiting", []))
        replica.present = set(data.get("present", []))
        self.broadcast_events(replica, outgoing)

    async def presence_changed(self, source: TableSource, seat: int, connected: bool) -> None:
        """Tell the table's watchers (here and in other processes) that a seat's player came or went."""
        message = {"type": "presence", "seat": seat, "connected": connected}
        for conn in self.tables.connections.watching(source.table_id):
            conn.send(message)
        if self.cluster is not None and isinstance(source, TableActor):
            await self.cluster.publish_table(
                source.table_id,
                {"table": source.table_id, "kind": "presence", "seat": seat, "connected": connected,
                 "present": sorted(source.present)},
            )

    def presence_soon(self, source: TableSource, seat: int, connected: bool) -> None:
        """``presence_changed`` from synchronous code."""
        self._spawn(self.presence_changed(source, seat, connected))

    def waiting_changed(self, actor: TableSource) -> None:
        """Tell the table's watchers (here and in other processes) whom it waits for (docs/protocol/table.md §14)."""
        self._send_waiting(actor)
        if self.cluster is not None:
            self._spawn(self.cluster.publish_table(
                actor.table_id, {"table": actor.table_id, "kind": "waiting", "waiting": actor.waiting}
            ))

    def _send_waiting(self, source: TableSource) -> None:
        message = {"type": "waiting", "waiting": source.waiting}
        for conn in self.tables.connections.watching(source.table_id):
            conn.send(message)

    async def publish(self, actor: TableSource, events: list[tuple[int, Event]]) -> None:
        """The owner tells the other processes about its stored events (cluster mode)."""
        if self.cluster is None:
            return
        for seq, event in events:
            await self.cluster.publish_table(
                actor.table_id,
                {"table": actor.table_id, "seq": seq, "event": event, "deadline": actor.deadline,
                 "present": sorted(actor.present), "trick_pause": actor.trick_pause, "waiting": actor.waiting},
            )


    def filter_event(self, source: TableSource, seq: int, event: Event) -> Filtered:
        """Event ``seq`` as each seat watching the table (and spectators, None) may see it."""
        state = source.state
        seats = {state.seat_of(c.player_id) for c in self.tables.connections.watching(source.table_id)}
        if not live_to_onlookers(state):  # an event's table: its onlookers get nothing live (visibility.py)
            seats.discard(None)
        return seq, tableviews.public_events(state, event, seats)

    def broadcast_events(self, source: TableSource, events: list[Filtered]) -> None:
        """Send filtered events to every connection watching the table, each with its seat's view.

        One view per seat for all of its connections (the full form sends it as ``state``); a
        connection of the ``patch`` form gets what changed since the view it was last sent, found
        once per seat and base (docs/protocol/events.md §9.1); with no base of this table yet (the events
        before its ``sync``) it gets the full form. After an action that leaves its phase going (a bid, pass or
        take in the auction, a card or kontra step in the play), that change is found from the action
        (``actionpatch.ActionPatches``) where it can be, without building the seat's view: its next base is
        its last with the patch applied.
        """
        if not events:
            return
        state = source.state
        table_id = source.table_id
        # the patches from the action, made when the first watcher with a base needs them (a table nobody
        # watches in the patch form asks the engine for nothing)
        quick: ActionPatches | None = None
        asked = False
        views: dict[int | None, dict[str, Any]] = {}
        #: per seat and base: the patch and the view it makes
        patches: dict[tuple[int | None, int], tuple[Patch, dict[str, Any]]] = {}
        first: dict[str, Any] | None = None  # the first view built: its viewer-free parts serve them all

        def view_of(seat: int | None) -> dict[str, Any]:
            nonlocal first
            view = views.get(seat)
            if view is None:
                view = views[seat] = self.table_view(source, seat, first)
                if first is None:
                    first = view
            return view

        for conn in self.tables.connections.watching(table_id):
            seat = state.seat_of(conn.player_id)
            base = conn.base if conn.patches else None
            if base is not None and base["table"]["table_id"] == table_id:
                found = patches.get((seat, id(base)))
                if found is None:
                    if not asked:
                        asked = True
                        deal = state.deal
                        change = deal.view_change() if deal is not None and len(events) == 1 else None
                        quick = None if change is None else ActionPatches(source, change)
                    found = None if quick is None else quick.patch(base, seat)
                    if found is None:
                        view = view_of(seat)
                        found = (view_patch(base, view), view)
                    patches[(seat, id(base))] = found
                patch, after = found
                sent = False
                for seq, filtered in events:
                    if seat in filtered:
                        # the first event sent carries the change; the others of one command share its view
                        change_sent: Patch = {} if sent else patch
                        conn.send({"type": "event", "seq": seq, "event": filtered[seat], "patch": change_sent})
                        sent = True
                if sent:
                    conn.base = after
            else:
                for seq, filtered in events:
                    if seat in filtered:
                        view = view_of(seat)
                        conn.send({"type": "event", "seq": seq, "event": filtered[seat], "state": view})
                        if conn.patches:
                            conn.base = view

    def table_view(
        self, source: TableSource, seat: int | None, like: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The table's view for ``seat`` with who is connected and the move deadline.

        ``like``: another viewer's view of this moment: its parts that are the same for every viewer (the
        table, the deadline, the pace, whom the table waits for) are shared, not built again.
        """
        view = tableviews.wire_view(source.state, seat)
        if like is not None:
            # one moment's views are read-only: sharing these parts by reference also makes the
            # patches' comparisons of them (patches.py) an identity check
            view["table"] = like["table"]
            for key in RUNNING_PARTS:
                view[key] = like[key]
            return view
        # the state's summary is shared by its views (read-only): the connected flags go on a copy
        table = dict(view["table"])
        flags = connected_flags(source)
        table["seats"] = [{**shown, "connected": flag} for shown, flag in zip(table["seats"], flags, strict=True)]
        view["table"] = table
        view.update(running_parts(source))
        return view
