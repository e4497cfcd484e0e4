"""The patch of an action whose change is known from the action, found without building the views.

After every action a broadcast sends each watcher of the ``patch`` form what changed in its view
(``patches.view_patch``, docs/protocol/events.md §9.1), which costs building each seat's view and
comparing it with the last. Most actions leave their phase going (bids, passes and takes in the auction,
cards and kontra steps in the play), and what they change is known from the action (``Deal.view_change``):
``ActionPatches`` builds each watcher's patch, and its view after the action, from that alone, for a
watcher whose last view is the one just before the action, and says None whenever anything else may have
changed (the broadcast then builds the view and compares as before). tests/server/test_event_form.py holds
the two ways to the same patch.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ulti.engine.dealviews import ViewChange
from ulti.server.patches import Patch
from ulti.server.seam import TableSource

#: the names in a patch of the deal's keys that may change for one seat alone (``ViewChange.own``)
_DEAL_KEYS = {key: "deal." + key for key in ("hands", "talon", "choices")}
#: the parts of a table view that change without an event (the move deadline, the pace, whom the table waits for)
RUNNING_PARTS = ("deadline", "trick_pause", "waiting")


def running_parts(source: TableSource) -> dict[str, object]:
    """The table's ``RUNNING_PARTS`` now, as its views show them."""
    return {"deadline": source.deadline, "trick_pause": source.trick_pause, "waiting": source.waiting}


def connected_flags(source: TableSource) -> list[bool | None]:
    """Per seat, whether its player is connected, as the table part of its views shows it (None: no player)."""
    present = source.present
    return [(i in present) if seat.kind == "player" else None for i, seat in enumerate(source.state.seats)]


class ActionPatches:
    """The patches of one action's moment at one table: ``patch`` for each watcher's last view."""

    def __init__(self, source: TableSource, change: ViewChange) -> None:
        """For the table of ``source``, whose last event was the action of ``change``."""
        state = source.state
        match, deal = state.match, state.deal
        #: the table as a view before the action must show it, or None where no view is patched here
        self._expected: tuple[int, int, str, int, int] | None = None
        if match is not None and deal is not None and not state.four and not state.learner:
            deal_index = len(match.deals) - 1
            self._expected = (
                state.seq - 1, deal_index, deal.phase.value, len(deal.history) - 1,
                len(state.bot_played.get(deal_index, ())),
            )
        self._seq = state.seq
        self._connected = connected_flags(source)
        self._running = running_parts(source)
        self._change = change
        # the deal's keys that changed alike for every viewer, with their names in a patch (made once per action)
        self._changed = [(key, "deal." + key, value) for key, value in change.changed.items()]
        self._tables: dict[int, bool] = {}  # the table parts checked, by id: still right after the action

    def patch(self, base: Mapping[str, Any], seat: int | None) -> tuple[Patch, dict[str, Any]] | None:
        """The patch from ``base`` to ``seat``'s table view after the action, and that view; None unless
        ``base`` is ``seat``'s view of the moment before it and nothing but the action and the table's running
        parts (the deadline, the pace, whom it waits for) changed since."""
        expected = self._expected
        old = base.get("deal")
        if expected is None or old is None or base.get("you") != seat or "played_for_you" in base:
            return None
        seq, deal_index, phase, log_length, bot_played = expected
        if (
            base["seq"] != seq or base["deal_index"] != deal_index or old["phase"] != phase
            or len(old["log"]) != log_length or len(base["bot_played"]) != bot_played
        ):
            return None  # not the view of the moment before, the action began a phase, or a bot played for a person
        table = base["table"]
        fits = self._tables.get(id(table))
        if fits is None:
            connected = self._connected
            fits = self._tables[id(table)] = all(
                shown.get("connected") == connected[i] for i, shown in enumerate(table["seats"])
            )
        if not fits:
            return None  # somebody came or went: the table part is built again
        view = dict(base)
        new = view["deal"] = dict(old)
        view["seq"] = changed_seq = self._seq
        changed: dict[str, object] = {"seq": changed_seq}
        for key, value in self._running.items():
            if base[key] != value:
                changed[key] = view[key] = value
        for key, name, value in self._changed:
            if old[key] != value:
                changed[name] = new[key] = value
        change = self._change
        for key, value in change.own(seat).items():
            if old[key] != value:
                changed[_DEAL_KEYS.get(key) or "deal." + key] = new[key] = value
        entry = change.entry(seat)
        new["log"] = [*old["log"], entry]
        appended: dict[str, list[object]] = {"deal.log": [entry]}
        for key, items in change.appended.items():
            new[key] = [*old[key], *items]
            appended["deal." + key] = items
        return {"set": changed, "append": appended}, view
