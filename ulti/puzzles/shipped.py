"""The puzzle set shipped with the package (``data/puzzles.jsonl.gz``), cut by ``ulti puzzles generate``
from the bots' own play (docs/record.md, ``ulti-puzzle/1``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

#: The shipped set: one ``ulti-puzzle/1`` object per line, gzipped.
SHIPPED = Path(__file__).resolve().parent / "data" / "puzzles.jsonl.gz"


def load(path: Path = SHIPPED) -> list[dict[str, Any]]:
    """Every puzzle of the JSON-lines file ``path`` (gzipped when its name ends in ``.gz``)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
