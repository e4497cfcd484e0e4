"""A table's state, rebuilt from its event log: ``TableState`` and ``apply``, one small function per kind.

A table seats three, or four as clubs seat a fourth player: then each deal's dealer sits out and the
other three play it (``ulti/engine/fourmatch.py``). Seats here are always the table's (0..3); the
deal's own seats (0..2) are mapped to them by the rotation (``engine_seat``, ``table_seat``).

The rules that check a command against this state and make its events are in ``tablerules.py``, what
each seat, spectator and the lobby sees of it in ``tableviews.py``, its records in ``tablerecords.py``.
This module does no I/O: the actor (``actor.py``) stores each event before applying it here and
telling anyone. Replaying the same events always gives the same state, which is what makes a
restart (or a takeover by another process) resume a table exactly where it was.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum
from typing import assert_never

from ulti.bots.levels import BOT_LEVELS
from ulti.engine.cards import parse_card
from ulti.engine.deal import Deal
from ulti.engine.fourmatch import FOUR_SEATS, FourMatch
from ulti.engine.match import Match
from ulti.engine.record import parse_action
from ulti.server.errors import CommandError
from ulti.server.events import Acted, BidNote, BotSeated, Chatted, Created, Dealt, Event, Start
from ulti.server.tablebots import bot_name, bot_player_id
from ulti.server.tableshapes import ChatLine, MatchView, ParReplay, RematchOffer, TableSummary

__all__ = ["BOT_LEVELS", "Checked", "CommandError", "TableState"]

CHAT_HISTORY = 50
RECENT_COMMANDS = 512
#: During a deal only these phrases may be said, so that defenders cannot discuss their hands (the rule
#: is ``tablerules.chat_event``'s; they are here because applying an older chat event needs them too).
PRESET_PHRASES = {
    "hello": "Hello!",
    "good_luck": "Good luck!",
    "well_played": "Well played!",
    "thanks": "Thanks!",
    "sorry": "Sorry!",
    "hurry": "Please hurry up.",
    "brb": "Back in a moment.",
    "bye": "Goodbye!",
}
#: Chat events of older versions hold a phrase's English words (``text``) instead of its key.
_PHRASE_OF_TEXT = {text: key for key, text in PRESET_PHRASES.items()}


class SeatKind(StrEnum):
    """Who a seat is for (its value is the wire's ``kind``)."""

    OPEN = "open"
    INVITE = "invite"  # reserved for the holder of its invite token
    PLAYER = "player"
    BOT = "bot"  # a built-in bot


class TableStatus(StrEnum):
    """Where a table is in its life (its value is the wire's and the store's ``status``)."""

    NEW = "new"  # no event applied yet
    OPEN = "open"
    PLAYING = "playing"
    FINISHED = "finished"
    EXPIRED = "expired"  # never started (see Hub.sweep)


@dataclass
class Seat:
    """One seat of a table."""

    kind: SeatKind = SeatKind.OPEN
    player_id: str | None = None
    name: str = ""
    level: str | None = None  # bot level
    invite: str | None = None  # the invite token of a reserved seat
    away: bool = False  # a bot plays for the absent player
    bot: bool = False  # a bot account (the bot API) sits here: marked BOT wherever its name is shown
    #: the player resigned: a bot plays the seat to the end (``away`` for good) and the player ranks as one who left
    resigned: bool = False


@dataclass(frozen=True)
class Checked:
    """An action the rules accepted (``tablerules.action_event``): its event, the deal it was checked on,
    and that deal's copy the action was applied to. Applying the very same event brings the table's
    deal up to the copy (``Deal.catch_up``), so an accepted action is parsed and applied once; an event
    read back from the log (another object) is parsed and applied as it comes."""

    event: Acted
    before: Deal
    after: Deal


@dataclass
class TableState:
    """Everything about one table, built by ``apply``-ing its events in order."""

    table_id: str
    seq: int = 0
    host: str = ""
    host_name: str = ""  # the host's name when the table was created ("" in older tables)
    deals_planned: int = 6
    move_seconds: int = 0
    seed: int = 0  # secret unless chosen; bots draw from it so that a replayed table plays the same
    chosen_seed: bool = True  # tables stored before seeds were secret dealt from their seed
    practice: bool = False  # a chosen seed outside tests: nobody but the host may sit down
    rated: bool = False  # accounts and bots only; the match end updates their ratings (results.py)
    learner: bool = False  # casual tables only: the coach's hints and lessons (ulti/server/analysis.py)
    #: the duplicate event this table belongs to (ulti/server/duplicate_routes.py); None: an ordinary table
    duplicate_id: str | None = None
    #: solo duplicate: each deal is replayed with the strong bot in the player's seat (ulti/server/duplicate.py)
    duplicate: bool = False
    #: solo duplicate: the par replay of each finished deal, by deal index (the ``par`` events)
    par: dict[int, ParReplay] = field(default_factory=dict)
    #: the finished table whose seats this one's were made from (a rematch); None: an ordinary table
    rematch_of: str | None = None
    #: once the match is over: the rematch a seated player asked for (``{"table", "seat"}``), None: none yet
    rematch: RematchOffer | None = None
    seats: list[Seat] = field(default_factory=lambda: [Seat(), Seat(), Seat()])
    status: TableStatus = TableStatus.NEW
    match: Match | FourMatch | None = None
    chat: list[ChatLine] = field(default_factory=list)
    ready_for_next: bool = False  # the last deal is over and the next one is due
    #: seats whose player has seen the last deal's result and clicked "Next deal" (see waiting_for_ready)
    ready: set[int] = field(default_factory=set)
    #: event numbers of the latest commands by their client id: a command retried after its owner
    #: died (stored, but never acknowledged) is answered with its event instead of being refused
    recent_commands: dict[str, int] = field(default_factory=dict)
    #: learner tables: the built-in bots' reasons for their bids in the current deal, by action index
    #: (the stored action events' ``note``; docs/protocol/analysis.md §22.5)
    bot_notes: dict[int, BidNote] = field(default_factory=dict)
    #: per deal (by index), the actions a bot played in a person's seat (an absent player's, or a slow bot
    #: account's turn), by action index: the log, the records and the replay mark them as the bot's
    bot_played: dict[int, list[int]] = field(default_factory=dict)
    #: per seat, what a bot played for its player since that player last acted: (deal index, action index);
    #: the returning player is shown it (``played_for_you`` in the seat's view)
    played_for: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    #: events applied that may change the lobby summary or the score sheet (all but chat, "ready", the
    #: deals dealt and the actions): ``tableviews.view`` reuses both (``view_parts``) until this, the finished
    #: deals or (at a table of four, or past the planned deals) the deals dealt change
    table_changes: int = field(default=0, repr=False, compare=False)
    view_parts: tuple[tuple[int, int, int | bool], TableSummary, MatchView | None] | None = field(
        default=None, repr=False, compare=False
    )
    #: the seat of each player seated here (``seat_of``), found when first asked after the seats changed
    seat_index: dict[str, int] | None = field(default=None, repr=False, compare=False)
    #: the action the rules accepted last, checked on a copy of the deal (see ``Checked``); not part of
    #: the table: the actor stores the event before it is applied, and a failed store leaves this unused
    checked: Checked | None = field(default=None, repr=False, compare=False)

    # ---------------------------------------------------------------- queries
    # Facts of the state that the rules, the views and the actor all ask.

    @property
    def deal(self) -> Deal | None:
        """The current (last) deal of the match, if any."""
        if self.match is None or not self.match.deals:
            return None
        return self.match.deals[-1]

    @property
    def four(self) -> bool:
        """Whether this is a table of four (the dealer of each deal sits out)."""
        return len(self.seats) == FOUR_SEATS

    def engine_seat(self, seat: int | None) -> int | None:
        """The current deal's seat that table ``seat`` plays (None: a spectator, or sitting this deal out)."""
        if seat is None or len(self.seats) != FOUR_SEATS:  # asked for every watcher's view: tables of three first
            return seat
        match = self.match
        if not isinstance(match, FourMatch) or not match.deals:
            return seat
        return match.engine_seat_of(len(match.deals) - 1, seat)

    def table_seat(self, engine_seat: int) -> int:
        """The table seat that plays ``engine_seat`` of the current deal."""
        match = self.match
        if not isinstance(match, FourMatch) or not match.deals:
            return engine_seat
        return match.position_of(len(match.deals) - 1, engine_seat)

    def seat_of(self, player_id: str) -> int | None:
        """The seat ``player_id`` holds at this table, if any."""
        index = self.seat_index
        if index is None:
            # asked for every watcher of every event; the seats change only by events (``apply``)
            index = self.seat_index = {}
            for i, seat in enumerate(self.seats):
                if seat.kind == "player" and seat.player_id is not None:
                    index.setdefault(seat.player_id, i)
        return index.get(player_id)

    def bot_seats(self) -> list[int]:
        """Seats a bot plays now: bot seats, and absent players' seats."""
        return [i for i, s in enumerate(self.seats) if s.kind == "bot" or (s.kind == "player" and s.away)]

    def left_seats(self) -> list[bool]:
        """Per seat, whether its player left: a bot plays the seat for them now (``away``).

        At the end of a match these are the players a bot played for to the end: ranked last.
        """
        return [s.kind == "player" and s.away for s in self.seats]

    def waiting_for_ready(self) -> list[int]:
        """The seats the next deal waits for: people at the table (not away) who have not clicked "Next deal".

        Empty unless the last deal is over and the match goes on. Bots, and players a bot plays for
        (away), are ready at once; so is the player who sat the deal out at a table of four. The actor
        deals the next deal when this is empty, or when the result's time limit is up
        (``Settings.result_seconds``).
        """
        if not self.ready_for_next:
            return []
        match = self.match
        # sat the deal out: watched it, need not read it
        watched = match.sits_out(len(match.deals) - 1) if isinstance(match, FourMatch) and match.deals else None
        return [
            # a bot account never waits to read a result: it is ready at once, like the built-in bots
            i for i, s in enumerate(self.seats)
            if s.kind == "player" and not s.away and not s.bot and i not in self.ready and i != watched
        ]

    def duplicate_seat(self) -> int | None:
        """Solo duplicate: the player's seat (the one seat not held by a built-in bot)."""
        people = [i for i, s in enumerate(self.seats) if s.kind == "player"]
        return people[0] if len(people) == 1 else None

    def deal_rng(self, purpose: str) -> random.Random:
        """Where the cards (and the first dealer) come from.

        A chosen seed (tests, practice) makes them reproducible. Otherwise they come from the
        operating system's randomness: the deal event stores the hands, so a replay needs no seed,
        and nothing a player sends or sees can predict the next deal.
        """
        if self.chosen_seed:
            return random.Random(f"{self.seed}:{purpose}")
        return random.SystemRandom()

    # ---------------------------------------------------------------- applying events

    def apply(self, event: Event) -> None:
        """Apply an event: made here and checked when it was made, or read back and checked by ``parse_event``."""
        self.seq += 1
        changes_table = event["type"] not in ("action", "chat", "ready", "deal")
        if changes_table:
            self.table_changes += 1  # see tableviews.view
        command_id = event.get("cid")
        if command_id is not None:
            self.recent_commands[command_id] = self.seq
            if len(self.recent_commands) > RECENT_COMMANDS:
                del self.recent_commands[next(iter(self.recent_commands))]
        # one small function per kind; the if/elif narrows the event's type for each (mypy)
        if event["type"] == "created":
            self._created(event)
        elif event["type"] == "sit":
            self.seats[event["seat"]] = Seat(
                kind=SeatKind.PLAYER, player_id=event["player"], name=_sendable(event["name"]),
                bot=event.get("bot", False),
            )
        elif event["type"] == "leave":
            self.seats[event["seat"]] = Seat()
        elif event["type"] == "bot":
            self._bot_seated(event)
        elif event["type"] == "start":
            self._started(event)
        elif event["type"] == "deal":
            self._dealt(event)
        elif event["type"] == "action":
            self._acted(event)
        elif event["type"] == "away":
            self.seats[event["seat"]].away = event["away"]
        elif event["type"] == "resign":
            self.seats[event["seat"]].away = True
            self.seats[event["seat"]].resigned = True
        elif event["type"] == "rematch":
            self.rematch = {"table": event["table"], "seat": event["seat"]}
        elif event["type"] == "ready":
            self.ready.add(event["seat"])
        elif event["type"] == "chat":
            self._chatted(event)
        elif event["type"] == "par":
            self.par[event["index"]] = {"scores": list(event["scores"]), "record": event["record"],
                                        "bid": event.get("bid"), "declarer": event.get("declarer")}
        elif event["type"] == "expired":
            # An unstarted table nobody used for a long time: it leaves the lobby, its seats stay as they were.
            self.status = TableStatus.EXPIRED
        else:  # pragma: no cover - parse_event admits only the kinds above
            assert_never(event)
        if changes_table:
            self.seat_index = None  # who sits where may have changed: found again when next asked

    def _created(self, event: Created) -> None:
        self.host = event["host"]
        self.deals_planned = event["deals"]
        self.move_seconds = event["move_seconds"]
        self.seed = event["seed"]
        self.chosen_seed = event.get("chosen_seed", True)
        self.practice = bool(event.get("practice", False))
        self.rated = bool(event.get("rated", False))
        self.learner = bool(event.get("learner", False))
        self.duplicate_id = event.get("event")
        self.duplicate = bool(event.get("duplicate", False))
        self.host_name = _sendable(event.get("host_name", ""))
        self.rematch_of = event.get("rematch_of")
        self.status = TableStatus.OPEN
        self.seats.extend(Seat() for _ in range(len(event["seats"]) - len(self.seats)))
        for i, spec in enumerate(event["seats"]):
            if spec["kind"] == "bot":
                name = bot_name(spec["level"], [s.name for s in self.seats])
                player = spec.get("player") or bot_player_id(name)
                self.seats[i] = Seat(kind=SeatKind.BOT, player_id=player, name=name, level=spec["level"])
            elif spec["kind"] == "invite":
                self.seats[i] = Seat(kind=SeatKind.INVITE, invite=spec["invite"])

    def _bot_seated(self, event: BotSeated) -> None:
        name = bot_name(event["level"], [s.name for s in self.seats])
        player = event.get("player") or bot_player_id(name)
        self.seats[event["seat"]] = Seat(kind=SeatKind.BOT, player_id=player, name=name, level=event["level"])

    def _started(self, event: Start) -> None:
        names = [s.name for s in self.seats]
        self.match = (FourMatch(self.deals_planned, event["first_dealer"], names) if self.four
                      else Match(self.deals_planned, event["first_dealer"], names))
        self.status = TableStatus.PLAYING

    def _dealt(self, event: Dealt) -> None:
        assert self.match is not None
        hands = [[parse_card(c) for c in hand] for hand in event["hands"]]
        self.match.new_deal(hands)
        self.ready_for_next = False
        self.ready = set()
        self.bot_notes = {}

    def _acted(self, event: Acted) -> None:
        deal = self.deal
        assert deal is not None and self.match is not None
        checked, self.checked = self.checked, None
        if checked is not None and checked.event is event and checked.before is deal:
            # accepted by the rules just now: the copy it was checked on is already advanced by it
            deal.catch_up(checked.after)
        else:  # read back from the log (a replay, another process's event): parsed once, here
            deal.apply(parse_action(event["action"]))
        if "note" in event:
            self.bot_notes[len(deal.history) - 1] = event["note"].copy()
        actor_seat = self.table_seat(event["action"]["seat"])  # the action's seat is the deal's
        if self.seats[actor_seat].kind == SeatKind.PLAYER:
            if event.get("by") == "bot":
                assert self.match is not None
                mark = (len(self.match.deals) - 1, len(deal.history) - 1)
                self.bot_played.setdefault(mark[0], []).append(mark[1])
                self.played_for.setdefault(actor_seat, []).append(mark)
            else:
                self.played_for.pop(actor_seat, None)  # the player acts: they have seen the table again
        if deal.is_over:
            assert self.match is not None
            if self.match.is_over:
                self.status = TableStatus.FINISHED
            else:
                self.ready_for_next = True

    def _chatted(self, event: Chatted) -> None:
        line: ChatLine = {"seat": event["seat"], "name": _sendable(event["name"])}
        if "phrase" in event:
            line["phrase"] = _sendable(event["phrase"])
        elif event.get("text") in _PHRASE_OF_TEXT:
            # stored by an older version, which kept a phrase's English words: keep its key instead
            line["phrase"] = _PHRASE_OF_TEXT[event.get("text", "")]
        elif "text" in event:
            line["text"] = _sendable(event["text"])
        self.chat.append(line)
        del self.chat[:-CHAT_HISTORY]


def _sendable(text: str) -> str:
    """``text`` with anything UTF-8 cannot encode replaced.

    Text is checked at the edge (``inputs.py``) before it is stored; this only repairs events stored
    by older versions, which accepted lone surrogates and so made their tables impossible to send.
    """
    return text.encode("utf-8", "replace").decode("utf-8")
