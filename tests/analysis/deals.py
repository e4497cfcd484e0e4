"""Hand-made deals with known decisions, as ``ulti-deal/1`` records (docs/record.md)."""

from __future__ import annotations

from typing import Any

# An open betli (N-OB, 20 per defender) by seat 0. After trick 1 every hand is face up, so every later
# decision is priced in the one world there is: its costs are exact.
#
# Trick 8: seat 2 leads 7S; the declarer holds 9S AS 9C and must beat. The 9S is safe (seat 1 must beat
# it with its TS and takes the trick; the declarer's AS later falls on a club lead, no trick), the AS
# takes the trick and loses the betli at once: a blunder costing 20 - (-20) = 40.
_BETLI_HANDS = [
    # seat 0, the opener: 12 cards, discards QS KS
    ["9S", "AS", "7C", "8C", "9C", "7D", "8D", "9D", "7H", "8H", "QS", "KS"],
    ["TC", "JC", "QC", "KC", "AC", "TS", "9H", "TH", "JH", "QH"],
    ["7S", "8S", "JS", "TD", "JD", "QD", "KD", "AD", "KH", "AH"],
]
_BETLI_AUCTION: list[dict[str, Any]] = [
    {"seat": 0, "action": "bid", "bid": "N-OB", "discard": ["QS", "KS"]},
    {"seat": 1, "action": "pass"},
    {"seat": 2, "action": "pass"},
    {"seat": 0, "action": "pass"},
]
# tricks 1-7, then trick 8's lead (seats in play order)
_BETLI_PLAY = [
    (0, "7H"), (1, "9H"), (2, "KH"),
    (2, "TD"), (0, "7D"), (1, "TH"),
    (2, "JD"), (0, "8D"), (1, "JH"),
    (2, "QD"), (0, "9D"), (1, "QH"),
    (2, "AH"), (0, "8H"), (1, "TC"),
    (2, "KD"), (0, "7C"), (1, "JC"),
    (2, "AD"), (0, "8C"), (1, "QC"),
    (2, "7S"),
]


def _plays(cards: list[tuple[int, str]]) -> list[dict[str, Any]]:
    return [{"seat": seat, "action": "play", "card": card} for seat, card in cards]


def betli_record(declarer_card: str) -> dict[str, Any]:
    """The open betli above with ``declarer_card`` (``"9S"``: safe, ``"AS"``: the blunder) to trick 8."""
    if declarer_card == "AS":
        rest = [(0, "AS"), (1, "TS")]  # the declarer takes trick 8: the betli ends, lost
    else:
        rest = [(0, "9S"), (1, "TS"), (1, "KC"), (2, "8S"), (0, "9C"), (1, "AC"), (2, "JS"), (0, "AS")]
    return {
        "format": "ulti-deal/1",
        "rules": "ulti-rules/1",
        "dealer": 2,
        "hands": _BETLI_HANDS,
        "actions": _BETLI_AUCTION + _plays(_BETLI_PLAY + rest),
    }


#: The index of the declarer's card to trick 8 in both betli records.
BETLI_CHOICE_INDEX = len(_BETLI_AUCTION) + len(_BETLI_PLAY)


# A betli (N-B, 5 per defender) by seat 0 whose 12 cards are the three lowest clubs and diamonds, the two
# lowest hearts and spades, and the aces of spades and hearts. Laying both aces away leaves ten cards no
# defender can force to take a trick: the betli is made in every world. Keeping an ace loses it as soon
# as a defender leads that ace's suit (the declarer must beat, and only the ace can): about -5 everywhere.
_DISCARD_HANDS = [
    ["7C", "8C", "9C", "7D", "8D", "9D", "7H", "8H", "7S", "8S", "AS", "AH"],
    ["TC", "JC", "QC", "KC", "AC", "9H", "TH", "JH", "QH", "KH"],
    ["TD", "JD", "QD", "KD", "AD", "9S", "TS", "JS", "QS", "KS"],
]
# The play after the auction, the same for both discards but for the declarer's spade to trick 6 (the
# defenders never lead a spade: the betli is made either way, the kept ace thrown on a club)
_DISCARD_PLAY_HEAD = [(0, "7C"), (1, "TC"), (2, "9S"), (1, "AC"), (2, "TS"), (0, "9C"), (1, "KH"), (2, "TD"),
                      (0, "8H"), (1, "KC"), (2, "JS"), (0, "8C"), (1, "QH"), (2, "JD"), (0, "7H"), (1, "QC"),
                      (2, "QD")]
_DISCARD_PLAY_TAIL = [(1, "JH"), (2, "KD"), (0, "9D"), (1, "JC"), (2, "QS"), (0, "8D"), (1, "TH"), (2, "KS"),
                      (0, "7D"), (1, "9H"), (2, "AD"), (0, "7S")]


def betli_discard_record(discard: tuple[str, str]) -> dict[str, Any]:
    """The betli above, seat 0 laying ``discard`` away: ``("AS", "AH")`` (right) or ``("8S", "AH")`` (an ace kept)."""
    kept_spade = "AS" if "AS" not in discard else "8S"
    play = [*_DISCARD_PLAY_HEAD, (0, kept_spade), *_DISCARD_PLAY_TAIL]
    auction: list[dict[str, Any]] = [
        {"seat": 0, "action": "bid", "bid": "N-B", "discard": list(discard)},
        {"seat": 1, "action": "pass"},
        {"seat": 2, "action": "pass"},
        {"seat": 0, "action": "pass"},
    ]
    return {
        "format": "ulti-deal/1",
        "rules": "ulti-rules/1",
        "dealer": 2,
        "hands": _DISCARD_HANDS,
        "actions": auction + _plays(play),
    }
