"""Which offered level a bot plays at when no person chose one: the level nearest the people it plays for.

A person chooses the level of the bots at a table they host (the lobby shows the ladder with its ratings).
Where nobody chooses, the server picks from the same ladder by rating (``ladder_ratings.level_for_rating``):

- Play now and ``GET /api/bot_levels`` recommend the level nearest the player's own rating;
- a seek whose wait is up fills its free seats with the level nearest the seekers' mean rating;
- a person who is away (or resigned) is played for by the level nearest their own rating, so the stand-in
  plays about as well as the person whose result it plays for.

A rating still provisional (a guest, a newcomer: fewer than 10 rated matches) counts as no rating: when
every one of the people is provisional the lowest rung is chosen, the gentlest opponent a newcomer meets.
"""

from __future__ import annotations

from collections.abc import Sequence

from ulti.accounts.ratings import NEWCOMER, is_provisional, shown_rating
from ulti.bots.ladder_ratings import level_for_rating
from ulti.store.ports import RatingRead

#: the level for people none of whom has a settled rating: the ladder's lowest rung
NEWCOMERS_LEVEL = level_for_rating(NEWCOMER.shown, provisional=True)


async def level_for_players(ratings: RatingRead, player_ids: Sequence[str]) -> str:
    """The offered level for bots playing with (or for) ``player_ids``: nearest the mean of their shown
    ratings that are no longer provisional; the lowest rung if none is (or no player is named)."""
    established: list[int] = []
    for player_id in player_ids:
        stored = await ratings.rating_of(player_id)
        if stored is not None and not is_provisional(stored[1]):
            established.append(shown_rating(stored[0]))
    if not established:
        return NEWCOMERS_LEVEL
    return level_for_rating(round(sum(established) / len(established)), provisional=False)

