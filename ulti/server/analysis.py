"""Deal analyses, what-if lines and learner hints at the server (docs/protocol/analysis.md §22).

The analysis shows every hand, so who may see it is decided here: the three players of a table as soon
as the deal is over, everybody else once the match is over (``check_access``). A deal's analysis is a
job in the store's ``analyses`` table (``ulti.store.analyses``): queued once, computed a few decisions at
a time in the long-work processes (``workdesk.Desk``: low-priority workers of their own, so a bot's turn
never waits for it, and a what-if line or a hint waits for one small chunk at most), its progress stored
after each chunk, its result stored once and served from the store afterwards. The store is the queue:
a restarted server finds the queued jobs, and the running one of a killed process, there
(``AnalysisJobs.run_forever``), and runs them at the same low priority.

Only someone with a session starts work, within their quotas (``workquota.py``); a visitor without one
is served what is already computed (a stored analysis, a remembered what-if answer) and otherwise told
to log in (``login_to_analyse``).

The analysis is computed with the defaults of ``ulti analyse`` (worlds and seed), so the JSON served is
what ``ulti analyse --json`` prints for the downloaded record.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict

import orjson

from ulti.analysis.coach import HINT_WORLDS, hint
from ulti.analysis.pricing import DEFAULT_WORLDS
from ulti.analysis.review import DEFAULT_SEED, assemble_record, count_decisions, match_totals, price_record_chunk
from ulti.analysis.whatif import parse_line, what_if
from ulti.engine.errors import IllegalAction
from ulti.engine.record import deal_from_record
from ulti.server import tablerecords
from ulti.server.logs import log
from ulti.server.tablestate import CommandError, TableState
from ulti.server.workdesk import Asker, Desk
from ulti.store.ports import AnalysisQueue

#: Decisions priced per call to a worker process: small enough that a bot's move queued behind a chunk
#: waits a fraction of a second, large enough that the calls' overhead stays small.
CHUNK = 4
#: A running job whose worker reported nothing for this long belongs to a process that is gone.
STALE_SECONDS = 60.0
#: the prefix of a failed analysis's stored reason when it was a coded refusal (its JSON follows)
REFUSED = "refused:"
#: the prefix instead when the refusal may not hold later (``no_worker``: no worker was there then);
#: such a job is queued again when somebody asks for it once the queue has workers
REFUSED_FOR_NOW = "refused for now:"
#: the refusals that say "not now" rather than "not this deal"
FOR_NOW_CODES = frozenset({"no_worker"})
#: How often the queue is looked at when nobody asked for an analysis (jobs left by other processes).
IDLE_SCAN_SECONDS = 30.0

AFTER_MATCH = "the analysis shows every hand: it is open to the table's players now and to everybody after the match"
LOGIN = "log in (a guest session will do) to have this computed: without a session only finished work is served"


class Progress(TypedDict):
    """How many of a deal's decisions are priced, of how many."""

    done: int
    total: int


class AnalysisStatus(TypedDict):
    """A deal's analysis job as the route answers it (docs/protocol/analysis.md): its status and progress,
    the analysis once done (``ulti analyse --json``'s), the reason once failed (a coded refusal's JSON
    in ``error`` too, which the page words)."""

    status: str  # queued, running, done or failed
    progress: Progress
    analysis: NotRequired[Mapping[str, object] | None]
    message: NotRequired[str]
    error: NotRequired[Mapping[str, object]]


class MatchAnalysis(TypedDict):
    """Each seat's figures over a match's analysed deals (``ulti.analysis.review.match_totals``), and how
    far the analyses are."""

    status: Literal["done", "running"]
    deals: int
    analysed: list[int]
    failed: int
    seats: Sequence[Mapping[str, object]]


def login_to_analyse() -> CommandError:
    """The refusal of a visitor without a session who would start long work."""
    return CommandError("login_to_analyse", LOGIN)


def check_access(state: TableState, index: int, player_id: str | None) -> dict[str, Any]:
    """The record of finished deal ``index`` if ``player_id`` may see its analysis, else ``CommandError``.

    A deal in progress is ``not_found`` (as its record is). The table's three players see a finished
    deal's analysis at once; spectators and everyone else only when the match is over.
    """
    record = tablerecords.deal_record(state, index)
    if state.status != "finished" and (player_id is None or state.seat_of(player_id) is None):
        raise CommandError("analysis_after_match", AFTER_MATCH)
    return record


def check_match_access(state: TableState, player_id: str | None) -> list[int]:
    """The indices of the match's finished deals if ``player_id`` may see their analyses (the rule of
    ``check_access``: the table's players at once, everybody once the match is over), else ``CommandError``."""
    if state.match is None:
        raise CommandError("not_found", "this table's match has not started")
    if state.status != "finished" and (player_id is None or state.seat_of(player_id) is None):
        raise CommandError("analysis_after_match", AFTER_MATCH)
    return [k for k, deal in enumerate(state.match.deals) if deal.is_over]


def status_json(row: Any) -> AnalysisStatus:
    """The route's answer for a stored job: its status and progress, and the analysis once done."""
    out: AnalysisStatus = {"status": row.status, "progress": {"done": row.done, "total": row.total}}
    if row.status == "done":
        out["progress"]["done"] = row.total
        out["analysis"] = row.result_json()
    elif row.status == "failed":
        out["message"] = row.result or "the analysis failed"
        for prefix in (REFUSED, REFUSED_FOR_NOW):
            if out["message"].startswith(prefix):  # a coded refusal (no_worker): the page words it (errors.md)
                error = orjson.loads(out["message"].removeprefix(prefix))  # ``CommandError.to_json``'s
                out["error"] = error
                out["message"] = error["message"]
    return out


def refusal_reason(error: CommandError) -> str:
    """The stored reason of a job refused with ``error`` (its JSON after the prefix that says whether
    asking again may help)."""
    prefix = REFUSED_FOR_NOW if error.code in FOR_NOW_CODES else REFUSED
    return prefix + orjson.dumps(error.to_json()).decode()


def _refused_for_now(status: str, result: str | None) -> bool:
    return status == "failed" and result is not None and result.startswith(REFUSED_FOR_NOW)


class AnalysisJobs:
    """The queue of analysis jobs of this server process (the store holds it; this runs it)."""

    def __init__(
        self, store: AnalysisQueue, desk: Desk, worlds: int = DEFAULT_WORLDS,
        on_done: Callable[[str, int, dict[str, Any], dict[str, Any]], Coroutine[Any, Any, None]] | None = None,
    ) -> None:
        """Jobs stored in ``store``, computed in ``desk``'s low-priority workers within its quotas;
        ``on_done`` is told (table, deal, record, analysis) once an analysis is stored (the puzzles of the
        players' own mistakes), beside the queue rather than in its way."""
        self.store = store
        self.desk = desk
        self.worlds = worlds
        self.on_done = on_done
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._told: set[asyncio.Task[None]] = set()  # the on_done calls running (a reference keeps each alive)

    def start(self) -> None:
        """Start working through the stored queue (jobs left by a previous run first)."""
        self._task = asyncio.create_task(self.run_forever())

    def close(self) -> None:
        """Stop; a job cut short stays in the store and is taken up again after the restart (its mistakes'
        puzzles left uncut are not: they are an extra, as the growth of the set is)."""
        if self._task is not None:
            self._task.cancel()
        for told in self._told:
            told.cancel()

    async def request(self, table_id: str, index: int, record: dict[str, Any], asker: Asker) -> AnalysisStatus:
        """The analysis of a deal, or its job's status (queued now, within ``asker``'s quotas, if it never was
        or if it was refused for a reason that may not hold now)."""
        row = await self.store.analysis(table_id, index)
        if row is not None and _refused_for_now(row.status, row.result) and await self._retry(table_id, [index], asker):
            row = await self.store.analysis(table_id, index)
            assert row is not None
        if row is None:
            if asker.player_id is None:
                raise login_to_analyse()
            if await self._room(asker) < 1:
                raise self.desk.limiter.analysis_refusal(asker.player_id, asker.address)
            await self._queue(table_id, {index: record}, asker)
            row = await self.store.analysis(table_id, index)
            assert row is not None
        return status_json(row)

    async def match(
        self, table_id: str, indices: list[int], record_of: Callable[[int], dict[str, Any]], asker: Asker,
        positions_of: Callable[[int], Sequence[int]] | None = None,
    ) -> MatchAnalysis:
        """Each seat's figures over the analysed deals of a match (``indices``: its finished deals, whose
        records ``record_of`` gives); the deals not analysed yet are queued now, as many as ``asker``'s
        quotas allow, so that the figure completes (asked again, the rest are queued as room frees).

        Clients poll this while it runs: it reads only the jobs' statuses, and sums the stored analyses
        once per set of done deals (remembered). ``positions_of(k)``: at a table of four, the table seat
        playing each seat of deal ``k``; the figures are then per table seat."""
        statuses = await self.store.analysis_statuses(table_id)
        failed_ones = [k for k in indices if statuses.get(k) == "failed"]
        if failed_ones and await self._retry(table_id, failed_ones, asker):  # those refused for now
            statuses = await self.store.analysis_statuses(table_id)
        missing = [k for k in indices if k not in statuses]
        if missing:
            if asker.player_id is None:
                raise login_to_analyse()
            room = await self._room(asker)
            if room < 1 and len(missing) == len(indices):
                raise self.desk.limiter.analysis_refusal(asker.player_id, asker.address)
            await self._queue(table_id, {k: record_of(k) for k in missing[:room]}, asker)
        done = [k for k in sorted(indices) if statuses.get(k) == "done"]
        failed = sum(1 for k in indices if statuses.get(k) == "failed")
        key = ("match", table_id, tuple(done))
        seats: Sequence[Mapping[str, object]] | None = self.desk.memo.get(key)
        if seats is None:
            positions = None if positions_of is None else [positions_of(k) for k in done]
            seats = match_totals(await self.store.analysis_results(table_id, done), positions)
            self.desk.memo.put(key, seats)
        return {
            "status": "done" if len(done) + failed == len(indices) else "running",
            "deals": len(indices),
            "analysed": done,
            "failed": failed,
            "seats": seats,
        }

    async def _room(self, asker: Asker) -> int:
        """How many analyses ``asker`` may queue now; jobs another process finished stop counting first."""
        assert asker.player_id is not None
        limiter = self.desk.limiter
        room = limiter.analysis_room(asker.player_id, asker.address)
        if room < 1:
            pending = limiter.pending_analyses(asker.player_id, asker.address)
            for table_id in sorted({table for table, _ in pending}):
                statuses = await self.store.analysis_statuses(table_id)  # one light query per table
                for job in [job for job in pending if job[0] == table_id]:
                    if statuses.get(job[1]) in (None, "done", "failed"):
                        limiter.analysis_ended(job)
            room = limiter.analysis_room(asker.player_id, asker.address)
        return room

    async def _retry(self, table_id: str, indices: list[int], asker: Asker) -> bool:
        """Queue again those of the failed deals ``indices`` whose jobs were refused for now (the store's
        conditional update tells them from the others), as many as ``asker``'s quotas allow, once the queue
        has workers again (nothing for a visitor, who may not queue; nothing while no worker shows itself,
        so that a page polling the refusal sees it, and no query then); True if any was queued."""
        queue = self.desk.work.queue
        if asker.player_id is None or (queue is not None and queue.workers_missing):
            return False
        room = await self._room(asker)
        queued: list[tuple[str, int]] = []
        for k in indices:
            if len(queued) >= room:
                break
            if await self.store.requeue_failed_analysis(table_id, k, REFUSED_FOR_NOW):
                queued.append((table_id, k))
        if queued:
            self.desk.limiter.analyses_queued(asker.player_id, asker.address, queued)
            self._wake.set()
        return bool(queued)

    async def _queue(self, table_id: str, records: dict[int, dict[str, Any]], asker: Asker) -> None:
        queued: list[tuple[str, int]] = []
        for index, record in records.items():
            total = count_decisions(record)
            # False: another request queued it just now (it counts against that one's quotas)
            if await self.store.queue_analysis(table_id, index, orjson.dumps(record).decode(), self.worlds, total):
                queued.append((table_id, index))
        if queued:
            assert asker.player_id is not None
            self.desk.limiter.analyses_queued(asker.player_id, asker.address, queued)
            self._wake.set()

    async def run_forever(self) -> None:
        """Run the pending jobs oldest first; then wait for a new one (or look again in a while)."""
        while True:
            self._wake.clear()  # before the scan: a job queued during it wakes the next one
            try:
                for row in await self.store.pending_analyses(STALE_SECONDS):
                    await self._run(row.table_id, row.deal_index, row.record, row.worlds)
            except asyncio.CancelledError:
                raise
            except Exception:
                logging.getLogger("ulti").exception("analysis queue failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), IDLE_SCAN_SECONDS)

    async def _run(self, table_id: str, index: int, record_text: str, worlds: int) -> None:
        if not await self.store.claim_analysis(table_id, index, STALE_SECONDS):
            return  # another process took it, or it is done
        work = self.desk.work
        record = orjson.loads(record_text)
        try:
            total = count_decisions(record)
            decisions: list[dict[str, Any]] = []
            for first in range(0, total, CHUNK):
                part = await work.call("analysis", price_record_chunk, record, first, CHUNK, worlds, DEFAULT_SEED)
                decisions.extend(part)
                await self.store.analysis_progress(table_id, index, len(decisions))
            analysis = await work.call("analysis", assemble_record, record, decisions, worlds, DEFAULT_SEED)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            logging.getLogger("ulti").exception("analysis failed", extra={"fields": {"table": table_id}})
            why = (refusal_reason(exc) if isinstance(exc, CommandError)
                   else f"the analysis failed: {type(exc).__name__}")
            await self.store.finish_analysis(table_id, index, "failed", why)
            self.desk.limiter.analysis_ended((table_id, index))
            return
        await self.store.finish_analysis(table_id, index, "done", orjson.dumps(analysis).decode())
        self.desk.limiter.analysis_ended((table_id, index))
        log("deal analysed", table=table_id, deal=index, decisions=total)
        if self.on_done is not None:
            # cutting puzzles is long work of the lowest priority: the next analysis need not wait for it
            told = asyncio.create_task(self.on_done(table_id, index, record, analysis))
            self._told.add(told)
            told.add_done_callback(self._told.discard)


async def explore(
    desk: Desk, state: TableState, index: int, asker: Asker, at: object, cards: object
) -> dict[str, Any]:
    """The what-if answer for a finished deal (same access as its analysis), computed in ``desk``'s
    low-priority workers within ``asker``'s quotas, or remembered from an identical question."""
    record = check_access(state, index, asker.player_id)
    if type(at) is not int:
        raise CommandError("bad_request", "at must be the number of actions of the record played before the line")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise CommandError("bad_request", 'cards must be a list of card codes such as ["AS", "7H"]')
    try:
        parse_line(cards)  # a bad code is refused here, naming it, before a worker is asked
    except ValueError as exc:
        raise CommandError("bad_line", str(exc)) from None  # the message names the field and the code
    # a finished deal's record never changes: the same line from the same point has the same answer
    key = ("whatif", state.table_id, index, at, tuple(cards))
    if asker.player_id is None and not desk.has(key):
        raise login_to_analyse()

    async def compute() -> dict[str, Any]:
        assert asker.player_id is not None
        with desk.limiter.computing("whatif", asker.player_id, asker.address):
            answer: dict[str, Any] = await desk.work.call("whatif", _what_if_record, record, at, cards)
            return answer

    try:
        known: dict[str, Any] = await desk.answer(key, compute)
    except IllegalAction as exc:
        raise CommandError.illegal(exc) from None
    except ValueError as exc:
        raise CommandError("bad_line", str(exc)) from None
    return known


def _what_if_record(record: dict[str, Any], at: int, cards: list[str]) -> dict[str, Any]:
    return what_if(deal_from_record(record), at, cards)


async def answer_hint(desk: Desk, state: TableState, asker: Asker, seed: str) -> dict[str, Any]:
    """The coach's hint for the asker's seat, from that seat's own view only (learner tables), computed
    in ``desk``'s low-priority workers within the asker's quotas (or remembered: asked again, the same)."""
    if state.rated:
        raise CommandError("hint_rated", "a rated table plays without help: hints are for casual learner tables")
    if not state.learner:
        raise CommandError("hint_not_learner", "hints are offered at learner tables only")
    desk.limiter.request("address", asker.address)
    if asker.player_id is not None:
        desk.limiter.request("player", asker.player_id)
    player_id = asker.player_id
    seat = None if player_id is None else state.seat_of(player_id)
    if player_id is None or seat is None:
        raise CommandError("not_seated", "you do not sit at this table: spectators cannot act")
    deal = state.deal
    played = state.engine_seat(seat)  # None: sitting this deal out at a table of four
    view = deal.seat_view(played) if deal is not None and not deal.is_over and played is not None else None
    if view is None or view.choices is None:
        raise CommandError("hint_nothing", "you have nothing to decide now")
    # the seed names the table and its event number: the same seat asking again at the same point

    async def compute() -> dict[str, Any] | None:
        with desk.limiter.computing("hint", player_id, asker.address):
            found: dict[str, Any] | None = await desk.work.call("hint", hint, view, HINT_WORLDS, seed)
            return found

    answer: dict[str, Any] | None = await desk.answer(("hint", seed, seat), compute)
    if answer is None:
        raise CommandError("hint_nothing", "you have nothing to decide now")
    return {"seat": seat, **answer}
