"""What one seat may do now (``Deal.choices(seat)``), and its frozen form in a view (``SeatChoices``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ulti.engine.cards import Card, CardSet
from ulti.engine.contracts import Bid, Part
from ulti.engine.errors import CARD_HINTS, RuleArg, rule_args_json, word
from ulti.engine.play import Refusal
from ulti.engine.view import CARD_CODES, ArgValue, KontraOffer, RefusedCard, SeatChoices, choices_json

#: The suits a trump contract may name (hearts only by a hearts bid, which names it itself).
MINOR_SUITS = (0, 1, 2)


@dataclass
class Choices:
    """What one seat may do now. Empty (``any()`` false) when it may do nothing."""

    seat: int
    may_pass: bool = False
    may_take: bool = False
    bids: list[Bid] = field(default_factory=list)
    must_discard: bool = False
    trumps: list[int] = field(default_factory=list)
    may_give_up: bool = False
    kontra_parts: list[Part] = field(default_factory=list)
    kontra_step: str = ""
    cards: CardSet = 0
    #: for each refused card, which rule refuses it (a code of ``errors.CARD_HINTS``) and the values
    #: its wording names, for clients that word it themselves
    refused_rules: dict[Card, str] = field(default_factory=dict)
    refused_args: dict[Card, dict[str, RuleArg]] = field(default_factory=dict)

    @property
    def refused(self) -> dict[Card, str]:
        """Why each refused card may not be played, in English (worded on demand: most callers,
        the bots and the random players among them, only need ``cards``)."""
        args = self.refused_args
        return {card: word(CARD_HINTS[rule], args[card]) for card, rule in self.refused_rules.items()}

    def any(self) -> bool:
        """Whether the seat has anything to do."""
        return bool(
            self.may_pass or self.may_take or self.bids or self.trumps or self.may_give_up
            or self.kontra_step or self.cards
        )

    def freeze(self) -> SeatChoices:
        """The choices as a view holds them (immutable)."""
        return SeatChoices(
            self.may_pass,
            self.may_take,
            tuple(self.bids),
            self.must_discard,
            tuple(self.trumps),
            self.may_give_up,
            KontraOffer(self.kontra_step, tuple(self.kontra_parts)) if self.kontra_step else None,
            self.cards,
            self._refused_cards(),
        )

    def _refused_cards(self) -> tuple[RefusedCard, ...]:
        # Most refused cards share their reason ("follow ♠" for every other suit): word and freeze
        # each (rule, values) once. Views are built for every watcher after every action.
        args = self.refused_args
        shared: dict[tuple[str, tuple[object, ...]], tuple[str, Refusal, tuple[tuple[str, ArgValue], ...]]] = {}
        out = []
        for card, rule in self.refused_rules.items():
            values = args[card]
            key = (rule, tuple(values.values()))
            made = shared.get(key)
            if made is None:
                made = shared[key] = (word(CARD_HINTS[rule], values), Refusal(rule), RefusedCard.freeze_args(values))
            out.append(RefusedCard(card, *made))
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        """The choices as plain JSON values (card and bid codes): a view's ``choices``, ``freeze().to_json()``
        built straight from these (the seat on turn's view is built after every action)."""
        refused: dict[str, str] = {}
        refused_rules: dict[str, str] = {}
        refused_args: dict[str, dict[str, RuleArg]] = {}
        # ``Deal.choices`` gives the cards one rule refuses one dict of values: each (rule, values) is
        # worded once (by identity: equal values held apart are only worded again, to the same words)
        worded: dict[tuple[str, int], tuple[str, dict[str, RuleArg]]] = {}
        args = self.refused_args
        for card, rule in self.refused_rules.items():
            values = args[card]
            key = (rule, id(values))
            made = worded.get(key)
            if made is None:
                made = worded[key] = (word(CARD_HINTS[rule], values), rule_args_json(values))
            code = CARD_CODES[card]
            refused[code], refused_args[code] = made
            refused_rules[code] = rule
        step = self.kontra_step
        return choices_json(
            self.may_pass, self.may_take, [b.code for b in self.bids], self.must_discard, self.trumps,
            self.may_give_up,
            (step, self.kontra_parts) if step else None, self.cards, refused, refused_rules, refused_args,
        )
