"""Bot levels rated as the site rates people: rated matches among the levels, one seat each.

A level's rating is what a person would read beside it in the lobby, so it is measured on the site's own
scale and model (``ulti.accounts.ratings``: Plackett-Luce, 1500 for a newcomer): whole matches (``--deals``
6, 9 or 12, tie-break deals included, the engine's ``Match``) at tables of three different levels, each
match ranked by its final totals. The tables take every ordered triple of the levels in turn, so each level
meets each other one equally often, in every seat and as every match's first dealer. Deals and bots draw
from the seed: a run is reproducible.

A bot's strength does not change, so its rating is fitted from all its matches at once
(``ulti.lab.fixed_strength``, the levels' mean at 1500), with a 95% interval by bootstrap (the matches
resampled and fitted again). Beside it: the rating the site's match-by-match update would show after the
same matches in order from newcomers (it weighs the last matches most, so it wanders), the mean points per
match, and whether each level's interval stands apart from the next one's.

    python -m ulti.lab.ladder_ratings --levels beginner casual club expert [--matches 400] [--deals 6]
                                      [--seed 1] [--workers 2] [--results-out FILE] [--results-in FILE]
                                      [--write ulti/bots/ladder_ratings.json]

``--results-out`` keeps each match's levels and totals as it ends (JSON lines); ``--results-in`` rates such
a file again without playing (a run stopped early included, or the parts of a run played with ``--start``,
the first match's index, put together); ``--write`` saves the ratings where the site
reads the levels' ratings (the command that measured them with it).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import random
import statistics
import sys
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import IO, Any

from ulti.accounts.ratings import NEWCOMER, Skill, match_ranks, rate_match, shown_rating
from ulti.bots.selfplay import play_deal
from ulti.engine.dealing import deal_hands
from ulti.engine.match import MATCH_LENGTHS, Match
from ulti.lab.configs import bot_for
from ulti.lab.fixed_strength import Ranked, fit

#: bootstrap resamples behind each level's interval
BOOTSTRAP_ROUNDS = 200

Seating = tuple[str, str, str]


@dataclass(frozen=True)
class MatchResult:
    """One rated match: the level in each seat and each seat's final total."""

    index: int
    levels: Seating
    totals: tuple[int, int, int]


def seating(levels: Sequence[str], index: int) -> Seating:
    """The levels of match ``index``'s seats: every ordered triple of distinct ``levels`` in turn.

    >>> [seating(["a", "b", "c"], i) for i in (0, 1, 6)]
    [('a', 'b', 'c'), ('a', 'c', 'b'), ('a', 'b', 'c')]
    """
    if len(set(levels)) != len(levels) or len(levels) < 3:
        raise ValueError("rating needs three or more different levels")
    triples = list(itertools.permutations(levels, 3))
    a, b, c = triples[index % len(triples)]
    return a, b, c


def play_match(levels: Seating, deals: int, seed: int, index: int) -> MatchResult:
    """Play match ``index`` of the run with ``seed``: ``levels`` by seat, ``deals`` deals and any tie-break
    deals; the first dealer turns with the match's index so that no seat opens more often."""
    rng = random.Random(f"{seed}:{index}")
    match = Match(deals, first_dealer=index % 3)
    bots = [bot_for(level, random.Random(f"{seed}:{index}:{seat}")) for seat, level in enumerate(levels)]
    while not match.is_over:
        deal = match.new_deal(deal_hands(rng, match.dealer_of(len(match.deals))))
        play_deal(deal, bots)
    a, b, c = match.totals()
    return MatchResult(index, levels, (a, b, c))


def play_matches(
    levels: Sequence[str], matches: int, deals: int, seed: int, workers: int, start: int = 0
) -> Iterator[MatchResult]:
    """Play the run's matches ``start`` to ``start + matches - 1`` on ``workers`` processes, yielding results
    in match order (a match depends only on the seed and its index: a run may be played in parts)."""
    indices = range(start, start + matches)
    seats = [seating(levels, i) for i in indices]
    play = partial(play_match, deals=deals, seed=seed)
    if workers <= 1:
        for i, seated in zip(indices, seats, strict=True):
            yield play(seated, index=i)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(play_match, seats, [deals] * matches, [seed] * matches, indices, chunksize=1)


def rate(results: Iterable[MatchResult]) -> dict[str, Skill]:
    """Each level's skill after ``results`` in their order, every level starting as a newcomer."""
    skills: dict[str, Skill] = {}
    for result in results:
        before = [skills.get(level, NEWCOMER) for level in result.levels]
        after = rate_match(before, match_ranks(list(result.totals), [False, False, False]))
        skills.update(zip(result.levels, after, strict=True))
    return skills


def ranked(results: Iterable[MatchResult]) -> list[Ranked]:
    """Each match as the levels by seat and their ranks by final totals (nobody leaves a bots' match)."""
    return [(r.levels, match_ranks(list(r.totals), [False, False, False])) for r in results]


def bootstrap(results: Sequence[MatchResult], rounds: int, rng: random.Random) -> dict[str, tuple[int, int]]:
    """Each level's 95% interval of its fitted rating: ``rounds`` resamples of the matches (with
    replacement), each fitted again."""
    shown: dict[str, list[int]] = {}
    for _ in range(rounds):
        sample = [rng.choice(results) for _ in results]
        for level, mu in fit(ranked(sample)).items():
            shown.setdefault(level, []).append(shown_rating(mu))
    out = {}
    for level, values in shown.items():
        values.sort()
        out[level] = (values[int(0.025 * (len(values) - 1))], values[int(0.975 * (len(values) - 1))])
    return out


@dataclass(frozen=True)
class LevelRating:
    """One level's line of the report: its fitted ``rating`` with its bootstrap interval ``low``..``high``,
    the site's match-by-match rating after the run in order (``online``) and its mean points per match."""

    level: str
    matches: int
    rating: int
    low: int
    high: int
    online: int
    points: float


def ratings(results: Sequence[MatchResult], rounds: int = BOOTSTRAP_ROUNDS, seed: int = 0) -> list[LevelRating]:
    """Every level's rating from ``results``, best first (``rounds`` bootstrap resamples from ``seed``)."""
    fitted = fit(ranked(results))
    online = rate(results)
    intervals = bootstrap(results, rounds, random.Random(seed))
    lines = []
    for level, mu in fitted.items():
        points = [total for r in results for lv, total in zip(r.levels, r.totals, strict=True) if lv == level]
        low, high = intervals[level]
        lines.append(LevelRating(level, len(points), shown_rating(mu), low, high, online[level].shown,
                                 statistics.fmean(points)))
    return sorted(lines, key=lambda line: -line.rating)


def apart(line: LevelRating, below: LevelRating) -> bool:
    """Whether ``line``'s interval stands wholly above that of ``below`` (the next level down)."""
    return below.high < line.low


def report(lines: Sequence[LevelRating]) -> list[str]:
    """The printed table: a line per level, best first, with whether its interval stands apart from the
    next one's."""
    out = [f"{'level':<18} {'matches':>7} {'rating':>6} {'bootstrap 95%':>14} {'online':>6} "
           f"{'points/match':>12}  apart from the next"]
    for k, line in enumerate(lines):
        below = lines[k + 1] if k + 1 < len(lines) else None
        verdict = "" if below is None else ("yes" if apart(line, below) else "no: the intervals overlap")
        out.append(f"{line.level:<18} {line.matches:>7} {line.rating:>6} {line.low:>6}..{line.high:<6} "
                   f"{line.online:>6} {line.points:>+12.2f}  {verdict}")
    return out


def ratings_file(lines: Sequence[LevelRating], matches: int, command: str) -> dict[str, Any]:
    """The ratings as the site reads them (``ulti/bots/ladder_ratings.json``): the measuring command, the
    number of matches, and per level its rating, interval and matches."""
    return {
        "command": command,
        "matches": matches,
        "levels": {line.level: {"rating": line.rating, "low": line.low, "high": line.high, "matches": line.matches}
                   for line in lines},
    }


def write_results(results: Iterable[MatchResult], out: IO[str]) -> None:
    """Each match as a JSON line (its index, levels by seat and totals)."""
    for result in results:
        out.write(json.dumps({"index": result.index, "levels": result.levels, "totals": result.totals}) + "\n")


def read_results(lines: Iterable[str]) -> list[MatchResult]:
    """The matches ``write_results`` wrote."""
    results = []
    for line in lines:
        if line.strip():
            row = json.loads(line)
            a, b, c = row["levels"]
            x, y, z = row["totals"]
            results.append(MatchResult(int(row["index"]), (a, b, c), (int(x), int(y), int(z))))
    return results


def main(argv: Sequence[str] | None = None) -> None:
    """Play (or read) the rated matches among the levels and print their ratings."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", nargs="+", default=[])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--deals", type=int, default=6, choices=MATCH_LENGTHS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="the first match's index (a run played in parts)")
    parser.add_argument("--results-out")
    parser.add_argument("--results-in")
    parser.add_argument("--write", help="save the ratings as the site reads them (ulti/bots/ladder_ratings.json)")
    args = parser.parse_args(argv)
    if args.results_in:
        with open(args.results_in) as file:
            results = read_results(file)
    else:
        results = []
        # each match is kept as it ends: a long run stopped early still leaves its matches to rate
        with contextlib.ExitStack() as stack:
            out = stack.enter_context(open(args.results_out, "w")) if args.results_out else None
            for result in play_matches(args.levels, args.matches, args.deals, args.seed, args.workers, args.start):
                results.append(result)
                if out is not None:
                    write_results([result], out)
                    out.flush()
                print(f"\rmatches {len(results)}/{args.matches}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    print(f"{len(results)} rated matches, seed {args.seed}")
    lines = ratings(results, seed=args.seed)
    print("\n".join(report(lines)))
    if args.write:
        command = "python -m ulti.lab.ladder_ratings " + " ".join(sys.argv[1:] if argv is None else argv)
        with open(args.write, "w") as file:
            json.dump(ratings_file(lines, len(results), command), file, indent=2)
            file.write("\n")


if __name__ == "__main__":
    main()
