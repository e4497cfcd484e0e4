"""A Metropolis sampler: worlds distributed as a sharp likelihood says, where rejection sampling cannot be.

``Sampler`` keeps a uniformly drawn world with probability ``likelihood(world)``. When the evidence is
strong (a hand the declarer's bid makes a hundred times likelier than most is one in thousands of the hands
a defender can imagine), almost every draw is rejected: after ``max_tries`` the plain sampler falls back
to an unweighted world.

``MetropolisSampler`` walks instead: it starts from a world the plain sampler draws and moves by swapping
two unseen cards between two locations that may hold them (a symmetric proposal), accepting a move with
probability min(1, likelihood(new) / likelihood(old)) (Metropolis-Hastings). Moves that break a marriage
announcement or the log's hidden discards are refused. The chain's worlds come to be distributed as the
likelihood says whatever its scale; successive draws are ``thin`` steps apart, the first ``burn_in`` steps
after the start.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ulti.bots.sampling.knowledge import TALON, Knowledge, World
from ulti.bots.sampling.sampler import Sampler
from ulti.engine.cards import Card, CardSet

#: Steps of the chain before its first world, and between two worlds.
BURN_IN = 200
THIN = 20


class MetropolisSampler(Sampler):
    """Worlds consistent with ``know`` distributed as ``likelihood`` says, by a Metropolis chain of card
    swaps (the module docstring); without a likelihood, the plain sampler's uniform worlds."""

    def __init__(
        self,
        know: Knowledge,
        likelihood: Callable[[World], float] | None = None,
        burn_in: int = BURN_IN,
        thin: int = THIN,
    ) -> None:
        """A chain over the worlds of ``know``: ``burn_in`` steps before the first world, ``thin`` between
        two worlds."""
        super().__init__(know, likelihood)
        self.burn_in = burn_in
        self.thin = thin
        self.steps = 0
        self.moves = 0
        self._state: World | None = None
        self._weight = 0.0

    def draw(self, rng: random.Random, max_tries: int = 200) -> World | None:
        """The chain's next world (None if no world fits ``know``)."""
        likelihood = self.likelihood
        if likelihood is None:
            return super().draw(rng, max_tries)
        if self._state is None:
            start = super().draw(rng, max_tries)
            if start is None:
                return None
            self._state = start
            self._weight = likelihood(start)
            steps = self.burn_in
        else:
            steps = self.thin
        for _ in range(steps):
            self._step(rng, likelihood)
        state = self._state
        return World(list(state.hands), state.talon)

    def _step(self, rng: random.Random, likelihood: Callable[[World], float]) -> None:
        """One Metropolis step: propose swapping two unseen cards of two locations, accept or stay."""
        assert self._state is not None
        self.steps += 1
        state = self._state
        allowed = self.know.allowed
        locs = self.locs
        contents = [state.talon if loc == TALON else state.hands[loc] for loc in locs]
        # the proposal picks the r-th of the unseen cards listed location by location (each in ascending
        # order), then the k-th of those of the other locations: counted here, not listed, for speed
        sizes = [held.bit_count() for held in contents]
        i, a = _pick(contents, sizes, rng.randrange(sum(sizes)))
        others = sum(sizes) - sizes[i]
        if not others:
            return
        k = rng.randrange(others)
        # the others are the cards of every location but ``i``, in the same order: skip location i's block
        j, b = _pick(contents, sizes, k if k < sum(sizes[:i]) else k + sizes[i])
        # the proposal is symmetric: from either world each of the two cards is picked alike
        if not (allowed[locs[j]] >> a & 1 and allowed[locs[i]] >> b & 1):
            return
        swap = (1 << a) | (1 << b)
        contents[i] ^= swap
        contents[j] ^= swap
        world = self.world_of(contents)
        if not self.fits(world, rng):
            return
        weight = likelihood(world)
        if self._weight <= 0.0 or rng.random() * self._weight < weight:
            self._state = world
            self._weight = weight
            self.moves += 1


def _pick(contents: list[CardSet], sizes: list[int], n: int) -> tuple[int, Card]:
    """The location and the card at place ``n`` of the cards of ``contents`` listed location by location,
    each location's in ascending order (``sizes``: each location's count)."""
    for i, size in enumerate(sizes):
        if n < size:
            mask = contents[i]
            for _ in range(n):
                mask &= mask - 1  # drop the lowest card
            return i, (mask & -mask).bit_length() - 1
        n -= size
    raise IndexError("no card at that place")
