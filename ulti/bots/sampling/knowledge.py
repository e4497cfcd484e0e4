"""What a seat knows, and one world of the cards it cannot see (shared by inference, sampler and rebuild)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ulti.engine.actions import Kind
from ulti.engine.cards import Card, CardSet
from ulti.engine.contracts import Bid, Part
from ulti.engine.play import NO_TRUMP
from ulti.engine.view import LogEntry

TALON = 3
"""Location index of the talon (seats are 0, 1, 2)."""


@dataclass
class World:
    """One full deal of the unseen cards: every seat's current hand and the current talon (0 if none)."""

    hands: list[CardSet]
    talon: CardSet


@dataclass
class Knowledge:
    """What a seat knows now, read from its view alone."""

    seat: int
    dealer: int
    opener: int
    phase: str
    hand: CardSet
    sizes: tuple[int, int, int]
    talon_size: int
    #: ``allowed[loc]``: cards that may be at location ``loc`` (0..2 seats, 3 talon) now.
    allowed: list[CardSet]
    played: CardSet = 0
    played_by: list[CardSet] = field(default_factory=lambda: [0, 0, 0])
    #: (forty, twenties) announced by seats other than the viewer (trump contracts, trick 1).
    marriages: dict[int, tuple[int, int]] = field(default_factory=dict)
    contract: Bid | None = None
    declarer: int = -1
    trump: int = NO_TRUMP
    multipliers: dict[Part, int] = field(default_factory=dict)
    leader: int = -1
    trick: tuple[Card, ...] = ()
    won: tuple[int, int, int] = (0, 0, 0)
    declarer_points: int = 0
    tricks_done: int = 0
    #: possible locations before each log action (for ``world_to_deal``)
    snapshots: list[list[CardSet]] = field(default_factory=list)
    standing: Bid | None = None
    high_bidder: int = -1
    obliged: bool = False
    #: the log, when a world must be checked against it (a seat took a talon the viewer never saw)
    check_log: Sequence[LogEntry] | None = None

    @property
    def others(self) -> tuple[int, int]:
        """The two other seats, in seat order after the viewer."""
        return (self.seat + 1) % 3, (self.seat + 2) % 3

    def taking(self, talon: CardSet) -> Knowledge:
        """The knowledge after picking up ``talon`` (auction): 12 cards in hand, no talon."""
        allowed = [a & ~talon for a in self.allowed]
        allowed[self.seat] = self.hand | talon
        allowed[TALON] = 0
        sizes = list(self.sizes)
        sizes[self.seat] += 2
        return Knowledge(
            self.seat, self.dealer, self.opener, self.phase, self.hand | talon,
            (sizes[0], sizes[1], sizes[2]), 0, allowed,
        )

    def with_final_talon(self, talon: CardSet) -> Knowledge:
        """The knowledge with the current talon fixed to ``talon`` (e.g. the viewer's own discards)."""
        allowed = [a & ~talon for a in self.allowed]
        allowed[self.seat] = self.hand
        allowed[TALON] = talon
        out = Knowledge(self.seat, self.dealer, self.opener, self.phase, self.hand, self.sizes, 2, allowed)
        return out

    def start_hand(self, world: World, seat: int) -> CardSet:
        """``seat``'s hand at the start of play in ``world`` (its hand now plus the cards it has played)."""
        return world.hands[seat] | self.played_by[seat]


def pair_mask(cards: tuple[Card, Card]) -> CardSet:
    """The set of the two cards of a discard."""
    return (1 << cards[0]) | (1 << cards[1])


def discarder_before(log: Sequence[LogEntry], index: int) -> int:
    """Index of the bid whose discard is the talon taken at ``index``."""
    obliged = -2
    last = -1
    for i in range(index):
        entry = log[i]
        if entry.action is Kind.TAKE:
            obliged = entry.seat
        elif entry.action is Kind.BID:
            if obliged == entry.seat or obliged == -2:
                last = i
            obliged = -1
    return last
