"""The expert's declarer model (``ulti.bots.expert.declarer_model``): its families, its fit (logistic
regression by Newton's method, ``ulti.lab.declarer_fit``), its weights, and what they say about real
auctions of the strong bot."""

from __future__ import annotations

import json
import math
import random
import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import EXAMPLES
from ulti.bots.expert import expert_bot, expert_weight, weighted_by_evidence
from ulti.bots.expert.declarer_model import (
    MODEL_FAMILIES,
    NO_TRUMP_FAMILIES,
    declarer_model_weight,
    fitted_weight,
    hand_features,
    model_family,
)
from ulti.bots.expert.fitted import COEFFICIENTS, DECLARED
from ulti.bots.sampling import Sampler, World, analyse
from ulti.bots.strong import declarer_weight, strong_bot
from ulti.engine.cards import ACE, JACK, KING, QUEEN, SEVEN, TEN, CardSet
from ulti.engine.contracts import BIDS_BY_CODE
from ulti.engine.deal import Deal, Phase
from ulti.engine.play import NO_TRUMP
from ulti.engine.record import deal_from_record, parse_action
from ulti.lab.declarer_fit import fit_logistic, random_hand
from ulti.lab.played_deals import played_by_level


def _cards(*cards: tuple[int, int]) -> CardSet:
    return sum(1 << (suit * 8 + rank) for suit, rank in cards)


def test_model_family_of_bids() -> None:
    expected = {
        "N-B": "betli", "N-OB": "betli", "N-D": "nt-durchmars", "N-OD": "nt-durchmars",
        "M-UD": "durchmars", "H-40O": "durchmars", "M-SU": "ulti", "H-40U": "ulti",
        "M-40": "100", "H-20": "100", "M-S": "simple", "H-S": "simple",
    }
    for code, family in expected.items():
        assert model_family(BIDS_BY_CODE[code]) == family, code
    assert {model_family(bid) for bid in BIDS_BY_CODE.values()} == set(MODEL_FAMILIES)


def test_fit_logistic_recovers_the_coefficients_data_was_drawn_with() -> None:
    rng = random.Random(4)
    truth = [1.5, -2.0, -0.5]  # two features, the intercept last
    rows, labels = [], []
    for _ in range(8000):
        x = [rng.gauss(0, 1), float(rng.random() < 0.5)]
        z = truth[0] * x[0] + truth[1] * x[1] + truth[2]
        rows.append(x)
        labels.append(int(rng.random() < 1 / (1 + math.exp(-z))))
    beta = fit_logistic(rows, labels, penalty=0.01)
    assert all(abs(b - t) < 0.25 for b, t in zip(beta, truth, strict=True)), beta
    # and it is the penalised likelihood's optimum: the gradient vanishes there
    grad = [0.01 * beta[0], 0.01 * beta[1], 0.0]
    for x, y in zip(rows, labels, strict=True):
        p = 1 / (1 + math.exp(-(beta[0] * x[0] + beta[1] * x[1] + beta[2])))
        for i, xi in enumerate((*x, 1.0)):
            grad[i] += (p - y) * xi
    assert max(abs(g) for g in grad) < 1e-6


def test_fitted_file_matches_the_features() -> None:
    for family, coefficients in COEFFICIENTS.items():
        trump = NO_TRUMP if family in NO_TRUMP_FAMILIES else 0
        assert len(coefficients) == len(hand_features(family, random_hand(random.Random(1)), trump)) + 1
        assert DECLARED[family] >= 20
    # the families the strong bot declares most are fitted
    assert {"betli", "ulti", "simple"} <= set(COEFFICIENTS)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), family=st.sampled_from(sorted(COEFFICIENTS)), trump=st.integers(0, 3))
def test_fitted_weight_lies_in_the_unit_interval(seed: int, family: str, trump: int) -> None:
    hand = random_hand(random.Random(seed))
    t = NO_TRUMP if family in NO_TRUMP_FAMILIES else trump
    w = fitted_weight(COEFFICIENTS[family], hand_features(family, hand, t))
    assert 0.0 < w <= 1.0


def test_an_ulti_hand_outweighs_a_hand_without_trumps() -> None:
    # six spades with the ace, ten and seven, two side aces: what an ulti in spades (suit 0) is bid with
    strong = _cards((0, ACE), (0, TEN), (0, KING), (0, JACK), (0, SEVEN), (0, 1), (1, ACE), (2, ACE), (3, 1), (3, 2))
    weak = _cards((0, 1), (1, SEVEN), (1, 1), (1, 2), (2, SEVEN), (2, 1), (2, QUEEN), (3, SEVEN), (3, 1), (3, 2))
    ulti = COEFFICIENTS["ulti"]
    assert fitted_weight(ulti, hand_features("ulti", strong, 0)) > 100 * fitted_weight(
        ulti, hand_features("ulti", weak, 0)
    )


def test_the_true_declarer_hand_is_likelier_than_random_hands() -> None:
    # real auctions of three strong bots: the model weighs the hand each declarer bid with above the mean
    # of random hands, on a log scale by more than the strong bot's hand-written likelihood does
    rng = random.Random(8)
    gains = []
    for deal in played_by_level("strong", 8, 515, to_first_card=True):
        assert deal.contract is not None
        family = model_family(deal.contract)
        if family not in COEFFICIENTS:
            continue
        beta = COEFFICIENTS[family]
        assert deal.declarer is not None  # the deal is at its first card
        hand = deal.hands[deal.declarer]
        mean = statistics.fmean(
            fitted_weight(beta, hand_features(family, random_hand(rng), deal.trump)) for _ in range(300)
        )
        gains.append(math.log(fitted_weight(beta, hand_features(family, hand, deal.trump)) / mean))
    assert len(gains) >= 5
    assert statistics.fmean(gains) > 1.0
    assert sum(g > 0 for g in gains) >= len(gains) - 1


def _at_first_card(name: str) -> Deal:
    """The deal of example record ``name`` replayed up to its first card."""
    record = json.loads((EXAMPLES / name).read_text())
    deal = deal_from_record({**record, "actions": []})
    for entry in record["actions"]:
        if deal.phase is Phase.PLAY:
            break
        deal.apply(parse_action(entry))
    assert deal.phase is Phase.PLAY
    return deal


def test_declarer_model_weight_for_defenders_only() -> None:
    deal = _at_first_card("09-ulti-lost-without-7.json")
    assert declarer_model_weight(analyse(deal.seat_view(deal.declarer))) is None
    world = World([deal.hands[0], deal.hands[1], deal.hands[2]], 0)
    for defender in (s for s in range(3) if s != deal.declarer):
        know = analyse(deal.seat_view(defender))
        weight = declarer_model_weight(know)
        assert weight is not None and know.contract is not None
        family = model_family(know.contract)
        assert deal.declarer is not None  # the deal is at its first card
        hand = deal.hands[deal.declarer]
        if family in COEFFICIENTS:
            assert weight(world) == fitted_weight(COEFFICIENTS[family], hand_features(family, hand, know.trump))
        else:
            fallback = declarer_weight(know)
            assert fallback is not None and weight(world) == fallback(world)


def test_the_expert_weighs_by_the_model_and_the_strong_bot_does_not() -> None:
    deal = _at_first_card("09-ulti-lost-without-7.json")
    assert deal.declarer is not None
    defender = (deal.declarer + 1) % 3
    view = deal.seat_view(defender)
    know = analyse(view)
    model = declarer_model_weight(know)
    assert model is not None
    rng = random.Random(3)
    worlds = Sampler(know).draw_many(rng, 40)
    fitted, plain = expert_bot(random.Random(1)), strong_bot(random.Random(1))
    fitted_likelihood, plain_likelihood = fitted.play.likelihood(view, know), plain.play.likelihood(view, know)
    assert fitted_likelihood is not None and plain_likelihood is not None
    evidence = weighted_by_evidence(None, view.log, know)
    for world in worlds:
        other = evidence(world) if evidence is not None else 1.0
        assert math.isclose(fitted_likelihood(world), model(world) * other)
    # the coach weighs the worlds of its hints as the expert does
    coach = expert_weight(view, know)
    assert coach is not None and all(coach(w) == fitted_likelihood(w) for w in worlds)
    assert any(fitted_likelihood(w) != plain_likelihood(w) for w in worlds)
