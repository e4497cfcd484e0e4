"""The level registry: which levels run the compiled search, and where a server lets them think."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import Executor, ThreadPoolExecutor
from types import SimpleNamespace

import pytest

from ulti.bots.levels import BOT_LEVELS, LEVELS, level_searches
from ulti.server.hub import Hub
from ulti.server.inputs import EVERYDAY_LEVELS, BadInput, clean_name

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
    # every level a table seats, numbered as the server numbers a level's bots, "3" included (a name's key
    # reads 3 as e), alone, or with "bot" before or after it
    for name in (f"Bot {level}", f"BOT · {level.upper()} 2", f"Bot · {level} 3", f"bot-{level} #15",
                 level, level.upper(), f"{level.capitalize()} 2", f"{level}-7"):
        with pytest.raises(BadInput, match="reserved"):
            clean_name(name)
    with pytest.raises(BadInput, match="reads as a bot"):
        clean_name(f"Anna {level} bot")


@pytest.mark.parametrize("level", sorted(set(BOT_LEVELS) - set(EVERYDAY_LEVELS)))
def test_a_distinctive_level_name_may_not_be_a_word_of_a_name(level: str) -> None:
    # "Strong Anna" reads as the bot people have met as "Bot · strong" (issue 34, item 8)
    with pytest.raises(BadInput, match="reads as a bot"):
        clean_name(f"{level.capitalize()} Anna")


@pytest.mark.parametrize("level", EVERYDAY_LEVELS)
def test_an_everyday_level_name_may_be_a_word_of_a_persons_name(level: str) -> None:
    # the ladder's rungs are everyday words: only the whole name, or the word beside "bot", reads as a bot
    assert level in BOT_LEVELS
    for name in (f"{level.capitalize()} Anna", f"Anna the {level}", f"{level.upper()} KATI 2"):
        assert clean_name(name) == name


def test_people_named_after_clubs_and_moods_keep_their_names_while_look_alike_bots_are_refused() -> None:
    for name in ("Chess Club Joe", "Casual Kati", "Beginner Bea", "Clubs", "Clubber", "Botond"):
        assert clean_name(name) == name
    # a bare level written with look-alike letters (a Cyrillic с, a digit 1 for l) still reads as the bot
    for name in ("\u0421lub", "C1ub", "Club 2", "Club Bot", "CasualBot", "bot club"):
        with pytest.raises(BadInput, match=r"reserved|reads as a bot"):
            clean_name(name)
