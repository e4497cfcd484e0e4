"""Exact (double-dummy) card-play solver: every seat sees every card, everyone plays perfectly.

The search (alpha-beta with a transposition table, move ordering and grouping of equivalent
cards) is compiled from ``_dd.pyx``; this module is its stable Python API.

Usage::

    from ulti.bots.solver import Objective, Position, solve

    result = solve(Position.from_deal(deal), Objective.CONTRACT)
    result.value        # per_defender under perfect play (what ``deal.result.per_defender`` would be)
    result.best_cards   # mask of the cards of the seat to play that achieve it
    values_after(position, [card, ...])  # CONTRACT value after each card (a bot comparing its cards)
    bounds_after(position, [card, ...], [t, ...])  # only "is each value at least t?" (fail-soft bounds)

Objectives (``Objective``):

- ``Objective.DURCHMARS``: the declarer takes every remaining trick (True/False);
- ``Objective.BETLI``: the declarer takes none of the remaining tricks;
- ``Objective.ULTI``: the declarer wins trick 10 with the trump 7 (trump contracts only);
- ``Objective.points(t, marriages=m)``: the declarer's final total is at least ``t``, counting
  the aces and tens of all the declarer's tricks (earlier ones included), 10 for the last trick
  and the constant ``m`` for the declarer's counting marriages; a declarer with no trick has 0
  (docs/rules.md §4.3). The talon's points are the defenders'. Trump contracts only;
- ``Objective.CONTRACT``: the exact ``per_defender`` settlement of the contract (docs/rules.md §5: every
  part with its kontra multiplier, the lost-ulti extra, silent ulti / 100 / durchmars), the
  declarer maximising it and the defenders minimising it. Its leaf value is ``scoring.settle``'s.

The win/lose objectives are answered as a ``bool`` value (True: the declarer can force it). In a
no-trump contract the deal ends early (docs/rules.md §3.6); there only ``CONTRACT`` and the contract's
own objective (``BETLI`` for a betli, ``DURCHMARS`` for a no-trump durchmars) are accepted.

Card masks in and out use the engine's encoding (``ulti.engine.cards``). Multipliers are taken as
they stand in the position (later kontra steps cannot be foreseen). ``solve`` is not thread-safe:
the transposition table is one per process, kept from solve to solve (its entries are exact facts
about a position under one objective and contract, so a bot's decision over many sampled worlds reuses
it); ``clear_table`` empties it, ``table_bytes`` tells its size (it grows by need to 8 MiB).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar

import ulti.bots.solver._dd as _dd
from ulti.engine.cards import (
    CARD_POINT_VALUE,
    PLAIN_ORDER_STRENGTH,
    POINT_CARDS,
    TRUMP_ORDER_STRENGTH,
    CardSet,
    card_points,
    iter_cards,
)
from ulti.engine.contracts import Bid, Part
from ulti.engine.deal import Deal, Phase
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
    counting_marriages,
    marriages_of,
)

__all__ = [
    "Objective",
    "ObjectiveKind",
    "Position",
    "SolveResult",
    "bounds_after",
    "clear_table",
    "solve",
    "table_bytes",
    "values_after",
]


class ObjectiveKind(Enum):
    """What the search decides."""

    DURCHMARS = 0
    BETLI = 1
    ULTI = 2
    POINTS = 3
    CONTRACT = 4


@dataclass(frozen=True)
class Objective:
    """An objective: a kind, plus the threshold and marriage points of a points objective."""

    kind: ObjectiveKind
    threshold: int = 0
    marriages: int = 0

    DURCHMARS: ClassVar[Objective]
    BETLI: ClassVar[Objective]
    ULTI: ClassVar[Objective]
    CONTRACT: ClassVar[Objective]

    @staticmethod
    def points(threshold: int, marriages: int = 0) -> Objective:
        """The declarer's final total (tricks' aces and tens, last trick, ``marriages``) ≥ ``threshold``."""
        return Objective(ObjectiveKind.POINTS, threshold, marriages)

    @property
    def is_boolean(self) -> bool:
        """Whether the answer is True/False (everything but ``CONTRACT``)."""
        return self.kind is not ObjectiveKind.CONTRACT


Objective.DURCHMARS = Objective(ObjectiveKind.DURCHMARS)
Objective.BETLI = Objective(ObjectiveKind.BETLI)
Objective.ULTI = Objective(ObjectiveKind.ULTI)
Objective.CONTRACT = Objective(ObjectiveKind.CONTRACT)


@dataclass(frozen=True)
class Position:
    """A position in the play: everything the solver needs, all cards visible.

    ``hands`` are the current hands, ``trick`` the cards of the trick in progress in play order
    (led by ``leader``), ``won`` the tricks each seat has taken so far and ``declarer_points`` the
    card points (aces and tens) in the declarer's tricks so far. ``start_hands`` are the hands at
    the start of play (marriages, docs/rules.md §4.1); ``talon`` the final talon.
    """

    hands: tuple[CardSet, CardSet, CardSet]
    leader: int
    trump: int
    declarer: int
    bid: Bid
    talon: CardSet
    start_hands: tuple[CardSet, CardSet, CardSet]
    multipliers: Mapping[Part, int] = field(default_factory=dict)
    trick: tuple[int, ...] = ()
    won: tuple[int, int, int] = (0, 0, 0)
    declarer_points: int = 0

    @classmethod
    def from_deal(cls, deal: Deal) -> Position:
        """The position of ``deal`` in its play phase (mid-trick and during the kontra chain too)."""
        if deal.phase is not Phase.PLAY or deal.contract is None:
            raise ValueError(f"the deal is not in its play phase ({deal.phase.value})")
        assert deal.leader is not None and deal.declarer is not None  # the play sets both
        taken = 0
        for trick in deal.tricks:
            if trick.winner == deal.declarer:
                for card in trick.cards:
                    taken |= 1 << card
        return cls(
            hands=(deal.hands[0], deal.hands[1], deal.hands[2]),
            leader=deal.leader,
            trump=deal.trump,
            declarer=deal.declarer,
            bid=deal.contract,
            talon=deal.talon,
            start_hands=(deal.start_hands[0], deal.start_hands[1], deal.start_hands[2]),
            multipliers={p: deal.multiplier(p) for p, _ in deal.contract.parts},
            trick=tuple(deal.trick),
            won=(deal.won[0], deal.won[1], deal.won[2]),
            declarer_points=card_points(taken),
        )

    @classmethod
    def start(
        cls,
        hands: Sequence[CardSet],
        declarer: int,
        bid: Bid,
        trump: int,
        talon: CardSet,
        multipliers: Mapping[Part, int] | None = None,
    ) -> Position:
        """The position at trick 1 (the declarer to lead) of 10-card ``hands``."""
        h = (hands[0], hands[1], hands[2])
        return cls(h, declarer, trump, declarer, bid, talon, h, dict(multipliers or {}))

    @property
    def tricks_done(self) -> int:
        """Tricks completed so far."""
        return sum(self.won)

    @property
    def to_move(self) -> int:
        """The seat to play the next card."""
        return (self.leader + len(self.trick)) % 3


@dataclass(frozen=True)
class SolveResult:
    """The answer: ``value`` (a bool for win/lose objectives, ``per_defender`` for ``CONTRACT``),
    ``best_cards`` (mask of the cards of the seat to play achieving it; 0 if not asked for) and
    the number of search nodes."""

    value: int
    best_cards: CardSet
    nodes: int


class _CardMap(list[int]):
    """A card map (``table[card]``: the card it maps to), with per-lane lookups for whole masks: a map keeps
    each card in its suit, so a suit's byte of a mask maps through one table of 256 entries."""

    def __init__(self, table: list[int]) -> None:
        """The map ``table`` and its lane lookups."""
        super().__init__(table)
        self.lanes = [
            [_map_loop(byte << (lane * 8), table) for byte in range(256)] for lane in range(4)
        ]


def _map_loop(mask: CardSet, table: list[int]) -> int:
    out = 0
    for card in iter_cards(mask):
        out |= 1 << table[card]
    return out


def _to_internal(trump: int) -> tuple[_CardMap, _CardMap]:
    """Card maps engine -> internal (``suit * 8 + strength``) and back, for a contract's rank order
    (``ulti.engine.cards``: ``TRUMP_ORDER_STRENGTH`` or ``PLAIN_ORDER_STRENGTH``)."""
    strength = PLAIN_ORDER_STRENGTH if trump == NO_TRUMP else TRUMP_ORDER_STRENGTH
    fwd = [(c & ~7) | strength[c & 7] for c in range(32)]
    back = [0] * 32
    for c in range(32):
        back[fwd[c]] = c
    return _CardMap(fwd), _CardMap(back)


_MAPS = {t: _to_internal(t) for t in (NO_TRUMP, 0, 1, 2, 3)}


def _map_mask(mask: CardSet, table: _CardMap) -> int:
    """``mask`` with each card mapped by ``table`` (one lookup per suit)."""
    lanes = table.lanes
    low = lanes[0][mask & 0xFF] | lanes[1][mask >> 8 & 0xFF]
    return low | lanes[2][mask >> 16 & 0xFF] | lanes[3][mask >> 24 & 0xFF]


def _rules(trump: int, fwd: _CardMap) -> tuple[int, ...]:
    """The rule constants the search needs, from ``ulti.engine``: (point cards in the internal
    encoding, card points per point card, last-trick bonus, the 100, tricks in a deal, the trump 7)."""
    seven = seven_of(trump)
    return (
        _map_mask(POINT_CARDS, fwd),
        CARD_POINT_VALUE,
        LAST_TRICK_BONUS,
        HUNDRED,
        TRICKS_PER_DEAL,
        fwd[seven] if seven >= 0 else -1,
    )


def _contract_params(pos: Position) -> tuple[int, ...]:
    bid = pos.bid
    mult = pos.multipliers

    def vm(part: Part) -> int:
        return bid.part_value(part) * mult.get(part, 1)

    if not bid.has_trumps:
        part, value = bid.parts[0]
        nt_kind = 1 if part is Part.BETLI else 2
        return (nt_kind, value * mult.get(part, 1), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0)
    factor = HEARTS_FACTOR if bid.is_hearts else 1
    forty, twenties = marriages_of(pos.start_hands[pos.declarer], pos.trump)
    decl_marr = counting_marriages(bid, True, forty, twenties)
    def_marr = sum(
        counting_marriages(bid, False, *marriages_of(pos.start_hands[s], pos.trump))
        for s in range(3)
        if s != pos.declarer
    )
    return (
        0,
        0,
        vm(Part.SIMPLE),
        vm(Part.ULTI),
        LOST_ULTI_EXTRA * factor,
        vm(Part.FORTY_HUNDRED),
        vm(Part.TWENTY_HUNDRED),
        vm(Part.DURCHMARS),
        forty,
        1 if twenties else 0,
        SILENT_ULTI_WON * factor,
        SILENT_ULTI_LOST * factor,
        SILENT_DURCHMARS * factor,
        SILENT_HUNDRED_FACTOR,
        decl_marr,
        def_marr,
    )


def _check(pos: Position, objective: Objective) -> None:
    n = pos.tricks_done
    if n >= TRICKS_PER_DEAL:
        raise ValueError("the deal is over: no trick left to play")
    if not pos.bid.has_trumps:
        decl_won = pos.won[pos.declarer]
        if (decl_won if pos.bid.has(Part.BETLI) else n - decl_won) > 0:
            raise ValueError("the no-trump contract has already ended (docs/rules.md §3.6)")
        own = ObjectiveKind.BETLI if pos.bid.has(Part.BETLI) else ObjectiveKind.DURCHMARS
        if objective.kind not in (own, ObjectiveKind.CONTRACT):
            raise ValueError(f"a no-trump {pos.bid.code} is solved only for CONTRACT or {own.name}")
    if len(pos.trick) > 2:
        raise ValueError("a trick in progress holds at most 2 cards")
    sizes = [h.bit_count() for h in pos.hands]
    for i in range(3):
        seat = (pos.leader + i) % 3
        want = TRICKS_PER_DEAL - n - (1 if i < len(pos.trick) else 0)
        if sizes[seat] != want:
            raise ValueError(f"seat {seat} holds {sizes[seat]} cards, expected {want}")


_Arguments = tuple[
    list[int], list[int], int, int, int, int, int, int, int, int, int, int, tuple[int, ...], tuple[int, ...]
]


def _arguments(position: Position, objective: Objective) -> tuple[_CardMap, _Arguments]:
    """The reverse card map and the positional arguments of ``_dd.solve_internal`` (before its flags)."""
    _check(position, objective)
    trump = position.trump
    fwd, back = _MAPS[trump]
    hands = [_map_mask(h, fwd) for h in position.hands]
    trick = [fwd[c] for c in position.trick]
    winners = sum(1 << s for s in range(3) if position.won[s])
    bid = position.bid
    seven = fwd[seven_of(trump)] if bid.has(Part.ULTI) and trump != NO_TRUMP else -1
    if objective.kind in (ObjectiveKind.ULTI, ObjectiveKind.POINTS) and trump == NO_TRUMP:
        raise ValueError(f"{objective.kind.name} needs a trump contract")
    return back, (
        hands,
        trick,
        position.leader,
        position.tricks_done,
        position.declarer_points,
        winners,
        trump,
        position.declarer,
        seven,
        objective.kind.value,
        objective.threshold,
        objective.marriages,
        _rules(trump, fwd),
        _contract_params(position),
    )


def values_after(position: Position, cards: Sequence[int], guesses: Sequence[int] | None = None) -> list[int]:
    """The contract's value (``per_defender`` under perfect play, ``Objective.CONTRACT``) after the seat
    to move plays each of ``cards`` (legal cards of that seat): what ``solve`` gives for each resulting
    position, computed in one call so that the positions share the search's table. ``guesses`` (one per
    card: likely values, such as those of a similar position) let the search test them first; they
    change the speed, never the values."""
    _, args = _arguments(position, Objective.CONTRACT)
    fwd = _MAPS[position.trump][0]
    values, _, _ = _dd.solve_internal(
        *args, True, True, False, after=[fwd[c] for c in cards], guesses=None if guesses is None else list(guesses)
    )
    return [int(v) for v in values]


def bounds_after(
    position: Position,
    cards: Sequence[int],
    thresholds: Sequence[int | None],
    guesses: Sequence[int] | None = None,
) -> list[int]:
    """Like ``values_after``, but for each card with an int threshold ``t`` the search only answers
    "is the value at least ``t``?" (one null-window search: what a decision needs when it compares a
    card with another's known value). Each entry is then a fail-soft bound ``r``: the value is at least
    ``r`` when ``r >= t``, at most ``r`` when ``r < t``. A None threshold gives the exact value, as do
    no-trump contracts (won or lost: their search is one step already)."""
    if len(thresholds) != len(cards):
        raise ValueError("one threshold per card")
    _, args = _arguments(position, Objective.CONTRACT)
    fwd = _MAPS[position.trump][0]
    values, _, _ = _dd.solve_internal(
        *args,
        True,
        True,
        False,
        after=[fwd[c] for c in cards],
        guesses=None if guesses is None else list(guesses),
        thresholds=list(thresholds),
    )
    return [int(v) for v in values]


def clear_table() -> None:
    """Empty the search's transposition table (the next solves start cold)."""
    _dd.clear_table()


def table_bytes() -> int:
    """Bytes of memory the search's transposition table holds now (0 before its first use)."""
    return int(_dd.table_bytes())


def solve(
    position: Position,
    objective: Objective,
    *,
    best_cards: bool = True,
    transposition: bool = True,
    grouping: bool = True,
) -> SolveResult:
    """Solve ``position`` for ``objective`` under perfect play by everyone.

    The declarer maximises (makes the objective true / maximises ``per_defender``), the defenders
    together minimise. With ``best_cards`` the result also holds every card of the seat to play
    that achieves the value. ``transposition`` and ``grouping`` switch off the transposition table
    and the grouping of equivalent cards (for tests: the value and best cards do not change).
    """
    back, args = _arguments(position, objective)
    value, best, nodes = _dd.solve_internal(*args, transposition, grouping, best_cards)
    out_value: int = bool(value) if objective.is_boolean else int(value)
    return SolveResult(out_value, _map_mask(best, back), int(nodes))

