"""One exception family for the engine, and the one registry of the rules that refuse an action.

``RecordError`` means the input could not be parsed (bad JSON shape, unknown card or bid code);
``IllegalAction`` means the input was understood but the rules forbid it now. Both carry a message
written for a player, naming the rule or the field.

An ``IllegalAction`` also carries a stable rule code (``rule``, a key of ``RULES``) and the values
its wording needs (``params``, JSON values: seat numbers, card / bid / suit codes, part and kontra
step names). The English message is worded here, once, from the rule's template; every other
language words the refusal from the code and the values (the page: ``web/js/i18n/`` dictionaries).
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter
from typing import Any

#: A value a refusal names: a seat or rung number, a code or name, or a list of codes or names.
RuleArg = int | str | list[str]


def rule_args_json(values: Mapping[str, RuleArg]) -> dict[str, RuleArg]:
    """A rule's ``values`` as the wire carries them (a ``refused_args`` entry): a copy, its lists copied too."""
    return {k: list(v) if isinstance(v, list | tuple) else v for k, v in values.items()}

#: Every rule that refuses an action: its code, and its English wording with ``{name}`` fields for
#: its arguments. ``{x:label}`` words a card code as a label ("KS" -> "♠K"), ``{x:name}`` a suit
#: letter as its English name, ``{x:cards}`` a list of card codes (space-separated) and ``{x:list}``
#: a list of names (comma-separated). The codes are part of the protocol (docs/protocol/errors.md §16.1):
#: never rename one; a new rule gets a new code.
RULES: dict[str, str] = {
    # any time
    "deal_over": "the deal is over",
    "play_needs_card": "a play names a card",
    "bid_needs_bid": "a bid names one of the 38 bids",
    "trump_needs_suit": "naming trumps needs a suit",
    "unknown_action": "unknown action {kind}",
    # the auction (docs/rules.md §2)
    "auction_over": "the auction is over: no {action} now",
    "auction_turn": "it is seat {to_move}'s turn in the auction, not seat {seat}'s",
    "discard_needed": "seat {seat} holds 12 cards and must discard 2 with the bid",
    "discard_twice": "seat {seat} must discard two different cards, not {card} twice",
    "discard_not_held": "seat {seat} cannot discard {card}: not in hand",
    "discard_unexpected": "seat {seat} holds 10 cards: a bid without the talon discards nothing",
    "bid_same_rung": "{bid} is on the same rung as the standing bid {standing}",
    "bid_too_low": "{bid} (rung {rung}) is below the standing bid {standing} (rung {standing_rung})",
    "opener_must_bid": "seat {seat} cannot pass: the opener must discard 2 and bid",
    "taker_must_bid": "seat {seat} cannot pass: took the talon and must discard 2 and bid",
    "take_while_obliged": "seat {seat} already holds 12 cards and must discard 2 and bid",
    "take_above_top": "no bid ranks above {bid}: the talon cannot be taken",
    # trumps and giving up (§2.5, §5)
    "trump_not_now": "trumps are named only by the declarer of a minor-suit bid, after the auction",
    "trump_not_declarer": "only the declarer (seat {declarer}) names trumps",
    "trump_minor_only": "a minor-suit bid takes clubs, spades or diamonds as trumps, not {suit:name}",
    "give_up_not_allowed": "only the declarer of a plain minor Simple game (M-S) may give up, before naming trumps",
    "give_up_not_declarer": "only the declarer (seat {declarer}) may give up",
    # kontra (§6)
    "kontra_not_in_play": "kontra is said during the play: before a defender's card in trick 1, or after trick 1",
    "kontra_part_twice": "kontra names each part at most once",
    "kontra_no_part": "{bid} has no {part} part",
    "kontra_declined": "seat {seat} has already declined {step}",
    "kontra_declarers_step": "{step} is said by the declarer",
    "kontra_defenders_step": "{step} is said by a defender",
    "kontra_declarer_first": "the declarer says no kontra before trick 1 (rekontra comes after trick 1)",
    "kontra_not_now": "kontra is said just before the defender's own card in trick 1",
    "kontra_not_your_card": "seat {seat} may say kontra only just before its own card in trick 1",
    "kontra_all_doubled": "every part is already doubled",
    "kontra_raise_only": "{step} may raise only what the previous step raised ({parts:list})",
    "kontra_doubled": "{part} is already doubled",
    # the play (§3)
    "play_not_now": "no card is played in the {phase} phase",
    "chain_lead": "it is seat {leader}'s lead to trick 2 (or a kontra step), not seat {seat}'s",
    "play_turn": "it is seat {to_move}'s turn to play, not seat {seat}'s",
    "card_not_held": "seat {seat} does not hold {card}",
    "follow": "seat {seat} must follow suit (holds {suit:name}: {held:cards})",
    "beat": "seat {seat} must beat {card} (holds {held:cards})",
    "trump": "seat {seat} must trump (holds {held:cards})",
    "overtrump": "seat {seat} must overtrump {card} (holds {held:cards})",
    "ulti_seven": "seat {seat} the ulti declarer must hold back the trump 7 while another legal card exists",
    # the match (§7) and match records (docs/record.md)
    "deal_unfinished": "deal {deal} is not finished",
    "match_decided": "the match is decided: no more deals",
    "follows_unfinished": "it follows deal {deal}, which is not finished",
    "decided_by": "the match was decided by deal {deal}",
    "dealer_rotation": "dealer is seat {dealer}, but the rotation gives seat {want}",
    "sits_out_rotation": "sits_out is {sits_out}, but at a table of four the rotation gives position {position}",
}

#: The card rules worded for the player holding the card, before it is played (``choices.refused``).
#: Their arguments (``choices.refused_args``) are fewer: the led suit, or the card to beat.
CARD_HINTS: dict[str, str] = {
    "follow": "you must follow suit ({suit:name})",
    "beat": "you must beat the {card:label}",
    "trump": "you must play a trump",
    "overtrump": "you must overtrump the {card:label}",
    "ulti_seven": "the trump 7 stays until the last trick",
}


class _Wording(Formatter):
    """``str.format`` with the ``label``, ``name``, ``cards`` and ``list`` conversions of ``RULES``."""

    def format_field(self, value: Any, format_spec: str) -> str:
        from ulti.engine.cards import SUIT_LETTERS, SUIT_NAMES_EN, card_label, parse_card

        if format_spec == "label":
            return card_label(parse_card(value))
        if format_spec == "name":
            return SUIT_NAMES_EN[SUIT_LETTERS.index(value)]
        if format_spec == "cards":
            return " ".join(value)
        if format_spec == "list":
            return ", ".join(value)
        return str(format(value, format_spec))


_WORDING = _Wording()


def word(template: str, params: dict[str, RuleArg]) -> str:
    """``template`` (from ``RULES`` or ``CARD_HINTS``) with its fields filled from ``params``.

    >>> word("you must beat the {card:label}", {"card": "KS"})
    'you must beat the ♠K'
    """
    # Remembered: ``Deal.choices`` words a hint for every refused card of every position, and the
    # same few (rule, card) pairs come back all the time; ``Formatter`` costs microseconds a call.
    key = (template, *((name, tuple(v) if isinstance(v, list) else v) for name, v in sorted(params.items())))
    text = _WORDED.get(key)
    if text is None:
        if len(_WORDED) >= _WORDED_MAX:
            _WORDED.clear()
        text = _WORDED[key] = _WORDING.vformat(template, (), params)
    return text


_WORDED: dict[tuple[object, ...], str] = {}
_WORDED_MAX = 4096


class UltiError(Exception):
    """Base class of every error the engine raises on purpose."""

    def within(self, where: str) -> UltiError:
        """The same error, its message prefixed with ``where`` ("action 14: ..."), for records."""
        return type(self)(f"{where}: {self}")


class IllegalAction(UltiError):
    """An action the rules do not allow in the current state. The state is left unchanged.

    ``IllegalAction("beat", seat=1, card="KS", held=["AS"])``: ``rule`` is a key of ``RULES``,
    ``params`` the values of its template (on the wire: ``args``), and the message is the template
    worded with them, after any ``where`` prefixes a record reader added.
    """

    def __init__(self, rule: str, /, **params: RuleArg) -> None:
        """The refusal by ``rule`` (a ``RULES`` code) with the values its wording names."""
        if rule not in RULES:
            raise KeyError(f"no refusal rule {rule!r} in ulti.engine.errors.RULES")
        self.rule = rule
        self.params = params
        self.where: tuple[str, ...] = ()
        self.message = word(RULES[rule], params)
        super().__init__(self.message)

    def within(self, where: str) -> IllegalAction:
        """The same refusal (same rule and values), its message prefixed with ``where``."""
        other = IllegalAction(self.rule, **self.params)
        other.where = (where, *self.where)
        other.message = f"{where}: {self.message}"
        other.args = (other.message,)
        return other

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.rule, self.params, self.where))


def _rebuild(rule: str, params: dict[str, RuleArg], where: tuple[str, ...]) -> IllegalAction:
    exc = IllegalAction(rule, **params)
    for prefix in reversed(where):
        exc = exc.within(prefix)
    return exc


class RecordError(UltiError):
    """Input that cannot be understood: a malformed record, card code, bid code or field."""
