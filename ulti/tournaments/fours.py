"""Tables of four, as clubs seat a fourth player: the dealer of each deal sits out and the other three play.

A table of four seats its players in order around the table, ``(p0, p1, p2, p3)``. Deal ``k`` (from 0)
is dealt by the player at position ``k % 4``, who sits out; the three others play it as a three-player
deal (the engine plays three players): the one on the dealer's left opens (engine seat 0), then the
next (seat 1), then the one on the dealer's right (seat 2), who holds the engine's dealer seat, so the
engine's opener (the seat after its dealer) is the player on the real dealer's left.

Every four deals each player sits out once and opens once; a table of three rotates every three
deals. A round that seats tables of three and four together plays a multiple of 12 deals
(``FOUR_TABLE_DEALS``), so at every table each player opens, sits out (at four) and deals equally.
A player who sits out a deal scores 0 for it. The rotation itself is the engine's
(``ulti/engine/fourmatch.py``, which also plays such a match); its names are re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ulti.engine.fourmatch import ENGINE_DEALER, FOUR_MATCH_DEALS, FourDeal, four_deal_scores, four_table_deal

FOUR_TABLE_DEALS = FOUR_MATCH_DEALS  # deals per round are a multiple of this when tables of four are seated

P = TypeVar("P")

__all__ = [
    "ENGINE_DEALER",
    "FOUR_TABLE_DEALS",
    "FourDeal",
    "four_deal_scores",
    "four_table_deal",
    "four_table_seats",
    "table_sizes",
]


def four_table_seats(table: Sequence[P], deal: int) -> tuple[P, tuple[P, P, P]]:
    """For ``table`` (four players in order around it) and deal ``deal``: the player sitting out, and
    the players of engine seats 0, 1, 2 (seat 2 deals).

    >>> four_table_seats(["Anna", "Bela", "Cili", "Dani"], 1)
    ('Bela', ('Cili', 'Dani', 'Anna'))
    """
    if len(table) != 4:
        raise ValueError(f"a table of four seats four players, not {len(table)}")
    seats = four_table_deal(deal)
    a, b, c = (table[p] for p in seats.positions)
    return table[seats.sits_out], (a, b, c)


def table_sizes(players: int, four_tables: bool) -> list[int]:
    """The sizes of a round's tables, strongest first: threes (bots in the last seats) or, with tables of
    four, threes then one or two fours so no bot is needed (5 players cannot: ValueError).

    >>> table_sizes(10, False), table_sizes(10, True), table_sizes(11, True), table_sizes(9, True)
    ([3, 3, 3, 3], [3, 3, 4], [3, 4, 4], [3, 3, 3])
    """
    if not four_tables:
        return [3] * -(-players // 3)
    fours = players % 3  # N ≡ 1 (mod 3): one table of four; N ≡ 2: two
    if players < 4 * fours or players < 3:
        raise ValueError(f"players: {players} players cannot sit at tables of three and four; bots fill seats")
    return [3] * ((players - 4 * fours) // 3) + [4] * fours
