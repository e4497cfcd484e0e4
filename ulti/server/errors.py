"""The one error every refused command or request raises, from the edge to the table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from ulti.engine.errors import IllegalAction


class WireError(TypedDict):
    """A refusal as the wire carries it (docs/protocol/errors.md §16): the code, the message, a rule's
    code for a game action the rules refuse, and the values the message names."""

    code: str
    message: str
    rule: NotRequired[str]
    args: NotRequired[Mapping[str, object]]


class CommandError(Exception):
    """A command that is refused; ``code`` is machine-readable, the message names the rule.

    ``params`` (on the wire: ``args``) holds the values the message names (a seat number, a name),
    so that a client can word the refusal in its own language from ``code`` and ``args``. A game
    action the rules refuse has the code ``illegal`` and also the engine's ``rule`` (docs/protocol/errors.md §16).
    """

    def __init__(
        self, code: str, message: str, *, rule: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        """An error with a short code (``illegal``, ``not_your_seat``, …), a message and its values."""
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.params: dict[str, Any] = dict(params) if params else {}

    @classmethod
    def illegal(cls, exc: IllegalAction) -> CommandError:
        """The refusal of a game action by the engine's rule ``exc.rule``."""
        return cls("illegal", exc.message, rule=exc.rule, params=exc.params)

    def to_json(self) -> WireError:
        """``{"code", "message"}``, with ``rule`` and ``args`` for a rule's refusal, ``args`` when it has values."""
        out: WireError = {"code": self.code, "message": self.message}
        if self.rule is not None:
            out["rule"] = self.rule
            out["args"] = dict(self.params)
        elif self.params:
            out["args"] = dict(self.params)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> CommandError:
        """The error ``to_json`` gave (a refusal answered by another process: JSON, so read with care)."""
        args, rule = data.get("args"), data.get("rule")
        params = args if isinstance(args, dict) else None
        return cls(str(data["code"]), str(data["message"]), rule=None if rule is None else str(rule), params=params)
