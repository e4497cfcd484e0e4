"""Two arena runs on the same seed, compared set by set from their deal records (``ulti arena --records``).

A duplicate set's deal (and in card-play mode its auction) and its bots' generators depend only on the
arena's seed and the set's index (``ulti.lab.arena.dealt``), so two runs of the same seed and mode with
different A levels play the same deals. The difference of A's score per set between the two runs is a
paired sample: much narrower than either run's interval against B wherever the two A levels play alike.
Printed: each run's A score per deal and the difference (new minus old) with 95% intervals, overall and
per contract family of the old run's set, and how many sets differ at all.

    python -m ulti.lab.paired_sets OLD.jsonl NEW.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from dataclasses import dataclass

from ulti.bots.families import FAMILIES, family
from ulti.engine.record import deal_from_record
from ulti.lab.arena import ArenaSummary, a_score, seatings, set_family, summarise

#: The plays of one duplicate set in a record file (one per seating).
PLAYS = len(seatings())


@dataclass(frozen=True)
class SetScore:
    """One duplicate set of a record file: A's mean score per play and the set's contract family."""

    a_mean: float
    family: str


def set_scores(path: str) -> list[SetScore]:
    """A's score per set of an arena's record file, as the arena scores it (``a_score`` per play, the mean
    over the set's plays; the set's family by ``set_family``)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out = []
    for start in range(0, len(lines) - len(lines) % PLAYS, PLAYS):
        scores: list[float] = []
        families: Counter[str] = Counter()
        for line, seating in zip(lines[start : start + PLAYS], seatings(), strict=True):
            result = deal_from_record(json.loads(line)).result
            assert result is not None, "an arena record is a whole deal"
            scores.append(a_score(result.scores, seating))
            families[family(result.bid, result.given_up)] += 1
        out.append(SetScore(statistics.fmean(scores), set_family(families)))
    return out


def compare(old: list[SetScore], new: list[SetScore]) -> dict[str, tuple[ArenaSummary, ArenaSummary, ArenaSummary]]:
    """Per group (``all`` and each family of the old run's sets with two or more sets), the old run's, the
    new run's and the paired difference's summaries over the sets both files hold."""
    n = min(len(old), len(new))
    groups: dict[str, list[int]] = {"all": list(range(n))}
    for name in FAMILIES:
        groups[name] = [i for i in range(n) if old[i].family == name]
    return {
        name: (
            summarise([old[i].a_mean for i in sets]),
            summarise([new[i].a_mean for i in sets]),
            summarise([new[i].a_mean - old[i].a_mean for i in sets]),
        )
        for name, sets in groups.items()
        if len(sets) > 1
    }


def _cell(summary: ArenaSummary) -> str:
    return f"{summary.mean:+.3f} [{summary.low:+.3f}, {summary.high:+.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", help="the first run's deal records")
    parser.add_argument("new", help="the second run's deal records (same seed and mode)")
    args = parser.parse_args()
    old, new = set_scores(args.old), set_scores(args.new)
    n = min(len(old), len(new))
    differ = sum(1 for i in range(n) if old[i].a_mean != new[i].a_mean)
    print(f"{n} sets compared ({differ} differ): A's score per deal, old, new, and new minus old (95% intervals)")
    for name, (o, w, d) in compare(old, new).items():
        print(f"  {name:10s} {o.sets:4d} sets  old {_cell(o)}  new {_cell(w)}  new - old {_cell(d)}")


if __name__ == "__main__":
    main()
