"""Type stub of the compiled search (``_dd.pyx``)."""

from collections.abc import Sequence

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
) -> tuple[int, int, int]: ...
