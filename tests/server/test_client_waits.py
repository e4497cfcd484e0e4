"""The test client's ``wait_for``: several coroutines may wait on one client at once (a player's
random play and a test's own condition), and a message that fulfils one waiter's condition must wake
it whatever the others do meanwhile."""

from __future__ import annotations

import asyncio

import pytest

from ulti.client import GameClient


@pytest.mark.asyncio
async def test_a_message_between_two_waiters_wakes_the_one_it_concerns() -> None:
    client = GameClient("http://127.0.0.1:9")  # never connected: messages are simulated below
    its_turn = False
    arrivals = 0

    def message_arrives() -> None:
        # what the reader does after each message: the state changes, then the waiters are told
        nonlocal its_turn
        its_turn = True
        client.notify()

    def seq_reached() -> bool:
        # The second waiter's condition. Evaluated once the first waiter has looked at its own condition
        # and gone back to waiting: the message making it the first one's turn arrives just then.
        nonlocal arrivals
        arrivals += 1
        if arrivals == 2:
            message_arrives()
        return False

    turn = asyncio.create_task(client.wait_for(lambda: its_turn, 5))
    other = asyncio.create_task(client.wait_for(seq_reached, 5))
    await asyncio.sleep(0)  # both wait now
    client.notify()  # a message that fulfils neither condition wakes both
    await asyncio.wait_for(turn, 3)  # the first waiter saw its turn come
    assert its_turn and arrivals >= 2
    other.cancel()
    with pytest.raises(asyncio.CancelledError):
        await other
