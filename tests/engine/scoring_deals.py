"""Build finished deals for the scoring tests from a compact, checked description.

A deal is written as its ten (or fewer) tricks, each a string ``"D X Y W"``: the cards that the
declarer D, the defender X (the seat after D) and the defender Y played to the trick, in that
seat order, then the winner's role letter. The leader is implicit (D leads trick 1, the winner of
each trick leads the next), so :func:`build` can put the cards in play order. The start hands are
the cards each seat played (plus ``rest`` for a no-trump deal that ended early) and the talon is
the two cards left over, which must be the ``talon`` given.

To keep the deals plausible, :func:`build` checks that every card is played once by its owner,
that the stated winner is the seat the trick-taking rule (§3.1) picks, and, unless told otherwise,
that every card was a legal play (§3.3, and the ulti trump-7 rule of §3.4 when ``ulti`` is set).
These checks guard the test data only; the expected scores in the tests are worked out by hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ulti.engine.cards import card_str, parse_card, parse_suit
from ulti.engine.contracts import BIDS_BY_CODE, Part
from ulti.engine.play import NO_TRUMP, legal_cards, seven_of, trick_winner_index
from ulti.engine.scoring import DealResult, Trick, settle

ROLES = "DXY"
FULL_DECK = (1 << 32) - 1


@dataclass(frozen=True)
class Built:
    """A deal ready for ``settle``: tricks in play order, start hands by seat, the talon."""

    declarer: int
    trump: int
    tricks: tuple[Trick, ...]
    start_hands: tuple[int, int, int]
    talon: int

    def seat(self, role: str) -> int:
        """The seat of role ``"D"``, ``"X"`` or ``"Y"``."""
        return (self.declarer + ROLES.index(role)) % 3

    def hand(self, role: str) -> int:
        """The start hand (mask) of ``role``."""
        return self.start_hands[self.seat(role)]

    def played_in_trick(self, number: int, role: str) -> str:
        """The card code ``role`` played to trick ``number`` (1-based)."""
        return card_str(self.tricks[number - 1].card_of(self.seat(role)))


def cards(text: str) -> list[int]:
    """Cards from space-separated codes, e.g. ``"AS TS 7H"``."""
    return [parse_card(code) for code in text.split()]


def mask(text: str) -> int:
    """The set of the cards named in ``text``."""
    out = 0
    for card in cards(text):
        out |= 1 << card
    return out


def points_of(text_or_mask: str | int) -> int:
    """Card points (10 per ace and ten) of a card set, counted here independently of the engine."""
    m = mask(text_or_mask) if isinstance(text_or_mask, str) else text_or_mask
    return sum(10 for c in range(32) if m >> c & 1 and c % 8 in (3, 7))


def trump_of(letter: str | None) -> int:
    """The trump suit for a suit letter, or ``NO_TRUMP`` for None."""
    return NO_TRUMP if letter is None else parse_suit(letter)


def build(
    tricks: Sequence[str],
    *,
    talon: str,
    trump: str | None,
    declarer: int = 0,
    ulti: bool = False,
    rest: Mapping[str, str] | None = None,
    check_legal: bool = True,
) -> Built:
    """Turn the compact trick list into a ``Built`` deal, checking it as described above."""
    trump_suit = trump_of(trump)
    seat_of = {role: (declarer + i) % 3 for i, role in enumerate(ROLES)}
    per_role: list[tuple[dict[str, int], str]] = []
    hands = {role: 0 for role in ROLES}
    for number, text in enumerate(tricks, 1):
        *codes, winner = text.split()
        assert len(codes) == 3 and winner in ROLES, f"trick {number}: write 'D X Y W', got {text!r}"
        by_role = dict(zip(ROLES, (parse_card(c) for c in codes), strict=True))
        for role, card in by_role.items():
            everything = hands["D"] | hands["X"] | hands["Y"]
            assert not everything >> card & 1, f"trick {number}: {card_str(card)} is played twice"
            hands[role] |= 1 << card
        per_role.append((by_role, winner))
    for role, text in (rest or {}).items():
        for card in cards(text):
            everything = hands["D"] | hands["X"] | hands["Y"]
            assert not everything >> card & 1, f"rest: {card_str(card)} is used twice"
            hands[role] |= 1 << card
    for role in ROLES:
        assert hands[role].bit_count() == 10, f"{role} holds {hands[role].bit_count()} cards, not 10"
    talon_mask = FULL_DECK & ~(hands["D"] | hands["X"] | hands["Y"])
    assert talon_mask == mask(talon), f"the cards left over are not the talon {talon!r}"

    held = dict(hands)
    seven = seven_of(trump_suit) if ulti else -1
    leader = "D"
    out: list[Trick] = []
    for number, (by_role, winner) in enumerate(per_role, 1):
        order = [ROLES[(ROLES.index(leader) + i) % 3] for i in range(3)]
        played = [by_role[role] for role in order]
        if check_legal:
            for i, role in enumerate(order):
                led = played[0] >> 3 if i else -1
                top = played[trick_winner_index(played[:i], trump_suit)] if i else -1
                allowed = legal_cards(held[role], led, top, trump_suit, seven if role == "D" else -1)
                assert allowed >> played[i] & 1, f"trick {number}: {role} may not play {card_str(played[i])}"
                held[role] ^= 1 << played[i]
        taker = order[trick_winner_index(played, trump_suit)]
        assert taker == winner, f"trick {number}: {taker} takes it, not {winner}"
        out.append(Trick(seat_of[leader], (played[0], played[1], played[2]), seat_of[winner]))
        leader = winner
    start = tuple(hands[ROLES[(seat - declarer) % 3]] for seat in range(3))
    return Built(declarer, trump_suit, tuple(out), (start[0], start[1], start[2]), talon_mask)


def _swap_maps(swap: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    pairs = list(swap.items())
    card_map = {a: b for a, b in pairs if len(a) == 2} | {b: a for a, b in pairs if len(a) == 2}
    suit_map = {a: b for a, b in pairs if len(a) == 1} | {b: a for a, b in pairs if len(a) == 1}
    return card_map, suit_map


def _swap_code(code: str, card_map: Mapping[str, str], suit_map: Mapping[str, str]) -> str:
    code = card_map.get(code.upper(), code.upper())
    return code[0] + suit_map.get(code[1], code[1])


def translate(tricks: Sequence[str], swap: Mapping[str, str]) -> list[str]:
    """The trick list with card codes or suit letters exchanged.

    ``swap`` maps a card code to a card code (``{"KS": "JS"}``) or a suit letter to a suit letter
    (``{"S": "H"}``); every mapping is applied both ways, card codes first, then suits.
    """
    card_map, suit_map = _swap_maps(swap)
    out = []
    for text in tricks:
        *codes, winner = text.split()
        out.append(" ".join([*(_swap_code(c, card_map, suit_map) for c in codes), winner]))
    return out


def translate_cards(text: str, swap: Mapping[str, str]) -> str:
    """``translate`` for a plain list of card codes (a talon, say)."""
    card_map, suit_map = _swap_maps(swap)
    return " ".join(_swap_code(c, card_map, suit_map) for c in text.split())


def score(bid: str, built: Built, multipliers: Mapping[Part, int] | None = None) -> DealResult:
    """Settle ``built`` as the contract ``bid`` with the given kontra multipliers."""
    return settle(
        bid=BIDS_BY_CODE[bid],
        declarer=built.declarer,
        trump=built.trump,
        tricks=built.tricks,
        start_hands=built.start_hands,
        talon=built.talon,
        multipliers=dict(multipliers or {}),
    )


def deltas(declarer: int, n: int) -> tuple[int, int, int]:
    """Score changes when each defender pays the declarer ``n`` (§5.2): D +2n, X -n, Y -n."""
    out = [-n, -n, -n]
    out[declarer] = 2 * n
    return (out[0], out[1], out[2])


def parts(result: DealResult) -> dict[Part, tuple[bool, int, int]]:
    """The settled parts as ``{part: (won, value, per_defender)}``."""
    return {p.part: (p.won, p.value, p.per_defender) for p in result.parts}


def silent(result: DealResult) -> set[tuple[str, str, bool, int]]:
    """The silent bonuses as a set of ``(bonus, side, won, per_defender)``."""
    return {(s.bonus, s.side, s.won, s.per_defender) for s in result.silent}
