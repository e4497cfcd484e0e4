"""Deals for the benchmarks that stop at decisions along them: played by bots of one level, or replayed
from the deal records of an arena run (``ulti arena --records``); either through every action, or only
to the first card (``to_first_card``: each deal yielded once, there, and left; a deal given up never)."""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from ulti.engine.actions import Action
from ulti.engine.deal import Deal, Phase
from ulti.engine.dealing import deal_hands
from ulti.engine.record import deal_from_record, parse_action
from ulti.lab.configs import bot_for

T = TypeVar("T")


def played_by_level(level: str, deals: int, seed: int, to_first_card: bool = False) -> Iterator[Deal]:
    """Deals played by ``level`` bots (auction and cards), each yielded before every action (or, with
    ``to_first_card``, once at its first card)."""
    rng = random.Random(seed)  # the run's one stream of hands
    for number in range(deals):
        deal = Deal(deal_hands(rng, number % 3), number % 3)
        for before in _playing(level, seed, number, deal):
            if to_first_card and before.phase is Phase.PLAY:
                yield before
                break
            if not to_first_card:
                yield before


def dealt(seed: int, number: int) -> Deal:
    """Deal ``number`` of a run from ``seed`` as ``played_by_level`` deals it, before any action (the run's
    one stream of hands is replayed up to it, so a deal is made alone: in a worker, in any order)."""
    rng = random.Random(seed)
    for earlier in range(number):
        deal_hands(rng, earlier % 3)
    return Deal(deal_hands(rng, number % 3), number % 3)


def play_out(level: str, seed: int, number: int) -> list[Action]:
    """The actions ``level`` bots play deal ``number`` of a run from ``seed`` with (``played_by_level``'s
    bots and deal: the same actions)."""
    deal = dealt(seed, number)
    for _ in _playing(level, seed, number, deal):
        pass
    return list(deal.history)


def to_first_card(level: str, seed: int, number: int) -> Deal | None:
    """Deal ``number`` of a run from ``seed`` as ``played_by_level`` plays it, at its first card (None if
    it was given up before one), made alone."""
    deal = dealt(seed, number)
    for before in _playing(level, seed, number, deal):
        if before.phase is Phase.PLAY:
            return before
    return None


def mapped(workers: int, function: Callable[..., T], *arguments: Iterable[Any]) -> list[T]:
    """``function`` over ``arguments`` taken in step, in order: in ``workers`` processes when more than one."""
    if workers <= 1:
        return list(map(function, *arguments))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(function, *arguments))


def _playing(level: str, seed: int, number: int, deal: Deal) -> Iterator[Deal]:
    """Play ``deal``, the run's ``number``-th, to its end with its ``level`` bots, yielding it before every
    action (each bot seeded by the run's seed, the deal's number and its seat)."""
    bots = [bot_for(level, random.Random(f"{seed}:{number}:{s}")) for s in range(3)]
    while not deal.is_over:
        yield deal
        seat = deal.to_move
        assert seat is not None  # a deal not over has a seat on turn
        deal.apply(bots[seat].act(deal.seat_view(seat)))


def played_from_records(path: str, every_set: bool = False, to_first_card: bool = False) -> Iterator[Deal]:
    """The deals of an arena's records, each yielded before every action (or, with ``to_first_card``, once
    at its first card); ``every_set``: only the first play of each duplicate set, whose six plays share the
    deal (and in card-play mode its auction)."""
    with open(path, encoding="utf-8") as f:
        for k, line in enumerate(f):
            if every_set and k % 6:
                continue
            record = json.loads(line)
            deal = deal_from_record({**record, "actions": []})
            for entry in record["actions"]:
                if deal.is_over:
                    break
                if to_first_card and deal.phase is Phase.PLAY:
                    yield deal
                    break
                if not to_first_card:
                    yield deal
                deal.apply(parse_action(entry))


def recorded_deals(path: str) -> list[tuple[Deal, list[Action]]]:
    """Each deal of an arena's records before any action, with the actions it was played with to its end."""
    deals: list[tuple[Deal, list[Action]]] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            deal = deal_from_record({**record, "actions": []})
            start = deal.copy()
            for entry in record["actions"]:
                if deal.is_over:
                    break
                deal.apply(parse_action(entry))
            deals.append((start, list(deal.history)))
    return deals


def add_deal_options(parser: argparse.ArgumentParser, deals: int, level: str) -> None:
    """The options that choose a benchmark's deals: ``--deals`` played by ``--level`` bots from ``--seed``
    (defaults ``deals`` and ``level``), or ``--records`` of an arena run instead."""
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default=level, help="the level whose bots play the deals")
    parser.add_argument("--records", default="", help="deal records of an arena run instead")


def chosen_deals(args: argparse.Namespace, every_set: bool, to_first_card: bool = False) -> tuple[Iterator[Deal], str]:
    """The deals ``add_deal_options``' options choose (``every_set`` and ``to_first_card`` as
    ``played_from_records`` and ``played_by_level`` take them), and a line naming them."""
    if args.records:
        return played_from_records(args.records, every_set, to_first_card), args.records
    deals = played_by_level(args.level, args.deals, args.seed, to_first_card)
    verb = "bid" if to_first_card else "played"
    return deals, f"{args.deals} deals {verb} by {args.level} bots (seed {args.seed})"
