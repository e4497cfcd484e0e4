"""The one error every refused command or request raises, from the edge to the table."""

from __future__ import annotations

from typing import Any

from ulti.engine.errors import IllegalAction


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

    def to_json(self) -> dict[str, Any]:
        """``{"code", "message"}``, with ``rule`` and ``args`` for a rule's refusal, ``args`` when it has values."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.rule is not None:
            out["rule"] = self.rule
            out["args"] = dict(self.params)
        elif self.params:
            out["args"] = dict(self.params)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CommandError:
        """The error ``to_json`` gave (a refusal answered by another process)."""
        args = data.get("args")
        params = args if isinstance(args, dict) else None
        return cls(str(data["code"]), str(data["message"]), rule=data.get("rule"), params=params)
