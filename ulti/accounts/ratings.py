"""Ratings: the Plackett–Luce model of ``openskill``, shown on a familiar scale.

A rated match of three seats is one "game" of three one-player teams ranked by their final totals
(ties share a rank). A player who left and whose seat a bot finished is ranked below everybody who
stayed: leaving must never be a way to save rating points.

A skill is ``mu`` and ``sigma`` on openskill's scale (a newcomer is 25 ± 25/3). Players see one number,
``1500 + 40 × (mu − 25)``: a newcomer shows 1500, and a newcomer's uncertainty (±333) is about the
±350 a Glicko player of chess sites knows. A rating stays "provisional" until ``PROVISIONAL_MATCHES``
rated matches have been played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: a rating is provisional until this many rated matches are behind it
PROVISIONAL_MATCHES = 10
#: the shown rating of a newcomer, and how many shown points one unit of ``mu`` is worth
SCALE_ORIGIN = 1500
SCALE_FACTOR = 40

_MODEL = PlackettLuce()
#: the model's spread of one player's performance about its skill (openskill's ``beta``, 25/6): a fit of
#: players whose strength does not change reads its skills in this unit
PERFORMANCE_SPREAD: float = _MODEL.beta


@dataclass(frozen=True)
class Skill:
    """A player's skill as the model holds it."""

    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The one number players see (1500 for a newcomer).

        >>> NEWCOMER.shown
        1500
        """
        return shown_rating(self.mu)


#: the skill of an account that has played no rated match
NEWCOMER = Skill(_MODEL.mu, _MODEL.sigma)


def shown_rating(mu: float) -> int:
    """``mu`` on the shown scale: ``1500 + 40 × (mu − 25)``, rounded.

    >>> shown_rating(25.0), shown_rating(26.5)
    (1500, 1560)
    """
    return round(SCALE_ORIGIN + SCALE_FACTOR * (mu - _MODEL.mu))


def is_provisional(rated_matches: int) -> bool:
    """Whether a rating with ``rated_matches`` behind it is still provisional.

    >>> is_provisional(9), is_provisional(10)
    (True, False)
    """
    return rated_matches < PROVISIONAL_MATCHES


def match_ranks(totals: Sequence[int], left: Sequence[bool]) -> list[int]:
    """Each seat's rank (1 = best) from the final totals; ties share a rank; leavers come last.

    Ranks are "competition" ranks: two seats tied for first are both 1 and the next is 3. Seats that
    left are ranked after every seat that stayed, tied among themselves whatever their totals.

    >>> match_ranks([10, -4, -6], [False, False, False])
    [1, 2, 3]
    >>> match_ranks([5, 5, -10], [False, False, False])
    [1, 1, 3]
    >>> match_ranks([12, -2, -10], [True, False, False])
    [3, 1, 2]
    """
    if len(totals) != len(left):
        raise ValueError("one total and one 'left' mark per seat")
    # stayers sort above leavers; among each group the higher total is better
    keys = [(0 if gone else 1, 0 if gone else total) for total, gone in zip(totals, left, strict=True)]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def rate_match(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """The skills after one rated match, each seat a one-player team with its rank (1 = best).

    >>> after = rate_match([NEWCOMER] * 3, [1, 2, 3])
    >>> after[0].shown > 1500 > after[2].shown
    True
    """
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]
