"""Skills of players whose strength never changes, fitted at once from all their ranked matches.

The site rates people match by match (``ulti.accounts.ratings``): each match moves a skill by less as its
uncertainty shrinks, so where a person ends depends on the order of their matches. A bot level does not
learn: its strength is one fixed number, and the best estimate of it is the one that makes all its matches
most likely at once under the same model (Plackett-Luce: the chance that a seat places first among those
left is its ``exp(mu / c)`` over theirs; ``c`` is ``sqrt(3)`` times the model's performance spread, as
openskill computes it for three seats of exactly known skill). That is the rating a person converges to who
places against these levels as often as they place against each other.

The fit is Hunter's minorise-maximise iteration (2004) for Plackett-Luce. Each level also gets one virtual
win and one virtual loss against a fixed player of strength 1 (where every level starts), so a level that
never placed above another still has a finite skill (with hundreds of matches per level that weighs
nothing). Tied totals count as every order of the tied seats, equally weighted. Skills are relative: the
levels' mean ``mu`` is set to the newcomer's after the fit, so the levels' mean shown rating is 1500.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

from ulti.accounts.ratings import NEWCOMER, PERFORMANCE_SPREAD

#: ``c`` of the model for a match of three seats of exactly known skill
SEAT_SCALE = math.sqrt(3) * PERFORMANCE_SPREAD
#: the iteration stops when no level's strength moves by a larger share than this
TOLERANCE = 1e-10
MAX_ROUNDS = 10_000

Ranked = tuple[Sequence[str], Sequence[int]]  # the players by seat and each seat's rank (1 = best)


def orderings(players: Sequence[str], ranks: Sequence[int]) -> list[tuple[list[str], float]]:
    """Every finishing order the ranks allow (tied seats in each order), with its weight (they sum to 1).

    >>> orderings(["a", "b", "c"], [2, 1, 3])
    [(['b', 'a', 'c'], 1.0)]
    >>> [order for order, _ in orderings(["a", "b", "c"], [1, 1, 3])]
    [['a', 'b', 'c'], ['b', 'a', 'c']]
    """
    seats = sorted(range(len(players)), key=lambda s: ranks[s])
    groups = [list(g) for _, g in itertools.groupby(seats, key=lambda s: ranks[s])]
    orders = [[players[s] for part in choice for s in part]
              for choice in itertools.product(*(itertools.permutations(g) for g in groups))]
    return [(order, 1 / len(orders)) for order in orders]


def fit(matches: Sequence[Ranked]) -> dict[str, float]:
    """Each player's ``mu`` (openskill's scale, the players' mean at the newcomer's 25) most likely given
    ``matches`` under the Plackett-Luce model, with the one virtual win and loss each."""
    # each choice of a first place among those left: only who was left matters to the iteration, so the
    # choices are summed per set of players left (a handful of sets however many matches)
    stages: dict[tuple[str, ...], float] = {}
    wins: dict[str, float] = {}
    for players, ranks in matches:
        for order, weight in orderings(players, ranks):
            for k in range(len(order) - 1):
                left = tuple(sorted(order[k:]))
                stages[left] = stages.get(left, 0.0) + weight
                wins[order[k]] = wins.get(order[k], 0.0) + weight
        for player in players:
            wins.setdefault(player, 0.0)
    strength = dict.fromkeys(wins, 1.0)
    for _ in range(MAX_ROUNDS):
        against = dict.fromkeys(strength, 0.0)
        for left, weight in stages.items():
            share = weight / sum(strength[p] for p in left)
            for p in left:
                against[p] += share
        new = {}
        for p, s in strength.items():
            # the virtual pair: one win and one loss against a player of strength 1
            new[p] = (wins[p] + 1.0) / (against[p] + 2.0 / (s + 1.0))
        moved = max(abs(new[p] / strength[p] - 1) for p in strength)
        strength = new
        if moved < TOLERANCE:
            break
    logs = {p: math.log(s) for p, s in strength.items()}
    centre = sum(logs.values()) / len(logs)
    return {p: NEWCOMER.mu + SEAT_SCALE * (value - centre) for p, value in logs.items()}


def first_place_odds(mus: Mapping[str, float], players: Sequence[str]) -> list[float]:
    """The model's chance that each of ``players`` places first among them, given their ``mus``.

    >>> [round(x, 3) for x in first_place_odds({"a": 25.0, "b": 25.0}, ["a", "b"])]
    [0.5, 0.5]
    """
    weights = [math.exp(mus[p] / SEAT_SCALE) for p in players]
    whole = sum(weights)
    return [w / whole for w in weights]
