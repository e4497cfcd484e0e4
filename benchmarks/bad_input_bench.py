"""Bad-input run (``make bench``): 100,000 bad messages and requests beside a real table being played.

One server process (test settings: no bot or deal pauses, 500 messages/s per connection). A real
table of three scripted players plays random legal moves, each shortly after its turn comes, and
every command's time to its acknowledgement is recorded. In alternating rounds (quiet, attack,
quiet, attack, ...) an attacker process (at the lowest priority: its CPU is not the server's) sends
bad messages made by the generators of benchmarks/bad_input.py -- drawn from a seeded
``random.Random``, the same generators the property tests draw through hypothesis -- over several
WebSocket connections, each in a role that changes what its messages meet:

- seated: at its own table (itself and two bots), on its turn: actions are parsed and judged;
- spectator: watching the real table: commands reach the real table's actor and are refused there;
- lounger: watching a table not started, where free chat is open: chat text is checked;
- nomad: watching nothing;

and bad HTTP requests at every API route (and WebSocket handshakes with bad tokens). Every message
and request must be refused with a code that names its fault (the generators know which). At the
end of each round the real table's state must be exactly what its acknowledged actions made it (its
match record replays them, and nothing else happened: no chat line, no seat change), and at the end
there must be no ``internal`` error and no Traceback in the server's log.

Printed: messages sent, refusals by code, messages/s, the server's CPU time, and the real table's
command-to-ack p50/p99 in the quiet and the attack rounds (medians over the rounds: the machine is a
shared 2-core box). Each socket sends at most 400 messages/s, under the 500/s a connection may send
with ``--fast`` (a dropped message would be answered by nothing but ``rate_limited``): the default
12 sockets cap the rate at 4,800 messages/s; ``--groups`` adds four sockets per group.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect

from ulti.client import GameClient, ServerError
from ulti.engine.record import score_record

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks import bad_input as gen
from benchmarks.load_bench import cpu_seconds
from ulti.seating import three_players
from ulti.serverprocess import ServerProcess

SERVER_ARGS = ("--fast", "--disconnect-grace", "600")
#: a quick player: the pause before each move (not part of the latency)
THINK = 0.05
#: messages a socket sends before it waits for their answers (a ping closes each batch)
BATCH = 40
#: messages per second one socket sends at most (the server allows 500 with --fast)
SOCKET_RATE = 400.0
#: how the attack's messages are shared: WebSocket sockets per role, and HTTP
ROLES = ("seated", "spectator", "lounger", "nomad")
HTTP_SHARE = 0.05
HTTP_WORKERS = 2
#: codes that come only after the server remembered the command's id (its idempotency key)
AFTER_ID_CHECK = {"illegal", "bad_action", "chain_open", "not_your_turn", "not_seated", "chat_closed"}


# ---------------------------------------------------------------- the attacker (its own process)


@dataclass
class Tally:
    """What the attacker saw: answers by code and anything that was not the refusal expected."""

    sent_ws: int = 0
    sent_http: int = 0
    codes: collections.Counter[str] = field(default_factory=collections.Counter)
    unexpected: list[str] = field(default_factory=list)

    def wrong(self, what: str) -> None:
        if len(self.unexpected) < 20:
            self.unexpected.append(what[:600])
        self.codes["(unexpected)"] += 1


@dataclass
class Socket:
    """One attacking connection: its role, what its generators may know, and its recent ids."""

    role: str
    ws: ClientConnection
    ctx: gen.WsCtx
    remembered: collections.deque[Any] = field(default_factory=lambda: collections.deque(maxlen=64))


async def _login(http: httpx2.AsyncClient, base_url: str, name: str) -> GameClient:
    client = GameClient(base_url, http)
    await client.login(name)
    http.cookies.clear()  # a shared client must not send one player's session cookie with the next login
    return client


async def _open(client: GameClient, table_id: str | None) -> ClientConnection:
    url = client.base_url.replace("http", "ws", 1) + f"/ws?token={client.token}"
    ws = await connect(url, max_size=2**22, max_queue=None)
    await ws.recv()  # welcome
    if table_id is not None:
        await ws.send(orjson.dumps({"type": "open_table", "table": table_id}).decode())
        while orjson.loads(await ws.recv())["type"] != "sync":
            pass
    return ws


async def _seated_view(client: GameClient, table_id: str) -> dict[str, Any]:
    """Wait until the bots have moved and it is ``client``'s turn at its own table; its view then."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        view: dict[str, Any] = await client.http("GET", f"/api/tables/{table_id}")
        deal = view["deal"]
        if deal is not None and deal["phase"] != "done" and deal.get("choices"):
            return view
        await asyncio.sleep(0.05)
    raise TimeoutError("the attacker's turn never came at its own table")


async def setup_sockets(base_url: str, real_table: str, group: int, http: httpx2.AsyncClient) -> list[Socket]:
    """One socket of each role (each a player of its own: a player's command ids are its own)."""
    sockets: list[Socket] = []
    counter = itertools.count(1)
    # seated: its own table with two random bots, started; the table then waits for it for ever
    seated = await _login(http, base_url, f"Attacker {group}")
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    own = (await seated.http("POST", "/api/tables", {"deals": 6, "seats": seats}))["table_id"]
    await seated.http("POST", f"/api/tables/{own}/start", {})
    view = await _seated_view(seated, own)
    deal = view["deal"]
    legal = gen.legal_move(deal, random.Random(group))
    ctx = gen.WsCtx(fresh_id=gen.new_fresh_id(counter), choices=deal["choices"], hand=deal["hands"][str(view["you"])],
                    legal_action=legal, chat_codes={"chat_closed"}, watching=own)
    sockets.append(Socket("seated", await _open(seated, own), ctx))
    # spectator of the real table (a deal in progress: chat_closed; its match over: the text is checked)
    spectator = await _login(http, base_url, f"Watcher {group}")
    ctx = gen.WsCtx(fresh_id=gen.new_fresh_id(counter), seat_codes={"not_seated"},
                    chat_codes={"chat_closed", "bad_chat"}, watching=real_table)
    sockets.append(Socket("spectator", await _open(spectator, real_table), ctx))
    # lounger: a spectator of a table nobody has started, where free chat is open
    lounger = await _login(http, base_url, f"Lounger {group}")
    lounge = (await lounger.http("POST", "/api/tables", {"deals": 6, "seats": [{"kind": "open"}] * 3}))["table_id"]
    ctx = gen.WsCtx(fresh_id=gen.new_fresh_id(counter), seat_codes={"not_seated"}, chat_codes={"bad_chat"},
                    watching=lounge)
    sockets.append(Socket("lounger", await _open(lounger, lounge), ctx))
    # nomad: no table at all
    nomad = await _login(http, base_url, f"Nomad {group}")
    ctx = gen.WsCtx(fresh_id=gen.new_fresh_id(counter), table_codes={"no_table"}, watching=None)
    sockets.append(Socket("nomad", await _open(nomad, None), ctx))
    return sockets


def draw_bad(d: gen.RandomDraw, sock: Socket) -> gen.Bad:
    """A bad message for ``sock`` of a category that applies to it (redrawn when a generator rejects)."""
    sock.ctx.used_ids = list(sock.remembered)
    names = [c for c in gen.CATEGORIES if gen.applicable(c, sock.ctx)]
    while True:
        with contextlib.suppress(gen.Rejected):
            return gen.bad_message(d, d.pick(names), sock.ctx)


async def ws_worker(sock: Socket, d: gen.RandomDraw, budget: list[int], tally: Tally) -> None:
    """Send batches of bad messages, each closed by a ping; check every answer in order."""
    fences = itertools.count(1)
    while budget[0] > 0:
        started = time.monotonic()
        size = min(BATCH, budget[0])
        budget[0] -= size
        batch = [draw_bad(d, sock) for _ in range(size)]
        fence = f"fence-{next(fences)}"
        for bad in batch:
            await sock.ws.send(bad.frame)
        await sock.ws.send(orjson.dumps({"type": "ping", "id": fence}).decode())
        tally.sent_ws += size
        answers: list[dict[str, Any]] = []
        async with asyncio.timeout(60):
            while True:
                message = orjson.loads(await sock.ws.recv())
                if message.get("id") == fence:
                    break
                if message["type"] in ("error", "ack", "pong"):
                    answers.append(message)
        check_batch(sock, batch, answers, tally)
        # stay under the per-connection rate: a dropped message would not be parsed, and tell nothing
        await asyncio.sleep(max(0.0, (size + 1) / SOCKET_RATE - (time.monotonic() - started)))


def check_batch(sock: Socket, batch: list[gen.Bad], answers: list[dict[str, Any]], tally: Tally) -> None:
    """Each bad message got one error, in order, with a code that names its fault and its id."""
    if any(a.get("code") == "rate_limited" for a in answers):
        tally.codes.update(a.get("code", a["type"]) for a in answers)  # out of step: count only
        return
    if len(answers) != len(batch):
        tally.wrong(f"{sock.role}: {len(batch)} messages, {len(answers)} answers: {answers[:3]}")
        return
    for bad, answer in zip(batch, answers, strict=True):
        code = answer.get("code", answer["type"])
        tally.codes[code] += 1
        if answer["type"] != "error" or code not in bad.codes or answer.get("id") != bad.id:
            tally.wrong(f"{sock.role} {bad.category}: {bad.frame[:300]!r} expected {sorted(bad.codes)} "
                        f"id {bad.id!r}, got {answer}")
        elif code in AFTER_ID_CHECK:
            sock.remembered.append(bad.id)


async def http_worker(base_url: str, ctx: gen.HttpCtx, d: gen.RandomDraw, budget: list[int], tally: Tally) -> None:
    """Bad HTTP requests at every route, and WebSocket handshakes with bad tokens, one connection each."""
    port = int(base_url.rsplit(":", 1)[1])
    faults = [*sorted(gen.HTTP_FAULTS), "ws_token"]
    while budget[0] > 0:
        budget[0] -= 1
        tally.sent_http += 1
        fault = d.pick(faults)
        try:
            if fault == "ws_token":
                query, statuses = gen.ws_bad_token(d, ctx)
                status = await gen.handshake_status(f"ws://{ctx.host}/ws?{query}")
                tally.codes[f"handshake {status}"] += 1
                if status not in statuses:
                    tally.wrong(f"ws handshake {query[:200]}: {status}, expected {statuses}")
                continue
            request = gen.bad_request(d, ctx, fault)
        except gen.Rejected:
            continue
        status, body = await gen.http_call(port, request, ctx.host)
        try:
            tally.codes[f"http {gen.check_http_answer(request, status, body)}"] += 1
        except AssertionError as exc:
            tally.wrong(f"http {fault}: {exc}")


async def attack(base_url: str, real_table: str, target: int, groups: int, seed: int, ready: Any, go: Any,
                 result: Any) -> None:
    """Set up the sockets, say ready, wait for the go, send ``target`` bad messages and requests."""
    async with httpx2.AsyncClient(timeout=60) as http:
        sockets = [s for g in range(groups) for s in await setup_sockets(base_url, real_table, seed * 100 + g, http)]
        # HTTP: a player of its own; its requests name the real table and an attacker's (a started table too)
        token = (await http.post(base_url + "/api/session", json={"name": f"Prober {seed}"})).json()["token"]
        own = sockets[0].ctx.watching
        assert own is not None
        http_ctx = gen.HttpCtx(base_url.split("//", 1)[1], [own, real_table], token)
        tally = Tally()
        http_budget = [int(target * HTTP_SHARE)]
        ws_budgets = [[(target - http_budget[0]) // len(sockets)] for _ in sockets]
        ws_budgets[0][0] += target - http_budget[0] - sum(b[0] for b in ws_budgets)
        ready.set()
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        started = time.monotonic()
        cpu = time.process_time()
        await asyncio.gather(
            *(ws_worker(s, gen.RandomDraw(random.Random(f"{seed}:{i}")), b, tally)
              for i, (s, b) in enumerate(zip(sockets, ws_budgets, strict=True))),
            *(http_worker(base_url, http_ctx, gen.RandomDraw(random.Random(f"{seed}:http{i}")), http_budget, tally)
              for i in range(HTTP_WORKERS)),
        )
        result.update(seconds=time.monotonic() - started, attacker_cpu=time.process_time() - cpu, sent_ws=tally.sent_ws,
                      sent_http=tally.sent_http, codes=dict(tally.codes), unexpected=tally.unexpected,
                      sockets=len(sockets))
        for sock in sockets:
            await sock.ws.close()


def attacker_process(base_url: str, real_table: str, target: int, groups: int, seed: int, ready: Any, go: Any,
                     result: Any) -> None:
    """The attacker's process entry point: at the lowest priority, so what the table feels is the
    server's cost of the bad input, not a third process competing for two cores."""
    os.nice(19)
    uvloop.run(attack(base_url, real_table, target, groups, seed, ready, go, result))


# ---------------------------------------------------------------- the real table


@dataclass
class Table:
    """A real table and what its players had acknowledged: (seq, seat, action) and the latencies."""

    table_id: str
    clients: list[GameClient]
    acked: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    #: moves asked of each (seat, event number): an acknowledged move that made no event (a kontra
    #: declined again) leaves the view as it was, and the next move must be drawn anew, not repeated
    tries: dict[tuple[int, int], int] = field(default_factory=dict)


async def new_table(base_url: str, label: str) -> Table:
    table_id, clients = await three_players(base_url, deals=12, start=True, names=f"Round {label} ")
    return Table(table_id, clients)


async def move(table: Table, seat: int, think: float) -> bool:
    """The seat's player makes a random legal move if it is its turn; whether it did."""
    client = table.clients[seat]
    if not client.my_turn():
        return False
    await asyncio.sleep(think)
    if not client.my_turn():
        return False
    assert client.state is not None
    tries = table.tries[(seat, client.seq)] = table.tries.get((seat, client.seq), 0) + 1
    action = gen.legal_move(client.state["deal"], random.Random(f"{table.table_id}:{client.seq}:{tries}"))
    started = time.perf_counter()
    try:
        ack = await client.act(action)
    except ServerError as exc:
        if exc.code in ("not_your_turn", "no_deal"):  # the view was a step behind: look again shortly
            await asyncio.sleep(0.05)
            return False
        raise
    table.latencies.append(time.perf_counter() - started)
    if all(seq != ack["seq"] for seq, _, _ in table.acked):  # an ack of a move that made no event adds none
        table.acked.append((ack["seq"], seat, action))
    return True


def describe(table: Table) -> str:
    """Where each player of ``table`` thinks the deal is (for a table that stopped moving)."""
    lines = []
    for seat, client in enumerate(table.clients):
        deal = client.state["deal"] if client.state else None
        lines.append(f"seat {seat}: seq {client.seq}, deal {client.state and client.state['deal_index']}, "
                     f"phase {deal and deal['phase']}, to move {deal and deal.get('to_move')}, "
                     f"choices {deal and deal.get('choices')}, last message {client.received[-1:]}")
    return f"table {table.table_id} stopped moving:\n" + "\n".join(lines)


async def player(table: Table, seat: int, stop: asyncio.Event) -> None:
    client = table.clients[seat]
    while not stop.is_set() and not client.match_over():
        if not await move(table, seat, THINK):
            with contextlib.suppress(TimeoutError):
                await client.wait_for(lambda: stop.is_set() or client.match_over() or client.my_turn(), 0.25)


async def finish_deal(table: Table) -> None:
    """Play the deal in progress to its end, one move at a time (not measured)."""
    first = table.clients[0]
    assert first.state is not None
    deal_index = first.state["deal_index"]
    deadline = time.monotonic() + 60
    while not first.match_over() and first.state["deal_index"] == deal_index:
        if time.monotonic() > deadline:
            raise RuntimeError(describe(table))
        moved = False
        for seat in range(3):
            moved = await move(table, seat, 0) or moved
        if not moved:
            with contextlib.suppress(TimeoutError):
                await first.wait_for(lambda: any(c.my_turn() for c in table.clients) or first.match_over(), 1)


async def verify(table: Table, base_url: str) -> int:
    """The table is exactly what its acknowledged actions made it: its record replays them and nothing
    else happened (no chat, the same three players); returns the number of actions."""
    async with httpx2.AsyncClient(base_url=base_url, timeout=30) as http:
        record = (await http.get(f"/api/tables/{table.table_id}/record")).json()
        headers = {"authorization": f"Bearer {table.clients[0].token}"}
        view = (await http.get(f"/api/tables/{table.table_id}", headers=headers)).json()
    stored = [a for deal in record["deals"] for a in deal["actions"]]
    acked = [{**action, "seat": seat} for _, seat, action in sorted(table.acked, key=lambda a: a[0])]
    assert stored == acked, f"table {table.table_id}: {len(stored)} stored actions, {len(acked)} acknowledged"
    assert view["chat"] == [], view["chat"]
    names = [s["name"] for s in view["table"]["seats"]]
    assert [s["kind"] for s in view["table"]["seats"]] == ["player"] * 3 and all(n.startswith("Round") for n in names)
    assert not any(s["away"] for s in view["table"]["seats"])
    # every event the players saw is one of the table's own: deals and the actions they made
    kinds = {m["event"]["type"] for c in table.clients for m in c.received if m["type"] == "event"}
    assert kinds <= {"start", "deal", "action"}, kinds
    score_record(record)  # and the record replays through the engine
    return len(stored)


async def play_round(base_url: str, first: Table, label: str, seconds: float | None, attacker_done: Any
                     ) -> dict[str, Any]:
    """Play real tables until ``seconds`` pass or the attacker is done; verify each; the figures."""
    tables: list[Table] = []
    deadline = time.monotonic() + seconds if seconds is not None else None
    while True:
        table = first if not tables else await new_table(base_url, f"{label}.{len(tables)}")
        tables.append(table)
        stop = asyncio.Event()

        async def watch(stop: asyncio.Event = stop) -> None:
            while not stop.is_set():
                over = deadline is not None and time.monotonic() >= deadline
                if over or (attacker_done is not None and attacker_done()):
                    stop.set()
                await asyncio.sleep(0.05)

        watcher = asyncio.create_task(watch())
        await asyncio.gather(*(player(table, seat, stop) for seat in range(3)))
        measured = len(table.latencies)
        finished = stop.is_set()
        stop.set()
        await watcher
        await finish_deal(table)
        table.latencies = table.latencies[:measured]
        if finished:
            break
    actions = 0
    for table in tables:
        actions += await verify(table, base_url)
        for client in table.clients:
            await client.close()
    latencies = [x for t in tables for x in t.latencies]
    return {"latencies": latencies, "tables": len(tables), "actions": actions}


# ---------------------------------------------------------------- the run


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) in ms, by the nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def metric(base_url: str, name: str, label: str) -> float:
    """The sum of a Prometheus series of the server whose labels contain ``label``."""
    with urllib.request.urlopen(base_url + "/metrics", timeout=10) as response:
        text = response.read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(name + "{") and label in line)


async def run_round(base_url: str, number: int, attacking: bool, args: argparse.Namespace, context: Any,
                    manager: Any, server_pid: int) -> dict[str, Any]:
    """One round: a real table played for a while (quiet) or while the attacker sends its share (attack)."""
    loop = asyncio.get_running_loop()
    first = await new_table(base_url, str(number))
    result = manager.dict()
    process = None
    done = None
    if attacking:
        ready, go = manager.Event(), manager.Event()
        per_round = -(-args.messages // args.rounds)
        process = context.Process(target=attacker_process, args=(
            base_url, first.table_id, per_round, args.groups, args.seed * 1000 + number, ready, go, result))
        process.start()
        if not await loop.run_in_executor(None, ready.wait, 120):
            raise RuntimeError("the attacker did not get ready")
        go.set()

        def done(p: Any = process) -> bool:
            return not p.is_alive()

    cpu = cpu_seconds(server_pid)
    started = time.monotonic()
    figures = await play_round(base_url, first, str(number), None if attacking else args.quiet_seconds, done)
    elapsed = time.monotonic() - started
    cpu = cpu_seconds(server_pid) - cpu
    if process is not None:
        await loop.run_in_executor(None, process.join, 60)
        if process.exitcode != 0:
            raise RuntimeError(f"the attacker failed (exit code {process.exitcode})")
    return {**dict(result), **figures, "attack": attacking, "cpu": cpu, "elapsed": elapsed}


def main() -> None:
    """Alternate quiet and attack rounds against one server; check, then print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000, help="bad messages and requests in all")
    parser.add_argument("--rounds", type=int, default=3, help="quiet/attack pairs")
    parser.add_argument("--quiet-seconds", type=float, default=10.0, help="length of each quiet round")
    parser.add_argument("--groups", type=int, default=3, help="attacking sockets per role (seated, spectator, ...)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(db_url=f"sqlite+aiosqlite:///{tmp}/bad_input.db", args=SERVER_ARGS)
        log_path = Path(tmp) / "server.log"
        server.start(log_path)
        assert server.proc is not None
        manager = context.Manager()
        rounds: list[dict[str, Any]] = []
        try:
            print(f"bad-input run: {args.messages:,} bad messages and requests in {args.rounds} attack rounds, "
                  f"{len(ROLES) * args.groups} sockets + HTTP, beside a real table (think {THINK * 1000:.0f} ms)")
            print(f"{'round':>8} {'tables':>6} {'acks':>5} {'p50 ms':>7} {'p99 ms':>7} {'bad sent':>9} {'msgs/s':>7} "
                  f"{'server CPU s':>12}")
            for number in range(2 * args.rounds):
                attacking = number % 2 == 1
                round_ = uvloop.run(run_round(server.base_url, number, attacking, args, context, manager,
                                              server.proc.pid))
                rounds.append(round_)
                sent = round_.get("sent_ws", 0) + round_.get("sent_http", 0)
                rate = f"{sent / round_['seconds']:7.0f}" if attacking else f"{'':7}"
                print(f"{'attack' if attacking else 'quiet':>8} {round_['tables']:>6} {len(round_['latencies']):>5} "
                      f"{percentile(round_['latencies'], 0.5):>7.1f} {percentile(round_['latencies'], 0.99):>7.1f} "
                      f"{sent:>9,} {rate} {round_['cpu']:>12.2f}", flush=True)
            internal = metric(server.base_url, "ulti_refusals_total", 'code="internal"')
        finally:
            server.stop()
            manager.shutdown()
        log = log_path.read_text()
    report(rounds, internal, log)


def report(rounds: list[dict[str, Any]], internal: float, log: str) -> None:
    attacks = [r for r in rounds if r["attack"]]
    quiet = [r for r in rounds if not r["attack"]]
    sent_ws = sum(r["sent_ws"] for r in attacks)
    sent_http = sum(r["sent_http"] for r in attacks)
    seconds = sum(r["seconds"] for r in attacks)
    codes: collections.Counter[str] = collections.Counter()
    for r in attacks:
        codes.update(r["codes"])
    unexpected = [u for r in attacks for u in r["unexpected"]]
    print(f"sent: {sent_ws + sent_http:,} bad messages and requests ({sent_ws:,} WebSocket messages over "
          f"{attacks[0]['sockets']} sockets, {sent_http:,} HTTP requests and handshakes) in {seconds:.1f} s: "
          f"{(sent_ws + sent_http) / seconds:,.0f} messages/s")
    ws_codes = sorted((c for c in codes if not c.startswith(("http ", "handshake "))), key=lambda c: -codes[c])
    http_codes = sorted((c for c in codes if c.startswith(("http ", "handshake "))), key=lambda c: -codes[c])
    print("refusals by code (WebSocket): " + ", ".join(f"{c} {codes[c]:,}" for c in ws_codes))
    print("refusals by code (HTTP): " + ", ".join(f"{c.removeprefix('http ')} {codes[c]:,}" for c in http_codes))
    cpu_attack, cpu_quiet = sum(r["cpu"] for r in attacks), sum(r["cpu"] for r in quiet)
    cores_attack = cpu_attack / sum(r["elapsed"] for r in attacks)
    cores_quiet = cpu_quiet / sum(r["elapsed"] for r in quiet)
    per_message = 1e6 * cpu_attack / max(1, sent_ws + sent_http)
    print(f"server CPU: {cpu_attack:.1f} s in the attack rounds ({cores_attack:.2f} cores; {per_message:.0f} µs per bad"
          f" message, the table's own play included), {cpu_quiet:.1f} s in the quiet rounds ({cores_quiet:.2f} cores);"
          f" the attacker's own CPU (niced): {sum(r['attacker_cpu'] for r in attacks):.1f} s")
    for name, group in (("quiet", quiet), ("attack", attacks)):
        p50 = statistics.median(percentile(r["latencies"], 0.5) for r in group)
        p99 = statistics.median(percentile(r["latencies"], 0.99) for r in group)
        acks = sum(len(r["latencies"]) for r in group)
        print(f"real table, command to ack, {name:>6} rounds: p50 {p50:6.1f} ms, p99 {p99:6.1f} ms "
              f"(medians over {len(group)} rounds, {acks} acks)")
    tables = sum(r["tables"] for r in rounds)
    actions = sum(r["actions"] for r in rounds)
    print(f"checked: {tables} real tables are exactly what their {actions:,} acknowledged actions made them; "
          f"{int(internal)} internal errors; {log.count('Traceback')} Tracebacks in the server log")
    failures = []
    if unexpected:
        failures.append(f"{codes['(unexpected)']} answers were not the refusal expected, e.g.:\n  " +
                        "\n  ".join(unexpected[:10]))
    if internal or "Traceback" in log or '"level": "error"' in log:
        failures.append("the server failed: " + "\n".join(
            line for line in log.splitlines() if '"level": "error"' in line or "Traceback" in line)[-3000:])
    if failures:
        print("FAILED: " + "\n".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
