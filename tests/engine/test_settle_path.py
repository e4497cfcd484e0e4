"""The fast settlement path: ``Bid``'s precomputed part tables, the bit-arithmetic ``marriages_of``, and
the results ``settle`` builds without the frozen dataclasses' ``__init__`` (``Trick``'s own ``__init__``,
``scoring._built``) are the same objects the plain code would give: equal, hashable, picklable, frozen."""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

import pytest

from tests.engine.test_properties import random_action
from ulti.engine.cards import KING, QUEEN
from ulti.engine.contracts import BIDS, PART_ORDER, Bid, Part, TrumpKind
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.play import NO_TRUMP
from ulti.engine.scoring import DealResult, PointsDetail, Trick, marriages_of


def rebuilt(obj: Any) -> Any:
    """``obj`` built again through its class's own constructor, from its fields (nested results too)."""
    values = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type) and not isinstance(value, Bid):
            value = rebuilt(value)
        elif isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
            value = tuple(rebuilt(v) for v in value)
        values[f.name] = value
    return type(obj)(**values)


def finished_deals(count: int, seed: str) -> list[Deal]:
    """Random complete deals (auction, kontra, play) of every kind of contract."""
    rng = random.Random(seed)
    out = []
    for number in range(count):
        deal = Deal(deal_hands(rng, number % 3), number % 3)
        kontra_said: set[int] = set()
        while not deal.is_over:
            deal.apply(random_action(deal, rng, kontra_said))
        out.append(deal)
    return out


@pytest.mark.parametrize("bid", BIDS, ids=lambda b: b.code)
def test_bid_part_tables_match_its_parts(bid: Bid) -> None:
    for part in Part:
        listed = [v for p, v in bid.parts if p is part]
        assert bid.has(part) == bool(listed)
        assert bid.part_value(part) == (listed[0] if listed else 0)
    assert bid.ordered_parts == tuple((p, bid.part_value(p)) for p in PART_ORDER if bid.part_value(p))


def test_a_bid_listing_a_part_twice_keeps_the_first_value() -> None:
    bid = Bid("X-X", "test", "teszt", TrumpKind.MINOR, ((Part.ULTI, 4), (Part.SIMPLE, 1), (Part.ULTI, 9)), False)
    assert bid.part_value(Part.ULTI) == 4
    assert bid.ordered_parts == ((Part.SIMPLE, 1), (Part.ULTI, 4))
    assert not bid.has(Part.BETLI)


def test_marriages_match_a_suit_by_suit_count() -> None:
    rng = random.Random("marriages")
    for _ in range(2_000):
        hand = rng.getrandbits(32)
        for trump in (NO_TRUMP, 0, 1, 2, 3):
            pairs = [s for s in range(4) if hand >> (s * 8 + KING) & 1 and hand >> (s * 8 + QUEEN) & 1]
            forty = 1 if trump in pairs else 0
            assert marriages_of(hand, trump) == (forty, len(pairs) - forty)


def test_trick_init_gives_the_dataclass_it_declares() -> None:
    trick = Trick(2, (5, 9, 31), 0)
    assert trick == Trick(leader=2, cards=(5, 9, 31), winner=0)
    assert trick != Trick(2, (5, 9, 31), 1)
    assert dataclasses.replace(trick, winner=1) == Trick(2, (5, 9, 31), 1)
    assert hash(trick) == hash(Trick(2, (5, 9, 31), 0))
    assert pickle.loads(pickle.dumps(trick)) == trick
    assert repr(trick) == "Trick(leader=2, cards=(5, 9, 31), winner=0)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        trick.winner = 1  # type: ignore[misc]


def test_settled_results_equal_the_constructors_and_stay_frozen() -> None:
    """Every result of random complete deals (every kind of contract, kontra, give-ups) has exactly its
    class's fields, and equals (hash included) the result its constructors build from those fields."""
    seen_kinds = set()
    for deal in finished_deals(300, "settle-path"):
        result = deal.result
        assert result is not None
        seen_kinds.add(result.bid.kind if not result.given_up else "given up")
        names = {f.name for f in dataclasses.fields(DealResult)}
        assert set(vars(result)) == names
        if result.detail is not None:
            assert set(vars(result.detail)) == {f.name for f in dataclasses.fields(PointsDetail)}
        again = rebuilt(result)
        assert again == result and hash(again) == hash(result)
        assert again.detail == result.detail  # not compared by DealResult's __eq__
        assert pickle.loads(pickle.dumps(result)) == result
        assert result.to_json() == again.to_json() and result.view_json() == again.view_json()
        with pytest.raises(dataclasses.FrozenInstanceError):
            result.per_defender = 0  # type: ignore[misc]
    assert seen_kinds >= {TrumpKind.MINOR, TrumpKind.HEARTS, TrumpKind.NO_TRUMP}
