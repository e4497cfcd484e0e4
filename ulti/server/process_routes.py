"""This process's own state for its operators: health, and the Prometheus counters (docs/deploy.md)."""

from __future__ import annotations

from typing import Literal, TypedDict

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ulti.server.bodies import hub_of
from ulti.server.metrics import CONTENT_TYPE, Metrics
from ulti.server.visibility import shows_no_table

router = APIRouter()
#: included only when the settings turn the counters on (``Settings.metrics``)
metrics_router = APIRouter()


class Health(TypedDict):
    """``GET /healthz``: this process's tables and connections, its id in a cluster, and whether long
    work waits for workers that are not there."""

    ok: Literal[True]
    tables: int
    connections: int
    process: str | None
    long_work_workers_missing: bool


@router.get("/healthz", response_model=dict[str, object])
@shows_no_table("the process's health: counts of tables and connections, whether long work has workers")
async def healthz(request: Request) -> Health:
    hub = hub_of(request)
    queue = hub.desk.work.queue
    return {
        "ok": True,
        "tables": len(hub.actors),
        "connections": len(hub.connections),
        "process": hub.cluster.process_id if hub.cluster else None,
        # jobs on the long-work queue wait and no worker shows itself: they are refused (no_worker)
        "long_work_workers_missing": queue.workers_missing if queue is not None else False,
    }


@metrics_router.get("/metrics", include_in_schema=False)
@shows_no_table("the process's Prometheus counters")
async def metrics_text(request: Request) -> Response:
    # This process's figures only: Prometheus scrapes every process on its own port, never
    # through the proxy, which refuses /metrics to the outside (docs/deploy.md).
    metrics: Metrics = request.app.state.metrics
    return Response(metrics.exposition(), media_type=CONTENT_TYPE)
