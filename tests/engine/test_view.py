"""The typed seat view (ulti/engine/view.py): its JSON is the wire form, unchanged, and it is immutable.

``reference_view`` below is the dict ``Deal.view`` built before the view was typed, kept here as the
reference: on thousands of random positions (every phase, every seat and a spectator) the typed
view's ``to_json()`` must equal it, key order included, and parse back to an equal view.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from typing import Any

import pytest

from ulti.bots.random_bot import random_legal_action
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import SUIT_LETTERS, CardSet, card_str, count, iter_cards
from ulti.engine.contracts import KONTRA_STEP_NAMES
from ulti.engine.deal import Choices, Deal, Phase
from ulti.engine.dealing import deal_hands
from ulti.engine.kontra import ordered_parts
from ulti.engine.play import NO_TRUMP
from ulti.engine.scoring import counting_marriages, marriages_of
from ulti.engine.view import (
    AuctionState,
    ContractState,
    LogEntry,
    PlayedTrick,
    SeatChoices,
    SeatView,
    card_codes,
    codes_mask,
)

VIEWERS = (None, 0, 1, 2)
DEALS = 60  # per block of the random positions test: some 2,000 positions, 8,000 views

# ---------------------------------------------------------------------------------------- the reference


def _reference_entry(deal: Deal, action: Action, viewer: int | None, taken: CardSet) -> dict[str, Any]:
    entry: dict[str, Any] = {"seat": action.seat, "action": action.kind.value}
    own = viewer == action.seat or (viewer is None and deal.phase is Phase.DONE)
    if action.bid is not None:
        entry["bid"] = action.bid.code
    if action.discard is not None and own:
        entry["discard"] = [card_str(c) for c in action.discard]
    if action.kind is Kind.TAKE and own:
        entry["cards"] = [card_str(c) for c in iter_cards(taken)]
    if action.suit is not None:
        entry["suit"] = SUIT_LETTERS[action.suit]
    if action.parts is not None:
        entry["parts"] = [p.value for p in action.parts]
    if action.card is not None:
        entry["card"] = card_str(action.card)
    return entry


def _reference_log(deal: Deal, viewer: int | None) -> list[dict[str, Any]]:
    entries = []
    talon = 0
    for action in deal.history:
        taken = 0
        if action.kind is Kind.TAKE:
            taken = talon
        elif action.discard is not None:
            talon = (1 << action.discard[0]) | (1 << action.discard[1])
        entries.append(_reference_entry(deal, action, viewer, taken))
    return entries


def _reference_marriages(deal: Deal, seat: int) -> dict[str, int] | None:
    if not deal.start_hands or deal.trump == NO_TRUMP or deal.contract is None:
        return None
    assert deal.leader is not None  # the play has started
    played = bool(deal.tricks) or (seat - deal.leader) % 3 < len(deal.trick)
    if not played:
        return None
    forty, twenties = marriages_of(deal.start_hands[seat], deal.trump)
    counting = counting_marriages(deal.contract, seat == deal.declarer, forty, twenties)
    return {"forty": forty, "twenties": twenties, "counting": counting}


def _reference_tally(deal: Deal) -> dict[str, dict[str, int]] | None:
    """Card points by side from the cards of the taken tricks (A and 10 count 10), the last trick's 10,
    and the announced marriages that count."""
    if not deal.start_hands or deal.trump == NO_TRUMP or deal.contract is None:
        return None
    sides = {"declarer": {"cards": 0, "marriages": 0}, "defenders": {"cards": 0, "marriages": 0}}
    for trick in deal.tricks:
        side = "declarer" if trick.winner == deal.declarer else "defenders"
        sides[side]["cards"] += sum(10 for c in trick.cards if card_str(c)[0] in "AT")
    if len(deal.tricks) == 10:
        sides["declarer" if deal.tricks[-1].winner == deal.declarer else "defenders"]["cards"] += 10
    for seat in range(3):
        announced = _reference_marriages(deal, seat)
        if announced is not None:
            sides["declarer" if seat == deal.declarer else "defenders"]["marriages"] += announced["counting"]
    return sides


def _reference_choices(ch: Choices) -> dict[str, Any]:
    return {
        "may_pass": ch.may_pass,
        "may_take": ch.may_take,
        "bids": [b.code for b in ch.bids],
        "must_discard": ch.must_discard,
        "trumps": [SUIT_LETTERS[s] for s in ch.trumps],
        "may_give_up": ch.may_give_up,
        "kontra": {"step": ch.kontra_step, "parts": [p.value for p in ch.kontra_parts]} if ch.kontra_step else None,
        "cards": [card_str(c) for c in iter_cards(ch.cards)],
        "refused": {card_str(c): reason for c, reason in ch.refused.items()},
        "refused_rules": {card_str(c): rule for c, rule in ch.refused_rules.items()},
        "refused_args": {card_str(c): args for c, args in ch.refused_args.items()},
    }


def reference_view(deal: Deal, seat: int | None) -> dict[str, Any]:
    """``Deal.view(seat)`` as it was built before the typed view (the wire form to keep)."""
    done = deal.phase is Phase.DONE
    show_all = done or deal.hands_open()
    hands: dict[str, list[str]] = {}
    for s in range(3):
        if s == seat or show_all:
            hands[str(s)] = [card_str(c) for c in iter_cards(deal.hands[s])]
    contract = deal.contract
    view: dict[str, Any] = {
        "seat": seat,
        "dealer": deal.dealer,
        "opener": deal.opener,
        "phase": deal.phase.value,
        "to_move": -1 if deal.to_move is None else deal.to_move,  # the wire's "nobody" is -1, the engine's None
        "hands": hands,
        "hand_sizes": [count(h) for h in deal.hands],
        "log": _reference_log(deal, seat),
        "auction": {
            "bid": deal.high_bid.code if deal.high_bid else None,
            "bidder": deal.high_bidder if deal.high_bid else None,
            "passes": deal.passes,
            "obliged": deal.obliged if deal.phase is Phase.AUCTION else False,
        },
        "talon": (
            [card_str(c) for c in iter_cards(deal.talon)]
            if deal.talon and (done or (seat is not None and seat == deal.talon_by))
            else None
        ),
        "contract": (
            {
                "bid": contract.code,
                "declarer": deal.declarer,
                "trump": None if deal.trump == NO_TRUMP or deal.phase is Phase.TRUMP else SUIT_LETTERS[deal.trump],
            }
            if contract
            else None
        ),
        "kontra": {p.value: deal.multiplier(p) for p in ordered_parts(contract, deal.levels)} if contract else {},
        "chain": (
            {
                "step": KONTRA_STEP_NAMES[deal.chain_level],
                "parts": [p.value for p in ordered_parts(contract, deal.chain_prev)] if contract else [],
                "declined": sorted(deal.chain_declined),
            }
            if deal.in_chain
            else None
        ),
        "trick": {"leader": deal.leader, "cards": [card_str(c) for c in deal.trick]} if deal.start_hands else None,
        "tricks": [
            {"leader": t.leader, "cards": [card_str(c) for c in t.cards], "winner": t.winner} for t in deal.tricks
        ],
        "won": list(deal.won),
        "marriages": {str(s): m for s in range(3) if (m := _reference_marriages(deal, s)) is not None},
        "result": deal.result.view_json() if deal.result else None,
        "tally": _reference_tally(deal),
    }
    if done:
        view["dealt"] = [[card_str(c) for c in iter_cards(h)] for h in deal.dealt]
    if seat is not None:
        choices = deal.choices(seat)
        view["choices"] = _reference_choices(choices) if choices.any() else None
    return view


# ---------------------------------------------------------------------------------------- positions


SEEN = ("auction", "trump", "play", "done", "spectator", "seat", "chain", "open hands", "refused",
        "kontra offered", "marriages", "own take", "given up")
RARE = ("open hands", "given up")


def random_deal(seed: int) -> Deal:
    dealer = seed % 3
    return Deal(deal_hands(random.Random(seed), dealer), dealer)


def check_position(deal: Deal, seen: dict[str, int]) -> None:
    """Every viewer's typed view against the reference, and back from its JSON."""
    for viewer in VIEWERS:
        view = deal.seat_view(viewer)
        wire = deal.view(viewer)
        expected = reference_view(deal, viewer)
        assert wire == expected, (deal, viewer)
        # the same text on the wire: same keys in the same order, same JSON types
        assert json.dumps(wire) == json.dumps(expected), (deal, viewer)
        assert view.to_json() == wire
        parsed = SeatView.from_json(json.loads(json.dumps(wire)))
        assert parsed == view, (deal, viewer)
        assert parsed.to_json() == wire
        if deal.history:  # what the server sends with each action
            assert deal.public_entry(len(deal.history) - 1, viewer) == expected["log"][-1]
        seen[deal.phase.value] += 1
        seen["spectator" if viewer is None else "seat"] += 1
        seen["chain"] += view.chain is not None
        seen["open hands"] += viewer is not None and deal.phase is Phase.PLAY and deal.hands_open()
        seen["refused"] += bool(view.choices is not None and view.choices.refused)
        seen["kontra offered"] += bool(view.choices is not None and view.choices.kontra is not None)
        seen["marriages"] += any(m is not None for m in view.marriages)
        seen["own take"] += any(e.cards is not None for e in view.log)
        seen["given up"] += bool(view.result is not None and view.result.given_up)


@pytest.mark.parametrize("block", range(4))
def test_the_typed_view_is_the_wire_view_on_random_positions(block: int) -> None:
    seen = dict.fromkeys(SEEN, 0)
    for seed in range(block * DEALS, (block + 1) * DEALS):
        rng = random.Random(seed)
        deal = random_deal(seed)
        kontra_rate = rng.choice([0.0, 0.3, 0.8])
        while True:
            check_position(deal, seen)
            if deal.is_over:
                break
            deal.apply(random_legal_action(deal, rng, kontra_rate))
    assert [case for case, n in seen.items() if not n and case not in RARE] == [], seen
    assert seen["seat"] > 3 * 1000


def test_the_typed_view_is_the_wire_view_in_rare_positions() -> None:
    """Open hands after trick 1 and given-up deals, which a block above may not reach."""
    seen = dict.fromkeys(SEEN, 0)
    for seed in range(1000, 3000):
        rng = random.Random(seed)
        deal = random_deal(seed)
        while not deal.is_over:
            deal.apply(random_legal_action(deal, rng, 0.3))
            if deal.hands_open() or (deal.result is not None and deal.result.given_up):
                check_position(deal, seen)
        if all(seen[case] >= 20 for case in RARE):
            break
    assert all(seen[case] >= 20 for case in RARE), seen


def _partway(seed: int, rng: random.Random, fewest: int, most: int, with_views: bool = False) -> Deal:
    """Deal ``seed`` after a random number of random legal actions (from ``fewest`` to ``most``, fewer if it
    ends); ``with_views``: its views asked for after each, as a server does (their caches built)."""
    deal = random_deal(seed)
    for _ in range(rng.randrange(fewest, most)):
        if deal.is_over:
            break
        deal.apply(random_legal_action(deal, rng, 0.3))
        if with_views:
            deal.view(None)
            deal.view(deal.to_move if deal.to_move is not None else 0)
    return deal


def test_views_of_a_copied_deal_follow_the_copy() -> None:
    """``Deal.copy`` shares nothing a view caches: both deals' views match the reference as they part ways."""
    seen = dict.fromkeys(SEEN, 0)
    for seed in range(15):
        rng = random.Random(seed)
        deal = _partway(seed, rng, 2, 30, with_views=True)
        other = deal.copy()
        other_rng = random.Random(seed + 1000)
        while not (deal.is_over and other.is_over):
            for d, r in ((deal, rng), (other, other_rng)):
                if not d.is_over:
                    d.apply(random_legal_action(d, r, 0.3))
                check_position(d, seen)


def test_a_deal_caught_up_with_its_advanced_copy_is_that_copy_and_its_views_stay_right() -> None:
    """``Deal.catch_up``: a move checked on a copy is kept; the deal stays one object, its views follow."""
    seen = dict.fromkeys(SEEN, 0)
    for seed in range(15):
        rng = random.Random(seed)
        deal = random_deal(seed)
        while not deal.is_over:
            deal.view(None)  # the views' caches are built as play goes, then kept across catching up
            deal.view(deal.to_move if deal.to_move is not None else 0)
            checked = deal.copy()
            checked.apply(random_legal_action(checked, rng, 0.3))
            history = list(checked.history)
            deal.catch_up(checked)
            assert deal.history == history and deal.phase is checked.phase and deal.hands == checked.hands
            check_position(deal, seen)


def test_a_copy_and_a_caught_up_deal_take_every_attribute_of_the_state() -> None:
    """``copy`` and ``catch_up`` name the deal's attributes one by one (a compiled class keeps no ``__dict__``
    to copy): each attribute but the views' is taken, none is left at its starting value."""
    deal = random_deal(3)
    # the seat dealing is a small int (one object per value): every other attribute gets a value of its own,
    # of the kind the copy copies where it does (the dealt hands as a tuple: a copy starts from them)
    names = [name for name in vars(deal) if name not in ("_views", "dealer")]
    markers: dict[str, object] = {}
    for name in names:
        value = getattr(deal, name)
        marker = type(value)(list(value)) if isinstance(value, (list, tuple, set)) else object()
        if isinstance(value, dict):
            marker = dict(value)
        setattr(deal, name, marker)
        markers[name] = marker
    caught_up = random_deal(4)
    views = caught_up._views
    caught_up.catch_up(deal)
    assert caught_up._views is views
    assert [name for name in names if getattr(caught_up, name) is not markers[name]] == []
    copied = deal.copy()
    fresh = ("hands", "history", "levels", "trick", "tricks", "won", "chain_declined")  # new containers
    assert [name for name in names if name not in fresh and getattr(copied, name) is not markers[name]] == []
    assert all(getattr(copied, name) == markers[name] and getattr(copied, name) is not markers[name] for name in fresh)


def test_a_pickled_deal_arrives_whole_and_plays_on_alike() -> None:
    """Sent to a worker process (the bots', the laboratory's), a deal is rebuilt from its dealt hands and given
    every other attribute (``Deal.__reduce__``): equal state and views, and the same play from there on."""
    from ulti.engine.deal import _PICKLED_STATE

    assert {*_PICKLED_STATE, "dealt", "dealer", "_views"} == set(vars(random_deal(1)))
    for seed in range(12):
        rng = random.Random(seed)
        deal = _partway(seed, rng, 0, 40)
        arrived = pickle.loads(pickle.dumps(deal))
        assert all(getattr(arrived, name) == getattr(deal, name) for name in vars(deal) if name != "_views")
        assert [arrived.view(s) for s in (0, 1, 2, None)] == [deal.view(s) for s in (0, 1, 2, None)]
        state = rng.getstate()
        for d in (deal, arrived):
            rng.setstate(state)
            while not d.is_over:
                d.apply(random_legal_action(d, rng, 0.3))
        assert arrived.history == deal.history and arrived.result == deal.result


# ---------------------------------------------------------------------------------------- the object


def a_finished_deal() -> Deal:
    for seed in range(100):
        rng = random.Random(seed)
        deal = random_deal(seed)
        while not deal.is_over:
            deal.apply(random_legal_action(deal, rng, 0.5))
        if deal.tricks and any(a.kind is Kind.TAKE for a in deal.history):
            return deal
    raise AssertionError("no finished deal with a take and tricks")


def test_views_are_immutable_hashable_and_pickle() -> None:
    deal = a_finished_deal()
    for viewer in VIEWERS:
        view = deal.seat_view(viewer)
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.phase = Phase.AUCTION  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.log[0].seat = 2  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.auction.passes = 5  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.tricks[0].winner = 1  # type: ignore[misc]
        assert not hasattr(view, "__dict__")  # slots: no room for new attributes either
        for value in (view.hands, view.log, view.kontra, view.tricks, view.marriages, view.won, view.hand_sizes):
            assert isinstance(value, tuple)
        assert hash(view) == hash(deal.seat_view(viewer))
        again = pickle.loads(pickle.dumps(view))
        assert again == view and again.to_json() == view.to_json()


def test_a_view_does_not_change_when_the_deal_moves_on() -> None:
    rng = random.Random(4)
    deal = random_deal(4)
    for _ in range(8):
        deal.apply(random_legal_action(deal, rng, 0.3))
    views = {viewer: deal.seat_view(viewer) for viewer in VIEWERS}
    wires = {viewer: json.dumps(deal.view(viewer)) for viewer in VIEWERS}
    while not deal.is_over:
        deal.apply(random_legal_action(deal, rng, 0.3))
        deal.view(None)
    for viewer in VIEWERS:
        assert json.dumps(views[viewer].to_json()) == wires[viewer]


def test_choices_and_the_own_hand() -> None:
    deal = random_deal(7)
    opener = deal.opener
    view = deal.seat_view(opener)
    choices = view.choices
    assert isinstance(choices, SeatChoices) and choices.must_discard and not choices.may_pass
    assert view.hand == deal.hands[opener] and count(view.hand) == 12
    assert choices.to_json() == deal.choices(opener).to_json()
    assert view.auction == AuctionState(None, None, 0, True)
    assert view.contract is None and view.trick is None and view.dealt is None
    spectator = deal.seat_view(None)
    assert spectator.choices is None and "choices" not in spectator.to_json()
    assert spectator.hands == (None, None, None)
    with pytest.raises(ValueError):
        spectator.hand  # noqa: B018
    other = deal.seat_view((opener + 1) % 3)
    assert other.choices is None and other.to_json()["choices"] is None


def test_the_parts() -> None:
    assert card_codes(0) == [] and codes_mask([]) == 0
    for mask in (0b1011, 0xFFFFFFFF, 1 << 31 | 1 << 8, 0x00F0_0F01):
        assert card_codes(mask) == [card_str(c) for c in iter_cards(mask)]
        assert codes_mask(card_codes(mask)) == mask
    deal = a_finished_deal()
    view = deal.seat_view(None)
    assert view.dealt == deal.dealt and view.result is deal.result
    assert all(isinstance(t, PlayedTrick) for t in view.tricks)
    assert [(t.leader, t.cards, t.winner) for t in view.tricks] == [(t.leader, t.cards, t.winner) for t in deal.tricks]
    assert isinstance(view.contract, ContractState)
    for part, multiplier in view.kontra:
        assert view.multiplier(part) == multiplier == deal.multiplier(part)
    entry = next(e for e in view.log if e.action is Kind.TAKE)
    assert entry.cards is not None and count(entry.cards) == 2  # a spectator sees the take once the deal is over
    assert LogEntry.from_json(entry.to_json()) == entry
