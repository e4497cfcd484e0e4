"""What one seat (or a spectator) may see of a deal now, as typed immutable values.

``Deal.seat_view(seat)`` builds a ``SeatView``: bots and the sampler read its attributes, and its
``to_json()`` is the wire form (docs/protocol/views.md §10, the table view's ``deal``; ``Deal.view(seat)``).
``SeatView.from_json`` parses the wire form back, for clients that act on what the server sent them.

The attributes are named as the wire keys. Cards are ints and sets of cards masks
(``ulti.engine.cards``), bids and parts are ``Bid`` and ``Part``, suits are ints (0..3), a hidden
value (a hand or talon the viewer may not see, a spectator's choices) is ``None``. Sequences are
tuples, so a view and its parts are immutable, hashable and picklable (bots think in other
processes). Views share rather than copy: the deal's result, and the log entries and finished tricks
the deal keeps for its views (each builds its JSON once; ``to_json()`` shares those dicts).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from ulti.engine.actions import Action, Kind
from ulti.engine.cards import SUIT_LETTERS, Card, CardSet, card_str, parse_card, parse_suit
from ulti.engine.contracts import Bid, Part, parse_bid, parse_part
from ulti.engine.errors import RuleArg
from ulti.engine.phase import Phase
from ulti.engine.pickling import pickled_by_constructor
from ulti.engine.play import NO_TRUMP, Refusal
from ulti.engine.scoring import DealResult, PartResult, PointsDetail, SilentResult, Trick

#: The wire strings of the enums (a dict lookup is several times faster than ``.value``).
_KIND_VALUES: dict[Kind, str] = {k: k.value for k in Kind}
_PART_VALUES: dict[Part, str] = {p: p.value for p in Part}
#: ``CARD_CODES[card]``: the record code of each card.
CARD_CODES: tuple[str, ...] = tuple(card_str(c) for c in range(32))
#: ``_BYTE_CODES[suit][bits]``: the codes of the cards of ``suit`` whose rank bits are ``bits``, in rank order.
_BYTE_CODES: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(CARD_CODES[suit * 8 + rank] for rank in range(8) if bits >> rank & 1) for bits in range(256))
    for suit in range(4)
)


def card_codes(cards: CardSet) -> list[str]:
    """The codes of ``cards`` by suit then rank (as ``iter_cards`` orders them), as a new list.

    >>> card_codes(1 << parse_card("AH") | 1 << parse_card("7C") | 1 << parse_card("TS"))
    ['7C', 'TS', 'AH']
    """
    clubs, spades, diamonds, hearts = _BYTE_CODES
    return [*clubs[cards & 255], *spades[cards >> 8 & 255], *diamonds[cards >> 16 & 255], *hearts[cards >> 24 & 255]]


def codes_mask(codes: Sequence[str]) -> CardSet:
    """The set of the cards named by ``codes``.

    >>> codes_mask(["7C", "8C"])
    3
    """
    out = 0
    for code in codes:
        out |= 1 << parse_card(code)
    return out


def _suit_or_none(letter: str | None) -> int | None:
    return None if letter is None else parse_suit(letter)


def _letter_or_none(suit: int | None) -> str | None:
    return None if suit is None else SUIT_LETTERS[suit]


# ---------------------------------------------------------------------------------------- the log


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One action of the deal's history as the viewer may see it (wire: an entry of ``log``).

    ``discard`` is shown only to the seat that discarded, ``cards`` (the talon picked up) only to the
    seat that took it; a spectator sees both once the deal is over. Unset fields are ``None``.

    A deal keeps the entries of each viewer's log and every view shares them, so an entry builds its
    wire form once, when it is made: ``to_json()`` returns that same dict each time (copy it to change it).
    """

    seat: int
    action: Kind
    bid: Bid | None = None
    discard: tuple[Card, Card] | None = None
    cards: CardSet | None = None
    suit: int | None = None
    parts: tuple[Part, ...] | None = None
    card: Card | None = None
    _json: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_json", self._build_json())

    @classmethod
    def of(cls, action: Action, shown: bool, taken: CardSet) -> LogEntry:
        """``action`` as a log entry; ``shown``: the viewer may see its discard and the talon ``taken``."""
        return cls(
            action.seat,
            action.kind,
            action.bid,
            action.discard if shown else None,
            taken if shown and action.kind is Kind.TAKE else None,
            action.suit,
            action.parts,
            action.card,
        )

    def to_json(self) -> dict[str, Any]:
        """The wire entry: ``seat`` and ``action``, then only the keys that are set (built once, shared)."""
        return self._json

    def _build_json(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"seat": self.seat, "action": _KIND_VALUES[self.action]}
        if self.bid is not None:
            entry["bid"] = self.bid.code
        if self.discard is not None:
            entry["discard"] = [CARD_CODES[c] for c in self.discard]
        if self.cards is not None:
            entry["cards"] = card_codes(self.cards)
        if self.suit is not None:
            entry["suit"] = SUIT_LETTERS[self.suit]
        if self.parts is not None:
            entry["parts"] = [_PART_VALUES[p] for p in self.parts]
        if self.card is not None:
            entry["card"] = CARD_CODES[self.card]
        return entry

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LogEntry:
        """Parse a wire entry."""
        discard = data.get("discard")
        bid, cards, suit, parts, card = (data.get(k) for k in ("bid", "cards", "suit", "parts", "card"))
        return cls(
            data["seat"],
            Kind(data["action"]),
            None if bid is None else parse_bid(bid),
            None if discard is None else (parse_card(discard[0]), parse_card(discard[1])),
            None if cards is None else codes_mask(cards),
            _suit_or_none(suit),
            None if parts is None else tuple(parse_part(p) for p in parts),
            None if card is None else parse_card(card),
        )


#: ``LogEntry.to_json`` and ``PlayedTrick.to_json`` at C speed, for whole logs and trick lists.
_SHARED_JSON = attrgetter("_json")


def entries_json(entries: Iterable[LogEntry]) -> list[dict[str, Any]]:
    """The wire form of log entries: each entry's shared dict (``LogEntry.to_json``), in a new list."""
    return list(map(_SHARED_JSON, entries))

# ---------------------------------------------------------------------------------------- the state


@dataclass(frozen=True, slots=True)
class AuctionState:
    """The auction: the standing bid and its bidder (``None`` before the first), the passes in a row,
    and whether the seat on turn holds 12 cards (must discard and bid; false after the auction)."""

    bid: Bid | None
    bidder: int | None
    passes: int
    obliged: bool

    def to_json(self) -> dict[str, Any]:
        """The wire ``auction``."""
        bid = self.bid
        return {
            "bid": None if bid is None else bid.code,
            "bidder": self.bidder,
            "passes": self.passes,
            "obliged": self.obliged,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AuctionState:
        """Parse the wire ``auction``."""
        bid = data["bid"]
        return cls(None if bid is None else parse_bid(bid), data["bidder"], data["passes"], data["obliged"])


@dataclass(frozen=True, slots=True)
class ContractState:
    """The contract once the auction is over: the bid, its declarer and the trump suit (``None``
    before it is named, and in a no-trump contract)."""

    bid: Bid
    declarer: int
    trump: int | None

    def to_json(self) -> dict[str, Any]:
        """The wire ``contract``."""
        return {"bid": self.bid.code, "declarer": self.declarer, "trump": _letter_or_none(self.trump)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ContractState:
        """Parse the wire ``contract``."""
        return cls(parse_bid(data["bid"]), data["declarer"], _suit_or_none(data["trump"]))


@dataclass(frozen=True, slots=True)
class ChainState:
    """The open kontra chain after trick 1 (docs/rules.md §6.3): the step it waits for, the parts
    that step may raise, and the seats that declined it."""

    step: str
    parts: tuple[Part, ...]
    declined: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The wire ``chain``."""
        return {"step": self.step, "parts": [_PART_VALUES[p] for p in self.parts], "declined": list(self.declined)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ChainState:
        """Parse the wire ``chain``."""
        return cls(data["step"], tuple(parse_part(p) for p in data["parts"]), tuple(data["declined"]))


@dataclass(frozen=True, slots=True)
class CurrentTrick:
    """The trick on the table: the seat that led (or leads next) and the cards down, in play order."""

    leader: int
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        """The wire ``trick``."""
        return {"leader": self.leader, "cards": [CARD_CODES[c] for c in self.cards]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CurrentTrick:
        """Parse the wire ``trick``."""
        return cls(data["leader"], tuple(parse_card(c) for c in data["cards"]))


@dataclass(frozen=True, slots=True)
class PlayedTrick:
    """A finished trick: the seat that led, the three cards in play order, the seat that took it.

    Like ``LogEntry``, it builds its wire form once, when it is made, and ``to_json()`` shares it.
    """

    leader: int
    cards: tuple[Card, Card, Card]
    winner: int
    _json: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        json = {"leader": self.leader, "cards": [CARD_CODES[c] for c in self.cards], "winner": self.winner}
        object.__setattr__(self, "_json", json)

    @classmethod
    def of(cls, trick: Trick) -> PlayedTrick:
        """The deal's ``trick`` as a view shows it."""
        return cls(trick.leader, trick.cards, trick.winner)

    def to_json(self) -> dict[str, Any]:
        """The wire entry of ``tricks`` (built once, shared)."""
        return self._json

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayedTrick:
        """Parse a wire entry of ``tricks``."""
        a, b, c = (parse_card(code) for code in data["cards"])
        return cls(data["leader"], (a, b, c), data["winner"])


@dataclass(frozen=True, slots=True)
class Marriages:
    """The marriages a seat announced with its card to trick 1 (trump contracts): its 40 (0 or 1),
    its 20s, and the marriage points that count for it (docs/rules.md §4.2)."""

    forty: int
    twenties: int
    counting: int

    def to_json(self) -> dict[str, int]:
        """The wire value of one seat in ``marriages``."""
        return {"forty": self.forty, "twenties": self.twenties, "counting": self.counting}

    @classmethod
    def from_json(cls, data: Mapping[str, int]) -> Marriages:
        """Parse one seat's wire ``marriages`` value."""
        return cls(data["forty"], data["twenties"], data["counting"])


@dataclass(frozen=True, slots=True)
class PointsTally:
    """The points each side of a trump contract has taken so far, as far as everybody may know them:
    the card points of the tricks taken (with the last trick's 10 once it is taken; taken tricks are
    public) and the announced marriages that count (docs/rules.md §4). The talon's points, which
    count for the defenders, are left out: during the play only the declarer knows the talon."""

    declarer_cards: int
    defenders_cards: int
    declarer_marriages: int
    defenders_marriages: int

    def to_json(self) -> dict[str, dict[str, int]]:
        """The wire ``tally``."""
        return {
            "declarer": {"cards": self.declarer_cards, "marriages": self.declarer_marriages},
            "defenders": {"cards": self.defenders_cards, "marriages": self.defenders_marriages},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Mapping[str, int]]) -> PointsTally:
        """Parse the wire ``tally``."""
        decl, defs = data["declarer"], data["defenders"]
        return cls(decl["cards"], defs["cards"], decl["marriages"], defs["marriages"])


# ---------------------------------------------------------------------------------------- choices

#: A refusal's value as the view holds it (``RuleArg`` with tuples for lists).
ArgValue = int | str | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RefusedCard:
    """A card of the viewer's hand it may not play now: the reason in words, the rule that refuses it
    (a code of ``errors.CARD_HINTS``) and the values its wording names, in order."""

    card: Card
    reason: str
    rule: Refusal
    args: tuple[tuple[str, ArgValue], ...] = ()

    @staticmethod
    def freeze_args(args: Mapping[str, RuleArg]) -> tuple[tuple[str, ArgValue], ...]:
        """A refusal's values as immutable pairs."""
        return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in args.items())

    def args_json(self) -> dict[str, RuleArg]:
        """The values as the wire's ``refused_args`` entry."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.args}


@dataclass(frozen=True, slots=True)
class KontraOffer:
    """The kontra step the viewer may say now and the parts it may raise."""

    step: str
    parts: tuple[Part, ...]


def choices_json(
    may_pass: bool, may_take: bool, bid_codes: list[str], must_discard: bool, trumps: Sequence[int],
    may_give_up: bool, kontra: tuple[str, Sequence[Part]] | None, cards: CardSet,
    refused: dict[str, str], refused_rules: dict[str, str], refused_args: dict[str, dict[str, RuleArg]],
) -> dict[str, Any]:
    """The wire ``choices`` (docs/protocol/views.md §10): ``SeatChoices.to_json``, ``Choices.to_json`` and
    ``Deal.choices_json`` (the views' own, built from the deal directly) all write it here. ``bid_codes``: the
    bids' codes; ``kontra``: the step and the parts it may raise; the refused cards' reasons, rules and values
    keyed by card code."""
    return {
        "may_pass": may_pass,
        "may_take": may_take,
        "bids": bid_codes,
        "must_discard": must_discard,
        "trumps": [SUIT_LETTERS[s] for s in trumps],
        "may_give_up": may_give_up,
        "kontra": None if kontra is None else {"step": kontra[0], "parts": [_PART_VALUES[p] for p in kontra[1]]},
        "cards": card_codes(cards),
        "refused": refused,
        "refused_rules": refused_rules,
        "refused_args": refused_args,
    }


@dataclass(frozen=True, slots=True)
class SeatChoices:
    """What the viewer may do now (never empty: a seat with nothing to do has ``choices`` None).

    ``cards`` are the cards it may play; on the wire, ``refused`` becomes three maps keyed by card
    code: ``refused`` (the reasons), ``refused_rules`` and ``refused_args``.
    """

    may_pass: bool = False
    may_take: bool = False
    bids: tuple[Bid, ...] = ()
    must_discard: bool = False
    trumps: tuple[int, ...] = ()
    may_give_up: bool = False
    kontra: KontraOffer | None = None
    cards: CardSet = 0
    refused: tuple[RefusedCard, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The wire ``choices``."""
        kontra = self.kontra
        refused = self.refused
        return choices_json(
            self.may_pass, self.may_take, [b.code for b in self.bids], self.must_discard, self.trumps,
            self.may_give_up, None if kontra is None else (kontra.step, kontra.parts),
            self.cards,
            {CARD_CODES[r.card]: r.reason for r in refused},
            {CARD_CODES[r.card]: r.rule.value for r in refused},
            {CARD_CODES[r.card]: r.args_json() for r in refused},
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatChoices:
        """Parse the wire ``choices``."""
        kontra = data["kontra"]
        rules: Mapping[str, str] = data["refused_rules"]
        args: Mapping[str, Mapping[str, RuleArg]] = data["refused_args"]
        return cls(
            data["may_pass"],
            data["may_take"],
            tuple(parse_bid(b) for b in data["bids"]),
            data["must_discard"],
            tuple(parse_suit(s) for s in data["trumps"]),
            data["may_give_up"],
            None if kontra is None else KontraOffer(kontra["step"], tuple(parse_part(p) for p in kontra["parts"])),
            codes_mask(data["cards"]),
            tuple(
                RefusedCard(parse_card(code), reason, Refusal(rules[code]), RefusedCard.freeze_args(args[code]))
                for code, reason in data["refused"].items()
            ),
        )


# ---------------------------------------------------------------------------------------- results


def result_from_json(data: Mapping[str, Any]) -> DealResult:
    """Parse ``DealResult.to_json()`` (docs/record.md's result) back."""
    points = data.get("points")
    trump = data["trump"]
    scores = data["scores"]
    detail = data.get("detail")
    return DealResult(
        declarer=data["declarer"],
        bid=parse_bid(data["bid"]),
        trump=NO_TRUMP if trump is None else parse_suit(trump),
        given_up=data["given_up"],
        parts=tuple(
            PartResult(parse_part(p["part"]), p["won"], p["value"], p["multiplier"], p["per_defender"])
            for p in data["parts"]
        ),
        silent=tuple(SilentResult(s["bonus"], s["side"], s["won"], s["per_defender"]) for s in data["silent"]),
        points=None if points is None else (points["declarer"], points["defenders"]),
        per_defender=data["per_defender"],
        scores=(scores[0], scores[1], scores[2]),
        tricks=data.get("tricks", 0),
        ended_early=data.get("ended_early", False),
        detail=None if detail is None else PointsDetail.from_json(detail),
    )


# ---------------------------------------------------------------------------------------- the view

Hands = tuple[CardSet | None, CardSet | None, CardSet | None]
SeatMarriages = tuple[Marriages | None, Marriages | None, Marriages | None]


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything ``seat`` (``None``: a spectator) may see of a deal now.

    ``hands[s]`` is seat ``s``'s hand, ``None`` while hidden from the viewer; ``talon`` is shown only
    to the seat whose discards it holds (and to all once the deal is over); ``kontra`` pairs each
    raised part with its multiplier, in the contract's order; ``marriages[s]`` is what seat ``s``
    announced, ``None`` before its card to trick 1; ``dealt`` (the hands as dealt) is set once the deal
    is over; ``choices`` is ``None`` for a spectator and when the seat may do nothing. ``to_move`` is -1
    once the deal is over, as on the wire (docs/protocol/views.md §10.3), where ``Deal.to_move`` is ``None``.
    """

    seat: int | None
    dealer: int
    opener: int
    phase: Phase
    to_move: int
    hands: Hands
    hand_sizes: tuple[int, int, int]
    log: tuple[LogEntry, ...]
    auction: AuctionState
    talon: CardSet | None
    contract: ContractState | None
    kontra: tuple[tuple[Part, int], ...]
    chain: ChainState | None
    trick: CurrentTrick | None
    tricks: tuple[PlayedTrick, ...]
    won: tuple[int, int, int]
    marriages: SeatMarriages
    result: DealResult | None
    dealt: tuple[CardSet, CardSet, CardSet] | None
    choices: SeatChoices | None
    #: the points each side has taken (trump contracts, once the play has begun), else None
    tally: PointsTally | None = None

    @property
    def hand(self) -> CardSet:
        """The viewer's own hand (a ``ValueError`` for a spectator)."""
        seat = self.seat
        hand = None if seat is None else self.hands[seat]
        if hand is None:
            raise ValueError("a spectator has no hand")
        return hand

    def multiplier(self, part: Part) -> int:
        """The kontra multiplier of ``part`` (1 when it was not raised)."""
        for raised, multiplier in self.kontra:
            if raised is part:
                return multiplier
        return 1

    def to_json(self) -> dict[str, Any]:
        """The wire form (docs/protocol/views.md §10 ``state.deal``): what ``Deal.view(seat)`` returns."""
        contract = self.contract
        chain = self.chain
        trick = self.trick
        result = self.result
        view: dict[str, Any] = {
            "seat": self.seat,
            "dealer": self.dealer,
            "opener": self.opener,
            "phase": self.phase.value,
            "to_move": self.to_move,
            "hands": {str(s): card_codes(h) for s, h in enumerate(self.hands) if h is not None},
            "hand_sizes": list(self.hand_sizes),
            "log": list(map(_SHARED_JSON, self.log)),
            "auction": self.auction.to_json(),
            "talon": None if self.talon is None else card_codes(self.talon),
            "contract": None if contract is None else contract.to_json(),
            "kontra": {_PART_VALUES[p]: m for p, m in self.kontra},
            "chain": None if chain is None else chain.to_json(),
            "trick": None if trick is None else trick.to_json(),
            "tricks": list(map(_SHARED_JSON, self.tricks)),
            "won": list(self.won),
            "marriages": {str(s): m.to_json() for s, m in enumerate(self.marriages) if m is not None},
            "result": None if result is None else result.view_json(),
            "tally": None if self.tally is None else self.tally.to_json(),
        }
        if self.dealt is not None:
            view["dealt"] = [card_codes(h) for h in self.dealt]
        if self.seat is not None:
            choices = self.choices
            view["choices"] = None if choices is None else choices.to_json()
        return view

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatView:
        """Parse a wire view (``Deal.view(seat)``, a table view's ``deal``)."""
        shown: Mapping[str, Sequence[str]] = data["hands"]
        hands = tuple(None if (h := shown.get(str(s))) is None else codes_mask(h) for s in range(3))
        sizes = data["hand_sizes"]
        won = data["won"]
        marriages: Mapping[str, Mapping[str, int]] = data["marriages"]
        seat_marriages = tuple(None if (m := marriages.get(str(s))) is None else Marriages.from_json(m)
                               for s in range(3))
        contract, chain, trick, result, talon = (data[k] for k in ("contract", "chain", "trick", "result", "talon"))
        dealt = data.get("dealt")
        choices = data.get("choices")
        tally = data.get("tally")
        return cls(
            seat=data["seat"],
            dealer=data["dealer"],
            opener=data["opener"],
            phase=Phase(data["phase"]),
            to_move=data["to_move"],
            hands=(hands[0], hands[1], hands[2]),
            hand_sizes=(sizes[0], sizes[1], sizes[2]),
            log=tuple(LogEntry.from_json(e) for e in data["log"]),
            auction=AuctionState.from_json(data["auction"]),
            talon=None if talon is None else codes_mask(talon),
            contract=None if contract is None else ContractState.from_json(contract),
            kontra=tuple((parse_part(p), m) for p, m in data["kontra"].items()),
            chain=None if chain is None else ChainState.from_json(chain),
            trick=None if trick is None else CurrentTrick.from_json(trick),
            tricks=tuple(PlayedTrick.from_json(t) for t in data["tricks"]),
            won=(won[0], won[1], won[2]),
            marriages=(seat_marriages[0], seat_marriages[1], seat_marriages[2]),
            result=None if result is None else result_from_json(result),
            dealt=None if dealt is None else (codes_mask(dealt[0]), codes_mask(dealt[1]), codes_mask(dealt[2])),
            choices=None if choices is None else SeatChoices.from_json(choices),
            tally=None if tally is None else PointsTally.from_json(tally),
        )


__all__ = [
    "ArgValue",
    "AuctionState",
    "ChainState",
    "ContractState",
    "CurrentTrick",
    "Hands",
    "KontraOffer",
    "LogEntry",
    "Marriages",
    "PlayedTrick",
    "PointsTally",
    "RefusedCard",
    "SeatChoices",
    "SeatMarriages",
    "SeatView",
    "card_codes",
    "choices_json",
    "codes_mask",
    "result_from_json",
]

# the bots' worker processes receive these: pickled in a way a compiled class can be rebuilt too
pickled_by_constructor(
    LogEntry, AuctionState, ContractState, ChainState, CurrentTrick, PlayedTrick, Marriages, PointsTally,
    RefusedCard, KontraOffer, SeatChoices, SeatView,
)
