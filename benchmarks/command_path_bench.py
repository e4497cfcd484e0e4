"""The server's command path in process: CPU per accepted action, this tree against a git revision, alternated.

    python -m benchmarks.command_path_bench [REV] [--tables N] [--actions N] [--rounds N]

What the game server does for one action, without sockets and uvicorn: a real ``Hub`` over a real SQLite file,
``--tables`` tables of three players, each watching its table in the patch form through a connection whose
writer waits as a socket's does (so every message goes out through ``write_now`` and is encoded with orjson,
then dropped). Random legal actions (``load_bench.random_action``, the load run's players' choice, read from the
seat's choices) go through ``socket_routes.handle_message`` one after another, round robin over the tables;
deals follow each other after a short result pause, as in the load run (nobody sends "ready"). The figure is
the process's CPU time per action over the actions sent, less what the players spent choosing them (their
choices are read from the engine), its start-up and the tables' set-up left out.

Each round runs in a fresh interpreter, this tree's and ``REV``'s in turn (old, new, new, old, ...), the old
one exported from git and built once (``benchmarks/git_tree.py``); the medians over the rounds and new/old are
printed. On this shared box the figure moves by a few percent between runs where the load run's moves by
fifteen, so a change of a few percent to the command path shows here; the server is still judged by the load
run (``load_bench``: CPU per action beside the bare WebSocket server's), which has the sockets this leaves out.
Without ``REV`` only the working tree is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: seconds between a deal's end and the next deal (the load run's server waits longer, idle)
RESULT_PAUSE = 0.02


async def one_round(
    tables: int, actions: int, seed: int, sink: Callable[[bytes], object] | None = None
) -> dict[str, float]:
    """Set ``tables`` tables up and send ``actions`` random legal actions; CPU seconds per action.

    ``sink``: given every message sent, encoded (to compare two builds' messages)."""
    import orjson

    from benchmarks.load_bench import random_action
    from ulti.cli import tune_collector
    from ulti.engine.view import card_codes
    from ulti.server import socket_routes
    from ulti.server.config import Settings
    from ulti.server.hub import Hub
    from ulti.server.hubcore import Connection
    from ulti.server.table_settings import parse_settings
    from ulti.store.eventstore import EventStore

    # revisions before the command path's benchmark named it ``_handle``
    names = vars(socket_routes)
    handle = names.get("handle_message") or names["_handle"]
    errors = 0

    def write_now(message: Any) -> bool:
        nonlocal errors
        if message.get("type") == "error":
            errors += 1
        encoded = orjson.dumps(message)
        if sink is not None:
            sink(encoded)
        return True

    async def writer(conn: Connection) -> None:
        # a socket's writer: waiting on an empty outbox is what lets the broadcast frame a message at once
        while (message := await conn.outbox.get()) is not None:
            write_now(message)

    folder = tempfile.mkdtemp(prefix="command-path-")
    base = Settings.for_tests(f"sqlite+aiosqlite:///{folder}/bench.db")
    settings = dataclasses.replace(base, result_seconds=RESULT_PAUSE, between_deals=0.0)
    store = await EventStore.open(settings.db_url)
    hub = Hub(store, settings)
    await hub.load()
    seated: list[tuple[str, list[Connection]]] = []
    writers = []
    for i in range(tables):
        players = [f"p{i}x{k}" for k in range(3)]
        body = {"deals": 12, "move_seconds": 0, "seed": seed + i,
                "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]}
        table_id, _ = await hub.create_table(players[0], "P0", parse_settings(body))
        for k in (1, 2):
            await hub.join(table_id, players[k], f"P{k}", k, None)
        conns = []
        for k, player in enumerate(players):
            conn = Connection(player, f"P{k}", patches=True, address="127.0.0.1")
            conn.write_now = write_now
            hub.connections.add(conn)
            writers.append(asyncio.create_task(writer(conn)))
            await handle(hub, store, conn, {"type": "websocket.receive",
                                            "text": json.dumps({"type": "open_table", "table": table_id})}, settings)
            conns.append(conn)
        await hub.start(table_id, players[0], False)
        seated.append((table_id, conns))
    tune_collector()  # as ``ulti serve`` does once its app is built
    rng = random.Random(seed)
    sent = command = 0
    choosing = 0.0  # CPU the players spent choosing their actions: not the server's
    started = time.process_time()
    while sent < actions:
        waiting = finished = 0
        for table_id, conns in seated:
            state = hub.actors[table_id].state
            deal = state.deal
            if state.status == "finished":
                finished += 1
                continue
            if deal is None or deal.is_over:
                waiting += 1  # the next deal comes after the result's pause
                continue
            seat = deal.to_move
            assert seat is not None  # a deal in progress has a seat on turn
            chose_at = time.process_time()
            # what the load run's player reads from its view: its choices and its hand
            view = {"choices": deal.choices(seat).to_json(), "hands": {str(seat): card_codes(deal.hands[seat])},
                    "seat": seat}
            command += 1
            text = orjson.dumps({"type": "act", "id": command, "action": random_action(view, rng)}).decode()
            choosing += time.process_time() - chose_at
            message = {"type": "websocket.receive", "text": text}
            await handle(hub, store, conns[state.table_seat(seat)], message, settings)
            sent += 1
        if finished == len(seated):
            raise ValueError(
                f"every table's match ended after {sent} actions: ask for fewer actions or more tables"
            )
        if (waiting + finished) * 2 > len(seated):
            await asyncio.sleep(RESULT_PAUSE / 4)
    cpu = time.process_time() - started - choosing
    for task in writers:
        task.cancel()
    hub.close()
    await store.close()
    if errors:
        raise RuntimeError(f"{errors} actions were refused: the benchmark's players must act legally")
    return {"us_per_action": cpu / sent * 1e6, "actions": sent}


def measure(tree: Path, tables: int, actions: int, seed: int) -> dict[str, float]:
    """One round with ``tree``'s ``ulti`` in a fresh interpreter."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--one-round", str(tables), str(actions), str(seed)],
        cwd=tree, env=env, check=True, capture_output=True, text=True,
    ).stdout
    figures: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return figures


def main(argv: list[str]) -> int:
    """Alternate this tree and ``REV`` (when given) ``--rounds`` times; print medians and new/old."""
    if argv[:1] == ["--one-round"]:
        import uvloop

        tables, actions, seed = map(int, argv[1:4])
        print(json.dumps(uvloop.run(one_round(tables, actions, seed))))
        return 0
    from benchmarks.git_tree import MissingCommit, tree_at

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", nargs="?", default=None, help="the old revision (default: none, this tree only)")
    parser.add_argument("--tables", type=int, default=50, help="tables (default 50, as the load run)")
    parser.add_argument("--actions", type=int, default=15000, help="actions per round (default 15000)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds per tree (default 7)")
    args = parser.parse_args(argv)
    trees = {"new": ROOT}
    if args.rev is not None:
        try:
            trees["old"] = tree_at(args.rev)
        except MissingCommit as exc:
            print(f"skipped the comparison: {exc}")
    runs: dict[str, list[float]] = {name: [] for name in trees}
    for i in range(args.rounds):
        names = sorted(trees, reverse=i % 2 == 1)  # new, old, old, new, ...
        for name in names:
            runs[name].append(measure(trees[name], args.tables, args.actions, 1000)["us_per_action"])
    print(f"the command path in process: {args.tables} tables, {args.actions} actions a round, "
          f"CPU per action, median of {args.rounds} rounds")
    new = statistics.median(runs["new"])
    print(f"  this tree   {new:6.1f} us   (rounds {', '.join(f'{x:.0f}' for x in runs['new'])})")
    if "old" in runs:
        old = statistics.median(runs["old"])
        print(f"  {args.rev:11} {old:6.1f} us   (rounds {', '.join(f'{x:.0f}' for x in runs['old'])})   "
              f"new/old {new / old:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
