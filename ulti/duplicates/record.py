"""The ``ulti-event/1`` record: every table's deals of a duplicate event and the standings (docs/record.md).

``build_duplicate_record`` makes it from the tables' match records; ``score_duplicate`` (``ulti score``)
replays every deal through the engine, checks that every table held the same cards on each deal
(and, when the record carries the seed, that the cards come from it), recomputes the matchpoints and
the standings, and refuses a record whose stated figures differ, naming the deal and the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ulti.duplicates.deals import duplicate_hands
from ulti.duplicates.matchpoints import deal_matchpoints, standings
from ulti.engine.cards import card_str, iter_cards, parse_card
from ulti.engine.errors import RecordError, UltiError
from ulti.engine.match import MATCH_LENGTHS
from ulti.engine.record import match_from_record

DUPLICATE_FORMAT = "ulti-event/1"
RULES = "ulti-rules/1"


def build_duplicate_record(
    event_id: str,
    deals_planned: int,
    first_dealer: int,
    matches: Sequence[Mapping[str, Any]],
    bots: Sequence[Sequence[bool]],
    seed: int | None = None,
) -> dict[str, Any]:
    """The ``ulti-event/1`` record of an event from its tables' ``ulti-match/1`` records (table 1 first).

    Each table's record keeps its planned deals only (a tie-break deal decides that table's own match,
    never the event). ``bots[t][s]``: whether a bot played seat ``s`` of table ``t + 1``. The seed is
    given once the event is over (it fixes every hand).
    """
    tables = []
    for number, match in enumerate(matches, start=1):
        kept = dict(match)
        kept["deals"] = list(match.get("deals", []))[:deals_planned]
        tables.append({"table": number, "bots": list(bots[number - 1]), "match": kept})
    record: dict[str, Any] = {
        "format": DUPLICATE_FORMAT,
        "rules": RULES,
        "event": event_id,
        "deals_planned": deals_planned,
        "first_dealer": first_dealer,
        "tables": tables,
    }
    if seed is not None:
        record["seed"] = seed
    scored = score_duplicate(record)
    record["matchpoints"] = scored["matchpoints"]
    record["standings"] = scored["standings"]
    return record


def score_duplicate(record: object) -> dict[str, Any]:
    """Check an ``ulti-event/1`` record and compute its matchpoints and standings (what ``ulti score`` prints).

    Raises ``RecordError`` naming the deal (from 0) and the table (from 1) of the first problem: a
    deal that breaks a rule, a table whose cards on a deal differ from table 1's, cards that do not
    come from the stated seed, stated matchpoints or standings that differ from the computed ones.
    """
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if record.get("format") != DUPLICATE_FORMAT:
        raise RecordError(f"format must be {DUPLICATE_FORMAT!r}, not {record.get('format')!r}")
    if record.get("rules", RULES) != RULES:
        raise RecordError(f"unknown rules {record.get('rules')!r}: this scorer knows only {RULES!r}")
    planned = record.get("deals_planned")
    if type(planned) is not int or planned not in MATCH_LENGTHS:
        raise RecordError("deals_planned must be 6, 9 or 12")
    tables = record.get("tables")
    if not isinstance(tables, list) or not tables:
        raise RecordError("tables must be a non-empty list")
    seed = record.get("seed")
    if seed is not None and type(seed) is not int:
        raise RecordError("seed must be an integer")
    _check_same_cards(tables)
    players: dict[tuple[int, int], tuple[str, bool]] = {}
    per_table: list[list[Any]] = []  # the replayed deals of each table
    for number, entry in enumerate(tables, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("match"), dict):
            raise RecordError(f"table {number}: must be an object with a match record")
        if entry.get("table", number) != number:
            raise RecordError(f"table {number}: numbered {entry.get('table')!r}: tables are numbered from 1 in order")
        match_record = entry["match"]
        if match_record.get("deals_planned") != planned:
            raise RecordError(f"table {number}: deals_planned differs from the event's {planned}")
        try:
            match = match_from_record(match_record)
        except UltiError as exc:
            raise RecordError(f"table {number}: {exc}") from None
        if len(match.deals) > planned:
            raise RecordError(f"table {number}: holds {len(match.deals)} deals, more than the {planned} planned")
        bots = entry.get("bots", [False, False, False])
        if not isinstance(bots, list) or len(bots) != 3:
            raise RecordError(f"table {number}: bots must list 3 booleans")
        for seat in range(3):
            players[(number, seat)] = (str(match.players[seat]), bool(bots[seat]))
        per_table.append(match.deals)
    first = tables[0]["match"]
    first_dealer = record.get("first_dealer", first.get("first_dealer"))
    for number, entry in enumerate(tables, start=1):
        if entry["match"].get("first_dealer") != first_dealer:
            raise RecordError(f"table {number}: first dealer differs from the event's {first_dealer}")

    results: list[dict[int, list[int]]] = []
    for index in range(planned):
        reference = None
        finished: dict[int, list[int]] = {}
        for number, deals in enumerate(per_table, start=1):
            if index >= len(deals):
                continue
            deal = deals[index]
            cards = (deal.dealer, tuple(deal.dealt))
            if reference is None:
                reference = (number, cards)
            elif cards != reference[1]:  # pragma: no cover - _check_same_cards refused it before the replay
                raise RecordError(f"deal {index}: table {number}: cards differ from table {reference[0]}'s")
            if seed is not None:
                dealer, hands = duplicate_hands(seed, index)
                dealt = [[card_str(c) for c in iter_cards(h)] for h in deal.dealt]
                if deal.dealer != dealer or dealt != hands:
                    raise RecordError(f"deal {index}: table {number}: cards do not come from the event's seed")
            if deal.result is not None:
                finished[number] = list(deal.result.scores)
        results.append(finished)

    matchpoints = [
        [mp for _, mp in sorted(deal_matchpoints(finished).items())] if finished else [] for finished in results
    ]
    complete = all(len(finished) == len(tables) for finished in results)
    lines = [line.to_json() for line in standings(players, results)]
    stated = record.get("matchpoints")
    if stated is not None:
        if not isinstance(stated, list) or len(stated) != len(matchpoints):
            raise RecordError(f"matchpoints must list the {planned} deals")
        for index, (given, computed) in enumerate(zip(stated, matchpoints, strict=True)):
            tables_done = sorted(results[index])
            for pos, number in enumerate(tables_done):
                got = given[pos] if isinstance(given, list) and pos < len(given) else None
                if got != computed[pos]:
                    raise RecordError(
                        f"deal {index}: table {number}: matchpoints {got} stated, {computed[pos]} computed"
                    )
            if isinstance(given, list) and len(given) != len(computed):
                raise RecordError(f"deal {index}: matchpoints of {len(given)} tables stated, {len(computed)} finished")
    stated_standings = record.get("standings")
    if stated_standings is not None and stated_standings != lines:
        raise RecordError("standings differ from the ones the matchpoints give")
    return {
        "format": DUPLICATE_FORMAT,
        "complete": complete,
        "tables": len(tables),
        "deals_planned": planned,
        "scores": [[scores for _, scores in sorted(finished.items())] for finished in results],
        "matchpoints": matchpoints,
        "standings": lines,
    }


def _dealt(deal: object) -> tuple[object, tuple[frozenset[int], ...]] | None:
    """A deal record's dealer and hands as sets of cards (None if they cannot be read: the replay says why)."""
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
        return None
    try:
        return deal.get("dealer"), tuple(frozenset(parse_card(c) for c in hand) for hand in deal["hands"])
    except (UltiError, TypeError, ValueError):
        return None


def _check_same_cards(tables: list[Any]) -> None:
    """Refuse the first deal whose cards (or dealer) at some table differ from the first table holding it.

    Checked before any deal is replayed: with other cards, the play recorded would rather break a rule,
    and the message should name what is wrong, not its consequence.
    """
    seen: dict[int, tuple[int, object]] = {}
    for number, entry in enumerate(tables, start=1):
        deals = entry.get("match", {}).get("deals") if isinstance(entry, dict) else None
        if not isinstance(deals, list):
            continue
        for index, deal in enumerate(deals):
            cards = _dealt(deal)
            if cards is None:
                continue
            if index not in seen:
                seen[index] = (number, cards)
            elif seen[index][1] != cards:
                raise RecordError(f"deal {index}: table {number}: cards differ from table {seen[index][0]}'s")
