"""Kontra and the kontra chain (docs/rules.md §6): the doubling rules of a deal, as plain functions.

The deal owns the kontra state (``levels``, ``chain_level``, ``chain_prev``, ``chain_declined``); the
functions here read and change it through the deal they are given. ``Deal`` calls them when a seat
says kontra (``say_kontra``), when it lists a seat's choices (``kontra_window``) and when the trick-2
lead closes the chain (``close_chain``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ulti.engine.contracts import KONTRA_STEP_NAMES, MAX_KONTRA_LEVEL, Bid, Part
from ulti.engine.errors import IllegalAction
from ulti.engine.phase import Phase

if TYPE_CHECKING:  # the deal calls these functions: a type-only import, no circle at run time
    from ulti.engine.deal import Deal


def first_trick_turn(deal: Deal, seat: int) -> bool:
    """Whether ``seat`` is a defender about to play its card to trick 1 (kontra time)."""
    return not deal.tricks and bool(deal.trick) and seat == deal.to_move and seat != deal.declarer


def ordered_parts(contract: Bid, parts: Iterable[Part]) -> list[Part]:
    """``parts`` in the order the contract lists its parts (the order views and records show)."""
    chosen = set(parts)
    return [p for p, _ in contract.parts if p in chosen]


def kontra_window(deal: Deal, seat: int) -> tuple[str, list[Part]]:
    """The kontra step ``seat`` may say now and the parts it may raise ("" if none)."""
    contract = deal.contract
    assert contract is not None
    level = deal.chain_level
    if level:
        declarer_step = level % 2 == 0
        if (seat == deal.declarer) != declarer_step or seat in deal.chain_declined:
            return "", []
        return KONTRA_STEP_NAMES[level], ordered_parts(contract, deal.chain_prev)
    if first_trick_turn(deal, seat):
        open_parts = [p for p, _ in contract.parts if not deal.levels.get(p)]
        if open_parts:
            return KONTRA_STEP_NAMES[1], open_parts
    return "", []


def say_kontra(deal: Deal, seat: int, parts: Sequence[Part]) -> None:
    """``seat`` says kontra (or the next step of the chain) on ``parts``, or declines with none.

    Raises ``IllegalAction`` naming the rule and then changes nothing: every check runs first.
    """
    if deal.phase is not Phase.PLAY:
        raise IllegalAction("kontra_not_in_play")
    contract = deal.contract
    assert contract is not None
    if len(set(parts)) != len(parts):
        raise IllegalAction("kontra_part_twice")
    for part in parts:
        if not contract.has(part):
            raise IllegalAction("kontra_no_part", bid=contract.code, part=part.value)
    step, allowed = kontra_window(deal, seat)
    if not step:
        if not parts and first_trick_turn(deal, seat):
            return  # declining when every part is already doubled changes nothing
        raise _why_no_kontra(deal, seat)
    if deal.chain_level:
        _chain_step(deal, seat, step, parts)
        return
    for part in parts:
        if part not in allowed:
            raise IllegalAction("kontra_doubled", part=part.value)
    for part in parts:
        deal.levels[part] = 1


def _chain_step(deal: Deal, seat: int, step: str, parts: Sequence[Part]) -> None:
    """A step of the chain after trick 1 (§6.3): raise the parts the last step raised, or decline."""
    extra = [p for p in parts if p not in deal.chain_prev]
    if extra:
        assert deal.contract is not None
        prev = [p.value for p in ordered_parts(deal.contract, deal.chain_prev)]
        raise IllegalAction("kontra_raise_only", step=step, parts=prev)
    if not parts:
        if seat == deal.declarer:
            close_chain(deal)
        else:
            deal.chain_declined.add(seat)
            if len(deal.chain_declined) == 2:
                close_chain(deal)
            else:
                deal.to_move = _chain_speaker(deal)
        return
    for part in parts:
        deal.levels[part] = deal.chain_level
    deal.chain_prev = frozenset(parts)
    deal.chain_declined = set()
    deal.chain_level += 1
    if deal.chain_level > MAX_KONTRA_LEVEL:
        close_chain(deal)
    else:
        deal.to_move = _chain_speaker(deal)


def _why_no_kontra(deal: Deal, seat: int) -> IllegalAction:
    if deal.chain_level:
        name = KONTRA_STEP_NAMES[deal.chain_level]
        if seat in deal.chain_declined:
            return IllegalAction("kontra_declined", seat=seat, step=name)
        side = "kontra_declarers_step" if deal.chain_level % 2 == 0 else "kontra_defenders_step"
        return IllegalAction(side, step=name)
    if seat == deal.declarer:
        return IllegalAction("kontra_declarer_first")
    if deal.tricks or not deal.trick:
        return IllegalAction("kontra_not_now")
    if seat != deal.to_move:
        return IllegalAction("kontra_not_your_card", seat=seat)
    return IllegalAction("kontra_all_doubled")


def _chain_speaker(deal: Deal) -> int:
    """The seat a live table asks next in the chain: the declarer, or the defenders in seat order."""
    declarer = deal.declarer
    assert declarer is not None  # a chain opens in the play only, after the auction named the declarer
    if deal.chain_level % 2 == 0:
        return declarer
    first, second = (declarer + 1) % 3, (declarer + 2) % 3
    return second if first in deal.chain_declined else first


def close_chain(deal: Deal) -> None:
    """End the chain after trick 1: the trick-1 winner leads to trick 2."""
    deal.chain_level = 0
    deal.chain_prev = frozenset()
    deal.chain_declined = set()
    deal.to_move = deal.leader
