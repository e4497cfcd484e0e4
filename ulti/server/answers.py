"""Small JSON answers that routes of several subjects share, typed (the bot API's, the tables', the
tournaments', ...). A route returning one declares ``response_model=dict[str, object]`` (docs/design.md,
"The HTTP routes"), so that FastAPI sends the dict as it is."""

from __future__ import annotations

from typing import Literal, TypedDict


class Done(TypedDict):
    """A route that did what was asked and has nothing more to say: ``{"ok": true}``."""

    ok: Literal[True]


class Seated(TypedDict):
    """A seat taken: its number."""

    seat: int


class TableMade(TypedDict):
    """A table made (a rematch's, say): its id."""

    table_id: str
