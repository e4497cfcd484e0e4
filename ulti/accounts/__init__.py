"""Accounts: names, password hashing (Argon2id), server-side sessions and the login guard.

The account logic lives here, apart from the HTTP routes (``ulti.server.account_routes``) and the
tables (``ulti.store.accounts``): it imports the store's interface and the ``limits`` library, never
the engine nor the server (an import-linter contract in pyproject.toml holds that).
"""

from ulti.accounts.errors import AccountError
from ulti.accounts.service import Accounts, Session

__all__ = ["AccountError", "Accounts", "Session"]
