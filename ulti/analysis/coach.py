"""The coach of learner tables: a hint priced from the asking seat's own view, and short lessons.

``hint(view)`` never sees a hidden card: it reads only the seat's view (the server hands it
``Deal.seat_view(seat)``), exactly as a bot does. Its advice is the **expert bot's** (``ulti.bots.expert``,
the top level). In the play (a card, a kontra step, the trump) it prices every legal alternative
(``ulti.analysis.pricing``) on the worlds the expert draws for that decision: weighted as the expert weighs
them (the fitted declarer model times, for a defender, the unseen talon's likelihood, times the evidence of
the other seats' bids and kontra, ``expert_weight``)
and drawn as it draws them (its Metropolis chain, ``ulti.bots.expert.chain_drawer``), as many as it solves
(``EXPERT_SAMPLES`` for a card, half as many for a kontra step, its auction worlds for the trump), drawn
from the hint's rng (``hint_rng``) in the order the bot draws them. It names the alternative the expert's
own rules choose from those values (``choose_class``, ``CardPlay.raises``, ``trump_choice``): the action
``expert_bot(hint_rng(seed))`` takes from the view, since that bot draws the same worlds and solves them to
the same values. In the auction it asks the expert (whose auction is the strong bot's) for its action and,
for a bid, estimates the chance of making it by solving sampled worlds at the start of play.

``noted_bot_action(level, view, seed)`` is a built-in bot's action with, for a bid, the bot's own reason
(the bidding log of learner tables shows it): the strong bot's share of its simulated deals in which the
bid was won, the heuristic bot's hand strength. It reads the bot's own view only, but it tells the table
about the bot's hand, which is what a learner table shows it for (docs/protocol/analysis.md §22.5).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ulti.analysis.pricing import DECLINE, GIVE_UP_KEY, Priced, card_groups, kontra_key, price_view
from ulti.bots.expert import EXPERT_SAMPLES, expert_bot, expert_weight
from ulti.bots.heuristic import HeuristicBot, trump_strength
from ulti.bots.levels import bot_for_level
from ulti.bots.sampling import Knowledge, Sampler, analyse
from ulti.bots.solver import Position
from ulti.bots.strong import SearchBot, bid_trumps, choose_class, kontra_samples, solve_value, trump_choice
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import SUIT_LETTERS, CardSet, card_str
from ulti.engine.contracts import Bid, Part
from ulti.engine.phase import Phase
from ulti.engine.record import action_to_json
from ulti.engine.view import SeatView

#: Worlds of a card hint (a kontra hint: half as many, ``kontra_samples``): the expert bot's own
#: (``EXPERT_SAMPLES``, 96), so the hint names the expert's card. A hint answers while the player waits,
#: so it must stay within a second: measured on 200 play decisions of 30 deals, one core (``python -m
#: benchmarks.analysis_bench --hints-only --deals 30 --hints 200``), 96 worlds answer in 8 ms median,
#: 270 ms at the 95th percentile, 0.9 s at most (the strong bot's 32 worlds, the hint before the expert
#: level: 2, 87 and 446 ms). Drawing the expert's weighted worlds is a good part of the slow hints: the
#: evidence accepts few of the worlds drawn. Kontra hints alone (65, 48 worlds): 73 ms median, 0.3 s p95.
HINT_WORLDS = EXPERT_SAMPLES
#: Worlds for a bid's chance of being made.
CHANCE_WORLDS = 24


def kontra_first(view: SeatView) -> bool:
    """Whether the seat decides its kontra step before its card now (as the bots do)."""
    ch = view.choices
    if ch is None or ch.kontra is None:
        return False
    last = view.log[-1] if view.log else None
    already = last is not None and last.seat == view.seat and last.action is Kind.KONTRA
    return not (already and ch.cards)


def bid_chance(view: SeatView, bid: Bid, discard: tuple[int, int] | None, n: int, rng: random.Random) -> float | None:
    """The share of ``n`` sampled worlds in which the seat of ``view`` makes ``bid`` (per_defender > 0)
    when it declares it now (discarding ``discard`` if it holds 12 cards), playing the best trump of
    the worlds' mean for a minor-suit bid. None if no world fits the view."""
    know = analyse(view)
    seat = know.seat
    hand: CardSet = know.hand
    talon_fixed: CardSet | None = None
    if discard is not None:
        talon_fixed = (1 << discard[0]) | (1 << discard[1])
        hand &= ~talon_fixed
    worlds = Sampler(know).draw_many(rng, n)
    if not worlds:
        return None
    trumps = bid_trumps(bid)
    values: dict[int, list[int]] = {t: [] for t in trumps}
    for world in worlds:
        hands = list(world.hands)
        hands[seat] = hand
        talon = talon_fixed if talon_fixed is not None else world.talon
        for t in trumps:
            values[t].append(solve_value(Position.start(hands, seat, bid, t, talon)))
    best = max(trumps, key=lambda t: sum(values[t]))
    return sum(1 for v in values[best] if v > 0) / len(worlds)


def hint_rng(seed: str | int) -> random.Random:
    """The rng of the hint asked with ``seed``: the same hint for the same view and seed; an ``expert_bot``
    drawing from an rng made so takes the action the hint names."""
    return random.Random(f"ulti-hint:{seed}")


def _auction_hint(view: SeatView, rng: random.Random) -> dict[str, Any]:
    # the expert's auction (the strong bot's) with its own auction worlds: fixed work, so the same hint for
    # the same view and seed. Measured on 40 auction decisions of 30 deals, one core: 54 ms median, 190 ms
    # at the 95th percentile, 0.63 s at most (4 worlds, the coach's before: 35, 175 and 605 ms)
    bot = expert_bot(rng)
    action: Action = bot.act(view)
    out: dict[str, Any] = {"kind": "bid", "action": action_to_json(action), "values": {}, "chance": None}
    if action.kind is Kind.BID and action.bid is not None:
        out["best"] = action.bid.code
        if action.discard is not None:
            # a bid from the talon lays two cards away: the hint names them, the bid alone is half the advice
            out["discard"] = [card_str(c) for c in action.discard]
        out["chance"] = bid_chance(view, action.bid, action.discard, CHANCE_WORLDS, rng)
    else:
        out["best"] = action.kind.value
    return out


def expert_choice(bot: SearchBot, view: SeatView, priced: Priced) -> str:
    """The key of the alternative ``bot`` chooses by its own rules from the values of ``priced`` (priced from
    ``view`` on the worlds the bot draws): for a card, the class of equal cards with the best total (the
    heuristic's card's class among equals: ``choose_class``), named by the heuristic's card or the class's
    first card; for a kontra step, the parts whose mean gain beats the bot's margins (``CardPlay.raises``);
    for the trump, the best suit unless the give-up is better by its margin (``trump_choice``)."""
    ch = view.choices
    assert ch is not None
    know = analyse(view)
    if priced.kind == "play":
        groups = card_groups(ch.cards, know)
        heuristic = bot.fallback.choose_card(view, ch)
        home = next(k for k, group in enumerate(groups) if heuristic in group)
        chosen = choose_class([sum(priced.samples[card_str(group[0])]) for group in groups], home)
        return card_str(heuristic if chosen == home else groups[chosen][0])
    if priced.kind == "kontra":
        assert ch.kontra is not None
        base, raised = declarers_side(know, priced, ch.kontra.parts)
        return kontra_key(bot.play.raises(know, ch, base, [raised[part] for part in ch.kontra.parts]))
    totals = [sum(priced.samples[SUIT_LETTERS[t]]) for t in ch.trumps]
    choice = trump_choice(totals, priced.worlds, ch.may_give_up)
    return GIVE_UP_KEY if choice is None else SUIT_LETTERS[ch.trumps[choice]]


def declarers_side(
    know: Knowledge, priced: Priced, parts: Sequence[Part]
) -> tuple[list[float], dict[Part, list[float]]]:
    """A kontra step's worlds as the bot's step values take them: declining's and each part raised alone,
    per world, per_defender on the declarer's side (``priced`` holds the seat's own values)."""
    sign = 1 if know.seat == know.declarer else -1
    base = [sign * value for value in priced.samples[DECLINE]]
    return base, {part: [sign * value for value in priced.samples[kontra_key((part,))]] for part in parts}


def priced_as_expert(bot: SearchBot, view: SeatView, priced: Priced) -> Priced:
    """A kontra step's alternatives valued the way ``bot`` (the expert) compares them: a raise is worth
    declining plus what its parts gain by the bot's own step value (its ``step_gain`` part: the calibrated
    value of such steps played out, the opponents' answers in view), the same gain added in every world so
    that the means are the values compared. A raise the bot never says (a step without a value) is left out.
    ``priced`` holds the seat's own values, declining under ``DECLINE``."""
    ch = view.choices
    assert ch is not None and ch.kontra is not None
    know = analyse(view)
    base, raised = declarers_side(know, priced, ch.kontra.parts)
    gains = {part: bot.parts.step_gain(know, part, base, values) for part, values in raised.items()}
    samples = {DECLINE: priced.samples[DECLINE]}
    for key in priced.samples:
        if key == DECLINE:
            continue
        gain = sum(gains[Part(name)] for name in key.split("+"))
        if math.isfinite(gain):
            samples[key] = [value + gain for value in priced.samples[DECLINE]]
    return Priced(priced.kind, samples, priced.worlds)


def hint(view: SeatView, worlds: int = HINT_WORLDS, seed: str | int = 0) -> dict[str, Any] | None:
    """The coach's hint for the seat of ``view`` now (None when it has nothing to decide): the expert bot's.

    Play, kontra and trump: ``{"kind", "best", "values": {alternative: mean value}, "worlds"}`` in the
    seat's own points per defender, priced on the worlds the expert bot draws (its weighting; ``worlds`` for
    a card, ``kontra_samples(worlds)`` for a kontra step, its auction worlds for the trump), ``best`` being
    the expert's choice (``expert_choice``: the action of ``expert_bot(hint_rng(seed), samples=worlds)``);
    auction: ``{"kind": "bid", "action", "best", "chance"}`` with the expert's action and, for a bid, its
    estimated chance; a bid made holding the talon also has ``"discard"``, the two cards to lay away.
    """
    if view.seat is None or view.choices is None:
        return None
    rng = hint_rng(seed)
    if view.phase is Phase.AUCTION:
        return _auction_hint(view, rng)
    bot = expert_bot(rng, samples=worlds)  # its settings and rules; the worlds come from ``rng`` as its own would
    kind = Kind.KONTRA if kontra_first(view) else Kind.PLAY
    if view.phase is Phase.TRUMP:
        n = bot.settings.auction_samples
    elif kind is Kind.KONTRA:
        n = kontra_samples(bot.settings.samples)
    else:
        n = bot.settings.samples
    priced = price_view(view, n, rng, kind=kind, weighting=expert_weight, chain=True)  # as the expert draws them
    if priced is None:
        return None
    best = expert_choice(bot, view, priced)
    if priced.kind == "kontra":
        priced = priced_as_expert(bot, view, priced)  # the values the expert compares, not the open-hand ones
    values = {key: round(v, 3) + 0.0 for key, v in priced.means().items()}
    return {"kind": priced.kind, "best": best, "values": values, "worlds": priced.worlds}


def lessons(analysis: dict[str, Any], count: int = 3, seats: Sequence[int] = (0, 1, 2)) -> list[dict[str, Any]]:
    """The ``count`` costliest decisions of ``seats`` in an analysis, costliest first (ties: earlier first)."""
    real = [d for d in analysis["decisions"] if d["seat"] in seats and not d["forced"] and d["cost"] > 0]
    real.sort(key=lambda d: (-d["cost"], d["index"]))
    return real[:count]


#: The heuristic bot's hand strength from which it bids each kind of game (ulti/bots/heuristic.py).
HEURISTIC_NEEDS = {"S": 9.0, "SU": 11.0, "40": 12.0}


def bid_note(bot: object, view: SeatView, action: Action) -> dict[str, Any] | None:
    """The reason of ``bot`` for ``action`` taken from ``view``, if it was a bid the bot can explain.

    A strong bot: ``{"basis": "simulation", "made": m, "worlds": n}`` (its bid was won in ``m`` of the
    ``n`` deals it simulated for it). A heuristic bot's trump bid: ``{"basis": "strength", "suit",
    "strength", "needed"}`` (its rule-of-thumb strength of the 10 cards kept with that trump suit, and the
    strength from which it bids that game). None otherwise (a pass, a take, a random bot, a heuristic betli).
    """
    if action.kind is not Kind.BID or action.bid is None:
        return None
    if isinstance(bot, SearchBot):
        est = bot.estimate
        if est is None or est.bid != action.bid.code or est.worlds == 0:
            return None
        return {"basis": "simulation", "made": est.made, "worlds": est.worlds}
    if isinstance(bot, HeuristicBot) and action.bid.has_trumps:
        hand = view.hand
        if action.discard is not None:
            hand &= ~((1 << action.discard[0]) | (1 << action.discard[1]))
        suit = 3 if action.bid.is_hearts else max(range(3), key=lambda s: trump_strength(hand, s))
        note: dict[str, Any] = {
            "basis": "strength",
            "suit": SUIT_LETTERS[suit],
            "strength": round(trump_strength(hand, suit), 1),
        }
        need = HEURISTIC_NEEDS.get(action.bid.code.split("-", 1)[1])
        if need is not None:
            note["needed"] = need
        return note
    return None


def noted_bot_action(level: str, view: SeatView, seed: str) -> tuple[Action, dict[str, Any] | None]:
    """The action a built-in bot of ``level`` takes from ``view`` (the same as the server's ``bot_action``
    for the same seed) and, for a bid, its reason (``bid_note``). Runs in a worker process."""
    bot = bot_for_level(level, random.Random(seed))
    action = bot.act(view)
    return action, bid_note(bot, view, action)
