"""The auction by play-outs benchmark: a declaration valued by double-dummy worlds and by worlds played out,
each beside what it brought (``ulti.lab.playout_values``)."""

from __future__ import annotations

import random
import statistics

import pytest

from ulti.bots.expert.played_values import played_value
from ulti.bots.sampling import Sampler, analyse, world_to_deal
from ulti.bots.strong.play import position_of, solve_value
from ulti.lab.arena import played_without_kontra
from ulti.lab.played_deals import mapped, played_by_level, to_first_card
from ulti.lab.playout_values import Declaration, estimate, measure_deal, report, ways


def test_a_deal_made_alone_at_its_first_card_is_the_one_a_run_through_every_deal_reaches() -> None:
    run = list(played_by_level("heuristic", 4, 11, to_first_card=True))
    alone = [to_first_card("heuristic", 11, n) for n in range(4)]
    assert [d.history for d in run] == [d.history for d in alone if d is not None]


def test_each_way_values_the_worlds_drawn_from_the_declarers_view() -> None:
    number = next(n for n in range(10) if to_first_card("heuristic", 5, n) is not None)  # one not given up
    declaration = measure_deal("heuristic", 5, number, "heuristic", [("heuristic", 3)], 6)
    deal = to_first_card("heuristic", 5, number)
    assert declaration is not None and deal is not None
    assert deal.declarer is not None and deal.contract is not None
    view = deal.seat_view(deal.declarer)
    know = analyse(view)
    worlds = Sampler(know).draw_many(random.Random(f"5:{number}:worlds"), 6)
    assert declaration.values["dd"] == [float(solve_value(position_of(know, w))) for w in worlds]
    # three of the six worlds played out, each a whole deal the declarer's view allows, ended and scored
    played_out = declaration.values["playout:heuristic"]
    assert len(played_out) == 3 and all(v == int(v) for v in played_out)
    imagined = world_to_deal(view, worlds[0], random.Random(1))
    assert imagined.seat_view(deal.declarer).hands[deal.declarer] == view.hands[deal.declarer]
    # the first play-out is the first world drawn, rebuilt and played out; the result the true deal's
    first = world_to_deal(view, worlds[0], random.Random(f"5:{number}:rebuild"))
    assert played_out[0] == played_without_kontra(first, "heuristic", f"5:{number}:0")
    assert declaration.played == played_without_kontra(deal.copy(), "heuristic", f"5:{number}:played")
    assert declaration.correction == played_value(deal.contract, 0.0)
    assert estimate(declaration, "dd+family", 4) == pytest.approx(
        statistics.fmean(declaration.values["dd"][:4]) + declaration.correction
    )


def test_the_figures_do_not_depend_on_the_number_of_workers() -> None:
    args = (["heuristic"] * 3, [8] * 3, range(3), ["heuristic"] * 3, [[("heuristic", 2)]] * 3, [4] * 3)
    alone = mapped(1, measure_deal, *args)
    parallel = mapped(2, measure_deal, *args)
    assert [d and (d.values, d.played) for d in alone] == [d and (d.values, d.played) for d in parallel]


def _declaration(dd: list[float], playout: list[float], played: int, correction: float = 0.0) -> Declaration:
    seconds = {"dd": [0.001] * len(dd), "playout:x": [0.05] * len(playout)}
    return Declaration("simple", correction, {"dd": dd, "playout:x": playout}, seconds, played)


def test_the_report_compares_each_estimates_squared_error_with_the_experts_value() -> None:
    # the play-outs hit the result exactly; the double-dummy worlds say 4 more (and the family's correction
    # takes 1 of it back): their squared errors 16 and 9 against the reference's 9
    group = [_declaration([p + 3.0, p + 5.0], [float(p), float(p)], p, correction=-1.0) for p in (1, 3, 5)]
    assert {way for way, _ in ways(group)} == {"dd", "dd+family", "playout:x"}
    rows = {(line.split()[0], line.split()[1]): line for line in report(group, 2)[2:]}
    assert "+7.0" in rows[("dd", "2")] and "16.0" in rows[("dd", "2")]
    assert "+0.0" in rows[("dd+family", "2")] and " 9.0" in rows[("dd+family", "2")]
    assert "-9.0" in rows[("playout:x", "2")] and " 0.0" in rows[("playout:x", "2")]

