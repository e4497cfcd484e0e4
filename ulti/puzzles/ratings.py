"""Puzzle ratings: each attempt is a game between the player and the puzzle, rated with openskill.

A solved puzzle is a win for the player, a failed one a win for the puzzle. The model is openskill's
Bradley-Terry ("full") for two one-player teams: a Bayesian skill with an uncertainty, like Glicko-2,
updated one game at a time. openskill is already the accounts' rating library (``ulti.accounts.ratings``),
so a player's puzzle rating is on the same shown scale (``1500 + 40 × (mu − 25)``) and no second rating
library is added; its uncertainty shrinks with attempts, as Glicko-2's deviation does, so a new puzzle
or a new player moves fast and a settled one slowly.

``pick`` gives a player a puzzle near their rating: the unseen puzzle whose shown rating is closest,
among the few closest a random one (two players of one rating do not all get the same puzzle).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import BradleyTerryFull

from ulti.puzzles.difficulty import BASE_MU, BASE_SIGMA, shown

_MODEL = BradleyTerryFull(mu=BASE_MU, sigma=BASE_SIGMA)
#: How many of the closest unseen puzzles ``pick`` draws from.
PICK_AMONG = 5


@dataclass(frozen=True)
class Rating:
    """A skill (player) or difficulty (puzzle): openskill's ``mu`` and ``sigma``."""

    mu: float = BASE_MU
    sigma: float = BASE_SIGMA

    @property
    def shown(self) -> int:
        """The one number people see (1500 for a newcomer).

        >>> Rating().shown
        1500
        """
        return shown(self.mu)

    @classmethod
    def of_puzzle(cls, puzzle: dict[str, Any]) -> Rating:
        """The rating a ``ulti-puzzle/1`` object holds."""
        return cls(float(puzzle["rating"]["mu"]), float(puzzle["rating"]["sigma"]))

    def to_json(self) -> dict[str, Any]:
        """``{"mu", "sigma", "shown"}`` as a puzzle stores it."""
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3), "shown": self.shown}


def attempt(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after one attempt (``solved``: the player found every move)."""
    a = _MODEL.rating(mu=player.mu, sigma=player.sigma)
    b = _MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)
    ranks = [1.0, 2.0] if solved else [2.0, 1.0]
    [[na], [nb]] = _MODEL.rate([[a], [b]], ranks=ranks)
    return Rating(na.mu, na.sigma), Rating(nb.mu, nb.sigma)


def expected_solve(player: Rating, puzzle: Rating) -> float:
    """The model's chance that ``player`` solves ``puzzle``."""
    a = _MODEL.rating(mu=player.mu, sigma=player.sigma)
    b = _MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)
    return float(_MODEL.predict_win([[a], [b]])[0])


def pick(
    player: Rating, puzzles: Sequence[dict[str, Any]], rng: random.Random, seen: Collection[str] = ()
) -> dict[str, Any] | None:
    """A puzzle near ``player``'s rating among ``puzzles`` not in ``seen`` (ids); None when all are seen."""
    fresh = [p for p in puzzles if p["id"] not in seen]
    if not fresh:
        return None
    fresh.sort(key=lambda p: (abs(Rating.of_puzzle(p).shown - player.shown), p["id"]))
    return rng.choice(fresh[:PICK_AMONG])
