"""Account run (``make bench``): what Argon2id costs a login, and register/login throughput over HTTP.

Prints, with the costs chosen in ``ulti/accounts/passwords.py``:

- one Argon2id hash and one verification in one thread (the time one login costs one core);
- median time and throughput of ``POST /api/account/register`` and ``POST /api/account/login``
  one request at a time and with several at once, against ``POST /api/session`` (a guest session,
  no hashing) as the baseline measured in the same process and run;
- the median answer time of a wrong password for a known and for an unknown name (they should match).

The server is the real app under uvicorn in this process (test settings), on loopback; the login
guard is widened for the run, since every request comes from one address.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

import httpx2
import uvicorn

from ulti.accounts import Accounts
from ulti.accounts.guard import LoginGuard
from ulti.accounts.passwords import LANES, MEMORY_KIB, TIME_COST, PasswordHashing
from ulti.server.app import create_app
from ulti.server.config import Settings
from ulti.server.sessions import accounts_of

PASSWORD = "correct horse battery"


def argon2_times(rounds: int) -> tuple[float, float, float]:
    """Median seconds of one hash and one verification at the chosen costs, in this thread, and the
    fastest verification (the figure least disturbed by other work on a shared machine)."""
    hashing = PasswordHashing()
    hashes, verifies = [], []
    stored = hashing.hash_now(PASSWORD)
    for _ in range(rounds):
        started = time.perf_counter()
        hashing.hash_now(PASSWORD)
        hashes.append(time.perf_counter() - started)
        started = time.perf_counter()
        hashing.verify_now(stored, PASSWORD)
        verifies.append(time.perf_counter() - started)
    return statistics.median(hashes), statistics.median(verifies), min(verifies)


async def timed(requests: int, concurrency: int, one: Callable[[int], Awaitable[None]]) -> tuple[float, float]:
    """(median seconds per request, requests per second) of ``requests`` calls, ``concurrency`` at a time."""
    times: list[float] = []
    numbers = iter(range(requests))

    async def worker() -> None:
        for i in numbers:
            started = time.perf_counter()
            await one(i)
            times.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return statistics.median(times), requests / (time.perf_counter() - started)


async def run(requests: int, concurrency: int) -> None:
    """Start the server, measure, print."""
    hash_s, verify_s, fastest = argon2_times(15)
    print(f"Argon2id t={TIME_COST} m={MEMORY_KIB} KiB p={LANES}, one thread, median of 15: "
          f"hash {hash_s * 1000:.1f} ms, verify {verify_s * 1000:.1f} ms (fastest {fastest * 1000:.1f} ms)")
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings.for_tests(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}")
        app = create_app(settings)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        # every request comes from 127.0.0.1: widen the guard for the run (its limits are tested elsewhere)
        app.state.accounts = Accounts(app.state.store, guard=LoginGuard("1000000/minute", "1000000/minute"))
        assert accounts_of(app).guard.per_name == "1000000/minute"
        base = f"http://127.0.0.1:{port}"
        async with httpx2.AsyncClient(base_url=base, timeout=60) as http:

            async def post(path: str, body: dict[str, Any], expect: int = 200) -> None:
                http.cookies.clear()  # each request is a new visitor (no cookie: no guest to upgrade)
                response = await http.post(path, json=body)
                assert response.status_code == expect, response.text

            async def register_one(tag: str, i: int) -> None:
                await post("/api/account/register", {"name": f"{tag} {i}", "password": PASSWORD})

            async def login_one(tag: str, i: int) -> None:
                await post("/api/account/login", {"name": f"{tag} {i}", "password": PASSWORD})

            rows: list[tuple[str, int, float, float]] = []
            for width in sorted({1, concurrency}):
                rows.append(("guest session (baseline)", width, *await timed(
                    requests, width, lambda i: post("/api/session", {"name": f"Guest {i}"}))))
                rows.append(("register", width, *await timed(requests, width, partial(register_one, f"w{width}"))))
                rows.append(("login", width, *await timed(requests, width, partial(login_one, f"w{width}"))))
            # interleaved, so that the load of the shared machine weighs on both alike
            known_times: list[float] = []
            unknown_times: list[float] = []
            for i in range(requests):
                for name, times in ((f"w1 {i}", known_times), (f"nobody {i}", unknown_times)):
                    started = time.perf_counter()
                    await post("/api/account/login", {"name": name, "password": "wrong password"}, 401)
                    times.append(time.perf_counter() - started)
            known, unknown = statistics.median(known_times), statistics.median(unknown_times)
        server.should_exit = True
        await task
    baseline = {width: rate for name, width, _, rate in rows if name.startswith("guest")}
    print(f"\n{'route':<26} {'at once':>7} {'median ms':>10} {'per second':>11} {'vs guest':>9}")
    for name, width, median, rate in rows:
        print(f"{name:<26} {width:>7} {median * 1000:>10.1f} {rate:>11.1f} {rate / baseline[width]:>8.2f}x")
    print(f"\nwrong password, known name:   median {known * 1000:.1f} ms")
    print(f"wrong password, unknown name: median {unknown * 1000:.1f} ms (ratio {unknown / known:.2f})")


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40, help="requests per measured row")
    parser.add_argument("--concurrency", type=int, default=4, help="requests at once in the second rows")
    args = parser.parse_args()
    asyncio.run(run(args.requests, args.concurrency))


if __name__ == "__main__":
    main()
