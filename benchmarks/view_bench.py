"""Views per action (``make bench``): what a server spends building the table views after each action.

After every action a server builds the view of every watcher (docs/protocol/views.md §10) and, for a
connection of the patch form, the change from its last view (§9.1). This run plays whole matches of
random legal actions in process (``TableState``, no sockets, no store) and times, per action, the
deal views of the three seats and of one spectator, two ways, interleaved action by action on the
same actions (each way on its own copy of the deal, made when the deal starts: both keep
their caches as a server's deal does):

- **shared** (``Deal.view``, what the server runs): the spectator's view of the moment is built once,
  each seat's is a copy with its own parts put in;
- **each** (``Deal.seat_view(seat).to_json()``, the reference the tests hold it equal to, and what
  ``Deal.view`` did before): every viewer's view built whole.

It also times, per action, the rest of the server's in-process work on the same actions: the command's
check and apply (``action_event``, ``apply``), each seat's version of the event (``public_event``),
the table views around the deal views and their patches, and the events' JSON. Printed: medians over
rounds of microseconds per action (CPU time, one core) and the ratio of the two ways.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import orjson

from ulti.bots.random_bot import RandomBot
from ulti.engine.deal import Deal
from ulti.engine.record import action_to_json
from ulti.server import tablerules, tableviews
from ulti.server.patches import view_patch
from ulti.server.tablestate import TableState

VIEWERS: tuple[int | None, ...] = (0, 1, 2, None)
PARTS = ("check and apply", "public_event x3", "table views x3", "patches x3", "event JSON x3")


def _shared(deal: Deal) -> None:
    for seat in VIEWERS:
        deal.view(seat)


def _each(deal: Deal) -> None:
    for seat in VIEWERS:
        deal.seat_view(seat).to_json()


def play_match(seed: int, deals: int, totals: dict[str, float]) -> int:
    """Play one match of random actions, adding each timed part's CPU seconds to ``totals``; the actions."""
    clock = time.process_time
    state = TableState("bench")
    state.apply({"type": "created", "host": "h0", "deals": deals, "move_seconds": 0, "seed": seed,
                 "chosen_seed": True, "seats": [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}]})
    for i, player in enumerate(("h0", "p1", "p2")):
        state.apply(tablerules.join_event(state, player, f"P{i}", i, None))
    for start in tablerules.start_events(state, "h0", False):
        state.apply(start)
    rng = random.Random(seed)
    bases: dict[int, dict[str, Any]] = {seat: tableviews.wire_view(state, seat) for seat in range(3)}
    twins: tuple[Deal, Deal] | None = None  # the deal for each way
    actions = 0
    while state.status == "playing":
        deal = state.deal
        if state.ready_for_next or deal is None:
            state.apply(tablerules.next_deal_event(state))
            bases = {seat: tableviews.wire_view(state, seat) for seat in range(3)}
            twins = None
            continue
        if twins is None:
            twins = deal.copy(), deal.copy()
        seat = deal.to_move
        assert seat is not None  # a deal not over has a seat on turn
        payload = action_to_json(RandomBot(rng).act(deal.seat_view(seat)))
        payload.pop("seat")
        t0 = clock()
        event = tablerules.action_event(state, seat, payload, "player")
        state.apply(event)
        t1 = clock()
        action = deal.history[-1]
        for twin in twins:
            twin.apply(action)
        # the two ways in alternating order, each on its own deal (twins[0] shared, twins[1] each)
        order = ((_shared, twins[0], "shared"), (_each, twins[1], "each"))
        for build, twin, key in order if actions % 2 else order[::-1]:
            started = clock()
            build(twin)
            totals[key] += clock() - started
        t5 = clock()
        public = {s: tableviews.public_event(state, event, s) for s in range(3)}
        t6 = clock()
        views = {s: tableviews.wire_view(state, s) for s in range(3)}
        t7 = clock()
        patches = {s: view_patch(bases[s], views[s]) for s in range(3)}
        t8 = clock()
        for s in range(3):
            orjson.dumps({"type": "event", "seq": state.seq, "event": public[s], "patch": patches[s]})
        t9 = clock()
        bases = views
        for part, spent in zip(PARTS, (t1 - t0, t6 - t5, t7 - t6, t8 - t7, t9 - t8), strict=True):
            totals[part] += spent
        actions += 1
    return actions


def main() -> None:
    """Print the per-action figures (medians over rounds) and the shared views' ratio to the reference."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=8, help="matches of 6 deals per round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    per_action: dict[str, list[float]] = {}
    for round_ in range(args.rounds):
        totals = dict.fromkeys(("shared", "each", *PARTS), 0.0)
        actions = sum(play_match(1000 * round_ + m, 6, totals) for m in range(args.matches))
        for key, spent in totals.items():
            per_action.setdefault(key, []).append(1e6 * spent / actions)
    med = {key: statistics.median(values) for key, values in per_action.items()}
    print(f"views per action: {args.rounds} rounds of {args.matches} matches (6 deals, random play); "
          "CPU microseconds per action, medians over rounds")
    print(f"  deal views of 3 seats + 1 spectator: shared {med['shared']:.1f} us, each built whole "
          f"{med['each']:.1f} us: {med['each'] / med['shared']:.2f}x faster")
    print("  the rest of the in-process work per action: "
          + ", ".join(f"{part} {med[part]:.1f} us" for part in PARTS)
          + f"; total {sum(med[part] for part in PARTS):.1f} us")


if __name__ == "__main__":
    main()
