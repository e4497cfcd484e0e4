"""The actions a seat can take in a deal (docs/record.md's action kinds), as small immutable values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ulti.engine.cards import SUIT_LETTERS, Card, card_str
from ulti.engine.contracts import Bid, Part
from ulti.engine.pickling import pickled_by_constructor


class Kind(StrEnum):
    """Action kinds; the values are the record's ``action`` strings."""

    BID = "bid"
    TAKE = "take"
    PASS = "pass"
    TRUMP = "trump"
    GIVE_UP = "give_up"
    KONTRA = "kontra"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class Action:
    """One action by one seat. Only the fields of its kind are set."""

    seat: int
    kind: Kind
    bid: Bid | None = None
    discard: tuple[Card, Card] | None = None
    suit: int | None = None
    parts: tuple[Part, ...] | None = None
    card: Card | None = None

    def by_seat(self, seat: int) -> Action:
        """This action made by ``seat`` (itself when it already is).

        >>> from ulti.engine.cards import parse_card
        >>> print(play(0, parse_card("AS")).by_seat(2))
        seat 2 play AS
        """
        if seat == self.seat:
            return self
        # field by field, not ``dataclasses.replace``: the server does this for every action it checks
        return Action(seat, self.kind, self.bid, self.discard, self.suit, self.parts, self.card)

    def __str__(self) -> str:
        text = f"seat {self.seat} {self.kind.value}"
        if self.bid is not None:
            text += f" {self.bid.code}"
        if self.discard is not None:
            text += f" discarding {card_str(self.discard[0])} {card_str(self.discard[1])}"
        if self.suit is not None:
            text += f" {SUIT_LETTERS[self.suit]}"
        if self.parts is not None:
            text += " [" + ", ".join(p.value for p in self.parts) + "]"
        if self.card is not None:
            text += f" {card_str(self.card)}"
        return text


def bid(seat: int, bid_: Bid, discard: tuple[Card, Card] | None = None) -> Action:
    """Name ``bid_``; ``discard`` is required exactly when the seat holds 12 cards.

    >>> from ulti.engine.cards import parse_card
    >>> from ulti.engine.contracts import parse_bid
    >>> print(bid(1, parse_bid("M-S"), (parse_card("7C"), parse_card("JD"))))
    seat 1 bid M-S discarding 7C JD
    >>> print(bid(2, parse_bid("H-SU")))
    seat 2 bid H-SU
    """
    return Action(seat, Kind.BID, bid=bid_, discard=discard)


def take(seat: int) -> Action:
    """Pick up the talon (then discard two and bid higher).

    >>> print(take(2))
    seat 2 take
    """
    return Action(seat, Kind.TAKE)


def pass_(seat: int) -> Action:
    """Pass in the auction.

    >>> pass_(0).kind
    <Kind.PASS: 'pass'>
    """
    return Action(seat, Kind.PASS)


def trump(seat: int, suit: int) -> Action:
    """The declarer of a minor-suit bid names clubs, spades or diamonds.

    >>> from ulti.engine.cards import Suit
    >>> print(trump(0, Suit.SPADES))
    seat 0 trump S
    """
    return Action(seat, Kind.TRUMP, suit=suit)


def give_up(seat: int) -> Action:
    """The declarer of a plain minor Simple game concedes (docs/rules.md §2.2).

    >>> print(give_up(1))
    seat 1 give_up
    """
    return Action(seat, Kind.GIVE_UP)


def kontra(seat: int, parts: tuple[Part, ...] = ()) -> Action:
    """Raise ``parts`` one kontra step; an empty tuple declines.

    >>> print(kontra(2, (Part.SIMPLE, Part.ULTI)))
    seat 2 kontra [simple, ulti]
    >>> print(kontra(1))
    seat 1 kontra []
    """
    return Action(seat, Kind.KONTRA, parts=tuple(parts))


def play(seat: int, card: Card) -> Action:
    """Play ``card``.

    >>> from ulti.engine.cards import parse_card
    >>> print(play(0, parse_card("AH")))
    seat 0 play AH
    """
    return Action(seat, Kind.PLAY, card=card)

# the bots' worker processes receive these: pickled in a way a compiled class can be rebuilt too
pickled_by_constructor(Action)
