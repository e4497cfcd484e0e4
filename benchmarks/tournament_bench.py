"""Tournament seating speed (``make bench``): a standings round of 3,000 and of 300 players.

For each size, a history of ``--history`` rounds (tables drawn at random) and a random standings order
are made; then the next round is seated from the standings (``ulti.tournaments.seating``: fewest
repeats, a player moves at most one table) ``--repeat`` times. It prints the median and the worst
time and the repeats left (zero unless the rule cannot avoid one), and the time to recompute the
standings of a 300-player tournament from its director's log (``--history`` rounds of 100 tables).
The target for 3,000 players is under one second.

With ``--server`` it also runs a 300-player tournament of built-in bots (100 tables) on a real
``ulti serve`` process (``--fast``: bots play at once): the time the director takes to seat round 1
(the desk's start: the seating, 100 tables created, filled with bots and started), the standings'
response time (``GET /api/tournaments/{id}/standings``, median and 95th percentile) while the 100
tables play, and the time until every table's result is in.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from ulti.client import GameClient
from ulti.serverprocess import ServerProcess
from ulti.tournaments.log import replay
from ulti.tournaments.seating import repeats, seat_by_standings
from ulti.tournaments.standings import standings


def history(players: int, rounds: int, rng: random.Random) -> tuple[set[tuple[int, int]], list[list[list[int]]]]:
    """The pairs met over ``rounds`` random rounds, and the rounds' tables."""
    met: set[tuple[int, int]] = set()
    seated = []
    for _ in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        tables = [order[i:i + 3] for i in range(0, players - players % 3, 3)]
        seated.append(tables)
        for table in tables:
            met.update(itertools.combinations(sorted(table), 2))
    return met, seated


def seat_times(players: int, rounds: int, repeat: int) -> None:
    """Seat one standings round of ``players`` after ``rounds`` rounds, ``repeat`` times; print the times."""
    rng = random.Random(players)
    met, _ = history(players, rounds, rng)
    order = list(range(players))
    rng.shuffle(order)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        tables = seat_by_standings(order, met)
        times.append(time.perf_counter() - started)
    print(f"seat a standings round of {players} players ({rounds} rounds before):"
          f" median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms,"
          f" repeats {repeats(tables, met)}" + ("  (target under 1 s)" if players >= 3000 else ""))


def standings_time(players: int, rounds: int) -> None:
    """Recompute the standings of a ``players`` tournament of ``rounds`` rounds from its log; print the time."""
    rng = random.Random(7)
    _, seated = history(players, rounds, rng)
    log: list[dict[str, Any]] = [{"type": "created", "settings": {"format": "standings", "rounds": rounds}}]
    log += [{"type": "registered", "name": f"P{n}"} for n in range(players)]
    for number, tables in enumerate(seated, start=1):
        log.append({"type": "round_seated", "round": number, "tables": tables})
        for t in range(1, len(tables) + 1):
            a, b = rng.randrange(-20, 21), rng.randrange(-20, 21)
            log.append({"type": "result_recorded", "round": number, "table": t, "points": [a, b, -a - b]})
    started = time.perf_counter()
    lines = standings(replay(log))
    elapsed = time.perf_counter() - started
    print(f"standings of {players} players recomputed from a log of {len(log)} events: {elapsed * 1000:.0f} ms"
          f" (leader {lines[0]['name']} {lines[0]['total']})")


async def server_round(players: int, deals: int) -> None:
    """A tournament of ``players`` built-in bots on a real server: seat round 1, time the standings while it plays."""
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp}/tournament.db")
        server.start(Path(tmp) / "server.log")
        try:
            host = GameClient(server.base_url)
            await host.login("Bench director")
            made = await host.http("POST", "/api/tournaments", {
                "name": "Bench cup", "rounds": 1, "deals_per_round": deals, "move_seconds": 60, "level": "random",
                "break_seconds": 0,
            })
            tid = made["tournament_id"]
            await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "add_bots", "count": players})
            started = time.perf_counter()
            await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"})
            seat_seconds = time.perf_counter() - started
            latencies: list[float] = []
            while True:
                asked = time.perf_counter()
                answer = await host.http("GET", f"/api/tournaments/{tid}/standings")
                latencies.append(time.perf_counter() - asked)
                if answer["status"] == "finished":
                    break
                await asyncio.sleep(0.2)
            round_seconds = time.perf_counter() - started
            await host.close()
        finally:
            server.stop()
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(f"server: seat round 1 of {players} bots ({players // 3} tables created, filled, started):"
          f" {seat_seconds * 1000:.0f} ms; standings while it plays: median"
          f" {statistics.median(latencies) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms over {len(latencies)} asks;"
          f" every result in after {round_seconds:.1f} s ({deals} deals a table)")


def main() -> None:
    """Parse the options and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--history", type=int, default=6, help="rounds played before the one seated")
    parser.add_argument("--repeat", type=int, default=5, help="seatings timed per size")
    parser.add_argument("--server", action="store_true", help="also run a round of bots on a real server")
    parser.add_argument("--server-players", type=int, default=300, help="players of the server's tournament")
    parser.add_argument("--deals", type=int, default=6, choices=(6, 9, 12), help="deals per table in that round")
    args = parser.parse_args()
    for players in (3000, 300):
        seat_times(players, args.history, args.repeat)
    standings_time(300, args.history)
    if args.server:
        asyncio.run(server_round(args.server_players, args.deals))


if __name__ == "__main__":
    main()
