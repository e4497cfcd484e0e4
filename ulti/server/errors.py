"""The one error every refused command or request raises, from the edge to the table."""

from __future__ import annotations


class CommandError(Exception):
    """A command that is refused; ``code`` is machine-readable, the message names the rule."""

    def __init__(self, code: str, message: str) -> None:
        """An error with a short code (``illegal``, ``not_your_seat``, …) and a message."""
        super().__init__(message)
        self.code = code
        self.message = message
