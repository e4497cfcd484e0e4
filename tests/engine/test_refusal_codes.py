"""Every refusal rule of ``ulti.engine.errors.RULES`` is produced here, with its code and its values.

Each case makes the engine refuse one action and checks the refusal's ``rule``, its ``params`` (the
``args`` a client words it from), that the message is the rule's English template worded with them,
and that the refused action changed nothing. The last tests check that no rule goes untested, and the
player-addressed wording of refused cards (``choices.refused`` / ``refused_rules`` / ``refused_args``).
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
from typing import Any, cast

import pytest

from tests.conftest import EXAMPLES
from ulti.engine import actions as act
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import Card, iter_cards, mask_of, parse_card, parse_suit
from ulti.engine.contracts import BIDS, BIDS_BY_CODE, TOP_RUNG, Bid, Part
from ulti.engine.deal import Deal, Phase
from ulti.engine.dealing import deal_hands
from ulti.engine.errors import CARD_HINTS, RULES, IllegalAction, RuleArg, word
from ulti.engine.match import Match
from ulti.engine.record import deal_from_record, four_match_from_record, match_from_record

S, U = Part.SIMPLE, Part.ULTI
SPADES, HEARTS, CLUBS = parse_suit("S"), parse_suit("H"), parse_suit("C")

# Dealer 2, so seat 0 (D) opens and declares. D holds every club; X and Y are void in clubs and hold
# trumps (spades), so that one lead of ♣A shows "trump" and "overtrump"; ♠K shows "beat".
D10 = "7C 8C 9C TC JC QC KC AC 7S AS"
X10 = "8S TS QS 7D 8D 9D TD JD QD KD"
Y10 = "9S JS KS AD 7H 8H 9H TH JH QH"
TALON = "KH AH"
D, X, Y = 0, 1, 2


def card(code: str) -> Card:
    """One card from its code."""
    return parse_card(code)


def mask(text: str) -> int:
    """The card mask of space-separated codes."""
    return mask_of(parse_card(c) for c in text.split())


def bid(code: str) -> Bid:
    """A bid from its record code."""
    return BIDS_BY_CODE[code]


DISCARD = (card("KH"), card("AH"))


def fresh() -> Deal:
    """The deal at its start: D holds 12 cards and must discard 2 and bid."""
    return Deal([mask(f"{D10} {TALON}"), mask(X10), mask(Y10)], 2)


def after_opening(code: str = "M-S") -> Deal:
    """D has bid ``code`` discarding ♥K ♥A; X is on turn."""
    deal = fresh()
    deal.apply(act.bid(D, bid(code), DISCARD))
    return deal


def at_trump() -> Deal:
    """D declares M-S and has not named trumps yet."""
    deal = after_opening()
    for seat in (X, Y, D):
        deal.apply(act.pass_(seat))
    assert deal.phase is Phase.TRUMP
    return deal


def at_play(code: str = "M-S") -> Deal:
    """D declares ``code`` with spades trumps; D is to lead trick 1."""
    deal = Deal.at_play([mask(D10), mask(X10), mask(Y10)], 2, D, bid(code), SPADES, mask(TALON))
    assert deal.phase is Phase.PLAY and deal.to_move == D
    return deal


def played(deal: Deal, *moves: tuple[int, str]) -> Deal:
    """``deal`` after the plays ``(seat, card code)``."""
    for seat, code in moves:
        deal.apply(act.play(seat, card(code)))
    return deal


def in_chain(parts: tuple[Part, ...] = (S,)) -> Deal:
    """M-SU: X says kontra on ``parts`` in trick 1, Y wins it (♠9 over ♠8): the chain is at rekontra."""
    deal = at_play("M-SU")
    played(deal, (D, "AC"))
    deal.apply(act.kontra(X, parts))
    played(deal, (X, "8S"), (Y, "9S"))
    assert deal.in_chain and deal.to_move == D and deal.leader == Y
    return deal


def at_szubkontra() -> Deal:
    """The chain after D's rekontra on the simple game: the defenders' szubkontra is due."""
    deal = in_chain((S, U))
    deal.apply(act.kontra(D, (S,)))
    return deal


def finished() -> Deal:
    """A deal over: D gave up M-S."""
    deal = at_trump()
    deal.apply(act.give_up(D))
    assert deal.is_over
    return deal


def snapshot(deal: Deal) -> list[Any]:
    """Everything a seat or a spectator sees, and the raw kontra state."""
    return [deal.view(s) for s in (None, 0, 1, 2)] + [dict(deal.levels), deal.chain_level, len(deal.history)]


def refuse(deal: Deal, action: Action) -> Callable[[], None]:
    """Apply ``action`` to ``deal`` (it must be refused), checking that nothing changed."""

    def run() -> None:
        before = snapshot(deal)
        try:
            deal.apply(action)
        finally:
            assert snapshot(deal) == before

    return run


TOP_BID = next(b for b in BIDS if b.rung == TOP_RUNG)


def tie_break_match() -> dict[str, Any]:
    """The example match record decided by a tie-break deal (13 deals)."""
    record: dict[str, Any] = json.loads((EXAMPLES / "match-tie-break.json").read_text())
    return record


def record_refusal(edit: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
    """Read the example match record after ``edit``: it must be refused."""

    def run() -> None:
        record = copy.deepcopy(tie_break_match())
        edit(record)
        match_from_record(record)

    return run


def _unfinished_second_deal(record: dict[str, Any]) -> None:
    record["deals"][1]["actions"] = record["deals"][1]["actions"][:5]


def _deal_after_the_decision(record: dict[str, Any]) -> None:
    record["deals"].append(copy.deepcopy(record["deals"][1]))


def _dealer_out_of_rotation(record: dict[str, Any]) -> None:
    record["deals"][1] = copy.deepcopy(record["deals"][0])


def _four_sitter_out_of_rotation() -> None:
    """The example table of four's record with deal 1 naming the wrong position sitting out."""
    record = json.loads((EXAMPLES / "match-four.json").read_text())
    record["deals"][1]["sits_out"] = 2 if record["deals"][1]["sits_out"] != 2 else 3
    four_match_from_record(record)


def _second_deal_while_first_unfinished() -> None:
    match = Match(6)
    match.new_deal(deal_hands(random.Random(1), match.dealer_of(0)))
    match.new_deal(deal_hands(random.Random(2), match.dealer_of(1)))


def _deal_after_decided_match() -> None:
    match = match_from_record(tie_break_match())
    assert match.is_over
    match.new_deal(deal_hands(random.Random(3), match.dealer_of(len(match.deals))))


# rule -> (what makes the engine refuse, the values the refusal must carry, the record prefixes)
CASES: dict[str, tuple[Callable[[], Any], dict[str, RuleArg], tuple[str, ...]]] = {
    "deal_over": (lambda: refuse(finished(), act.pass_(X))(), {}, ()),
    "play_needs_card": (lambda: refuse(at_play(), Action(D, Kind.PLAY))(), {}, ()),
    "bid_needs_bid": (lambda: refuse(fresh(), Action(D, Kind.BID))(), {}, ()),
    "trump_needs_suit": (lambda: refuse(at_trump(), Action(D, Kind.TRUMP))(), {}, ()),
    "unknown_action": (lambda: refuse(fresh(), Action(D, cast(Kind, "dance")))(), {"kind": "dance"}, ()),
    "auction_over": (lambda: refuse(at_play(), act.pass_(X))(), {"action": "pass"}, ()),
    "auction_turn": (lambda: refuse(fresh(), act.pass_(X))(), {"seat": X, "to_move": D}, ()),
    "discard_needed": (lambda: refuse(fresh(), act.bid(D, bid("M-S")))(), {"seat": D}, ()),
    "discard_twice": (
        lambda: refuse(fresh(), act.bid(D, bid("M-S"), (card("KH"), card("KH"))))(),
        {"seat": D, "card": "KH"},
        (),
    ),
    "discard_not_held": (
        lambda: refuse(fresh(), act.bid(D, bid("M-S"), (card("KH"), card("8S"))))(),
        {"seat": D, "card": "8S"},
        (),
    ),
    "discard_unexpected": (
        lambda: refuse(after_opening(), act.bid(X, bid("H-S"), (card("8S"), card("TS"))))(),
        {"seat": X},
        (),
    ),
    "bid_same_rung": (
        lambda: refuse(played_take(), act.bid(X, bid("M-S"), (card("8S"), card("TS"))))(),
        {"bid": "M-S", "standing": "M-S"},
        (),
    ),
    "bid_too_low": (
        lambda: refuse(after_opening("H-S"), act.bid(X, bid("M-S")))(),
        {"bid": "M-S", "rung": 1, "standing": "H-S", "standing_rung": 2},
        (),
    ),
    "opener_must_bid": (lambda: refuse(fresh(), act.pass_(D))(), {"seat": D}, ()),
    "taker_must_bid": (lambda: refuse(played_take(), act.pass_(X))(), {"seat": X}, ()),
    "take_while_obliged": (lambda: refuse(fresh(), act.take(D))(), {"seat": D}, ()),
    "take_above_top": (lambda: refuse(after_opening(TOP_BID.code), act.take(X))(), {"bid": TOP_BID.code}, ()),
    "trump_not_now": (lambda: refuse(at_play(), act.trump(D, CLUBS))(), {}, ()),
    "trump_not_declarer": (lambda: refuse(at_trump(), act.trump(X, CLUBS))(), {"seat": X, "declarer": D}, ()),
    "trump_minor_only": (lambda: refuse(at_trump(), act.trump(D, HEARTS))(), {"suit": "H"}, ()),
    "give_up_not_allowed": (lambda: refuse(at_play(), act.give_up(D))(), {}, ()),
    "give_up_not_declarer": (lambda: refuse(at_trump(), act.give_up(X))(), {"seat": X, "declarer": D}, ()),
    "kontra_not_in_play": (lambda: refuse(fresh(), act.kontra(D, (S,)))(), {}, ()),
    "kontra_part_twice": (lambda: refuse(played(at_play(), (D, "AC")), act.kontra(X, (S, S)))(), {}, ()),
    "kontra_no_part": (
        lambda: refuse(played(at_play(), (D, "AC")), act.kontra(X, (U,)))(),
        {"bid": "M-S", "part": "ulti"},
        (),
    ),
    "kontra_declined": (
        lambda: refuse(szubkontra_declined(), act.kontra(X, (S,)))(),
        {"seat": X, "step": "szubkontra"},
        (),
    ),
    "kontra_declarers_step": (lambda: refuse(in_chain(), act.kontra(X, (S,)))(), {"step": "rekontra"}, ()),
    "kontra_defenders_step": (lambda: refuse(at_szubkontra(), act.kontra(D, (S,)))(), {"step": "szubkontra"}, ()),
    "kontra_declarer_first": (lambda: refuse(at_play(), act.kontra(D, (S,)))(), {}, ()),
    "kontra_not_now": (lambda: refuse(at_play(), act.kontra(X, (S,)))(), {}, ()),
    "kontra_not_your_card": (lambda: refuse(played(at_play(), (D, "AC")), act.kontra(Y, (S,)))(), {"seat": Y}, ()),
    "kontra_all_doubled": (lambda: refuse(simple_doubled(), act.kontra(Y, (S,)))(), {}, ()),
    "kontra_raise_only": (
        lambda: refuse(at_szubkontra(), act.kontra(X, (U,)))(),
        {"step": "szubkontra", "parts": ["simple"]},
        (),
    ),
    "kontra_doubled": (lambda: refuse(ulti_game_simple_doubled(), act.kontra(Y, (S,)))(), {"part": "simple"}, ()),
    "play_not_now": (lambda: refuse(fresh(), act.play(D, card("AC")))(), {"phase": "auction"}, ()),
    "chain_lead": (lambda: refuse(in_chain(), act.play(D, card("KC")))(), {"seat": D, "leader": Y}, ()),
    "play_turn": (lambda: refuse(at_play(), act.play(X, card("8S")))(), {"seat": X, "to_move": D}, ()),
    "card_not_held": (lambda: refuse(at_play(), act.play(D, card("8S")))(), {"seat": D, "card": "8S"}, ()),
    "follow": (
        lambda: refuse(played(at_play(), (D, "AS")), act.play(X, card("7D")))(),
        {"seat": X, "suit": "S", "held": ["8S", "TS", "QS"]},
        (),
    ),
    "beat": (  # ♠7 led, X's ♠Q on it: Y holds the ♠K above it, so not the ♠9
        lambda: refuse(played(at_play(), (D, "7S"), (X, "QS")), act.play(Y, card("9S")))(),
        {"seat": Y, "card": "QS", "held": ["KS"]},
        (),
    ),
    "trump": (
        lambda: refuse(played(at_play(), (D, "AC")), act.play(X, card("7D")))(),
        {"seat": X, "held": ["8S", "TS", "QS"]},
        (),
    ),
    "overtrump": (
        lambda: refuse(played(at_play(), (D, "AC"), (X, "QS")), act.play(Y, card("9S")))(),
        {"seat": Y, "card": "QS", "held": ["KS"]},
        (),
    ),
    "ulti_seven": (lambda: refuse(at_play("M-SU"), act.play(D, card("7S")))(), {"seat": D}, ()),
    "deal_unfinished": (_second_deal_while_first_unfinished, {"deal": 0}, ()),
    "match_decided": (_deal_after_decided_match, {}, ()),
    "follows_unfinished": (record_refusal(_unfinished_second_deal), {"deal": 1}, ("deal 2",)),
    "decided_by": (record_refusal(_deal_after_the_decision), {"deal": 12}, ("deal 13",)),
    "dealer_rotation": (record_refusal(_dealer_out_of_rotation), {"dealer": 0, "want": 1}, ("deal 1",)),
    "sits_out_rotation": (_four_sitter_out_of_rotation, {"sits_out": "2", "position": 0}, ("deal 1",)),
}


def played_take() -> Deal:
    """After D's M-S, X took the talon: X holds 12 cards and must discard 2 and bid."""
    deal = after_opening()
    deal.apply(act.take(X))
    return deal


def szubkontra_declined() -> Deal:
    """At szubkontra, X declined; Y may still speak."""
    deal = at_szubkontra()
    deal.apply(act.kontra(X, ()))
    assert deal.to_move == Y
    return deal


def simple_doubled() -> Deal:
    """M-S: X doubled the simple game in trick 1 and played; Y is on turn with nothing left to double."""
    deal = played(at_play(), (D, "AC"))
    deal.apply(act.kontra(X, (S,)))
    return played(deal, (X, "8S"))


def ulti_game_simple_doubled() -> Deal:
    """M-SU: X doubled only the simple game in trick 1 and played; Y may still double the ulti."""
    deal = played(at_play("M-SU"), (D, "AC"))
    deal.apply(act.kontra(X, (S,)))
    return played(deal, (X, "8S"))


@pytest.mark.parametrize("rule", list(CASES))
def test_refusal_carries_its_rule_code_and_values(rule: str) -> None:
    make, params, where = CASES[rule]
    with pytest.raises(IllegalAction) as info:
        make()
    exc = info.value
    assert exc.rule == rule
    assert exc.params == params
    assert exc.where == where
    text = word(RULES[rule], exc.params)
    assert str(exc) == exc.message == ": ".join((*where, text))
    # a refusal crosses process boundaries whole (strong bots think in another process)
    again = pickle.loads(pickle.dumps(exc))
    assert (again.rule, again.params, again.where, str(again)) == (exc.rule, exc.params, exc.where, str(exc))


def test_every_rule_code_is_produced_by_a_test() -> None:
    assert set(CASES) == set(RULES)
    assert set(CARD_HINTS) <= set(RULES)


def test_rule_codes_are_stable_snake_case_and_templates_name_only_their_values() -> None:
    for rule, template in RULES.items():
        assert rule.replace("_", "").isalpha() and rule == rule.lower(), rule
        if rule in CASES:
            word(template, CASES[rule][1])  # every field of the template is among the case's values


def test_card_refusals_keep_the_record_wording() -> None:
    # the example records word these refusals so (tests/data/examples/refused-*.txt)
    with pytest.raises(IllegalAction) as info:
        CASES["beat"][0]()
    assert str(info.value) == "seat 2 must beat QS (holds KS)"
    with pytest.raises(IllegalAction) as info:
        CASES["follow"][0]()
    assert str(info.value) == "seat 1 must follow suit (holds spades: 8S TS QS)"


def test_unknown_rule_codes_are_a_bug() -> None:
    with pytest.raises(KeyError):
        IllegalAction("no_such_rule")


def test_a_refusal_inside_a_match_record_names_deal_and_action() -> None:
    record = copy.deepcopy(tie_break_match())
    deal = deal_from_record({**record["deals"][3], "actions": record["deals"][3]["actions"][:2]})
    assert deal.phase is Phase.AUCTION and deal.to_move is not None
    wrong = (deal.to_move + 1) % 3
    record["deals"][3]["actions"][2] = {"seat": wrong, "action": "pass"}
    with pytest.raises(IllegalAction) as info:
        match_from_record(record)
    exc = info.value
    assert (exc.rule, exc.params) == ("auction_turn", {"seat": wrong, "to_move": deal.to_move})
    assert exc.where == ("deal 3", "action 2")
    assert str(exc) == f"deal 3: action 2: it is seat {deal.to_move}'s turn in the auction, not seat {wrong}'s"


# ---------------------------------------------------------------------------- refused cards in choices


def hint(deal: Deal, seat: int, code: str) -> tuple[str, dict[str, RuleArg], str]:
    """The rule, values and English words ``choices`` gives for ``seat``'s refused card ``code``."""
    ch = deal.choices(seat)
    c = card(code)
    as_json = ch.to_json()
    assert as_json["refused_rules"][code] == ch.refused_rules[c]
    assert as_json["refused_args"][code] == ch.refused_args[c]
    assert as_json["refused"][code] == ch.refused[c] == word(CARD_HINTS[ch.refused_rules[c]], ch.refused_args[c])
    return ch.refused_rules[c], ch.refused_args[c], ch.refused[c]


def test_refused_cards_carry_the_rule_code_and_values_of_the_refusal() -> None:
    assert hint(played(at_play(), (D, "AS")), X, "7D") == ("follow", {"suit": "S"}, "you must follow suit (spades)")
    assert hint(played(at_play(), (D, "7S"), (X, "QS")), Y, "9S") == ("beat", {"card": "QS"}, "you must beat the ♠Q")
    assert hint(played(at_play(), (D, "AC")), X, "7D") == ("trump", {}, "you must play a trump")
    assert hint(played(at_play(), (D, "AC"), (X, "QS")), Y, "9S") == (
        "overtrump",
        {"card": "QS"},
        "you must overtrump the ♠Q",
    )
    assert hint(at_play("M-SU"), D, "7S") == ("ulti_seven", {}, "the trump 7 stays until the last trick")


def test_every_refused_card_is_refused_by_its_rule_when_played() -> None:
    # the rule a card shows before it is played is the rule that refuses it when it is played
    for deal, seat in (
        (played(at_play(), (D, "AS")), X),
        (played(at_play(), (D, "7S"), (X, "QS")), Y),
        (played(at_play(), (D, "AC")), X),
        (played(at_play(), (D, "AC"), (X, "QS")), Y),
        (at_play("M-SU"), D),
    ):
        ch = deal.choices(seat)
        assert ch.refused_rules
        for c in iter_cards(deal.hands[seat] & ~ch.cards):
            with pytest.raises(IllegalAction) as info:
                refuse(deal, act.play(seat, c))()
            assert info.value.rule == ch.refused_rules[c]
