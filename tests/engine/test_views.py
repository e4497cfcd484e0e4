"""Hidden information: no view shows a card its viewer may not see (docs/design.md, docs/rules.md §2.1, §3.5).

Random bots play many deals; at every step each seat's view, serialised to JSON text, must not name
a card of another seat's hidden hand or a talon card the seat never handled, and the spectator's
view must name no card that is not public.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from ulti.bots.random_bot import RandomBot
from ulti.engine import actions as act
from ulti.engine.actions import Kind
from ulti.engine.cards import FULL_DECK, CardSet, card_str, iter_cards, mask_of
from ulti.engine.contracts import BIDS_BY_CODE
from ulti.engine.deal import Deal, Phase
from ulti.engine.dealing import deal_hands

DEALS = 300
CODE = re.compile(r'"([789TJQKA][CSDH])"')


def codes_in(view: dict[str, object]) -> set[str]:
    """Every card code that appears as a JSON string anywhere in ``view``."""
    return set(CODE.findall(json.dumps(view)))


def played(deal: Deal) -> CardSet:
    """Cards on the table or in finished tricks."""
    mask = mask_of(deal.trick)
    for trick in deal.tricks:
        mask |= mask_of(trick.cards)
    return mask


def all_open(deal: Deal) -> bool:
    """Whether all hands are face up by docs/rules.md §3.5: an open contract after trick 1 (and its chain)."""
    contract = deal.contract
    return (
        contract is not None
        and contract.is_open
        and deal.phase is Phase.PLAY
        and bool(deal.tricks)
        and not deal.in_chain
    )


class Handled:
    """The cards each seat has held so far (its dealt hand and every talon it took)."""

    def __init__(self, deal: Deal) -> None:
        """Start from the dealt hands."""
        self.masks = list(deal.dealt)

    def before(self, deal: Deal, seat: int, kind: Kind) -> None:
        """Record what ``seat`` sees by taking the talon, before the take is applied."""
        if kind is Kind.TAKE:
            self.masks[seat] |= deal.talon


def visible_to(deal: Deal, seat: int | None, handled: Handled) -> CardSet:
    """The cards ``seat`` (None: a spectator) may see named now."""
    if deal.is_over:
        return FULL_DECK
    mask = played(deal)
    if seat is not None:
        mask |= handled.masks[seat] | deal.hands[seat]
    if all_open(deal):
        mask |= deal.hands[0] | deal.hands[1] | deal.hands[2]
    return mask


def check_views(deal: Deal, handled: Handled) -> None:
    """No view names a card its viewer may not see; the spectator sees no hand before the end."""
    order: list[int | None] = [0, 1, 2, None]
    random.Random(len(deal.history)).shuffle(order)  # the first viewer of a moment builds the shared part
    for seat in order:
        view = deal.view(seat)
        # the shared-part view is exactly the seat's own view, serialised
        assert view == deal.seat_view(seat).to_json(), f"view({seat}) in {deal!r}"
        hidden = FULL_DECK & ~visible_to(deal, seat, handled)
        leaked = codes_in(view) & {card_str(c) for c in iter_cards(hidden)}
        assert not leaked, f"view({seat}) shows {sorted(leaked)} in {deal!r}"
        if seat is not None:
            assert view["hands"][str(seat)] == [card_str(c) for c in iter_cards(deal.hands[seat])]
        if not deal.is_over and not all_open(deal):
            assert set(view["hands"]) == ({str(seat)} if seat is not None else set()), f"view({seat})"


def play_and_check(seed: int) -> Deal:
    """Deal from ``seed``, let random bots play it, and check every view at every step."""
    dealer = seed % 3
    deal = Deal(deal_hands(random.Random(seed), dealer), dealer)
    bots = [RandomBot(random.Random(seed * 3 + s)) for s in range(3)]
    handled = Handled(deal)
    for _ in range(300):
        check_views(deal, handled)
        if deal.is_over:
            break
        seats = [s for s in range(3) if deal.choices(s).any()]
        seat = random.Random(seed + len(deal.history)).choice(seats)
        action = bots[seat].act(deal.seat_view(seat))
        handled.before(deal, seat, action.kind)
        deal.apply(action)
    assert deal.is_over
    # once over, everything is revealed: the dealt hands and the talon
    final = deal.view(None)
    assert codes_in(final) == {card_str(c) for c in range(32)}
    return deal


@pytest.mark.parametrize("block", range(6))
def test_views_hide_what_each_seat_may_not_see(block: int) -> None:
    per_block = DEALS // 6
    for seed in range(block * per_block, (block + 1) * per_block):
        play_and_check(seed)


def test_the_random_deals_reach_the_cases_that_matter() -> None:
    """The deals above include talon pick-ups, open contracts played past trick 1, and kontra chains."""
    takes = opens = chains = 0
    for seed in range(DEALS):
        dealer = seed % 3
        deal = Deal(deal_hands(random.Random(seed), dealer), dealer)
        bots = [RandomBot(random.Random(seed * 3 + s)) for s in range(3)]
        while not deal.is_over:
            seats = [s for s in range(3) if deal.choices(s).any()]
            seat = random.Random(seed + len(deal.history)).choice(seats)
            chains += deal.in_chain
            deal.apply(bots[seat].act(deal.seat_view(seat)))
        takes += any(a.kind is Kind.TAKE for a in deal.history)
        assert deal.contract is not None
        opens += deal.contract.is_open and len(deal.tricks) >= 2
    assert takes >= 20 and opens >= 5 and chains >= 5


def test_talon_discards_are_hidden_from_the_others() -> None:
    """A seat's discards are in its own view's log, and nowhere in the others' or a spectator's."""
    deal = Deal(deal_hands(random.Random(1), 0), 0)
    opener = deal.opener
    hand = sorted(iter_cards(deal.hands[opener]))
    discard = (hand[0], hand[1])
    deal.apply(act.bid(opener, BIDS_BY_CODE["M-S"], discard))
    codes = {card_str(c) for c in discard}
    assert codes <= codes_in(deal.view(opener))
    for seat in (0, 1, 2, None):
        if seat != opener:
            assert not codes & codes_in(deal.view(seat)), f"view({seat}) shows the discards"
    taker = (opener + 1) % 3
    deal.apply(act.take(taker))
    assert codes <= codes_in(deal.view(taker))
    other = (opener + 2) % 3
    assert not codes & codes_in(deal.view(other))
    assert not codes & codes_in(deal.view(None))


def test_an_actions_view_change_turns_every_viewers_last_view_into_its_new_one() -> None:
    """``Deal.view_change``: where the change of the views is known from the action, the previous view of
    every viewer with the change put in (the keys alike, the viewer's own keys, its log's new entry and the
    appended tricks) is exactly its new view, and no key it leaves out changed."""
    viewers: tuple[int | None, ...] = (0, 1, 2, None)
    known = unknown = 0
    for seed in range(120):
        dealer = seed % 3
        deal = Deal(deal_hands(random.Random(seed), dealer), dealer)
        bots = [RandomBot(random.Random(seed * 3 + s)) for s in range(3)]
        before = {v: deal.view(v) for v in viewers}
        while not deal.is_over:
            seats = [s for s in range(3) if deal.choices(s).any()]
            seat = random.Random(seed + len(deal.history)).choice(seats)
            deal.apply(bots[seat].act(deal.seat_view(seat)))
            change = deal.view_change()
            after = {v: deal.view(v) for v in viewers}
            if change is None:
                unknown += 1
            else:
                known += 1
                for v in viewers:
                    built = dict(before[v])
                    built.update(change.changed)
                    built.update(change.own(v))
                    built["log"] = [*before[v]["log"], change.entry(v)]
                    for key, items in change.appended.items():
                        built[key] = [*before[v][key], *items]
                    assert built == after[v], (seed, len(deal.history), v)
            before = after
    assert known > 10 * unknown
