"""A tournament played through by random bots, as the director's log records it (tests and the example).

``python -m tests.tournaments.play`` writes the example record tests/data/examples/tournament-everyone-9.json.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from ulti.bots.random_bot import RandomBot
from ulti.duplicates.deals import duplicate_first_dealer
from ulti.engine.cards import parse_card
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.match import Match
from ulti.engine.record import match_to_record
from ulti.tournaments.duplicate import round_deals, round_seed
from ulti.tournaments.fours import ENGINE_DEALER, four_deal_scores
from ulti.tournaments.log import apply, replay
from ulti.tournaments.record import build_tournament_record
from ulti.tournaments.rounds import next_round

EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "examples" / "tournament-everyone-9.json"


def play_match(names: list[str], deals: int, rng: random.Random, dealt: list[Any] | None, first: int) -> Match:
    """A match of random bots; ``dealt``: each deal's hands (sport ulti), else shuffled by ``rng``."""
    match = Match(deals, first, names)
    bot = RandomBot(rng)
    for index in range(deals):
        if dealt is not None:
            hands = [[parse_card(c) for c in h] for h in dealt[index][1]]
        else:
            hands = deal_hands(rng, match.dealer_of(index))  # type: ignore[assignment]
        deal = match.new_deal(hands)
        while not deal.is_over:
            deal.apply(bot.act(deal.seat_view(deal.to_move)))
    return match


def play_four(deals: int, rng: random.Random) -> list[list[int]]:
    """A table of four played by random bots: each deal's four scores (the dealer sits out, scoring 0)."""
    bot = RandomBot(rng)
    out = []
    for index in range(deals):
        deal = Deal(deal_hands(rng, ENGINE_DEALER), ENGINE_DEALER)
        while not deal.is_over:
            deal.apply(bot.act(deal.seat_view(deal.to_move)))
        assert deal.result is not None
        out.append(four_deal_scores(index, list(deal.result.scores)))
    return out


def play_tournament(
    settings: dict[str, Any], players: list[dict[str, Any]], seed: int = 1, withdraw: dict[int, int] | None = None,
    replace: dict[int, int] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The log and the match records of a whole tournament; ``withdraw``/``replace``: round -> player."""
    log: list[dict[str, Any]] = [{"type": "created", "settings": settings}]
    log += [{"type": "registered", **p} for p in players]
    log += [{"type": "checked_in", "player": n} for n in range(len(players))]
    state = replay(log)
    rng = random.Random(seed)
    matches: dict[str, dict[str, Any]] = {}
    deals = settings.get("deals_per_round", 6)
    for number in range(1, settings["rounds"] + 1):
        if withdraw and number in withdraw:
            log.append({"type": "withdrew", "player": withdraw[number]})
            apply(state, log[-1])
        seating = [list(t) for t in next_round(state)]
        event = {"type": "round_seated", "round": number, "tables": seating}
        log.append(event)
        apply(state, event)
        if replace and number in replace:
            log.append({"type": "replaced_by_bot", "player": replace[number]})
            apply(state, log[-1])
        dealt = round_deals(settings.get("seed", 0), number, deals) if settings["format"] == "duplicate" else None
        first = duplicate_first_dealer(round_seed(settings.get("seed", 0), number)) if dealt else 0
        for t, table in enumerate(seating, start=1):
            if len(table) == 4:  # a table of four: no single match record, its deals' scores
                four = play_four(deals, rng)
                points = [sum(d[s] for d in four) for s in range(4)]
                log.append({"type": "result_recorded", "round": number, "table": t, "points": points, "deals": four})
                apply(state, log[-1])
                continue
            names = ["bot" if p is None else state.players[p].name for p in table]
            match = play_match(names, deals, rng, dealt, first)
            match_id = f"r{number}t{t}"
            matches[match_id] = match_to_record(match)
            scores = [list(d.result.scores) for d in match.deals if d.result is not None]
            log.append({"type": "result_recorded", "round": number, "table": t, "points": match.totals(),
                        "deals": scores, "match": match_id})
            apply(state, log[-1])
    log.append({"type": "published"})
    return log, matches


def example_record() -> dict[str, Any]:
    """The example: nine players, everyone meets everyone in four rounds of six deals, one correction;
    round 1's match records embedded, the later ones referenced by id."""
    names = ["Anna", "Bence", "Csilla", "Dani", "Emese", "Feri", "Gabi", "Hajni", "Imre"]
    log, matches = play_tournament({"format": "everyone", "rounds": 4, "deals_per_round": 6, "seed": 39},
                                   [{"name": n} for n in names], seed=39)
    # the director corrects one result (a misread sheet), keeping the match record's totals
    last = next(i for i, e in enumerate(log) if e["type"] == "result_recorded")
    first = log[last]
    log.insert(last + 1, {"type": "result_corrected", "round": 1, "table": first["table"], "points": first["points"],
                          "deals": first["deals"], "reason": "sheet re-read: the figures stand"})
    round_one = {k: v for k, v in matches.items() if k.startswith("r1t")}  # the rest referenced by id only
    return build_tournament_record("example-9", log, round_one)


if __name__ == "__main__":
    EXAMPLE.write_text(json.dumps(example_record(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(EXAMPLE)
