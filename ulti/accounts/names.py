"""Account names: one account per name, whatever the case of its letters."""

from __future__ import annotations

import unicodedata

from ulti.accounts.errors import AccountError

#: the longest account name, in characters (the same bound as a guest's display name)
MAX_NAME = 32


def account_name(value: object) -> str:
    """A name as an account keeps it: NFC, one space between words, 1 to ``MAX_NAME`` characters.

    The server's edge (``ulti.server.inputs.clean_name``) refuses control characters, card codes and
    reserved words before this; the bound is checked here too so that no caller can store more.
    """
    if not isinstance(value, str):
        raise AccountError("bad_name", "name must be a string", 400)
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not 1 <= len(name) <= MAX_NAME:
        raise AccountError("bad_name", f"name must be 1 to {MAX_NAME} characters", 400)
    return name


def name_key(name: str) -> str:
    """What makes two account names the same: NFKC, case folded (``Anna``, ``ANNA`` and ``ａｎｎａ`` are one).

    The store holds it under a unique index, so two registrations racing for one name cannot both win.
    """
    return unicodedata.normalize("NFKC", account_name(name)).casefold()
