"""What the auction's double-dummy values of a declaration are worth when the bots play it out.

The strong bot's auction values each declaration by the mean ``per_defender`` of sampled worlds solved
double-dummy. Double-dummy worlds misjudge some families: a durchmars or a 100 that every world makes is
often lost when played by seats that cannot see the cards, while defenders who cannot see them give a
simple party away more often than double-dummy ones. ``ulti.lab.declarations`` sets the estimate, at the
first card of deals bid by strong bots, beside what the declaration brought when strong bots played it
out (nobody saying kontra); ``PLAYED_MINUS_SOLVED`` holds, per contract family, the pooled mean of played
minus estimated where three seeds agreed in sign (the others are zero). The figures per family and seed
are the journal's (``docs/lab-journal.md``, the auction's rows); the expert values its auction so (the
arena configuration ``expert-ddauction`` is the expert without it).
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
