"""Kontra and the kontra chain (RULES.md §6): the doubling half of ``Deal``.

``KontraChain`` holds the rules of kontra on trick 1 and of the chain after it; ``Deal`` inherits
them and owns the state they read and write (declared here for the type checker).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ulti.engine.cards import Card
from ulti.engine.contracts import KONTRA_STEP_NAMES, MAX_KONTRA_LEVEL, Bid, Part
from ulti.engine.errors import IllegalAction
from ulti.engine.phase import Phase
from ulti.engine.scoring import Trick


class KontraChain:
    """The kontra rules of a deal (mixed into ``Deal``, which sets every attribute below)."""

    phase: Phase
    contract: Bid | None
    declarer: int
    to_move: int
    leader: int
    trick: list[Card]
    tricks: list[Trick]
    #: kontra level per part: multiplier 2**level
    levels: dict[Part, int]
    #: the chain after trick 1 (RULES.md §6.3): the level the next step reaches, 0 = no chain
    chain_level: int
    chain_prev: frozenset[Part]
    chain_declined: set[int]

    @property
    def in_chain(self) -> bool:
        """Whether the kontra chain after trick 1 is open."""
        return self.chain_level > 0

    def multiplier(self, part: Part) -> int:
        """The kontra multiplier (1..64) of ``part``."""
        return 1 << self.levels.get(part, 0)

    def _kontra_window(self, seat: int) -> tuple[str, list[Part]]:
        """The kontra step ``seat`` may say now and the parts it may raise ("" if none)."""
        assert self.contract is not None
        if self.in_chain:
            declarer_step = self.chain_level % 2 == 0
            if (seat == self.declarer) != declarer_step or seat in self.chain_declined:
                return "", []
            return KONTRA_STEP_NAMES[self.chain_level], self._ordered(self.chain_prev)
        if self._first_trick_turn(seat):
            open_parts = [p for p, _ in self.contract.parts if not self.levels.get(p)]
            if open_parts:
                return KONTRA_STEP_NAMES[1], open_parts
        return "", []

    def _first_trick_turn(self, seat: int) -> bool:
        """Whether ``seat`` is a defender about to play its card to trick 1 (kontra time)."""
        return not self.tricks and bool(self.trick) and seat == self.to_move and seat != self.declarer

    def _ordered(self, parts: Iterable[Part]) -> list[Part]:
        assert self.contract is not None
        chosen = set(parts)
        return [p for p, _ in self.contract.parts if p in chosen]

    def _kontra(self, seat: int, parts: Sequence[Part]) -> None:
        if self.phase is not Phase.PLAY:
            raise IllegalAction("kontra_not_in_play")
        assert self.contract is not None
        if len(set(parts)) != len(parts):
            raise IllegalAction("kontra_part_twice")
        for part in parts:
            if not self.contract.has(part):
                raise IllegalAction("kontra_no_part", bid=self.contract.code, part=part.value)
        step, allowed = self._kontra_window(seat)
        if not step:
            if not parts and self._first_trick_turn(seat):
                return  # declining when every part is already doubled changes nothing
            raise self._why_no_kontra(seat)
        if self.in_chain:
            extra = [p for p in parts if p not in self.chain_prev]
            if extra:
                prev = [p.value for p in self._ordered(self.chain_prev)]
                raise IllegalAction("kontra_raise_only", step=step, parts=prev)
            if not parts:
                if seat == self.declarer:
                    self._close_chain()
                else:
                    self.chain_declined.add(seat)
                    if len(self.chain_declined) == 2:
                        self._close_chain()
                    else:
                        self.to_move = self._chain_speaker()
                return
            for part in parts:
                self.levels[part] = self.chain_level
            self.chain_prev = frozenset(parts)
            self.chain_declined = set()
            self.chain_level += 1
            if self.chain_level > MAX_KONTRA_LEVEL:
                self._close_chain()
            else:
                self.to_move = self._chain_speaker()
            return
        for part in parts:
            if part not in allowed:
                raise IllegalAction("kontra_doubled", part=part.value)
        for part in parts:
            self.levels[part] = 1

    def _why_no_kontra(self, seat: int) -> IllegalAction:
        if self.in_chain:
            name = KONTRA_STEP_NAMES[self.chain_level]
            if seat in self.chain_declined:
                return IllegalAction("kontra_declined", seat=seat, step=name)
            side = "kontra_declarers_step" if self.chain_level % 2 == 0 else "kontra_defenders_step"
            return IllegalAction(side, step=name)
        if seat == self.declarer:
            return IllegalAction("kontra_declarer_first")
        if self.tricks or not self.trick:
            return IllegalAction("kontra_not_now")
        if seat != self.to_move:
            return IllegalAction("kontra_not_your_card", seat=seat)
        return IllegalAction("kontra_all_doubled")

    def _chain_speaker(self) -> int:
        """The seat a live table asks next in the chain: the declarer, or the defenders in seat order."""
        if self.chain_level % 2 == 0:
            return self.declarer
        first, second = (self.declarer + 1) % 3, (self.declarer + 2) % 3
        return second if first in self.chain_declined else first

    def _close_chain(self) -> None:
        self.chain_level = 0
        self.chain_prev = frozenset()
        self.chain_declined = set()
        self.to_move = self.leader
