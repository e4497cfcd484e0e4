"""Player page run (``make bench``): how long ``GET /api/players/{name}`` takes with 1,000 finished matches.

A real SQLite store is filled through the store's own match writer (``record_match``, the one the
server calls at a match end, with the real rating model for the rated ones): 1,000 finished matches
of one player against two others, two in three of them rated, each seat with statistics. Then the
real app runs under uvicorn in this process (test settings) on loopback, and the player's page API
and ``/healthz`` (the baseline: the same HTTP stack with no store read) are asked one at a time,
interleaved. Prints the medians, the 95th percentiles and their ratio; the page's median should stay
under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import httpx2
import orjson
import uvicorn

from ulti.accounts.names import name_key, name_skeleton
from ulti.accounts.ratings import NEWCOMER, match_ranks
from ulti.server.app import create_app
from ulti.server.config import Settings
from ulti.server.results import rater_for
from ulti.store import SeatResult
from ulti.store.eventstore import EventStore

PLAYER = "Bench Player"
OTHERS = ("Anna", "Béla")
PARTS = ("simple", "ulti", "40-100", "20-100", "durchmars", "betli")


def seat_stats(rng: random.Random, deals: int) -> str:
    """One seat's statistics over a match, in the stored shape (random but consistent)."""
    declarer = rng.randint(0, deals)
    declared = {}
    for part in rng.sample(PARTS, rng.randint(0, 3)):
        played = rng.randint(1, 2)
        declared[part] = {"played": played, "made": rng.randint(0, played), "kontrad": rng.randint(0, 1)}
    kontra = {part: {"given": 1, "won": rng.randint(0, 1)} for part in rng.sample(PARTS, rng.randint(0, 2))}
    return orjson.dumps({
        "deals": deals, "declarer_deals": declarer, "declarer_points": rng.randint(-40, 40) * declarer,
        "defender_deals": deals - declarer, "defender_points": rng.randint(-10, 10) * (deals - declarer),
        "declared": declared, "kontra": kontra,
    }).decode()


async def fill(db_url: str, matches: int, seed: int = 1) -> float:
    """``matches`` finished matches of ``PLAYER`` recorded by the store's writer; the seconds it took."""
    rng = random.Random(seed)
    store = await EventStore.open(db_url)
    started = time.perf_counter()
    try:
        ids = {}
        for i, name in enumerate((PLAYER, *OTHERS)):
            ids[name] = f"p{i}"
            await store.create_account(ids[name], name, name_key(name), "x", new_player=True,
                                       skeleton=name_skeleton(name))
        await store.ensure_ratings(list(ids.values()), (NEWCOMER.mu, NEWCOMER.sigma))
        now = int(time.time() * 1000) - matches * 600_000
        for k in range(matches):
            deals = rng.choice((6, 9, 12))
            seats = rng.sample([PLAYER, *OTHERS], 3)
            totals = [rng.randint(-40, 40) for _ in range(2)]
            totals.append(-sum(totals))
            left = [False, False, False]
            ranks = match_ranks(totals, left)
            results = [
                SeatResult(seat=s, player_id=ids[name], name=name, is_bot=False, total=totals[s], rank=ranks[s],
                           left=False, won=ranks[s] == 1, stats=seat_stats(rng, deals))
                for s, name in enumerate(seats)
            ]
            rater = rater_for(ranks) if k % 3 else None
            await store.record_match(f"bench{k:05d}", deals, results, rater, finished_at=now + k * 600_000)
    finally:
        await store.close()
    return time.perf_counter() - started


def summary(times: list[float]) -> tuple[float, float]:
    """(median, 95th percentile) in milliseconds."""
    ordered = sorted(times)
    return statistics.median(ordered) * 1000, ordered[int(0.95 * (len(ordered) - 1))] * 1000


async def run(matches: int, requests: int) -> None:
    """Fill the store, start the server, measure, print."""
    with tempfile.TemporaryDirectory() as tmp:
        db_url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        filled = await fill(db_url, matches)
        print(f"filled {matches} finished matches of one player through record_match in {filled:.1f} s")
        app = create_app(Settings.for_tests(db_url))
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        try:
            async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
                page = f"/api/players/{quote(PLAYER.upper())}"
                body = (await http.get(page)).json()
                assert body["matches"]["rated"]["played"] + body["matches"]["casual"]["played"] == matches, body
                for _ in range(20):  # warm up both routes
                    await http.get(page)
                    await http.get("/healthz")
                times: dict[str, list[float]] = {"page": [], "healthz": []}
                for _ in range(requests):
                    for key, path in (("page", page), ("healthz", "/healthz")):
                        started = time.perf_counter()
                        response = await http.get(path)
                        times[key].append(time.perf_counter() - started)
                        assert response.status_code == 200
                size = len((await http.get(page)).content)
        finally:
            server.should_exit = True
            await task
    page_median, page_p95 = summary(times["page"])
    base_median, base_p95 = summary(times["healthz"])
    print(f"GET /api/players/{{name}} ({matches} matches, {len(body['rating']['history'])} rated, "
          f"{size / 1024:.1f} KiB): median {page_median:.2f} ms, p95 {page_p95:.2f} ms over {requests} requests")
    print(f"GET /healthz (baseline, same run): median {base_median:.2f} ms, p95 {base_p95:.2f} ms")
    print(f"ratio page/healthz (medians): {page_median / base_median:.1f}x; "
          f"target median < 50 ms: {'met' if page_median < 50 else 'NOT met'}")


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="finished matches of the one player")
    parser.add_argument("--requests", type=int, default=300, help="requests of each route")
    args = parser.parse_args()
    asyncio.run(run(args.matches, args.requests))


if __name__ == "__main__":
    main()
