"""Structured logs: one JSON object per line on standard error."""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

logger = logging.getLogger("ulti")


class JsonFormatter(logging.Formatter):
    """Formats a record as JSON with its ``extra`` fields."""

    def format(self, record: logging.LogRecord) -> str:
        """One JSON line."""
        data: dict[str, Any] = {
            "ts": round(time.time(), 3),
            "level": record.levelname.lower(),
            "msg": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            data.update(fields)
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


def setup_logging(level: str = "INFO") -> None:
    """Send the ``ulti`` logger's records to stderr as JSON lines."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    logger.handlers[:] = [handler]
    logger.setLevel(level)
    logger.propagate = False


def log(msg: str, level: int = logging.INFO, **fields: Any) -> None:
    """Log ``msg`` with structured ``fields``."""
    logger.log(level, msg, extra={"fields": fields})
