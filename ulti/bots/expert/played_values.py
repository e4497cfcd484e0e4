"""What the auction's double-dummy values of a declaration are worth when the bots play it out.

The strong bot's auction values each declaration by the mean ``per_defender`` of sampled worlds solved
double-dummy. ``benchmarks.declaration_bench`` set that estimate, at the first card of 1,300 deals bid by
strong bots (seeds 1, 2 and 3: 300, 500 and 500 deals), beside what the declaration brought when strong
bots played it out (nobody saying kontra). Per contract family, played minus estimated, per deal:

- durchmars (86 deals): -10.8 [-20.0, -1.5], -7.0 [-11.8, -2.2], -5.1 [-11.3, +1.1]: the estimate won
  67-79% of the declarations, the play 38-59%;
- 100 (94): -1.4 [-3.5, +0.7], -3.2 [-5.4, -1.0], -0.8 [-2.4, +0.8]: the double-dummy 100 is often not
  made in play (the true deal's double-dummy value minus the played one: +2.3, +2.9, +1.3);
- simple (209): +0.4 [-0.2, +0.9], +1.0 [+0.5, +1.6], +0.9 [+0.4, +1.3]: defenders who cannot see the
  cards give a simple party away more often than double-dummy ones;
- ulti (770): -0.6, +0.0, +0.3, each interval across zero; betli (141): -0.9, +4.1, -1.4, no direction.

``PLAYED_MINUS_SOLVED`` holds the pooled mean of each family whose three seeds agreed in sign, the
others zero. The worlds the other seats' bids or passes weigh (``weighted_by_evidence``) moved the
estimates by less than half a point in every family: the gap is not what the auction's evidence says.
The expert values its auction so (its whole-game figures: ``ulti.bots.expert``; the arena level
``expert-ddauction`` is the expert without it).

Worlds weighed by the other seats' bids read by the fitted declarer model *and* the discards the bidder
picked up (the **both** estimate; the auction of ``expert-discards``) move the estimates far more, so
they have their own corrections, ``EVIDENCE_PLAYED_MINUS_SOLVED``, set the same way from ``python -m
benchmarks.declaration_bench --deals D --seed S`` at seeds 1, 2 and 3 (300, 400 and 400 deals), played
minus the **both** estimate per deal:

- durchmars (73 deals): -1.4 [-11.7, +8.8], -3.0 [-9.4, +3.5], +0.2 [-7.6, +8.0]: no direction (on the
  uniform worlds -7.3: the bids and discards already find the voids the durchmars runs into);
- ulti (647): +0.7 [-0.4, +1.7], +1.7 [+0.9, +2.5], +1.7 [+0.9, +2.6]: these worlds give the defenders
  better hands than they play;
- simple (174): +0.6 [+0.1, +1.1], +1.1 [+0.5, +1.7], +0.7 [+0.2, +1.2];
- betli (123): +1.8 [-1.6, +5.3], +7.3 [+3.8, +10.8], +0.6 [-2.3, +3.6];
- 100 (83): -0.2 [-2.6, +2.2], -1.5 [-3.6, +0.6], -0.1 [-2.3, +2.1].
"""

from __future__ import annotations

from collections.abc import Mapping

from ulti.bots.families import family
from ulti.engine.contracts import Bid

#: Per contract family, the mean of played minus estimated per_defender on uniform worlds (the module
#: docstring).
PLAYED_MINUS_SOLVED: dict[str, float] = {"durchmars": -7.3, "100": -2.0, "simple": 0.8}

#: The same on worlds weighed by the other seats' fitted bids and the discards picked up (the module
#: docstring): the pooled mean of each family whose three seeds agreed in sign, the others zero.
EVIDENCE_PLAYED_MINUS_SOLVED: dict[str, float] = {"ulti": 1.4, "simple": 0.8, "betli": 3.1, "100": -0.7}


def played_value(bid: Bid, solved: float, corrections: Mapping[str, float] = PLAYED_MINUS_SOLVED) -> float:
    """A declaration of ``bid`` whose sampled worlds, solved double-dummy, give ``solved`` per_defender on
    average: what it brings when played out (``solved`` plus its family's correction in ``corrections``,
    measured on worlds drawn as those were: ``PLAYED_MINUS_SOLVED`` for uniform worlds).

    >>> from ulti.engine.contracts import parse_bid
    >>> played_value(parse_bid("N-D"), 12.0), played_value(parse_bid("M-SU"), 4.0)
    (4.7, 4.0)
    >>> played_value(parse_bid("N-D"), 12.0, EVIDENCE_PLAYED_MINUS_SOLVED)
    12.0
    """
    return solved + corrections.get(family(bid), 0.0)
