"""The text table of ``ulti analyse``: one line per decision with its cost and the best alternative."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ulti.engine.scoring import scores_for


def _signed(value: float | None) -> str:
    return "" if value is None else f"{value:+g}"


def _action_text(decision: Mapping[str, Any]) -> str:
    kind = decision["kind"]
    key = decision["key"]
    if kind == "kontra":
        return "no kontra" if key == "none" else f"kontra {key}"
    if kind == "trump":
        return "give up" if key == "give_up" else f"trump {key}"
    if kind == "discard":
        return "discard " + " ".join(str(key).split("+"))
    return str(key)


def _alt_text(decision: Mapping[str, Any], key: str) -> str:
    return _action_text({**decision, "key": key})


def format_table(analysis: Mapping[str, Any]) -> str:
    """The analysis as a readable table (what ``ulti analyse FILE`` prints)."""
    declarer = analysis["declarer"]
    trump = f" trump {analysis['trump']}" if analysis["trump"] else ""
    pd = analysis["per_defender"]
    lines = [
        f"{analysis['bid']}{trump}, declarer seat {declarer}: {pd:+d} per defender"
        f" (scores {', '.join(f'{s:+d}' for s in scores_for(declarer, pd))})",
        f"{analysis['worlds']} worlds per decision; values in the seat's own points per defender;"
        " dd = double-dummy value for the declarer after the action",
        "",
        f"{'#':>3} {'trick':>5} {'seat':<12} {'action':<18} {'best':<18} {'cost':>7} {'±':>5}  {'label':<10} {'dd':>5}",
    ]
    for d in analysis["decisions"]:
        role = "declarer" if d["seat"] == declarer else "defender"
        best = "" if d["forced"] else ("=" if d["best"] == d["key"] else _alt_text(d, d["best"]))
        cost = "forced" if d["forced"] else f"{d['cost']:.2f}"
        error = "" if d["forced"] else f"{d['error']:.2f}"
        who = f"{d['seat']} {role}"
        lines.append(
            f"{d['index']:>3} {d['trick'] or '':>5} {who:<12} {_action_text(d):<18} {best:<18}"
            f" {cost:>7} {error:>5}  {d['label']:<10} {_signed(d['dd']):>5}"
        )
    lines.append("")
    for s in analysis["seats"]:
        acc = "-" if s["accuracy"] is None else f"{s['accuracy']:.0f}%"
        labels = ", ".join(f"{n} {k}" for k, n in s["labels"].items() if n)
        lines.append(
            f"seat {s['seat']} ({s['role']}): total cost {s['cost']:.2f} over {s['decisions']} decisions,"
            f" accuracy {acc}" + (f" ({labels})" if labels else "")
        )
    return "\n".join(lines)
