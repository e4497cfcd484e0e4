"""The expert bot: the auction read as evidence, worlds weighted by it, legal play, and its registration."""

from __future__ import annotations

import random

from ulti.bots.expert import (
    EXPERT_SAMPLES,
    AuctionEvidence,
    bid_weight,
    evidence_weight,
    expert_bot,
    expert_parts,
    expert_settings,
    read_evidence,
    weighted_by_evidence,
)
from ulti.bots.expert.played_values import PLAYED_MINUS_SOLVED
from ulti.bots.families import family
from ulti.bots.heuristic import HeuristicBot
from ulti.bots.levels import BOT_LEVELS, bot_for_level
from ulti.bots.sampling import Knowledge, MetropolisSampler, Sampler, World, analyse
from ulti.bots.strong import STRONG_PARTS, SearchBot, declarer_weight, strong_bot
from ulti.engine.actions import Kind
from ulti.engine.cards import CardSet, mask_of, parse_card
from ulti.engine.contracts import parse_bid
from ulti.engine.deal import Deal, Phase
from ulti.engine.dealing import deal_hands
from ulti.engine.view import LogEntry
from ulti.lab.configs import bot_for
from ulti.lab.readings import bid_model_weight, fitted_bid_weight, reading_weight, weighted_by_readings


def _know(declarer: int = 0) -> Knowledge:
    know = Knowledge(seat=0, dealer=0, opener=1, phase="play", hand=0, sizes=(10, 10, 10), talon_size=0,
                     allowed=[0, 0, 0, 0])
    know.contract = parse_bid("M-S")
    know.declarer = declarer
    know.trump = 0
    return know


def parse_cards(text: str) -> CardSet:
    return mask_of(parse_card(c) for c in text.split())


BETLI_HAND = parse_cards("7C 8C 9C 7S 8S 9S 7D 8D 7H 8H")
HIGH_HAND = parse_cards("AC TC KC AS TS KS AD TD AH TH")


def _world(seat1: int, seat2: int) -> World:
    return World([0, seat1, seat2], 0)


def test_a_pass_makes_a_hand_fit_for_a_higher_betli_less_likely() -> None:
    evidence = AuctionEvidence(bids={}, passes={1: [parse_bid("M-S")]}, kontra_against=())
    know = _know()
    read = reading_weight(evidence, know, _world(BETLI_HAND, HIGH_HAND), passes=True)
    assert read < reading_weight(evidence, know, _world(HIGH_HAND, BETLI_HAND), passes=True)
    # the expert does not read passes (a laboratory reading): every world alike
    assert evidence_weight(evidence, know, _world(BETLI_HAND, HIGH_HAND)) == 1.0


def test_an_outbid_betli_bid_makes_a_betli_hand_more_likely() -> None:
    evidence = AuctionEvidence(bids={2: parse_bid("N-B")}, passes={}, kontra_against=())
    know = _know()
    assert evidence_weight(evidence, know, _world(HIGH_HAND, BETLI_HAND)) > evidence_weight(
        evidence, know, _world(BETLI_HAND, HIGH_HAND)
    )


def test_a_kontra_on_a_betli_makes_a_safe_betli_hand_less_likely() -> None:
    evidence = AuctionEvidence(bids={}, passes={}, kontra_against=(2,))
    know = _know(declarer=1)
    know.contract = parse_bid("N-B")
    assert evidence_weight(evidence, know, _world(BETLI_HAND, HIGH_HAND)) < evidence_weight(
        evidence, know, _world(HIGH_HAND, BETLI_HAND)
    )


def _auctioned(rng: random.Random, number: int) -> Deal:
    """Deal ``number`` drawn from ``rng``, its auction played by heuristic bots (over if nobody bid)."""
    dealer = number % 3
    deal = Deal(deal_hands(rng, dealer), dealer)
    bots = [HeuristicBot(random.Random(s)) for s in range(3)]
    while deal.phase is not Phase.PLAY and (seat := deal.to_move) is not None:  # None: the deal is over
        deal.apply(bots[seat].act(deal.seat_view(seat)))
    return deal


def test_the_log_is_read_into_bids_and_passes() -> None:
    rng = random.Random(4)
    for number in range(30):
        deal = _auctioned(rng, number)
        if deal.is_over:
            continue
        assert deal.declarer is not None  # the auction ended with a bid
        viewer = (deal.declarer + 1) % 3
        view = deal.seat_view(viewer)
        evidence = read_evidence(view.log, viewer, deal.declarer)
        assert viewer not in evidence.bids and viewer not in evidence.passes
        bidders = {e.seat for e in view.log if e.action is Kind.BID}
        # every other seat that bid and is not the declarer has its highest bid read
        assert {s for s in bidders if s not in (viewer, deal.declarer)} <= set(evidence.bids)


def test_the_expert_weighs_worlds_where_the_strong_bot_does_not() -> None:
    # as the declarer, the strong bot samples uniformly; the experts weigh the defenders' bids (and passes)
    rng = random.Random(1)
    checked = 0
    for number in range(40):
        deal = _auctioned(rng, number)
        if deal.is_over:
            continue
        assert deal.declarer is not None  # the auction ended with a bid
        if not read_evidence(deal.seat_view(deal.declarer).log, deal.declarer, deal.declarer).passes:
            continue
        view = deal.seat_view(deal.declarer)
        know = analyse(view)
        assert strong_bot(random.Random(0)).play.likelihood(view, know) is None
        assert weighted_by_readings(None, view.log, know, read_passes=True) is not None  # passes, when read
        evidence = read_evidence(view.log, deal.declarer, deal.declarer)
        expert = expert_bot(random.Random(0))
        # the expert leaves passes out: with no other seat's bid it has nothing to weigh worlds by
        assert (expert.play.likelihood(view, know) is None) == (not evidence.bids)
        checked += 1
    assert checked


def test_the_expert_plays_whole_deals_legally_and_reproducibly() -> None:
    def play(seed: int) -> list[str]:
        rng = random.Random(seed)
        deal = Deal(deal_hands(rng, 0), 0)
        bots = [expert_bot(random.Random(s), samples=6, auction_samples=3) for s in range(3)]
        out = []
        while (seat := deal.to_move) is not None:  # None: the deal is over
            action = bots[seat].act(deal.seat_view(seat))
            deal.apply(action)  # raises IllegalAction on an illegal action
            out.append(repr(action))
        return out

    assert play(5) == play(5)


def test_expert_is_a_table_level() -> None:
    assert "expert" in BOT_LEVELS and "strong" in BOT_LEVELS
    tabled = bot_for_level("expert", random.Random(0))
    assert isinstance(tabled, SearchBot) and tabled.parts == expert_parts()
    assert "expert-blindtalon" not in BOT_LEVELS  # an arena-only configuration, in the laboratory
    blind = bot_for("expert-blindtalon", random.Random(0))
    assert isinstance(blind, SearchBot) and blind.parts == expert_parts(read_talon=False)
    # the expert works three times the strong bot's worlds; ``strong-96`` (arena only) is that work alone
    expert, strong, wide = (bot_for(name, random.Random(0)) for name in ("expert", "strong", "strong-96"))
    assert isinstance(expert, SearchBot) and isinstance(strong, SearchBot) and isinstance(wide, SearchBot)
    assert (expert.settings.samples, strong.settings.samples, wide.settings.samples) == (EXPERT_SAMPLES, 32, 96)
    assert "strong-96" not in BOT_LEVELS and wide.parts == strong.parts == STRONG_PARTS


def test_the_expert_weighting_is_the_strong_one_times_the_evidence() -> None:
    know = _know(declarer=1)  # seat 0 defends a minor Simple game of seat 1
    base = declarer_weight(know)
    assert base is not None
    world = _world(HIGH_HAND, BETLI_HAND)
    bid = LogEntry(seat=2, action=Kind.BID, bid=parse_bid("N-B"))
    # no other seat's bid, kontra (or, by default, pass) in the log: the strong weighting itself
    assert weighted_by_evidence(base, (), know) is base
    assert weighted_by_evidence(None, (), know) is None
    weight = weighted_by_evidence(base, (bid,), know)
    evidence = read_evidence((bid,), 0, 1)
    assert weight is not None and weight(world) == evidence_weight(evidence, know, world) * base(world)
    unweighted = weighted_by_evidence(None, (bid,), know)
    assert unweighted is not None and unweighted(world) == evidence_weight(evidence, know, world)


ULTI_HAND = parse_cards("7C 9C JC QC KC AC TC AS AD 8H")


def test_an_outbid_bid_weighed_by_the_fitted_model_favours_the_hands_that_bid_it() -> None:
    # a seat that bid an ulti in clubs (or any suit) is likelier to hold long trumps with the 7 than high
    # cards spread; one that bid a betli, the low cards; the fitted weight stays in 0..1
    for code, fit, misfit in (("M-SU", ULTI_HAND, HIGH_HAND), ("N-B", BETLI_HAND, HIGH_HAND)):
        bid = parse_bid(code)
        fitted_fit, fitted_misfit = fitted_bid_weight(bid, fit), fitted_bid_weight(bid, misfit)
        assert 0.0 <= fitted_misfit < fitted_fit <= 1.0
        # the model, not the hand-written fit: the two weigh the same hand differently
        assert fitted_fit == bid_model_weight(bid, fit) != bid_weight(bid, fit)
    evidence = AuctionEvidence(bids={2: parse_bid("M-SU")}, passes={}, kontra_against=())
    know = _know()
    world = _world(HIGH_HAND, ULTI_HAND)
    assert reading_weight(evidence, know, world, fitted_bids=True) == bid_model_weight(parse_bid("M-SU"), ULTI_HAND)


def _auction_view_after_a_bid(seed: int) -> tuple[Deal, int, int]:
    """A deal stopped in its auction at a seat's turn after another seat's bid: (deal, bidder, deciding seat)."""
    rng = random.Random(seed)
    for number in range(60):
        deal = Deal(deal_hands(rng, number % 3), number % 3)
        bots = [HeuristicBot(random.Random(s)) for s in range(3)]
        while deal.phase is not Phase.PLAY and not deal.is_over:
            seat = deal.to_move
            assert seat is not None  # the deal is not over
            bidders = {e.seat for e in deal.seat_view(seat).log if e.action is Kind.BID} - {seat}
            if bidders and deal.seat_view(seat).choices is not None and deal.phase is Phase.AUCTION:
                return deal, min(bidders), seat
            deal.apply(bots[seat].act(deal.seat_view(seat)))
    raise AssertionError("no auction turn after another seat's bid")


def test_worlds_weighed_by_the_fitted_bids_fit_the_other_seats_bids() -> None:
    deal, bidder, seat = _auction_view_after_a_bid(5)
    view = deal.seat_view(seat)
    know = analyse(view)
    bid = read_evidence(view.log, seat, -1).bids[bidder]
    # weighed by the other seats' bids (the fitted declarer model, as ``ulti.lab.declarations``
    # measures them) the worlds fit the bids
    sampler = MetropolisSampler(know, weighted_by_readings(None, view.log, know, fitted_bids=True))

    def mean_fit(drawn: list[World]) -> float:  # by the fitted declarer model, as the worlds are weighed
        return sum(fitted_bid_weight(bid, know.start_hand(w, bidder)) for w in drawn) / len(drawn)

    uniform = Sampler(know).draw_many(random.Random(1), 200)
    weighted = sampler.draw_many(random.Random(1), 200)
    # the bidder's hands fit its bid better in the weighed worlds
    assert mean_fit(weighted) > mean_fit(uniform)
    for world in weighted:  # and every world is one the seat's view allows: its own hand as it is
        assert world.hands[seat] == know.hand


def test_the_played_auction_corrects_each_family_by_what_it_brings_played_out() -> None:
    # durchmars and 100 declarations bring less when played out than their double-dummy worlds say, a
    # simple party more: the correction is the family's, the expert's; the strong bot leaves it out, and so
    # does the expert before it (expert-ddauction)
    for played in (expert_bot(random.Random(0)),):
        for code in ("N-D", "M-40", "M-S", "M-SU", "N-B"):
            bid = parse_bid(code)
            assert played.parts.declaration_value(bid, 3.0) == 3.0 + PLAYED_MINUS_SOLVED.get(family(bid), 0.0)
    for plain in (strong_bot(random.Random(0)), expert_bot(random.Random(0), played_auction=False)):
        for code in ("N-D", "M-40", "M-S", "M-SU", "N-B"):
            assert plain.parts.declaration_value(parse_bid(code), 3.0) == 3.0
    assert PLAYED_MINUS_SOLVED["durchmars"] < PLAYED_MINUS_SOLVED["100"] < 0 < PLAYED_MINUS_SOLVED["simple"]
    assert "expert-ddauction" not in BOT_LEVELS
    dd = bot_for("expert-ddauction", random.Random(0))
    assert isinstance(dd, SearchBot) and dd.parts == expert_parts(played_auction=False)


def test_a_declaration_worth_less_played_out_gives_way_to_a_simple_party() -> None:
    # the first bid of deal 16 (heuristic bots): on the same worlds, the expert before its played-out values
    # declares a 40-100, which its worlds value above a simple party double-dummy; played out the 100 loses 2
    # and the party gains 0.8, and the expert declares the party
    deal = Deal(deal_hands(random.Random(16), 0), 0)
    view = deal.seat_view(deal.to_move)
    assert view.choices is not None and view.choices.must_discard
    plain = expert_bot(random.Random(1), auction_samples=8, played_auction=False).act(view)
    played = expert_bot(random.Random(1), auction_samples=8).act(view)
    assert plain.bid is not None and played.bid is not None
    assert (family(plain.bid), family(played.bid)) == ("100", "simple")


def test_the_expert_is_the_strong_bots_search_composed_with_the_expert_parts() -> None:
    # a configuration, not a subclass's behaviour: the strong bot's search given the expert's parts and
    # worlds takes the expert's actions, from the same seed, through a whole deal
    deal = Deal(deal_hands(random.Random(21), 0), 0)
    expert = [expert_bot(random.Random(s), samples=8, auction_samples=3) for s in range(3)]
    settings = expert_settings(samples=8, auction_samples=3)
    composed = [SearchBot(random.Random(s), expert_parts(), settings) for s in range(3)]
    strong = [strong_bot(random.Random(s), samples=8, auction_samples=3) for s in range(3)]
    differs = False
    while (seat := deal.to_move) is not None:  # None: the deal is over
        view = deal.seat_view(seat)
        action = expert[seat].act(view)
        assert composed[seat].act(view) == action
        differs |= strong[seat].act(view) != action
        deal.apply(action)
    assert differs  # and the strong bot's own parts decide otherwise somewhere in the deal
