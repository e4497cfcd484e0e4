"""Writes tests/data/examples/match-four.json: a table of four's match played by heuristic bots.

``python -m tests.engine.four_example`` rewrites the record and its result (``ulti score``'s output
with the per-deal results left out, as the other match example keeps them).
"""

from __future__ import annotations

import json
import random
from typing import Any

from tests.conftest import EXAMPLES
from ulti.bots.heuristic import HeuristicBot
from ulti.bots.interface import Bot
from ulti.bots.selfplay import play_deal
from ulti.engine.dealing import deal_hands
from ulti.engine.fourmatch import FourMatch
from ulti.engine.record import four_match_to_record, score_record

PLAYERS = ["Anna", "Bence", "Csaba", "Dora"]


def four_example(seed: int = 39) -> dict[str, Any]:
    """A whole match at a table of four among heuristic bots (tie-break deals included), as a record."""
    rng = random.Random(seed)
    bots: list[Bot] = [HeuristicBot(random.Random(rng.random())) for _ in range(3)]
    match = FourMatch(first_dealer=rng.randrange(4), players=PLAYERS)
    while not match.is_over:
        play_deal(match.new_deal(deal_hands(rng, match.dealer_of(len(match.deals)))), bots)
    return four_match_to_record(match)


def main() -> None:
    """Write the example record and its result file."""
    record = four_example()
    (EXAMPLES / "match-four.json").write_text(json.dumps(record) + "\n")
    result = score_record(record)
    result["deals"] = []
    (EXAMPLES / "match-four.result.json").write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
