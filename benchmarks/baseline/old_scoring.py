"""``settle`` as it was before the settlement was sped up (benchmarks only): the old code, copied
unchanged but for the two ``Bid`` queries it made, spelled out here as they were then (a scan of the
bid's parts). ``OldDeal`` settles with it, so that the old-against-new games/s figure of
``benchmarks.engine_bench`` compares today's whole engine path with the old one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ulti.engine.cards import KING, QUEEN, CardSet, card_points
from ulti.engine.contracts import PART_ORDER, Bid, Part
from ulti.engine.play import NO_TRUMP, TRICKS_PER_DEAL, seven_of
from ulti.engine.scoring import (
    HEARTS_FACTOR,
    HUNDRED,
    LAST_TRICK_BONUS,
    LOST_ULTI_EXTRA,
    SILENT_DURCHMARS,
    SILENT_HUNDRED_FACTOR,
    SILENT_ULTI_LOST,
    SILENT_ULTI_WON,
    DealResult,
    PartResult,
    PointsDetail,
    SilentResult,
    Trick,
    scores_for,
)


def _has(bid: Bid, part: Part) -> bool:
    """The old ``Bid.has``."""
    return any(p is part for p, _ in bid.parts)


def _part_value(bid: Bid, part: Part) -> int:
    """The old ``Bid.part_value``."""
    for p, v in bid.parts:
        if p is part:
            return v
    return 0


def old_marriages_of(hand: CardSet, trump: int) -> tuple[int, int]:
    """The old ``marriages_of``."""
    forty = twenties = 0
    for suit in range(4):
        pair = (1 << (suit * 8 + KING)) | (1 << (suit * 8 + QUEEN))
        if hand & pair == pair:
            if suit == trump:
                forty = 1
            else:
                twenties += 1
    return forty, twenties


def old_counting_marriages(bid: Bid, is_declarer: bool, forty: int, twenties: int) -> int:
    """The old ``counting_marriages``."""
    if _has(bid, Part.SIMPLE):
        return 40 * forty + 20 * twenties
    if not is_declarer:
        return 0
    if _has(bid, Part.FORTY_HUNDRED):
        return 40 * forty
    if _has(bid, Part.TWENTY_HUNDRED):
        return 20 if twenties else 0
    return 0


def old_settle(
    *,
    bid: Bid,
    declarer: int,
    trump: int,
    tricks: Sequence[Trick],
    start_hands: Sequence[CardSet],
    talon: CardSet,
    multipliers: Mapping[Part, int],
) -> DealResult:
    """The old ``settle``."""
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
    decl_marriages = old_marriages_of(start_hands[declarer], trump)
    decl_total = card_points(cards_won[declarer]) + (LAST_TRICK_BONUS if last.winner == declarer else 0)
    decl_total += old_counting_marriages(bid, True, *decl_marriages)
    def_cards = cards_won[defenders[0]] | cards_won[defenders[1]]
    def_total = card_points(def_cards | talon) + (LAST_TRICK_BONUS if last.winner != declarer else 0)
    def_marriages = 0
    for seat in defenders:
        def_marriages += old_counting_marriages(bid, False, *old_marriages_of(start_hands[seat], trump))
    def_total += def_marriages
    if decl_tricks == 0:
        decl_total = 0
    if def_tricks == 0:
        def_total = 0

    silent: list[SilentResult] = []
    seven = seven_of(trump)
    seven_seat = next((s for s in range(3) if last.card_of(s) == seven), -1)
    seven_won = seven_seat >= 0 and last.winner == seven_seat
    silent_double = HEARTS_FACTOR if hearts else 1

    if not _has(bid, Part.ULTI) and seven_seat >= 0:
        if seven_seat == declarer:
            amount = SILENT_ULTI_WON * silent_double if seven_won else -SILENT_ULTI_LOST * silent_double
            silent.append(SilentResult("ulti", "declarer", seven_won, amount))
        else:
            amount = -SILENT_ULTI_WON * silent_double if seven_won else SILENT_ULTI_LOST * silent_double
            silent.append(SilentResult("ulti", "defenders", seven_won, amount))

    simple_factor = 1
    lost_ulti_amount = lost_ulti_extra = 0
    if _has(bid, Part.SIMPLE) and (decl_total >= HUNDRED or def_total >= HUNDRED):
        simple_factor = SILENT_HUNDRED_FACTOR
        side = "declarer" if decl_total >= HUNDRED else "defenders"
        silent.append(SilentResult("100", side, side == "declarer", 0))

    if not _has(bid, Part.DURCHMARS):
        if decl_tricks == TRICKS_PER_DEAL:
            silent.append(SilentResult("durchmars", "declarer", True, SILENT_DURCHMARS * silent_double))
        elif won_by[defenders[0]] == TRICKS_PER_DEAL or won_by[defenders[1]] == TRICKS_PER_DEAL:
            silent.append(SilentResult("durchmars", "defenders", False, -SILENT_DURCHMARS * silent_double))

    for part in PART_ORDER:
        value = _part_value(bid, part)
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
            lost_ulti_amount, lost_ulti_extra = amount, -LOST_ULTI_EXTRA * silent_double
            amount += lost_ulti_extra
        parts.append(PartResult(part, won, value, mult, amount))

    per_defender = sum(p.per_defender for p in parts) + sum(s.per_defender for s in silent)
    detail = PointsDetail(
        declarer_cards=card_points(cards_won[declarer]),
        defenders_cards=card_points(def_cards),
        talon=card_points(talon),
        last_trick_declarer=last.winner == declarer,
        declarer_marriages=old_counting_marriages(bid, True, *decl_marriages),
        defenders_marriages=def_marriages,
        declarer_zero=decl_tricks == 0,
        defenders_zero=def_tricks == 0,
        lost_ulti_amount=lost_ulti_amount,
        lost_ulti_extra=lost_ulti_extra,
    )
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
        detail=detail,
    )
