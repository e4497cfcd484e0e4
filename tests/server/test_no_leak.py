"""No hidden card leaks: every message a seat or a spectator receives, checked against the deal records.

Three tables are played at once on one server (about 30 deals): three bots watched by spectators, three
scripted players, and one player with two bots who disconnects mid-match (a bot plays for the seat) and
comes back. After the match each deal's record is downloaded and replayed action by action; every message
is matched to the table event it was sent at (its ``seq``), and every string in it that is a card code must
be a card its receiver may see at that moment (docs/rules.md §2.1, §3.5).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.server.conftest import ServerProcess
from tests.server.helpers import three_players
from ulti.bots.random_bot import RandomBot
from ulti.client import GameClient, play_randomly
from ulti.engine.actions import Kind
from ulti.engine.cards import card_str, iter_cards
from ulti.engine.deal import Deal, Phase
from ulti.engine.record import action_to_json, deal_from_record, parse_action
from ulti.engine.view import SeatView

CARD_CODES = frozenset(card_str(c) for c in range(32))
ALL_CARDS = frozenset(CARD_CODES)


def card_strings(value: Any) -> Iterator[str]:
    """Every string in a JSON structure (dict keys included) that is exactly a card code."""
    if isinstance(value, str):
        if value in CARD_CODES:
            yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key == "_t":  # the client's receive timestamp
                continue
            if key in CARD_CODES:
                yield key
            yield from card_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_strings(item)


def _cards(mask: int) -> set[str]:
    return {card_str(c) for c in iter_cards(mask)}


def visible_cards(record: dict[str, Any], actions: int, seat: int | None) -> frozenset[str]:
    """The cards ``seat`` (None: a spectator) may have seen after the first ``actions`` actions of a deal."""
    deal: Deal = deal_from_record({**record, "actions": []})
    seen: set[str] = set()
    if seat is not None:
        seen |= _cards(deal.dealt[seat])
    for entry in record["actions"][:actions]:
        talon_before = deal.talon
        deal.apply(parse_action(entry))
        if entry["action"] == Kind.TAKE.value and entry["seat"] == seat:
            seen |= _cards(talon_before)  # the talon it picked up
        if "discard" in entry and entry["seat"] == seat:
            seen |= set(entry["discard"])
        if entry["action"] == Kind.PLAY.value:
            seen.add(entry["card"])
    if deal.phase is Phase.DONE:
        return ALL_CARDS
    contract = deal.contract
    # an open contract: all hands face up once trick 1 is complete and its kontra chain is closed (§3.5)
    if contract is not None and contract.is_open and deal.tricks and not deal.in_chain:
        for hand in deal.hands:
            seen |= _cards(hand)
    return frozenset(seen)


@dataclass
class Watcher:
    """A client whose every message is checked, and the seat it sees the table from."""

    client: GameClient
    table_id: str
    seat: int | None

    @property
    def messages(self) -> list[dict[str, Any]]:
        """Everything the client received, in order."""
        return self.client.received


def timeline(watchers: list[Watcher]) -> dict[int, tuple[int | None, int]]:
    """For each event number of a table: (deal index, actions of that deal applied), from the events seen."""
    events: dict[int, dict[str, Any]] = {}
    for watcher in watchers:
        for message in watcher.messages:
            if message.get("type") == "event":
                seen = events.setdefault(message["seq"], message["event"])
                assert seen["type"] == message["event"]["type"], "two clients were told different events"
    seqs = sorted(events)
    assert seqs == list(range(seqs[0], seqs[-1] + 1)), "an event was not sent to every watcher"
    assert events[seqs[0]]["type"] in ("sit", "bot", "start", "away", "chat"), "watchers joined after the deal began"
    positions: dict[int, tuple[int | None, int]] = {}
    deal_index: int | None = None
    actions = 0
    for seq in seqs:
        event = events[seq]
        if event["type"] == "deal":
            deal_index, actions = event["index"], 0
        elif event["type"] == "action":
            assert deal_index is not None
            actions += 1
        positions[seq] = (deal_index, actions)
    return positions


def parts_of(message: dict[str, Any], last_seq: int) -> list[tuple[Any, int]]:
    """The parts of a message with the event number each was made at.

    An event is filtered when it happens, but its ``state`` is the view once the command that made it is
    done (a command may emit several events): that view's own ``seq`` says which state it shows.
    """
    if message.get("type") == "event":
        rest = {k: v for k, v in message.items() if k != "state"}
        return [(rest, message["seq"]), (message["state"], message["state"]["seq"])]
    if message.get("type") == "sync":
        assert message["state"]["seq"] == message["seq"]
        return [(message, message["seq"])]
    return [(message, last_seq)]  # acks, errors, presence: no cards expected, checked at the latest state


def leaks(
    watcher: Watcher, positions: dict[int, tuple[int | None, int]], records: list[dict[str, Any]],
    deal_seat: Callable[[int], int | None] | None = None,
) -> list[str]:
    """Every card a watcher was shown that it was not allowed to see at the time (empty: no leak).

    ``deal_seat(k)``: the seat of deal ``k`` the watcher plays (at a table of four it changes each deal, and
    is None while it sits out); by default the watcher's own seat.
    """
    found: list[str] = []
    first = min(positions)
    last_seq = 0
    cache: dict[tuple[int, int], frozenset[str]] = {}
    for number, message in enumerate(watcher.messages):
        for whole, seq in parts_of(message, last_seq):
            last_seq = max(last_seq, seq)
            if seq < first:
                position: tuple[int | None, int] = (None, 0)
            else:
                assert seq in positions, f"message {number} is at event {seq}, which no watcher was sent"
                position = positions[seq]
            deal_index, actions = position
            shown = set(card_strings(_without_earlier_deals_played_for(whole, deal_index)))
            if deal_index is None:
                if shown:
                    found.append(f"message {number} (before any deal) shows {sorted(shown)}")
                continue
            key = (deal_index, actions)
            if key not in cache:
                seat = watcher.seat if deal_seat is None else deal_seat(deal_index)
                cache[key] = visible_cards(records[deal_index], actions, seat)
            hidden = shown - cache[key]
            if hidden:
                who = "spectator" if watcher.seat is None else f"seat {watcher.seat}"
                found.append(
                    f"{who} message {number} ({message.get('type')}, event {seq}, deal {deal_index} after {actions} "
                    f"actions) shows hidden cards {sorted(hidden)}"
                )
    return found


def _without_earlier_deals_played_for(part: Any, deal_index: int | None) -> Any:
    """``part`` without the entries of its ``played_for_you`` (what a bot played in a returning player's
    name) made in a deal before ``deal_index``: that deal is over, and a deal over shows every card
    (``visible_cards``), so they are checked against nothing; the current deal's entries stay."""
    if not isinstance(part, dict) or "played_for_you" not in part or deal_index is None:
        return part
    return {**part, "played_for_you": [e for e in part["played_for_you"] if e["deal"] == deal_index]}


async def records_of(client: GameClient, table_id: str) -> list[dict[str, Any]]:
    """Every finished deal's record of a finished match."""
    assert client.state is not None and client.match_over()
    played = client.state["match"]["deals_played"]
    return [await client.http("GET", f"/api/tables/{table_id}/deals/{k}/record") for k in range(played)]


async def spectator(base_url: str, name: str, table_id: str) -> GameClient:
    client = GameClient(base_url)
    await client.login(name)
    await client.connect()
    await client.open_table(table_id)
    return client


async def bots_table(base_url: str) -> tuple[str, list[Watcher], GameClient]:
    """Three bots, watched by the (unseated) host and another spectator."""
    host = GameClient(base_url)
    await host.login("Host")
    seats = [{"kind": "bot", "level": "heuristic"}, {"kind": "bot", "level": "random"}, {"kind": "bot"}]
    table = await host.http("POST", "/api/tables", {"deals": 12, "seats": seats, "seed": 4242})
    table_id = table["table_id"]
    await host.connect()
    await host.open_table(table_id)
    other = await spectator(base_url, "Watcher A", table_id)
    await host.http("POST", f"/api/tables/{table_id}/start", {})
    await other.wait_for(other.match_over, 120)
    await host.wait_for(host.match_over, 10)
    return table_id, [Watcher(host, table_id, None), Watcher(other, table_id, None)], host


async def players_table(base_url: str) -> tuple[str, list[Watcher], GameClient]:
    """Three scripted players playing random legal moves, and a spectator."""
    table_id, clients = await three_players(base_url, deals=12, seed=777)
    watch = await spectator(base_url, "Watcher B", table_id)
    await clients[0].http("POST", f"/api/tables/{table_id}/start", {})
    await asyncio.gather(*(play_randomly(c, 50 + i, timeout=120) for i, c in enumerate(clients)))
    await watch.wait_for(watch.match_over, 10)
    watchers = [Watcher(c, table_id, i) for i, c in enumerate(clients)] + [Watcher(watch, table_id, None)]
    return table_id, watchers, watch


async def absent_player_table(base_url: str) -> tuple[str, list[Watcher], GameClient]:
    """One player and two bots; the player leaves in deal 3, a bot plays for it, the player comes back."""
    player = GameClient(base_url)
    await player.login("Comes and goes")
    seats = [{"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "heuristic"}]
    # a time limit: a bot plays for a player who left after the grace period (without one the table waits)
    table = await player.http("POST", "/api/tables", {"deals": 9, "seats": seats, "seed": 99, "move_seconds": 60})
    table_id = table["table_id"]
    await player.connect()
    await player.open_table(table_id)
    watch = await spectator(base_url, "Watcher C", table_id)
    await player.http("POST", f"/api/tables/{table_id}/start", {})

    def left_or_mine() -> bool:
        state = player.state
        return bool(state and (state["deal_index"] or 0) >= 3) or player.my_turn()

    # play until deal 3 has begun
    while True:
        await player.wait_for(left_or_mine, 60)
        assert player.state is not None
        if player.state["deal_index"] >= 3:
            break
        action = action_to_json(RandomBot(random.Random(player.seq)).act(SeatView.from_json(player.state["deal"])))
        action.pop("seat")
        await player.act(action)
    await player.close()

    def bot_played_for_seat_0() -> bool:
        return any(
            m.get("type") == "event" and m["event"].get("by") == "bot" and m["event"]["action"]["seat"] == 0
            for m in watch.received
        )

    await watch.wait_for(bot_played_for_seat_0, 30)
    back = GameClient(base_url)
    back.token, back.player_id = player.token, player.player_id
    await back.connect()
    await back.open_table(table_id)
    await play_randomly(back, 7, timeout=120)
    await watch.wait_for(watch.match_over, 10)
    watchers = [Watcher(player, table_id, 0), Watcher(back, table_id, 0), Watcher(watch, table_id, None)]
    return table_id, watchers, watch


@pytest.mark.asyncio
async def test_no_message_shows_a_card_its_receiver_may_not_see(server: ServerProcess) -> None:
    tables = await asyncio.wait_for(
        asyncio.gather(
            bots_table(server.base_url), players_table(server.base_url), absent_player_table(server.base_url)
        ),
        150,
    )
    total_deals = 0
    checked = 0
    for table_id, watchers, finisher in tables:
        records = await records_of(finisher, table_id)
        total_deals += len(records)
        positions = timeline(watchers)
        for watcher in watchers:
            assert leaks(watcher, positions, records) == []
            checked += sum(1 for m in watcher.messages for _ in card_strings(m))
        # the check is not vacuous: seats saw their own hands, everybody saw the played cards
        for watcher in watchers:
            shown = {c for m in watcher.messages for c in card_strings(m)}
            assert len(shown) == 32
            if watcher.seat is not None:
                first_deal = next(
                    m for m in watcher.messages if m.get("type") == "event" and m["event"]["type"] == "deal"
                )
                assert first_deal["state"]["deal"]["hands"].keys() == {str(watcher.seat)}
        for watcher in watchers:
            await watcher.client.close()
    assert total_deals >= 30
    assert checked > 10_000


def test_the_leak_check_flags_a_hidden_card() -> None:
    """The checker itself: another seat's card, a talon card and a spectator's peek are each flagged."""
    record = {
        "format": "ulti-deal/1",
        "dealer": 2,
        "hands": [
            ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "7S", "8S", "9S", "TS"],
            ["JS", "QS", "KS", "AS", "7D", "8D", "9D", "TD", "JD", "QD"],
            ["KD", "AD", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
        ],
        "actions": [{"seat": 0, "action": "bid", "bid": "M-S", "discard": ["9S", "TS"]}],
    }
    watchers = {
        seat: Watcher(GameClient("http://unused"), "t", seat) for seat in (0, 1, None)
    }
    events = [
        {"type": "event", "seq": 5, "event": {"type": "start"}, "state": {"seq": 5}},
        {"type": "event", "seq": 6, "event": {"type": "deal", "index": 0}, "state": {"seq": 6, "hands": {"1": ["AS"]}}},
        {"type": "event", "seq": 7, "event": {"type": "action", "action": {"discard": ["9S", "TS"]}},
         "state": {"seq": 7}},
    ]
    for watcher in watchers.values():
        watcher.client.received.extend(events)
    positions = timeline(list(watchers.values()))
    assert positions == {5: (None, 0), 6: (0, 0), 7: (0, 1)}
    # seat 1 may see its own ace of spades, but not seat 0's discards; seat 0 may see its discards, not AS
    def shown(seat: int) -> list[str]:
        return [line.split(" shows ")[1] for line in leaks(watchers[seat], positions, [record])]

    assert shown(1) == ["hidden cards ['9S', 'TS']"]
    assert shown(0) == ["hidden cards ['AS']"]
    assert len(leaks(watchers[None], positions, [record])) == 2
    # an event's view may be taken after the command's later events: it is checked at its own seq
    late = Watcher(GameClient("http://unused"), "t", 1)
    late.client.received.append({"type": "event", "seq": 5, "event": {"type": "start"}, "state": {"seq": 6, "x": "AS"}})
    assert leaks(late, positions, [record]) == []
    late.client.received[0]["event"]["card"] = "AS"
    assert len(leaks(late, positions, [record])) == 1
    # PASS is not a card (whole strings only); a card before any deal is
    assert list(card_strings({"action": "PASS", "AS": 1, "x": ["KH", "TSX"]})) == ["AS", "KH"]
