"""The director's view of a tournament's log (``ulti.server.tournaments.Loaded``), in process: its lookups
come from an index built as events are added, one withdrawal builder, and one start-time rule."""

from __future__ import annotations

from typing import Any

import pytest

from ulti.server.arena import started_at, waiting
from ulti.server.errors import CommandError
from ulti.server.tournament_routes import _check_start
from ulti.server.tournaments import Loaded, _start_due, withdrawal
from ulti.tournaments.log import replay
from ulti.tournaments.settings import start_timestamp


class NoScan(list[Any]):
    """A log that fails the test when something reads it through from the start."""

    def __iter__(self) -> Any:
        raise AssertionError("a lookup scanned the whole log")


def loaded_log() -> Loaded:
    loaded = Loaded()
    events: list[dict[str, Any]] = [
        {"type": "created", "settings": {"format": "arena", "minutes": 10}},
        {"type": "registered", "name": "Anna", "account": "anna"},
        {"type": "registered", "name": "Bot 1", "account": None, "bot": True},
        {"type": "registered", "name": "Béla", "account": "bela"},
        {"type": "round_seated", "round": 1, "tables": [[0, 1, 2]], "table_ids": ["t1"]},
        {"type": "result_recorded", "round": 1, "table": 1, "points": [4, 0, -4]},
        {"type": "result_corrected", "round": 1, "table": 1, "points": [5, 0, -5], "reason": "slip"},
    ]
    for at, body in enumerate(events):
        loaded.add(body, 1_000 * at)
    return loaded


def test_loaded_answers_its_lookups_from_its_index_without_scanning_the_log() -> None:
    loaded = loaded_log()
    state = loaded.state()
    loaded.bodies = NoScan(loaded.bodies)
    loaded.times = NoScan(loaded.times)
    assert loaded.table_ids(1) == ["t1"] and loaded.table_ids(2) == []
    assert loaded.seated_event(1)["tables"] == [[0, 1, 2]]
    assert loaded.accounts() == ["anna", None, "bela"] and loaded.built_in_bots() == 1
    assert loaded.number_of("bela") == 2 and loaded.number_of("nobody") is None and loaded.account_of(1) is None
    assert loaded.round_ended_at() == 5_000
    assert loaded.started_at() == started_at(loaded) == 4_000
    assert [c["reason"] for c in loaded.corrections()] == ["slip"]
    assert waiting(loaded, state) == [(0, 5_000), (1, 5_000), (2, 5_000)]
    # the same answers as a log loaded whole (``Loaded(bodies, times)``, as the arena's tests build it)
    whole = Loaded(list(loaded_log().bodies), list(loaded_log().times))
    assert whole.accounts() == loaded.accounts() and whole.round_ended_at() == loaded.round_ended_at()


def test_one_withdrawal_builder_for_a_player_the_host_and_the_unchecked() -> None:
    log: list[dict[str, Any]] = [
        {"type": "created", "settings": {"format": "standings"}},
        {"type": "registered", "name": "Anna", "account": "anna"},
        {"type": "registered", "name": "Bot 1", "account": None, "bot": True},
        {"type": "registered", "name": "Béla", "account": "bela"},
        {"type": "checked_in", "player": 2},
    ]
    loaded = Loaded(log, [0] * len(log))
    state = replay(log)
    assert withdrawal(0, "withdrew")(loaded, state) == {"type": "withdrew", "player": 0, "reason": "withdrew"}
    # before the start: only a player with an account who registered and did not check in
    unchecked = [withdrawal(n, "did not check in", unchecked_only=True)(loaded, state) for n in range(3)]
    assert unchecked == [{"type": "withdrew", "player": 0, "reason": "did not check in"}, None, None]
    state.players[0].status = "withdrawn"
    assert withdrawal(0, "removed by the host")(loaded, state) is None  # once is enough


@pytest.mark.parametrize(("start", "valid"), [
    ("2020-12-05T18:00:00+01:00", True), ("2020-12-05T17:00:00Z", True), ("2020-12-05T18:00:00", False),
    ("soon", False),
])
def test_one_start_time_rule_for_the_create_route_and_the_director(start: str, valid: bool) -> None:
    assert (start_timestamp(start) is not None) == valid
    if valid:
        _check_start(start)
        assert _start_due(replay([{"type": "created", "settings": {"start": start}}]))  # long past
    else:
        with pytest.raises(CommandError, match="start"):
            _check_start(start)
        assert not _start_due(replay([{"type": "created", "settings": {"start": start}}]))
