"""A request's JSON body at the edge: decoded with the size and depth limits, then parsed into its model.

A body is checked once where it arrives, and the code behind the route receives a typed model, never
a ``dict`` to pick fields out of. A model's fault is turned into the project's own error (its code and
a message naming the field) by a ``refusal`` function, so a client sees the same ``bad_…`` error
whichever layer checks it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from fastapi import Request
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails, PydanticCustomError

from ulti.accounts import AccountError
from ulti.server.errors import CommandError
from ulti.server.hub import Hub
from ulti.server.inputs import decode_json
from ulti.store.ports import ServerStore

Model = TypeVar("Model", bound=BaseModel)
#: the project's error for a model's first fault (``ValidationError.errors()[0]``)
Refusal = Callable[[ErrorDetails], CommandError]


def hub_of(request: Request) -> Hub:
    """The app's hub (made at start, ``app.create_app``'s lifespan)."""
    hub: Hub = request.app.state.hub
    return hub


def store_of(request: Request) -> ServerStore:
    """The app's store with all its faces (opened at start, ``app.create_app``'s lifespan).

    A router reads it through a function typed with the face it uses (its own ``_store``), so that a
    reader and the type checker see which part of the store the router touches.
    """
    store: ServerStore = request.app.state.store
    return store


async def json_object(request: Request) -> dict[str, Any]:
    """The request's body, a JSON object (``bad_json``, ``too_deep``, ``bad_request`` otherwise)."""
    # the RequestGuard middleware has already bounded the size; orjson refuses what cannot be re-encoded
    body = decode_json(await request.body(), hub_of(request).settings.max_body_bytes, "request body")
    if not isinstance(body, dict):
        raise CommandError("bad_request", "the request body must be a JSON object")
    return body


def bad_request(error: ErrorDetails) -> CommandError:
    """A model's fault as ``bad_request`` naming the field (``seat: Input should be …``)."""
    where = ".".join(str(part) for part in error["loc"]) or "body"
    return CommandError("bad_request", f"{where}: {error['msg']}", params={"field": where})


def refuse(code: str, message: str) -> PydanticCustomError:
    """A refusal raised inside a model's validator, handed on by ``field_refusal`` as ``code`` and ``message``."""
    return PydanticCustomError(code, message, {"refusal": True})


def checked(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``check`` (one of ``inputs.py``'s, raising ``CommandError``, or an account rule of ``ulti.accounts``,
    raising ``AccountError``) as a model's validator: its refusal keeps its code and message (``refuse``)."""

    def validator(value: Any) -> Any:
        try:
            return check(value)
        except (CommandError, AccountError) as exc:
            raise refuse(exc.code, exc.message) from None

    return validator


def field_refusal(code: str, messages: Mapping[str, str]) -> Refusal:
    """A model's first fault as the API words it: a validator's own refusal (``refuse``) as it is, a fault
    in a field as ``code`` with that field's message in ``messages`` (else ``bad_request``'s wording)."""

    def refusal(error: ErrorDetails) -> CommandError:
        if (error.get("ctx") or {}).get("refusal"):
            return CommandError(error["type"], error["msg"])
        field = str(error["loc"][0]) if error["loc"] else ""
        if field in messages:
            return CommandError(code, messages[field])
        return bad_request(error)

    return refusal


def parse(model: type[Model], data: object, refusal: Refusal = bad_request) -> Model:
    """``data`` as ``model``, or the ``CommandError`` that ``refusal`` makes of its first fault."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise refusal(exc.errors(include_url=False)[0]) from None


async def body_as(request: Request, model: type[Model], refusal: Refusal = bad_request) -> Model:
    """The request's JSON body parsed as ``model`` (see ``parse``)."""
    return parse(model, await json_object(request), refusal)
