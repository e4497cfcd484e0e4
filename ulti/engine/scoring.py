"""Settlement of a finished deal (docs/rules.md §4, §5): points, parts, silent bonuses, scores.

``settle`` is a pure function of what happened at the table; the deal calls it once the last
trick (or the give-up) is done. Its result converts to the JSON of docs/record.md with ``to_json``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ulti.engine.cards import KING, QUEEN, SUIT_LETTERS, CardSet, card_points
from ulti.engine.contracts import PART_ORDER, Bid, Part
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


@dataclass(frozen=True)
class Trick:
    """A finished trick: who led, the three cards in play order, and the seat that took it."""

    leader: int
    cards: tuple[int, int, int]
    winner: int

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


def marriages_of(hand: CardSet, trump: int) -> tuple[int, int]:
    """(40s, 20s) that ``hand`` holds: K+Q of the trump suit, and K+Q of each other suit.

    >>> from ulti.engine.cards import Suit, mask_of, parse_card
    >>> hand = mask_of(parse_card(c) for c in ("KH", "QH", "KS", "QS", "KC"))
    >>> marriages_of(hand, Suit.HEARTS), marriages_of(hand, Suit.CLUBS)
    ((1, 1), (0, 2))
    """
    forty = twenties = 0
    for suit in range(4):
        pair = (1 << (suit * 8 + KING)) | (1 << (suit * 8 + QUEEN))
        if hand & pair == pair:
            if suit == trump:
                forty = 1
            else:
                twenties += 1
    return forty, twenties


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
    if bid.has(Part.SIMPLE):
        return 40 * forty + 20 * twenties
    if not is_declarer:
        return 0
    if bid.has(Part.FORTY_HUNDRED):
        return 40 * forty
    if bid.has(Part.TWENTY_HUNDRED):
        return 20 if twenties else 0
    return 0


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
        won_by[trick.winner] += 1
        cards_won[trick.winner] |= (1 << trick.cards[0]) | (1 << trick.cards[1]) | (1 << trick.cards[2])
    decl_tricks = won_by[declarer]
    def_tricks = len(tricks) - decl_tricks
    all_ten = len(tricks) == TRICKS_PER_DEAL
    hearts = bid.is_hearts
    parts: list[PartResult] = []

    if not bid.has_trumps:
        part, value = bid.parts[0]
        won = decl_tricks == 0 if part is Part.BETLI else def_tricks == 0 and all_ten
        mult = multipliers.get(part, 1)
        amount = value * mult if won else -value * mult
        parts.append(PartResult(part, won, value, mult, amount))
        return DealResult(
            declarer=declarer,
            bid=bid,
            trump=NO_TRUMP,
            given_up=False,
            parts=tuple(parts),
            silent=(),
            points=None,
            per_defender=amount,
            scores=scores_for(declarer, amount),
            tricks=len(tricks),
            ended_early=not all_ten,
        )

    # Trump contracts are always played to trick 10 (§3.6).
    last = tricks[TRICKS_PER_DEAL - 1]
    defenders = [s for s in range(3) if s != declarer]
    decl_marriages = marriages_of(start_hands[declarer], trump)
    decl_total = card_points(cards_won[declarer]) + (LAST_TRICK_BONUS if last.winner == declarer else 0)
    decl_total += counting_marriages(bid, True, *decl_marriages)
    def_cards = cards_won[defenders[0]] | cards_won[defenders[1]]
    def_total = card_points(def_cards | talon) + (LAST_TRICK_BONUS if last.winner != declarer else 0)
    for seat in defenders:
        def_total += counting_marriages(bid, False, *marriages_of(start_hands[seat], trump))
    if decl_tricks == 0:
        decl_total = 0
    if def_tricks == 0:
        def_total = 0

    silent: list[SilentResult] = []
    seven = seven_of(trump)
    seven_seat = next((s for s in range(3) if last.card_of(s) == seven), -1)
    seven_won = seven_seat >= 0 and last.winner == seven_seat
    silent_double = HEARTS_FACTOR if hearts else 1

    if not bid.has(Part.ULTI) and seven_seat >= 0:
        if seven_seat == declarer:
            amount = SILENT_ULTI_WON * silent_double if seven_won else -SILENT_ULTI_LOST * silent_double
            silent.append(SilentResult("ulti", "declarer", seven_won, amount))
        else:
            amount = -SILENT_ULTI_WON * silent_double if seven_won else SILENT_ULTI_LOST * silent_double
            silent.append(SilentResult("ulti", "defenders", seven_won, amount))

    simple_factor = 1
    if bid.has(Part.SIMPLE) and (decl_total >= HUNDRED or def_total >= HUNDRED):
        simple_factor = SILENT_HUNDRED_FACTOR
        side = "declarer" if decl_total >= HUNDRED else "defenders"
        silent.append(SilentResult("100", side, side == "declarer", 0))

    if not bid.has(Part.DURCHMARS):
        if decl_tricks == TRICKS_PER_DEAL:
            silent.append(SilentResult("durchmars", "declarer", True, SILENT_DURCHMARS * silent_double))
        elif won_by[defenders[0]] == TRICKS_PER_DEAL or won_by[defenders[1]] == TRICKS_PER_DEAL:
            silent.append(SilentResult("durchmars", "defenders", False, -SILENT_DURCHMARS * silent_double))

    for part in PART_ORDER:
        value = bid.part_value(part)
        if not value:
            continue
        if part is Part.SIMPLE:
            value *= simple_factor
            won = decl_total > def_total
        elif part is Part.ULTI:
            won = last.winner == declarer and last.card_of(declarer) == seven
        elif part is Part.FORTY_HUNDRED:
            won = decl_marriages[0] == 1 and decl_total >= HUNDRED
        elif part is Part.TWENTY_HUNDRED:
            won = decl_marriages[1] > 0 and decl_total >= HUNDRED
        else:  # durchmars
            won = decl_tricks == TRICKS_PER_DEAL
        mult = multipliers.get(part, 1)
        amount = value * mult if won else -value * mult
        if part is Part.ULTI and not won:
            amount -= LOST_ULTI_EXTRA * silent_double
        parts.append(PartResult(part, won, value, mult, amount))

    per_defender = sum(p.per_defender for p in parts) + sum(s.per_defender for s in silent)
    return DealResult(
        declarer=declarer,
        bid=bid,
        trump=trump,
        given_up=False,
        parts=tuple(parts),
        silent=tuple(silent),
        points=(decl_total, def_total),
        per_defender=per_defender,
        scores=scores_for(declarer, per_defender),
        tricks=TRICKS_PER_DEAL,
        ended_early=False,
    )
