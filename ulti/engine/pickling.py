"""Frozen records pickled by their constructor, so that they cross processes compiled or not.

The bots think in worker processes: bids, actions and seat views go there and back by pickle. Python's
default for a frozen dataclass restores its fields past the frozen ``__setattr__``; a class compiled by
mypyc (``ulti/native.py``) has no such way round it, and unpickling fails. Registered here, such a record
is rebuilt by calling its class with its fields (``__post_init__`` derives the rest again), which works
the same for the Python class and the compiled one.
"""

from __future__ import annotations

import copyreg
import dataclasses
from functools import partial
from typing import Any


def _by_fields(cls: type, names: tuple[str, ...], record: Any) -> tuple[type, tuple[Any, ...]]:
    return cls, tuple(getattr(record, name) for name in names)


def pickled_by_constructor(*classes: type) -> None:
    """Make pickle rebuild each dataclass of ``classes`` by calling it with its ``__init__`` fields."""
    for cls in classes:
        names = tuple(f.name for f in dataclasses.fields(cls) if f.init)
        copyreg.pickle(cls, partial(_by_fields, cls, names))
