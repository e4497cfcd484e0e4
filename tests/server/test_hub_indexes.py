"""The hub's small indexes: the connections watching each table, and each player's recent command ids."""

from __future__ import annotations

from ulti.server.hubcore import Connection, ConnectionSet, RecentIds


def test_a_retried_command_id_is_recognised_until_it_is_among_the_oldest_forgotten() -> None:
    recent = RecentIds(3)
    assert [recent.seen(i) for i in ("a", "b", "a", "c")] == [False, False, True, False]
    assert recent.seen("d") is False  # the fourth id forgets the oldest, "a"
    assert recent.seen("a") is False  # so "a" is new again (and forgets "b")
    assert [recent.seen(i) for i in ("c", "d", "a", "b")] == [True, True, True, False]


def test_connections_are_found_by_the_table_they_watch_only_while_open() -> None:
    registry = ConnectionSet()
    anna, bela, cili = Connection("p1", "Anna"), Connection("p2", "Bela"), Connection("p3", "Cili")
    registry.set_table(anna, "t1")  # not open yet: noted on the connection, not indexed
    assert anna.table_id == "t1" and not registry.watching("t1")
    registry.add(anna)
    registry.add(bela)
    registry.set_table(bela, "t1")
    registry.add(cili)
    assert set(registry.watching("t1")) == {anna, bela} and len(registry) == 3
    registry.set_table(bela, "t2")  # switching tables
    assert set(registry.watching("t1")) == {anna} and set(registry.watching("t2")) == {bela}
    registry.discard(anna)
    assert not registry.watching("t1") and anna not in registry and cili in registry
    registry.set_table(bela, None)
    assert not registry.watching("t2") and bela.table_id is None
    assert set(registry) == {bela, cili}
    registry.discard(anna)  # twice: a no-op
    assert len(registry) == 2
