"""Type stub of the compiled search (``_dd.pyx``)."""

from collections.abc import Sequence
from typing import overload

@overload
def solve_internal(
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    done: int,
    dpts: int,
    winners: int,
    trump: int,
    declarer: int,
    seven: int,
    obj: int,
    threshold: int,
    marr: int,
    rules: tuple[int, ...],
    contract: tuple[int, ...],
    use_tt: bool,
    use_group: bool,
    want_best: bool,
    after: None = None,
) -> tuple[int, int, int]: ...
@overload
def solve_internal(
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    done: int,
    dpts: int,
    winners: int,
    trump: int,
    declarer: int,
    seven: int,
    obj: int,
    threshold: int,
    marr: int,
    rules: tuple[int, ...],
    contract: tuple[int, ...],
    use_tt: bool,
    use_group: bool,
    want_best: bool,
    *,
    after: Sequence[int],
    guesses: Sequence[int] | None = None,
    thresholds: Sequence[int | None] | None = None,
) -> tuple[list[int], int, int]: ...
def set_options(
    relative: bool = True, killers: bool = False, lead_order: bool = True, sure: bool = True
) -> None: ...
def table_bytes() -> int: ...
def clear_table() -> None: ...
