"""What the auction's double-dummy values of a declaration are worth when the bots play it out.

The strong bot's auction values each declaration by the mean ``per_defender`` of sampled worlds solved
double-dummy. ``ulti.lab.declarations`` set that estimate, at the first card of 1,300 deals bid by
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
"""

from __future__ import annotations

from ulti.bots.families import family
from ulti.engine.contracts import Bid

#: Per contract family, the mean of played minus estimated per_defender on uniform worlds (the module
#: docstring).
PLAYED_MINUS_SOLVED: dict[str, float] = {"durchmars": -7.3, "100": -2.0, "simple": 0.8}

def played_value(bid: Bid, solved: float) -> float:
    """A declaration of ``bid`` whose uniform sampled worlds, solved double-dummy, give ``solved``
    per_defender on average: what it brings when played out (``solved`` plus its family's correction,
    ``PLAYED_MINUS_SOLVED``).

    >>> from ulti.engine.contracts import parse_bid
    >>> played_value(parse_bid("N-D"), 12.0), played_value(parse_bid("M-SU"), 4.0)
    (4.7, 4.0)
    """
    return solved + PLAYED_MINUS_SOLVED.get(family(bid), 0.0)
