"""Duplicate-deal arena: two bot levels play the same cards from every seat, scores with a 95% interval.

Each duplicate set is one deal (fixed cards and dealer) played six times: bot A alone in each of the
three seats against two B's, then B alone in each seat against two A's. Over a set, A and B hold every
hand equally often, so the luck of the cards cancels out. The set's sample is A's mean score per play.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import IO, Any

from ulti.bots.base import Bot, bot_for_level
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.record import deal_to_record

MAX_ACTIONS = 400


@dataclass(frozen=True)
class SetResult:
    """One duplicate set: A's mean score per play, and the six deal records."""

    index: int
    a_mean: float
    records: tuple[dict[str, Any], ...]


def seatings() -> list[tuple[str, str, str]]:
    """The six seatings of a duplicate set: one A and two B's, then one B and two A's."""
    out: list[tuple[str, str, str]] = []
    for lone, other in (("A", "B"), ("B", "A")):
        for seat in range(3):
            row = [other, other, other]
            row[seat] = lone
            out.append((row[0], row[1], row[2]))
    return out


def play_deal(deal: Deal, bots: list[Bot]) -> None:
    """Play ``deal`` to its end, each seat's bot acting from its own view."""
    for _ in range(MAX_ACTIONS):
        if deal.is_over:
            return
        seat = deal.to_move
        deal.apply(bots[seat].act(deal.seat_view(seat)))
    raise RuntimeError("deal did not finish")


def play_set(level_a: str, level_b: str, seed: int, index: int) -> SetResult:
    """Play duplicate set ``index`` of the run with ``seed``."""
    rng = random.Random(f"{seed}:{index}")
    dealer = rng.randrange(3)
    hands = deal_hands(rng, dealer)
    scores_a: list[float] = []
    records = []
    for n, seating in enumerate(seatings()):
        bots = [
            bot_for_level(level_a if who == "A" else level_b, random.Random(f"{seed}:{index}:{n}:{seat}"))
            for seat, who in enumerate(seating)
        ]
        deal = Deal(hands, dealer)
        play_deal(deal, bots)
        assert deal.result is not None
        scores_a.append(sum(s for s, who in zip(deal.result.scores, seating, strict=True) if who == "A"))
        records.append(deal_to_record(deal))
    return SetResult(index, statistics.fmean(scores_a), tuple(records))


@dataclass(frozen=True)
class ArenaSummary:
    """A's mean score per play with its 95% confidence interval (B's is its negative)."""

    sets: int
    mean: float
    low: float
    high: float

    def excludes_zero(self) -> bool:
        """Whether the interval shows a real difference between the two bots."""
        return self.low > 0 or self.high < 0


def summarise(samples: list[float]) -> ArenaSummary:
    """Mean and normal-approximation 95% interval of the per-set samples."""
    n = len(samples)
    mean = statistics.fmean(samples)
    half = 1.96 * statistics.stdev(samples) / math.sqrt(n) if n > 1 else math.inf
    return ArenaSummary(n, mean, mean - half, mean + half)


def run_sets(level_a: str, level_b: str, sets: int, seed: int, workers: int) -> Iterator[SetResult]:
    """Play ``sets`` duplicate sets on ``workers`` processes, yielding results as they finish."""
    if workers <= 1:
        for i in range(sets):
            yield play_set(level_a, level_b, seed, i)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(play_set, [level_a] * sets, [level_b] * sets, [seed] * sets, range(sets), chunksize=4)


def progress_bar(done: int, total: int, width: int = 30) -> str:
    """A text progress bar such as ``[#######.......]  25/100``."""
    filled = width * done // total
    return f"[{'#' * filled}{'.' * (width - filled)}] {done:>{len(str(total))}}/{total}"


def run_arena(
    level_a: str,
    level_b: str,
    sets: int,
    seed: int,
    workers: int,
    records_out: IO[str] | None,
    progress: Callable[[str], None] | None = None,
) -> ArenaSummary:
    """Play the arena and return A's summary; deal records go to ``records_out`` (JSON lines)."""
    samples: list[float] = []
    for result in run_sets(level_a, level_b, sets, seed, workers):
        samples.append(result.a_mean)
        if records_out is not None:
            for record in result.records:
                records_out.write(json.dumps(record, separators=(",", ":")) + "\n")
        if progress is not None:
            progress(progress_bar(len(samples), sets))
    return summarise(samples)


def print_progress(line: str) -> None:
    """Redraw the progress bar on standard error (on a log file: a line at every tenth)."""
    if sys.stderr.isatty():
        sys.stderr.write("\r" + line)
    else:
        done, total = (int(x) for x in line.rsplit(" ", 1)[-1].split("/"))
        if done == total or done % max(1, total // 10) == 0:
            sys.stderr.write(line + "\n")
    sys.stderr.flush()
