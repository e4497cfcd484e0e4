"""A match at a table of four, as clubs seat a fourth player: the dealer of each deal sits out.

The four players sit in order around the table, positions 0..3. Deal ``k`` (from 0, counting from
the first dealer ``f``) is dealt by the player at position ``(f + k) % 4``, who sits out and scores 0;
the three others play it as an ordinary three-player deal: the player on the dealer's left opens
(engine seat 0), then the next (seat 1), then the one on the dealer's right (seat 2), who holds the
engine's dealer seat, so the engine's opener (the seat after its dealer) is the player on the real
dealer's left. Every four deals each player sits out once and opens once; a match plays 12 deals,
so everyone deals, opens and sits out three times. Ties at the top continue with extra deals, the
rotation going on, until one player alone holds the top (docs/rules.md §7, which says the same of
three seats).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ulti.engine.cards import Card, CardSet
from ulti.engine.deal import Deal
from ulti.engine.errors import RecordError
from ulti.engine.match import add_deal, match_winner, running_sheet, sheet_totals

FOUR_SEATS = 4
FOUR_MATCH_DEALS = 12  # a multiple of 4 (each sits out equally) and of 3 (each engine seat equally)
FOUR_MATCH_LENGTHS = (FOUR_MATCH_DEALS,)
ENGINE_DEALER = 2  # the engine seat that deals each three-player deal of a table of four


@dataclass(frozen=True)
class FourDeal:
    """One deal of a table of four: who sits out (position), and who plays engine seats 0, 1, 2.

    ``positions[s]`` is the table position (0..3) of the player in engine seat ``s``; ``dealer`` is the
    engine seat that deals (always ``ENGINE_DEALER``).
    """

    sits_out: int
    positions: tuple[int, int, int]
    dealer: int = ENGINE_DEALER


def four_table_deal(deal: int) -> FourDeal:
    """Who sits out deal ``deal`` (from 0, position 0 dealing first) and which position plays each engine seat.

    >>> four_table_deal(0)
    FourDeal(sits_out=0, positions=(1, 2, 3), dealer=2)
    >>> four_table_deal(5)
    FourDeal(sits_out=1, positions=(2, 3, 0), dealer=2)
    """
    if deal < 0:
        raise ValueError("deal: deals are numbered from 0")
    out = deal % 4
    return FourDeal(out, ((out + 1) % 4, (out + 2) % 4, (out + 3) % 4))


def four_deal_scores(deal: int, engine_scores: Sequence[int]) -> list[int]:
    """A deal's three engine-seat scores as the table of four's four positions (0 for the one sitting out).

    >>> four_deal_scores(1, [4, -2, -2])
    [-2, 0, 4, -2]
    """
    out = [0, 0, 0, 0]
    for seat, position in enumerate(four_table_deal(deal).positions):
        out[position] = engine_scores[seat]
    return out


class FourMatch:
    """The deals of one match at a table of four and its four-column score sheet.

    Each deal is an engine ``Deal`` of three seats; ``rotation(k)`` says which positions play it. The
    totals, the sheet and the winner are by table position. Twelve deals in which each opener bids
    the Simple game and gives up leave everyone level (each opens three times and defends six), so
    tie-break deals follow with the rotation going on:

    >>> import random
    >>> from ulti.engine import actions as act
    >>> from ulti.engine.cards import cards_of
    >>> from ulti.engine.contracts import parse_bid
    >>> from ulti.engine.dealing import deal_hands
    >>> def concede(deal: Deal) -> None:
    ...     first, second = cards_of(deal.hands[deal.opener])[:2]
    ...     deal.apply(act.bid(deal.opener, parse_bid("M-S"), (first, second)))
    ...     for seat in (deal.opener + 1, deal.opener + 2, deal.opener):
    ...         deal.apply(act.pass_(seat % 3))
    ...     deal.apply(act.give_up(deal.opener))
    >>> match = FourMatch(players=["Anna", "Bence", "Csaba", "Dora"])
    >>> rng = random.Random(1)
    >>> for index in range(12):
    ...     concede(match.new_deal(deal_hands(rng, match.dealer_of(index))))
    >>> match.score_sheet()[:4]
    [[0, -4, 2, 2], [2, -4, -2, 4], [4, -2, -2, 0], [0, 0, 0, 0]]
    >>> match.totals(), match.winner(), match.is_over
    ([0, 0, 0, 0], None, False)
    >>> match.rotation(12).sits_out
    0
    >>> concede(match.new_deal(deal_hands(rng, match.dealer_of(12))))
    >>> match.totals(), match.winner(), match.is_over
    ([0, -4, 2, 2], None, False)
    >>> concede(match.new_deal(deal_hands(rng, match.dealer_of(13))))
    >>> match.totals(), match.winner(), match.is_over
    ([2, -4, -2, 4], 3, True)
    """

    seats = FOUR_SEATS

    def __init__(
        self, deals_planned: int = FOUR_MATCH_DEALS, first_dealer: int = 0, players: Sequence[str] | None = None
    ) -> None:
        """A new match of ``deals_planned`` deals (12) whose first deal position ``first_dealer`` deals."""
        if deals_planned not in FOUR_MATCH_LENGTHS:
            raise RecordError(f"deals_planned must be {FOUR_MATCH_DEALS} at a table of four, not {deals_planned!r}")
        if first_dealer not in range(FOUR_SEATS):
            raise RecordError(f"first_dealer must be 0, 1, 2 or 3 at a table of four, not {first_dealer!r}")
        if players is not None and len(players) != FOUR_SEATS:
            raise RecordError(f"players must be a list of 4 names at a table of four, not {len(players)}")
        self.deals_planned = deals_planned
        self.first_dealer = first_dealer
        self.players = list(players) if players is not None else ["", "", "", ""]
        self.deals: list[Deal] = []

    def rotation(self, index: int) -> FourDeal:
        """Who sits out deal ``index`` (from 0) and which position plays each engine seat.

        >>> [FourMatch(first_dealer=3).rotation(k).sits_out for k in range(6)]
        [3, 0, 1, 2, 3, 0]
        """
        return four_table_deal(self.first_dealer + index)

    def dealer_of(self, index: int) -> int:
        """The engine seat that deals deal ``index``: always ``ENGINE_DEALER`` (the real dealer sits out)."""
        return self.rotation(index).dealer

    def sits_out(self, index: int) -> int:
        """The table position that deals and sits out deal ``index``."""
        return self.rotation(index).sits_out

    def position_of(self, index: int, engine_seat: int) -> int:
        """The table position playing ``engine_seat`` in deal ``index``.

        >>> FourMatch().position_of(1, 0), FourMatch().position_of(1, 2)
        (2, 0)
        """
        return self.rotation(index).positions[engine_seat]

    def engine_seat_of(self, index: int, position: int) -> int | None:
        """The engine seat table position ``position`` plays in deal ``index`` (None: it sits out).

        >>> [FourMatch().engine_seat_of(0, p) for p in range(4)]
        [None, 0, 1, 2]
        """
        positions = self.rotation(index).positions
        return positions.index(position) if position in positions else None

    def deal_scores(self, index: int) -> list[int] | None:
        """Deal ``index``'s scores by table position (0 for the one sitting out); None while unfinished."""
        result = self.deals[index].result
        if result is None:
            return None
        return four_deal_scores(self.first_dealer + index, result.scores)

    def totals(self) -> list[int]:
        """Each position's running total over the finished deals."""
        return sheet_totals(self._scores(), FOUR_SEATS)

    def score_sheet(self) -> list[list[int]]:
        """The running totals by position after each finished deal (one row per deal)."""
        return running_sheet(self._scores(), FOUR_SEATS)

    def _scores(self) -> Iterator[list[int] | None]:
        return (self.deal_scores(index) for index in range(len(self.deals)))

    def winner(self) -> int | None:
        """The position that won, once the planned deals are done and one position alone holds the top."""
        return match_winner(self.deals, self.deals_planned, self.totals)

    @property
    def is_over(self) -> bool:
        """Whether the match is decided."""
        return self.winner() is not None

    def new_deal(self, hands: Sequence[CardSet | Iterable[Card]]) -> Deal:
        """Start the next deal (a planned one, or a tie-break deal) with the engine seats' dealt ``hands``."""
        return add_deal(self.deals, hands, self.dealer_of(len(self.deals)), lambda: self.is_over)
