"""Settlement of a finished deal (docs/rules.md §4, §5): points, parts, silent bonuses, scores.

``settle`` is a pure function of what happened at the table; the deal calls it once the last
trick (or the give-up) is done. Its result converts to the JSON of docs/record.md with ``to_json``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ulti.engine.cards import KING, QUEEN, SUIT_LETTERS, CardSet, card_points
from ulti.engine.contracts import Bid, Part
from ulti.engine.play import NO_TRUMP, TRICKS_PER_DEAL, seven_of

GIVE_UP_PER_DEFENDER = -2
"""docs/rules.md §2.2: the declarer who concedes pays 2 to each defender."""

LAST_TRICK_BONUS = 10
"""docs/rules.md §4.4: points for the side that takes the last trick."""
HUNDRED = 100
"""docs/rules.md §4.5, §5.4: the total of a 100 (40-100, 20-100, the silent 100 doubling the Simple game)."""
SILENT_HUNDRED_FACTOR = 2
"""docs/rules.md §5.4: a silent 100 (either side) multiplies the Simple game's value."""
HEARTS_FACTOR = 2
"""docs/rules.md §5.3, §5.4: hearts double the silent bonuses and the lost-ulti extra."""
SILENT_ULTI_WON = 2
"""docs/rules.md §5.4: a silent ulti won (per defender, before the hearts factor)."""
SILENT_ULTI_LOST = 4
"""docs/rules.md §5.4: a silent ulti lost (per defender, before the hearts factor)."""
SILENT_DURCHMARS = 3
"""docs/rules.md §5.4: a silent durchmars (per defender, before the hearts factor)."""
LOST_ULTI_EXTRA = 4
"""docs/rules.md §5.3: the extra a lost ulti costs, never multiplied by kontra (times the hearts factor)."""


@dataclass(frozen=True, init=False)
class Trick:
    """A finished trick: who led, the three cards in play order, and the seat that took it."""

    leader: int
    cards: tuple[int, int, int]
    winner: int

    def __init__(self, leader: int, cards: tuple[int, int, int], winner: int) -> None:
        """The generated frozen ``__init__``'s work, done on the instance's ``__dict__`` directly (the
        generated one calls ``object.__setattr__`` per field: twice the time, and a deal makes ten)."""
        fields = self.__dict__
        fields["leader"] = leader
        fields["cards"] = cards
        fields["winner"] = winner

    def seat_of(self, index: int) -> int:
        """The seat that played the ``index``-th card of this trick.

        >>> Trick(leader=2, cards=(0, 1, 2), winner=2).seat_of(1)
        0
        """
        return (self.leader + index) % 3

    def card_of(self, seat: int) -> int:
        """The card ``seat`` played to this trick.

        >>> from ulti.engine.cards import card_str, parse_card
        >>> trick = Trick(leader=1, cards=(parse_card("AS"), parse_card("7S"), parse_card("TS")), winner=1)
        >>> card_str(trick.card_of(0))
        'TS'
        """
        return self.cards[(seat - self.leader) % 3]


@dataclass(frozen=True)
class PartResult:
    """Settlement of one part of the contract."""

    part: Part
    won: bool
    value: int
    multiplier: int
    per_defender: int

    def to_json(self) -> dict[str, Any]:
        """This part as docs/record.md's result entry."""
        return {
            "part": self.part.value,
            "won": self.won,
            "value": self.value,
            "multiplier": self.multiplier,
            "per_defender": self.per_defender,
        }


@dataclass(frozen=True)
class SilentResult:
    """A silent (unbid) bonus that happened (docs/rules.md §5.4)."""

    bonus: str  # "ulti" | "100" | "durchmars"
    side: str  # "declarer" | "defenders"
    won: bool
    per_defender: int

    def to_json(self) -> dict[str, Any]:
        """This bonus as docs/record.md's result entry."""
        return {"bonus": self.bonus, "side": self.side, "won": self.won, "per_defender": self.per_defender}


@dataclass(frozen=True)
class PointsDetail:
    """What a trump contract's points and amounts are made of (docs/rules.md §4, §5.3), for people.

    ``DealResult.points`` are the totals; this says where they came from: the card points of each
    side's tricks, the talon's (which count for the defenders), the last trick's 10, the marriages
    that count, and whether a side took no trick (its points then count as 0). A lost ulti's
    amount per defender is ``lost_ulti_amount`` (its value times its kontra multiplier) plus
    ``lost_ulti_extra``, the part kontra does not multiply.
    """

    declarer_cards: int
    defenders_cards: int  # the defenders' tricks, without the talon
    talon: int
    last_trick_declarer: bool
    declarer_marriages: int
    defenders_marriages: int
    declarer_zero: bool  # took no trick: the declarer's points count as 0
    defenders_zero: bool
    lost_ulti_amount: int = 0  # per defender, 0 or negative
    lost_ulti_extra: int = 0  # per defender, 0 or negative

    def to_json(self) -> dict[str, Any]:
        """The ``detail`` of a result in the table's views (docs/protocol/views.md §10.2)."""
        last = LAST_TRICK_BONUS
        return {
            "declarer": {
                "cards": self.declarer_cards,
                "last_trick": last if self.last_trick_declarer else 0,
                "marriages": self.declarer_marriages,
                "zero": self.declarer_zero,
            },
            "defenders": {
                "cards": self.defenders_cards,
                "talon": self.talon,
                "last_trick": 0 if self.last_trick_declarer else last,
                "marriages": self.defenders_marriages,
                "zero": self.defenders_zero,
            },
            "lost_ulti": (
                {"amount": self.lost_ulti_amount, "extra": self.lost_ulti_extra} if self.lost_ulti_extra else None
            ),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PointsDetail:
        """Parse ``to_json()`` back."""
        decl, defs, ulti = data["declarer"], data["defenders"], data["lost_ulti"] or {"amount": 0, "extra": 0}
        return cls(
            decl["cards"], defs["cards"], defs["talon"], decl["last_trick"] > 0, decl["marriages"],
            defs["marriages"], decl["zero"], defs["zero"], ulti["amount"], ulti["extra"],
        )


@dataclass(frozen=True)
class DealResult:
    """The outcome of a finished deal. ``scores[s]`` is the change to seat ``s``'s total."""

    declarer: int
    bid: Bid
    trump: int  # suit, or NO_TRUMP
    given_up: bool
    parts: tuple[PartResult, ...]
    silent: tuple[SilentResult, ...]
    points: tuple[int, int] | None  # (declarer, defenders); None for no-trump and give-up
    per_defender: int
    scores: tuple[int, int, int]
    tricks: int = 0
    ended_early: bool = False
    #: where the points came from (trump contracts played out); not part of the record's result
    detail: PointsDetail | None = field(default=None, compare=False)

    def view_json(self) -> dict[str, Any]:
        """``to_json()`` with the ``detail`` the table shows (docs/protocol/views.md §10.2), when there is one."""
        out = self.to_json()
        if self.detail is not None:
            out["detail"] = self.detail.to_json()
        return out

    def to_json(self) -> dict[str, Any]:
        """The result as docs/record.md specifies it.

        >>> from ulti.engine.contracts import parse_bid
        >>> give_up_result(0, parse_bid("M-S")).to_json()
        {'complete': True, 'declarer': 0, 'bid': 'M-S', 'trump': None, 'given_up': True, 'parts': [],
         'silent': [], 'per_defender': -2, 'scores': [-4, 2, 2]}
        """
        out: dict[str, Any] = {
            "complete": True,
            "declarer": self.declarer,
            "bid": self.bid.code,
            "trump": None if self.trump == NO_TRUMP else SUIT_LETTERS[self.trump],
            "given_up": self.given_up,
        }
        if self.points is not None:
            out["points"] = {"declarer": self.points[0], "defenders": self.points[1]}
        out["parts"] = [p.to_json() for p in self.parts]
        out["silent"] = [s.to_json() for s in self.silent]
        out["per_defender"] = self.per_defender
        out["scores"] = list(self.scores)
        if not self.given_up:
            out["tricks"] = self.tricks
            out["ended_early"] = self.ended_early
        return out


def scores_for(declarer: int, per_defender: int) -> tuple[int, int, int]:
    """Score changes of the three seats when each defender pays ``per_defender`` to the declarer.

    >>> scores_for(declarer=1, per_defender=6)
    (-6, 12, -6)
    >>> scores_for(declarer=0, per_defender=-2)
    (-4, 2, 2)
    """
    scores = [-per_defender, -per_defender, -per_defender]
    scores[declarer] = 2 * per_defender
    return (scores[0], scores[1], scores[2])


def give_up_result(declarer: int, bid: Bid) -> DealResult:
    """The result of a conceded plain minor Simple game (docs/rules.md §2.2).

    >>> from ulti.engine.contracts import parse_bid
    >>> result = give_up_result(2, parse_bid("M-S"))
    >>> result.given_up, result.per_defender, result.scores
    (True, -2, (2, 2, -4))
    """
    return DealResult(
        declarer=declarer,
        bid=bid,
        trump=NO_TRUMP,
        given_up=True,
        parts=(),
        silent=(),
        points=None,
        per_defender=GIVE_UP_PER_DEFENDER,
        scores=scores_for(declarer, GIVE_UP_PER_DEFENDER),
    )


_QUEENS: CardSet = sum(1 << (suit * 8 + QUEEN) for suit in range(4))
"""The queens' bits: ``hand & hand >> 1 & _QUEENS`` keeps the queen of each suit whose king is held too."""
assert KING == QUEEN + 1  # the shift above pairs each queen with the king of its suit


def marriages_of(hand: CardSet, trump: int) -> tuple[int, int]:
    """(40s, 20s) that ``hand`` holds: K+Q of the trump suit, and K+Q of each other suit.

    >>> from ulti.engine.cards import Suit, mask_of, parse_card
    >>> hand = mask_of(parse_card(c) for c in ("KH", "QH", "KS", "QS", "KC"))
    >>> marriages_of(hand, Suit.HEARTS), marriages_of(hand, Suit.CLUBS)
    ((1, 1), (0, 2))
    """
    # one queen bit per suit where both the king and the queen are held (bit arithmetic: settle and the
    # solver's wrapper ask this of every hand of every deal)
    pairs = hand & (hand >> 1) & _QUEENS
    forty = pairs >> (trump * 8 + QUEEN) & 1 if trump >= 0 else 0
    return forty, pairs.bit_count() - forty


def counting_marriages(bid: Bid, is_declarer: bool, forty: int, twenties: int) -> int:
    """Marriage points that count for a seat under docs/rules.md §4.2.

    In a bid with the Simple game every marriage counts for everyone; in 40-100 only the declarer's 40.

    >>> from ulti.engine.contracts import parse_bid
    >>> counting_marriages(parse_bid("M-S"), False, forty=1, twenties=1)
    60
    >>> forty_hundred = parse_bid("M-40")
    >>> counting_marriages(forty_hundred, True, 1, 2), counting_marriages(forty_hundred, False, 1, 2)
    (40, 0)
    """
    parts = bid.values_by_part
    if _SIMPLE in parts:
        return 40 * forty + 20 * twenties
    if not is_declarer:
        return 0
    if _FORTY in parts:
        return 40 * forty
    if _TWENTY in parts:
        return 20 if twenties else 0
    return 0


_T = TypeVar("_T")
_new_object = object.__new__


def _built(cls: type[_T], fields: dict[str, Any]) -> _T:
    """``cls(**fields)`` for a frozen dataclass ``cls`` given every one of its fields.

    The frozen ``__init__`` sets each field through ``object.__setattr__`` (several microseconds for
    the results of one deal, a third of a random game's time); this fills the instance's ``__dict__``
    at once. The instance is the same (equality, hash, pickling, immutability afterwards):
    tests/engine/test_play_path.py checks it field for field against the constructor.
    """
    obj = _new_object(cls)
    obj.__dict__.update(fields)
    return obj


_SIMPLE, _ULTI, _FORTY, _TWENTY, _DURCHMARS, _BETLI = (
    Part.SIMPLE, Part.ULTI, Part.FORTY_HUNDRED, Part.TWENTY_HUNDRED, Part.DURCHMARS, Part.BETLI,
)


def settle(
    *,
    bid: Bid,
    declarer: int,
    trump: int,
    tricks: Sequence[Trick],
    start_hands: Sequence[CardSet],
    talon: CardSet,
    multipliers: Mapping[Part, int],
) -> DealResult:
    """Settle a played deal: its tricks (10, or fewer when a no-trump contract ended early).

    A betli under kontra, lost when the declarer (seat 1) takes the first trick: play stops there.

    >>> from ulti.engine.cards import parse_card
    >>> from ulti.engine.contracts import parse_bid
    >>> first = Trick(leader=1, cards=(parse_card("AS"), parse_card("7S"), parse_card("8S")), winner=1)
    >>> result = settle(bid=parse_bid("N-B"), declarer=1, trump=NO_TRUMP, tricks=[first],
    ...                 start_hands=(0, 0, 0), talon=0, multipliers={Part.BETLI: 2})
    >>> [part.to_json() for part in result.parts]
    [{'part': 'betli', 'won': False, 'value': 5, 'multiplier': 2, 'per_defender': -10}]
    >>> result.scores, result.ended_early
    ((10, -20, 10), True)
    """
    won_by = [0, 0, 0]
    cards_won = [0, 0, 0]
    for trick in tricks:
        winner = trick.winner
        won_by[winner] += 1
        c0, c1, c2 = trick.cards
        cards_won[winner] |= (1 << c0) | (1 << c1) | (1 << c2)
    n = len(tricks)
    decl_tricks = won_by[declarer]
    def_tricks = n - decl_tricks
    parts: list[PartResult] = []

    if not bid.has_trumps:
        part, value = bid.parts[0]
        all_ten = n == TRICKS_PER_DEAL
        won = decl_tricks == 0 if part is _BETLI else def_tricks == 0 and all_ten
        mult = multipliers.get(part, 1)
        amount = value * mult if won else -value * mult
        parts.append(_part_result(part, won, value, mult, amount))
        return _built(DealResult, {
            "declarer": declarer,
            "bid": bid,
            "trump": NO_TRUMP,
            "given_up": False,
            "parts": tuple(parts),
            "silent": (),
            "points": None,
            "per_defender": amount,
            "scores": scores_for(declarer, amount),
            "tricks": n,
            "ended_early": not all_ten,
            "detail": None,
        })

    # Trump contracts are always played to trick 10 (§3.6).
    values = bid.values_by_part
    has_simple = _SIMPLE in values
    silent_double = HEARTS_FACTOR if bid.is_hearts else 1
    last = tricks[TRICKS_PER_DEAL - 1]
    last_winner = last.winner
    last_declarer = last_winner == declarer
    d1, d2 = (declarer + 1) % 3, (declarer + 2) % 3
    decl_forty, decl_twenties = marriages_of(start_hands[declarer], trump)
    decl_marriages = counting_marriages(bid, True, decl_forty, decl_twenties)
    if has_simple:  # every marriage counts, the defenders' too (§4.2)
        f1, t1 = marriages_of(start_hands[d1], trump)
        f2, t2 = marriages_of(start_hands[d2], trump)
        def_marriages = 40 * (f1 + f2) + 20 * (t1 + t2)
    else:
        def_marriages = 0
    decl_cards = card_points(cards_won[declarer])
    def_cards = cards_won[d1] | cards_won[d2]
    def_card_points = card_points(def_cards)
    talon_points = card_points(talon)
    decl_total = decl_cards + (LAST_TRICK_BONUS if last_declarer else 0) + decl_marriages
    def_total = card_points(def_cards | talon) + (0 if last_declarer else LAST_TRICK_BONUS) + def_marriages
    if decl_tricks == 0:
        decl_total = 0
    if def_tricks == 0:
        def_total = 0

    silent: list[SilentResult] = []
    seven = seven_of(trump)
    leader, (c0, c1, c2) = last.leader, last.cards
    seven_seat = (
        leader if c0 == seven else (leader + 1) % 3 if c1 == seven else (leader + 2) % 3 if c2 == seven else -1
    )
    seven_won = seven_seat >= 0 and last_winner == seven_seat

    if seven_seat >= 0 and _ULTI not in values:
        if seven_seat == declarer:
            amount = SILENT_ULTI_WON * silent_double if seven_won else -SILENT_ULTI_LOST * silent_double
            silent.append(_silent_result("ulti", "declarer", seven_won, amount))
        else:
            amount = -SILENT_ULTI_WON * silent_double if seven_won else SILENT_ULTI_LOST * silent_double
            silent.append(_silent_result("ulti", "defenders", seven_won, amount))

    simple_factor = 1
    lost_ulti_amount = lost_ulti_extra = 0
    if has_simple and (decl_total >= HUNDRED or def_total >= HUNDRED):
        simple_factor = SILENT_HUNDRED_FACTOR
        side = "declarer" if decl_total >= HUNDRED else "defenders"
        silent.append(_silent_result("100", side, side == "declarer", 0))

    if _DURCHMARS not in values:
        if decl_tricks == TRICKS_PER_DEAL:
            silent.append(_silent_result("durchmars", "declarer", True, SILENT_DURCHMARS * silent_double))
        elif won_by[d1] == TRICKS_PER_DEAL or won_by[d2] == TRICKS_PER_DEAL:
            silent.append(_silent_result("durchmars", "defenders", False, -SILENT_DURCHMARS * silent_double))

    per_defender = 0
    for part, value in bid.ordered_parts:
        if part is _SIMPLE:
            value *= simple_factor
            won = decl_total > def_total
        elif part is _ULTI:
            won = last_declarer and last.card_of(declarer) == seven
        elif part is _FORTY:
            won = decl_forty == 1 and decl_total >= HUNDRED
        elif part is _TWENTY:
            won = decl_twenties > 0 and decl_total >= HUNDRED
        else:  # durchmars
            won = decl_tricks == TRICKS_PER_DEAL
        mult = multipliers.get(part, 1)
        amount = value * mult if won else -value * mult
        if part is _ULTI and not won:
            lost_ulti_amount, lost_ulti_extra = amount, -LOST_ULTI_EXTRA * silent_double
            amount += lost_ulti_extra
        per_defender += amount
        parts.append(_part_result(part, won, value, mult, amount))

    for bonus in silent:
        per_defender += bonus.per_defender
    detail = _built(PointsDetail, {
        "declarer_cards": decl_cards,
        "defenders_cards": def_card_points,
        "talon": talon_points,
        "last_trick_declarer": last_declarer,
        "declarer_marriages": decl_marriages,
        "defenders_marriages": def_marriages,
        "declarer_zero": decl_tricks == 0,
        "defenders_zero": def_tricks == 0,
        "lost_ulti_amount": lost_ulti_amount,
        "lost_ulti_extra": lost_ulti_extra,
    })
    return _built(DealResult, {
        "declarer": declarer,
        "bid": bid,
        "trump": trump,
        "given_up": False,
        "parts": tuple(parts),
        "silent": tuple(silent),
        "points": (decl_total, def_total),
        "per_defender": per_defender,
        "scores": scores_for(declarer, per_defender),
        "tricks": TRICKS_PER_DEAL,
        "ended_early": False,
        "detail": detail,
    })


_PART_RESULTS: dict[tuple[Part, bool, int, int, int], PartResult] = {}
_SILENT_RESULTS: dict[tuple[str, str, bool, int], SilentResult] = {}


def _part_result(part: Part, won: bool, value: int, multiplier: int, per_defender: int) -> PartResult:
    """``PartResult(...)``, one shared instance per distinct value (it is immutable; a few hundred exist)."""
    key = (part, won, value, multiplier, per_defender)
    found = _PART_RESULTS.get(key)
    if found is None:
        found = _PART_RESULTS[key] = PartResult(part, won, value, multiplier, per_defender)
    return found


def _silent_result(bonus: str, side: str, won: bool, per_defender: int) -> SilentResult:
    """``SilentResult(...)``, one shared instance per distinct value (immutable; a handful exist)."""
    key = (bonus, side, won, per_defender)
    found = _SILENT_RESULTS.get(key)
    if found is None:
        found = _SILENT_RESULTS[key] = SilentResult(bonus, side, won, per_defender)
    return found
