"""Fixed sets of positions the benchmarks and the laboratory measure bots and the solver on.

Each is a function of its arguments alone (a seed), so two runs, or two versions of a bot, see the
same positions.
"""

from __future__ import annotations

import random

from ulti.bots.heuristic import HeuristicBot
from ulti.bots.solver import Position
from ulti.bots.strong.hand import declarer_likelihood, discard_options, plausible_bids
from ulti.engine.contracts import BIDS_BY_CODE
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.play import NO_TRUMP
from ulti.engine.view import SeatView


def friendly_deals(code: str, n: int, seed: int) -> list[Position]:
    """``n`` start-of-play positions for ``code``, declarer-friendly set (fixed seed): the declarer's
    12 cards would make the strong bot bid ``code`` (see the module's docstring)."""
    rng = random.Random(f"{seed}-friendly-{code}")
    bid = BIDS_BY_CODE[code]
    trumps = [NO_TRUMP] if not bid.has_trumps else [3] if bid.is_hearts else [0, 1, 2]
    out: list[Position] = []
    while len(out) < n:
        cards = list(range(32))
        rng.shuffle(cards)
        twelve = sum(1 << c for c in cards[:12])
        for trump in trumps:
            a, b = discard_options(twelve, trump, 1)[0]
            talon = (1 << a) | (1 << b)
            kept = twelve & ~talon
            if bid in plausible_bids(kept, trump, {code}) and declarer_likelihood(bid, trump, kept) >= 0.5:
                declarer = rng.randrange(3)
                hands = [0, 0, 0]
                hands[declarer] = kept
                hands[(declarer + 1) % 3] = sum(1 << c for c in cards[12:22])
                hands[(declarer + 2) % 3] = sum(1 << c for c in cards[22:32])
                out.append(Position.start(hands, declarer, bid, trump, talon))
                break
    return out


def positions(deals: int, seed: int) -> list[SeatView]:
    """Every view of ``deals`` heuristic deals in which the seat on turn had a decision."""
    rng = random.Random(seed)
    views = []
    for number in range(deals):
        dealer = number % 3
        deal = Deal(deal_hands(rng, dealer), dealer)
        bots = [HeuristicBot(random.Random(f"{seed}:{number}:{s}")) for s in range(3)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None  # a deal not over has a seat on turn
            view = deal.seat_view(seat)
            views.append(view)
            deal.apply(bots[seat].act(view))
    return views


def lead_views(code: str, n: int, seed: int) -> list[SeatView]:
    """The declarer's view at his opening lead in ``n`` declarer-friendly deals of ``code``."""
    views = []
    for p in friendly_deals(code, n, seed):
        deal = Deal.at_play(list(p.hands), (p.declarer + 2) % 3, p.declarer, p.bid, p.trump, p.talon)
        views.append(deal.seat_view(p.declarer))
    return views
