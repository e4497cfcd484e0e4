"""The sampler: worlds drawn uniformly from the deals a ``Knowledge`` allows (exact counts of the splits)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ulti.bots.sampling.knowledge import TALON, Knowledge, World
from ulti.bots.sampling.rebuild import rebuild
from ulti.engine.cards import KING, QUEEN, Card, CardSet, iter_cards
from ulti.engine.scoring import marriages_of


def _splits(n: int, bins: list[int], caps: list[int]) -> list[tuple[int, ...]]:
    """Ways to put ``n`` cards into ``bins`` (indices into ``caps``) within the capacities."""
    if len(bins) == 1:
        return [(n,)] if n <= caps[bins[0]] else []
    out = []
    for k in range(min(n, caps[bins[0]]) + 1):
        for rest in _splits(n - k, bins[1:], caps):
            out.append((k, *rest))
    return out


class _Partition:
    """Uniform random splits of the unknown cards among locations with per-card allowed sets."""

    def __init__(self, locs: list[int], allowed: list[CardSet], caps: list[int]) -> None:
        self.locs = locs
        nloc = len(locs)
        # group the cards by the set of locations they may go to
        types: dict[int, list[Card]] = {}
        union = 0
        for i in range(nloc):
            union |= allowed[locs[i]]
        for card in iter_cards(union):
            t = 0
            for i in range(nloc):
                if allowed[locs[i]] >> card & 1:
                    t |= 1 << i
            types.setdefault(t, []).append(card)
        self.types = sorted(types.items(), key=lambda kv: kv[0].bit_count())
        self.options: list[tuple[tuple[tuple[int, ...], ...], int]] = []
        self.total = sum(len(c) for _, c in self.types)
        self.ok = self.total == sum(caps)
        if self.ok:
            self._enumerate(0, list(caps), [], 1)
        self.ok = bool(self.options)
        if self.ok:
            self.cum: list[float] = []
            acc = 0.0
            for _, weight in self.options:
                acc += float(weight)
                self.cum.append(acc)

    def _enumerate(self, index: int, caps: list[int], chosen: list[tuple[int, ...]], weight: int) -> None:
        if index == len(self.types):
            if not any(caps):
                self.options.append((tuple(chosen), weight))
            return
        t, cards = self.types[index]
        bins = [i for i in range(len(self.locs)) if t >> i & 1]
        n = len(cards)
        for split in _splits(n, bins, caps):
            w = weight
            left = n
            for k in split:
                w *= math.comb(left, k)
                left -= k
            for b, k in zip(bins, split, strict=True):
                caps[b] -= k
            chosen.append(split)
            self._enumerate(index + 1, caps, chosen, w)
            chosen.pop()
            for b, k in zip(bins, split, strict=True):
                caps[b] += k

    def draw(self, rng: random.Random) -> list[CardSet]:
        """One uniform split: the cards of each location (in ``locs`` order)."""
        x = rng.random() * self.cum[-1]
        lo, hi = 0, len(self.cum) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.cum[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        splits = self.options[lo][0]
        out = [0] * len(self.locs)
        for (t, cards), split in zip(self.types, splits, strict=True):
            bins = [i for i in range(len(self.locs)) if t >> i & 1]
            if len(bins) == 1:
                for c in cards:
                    out[bins[0]] |= 1 << c
                continue
            shuffled = list(cards)
            rng.shuffle(shuffled)
            start = 0
            for b, k in zip(bins, split, strict=True):
                for c in shuffled[start : start + k]:
                    out[b] |= 1 << c
                start += k
        return out


class Sampler:
    """Draws worlds consistent with ``know`` (uniform, then marriage counts and an optional likelihood)."""

    def __init__(self, know: Knowledge, likelihood: Callable[[World], float] | None = None) -> None:
        """Worlds consistent with ``know``, each kept with probability ``likelihood(world)`` (rejection
        sampling: the kept worlds are distributed as the likelihood says)."""
        self.know = know
        self.likelihood = likelihood
        self.locs = [s for s in know.others] + ([TALON] if know.talon_size else [])
        self.caps = [know.sizes[s] for s in know.others] + ([know.talon_size] if know.talon_size else [])
        self._cache: dict[tuple[CardSet, ...], _Partition] = {}
        self.base = self._partition(tuple(know.allowed))
        self.tries = 0

    @property
    def possible(self) -> bool:
        """Whether any world fits (false only if the knowledge is contradictory)."""
        return self.base.ok

    def _partition(self, allowed: tuple[CardSet, ...]) -> _Partition:
        part = self._cache.get(allowed)
        if part is None:
            part = _Partition(self.locs, list(allowed), self.caps)
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[allowed] = part
        return part

    def _marriage_forcing(self, rng: random.Random) -> tuple[CardSet, ...]:
        """Allowed sets with the announced 20s placed: for each seat, some suits forced whole."""
        know = self.know
        allowed = list(know.allowed)
        for s, (_, twenties) in know.marriages.items():
            if not twenties:
                continue
            candidates = []
            for suit in range(4):
                if suit == know.trump:
                    continue
                pair = (1 << (suit * 8 + KING)) | (1 << (suit * 8 + QUEEN))
                if pair & (allowed[s] | know.played_by[s]) == pair:
                    candidates.append(pair)
            rng.shuffle(candidates)
            for pair in candidates[:twenties]:
                for loc in range(4):
                    if loc != s:
                        allowed[loc] &= ~pair
                allowed[s] |= pair & ~know.played_by[s]
        return tuple(allowed)

    def _marriages_match(self, world: World) -> bool:
        know = self.know
        for s, announced in know.marriages.items():
            if marriages_of(know.start_hand(world, s), know.trump) != announced:
                return False
        return True

    def _rebuilds(self, world: World, rng: random.Random) -> bool:
        assert self.know.check_log is not None
        for _ in range(3):
            try:
                rebuild(self.know, self.know.check_log, world, rng)
            except ValueError:
                continue
            return True
        return False

    def _candidate(self, rng: random.Random) -> World | None:
        """One try: a world consistent with the knowledge, or None (before any likelihood)."""
        know = self.know
        self.tries += 1
        part = self.base
        if any(tw for _, tw in know.marriages.values()):
            part = self._partition(self._marriage_forcing(rng))
            if not part.ok:
                return None
        world = self.world_of(part.draw(rng))
        return world if self.fits(world, rng) else None

    def world_of(self, contents: list[CardSet]) -> World:
        """The world whose unseen locations (``locs``, in order) hold ``contents``, the viewer its hand."""
        hands = [0, 0, 0]
        hands[self.know.seat] = self.know.hand
        talon = 0
        for loc, held in zip(self.locs, contents, strict=True):
            if loc == TALON:
                talon = held
            else:
                hands[loc] = held
        return World(hands, talon)

    def fits(self, world: World, rng: random.Random) -> bool:
        """Whether ``world`` matches the marriages announced and, where the log hides a discard, can be
        rebuilt from it (the checks beyond the allowed sets)."""
        if not self._marriages_match(world):
            return False
        return self.know.check_log is None or self._rebuilds(world, rng)

    def draw(self, rng: random.Random, max_tries: int = 200) -> World | None:
        """One world (None if none was found in ``max_tries`` draws)."""
        if not self.base.ok:
            return None
        likelihood = self.likelihood
        best: World | None = None
        for _ in range(max_tries):
            world = self._candidate(rng)
            if world is None:
                continue
            if likelihood is not None:
                if best is None:
                    best = world
                if rng.random() > likelihood(world):
                    continue
            return world
        return best

    def draw_many(self, rng: random.Random, n: int) -> list[World]:
        """Up to ``n`` worlds."""
        out = []
        for _ in range(n):
            world = self.draw(rng)
            if world is None:
                break
            out.append(world)
        return out
