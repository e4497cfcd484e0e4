"""No module calls another module's private method: what one module needs of another is public API.

A call ``obj._name(...)`` is allowed only on ``self``/``cls``/``super()`` or when ``_name`` is defined in
the calling module itself (a module may use its own classes' private parts). The exceptions are other
libraries' private calls we cannot avoid, each with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "ulti"

#: (module path under ulti/, the private name): calls into other libraries, each pinned and explained
ALLOWED = {
    ("store/eventstore.py", "_execute"),  # aiosqlite runs a call on its own thread only this way (pinned)
    ("server/longwork.py", "_exit"),  # os._exit: a worker whose server is already gone ends at once
}


def _private_calls(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text())
    own = {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name, target = node.func.attr, node.func.value
        if not name.startswith("_") or name.startswith("__") or name in own:
            continue
        if isinstance(target, ast.Name) and target.id in ("self", "cls"):
            continue
        if isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "super":
            continue
        found.append((node.lineno, ast.unparse(node.func)))
    return found


def test_no_module_calls_another_modules_private_method() -> None:
    calls = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        calls += [f"ulti/{rel}:{line} {call}" for line, call in _private_calls(path)
                  if (rel, call.rsplit(".", 1)[1]) not in ALLOWED]
    assert not calls, "private calls across modules:\n" + "\n".join(calls)


def test_the_check_sees_a_private_call_across_modules(tmp_path: Path) -> None:
    # the two calls this rule was written for: a bot into the deal, account erasure into the hub
    sample = tmp_path / "sample.py"
    sample.write_text("def f(deal, hub):\n    deal._first_trick_turn(0)\n    hub._unload('t', None)\n")
    assert [call for _, call in _private_calls(sample)] == ["deal._first_trick_turn", "hub._unload"]
