"""Ratings at the end of a match: openskill's Plackett–Luce update, exactly once (even across a kill -9),
leavers ranked last, bot accounts, and rated tables refusing guests.

The in-process tests run a table's actor over a real SQLite store (as tests/server/test_actor.py
does); the crash tests run real ``ulti serve`` processes.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from openskill.models import PlackettLuce

from tests.server.conftest import ServerProcess
from tests.server.helpers import until
from tests.server.test_actor import HOST, RecordingHost, new_actor, stop
from ulti.accounts.names import name_skeleton
from ulti.bots.random_bot import RandomBot
from ulti.client import GameClient, ServerError
from ulti.engine.record import action_to_json
from ulti.server import tablerules, tableviews
from ulti.server.actor import TableActor
from ulti.server.errors import CommandError
from ulti.server.events import SeatSpec, parse_event
from ulti.server.match_stats import match_stats
from ulti.server.results import CRASH_ENV, record_if_unrecorded, record_result
from ulti.server.tablestate import TableState
from ulti.store.eventstore import EventStore
from ulti.store.models import accounts, match_players, match_results, ratings

PASSWORD = "correct horse battery"


# ---------------------------------------------------------------- helpers


async def add_account(store: EventStore, player_id: str, name: str) -> None:
    await store.create_account(player_id, name, name.casefold(), "not-a-hash", new_player=True,
                               skeleton=name_skeleton(name))


async def set_rating(store: EventStore, player_id: str, mu: float, sigma: float, matches: int) -> None:
    async with store.engine.begin() as conn:
        await conn.execute(
            sa.insert(ratings).values(player_id=player_id, mu=mu, sigma=sigma, rated_matches=matches, updated_at=0)
        )


async def rating_rows(store: EventStore) -> dict[str, tuple[float, float, int]]:
    async with store.engine.connect() as conn:
        columns = (ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.rated_matches)
        rows = await conn.execute(sa.select(*columns))
        return {r[0]: (r[1], r[2], r[3]) for r in rows}


async def seat_rows(store: EventStore, table_id: str) -> list[dict[str, Any]]:
    async with store.engine.connect() as conn:
        rows = await conn.execute(
            sa.select(match_players).where(match_players.c.table_id == table_id).order_by(match_players.c.seat)
        )
        return [dict(r._mapping) for r in rows]


async def result_count(store: EventStore) -> int:
    async with store.engine.connect() as conn:
        return int((await conn.execute(sa.select(sa.func.count()).select_from(match_results))).scalar_one())


async def create_rated(actor: TableActor, seats: list[SeatSpec], seed: int = 11) -> None:
    """A rated table (the seed only makes the test repeatable; the hub refuses seeds at rated tables)."""

    async def command() -> None:
        await actor.emit({"type": "created", "host": HOST, "deals": 6, "move_seconds": 0, "seed": seed,
                          "chosen_seed": True, "rated": True, "seats": seats})

    await actor.run(command)


async def sit(actor: TableActor, seat: int, player: str, name: str, account: bool = True) -> None:
    async def command() -> None:
        await actor.emit(tablerules.join_event(actor.state, player, name, seat, None, account))

    await actor.run(command)


async def begin(actor: TableActor) -> None:
    async def command() -> None:
        for event in tablerules.start_events(actor.state, HOST, True):
            await actor.emit(event)
        await actor.emit(tablerules.next_deal_event(actor.state))

    await actor.run(command)


async def play_people_to_the_end(actor: TableActor, seed: int = 5) -> None:
    """The people at the table play random legal actions until the match is over (bots play themselves)."""
    rng = random.Random(seed)
    async with asyncio.timeout(120):
        while actor.state.status != "finished":
            deal = actor.state.deal
            if deal is None or deal.is_over or deal.to_move in actor.state.bot_seats():
                await asyncio.sleep(0.005)  # a bot's turn, or the next deal is due
                continue
            seat = deal.to_move
            assert seat is not None  # the deal is not over
            move = action_to_json(RandomBot(rng).act(deal.seat_view(seat)))
            move.pop("seat")
            await actor.act(seat, move)


async def until_recorded(actor: TableActor, store: EventStore) -> None:
    """Wait for the match's end to be recorded (the last move may be a bot's, still recording)."""

    async def recorded() -> bool:
        return actor.state.status == "finished" and not actor.lock.locked() and await store.match_recorded("t1")

    await until(recorded, 120, "the match over and recorded")


def expected_ratings(before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """openskill itself, called directly: what the update must equal."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = model.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


def competition_ranks(totals: list[int]) -> list[int]:
    return [1 + sum(1 for other in totals if other > total) for total in totals]


# ---------------------------------------------------------------- in process


@pytest.mark.asyncio
async def test_a_finished_three_account_match_updates_ratings_as_openskill_does(store: EventStore) -> None:
    people = [("acc-anna", "Anna"), ("acc-bela", "Bela"), ("acc-cili", "Cili")]
    for player_id, name in people:
        await add_account(store, player_id, name)
    # Anna has played before; the others are newcomers (no rating row yet)
    await set_rating(store, "acc-anna", 28.5, 6.0, 4)
    host = RecordingHost(store)
    actor = new_actor(store, host)
    await create_rated(actor, [{"kind": "open"}] * 3)
    for seat, (player_id, name) in enumerate(people):
        await sit(actor, seat, player_id, name)
    await begin(actor)
    await play_people_to_the_end(actor)
    await until_recorded(actor, store)
    await stop(actor, host)

    assert actor.state.match is not None
    totals = actor.state.match.totals()
    ranks = competition_ranks(totals)
    newcomer = (25.0, 25.0 / 3)
    want = expected_ratings([(28.5, 6.0), newcomer, newcomer], ranks)
    got = await rating_rows(store)
    for (player_id, _), (mu, sigma) in zip(people, want, strict=True):
        assert got[player_id][0] == pytest.approx(mu, abs=1e-9)
        assert got[player_id][1] == pytest.approx(sigma, abs=1e-9)
    assert [got[p][2] for p, _ in people] == [5, 1, 1]

    seats = await seat_rows(store, "t1")
    assert [s["player_id"] for s in seats] == [p for p, _ in people]
    assert [s["name"] for s in seats] == ["Anna", "Bela", "Cili"]
    assert [s["total"] for s in seats] == totals
    assert [s["rank"] for s in seats] == ranks
    assert [s["won"] for s in seats] == [r == 1 for r in ranks]
    assert not any(s["left"] or s["is_bot"] for s in seats)
    assert all(s["rated"] for s in seats)
    assert [s["rating_before"] for s in seats] == [1640, 1500, 1500]  # 1500 + 40 × (mu − 25)
    assert [s["rating_after"] for s in seats] == [round(1500 + 40 * (mu - 25)) for mu, _ in want]
    assert [json.loads(s["stats"]) for s in seats] == match_stats(actor.state.match)
    assert await result_count(store) == 1

    # Recording again (another process, a restart) changes nothing at all.
    assert await record_result(store, actor.state) is False
    assert await record_if_unrecorded(store, actor.state) is False
    assert await rating_rows(store) == got
    assert await seat_rows(store, "t1") == seats


@pytest.mark.asyncio
async def test_a_player_who_left_is_ranked_last_and_bots_play_rated_under_distinct_accounts(
    store: EventStore,
) -> None:
    await add_account(store, "acc-anna", "Anna")
    host = RecordingHost(store)
    actor = new_actor(store, host)
    bot: SeatSpec = {"kind": "bot", "level": "random"}
    await create_rated(actor, [{"kind": "open"}, bot, bot])
    await sit(actor, 0, "acc-anna", "Anna")
    await begin(actor)

    async def gone() -> None:  # Anna's grace period ran out: a bot plays her seat to the end
        await actor.emit({"type": "away", "seat": 0, "away": True})

    await actor.run(gone)
    await until_recorded(actor, store)
    await stop(actor, host)

    seats = await seat_rows(store, "t1")
    assert [s["name"] for s in seats] == ["Anna", "Bot · random", "Bot · random 2"]
    assert [s["player_id"] for s in seats] == ["acc-anna", "bot-random", "bot-random-2"]
    assert [s["is_bot"] for s in seats] == [False, True, True]
    anna = seats[0]
    assert anna["left"] and not anna["won"] and anna["rank"] == 3  # whatever her total was
    bot_totals = [seats[1]["total"], seats[2]["total"]]
    assert [seats[1]["rank"], seats[2]["rank"]] == competition_ranks(bot_totals)
    assert anna["rating_after"] < anna["rating_before"] == 1500  # last place costs a newcomer points

    rows = await rating_rows(store)
    assert {p: rows[p][2] for p in ("acc-anna", "bot-random", "bot-random-2")} == {
        "acc-anna": 1, "bot-random": 1, "bot-random-2": 1,
    }
    async with store.engine.connect() as conn:
        bots = (await conn.execute(sa.select(accounts.c.player_id, accounts.c.name, accounts.c.password_hash)
                                   .where(accounts.c.player_id.like("bot-%")))).all()
    assert sorted(tuple(b) for b in bots) == [
        ("bot-random", "Bot · random", ""),  # no password: nobody logs in as a bot
        ("bot-random-2", "Bot · random 2", ""),
    ]


@pytest.mark.asyncio
async def test_a_casual_match_is_recorded_without_ratings(store: EventStore) -> None:
    host = RecordingHost(store)
    actor = new_actor(store, host)

    async def command() -> None:
        await actor.emit({"type": "created", "host": HOST, "deals": 6, "move_seconds": 0, "seed": 3,
                          "chosen_seed": True, "seats": [{"kind": "bot", "level": "random"}] * 3})

    await actor.run(command)
    await begin(actor)
    await until_recorded(actor, store)
    await stop(actor, host)
    seats = await seat_rows(store, "t1")
    assert [s["player_id"] for s in seats] == ["bot-random", "bot-random-2", "bot-random-3"]
    assert not any(s["rated"] for s in seats)
    assert [s["rating_before"] for s in seats] == [None] * 3
    assert await rating_rows(store) == {}  # a casual match rates nobody
    assert await result_count(store) == 1


def test_a_rated_table_refuses_a_guest_and_seats_an_account() -> None:
    state = TableState("t1")
    state.apply({"type": "created", "host": HOST, "deals": 6, "move_seconds": 0, "seed": 1, "rated": True,
                 "seats": [{"kind": "open"}] * 3})
    assert tableviews.summary(state)["rated"] is True
    with pytest.raises(CommandError) as refused:
        tablerules.join_event(state, "guest1", "Guest", 0, None, account=False)
    assert refused.value.code == "account_required"
    assert tablerules.join_event(state, "acc1", "Anna", 0, None, account=True)["seat"] == 0
    casual = TableState("t2")
    casual.apply({"type": "created", "host": HOST, "deals": 6, "move_seconds": 0, "seed": 1,
                  "seats": [{"kind": "open"}] * 3})  # an event stored before ratings: casual
    assert tableviews.summary(casual)["rated"] is False
    assert tablerules.join_event(casual, "guest1", "Guest", 0, None)["seat"] == 0


# ---------------------------------------------------------------- real server processes


async def account_client(base_url: str, name: str) -> GameClient:
    client = GameClient(base_url)
    data = await client.http("POST", "/api/account/register", {"name": name, "password": PASSWORD})
    client.token, client.player_id = data["token"], data["player"]["id"]
    return client


ALL_BOTS = [{"kind": "bot", "level": "random"}] * 3


@pytest.mark.asyncio
async def test_rated_tables_over_http_refuse_guests_and_seeds_and_show_the_rating(server: ServerProcess) -> None:
    guest = GameClient(server.base_url)
    await guest.login("Guest")
    anna = await account_client(server.base_url, "Anna Rated")
    with pytest.raises(ServerError) as refused:
        await guest.http("POST", "/api/tables", {"deals": 6, "rated": True, "seats": ALL_BOTS})
    assert refused.value.code == "account_required"
    with pytest.raises(ServerError) as refused:
        await anna.http("POST", "/api/tables", {"deals": 6, "rated": True, "seed": 5, "seats": ALL_BOTS})
    assert refused.value.code == "seed_not_allowed"
    with pytest.raises(ServerError) as refused:
        await anna.http("POST", "/api/tables", {"deals": 6, "rated": "yes", "seats": ALL_BOTS})
    assert refused.value.code == "bad_config"

    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "level": "random"}]
    table = await anna.http("POST", "/api/tables", {"deals": 6, "rated": True, "seats": seats})
    table_id = table["table_id"]
    with pytest.raises(ServerError) as refused:
        await guest.http("POST", f"/api/tables/{table_id}/join", {"seat": 1})
    assert refused.value.code == "account_required"
    view = await anna.http("GET", f"/api/tables/{table_id}")
    assert view["table"]["rated"] is True
    assert any(t["table_id"] == table_id and t["rated"] for t in (await anna.http("GET", "/api/tables"))["tables"])
    bela = await account_client(server.base_url, "Bela Rated")
    assert (await bela.http("POST", f"/api/tables/{table_id}/join", {"seat": 1}))["seat"] == 1

    me = await anna.http("GET", "/api/me")
    assert me["rating"] == {"value": 1500, "provisional": True, "matches": 0}
    assert "rating" not in await guest.http("GET", "/api/me")


def db_path(tmp_path: Path) -> Path:
    return tmp_path / "crash.db"


async def db_counts(tmp_path: Path, table_id: str) -> tuple[int, dict[str, int]]:
    """(match_results rows of the table, rated matches by player) read straight from the database file."""
    store = await EventStore.open(f"sqlite+aiosqlite:///{db_path(tmp_path)}")
    try:
        async with store.engine.connect() as conn:
            results = (await conn.execute(
                sa.select(sa.func.count()).select_from(match_results).where(match_results.c.table_id == table_id)
            )).scalar_one()
        return int(results), {p: n for p, (_, _, n) in (await rating_rows(store)).items()}
    finally:
        await store.close()


async def finished_in_log(tmp_path: Path, table_id: str) -> bool:
    store = await EventStore.open(f"sqlite+aiosqlite:///{db_path(tmp_path)}")
    try:
        state = TableState(table_id)
        for raw in await store.events(table_id):
            state.apply(parse_event(raw))
        return state.status == "finished"
    finally:
        await store.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("crash_at", ["before_record", "after_record"])
async def test_kill_9_at_the_match_end_then_restart_updates_ratings_exactly_once(
    server_factory: type[ServerProcess], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, crash_at: str
) -> None:
    """The server dies by SIGKILL right after the final event is stored (before, or just after, the
    result's transaction): after a restart (two, even) the match is recorded once and every seat's
    rating has moved by exactly one match."""
    srv = server_factory(db_url=f"sqlite+aiosqlite:///{db_path(tmp_path)}")
    monkeypatch.setenv(CRASH_ENV, crash_at)
    srv.start(tmp_path / "a.log")
    monkeypatch.delenv(CRASH_ENV)
    host = await account_client(srv.base_url, "Host Rated")
    table = await host.http("POST", "/api/tables", {"deals": 6, "rated": True, "seats": ALL_BOTS})
    table_id = table["table_id"]
    await host.http("POST", f"/api/tables/{table_id}/start", {})
    assert srv.proc is not None
    async with asyncio.timeout(120):
        while srv.proc.poll() is None:  # the bots play the match; the process kills itself at its end
            await asyncio.sleep(0.05)
    assert srv.proc.returncode == -9
    assert await finished_in_log(tmp_path, table_id)
    recorded, _ = await db_counts(tmp_path, table_id)
    assert recorded == (0 if crash_at == "before_record" else 1)

    bots = ["bot-random", "bot-random-2", "bot-random-3"]
    for attempt in ("b.log", "c.log"):
        srv.start(tmp_path / attempt)  # the same database file and port, without the crash
        await until(lambda: _recorded(srv, table_id), 30, "the match recorded after the restart")
        srv.stop()
        recorded, matches = await db_counts(tmp_path, table_id)
        assert recorded == 1
        assert {b: matches[b] for b in bots} == {b: 1 for b in bots}
    log = "".join((tmp_path / name).read_text() for name in ("b.log", "c.log"))
    assert "Traceback" not in log, log[-3000:]


async def _recorded(srv: ServerProcess, table_id: str) -> bool:
    """Whether the table is no longer playing in the lobby (it is marked finished once recorded)."""
    client = GameClient(srv.base_url)
    await client.login("Watcher")
    view = await client.http("GET", f"/api/tables/{table_id}")
    listed = {t["table_id"] for t in (await client.http("GET", "/api/tables"))["tables"]}
    return bool(view["table"]["status"] == "finished" and table_id not in listed)
