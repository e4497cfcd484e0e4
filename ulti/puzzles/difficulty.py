"""A new puzzle's starting rating, before anybody has tried it, on the accounts' shown scale.

The shown number is ``1500 + 40 × (mu − 25)`` as for the players (``ulti.accounts.ratings``), with the
newcomer's uncertainty (sigma 25/3). A puzzle starts at 1500, +150 for each move after the first (each
must be found), +150 when the answer is not best in every sampled world (the view alone makes it less
clear), +100 when there are four or more classes of cards to choose from. Attempts then move it
(``ulti.puzzles.ratings``): the start only orders puzzles nobody has tried yet.
"""

from __future__ import annotations

from typing import Any

#: openskill's default skill (the accounts' newcomer) and the shown scale around it.
BASE_MU = 25.0
BASE_SIGMA = 25.0 / 3.0
SCALE_ORIGIN = 1500
SCALE_FACTOR = 40


def shown(mu: float) -> int:
    """``mu`` as the shown number.

    >>> shown(25.0), shown(28.75)
    (1500, 1650)
    """
    return round(SCALE_ORIGIN + SCALE_FACTOR * (mu - BASE_MU))


def initial_rating(moves: int, share: float, classes: int) -> dict[str, Any]:
    """The starting rating of a puzzle of ``moves`` moves whose least clear move was best in ``share`` of
    its worlds, with ``classes`` classes of cards at the first move: ``{"mu", "sigma", "shown"}``.

    >>> initial_rating(1, 1.0, 2)
    {'mu': 25.0, 'sigma': 8.333, 'shown': 1500}
    >>> initial_rating(2, 0.9, 4)["shown"]
    1900
    """
    points = 150 * (moves - 1) + (150 if share < 1.0 else 0) + (100 if classes >= 4 else 0)
    mu = BASE_MU + points / SCALE_FACTOR
    return {"mu": round(mu, 3), "sigma": round(BASE_SIGMA, 3), "shown": shown(mu)}
