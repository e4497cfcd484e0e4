"""Where the game server's CPU per action goes: timers around its hot functions, inside a real server.

``python benchmarks/cpu_parts.py OUT serve ARGS...`` runs ``ulti serve ARGS...`` with a timer around each
function of ``PARTS``: the CPU time of the calling thread (``time.thread_time_ns``) spent inside it, and its
calls, written to the file ``OUT`` (JSON) every tenth of a second and at the end. ``load_bench --parts`` starts its
server this way and prints each part per action beside the server's whole CPU per action.

Only plain functions are timed (a coroutine's time would include what runs while it waits); the event
loop's thread runs all of them, so each figure is that thread's work. Parts nest as ``PARTS`` says (a
broadcast includes its views, patches and writes). The timers' own cost is in the figures: the load run
prints the server's CPU per action with them on beside the same figure of its run without them.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import json
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: label -> where the function is looked up when called (its module's attribute, or a class's), as
#: ``module:qualified.name``; a function imported by name into another module is timed where it is used
PARTS: dict[str, str] = {
    "parse a command (pydantic)": "ulti.server.socket_routes:parse_client_message",
    "check the action (rules)": "ulti.server.tablerules:action_event",
    "apply the event": "ulti.server.tablestate:TableState.apply",
    "store: SQLite insert + commit": "ulti.store.eventstore:_insert_and_commit",
    "store: table summary": "ulti.store.eventstore:_upsert_table",
    "each seat's event (filter)": "ulti.server.broadcast:Broadcaster.filter_event",
    "broadcast (views, patches, writes)": "ulti.server.broadcast:Broadcaster.broadcast_events",
    "  what the action changed (engine)": "ulti.engine.deal:Deal.view_change",
    "  patches from the action": "ulti.server.actionpatch:ActionPatches.patch",
    "  table views": "ulti.server.broadcast:Broadcaster.table_view",
    "  patches from the views": "ulti.server.broadcast:view_patch",
    "send a message (JSON, frame)": "ulti.server.hubcore:Connection.send",
    "write a turn's frames (system call)": "ulti.server.wsprotocol:WebSocketProtocol.write_held",
}

#: the label of the garbage collector's passes (in no part: they run inside whatever allocates)
COLLECTOR = "garbage collector (any part's allocations)"


class PartTimers:
    """CPU nanoseconds and calls per timed part, with the functions to wrap."""

    def __init__(self) -> None:
        """No part timed yet."""
        self.nanoseconds: dict[str, int] = {}
        self.calls: dict[str, int] = {}

    def wrap(self, label: str, where: str) -> None:
        """Time the function at ``where`` (``module:qualified.name``) under ``label`` from now on."""
        module_name, qualified = where.split(":")
        owner: Any = importlib.import_module(module_name)
        *path, name = qualified.split(".")
        for attribute in path:
            owner = getattr(owner, attribute)
        function: Callable[..., Any] = getattr(owner, name)
        clock = time.thread_time_ns
        nanoseconds, calls = self.nanoseconds, self.calls
        nanoseconds[label] = calls[label] = 0

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = clock()
            try:
                return function(*args, **kwargs)
            finally:
                nanoseconds[label] += clock() - started
                calls[label] += 1

        setattr(owner, name, timed)

    def time_collector(self, label: str) -> Callable[[str, dict[str, int]], None]:
        """Time the garbage collector's passes under ``label`` (``gc.callbacks``): a cost no function shows,
        paid by whichever allocation sets a pass off. Returns the callback (to remove from ``gc.callbacks``)."""
        clock = time.thread_time_ns
        nanoseconds, calls = self.nanoseconds, self.calls
        nanoseconds[label] = calls[label] = 0
        started = [0]

        def on_pass(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                started[0] = clock()
            else:
                nanoseconds[label] += clock() - started[0]
                calls[label] += 1

        gc.callbacks.append(on_pass)
        return on_pass

    def snapshot(self) -> dict[str, dict[str, int]]:
        """Each part's calls and CPU nanoseconds so far."""
        return {label: {"calls": self.calls[label], "ns": self.nanoseconds[label]} for label in self.nanoseconds}


def launcher(out: Path) -> tuple[str, ...]:
    """The ``ServerProcess.launcher`` that runs its server with the parts timed, figures to ``out``."""
    return (str(Path(__file__).resolve()), str(out))


def install(out: Path, parts: dict[str, str] = PARTS) -> PartTimers:
    """Time ``parts`` in this process and write their figures to ``out`` every tenth of a second and at exit."""
    timers = PartTimers()
    for label, where in parts.items():
        timers.wrap(label, where)
    timers.time_collector(COLLECTOR)

    def write() -> None:
        # written whole, then renamed: a reader never sees half a file
        partial = out.with_suffix(".partial")
        partial.write_text(json.dumps(timers.snapshot()))
        partial.replace(out)

    def every_tenth() -> None:
        while True:
            time.sleep(0.1)
            write()

    threading.Thread(target=every_tenth, daemon=True, name="cpu-parts").start()
    atexit.register(write)
    return timers


def read(out: Path) -> dict[str, dict[str, int]]:
    """The figures ``install`` wrote to ``out``."""
    figures: dict[str, dict[str, int]] = json.loads(out.read_text())
    return figures


def per_action(before: dict[str, dict[str, int]], after: dict[str, dict[str, int]], actions: int) -> list[str]:
    """Lines of each part's calls and CPU microseconds per action between two snapshots."""
    lines = []
    for label, now in after.items():
        then = before.get(label, {"calls": 0, "ns": 0})
        calls, ns = now["calls"] - then["calls"], now["ns"] - then["ns"]
        per_call = ns / 1000 / calls if calls else 0.0
        spent = ns / 1000 / actions
        lines.append(f"{label:42s} {calls / actions:5.2f} calls/action x {per_call:6.1f} us = {spent:6.1f} us/action")
    return lines


def main() -> None:
    """``python benchmarks/cpu_parts.py OUT serve ARGS...``: ``ulti serve ARGS...`` with the parts timed."""
    out, *command = sys.argv[1:]
    install(Path(out))
    from ulti.cli import main as ulti_main

    sys.exit(ulti_main(command))


if __name__ == "__main__":
    main()
