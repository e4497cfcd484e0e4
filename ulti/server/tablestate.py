"""A table's state, rebuilt from its event log, and the rules that turn commands into events.

A table seats three, or four as clubs seat a fourth player: then each deal's dealer sits out and the
other three play it (``ulti/engine/fourmatch.py``). Seats here are always the table's (0..3); the
deal's own seats (0..2) are mapped to them by the rotation (``engine_seat``, ``table_seat``).

This module does no I/O: the actor (``actor.py``) stores each event before applying it here and
telling anyone. Replaying the same events always gives the same state, which is what makes a
restart (or a takeover by another process) resume a table exactly where it was.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Literal, assert_never

from ulti.bots.levels import BOT_LEVELS
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import card_str, iter_cards, parse_card
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.errors import IllegalAction
from ulti.engine.fourmatch import FOUR_SEATS, FourMatch
from ulti.engine.match import Match
from ulti.engine.record import action_to_json, deal_to_record, four_match_to_record, match_to_record, parse_action
from ulti.engine.view import SeatView
from ulti.server.commands import MalformedAction, names_play, read_action
from ulti.server.errors import CommandError
from ulti.server.events import Acted, BotSeated, Chatted, Created, Dealt, Event, Leave, Ready, Resigned, Sit, Start
from ulti.server.inputs import clean_text, name_key
from ulti.server.table_settings import BotSeat, InviteSeat, MeSeat, SeatChoice, TableSettings, seat_fault
from ulti.server.visibility import totals_shown

__all__ = ["BOT_LEVELS", "CommandError", "TableState"]

MAX_CHAT_LENGTH = 300
CHAT_HISTORY = 50
RECENT_COMMANDS = 512
#: During a deal only these phrases may be said, so that defenders cannot discuss their hands.
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

    def public(self) -> dict[str, Any]:
        """What everybody may know of this seat (never the invite token)."""
        public: dict[str, Any] = {"kind": self.kind, "name": self.name, "level": self.level, "away": self.away}
        if self.bot:
            public["bot"] = True
        if self.resigned:
            public["resigned"] = True
        return public


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
    event_id: str | None = None
    #: solo duplicate: each deal is replayed with the strong bot in the player's seat (ulti/server/duplicate.py)
    duplicate: bool = False
    #: solo duplicate: the par replay of each finished deal, by deal index (the ``par`` events)
    par: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: the finished table whose seats this one's were made from (a rematch); None: an ordinary table
    rematch_of: str | None = None
    #: once the match is over: the rematch a seated player asked for (``{"table", "seat"}``), None: none yet
    rematch: dict[str, Any] | None = None
    seats: list[Seat] = field(default_factory=lambda: [Seat(), Seat(), Seat()])
    status: TableStatus = TableStatus.NEW
    match: Match | FourMatch | None = None
    chat: list[dict[str, Any]] = field(default_factory=list)
    ready_for_next: bool = False  # the last deal is over and the next one is due
    #: seats whose player has seen the last deal's result and clicked "Next deal" (see waiting_for_ready)
    ready: set[int] = field(default_factory=set)
    #: event numbers of the latest commands by their client id: a command retried after its owner
    #: died (stored, but never acknowledged) is answered with its event instead of being refused
    recent_commands: dict[str, int] = field(default_factory=dict)
    #: learner tables: the built-in bots' reasons for their bids in the current deal, by action index
    #: (the stored action events' ``note``; docs/protocol/analysis.md §22.5)
    bot_notes: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: per deal (by index), the actions a bot played in a person's seat (an absent player's, or a slow bot
    #: account's turn), by action index: the log, the records and the replay mark them as the bot's
    bot_played: dict[int, list[int]] = field(default_factory=dict)
    #: per seat, what a bot played for its player since that player last acted: (deal index, action index);
    #: the returning player is shown it (``played_for_you`` in the seat's view)
    played_for: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    #: events applied that may change the lobby summary or the score sheet (all but chat, "ready"
    #: and the actions that do not end a deal): ``view`` reuses both until this or the deal changes
    _changes: int = field(default=0, repr=False, compare=False)
    _parts: tuple[tuple[int, int, bool], dict[str, Any], dict[str, Any] | None] | None = field(
        default=None, repr=False, compare=False
    )

    # ---------------------------------------------------------------- queries

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
        match = self.match
        if seat is None or not isinstance(match, FourMatch) or not match.deals:
            return seat
        return match.engine_seat_of(len(match.deals) - 1, seat)

    def table_seat(self, engine_seat: int) -> int:
        """The table seat that plays ``engine_seat`` of the current deal."""
        match = self.match
        if not isinstance(match, FourMatch) or not match.deals:
            return engine_seat
        return match.position_of(len(match.deals) - 1, engine_seat)

    def four_view(self, seat: int | None) -> dict[str, Any] | None:
        """At a table of four: who sits out the current deal, which table seat plays each of its seats,
        and the one ``seat`` plays (None: it sits out or watches); None at a table of three."""
        match = self.match
        if not isinstance(match, FourMatch) or not match.deals:
            return None
        index = len(match.deals) - 1
        rotation = match.rotation(index)
        return {"sits_out": rotation.sits_out, "seats": list(rotation.positions), "you_play": self.engine_seat(seat)}

    def seat_of(self, player_id: str) -> int | None:
        """The seat ``player_id`` holds at this table, if any."""
        for i, seat in enumerate(self.seats):
            if seat.kind == "player" and seat.player_id == player_id:
                return i
        return None

    def bot_seats(self) -> list[int]:
        """Seats a bot plays now: bot seats, and absent players' seats."""
        return [i for i, s in enumerate(self.seats) if s.kind == "bot" or (s.kind == "player" and s.away)]

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        shown = self.match if self.match is not None and totals_shown(self) else None
        return {
            "table_id": self.table_id,
            "status": self.status,
            "deals_planned": self.deals_planned,
            "move_seconds": self.move_seconds,
            "host": self.host,
            "host_name": self.host_name or self._seated_host_name(),
            "seats": [s.public() for s in self.seats],
            "rated": self.rated,
            "learner": self.learner,
            "deals_played": sum(1 for d in self.match.deals if d.is_over) if self.match else 0,
            # Past matches show these without loading each table (the match's own rule names the winner).
            # An event table's totals would tell players at other tables its results: the event's
            # cross-table shows them, to each viewer as far as they may see (ulti/server/visibility.py).
            "totals": shown.totals() if shown is not None else None,
            "winner": shown.winner() if shown is not None else None,
            **({"event": self.event_id} if self.event_id is not None else {}),
            **({"duplicate": True} if self.duplicate else {}),
        }

    def _seated_host_name(self) -> str:
        seat = self.seat_of(self.host)
        return self.seats[seat].name if seat is not None else ""

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
        four = self.four_view(None)
        watched = four["sits_out"] if four is not None else None  # sat the deal out: watched it, need not read it
        return [
            # a bot account never waits to read a result: it is ready at once, like the built-in bots
            i for i, s in enumerate(self.seats)
            if s.kind == "player" and not s.away and not s.bot and i not in self.ready and i != watched
        ]

    def match_view(self) -> dict[str, Any] | None:
        """The score sheet: totals, running totals per deal, each finished deal's result, the winner."""
        match = self.match
        if match is None:
            return None
        four: dict[str, Any] = {}
        if isinstance(match, FourMatch):
            # each deal's results are by its own seats: these name the table seat behind each of them
            four = {"seats": FOUR_SEATS, "sits_out": [match.sits_out(k) for k in range(len(match.deals))],
                    "deal_seats": [list(match.rotation(k).positions) for k in range(len(match.deals))]}
        return {
            **four,
            "deals_planned": match.deals_planned,
            "first_dealer": match.first_dealer,
            "deals_played": sum(1 for d in match.deals if d.is_over),
            "totals": match.totals(),
            "sheet": match.score_sheet(),
            "results": [d.result.view_json() for d in match.deals if d.result is not None],
            "winner": match.winner(),
            "tie_break": len(match.deals) > match.deals_planned,
            **({"duplicate": self.duplicate_view()} if self.duplicate else {}),
        }

    def duplicate_seat(self) -> int | None:
        """Solo duplicate: the player's seat (the one seat not held by a built-in bot)."""
        people = [i for i, s in enumerate(self.seats) if s.kind == "player"]
        return people[0] if len(people) == 1 else None

    def duplicate_view(self) -> dict[str, Any]:
        """Solo duplicate: per finished deal the player's score, the par (the strong bot's with the same
        cards; None while its replay is pending) and the difference; their sums, and the verdict once the
        match is over and every par is in: won, lost or level on the sum of the differences."""
        seat = self.duplicate_seat()
        rows: list[dict[str, Any]] = []
        you_total = par_total = 0
        pending = 0
        deals = self.match.deals if self.match else []
        for index, deal in enumerate(deals):
            if deal.result is None or seat is None:
                continue
            yours = deal.result.scores[seat]
            par = self.par.get(index)
            par_score = None if par is None else int(par["scores"][seat])
            you_total += yours
            if par_score is None:
                pending += 1
            else:
                par_total += par_score
            rows.append({"index": index, "you": yours, "par": par_score,
                         "diff": None if par_score is None else yours - par_score,
                         "par_bid": None if par is None else par.get("bid"),
                         "par_declarer": None if par is None else par.get("declarer")})
        diff = sum(r["diff"] for r in rows if r["diff"] is not None)
        verdict = None
        if self.status == "finished" and pending == 0:
            verdict = "won" if diff > 0 else "lost" if diff < 0 else "level"
        return {"seat": seat, "level": "strong", "deals": rows, "you_total": you_total, "par_total": par_total,
                "diff_total": diff, "pending": pending, "verdict": verdict}

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` (None: a spectator) may see of the table now.

        Views are built for every watcher after every event: the summary and the score sheet, which
        change only with a deal's end or a table event, are shared until then (read-only).
        """
        deal = self.deal
        key = (self._changes, len(self.match.deals) if self.match else 0, deal is not None and deal.is_over)
        parts = self._parts
        if parts is None or parts[0] != key:
            parts = self._parts = (key, self.summary(), self.match_view())
        return {
            "table": parts[1],
            "seq": self.seq,
            "you": seat,
            "match": parts[2],
            "deal_index": len(self.match.deals) - 1 if self.match and self.match.deals else None,
            # at a table of four the player sitting a deal out sees it as a spectator does: no hidden card
            "deal": deal.view(self.engine_seat(seat)) if deal is not None else None,
            **({"four": self.four_view(seat)} if self.four and self.match is not None else {}),
            "next_deal": (
                {"ready": sorted(self.ready), "waiting": self.waiting_for_ready()} if self.ready_for_next else None
            ),
            "chat": list(self.chat),
            **({"rematch": dict(self.rematch)} if self.rematch is not None else {}),
            **({"bot_notes": {str(i): note for i, note in self.bot_notes.items()}} if self.learner else {}),
            "bot_played": list(self.bot_played.get(len(self.match.deals) - 1, [])) if self.match else [],
            **({"played_for_you": self.played_for_view(seat)} if seat is not None and seat in self.played_for else {}),
        }

    def played_for_view(self, seat: int) -> list[dict[str, Any]]:
        """What a bot played in ``seat``'s name since its player last acted: the deal and the action (record
        form; the seat's own view, so its own discards too)."""
        assert self.match is not None
        return [
            {"deal": k, "action": action_to_json(self.match.deals[k].history[i])}
            for k, i in self.played_for.get(seat, [])
        ]

    def public_event(self, event: Event, seat: int | None) -> dict[str, Any]:
        """``event`` as ``seat`` may see it (after it has been applied)."""
        if event["type"] == "deal":
            return {"type": "deal", "index": event["index"]}
        if event["type"] == "created":
            return {"type": "created"}
        if event["type"] == "par":
            return {"type": "par", "index": event["index"]}  # the figures are in the view (match.duplicate)
        if event["type"] == "action":
            deal = self.deal
            assert deal is not None
            entry = deal.public_entry(len(deal.history) - 1, self.engine_seat(seat))
            public = {"type": "action", "by": event.get("by", "player"), "action": entry}
            if "note" in event:
                public["note"] = dict(event["note"])  # a learner table's bot note: everybody may read it
            return public
        if event["type"] == "sit":
            return {"type": "sit", "seat": event["seat"], "name": event["name"]}
        return {k: v for k, v in event.items() if k != "cid"}

    # ---------------------------------------------------------------- applying events

    def apply(self, event: Event) -> None:
        """Apply an event: made here and checked when it was made, or read back and checked by ``parse_event``."""
        self.seq += 1
        if event["type"] not in ("action", "chat", "ready"):
            self._changes += 1  # see view
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

    def _created(self, event: Created) -> None:
        self.host = event["host"]
        self.deals_planned = event["deals"]
        self.move_seconds = event["move_seconds"]
        self.seed = event["seed"]
        self.chosen_seed = event.get("chosen_seed", True)
        self.practice = bool(event.get("practice", False))
        self.rated = bool(event.get("rated", False))
        self.learner = bool(event.get("learner", False))
        self.event_id = event.get("event")
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
        assert deal is not None
        deal.apply(parse_action(event["action"]))
        if "note" in event:
            self.bot_notes[len(deal.history) - 1] = dict(event["note"])
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
        line: dict[str, Any] = {"seat": event["seat"], "name": event["name"]}
        if "phrase" in event:
            line["phrase"] = event["phrase"]
        elif event.get("text") in _PHRASE_OF_TEXT:
            # stored by an older version, which kept a phrase's English words: keep its key instead
            line["phrase"] = _PHRASE_OF_TEXT[event.get("text", "")]
        elif "text" in event:
            line["text"] = event["text"]
        self.chat.append({k: _sendable(v) if isinstance(v, str) else v for k, v in line.items()})
        del self.chat[:-CHAT_HISTORY]

    # ---------------------------------------------------------------- commands -> events

    def next_deal_event(self) -> Dealt:
        """The event that deals the next deal (from the table's seed, so it is reproducible)."""
        assert self.match is not None
        index = len(self.match.deals)
        rng = self.deal_rng(str(index))
        hands = deal_hands(rng, self.match.dealer_of(index))
        return {"type": "deal", "index": index, "hands": [[card_str(c) for c in iter_cards(h)] for h in hands]}

    # The table's own rules, as pure functions: each checks a command against the state and returns
    # the event(s) it makes, or raises ``CommandError`` naming the rule; nothing is changed here.

    def join_event(
        self, player_id: str, name: str, seat: object, invite: object, account: bool = False, via_event: bool = False
    ) -> Sit:
        """``player_id`` (called ``name``) sits at ``seat`` of this open table (an invite seat needs its token).

        ``account``: the player has an account (a rated table seats no guest). ``via_event``: seated by
        the table's duplicate event, the only way to a seat of an event's table.
        """
        seat = _seat_number(seat, len(self.seats))
        self._refuse_if_expired()
        if self.event_id is not None and not via_event:
            raise CommandError("event_table", "this table belongs to a duplicate event: join the event instead")
        if self.status != "open":
            raise CommandError("table_started", "this table's match has started: seats are fixed")
        if self.rated and not account:
            raise CommandError("account_required", "a rated table seats accounts only: register or log in to sit here")
        if self.seat_of(player_id) is not None:
            mine = self.seat_of(player_id)
            raise CommandError("already_seated", f"you already sit at seat {mine}", params={"seat": mine})
        if self.practice and player_id != self.host:
            raise CommandError(
                "practice_table", "a practice table's deals were chosen by its host: only the host plays"
            )
        key = name_key(name)
        if any(s.kind in ("player", "bot") and name_key(s.name) == key for s in self.seats):
            raise CommandError(
                "name_taken", f"a player whose name reads as {name!r} sits here: choose another name",
                params={"name": name},
            )
        target = self.seats[seat]
        if target.kind == "invite" and invite != target.invite:
            raise CommandError("reserved", f"seat {seat} is reserved: it needs its invite link", params={"seat": seat})
        if target.kind not in ("open", "invite"):
            raise CommandError("seat_taken", f"seat {seat} is taken", params={"seat": seat})
        return {"type": "sit", "seat": seat, "player": player_id, "name": name}

    def leave_event(self, player_id: str) -> Leave:
        """``player_id`` stands up from this table before its match starts."""
        seat = self.seat_of(player_id)
        if seat is None:
            raise CommandError("not_seated", "you do not sit at this table")
        self._refuse_if_expired()
        if self.status != "open":
            raise CommandError("table_started", "the match has started: a bot plays for you while you are away")
        return {"type": "leave", "seat": seat}

    def resign_event(self, player_id: str) -> Resigned:
        """``player_id`` resigns the match under way: a bot plays the seat to the end, and the match ranks
        the player as one who left (``left_seats``: after every seat that stayed)."""
        seat = self.seat_of(player_id)
        if seat is None:
            raise CommandError("not_seated", "you do not sit at this table")
        if self.status != "playing":
            raise CommandError("not_playing", "only a match under way can be resigned")
        if self.seats[seat].resigned:
            raise CommandError("resigned", "you resigned this match: a bot plays your seat to the end")
        return {"type": "resign", "seat": seat}

    def rematch_seat(self, player_id: str) -> int:
        """The seat from which ``player_id`` may ask for (or accept) a rematch of this finished match."""
        seat = self.seat_of(player_id)
        if seat is None:
            raise CommandError("not_seated", "you do not sit at this table")
        if self.event_id is not None:
            raise CommandError("event_table", "this table belongs to a duplicate event: join the event instead")
        if self.status != "finished":
            raise CommandError("match_not_over", "a rematch is offered once the match is over")
        return seat

    def rematch_config(self, seat: int) -> TableSettings:
        """The new table of a rematch asked for from ``seat``: the same length, time limit and kind, that
        seat for its player, each built-in bot again at its seat, and every other seat kept for its player."""
        seats: list[SeatChoice] = []
        for i, s in enumerate(self.seats):
            if i == seat:
                seats.append(MeSeat(kind="me"))
            elif s.kind == "bot" and s.level is not None:
                seats.append(BotSeat(kind="bot", level=s.level))
            else:
                seats.append(InviteSeat(kind="invite"))  # a person (or a bot account): accepts from the old table
        return TableSettings(deals=self.deals_planned, move_seconds=self.move_seconds, seats=seats,
                             rated=self.rated, learner=self.learner, duplicate=self.duplicate)

    def rematch_join_event(self, player_id: str, name: str, old_table: str, seat: int, account: bool) -> Sit:
        """``player_id``, who sat at ``seat`` of ``old_table``, takes that seat of this rematch (kept for them)."""
        if self.rematch_of != old_table:
            raise CommandError("not_found", "no rematch of that table here")
        if self.seat_of(player_id) is not None:
            mine = self.seat_of(player_id)
            raise CommandError("already_seated", f"you already sit at seat {mine}", params={"seat": mine})
        return self.join_event(player_id, name, seat, self.seats[seat].invite, account)

    def add_bot_event(self, player_id: str, seat: object, level: object) -> BotSeated:
        """The host puts a bot of ``level`` in an empty ``seat``."""
        seat = _seat_number(seat, len(self.seats))
        if not isinstance(level, str) or level not in BOT_LEVELS:
            raise CommandError("bad_request", f"level must be one of {', '.join(BOT_LEVELS)}")
        if self.host != player_id:
            raise CommandError("not_host", "only the host seats bots")
        self._refuse_if_expired()
        if self.status != "open":
            raise CommandError("table_started", "the match has started")
        if self.seats[seat].kind not in ("open", "invite"):
            raise CommandError("seat_taken", f"seat {seat} is taken", params={"seat": seat})
        player = bot_player_id(bot_name(level, [s.name for s in self.seats]))
        return {"type": "bot", "seat": seat, "level": level, "player": player}

    def start_events(self, player_id: str, fill_bots: bool, level: str = "heuristic") -> list[BotSeated | Start]:
        """The host starts the match: bots (of ``level``) for the empty seats (if asked), then the start.

        The first deal is dealt by ``next_deal_event`` once the start is applied.
        """
        if self.host != player_id:
            raise CommandError("not_host", "only the host starts the match")
        self._refuse_if_expired()
        if self.status != "open":
            raise CommandError("table_started", "the match has already started")
        invited = [i for i, s in enumerate(self.seats) if s.kind == "invite"]
        if invited:
            # An invited friend's seat goes to a bot only if the host puts one there (add_bot_event).
            message = f"seats {invited} are kept for invited players: wait for them or seat a bot there"
            raise CommandError("invite_pending", message, params={"seats": invited})
        empty = [i for i, s in enumerate(self.seats) if s.kind == "open"]
        if empty and not fill_bots:
            message = f"seats {empty} are empty: wait for players or fill them with bots"
            raise CommandError("seats_empty", message, params={"seats": empty})
        events: list[BotSeated | Start] = []
        names = [s.name for s in self.seats]
        for i in empty:
            # named as the events will be applied, in order: a second heuristic bot is "Bot · heuristic 2"
            name = bot_name(level, names)
            names.append(name)
            events.append({"type": "bot", "seat": i, "level": level, "player": bot_player_id(name)})
        # docs/rules.md §7 recommends a random first dealer; drawn like the deals (deal_rng). At a table of
        # four seat 0 deals first, as a tournament's table of four does (docs/record.md): the seats are drawn.
        first = 0 if self.four else self.deal_rng("first-dealer").randrange(3)
        events.append({"type": "start", "first_dealer": first})
        return events

    def ready_event(self, seat: int) -> Ready | None:
        """``seat``'s player has seen the deal's result and wants the next deal (None: already said so)."""
        if self.status != "playing" or not self.ready_for_next:
            raise CommandError("not_between_deals", "no deal result is waiting: the next deal is not due")
        if seat in self.ready:
            return None
        return {"type": "ready", "seat": seat}

    def _refuse_if_expired(self) -> None:
        if self.status == "expired":
            raise CommandError("table_expired", "this table expired before its match started: create a new one")

    def deal_rng(self, purpose: str) -> random.Random:
        """Where the cards (and the first dealer) come from.

        A chosen seed (tests, practice) makes them reproducible. Otherwise they come from the
        operating system's randomness: the deal event stores the hands, so a replay needs no seed,
        and nothing a player sends or sees can predict the next deal.
        """
        if self.chosen_seed:
            return random.Random(f"{self.seed}:{purpose}")
        return random.SystemRandom()

    def action_event(self, seat: int, action: object, by: Literal["player", "bot"]) -> Acted:
        """Check ``action`` (read where it arrived, ``commands.read_action``; a record-style dict without
        its seat is read here) for ``seat``; the event it makes."""
        proposed = action if isinstance(action, Action | MalformedAction) else read_action(action)
        deal = self.deal
        if self.status != "playing" or deal is None or deal.is_over:
            raise CommandError("no_deal", "no deal is in progress at this table")
        if by == "player" and self.seats[seat].resigned:
            raise CommandError("resigned", "you resigned this match: a bot plays your seat to the end")
        played = self.engine_seat(seat)  # None: sitting this deal out at a table of four
        if played is None or not deal.choices(played, reasons=False).any():
            raise CommandError("not_your_turn", f"it is not seat {seat}'s turn", params={"seat": seat})
        if deal.in_chain and names_play(proposed):
            raise CommandError(
                "chain_open", "the kontra chain after trick 1 is open: each side speaks before trick 2 is led"
            )
        if isinstance(proposed, MalformedAction):
            raise CommandError(proposed.code, proposed.message)
        seated = replace(proposed, seat=played)
        check = deal.copy()
        try:
            check.apply(seated)
        except IllegalAction as exc:
            raise CommandError.illegal(exc) from None
        return {"type": "action", "action": action_to_json(seated), "by": by}

    def repeats_a_decline(self, event: Acted) -> bool:
        """Whether ``event`` is a kontra decline at trick 1 right after the same seat's decline.

        The rules let a defender decline again before its card (docs/rules.md §9 A6), but a repeat
        changes nothing: the table answers it without storing it, so a client that keeps declining
        cannot fill the table's log.
        """
        deal = self.deal
        action = event["action"]
        if deal is None or deal.in_chain or action.get("action") != "kontra" or action.get("parts"):
            return False
        last = deal.history[-1] if deal.history else None
        return (
            last is not None and last.kind is Kind.KONTRA and not last.parts and last.seat == action.get("seat")
        )

    def chat_event(self, seat: int | None, name: str, text: object, phrase: object) -> Chatted:
        """A table chat message: free between deals, preset phrases only during a deal."""
        in_deal = self.deal is not None and not self.deal.is_over
        if self.event_id is not None and seat is None:
            # a spectator could carry other tables' results in: chat between an event's tables is off
            raise CommandError("event_chat_closed", "at an event's table only its players chat")
        if phrase is not None:
            if not isinstance(phrase, str) or phrase not in PRESET_PHRASES:
                raise CommandError("bad_chat", f"unknown phrase {phrase!r}; phrases: {', '.join(PRESET_PHRASES)}")
            # the key only: every client words the phrase in its own language (docs/protocol/table.md §13)
            return {"type": "chat", "seat": seat, "name": name, "phrase": phrase}
        if in_deal:
            raise CommandError("chat_closed", "during a deal only the preset phrases may be said (no table talk)")
        return {"type": "chat", "seat": seat, "name": name, "text": clean_text(text, "text", MAX_CHAT_LENGTH)}

    def deal_record(self, index: int) -> dict[str, Any]:
        """The record of finished deal ``index``."""
        if self.match is None or not 0 <= index < len(self.match.deals) or not self.match.deals[index].is_over:
            raise CommandError("not_found", f"deal {index} of this table is not finished")
        return self._marked(index, deal_to_record(self.match.deals[index]))

    def _marked(self, index: int, record: dict[str, Any]) -> dict[str, Any]:
        """Deal ``index``'s record with ``"by": "bot"`` on each action a bot played in a person's seat
        (an optional key of the record format, docs/record.md)."""
        for i in self.bot_played.get(index, []):
            record["actions"][i] = {**record["actions"][i], "by": "bot"}
        return record

    def match_record(self) -> dict[str, Any]:
        """The match record with its finished deals only (a deal in progress would show hidden cards)."""
        if self.match is None:
            raise CommandError("not_found", "this table's match has not started")
        record = four_match_to_record(self.match) if isinstance(self.match, FourMatch) else match_to_record(self.match)
        record["deals"] = [
            self._marked(k, r) for k, (r, d) in enumerate(zip(record["deals"], self.match.deals, strict=True))
            if d.is_over
        ]
        return record


def _seat_number(seat: object, seats: int = 3) -> int:
    if type(seat) is not int or not 0 <= seat < seats:
        raise CommandError("bad_request", seat_fault(seats))
    return seat


def _sendable(text: str) -> str:
    """``text`` with anything UTF-8 cannot encode replaced.

    Text is checked at the edge (``inputs.py``) before it is stored; this only repairs events stored
    by older versions, which accepted lone surrogates and so made their tables impossible to send.
    """
    return text.encode("utf-8", "replace").decode("utf-8")


def bot_name(level: str, taken: Sequence[str] = ()) -> str:
    """The display name of a new bot of ``level``, distinct from the names ``taken`` at its table.

    The first bot of a level is "Bot · strong", the next "Bot · strong 2", and so on. Names are
    given as the events are applied, in order, so a table rebuilt from its log names them the same.

    >>> bot_name("strong", ["Anna", "Bot · strong"])
    'Bot · strong 2'
    """
    base = f"Bot · {level}"
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base} {n}"
    return name


def bot_player_id(name: str) -> str:
    """The player id of the bot account named ``name``: one account per bot name, the same everywhere.

    Made of the name, so that every process and every replay finds the same account; player ids of
    people are hex (``auth.new_id``), so they never start with "bot-".

    >>> bot_player_id("Bot · strong"), bot_player_id("Bot · strong 2")
    ('bot-strong', 'bot-strong-2')
    """
    return "bot-" + "-".join(name.removeprefix("Bot · ").split())


def bot_action(level: str, view: SeatView, seed: str) -> Action:
    """The action a bot of ``level`` takes from ``view`` (deterministic for a given seed)."""
    from ulti.bots.levels import bot_for_level

    return bot_for_level(level, random.Random(seed)).act(view)
