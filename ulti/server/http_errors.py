"""How the HTTP API words a refusal: ``{"error": {"code", "message", "args"?}}`` with the code's status.

Installed on the app by ``install_error_handlers``: a ``CommandError`` raised anywhere under a route,
a framework error (unknown path, wrong method) and a request FastAPI itself could not validate all
leave in that one shape (docs/protocol/errors.md §16), each counted in the app's metrics.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ulti.server.errors import CommandError
from ulti.server.metrics import Metrics

#: the HTTP status of each refusal code; any other is 400 for a ``bad_…`` code, else 409 (a conflict)
STATUS = {
    "not_found": 404,
    "unauthorized": 401,
    "not_host": 403,
    "reserved": 403,
    "bad_origin": 403,
    "practice_table": 403,
    "seed_not_allowed": 403,
    "account_required": 403,
    "rate_limited": 429,
    "work_quota": 429,
    "no_worker": 503,
    "login_to_analyse": 401,
    "too_many_connections": 429,
    "too_large": 413,
    "too_deep": 400,
    "missing_scope": 403,
    "not_bot_account": 403,
    "bot_account": 403,
    "analysis_after_match": 403,
    "hint_rated": 403,
    "hint_not_learner": 403,
    "learner_rated": 403,
    "event_hidden": 403,
    "event_table": 403,
    "event_chat_closed": 403,
    # a route declared to show a table answered without asking the visibility policy: a bug, refused
    "visibility_unchecked": 500,
}


def status_of(code: str) -> int:
    """The HTTP status that carries refusal ``code``."""
    return STATUS.get(code, 400 if code.startswith("bad_") else 409)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def install_error_handlers(app: FastAPI, metrics: Metrics) -> None:
    """Make every refusal of ``app`` leave in the API's error shape, counted in ``metrics``."""

    @app.exception_handler(CommandError)
    async def command_error(_request: Request, exc: CommandError) -> JSONResponse:
        metrics.refused(exc, "http")
        retry = exc.params.get("retry_after")
        headers = {"retry-after": str(retry)} if isinstance(retry, int) else None  # a 429 says when, as a header too
        return JSONResponse({"error": exc.to_json()}, status_code=status_of(exc.code), headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        metrics.refused_code(code)
        return _error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        metrics.refused_code("bad_request")
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _error(400, "bad_request", f"{where}: {first.get('msg', 'invalid request')}")
