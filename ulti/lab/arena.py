"""Duplicate-deal arena: two bot levels play the same cards from every seat, scores with a 95% interval.

Each duplicate set is one deal (fixed cards and dealer) played six times: bot A alone in each of the
three seats against two B's, then B alone in each seat against two A's. Over a set, A and B hold every
hand equally often, so the luck of the cards cancels out. The set's sample is A's mean score per play.

Two modes:

- ``game``: whole deals, the auction included (each seating bids for itself);
- ``cards``: card play only. The auction (bids, talon, discards, trump) is played once per deal by the
  ``auction_level`` bots (B's level unless told) and the same actions open all six plays, so every
  play has the same contract, declarer and discards. Nobody says kontra (``NoKontra``): the stakes are
  the contract's own, and the two levels decide only the cards. (With kontra left to the bots one
  chain of raises in an open durchmars moved a 60-deal run's mean by 8 points.)

Each set is put in the contract family of its deal (``family``; in ``game`` mode the family most of its
six plays were declared in), and the report gives A's mean per family with its own 95% interval. Bots
do a fixed amount of work per decision and every set is seeded, so a run reproduces exactly from its
seed whatever the load and the number of workers; the report counts the bots' safety stops (a figure
they may have changed).
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from typing import IO, Any

from ulti.bots.families import FAMILIES, PLAYED_FAMILIES, family
from ulti.bots.interface import Bot, seat_and_choices
from ulti.bots.selfplay import MAX_ACTIONS, play_deal
from ulti.engine import actions as act
from ulti.engine.actions import Action
from ulti.engine.cards import CardSet
from ulti.engine.deal import Deal, Phase
from ulti.engine.dealing import deal_hands
from ulti.engine.record import deal_to_record
from ulti.engine.view import SeatView
from ulti.lab.configs import bot_for

#: Makes the bot of a level for one seat of one play of a set. It is handed that play's deal, which no bot
#: of ours reads (a bot acts from its seat's view alone): only a measuring instrument does, the bot that
#: sees every card of ``ulti.lab.clairvoyance``.
BotMaker = Callable[[str, random.Random, Deal], Bot]


def level_bot(level: str, rng: random.Random, deal: Deal) -> Bot:
    """The bot of ``level`` drawing from ``rng`` (a product level or a laboratory configuration:
    ``configs.bot_for``); ``deal`` is not read."""
    return bot_for(level, rng)


#: The arena's modes: whole deals, or card play on an auction fixed per deal.
MODES = ("game", "cards")

@dataclass(frozen=True)
class SetResult:
    """One duplicate set: A's mean score per play, and the six deal records."""

    index: int
    a_mean: float
    records: tuple[dict[str, Any], ...]
    #: the contract family of the set's deal (``family``)
    family: str = "simple"
    #: how many times the bots' safety stop cut a decision short in the set's six plays
    safety_stops: int = 0


def seatings() -> list[tuple[str, str, str]]:
    """The six seatings of a duplicate set: one A and two B's, then one B and two A's."""
    out: list[tuple[str, str, str]] = []
    for lone, other in (("A", "B"), ("B", "A")):
        for seat in range(3):
            row = [other, other, other]
            row[seat] = lone
            out.append((row[0], row[1], row[2]))
    return out


def a_score(scores: Sequence[int], seating: Sequence[str]) -> int:
    """A's score in one play: the sum of the scores of the seats A's bots hold in ``seating``."""
    return sum(s for s, who in zip(scores, seating, strict=True) if who == "A")


def set_family(families: Counter[str]) -> str:
    """A duplicate set's contract family: the one most of its plays ended in, ties to the first of
    ``FAMILIES``."""
    top = max(families.values())
    return next(f for f in FAMILIES if families[f] == top)


class NoKontra:
    """A bot that never says kontra (card-play mode: the contract's stakes stay fixed); ``bot`` plays the cards."""

    def __init__(self, bot: Bot) -> None:
        """Wrap ``bot``, which decides every card."""
        self.bot = bot

    def act(self, view: SeatView) -> Action:
        """Decline a kontra step with no card to play; otherwise ``bot``'s card, kontra not offered to it."""
        seat, choices = seat_and_choices(view)
        if choices.kontra is None:
            return self.bot.act(view)
        if not choices.cards:
            return act.kontra(seat, ())
        # playing a card while kontra is offered declines it
        return self.bot.act(replace(view, choices=replace(choices, kontra=None)))

    @property
    def safety_stops(self) -> int:
        """The wrapped bot's safety stops (0 for a bot without any)."""
        return int(getattr(self.bot, "safety_stops", 0))


def played_without_kontra(deal: Deal, level: str, seed: str) -> int:
    """``deal`` played to its end by ``level`` bots that never say kontra (seat ``s``'s bot seeded by
    ``"{seed}:{s}"``), as the card-play arena plays it: its ``per_defender``, the contract's own stakes."""
    play_deal(deal, [NoKontra(bot_for(level, random.Random(f"{seed}:{s}"))) for s in range(3)])
    assert deal.result is not None
    return deal.result.per_defender


def fixed_auction(deal: Deal, bots: list[Bot]) -> list[Action]:
    """Play ``deal``'s auction and trump with ``bots`` up to the first card (or the end of a given-up
    deal); the actions taken, to open every play of a ``cards`` set the same way."""
    actions: list[Action] = []
    for _ in range(MAX_ACTIONS):
        if deal.is_over or deal.phase is Phase.PLAY:
            return actions
        seat = deal.to_move
        assert seat is not None  # a deal not over has a seat on turn
        action = bots[seat].act(deal.seat_view(seat))
        deal.apply(action)
        actions.append(action)
    raise RuntimeError("auction did not finish")


#: Deals tried per set for a ``cards`` run kept to one contract family before it gives up.
MAX_FAMILY_TRIES = 500


def check_family(mode: str, only_family: str | None) -> None:
    """Raise ``ValueError`` unless ``only_family`` is None or a contract family a ``cards`` run can keep to."""
    if only_family is None:
        return
    if mode != "cards":
        raise ValueError("--family keeps card play to one contract family: it needs --mode cards")
    if only_family not in PLAYED_FAMILIES:
        raise ValueError(f"unknown contract family {only_family!r} (one of {', '.join(PLAYED_FAMILIES)})")


def dealt(seed: int, index: int, attempt: int) -> tuple[int, list[CardSet], str]:
    """The dealer, the hands and the seed prefix of the bots' generators of deal ``attempt`` of set ``index``
    (attempt 0: the set's own deal; later attempts only when a run keeps to one contract family)."""
    prefix = f"{seed}:{index}" if attempt == 0 else f"{seed}:{index}:try{attempt}"
    rng = random.Random(prefix)
    dealer = rng.randrange(3)
    return dealer, deal_hands(rng, dealer), prefix


def play_set(
    level_a: str,
    level_b: str,
    seed: int,
    index: int,
    mode: str = "game",
    auction_level: str | None = None,
    only_family: str | None = None,
    make_bot: BotMaker = level_bot,
) -> SetResult:
    """Play duplicate set ``index`` of the run with ``seed`` in ``mode`` (``game`` or ``cards``; in
    ``cards`` the auction is played once by ``auction_level`` bots, B's level by default). With
    ``only_family`` (cards only) the set's deal is the first of its deals whose auction ends in that
    contract family (the set's own deal, then further deals drawn from the seed and the set's index).
    ``make_bot`` makes the six plays' bots (the auction's are ``auction_level``'s own)."""
    if mode not in MODES:
        raise ValueError(f"unknown arena mode {mode!r} ({' or '.join(MODES)})")
    check_family(mode, only_family)
    dealer, hands, prefix = dealt(seed, index, 0)
    opening: list[Action] = []
    stops = 0
    if mode == "cards":
        level = auction_level or level_b
        for attempt in range(MAX_FAMILY_TRIES):
            if attempt:
                dealer, hands, prefix = dealt(seed, index, attempt)
            auction_bots = [bot_for(level, random.Random(f"{prefix}:auction:{seat}")) for seat in range(3)]
            opened = Deal(hands, dealer)
            opening = fixed_auction(opened, auction_bots)
            stops += sum(getattr(bot, "safety_stops", 0) for bot in auction_bots)
            if only_family is None or (
                opened.contract is not None and not opened.is_over and family(opened.contract) == only_family
            ):
                break
        else:
            raise RuntimeError(f"no auction of set {index} ended in {only_family} in {MAX_FAMILY_TRIES} deals")
    scores_a: list[float] = []
    records = []
    families: Counter[str] = Counter()
    for n, seating in enumerate(seatings()):
        deal = Deal(hands, dealer)
        for action in opening:
            deal.apply(action)
        bots = [
            make_bot(level_a if who == "A" else level_b, random.Random(f"{prefix}:{n}:{seat}"), deal)
            for seat, who in enumerate(seating)
        ]
        if mode == "cards":
            bots = [NoKontra(bot) for bot in bots]
        play_deal(deal, bots)
        assert deal.result is not None
        scores_a.append(a_score(deal.result.scores, seating))
        records.append(deal_to_record(deal))
        families[family(deal.result.bid, deal.result.given_up)] += 1
        stops += sum(getattr(bot, "safety_stops", 0) for bot in bots)
    return SetResult(index, statistics.fmean(scores_a), tuple(records), set_family(families), stops)


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


@dataclass(frozen=True)
class ArenaReport:
    """A whole run: A's overall summary, one per contract family, and the bots' safety stops."""

    overall: ArenaSummary
    families: dict[str, ArenaSummary] = field(default_factory=dict)
    safety_stops: int = 0


def run_sets(
    level_a: str,
    level_b: str,
    sets: int,
    seed: int,
    workers: int,
    mode: str = "game",
    auction_level: str | None = None,
    only_family: str | None = None,
    make_bot: BotMaker = level_bot,
    first_set: int = 0,
) -> Iterator[SetResult]:
    """Play ``sets`` duplicate sets from index ``first_set`` on ``workers`` processes, yielding results in set
    order (``make_bot``: picklable, as the workers receive it). A set depends only on the seed and its index,
    so runs of consecutive ranges, their records joined in order, are one run of the whole range."""
    play = partial(play_set, mode=mode, auction_level=auction_level, only_family=only_family, make_bot=make_bot)
    indices = range(first_set, first_set + sets)
    if workers <= 1:
        for i in indices:
            yield play(level_a, level_b, seed, i)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(play, [level_a] * sets, [level_b] * sets, [seed] * sets, indices, chunksize=1)


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
    mode: str = "game",
    auction_level: str | None = None,
    only_family: str | None = None,
) -> ArenaSummary:
    """Play the arena and return A's summary; deal records go to ``records_out`` (JSON lines)."""
    return run_report(
        level_a, level_b, sets, seed, workers, records_out, progress, mode, auction_level, only_family
    ).overall


def run_report(
    level_a: str,
    level_b: str,
    sets: int,
    seed: int,
    workers: int,
    records_out: IO[str] | None,
    progress: Callable[[str], None] | None = None,
    mode: str = "game",
    auction_level: str | None = None,
    only_family: str | None = None,
    make_bot: BotMaker = level_bot,
    on_set: Callable[[float], None] | None = None,
    first_set: int = 0,
) -> ArenaReport:
    """Play the arena in ``mode``: A's summary overall and per contract family, and the safety stops
    (``only_family``: card play kept to deals whose auction ends in that family; ``make_bot``: the plays'
    bots, by their level's name unless told; ``on_set``: told each set's mean score of A, in set order;
    ``first_set``: the index of the first set played, for a run split into ranges)."""
    samples: list[float] = []
    by_family: dict[str, list[float]] = {}
    stops = 0
    for result in run_sets(level_a, level_b, sets, seed, workers, mode, auction_level, only_family, make_bot,
                           first_set):
        samples.append(result.a_mean)
        if on_set is not None:
            on_set(result.a_mean)
        by_family.setdefault(result.family, []).append(result.a_mean)
        stops += result.safety_stops
        if records_out is not None:
            for record in result.records:
                records_out.write(json.dumps(record, separators=(",", ":")) + "\n")
        if progress is not None:
            progress(progress_bar(len(samples), sets))
    families = {f: summarise(by_family[f]) for f in FAMILIES if f in by_family}
    return ArenaReport(summarise(samples), families, stops)


def print_progress(line: str) -> None:
    """Redraw the progress bar on standard error (on a log file: a line at every tenth)."""
    if sys.stderr.isatty():
        sys.stderr.write("\r" + line)
    else:
        done, total = (int(x) for x in line.rsplit(" ", 1)[-1].split("/"))
        if done == total or done % max(1, total // 10) == 0:
            sys.stderr.write(line + "\n")
    sys.stderr.flush()
