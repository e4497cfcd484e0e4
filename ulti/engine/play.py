"""Trick rules on bitmasks (docs/rules.md §3): legal cards, the rule refusing each other card, winners.

The functions here take plain ints so that the deal, the bots and the solver share one
implementation of "follow, trump, beat" and of the ulti trump-7 rule.
"""

from __future__ import annotations

from enum import StrEnum

from ulti.engine.cards import (
    HIGHER_PLAIN_ORDER,
    HIGHER_TRUMP_ORDER,
    SEVEN,
    SUIT_LETTERS,
    SUIT_MASKS,
    Card,
    CardSet,
    card_str,
    iter_cards,
)
from ulti.engine.errors import CARD_HINTS, RuleArg, rule_args_json, word

NO_TRUMP = -1
"""The ``trump`` value of a no-trump contract."""

TRICKS_PER_DEAL = 10
"""Tricks in a deal played out (docs/rules.md §3; a no-trump contract may end earlier, §3.6)."""


def higher_table(trump: int) -> tuple[CardSet, ...]:
    """The "cards that beat this one within its suit" table for a contract with ``trump``."""
    return HIGHER_PLAIN_ORDER if trump == NO_TRUMP else HIGHER_TRUMP_ORDER


def beats(card: Card, top: Card, trump: int) -> bool:
    """Whether ``card`` played now would take the trick from ``top``, the card winning so far."""
    if card >> 3 == top >> 3:
        return bool(higher_table(trump)[top] >> card & 1)
    return card >> 3 == trump


def legal_cards(hand: CardSet, led: int, top: Card, trump: int, held_seven: Card) -> CardSet:
    """The cards of ``hand`` that may be played now.

    ``led`` is the suit led (-1 when leading), ``top`` the card winning the trick so far,
    ``trump`` the trump suit or ``NO_TRUMP``, and ``held_seven`` the trump 7 when the seat is an
    ulti declarer (§3.4), else -1.
    """
    if led < 0:
        legal = hand
    else:
        follow = hand & SUIT_MASKS[led]
        if follow:
            if top >> 3 == led:
                higher = follow & (HIGHER_PLAIN_ORDER if trump < 0 else HIGHER_TRUMP_ORDER)[top]
                legal = higher or follow
            else:  # a trump on a non-trump lead: no card of the led suit can beat it
                legal = follow
        elif trump >= 0 and hand & SUIT_MASKS[trump]:
            trumps = hand & SUIT_MASKS[trump]
            legal = trumps & HIGHER_TRUMP_ORDER[top] or trumps if top >> 3 == trump else trumps
        else:
            legal = hand
    if held_seven >= 0:
        seven_bit = 1 << held_seven
        if legal & seven_bit and legal != seven_bit:
            legal ^= seven_bit
    return legal


class Refusal(StrEnum):
    """Which rule of §3.3/§3.4 forbids a card; the values are the rule codes of ``errors.RULES``."""

    FOLLOW = "follow"
    BEAT = "beat"
    TRUMP = "trump"
    OVERTRUMP = "overtrump"
    ULTI_SEVEN = "ulti_seven"


def refusal_of(
    card: Card, hand: CardSet, led: int, top: Card, trump: int, held_seven: Card
) -> Refusal | None:
    """The rule that forbids playing ``card`` from ``hand`` now, or None if it is legal (``refusal_groups``)."""
    for refusal, cards in refusal_groups(hand, led, top, trump, held_seven):
        if cards >> card & 1:
            return refusal
    return None


def refusal_args(refusal: Refusal, led: int, top: Card) -> dict[str, RuleArg]:
    """The values ``CARD_HINTS[refusal]`` names: the led suit to follow, or the card to beat."""
    if refusal is Refusal.FOLLOW:
        return {"suit": SUIT_LETTERS[led]}
    if refusal is Refusal.BEAT or refusal is Refusal.OVERTRUMP:
        return {"card": card_str(top)}
    return {}


#: ``refusal_wording``'s answers, by (refusal, led suit, card to beat): a few hundred at most
_WORDINGS: dict[tuple[Refusal, int, Card], tuple[str, str, dict[str, RuleArg]]] = {}


def refusal_wording(refusal: Refusal, led: int, top: Card) -> tuple[str, str, dict[str, RuleArg]]:
    """The rule code of ``refusal``, its reason in words and its values (``refusal_args``) as the wire has
    them, the same objects for the same position (read them, never change them)."""
    key = (refusal, led, top)
    wording = _WORDINGS.get(key)
    if wording is None:
        args = refusal_args(refusal, led, top)
        wording = _WORDINGS[key] = (refusal.value, word(CARD_HINTS[refusal.value], args), rule_args_json(args))
    return wording


def describe_refusal(refusal: Refusal, led: int, top: Card) -> str:
    """The reason for a refused card, in words for the player holding it (``CARD_HINTS``)."""
    return word(CARD_HINTS[refusal.value], refusal_args(refusal, led, top))


def refusal_groups(
    hand: CardSet, led: int, top: Card, trump: int, held_seven: Card
) -> list[tuple[Refusal, CardSet]]:
    """The cards of ``hand`` that may not be played now, grouped by the rule that forbids them (each group
    non-empty, each card in one), as sets of cards: the seat on turn's choices carry every refused card's
    reason after every card played (the views), and one rule refuses most of them ("follow ♠" for every
    other suit)."""
    refused = hand & ~legal_cards(hand, led, top, trump, held_seven)
    if not refused:
        return []
    groups: list[tuple[Refusal, CardSet]] = []
    # legal but for the ulti declarer's held-back trump 7 (§3.4)
    seven = refused & legal_cards(hand, led, top, trump, -1)
    if seven:
        groups.append((Refusal.ULTI_SEVEN, seven))
        refused &= ~seven
    if not refused:
        return groups  # leading (led < 0), every card but the seven is legal
    follow = hand & SUIT_MASKS[led]
    if follow:  # the led suit is held: its refused cards do not beat, the others do not follow
        pairs = ((Refusal.BEAT, refused & follow), (Refusal.FOLLOW, refused & ~follow))
    else:  # void in the led suit, holding trumps (else every card would be legal)
        trumps = hand & SUIT_MASKS[trump]
        pairs = ((Refusal.OVERTRUMP, refused & trumps), (Refusal.TRUMP, refused & ~trumps))
    groups.extend((refusal, cards) for refusal, cards in pairs if cards)
    return groups


def refusals(
    hand: CardSet, led: int, top: Card, trump: int, held_seven: Card
) -> dict[Card, tuple[Refusal, dict[str, RuleArg]]]:
    """For each card of ``hand`` that may not be played now, the rule that forbids it and its values."""
    out: dict[Card, tuple[Refusal, dict[str, RuleArg]]] = {}
    for refusal, cards in refusal_groups(hand, led, top, trump, held_seven):
        for card in iter_cards(cards):
            out[card] = (refusal, refusal_args(refusal, led, top))
    return out


def refusal_reasons(
    hand: CardSet, led: int, top: Card, trump: int, held_seven: Card
) -> dict[Card, str]:
    """For each card of ``hand`` that may not be played now, the rule that forbids it, in words."""
    return {
        card: word(CARD_HINTS[refusal.value], args)
        for card, (refusal, args) in refusals(hand, led, top, trump, held_seven).items()
    }


def trick_winner_index(cards: list[Card], trump: int) -> int:
    """Index in ``cards`` (in play order, 1 to 3 cards) of the card winning the trick so far."""
    best = 0
    top = cards[0]
    table = higher_table(trump)
    for i in range(1, len(cards)):
        card = cards[i]
        if card >> 3 == top >> 3:
            if table[top] >> card & 1:
                best, top = i, card
        elif card >> 3 == trump:
            best, top = i, card
    return best


def seven_of(trump: int) -> Card:
    """The trump 7 of ``trump`` (-1 in a no-trump contract)."""
    return trump * 8 + SEVEN if trump >= 0 else -1
