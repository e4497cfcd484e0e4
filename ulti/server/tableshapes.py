"""The shapes of what a table keeps and shows, typed: its lobby summary, a seat's view of it, the score
sheet, and the small records the state keeps (chat lines, a rematch offer, a duplicate deal's par).

The values are built by ``tableviews.py`` (the views) and ``tablestate.py`` (what the state keeps);
the wire's shapes are documented in docs/protocol/table.md. Here are only the types, so that both
may name them without an import circle.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from ulti.server.events import BidNote


class PublicSeat(TypedDict):
    """What everybody may know of a seat (never its invite token)."""

    kind: str  # a ``SeatKind``
    name: str
    level: str | None
    away: bool
    bot: NotRequired[Literal[True]]  # a bot account sits here
    resigned: NotRequired[Literal[True]]


class TableSummary(TypedDict):
    """A table as the lobby lists it (and as the store keeps it beside its log)."""

    table_id: str
    status: str  # a ``TableStatus``
    deals_planned: int
    move_seconds: int
    host: str
    host_name: str
    seats: list[PublicSeat]
    rated: bool
    learner: bool
    deals_played: int
    totals: list[int] | None
    winner: int | None
    event: NotRequired[str]
    duplicate: NotRequired[Literal[True]]


class FourView(TypedDict):
    """At a table of four: who sits the current deal out, the table seat behind each deal seat, and the
    deal seat the viewer plays (None: it sits out or watches)."""

    sits_out: int
    seats: list[int]
    you_play: int | None


class DuplicateRow(TypedDict):
    """Solo duplicate: one finished deal, the player's score against the par."""

    index: int
    you: int
    par: int | None
    diff: int | None
    par_bid: str | None
    par_declarer: int | None


class DuplicateView(TypedDict):
    """Solo duplicate: the deals against their par, the sums and the verdict."""

    seat: int | None
    level: str
    deals: list[DuplicateRow]
    you_total: int
    par_total: int
    diff_total: int
    pending: int
    verdict: Literal["won", "lost", "level"] | None


class MatchView(TypedDict):
    """The score sheet: totals, running totals per deal, each finished deal's result, the winner."""

    deals_planned: int
    first_dealer: int
    deals_played: int
    totals: list[int]
    sheet: list[list[int]]
    results: list[dict[str, Any]]  # each ``DealResult.view_json`` (the engine's)
    winner: int | None
    tie_break: bool
    duplicate: NotRequired[DuplicateView]
    # at a table of four: the table seat behind each deal's seats (``FourSheet``)
    seats: NotRequired[int]
    sits_out: NotRequired[list[int]]
    deal_seats: NotRequired[list[list[int]]]


class NextDeal(TypedDict):
    """Between deals: who clicked "Next deal", and whom the next deal waits for."""

    ready: list[int]
    waiting: list[int]


class ChatLine(TypedDict):
    """A line of the table's chat: a preset phrase's key or free text."""

    seat: int | None
    name: str
    phrase: NotRequired[str]
    text: NotRequired[str]


class RematchOffer(TypedDict):
    """The rematch a seated player asked for once the match was over: its table and that player's seat."""

    table: str
    seat: int


class ParReplay(TypedDict):
    """Solo duplicate: the strong bot's replay of a finished deal (a ``par`` event's figures)."""

    scores: list[int]
    record: dict[str, Any]  # ulti-deal/1
    bid: str | None
    declarer: int | None


class PlayedFor(TypedDict):
    """An action a bot played in a seat's name while its player was away: the deal and the action."""

    deal: int
    action: dict[str, Any]  # record form


class TableView(TypedDict):
    """Everything a seat (or a spectator) may see of a table now (docs/protocol/table.md)."""

    table: TableSummary
    seq: int
    you: int | None
    match: MatchView | None
    deal_index: int | None
    deal: dict[str, Any] | None  # the engine's ``Deal.view`` for the seat
    next_deal: NextDeal | None
    chat: list[ChatLine]
    bot_played: list[int]
    four: NotRequired[FourView | None]  # at a table of four (None until its first deal)
    rematch: NotRequired[RematchOffer]  # once a rematch is asked for
    bot_notes: NotRequired[dict[str, BidNote]]  # at a learner table: the bots' notes by action index
    played_for_you: NotRequired[list[PlayedFor]]  # to a player back: what a bot played in their name
    # The connections add ``deadline``, ``trick_pause``, ``waiting`` and each seat's ``connected``
    # to the untyped ``tableviews.wire_view`` (``broadcast.Broadcaster.table_view``).


class FourPart(TypedDict, total=False):
    """The part of a ``TableView`` only a table of four has (spread into it in its place)."""

    four: FourView | None


class RematchPart(TypedDict, total=False):
    """The part of a ``TableView`` once a rematch is asked for."""

    rematch: RematchOffer


class NotesPart(TypedDict, total=False):
    """The part of a ``TableView`` at a learner table."""

    bot_notes: dict[str, BidNote]


class PlayedForPart(TypedDict, total=False):
    """The part of a ``TableView`` for a player a bot played for."""

    played_for_you: list[PlayedFor]


class FourSheet(TypedDict, total=False):
    """The part of a ``MatchView`` only a table of four has: the table seat behind each deal's seats."""

    seats: int
    sits_out: list[int]
    deal_seats: list[list[int]]


class DuplicatePart(TypedDict, total=False):
    """The part of a ``MatchView`` of a solo duplicate table."""

    duplicate: DuplicateView
