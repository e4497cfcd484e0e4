"""The table's rules in one place: each function checks a command against a ``TableState`` and returns
the event(s) it makes, or raises ``CommandError`` naming the rule (docs/protocol/errors.md).

Nothing here changes the table: the actor (``actor.py``) stores the events, then applies them
(``TableState.apply``). The one exception is an accepted action's ``Checked`` (see ``action_event``),
which the table keeps aside so that applying that event applies the action once.
"""

from __future__ import annotations

from typing import Literal

from ulti.bots.levels import BOT_LEVELS
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import card_str, iter_cards
from ulti.engine.dealing import deal_hands
from ulti.engine.errors import IllegalAction
from ulti.engine.record import action_to_json
from ulti.server.commands import MalformedAction, names_play, read_action
from ulti.server.errors import CommandError
from ulti.server.events import Acted, Away, BotSeated, Chatted, Dealt, Leave, Ready, Rematched, Resigned, Sit, Start
from ulti.server.inputs import clean_text, name_key
from ulti.server.table_settings import BotSeat, InviteSeat, MeSeat, SeatChoice, TableSettings, seat_fault
from ulti.server.tablebots import bot_name, bot_player_id
from ulti.server.tablestate import PRESET_PHRASES, Checked, TableState

MAX_CHAT_LENGTH = 300


def next_deal_event(state: TableState) -> Dealt:
    """The event that deals the next deal (from the table's seed, so it is reproducible)."""
    assert state.match is not None
    index = len(state.match.deals)
    rng = state.deal_rng(str(index))
    hands = deal_hands(rng, state.match.dealer_of(index))
    return {"type": "deal", "index": index, "hands": [[card_str(c) for c in iter_cards(h)] for h in hands]}


def acting_seat(state: TableState, player_id: str) -> int:
    """The seat from which ``player_id`` acts at this table (plays, says "Next deal", lets a bot play)."""
    seat = state.seat_of(player_id)
    if seat is None:
        raise CommandError("not_seated", "you do not sit at this table: spectators cannot act")
    return seat


def join_event(
    state: TableState, player_id: str, name: str, seat: object, invite: object, account: bool = False,
    via_event: bool = False,
) -> Sit:
    """``player_id`` (called ``name``) sits at ``seat`` of this open table (an invite seat needs its token).

    ``account``: the player has an account (a rated table seats no guest). ``via_event``: seated by
    the table's duplicate event, the only way to a seat of an event's table.
    """
    seat = seat_number(seat, len(state.seats))
    _refuse_if_expired(state)
    if state.duplicate_id is not None and not via_event:
        raise CommandError("event_table", "this table belongs to a duplicate event: join the event instead")
    if state.status != "open":
        raise CommandError("table_started", "this table's match has started: seats are fixed")
    if state.rated and not account:
        raise CommandError("account_required", "a rated table seats accounts only: register or log in to sit here")
    if state.seat_of(player_id) is not None:
        mine = state.seat_of(player_id)
        raise CommandError("already_seated", f"you already sit at seat {mine}", params={"seat": mine})
    if state.practice and player_id != state.host:
        raise CommandError(
            "practice_table", "a practice table's deals were chosen by its host: only the host plays"
        )
    key = name_key(name)
    if any(s.kind in ("player", "bot") and name_key(s.name) == key for s in state.seats):
        raise CommandError(
            "name_taken", f"a player whose name reads as {name!r} sits here: choose another name",
            params={"name": name},
        )
    target = state.seats[seat]
    if target.kind == "invite" and invite != target.invite:
        raise CommandError("reserved", f"seat {seat} is reserved: it needs its invite link", params={"seat": seat})
    if target.kind not in ("open", "invite"):
        raise CommandError("seat_taken", f"seat {seat} is taken", params={"seat": seat})
    return {"type": "sit", "seat": seat, "player": player_id, "name": name}


def leave_event(state: TableState, player_id: str) -> Leave:
    """``player_id`` stands up from this table before its match starts."""
    seat = state.seat_of(player_id)
    if seat is None:
        raise CommandError("not_seated", "you do not sit at this table")
    _refuse_if_expired(state)
    if state.status != "open":
        raise CommandError("table_started", "the match has started: a bot plays for you while you are away")
    return {"type": "leave", "seat": seat}


def resign_event(state: TableState, player_id: str) -> Resigned:
    """``player_id`` resigns the match under way: a bot plays the seat to the end, and the match ranks
    the player as one who left (``left_seats``: after every seat that stayed)."""
    seat = state.seat_of(player_id)
    if seat is None:
        raise CommandError("not_seated", "you do not sit at this table")
    # a resignation repeated is named as such even once the bots have played the match out (which, at a
    # table of bots without pauses, can happen before the repeat arrives)
    if state.seats[seat].resigned:
        raise CommandError("resigned", "you resigned this match: a bot plays your seat to the end")
    if state.status != "playing":
        raise CommandError("not_playing", "only a match under way can be resigned")
    return {"type": "resign", "seat": seat}


def rematch_seat(state: TableState, player_id: str) -> int:
    """The seat from which ``player_id`` may ask for (or accept) a rematch of this finished match."""
    seat = state.seat_of(player_id)
    if seat is None:
        raise CommandError("not_seated", "you do not sit at this table")
    if state.duplicate_id is not None:
        raise CommandError("event_table", "this table belongs to a duplicate event: join the event instead")
    if state.status != "finished":
        raise CommandError("match_not_over", "a rematch is offered once the match is over")
    return seat


def rematch_event(seat: int, table_id: str) -> Rematched:
    """The event that points this finished table at its rematch ``table_id``, asked from ``seat`` (which
    ``rematch_seat`` found; the hub makes the rematch only when the table has none yet)."""
    return {"type": "rematch", "table": table_id, "seat": seat}


def rematch_config(state: TableState, seat: int) -> TableSettings:
    """The new table of a rematch asked for from ``seat``: the same length, time limit and kind, that
    seat for its player, each built-in bot again at its seat, and every other seat kept for its player."""
    seats: list[SeatChoice] = []
    for i, s in enumerate(state.seats):
        if i == seat:
            seats.append(MeSeat(kind="me"))
        elif s.kind == "bot" and s.level is not None:
            seats.append(BotSeat(kind="bot", level=s.level))
        else:
            seats.append(InviteSeat(kind="invite"))  # a person (or a bot account): accepts from the old table
    return TableSettings(deals=state.deals_planned, move_seconds=state.move_seconds, seats=seats,
                         rated=state.rated, learner=state.learner, duplicate=state.duplicate)


def rematch_join_event(
    state: TableState, player_id: str, name: str, old_table: str, seat: int, account: bool
) -> Sit:
    """``player_id``, who sat at ``seat`` of ``old_table``, takes that seat of this rematch (kept for them)."""
    if state.rematch_of != old_table:
        raise CommandError("not_found", "no rematch of that table here")
    if state.seat_of(player_id) is not None:
        mine = state.seat_of(player_id)
        raise CommandError("already_seated", f"you already sit at seat {mine}", params={"seat": mine})
    return join_event(state, player_id, name, seat, state.seats[seat].invite, account)


def add_bot_event(state: TableState, player_id: str, seat: object, level: object) -> BotSeated:
    """The host puts a bot of ``level`` in an empty ``seat``."""
    seat = seat_number(seat, len(state.seats))
    if not isinstance(level, str) or level not in BOT_LEVELS:
        raise CommandError("bad_request", f"level must be one of {', '.join(BOT_LEVELS)}")
    if state.host != player_id:
        raise CommandError("not_host", "only the host seats bots")
    _refuse_if_expired(state)
    if state.status != "open":
        raise CommandError("table_started", "the match has started")
    if state.seats[seat].kind not in ("open", "invite"):
        raise CommandError("seat_taken", f"seat {seat} is taken", params={"seat": seat})
    player = bot_player_id(bot_name(level, [s.name for s in state.seats]))
    return {"type": "bot", "seat": seat, "level": level, "player": player}


def start_events(
    state: TableState, player_id: str, fill_bots: bool, level: str = "heuristic"
) -> list[BotSeated | Start]:
    """The host starts the match: bots (of ``level``) for the empty seats (if asked), then the start.

    The first deal is dealt by ``next_deal_event`` once the start is applied.
    """
    if state.host != player_id:
        raise CommandError("not_host", "only the host starts the match")
    _refuse_if_expired(state)
    if state.status != "open":
        raise CommandError("table_started", "the match has already started")
    invited = [i for i, s in enumerate(state.seats) if s.kind == "invite"]
    if invited:
        # An invited friend's seat goes to a bot only if the host puts one there (add_bot_event).
        message = f"seats {invited} are kept for invited players: wait for them or seat a bot there"
        raise CommandError("invite_pending", message, params={"seats": invited})
    empty = [i for i, s in enumerate(state.seats) if s.kind == "open"]
    if empty and not fill_bots:
        message = f"seats {empty} are empty: wait for players or fill them with bots"
        raise CommandError("seats_empty", message, params={"seats": empty})
    events: list[BotSeated | Start] = []
    names = [s.name for s in state.seats]
    for i in empty:
        # named as the events will be applied, in order: a second heuristic bot is "Bot · heuristic 2"
        name = bot_name(level, names)
        names.append(name)
        events.append({"type": "bot", "seat": i, "level": level, "player": bot_player_id(name)})
    # docs/rules.md §7 recommends a random first dealer; drawn like the deals (deal_rng). At a table of
    # four seat 0 deals first, as a tournament's table of four does (docs/record.md): the seats are drawn.
    first = 0 if state.four else state.deal_rng("first-dealer").randrange(3)
    events.append({"type": "start", "first_dealer": first})
    return events


def ready_event(state: TableState, seat: int) -> Ready | None:
    """``seat``'s player has seen the deal's result and wants the next deal (None: already said so)."""
    if state.status != "playing" or not state.ready_for_next:
        raise CommandError("not_between_deals", "no deal result is waiting: the next deal is not due")
    if seat in state.ready:
        return None
    return {"type": "ready", "seat": seat}


def gone_event(state: TableState, seat: int) -> Away | None:
    """The event that lets a bot play for ``seat``'s player (gone past the grace, or out of move time),
    if a match is under way and a bot does not play the seat already."""
    if state.status != "playing" or state.seats[seat].away:
        return None
    return {"type": "away", "seat": seat, "away": True}


def agreed_away_event(seat: int) -> Away:
    """The event that lets a bot play for ``seat``'s absent player once the other players agreed
    (``TableActor.let_bot`` counts the votes)."""
    return {"type": "away", "seat": seat, "away": True}


def back_event(state: TableState, seat: int) -> Away | None:
    """The event that gives ``seat`` back to its player (who came back, or acted), if a bot plays it in a
    match under way; a player who resigned leaves the seat to the bot to the end."""
    info = state.seats[seat]
    if not info.away or info.resigned or state.status != "playing":
        return None
    return {"type": "away", "seat": seat, "away": False}


def _refuse_if_expired(state: TableState) -> None:
    """Refuse any command but watching at a table that expired before its match started."""
    if state.status == "expired":
        raise CommandError("table_expired", "this table expired before its match started: create a new one")


def action_event(state: TableState, seat: int, action: object, by: Literal["player", "bot"]) -> Acted:
    """Check ``action`` (read where it arrived, ``commands.read_action``; a record-style dict without
    its seat is read here) for ``seat``; the event it makes."""
    proposed = action if isinstance(action, Action | MalformedAction) else read_action(action)
    deal = state.deal
    if state.status != "playing" or deal is None or deal.is_over:
        raise CommandError("no_deal", "no deal is in progress at this table")
    if by == "player" and state.seats[seat].resigned:
        raise CommandError("resigned", "you resigned this match: a bot plays your seat to the end")
    played = state.engine_seat(seat)  # None: sitting this deal out at a table of four
    if played is None or not deal.may_act(played):
        raise CommandError("not_your_turn", f"it is not seat {seat}'s turn", params={"seat": seat})
    if deal.in_chain and names_play(proposed):
        raise CommandError(
            "chain_open", "the kontra chain after trick 1 is open: each side speaks before trick 2 is led"
        )
    if isinstance(proposed, MalformedAction):
        raise CommandError(proposed.code, proposed.message)
    seated = proposed.by_seat(played)
    check = deal.copy()
    try:
        check.apply(seated)
    except IllegalAction as exc:
        raise CommandError.illegal(exc) from None
    event: Acted = {"type": "action", "action": action_to_json(seated), "by": by}
    # The copy is the deal after the action: applying this very event makes it the table's deal
    # (``TableState._acted``), so the action is neither parsed back nor applied a second time. Kept
    # aside, not applied: the table changes only once the event is stored.
    state.checked = Checked(event, deal, check)
    return event


def repeats_a_decline(state: TableState, event: Acted) -> bool:
    """Whether ``event`` is a kontra decline at trick 1 right after the same seat's decline.

    The rules let a defender decline again before its card (docs/rules.md §9 A6), but a repeat
    changes nothing: the table answers it without storing it, so a client that keeps declining
    cannot fill the table's log.
    """
    deal = state.deal
    action = event["action"]
    if deal is None or deal.in_chain or action.get("action") != "kontra" or action.get("parts"):
        return False
    last = deal.history[-1] if deal.history else None
    return (
        last is not None and last.kind is Kind.KONTRA and not last.parts and last.seat == action.get("seat")
    )


def chat_event(state: TableState, seat: int | None, name: str, text: object, phrase: object) -> Chatted:
    """A table chat message: free between deals, preset phrases only during a deal."""
    in_deal = state.deal is not None and not state.deal.is_over
    if state.duplicate_id is not None and seat is None:
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


def seat_number(seat: object, seats: int = 3) -> int:
    """``seat`` as a seat number of a table of ``seats``, or ``CommandError`` naming the rule."""
    if type(seat) is not int or not 0 <= seat < seats:
        raise CommandError("bad_request", seat_fault(seats))
    return seat
