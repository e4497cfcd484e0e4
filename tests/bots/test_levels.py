"""The level registry: which levels run the compiled search, and where a server lets them think."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import Executor, ThreadPoolExecutor
from types import SimpleNamespace

import pytest

from ulti.bots.levels import BOT_LEVELS, LEVELS, level_searches
from ulti.server.hub import Hub
from ulti.server.inputs import BadInput, clean_name

# A fresh interpreter: the level's bot decides the opening bid of a seeded deal; the compiled
# search shows up in sys.modules only if the bot ran it.
_PROBE = """
import random, sys
from ulti.bots.levels import bot_for_level
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
deal = Deal(deal_hands(random.Random(5), 0), 0)
bot = bot_for_level(sys.argv[1], random.Random(1))
bot.act(deal.seat_view(deal.to_move))
print("ulti.bots.solver._dd" in sys.modules)
"""


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_level_is_marked_searching_exactly_when_its_bot_runs_the_compiled_search(level: str) -> None:
    ran = subprocess.run([sys.executable, "-c", _PROBE, level], capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == str(LEVELS[level].searches)


def test_a_server_runs_every_searching_bot_in_its_worker_processes() -> None:
    # Hub.bot_executor on a stand-in holding the two executors (a whole hub needs a store)
    threads, processes = ThreadPoolExecutor(1), ThreadPoolExecutor(1)

    def process_executor() -> Executor:
        return processes

    host = SimpleNamespace(executor=threads, process_executor=process_executor)
    try:
        for level in LEVELS:
            chosen = Hub.bot_executor(host, level)  # type: ignore[arg-type]
            assert chosen is (processes if LEVELS[level].searches else threads), level
        assert {name for name in LEVELS if not LEVELS[name].searches} == {"random", "heuristic"}
        assert Hub.bot_executor(host, "expert") is processes  # type: ignore[arg-type]
        assert level_searches("no such level") is True  # unknown: the safe side
    finally:
        threads.shutdown()
        processes.shutdown()


@pytest.mark.parametrize("level", sorted(BOT_LEVELS))
def test_no_player_may_take_the_name_of_a_bot_level(level: str) -> None:
    # the levels tables seat: a level no table offers names no bot a person meets (test_look_alike_names)
    # numbered as the server numbers a level's bots, "3" included (a name's key reads 3 as e)
    for name in (f"Bot {level}", f"BOT · {level.upper()} 2", f"Bot · {level} 3", f"bot-{level} #15"):
        with pytest.raises(BadInput, match="reserved"):
            clean_name(name)
    # and a level's name as a word of a name, however it is written, reads as a bot (issue 34, item 8)
    with pytest.raises(BadInput, match="reads as a bot"):
        clean_name(f"{level.capitalize()} Anna")
