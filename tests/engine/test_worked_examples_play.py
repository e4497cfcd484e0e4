"""docs/rules.md §8.2: the card-play examples P-1..P-12 (♠ trumps unless stated).

``legal_cards(hand, led, top, trump, held_seven)``: ``led`` is the suit of the first card (-1 when
leading), ``top`` the card winning the trick so far, ``held_seven`` the ulti declarer's trump 7.
"""

from __future__ import annotations

from ulti.engine import actions as act
from ulti.engine.cards import Card, CardSet, format_cards, mask_of, parse_card, parse_suit
from ulti.engine.contracts import BIDS_BY_CODE
from ulti.engine.deal import Deal, Phase
from ulti.engine.play import NO_TRUMP, legal_cards, refusal_reasons

SPADES = parse_suit("S")
SEVEN_OF_SPADES = parse_card("7S")
MUST_TRUMP = "you must play a trump"
ULTI_SEVEN = "the trump 7 stays until the last trick"


def cards(text: str) -> list[Card]:
    """Card ints from codes such as ``"AS KS 7H"``."""
    return [parse_card(code) for code in text.split()]


def mask(text: str) -> CardSet:
    """The card mask of ``text``."""
    return mask_of(cards(text))


def card(code: str) -> Card:
    """One card."""
    return parse_card(code)


def legal(hand: str, led: str | None, top: str | None, trump: int = SPADES, seven: Card = -1) -> str:
    """The legal cards of ``hand`` as codes; ``led`` is a suit letter, ``top`` a card code."""
    led_suit = parse_suit(led) if led else -1
    top_card = card(top) if top else -1
    return format_cards(legal_cards(mask(hand), led_suit, top_card, trump, seven))


def reasons(hand: str, led: str | None, top: str | None, trump: int = SPADES, seven: Card = -1) -> dict[str, str]:
    """The refused cards of ``hand`` with the reason for each, keyed by code."""
    led_suit = parse_suit(led) if led else -1
    top_card = card(top) if top else -1
    got = refusal_reasons(mask(hand), led_suit, top_card, trump, seven)
    return {format_cards(1 << c): why for c, why in got.items()}


def test_P1_void_in_led_suit_must_overtrump() -> None:
    # ♥8 led, then ♠K played
    assert legal("9S AS 7D", "H", "KS") == "AS"
    assert reasons("9S AS 7D", "H", "KS") == {"9S": "you must overtrump the ♠K", "7D": MUST_TRUMP}


def test_P2_cannot_overtrump_still_must_trump() -> None:
    assert legal("9S 8S 7D", "H", "KS") == "8S 9S"
    assert reasons("9S 8S 7D", "H", "KS") == {"7D": MUST_TRUMP}


def test_P3_must_follow_when_a_trump_is_on_top() -> None:
    # ♥8 led, then ♠7: no heart beats a trump, so any heart
    assert legal("AH 9H", "H", "7S") == "9H AH"
    assert reasons("AH 9H", "H", "7S") == {}
    # and a trump is not allowed while the seat can follow
    assert reasons("AH 9H AS", "H", "7S") == {"AS": "you must follow suit (hearts)"}


def test_P4_ten_beats_king_in_trump_contracts() -> None:
    assert legal("AH TH 7H", "H", "KH") == "TH AH"
    assert reasons("AH TH 7H", "H", "KH") == {"7H": "you must beat the ♥K"}


def test_P5_ten_ranks_below_jack_without_trumps() -> None:
    assert legal("AH TH 7H", "H", "KH", NO_TRUMP) == "AH"
    assert reasons("AH TH 7H", "H", "KH", NO_TRUMP) == {"7H": "you must beat the ♥K", "TH": "you must beat the ♥K"}


def test_P6_must_beat_the_partners_card() -> None:
    # Y leads ♣9, D plays ♣8; X to play
    assert legal("KC 7C", "C", "9C") == "KC"
    assert reasons("KC 7C", "C", "9C") == {"7C": "you must beat the ♣9"}

    # the same on a real deal: D = seat 0, X = seat 1, Y = seat 2; Y wins trick 1, then leads ♣9
    hands = [
        mask("7D 8C 7S 8S 9S JS QS KS TS AS"),
        mask("KC 7C 8D 7H 8H 9H TH JH QH KH"),
        mask("9C AD TC JC QC AC 9D TD JD QD"),
    ]
    deal = Deal.at_play(hands, 2, 0, BIDS_BY_CODE["M-S"], SPADES, mask("KD AH"))
    for seat, code in ((0, "7D"), (1, "8D"), (2, "AD"), (2, "9C"), (0, "8C")):
        deal.apply(act.play(seat, card(code)))
    assert deal.tricks[0].winner == 2
    ch = deal.choices(1)
    assert format_cards(ch.cards) == "KC"
    assert ch.refused[card("7C")] == "you must beat the ♣9"
    assert set(ch.refused) == set(cards("7C 7H 8H 9H TH JH QH KH"))


def test_P7_betli_must_beat_and_the_deal_ends_when_the_declarer_wins_a_trick() -> None:
    # Y leads ♦Q; D to play
    assert legal("KD 8D 7C", "D", "QD", NO_TRUMP) == "KD"
    assert reasons("KD 8D 7C", "D", "QD", NO_TRUMP) == {
        "8D": "you must beat the ♦Q",
        "7C": "you must follow suit (diamonds)",
    }

    # a real betli: D = seat 0, X = seat 1, Y = seat 2. Y wins trick 1 and leads ♦Q.
    hands = [
        mask("KD 8D 7C 8C 7S 8S 9S 7H 8H 9H"),
        mask("TS 9D 7D 9C TC JC TH JH QH KH"),
        mask("AS QD JS QS KS AD TD JD QC KC"),
    ]
    talon = mask("AC AH")
    deal = Deal.at_play(hands, 2, 0, BIDS_BY_CODE["N-B"], NO_TRUMP, talon)
    assert deal.trump == NO_TRUMP
    deal.apply(act.play(0, card("7S")))
    deal.apply(act.play(1, card("TS")))
    deal.apply(act.play(2, card("AS")))
    assert deal.tricks[0].winner == 2
    assert deal.phase is Phase.PLAY
    deal.apply(act.play(2, card("QD")))
    ch = deal.choices(0)
    assert format_cards(ch.cards) == "KD"
    assert ch.refused[card("8D")] == "you must beat the ♦Q"
    assert ch.refused[card("7C")] == "you must follow suit (diamonds)"
    deal.apply(act.play(0, card("KD")))
    assert format_cards(deal.choices(1).cards) == "7D 9D"  # X cannot beat the ♦K
    deal.apply(act.play(1, card("9D")))
    assert deal.tricks[1].winner == 0
    assert deal.phase is Phase.DONE  # type: ignore[comparison-overlap]  # play stops (mypy keeps the earlier narrowing)
    assert deal.result is not None
    assert deal.result.ended_early
    assert deal.result.tricks == 2
    assert [p.won for p in deal.result.parts] == [False]
    assert deal.result.scores == (-10, 5, 5)


def test_P8_ulti_declarer_holds_the_seven_back_when_trumping() -> None:
    # ♦A led; D bid ulti
    assert legal("7S AS 9H", "D", "AD", seven=SEVEN_OF_SPADES) == "AS"
    assert reasons("7S AS 9H", "D", "AD", seven=SEVEN_OF_SPADES) == {"7S": ULTI_SEVEN, "9H": MUST_TRUMP}


def test_P9_the_seven_is_played_when_it_is_the_only_legal_card() -> None:
    assert legal("7S 9H", "D", "AD", seven=SEVEN_OF_SPADES) == "7S"
    assert reasons("7S 9H", "D", "AD", seven=SEVEN_OF_SPADES) == {"9H": MUST_TRUMP}


def test_P10_ulti_declarer_may_not_lead_the_seven() -> None:
    assert legal("7S AS 9H", None, None, seven=SEVEN_OF_SPADES) == "AS 9H"
    assert reasons("7S AS 9H", None, None, seven=SEVEN_OF_SPADES) == {"7S": ULTI_SEVEN}

    # on a real deal: seat 0 declares M-SU with ♠ trumps and holds the ♠7
    hands = [
        mask("7S AS TS KS QS AC KC AD KD AH"),
        mask("8S 9S JS 7C 8C 9C 7D 8D 9D 7H"),
        mask("TC QC JC TD QD JD 8H 9H TH JH"),
    ]
    deal = Deal.at_play(hands, 2, 0, BIDS_BY_CODE["M-SU"], SPADES, mask("QH KH"))
    ch = deal.choices(0)
    assert not ch.cards >> SEVEN_OF_SPADES & 1
    assert ch.cards == hands[0] & ~(1 << SEVEN_OF_SPADES)
    assert ch.refused == {SEVEN_OF_SPADES: ULTI_SEVEN}


def test_P11_without_an_ulti_bid_the_seven_may_be_led() -> None:
    assert legal("7S AS 9H", None, None) == "7S AS 9H"
    assert reasons("7S AS 9H", None, None) == {}


def test_P12_void_in_led_suit_and_trumps_plays_anything() -> None:
    # ♣Q led, ♠ trumps; no ♣, no ♠
    assert legal("AH TD", "C", "QC") == "TD AH"
    assert reasons("AH TD", "C", "QC") == {}
