"""What each seat, spectator and the lobby sees of a table: functions over a ``TableState``, typed by
``tableshapes.py``.

Nothing here changes the table (only ``view``'s shared parts are remembered on it); hidden cards are
the engine's to keep back (``Deal.view``, ``Deal.public_entry``), and an event table's totals the
visibility policy's (``visibility.totals_shown``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, cast

from ulti.engine.fourmatch import FOUR_SEATS, FourMatch
from ulti.engine.record import action_to_json
from ulti.server.events import Acted, Event
from ulti.server.tableshapes import (
    DuplicatePart,
    DuplicateRow,
    DuplicateView,
    FourPart,
    FourSheet,
    FourView,
    MatchView,
    NotesPart,
    PlayedFor,
    PlayedForPart,
    PublicSeat,
    RematchPart,
    TableSummary,
    TableView,
)
from ulti.server.tablestate import Seat, TableState
from ulti.server.visibility import totals_shown


def public_seat(seat: Seat) -> PublicSeat:
    """What everybody may know of ``seat`` (never the invite token)."""
    public: PublicSeat = {"kind": seat.kind, "name": seat.name, "level": seat.level, "away": seat.away}
    if seat.bot:
        public["bot"] = True
    if seat.resigned:
        public["resigned"] = True
    return public


def summary(state: TableState) -> TableSummary:
    """The table as the lobby lists it."""
    shown = state.match if state.match is not None and totals_shown(state) else None
    listed: TableSummary = {
        "table_id": state.table_id,
        "status": state.status,
        "deals_planned": state.deals_planned,
        "move_seconds": state.move_seconds,
        "host": state.host,
        "host_name": state.host_name or _seated_host_name(state),
        "seats": [public_seat(s) for s in state.seats],
        "rated": state.rated,
        "learner": state.learner,
        "deals_played": sum(1 for d in state.match.deals if d.is_over) if state.match else 0,
        # Past matches show these without loading each table (the match's own rule names the winner).
        # An event table's totals would tell players at other tables its results: the event's
        # cross-table shows them, to each viewer as far as they may see (ulti/server/visibility.py).
        "totals": shown.totals() if shown is not None else None,
        "winner": shown.winner() if shown is not None else None,
    }
    if state.duplicate_id is not None:
        listed["event"] = state.duplicate_id
    if state.duplicate:
        listed["duplicate"] = True
    return listed


def summary_row(state: TableState) -> dict[str, Any]:
    """The lobby summary as a row of the lobby's list and of the store (which keeps it as JSON and gives it
    back untyped): the same dict, as those untyped rows."""
    return cast("dict[str, Any]", summary(state))


def _seated_host_name(state: TableState) -> str:
    seat = state.seat_of(state.host)
    return state.seats[seat].name if seat is not None else ""


def four_view(state: TableState, seat: int | None) -> FourView | None:
    """At a table of four: who sits out the current deal, which table seat plays each of its seats,
    and the one ``seat`` plays (None: it sits out or watches); None at a table of three."""
    match = state.match
    if not isinstance(match, FourMatch) or not match.deals:
        return None
    rotation = match.rotation(len(match.deals) - 1)
    return {"sits_out": rotation.sits_out, "seats": list(rotation.positions), "you_play": state.engine_seat(seat)}


def match_view(state: TableState) -> MatchView | None:
    """The score sheet: totals, running totals per deal, each finished deal's result, the winner."""
    match = state.match
    if match is None:
        return None
    four: FourSheet = {}
    if isinstance(match, FourMatch):
        # each deal's results are by its own seats: these name the table seat behind each of them
        four = {"seats": FOUR_SEATS, "sits_out": [match.sits_out(k) for k in range(len(match.deals))],
                "deal_seats": [list(match.rotation(k).positions) for k in range(len(match.deals))]}
    duplicate: DuplicatePart = {"duplicate": duplicate_view(state)} if state.duplicate else {}
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
        **duplicate,
    }


def duplicate_view(state: TableState) -> DuplicateView:
    """Solo duplicate: per finished deal the player's score, the par (the strong bot's with the same
    cards; None while its replay is pending) and the difference; their sums, and the verdict once the
    match is over and every par is in: won, lost or level on the sum of the differences."""
    seat = state.duplicate_seat()
    rows: list[DuplicateRow] = []
    you_total = par_total = 0
    pending = 0
    deals = state.match.deals if state.match else []
    for index, deal in enumerate(deals):
        if deal.result is None or seat is None:
            continue
        yours = deal.result.scores[seat]
        par = state.par.get(index)
        par_score = None if par is None else int(par["scores"][seat])
        you_total += yours
        if par_score is None:
            pending += 1
        else:
            par_total += par_score
        rows.append({"index": index, "you": yours, "par": par_score,
                     "diff": None if par_score is None else yours - par_score,
                     "par_bid": None if par is None else par["bid"],
                     "par_declarer": None if par is None else par["declarer"]})
    diff = sum(r["diff"] for r in rows if r["diff"] is not None)
    verdict: Literal["won", "lost", "level"] | None = None
    if state.status == "finished" and pending == 0:
        verdict = "won" if diff > 0 else "lost" if diff < 0 else "level"
    return {"seat": seat, "level": "strong", "deals": rows, "you_total": you_total, "par_total": par_total,
            "diff_total": diff, "pending": pending, "verdict": verdict}


def view(state: TableState, seat: int | None) -> TableView:
    """Everything ``seat`` (None: a spectator) may see of the table now.

    Views are built for every watcher after every event: the summary and the score sheet, which
    change only with a deal's end or a table event, are shared until then (read-only).
    """
    deal = state.deal
    match = state.match
    # they change with the finished deals (a deal's start leaves them as its predecessor's end made them),
    # and with the deals dealt where the sheet shows those: a table of four, a tie-break
    dealt = len(match.deals) if match else 0
    finished = dealt - (deal is not None and not deal.is_over)
    grown = dealt if state.four else match is not None and dealt > match.deals_planned
    key = (state.table_changes, finished, grown)
    parts = state.view_parts
    if parts is None or parts[0] != key:
        parts = state.view_parts = (key, summary(state), match_view(state))
    four: FourPart = {"four": four_view(state, seat)} if state.four and match is not None else {}
    rematch: RematchPart = {"rematch": state.rematch.copy()} if state.rematch is not None else {}
    notes: NotesPart = {"bot_notes": {str(i): note for i, note in state.bot_notes.items()}} if state.learner else {}
    played_for: PlayedForPart = (
        {"played_for_you": played_for_view(state, seat)} if seat is not None and seat in state.played_for else {}
    )
    return {
        "table": parts[1],
        "seq": state.seq,
        "you": seat,
        "match": parts[2],
        "deal_index": len(match.deals) - 1 if match and match.deals else None,
        # at a table of four the player sitting a deal out sees it as a spectator does: no hidden card
        "deal": deal.view(state.engine_seat(seat)) if deal is not None else None,
        **four,
        "next_deal": (
            {"ready": sorted(state.ready), "waiting": state.waiting_for_ready()} if state.ready_for_next else None
        ),
        "chat": list(state.chat),
        **rematch,
        **notes,
        "bot_played": list(state.bot_played.get(len(match.deals) - 1, [])) if match else [],
        **played_for,
    }


#: ``view`` as the untyped JSON object the connections extend and the patches compare
#: (``broadcast.Broadcaster.table_view``, ``patches.view_patch``): the same function, so no call more
#: per watcher and action
wire_view = cast("Callable[[TableState, int | None], dict[str, Any]]", view)


def played_for_view(state: TableState, seat: int) -> list[PlayedFor]:
    """What a bot played in ``seat``'s name since its player last acted: the deal and the action (record
    form; the seat's own view, so its own discards too)."""
    assert state.match is not None
    deals = state.match.deals
    return [{"deal": k, "action": action_to_json(deals[k].history[i])} for k, i in state.played_for.get(seat, [])]


def public_events(
    state: TableState, event: Event, seats: Iterable[int | None]
) -> dict[int | None, Mapping[str, object]]:
    """``event`` as each of ``seats`` may see it (after it has been applied): ``public_event`` per seat, with
    one dict for the seats that see it alike (every seat, but for a deal's discards and its talon taken)."""
    if event["type"] != "action":
        alike = public_event(state, event, None)  # only an action's entry depends on the viewer
        return dict.fromkeys(seats, alike)
    shared: dict[int, Mapping[str, object]] = {}  # by the log entry's identity: entries are built once, shared
    deal = state.deal
    assert deal is not None
    index = len(deal.history) - 1
    filtered: dict[int | None, Mapping[str, object]] = {}
    for seat in seats:
        entry = deal.public_entry(index, state.engine_seat(seat))
        seen = shared.get(id(entry))
        if seen is None:
            seen = shared[id(entry)] = _public_action(event, entry)
        filtered[seat] = seen
    return filtered


def public_event(state: TableState, event: Event, seat: int | None) -> Mapping[str, object]:
    """``event`` as ``seat`` may see it (after it has been applied)."""
    if event["type"] == "deal":
        return {"type": "deal", "index": event["index"]}
    if event["type"] == "created":
        return {"type": "created"}
    if event["type"] == "par":
        return {"type": "par", "index": event["index"]}  # the figures are in the view (match.duplicate)
    if event["type"] == "action":
        deal = state.deal
        assert deal is not None
        return _public_action(event, deal.public_entry(len(deal.history) - 1, state.engine_seat(seat)))
    if event["type"] == "sit":
        return {"type": "sit", "seat": event["seat"], "name": event["name"]}
    return {k: v for k, v in event.items() if k != "cid"}


def _public_action(event: Acted, entry: dict[str, Any]) -> dict[str, object]:
    """An action event as a viewer whose log gained ``entry`` sees it."""
    public: dict[str, object] = {"type": "action", "by": event.get("by", "player"), "action": entry}
    if "note" in event:
        public["note"] = dict(event["note"])  # a learner table's bot note: everybody may read it
    return public
