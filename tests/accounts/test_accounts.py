"""The account logic on its own: names, tokens, Argon2id hashing, the login guard, and the operations over a
real SQLite store."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from ulti.accounts import AccountError, Accounts
from ulti.accounts.devices import DeviceCookies
from ulti.accounts.guard import LoginGuard
from ulti.accounts.names import account_name, name_key
from ulti.accounts.passwords import MEMORY_KIB, TIME_COST, PasswordHashing, check_password_rules
from ulti.accounts.tokens import is_session_token, new_token, token_key
from ulti.store.eventstore import EventStore

#: cheap costs for the tests that hash many times; the real costs are checked on their own
FAST = {"time_cost": 1, "memory_kib": 1024}


@pytest_asyncio.fixture
async def accounts(tmp_path: Path) -> AsyncIterator[Accounts]:
    """Account operations over a migrated SQLite file, with cheap hashing."""
    store = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'accounts.db'}")
    yield Accounts(store, hashing=PasswordHashing(**FAST))
    await store.close()


def test_names_are_one_whatever_their_case_or_width_and_are_bounded() -> None:
    assert name_key("Anna") == name_key("ANNA") == name_key("  anna ") == name_key("ａｎｎａ")
    assert name_key("Anna") != name_key("Anna B")
    assert account_name("  Anna   B ") == "Anna B"
    for bad in ("", "   ", "x" * 33, 7):
        with pytest.raises(AccountError) as refused:
            account_name(bad)
        assert refused.value.code == "bad_name" and refused.value.status == 400
    assert account_name("x" * 32) == "x" * 32


def test_session_tokens_are_random_hashed_and_never_look_like_guest_tokens() -> None:
    tokens = {new_token() for _ in range(100)}
    assert len(tokens) == 100 and all(is_session_token(t) and "." not in t for t in tokens)
    token = tokens.pop()
    assert token_key(token) != token and len(token_key(token)) == 64 and token_key(token) == token_key(token)
    for bad in (None, "", token + "x", token[:-1], "0123456789abcdef." + "0" * 40, token[:-1] + "é"):
        assert not is_session_token(bad)


def test_passwords_are_bounded_and_hashed_with_argon2id_at_the_chosen_cost() -> None:
    for bad in ("short", "x" * 257, None, 12345678):
        with pytest.raises(AccountError) as refused:
            check_password_rules(bad)
        assert refused.value.code == "bad_password"
    hashing = PasswordHashing()
    stored = hashing.hash_now("correct horse")
    assert stored.startswith(f"$argon2id$v=19$m={MEMORY_KIB},t={TIME_COST},p=1$") and "correct horse" not in stored
    assert hashing.verify_now(stored, "correct horse") and not hashing.verify_now(stored, "correct horsE")
    assert not hashing.verify_now("not a hash", "correct horse")
    assert not hashing.needs_rehash(stored) and PasswordHashing(**FAST).needs_rehash(stored)


def test_the_guard_counts_checks_per_name_and_per_address_and_says_when_to_retry() -> None:
    guard = LoginGuard(per_name="3/minute", per_address="5/minute")
    for _ in range(3):
        guard.attempt("anna", "10.0.0.1")
    with pytest.raises(AccountError) as refused:
        guard.attempt("anna", "10.0.0.2")  # the name is limited from any address
    assert refused.value.code == "too_many_failures" and refused.value.status == 429
    assert refused.value.retry_after is not None and 1 <= refused.value.retry_after <= 60
    guard.succeeded("anna")  # the owner got in: the name's count starts again
    guard.attempt("anna", "10.0.0.2")
    guard.attempt("bela", "10.0.0.1")
    guard.attempt("cili", "10.0.0.1")  # the fifth check from 10.0.0.1
    with pytest.raises(AccountError):
        guard.attempt("dora", "10.0.0.1")  # over the address's limit, whatever the name
    guard.attempt("dora", "10.0.0.3")


@pytest.mark.asyncio
async def test_register_login_and_the_same_refusal_for_an_unknown_name(accounts: Accounts) -> None:
    made = await accounts.register("Anna", "correct horse", "p1", new_player=True)
    assert (made.player_id, made.name) == ("p1", "Anna")
    assert await accounts.session_of(made.token) == ("p1", "Anna")
    with pytest.raises(AccountError) as taken:
        await accounts.register("aNNa", "correct horse", "p2", new_player=True)
    assert taken.value.code == "name_registered" and taken.value.status == 409
    logged = await accounts.login("ANNA", "correct horse", "10.0.0.1")
    assert logged.player_id == "p1" and logged.token != made.token
    refusals = []
    for name in ("Anna", "Nobody"):
        with pytest.raises(AccountError) as refused:
            await accounts.login(name, "wrong horse", "10.0.0.1")
        refusals.append((refused.value.code, refused.value.message, refused.value.status))
    assert refusals[0] == refusals[1] == ("bad_credentials", "wrong name or password", 401)


@pytest.mark.asyncio
async def test_logout_password_change_and_delete_end_sessions(accounts: Accounts) -> None:
    first = await accounts.register("Béla", "correct horse", "p1", new_player=True)
    second = await accounts.login("béla", "correct horse", "10.0.0.1")
    assert await accounts.logout(first.token) is True
    assert await accounts.session_of(first.token) is None and await accounts.session_of(second.token) is not None
    with pytest.raises(AccountError) as wrong:
        await accounts.change_password("p1", "not my password", "new password!", "10.0.0.1")
    assert wrong.value.code == "wrong_password"
    third, revoked = await accounts.change_password("p1", "correct horse", "new password!", "10.0.0.1")
    assert revoked == []  # no API tokens to end
    assert await accounts.session_of(second.token) is None and await accounts.session_of(third.token) is not None
    with pytest.raises(AccountError):
        await accounts.login("Béla", "correct horse", "10.0.0.1")
    await accounts.login("Béla", "new password!", "10.0.0.1")
    assert await accounts.delete("p1") is True
    assert await accounts.session_of(third.token) is None
    with pytest.raises(AccountError) as gone:
        await accounts.confirm_password("p1", "new password!", "10.0.0.1")
    assert gone.value.code == "not_account"


@pytest.mark.asyncio
async def test_an_old_hash_is_replaced_at_login_and_hashes_run_off_the_event_loop(tmp_path: Path) -> None:
    store = await EventStore.open(f"sqlite+aiosqlite:///{tmp_path / 'rehash.db'}")
    try:
        await Accounts(store, hashing=PasswordHashing(**FAST)).register("Cili", "correct horse", "p1", new_player=True)
        stronger = Accounts(store, hashing=PasswordHashing(time_cost=2, memory_kib=2048))
        await stronger.login("Cili", "correct horse", "10.0.0.1")
        stored = await store.account_of("p1")
        assert stored is not None and "$m=2048,t=2,p=1$" in stored.password_hash
        # while hashes run in threads the loop keeps ticking
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.001)

        ticker = asyncio.create_task(tick())
        await asyncio.gather(*(PasswordHashing().hash("correct horse") for _ in range(2)))
        ticker.cancel()
        assert ticks >= 10
    finally:
        await store.close()


def test_a_known_device_is_counted_on_its_own_and_trusted_no_more_once_its_count_is_full() -> None:
    guard = LoginGuard(per_name="3/minute", per_address="100/minute", per_device="2/minute")
    for i in range(3):
        assert guard.attempt("anna", f"10.9.0.{i}") is None  # unknown devices: counted per name
    with pytest.raises(AccountError):
        guard.attempt("anna", "10.0.0.1")  # the name is full for unknown devices
    assert guard.attempt("anna", "10.0.0.1", "dev1") == "dev1"  # the owner's device is counted on its own
    guard.succeeded("anna", "dev1")  # clears the device's count, not the name's
    with pytest.raises(AccountError):
        guard.attempt("anna", "10.0.0.2")
    for _ in range(2):
        assert guard.attempt("anna", "10.0.0.1", "dev1") == "dev1"
    with pytest.raises(AccountError):  # the device failed twice: it is judged per name now, which is full
        guard.attempt("anna", "10.0.0.1", "dev1")


def test_device_cookies_are_bound_to_their_account_and_to_the_servers_secret() -> None:
    cookies = DeviceCookies("secret one")
    value = cookies.issue("p1")
    device = cookies.device_of(value, "p1")
    assert device is not None and device == value.split(".")[1]
    assert cookies.issue("p1") != value  # a fresh device id at every login
    assert cookies.device_of(value, "p2") is None  # another account's login
    assert DeviceCookies("secret two").device_of(value, "p1") is None  # another server's secret
    player, device_id, mac = value.split(".")
    other_digit = "1" if mac.endswith("0") else "0"  # a changed last digit (one MAC in 16 ends with 0)
    for forged in (f"{player}.{device_id}.{mac[:-1]}{other_digit}", f"{player}.{device_id}a.{mac}", value + "." + "x",
                   "p1." + "é" * 10 + "." + mac, value + "a" * 200, "", None):
        assert cookies.device_of(forged, "p1") is None, forged
