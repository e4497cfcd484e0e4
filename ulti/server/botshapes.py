"""The shapes of what the bot API sends, typed: the lines of an account's event stream, the notes its
processes pass each other on Redis, and the JSON answers of its routes.

The values are built by ``botapi.py``; the wire is documented in docs/bot-api.md. The routes still
declare a plain JSON object as their response model, so these types check the code that builds a
body and leave the bytes and the OpenAPI schema as they were.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, TypedDict

# ---------------------------------------------------------------- account event stream lines


class StreamPlayer(TypedDict):
    """Whose stream it is, in its ``welcome`` line."""

    id: str
    name: str
    bot: bool


class Welcome(TypedDict):
    """The first line of an account's event stream."""

    type: Literal["welcome"]
    player: StreamPlayer


class MatchStarted(TypedDict):
    """A match of the account began (or, on opening a stream, is still being played)."""

    type: Literal["match_started"]
    table: str
    seat: int


class MatchFinished(TypedDict):
    """A match of the account ended: its totals and its winner's seat."""

    type: Literal["match_finished"]
    table: str
    seat: int
    totals: list[int]
    winner: int | None


class Invited(TypedDict):
    """A host invited the bot account to a seat (with the seat's invite token, None for an open seat)."""

    type: Literal["invited"]
    table: str
    seat: int
    invite: str | None
    host: str
    deals: int
    move_seconds: int
    rated: bool


class TournamentTable(TypedDict):
    """The bot's table of a tournament's round was made and started (``match_started`` follows)."""

    type: Literal["tournament_table"]
    tournament: str
    round: int
    table: str
    seat: int


class StreamError(TypedDict):
    """The last line of a stream that the server ends (its token revoked)."""

    type: Literal["error"]
    code: str
    message: str


#: what an account's event stream carries, beside its keep-alives
AccountEvent = Welcome | MatchStarted | MatchFinished | Invited | TournamentTable | StreamError


class EventLine(TypedDict):
    """A table stream's numbered event as the seat saw it, with the view after it (as on the socket)."""

    type: Literal["event"]
    seq: int
    event: Mapping[str, object]  # ``tableviews.public_event``: an event of any kind, filtered for the seat
    state: Mapping[str, object]  # ``tableviews.wire_view``: the seat's view


class SyncLine(TypedDict):
    """A table stream's first line without ``since``: the seat's full view (the socket's ``sync``)."""

    type: Literal["sync"]
    seq: int
    state: Mapping[str, object]  # ``Hub.table_view``


# ---------------------------------------------------------------- notes between processes (Redis)


class AccountNote(TypedDict):
    """An account event for the streams another process holds."""

    kind: Literal["account"]
    player: str
    message: AccountEvent


class RevokedNote(TypedDict):
    """A token was revoked: every process ends its streams."""

    kind: Literal["revoked"]
    token: str


class UpgradedNote(TypedDict):
    """An account became a bot account: every process reads its tokens again."""

    kind: Literal["upgraded"]
    player: str


# ---------------------------------------------------------------- route answers


class TokenRow(TypedDict):
    """One of the account's API tokens as its owner sees it listed (never the token itself)."""

    id: str
    name: str
    scopes: list[str]
    created_at: int  # epoch milliseconds
    last_used_at: int | None


class TokenList(TypedDict):
    """``GET /api/account/tokens``."""

    bot: bool
    tokens: list[TokenRow]


class Revoked(TypedDict):
    """``DELETE /api/account/tokens/{id}``: how many of its streams ended in this process."""

    ok: Literal[True]
    streams_ended: int


class BotAccount(TypedDict):
    """``GET /api/bot/account``: the token's account and the token's scopes."""

    id: str
    name: str
    bot: bool
    scopes: list[str]


class Upgraded(TypedDict):
    """``POST /api/bot/account/upgrade``."""

    ok: Literal[True]
    bot: Literal[True]


class BotName(TypedDict):
    """A bot account by id and name."""

    id: str
    name: str


class Claimed(TypedDict):
    """``POST /api/account/bots``: the bot account now owned."""

    ok: Literal[True]
    bot: BotName


class Challenges(TypedDict):
    """``POST /api/bot/account/challenges``: whether the bot is now offered to every host."""

    ok: Literal[True]
    challenges: bool


class SeatableBot(TypedDict):
    """A bot account a host may seat, and whether the host owns it."""

    id: str
    name: str
    mine: bool


class SeatableBots(TypedDict):
    """``GET /api/bots/seatable``."""

    bots: list[SeatableBot]


class Numbered(TypedDict):
    """An act or a chat line through the API: its event number."""

    seq: int
