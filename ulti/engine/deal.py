"""One deal as a state machine (docs/rules.md §2–§6): auction, trump, play with kontra, settlement.

``Deal.apply(action)`` either changes the state or raises ``IllegalAction`` naming the rule, and
then nothing has changed: every check runs before the first write. ``choices(seat)`` lists what a
seat may do now (with the reason for each refused card), and ``seat_view(seat)`` is the only thing
meant to leave the engine for a player: exactly what that seat may see, as an immutable ``SeatView``
(``ulti.engine.view``) whose ``to_json()`` is the wire form (``view(seat)``).

The parts ``Deal`` works with: ``phase`` (``Phase``), ``choices`` (``Choices``, what a seat may do),
``kontra`` (functions: the kontra rules and the chain after trick 1, over the deal's kontra state) and
``dealviews`` (``DealViews``, the view keeper each deal holds: what each seat may see). The deal owns
all of its state; none of them re-declares it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ulti.engine import actions as act
from ulti.engine import dealviews
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import (
    HIGHER_PLAIN_ORDER,
    HIGHER_TRUMP_ORDER,
    SUIT_LETTERS,
    SUIT_MASKS,
    Card,
    CardSet,
    card_label,
    card_str,
    count,
    format_cards,
    iter_cards,
    mask_of,
)
from ulti.engine.choices import MINOR_SUITS, Choices
from ulti.engine.contracts import TOP_RUNG, Bid, Part, TrumpKind, bid_codes_above, bids_above
from ulti.engine.dealing import opener_of
from ulti.engine.dealviews import DealViews, ViewChange
from ulti.engine.errors import IllegalAction, RecordError, RuleArg
from ulti.engine.kontra import close_chain, first_trick_turn, kontra_window, say_kontra
from ulti.engine.phase import Phase
from ulti.engine.play import (
    NO_TRUMP,
    TRICKS_PER_DEAL,
    Refusal,
    legal_cards,
    refusal_args,
    refusal_groups,
    refusal_of,
    refusal_wording,
    seven_of,
)
from ulti.engine.scoring import (
    DealResult,
    Trick,
    give_up_result,
    settle,
)
from ulti.engine.view import SeatView, card_codes, choices_json

__all__ = ["MINOR_SUITS", "Choices", "Deal", "Phase"]

_PLAY = Phase.PLAY  # one global lookup on the per-card path instead of two

def _validate_hands(hands: Sequence[CardSet], dealer: int) -> None:
    if dealer not in (0, 1, 2):
        raise RecordError(f"dealer must be 0, 1 or 2, not {dealer!r}")
    if len(hands) != 3:
        raise RecordError(f"hands: expected 3 hands, got {len(hands)}")
    opener = opener_of(dealer)
    seen = 0
    for seat, hand in enumerate(hands):
        want = 12 if seat == opener else 10
        if count(hand) != want:
            role = "the opener" if seat == opener else "a non-opener"
            raise RecordError(f"hands[{seat}] has {count(hand)} cards; {role} is dealt {want}")
        if seen & hand:
            raise RecordError(f"card {format_cards(seen & hand)} is dealt twice")
        seen |= hand


class Deal:
    """The state of one deal. Build it from the dealt hands, then ``apply`` actions."""

    def __init__(self, hands: Sequence[CardSet | Iterable[Card]], dealer: int) -> None:
        """Start a deal: ``hands[s]`` is seat ``s``'s hand as dealt (12 cards for the opener)."""
        masks = [h if isinstance(h, int) else mask_of(h) for h in hands]
        _validate_hands(masks, dealer)
        self.dealer = dealer
        self.opener = opener_of(dealer)
        self.dealt: tuple[CardSet, ...] = tuple(masks)
        self.hands: list[CardSet] = list(masks)
        self.history: list[Action] = []
        self.phase = Phase.AUCTION
        # the seat on turn (None once the deal is over)
        self.to_move: int | None = self.opener
        # auction
        self.talon: CardSet = 0
        self.talon_by: int | None = None  # the seat whose discards are the talon now
        self.high_bid: Bid | None = None
        self.high_bidder: int | None = None  # who holds the high bid (None before the first bid)
        self.passes = 0
        self.obliged = True  # the seat on turn holds 12 cards: must discard 2 and bid
        # after the auction
        self.declarer: int | None = None  # None until the auction ends
        self.contract: Bid | None = None
        self.trump = NO_TRUMP
        self.result: DealResult | None = None
        # play
        self.start_hands: tuple[CardSet, ...] = ()
        self.levels: dict[Part, int] = {}  # kontra level per part: multiplier 2**level
        self.trick: list[Card] = []
        self.leader: int | None = None  # who led the current trick (None before the play)
        self.tricks: list[Trick] = []
        self.won = [0, 0, 0]
        self.seven = -1  # the trump 7 the declarer must hold back (ulti bids), else -1
        # the trick in progress, kept up to date card by card (Deal.play) so that no query rescans it:
        # the suit led (-1 before the lead), the card winning it so far and its seat (-1 before the lead)
        self._led = -1
        self._top: Card = -1
        self._top_seat = -1
        self._higher: tuple[CardSet, ...] = HIGHER_PLAIN_ORDER  # "beats within its suit" of the contract
        # how the contract's play may end before trick 10 (docs/rules.md §3.6), set when the play starts:
        # 0 never (trump contracts), 1 when the declarer takes a trick (betli), 2 when he loses one
        self._early_end = 0
        # the legal cards computed last (legal_card_mask, choices) for the hand on turn, until the next
        # card is played (-1: none): play() then checks legality with them instead of computing them
        # again. The hand alone is the key: the three hands are disjoint, so a hand names its seat (only
        # an empty hand could be two seats', and it has no legal card whoever holds it).
        self._legal_hand: CardSet = -1
        self._legal: CardSet = 0
        # the chain after trick 1 (docs/rules.md §6.3): the level the next step reaches, 0 = no chain;
        # the parts the last step raised; the defenders who declined the step now asked (ulti.engine.kontra)
        self.chain_level = 0
        self.chain_prev: frozenset[Part] = frozenset()
        self.chain_declined: set[int] = set()
        # what views share, extended as the deal goes (ulti.engine.dealviews)
        self._views = DealViews()

    # ------------------------------------------------------------------ construction helpers

    @classmethod
    def at_play(
        cls,
        hands: Sequence[CardSet],
        dealer: int,
        declarer: int,
        bid: Bid,
        trump: int,
        talon: CardSet,
    ) -> Deal:
        """A deal at the start of play with the given 10-card hands and talon (benches, bots)."""
        dealt = list(hands)
        opener = opener_of(dealer)
        dealt[opener] |= talon
        deal = cls(dealt, dealer)
        deal.talon, deal.talon_by = talon, opener
        deal.hands = list(hands)
        deal.high_bid, deal.high_bidder = bid, declarer
        deal.obliged = False
        deal._finish_auction()
        if deal.phase is Phase.TRUMP:
            deal._start_play(trump)
        return deal

    def copy(self) -> Deal:
        """An independent copy of this deal (the history is shared until either appends)."""
        other = Deal(self.dealt, self.dealer)
        other._take_state(self)
        other.hands = list(self.hands)
        other.history = list(self.history)
        other.levels = dict(self.levels)
        other.trick = list(self.trick)
        other.tricks = list(self.tricks)
        other.won = list(self.won)
        other.chain_declined = set(self.chain_declined)
        other._views = self._views.fork()
        return other

    def catch_up(self, advanced: Deal) -> None:
        """Become ``advanced``: a ``copy`` of this deal to which further actions were applied, so that a
        move checked on a copy is kept rather than applied a second time.

        This deal stays the same object and keeps what its views have kept (that only grows with the
        history, extended from its length, so it holds); ``advanced`` shares its lists from now on and
        must not be used afterwards.
        """
        self._take_state(advanced)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (the bots' and the laboratory's worker processes are sent deals) as the deal built again from
        its dealt hands, then given the rest of its state; the views' caches start empty there. A class
        compiled by mypyc (ulti/native.py) cannot be rebuilt the way pickle rebuilds a Python object."""
        return Deal, (self.dealt, self.dealer), {name: getattr(self, name) for name in _PICKLED_STATE}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """The rest of a pickled deal's state (``__reduce__``)."""
        for name, value in state.items():
            setattr(self, name, value)

    def _take_state(self, other: Deal) -> None:
        # Every attribute but the views', by name: the class may be compiled (ulti/native.py), which keeps
        # no instance __dict__ to update. tests/engine/test_view.py checks that none is left out.
        self.dealer = other.dealer
        self.opener = other.opener
        self.dealt = other.dealt
        self.hands = other.hands
        self.history = other.history
        self.phase = other.phase
        self.to_move = other.to_move
        self.talon = other.talon
        self.talon_by = other.talon_by
        self.high_bid = other.high_bid
        self.high_bidder = other.high_bidder
        self.passes = other.passes
        self.obliged = other.obliged
        self.declarer = other.declarer
        self.contract = other.contract
        self.trump = other.trump
        self.result = other.result
        self.start_hands = other.start_hands
        self.levels = other.levels
        self.trick = other.trick
        self.leader = other.leader
        self.tricks = other.tricks
        self.won = other.won
        self.seven = other.seven
        self._led = other._led
        self._top = other._top
        self._top_seat = other._top_seat
        self._higher = other._higher
        self._early_end = other._early_end
        self._legal_hand = other._legal_hand
        self._legal = other._legal
        self.chain_level = other.chain_level
        self.chain_prev = other.chain_prev
        self.chain_declined = other.chain_declined

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended (result available)."""
        return self.phase is Phase.DONE

    @property
    def in_chain(self) -> bool:
        """Whether the kontra chain after trick 1 is open."""
        return self.chain_level > 0

    def multiplier(self, part: Part) -> int:
        """The kontra multiplier (1..64) of ``part``."""
        return 1 << self.levels.get(part, 0)

    def kontra_time(self, seat: int) -> bool:
        """Whether ``seat`` is a defender about to play its card to trick 1 (it may say kontra first)."""
        return first_trick_turn(self, seat)

    def hands_open(self) -> bool:
        """Whether all hands are face up: an open contract after trick 1 and its kontra chain."""
        return dealviews.hands_open(self)

    def public_entry(self, index: int, viewer: int | None) -> dict[str, Any]:
        """Action ``index`` of the history as ``viewer`` may see it (discards and taken cards only if own)."""
        return self._views.public_entry(self, index, viewer)

    def seat_view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see now (``None``: a spectator, who sees no hidden card before the end)."""
        return self._views.seat_view(self, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        """``seat_view(seat)`` as JSON: the wire form (docs/protocol/views.md §10, the table view's ``deal``).

        Built from the spectator's view of this moment with the seat's own parts put in (``DealViews.view``);
        tests/engine/test_views.py holds it equal to ``seat_view(seat).to_json()``. The dicts inside are
        shared between viewers: read them, never change them.
        """
        return self._views.view(self, seat)

    def view_change(self) -> ViewChange | None:
        """What the last action changed in the wire views, if that is known from the action (one that leaves
        the auction or the play going: ``DealViews.change``), else None: a server then patches each viewer's
        view without building it."""
        return self._views.change(self)

    def held_seven(self, seat: int) -> Card:
        """The trump 7 ``seat`` must hold back under the ulti rule, or -1."""
        return self.seven if seat == self.declarer else -1

    def led_suit(self) -> int:
        """The suit led to the current trick, -1 when the next card leads."""
        return self._led

    def top_card(self) -> Card:
        """The card winning the current trick so far (-1 when none is down)."""
        return self._top

    def legal_card_mask(self) -> CardSet:
        """The cards the seat on turn may play (0 outside the play)."""
        if self.phase is not _PLAY:
            return 0
        seat = self.leader if self.chain_level else self.to_move
        assert seat is not None  # the play always has a seat on turn (and a leader during the chain)
        hand = self.hands[seat]
        if hand == self._legal_hand:
            return self._legal
        # _legal_for's body, spelled out: this is asked before every card of a game
        legal = legal_cards(hand, self._led, self._top, self.trump, self.seven if seat == self.declarer else -1)
        self._legal_hand, self._legal = hand, legal
        return legal

    def _legal_for(self, seat: int, hand: CardSet) -> CardSet:
        """``legal_cards`` for ``seat`` holding ``hand`` now, remembered until the next card is played."""
        legal = legal_cards(hand, self._led, self._top, self.trump, self.seven if seat == self.declarer else -1)
        self._legal_hand, self._legal = hand, legal
        return legal

    def may_act(self, seat: int) -> bool:
        """Whether ``seat`` has anything to do now: ``choices(seat).any()`` without finding the choices (the
        server asks it of every action it receives)."""
        phase = self.phase
        if phase is Phase.AUCTION:
            # a seat that took the talon must bid, which it can unless the standing bid is the top one
            return seat == self.to_move and (not self.obliged or bool(bids_above(self.high_bid)))
        if phase is Phase.TRUMP:
            return seat == self.declarer
        if phase is Phase.PLAY:
            if seat == self.to_move and not self.chain_level and self.hands[seat]:
                return True  # a hand always has a card it may play
            return bool(kontra_window(self, seat)[0])
        return False

    def choices(self, seat: int) -> Choices:
        """Everything ``seat`` may do now, with the reason for each card it may not play."""
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
            if seat == self.to_move and not self.chain_level:
                hand = self.hands[seat]
                led, top, seven = self._led, self._top, self.held_seven(seat)
                ch.cards = self._legal_for(seat, hand)
                rules, values = ch.refused_rules, ch.refused_args
                for refusal, cards in refusal_groups(hand, led, top, self.trump, seven):
                    # one rule code and one dict of its values for the group's cards (read-only)
                    rule, args = refusal.value, refusal_args(refusal, led, top)
                    for card in iter_cards(cards):
                        rules[card] = rule
                        values[card] = args
        return ch

    def choices_json(self, seat: int) -> dict[str, Any] | None:
        """``choices(seat).to_json()`` if the seat has anything to do, else None: a view's ``choices``.

        The seat on turn's choices go out after every action (its view's patch), and around trick 1 every
        seat's: in the auction and the play they go straight into the wire form (``view.choices_json``),
        without a ``Choices`` to build and read back.
        """
        if self.phase is Phase.AUCTION:
            if seat != self.to_move:
                return None
            above = bid_codes_above(self.high_bid)
            obliged = self.obliged
            if obliged and not above:
                return None  # a seat that took the talon over the top bid: nothing (the auction ends first)
            may_pass = not obliged
            bids = list(above)
            return choices_json(may_pass, may_pass and bool(bids), bids, obliged, (), False, None, 0, {}, {}, {})
        if self.phase is Phase.PLAY:
            # around trick 1 every seat's choices are asked after every action: most seats have none
            step, parts = kontra_window(self, seat)
            kontra = (step, parts) if step else None
            if seat != self.to_move or self.chain_level:
                if kontra is None:
                    return None
                return choices_json(False, False, [], False, (), False, kontra, 0, {}, {}, {})
            hand = self.hands[seat]
            led, top = self._led, self._top
            refused: dict[str, str] = {}
            rules: dict[str, str] = {}
            values: dict[str, dict[str, RuleArg]] = {}
            for refusal, cards in refusal_groups(hand, led, top, self.trump, self.held_seven(seat)):
                rule, text, wire = refusal_wording(refusal, led, top)
                codes = card_codes(cards)
                refused.update(dict.fromkeys(codes, text))
                rules.update(dict.fromkeys(codes, rule))
                values.update(dict.fromkeys(codes, wire))
            legal = self._legal_for(seat, hand)
            return choices_json(False, False, [], False, (), False, kontra, legal, refused, rules, values)
        choices = self.choices(seat)
        return choices.to_json() if choices.any() else None

    def _may_give_up(self) -> bool:
        return self.contract is not None and self.contract.code == "M-S"

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Action) -> None:
        """Apply ``action`` or raise ``IllegalAction`` (naming the rule) and change nothing."""
        if self.phase is Phase.DONE:
            raise IllegalAction("deal_over")
        kind = action.kind
        if kind is Kind.PLAY:
            if action.card is None:
                raise IllegalAction("play_needs_card")
            self.play(action.seat, action.card)
        elif kind is Kind.KONTRA:
            say_kontra(self, action.seat, action.parts or ())
        elif kind is Kind.BID:
            if action.bid is None:
                raise IllegalAction("bid_needs_bid")
            self._bid(action.seat, action.bid, action.discard)
        elif kind is Kind.PASS:
            self._pass(action.seat)
        elif kind is Kind.TAKE:
            self._take(action.seat)
        elif kind is Kind.TRUMP:
            if action.suit is None:
                raise IllegalAction("trump_needs_suit")
            self._name_trump(action.seat, action.suit)
        elif kind is Kind.GIVE_UP:
            self._give_up(action.seat)
        else:  # pragma: no cover - Kind is closed
            raise IllegalAction("unknown_action", kind=str(kind))
        self.history.append(action)

    def _check_auction_turn(self, seat: int, what: str) -> None:
        if self.phase is not Phase.AUCTION:
            raise IllegalAction("auction_over", action=what)
        if seat != self.to_move:
            assert self.to_move is not None  # the auction always has a seat on turn
            raise IllegalAction("auction_turn", seat=seat, to_move=self.to_move)

    def _bid(self, seat: int, bid: Bid, discard: tuple[Card, Card] | None) -> None:
        self._check_auction_turn(seat, "bid")
        hand = self.hands[seat]
        if self.obliged:
            if discard is None:
                raise IllegalAction("discard_needed", seat=seat)
            a, b = discard
            if a == b:
                raise IllegalAction("discard_twice", seat=seat, card=card_str(a))
            for card in (a, b):
                if not hand >> card & 1:
                    raise IllegalAction("discard_not_held", seat=seat, card=card_str(card))
        elif discard is not None:
            raise IllegalAction("discard_unexpected", seat=seat)
        standing = self.high_bid
        if standing is not None and bid.key <= standing.key:
            if bid.key == standing.key:
                raise IllegalAction("bid_same_rung", bid=bid.code, standing=standing.code)
            raise IllegalAction(
                "bid_too_low", bid=bid.code, rung=bid.rung, standing=standing.code, standing_rung=standing.rung
            )
        if discard is not None:
            talon = (1 << discard[0]) | (1 << discard[1])
            self.hands[seat] = hand & ~talon
            self.talon, self.talon_by = talon, seat
        self.high_bid, self.high_bidder = bid, seat
        self.passes = 0
        self.obliged = False
        self.to_move = (seat + 1) % 3

    def _pass(self, seat: int) -> None:
        self._check_auction_turn(seat, "pass")
        if self.obliged:
            if seat == self.opener and self.high_bid is None:
                raise IllegalAction("opener_must_bid", seat=seat)
            raise IllegalAction("taker_must_bid", seat=seat)
        self.passes += 1
        self.to_move = (seat + 1) % 3
        if self.passes == 3:
            self._finish_auction()

    def _take(self, seat: int) -> None:
        self._check_auction_turn(seat, "take")
        if self.obliged:
            raise IllegalAction("take_while_obliged", seat=seat)
        if self.high_bid is not None and self.high_bid.rung == TOP_RUNG:
            raise IllegalAction("take_above_top", bid=self.high_bid.code)
        self.hands[seat] |= self.talon
        self.talon = 0
        self.talon_by = None
        self.obliged = True

    def _finish_auction(self) -> None:
        bid, bidder = self.high_bid, self.high_bidder
        assert bid is not None and bidder is not None
        self.declarer = bidder
        self.contract = bid
        self.to_move = self.declarer
        if bid.kind is TrumpKind.MINOR:
            self.phase = Phase.TRUMP
        else:
            self._start_play(3 if bid.kind is TrumpKind.HEARTS else NO_TRUMP)

    def _name_trump(self, seat: int, suit: int) -> None:
        if self.phase is not Phase.TRUMP:
            raise IllegalAction("trump_not_now")
        declarer = self.declarer
        assert declarer is not None  # set when the auction ended, before the trump phase
        if seat != declarer:
            raise IllegalAction("trump_not_declarer", seat=seat, declarer=declarer)
        if suit not in MINOR_SUITS:
            raise IllegalAction("trump_minor_only", suit=SUIT_LETTERS[suit])
        self._start_play(suit)

    def _give_up(self, seat: int) -> None:
        if self.phase is not Phase.TRUMP or not self._may_give_up():
            raise IllegalAction("give_up_not_allowed")
        declarer = self.declarer
        assert declarer is not None and self.contract is not None  # both set when the auction ended
        if seat != declarer:
            raise IllegalAction("give_up_not_declarer", seat=seat, declarer=declarer)
        self.result = give_up_result(declarer, self.contract)
        self.phase = Phase.DONE
        self.to_move = None

    def _start_play(self, trump: int) -> None:
        assert self.contract is not None
        self.trump = trump
        self.phase = Phase.PLAY
        self.start_hands = tuple(self.hands)
        self.leader = self.to_move = self.declarer
        self.seven = seven_of(trump) if self.contract.has(Part.ULTI) else -1
        self._higher = HIGHER_PLAIN_ORDER if trump == NO_TRUMP else HIGHER_TRUMP_ORDER
        contract = self.contract
        self._early_end = 0 if contract.has_trumps else 1 if contract.has(Part.BETLI) else 2
        self._legal_hand = -1

    def play(self, seat: int, card: Card) -> None:
        """Play ``card`` for ``seat`` (the fast path of ``apply``); raises ``IllegalAction``.

        The checks and their order are the rules' (phase, turn, card held, legality); legality is
        computed once per card: the mask ``legal_card_mask`` or ``choices`` found for this seat and
        hand is reused, and the trick's led suit and top card are kept up to date as cards fall.
        """
        if self.phase is not _PLAY:
            raise IllegalAction("play_not_now", phase=self.phase.value)
        chain = self.chain_level
        if chain:
            if seat != self.leader:
                assert self.leader is not None  # the play always has a leader
                raise IllegalAction("chain_lead", seat=seat, leader=self.leader)
        elif seat != self.to_move:
            assert self.to_move is not None  # the play always has a seat on turn
            raise IllegalAction("play_turn", seat=seat, to_move=self.to_move)
        hands = self.hands
        hand = hands[seat]
        if hand == self._legal_hand:
            legal = self._legal
        else:
            legal = legal_cards(hand, self._led, self._top, self.trump, self.seven if seat == self.declarer else -1)
        bit = 1 << card
        if not legal & bit:  # the legal cards are held cards: a card not held is refused here too
            if not hand & bit:
                raise IllegalAction("card_not_held", seat=seat, card=card_str(card))
            raise self._play_error(seat, card, hand, self._led, self._top, self.seven if seat == self.declarer else -1)
        if chain:
            close_chain(self)
        hands[seat] = hand ^ bit
        self._legal_hand = -1
        trick = self.trick
        trick.append(card)
        top = self._top
        if top < 0:
            self._led = card >> 3
            self._top, self._top_seat = card, seat
        elif card >> 3 == top >> 3:
            if self._higher[top] >> card & 1:
                self._top, self._top_seat = card, seat
        elif card >> 3 == self.trump:  # a trump on a plain top (a trump top is beaten in its suit only)
            self._top, self._top_seat = card, seat
        if len(trick) < 3:
            self.to_move = (seat + 1) % 3
            return
        self._finish_trick()

    def _play_error(self, seat: int, card: Card, hand: CardSet, led: int, top: Card, seven: Card) -> IllegalAction:
        refusal = refusal_of(card, hand, led, top, self.trump, seven)
        if refusal is Refusal.FOLLOW:
            held = card_codes(hand & SUIT_MASKS[led])
            return IllegalAction("follow", seat=seat, suit=SUIT_LETTERS[led], held=held)
        if refusal is Refusal.BEAT or refusal is Refusal.OVERTRUMP:
            better = card_codes(legal_cards(hand, led, top, self.trump, -1))
            return IllegalAction(refusal.value, seat=seat, card=card_str(top), held=better)
        if refusal is Refusal.TRUMP:
            return IllegalAction("trump", seat=seat, held=card_codes(hand & SUIT_MASKS[self.trump]))
        return IllegalAction("ulti_seven", seat=seat)

    def _finish_trick(self) -> None:
        winner = self._top_seat
        tricks = self.tricks
        c0, c1, c2 = self.trick
        leader = self.leader
        assert leader is not None  # set when the play started
        tricks.append(Trick(leader, (c0, c1, c2), winner))
        self.won[winner] += 1
        self.trick = []
        self._led = self._top = self._top_seat = -1
        self.leader = self.to_move = winner
        n = len(tricks)
        early = self._early_end
        if n == TRICKS_PER_DEAL or (early and (winner == self.declarer) == (early == 1)):
            self._settle()
            return
        if n == 1 and self.levels:
            self.chain_level = 2
            self.chain_prev = frozenset(p for p, level in self.levels.items() if level == 1)
            self.chain_declined = set()
            self.to_move = self.declarer

    def _settle(self) -> None:
        assert self.contract is not None and self.declarer is not None  # the play follows the auction
        self.result = settle(
            bid=self.contract,
            declarer=self.declarer,
            trump=self.trump,
            tricks=self.tricks,
            start_hands=self.start_hands,
            talon=self.talon,
            multipliers={p: 1 << level for p, level in self.levels.items()},
        )
        self.phase = Phase.DONE
        self.to_move = None

    # ------------------------------------------------------------------ enumeration

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Concrete legal actions of ``seat`` (default: the seat on turn).

        Bids that need a discard are listed once per bid with ``discard=None``; a caller that
        takes one must choose the two cards (see ``discard_options``).
        """
        if seat is None:
            seat = self.to_move
            if seat is None:  # the deal is over: nobody is on turn
                return []
        ch = self.choices(seat)
        out: list[Action] = []
        if ch.may_pass:
            out.append(act.pass_(seat))
        if ch.may_take:
            out.append(act.take(seat))
        out.extend(act.bid(seat, b) for b in ch.bids)
        out.extend(act.trump(seat, s) for s in ch.trumps)
        if ch.may_give_up:
            out.append(act.give_up(seat))
        if ch.kontra_step:
            out.append(act.kontra(seat, ()))
            out.extend(act.kontra(seat, (p,)) for p in ch.kontra_parts)
        out.extend(act.play(seat, c) for c in iter_cards(ch.cards))
        return out

    def __repr__(self) -> str:
        trick = " ".join(card_label(c) for c in self.trick)
        return f"<Deal {self.phase.value} to_move={self.to_move} bid={self.high_bid} trick=[{trick}]>"


#: what a pickled deal carries besides its dealt hands and dealer (``Deal.__reduce__``): every attribute but the
#: views' caches (tests/engine/test_view.py checks that none is left out)
_PICKLED_STATE = (
    "opener", "hands", "history", "phase", "to_move", "talon", "talon_by", "high_bid", "high_bidder", "passes",
    "obliged", "declarer", "contract", "trump", "result", "start_hands", "levels", "trick", "leader", "tricks", "won",
    "seven", "_led", "_top", "_top_seat", "_higher", "_early_end", "_legal_hand", "_legal", "chain_level",
    "chain_prev", "chain_declined",
)
