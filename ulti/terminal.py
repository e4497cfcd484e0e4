"""A match among bots, printed in the terminal deal by deal (``ulti play``, ``make run``)."""

from __future__ import annotations

import random
from typing import TextIO

from ulti.bots.heuristic import HeuristicBot
from ulti.bots.interface import Bot
from ulti.bots.selfplay import play_deal
from ulti.engine.cards import SUIT_SYMBOLS, card_label, iter_cards
from ulti.engine.contracts import BIDS_BY_CODE
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.match import Match


def play_match(deals: int, seed: int | None, players: list[str] | None = None) -> Match:
    """Play a whole match of ``deals`` deals among heuristic bots (tie-break deals included)."""
    rng = random.Random(seed)
    bots: list[Bot] = [HeuristicBot(random.Random(rng.random())) for _ in range(3)]
    match = Match(deals, first_dealer=rng.randrange(3), players=players or ["Bot A", "Bot B", "Bot C"])
    while not match.is_over:
        deal = match.new_deal(deal_hands(rng, match.dealer_of(len(match.deals))))
        play_deal(deal, bots)
    return match


def describe_deal(index: int, deal: Deal) -> str:
    """One deal as a few lines: contract, declarer, trump and the result part by part."""
    result = deal.result
    assert result is not None
    bid = BIDS_BY_CODE[result.bid.code]
    head = f"Deal {index + 1}: seat {result.declarer} declares {bid.code} ({bid.name_en})"
    if result.given_up:
        return head + " and gives up: pays 2 to each defender"
    trump = "no trumps" if result.trump < 0 else f"trumps {SUIT_SYMBOLS[result.trump]}"
    lines = [f"{head}, {trump}"]
    if result.points:
        lines.append(f"    points: declarer {result.points[0]}, defenders {result.points[1]}")
    for part in result.parts:
        mult = f" x{part.multiplier}" if part.multiplier > 1 else ""
        lines.append(
            f"    {part.part.value:<10} {'won ' if part.won else 'lost'} value {part.value}{mult}: "
            f"{part.per_defender:+d} per defender"
        )
    for bonus in result.silent:
        lines.append(f"    silent {bonus.bonus} ({bonus.side}): {bonus.per_defender:+d} per defender")
    if result.ended_early:
        lines.append(f"    ended early after trick {result.tricks}")
    talon = " ".join(card_label(c) for c in iter_cards(deal.talon))
    lines.append(f"    talon {talon}; scores {list(result.scores)}")
    return "\n".join(lines)


def play_match_in_terminal(deals: int, seed: int | None, out: TextIO) -> Match:
    """Play a bot match and print each deal and the running score sheet to ``out``."""
    match = play_match(deals, seed)
    out.write(f"A match of {deals} deals among heuristic bots: {', '.join(match.players)}\n\n")
    for i, (deal, row) in enumerate(zip(match.deals, match.score_sheet(), strict=True)):
        out.write(describe_deal(i, deal) + "\n")
        sheet = "  ".join(f"{name} {total:+d}" for name, total in zip(match.players, row, strict=True))
        out.write(f"    score sheet: {sheet}")
        out.write("\n\n")
    winner = match.winner()
    assert winner is not None
    out.write(f"Winner: {match.players[winner]} with {match.totals()[winner]:+d} after {len(match.deals)} deals\n")
    return match
