"""How big are the ladder's card mistakes? Each rung decides the same card positions; its mistakes are counted.

The positions are every card decision with two or more legal cards of ``--deals`` heuristic deals from
``--seed`` (``ulti.lab.positions.positions``). Each rung of ``--levels`` (``ulti.bots.ladder``: a bot seeded
``--seed``) decides each of them once; at each decision that solved worlds, its table gives every class's mean
loss against the best, in per_defender points on the bot's own worlds (what the bot believes a card costs,
not what it cost in the true deal). Printed per rung: the decisions, how many times it played a class other
than its best choice (a mistake), the mean loss it played per decision, the mean loss its odds expect per
decision, and the largest loss it played.

    python -m ulti.lab.ladder_mistakes [--deals N] [--seed S] [--levels beginner casual club]
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass

from ulti.bots.ladder import HumanChooser, class_losses, expected_loss
from ulti.bots.strong import SearchBot
from ulti.bots.strong.play import CardTable
from ulti.engine.view import SeatView
from ulti.lab.configs import bot_for
from ulti.lab.positions import positions


@dataclass(frozen=True)
class Mistakes:
    """One rung's card decisions on the positions: how many, how many mistakes, the mean loss played and
    expected per decision, and the largest loss played (per_defender, on the bot's own worlds)."""

    level: str
    decisions: int
    mistakes: int
    mean_loss: float
    expected: float
    largest: float


def card_views(deals: int, seed: int) -> list[SeatView]:
    """The card decisions with two or more legal cards of ``deals`` heuristic deals from ``seed``."""
    return [
        view
        for view in positions(deals, seed)
        if view.phase.value == "play" and view.choices is not None and view.choices.cards.bit_count() >= 2
    ]


def measure(level: str, views: list[SeatView], seed: int) -> Mistakes:
    """The mistakes of a bot of ``level`` (a ladder rung) seeded ``seed`` deciding each of ``views`` once."""
    bot = bot_for(level, random.Random(seed))
    chooser = bot.play.chooser if isinstance(bot, SearchBot) else None
    if not isinstance(bot, SearchBot) or not isinstance(chooser, HumanChooser):
        raise ValueError(f"{level} is not a ladder rung (beginner, casual or club)")
    played: list[float] = []
    expected: list[float] = []
    mistakes = 0

    def watched(table: CardTable) -> int:
        # the rung's own choice, recorded beside what it cost on the table's worlds
        best = table.decide()
        chosen = chooser(table)
        losses = class_losses(table.totals(), table.worlds)
        played.append(losses[chosen])
        expected.append(expected_loss(table.totals(), table.worlds, best, chooser.temper))
        return chosen

    bot.play.chooser = watched
    for view in views:
        before = len(played)
        bot.act(view)
        if len(played) > before and played[-1] > 0:
            mistakes += 1
    n = len(played)
    return Mistakes(
        level,
        n,
        mistakes,
        sum(played) / n if n else 0.0,
        sum(expected) / n if n else 0.0,
        max(played, default=0.0),
    )


def main() -> None:
    """Print each rung's mistakes on the same positions."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", nargs="+", default=["beginner", "casual", "club"])
    args = parser.parse_args()
    views = card_views(args.deals, args.seed)
    print(f"{len(views)} card decisions with a choice, {args.deals} heuristic deals, seed {args.seed}")
    for level in args.levels:
        m = measure(level, views, args.seed)
        share = m.mistakes / m.decisions if m.decisions else 0.0
        print(
            f"{m.level:9s} {m.decisions:4d} solved, {m.mistakes:3d} mistakes ({share:.1%}), loss played "
            f"{m.mean_loss:.3f} per decision (expected {m.expected:.3f}), largest {m.largest:.3f} per_defender"
        )


if __name__ == "__main__":
    main()
