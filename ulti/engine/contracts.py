"""Parts, the 38 bids on 20 rungs, their values and ranking (docs/rules.md §1).

The table is written out once, in rung order, exactly as docs/rules.md §1.4 lists it; every value is
derived from the part values of §1.1 so that the one disputed price (§9 A1, the open durchmars part
of a trump bid) is a single named constant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ulti.engine.errors import RecordError
from ulti.engine.pickling import pickled_by_constructor


class Part(StrEnum):
    """A part of a contract, won or lost on its own. Values are the record codes."""

    SIMPLE = "simple"
    ULTI = "ulti"
    FORTY_HUNDRED = "40-100"
    TWENTY_HUNDRED = "20-100"
    DURCHMARS = "durchmars"
    BETLI = "betli"


#: Order in which parts are listed in results (docs/record.md).
PART_ORDER: tuple[Part, ...] = tuple(Part)

#: docs/rules.md §9 A1: an open durchmars part is worth 24 in every bid, minor suit included.
OPEN_DURCHMARS_VALUE = 24

#: Kontra chain step names, by level (1 = kontra ×2 … 6 = fedáksári ×64), docs/rules.md §6.3.
KONTRA_STEP_NAMES = ("", "kontra", "rekontra", "szubkontra", "hirskontra", "mordkontra", "fedáksári")
MAX_KONTRA_LEVEL = 6


class TrumpKind(StrEnum):
    """What kind of trumps a bid has."""

    MINOR = "M"  # the declarer names clubs, spades or diamonds after the auction
    HEARTS = "H"
    NO_TRUMP = "N"


@dataclass(frozen=True)
class Bid:
    """One of the 38 bids. ``parts`` maps each part to its value per defender.

    >>> bid = BIDS_BY_CODE["H-SU"]
    >>> bid.name_en, bid.rung, bid.value, bid.key
    ('Hearts ulti', 8, 10, (8, 2))
    >>> bid.parts
    ((<Part.SIMPLE: 'simple'>, 2), (<Part.ULTI: 'ulti'>, 8))
    """

    code: str
    name_en: str
    name_hu: str
    kind: TrumpKind
    parts: tuple[tuple[Part, int], ...]
    is_open: bool
    rung: int = field(default=0, compare=False)
    #: Total value per defender of all parts.
    value: int = field(init=False, compare=False)
    #: Value of the Simple-game part, 0 if the bid has none.
    simple_value: int = field(init=False, compare=False)
    #: The ranking key of docs/rules.md §1.3: (value without the Simple game, Simple-game value).
    key: tuple[int, int] = field(init=False, compare=False)
    #: Each part's value (the first listed, should a part be listed twice), for O(1) ``has``/``part_value``:
    #: the play and the settlement ask them on every deal. Read-only by convention (the bid is frozen).
    values_by_part: dict[Part, int] = field(init=False, compare=False, repr=False)
    #: The parts with a non-zero value, in ``PART_ORDER`` with their values: the settlement's loop.
    ordered_parts: tuple[tuple[Part, int], ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Precomputed once: the auction compares keys on every turn.
        value = sum(v for _, v in self.parts)
        simple = sum(v for p, v in self.parts if p is Part.SIMPLE)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "simple_value", simple)
        object.__setattr__(self, "key", (value - simple, simple))
        by_part: dict[Part, int] = {}
        for p, v in self.parts:
            by_part.setdefault(p, v)
        object.__setattr__(self, "values_by_part", by_part)
        object.__setattr__(self, "ordered_parts", tuple((p, by_part[p]) for p in PART_ORDER if by_part.get(p)))

    def part_value(self, part: Part) -> int:
        """Value of ``part`` in this bid, 0 if absent.

        >>> BIDS_BY_CODE["M-40U"].part_value(Part.FORTY_HUNDRED), BIDS_BY_CODE["M-40U"].part_value(Part.BETLI)
        (4, 0)
        """
        return self.values_by_part.get(part, 0)

    def has(self, part: Part) -> bool:
        """Whether this bid contains ``part``.

        >>> BIDS_BY_CODE["N-B"].has(Part.BETLI), BIDS_BY_CODE["N-B"].has(Part.SIMPLE)
        (True, False)
        """
        return part in self.values_by_part

    @property
    def part_set(self) -> frozenset[Part]:
        """The parts of this bid."""
        return frozenset(p for p, _ in self.parts)

    @property
    def has_trumps(self) -> bool:
        """Whether the contract is played with a trump suit."""
        return self.kind is not TrumpKind.NO_TRUMP

    @property
    def is_hearts(self) -> bool:
        """Hearts bid or a "heart" no-trump price: silent bonuses and the ulti extra double."""
        return self.kind is TrumpKind.HEARTS

    def __str__(self) -> str:
        return self.code


def _trump_parts(kind: TrumpKind, letters: str) -> tuple[tuple[Part, int], ...]:
    """Parts of a trump bid from its code letters (S, U, 40, 20, D, O), valued per §1.1."""
    double = 2 if kind is TrumpKind.HEARTS else 1
    parts: list[tuple[Part, int]] = []
    if "S" in letters:
        parts.append((Part.SIMPLE, 1 * double))
    if "U" in letters:
        parts.append((Part.ULTI, 4 * double))
    if "40" in letters:
        parts.append((Part.FORTY_HUNDRED, 4 * double))
    if "20" in letters:
        parts.append((Part.TWENTY_HUNDRED, 8 * double))
    if "D" in letters:
        parts.append((Part.DURCHMARS, 6 * double))
    if "O" in letters:
        parts.append((Part.DURCHMARS, OPEN_DURCHMARS_VALUE))
    order = {p: i for i, p in enumerate(PART_ORDER)}
    return tuple(sorted(parts, key=lambda pv: order[pv[0]]))


_NO_TRUMP_PARTS: dict[str, tuple[tuple[Part, int], ...]] = {
    "B": ((Part.BETLI, 5),),
    "HB": ((Part.BETLI, 10),),
    "OB": ((Part.BETLI, 20),),
    "D": ((Part.DURCHMARS, 6),),
    "HD": ((Part.DURCHMARS, 12),),
    "OD": ((Part.DURCHMARS, OPEN_DURCHMARS_VALUE),),
}

# (code, English name, Hungarian name) in the order of docs/rules.md §1.4.
_BID_NAMES: tuple[tuple[str, str, str], ...] = (
    ("M-S", "Simple game", "Passz (parti)"),
    ("H-S", "Hearts simple game", "Piros passz"),
    ("M-40", "40-100", "Negyven-száz"),
    ("M-SU", "Ulti", "Ulti"),
    ("N-B", "Betli", "Betli"),
    ("N-D", "Durchmars (no trumps)", "Színtelen durchmars"),
    ("M-20", "20-100", "Húsz-száz"),
    ("M-40U", "40-100 ulti", "40-100 ulti"),
    ("H-40", "Hearts 40-100", "Piros 40-100"),
    ("H-SU", "Hearts ulti", "Piros ulti"),
    ("M-40D", "40-100 durchmars", "40-100 durchmars"),
    ("M-UD", "Ulti durchmars", "Ulti durchmars"),
    ("N-HB", "Heart betli (rebetli)", "Rebetli"),
    ("M-20U", "20-100 ulti", "20-100 ulti"),
    ("N-HD", "Heart durchmars (redurchmars, no trumps)", "Redurchmars"),
    ("M-20D", "20-100 durchmars", "20-100 durchmars"),
    ("M-40UD", "40-100 ulti durchmars", "40-100 ulti durchmars"),
    ("H-20", "Hearts 20-100", "Piros 20-100"),
    ("H-40U", "Hearts 40-100 ulti", "Piros 40-100 ulti"),
    ("M-20UD", "20-100 ulti durchmars", "20-100 ulti durchmars"),
    ("H-40D", "Hearts 40-100 durchmars", "Piros 40-100 durchmars"),
    ("H-UD", "Hearts ulti durchmars", "Piros ulti durchmars"),
    ("N-OB", "Open betli", "Terített betli"),
    ("H-20U", "Hearts 20-100 ulti", "Piros 20-100 ulti"),
    ("N-OD", "Open durchmars (no trumps)", "Színtelen terített durchmars"),
    ("M-40O", "40-100 open durchmars", "40-100 terített durchmars"),
    ("M-UO", "Ulti open durchmars", "Ulti terített durchmars"),
    ("H-20D", "Hearts 20-100 durchmars", "Piros 20-100 durchmars"),
    ("H-40UD", "Hearts 40-100 ulti durchmars", "Piros 40-100 ulti durchmars"),
    ("M-20O", "20-100 open durchmars", "20-100 terített durchmars"),
    ("M-40UO", "40-100 ulti open durchmars", "40-100 ulti terített durchmars"),
    ("H-40O", "Hearts 40-100 open durchmars", "Piros 40-100 terített durchmars"),
    ("H-UO", "Hearts ulti open durchmars", "Piros ulti terített durchmars"),
    ("M-20UO", "20-100 ulti open durchmars", "20-100 ulti terített durchmars"),
    ("H-20UD", "Hearts 20-100 ulti durchmars", "Piros 20-100 ulti durchmars"),
    ("H-20O", "Hearts 20-100 open durchmars", "Piros 20-100 terített durchmars"),
    ("H-40UO", "Hearts 40-100 ulti open durchmars", "Piros 40-100 ulti terített durchmars"),
    ("H-20UO", "Hearts 20-100 ulti open durchmars", "Piros 20-100 ulti terített durchmars"),
)


def _build_bids() -> tuple[Bid, ...]:
    unranked = []
    for code, en, hu in _BID_NAMES:
        kind = TrumpKind(code[0])
        letters = code[2:]
        if kind is TrumpKind.NO_TRUMP:
            parts = _NO_TRUMP_PARTS[letters]
            is_open = letters.startswith("O")
        else:
            parts = _trump_parts(kind, letters)
            is_open = "O" in letters
        unranked.append(Bid(code, en, hu, kind, parts, is_open))
    keys = sorted({b.key for b in unranked})
    rung_of = {k: i + 1 for i, k in enumerate(keys)}
    return tuple(
        Bid(b.code, b.name_en, b.name_hu, b.kind, b.parts, b.is_open, rung_of[b.key]) for b in unranked
    )


#: The 38 bids in ladder order (docs/rules.md §1.4).
BIDS: tuple[Bid, ...] = _build_bids()
BIDS_BY_CODE: dict[str, Bid] = {b.code: b for b in BIDS}
#: The highest rung (20); a standing bid there ends all bidding but passes.
TOP_RUNG: int = max(b.rung for b in BIDS)


def parse_bid(code: object) -> Bid:
    """The bid with record code ``code`` (case-insensitive), e.g. ``"M-SU"``.

    >>> parse_bid("m-su").name_en
    'Ulti'
    >>> parse_bid("N-OD").rung, parse_bid("N-OD").is_open, parse_bid("N-OD").has_trumps
    (15, True, False)
    """
    if isinstance(code, str):
        bid = BIDS_BY_CODE.get(code.upper())
        if bid is not None:
            return bid
    raise RecordError(f"unknown bid {code!r} (a bid is one of the 38 codes of docs/rules.md §1.4, e.g. M-S, H-SU, N-B)")


def parse_part(code: object) -> Part:
    """The part named ``code``: simple, ulti, 40-100, 20-100, durchmars or betli.

    >>> parse_part("ULTI"), parse_part("40-100")
    (<Part.ULTI: 'ulti'>, <Part.FORTY_HUNDRED: '40-100'>)
    """
    if isinstance(code, str):
        for part in Part:
            if part.value == code.lower():
                return part
    raise RecordError(f"unknown part {code!r} (a part is simple, ulti, 40-100, 20-100, durchmars or betli)")


_BIDS_ABOVE_RUNG: dict[int, tuple[Bid, ...]] = {
    rung: tuple(b for b in BIDS if b.rung > rung) for rung in range(TOP_RUNG + 1)
}
_CODES_ABOVE_RUNG: dict[int, tuple[str, ...]] = {
    rung: tuple(b.code for b in bids) for rung, bids in _BIDS_ABOVE_RUNG.items()
}


def bids_above(standing: Bid | None) -> tuple[Bid, ...]:
    """The bids that may be named over ``standing`` (every bid when there is none), in ladder order.

    >>> len(bids_above(None))
    38
    >>> [bid.code for bid in bids_above(parse_bid("H-UO"))]
    ['M-20UO', 'H-20UD', 'H-20O', 'H-40UO', 'H-20UO']
    >>> bids_above(parse_bid("H-20UO"))
    ()
    """
    return _BIDS_ABOVE_RUNG[standing.rung if standing is not None else 0]


def bid_codes_above(standing: Bid | None) -> tuple[str, ...]:
    """The codes of ``bids_above(standing)``, in the same order (the auction's choices on the wire).

    >>> bid_codes_above(parse_bid("H-40UO"))
    ('H-20UO',)
    """
    return _CODES_ABOVE_RUNG[standing.rung if standing is not None else 0]

# the bots' worker processes receive these: pickled in a way a compiled class can be rebuilt too
pickled_by_constructor(Bid)
