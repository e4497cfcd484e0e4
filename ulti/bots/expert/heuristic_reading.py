"""Reading the other seats' cards by the play policy they share: the heuristic's card.

The bots break the ties of their card decisions with the heuristic bot's card (``heuristic_card``), and
most card decisions are ties (the expert docstring: in an ulti 223 of 379). So a bot's card is very often
the heuristic's card for its hand, and the heuristic's card is a function of the hand alone (a side ace
led first, the lowest card that beats the declarer's, the lowest card else). A world where a
seat's card was not the heuristic's card for the hand it holds there is less likely than one where it
was: ``play_weight(..., reading=was_heuristic)`` weighs each world by that. It costs no solve: a card is
read by the legal cards of the seat's hand in the world, the trick and the contract.

Unlike the double-dummy reading (``play_reading``), whose cards a sampling player chooses over worlds
much like the reader's own, the heuristic's card depends on the hand itself, so it may tell worlds apart.
It does, but little. Measured (``python -m benchmarks.play_reading_bench --heuristic --tricks 10 --every 2
--worlds 16 --deals 100 --seed 1``: deals played by strong bots, every card the other seats played read at
every other card decision, in the true deal and in 16 worlds drawn as the expert draws them): the read
cards were the heuristic's for the true hands 70.1% of the time and for the drawn worlds' 64.2%; a card
that was not weighs a world 0.835, and the true deal gains +0.074 in mean log weight over the drawn worlds
(ulti +0.079, simple +0.052, 100 +0.133). The records of the card arena ``ulti arena --a expert --b strong
--mode cards --deals 400 --seed 2027 --workers 2 --records FILE`` (``--records FILE``, the same options
otherwise) gave +0.065. The other seats' bids read by the fitted declarer model say about +1.2 and did not
move the card play (the expert docstring), so the expert does not weigh its worlds by this reading either.
"""

from __future__ import annotations

from ulti.bots.expert.lookahead import legal_in
from ulti.bots.expert.play_reading import PlayedCard, position_before
from ulti.bots.heuristic import heuristic_card
from ulti.bots.sampling import Knowledge, World
from ulti.engine.cards import count
from ulti.engine.contracts import Part


def was_heuristic(played: PlayedCard, know: Knowledge, world: World) -> bool | None:
    """Whether ``played`` was the heuristic's card for the hand its seat holds in ``world`` (None: the seat
    had a single legal card there, so the card says nothing)."""
    assert know.contract is not None
    pos = position_before(played, know, world)
    legal = legal_in(pos)
    if count(legal) < 2:
        return None
    betli = know.contract.part_value(Part.BETLI) > 0
    predicted = heuristic_card(legal, played.trick, played.leader, played.seat, know.declarer, know.trump, betli)
    return predicted == played.card


__all__ = ["was_heuristic"]
