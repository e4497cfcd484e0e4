"""The ``patch`` event form (docs/protocol/events.md §9.1): what changed in a table view, and applying it.

A connection opened with ``/ws?events=patch`` receives each event with a ``patch`` instead of the
whole view (``state``): the change from the view it was last sent (its ``sync``, or the previous
event's) to the view after the event. A client that applies each patch to its state holds exactly
the view the full form would have sent (tests/server/test_event_form.py checks this over whole
matches). A patch is an object with up to three members, each absent when empty:

- ``set``: path -> value. A path is a key of the view (``"seq"``, ``"table"``) or a key of its deal
  (``"deal.to_move"``), joined by a dot; the value replaces what is there (or adds the key).
- ``append``: path -> list. The list at the path grows by these items (the deal's ``log`` and
  ``tricks``, the chat).
- ``unset``: paths whose key is no longer in the view (``"deal.choices"`` for a seat that sat up).

The change is found by comparing the two views (plain JSON values), so it is always exact: anything
the old and new views share by reference costs nothing to compare. Pure functions, stdlib only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict, cast


class Patch(TypedDict, total=False):
    """What changed in a view: values set (or added) by path, lists grown by path, paths removed."""

    set: dict[str, object]
    append: dict[str, list[object]]
    unset: list[str]


#: the view's keys whose object is compared key by key (its own keys then get dotted paths)
_NESTED = ("deal",)


def view_patch(old: Mapping[str, object], new: Mapping[str, object]) -> Patch:
    """The patch that turns view ``old`` into view ``new`` (both left unchanged)."""
    changed: dict[str, object] = {}
    appended: dict[str, list[object]] = {}
    removed: list[str] = []
    nested: list[tuple[str, Mapping[str, object], Mapping[str, object]]] = []
    _diff(old, new, "", changed, appended, removed, nested)
    # after the view's own keys, as the patch has always listed them (its bytes are compared in tests)
    for key, before, after in nested:
        _diff(before, after, key + ".", changed, appended, removed, None)
    patch: Patch = {}
    if changed:
        patch["set"] = changed
    if appended:
        patch["append"] = appended
    if removed:
        patch["unset"] = removed
    return patch


def _diff(
    old: Mapping[str, object], new: Mapping[str, object], prefix: str,
    changed: dict[str, object], appended: dict[str, list[object]], removed: list[str],
    nested: list[tuple[str, Mapping[str, object], Mapping[str, object]]] | None,
) -> None:
    """Add what changed from ``old`` to ``new`` at this level; a ``_NESTED`` object's keys are left in
    ``nested`` (when given) to be compared one by one, not compared whole first."""
    shared = 0  # keys of ``new`` that ``old`` has: all of old's when none was removed
    for key, value in new.items():
        if key not in old:
            changed[prefix + key] = value
            continue
        shared += 1
        before = old[key]
        if before is value:
            continue
        if nested is not None and key in _NESTED and isinstance(before, dict) and isinstance(value, dict):
            nested.append((key, before, value))  # an equal object yields nothing there
            continue
        if before == value:
            continue
        if type(value) is list and type(before) is list and len(before) < len(value) and value[: len(before)] == before:
            appended[prefix + key] = value[len(before) :]
        else:
            changed[prefix + key] = value
    if shared < len(old):
        removed.extend(prefix + key for key in old if key not in new)


def apply_patch(state: Mapping[str, object], patch: Patch) -> dict[str, object]:
    """The view after ``patch``: a new object (``state`` and what it holds are left unchanged).

    A dotted path's head names an object of the view and an appended path a list: ``view_patch`` makes
    no other (the casts below say so, they check nothing)."""
    result = dict(state)
    copied: set[str] = set()

    def parent(path: str) -> tuple[dict[str, object], str]:
        head, dot, key = path.partition(".")
        if not dot:
            return result, head
        if head not in copied:
            result[head] = dict(cast("Mapping[str, object]", result[head]))
            copied.add(head)
        return cast("dict[str, object]", result[head]), key

    for path, value in patch.get("set", {}).items():
        target, key = parent(path)
        target[key] = value
    for path, items in patch.get("append", {}).items():
        target, key = parent(path)
        target[key] = [*cast("list[object]", target[key]), *items]
    for path in patch.get("unset", ()):
        target, key = parent(path)
        target.pop(key, None)
    return result
