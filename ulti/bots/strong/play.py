"""Card play and kontra: solver positions of sampled worlds, and a searching bot's cards and raises."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from ulti.bots.heuristic import HeuristicBot
from ulti.bots.parts import Likelihood, SearchParts
from ulti.bots.sampling import Knowledge, Sampler, World
from ulti.bots.solver import Objective, Position, bounds_after, solve, values_after
from ulti.bots.strong.hand import declarer_likelihood
from ulti.bots.strong.settings import SafetyStop, Settings
from ulti.engine.cards import FULL_DECK, POINT_CARDS, SUIT_MASKS, Card, CardSet, card_points, count, iter_cards
from ulti.engine.contracts import KONTRA_STEP_NAMES, Bid, Part
from ulti.engine.play import NO_TRUMP, higher_table, seven_of, trick_winner_index
from ulti.engine.view import SeatChoices, SeatView


def solve_value(pos: Position) -> int:
    return int(solve(pos, Objective.CONTRACT, best_cards=False).value)


def advance(pos: Position, card: Card) -> Position | int:
    """The position after the seat to move plays ``card``, or the contract value (per_defender) when that
    card ends the play (a no-trump contract decided early, §3.6). A trump contract's last trick is never
    advanced into: its value is the solver's."""
    seat = pos.to_move
    hands = list(pos.hands)
    hands[seat] &= ~(1 << card)
    trick = (*pos.trick, card)
    if len(trick) < 3:
        return replace(pos, hands=(hands[0], hands[1], hands[2]), trick=trick)
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
    return replace(
        pos,
        hands=(hands[0], hands[1], hands[2]),
        trick=(),
        leader=winner,
        won=(won[0], won[1], won[2]),
        declarer_points=points,
    )


def value_after(pos: Position, card: Card) -> int:
    """The contract value (per_defender, perfect play) after the seat to move plays ``card``."""
    nxt = advance(pos, card)
    return nxt if isinstance(nxt, int) else solve_value(nxt)


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


def declarer_weight(know: Knowledge) -> Likelihood | None:
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


def choose_class(totals: Sequence[float], home: int) -> int:
    """The class of legal cards a card decision chooses from each class's total score over its worlds
    (the deciding seat's own score): the class ``home`` (the heuristic's card's) among the best, else the
    first of the best."""
    best = max(totals)
    if totals[home] == best:
        return home
    return list(totals).index(best)


def raise_doubles(contract: Bid) -> frozenset[Part]:
    """The parts of ``contract`` whose one kontra step doubles the contract's value in every world, so that
    the raised value needs no search of its own: a no-trump contract's one part (it is won or lost whole,
    for its value times its multiplier); none of a contract with trumps (its silent bonuses stay as
    they are)."""
    if contract.has_trumps:
        return frozenset()
    return frozenset({contract.parts[0][0]})


def kontra_samples(samples: int) -> int:
    """The worlds of a kontra decision of a bot that solves ``samples`` worlds per card decision: half
    as many (each is solved once per part, and once without a raise), at least 4."""
    return max(4, samples // 2)


@dataclass(frozen=True)
class CardWork:
    """The search work of one card decision: worlds solved, (class, world) values solved exactly, and
    one-step searches ("is this class better here than the leading one?")."""

    worlds: int
    exact: int
    probes: int
    classes: int


class WorldSolver(Protocol):
    """The searches a card decision runs on its worlds (numbered in the order they were drawn), one
    card per class of legal cards."""

    def values(self, world: int, classes: list[int], guesses: list[int] | None) -> list[int]:
        """The exact per_defender after each class's card in ``world`` (``guesses``: likely values)."""
        ...

    def bounds(self, world: int, classes: list[int], thresholds: list[int]) -> list[int]:
        """Per class with threshold ``t``, a fail-soft bound ``r``: per_defender at least ``r`` when
        ``r >= t``, at most ``r`` when ``r < t`` (``ulti.bots.solver.bounds_after``)."""
        ...


class SolvedWorlds:
    """The bot's ``WorldSolver``: the solver positions of the drawn worlds and one card per class."""

    def __init__(self, cards: list[Card]) -> None:
        """Worlds to come, searched after each of ``cards`` (one per class)."""
        self.cards = cards
        self.positions: list[Position] = []

    def add(self, pos: Position) -> int:
        """Enter a world's position; its number."""
        self.positions.append(pos)
        return len(self.positions) - 1

    def values(self, world: int, classes: list[int], guesses: list[int] | None) -> list[int]:
        """``values_after`` in ``world`` for the cards of ``classes``."""
        return values_after(self.positions[world], [self.cards[k] for k in classes], guesses)

    def bounds(self, world: int, classes: list[int], thresholds: list[int]) -> list[int]:
        """``bounds_after`` in ``world`` for the cards of ``classes``."""
        return bounds_after(self.positions[world], [self.cards[k] for k in classes], list(thresholds))


class CardTable:
    """What a card decision knows of each class of legal cards in each world, in the deciding seat's
    score (``sign`` × per_defender: the declarer maximises it, a defender minimises per_defender): an
    exact value, or an upper bound (the class is no better there than the class it was compared with).

    The choice is the full evaluation's: the class with the highest total over the worlds, the
    heuristic's own class (``home``) among equals, else the first of the equals (the averages of the
    full evaluation order the classes as the totals do: every class has the same worlds). A world is
    entered either exactly (``add_exact``: every class solved, the reference) or lazily (``add_lazy``:
    the leading class solved, every other class asked only whether it is better there, and solved only
    if it is). ``settle`` then proves the choice from the bounds: the candidate's total is exact and no
    other class's upper total can change the choice; where one could, its entries are solved exactly,
    and so on until the proof holds. So the choice is identical to the one every exact value gives.
    """

    def __init__(self, classes: int, sign: int, solver: WorldSolver, home: int) -> None:
        """An empty table of ``classes`` classes for a seat whose score is ``sign`` × per_defender, the
        heuristic's card in class ``home``."""
        self.sign = sign
        self.home = home
        self.solver = solver
        #: per class, per world: the score if exact, else an upper bound on it
        self.high: list[list[int]] = [[] for _ in range(classes)]
        self.exact: list[list[bool]] = [[] for _ in range(classes)]
        #: per class: its last exact per_defender (a guess for the next world's search)
        self.last_exact: list[int | None] = [None] * classes
        self.worlds = 0
        self.exact_solves = 0
        self.probes = 0

    def _enter(self, entries: list[tuple[int, bool]]) -> None:
        """Enter the next world: per class, (per_defender, True) when exact, else (r, False) with r a
        bound saying the class is no better for the seat than r (at most r for the declarer, at least r
        for a defender: the score at most ``sign`` × r either way)."""
        for k, (value, exact) in enumerate(entries):
            self.high[k].append(self.sign * value)
            self.exact[k].append(exact)
            if exact:
                self.last_exact[k] = value
                self.exact_solves += 1
        self.worlds += 1

    def add_exact(self, world: int) -> None:
        """Enter ``world`` with every class solved exactly (one call: the positions share the search's
        table; the classes' last values are tried first, the same values found faster)."""
        classes = list(range(len(self.high)))
        last = self.last_exact
        guesses = None if any(g is None for g in last) else [g for g in last if g is not None]
        values = self.solver.values(world, classes, guesses)
        self._enter([(v, True) for v in values])

    def add_lazy(self, world: int, pivot: int) -> None:
        """Enter ``world`` solving ``pivot`` (the leading class) exactly and every other class only as far
        as "is it better than the pivot here?" (one null-window search): those that are get solved."""
        guess = self.last_exact[pivot]
        value = self.solver.values(world, [pivot], None if guess is None else [guess])[0]
        entries: list[tuple[int, bool]] = [(value, True)] * len(self.high)
        others = [k for k in range(len(self.high)) if k != pivot]
        # better than the pivot: above its value for the declarer (at least v + 1), below for a defender
        threshold = value + 1 if self.sign > 0 else value
        better: list[tuple[int, int]] = []
        for k, r in zip(others, self.solver.bounds(world, others, [threshold] * len(others)), strict=True):
            if (r >= threshold) == (self.sign > 0):
                better.append((k, r))  # better here: the choice may need its exact value
            else:
                entries[k] = (r, False)
        if better:
            values = self.solver.values(world, [k for k, _ in better], [r for _, r in better])
            for (k, _), v in zip(better, values, strict=True):
                entries[k] = (v, True)
        self.probes += len(others)
        self._enter(entries)

    def totals(self) -> list[int]:
        """Per class, the upper bound on its total score (the total itself where every entry is exact)."""
        return [sum(row) for row in self.high]

    def candidate(self) -> int:
        """The choice the current totals give: ``home`` among the best, else the first of the best."""
        return choose_class(self.totals(), self.home)

    def _open(self) -> tuple[int, list[int]]:
        """The candidate, and the classes whose entries must be solved exactly before it is proven (the
        candidate itself if any of its entries is a bound; else the classes whose upper totals could
        still beat it, or tie it where a tie would change the choice)."""
        home = self.home
        chosen = self.candidate()
        if not all(self.exact[chosen]):
            return chosen, [chosen]
        totals = self.totals()
        mark = totals[chosen]
        pending = []
        for k, total in enumerate(totals):
            if k == chosen:
                continue
            # a tie keeps the choice when it is the heuristic's class; else a tie with the heuristic's
            # class or an earlier class would take the choice away
            ties_win = chosen != home and (k == home or k < chosen)
            if total > mark or (ties_win and total == mark):
                pending.append(k)
        return chosen, pending

    def _bounded(self, classes: list[int]) -> dict[int, list[int]]:
        """Per world, those of ``classes`` whose entry there is only a bound."""
        by_world: dict[int, list[int]] = {}
        for k in classes:
            for w, exact in enumerate(self.exact[k]):
                if not exact:
                    by_world.setdefault(w, []).append(k)
        return by_world

    def _solve_exactly(self, by_world: dict[int, list[int]]) -> None:
        """Solve exactly, per world, the entries of the classes listed for it (their bounds the guesses)."""
        for w, classes in by_world.items():
            guesses = [self.sign * self.high[k][w] for k in classes]
            for k, value in zip(classes, self.solver.values(w, classes, guesses), strict=True):
                self.high[k][w] = self.sign * value
                if not self.exact[k][w]:
                    self.exact[k][w] = True
                    self.exact_solves += 1

    def settle(self) -> None:
        """Solve exactly the entries the choice depends on, until the bounds prove it."""
        while True:
            _, pending = self._open()
            if not pending:
                return
            by_world = self._bounded(pending)
            # every pending class has a bound left (an all-exact class cannot beat an all-exact candidate
            # chosen from the same totals); solving everything is the safe way out should that ever fail
            if not by_world:  # pragma: no cover - see above
                by_world = {w: list(range(len(self.high))) for w in range(self.worlds)}
            self._solve_exactly(by_world)

    def decide(self) -> int:
        """The chosen class (the table settled, or every entry exact: the bounds prove the choice)."""
        chosen, pending = self._open()
        assert not pending, "the card table is not settled"
        return chosen

    def best_classes(self) -> list[int]:
        """Every class whose exact total is the best (the table settled): the classes a tie-break chooses
        among. The entries of classes whose upper total reaches the best are solved exactly first (a bound
        that ties may hide a lower value)."""
        return self.best_with([[] for _ in self.high])

    def best_with(self, first: list[list[int]]) -> list[int]:
        """Every class whose total is the best when its first worlds are scored by ``first`` (per class,
        one score per world for as many first worlds: values of a deeper search, say) and the others as
        the table has them. Entries of those others whose bound could reach the best are solved exactly
        first (a bound that reaches it may hide a lower value)."""
        n = len(first[0])
        while True:
            scores = [sum(first[k]) + sum(self.high[k][n:]) for k in range(len(self.high))]
            mark = max(scores)
            reaching = self._bounded([k for k, score in enumerate(scores) if score >= mark])
            by_world = {w: classes for w, classes in reaching.items() if w >= n}
            if not by_world:
                return [k for k, score in enumerate(scores) if score == mark]
            self._solve_exactly(by_world)

    def work(self) -> CardWork:
        """The work spent on this decision."""
        return CardWork(self.worlds, self.exact_solves, self.probes, len(self.high))


@dataclass(frozen=True)
class StepEstimate:
    """One part of one kontra decision as the bot valued it: its gain for the deciding seat if raised (the
    ``step_gain`` part, per_defender units), its stake (the part's value at its multiplier before the step)
    and the margin the gain had to beat, in stakes; ``raised``: whether the bot raises it."""

    seat: int
    part: Part
    step: str
    multiplier: int
    gain: float
    stake: float
    margin: float
    raised: bool


class CardPlay:
    """A searching bot's card play and kontra decisions: worlds drawn and weighed by its ``parts``, solved
    double-dummy, a card or a raise chosen from the values, with the bot's ``settings`` and safety ``stop``;
    ``fallback`` (the heuristic bot) gives the card ties go to and the card when no world is drawn."""

    def __init__(
        self, rng: random.Random, settings: Settings, parts: SearchParts, stop: SafetyStop, fallback: HeuristicBot
    ) -> None:
        """The card play of a bot drawing from ``rng``."""
        self.rng = rng
        self.settings = settings
        self.parts = parts
        self.stop = stop
        self.fallback = fallback
        #: solve each world of a card decision only as far as the choice needs (``CardTable``); False: every
        #: class exactly in every world (the reference: the same choice, more work)
        self.lazy = True
        #: the table of the last card decision that solved worlds (its values and its work; None before any)
        self.last_table: CardTable | None = None
        #: told each part of each kontra decision as valued (the laboratory's calibration listens; None: nobody)
        self.on_step: Callable[[StepEstimate], None] | None = None
        #: the class a card decision plays from its settled table (None: the best, ``CardTable.decide``; the
        #: ladder's levels choose with human-sized mistakes, ``ulti.bots.ladder``)
        self.chooser: Callable[[CardTable], int] | None = None

    def likelihood(self, view: SeatView, know: Knowledge) -> Likelihood | None:
        """The likelihood the worlds of a card or kontra decision from ``view`` are weighed by (``know``: the
        view analysed; None: every world alike): the weighting part's."""
        return self.parts.weighting(view, know)

    def sampler(self, view: SeatView, know: Knowledge) -> Sampler:
        """The sampler the worlds of a card or kontra decision from ``view`` are drawn with: the drawer part
        on the weighting part (``ulti.lab.location`` measures what these worlds know)."""
        return self.parts.drawer(know, self.likelihood(view, know))

    def card(self, view: SeatView, know: Knowledge, ch: SeatChoices) -> Card:
        """The card to play now."""
        legal = ch.cards
        if count(legal) == 1:
            return next(iter_cards(legal))
        # legal cards split into classes that are equivalent from the viewer's side
        groups = equal_groups(legal, know.trump, FULL_DECK & ~know.hand & ~know.played)
        heuristic = self.fallback.choose_card(view, ch)
        if len(groups) == 1:
            return heuristic
        assert know.contract is not None
        home = next(k for k, group in enumerate(groups) if heuristic in group)
        sampler = self.sampler(view, know)
        samples = self.settings.samples
        deadline = self.stop.deadline(self.settings.time_budget)
        worlds = SolvedWorlds([group[0] for group in groups])
        table = CardTable(len(groups), 1 if know.seat == know.declarer else -1, worlds, home)
        # a no-trump contract is won or lost: its values come exact from one search step, nothing to save
        lazy = self.lazy and know.contract.has_trumps
        pivot = home  # the heuristic's class leads until the worlds say otherwise
        # the same worlds in the same order from the same rng either way: only the work differs
        while table.worlds < samples:
            world = sampler.draw(self.rng)
            if world is None:
                break
            w = worlds.add(position_of(know, world))
            if lazy:
                table.add_lazy(w, pivot)
                pivot = table.candidate()
            else:
                table.add_exact(w)
            if table.worlds < samples and self.stop.over(deadline, "card play"):
                break
        if table.worlds == 0:
            return heuristic
        table.settle()
        self.last_table = table
        chosen = table.decide() if self.chooser is None else self.chooser(table)
        # a class's cards play alike in every world: the heuristic's own card if its class is chosen,
        # else the class's lowest card (cheapest to give)
        return heuristic if chosen == home else groups[chosen][0]

    def kontra(self, view: SeatView, know: Knowledge, ch: SeatChoices) -> tuple[Part, ...]:
        """The parts to raise one step now (empty: decline)."""
        assert know.contract is not None and ch.kontra is not None
        parts = list(ch.kontra.parts)
        sampler = self.sampler(view, know)
        deadline = self.stop.deadline(self.settings.time_budget)
        base: list[float] = []
        raised: list[list[float]] = [[] for _ in parts]
        worlds = kontra_samples(self.settings.samples)
        doubles = raise_doubles(know.contract)
        while len(base) < worlds:
            world = sampler.draw(self.rng)
            if world is None:
                break
            pos = position_of(know, world)
            value = solve_value(pos)
            base.append(value)
            for k, part in enumerate(parts):
                if part in doubles:
                    raised[k].append(2 * value)
                    continue
                mult = dict(know.multipliers)
                mult[part] = mult.get(part, 1) * 2
                raised[k].append(solve_value(replace(pos, multipliers=mult)))
            if len(base) < worlds and self.stop.over(deadline, "kontra"):
                break
        return self.raises(know, ch, base, raised)

    def raises(
        self, know: Knowledge, ch: SeatChoices, base: Sequence[float], raised: Sequence[Sequence[float]]
    ) -> tuple[Part, ...]:
        """The parts of ``ch.kontra`` raised one step, from each world's contract value (per_defender, the
        declarer's side) as it stands (``base``) and with each part raised alone (``raised``, in the offer's
        order, one value per world each): a part whose gain for the seat (the ``step_gain`` part) beats a
        safety margin times its stake."""
        assert know.contract is not None and ch.kontra is not None
        if not base:
            return ()
        # the opponents' own raises are evidence the sampling cannot see: later steps need more certainty
        level = KONTRA_STEP_NAMES.index(ch.kontra.step)
        ours = self.settings
        margin = ours.kontra_margin if level == 1 else ours.chain_margin if level == 2 else ours.late_chain_margin
        chosen = []
        for k, part in enumerate(ch.kontra.parts):
            multiplier = know.multipliers.get(part, 1)
            stake = know.contract.part_value(part) * multiplier
            gain = self.parts.step_gain(know, part, base, raised[k])
            pays = gain > margin * stake
            if pays:
                chosen.append(part)
            if self.on_step is not None:
                self.on_step(StepEstimate(know.seat, part, ch.kontra.step, multiplier, gain, stake, margin, pays))
        return tuple(chosen)
