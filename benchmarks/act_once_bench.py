"""An accepted action applied once: what the table spends per action on the rules' check and the applying.

``tablerules.action_event`` checks an action on a copy of the deal; applying that same event brings the
deal up to the copy (``Deal.catch_up``). The other way, which the table took before and still takes for
an event read back from its log, parses the event's JSON and applies the action to the deal again.
This run plays whole matches of random legal actions in process (no sockets, no store) on two tables
with the same actions, one each way, alternating which goes first, and prints the medians of the
wall-clock time per action and their ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ulti.bots.random_bot import RandomBot
from ulti.engine.record import action_to_json
from ulti.server import tablerules
from ulti.server.tablestate import TableState


def _table(seed: int) -> TableState:
    state = TableState(f"bench{seed}")
    state.apply({"type": "created", "host": "p0", "deals": 6, "move_seconds": 0, "seed": seed, "chosen_seed": True,
                 "seats": [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}]})
    for i in range(3):
        state.apply(tablerules.join_event(state, f"p{i}", f"P{i}", i, None))
    for event in tablerules.start_events(state, "p0", False):
        state.apply(event)
    return state


def _accepted(state: TableState, seat: int, move: object, again: bool) -> float:
    """Seconds to check ``move`` and apply its event; ``again``: parse the event and apply it a second time."""
    started = time.perf_counter()
    event = tablerules.action_event(state, seat, move, "player")
    if again:
        state.checked = None  # the event as if read back from the log
    state.apply(event)
    return time.perf_counter() - started


def play(seed: int, once: list[float], again: list[float]) -> None:
    """One match of random legal actions on two tables, timed each way, alternating which goes first."""
    tables = _table(seed), _table(seed)
    rng = random.Random(seed)
    actions = 0
    while tables[0].status == "playing":
        deal = tables[0].deal
        if tables[0].ready_for_next or deal is None:
            for state in tables:
                state.apply(tablerules.next_deal_event(state))
            continue
        seat = deal.to_move
        assert seat is not None  # the table starts the next deal once this one is over
        move = action_to_json(RandomBot(rng).act(deal.seat_view(seat)))
        move.pop("seat")
        ways = ((0, False), (1, True)) if actions % 2 else ((1, True), (0, False))
        for index, twice in ways:
            (again if twice else once).append(_accepted(tables[index], seat, move, twice))
        actions += 1
    assert tables[0].deal is not None and tables[1].deal is not None
    assert tables[0].deal.history == tables[1].deal.history  # both ways played the same match


def main() -> None:
    """Print the median time per accepted action each way and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=20)
    args = parser.parse_args()
    once: list[float] = []
    again: list[float] = []
    for seed in range(args.matches):
        play(seed, once, again)
    kept, redone = statistics.median(once), statistics.median(again)
    print(f"{len(once)} actions ({args.matches} matches of 6 deals, random play); median per action: "
          f"applied once {1e6 * kept:.1f} us, parsed and applied again {1e6 * redone:.1f} us: "
          f"{redone / kept:.2f}x")


if __name__ == "__main__":
    main()
