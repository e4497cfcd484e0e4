"""Structured logs: one JSON object per line on standard error.

One line per event: a traceback goes inside its line (the ``exc`` field), and uvicorn's own lines
(a request that crashed the app, a server warning) get the same form. What a client merely sent
wrong is no event worth a line: it is counted in the metrics (``ulti_bad_input_total``) instead,
so that a flood of garbage cannot flood the log.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable
from typing import Any

logger = logging.getLogger("ulti")

#: uvicorn's warnings about one client's malformed request or frame, and the bad-input kind each counts as
CLIENT_ERRORS = {
    "Invalid HTTP request received.": "http_request",
    "Unsupported upgrade request.": "http_upgrade",
    "Invalid UTF-8 sequence received from client.": "ws_utf8",
}


class JsonFormatter(logging.Formatter):
    """Formats a record as JSON with its ``extra`` fields."""

    def format(self, record: logging.LogRecord) -> str:
        """One JSON line."""
        data: dict[str, object] = {  # a JSON line: any fields the caller gave beside these
            "ts": round(time.time(), 3),
            "level": record.levelname.lower(),
            "msg": record.getMessage().rstrip(),
        }
        if record.name != logger.name:
            data["logger"] = record.name  # uvicorn's lines
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            data.update(fields)
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


class ClientErrorFilter(logging.Filter):
    """Drops uvicorn's per-request client-error warnings (``CLIENT_ERRORS``) after counting them."""

    def __init__(self, on_bad_input: Callable[[str], None] | None) -> None:
        """``on_bad_input(kind)`` is told of each dropped line."""
        super().__init__()
        self.on_bad_input = on_bad_input

    def filter(self, record: logging.LogRecord) -> bool:
        """False (drop) for a client's error, True for everything else."""
        kind = CLIENT_ERRORS.get(str(record.msg))
        if kind is None:
            return True
        if self.on_bad_input is not None:
            self.on_bad_input(kind)
        return False


def setup_logging(level: str = "INFO", on_bad_input: Callable[[str], None] | None = None) -> None:
    """Send the ``ulti`` and ``uvicorn`` loggers' records to stderr as JSON lines.

    uvicorn's warnings about a client's malformed request go to ``on_bad_input(kind)`` instead
    (logging is per process: with several apps in one process the last one set up counts them).
    """
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    logger.handlers[:] = [handler]
    logger.setLevel(level)
    logger.propagate = False
    # uvicorn logs to "uvicorn.error", which propagates to "uvicorn" (its own plain-text handler):
    # an unhandled exception in an HTTP route would otherwise be a dozen lines of bare traceback.
    uvicorn_logger = logging.getLogger("uvicorn")
    uvicorn_logger.handlers[:] = [handler]
    uvicorn_logger.propagate = False
    errors = logging.getLogger("uvicorn.error")
    for old in [f for f in errors.filters if isinstance(f, ClientErrorFilter)]:
        errors.removeFilter(old)
    errors.addFilter(ClientErrorFilter(on_bad_input))


def log(msg: str, level: int = logging.INFO, **fields: Any) -> None:
    """Log ``msg`` with structured ``fields``."""
    logger.log(level, msg, extra={"fields": fields})
