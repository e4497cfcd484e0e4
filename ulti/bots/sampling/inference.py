"""Inference: ``analyse(view)`` reads one seat's view into ``Knowledge`` (where each unseen card may be)."""

from __future__ import annotations

from collections.abc import Sequence

from ulti.bots.sampling.knowledge import TALON, Knowledge, discarder_before, pair_mask
from ulti.engine.actions import Kind
from ulti.engine.cards import FULL_DECK, KING, QUEEN, SUIT_MASKS, Card, CardSet, card_points
from ulti.engine.contracts import Part
from ulti.engine.play import NO_TRUMP, higher_table, seven_of, trick_winner_index
from ulti.engine.view import LogEntry, SeatView


def forbidden_after(card: Card, led: int, top: Card, trump: int, seven: Card) -> CardSet:
    """Cards the player of ``card`` cannot have held when it played it (the engine's rule of legal cards).

    ``led`` is the suit led (-1 when ``card`` leads), ``top`` the card winning so far, ``seven`` the
    trump 7 when the player is an ulti declarer (else -1). Holding any card of the result would have
    made ``card`` illegal.
    """
    out = 0
    if led >= 0:
        led_mask = SUIT_MASKS[led]
        if card >> 3 == led:
            if top >> 3 == led and not higher_table(trump)[top] >> card & 1:
                out |= led_mask & higher_table(trump)[top]
        else:
            out |= led_mask
            if trump >= 0:
                trumps = SUIT_MASKS[trump]
                if card >> 3 != trump:
                    out |= trumps
                elif top >> 3 == trump and not higher_table(trump)[top] >> card & 1:
                    out |= trumps & higher_table(trump)[top]
    if seven >= 0 and card == seven:
        # the 7 is legal only when nothing else is
        out |= SUIT_MASKS[trump]
        if led < 0:
            out = FULL_DECK
        elif led != trump:
            out |= SUIT_MASKS[led]
    return out & ~(1 << card)


def _own_dealt(log: Sequence[LogEntry], seat: int, hand: CardSet) -> CardSet:
    h = hand
    for entry in reversed(log):
        if entry.seat != seat:
            continue
        kind = entry.action
        if kind is Kind.PLAY:
            assert entry.card is not None
            h |= 1 << entry.card
        elif kind is Kind.BID and entry.discard is not None:
            h |= pair_mask(entry.discard)
        elif kind is Kind.TAKE:
            assert entry.cards is not None
            h &= ~entry.cards
    return h


def analyse(view: SeatView) -> Knowledge:
    """The viewer's knowledge of where every card may be, from its view alone."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no hand to analyse")
    log = view.log
    hand = view.hand
    dealt = _own_dealt(log, seat, hand)
    others = ((seat + 1) % 3, (seat + 2) % 3)
    poss = [0, 0, 0, 0]
    poss[seat] = dealt
    for o in others:
        poss[o] = FULL_DECK & ~dealt
    obliged = view.opener
    talon_present = False
    snapshots: list[list[CardSet]] = []
    for entry in log:
        snapshots.append(list(poss))
        s = entry.seat
        kind = entry.action
        if kind is Kind.TAKE:
            if s == seat:
                assert entry.cards is not None
                cards = entry.cards
                for loc in (*others, TALON):
                    poss[loc] &= ~cards
                poss[seat] |= cards
            else:
                poss[s] |= poss[TALON]
            poss[TALON] = 0
            obliged = s
            talon_present = False
        elif kind is Kind.BID:
            if obliged == s:
                if s == seat:
                    assert entry.discard is not None
                    discard = pair_mask(entry.discard)
                    poss[seat] &= ~discard
                    poss[TALON] = discard
                else:
                    poss[TALON] = poss[s]
                talon_present = True
            obliged = -1
        elif kind is Kind.PLAY and s == seat:
            assert entry.card is not None
            poss[seat] &= ~(1 << entry.card)

    know = Knowledge(
        seat=seat,
        dealer=view.dealer,
        opener=view.opener,
        phase=view.phase.value,
        hand=hand,
        sizes=view.hand_sizes,
        talon_size=2 if talon_present else 0,
        allowed=poss,
        snapshots=snapshots,
    )
    if any(
        e.action is Kind.TAKE and e.seat != seat and log[discarder_before(log, i)].seat != seat
        for i, e in enumerate(log)
    ):
        know.check_log = log
    auction = view.auction
    know.standing = auction.bid
    know.high_bidder = auction.bidder if auction.bidder is not None else -1
    know.obliged = auction.obliged
    contract = view.contract
    if contract is not None:
        bid = contract.bid
        know.contract = bid
        know.declarer = contract.declarer
        know.trump = contract.trump if contract.trump is not None else NO_TRUMP
        know.multipliers = {p: 1 for p, _ in bid.parts}
        for part, mult in view.kontra:
            know.multipliers[part] = mult
    _analyse_play(view, know)
    return know


def _analyse_play(view: SeatView, know: Knowledge) -> None:
    poss = know.allowed
    voids = [0, 0, 0]
    played_by = [0, 0, 0]
    trump = know.trump
    seven = -1
    if know.contract is not None and know.contract.has(Part.ULTI) and trump != NO_TRUMP:
        seven = seven_of(trump)
    tricks: list[tuple[int, list[Card]]] = [(t.leader, list(t.cards)) for t in view.tricks]
    if view.trick is not None:
        know.leader = view.trick.leader
        know.trick = view.trick.cards
        tricks.append((know.leader, list(know.trick)))
    declarer_taken = 0
    for t in view.tricks:
        if t.winner == know.declarer:
            declarer_taken |= (1 << t.cards[0]) | (1 << t.cards[1]) | (1 << t.cards[2])
    know.declarer_points = card_points(declarer_taken)
    know.won = view.won
    know.tricks_done = len(view.tricks)
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            player = (leader + i) % 3
            played_by[player] |= 1 << card
            led = cards[0] >> 3 if i else -1
            top = cards[trick_winner_index(cards[:i], trump)] if i else -1
            voids[player] |= forbidden_after(card, led, top, trump, seven if player == know.declarer else -1)
    played = played_by[0] | played_by[1] | played_by[2]
    know.played = played
    know.played_by = played_by
    for s in know.others:
        poss[s] &= ~played & ~voids[s]
    poss[TALON] &= ~played
    poss[know.seat] = know.hand
    exact = [know.seat]
    for s in know.others:
        shown = view.hands[s]
        if shown is not None:
            poss[s] = shown
            exact.append(s)
    if view.talon is not None:
        poss[TALON] = view.talon
        know.talon_size = 2
        exact.append(TALON)
    fixed = 0
    for loc in exact:
        fixed |= poss[loc]
    for loc in (*know.others, TALON):
        if loc not in exact:
            poss[loc] &= ~fixed
    if not know.talon_size:
        poss[TALON] = 0
    for s, m in enumerate(view.marriages):
        if m is not None and s != know.seat:
            know.marriages[s] = (m.forty, m.twenties)
            if m.forty and trump >= 0:
                pair = (1 << (trump * 8 + KING)) | (1 << (trump * 8 + QUEEN))
                for loc in range(4):
                    if loc != s:
                        poss[loc] &= ~pair
