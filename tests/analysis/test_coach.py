"""The coach's hint (learner tables) is the expert bot's advice: priced on the worlds the expert draws (its
weighting by the auction's evidence, its number of worlds) and naming the action the expert takes."""

from __future__ import annotations

import json
import random
from typing import Any

from tests.conftest import EXAMPLES
from ulti.analysis.coach import HINT_WORLDS, hint, hint_rng
from ulti.analysis.pricing import DECLINE, action_key, price_view, strong_weight
from ulti.bots.expert import EXPERT_SAMPLES, evidence_weight, expert_bot, expert_weight, read_evidence
from ulti.bots.expert.declarer_model import declarer_model_weight
from ulti.bots.levels import bot_for_level
from ulti.bots.sampling import Sampler, analyse
from ulti.bots.selfplay import play_deal
from ulti.bots.strong import kontra_samples, strong_bot
from ulti.engine.actions import Action, Kind
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.phase import Phase
from ulti.engine.record import action_to_json, deal_from_record
from ulti.engine.view import SeatView


def example_deal(name: str) -> Deal:
    """The finished deal of an example record of tests/data/examples."""
    record: dict[str, Any] = json.loads((EXAMPLES / name).read_text())
    return deal_from_record(record)


def heuristic_deal(seed: int) -> Deal:
    """A deal bid and played out by three heuristic bots (seed 0: a minor Simple game with trumps named
    and kontra said)."""
    deal = Deal(deal_hands(random.Random(seed), seed % 3), seed % 3)
    play_deal(deal, [bot_for_level("heuristic", random.Random(f"{seed}:{s}")) for s in range(3)])
    return deal


def decision_views(deal: Deal, phases: tuple[Phase, ...] = (Phase.TRUMP, Phase.PLAY)) -> list[SeatView]:
    """The deciding seat's view before each action of ``deal`` taken in one of ``phases``."""
    replay = Deal(deal.dealt, deal.dealer)
    views = []
    for action in deal.history:
        if replay.phase in phases:
            views.append(replay.seat_view(action.seat))
        replay.apply(action)
    return views


def first_card_view(deal: Deal) -> SeatView:
    """The view of the seat leading the first trick (the declarer), before any card is played."""
    return next(v for v in decision_views(deal, (Phase.PLAY,)) if v.choices is not None and v.choices.cards)


def expert_key(action: Action, kind: str) -> str:
    """The hint's key of the expert's ``action`` for a hint of ``kind`` (a kontra step declined by playing
    a card is ``"none"``)."""
    if kind == "kontra" and action.kind is Kind.PLAY:
        return DECLINE
    return action_key(action)


def test_the_hint_names_the_expert_bots_choice_in_card_play_kontra_and_trump() -> None:
    # the same rng (hint_rng) draws the same worlds for the hint as for the expert bot, and the hint applies
    # the bot's own rules to the values: its card (ties to the heuristic's class), its kontra margins, its
    # give-up margin; a hint weighted or sized otherwise names another action in some of these views
    worlds = 12
    kinds: dict[str, int] = {}
    named: set[str] = set()
    deals = [
        example_deal("02-ulti-kontra-chain.json"),
        example_deal("09-ulti-lost-without-7.json"),
        heuristic_deal(0),
        heuristic_deal(3),
    ]
    for number, deal in enumerate(deals):
        for k, view in enumerate(decision_views(deal)):
            seed = f"{number}:{k}"
            answer = hint(view, worlds, seed)
            assert answer is not None
            action = expert_bot(hint_rng(seed), samples=worlds).act(view)
            assert answer["best"] == expert_key(action, answer["kind"]), (number, k, answer, action)
            assert answer["best"] in answer["values"]
            kinds[answer["kind"]] = kinds.get(answer["kind"], 0) + 1
            if answer["kind"] == "kontra":
                named.add(answer["best"])
                # the chart shows the values the expert compares: its advice is the best bar
                values = answer["values"]
                assert values[answer["best"]] == max(values.values()), (number, k, answer)
    assert set(kinds) == {"play", "kontra", "trump"}, kinds
    assert DECLINE in named and len(named) > 1, named  # both a declined and a raised kontra step were named


def test_the_hint_names_the_expert_bots_card_at_its_own_number_of_worlds() -> None:
    view = first_card_view(example_deal("09-ulti-lost-without-7.json"))
    answer = hint(view, seed="full")
    assert answer is not None and answer["kind"] == "play"
    assert answer["worlds"] == HINT_WORLDS == EXPERT_SAMPLES
    action = expert_bot(hint_rng("full")).act(view)
    assert answer["best"] == action_key(action)


def test_the_hint_solves_the_expert_bots_number_of_worlds_per_kind_of_decision() -> None:
    deal = heuristic_deal(0)
    views = decision_views(deal)
    by_kind: dict[str, dict[str, Any]] = {}
    for view in [views[0], views[2], views[-2]]:  # the trump, a kontra step at trick 1, a card at trick 10
        answer = hint(view, seed=1)
        assert answer is not None
        by_kind[answer["kind"]] = answer
    assert set(by_kind) == {"trump", "kontra", "play"}
    expert = expert_bot(random.Random(0))
    assert by_kind["play"]["worlds"] == expert.settings.samples == EXPERT_SAMPLES
    assert by_kind["kontra"]["worlds"] == kontra_samples(expert.settings.samples) == EXPERT_SAMPLES // 2
    assert by_kind["trump"]["worlds"] == expert.settings.auction_samples  # the expert's trump: its auction worlds


def test_the_hint_weighs_worlds_by_the_auction_evidence_as_the_expert_does() -> None:
    # example 09: seat 1 bid a hearts ulti durchmars before the declarer's hearts ulti open durchmars; as the
    # declarer, the strong bot takes every world alike, the expert weighs them by that bid
    view = first_card_view(example_deal("09-ulti-lost-without-7.json"))
    know = analyse(view)
    assert view.seat == know.declarer
    assert strong_weight(view, know) is None
    weight = expert_weight(view, know)
    assert weight is not None
    evidence = read_evidence(view.log, know.seat, know.declarer)
    assert set(evidence.bids) == {1}
    worlds = Sampler(know).draw_many(random.Random(5), 40)
    weights = [weight(w) for w in worlds]
    assert weights == [evidence_weight(evidence, know, w) for w in worlds]
    assert max(weights) > 4 * min(weights)  # the evidence rules some worlds much less likely than others
    bot = expert_bot(random.Random(0))
    bot_weight = bot.play.likelihood(view, know)
    assert bot_weight is not None and [bot_weight(w) for w in worlds] == weights  # the expert bot's own

    answer = hint(view, 32, 0)
    assert answer is not None
    expert = price_view(view, 32, hint_rng(0), kind=Kind.PLAY, weighting=expert_weight, chain=True)
    strong = price_view(view, 32, hint_rng(0), kind=Kind.PLAY)
    assert expert is not None and strong is not None
    assert answer["values"] == {key: round(v, 3) + 0.0 for key, v in expert.means().items()}
    assert expert.means() != strong.means()  # the evidence changes the values priced


def test_a_defenders_hint_weighs_a_world_the_bid_rules_against_less_than_the_declarer_model_does() -> None:
    # example 09, seat 2 (a defender): the fitted declarer model (the declarer's hand fits its contract)
    # times the evidence of seat 1's bid and the declarer's earlier, outbid bid
    deal = example_deal("09-ulti-lost-without-7.json")
    view = next(v for v in decision_views(deal, (Phase.PLAY,)) if v.seat == 2)
    know = analyse(view)
    model, expert = declarer_model_weight(know), expert_weight(view, know)
    assert model is not None and expert is not None and strong_weight(view, know) is not None
    worlds = Sampler(know).draw_many(random.Random(2), 40)
    ratios = [expert(w) / model(w) for w in worlds if model(w) > 0]
    assert ratios and all(r <= 1.0 for r in ratios)
    assert min(ratios) < 0.5 * max(ratios)


def test_the_auction_hint_is_the_expert_bots_action_and_reproducible() -> None:
    # the openers' first decisions of deals 0, 17 and 22 (at 4 worlds per valued bid, the coach's auction
    # before the expert level, the same rng gives another discard or bid), and the later steps of an auction
    cases: list[tuple[SeatView, str | int]] = []
    for number in (0, 17, 22):
        deal = Deal(deal_hands(random.Random(number), number % 3), number % 3)
        cases.append((deal.seat_view(deal.to_move), number))
    cases.extend((view, f"1:{k}") for k, view in enumerate(decision_views(heuristic_deal(1), (Phase.AUCTION,))[1:4]))
    for view, seed in cases:
        answer = hint(view, seed=seed)
        assert answer is not None and answer["kind"] == "bid"
        expert = expert_bot(hint_rng(seed)).act(view)
        assert answer["action"] == action_to_json(expert)
        assert answer["best"] == (expert.bid.code if expert.bid is not None else expert.kind.value)
        # the expert's auction is the strong bot's: the same action from the same rng
        assert action_to_json(strong_bot(hint_rng(seed)).act(view)) == answer["action"]
        assert hint(view, seed=seed) == answer


def test_the_bid_hint_names_the_two_cards_to_lay_away() -> None:
    # the opener holds 12 cards: the expert's bid comes with its discard, and the hint names those two cards
    named = 0
    for number in (0, 17, 22):
        deal = Deal(deal_hands(random.Random(number), number % 3), number % 3)
        view = deal.seat_view(deal.to_move)
        answer = hint(view, seed=number)
        assert answer is not None and answer["kind"] == "bid"
        expert = expert_bot(hint_rng(number)).act(view)
        if expert.kind is Kind.BID and expert.discard is not None:
            assert answer["discard"] == answer["action"]["discard"] == action_to_json(expert)["discard"]
            assert len(set(answer["discard"])) == 2
            assert all(card in answer["discard"] for card in action_to_json(expert)["discard"])
            named += 1
        else:
            assert "discard" not in answer
    assert named >= 1  # an opener always bids from 12 cards
