"""The ladder's mistake count (``ulti.lab.ladder_mistakes``)."""

from __future__ import annotations

import pytest

from ulti.bots.ladder import RUNGS
from ulti.lab.ladder_mistakes import card_views, measure


def test_each_rungs_mistakes_are_counted_and_never_past_its_limit() -> None:
    views = card_views(2, 1)
    assert views and all(view.choices is not None and view.choices.cards.bit_count() >= 2 for view in views)
    for level, rung in RUNGS.items():
        m = measure(level, views, 1)
        assert 0 < m.decisions <= len(views)
        assert 0 <= m.mistakes <= m.decisions
        assert 0 <= m.mean_loss <= m.largest <= rung.temper.limit
        assert m.mean_loss == 0 or m.mistakes > 0


def test_only_a_ladder_rung_is_measured() -> None:
    with pytest.raises(ValueError, match="not a ladder rung"):
        measure("strong", card_views(1, 1), 1)
    with pytest.raises(ValueError, match="not a ladder rung"):
        measure("heuristic", card_views(1, 1), 1)
