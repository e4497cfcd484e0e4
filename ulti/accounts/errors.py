"""The one error the account logic raises: a stable code, a sentence, an HTTP status."""

from __future__ import annotations


class AccountError(Exception):
    """A refused account request; ``code`` is stable (docs/protocol/accounts.md §3.1), ``message`` is for people.

    ``retry_after`` (seconds) is set on a refusal that lifts by itself (too many failed logins).
    """

    def __init__(self, code: str, message: str, status: int, retry_after: int | None = None) -> None:
        """An error with its code, message, HTTP status and, when it lifts by itself, when."""
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after
