"""Card decisions against the true deal: how much each of two bot levels gives away, decision by decision.

An arena's score moves with the deal's luck, so a card-play change takes hundreds of duplicate deals to
show. This benchmark asks a sharper, smaller question: at card decisions along deals (played by
``--level`` bots, default strong, or replayed from an arena's records, ``--records``), both levels A and B
choose a card from the same view with the same random stream, and each choice is priced against the true
deal solved double-dummy: its **regret** is what the best card there is worth more than it, for the
deciding seat (in ``per_defender`` units of the contract's value, kontra included). Only decisions whose
cards are not all worth the same in the true deal count.

Double-dummy regret is the measure bridge programs are compared by (a card that is best only with the
hidden cards in view counts as best); it is not the score, and a player that guesses well against the
true deal's layout is not always the one that wins more at the table. Use it to find where the card play
loses (per contract family, role and stage of the play) and to screen a change before an arena.

Printed per contract family, per role within it, and in all: decisions, A's and B's mean regret, the
share of decisions each gave something away, and B minus A per deal with its 95% interval (above zero:
A gives away less).

    python -m ulti.lab.regret [--a expert] [--b strong] [--deals N] [--seed S] [--records FILE]
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from ulti.bots.families import family
from ulti.bots.solver import Position, values_after
from ulti.engine.cards import count, iter_cards
from ulti.engine.deal import Deal, Phase
from ulti.lab.arena import summarise
from ulti.lab.configs import bot_for
from ulti.lab.played_deals import add_deal_options, chosen_deals


@dataclass
class Regrets:
    """The regrets of one group of decisions: per decision A's and B's, and per deal their sums."""

    a: list[int] = field(default_factory=list)
    b: list[int] = field(default_factory=list)
    #: per deal (by its number): B's regret minus A's, summed over the deal's decisions
    by_deal: dict[int, int] = field(default_factory=lambda: defaultdict(int))

    def add(self, deal_number: int, regret_a: int, regret_b: int) -> None:
        """Enter one decision of deal ``deal_number``."""
        self.a.append(regret_a)
        self.b.append(regret_b)
        self.by_deal[deal_number] += regret_b - regret_a

    def line(self, name: str) -> str:
        """One printed line: the group's figures."""
        n = len(self.a)
        if not n:
            return f"  {name:16s} no decision"
        share_a = sum(1 for r in self.a if r) / n
        share_b = sum(1 for r in self.b if r) / n
        text = (
            f"  {name:16s} decisions {n:5d}  A {statistics.fmean(self.a):6.3f} ({share_a:4.0%} give away)"
            f"  B {statistics.fmean(self.b):6.3f} ({share_b:4.0%})"
        )
        if len(self.by_deal) > 1:
            s = summarise(list(self.by_deal.values()))
            text += f"  B-A per deal {s.mean:+.3f} [{s.low:+.3f}, {s.high:+.3f}] over {s.sets} deals"
        return text


def numbered(deals: Iterator[Deal]) -> Iterator[tuple[int, Deal]]:
    """The stream of ``deals`` with each deal's number (a new number whenever a new deal object comes)."""
    number, current = -1, None
    for deal in deals:
        if deal is not current:
            number, current = number + 1, deal
        yield number, deal


def measure(deals: Iterator[Deal], args: argparse.Namespace) -> dict[str, Regrets]:
    """Per group (all; per family; per family, the role and the tricks 1-3, 4-6 or 7-10), the regrets of A and B."""
    groups: dict[str, Regrets] = defaultdict(Regrets)
    decisions = 0
    for number, deal in numbered(deals):
        if deal.phase is not Phase.PLAY or deal.contract is None:
            continue
        view = deal.seat_view(deal.to_move)
        if view.choices is None or count(view.choices.cards) < 2:
            continue  # the kontra chain, or a forced card
        decisions += 1
        if decisions % args.every:
            continue
        cards = list(iter_cards(view.choices.cards))
        sign = 1 if deal.to_move == deal.declarer else -1  # the declarer maximises per_defender
        scores = [sign * v for v in values_after(Position.from_deal(deal), cards)]
        if min(scores) == max(scores):
            continue  # nothing to give away here
        regrets = []
        for level in (args.a, args.b):
            action = bot_for(level, random.Random(f"{args.seed}:{decisions}")).act(view)
            if action.card is None:
                break  # a kontra said at this turn: not a card decision
            regrets.append(max(scores) - scores[cards.index(action.card)])
        if len(regrets) < 2:
            continue
        name = family(deal.contract)
        role = "declarer" if sign > 0 else "defence"
        done = len(deal.tricks)
        trick = "tricks 1-3" if done < 3 else "tricks 4-6" if done < 6 else "tricks 7-10"
        for key in ("all", name, f"{name} {role}", f"{name} {trick}"):
            groups[key].add(number, regrets[0], regrets[1])
    return groups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", default="expert", help="the level measured")
    parser.add_argument("--b", default="strong", help="the level it is measured against")
    add_deal_options(parser, deals=40, level="strong")
    parser.add_argument("--every", type=int, default=2, help="ask at every n-th card decision")
    args = parser.parse_args()
    deals, source = chosen_deals(args, every_set=True)  # a set's six plays share the deal: one is enough
    print(f"Double-dummy regret of A = {args.a} and B = {args.b}, {source}, every {args.every}. card decision:")
    groups = measure(deals, args)
    for key in sorted(groups, key=lambda k: (k != "all", k)):
        print(groups[key].line(key))


if __name__ == "__main__":
    main()
