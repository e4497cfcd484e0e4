"""Duplicate event run (``make bench``): 20 tables of bots play one event; the cross-table's answer time.

A real server process (``ulti serve --fast`` on a fresh SQLite file) holds an event of ``--tables``
tables (heuristic bots in every seat). While it plays, ``GET /api/events/{id}`` is polled: each poll
gives every table's finished deals, from which the run prints when each table finished and how far
the tables drifted apart (a table that waited for another could never be ahead of it: a lead of more
than one deal shows that none does). Then the cross-table (as an outsider during the event, and once
it is over, when every deal of every table is in it) and the baseline ``GET /healthz`` (the same HTTP
stack, no table read) are asked one at a time, interleaved; it prints their medians, 95th percentiles
and ratio. The cross-table's median should stay under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2

from ulti.serverprocess import ServerProcess


async def timed(client: httpx2.AsyncClient, path: str) -> float:
    """Milliseconds for one GET (checked to answer 200)."""
    started = time.perf_counter()
    response = await client.get(path)
    elapsed = (time.perf_counter() - started) * 1000
    assert response.status_code == 200, response.text
    return elapsed


def figures(name: str, samples: list[float]) -> str:
    """Median and 95th percentile of ``samples`` (ms)."""
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"{name:<34} median {statistics.median(ordered):7.2f} ms   p95 {p95:7.2f} ms"


async def latency(client: httpx2.AsyncClient, event_path: str, rounds: int) -> tuple[list[float], list[float]]:
    """Cross-table and baseline answer times, asked one at a time, interleaved."""
    cross: list[float] = []
    base: list[float] = []
    for _ in range(rounds):
        cross.append(await timed(client, event_path))
        base.append(await timed(client, "/healthz"))
    return cross, base


async def run(tables: int, deals: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(db_url=f"sqlite+aiosqlite:///{Path(tmp) / 'ulti.db'}", args=("--fast",))
        server.start(Path(tmp) / "server.log")
        try:
            async with httpx2.AsyncClient(base_url=server.base_url, timeout=60) as client:
                session = (await client.post("/api/session", json={"name": "Host"})).json()
                client.headers["authorization"] = f"Bearer {session['token']}"
                created = (await client.post("/api/events", json={"deals": deals, "tables": tables})).json()
                event_path = f"/api/events/{created['event_id']}"
                started = time.perf_counter()
                assert (await client.post(f"{event_path}/start", json={})).status_code == 200
                done_at: dict[int, float] = {}
                lead = 0
                during: list[float] = []
                base_during: list[float] = []
                view: dict[str, Any] = {}
                while True:
                    t0 = time.perf_counter()
                    view = (await client.get(event_path)).json()
                    during.append((time.perf_counter() - t0) * 1000)
                    base_during.append(await timed(client, "/healthz"))
                    played = [min(t["deals_played"], deals) for t in view["tables"]]
                    lead = max(lead, max(played) - min(played))
                    now = time.perf_counter() - started
                    for t in view["tables"]:
                        if t["deals_played"] >= deals and t["table"] not in done_at:
                            done_at[t["table"]] = now
                    if view["event"]["status"] == "finished":
                        break
                    await asyncio.sleep(0.2)
                total = time.perf_counter() - started
                finish = sorted(done_at.values())
                print(f"event: {tables} tables x {deals} deals of heuristic bots, one server process (--fast)")
                print(f"  whole event {total:.1f} s; tables finished their {deals} deals between "
                      f"{finish[0]:.1f} s and {finish[-1]:.1f} s (median {statistics.median(finish):.1f} s)")
                print(f"  largest lead of one table over another seen: {lead} deals "
                      f"({'tables play at their own pace: none waits on another' if lead > 1 else 'lockstep?'})")
                print(figures("cross-table during the event", during))
                print(figures("baseline /healthz during", base_during))
                cross, base = await latency(client, event_path, rounds)
                print(figures(f"cross-table, over ({len(view['deals'])} deals)", cross))
                print(figures("baseline /healthz", base))
                ratio = statistics.median(cross) / statistics.median(base)
                verdict = "under" if statistics.median(cross) < 50 else "OVER"
                print(f"  cross-table / baseline median: {ratio:.2f}x; cross-table median {verdict} 50 ms")
                record = (await client.get(f"{event_path}/record")).json()
                path = Path(tmp) / "event.json"
                path.write_text(json.dumps(record))
                check = subprocess.run([sys.executable, "-m", "ulti.cli", "score", str(path)], capture_output=True)
                print(f"  ulti score on the event record: exit {check.returncode}")
        finally:
            server.stop()


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.deals, args.rounds))


if __name__ == "__main__":
    main()
