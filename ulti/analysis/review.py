"""The analysis of a finished deal: every decision of every seat priced from what that seat knew.

``analyse_deal(deal)`` replays the finished deal action by action. Before each card, kontra step and
trump choice it takes the acting seat's view (``Deal.seat_view``), prices every legal alternative over
sampled worlds (``ulti.analysis.pricing``) and records the cost of the action taken: the best
alternative's mean value minus the chosen one's, never below zero, with the standard error of that
paired difference. After every action of the play it also solves the real deal with every hand known
(the double-dummy value, per defender, for the declarer), which the page draws as the deal's graph.

Covered: every card (a forced card, the only legal one, costs 0 and is not sampled: its value is the
double-dummy one), every recorded kontra step (trick 1 and the chain; a decline that was never recorded
is not a decision of the record), the trump suit, the give-up, and the declarer's last discard (the two
cards it laid away last, priced against its other discards for the contract it played, with the trump
it named: ``pricing.price_discards``). Not priced: bids, passes, the talon take and the other discards
(the auction's alternatives are the whole bid ladder times the discards, each followed by other seats'
bidding that the solver cannot play; the declarer's last discard is the one whose contract is known).

Labels by cost, in the seat's own points per defender (docs/rules.md: a Simple game is worth 1):
``inaccuracy`` from 0.5 (half a Simple game), ``mistake`` from 2 (a Simple game turned from won to lost
swings 2), ``blunder`` from 5 (an ulti's size: a lost ulti costs its 4 plus the 4 extra).

Everything is deterministic: the worlds of decision ``i`` come from a generator seeded with ``seed`` and
``i``, so the same record always gives the same analysis, whether priced whole or in chunks
(``price_decisions``, which the server's worker pool runs a few at a time to report progress).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ulti.analysis.pricing import DEFAULT_WORLDS, Priced, action_key, discard_key, price_discards, price_view
from ulti.bots.solver import Objective, Position, solve
from ulti.bots.strong import solve_value
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import SUIT_LETTERS
from ulti.engine.deal import Deal
from ulti.engine.errors import RecordError
from ulti.engine.phase import Phase
from ulti.engine.play import NO_TRUMP
from ulti.engine.record import action_to_json, deal_from_record

FORMAT = "ulti-analysis/1"

#: Cost thresholds of the labels, highest first (see the module docstring for why these).
LABELS: tuple[tuple[str, float], ...] = (("blunder", 5.0), ("mistake", 2.0), ("inaccuracy", 0.5))
#: A decision costing less than this counts as accurate (the accuracy figure).
ACCURATE_BELOW = 0.5
#: Default seed of the worlds (any fixed number: the analysis must be reproducible).
DEFAULT_SEED = 1
#: Decimals kept in the JSON: values are means of integers, rounding keeps the text stable and short.
_DECIMALS = 3

_PRICED_KINDS = (Kind.PLAY, Kind.KONTRA, Kind.TRUMP, Kind.GIVE_UP)


def label_of(cost: float) -> str:
    """The label of a decision costing ``cost`` points ("" below the inaccuracy threshold).

    >>> label_of(0.2), label_of(0.5), label_of(3), label_of(12)
    ('', 'inaccuracy', 'mistake', 'blunder')
    """
    for name, threshold in LABELS:
        if cost >= threshold:
            return name
    return ""


def finished_deal(record: object) -> Deal:
    """The finished deal of an ``ulti-deal/1`` record, or ``RecordError`` in ``ulti score``'s words.

    A record that does not load is refused with the error naming its action (``action 14: …``); one
    that loads but stops before the end is refused naming the action the deal waits for.
    """
    deal = deal_from_record(record)
    if not deal.is_over:
        index = len(deal.history)
        raise RecordError(
            f"action {index}: the deal is not finished ({deal.phase.value}, seat {deal.to_move} to act):"
            " only a finished deal can be analysed"
        )
    return deal


def dd_value(deal: Deal) -> int | None:
    """The double-dummy value of ``deal`` now, per defender for the declarer (None before the play)."""
    if deal.phase is Phase.DONE:
        return deal.result.per_defender if deal.result is not None else None
    if deal.phase is not Phase.PLAY:
        return None
    return int(solve(Position.from_deal(deal), Objective.CONTRACT, best_cards=False).value)


def discard_index(deal: Deal) -> int | None:
    """The index of the declarer's last discard in the finished ``deal``, if it is priced.

    The declarer's last bid with a discard (a later bid of its own without the talon keeps that talon).
    None when the declarer never took the talon (it plays over another seat's discard) and for a
    give-up (no trump was named to price the discard for).
    """
    if deal.contract is None or deal.result is None or deal.result.given_up:
        return None
    if deal.contract.has_trumps and deal.trump == NO_TRUMP:
        return None
    return next(
        (
            i
            for i in range(len(deal.history) - 1, -1, -1)
            if deal.history[i].kind is Kind.BID
            and deal.history[i].discard is not None
            and deal.history[i].seat == deal.declarer
        ),
        None,
    )


def decision_indices(deal: Deal) -> list[int]:
    """The indices of the actions the analysis prices (the declarer's last discard, cards, kontra
    steps, trump, give-up), in record order."""
    out = [i for i, a in enumerate(deal.history) if a.kind in _PRICED_KINDS]
    discard = discard_index(deal)
    return sorted([*out, discard]) if discard is not None else out


def _rng(seed: int, index: int) -> random.Random:
    return random.Random(f"ulti-analysis:{seed}:{index}")


def _round(x: float) -> float:
    return round(x, _DECIMALS) + 0.0  # + 0.0: no "-0.0" in the JSON


def price_decisions(
    deal: Deal,
    indices: Iterable[int],
    worlds: int = DEFAULT_WORLDS,
    seed: int = DEFAULT_SEED,
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """The decision objects of the actions at ``indices`` of the finished ``deal`` (see ``analyse_deal``),
    in one replay; ``progress(k)`` is called after the ``k``-th of them."""
    wanted = set(indices)
    last = max(wanted, default=-1)
    out: list[dict[str, Any]] = []
    replay = Deal(deal.dealt, deal.dealer)
    for index, action in enumerate(deal.history):
        if index > last:
            break
        if index in wanted:
            if action.kind is Kind.BID:
                out.append(_discard_decision(deal, replay, index, action, worlds, seed))
            else:
                out.append(_decision(replay, index, action, worlds, seed))
            if progress is not None:
                progress(len(out))
        replay.apply(action)
    return out


def _decision(replay: Deal, index: int, action: Action, worlds: int, seed: int) -> dict[str, Any]:
    """Price ``action``, the one about to be applied to ``replay`` (left unchanged)."""
    seat = action.seat
    chosen = action_key(action)
    declarer = replay.declarer if replay.declarer is not None else seat
    sign = 1 if seat == declarer else -1
    after = replay.copy()
    after.apply(action)
    dd = dd_value(after)
    record: dict[str, Any] = {
        "seat": seat,
        "index": index,
        "kind": action.kind.value if action.kind is not Kind.GIVE_UP else Kind.TRUMP.value,
        "action": action_to_json(action),
        "key": chosen,
        "trick": len(replay.tricks) + 1 if action.kind is Kind.PLAY else None,
        "dd": dd,
    }
    legal = replay.legal_card_mask() if action.kind is Kind.PLAY else None
    if legal is not None and legal.bit_count() == 1:
        value = _round(sign * dd) if dd is not None else 0.0
        record.update(forced=True, worlds=0, values={chosen: value}, best=chosen, cost=0.0, error=0.0, label="")
        return record
    view = replay.seat_view(seat)
    kind = Kind.PLAY if action.kind is Kind.PLAY else Kind.KONTRA if action.kind is Kind.KONTRA else None
    priced = price_view(view, worlds, _rng(seed, index), kind=kind, legal_cards=legal)
    if priced is None or chosen not in priced.samples:
        # no world fits the view (never seen: the view is the real deal's, which fits it) — price nothing
        record.update(forced=True, worlds=0, values={chosen: 0.0}, best=chosen, cost=0.0, error=0.0, label="")
        return record
    record.update(_priced_fields(priced, chosen))
    return record


def _priced_fields(priced: Priced, chosen: str) -> dict[str, Any]:
    """The fields of a decision priced over sampled worlds, ``chosen`` being the alternative taken."""
    cost, error = priced.cost(chosen)
    cost, error = _round(cost), _round(error)
    return {
        "forced": False,
        "worlds": priced.worlds,
        "values": {key: _round(v) for key, v in priced.means().items()},
        "best": priced.best(prefer=chosen),
        "cost": cost,
        "error": error,
        "label": label_of(cost),
    }


def _discard_decision(
    deal: Deal, replay: Deal, index: int, action: Action, worlds: int, seed: int
) -> dict[str, Any]:
    """Price the declarer's last discard (``action``, about to be applied to ``replay``) for the finished
    ``deal``'s contract and named trump; ``dd`` is the double-dummy value at the start of play of the
    real hands with that discard, before any kontra."""
    assert deal.contract is not None and action.discard is not None
    seat = action.seat
    chosen = discard_key(action.discard)
    talon = (1 << action.discard[0]) | (1 << action.discard[1])
    hands = list(replay.hands)
    hands[seat] &= ~talon
    dd = solve_value(Position.start(hands, seat, deal.contract, deal.trump, talon))
    record: dict[str, Any] = {
        "seat": seat,
        "index": index,
        "kind": "discard",
        "action": action_to_json(action),
        "key": chosen,
        "trick": None,
        "dd": dd,
    }
    view = replay.seat_view(seat)
    priced = price_discards(view, deal.contract, deal.trump, action.discard, worlds, _rng(seed, index))
    if priced is None or chosen not in priced.samples:
        record.update(forced=True, worlds=0, values={chosen: float(dd)}, best=chosen, cost=0.0, error=0.0, label="")
        return record
    record.update(_priced_fields(priced, chosen))
    return record


def seat_totals(decisions: Sequence[dict[str, Any]], declarer: int) -> list[dict[str, Any]]:
    """Per seat: the total cost of its decisions, how many it made (forced ones apart), its labels and
    its accuracy (the share of its unforced decisions costing under half a point, in percent)."""
    out = []
    for seat in range(3):
        mine = [d for d in decisions if d["seat"] == seat]
        real = [d for d in mine if not d["forced"]]
        accurate = sum(1 for d in real if d["cost"] < ACCURATE_BELOW)
        labels = {name: sum(1 for d in real if d["label"] == name) for name, _ in reversed(LABELS)}
        out.append(
            {
                "seat": seat,
                "role": "declarer" if seat == declarer else "defender",
                "cost": _round(sum(d["cost"] for d in mine)),
                "decisions": len(real),
                "accurate": accurate,
                "accuracy": _round(100.0 * accurate / len(real)) if real else None,
                "labels": labels,
            }
        )
    return out


def match_totals(
    analyses: Iterable[dict[str, Any]], positions: Sequence[Sequence[int]] | None = None
) -> list[dict[str, Any]]:
    """Per seat, its figures over the analyses of a match's deals: ``cost`` (the sum of its deals' costs),
    ``decisions`` (unforced), ``accurate`` and ``accuracy`` (the percentage of all those decisions costing
    under 0.5: pooled over the deals, so a deal with more decisions weighs more; None without any).

    ``positions``: at a table of four, per analysed deal (in order) the table seat playing each of its
    seats 0, 1, 2; the figures are then per table seat (four of them)."""
    seats = 3 if positions is None else 4
    out: list[dict[str, Any]] = [{"seat": seat, "cost": 0.0, "decisions": 0, "accurate": 0} for seat in range(seats)]
    for k, analysis in enumerate(analyses):
        for figures in analysis["seats"]:
            mine = out[figures["seat"] if positions is None else positions[k][figures["seat"]]]
            mine["cost"] += figures["cost"]
            mine["decisions"] += figures["decisions"]
            mine["accurate"] += figures["accurate"]
    for mine in out:
        mine["cost"] = _round(mine["cost"])
        n = mine["decisions"]
        mine["accuracy"] = _round(100.0 * mine["accurate"] / n) if n else None
    return out


def dd_graph(deal: Deal) -> list[dict[str, Any]]:
    """The double-dummy value (per defender, for the declarer) at the start of play and after every
    later action: ``[{"index": i, "value": v}]`` where ``index`` is the number of actions applied."""
    replay = Deal(deal.dealt, deal.dealer)
    points: list[dict[str, Any]] = []
    for index, action in enumerate(deal.history):
        replay.apply(action)
        if replay.phase in (Phase.PLAY, Phase.DONE) and replay.contract is not None:
            value = dd_value(replay)
            if value is not None:
                points.append({"index": index + 1, "value": value})
    return points


def assemble(deal: Deal, decisions: list[dict[str, Any]], worlds: int, seed: int) -> dict[str, Any]:
    """The analysis object of ``deal`` from its priced ``decisions`` (in index order)."""
    assert deal.result is not None and deal.contract is not None and deal.declarer is not None
    decisions = sorted(decisions, key=lambda d: d["index"])
    return {
        "format": FORMAT,
        "worlds": worlds,
        "seed": seed,
        "declarer": deal.declarer,
        "bid": deal.contract.code,
        "trump": SUIT_LETTERS[deal.trump] if deal.trump >= 0 and deal.contract.has_trumps else None,
        "per_defender": deal.result.per_defender,
        "thresholds": {name: threshold for name, threshold in LABELS},
        "decisions": decisions,
        "graph": [] if deal.result.given_up else dd_graph(deal),
        "seats": seat_totals(decisions, deal.declarer),
    }


def analyse_deal(
    deal: Deal,
    worlds: int = DEFAULT_WORLDS,
    seed: int = DEFAULT_SEED,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The analysis of the finished ``deal`` (the JSON ``ulti analyse --json`` prints and the server serves).

    ``{"format": "ulti-analysis/1", "worlds", "seed", "declarer", "bid", "trump", "per_defender",
    "thresholds", "decisions": [one object per priced action], "graph": [...], "seats": [...]}``; a
    decision is ``{"seat", "index", "kind", "action", "key", "trick", "dd", "forced", "worlds",
    "values": {alternative: mean value}, "best", "cost", "error", "label"}`` (docs/protocol/analysis.md §22).
    ``progress(done, total)`` is called after each decision.
    """
    if not deal.is_over:
        raise ValueError("only a finished deal can be analysed: the analysis shows every hand")
    indices = decision_indices(deal)
    report = None if progress is None else (lambda k: progress(k, len(indices)))
    decisions = price_decisions(deal, indices, worlds, seed, report)
    return assemble(deal, decisions, worlds, seed)


def analyse_record(record: object, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """``analyse_deal`` of a record (``RecordError`` for one that does not load or is not finished)."""
    return analyse_deal(finished_deal(record), worlds, seed)


# ---------------------------------------------------------------------------------------- jobs
# Plain functions of records for a worker process (the server's pool): their arguments and answers
# are JSON-shaped, so they cross a process boundary as they are.


def count_decisions(record: object) -> int:
    """How many decisions the analysis of a finished deal's record prices (its progress total)."""
    return len(decision_indices(finished_deal(record)))


def price_record_chunk(
    record: object, first: int, count: int, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED
) -> list[dict[str, Any]]:
    """Decisions ``first`` to ``first + count - 1`` (in decision order) of a finished deal's record."""
    deal = finished_deal(record)
    return price_decisions(deal, decision_indices(deal)[first : first + count], worlds, seed)


def assemble_record(
    record: object, decisions: list[dict[str, Any]], worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED
) -> dict[str, Any]:
    """The analysis of a finished deal's record from all its priced ``decisions`` (= ``analyse_record``)."""
    return assemble(finished_deal(record), decisions, worlds, seed)
