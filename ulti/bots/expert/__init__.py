"""The expert bot: the strong bot with every auction action as evidence about the hidden hands.

The strong bot weighs a sampled world by a hand-written guess at how well the declarer's start hand fits
the contract, and draws its worlds by rejection sampling. The expert (``ExpertBot``), in its card play and
kontra decisions (its auction is the strong bot's but for the values of its declarations, corrected by what
each family brings played out: ``played_values``, below):

- weighs the declarer's hand by the **fitted declarer model** (``declarer_model``: a logistic regression
  per contract family, fitted by ``benchmarks.declarer_fit`` to the hands the strong bot's auction
  declares with; on held-out deals it makes the true declarer's hand far likelier than the hand-written
  guess does, e.g. ulti +3.70 against +2.09 in mean log weight over random hands);
- draws its worlds by a **Metropolis chain** (``ulti.bots.sampling.MetropolisSampler``): a likelihood
  that sharp is out of reach of rejection sampling, which falls back to unweighted worlds after 200 tries
  (plain) or flattens the distribution where a small pilot missed the likeliest hands (scaled);
- as a defender, weighs each world by how likely the declarer was to lay that world's talon away
  (``talon_weight``, below);
- reads the rest of the auction from its view's log, and weighs each world by how likely its hands make
  every other seat's actions there (``read_evidence``, ``evidence_weight``):

- **bids** of a seat that is not the declarer (or a declarer's earlier, outbid bids): its start hand
  should fit the highest bid it made (the strong bot's own ``declarer_likelihood``, softened by a
  square root: the bid was made with a 12-card hand of which two cards were laid away);
- **passes** (only with ``read_passes``, the arena level ``expert-passes``): a seat that passed over a
  standing bid it could have raised is unlikely to hold a hand fit for a betli, a durchmars or an ulti
  above that bid. Measured (``benchmarks.evidence_bench`` on the 400 auctions of the arena run below),
  passes add almost no information about the true deal (mean log-likelihood ratio +0.014, bids +0.38),
  so the expert leaves them out;
- **kontra**: a defender who raised a betli or a no-trump durchmars holds cards that beat it.

Its kontra chain differs from the strong bot's as a defender: a raise is valued with the declarer's answer
in view (``chain_gain``: in a world the declarer wins, it says the next step), and a part the declarer has
raised is never raised again (``answers_declarer``). The strong bot values a raise as if the opponents let
it stand; against each other the two ran chains to x32 and x64 in deals the declarer made (the defenders'
raises won the part 40% of the time at kontra, 7-14% at szubkontra, 0-3% at mordkontra; the declarer's
91-98%). In whole games, 400 duplicate deals, seed 2026 (``ulti arena --a expert --b strong --mode game
--deals 400 --seed 2026 --workers 2``), the expert went from -8.4 per deal [-21.6, +4.8] to +22.5 [+12.7,
+32.4] with this chain (ulti, 250 deals: +14.1 [+3.2, +25.0]; simple, 60: -2.2 [-9.4, +5.1]); most of it
is the strong bot's chains, answered by the expert as declarer and no longer fed by it as a defender.

The expert solves three times the strong bot's worlds per card decision (``EXPERT_SAMPLES``, 96; a kontra
decision uses half as many, as the strong bot's does). Everything else (the solver, the auction) is the
strong bot's; the level ``strong`` stays as the yardstick. Measured in card play, 400 duplicate deals, seed
2026 (``ulti arena --a expert --b strong --mode cards --deals 400 --seed 2026 --workers 2``): at 96 worlds
the expert +0.239 per deal, 95% interval [+0.050, +0.428] (betli, 48 deals: +0.76 [+0.02, +1.51]; ulti, 233
deals: +0.18 [-0.09, +0.45]); at 32 worlds it was +0.043 [-0.157, +0.242], no verdict, and with passes read
too (``--a expert-passes``, 32 worlds) -0.013 [-0.210, +0.185]. The lead is the worlds', not yet the
evidence's: the strong bot itself at 96 worlds (arena level ``strong-96``), in the same arena, leads the
strong bot at 32 by +0.225 [+0.022, +0.428]; twice the expert's worlds with the scaled sampler (arena
level ``expert-scaled192``) gave +0.249 [+0.045, +0.454] on the same deals: no further gain. Those
figures are of the expert before the declarer model and the chain (the arena level ``expert-rejection``;
``expert-passes``, ``expert-auction24``, ``expert-scaled`` and ``expert-scaled192`` are variants of it).

With the fitted declarer model and the Metropolis chain, the same command gives +0.311 per deal [+0.134,
+0.488] (simple, 67 deals: +0.234 [+0.073, +0.395]; ulti, 232: +0.239 [-0.014, +0.491]; betli, 48: +0.73
[+0.06, +1.40]); on a second seed (``--seed 2027``, otherwise the same), +0.315 [+0.082, +0.548] (ulti,
233 deals: +0.436 [+0.079, +0.794]; simple, 61: +0.027 [-0.256, +0.310]; under 50 deals betli 42, durchmars
32, 100 32); declaring +0.180 and defending +0.135 of it (a scratch split of the run's records by the
declarer's seat, issue 15's note). The model alone, drawn by scaled rejection sampling
(``expert-fitted-scaled``), gave +0.133 [-0.061, +0.327]: without the chain the sharper likelihood does not
pay. Twice the worlds (``expert-192``), the same command: +0.301 [+0.066, +0.537]: at 96 worlds drawn by the
chain, the number of worlds is not what limits the expert. Card play kept to one contract family (``--family``, the same
command otherwise): betli, 200 deals, +0.500 [+0.135, +0.865]; simple, 150 deals (``--workers 1``),
+0.130 [+0.011, +0.249]; ulti, 120 deals (``--workers 1``), +0.044 [-0.266, +0.355], no verdict (seed
2027, 200 deals: +0.288 [-0.016, +0.592], no verdict either).

Against strategy fusion (plain sampling values a card as if the seat's own later cards saw the hidden
hands), the arena level ``expert-lookahead`` (``LookaheadExpert``) values each card of a no-trump contract
with every later card of its own shared by the worlds it cannot tell apart (``lookahead``). It finds the
guess plain sampling hides (tests/bots/test_lookahead.py), but seldom changes the card: replaying the
records of the arena run above (a scratch script, issue 15's note), at 795 card decisions along 40 betli
deals, 10 (6 when only its next card is shared); at 240 card decisions of 8 ulti deals, looking ahead from
the first trick, 1 (at 3.6 times the CPU time, both measured in that one replay). Betli card
play between the two, 200 duplicate betli deals (``ulti arena --a expert-lookahead --b expert --mode cards
--auction-level strong --family betli --deals 200 --seed 2026 --workers 2``): +0.033 per deal [-0.122,
+0.189], no verdict; the expert does without it. What plain sampling still fuses is the partner's play:
each world's solve lets the other defender see every card.

Most card decisions are ties, which the heuristic's card settles: in 40 deals of expert card play (seed 99,
contracts from the strong bot's auction, every class of legal cards solved in every world; a scratch count,
issue 15's note), 223 of 379 decisions in an ulti had two or more classes at the best total, 139 of them every
class (the position decided double-dummy in all 96 worlds); simple 52 of 131, betli 54 of 77, durchmars 61 of
64. A tie-break by the room a card leaves the next opponent to go wrong (the mean score over that opponent's
legal replies, each solved, minus its best reply's; a scratch trial on 12 deals, its code not kept) changed no
card: where the totals tie, one wrong reply changes no contract value either, so the measure was zero for
every tied card. The finer measure, the card points behind a tied value (``point_margin``, arena level
``expert-margin``; ``margin``: among the classes that tie, the declarer's double-dummy card points after each,
over the first 32 worlds, the declarer keeping the most and a defender leaving the fewest, as bridge programs
break ties by overtricks), changed 36 of the 431 card decisions it solved worlds for in 8 card-play sets of seed
11 (a scratch count, issue 15's note; its added time per such decision: median 7 ms, no-trump decisions
included, where it does nothing; max 0.5 s), and gained nothing measurable. Card play between the two, 400
duplicate deals
(``ulti arena --a expert-margin --b expert --mode cards --auction-level strong --deals 400 --seed 2026
--workers 2``): +0.012 per deal [-0.164, +0.187], no verdict; simple (67 deals) +0.157 [-0.010, +0.323], ulti
(233) -0.028 [-0.245, +0.189], betli (48; it changes no betli card: the noise of the bots' generators, which
differ by seat) -0.069 [-1.032, +0.893]. Kept to simple parties on a second seed (``--family simple --deals
200 --seed 2027``, otherwise the same): -0.104 [-0.219, +0.011], leaning the other way. The expert does
without it.

The partner's fusion (``partner``: each world's solve lets the other defender see every hand, the deciding
defender's included): a defender values each card with its partner's next card chosen from the partner's own
view (each world rebuilt as an engine deal, the partner's view of it, plain sampling over worlds drawn for the
partner), over the first worlds, the others counted as plain sampling solved them (``CardTable.best_with``);
arena levels ``expert-partner`` (no-trump contracts only, all 96 worlds, 8 per partner choice) and
``expert-partner-trumps`` (trump contracts too, from the second trick, 48 worlds, 6 per partner choice). In 2
ulti card-play sets of seed 11 it changed 5 of 56 defender decisions it was asked for, at an added time per
decision of median 0.10 s, p95 1.3 s, max 1.6 s (a scratch probe, issue 15's note). Card play between the two,
400 duplicate deals (``ulti arena --a expert-partner-trumps --b expert --mode cards --auction-level strong
--deals 400 --seed 2026 --workers 2``, 97 minutes): -0.021 per deal [-0.184, +0.142], no verdict; ulti (233
deals) -0.103 [-0.308, +0.102], simple (67) +0.075 [-0.065, +0.214]; under 50 deals betli 48 +0.139, durchmars
28 ±0, 100 24 +0.167. The expert does without it.

What card play can win at all, against the strong bot: the strong bot seeing every card (``python -m
benchmarks.clairvoyance_bench --deals 400 --seed 2026``, the same deals and contracts as the card arena above)
leads it by +0.972 per deal [+0.679, +1.265] (ulti, 232 deals: +1.088; simple, 67: +0.348 [+0.168, +0.528];
betli, 48: +1.701); on seed 2027, +0.709 [+0.462, +0.956] (ulti, 233: +0.916; simple, 61: +0.317 [+0.138,
+0.496]). Seeing every card only in defence (``--sees defence``, seed 2026): +0.642 [+0.414, +0.869]; only as
declarer (``--sees declarer``): +0.491 [+0.163, +0.819]. The expert's +0.363 and +0.372 (reading the talon,
below; runs of their own on the same seeded deals, not the benchmark's) are 37% and 52% of what seeing the
cards is worth on those deals (in ulti 26% and 59%, in simple parties 49% and 9%); issue 15's +0.5 would be
51% and 71% of it, and a lead in simple parties whose interval clears zero, at the half-widths the expert's
runs had there (0.16 to 0.32 per deal), half to all of what seeing the cards is worth in them (+0.348,
+0.317).

The other seats' bids weighed by the fitted declarer model of the bid's family instead of the hand-written
fit (``fitted_bids``, arena level ``expert-fittedbids``) say three times as much about the true deal
(``python -m benchmarks.evidence_bench --records`` of the 400-deal card arena above: mean log(true / drawn)
+1.210 against +0.382; ``--deals 100 --level strong``: +1.362 against +0.370), yet card play did not gain:
``ulti arena --a expert-fittedbids --b expert --mode cards --deals 400 --seed 2026 --workers 2``: -0.013
per deal [-0.232, +0.205], no verdict (ulti, 233 deals: -0.114 [-0.470, +0.241]; simple, 67: -0.065
[-0.227, +0.097]; betli, 48: +0.451 [+0.030, +0.872]). Kept to betli
(``--auction-level strong --family betli --deals 200``, otherwise the same): +0.050 [-0.239, +0.339]. The expert
keeps the hand-written fit.

The cards the other seats played are not weighed beyond what they rule out (``play_reading``: whether a
read card was best in a world, double-dummy or by the seat's own view, carries no information about the
true deal at the expert's worlds: ``benchmarks.play_reading_bench``, figures in that module).

Where the card play gives value away, decision by decision against the true deal solved double-dummy
(``python -m benchmarks.regret_bench --a expert --b strong --deals 300 --seed 1``: deals played by strong
bots, every other card decision): the expert 1.425 per decision (per_defender, kontra included), the
strong bot 1.997; the strong bot's excess per deal +1.507 [-0.025, +3.038] (seed 2: 1.459 against 2.016,
+1.425 [-1.086, +3.936]). On both seeds the first three tricks of an ulti are where both bots give most
away (15-17% of those decisions, 2.4-3.3 per decision; tricks 7-10: 3-7%, 0.2-0.6); which stage of an
ulti carries the expert's lead the two seeds do not agree on (seed 1: tricks 4-6, +2.639 [+0.324, +4.955]
per deal; seed 2: none). Twice the worlds (``--a expert-192 --b expert``, seed 1): +0.251 [-0.364,
+0.867], no verdict, as in the arena.

The auction (the strong bot's) values a declaration by the mean of sampled worlds solved double-dummy.
``benchmarks.declaration_bench`` sets that estimate beside what the declaration brings when the bots play it
out (``played_values`` holds the figures: 1,300 strong auctions, seeds 1-3). Played out, the true deal brings
about what double-dummy says in every family but 100 (the 100 is missed about 2 points per defender more
often); the estimates are right for ulti and betli, too low for a simple party (by about 0.8) and far too high
for durchmars (5 to 11; won 67-79% of the time by the estimate, 38-59% played). Why, in part: the other seats
discarded before the declarer took the talon, and they discard to void a suit; at the first card of the 300
deals of seed 1 the defenders held 1.05 voids per durchmars deal (0.53 in the uniform worlds), 0.56 per ulti
(0.36), 0.14 per simple party (0.23) (a scratch count). The other seats' bids read by the hand-written fit, or
their passes, move the estimates by under half a point; read by the fitted declarer model, whose features
count voids, they brought the durchmars estimate from +11.1 to +7.3 per defender on 64 declarations (the true
deal +3.1; a scratch run of the same estimates). Two arena levels measure the auction so corrected:
``expert-playedauction`` (each family's double-dummy mean corrected by its measured gap, ``played_values``)
and ``expert-auctionevidence`` (the auction's worlds weighed by the other seats' bids by the fitted model). In
whole games against the strong bot (``ulti arena --a expert-playedauction --b strong --mode game --deals 400
--seed 2026 --workers 2``): +23.316 per deal [+13.783, +32.848] (the expert, same command, an earlier session:
+24.227 [+14.392, +34.062]); ulti (258 deals) +14.929 [+5.197, +24.660]; simple (61) +2.249 [+0.318, +4.179]
(the expert: -0.692 [-8.039, +6.655]), the first simple figure above zero with the expert's card play; under
50 deals betli 49, durchmars 16, 100 16. One seed, and one family of several looked at (``expert-auction24``
once gave simple +2.3 [+0.2, +4.4] on this seed too). On a second seed (the same command, ``--seed 2027``):
+20.915 [+11.141, +30.689]; ulti (271 deals) +11.817 [+3.890, +19.744]; simple (61) +6.836 [-2.747, +16.419]
(its interval takes in zero); under 50 deals betli 41, durchmars 15, 100 12. The first two seeds, positive in
simple too, are why the expert values its auction so (``played_auction``); ``expert-ddauction`` is the expert
before it. A third seed (``--a expert``, ``--seed 2028``): +17.683 [+9.354, +26.012]; ulti (278) +13.781
[+7.485, +20.076]; simple (59) +3.000 [-3.352, +9.352] (again taking in zero); under 50 deals betli 37,
durchmars 13, 100 13.

The discards themselves are evidence too: a seat that takes the talon sees the two cards the bidder before
it laid away, and bidders lay a short side suit away whole to ruff in it, keep trumps, aces and marriages,
and in a betli lay their high cards away. The **discard model** (``discard_model``, fitted by
``benchmarks.discard_fit`` to the bots' own discards) prices which pair a bidder lays away from its 12
cards; ``discard_weight`` weighs a world by the probability of each discard the seat picked up, from the
hand its bidder holds in that world. At the first card of the 400 deals of a whole-game arena (its fit's
data, ``python -m benchmarks.evidence_bench --records``), the discards made the true deal likelier than
the uniform worlds for 79% of the 326 viewers who had picked one up, +1.03 in mean log ratio (bids by the
fitted model: +1.28). On the auction's question (``python -m benchmarks.declaration_bench --deals 300
--seed 1``, estimate minus played per deal): durchmars (21 deals), uniform worlds +11.6 [+2.6, +20.6],
the discards +7.7, the fitted bids +6.0, both together **+1.4** [-8.8, +11.7] (the true deal solved
double-dummy: -0.4); all 300 deals: +1.30, +0.61, -0.05, -0.59. Two arena levels read them:
``expert-discardscards`` (card play and kontra) and ``expert-discards`` (its auction too, whose worlds
then read the fitted bids as well: ``auction_evidence``). In card play the discards gain nothing measurable:
``ulti arena --a expert-discardscards --b strong --mode cards --deals 400 --seed 2026 --workers 2``: +0.302
per deal [+0.069, +0.535] (the expert, same deals and contracts: +0.311 [+0.134, +0.488]); ulti (232) +0.255
[-0.113, +0.623], simple (67) +0.254 [+0.088, +0.420], betli (48) +0.660 [+0.024, +1.296]. The expert's card
play does without them. Nor in the auction: ``expert-discards``, its values corrected by what declarations
brought played out on worlds so weighed (``declaration_bench`` seeds 1-3, 1,100 deals), played
``ulti arena --a expert-discards --b strong --mode game --deals 400 --seed 2027 --workers 2``: +14.954 per
deal [+6.460, +23.449], against the expert's +20.915 [+11.141, +30.689] on the same seed (the run above,
``--a expert-playedauction``, the same bot, an earlier session: two runs, each reproducible from its seed);
set by set, the two runs' records compared by a scratch script, the difference is -5.961 [-15.589, +3.667]
(366 of 400 sets differ), so the expert keeps uniform worlds in its auction.

The talon a defender cannot see is evidence as well: the declarer laid it away with the contract's bid, and
the discard model prices that pair from the 12 cards the declarer holds in a world with it (``talon_weight``:
a talon of trumps or aces is unlikely, one that voids a short side suit likely). It is the sharpest evidence
measured: at the first card of 200 deals bid by strong bots (``python -m benchmarks.evidence_bench --deals
200 --level strong --seed 1``), +1.976 in mean log ratio over the strong bot's worlds, the true deal likelier
for 94% of 396 defenders (bids by the fitted model +1.249, discards picked up +1.029); over the expert's own
worlds (the declarer model and the bids, drawn by the chain; 100 of those deals, a scratch script, issue 15's
note) +0.618 for 198 defenders (durchmars, 8 defenders: -1.787; the model was fitted to bids with trumps of
every kind). The arena level ``expert-talon`` weighed the worlds of a defender's card play and kontra by it
(the expert has since adopted it but for a durchmars, below, and the level is gone: the runs below were made at
commit 94037f1; ``expert-blindtalon`` is the expert without the reading).
``ulti arena --a expert-talon --b strong --mode cards --deals 400 --seed 2026 --workers 2``: +0.363 per deal
[+0.149, +0.577]; ulti (232) +0.278 [-0.001, +0.557], simple (67) +0.169 [-0.026, +0.364], betli (48) +1.042
[+0.000, +2.083]. ``--seed 2027``: +0.372 [+0.118, +0.625]; ulti (233) +0.545 [+0.149, +0.941], simple (61)
+0.027 [-0.292, +0.347]. The expert's figures on those seeds (+0.311, +0.315, above) are other runs, of an
earlier session, on the same deals and contracts (each run reproduces from its seed). Set by set, the records
of the two seed-2027 runs (``python -m benchmarks.paired_sets EXPERT.jsonl TALON.jsonl``): +0.057 [-0.103,
+0.216], 112 of 400 sets differing. In whole games (``ulti arena --a expert-talon --b strong --mode game
--deals 400 --seed 2027 --workers 2``): +21.023 per deal [+11.253, +30.793]; ulti (270) +11.943 [+4.031,
+19.855], simple (61) +6.803 [-2.841, +16.448]; under 50 deals betli 41, durchmars 16, 100 12; set by set
against the expert's run of that seed (+20.915, above): +0.108 [-0.248, +0.464], 191 of 400 sets differing.

Where the worlds place the cards a seat cannot see (``python -m benchmarks.location_bench``: the mean log
probability the worlds give each unseen card's true place, at card decisions along played deals) says why
this reading, and not the others, moves the card play. On the seed-2027 card arena's records
(``--records FILE --levels expert-blindtalon expert --every 2 --worlds 150``, 5,822 decisions), the talon
places a defender's unseen cards +0.087 better per card (ulti +0.092, simple +0.129, 100 +0.115, betli
+0.022), the declarer's not at all (it sees its talon). On 60 deals played by strong bots (``--deals 60
--level strong --levels expert expert-discardscards expert-fittedbids --every 3``, 663 decisions), the
discards picked up add +0.0003 and the fitted bids +0.003: the expert's worlds already placed what they
tell. The same bench with ``--powers 1 0.5 1.5`` (the likelihood raised to a power: a flatter or sharper
reading of the same evidence) finds the expert's own weights best (0.5: -0.002, 1.5: -0.030): the evidence
is neither over- nor under-counted. In a durchmars the talon so priced placed a defender's cards worse
(-0.022 per card over 112 decisions of the seed-2027 card arena's records, a scratch run of the same
measure; over the first card's worlds, -1.787 for 8 defenders, above): its declarer lays away otherwise than
the bids with trumps the model was fitted to, so ``talon_weight`` leaves a durchmars out. The expert reads
the talon (``read_talon``): the first reading that places the hidden cards measurably better, and that leaned
forward in card play on two seeds and in whole games on one, though no single run of it is significant.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ulti.bots.expert.declarer_model import bid_model_weight, declarer_model_weight
from ulti.bots.expert.discard_model import discard_weight, talon_weight
from ulti.bots.expert.lookahead import lookahead_totals
from ulti.bots.expert.margin import margin_totals, plays_for_points
from ulti.bots.expert.partner import PartnerChoices, partner_values
from ulti.bots.expert.played_values import EVIDENCE_PLAYED_MINUS_SOLVED, played_value
from ulti.bots.sampling import Knowledge, MetropolisSampler, Sampler, World
from ulti.bots.strong import StrongBot, bid_trumps, declarer_likelihood
from ulti.bots.strong.play import CardTable, SolvedWorlds
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import CardSet
from ulti.engine.contracts import BIDS_BY_CODE, Bid, Part
from ulti.engine.play import NO_TRUMP
from ulti.engine.view import LogEntry, SeatView

#: Bids a seat is taken to have wanted when its hand fits them (a pass over a lower bid counts against).
_STRONG_BIDS = tuple(BIDS_BY_CODE[c] for c in ("N-B", "N-D", "M-SU", "H-SU") if c in BIDS_BY_CODE)
#: How much a pass weighs against a hand fit for one of those bids (1: excludes it).
PASS_WEIGHT = 0.6
#: How much a defender's kontra on a no-trump contract weighs against a world where it looks lost.
KONTRA_WEIGHT = 0.5
#: What a defender's raise costs in a world the declarer wins, in stakes of the part before the raise:
#: the raise doubles the loss and the declarer answers it with the next step (1 + 2).
ANSWERED_RAISE_LOSS = 3.0
#: Worlds per card decision (the strong bot: 32). At 96 the expert leads the strong bot, mostly by the
#: worlds themselves (module docstring); the strong bot's lazy card decision (issue 13) keeps 96 worlds
#: within the expert's time targets. ``strong`` keeps 32: it is the fixed yardstick.
EXPERT_SAMPLES = 96


def _fit(bid: Bid, hand: CardSet) -> float:
    """How well a 10-card ``hand`` fits ``bid`` with its best trump (0..1)."""
    return max(declarer_likelihood(bid, t, hand) for t in bid_trumps(bid))


@dataclass(frozen=True)
class AuctionEvidence:
    """What the log says about the other seats' hands: per seat, its highest bid that is not the
    contract, and the standing bids it passed over when it could have bid."""

    bids: dict[int, Bid]
    passes: dict[int, list[Bid]]
    kontra_against: tuple[int, ...]


def read_evidence(log: Sequence[LogEntry], viewer: int, declarer: int) -> AuctionEvidence:
    """The evidence of the log about the seats other than ``viewer`` (``declarer`` -1 in the auction)."""
    bids: dict[int, Bid] = {}
    passes: dict[int, list[Bid]] = {}
    kontra: list[int] = []
    standing: Bid | None = None
    last_bid_entry = -1
    for i, entry in enumerate(log):
        if entry.action is Kind.BID and entry.bid is not None:
            standing = entry.bid
            last_bid_entry = i
    for i, entry in enumerate(log):
        s = entry.seat
        if entry.action is Kind.BID and entry.bid is not None:
            if s != viewer and not (s == declarer and i == last_bid_entry):
                bids[s] = entry.bid  # bids only rise: the last one is the highest
            standing = entry.bid
        elif entry.action is Kind.PASS and s != viewer and standing is not None:
            passes.setdefault(s, []).append(standing)
        elif entry.action is Kind.KONTRA and s != viewer and s != declarer and entry.parts:
            kontra.append(s)
    return AuctionEvidence(bids, passes, tuple(kontra))


def bid_weight(bid: Bid, hand: CardSet, fitted: bool = False) -> float:
    """How likely a seat that bid ``bid`` (and did not declare it) holds ``hand`` at the start of play: the
    strong bot's hand-written fit softened by a square root (the bid was made with 12 cards, two of them
    laid away), or with ``fitted`` the declarer model of the bid's family (``bid_model_weight``) where the
    fit has one."""
    if fitted:
        weight = bid_model_weight(bid, hand)
        if weight is not None:
            return weight
    return math.sqrt(_fit(bid, hand))


def evidence_weight(evidence: AuctionEvidence, know: Knowledge, world: World, fitted_bids: bool = False) -> float:
    """How likely the hands of ``world`` make the other seats' auction actions (0..1, unnormalised); the
    bids weighed by the fitted declarer model with ``fitted_bids`` (``bid_weight``)."""
    w = 1.0
    for s, bid in evidence.bids.items():
        w *= bid_weight(bid, know.start_hand(world, s), fitted_bids)
    for s, standings in evidence.passes.items():
        if s == know.declarer:
            continue  # the declarer's passes came before the hand it declared with
        hand = know.start_hand(world, s)
        low = min(standings, key=lambda b: b.key)
        fits = [_fit(bid, hand) for bid in _STRONG_BIDS if bid.key > low.key]
        if fits:
            w *= 1.0 - PASS_WEIGHT * max(fits)
    contract = know.contract
    if contract is not None and not contract.has_trumps and evidence.kontra_against:
        # a defender raises a no-trump contract it expects to beat: worlds where the declarer's hand
        # fits the contract well are less likely
        fit = declarer_likelihood(contract, NO_TRUMP, know.start_hand(world, know.declarer))
        w *= 1.0 - KONTRA_WEIGHT * fit
    return w


def weighted_by_evidence(
    base: Callable[[World], float] | None,
    log: Sequence[LogEntry],
    know: Knowledge,
    *,
    read_passes: bool = False,
    fitted_bids: bool = False,
) -> Callable[[World], float] | None:
    """The likelihood ``base`` (None: every world alike) times the evidence of ``log`` about the hands of
    the seats other than ``know.seat`` (``evidence_weight``; passes only with ``read_passes``); ``base``
    itself when the log holds no such evidence."""
    evidence = read_evidence(log, know.seat, know.declarer)
    if not read_passes:
        evidence = AuctionEvidence(evidence.bids, {}, evidence.kontra_against)
    if not evidence.bids and not evidence.passes and not evidence.kontra_against:
        return base

    def weight(world: World) -> float:
        w = evidence_weight(evidence, know, world, fitted_bids)
        return w * base(world) if base is not None else w

    return weight


def _times(
    first: Callable[[World], float] | None, second: Callable[[World], float] | None
) -> Callable[[World], float] | None:
    """The product of two likelihoods (None: every world alike)."""
    if first is None or second is None:
        return first if second is None else second

    def weight(world: World) -> float:
        return first(world) * second(world)

    return weight


def answered(change: float, answer: float = ANSWERED_RAISE_LOSS) -> float:
    """A defender's change in one world from raising a part, the seat's side (``change`` as if the
    declarer let the raise stand), with the declarer's answer in view: where the raise loses, the declarer,
    who sees its own hand, says the next step, so it loses ``answer`` times as much (3: the doubled stake
    doubled again). The coach prices a defender's kontra step with it too.

    >>> answered(2.0), answered(-2.0)
    (2.0, -6.0)
    """
    return change if change >= 0 else answer * change


def chain_gain(base: Sequence[float], raised: Sequence[float]) -> float:
    """A defender's mean gain per world from raising a part one kontra step, with the declarer's answer in
    view (``answered``). ``base`` and ``raised`` hold each world's contract value (per_defender, the
    declarer's side) as it stands and with the part raised. Never more than the plain mean gain
    (``StrongPlay.raise_gain``), which values a raise as if the declarer let it stand.

    >>> chain_gain([0.0, 0.0, 0.0], [-2.0, -2.0, 2.0])  # won twice by 2, lost once by 2 x 3
    -0.6666666666666666
    """
    return sum(answered(stands - doubled) for stands, doubled in zip(base, raised, strict=True)) / len(base)


def expert_weight(view: SeatView, know: Knowledge) -> Callable[[World], float] | None:
    """The likelihood the expert bot weighs each world of its card play and kontra by, for the seat of
    ``view`` (``know = analyse(view)``): the fitted declarer model's (``declarer_model_weight``) times, for a
    defender, the talon's (``talon_weight``) times the evidence of the other seats' bids and kontra in
    ``view.log``; None when none says anything (every world alike): the expert bot's own
    (``ExpertBot.card_likelihood``, its default settings), so the two cannot drift apart. The coach prices its
    hints on worlds drawn so (``ulti.analysis.coach``), by the same Metropolis chain (``ExpertBot.metropolis``)."""
    return ExpertBot(random.Random(0)).card_likelihood(view, know)


class ExpertBot(StrongBot):
    """The strong bot, with worlds weighted by the fitted declarer model and the other seats' bids and
    kontra (passes: ``read_passes``), drawn by a Metropolis chain, three times its worlds per card decision
    (``EXPERT_SAMPLES``), its own kontra chain as a defender, and its auction's values corrected by what
    declarations bring played out (``played_auction``)."""

    def __init__(self, rng: random.Random, samples: int = EXPERT_SAMPLES, **settings: Any) -> None:
        """An expert bot drawing from ``rng``: ``samples`` worlds per card decision; every other setting
        is the strong bot's (``StrongSettings``)."""
        super().__init__(rng, samples=samples, **settings)

    _log: Sequence[LogEntry] = ()
    _view: SeatView | None = None  # the view of the decision being made (the partner fusion rebuilds from it)
    #: Whether a defender may answer the declarer's raise of a part (szubkontra, mordkontra). Not by
    #: default: in the whole-game arena (expert against strong, seed 2026) such answers won the part 7-10%
    #: of the time at szubkontra and 0-2% at mordkontra, though the raiser's worlds showed it winning in 45
    #: to 48 of 48: the bid's evidence (a likelihood) is too loose to draw the hands a declarer raises with.
    answers_declarer: bool = False
    #: Whether passes count as evidence: not by default (``benchmarks.evidence_bench``: they carry almost
    #: no information about the true deal); ``PassReadingExpert`` reads them, to measure what they add.
    read_passes: bool = False
    #: Whether a defender weighs the declarer's hand by the fitted declarer model (``declarer_model``);
    #: False: by the strong bot's hand-written likelihood (``declarer_weight``).
    fitted_declarer: bool = True
    #: Whether another seat's bid weighs its hand by the fitted declarer model of the bid's family
    #: (``bid_weight``); False: by the strong bot's hand-written likelihood, softened.
    fitted_bids: bool = False
    #: Whether the worlds are drawn by a Metropolis chain (``MetropolisSampler``); False: by the strong
    #: bot's rejection sampling, which cannot reach the hands a sharp likelihood favours.
    metropolis: bool = True

    #: Whether the auction, the talon and the trump are valued on worlds weighed by the other seats' bids
    #: (``weighted_by_evidence`` with the fitted model, drawn by the Metropolis chain); False: on uniform
    #: worlds, as the strong bot values them.
    auction_evidence: bool = False

    #: Whether the worlds are weighed by the discards the seat picked up too (``discard_weight``: the fitted
    #: discard model), in the card play, the kontra and (with ``auction_evidence``) the auction.
    read_discards: bool = False

    #: Whether a defender weighs its worlds by the talon it cannot see (``talon_weight``: the declarer laid
    #: it away with the contract's bid, priced by the fitted discard model), in its card play and kontra: it
    #: places a defender's unseen cards better (``benchmarks.location_bench``) and leaned forward in card
    #: play and whole games (the module docstring); ``BlindTalonExpert`` is the expert without it.
    read_talon: bool = True

    #: Whether the auction values a declaration by what its family's declarations bring when played out
    #: (``played_values``: the double-dummy mean plus the family's measured correction); False: by the
    #: double-dummy mean, as the strong bot does. On: whole games against the strong bot, seeds 2026 and
    #: 2027, +23.3 and +20.9 per deal, a simple party +2.2 and +6.8 (the module docstring).
    played_auction: bool = True

    #: Whether a card decision in a no-trump contract (betli, no-trump durchmars) values each card with the
    #: seat's own later cards shared by the worlds it cannot tell apart (``lookahead_totals``). Not by
    #: default: it seldom changes a card, and gained nothing measurable in betli (module docstring).
    lookahead: bool = False
    #: How many of its own next cards the lookahead shares between the worlds alike to the seat.
    lookahead_turns: int = 1
    #: In a trump contract, the lookahead starts once this many tricks are done (10: never; the solves
    #: of a trump contract cost too much earlier).
    lookahead_trumps_from: int = 10

    #: Whether a defender's card decision in a no-trump contract values each card with its partner's next
    #: card chosen from the partner's own view (``partner_values``), over the first ``partner_fusion_worlds``
    #: worlds, each partner choice over ``partner_view_worlds`` worlds drawn for the partner. Not by default:
    #: in card play against the expert it gained nothing measurable (module docstring).
    partner_fusion: bool = False
    partner_fusion_worlds: int = 96
    partner_view_worlds: int = 8
    #: In a trump contract, the partner fusion starts once this many tricks are done (10: never).
    partner_trumps_from: int = 10

    #: Whether a card decision in a contract with a party or a 100 breaks a tie between classes of the same
    #: total by the card points behind it (``margin_totals``: the declarer keeps the most, a defender leaves
    #: it the fewest), over the first ``margin_worlds`` worlds; False: the heuristic's card breaks it. Not by
    #: default: in card play against the expert it gained nothing measurable (module docstring).
    point_margin: bool = False
    #: How many of the decision's worlds the tie-break solves for the card points (each class a few solves).
    margin_worlds: int = 32

    def act(self, view: SeatView) -> Action:
        """The expert's action for its seat (the strong bot's method on evidence-weighted worlds)."""
        self._log = view.log
        self._view = view
        return super().act(view)

    def card_sampler(self, view: SeatView, know: Knowledge) -> Sampler:
        """The expert's card-decision sampler from ``view``: its likelihood reads ``view``'s log."""
        self._log = view.log
        self._view = view
        return super().card_sampler(view, know)

    def card_likelihood(self, view: SeatView, know: Knowledge) -> Callable[[World], float] | None:
        """The expert's card-decision likelihood from ``view``: it reads ``view``'s log."""
        self._log = view.log
        return super().card_likelihood(view, know)

    def _likelihood(self, know: Knowledge) -> Callable[[World], float] | None:
        base = declarer_model_weight(know) if self.fitted_declarer else super()._likelihood(know)
        if self.read_discards:
            base = _times(base, discard_weight(self._log, know))
        if self.read_talon:
            base = _times(base, talon_weight(know))
        return weighted_by_evidence(base, self._log, know, read_passes=self.read_passes, fitted_bids=self.fitted_bids)

    def _auction_sampler(self, know: Knowledge) -> Sampler:
        """With ``auction_evidence``, the auction's worlds weighed by the other seats' bids by the fitted
        declarer model (and their passes with ``read_passes``), drawn by the Metropolis chain; else every
        world alike, as the strong bot draws them. The fitted model, not the hand-written fit: only it
        moved the auction's estimates (``benchmarks.declaration_bench``, the module docstring)."""
        if not self.auction_evidence:
            return super()._auction_sampler(know)
        base = discard_weight(self._log, know) if self.read_discards else None
        likelihood = weighted_by_evidence(base, self._log, know, read_passes=self.read_passes, fitted_bids=True)
        return MetropolisSampler(know, likelihood)

    def played_value(self, bid: Bid, solved: float) -> float:
        """With ``played_auction``, the auction's double-dummy mean corrected by what declarations of the
        bid's family bring when played out, as measured on worlds drawn as the auction draws them
        (``played_values``: its worlds weighed by the fitted bids and the discards have their own
        corrections); else the mean itself."""
        if not self.played_auction:
            return solved
        if self.auction_evidence and self.read_discards:
            return played_value(bid, solved, EVIDENCE_PLAYED_MINUS_SOLVED)
        return played_value(bid, solved)

    def _sampler(self, know: Knowledge) -> Sampler:
        if self.metropolis:
            return MetropolisSampler(know, self._likelihood(know))
        return super()._sampler(know)

    def _decide(self, table: CardTable, worlds: SolvedWorlds, know: Knowledge) -> int:
        """With ``lookahead``, in a no-trump contract (a trump contract once ``lookahead_trumps_from`` tricks
        are done): the class with the best total when the seat's next ``lookahead_turns`` cards are shared
        by the worlds it cannot tell apart (``lookahead_totals``); the plain choice if it is among the
        best, else the best the plain totals value highest, then the first. Else the plain choice, its tie
        broken by the card points with ``point_margin`` (``_margin_tiebreak``). Before either, a defender
        with ``partner_fusion`` (in a trump contract once ``partner_trumps_from`` tricks are done) chooses by
        its partner's own next card (``_partner_choice``)."""
        plain = table.decide()
        assert know.contract is not None
        if self.partner_fusion and know.seat != know.declarer and (
            not know.contract.has_trumps or sum(know.won) >= self.partner_trumps_from
        ):
            return self._partner_choice(table, worlds, plain)
        if not self.lookahead or (know.contract.has_trumps and sum(know.won) < self.lookahead_trumps_from):
            return self._margin_tiebreak(table, worlds, plain)
        deeper = lookahead_totals(worlds.positions, worlds.cards, table.sign, self.lookahead_turns)
        best = max(deeper)
        if deeper[plain] == best:
            return plain
        totals = table.totals()
        return max((k for k, t in enumerate(deeper) if t == best), key=lambda k: (totals[k], -k))

    def _partner_choice(self, table: CardTable, worlds: SolvedWorlds, plain: int) -> int:
        """The class with the best total when, in the first ``partner_fusion_worlds`` worlds, the partner's
        next card is its own choice (``partner_values``) and the other worlds count as plain sampling
        solved them (``CardTable.best_with``: fewer worlds than the decision's alone would change cards by
        the sample, not by the partner); the plain choice if it is among the best, else the best the plain
        totals value highest."""
        if len(worlds.cards) < 2 or self._view is None:
            return plain
        choices = PartnerChoices(random.Random(self.rng.getrandbits(64)), self.partner_view_worlds)
        positions = worlds.positions[: self.partner_fusion_worlds]
        rows = partner_values(self._view, positions, worlds.cards, choices)
        best = table.best_with([[table.sign * v for v in row] for row in rows])
        if plain in best:
            return plain
        totals = table.totals()
        return max(best, key=lambda k: (totals[k], -k))

    def _margin_tiebreak(self, table: CardTable, worlds: SolvedWorlds, plain: int) -> int:
        """With ``point_margin``, in a contract played for card points: among the classes tied with ``plain``
        (the plain choice), the one with the best card-point total over the first ``margin_worlds`` worlds
        (the declarer's points most for the declarer, fewest for a defender); ``plain`` among the best of
        those, else the first. Else, or without a tie, ``plain``."""
        # a decision that solved worlds has at least one; the plain choice is always among the tied
        if not self.point_margin or not plays_for_points(worlds.positions[0]):
            return plain
        tied = table.best_classes()
        if len(tied) < 2:
            return plain
        points = margin_totals(worlds.positions[: self.margin_worlds], [worlds.cards[k] for k in tied])
        scores = [table.sign * p for p in points]
        best = max(scores)
        return plain if scores[tied.index(plain)] == best else tied[scores.index(best)]

    def raise_gain(self, know: Knowledge, part: Part, base: Sequence[float], raised: Sequence[float]) -> float:
        """A defender's gain with the declarer's answer in view (``chain_gain``), minus infinity for a part
        the declarer has raised (``answers_declarer``); the declarer's as the strong bot values it (its
        raises won the part 91-98% of the time: the module docstring)."""
        if know.seat == know.declarer:
            return super().raise_gain(know, part, base, raised)
        if not self.answers_declarer and know.multipliers.get(part, 1) >= 4:  # x4: the declarer's rekontra
            return -math.inf
        return chain_gain(base, raised)


class FittedBidsExpert(ExpertBot):
    """The expert weighing the other seats' bids by the fitted declarer model (arena-only, to measure it)."""

    fitted_bids = True


class AuctionEvidenceExpert(ExpertBot):
    """The expert whose auction reads the other seats' bids too (``auction_evidence``; arena-only, to measure it)."""

    auction_evidence = True


class DiscardsExpert(ExpertBot):
    """The expert weighing its worlds by the discards it picked up too (``read_discards``), in its card play
    and kontra, and in its auction, which reads the other seats' bids as well (``auction_evidence``) and
    corrects its values by what was measured on such worlds (``EVIDENCE_PLAYED_MINUS_SOLVED``; arena-only,
    to measure it)."""

    read_discards = True
    auction_evidence = True


class DiscardsCardsExpert(ExpertBot):
    """The expert weighing the worlds of its card play and kontra by the discards it picked up too
    (``read_discards``; arena-only, to measure it)."""

    read_discards = True


class BlindTalonExpert(ExpertBot):
    """The expert whose defenders do not weigh their worlds by the talon they cannot see (``read_talon``
    off: the expert before it did; arena-only, to measure what the reading brings)."""

    read_talon = False


class PlayedAuctionExpert(ExpertBot):
    """The expert whose auction values declarations as they are played out (``played_auction``): the expert
    itself since it adopted that auction; the level stays so that the commands of its figures still run."""

    played_auction = True


class DoubleDummyAuctionExpert(ExpertBot):
    """The expert with the strong bot's auction values, the double-dummy means uncorrected (arena-only: the
    expert before it adopted ``played_auction``)."""

    played_auction = False


class LookaheadExpert(ExpertBot):
    """The expert with the information-set lookahead in no-trump contracts, every card it has left shared
    between the worlds alike to it (arena-only, to measure it)."""

    lookahead = True
    lookahead_turns = 10


class PartnerExpert(ExpertBot):
    """The expert valuing a defender's card in a no-trump contract with its partner's next card chosen from
    the partner's own view (``partner_fusion``; arena-only, to measure it)."""

    partner_fusion = True


class PartnerTrumpsExpert(PartnerExpert):
    """The partner-fusion expert in trump contracts too, from the second trick, over the first 48 worlds, each
    partner choice over 6 of its own (arena-only, to measure it)."""

    partner_trumps_from = 1
    partner_fusion_worlds = 48
    partner_view_worlds = 6


class MarginExpert(ExpertBot):
    """The expert breaking ties between cards by the card points behind them (``point_margin``; arena-only,
    to measure it)."""

    point_margin = True


class RejectionExpert(ExpertBot):
    """The expert as it was before the fitted declarer model and the Metropolis chain: the strong bot's
    hand-written likelihood, worlds by rejection sampling (arena-only; its figures in the module
    docstring, and the variants below, were measured on it)."""

    fitted_declarer = False
    metropolis = False
    read_talon = False


class PassReadingExpert(RejectionExpert):
    """The rejection expert that also reads passes as evidence (arena-only, the variant measured)."""

    read_passes = True


class ScaledExpert(RejectionExpert):
    """The rejection expert drawing its worlds with the evidence's likelihood scaled to its largest value
    (``Sampler(..., scaled=True)``; arena-only). Where another seat's bid fits few hands, plain rejection
    sampling keeps almost no world and falls back to unweighted ones after 200 tries (82 of 96 worlds at
    the declarer's first card of tests/data/examples/09): there the evidence is mostly lost."""

    scaled_likelihood = True


class FittedScaledExpert(ScaledExpert):
    """The scaled rejection expert with the fitted declarer model (arena-only): what the model gives
    without the chain."""

    fitted_declarer = True


__all__ = [
    "ANSWERED_RAISE_LOSS",
    "EXPERT_SAMPLES",
    "AuctionEvidence",
    "AuctionEvidenceExpert",
    "BlindTalonExpert",
    "ExpertBot",
    "FittedBidsExpert",
    "FittedScaledExpert",
    "LookaheadExpert",
    "MarginExpert",
    "PassReadingExpert",
    "PlayedAuctionExpert",
    "RejectionExpert",
    "ScaledExpert",
    "answered",
    "bid_weight",
    "chain_gain",
    "evidence_weight",
    "expert_weight",
    "read_evidence",
    "weighted_by_evidence",
]
