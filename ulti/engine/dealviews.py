"""What each seat may see of a deal: the view half of ``Deal`` (RULES.md §5.3, §6, §7).

``DealViews`` builds a seat's ``SeatView`` (``ulti.engine.view``) from the deal's state; ``Deal``
inherits it and owns the state it reads (declared here for the type checker, as ``KontraChain``
does). Views are built after every action for every watcher, so the parts that only grow (the log,
the played tricks, the announced marriages) are cached and extended, never rebuilt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ulti.engine.actions import Action, Kind
from ulti.engine.cards import CardSet, card_points
from ulti.engine.choices import Choices
from ulti.engine.contracts import KONTRA_STEP_NAMES, Bid
from ulti.engine.kontra import KontraChain
from ulti.engine.phase import Phase
from ulti.engine.play import NO_TRUMP, TRICKS_PER_DEAL
from ulti.engine.scoring import LAST_TRICK_BONUS, DealResult, counting_marriages, marriages_of
from ulti.engine.view import (
    AuctionState,
    ChainState,
    ContractState,
    CurrentTrick,
    Hands,
    LogEntry,
    Marriages,
    PlayedTrick,
    PointsTally,
    SeatMarriages,
    SeatView,
    card_codes,
    entries_json,
)

_NO_MARRIAGES: SeatMarriages = (None, None, None)


class DealViews(KontraChain):
    """The per-seat views of a deal (mixed into ``Deal``, which sets every attribute below)."""

    dealer: int
    opener: int
    dealt: tuple[CardSet, ...]
    hands: list[CardSet]
    history: list[Action]
    talon: CardSet
    talon_by: int
    high_bid: Bid | None
    high_bidder: int
    passes: int
    obliged: bool
    trump: int
    result: DealResult | None
    start_hands: tuple[CardSet, ...]
    won: list[int]
    #: everything ``seat`` may do now (``Deal.choices``)
    choices: Callable[[int], Choices]
    # what views share, extended as the deal goes (see _public_log and seat_view)
    _log_cache: dict[tuple[int | None, bool], tuple[list[LogEntry], CardSet]]
    #: the spectator's wire view and the moment it shows (actions applied, phase): see ``view``
    _view_json: tuple[tuple[int, Phase], dict[str, Any]] | None
    _plain_log: list[LogEntry]  # the log as a seat that did not act sees it
    _played: list[PlayedTrick]  # self.tricks as views show them
    _marriages: SeatMarriages | None  # once all three seats have announced
    _tally: tuple[tuple[int, int, int], PointsTally | None]  # the last tally and the play counts it was made at

    def hands_open(self) -> bool:
        """Whether all hands are face up: an open contract after trick 1 and its kontra chain."""
        contract = self.contract
        return (
            contract is not None and contract.is_open and self.phase is Phase.PLAY
            and bool(self.tricks) and not self.in_chain
        )

    def marriage_announcement(self, seat: int) -> Marriages | None:
        """The marriages ``seat`` announced with its card to trick 1 (trump contracts), else None."""
        if not self.start_hands or self.trump == NO_TRUMP or self.contract is None:
            return None
        played = bool(self.tricks) or (seat - self.leader) % 3 < len(self.trick)
        if not played:
            return None
        forty, twenties = marriages_of(self.start_hands[seat], self.trump)
        counting = counting_marriages(self.contract, seat == self.declarer, forty, twenties)
        return Marriages(forty, twenties, counting)

    def _seat_marriages(self) -> SeatMarriages:
        # Fixed once a seat has announced: computed until all three have, then kept.
        if self._marriages is not None:
            return self._marriages
        if not self.start_hands or self.trump == NO_TRUMP:
            return _NO_MARRIAGES
        a, b, c = (self.marriage_announcement(s) for s in range(3))
        if a is not None and b is not None and c is not None:
            self._marriages = (a, b, c)
        return (a, b, c)

    def points_tally(self) -> PointsTally | None:
        """The points each side has taken so far (trump contracts, from the first card played on)."""
        # Built for every viewer after every action, it changes only when the play starts and when a
        # card is played (a trick taken, a marriage announced with a card to trick 1): remembered per
        # count of cards played.
        key = (len(self.start_hands), len(self.tricks), len(self.trick))
        made_at, tally = self._tally
        if made_at != key:
            tally = self._count_tally()
            self._tally = (key, tally)
        return tally

    def _count_tally(self) -> PointsTally | None:
        if not self.start_hands or self.trump == NO_TRUMP or self.contract is None:
            return None
        declarer = self.declarer
        taken = [0, 0]  # card points of the declarer's tricks, of the defenders' tricks
        for trick in self.tricks:
            side = 0 if trick.winner == declarer else 1
            taken[side] += card_points((1 << trick.cards[0]) | (1 << trick.cards[1]) | (1 << trick.cards[2]))
        if len(self.tricks) == TRICKS_PER_DEAL:
            taken[0 if self.tricks[-1].winner == declarer else 1] += LAST_TRICK_BONUS
        marriages = [0, 0]
        for seat, announced in enumerate(self._seat_marriages()):
            if announced is not None:
                marriages[0 if seat == declarer else 1] += announced.counting
        return PointsTally(taken[0], taken[1], marriages[0], marriages[1])

    def _public_log(self, viewer: int | None) -> list[LogEntry]:
        # Views are built after every action for every watcher: extend a cached log, never rebuild it.
        # A spectator's entries change once, when the deal ends (discards become visible).
        # The list is the cache itself: callers copy it.
        done = self.phase is Phase.DONE
        key = (viewer, done)
        entries, talon = self._log_cache.get(key, ([], 0))
        history = self.history
        if len(entries) < len(history):
            plain = self._plain_log
            plain.extend(LogEntry.of(action, False, 0) for action in history[len(plain) :])
            for i in range(len(entries), len(history)):
                action = history[i]
                taken = 0
                if action.kind is Kind.TAKE:
                    taken = talon
                elif action.discard is not None:
                    talon = (1 << action.discard[0]) | (1 << action.discard[1])
                else:
                    entries.append(plain[i])  # nothing in it is hidden from anybody
                    continue
                # a spectator sees the discards and talon pick-ups only once the deal is over
                own = viewer == action.seat or (viewer is None and done)
                entries.append(LogEntry.of(action, True, taken) if own else plain[i])
            self._log_cache[key] = (entries, talon)
        return entries

    def public_entry(self, index: int, viewer: int | None) -> dict[str, Any]:
        """Action ``index`` of the history as ``viewer`` may see it (discards and taken cards only if own)."""
        return self._public_log(viewer)[index].to_json()

    def seat_view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see now (``None``: a spectator, who sees no hidden card before the end)."""
        phase = self.phase
        done = phase is Phase.DONE
        hands = self.hands
        shown: Hands
        if done or self.hands_open():
            shown = (hands[0], hands[1], hands[2])
        else:
            shown = (
                hands[0] if seat == 0 else None,
                hands[1] if seat == 1 else None,
                hands[2] if seat == 2 else None,
            )
        contract = self.contract
        high_bid = self.high_bid
        talon = self.talon
        won = self.won
        choices = None
        if seat is not None:
            ch = self.choices(seat)
            if ch.any():
                choices = ch.freeze()
        dealt = self.dealt
        played = self._played
        if len(played) < len(self.tricks):
            played.extend(PlayedTrick.of(t) for t in self.tricks[len(played) :])
        # positional, in field order: views are built per seat per event, and keywords cost here
        return SeatView(
            seat,
            self.dealer,
            self.opener,
            phase,
            self.to_move,
            shown,  # hands
            (hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count()),  # hand_sizes
            tuple(self._public_log(seat)),  # log
            AuctionState(
                high_bid,
                self.high_bidder if high_bid else None,
                self.passes,
                self.obliged if phase is Phase.AUCTION else False,
            ),
            talon if talon and (done or (seat is not None and seat == self.talon_by)) else None,
            (
                ContractState(
                    contract,
                    self.declarer,
                    None if self.trump == NO_TRUMP or phase is Phase.TRUMP else self.trump,
                )
                if contract
                else None
            ),
            tuple((p, self.multiplier(p)) for p in self._ordered(self.levels)) if contract else (),  # kontra
            (
                ChainState(
                    KONTRA_STEP_NAMES[self.chain_level],
                    tuple(self._ordered(self.chain_prev)),
                    tuple(sorted(self.chain_declined)),
                )
                if self.in_chain
                else None
            ),
            CurrentTrick(self.leader, tuple(self.trick)) if self.start_hands else None,
            tuple(played),  # tricks
            (won[0], won[1], won[2]),
            self._seat_marriages(),
            self.result,
            (dealt[0], dealt[1], dealt[2]) if done else None,
            choices,
            self.points_tally(),
        )

    def view(self, seat: int | None) -> dict[str, Any]:
        """``seat_view(seat)`` as JSON: the wire form (docs/protocol.md §10, the table view's ``deal``).

        A server builds the views of every watcher after every action, and most of a view is the same
        for all of them: the spectator's view is built once per moment and each seat's is a copy with
        the seat's own parts put in (its hand, its log with its own discards, the talon it laid away,
        its choices). tests/engine/test_views.py holds it equal to ``seat_view(seat).to_json()``.
        The dicts inside are shared between viewers: read them, never change them.
        """
        moment = (len(self.history), self.phase)
        cached = self._view_json
        if cached is None or cached[0] != moment:
            cached = self._view_json = (moment, self.seat_view(None).to_json())
        view = dict(cached[1])
        if seat is None:
            return view
        view["seat"] = seat
        done = self.phase is Phase.DONE
        if not (done or self.hands_open()):  # else the spectator's view shows every hand already
            view["hands"] = {str(seat): card_codes(self.hands[seat])}
        view["log"] = entries_json(self._public_log(seat))
        talon = self.talon
        if talon and seat == self.talon_by and not done:  # once it is over, everybody sees it
            view["talon"] = card_codes(talon)
        choices = self.choices(seat)
        view["choices"] = choices.freeze().to_json() if choices.any() else None
        return view
