"""Card play and kontra: solver positions of sampled worlds, and the strong bot's cards and raises."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ulti.bots.sampling import Knowledge, Sampler, World
from ulti.bots.solver import Objective, Position, solve, values_after
from ulti.bots.strong.hand import declarer_likelihood
from ulti.bots.strong.settings import StrongSettings
from ulti.engine.cards import FULL_DECK, POINT_CARDS, SUIT_MASKS, Card, CardSet, card_points, count, iter_cards
from ulti.engine.contracts import KONTRA_STEP_NAMES, Part
from ulti.engine.play import NO_TRUMP, higher_table, seven_of, trick_winner_index
from ulti.engine.view import SeatChoices, SeatView


def solve_value(pos: Position) -> int:
    return int(solve(pos, Objective.CONTRACT, best_cards=False).value)


def value_after(pos: Position, card: Card) -> int:
    """The contract value (per_defender, perfect play) after the seat to move plays ``card``."""
    seat = pos.to_move
    hands = list(pos.hands)
    hands[seat] &= ~(1 << card)
    trick = (*pos.trick, card)
    if len(trick) < 3:
        return solve_value(replace(pos, hands=(hands[0], hands[1], hands[2]), trick=trick))
    winner = (pos.leader + trick_winner_index(list(trick), pos.trump)) % 3
    won = list(pos.won)
    won[winner] += 1
    points = pos.declarer_points
    if winner == pos.declarer:
        points += card_points((1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]))
    bid = pos.bid
    done = sum(won)
    if not bid.has_trumps:
        part, v = bid.parts[0]
        v *= pos.multipliers.get(part, 1)
        if (winner == pos.declarer) == (part is Part.BETLI):
            return -v
        if done == 10:
            return v
    elif done == 10:  # pragma: no cover - a single card is never solved
        raise ValueError("the last trick is not solved")
    nxt = replace(
        pos,
        hands=(hands[0], hands[1], hands[2]),
        trick=(),
        leader=winner,
        won=(won[0], won[1], won[2]),
        declarer_points=points,
    )
    return solve_value(nxt)


def position_of(know: Knowledge, world: World, multipliers: dict[Part, int] | None = None) -> Position:
    """The solver position of ``world`` at the current point of the play."""
    assert know.contract is not None
    hands = world.hands
    start = tuple(hands[s] | know.played_by[s] for s in range(3))
    return Position(
        hands=(hands[0], hands[1], hands[2]),
        leader=know.leader,
        trump=know.trump,
        declarer=know.declarer,
        bid=know.contract,
        talon=world.talon,
        start_hands=(start[0], start[1], start[2]),
        multipliers=dict(multipliers if multipliers is not None else know.multipliers),
        trick=know.trick,
        won=know.won,
        declarer_points=know.declarer_points,
    )


def declarer_weight(know: Knowledge) -> Callable[[World], float] | None:
    """The soft evidence of the bid: a defender weighs each world by how well the declarer's hand
    fits the contract (``declarer_likelihood``); None for the declarer and before a contract."""
    contract = know.contract
    if contract is None or know.declarer == know.seat or know.declarer < 0:
        return None
    declarer, trump = know.declarer, know.trump

    def weight(world: World) -> float:
        return declarer_likelihood(contract, trump, world.hands[declarer] | know.played_by[declarer])

    return weight


def equal_groups(cards: CardSet, trump: int, outstanding: CardSet, alone: CardSet = 0) -> list[list[Card]]:
    """``cards`` split into classes that play alike in every world: one solve per class is enough.

    Two cards of one suit are equal when none of ``outstanding`` (the cards that may be in other
    hands) lies between them, both or neither are point cards (aces and tens), and neither is the
    trump 7 (``trump``: the trump suit, ``NO_TRUMP`` for none); the cards of ``alone`` are classes of
    their own.
    """
    table = higher_table(trump)
    seven = seven_of(trump) if trump != NO_TRUMP else -1
    groups: list[list[Card]] = []
    for suit in range(4):
        ranked = sorted(iter_cards(cards & SUIT_MASKS[suit]), key=lambda c: -count(table[c]))
        current: list[Card] = []
        for card in ranked:
            if current:
                low = current[-1]
                between = table[low] & ~table[card] & ~(1 << card)
                same = (
                    not between & outstanding
                    and bool((1 << low) & POINT_CARDS) == bool((1 << card) & POINT_CARDS)
                    and seven not in (low, card)
                    and not ((1 << low) | (1 << card)) & alone
                )
                if not same:
                    groups.append(current)
                    current = []
            current.append(card)
        if current:
            groups.append(current)
    return groups

class StrongPlay(StrongSettings):
    """The strong bot's card play and kontra decisions."""

    # ---------------------------------------------------------------- play

    def _likelihood(self, know: Knowledge) -> Callable[[World], float] | None:
        return declarer_weight(know)

    def _groups(self, legal: CardSet, know: Knowledge) -> list[list[Card]]:
        """Legal cards split into classes that are equivalent from the viewer's side."""
        return equal_groups(legal, know.trump, FULL_DECK & ~know.hand & ~know.played)

    def _card(self, view: SeatView, know: Knowledge, ch: SeatChoices) -> Card:
        legal = ch.cards
        if count(legal) == 1:
            return next(iter_cards(legal))
        groups = self._groups(legal, know)
        heuristic = self.fallback.choose_card(view, ch)
        if len(groups) == 1:
            return heuristic
        sampler = Sampler(know, self._likelihood(know))
        deadline = self.deadline(self.time_budget)
        totals = [0.0] * len(groups)
        n = 0
        last: list[int] | None = None
        while n < self.samples:
            world = sampler.draw(self.rng)
            if world is None:
                break
            pos = position_of(know, world)
            # one call per world: the groups' positions share the search's table, and the last world's
            # values are tried first (the same values as value_after, found faster)
            last = values_after(pos, [group[0] for group in groups], last)
            for k, value in enumerate(last):
                totals[k] += value
            n += 1
            if n < self.samples and self.over(deadline, "card play"):
                break
        if n == 0:
            return heuristic
        sign = 1 if know.seat == know.declarer else -1
        scores = [sign * t / n for t in totals]
        best = max(scores)
        good = [g for g, s in zip(groups, scores, strict=True) if s >= best - 1e-9]
        for group in good:
            if heuristic in group:
                return heuristic
        # lowest card of the best class (cheapest to give)
        group = good[0]
        return group[0]

    def _kontra(self, know: Knowledge, ch: SeatChoices) -> tuple[Part, ...]:
        """The parts to raise one step now (empty: decline)."""
        assert know.contract is not None and ch.kontra is not None
        parts = list(ch.kontra.parts)
        # the opponents' own raises are evidence the sampling cannot see: later steps need more certainty
        level = KONTRA_STEP_NAMES.index(ch.kontra.step)
        margin = self.kontra_margin if level == 1 else self.chain_margin if level == 2 else self.late_chain_margin
        declarer_side = know.seat == know.declarer
        sampler = Sampler(know, self._likelihood(know))
        deadline = self.deadline(self.time_budget)
        base_total = 0.0
        raised_total = [0.0] * len(parts)
        n = 0
        worlds = max(4, self.samples // 2)
        while n < worlds:
            world = sampler.draw(self.rng)
            if world is None:
                break
            pos = position_of(know, world)
            base_total += solve_value(pos)
            for k, part in enumerate(parts):
                mult = dict(know.multipliers)
                mult[part] = mult.get(part, 1) * 2
                raised_total[k] += solve_value(replace(pos, multipliers=mult))
            n += 1
            if n < worlds and self.over(deadline, "kontra"):
                break
        if n == 0:
            return ()
        chosen = []
        for k, part in enumerate(parts):
            gain = (raised_total[k] - base_total) / n
            if not declarer_side:
                gain = -gain
            stake = know.contract.part_value(part) * know.multipliers.get(part, 1)
            if gain > margin * stake:
                chosen.append(part)
        return tuple(chosen)
