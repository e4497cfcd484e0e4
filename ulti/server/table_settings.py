"""A table's settings as the host chooses them: one model, parsed once where a request arrives.

``TableSettings`` holds every rule about settings alone (a match's length, the time limit, the seats,
rated, learner, duplicate, a chosen seed); the hub receives it parsed and checks only what depends on
who asks or on the server (an account for a rated table, where a seed may be chosen). ``parse_settings``
turns a request's JSON object into it, wording a fault as the API always has: ``bad_config`` with a
message naming the field (docs/protocol/errors.md §16), or the rule's own code.
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails, PydanticCustomError

from ulti.bots.levels import BOT_LEVELS
from ulti.engine.fourmatch import FOUR_MATCH_LENGTHS, FOUR_SEATS
from ulti.engine.match import MATCH_LENGTHS
from ulti.server.errors import CommandError

#: how many seats a table has: three, or four as clubs seat a fourth player (each deal's dealer sits
#: out, ulti/engine/fourmatch.py); ``TableSettings._seat_count`` is the one place that checks it
SEATS = 3
TABLE_SIZES = (SEATS, FOUR_SEATS)
#: the highest seat number any table has, plus one: what a request's seat is checked against at the edge
MOST_SEATS = FOUR_SEATS
#: how a wrong number of seats is refused
SEATS_FAULT = f"seats must list {SEATS} seats (or {FOUR_SEATS}: a table of four, the dealer sitting out)"
#: the longest time limit for a move, in seconds (0: no limit)
MAX_MOVE_SECONDS = 600
#: a chosen seed's range (it fixes every deal of the table)
SEED_LIMIT = 2**48

def _known_level(level: str) -> str:
    if level not in BOT_LEVELS:
        raise ValueError(f"level must be one of {', '.join(BOT_LEVELS)}")
    return level


def _match_length(deals: int) -> int:
    if deals not in MATCH_LENGTHS:
        raise ValueError("not a match length")
    return deals


#: a built-in bot's level, checked wherever a body names one (each body words the fault its own way)
BotLevel = Annotated[str, AfterValidator(_known_level)]
#: a match's planned deals (6, 9 or 12)
MatchLength = Annotated[int, AfterValidator(_match_length)]

# strict: 6.0, "6" and true are not 6; unknown fields are ignored, as they always were
_STRICT = ConfigDict(extra="ignore", strict=True, frozen=True)


class OpenSeat(BaseModel):
    """A seat anyone may take."""

    model_config = _STRICT
    kind: Literal["open"]


class InviteSeat(BaseModel):
    """A seat kept for whoever holds its invite link."""

    model_config = _STRICT
    kind: Literal["invite"]


class MeSeat(BaseModel):
    """The host's own seat."""

    model_config = _STRICT
    kind: Literal["me"]


class BotSeat(BaseModel):
    """A built-in bot of ``level``."""

    model_config = _STRICT
    kind: Literal["bot"]
    level: BotLevel = "heuristic"


SeatChoice = Annotated[OpenSeat | InviteSeat | MeSeat | BotSeat, Field(discriminator="kind")]


def seat_fault(seats: int | None = None) -> str:
    """How a bad seat number is refused at a table of ``seats`` seats (None: before the table is known)."""
    if seats == SEATS:
        return "seat must be 0, 1 or 2"
    if seats == FOUR_SEATS:
        return "seat must be 0, 1, 2 or 3"
    return "seat must be 0, 1 or 2 (or 3 at a table of four)"


def _refuse(code: str, message: str) -> PydanticCustomError:
    # the error type is the refusal code: ``config_refusal`` hands it on as it is
    return PydanticCustomError(code, message)


class TableSettings(BaseModel):
    """A new table's settings (``POST /api/tables``, docs/protocol/http.md), each rule checked here."""

    model_config = _STRICT

    deals: MatchLength
    move_seconds: int = Field(default=0, ge=0, le=MAX_MOVE_SECONDS)
    seats: list[SeatChoice]
    rated: bool = False
    learner: bool = False
    duplicate: bool = False
    seed: int | None = Field(default=None, ge=0, lt=SEED_LIMIT)

    @field_validator("seats", mode="before")
    @classmethod
    def _seat_count(cls, seats: object) -> object:
        # before the seats themselves: a wrong count is the first thing said about them
        if not isinstance(seats, list | tuple) or len(seats) not in TABLE_SIZES:
            raise _refuse("bad_config", SEATS_FAULT)
        return seats

    @model_validator(mode="after")
    def _rules(self) -> Self:
        if len(self.seats) == FOUR_SEATS and self.deals not in FOUR_MATCH_LENGTHS:
            # every player must sit out, deal and open equally: twelve deals at four seats
            raise _refuse("bad_config", "deals must be 12 at a table of four (each sits out, deals and opens 3 times)")
        if sum(isinstance(seat, MeSeat) for seat in self.seats) > 1:
            raise _refuse("bad_config", "at most one seat may be 'me'")
        if self.rated and self.seed is not None:
            # a chosen seed fixes every hand: a rating earned on known cards would mean nothing
            raise _refuse("seed_not_allowed", "a rated table deals secret random cards: it takes no seed")
        if self.learner and self.rated:
            # hints and lessons would be help from outside the game: a rating must be earned alone
            raise _refuse("learner_rated", "learner mode is for casual tables: a rated table plays without help")
        if self.duplicate:
            if sorted(seat.kind for seat in self.seats) != ["bot", "bot", "me"]:
                raise _refuse("bad_config", "a duplicate table seats you and two bots: your par is played by the bots")
            if self.rated:
                raise _refuse("bad_config", "a duplicate table is casual: it cannot be rated")
        return self

    @property
    def host_seat(self) -> int | None:
        """The seat the host takes (a ``me`` seat), if any."""
        return next((i for i, seat in enumerate(self.seats) if isinstance(seat, MeSeat)), None)


#: what a fault in each field is called (the messages the API has always given)
_FIELD_MESSAGES = {
    "deals": f"deals must be {', '.join(map(str, MATCH_LENGTHS[:-1]))} or {MATCH_LENGTHS[-1]}",
    "move_seconds": f"move_seconds must be an integer from 0 (no limit) to {MAX_MOVE_SECONDS}",
    "seats": SEATS_FAULT,
    "rated": "rated must be true or false",
    "learner": "learner must be true or false",
    "duplicate": "duplicate must be true or false",
    "seed": "seed must be an integer from 0 to 2**48 - 1 (it fixes the deals)",
}


def config_refusal(error: ErrorDetails) -> CommandError:
    """The API's refusal for a fault ``TableSettings`` found (one of ``ValidationError.errors()``)."""
    location = error["loc"]
    if not location:  # a rule of the settings as a whole (``_rules``): its error type is the refusal code
        return CommandError(error["type"], error["msg"])
    field = str(location[0])
    if field == "seats" and len(location) > 1:
        which = "level" if "level" in location else "kind"
        options = ", ".join(BOT_LEVELS) if which == "level" else "open, invite, bot or me"
        verb = "must be one of" if which == "level" else "must be"
        return CommandError("bad_config", f"seats[{location[1]}].{which} {verb} {options}")
    return CommandError("bad_config", _FIELD_MESSAGES.get(field, f"{field} is not a valid setting"))


def parse_settings(data: object) -> TableSettings:
    """``data`` (a request's JSON object) as ``TableSettings``, or the API's refusal of its first fault."""
    try:
        return TableSettings.model_validate(data)
    except ValidationError as exc:
        raise config_refusal(exc.errors(include_url=False)[0]) from None
