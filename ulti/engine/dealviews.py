"""What each seat may see of a deal (docs/rules.md §5.3, §6, §7): its ``SeatView`` and wire view.

``DealViews`` is the deal's view keeper: ``Deal`` holds one and asks it for ``seat_view`` and ``view``,
passing itself. Views are built after every action for every watcher, so the parts that only grow
(the log, the played tricks, the announced marriages) are kept here and extended, never rebuilt; the
deal's own state stays on the deal. ``hands_open`` and ``marriage_announcement`` need nothing kept and
are plain functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ulti.engine.actions import Kind
from ulti.engine.cards import CardSet, card_points
from ulti.engine.contracts import KONTRA_STEP_NAMES
from ulti.engine.kontra import ordered_parts
from ulti.engine.phase import Phase
from ulti.engine.play import NO_TRUMP, TRICKS_PER_DEAL
from ulti.engine.scoring import LAST_TRICK_BONUS, counting_marriages, marriages_of
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

if TYPE_CHECKING:  # the deal holds its view keeper: a type-only import, no circle at run time
    from ulti.engine.deal import Deal

_NO_MARRIAGES: SeatMarriages = (None, None, None)


def hands_open(deal: Deal) -> bool:
    """Whether all hands are face up: an open contract after trick 1 and its kontra chain."""
    contract = deal.contract
    return (
        contract is not None and contract.is_open and deal.phase is Phase.PLAY
        and bool(deal.tricks) and not deal.chain_level
    )


def marriage_announcement(deal: Deal, seat: int) -> Marriages | None:
    """The marriages ``seat`` announced with its card to trick 1 (trump contracts), else None."""
    if not deal.start_hands or deal.trump == NO_TRUMP or deal.contract is None:
        return None
    leader = deal.leader
    assert leader is not None  # the play has started (start_hands are set)
    played = bool(deal.tricks) or (seat - leader) % 3 < len(deal.trick)
    if not played:
        return None
    forty, twenties = marriages_of(deal.start_hands[seat], deal.trump)
    counting = counting_marriages(deal.contract, seat == deal.declarer, forty, twenties)
    return Marriages(forty, twenties, counting)


def chain_state(deal: Deal) -> ChainState | None:
    """The open kontra chain as the views show it, None while none is open (it opens in the play only,
    under a contract)."""
    contract = deal.contract
    if not deal.chain_level or contract is None:
        return None
    return ChainState(
        KONTRA_STEP_NAMES[deal.chain_level], tuple(ordered_parts(contract, deal.chain_prev)),
        tuple(sorted(deal.chain_declined)),
    )


class ViewChange:
    """What the deal's last action changed in its wire views, for an action whose change is known without
    building the views (``DealViews.change``): ``changed``, the keys that may have changed in every view
    alike, with their new values; ``appended``, lists that grew alike (the entries added); each viewer's
    new log entry (``entry``) and the keys that may have changed in a seat's view alone (``own``)."""

    __slots__ = ("_actor", "_deal", "_every_seat", "_open_hands", "_views", "appended", "changed")

    def __init__(
        self, changed: dict[str, Any], appended: dict[str, list[Any]], actor: int, deal: Deal, views: DealViews,
        every_seat: bool = False, open_hands: bool = False,
    ) -> None:
        """The change of the views of ``deal`` by ``actor``'s action (``views``: the deal's view keeper);
        ``every_seat``: any seat's choices may have changed, not only the actor's and the mover's;
        ``open_hands``: every hand is shown to everybody (``hands`` is in ``changed``, not a seat's own)."""
        self.changed = changed
        self.appended = appended
        self._actor = actor
        self._deal = deal
        self._views = views
        self._every_seat = every_seat
        self._open_hands = open_hands

    def entry(self, viewer: int | None) -> dict[str, Any]:
        """The entry ``viewer``'s log grew by (its own discards and the talon it took, shown to it alone)."""
        return self._views.public_entry(self._deal, len(self._deal.history) - 1, viewer)

    def own(self, seat: int | None) -> dict[str, Any]:
        """The keys of ``seat``'s view that may have changed for it alone, with their new values: the actor's
        hand, the talon a seat laid away, and the choices of the actor and of the seat on turn, or of every
        seat around trick 1 (nothing for a spectator)."""
        deal = self._deal
        own: dict[str, Any] = {}
        if seat is None:
            return own
        if seat == self._actor and not self._open_hands:
            own["hands"] = {str(seat): card_codes(deal.hands[seat])}
        if deal.phase is Phase.AUCTION:
            talon = deal.talon
            own["talon"] = card_codes(talon) if talon and seat == deal.talon_by else None
        if seat == deal.to_move or self._every_seat:
            own["choices"] = deal.choices_json(seat)
        elif seat == self._actor:
            own["choices"] = None  # it was the actor's turn; now it is another's, with nothing else to say
        return own


class DealViews:
    """What a deal's views share and extend as the deal goes; one per deal (``Deal.copy`` forks it)."""

    __slots__ = ("_log_cache", "_marriages", "_plain_log", "_played", "_tally", "_view_json")

    def __init__(
        self,
        marriages: SeatMarriages | None = None,
        tally: tuple[tuple[int, int, int], PointsTally | None] = ((-1, -1, -1), None),
    ) -> None:
        """Empty caches; ``marriages`` and ``tally`` carry over what a copied deal had found."""
        #: each viewer's log and the talon it has seen, per (viewer, deal over)
        self._log_cache: dict[tuple[int | None, bool], tuple[list[LogEntry], CardSet]] = {}
        self._plain_log: list[LogEntry] = []  # the log as a seat that did not act sees it
        self._played: list[PlayedTrick] = []  # the deal's tricks as views show them
        self._marriages = marriages  # once all three seats have announced
        self._tally = tally  # the last tally and the play counts it was made at
        #: the spectator's wire view and the moment it shows (actions applied, phase): see ``view``
        self._view_json: tuple[tuple[int, Phase], dict[str, Any]] | None = None

    def fork(self) -> DealViews:
        """The keeper of a copy of the deal: the lists the copy would extend are its own, the fixed
        parts (the announced marriages, the last tally) carry over."""
        return DealViews(self._marriages, self._tally)

    def _seat_marriages(self, deal: Deal) -> SeatMarriages:
        # Fixed once a seat has announced: computed until all three have, then kept.
        if self._marriages is not None:
            return self._marriages
        if not deal.start_hands or deal.trump == NO_TRUMP:
            return _NO_MARRIAGES
        a, b, c = (marriage_announcement(deal, s) for s in range(3))
        if a is not None and b is not None and c is not None:
            self._marriages = (a, b, c)
        return (a, b, c)

    def points_tally(self, deal: Deal) -> PointsTally | None:
        """The points each side has taken so far (trump contracts, from the first card played on)."""
        # Built for every viewer after every action, it changes only when the play starts and when a
        # card is played (a trick taken, a marriage announced with a card to trick 1): remembered per
        # count of cards played.
        key = (len(deal.start_hands), len(deal.tricks), len(deal.trick))
        made_at, tally = self._tally
        if made_at != key:
            tally = self._count_tally(deal)
            self._tally = (key, tally)
        return tally

    def _count_tally(self, deal: Deal) -> PointsTally | None:
        if not deal.start_hands or deal.trump == NO_TRUMP or deal.contract is None:
            return None
        declarer = deal.declarer
        taken = [0, 0]  # card points of the declarer's tricks, of the defenders' tricks
        for trick in deal.tricks:
            side = 0 if trick.winner == declarer else 1
            taken[side] += card_points((1 << trick.cards[0]) | (1 << trick.cards[1]) | (1 << trick.cards[2]))
        if len(deal.tricks) == TRICKS_PER_DEAL:
            taken[0 if deal.tricks[-1].winner == declarer else 1] += LAST_TRICK_BONUS
        marriages = [0, 0]
        for seat, announced in enumerate(self._seat_marriages(deal)):
            if announced is not None:
                marriages[0 if seat == declarer else 1] += announced.counting
        return PointsTally(taken[0], taken[1], marriages[0], marriages[1])

    def _public_log(self, deal: Deal, viewer: int | None) -> list[LogEntry]:
        # Views are built after every action for every watcher: extend a cached log, never rebuild it.
        # A spectator's entries change once, when the deal ends (discards become visible); a seat's never
        # (it always sees its own), so its log is extended past the end, not rebuilt.
        # The list is the cache itself: callers copy it.
        done = deal.phase is Phase.DONE
        key = (viewer, done and viewer is None)
        history = deal.history
        cached = self._log_cache.get(key)
        if cached is not None and len(cached[0]) == len(history):
            return cached[0]  # the usual case: every watcher's view asks at the same moment
        entries, talon = cached if cached is not None else ([], 0)
        plain = self._plain_entries(deal)
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

    def public_entry(self, deal: Deal, index: int, viewer: int | None) -> dict[str, Any]:
        """Action ``index`` of the history as ``viewer`` may see it (discards and taken cards only if own)."""
        action = deal.history[index]
        if action.kind is not Kind.TAKE and action.discard is None:
            # nothing in it is hidden from anybody: every viewer's log holds the one plain entry (asked for
            # each watcher after every action; the viewers' own logs catch up when a view asks for them)
            return self._plain_entries(deal)[index].to_json()
        return self._public_log(deal, viewer)[index].to_json()

    def _plain_entries(self, deal: Deal) -> list[LogEntry]:
        """Every action of the history as a log entry with nothing hidden shown (extended, never rebuilt)."""
        plain = self._plain_log
        history = deal.history
        if len(plain) < len(history):
            plain.extend(LogEntry.of(action, False, 0) for action in history[len(plain) :])
        return plain

    def seat_view(self, deal: Deal, seat: int | None) -> SeatView:
        """What ``seat`` may see now (``None``: a spectator, who sees no hidden card before the end)."""
        phase = deal.phase
        done = phase is Phase.DONE
        hands = deal.hands
        shown: Hands
        if done or hands_open(deal):
            shown = (hands[0], hands[1], hands[2])
        else:
            shown = (
                hands[0] if seat == 0 else None,
                hands[1] if seat == 1 else None,
                hands[2] if seat == 2 else None,
            )
        contract = deal.contract
        high_bid = deal.high_bid
        talon = deal.talon
        won = deal.won
        choices = None
        if seat is not None:
            ch = deal.choices(seat)
            if ch.any():
                choices = ch.freeze()
        dealt = deal.dealt
        played = self._played
        if len(played) < len(deal.tricks):
            played.extend(PlayedTrick.of(t) for t in deal.tricks[len(played) :])
        # positional, in field order: views are built per seat per event, and keywords cost here
        return SeatView(
            seat,
            deal.dealer,
            deal.opener,
            phase,
            -1 if deal.to_move is None else deal.to_move,  # the wire keeps -1 for nobody (protocol/views.md §10.3)
            shown,  # hands
            (hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count()),  # hand_sizes
            tuple(self._public_log(deal, seat)),  # log
            AuctionState(
                high_bid,
                deal.high_bidder if high_bid else None,
                deal.passes,
                deal.obliged if phase is Phase.AUCTION else False,
            ),
            talon if talon and (done or (seat is not None and seat == deal.talon_by)) else None,
            (
                ContractState(
                    contract,
                    deal.declarer,
                    None if deal.trump == NO_TRUMP or phase is Phase.TRUMP else deal.trump,
                )
                if contract and deal.declarer is not None  # the auction's end sets both
                else None
            ),
            tuple((p, deal.multiplier(p)) for p in ordered_parts(contract, deal.levels)) if contract else (),  # kontra
            chain_state(deal),
            # the play's start sets the leader (with start_hands), and it stays set
            CurrentTrick(deal.leader, tuple(deal.trick)) if deal.leader is not None else None,
            tuple(played),  # tricks
            (won[0], won[1], won[2]),
            self._seat_marriages(deal),
            deal.result,
            (dealt[0], dealt[1], dealt[2]) if done else None,
            choices,
            self.points_tally(deal),
        )

    def change(self, deal: Deal) -> ViewChange | None:
        """What the last action changed in every viewer's wire view, if that is known from the action: a bid,
        pass or take that leaves the auction going, or a card or kontra step that leaves the play going. None
        for any other action (one that begins or ends a phase among them).

        In the auction: ``to_move``, ``hand_sizes`` and ``auction`` alike, and a seat's own hand, talon and
        choices. In the play: ``to_move``, ``hand_sizes``, ``trick`` and, once a trick is taken, ``tricks``
        (appended), ``won`` and ``tally`` alike, and the player's hand and the choices of the player and of
        the seat on turn; around trick 1 (its cards, the kontra steps, the lead to trick 2) the marriages,
        the tally, the kontra and its chain too, and every seat's choices; with the hands open (an open contract
        after trick 1) ``hands`` alike. Every view's ``log`` grew by one entry.
        """
        history = deal.history
        if not history:
            return None
        action = history[-1]
        kind = action.kind
        hands = deal.hands
        phase = deal.phase
        changed: dict[str, Any]
        appended: dict[str, list[Any]] = {}
        every_seat = False  # whether any seat's choices may have changed, not only the actor's and the mover's
        if phase is Phase.AUCTION:
            if kind is not Kind.BID and kind is not Kind.PASS and kind is not Kind.TAKE:
                return None
            high_bid = deal.high_bid
            auction = AuctionState(high_bid, deal.high_bidder if high_bid else None, deal.passes, deal.obliged)
            changed = {"auction": auction.to_json()}
        elif phase is Phase.PLAY and (kind is Kind.PLAY or kind is Kind.KONTRA):
            trick = deal.trick
            leader = deal.leader
            assert leader is not None  # the play has started
            changed = {"trick": CurrentTrick(leader, tuple(trick)).to_json()}
            taken = kind is Kind.PLAY and not trick  # the card took a trick: the next one is empty
            before = len(deal.tricks) - taken  # tricks taken before the action
            steady = (
                kind is Kind.PLAY and not deal.chain_level
                and (before >= 2 or (before == 1 and (taken or len(trick) >= 2)))
            )
            if taken:
                played = self._played
                played.extend(PlayedTrick.of(t) for t in deal.tricks[len(played) :])
                appended["tricks"] = [played[-1].to_json()]
                won = deal.won
                changed["won"] = [won[0], won[1], won[2]]
            if taken or not steady:
                tally = self.points_tally(deal)
                changed["tally"] = None if tally is None else tally.to_json()
            if not steady:  # around trick 1: marriages announced, kontra said, the chain opened or closed
                every_seat = True
                contract = deal.contract
                assert contract is not None  # the play follows the auction
                marriages = self._seat_marriages(deal)
                changed["marriages"] = {str(s): m.to_json() for s, m in enumerate(marriages) if m is not None}
                changed["kontra"] = {p.value: deal.multiplier(p) for p in ordered_parts(contract, deal.levels)}
                chain = chain_state(deal)
                changed["chain"] = None if chain is None else chain.to_json()
        else:
            return None
        assert deal.to_move is not None  # the auction or the play goes on
        changed["to_move"] = deal.to_move
        changed["hand_sizes"] = [hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count()]
        open_hands = hands_open(deal)
        if open_hands:  # every view shows every hand (from the moment they are laid open)
            changed["hands"] = {str(s): card_codes(h) for s, h in enumerate(hands)}
        return ViewChange(changed, appended, action.seat, deal, self, every_seat, open_hands)

    def view(self, deal: Deal, seat: int | None) -> dict[str, Any]:
        """``seat_view(seat)`` as JSON: the wire form (docs/protocol/views.md §10, the table view's ``deal``).

        A server builds the views of every watcher after every action, and most of a view is the same
        for all of them: the spectator's view is built once per moment and each seat's is a copy with
        the seat's own parts put in (its hand, its log with its own discards, the talon it laid away,
        its choices). tests/engine/test_views.py holds it equal to ``seat_view(seat).to_json()``.
        The dicts inside are shared between viewers: read them, never change them.
        """
        moment = (len(deal.history), deal.phase)
        cached = self._view_json
        if cached is None or cached[0] != moment:
            cached = self._view_json = (moment, self.seat_view(deal, None).to_json())
        view = dict(cached[1])
        if seat is None:
            return view
        view["seat"] = seat
        done = deal.phase is Phase.DONE
        if not (done or hands_open(deal)):  # else the spectator's view shows every hand already
            view["hands"] = {str(seat): card_codes(deal.hands[seat])}
        view["log"] = entries_json(self._public_log(deal, seat))
        talon = deal.talon
        if talon and seat == deal.talon_by and not done:  # once it is over, everybody sees it
            view["talon"] = card_codes(talon)
        view["choices"] = deal.choices_json(seat)
        return view
