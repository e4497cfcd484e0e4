"""Hand-made positions from a compact text, built with the engine's own actions (a real auction and play).

The text names the contract, the talon, the cards each seat still holds and the tricks played so far, all
32 cards once (the lines below show the form; tests/puzzles/test_hand_made.py has whole positions)::

    M-SU S by 0            # the bid, its trump (C S D H; "-" for a no-trump bid) and the declarer
    talon JD QD            # the declarer's two discards
    0: 7S KH               # the cards each seat holds now (not those of the trick in progress)
    1: 9D 8H
    2: AH 9H
    AS 8S 9S | AC 7C 8C    # the tricks played, each leader first, "|" or a new line between tricks

The deal is rebuilt from the start: each seat's dealt hand is what it holds now plus what it played (the
declarer, the opener, also holds the talon), the declarer bids with the talon as discards, the others and then
the declarer pass, the declarer names the trump of a minor bid, and every card is played by the seat the
engine has on turn, so an illegal card or a wrong leader raises the engine's own error. Nobody says kontra.
``#`` starts a comment.
"""

from __future__ import annotations

from ulti.engine import actions as act
from ulti.engine.cards import SUIT_LETTERS, Card, card_str, mask_of, parse_card
from ulti.engine.contracts import Bid, TrumpKind, parse_bid
from ulti.engine.deal import Deal
from ulti.engine.phase import Phase
from ulti.engine.play import NO_TRUMP, trick_winner_index


def _cards(words: list[str]) -> list[Card]:
    return [parse_card(word) for word in words]


def position(text: str) -> Deal:
    """The deal of ``text`` (see the module docstring), with the seat on turn to play its card."""
    lines = [line.split("#", 1)[0].strip() for line in text.strip().splitlines()]
    lines = [line for line in lines if line]
    head = lines[0].split()
    if len(head) != 4 or head[2] != "by":
        raise ValueError(f"first line must be 'BID TRUMP by SEAT', not {lines[0]!r}")
    bid, trump, declarer = parse_bid(head[0]), head[1], int(head[3])
    talon_words = lines[1].split()
    if talon_words[0] != "talon" or len(talon_words) != 3:
        raise ValueError(f"second line must be 'talon CARD CARD', not {lines[1]!r}")
    talon = _cards(talon_words[1:])
    held: dict[int, list[Card]] = {}
    for line in lines[2:5]:
        seat, _, rest = line.partition(":")
        held[int(seat)] = _cards(rest.split())
    tricks = [_cards(trick.split()) for trick in " | ".join(lines[5:]).split("|") if trick.strip()]
    played = [card for trick in tricks for card in trick]
    every = [card for cards in held.values() for card in cards] + talon + played
    twice = {card_str(card) for card in every if every.count(card) > 1}
    if twice:
        raise ValueError(f"cards named twice: {' '.join(sorted(twice))}")
    owners = _owners(bid, trump, declarer, tricks)
    dealt = [mask_of(held[s] + [c for c, o in zip(played, owners, strict=True) if o == s]) for s in range(3)]
    dealt[declarer] |= mask_of(talon)
    deal = Deal(dealt, (declarer - 1) % 3)
    deal.apply(act.bid(declarer, bid, (talon[0], talon[1])))
    while deal.phase is Phase.AUCTION:
        assert deal.to_move is not None  # the auction always has a seat on turn
        deal.apply(act.pass_(deal.to_move))
    if deal.phase is Phase.TRUMP:
        deal.apply(act.trump(declarer, SUIT_LETTERS.index(trump)))
    for card in played:
        if deal.to_move is None:
            raise ValueError(f"card {card_str(card)} is played after the deal is over")
        deal.apply(act.play(deal.to_move, card))
    if bid.kind is TrumpKind.MINOR and SUIT_LETTERS[deal.trump] != trump:
        raise ValueError(f"trump {trump} asked, the deal has {SUIT_LETTERS[deal.trump]}")
    return deal


def _owners(bid: Bid, trump: str, declarer: int, tricks: list[list[Card]]) -> list[int]:
    """The seat that played each card of ``tricks``: the declarer leads trick 1, each trick's winner the next.
    The last trick may be unfinished (the position is then in the middle of a trick)."""
    if bid.kind is TrumpKind.NO_TRUMP:
        trump_suit = NO_TRUMP
    else:
        trump_suit = 3 if bid.kind is TrumpKind.HEARTS else SUIT_LETTERS.index(trump)
    owners: list[int] = []
    leader = declarer
    for number, trick in enumerate(tricks, 1):
        if len(trick) > 3 or (len(trick) < 3 and number < len(tricks)):
            raise ValueError(f"trick {number} has {len(trick)} cards")
        owners.extend((leader + i) % 3 for i in range(len(trick)))
        if len(trick) == 3:
            leader = (leader + trick_winner_index(trick, trump_suit)) % 3
    return owners
