"""A match of 6, 9 or 12 deals with rotation and tie-break deals (docs/rules.md §7).

The functions below the class are the bookkeeping every match shares, whatever its seats (the table
of four's ``FourMatch`` calls them too): the running totals and sheet from each deal's scores, the
sole leader, and the checks before a next deal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from ulti.engine.cards import Card, CardSet
from ulti.engine.deal import Deal
from ulti.engine.errors import IllegalAction, RecordError

MATCH_LENGTHS = (6, 9, 12)


class Match:
    """The deals of one match and its running score sheet.

    Six deals in which the opener bids the Simple game and gives up leave the three seats level, so
    tie-break deals follow, one at a time, until one seat alone holds the top:

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
    >>> match = Match(6, first_dealer=2, players=["Anna", "Bence", "Csaba"])
    >>> rng = random.Random(1)
    >>> for index in range(6):
    ...     concede(match.new_deal(deal_hands(rng, match.dealer_of(index))))
    >>> match.score_sheet()
    [[-4, 2, 2], [-2, -2, 4], [0, 0, 0], [-4, 2, 2], [-2, -2, 4], [0, 0, 0]]
    >>> match.winner() is None, match.is_over
    (True, False)
    >>> concede(match.new_deal(deal_hands(rng, match.dealer_of(6))))
    >>> match.totals(), match.winner()
    ([-4, 2, 2], None)
    >>> concede(match.new_deal(deal_hands(rng, match.dealer_of(7))))
    >>> match.totals(), match.winner(), match.is_over
    ([-2, -2, 4], 2, True)
    """

    def __init__(self, deals_planned: int, first_dealer: int = 0, players: Sequence[str] | None = None) -> None:
        """A new match of ``deals_planned`` deals (6, 9 or 12) whose first deal ``first_dealer`` deals."""
        if deals_planned not in MATCH_LENGTHS:
            raise RecordError(f"deals_planned must be 6, 9 or 12, not {deals_planned!r}")
        if first_dealer not in (0, 1, 2):
            raise RecordError(f"first_dealer must be 0, 1 or 2, not {first_dealer!r}")
        self.deals_planned = deals_planned
        self.first_dealer = first_dealer
        self.players = list(players) if players is not None else ["", "", ""]
        self.deals: list[Deal] = []

    def dealer_of(self, index: int) -> int:
        """The dealer of deal ``index`` (from 0): the deal rotates one seat each time.

        >>> [Match(6, first_dealer=2).dealer_of(index) for index in range(7)]
        [2, 0, 1, 2, 0, 1, 2]
        """
        return (self.first_dealer + index) % 3

    def _scores(self) -> Iterator[Sequence[int] | None]:
        # each deal's scores by seat, in order; None for an unfinished deal
        return (deal.result.scores if deal.result is not None else None for deal in self.deals)

    def totals(self) -> list[int]:
        """Each seat's running total over the finished deals."""
        return sheet_totals(self._scores(), 3)

    def score_sheet(self) -> list[list[int]]:
        """The running totals after each finished deal (one row per deal)."""
        return running_sheet(self._scores(), 3)

    def winner(self) -> int | None:
        """The seat that won, once the planned deals are done and one seat alone holds the top."""
        return match_winner(self.deals, self.deals_planned, self.totals)

    @property
    def is_over(self) -> bool:
        """Whether the match is decided."""
        return self.winner() is not None

    def new_deal(self, hands: Sequence[CardSet | Iterable[Card]]) -> Deal:
        """Start the next deal (a planned one, or a tie-break deal) with the dealt ``hands``."""
        return add_deal(self.deals, hands, self.dealer_of(len(self.deals)), lambda: self.is_over)


def sheet_totals(scores: Iterable[Sequence[int] | None], seats: int) -> list[int]:
    """Each of ``seats`` columns summed over the finished deals' ``scores`` (None: unfinished, skipped).

    >>> sheet_totals([[4, -2, -2], None, [-2, 4, -2]], 3)
    [2, 2, -4]
    """
    totals = [0] * seats
    for row in scores:
        if row is not None:
            totals = [t + d for t, d in zip(totals, row, strict=True)]
    return totals


def running_sheet(scores: Iterable[Sequence[int] | None], seats: int) -> list[list[int]]:
    """The running totals of ``seats`` columns after each finished deal, up to the first unfinished one.

    >>> running_sheet([[4, -2, -2], [-2, 4, -2], None], 3)
    [[4, -2, -2], [2, 2, -4]]
    """
    rows = []
    totals = [0] * seats
    for row in scores:
        if row is None:
            break
        totals = [t + d for t, d in zip(totals, row, strict=True)]
        rows.append(list(totals))
    return rows


def sole_leader(totals: Sequence[int]) -> int | None:
    """The column that alone holds the top of ``totals``; None when the top is shared.

    >>> sole_leader([2, 2, -4]), sole_leader([-2, -2, 4])
    (None, 2)
    """
    top = max(totals)
    leaders = [column for column, total in enumerate(totals) if total == top]
    return leaders[0] if len(leaders) == 1 else None


def last_deal_done(deals: Sequence[Deal]) -> bool:
    """Whether the latest of ``deals`` is over (true before the first deal)."""
    return not deals or deals[-1].is_over


def match_winner(deals: Sequence[Deal], deals_planned: int, totals: Callable[[], list[int]]) -> int | None:
    """The winning column once ``deals_planned`` deals are done and one column alone holds the top of ``totals()``."""
    if len(deals) < deals_planned or not last_deal_done(deals):
        return None
    return sole_leader(totals())


def add_deal(
    deals: list[Deal], hands: Sequence[CardSet | Iterable[Card]], dealer: int, decided: Callable[[], bool]
) -> Deal:
    """Append and return the next deal, dealt by engine seat ``dealer``, once the last is over and the
    match not ``decided()``.
    """
    if not last_deal_done(deals):
        raise IllegalAction("deal_unfinished", deal=len(deals) - 1)
    if decided():
        raise IllegalAction("match_decided")
    deal = Deal(hands, dealer)
    deals.append(deal)
    return deal
