"""A failed analysis is queued again only when its stored reason says the refusal was for now (SQLite and
PostgreSQL): ``requeue_failed_analysis`` with the prefix, and never a job that failed otherwise or is done."""

from __future__ import annotations

import pytest

from ulti.store.eventstore import EventStore

FOR_NOW = "refused for now:"


@pytest.mark.asyncio
async def test_only_a_job_refused_for_now_is_queued_again(db_url: str) -> None:
    store = await EventStore.open(db_url)
    try:
        for index in range(4):
            assert await store.queue_analysis("t", index, "{}", 8, 10)
        await store.finish_analysis("t", 0, "failed", FOR_NOW + '{"code": "no_worker"}')
        await store.finish_analysis("t", 1, "failed", "the analysis failed: ValueError")
        await store.finish_analysis("t", 2, "done", "{}")
        await store.finish_analysis("t", 3, "failed", 'refused:{"code": "solve_limit"}')  # refused for good

        assert [await store.requeue_failed_analysis("t", k, FOR_NOW) for k in range(4)] == [True, False, False, False]
        assert await store.analysis_statuses("t") == {0: "queued", 1: "failed", 2: "done", 3: "failed"}
        row = await store.analysis("t", 0)
        assert row is not None and row.result is None and row.done == 0
        assert not await store.requeue_failed_analysis("t", 0, FOR_NOW)  # once queued, a second call does nothing
        assert [r.deal_index for r in await store.pending_analyses(60)] == [0]
    finally:
        await store.close()
