"""Contract families: the groups of bids the arena reports separately and the declarer model is fitted by."""

from __future__ import annotations

from ulti.engine.contracts import Bid, Part

#: Contract families, in the order a contract is put in the first that fits.
FAMILIES = ("betli", "durchmars", "ulti", "100", "simple", "given up")
#: The families a contract can be played in (all but a given-up deal's).
PLAYED_FAMILIES = FAMILIES[:-1]


def family(bid: Bid, given_up: bool = False) -> str:
    """The contract family of ``bid``: betli, durchmars, ulti, 100 (40-100 or 20-100), simple, given up."""
    if given_up:
        return "given up"
    if bid.has(Part.BETLI):
        return "betli"
    if bid.has(Part.DURCHMARS):
        return "durchmars"
    if bid.has(Part.ULTI):
        return "ulti"
    if bid.has(Part.FORTY_HUNDRED) or bid.has(Part.TWENTY_HUNDRED):
        return "100"
    return "simple"
