"""What each seat did over a finished match: the statistics stored with its result (``match_players.stats``).

Pure: it reads the engine's finished ``Match`` (each deal's ``DealResult`` and action history) and
returns plain JSON-ready dicts; the shape is docs/protocol/players.md §20.4. The player pages add these up
over many matches, so every figure is a count or a sum, never an average.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypedDict

from ulti.engine.actions import Action, Kind
from ulti.engine.contracts import Part
from ulti.engine.fourmatch import FOUR_SEATS, FourMatch
from ulti.engine.match import Match
from ulti.engine.scoring import DealResult


class DeclaredCounts(TypedDict):
    """One part of contracts the seat declared: how often played, made, and played at a kontra or higher."""

    played: int
    made: int
    kontrad: int


class KontraCounts(TypedDict):
    """One part the seat, defending, said kontra on: how often, and how often the defenders won it."""

    given: int
    won: int


class SeatStats(TypedDict):
    """A seat's statistics over a match (docs/protocol/players.md §20.4), by part code in ``declared``
    and ``kontra``."""

    deals: int
    declarer_deals: int
    declarer_points: int
    defender_deals: int
    defender_points: int
    declared: dict[str, DeclaredCounts]
    kontra: dict[str, KontraCounts]


def empty_stats() -> SeatStats:
    """The statistics of a seat that has played no deal.

    >>> empty_stats()["declared"]
    {}
    """
    return {
        "deals": 0,
        "declarer_deals": 0,
        "declarer_points": 0,
        "defender_deals": 0,
        "defender_points": 0,
        "declared": {},
        "kontra": {},
    }


def match_stats(match: Match | FourMatch) -> list[SeatStats]:
    """The statistics of each seat (three, or four at a table of four) over the finished deals of ``match``.

    - ``declared[part]``: every part of a contract the seat declared counts on its own: ``played``,
      ``made`` (the declarer won that part) and ``kontrad`` (it was played at a kontra or higher).
      A given-up deal counts each part of its bid as played and not made.
    - ``kontra[part]``: the parts this seat, as a defender, said kontra on or raised in the chain
      (once per deal however many steps it said), and ``won`` when the defenders won that part.
    """
    if isinstance(match, FourMatch):
        # each deal's seats are played by the table seats its rotation names; the one sitting out adds nothing
        stats = [empty_stats() for _ in range(FOUR_SEATS)]
        for index, deal in enumerate(match.deals):
            if deal.result is not None:
                _add_deal(stats, deal.result, deal.history, match.rotation(index).positions)
        return stats
    return deals_stats((deal.result, deal.history) for deal in match.deals if deal.result is not None)


def deals_stats(deals: Iterable[tuple[DealResult, Sequence[Action]]]) -> list[SeatStats]:
    """``match_stats`` of finished deals given as (result, action history) pairs."""
    stats = [empty_stats() for _ in range(3)]
    for result, history in deals:
        _add_deal(stats, result, history)
    return stats


def _add_deal(
    stats: list[SeatStats], result: DealResult, history: Sequence[Action], seats: Sequence[int] = (0, 1, 2)
) -> None:
    """Add one deal to ``stats``; ``seats[s]`` is the index in ``stats`` of the player of the deal's seat ``s``."""
    declarer = result.declarer
    for seat in range(3):
        seat_stats = stats[seats[seat]]
        seat_stats["deals"] += 1
        if seat == declarer:
            seat_stats["declarer_deals"] += 1
            seat_stats["declarer_points"] += result.scores[seat]
        else:
            seat_stats["defender_deals"] += 1
            seat_stats["defender_points"] += result.scores[seat]

    # (part, made, kontra'd) of each part of the declared contract
    if result.given_up:
        parts = [(part, False, False) for part, _ in result.bid.parts]
    else:
        parts = [(p.part, p.won, p.multiplier > 1) for p in result.parts]
    declared = stats[seats[declarer]]["declared"]
    for part, made, kontrad in parts:
        entry = declared.setdefault(part.value, {"played": 0, "made": 0, "kontrad": 0})
        entry["played"] += 1
        entry["made"] += int(made)
        entry["kontrad"] += int(kontrad)

    # A kontra step by a defender: count each part once per defender per deal.
    said: dict[int, set[Part]] = {}
    for action in history:
        if action.kind is Kind.KONTRA and action.seat != declarer and action.parts:
            said.setdefault(action.seat, set()).update(action.parts)
    declarer_won = {p.part: p.won for p in result.parts}
    for seat, seat_parts in said.items():
        kontra = stats[seats[seat]]["kontra"]
        for part in sorted(seat_parts, key=list(Part).index):
            counts = kontra.setdefault(part.value, {"given": 0, "won": 0})
            counts["given"] += 1
            counts["won"] += int(not declarer_won.get(part, True))
