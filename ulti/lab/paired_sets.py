"""Two arena runs on the same seed, compared set by set from their deal records (``ulti arena --records``).

A duplicate set's deal (and in card-play mode its auction) and its bots' generators depend only on the
arena's seed and the set's index (``ulti.lab.arena.dealt``), so two runs of the same seed and mode with
different A levels play the same deals. The difference of A's score per set between the two runs is a
paired sample: much narrower than either run's interval against B wherever the two A levels play alike.
Printed: each run's A score per deal and the difference (new minus old) with 95% intervals, overall and
per contract family of the old run's set, and how many sets differ at all.

With ``--steps``, where the difference comes from: the plays whose scores or kontra steps differ between the
runs, grouped by family and by the steps each run's play said (who said them, A or B, declarer or defender,
and on which parts), each group with its plays, A's mean difference per play and its share of the overall
new minus old per deal (the shares add up to it). Two levels that differ only in their kontra policy part
only at their kontra steps, so this names the steps that won and lost.

    python -m ulti.lab.paired_sets OLD.jsonl NEW.jsonl [--steps]
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


@dataclass(frozen=True)
class PlayOutcome:
    """One play of a record file: A's score, the contract family, and the kontra steps said, in order, each as
    who said it and on which parts (``"A defender: simple+ulti"``)."""

    a_score: int
    family: str
    steps: tuple[str, ...]


def play_outcomes(path: str) -> list[PlayOutcome]:
    """Every play of an arena's record file (the seatings in the arena's order, ``seatings``)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out = []
    for i, line in enumerate(lines[: len(lines) - len(lines) % PLAYS]):
        record = json.loads(line)
        seating = seatings()[i % PLAYS]
        result = deal_from_record(record).result
        assert result is not None, "an arena record is a whole deal"
        steps = tuple(
            f"{seating[act['seat']]} {'declarer' if act['seat'] == result.declarer else 'defender'}: "
            + "+".join(act["parts"])
            for act in record["actions"]
            if act["action"] == "kontra" and act.get("parts")
        )
        out.append(PlayOutcome(a_score(result.scores, seating), family(result.bid, result.given_up), steps))
    return out


def sets_of(plays: list[PlayOutcome]) -> list[SetScore]:
    """The duplicate sets of a record file's plays (``play_outcomes``), as the arena scores them: A's mean
    score over a set's plays, and the set's family by ``set_family``."""
    out = []
    for start in range(0, len(plays) - len(plays) % PLAYS, PLAYS):
        one_set = plays[start : start + PLAYS]
        families = Counter(p.family for p in one_set)
        out.append(SetScore(statistics.fmean(p.a_score for p in one_set), set_family(families)))
    return out


def set_scores(path: str) -> list[SetScore]:
    """A's score per set of an arena's record file (``sets_of`` its ``play_outcomes``)."""
    return sets_of(play_outcomes(path))


@dataclass(frozen=True)
class StepGroup:
    """Plays whose outcome differs between two runs, alike in family and in the steps each run said."""

    family: str
    new_steps: tuple[str, ...]
    old_steps: tuple[str, ...]
    differences: tuple[int, ...]  # A's score difference (new minus old) per play
    share: float  # the group's part of the overall new minus old per deal


def step_groups(old: list[PlayOutcome], new: list[PlayOutcome]) -> list[StepGroup]:
    """The plays (of the sets both runs hold) whose A score or kontra steps differ, grouped by family and by
    the steps said in each run, the groups losing most for the new run first. A group's ``share`` is its
    differences' sum over the plays of all sets: the shares add up to the overall new minus old per deal
    (``compare``), since the plays left out differ by nothing."""
    plays = min(len(old), len(new)) // PLAYS * PLAYS
    grouped: dict[tuple[str, tuple[str, ...], tuple[str, ...]], list[int]] = {}
    for o, n in zip(old[:plays], new[:plays], strict=True):
        if o.a_score == n.a_score and o.steps == n.steps:
            continue
        grouped.setdefault((o.family, n.steps, o.steps), []).append(n.a_score - o.a_score)
    groups = [
        StepGroup(fam, new_steps, old_steps, tuple(diffs), sum(diffs) / plays)
        for (fam, new_steps, old_steps), diffs in grouped.items()
    ]
    return sorted(groups, key=lambda g: (g.share, g.family, g.new_steps, g.old_steps))


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
    parser.add_argument("--steps", action="store_true", help="also where the difference comes from, by kontra steps")
    args = parser.parse_args()
    old_plays, new_plays = play_outcomes(args.old), play_outcomes(args.new)
    old, new = sets_of(old_plays), sets_of(new_plays)
    n = min(len(old), len(new))
    differ = sum(1 for i in range(n) if old[i].a_mean != new[i].a_mean)
    print(f"{n} sets compared ({differ} differ): A's score per deal, old, new, and new minus old (95% intervals)")
    for name, (o, w, d) in compare(old, new).items():
        print(f"  {name:10s} {o.sets:4d} sets  old {_cell(o)}  new {_cell(w)}  new - old {_cell(d)}")
    if args.steps:
        print("plays that differ, by family and the kontra steps said (new | old): plays, A's mean difference per"
              " play, share of new - old per deal")
        for g in step_groups(old_plays, new_plays):
            said = f"{', '.join(g.new_steps) or 'none'} | {', '.join(g.old_steps) or 'none'}"
            mean = sum(g.differences) / len(g.differences)
            print(f"  {g.family:10s} {said:70s} {len(g.differences):4d}  {mean:+8.2f}  {g.share:+.3f}")


if __name__ == "__main__":
    main()
