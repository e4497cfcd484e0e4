"""``Deal`` with the card-play path as it was before the trick was kept up to date (benchmarks only).

``OldDeal`` is today's ``Deal`` whose card-play methods are the old ones, copied unchanged: the led
suit and the top card recomputed from the trick at every query (``trick_winner_index``), legality
computed again in ``play`` after ``legal_card_mask``, the winner found by rescanning the trick, and the
settlement of ``benchmarks.baseline.old_scoring`` (the old ``settle``). It serves the old-against-new
games/s figure of ``benchmarks.engine_bench`` in one run.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.baseline.old_scoring import old_settle
from ulti.engine.cards import Card, CardSet, card_str
from ulti.engine.choices import Choices
from ulti.engine.contracts import Part, bids_above
from ulti.engine.deal import MINOR_SUITS, Deal
from ulti.engine.errors import IllegalAction
from ulti.engine.kontra import close_chain, kontra_window
from ulti.engine.phase import Phase
from ulti.engine.play import TRICKS_PER_DEAL, legal_cards, refusals, trick_winner_index
from ulti.engine.scoring import Trick


@dataclass(frozen=True)
class OldTrick(Trick):
    """``Trick`` built as it was then: by the frozen dataclass's generated ``__init__``."""


class OldDeal(Deal):
    """``Deal`` with the old card-play path (the methods below are the old code)."""

    def led_suit(self) -> int:
        """The suit led to the current trick, -1 when the next card leads."""
        return self.trick[0] >> 3 if self.trick else -1

    def top_card(self) -> Card:
        """The card winning the current trick so far (-1 when none is down)."""
        if not self.trick:
            return -1
        return self.trick[trick_winner_index(self.trick, self.trump)]

    def legal_card_mask(self) -> CardSet:
        """The cards the seat on turn may play (0 outside the play)."""
        if self.phase is not Phase.PLAY:
            return 0
        seat = self.to_move if not self.in_chain else self.leader
        return legal_cards(self.hands[seat], self.led_suit(), self.top_card(), self.trump, self.held_seven(seat))

    def choices(self, seat: int, reasons: bool = True) -> Choices:
        """Everything ``seat`` may do now, with the reason for each card it may not play (always: the
        old path had no ``reasons`` switch; the reasons are extra, never wrong)."""
        ch = Choices(seat)
        if self.phase is Phase.AUCTION:
            if seat != self.to_move:
                return ch
            ch.bids = list(bids_above(self.high_bid))
            ch.must_discard = self.obliged
            ch.may_pass = not self.obliged
            ch.may_take = not self.obliged and bool(ch.bids)
        elif self.phase is Phase.TRUMP:
            if seat == self.declarer:
                ch.trumps = list(MINOR_SUITS)
                ch.may_give_up = self._may_give_up()
        elif self.phase is Phase.PLAY:
            step, parts = kontra_window(self, seat)
            if step:
                ch.kontra_step, ch.kontra_parts = step, parts
            # While the chain is open a live table asks for kontra steps only; a record may still
            # close the chain with the trick-2 lead (docs/record.md: declines need not be recorded).
            if seat == self.to_move and not self.in_chain:
                hand = self.hands[seat]
                led, top, seven = self.led_suit(), self.top_card(), self.held_seven(seat)
                ch.cards = legal_cards(hand, led, top, self.trump, seven)
                for card, (refusal, args) in refusals(hand, led, top, self.trump, seven).items():
                    ch.refused_rules[card] = refusal.value
                    ch.refused_args[card] = args
        return ch

    def play(self, seat: int, card: Card) -> None:
        """Play ``card`` for ``seat`` (the fast path of ``apply``); raises ``IllegalAction``."""
        if self.phase is not Phase.PLAY:
            raise IllegalAction("play_not_now", phase=self.phase.value)
        if self.in_chain:
            if seat != self.leader:
                raise IllegalAction("chain_lead", seat=seat, leader=self.leader)
        elif seat != self.to_move:
            raise IllegalAction("play_turn", seat=seat, to_move=self.to_move)
        hand = self.hands[seat]
        trick = self.trick
        if not hand >> card & 1:
            raise IllegalAction("card_not_held", seat=seat, card=card_str(card))
        led = trick[0] >> 3 if trick else -1
        top = self.top_card() if trick else -1
        seven = self.seven if seat == self.declarer else -1
        if not legal_cards(hand, led, top, self.trump, seven) >> card & 1:
            raise self._play_error(seat, card, hand, led, top, seven)
        if self.in_chain:
            close_chain(self)
        self.hands[seat] = hand ^ (1 << card)
        trick.append(card)
        if len(trick) < 3:
            self.to_move = (seat + 1) % 3
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        cards = self.trick
        winner_index = trick_winner_index(cards, self.trump)
        winner = (self.leader + winner_index) % 3
        trick = OldTrick(self.leader, (cards[0], cards[1], cards[2]), winner)
        self.tricks.append(trick)
        self.won[winner] += 1
        self.trick = []
        self.leader = self.to_move = winner
        contract = self.contract
        assert contract is not None
        n = len(self.tricks)
        if n == TRICKS_PER_DEAL or (
            not contract.has_trumps
            and (winner == self.declarer) == contract.has(Part.BETLI)
        ):
            self._settle()
            return
        if n == 1 and self.levels:
            self.chain_level = 2
            self.chain_prev = frozenset(p for p, level in self.levels.items() if level == 1)
            self.chain_declined = set()
            self.to_move = self.declarer

    def _settle(self) -> None:
        assert self.contract is not None
        self.result = old_settle(
            bid=self.contract,
            declarer=self.declarer,
            trump=self.trump,
            tricks=self.tricks,
            start_hands=self.start_hands,
            talon=self.talon,
            multipliers={p: 1 << level for p, level in self.levels.items()},
        )
        self.phase = Phase.DONE
        self.to_move = -1
