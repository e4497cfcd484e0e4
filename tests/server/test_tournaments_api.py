"""Tournaments against a real ``ulti serve`` process (docs/protocol/tournaments.md): create, register,
check in, the director's rounds on bot-filled tables, the desk, the standings and the record.

The registered people here never connect: the director seats them all the same, and a bot plays each
absent seat after the table's grace, as at any table with a move limit (``--fast``: a second).
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import guest, until
from ulti.client import GameClient, ServerError
from ulti.duplicates.matchpoints import deal_matchpoints
from ulti.tournaments.record import score_tournament

QUICK = {"deals_per_round": 6, "move_seconds": 5, "level": "random", "break_seconds": 0}


async def refused(call: Any, code: str, words: str = "") -> ServerError:
    with pytest.raises(ServerError) as error:
        await call
    assert error.value.code == code, error.value
    assert words in str(error.value), error.value
    return error.value


async def view_when(client: GameClient, tournament_id: str, check: Any, timeout: float, what: str) -> dict[str, Any]:
    view: dict[str, Any] = {}

    async def reached() -> bool:
        nonlocal view
        view = await client.http("GET", f"/api/tournaments/{tournament_id}")
        return bool(check(view))

    try:
        await until(reached, timeout, what)
    except AssertionError as exc:
        # say where it stands, so that a stall in CI names its tables (each table's log is in the store)
        waiting = [(n, t.get("table_id")) for n, r in enumerate(view.get("rounds", []), start=1)
                   for t in r.get("tables", []) if t.get("result") is None]
        raise AssertionError(f"{exc}; status {view.get('status')!r}, tables without a result (round, id):"
                             f" {waiting}") from None
    return view


@pytest.mark.asyncio
async def test_tournament_runs_its_rounds_to_standings_and_a_record_that_scores(server: ServerProcess) -> None:
    host = await guest(server.base_url, "Director")
    created = await host.http("POST", "/api/tournaments", {"name": "Club cup", "format": "standings",
                                                           "rounds": 2, **QUICK})
    tid = created["tournament_id"]
    players = [await guest(server.base_url, name) for name in ("Anna", "Béla", "Cili", "Dani")]
    for number, player in enumerate(players):
        assert (await player.http("POST", f"/api/tournaments/{tid}/register", {}))["player"] == number
    for player in players[:3]:
        await player.http("POST", f"/api/tournaments/{tid}/checkin", {})
    # only the host starts it, and the desk names the field it misses
    await refused(players[0].http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"}), "not_host")
    await refused(host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "launch"}), "bad_request", "action")
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"})
    view = await players[0].http("GET", f"/api/tournaments/{tid}")
    assert view["status"] == "running" and view["round"] == 1
    # Dani did not check in: left out of round 1 (withdrawn), the three others share one table
    assert [p["status"] for p in view["players"]] == ["checked_in", "checked_in", "checked_in", "withdrawn"]
    assert view["you"]["table"]["table"] == 1 and view["settings"]["seed"] is None
    assert sorted(view["rounds"][0]["tables"][0]["seats"]) == [0, 1, 2]
    final = await view_when(host, tid, lambda v: v["status"] == "finished", 240, "both rounds are over")
    assert len(final["rounds"]) == 2 and all(t["result"] is not None for r in final["rounds"] for t in r["tables"])
    assert [line["rank"] for line in final["standings"]] == [1, 2, 3, 4]
    assert final["tie_breaks"][0]["name"] == "total"
    record = await host.http("GET", f"/api/tournaments/{tid}/record")
    scored = score_tournament(record)
    assert scored["standings"] == final["standings"]
    mine = await host.http("GET", f"/api/tournaments/{tid}/players/0")
    assert [r["round"] for r in mine["rounds"]] == [1, 2]
    assert mine["line"]["total"] == sum(r["table_points"] for r in mine["rounds"])
    # a correction needs a reason, is logged with it, and moves the standings
    table = final["rounds"][1]["tables"][0]
    await refused(host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "correct", "round": 2, "table": 1,
                                                                     "points": [0, 0, 0]}), "bad_request", "reason")
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "correct", "round": 2, "table": 1,
                                                             "points": [100, 0, -100], "reason": "scoring slip"})
    corrected = await host.http("GET", f"/api/tournaments/{tid}")
    assert corrected["corrections"][0]["reason"] == "scoring slip"
    assert corrected["standings"][0]["player"] == table["seats"][0]
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "publish"})
    published = await host.http("GET", f"/api/tournaments/{tid}")
    assert published["status"] == "published" and published["settings"]["seed"] is not None
    published_record = await host.http("GET", f"/api/tournaments/{tid}/record")
    # the corrected table keeps its match record, and ``ulti score`` checks it against what it scored
    assert published_record["rounds"][1]["tables"][0]["match"]["format"] == "ulti-match/1"
    assert published_record["rounds"][1]["tables"][0]["result"]["points"] == [100, 0, -100]
    score_tournament(published_record)
    listed = await host.http("GET", "/api/tournaments")
    assert {"id": tid, "name": "Club cup", "status": "published"}.items() <= listed["tournaments"][0].items()
    for client in [host, *players]:
        await client.close()


@pytest.mark.asyncio
async def test_tournament_bad_input_names_the_field(server: ServerProcess) -> None:
    host = await guest(server.base_url, "Director")
    base = {"name": "Cup", **QUICK}
    await refused(host.http("POST", "/api/tournaments", {**base, "deals_per_round": 7}), "bad_request",
                  "deals_per_round")
    await refused(host.http("POST", "/api/tournaments", {**base, "rounds": 0}), "bad_request", "rounds")
    await refused(host.http("POST", "/api/tournaments", {**base, "format": "knockout"}), "bad_request", "format")
    await refused(host.http("POST", "/api/tournaments", {**base, "move_seconds": 0}), "bad_request", "move_seconds")
    await refused(host.http("POST", "/api/tournaments", {**base, "level": "wizard"}), "bad_request", "level")
    await refused(host.http("POST", "/api/tournaments", {**base, "colour": "red"}), "bad_request", "colour")
    await refused(host.http("POST", "/api/tournaments", {**base, "rated": True}), "account_required")
    tid = (await host.http("POST", "/api/tournaments", {**base, "entry": "invited", "invited": ["Anna"]}))[
        "tournament_id"]
    anna, zoli = await guest(server.base_url, "Anna"), await guest(server.base_url, "Zoli")
    await anna.http("POST", f"/api/tournaments/{tid}/register", {})
    await refused(zoli.http("POST", f"/api/tournaments/{tid}/register", {}), "not_invited")
    await refused(zoli.http("POST", f"/api/tournaments/{tid}/checkin", {}), "not_registered")
    await refused(host.http("GET", f"/api/tournaments/{tid}/record"), "tournament_not_over")
    await refused(host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "publish"}), "tournament_rule")
    await refused(host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "resume"}), "tournament_rule",
                  "not paused")
    await refused(host.http("GET", "/api/tournaments/nosuchtournament"), "not_found")
    for client in (host, anna, zoli):
        await client.close()


@pytest.mark.asyncio
async def test_sport_ulti_round_deals_the_same_cards_and_hides_its_results_until_every_table_is_done(
    server_factory: type[ServerProcess], tmp_path: Path
) -> None:
    # a long grace: an absent person's seat goes to a bot only when their move time (5 s) runs out
    server = server_factory(db_url=f"sqlite+aiosqlite:///{tmp_path / 'd.db'}",
                            args=("--fast", "--disconnect-grace", "60"))
    server.start(tmp_path / "server.log")
    host = await guest(server.base_url, "Director")
    tid = (await host.http("POST", "/api/tournaments", {"name": "Sport cup", "format": "duplicate", "rounds": 1,
                                                        **QUICK}))["tournament_id"]
    people = [await guest(server.base_url, name) for name in ("Anna", "Béla", "Cili")]
    for person in people:
        await person.http("POST", f"/api/tournaments/{tid}/register", {})
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "add_bots", "count": 3})
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"})
    outsider = await guest(server.base_url, "Outsider")
    running = await outsider.http("GET", f"/api/tournaments/{tid}")
    tables = running["rounds"][0]["tables"]
    assert len(tables) == 2 and running["rounds"][0]["hidden"]
    assert all(t["result"] is None for t in tables) and all(line["total"] == 0 for line in running["standings"])
    # nobody but a table's own players watches it while the round runs
    await refused(outsider.http("GET", f"/api/tables/{tables[0]['table_id']}"), "event_hidden")
    final = await view_when(outsider, tid, lambda v: v["status"] == "finished", 240, "the round is over")
    assert not final["rounds"][0]["hidden"] and all(t["result"]["deals"] for t in final["rounds"][0]["tables"])
    record = await outsider.http("GET", f"/api/tournaments/{tid}/record")
    # the round's six deals, the same at both tables (a table level after them plays tie-break deals of
    # its own, which decide its match only: the other table's record has none)
    first, second = (t["match"]["deals"][:6] for t in record["rounds"][0]["tables"])
    assert len(first) == len(second) == 6
    assert [sorted(map(sorted, d["hands"])) for d in first] == [sorted(map(sorted, d["hands"])) for d in second]
    assert score_tournament(record)["standings"] == final["standings"]  # checks the cards against the seed too
    for client in [host, outsider, *people]:
        await client.close()


def _matchpoint_totals(view: dict[str, Any]) -> dict[int, int]:
    """Each player's matchpoints in a one-round sport ulti tournament, from its tables' deals' scores."""
    tables = view["rounds"][0]["tables"]
    totals: dict[int, int] = {}
    for k in range(len(tables[0]["result"]["deals"])):
        compared = deal_matchpoints({t: table["result"]["deals"][k] for t, table in enumerate(tables)})
        for t, seats in compared.items():
            for seat, mp in enumerate(seats):
                player = tables[t]["seats"][seat]
                totals[player] = totals.get(player, 0) + mp
    return totals


@pytest.mark.asyncio
async def test_the_desk_corrects_a_sport_ulti_tables_deals_and_standings_still_compare_seats(
    server: ServerProcess,
) -> None:
    host = await guest(server.base_url, "Director")
    tid = (await host.http("POST", "/api/tournaments", {"name": "Sport fix", "format": "duplicate", "rounds": 1,
                                                        **QUICK}))["tournament_id"]
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "add_bots", "count": 6})
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"})
    played = await view_when(host, tid, lambda v: v["status"] == "finished", 240, "the sport round is over")
    deals = played["rounds"][0]["tables"][0]["result"]["deals"]
    points = played["rounds"][0]["tables"][0]["result"]["points"]
    assert len(deals) == 6
    lines = {line["player"]: line["total"] for line in played["standings"]}
    assert lines == _matchpoint_totals(played)
    desk = f"/api/tournaments/{tid}/desk"

    # points only: the table keeps its deals, so its seats are still compared and the standings stay
    await host.http("POST", desk, {"action": "correct", "round": 1, "table": 1, "points": [300, 0, -300],
                                   "reason": "points mistyped"})
    after_points = await host.http("GET", f"/api/tournaments/{tid}")
    result = after_points["rounds"][0]["tables"][0]["result"]
    assert result["points"] == [300, 0, -300] and result["deals"] == deals
    assert {line["player"]: line["total"] for line in after_points["standings"]} == lines

    # deals only: the recorded points stay, the matchpoints follow the corrected deal
    fixed = [list(d) for d in deals]
    fixed[0] = [1000, -500, -500]  # seat 0 of table 1 now beats seat 0 of table 2 on deal 1
    await host.http("POST", desk, {"action": "correct", "round": 1, "table": 1, "deals": fixed,
                                   "reason": "deal 1 scored against the wrong bid"})
    after_deals = await host.http("GET", f"/api/tournaments/{tid}")
    result = after_deals["rounds"][0]["tables"][0]["result"]
    assert result["deals"] == fixed and result["points"] == [300, 0, -300]
    assert result["corrections"] == ["points mistyped", "deal 1 scored against the wrong bid"]
    totals = _matchpoint_totals(after_deals)
    assert {line["player"]: line["total"] for line in after_deals["standings"]} == totals
    # table 1's seat 0 gains on deal 1 exactly what the corrected comparison gives it
    player = after_deals["rounds"][0]["tables"][0]["seats"][0]
    before = deal_matchpoints({0: deals[0], 1: deals_of(played, 1)[0]})[0][0]
    now = deal_matchpoints({0: fixed[0], 1: deals_of(after_deals, 1)[0]})[0][0]
    assert now > before or deals[0][0] >= deals_of(played, 1)[0][0]
    assert totals[player] - lines[player] == now - before

    # both at once, as the director gives them; a wrong number of deals or no figures at all is refused
    await host.http("POST", desk, {"action": "correct", "round": 1, "table": 1, "points": points, "deals": deals,
                                   "reason": "back as played"})
    restored = await host.http("GET", f"/api/tournaments/{tid}")
    assert {line["player"]: line["total"] for line in restored["standings"]} == lines
    await refused(host.http("POST", desk, {"action": "correct", "round": 1, "table": 1, "deals": deals[:5],
                                           "reason": "short"}), "tournament_rule", "a correction lists as many")
    await refused(host.http("POST", desk, {"action": "correct", "round": 1, "table": 1, "reason": "nothing"}),
                  "bad_request", "points")
    await refused(host.http("POST", desk, {"action": "correct", "round": 1, "table": 1, "deals": [[1, 2]] * 6,
                                           "reason": "two seats"}), "tournament_rule", "three scores")
    # the record with its corrections still checks: its matches against what they scored
    await host.http("POST", desk, {"action": "publish"})
    record = await host.http("GET", f"/api/tournaments/{tid}/record")
    assert record["rounds"][0]["tables"][0]["result"]["deals"] == deals
    assert score_tournament(record)["standings"] == restored["standings"]
    await host.close()


def deals_of(view: dict[str, Any], table: int) -> list[list[int]]:
    """Table ``table``'s (from 0) deals' scores in round 1 of a tournament's view."""
    found: list[list[int]] = view["rounds"][0]["tables"][table]["result"]["deals"]
    return found


@pytest.mark.asyncio
async def test_sport_ulti_rounds_stay_off_the_lobbys_list_of_duplicate_events(server: ServerProcess) -> None:
    host = await guest(server.base_url, "Director")
    hosted = (await host.http("POST", "/api/events", {"deals": 6, "tables": 1, "level": "random"}))["event_id"]
    tid = (await host.http("POST", "/api/tournaments", {"name": "Sport cup", "format": "duplicate", "rounds": 1,
                                                        **QUICK}))["tournament_id"]
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "add_bots", "count": 6})
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"})
    view = await host.http("GET", f"/api/tournaments/{tid}")
    assert view["round"] == 1 and len(view["rounds"][0]["tables"]) == 2
    # the round is a duplicate event all the same (its tables share its cards), listed on the tournament's
    # page only: the lobby lists the event a host created
    listed = await host.http("GET", "/api/events")
    assert [e["id"] for e in listed["events"]] == [hosted]
    await host.close()


@pytest.mark.asyncio
async def test_team_tournament_seats_letters_together_and_totals_teams(server: ServerProcess) -> None:
    host = await guest(server.base_url, "Director")
    tid = (await host.http("POST", "/api/tournaments", {"name": "Team cup", "format": "teams", "rounds": 1,
                                                        **QUICK}))["tournament_id"]
    clients = []
    for team in ("Ász", "Király", "Felső"):
        for letter in "ABC":
            client = await guest(server.base_url, f"{team} {letter}")
            clients.append(client)
            if team == "Ász" and letter == "A":
                await refused(client.http("POST", f"/api/tournaments/{tid}/register", {}), "tournament_rule",
                              "team and a letter")
            await client.http("POST", f"/api/tournaments/{tid}/register", {"team": team, "letter": letter})
    # the desk pauses and resumes before the start; a paused tournament seats nothing
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "pause"})
    await refused(host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"}), "tournament_rule", "paused")
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "resume"})
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"})
    final = await view_when(host, tid, lambda v: v["status"] == "finished", 240, "the team round is over")
    players = final["players"]
    for table in final["rounds"][0]["tables"]:
        assert len({players[p]["letter"] for p in table["seats"] if p is not None}) == 1
        assert len({players[p]["team"] for p in table["seats"] if p is not None}) == 3
    assert sorted(t["team"] for t in final["team_standings"]) == ["Felső", "Király", "Ász"]
    # each team's total is its players' totals summed, the best team first
    members = {team: sum(line["total"] for line in final["standings"] if players[line["player"]]["team"] == team)
               for team in ("Ász", "Király", "Felső")}
    assert {t["team"]: t["total"] for t in final["team_standings"]} == members
    team_totals = [t["total"] for t in final["team_standings"]]
    assert team_totals == sorted(team_totals, reverse=True)
    for client in [host, *clients]:
        await client.close()


@pytest.mark.asyncio
async def test_tournament_starts_by_itself_at_its_start_time_and_the_desk_adds_an_account(
    server: ServerProcess,
) -> None:
    host = await guest(server.base_url, "Director")
    await refused(host.http("POST", "/api/tournaments", {"name": "Cup", **QUICK, "start": "soon"}), "bad_request",
                  "start")
    start = (datetime.now(UTC) + timedelta(seconds=3)).isoformat()
    tid = (await host.http("POST", "/api/tournaments", {"name": "Timed cup", "rounds": 1, "start": start,
                                                        **QUICK}))["tournament_id"]
    zoe = GameClient(server.base_url)
    await zoe.http("POST", "/api/account/register", {"name": "Zoé", "password": "correct horse battery"})
    await refused(host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "add", "name": "Nobody"}),
                  "not_found", "name")
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "add", "name": "Zoé"})
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "add_bots", "count": 2})
    view = await host.http("GET", f"/api/tournaments/{tid}")
    assert [p["name"] for p in view["players"]] == ["Zoé", "Bot 1", "Bot 2"] and view["status"] == "registering"
    running = await view_when(host, tid, lambda v: v["status"] != "registering", 30, "it starts at its time")
    assert running["round"] == 1 and sorted(running["rounds"][0]["tables"][0]["seats"]) == [0, 1, 2]
    await view_when(host, tid, lambda v: v["status"] == "finished", 240, "its one round is over")
    await host.close()
    await zoe.close()


@pytest.mark.asyncio
async def test_late_entry_and_the_desk_removing_a_player_between_rounds(server: ServerProcess) -> None:
    host = await guest(server.base_url, "Director")
    closed = (await host.http("POST", "/api/tournaments", {"name": "Closed", "rounds": 2, **QUICK,
                                                           "break_seconds": 10}))["tournament_id"]
    late = (await host.http("POST", "/api/tournaments", {"name": "Late", "rounds": 2, "late_entry": True, **QUICK,
                                                         "break_seconds": 10}))["tournament_id"]
    for tid in (closed, late):
        await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "add_bots", "count": 3})
        await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"})
        await view_when(host, tid, lambda v: v["next_round_at"] is not None, 120, "round 1 is over")
    newcomer = await guest(server.base_url, "Newcomer")
    await refused(newcomer.http("POST", f"/api/tournaments/{closed}/register", {}), "tournament_rule", "late entry")
    await newcomer.http("POST", f"/api/tournaments/{late}/register", {})
    # between the rounds the director takes Bot 2 out; the newcomer is seated in round 2 in its place
    await host.http("POST", f"/api/tournaments/{late}/desk", {"action": "remove", "player": 1})
    final = await view_when(host, late, lambda v: v["status"] == "finished", 240, "round 2 is over")
    second = [p for t in final["rounds"][1]["tables"] for p in t["seats"] if p is not None]
    assert 3 in second and 1 not in second
    assert final["players"][1]["status"] == "withdrawn"
    await refused(host.http("POST", f"/api/tournaments/{late}/desk", {"action": "remove", "player": 9}),
                  "bad_request", "player")
    for client in (host, newcomer):
        await client.close()


@pytest.mark.asyncio
async def test_standings_tournament_of_ten_seats_a_table_of_four_and_plays_to_a_winner(
    server: ServerProcess, tmp_path: Path
) -> None:
    host = await guest(server.base_url, "Director")
    four = {**QUICK, "deals_per_round": 12}
    await refused(host.http("POST", "/api/tournaments", {"name": "Cup", "format": "everyone", "four_tables": True,
                                                        **four}), "bad_request", "only the standings format")
    await refused(host.http("POST", "/api/tournaments", {"name": "Cup", "four_tables": True, **QUICK}),
                  "bad_request", "multiple of 12")
    created = await host.http("POST", "/api/tournaments", {"name": "Club of ten", "format": "standings",
                                                           "rounds": 2, "four_tables": True, **four})
    tid = created["tournament_id"]
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "add_bots", "count": 10})
    await host.http("POST", f"/api/tournaments/{tid}/desk", {"action": "start"})
    final = await view_when(host, tid, lambda v: v["status"] == "finished", 420, "both rounds are over")
    assert final["settings"]["four_tables"] is True
    for round_ in final["rounds"]:
        sizes = [len(t["seats"]) for t in round_["tables"]]
        assert sorted(sizes) == [3, 3, 4] and None not in [p for t in round_["tables"] for p in t["seats"]]
        for table in round_["tables"]:
            points = table["result"]["points"]
            assert len(points) == len(table["seats"]) and sum(points) == 0
    assert final["standings"][0]["rank"] == 1 and len(final["standings"]) == 10
    record = await host.http("GET", f"/api/tournaments/{tid}/record")
    scored = score_tournament(record)
    assert scored["standings"] == final["standings"]
    fours = [t for r in record["rounds"] for t in r["tables"] if len(t["seats"]) == 4]
    assert len(fours) == 2
    for table in fours:
        # the table of four's own match record is embedded: the four-player record, its deals' scores the result's
        assert table["match"]["seats"] == 4 and table["match"]["first_dealer"] == 0
        deals = table["result"]["deals"]
        assert len(deals) >= 12 and all(d[k % 4] == 0 for k, d in enumerate(deals))
    path = tmp_path / "tournament.json"
    path.write_text(json.dumps(record))
    proc = subprocess.run([sys.executable, "-m", "ulti.cli", "score", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["standings"] == final["standings"]
    await host.close()
