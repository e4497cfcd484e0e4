"""Engine speed figures (``make bench``): medians of repeated runs on one core, with ratios.

Printed figures:
- random legal card-play games per second (fresh deal, fixed trump contract, 10 random tricks, scored)
  through ``Deal`` (the public API, CPU time of this process, interleaved repeats) and through the core
  alone (``legal_cards``, ``trick_winner_index`` and ``settle`` on plain ints). Through ``Deal`` with two
  harnesses: the issue's (each deal shuffled and each card drawn with ``random_card`` inside the timed
  loop: about a quarter of the path's time), and a lean one (the same kind of games: the deals drawn
  before the timing, each card drawn uniformly from the legal ones with one ``random()``), whose figure
  is closer to the engine's own; and the same games replayed (no random choice timed);
- complete random legal deals per second (auction with talon, kontra, play, scoring), and the same
  with random bots acting from their typed views (``Deal.seat_view``);
- wire views per second (``Deal.view``: the JSON a server sends, for every seat and a spectator after
  every action of random deals);
- legal-card generations per second (the engine's bitmask generator, and a plain list-scanning
  baseline written from the rules text, run in the same process for the ratio);
- ``ulti score --jsonl`` records per second (in process, and through the real command).
The targets quoted by the issue (peer engine on this machine kind) are printed beside them.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from benchmarks.cores import pin_to_one_core
from ulti.bots.random_bot import RandomBot, random_card, random_legal_action
from ulti.cli import score_text
from ulti.engine.cards import iter_cards
from ulti.engine.contracts import BIDS_BY_CODE
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.play import legal_cards, trick_winner_index
from ulti.engine.record import deal_to_record
from ulti.engine.scoring import Trick, settle

REPEATS = 5
PEER_GAMES_PER_S = 3_300
PEER_DEAL_GAMES_PER_S = 4_490  # the peer's engine in the harness, games/s, as the issue measured it
PEER_GENERATIONS_PER_S = 290_000


def median_rate(work: Callable[[], int], repeats: int = REPEATS) -> float:
    """Median over ``repeats`` runs of (units of work done) / seconds."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        units = work()
        rates.append(units / (time.perf_counter() - start))
    return statistics.median(rates)


def card_play_games(n: int, seed: int = 1) -> int:
    """Play ``n`` random card-play games through ``Deal.play``; return n."""
    rng = random.Random(seed)
    bid = BIDS_BY_CODE["M-S"]
    for _ in range(n):
        hands = deal_hands(rng, 0)
        talon_cards = list(iter_cards(hands[1]))[:2]
        talon = (1 << talon_cards[0]) | (1 << talon_cards[1])
        hands[1] &= ~talon
        deal = Deal.at_play(hands, 0, 1, bid, 1, talon)
        while (seat := deal.to_move) is not None:  # None once the deal is over
            deal.play(seat, random_card(deal.legal_card_mask(), rng))
    return n


Dealt = tuple[list[int], int]


def drawn_deals(n: int, seed: int = 1) -> list[Dealt]:
    """``n`` deals as ``card_play_games`` draws them (10-card hands, talon), drawn before any timing."""
    rng = random.Random(seed)
    out: list[Dealt] = []
    for _ in range(n):
        hands = deal_hands(rng, 0)
        talon_cards = list(iter_cards(hands[1]))[:2]
        talon = (1 << talon_cards[0]) | (1 << talon_cards[1])
        hands[1] &= ~talon
        out.append((hands, talon))
    return out


def lean_games(deals: list[Dealt], seed: int = 1) -> int:
    """Random legal games through ``Deal`` on ready ``deals`` (the lean harness): each card drawn
    uniformly from ``legal_card_mask()`` with one ``random()``; return how many games were played."""
    rand = random.Random(seed).random
    bid = BIDS_BY_CODE["M-S"]
    for hands, talon in deals:
        deal = Deal.at_play(hands, 0, 1, bid, 1, talon)
        while (seat := deal.to_move) is not None:  # None once the deal is over
            mask = deal.legal_card_mask()
            for _ in range(int(rand() * mask.bit_count())):
                mask &= mask - 1  # drop the lowest card: the k-th card is then the lowest left
            deal.play(seat, (mask & -mask).bit_length() - 1)
    return len(deals)


def core_games(n: int, seed: int = 1) -> int:
    """The games of ``card_play_games`` (same deals, same random cards) on the core alone: plain ints,
    ``legal_cards``, ``trick_winner_index`` and ``settle``, no ``Deal``; return n."""
    rng = random.Random(seed)
    bid = BIDS_BY_CODE["M-S"]
    trump = 1
    for _ in range(n):
        hands = deal_hands(rng, 0)
        talon_cards = list(iter_cards(hands[1]))[:2]
        talon = (1 << talon_cards[0]) | (1 << talon_cards[1])
        hands[1] &= ~talon
        start = tuple(hands)
        leader = 1
        tricks = []
        for _ in range(10):
            cards: list[int] = []
            led = top = -1
            for i in range(3):
                seat = (leader + i) % 3
                card = random_card(legal_cards(hands[seat], led, top, trump, -1), rng)
                hands[seat] ^= 1 << card
                cards.append(card)
                led = cards[0] >> 3
                top = cards[trick_winner_index(cards, trump)]
            winner = (leader + trick_winner_index(cards, trump)) % 3
            tricks.append(Trick(leader, (cards[0], cards[1], cards[2]), winner))
            leader = winner
        settle(bid=bid, declarer=1, trump=trump, tricks=tricks, start_hands=start, talon=talon, multipliers={})
    return n


Replay = tuple[list[int], int, list[tuple[int, int]]]


def recorded_games(n: int, seed: int = 1) -> list[Replay]:
    """The games of ``card_play_games`` as (hands, talon, [(seat, card), ...]), to replay without the
    random choices (so that only the engine is timed)."""
    rng = random.Random(seed)
    bid = BIDS_BY_CODE["M-S"]
    out: list[Replay] = []
    for _ in range(n):
        hands = deal_hands(rng, 0)
        talon_cards = list(iter_cards(hands[1]))[:2]
        talon = (1 << talon_cards[0]) | (1 << talon_cards[1])
        hands[1] &= ~talon
        deal = Deal.at_play(hands, 0, 1, bid, 1, talon)
        moves = []
        while (seat := deal.to_move) is not None:  # None once the deal is over
            card = random_card(deal.legal_card_mask(), rng)
            moves.append((seat, card))
            deal.play(seat, card)
        out.append((hands, talon, moves))
    return out


def replay_games(games: list[Replay]) -> int:
    """Replay ``games`` through ``Deal``: at_play, then legal_card_mask and play per card (scored)."""
    bid = BIDS_BY_CODE["M-S"]
    for hands, talon, moves in games:
        deal = Deal.at_play(hands, 0, 1, bid, 1, talon)
        for seat, card in moves:
            deal.legal_card_mask()
            deal.play(seat, card)
    return len(games)


def cpu_rates(works: dict[str, Callable[[], int]], repeats: int = 9) -> dict[str, float]:
    """Median units per CPU second of each work, the works' repeats interleaved (on a shared machine
    the process's CPU time is the fair measure of one core, and interleaving spreads any drift)."""
    rates: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(repeats):
        for name, work in works.items():
            start = time.process_time()
            units = work()
            rates[name].append(units / (time.process_time() - start))
    return {name: statistics.median(r) for name, r in rates.items()}


def complete_deals(n: int, seed: int = 2) -> int:
    """Play ``n`` complete random legal deals through ``Deal.apply`` (auction, kontra, play); return n."""
    rng = random.Random(seed)
    for i in range(n):
        deal = Deal(deal_hands(rng, i % 3), i % 3)
        while not deal.is_over:
            deal.apply(random_legal_action(deal, rng))
    return n


def complete_deals_with_views(n: int, seed: int = 2) -> int:
    """Play ``n`` complete deals among random bots that each act from ``seat_view(seat)``; return n."""
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(seed + s)) for s in range(3)]
    for i in range(n):
        deal = Deal(deal_hands(rng, i % 3), i % 3)
        while (seat := deal.to_move) is not None:  # None once the deal is over
            deal.apply(bots[seat].act(deal.seat_view(seat)))
    return n


def wire_view_rate(n: int, seed: int = 5) -> float:
    """``Deal.view`` calls per second (only the calls are timed): the three seats and a spectator after
    every action of ``n`` random deals, as a server builds them per event."""
    rng = random.Random(seed)
    views = 0
    elapsed = 0.0
    for i in range(n):
        deal = Deal(deal_hands(rng, i % 3), i % 3)
        while True:
            start = time.perf_counter()
            for viewer in (None, 0, 1, 2):
                deal.view(viewer)
            elapsed += time.perf_counter() - start
            views += 4
            if deal.is_over:
                break
            deal.apply(random_legal_action(deal, rng))
    return views / elapsed


def positions(count: int, seed: int = 3) -> list[tuple[int, int, int, int, int]]:
    """Mid-trick positions (hand, led suit, top card, trump, held seven) from random games."""
    rng = random.Random(seed)
    out: list[tuple[int, int, int, int, int]] = []
    bid = BIDS_BY_CODE["M-SU"]
    while len(out) < count:
        hands = deal_hands(rng, 0)
        talon_cards = list(iter_cards(hands[1]))[:2]
        talon = (1 << talon_cards[0]) | (1 << talon_cards[1])
        hands[1] &= ~talon
        deal = Deal.at_play(hands, 0, 1, bid, rng.randrange(3), talon)
        while (seat := deal.to_move) is not None:  # None once the deal is over
            out.append((deal.hands[seat], deal.led_suit(), deal.top_card(), deal.trump, deal.held_seven(seat)))
            deal.play(seat, random_card(deal.legal_card_mask(), rng))
    return out[:count]


# Trump order A 10 K Q J 9 8 7 as a list, for the baseline only.
_BASELINE_ORDER = [0, 1, 2, 6, 3, 4, 5, 7]


def baseline_legal(hand: int, led: int, top: int, trump: int, seven: int) -> list[int]:
    """A plain list-scanning legal-card generator written from docs/rules.md §3.3 (the baseline)."""
    cards = [c for c in range(32) if hand >> c & 1]
    if led < 0:
        legal = cards
    else:
        follow = [c for c in cards if c // 8 == led]

        def beats(c: int) -> bool:
            if c // 8 == top // 8:
                return _BASELINE_ORDER[c % 8] > _BASELINE_ORDER[top % 8]
            return c // 8 == trump

        if follow:
            better = [c for c in follow if beats(c)] if top // 8 == led else []
            legal = better or follow
        else:
            trumps = [c for c in cards if c // 8 == trump]
            legal = ([c for c in trumps if beats(c)] or trumps) if trumps else cards
    if seven in legal and len(legal) > 1:
        legal = [c for c in legal if c != seven]
    return legal


def generations(fn: Callable[[int, int, int, int, int], object], pos: list[tuple[int, int, int, int, int]]) -> int:
    """Call a legal-card generator on every position; return how many calls were made."""
    for hand, led, top, trump, seven in pos:
        fn(hand, led, top, trump, seven)
    return len(pos)


def make_records(n: int, seed: int = 4) -> list[str]:
    """``n`` finished random deals as one-line JSON records."""
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(seed + s)) for s in range(3)]
    lines = []
    for i in range(n):
        deal = Deal(deal_hands(rng, i % 3), i % 3)
        while (seat := deal.to_move) is not None:  # None once the deal is over
            deal.apply(bots[seat].act(deal.seat_view(seat)))
        lines.append(json.dumps(deal_to_record(deal), separators=(",", ":")))
    return lines


def main() -> None:
    """Print the engine figures."""
    pin_to_one_core()
    print(f"engine benchmarks, median of {REPEATS} runs, one core, Python {sys.version.split()[0]}")
    games = median_rate(lambda: card_play_games(2_000))
    print(f"card-play games/s        {games:10,.0f}   target 6,000 ({games / 6000:.2f}x); "
          f"the peer's published figure {PEER_GAMES_PER_S:,} (another machine: no ratio)")
    replays = recorded_games(1_000)
    ready = drawn_deals(1_000)
    cpu = cpu_rates({
        "issue": lambda: card_play_games(1_000),
        "lean": lambda: lean_games(ready),
        "core": lambda: core_games(1_000),
        "replay": lambda: replay_games(replays),
    })
    print(f"  through Deal, CPU time, the issue's harness (shuffle and random_card timed): {cpu['issue']:,.0f}"
          f" games/s (the peer's engine in that harness as the issue measured it on another machine:"
          f" {PEER_DEAL_GAMES_PER_S:,}, no ratio); core alone {cpu['core']:,.0f}"
          f" (Deal/core {cpu['issue'] / cpu['core']:.2f})")
    print(f"  through Deal, CPU time, lean harness (deals drawn untimed, one random() per card):"
          f" {cpu['lean']:,.0f} games/s")
    print(f"  the same games replayed (no random choices timed): {cpu['replay']:,.0f} games/s (settle included)")
    deals = median_rate(lambda: complete_deals(500))
    print(f"complete deals/s         {deals:10,.0f}   target 2,000 ({deals / 2000:.2f}x)")
    viewed = median_rate(lambda: complete_deals_with_views(200), repeats=3)
    print(f"complete deals/s, views  {viewed:10,.0f}   (each action chosen from a freshly built seat_view(seat))")
    wire = statistics.median(wire_view_rate(200) for _ in range(REPEATS))
    print(f"wire views/s             {wire:10,.0f}   (Deal.view JSON for 3 seats and a spectator after each action)")
    pos = positions(20_000)
    fast = median_rate(lambda: generations(legal_cards, pos))
    base = median_rate(lambda: generations(baseline_legal, pos))
    print(f"legal-card generations/s {fast:10,.0f}   target 600,000 ({fast / 600_000:.2f}x); "
          f"the peer's published figure {PEER_GENERATIONS_PER_S:,} (no ratio); list baseline {base:,.0f}"
          f" ({fast / base:.1f}x, this run)")
    records = make_records(1_000)
    in_process = median_rate(lambda: sum(1 for line in records if score_text(line)))
    print(f"score records/s          {in_process:10,.0f}   (in process, score_text)")
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as fh:
        fh.write("\n".join(records * 5) + "\n")
        path = fh.name
    try:
        def run_cli() -> int:
            subprocess.run([sys.executable, "-m", "ulti.cli", "score", "--jsonl", path],
                           check=True, stdout=subprocess.DEVNULL)
            return len(records) * 5
        cli = median_rate(run_cli, repeats=3)
    finally:
        os.unlink(path)
    print(f"ulti score --jsonl rec/s {cli:10,.0f}   (real command, 5,000 records, start-up included)")


if __name__ == "__main__":
    main()
