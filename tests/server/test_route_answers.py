"""Every JSON route sends its answer as the route built it: FastAPI never re-shapes one.

A route whose return annotation is a ``TypedDict`` or a model would have FastAPI take it as the response
model: validate the answer against it, drop or coerce what the type does not say, and publish the type in
``/openapi.json`` (on Python 3.11 it refuses a ``typing.TypedDict`` outright). The routes return typed
answers and declare ``response_model=dict[str, object]`` (a plain JSON object, which FastAPI passes
through as it is); a route that forgets it fails here, as a planted one shows.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.routing import APIRoute
from typing_extensions import TypedDict  # pydantic reads typing's only on Python >= 3.12

from tests.server.helpers import every_route
from ulti.server.app import create_app
from ulti.server.config import Settings

#: the response models that leave an answer as it is: a plain JSON object (or none: a Response)
PASSED_THROUGH: tuple[object, ...] = (None, dict[str, object], dict[str, Any])


def api_routes(app: FastAPI) -> list[APIRoute]:
    """Every FastAPI route of ``app``, included routers' routes among them."""
    return [route for route in every_route(app) if isinstance(route, APIRoute)]


def reshaping(app: FastAPI) -> list[str]:
    """The routes of ``app`` whose answers FastAPI would validate and re-serialize against a type."""
    return [
        f"{sorted(route.methods or ())} {route.path}" for route in api_routes(app)
        if route.response_model not in PASSED_THROUGH
    ]


class _Typed(TypedDict):
    ok: bool


def test_every_json_route_sends_its_answer_as_built() -> None:
    app = create_app(Settings.for_tests("sqlite+aiosqlite:///:memory:"))
    assert len(api_routes(app)) > 50  # the walk reaches the included routers' routes
    assert reshaping(app) == []

    # a route typed by its annotation alone is found (the check is not empty by construction)
    planted = APIRouter()

    @planted.get("/planted")
    async def typed_only() -> _Typed:
        return {"ok": True}

    @planted.get("/declared", response_model=dict[str, object])
    async def typed_and_declared() -> _Typed:
        return {"ok": True}

    app.include_router(planted)
    assert reshaping(app) == ["['GET'] /planted"]
