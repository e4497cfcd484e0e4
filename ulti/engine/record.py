"""Deal and match records, ``ulti-deal/1`` and ``ulti-match/1`` (docs/record.md), in and out.

A match record with ``"seats": 4`` is a table of four's (``fourmatch.py``): each deal also says which
position ``sits_out``, checked against the rotation; a record without ``seats`` is a table of three's.

Reading a record replays every action through the engine, so a record that loads is a legal deal.
Errors name the first offending action (``action 14: …``) and, in a match, the deal (``deal 3: …``).
"""

from __future__ import annotations

from typing import Any

from ulti.engine import actions as act
from ulti.engine.actions import Action, Kind
from ulti.engine.cards import SUIT_LETTERS, Card, card_str, iter_cards, parse_card, parse_suit
from ulti.engine.contracts import parse_bid, parse_part
from ulti.engine.deal import Deal, Phase
from ulti.engine.errors import IllegalAction, RecordError, UltiError
from ulti.engine.fourmatch import FOUR_MATCH_LENGTHS, FOUR_SEATS, FourMatch
from ulti.engine.match import MATCH_LENGTHS, Match
from ulti.engine.play import NO_TRUMP

DEAL_FORMAT = "ulti-deal/1"
MATCH_FORMAT = "ulti-match/1"
RULES = "ulti-rules/1"
_ACTION_KINDS = {k.value: k for k in Kind}


def _int_field(obj: dict[str, Any], key: str, allowed: tuple[int, ...]) -> int:
    value = obj.get(key)
    if type(value) is not int or value not in allowed:
        raise RecordError(f"{key} must be one of {', '.join(map(str, allowed))}, not {value!r}")
    return value


def _cards(value: object, what: str) -> list[Card]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list of card codes")
    return [parse_card(c) for c in value]


def parse_action(obj: object) -> Action:
    """One action of a record as an ``Action`` (shape and codes only; legality is the deal's).

    >>> print(parse_action({"seat": 0, "action": "bid", "bid": "m-s", "discard": ["7c", "jd"]}))
    seat 0 bid M-S discarding 7C JD
    >>> parse_action({"seat": 3, "action": "pass"})
    Traceback (most recent call last):
    ...
    ulti.engine.errors.RecordError: seat must be 0, 1 or 2, not 3
    """
    if not isinstance(obj, dict):
        raise RecordError("an action must be a JSON object")
    seat = obj.get("seat")
    if type(seat) is not int or seat not in (0, 1, 2):
        raise RecordError(f"seat must be 0, 1 or 2, not {seat!r}")
    name = obj.get("action")
    kind = _ACTION_KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise RecordError(f"unknown action kind {obj.get('action')!r}")
    if kind is Kind.BID:
        bid = parse_bid(obj.get("bid"))
        discard = None
        if "discard" in obj:
            cards = _cards(obj["discard"], "discard")
            if len(cards) != 2:
                raise RecordError(f"discard must list 2 cards, not {len(cards)}")
            discard = (cards[0], cards[1])
        return act.bid(seat, bid, discard)
    if kind is Kind.TRUMP:
        return act.trump(seat, parse_suit(obj.get("suit")))
    if kind is Kind.KONTRA:
        parts = obj.get("parts", [])
        if not isinstance(parts, list):
            raise RecordError("parts must be a list of part names")
        return act.kontra(seat, tuple(parse_part(p) for p in parts))
    if kind is Kind.PLAY:
        return act.play(seat, parse_card(obj.get("card")))
    return Action(seat, kind)


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as a record entry.

    >>> from ulti.engine.cards import parse_card
    >>> action_to_json(act.play(2, parse_card("TH")))
    {'seat': 2, 'action': 'play', 'card': 'TH'}
    >>> action_to_json(parse_action({"seat": 1, "action": "kontra", "parts": ["ULTI"]}))
    {'seat': 1, 'action': 'kontra', 'parts': ['ulti']}
    """
    out: dict[str, Any] = {"seat": action.seat, "action": action.kind.value}
    if action.bid is not None:
        out["bid"] = action.bid.code
    if action.discard is not None:
        out["discard"] = [card_str(c) for c in action.discard]
    if action.suit is not None:
        out["suit"] = SUIT_LETTERS[action.suit]
    if action.parts is not None:
        out["parts"] = [p.value for p in action.parts]
    if action.card is not None:
        out["card"] = card_str(action.card)
    return out


def deal_from_record(record: object) -> Deal:
    """Replay a deal record into a ``Deal``; raise ``UltiError`` naming the first problem.

    >>> record = {"format": "ulti-deal/1", "dealer": 2, "hands": [
    ...     ["AH", "KC", "QC", "7C", "AD", "JH", "JC", "JD", "AS", "JS", "TS", "QS"],
    ...     ["9S", "AC", "9D", "QD", "8S", "TD", "7H", "KD", "8H", "8C"],
    ...     ["9C", "7D", "TH", "KH", "8D", "7S", "QH", "KS", "9H", "TC"]],
    ...     "actions": [{"seat": 0, "action": "bid", "bid": "M-S", "discard": ["7C", "JD"]},
    ...                 {"seat": 1, "action": "pass"}]}
    >>> deal = deal_from_record(record)
    >>> deal.phase, deal.to_move, deal.high_bidder, deal.high_bid.code
    (<Phase.AUCTION: 'auction'>, 2, 0, 'M-S')
    """
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    fmt = record.get("format")
    if fmt != DEAL_FORMAT:
        raise RecordError(f"format must be {DEAL_FORMAT!r}, not {fmt!r}")
    rules = record.get("rules", RULES)
    if rules != RULES:
        raise RecordError(f"unknown rules {rules!r}: this scorer knows only {RULES!r}")
    dealer = _int_field(record, "dealer", (0, 1, 2))
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != 3:
        raise RecordError("hands must be a list of 3 hands")
    parsed = [_cards(h, f"hands[{i}]") for i, h in enumerate(hands)]
    for i, cards in enumerate(parsed):
        if len(set(cards)) != len(cards):
            raise RecordError(f"hands[{i}] lists a card twice")
    deal = Deal(parsed, dealer)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    for index, entry in enumerate(actions):
        try:
            deal.apply(parse_action(entry))
        except UltiError as exc:
            raise exc.within(f"action {index}") from None
    return deal


def deal_to_record(deal: Deal) -> dict[str, Any]:
    """A deal, finished or not, as an ``ulti-deal/1`` record.

    >>> import random
    >>> from ulti.engine.dealing import deal_hands
    >>> record = deal_to_record(Deal(deal_hands(random.Random(1), dealer=0), dealer=0))
    >>> record["format"], record["dealer"], [len(hand) for hand in record["hands"]], record["actions"]
    ('ulti-deal/1', 0, [10, 12, 10], [])
    >>> deal_to_record(deal_from_record(record)) == record
    True
    """
    return {
        "format": DEAL_FORMAT,
        "rules": RULES,
        "dealer": deal.dealer,
        "hands": [[card_str(c) for c in iter_cards(h)] for h in deal.dealt],
        "actions": [action_to_json(a) for a in deal.history],
    }


def deal_score(deal: Deal) -> dict[str, Any]:
    """The ``ulti score`` output for a deal: its result, or the state an incomplete one reached.

    >>> import random
    >>> from ulti.engine.dealing import deal_hands
    >>> deal_score(Deal(deal_hands(random.Random(1), dealer=0), dealer=0))
    {'complete': False, 'phase': 'auction', 'declarer': None, 'bid': None, 'trump': None, 'tricks': 0}
    """
    if deal.result is not None:
        return deal.result.to_json()
    contract = deal.contract
    in_auction = deal.phase is Phase.AUCTION
    return {
        "complete": False,
        "phase": deal.phase.value,
        "declarer": None if in_auction else deal.declarer,
        "bid": (deal.high_bid.code if deal.high_bid else None) if in_auction else (contract.code if contract else None),
        "trump": None if deal.phase is not Phase.PLAY or deal.trump == NO_TRUMP else SUIT_LETTERS[deal.trump],
        "tricks": len(deal.tricks),
    }


def match_from_record(record: object) -> Match:
    """Replay a match record; errors start with ``deal k:`` when a deal is at fault.

    >>> match = match_from_record({"format": "ulti-match/1", "deals_planned": 9, "first_dealer": 1})
    >>> match.deals_planned, match.dealer_of(0), match.deals
    (9, 1, [])
    """
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if record.get("format") != MATCH_FORMAT:
        raise RecordError(f"format must be {MATCH_FORMAT!r}, not {record.get('format')!r}")
    if "seats" in record and record["seats"] != 3:
        raise RecordError(f"seats must be 3 for this reader (a table of four's record: four_match_from_record), "
                          f"not {record['seats']!r}")
    planned = _int_field(record, "deals_planned", MATCH_LENGTHS)
    first = _int_field(record, "first_dealer", (0, 1, 2))
    match = Match(planned, first, _players(record, 3))
    _replay_deals(match, record)
    return match


def _players(record: dict[str, Any], seats: int) -> list[str] | None:
    players = record.get("players")
    if players is not None and (
        not isinstance(players, list) or len(players) != seats or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError(f"players must be a list of {seats} names")
    return players


def _replay_deals(match: Match | FourMatch, record: dict[str, Any]) -> None:
    """Append the record's deals to ``match``, each checked against the match's order and rotation (and,
    at a table of four, each deal's ``sits_out`` against the rotation's)."""
    deals = record.get("deals", [])
    if not isinstance(deals, list):
        raise RecordError("deals must be a list of deal records")
    for index, deal_record in enumerate(deals):
        try:
            if match.deals and not match.deals[-1].is_over:
                raise IllegalAction("follows_unfinished", deal=index - 1)
            if match.is_over:
                raise IllegalAction("decided_by", deal=index - 1)
            if isinstance(match, FourMatch):
                out = deal_record.get("sits_out") if isinstance(deal_record, dict) else None
                if out != match.sits_out(index):
                    raise IllegalAction("sits_out_rotation", sits_out=repr(out), position=match.sits_out(index))
            deal = deal_from_record(deal_record)
            want = match.dealer_of(index)
            if deal.dealer != want:
                raise IllegalAction("dealer_rotation", dealer=deal.dealer, want=want)
        except UltiError as exc:
            raise exc.within(f"deal {index}") from None
        match.deals.append(deal)


def four_match_from_record(record: object) -> FourMatch:
    """Replay a table of four's match record (``"seats": 4``); errors start with ``deal k:``.

    Each deal is an ``ulti-deal/1`` record of the three players (dealer: engine seat 2) with
    ``sits_out``, the position that deals and sits out, which must be the rotation's.

    >>> match = four_match_from_record({"format": "ulti-match/1", "seats": 4, "deals_planned": 12,
    ...                                 "first_dealer": 3, "deals": []})
    >>> match.deals_planned, match.sits_out(0), match.deals
    (12, 3, [])
    >>> four_match_from_record({"format": "ulti-match/1", "seats": 4, "deals_planned": 9, "first_dealer": 0})
    Traceback (most recent call last):
    ...
    ulti.engine.errors.RecordError: deals_planned must be one of 12, not 9
    """
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if record.get("format") != MATCH_FORMAT:
        raise RecordError(f"format must be {MATCH_FORMAT!r}, not {record.get('format')!r}")
    _int_field(record, "seats", (FOUR_SEATS,))
    planned = _int_field(record, "deals_planned", FOUR_MATCH_LENGTHS)
    first = _int_field(record, "first_dealer", tuple(range(FOUR_SEATS)))
    match = FourMatch(planned, first, _players(record, FOUR_SEATS))
    _replay_deals(match, record)
    return match


def match_to_record(match: Match) -> dict[str, Any]:
    """A match, finished or not, as an ``ulti-match/1`` record.

    >>> match_to_record(Match(6, first_dealer=2, players=["Anna", "Bence", "Csaba"]))
    {'format': 'ulti-match/1', 'deals_planned': 6, 'first_dealer': 2, 'players': ['Anna', 'Bence', 'Csaba'],
     'deals': []}
    """
    return {
        "format": MATCH_FORMAT,
        "deals_planned": match.deals_planned,
        "first_dealer": match.first_dealer,
        "players": list(match.players),
        "deals": [deal_to_record(d) for d in match.deals],
    }


def four_match_to_record(match: FourMatch) -> dict[str, Any]:
    """A table of four's match, finished or not, as an ``ulti-match/1`` record with ``"seats": 4``.

    >>> four_match_to_record(FourMatch(first_dealer=1, players=["Anna", "Bence", "Csaba", "Dora"]))
    {'format': 'ulti-match/1', 'seats': 4, 'deals_planned': 12, 'first_dealer': 1,
     'players': ['Anna', 'Bence', 'Csaba', 'Dora'], 'deals': []}
    """
    return {
        "format": MATCH_FORMAT,
        "seats": FOUR_SEATS,
        "deals_planned": match.deals_planned,
        "first_dealer": match.first_dealer,
        "players": list(match.players),
        "deals": [dict(deal_to_record(d), sits_out=match.sits_out(k)) for k, d in enumerate(match.deals)],
    }


def match_score(match: Match) -> dict[str, Any]:
    """The ``ulti score`` output for a match: totals, each deal's result and the winner.

    >>> match_score(Match(12))
    {'complete': False, 'deals_played': 0, 'totals': [0, 0, 0], 'winner': None, 'deals': []}
    """
    winner = match.winner()
    return {
        "complete": winner is not None,
        "deals_played": sum(1 for d in match.deals if d.is_over),
        "totals": match.totals(),
        "winner": winner,
        "deals": [deal_score(d) for d in match.deals],
    }


def four_match_score(match: FourMatch) -> dict[str, Any]:
    """The ``ulti score`` output for a table of four's match: totals and winner by position; each deal's
    result (its ``scores`` by engine seat) with ``sits_out`` and ``table_scores`` (by position, 0 for the
    one sitting out).

    >>> four_match_score(FourMatch())
    {'complete': False, 'seats': 4, 'deals_played': 0, 'totals': [0, 0, 0, 0], 'winner': None, 'deals': []}
    """
    winner = match.winner()
    deals = []
    for index, deal in enumerate(match.deals):
        scored = deal_score(deal)
        scored["sits_out"] = match.sits_out(index)
        table_scores = match.deal_scores(index)
        if table_scores is not None:
            scored["table_scores"] = table_scores
        deals.append(scored)
    return {
        "complete": winner is not None,
        "seats": FOUR_SEATS,
        "deals_played": sum(1 for d in match.deals if d.is_over),
        "totals": match.totals(),
        "winner": winner,
        "deals": deals,
    }


def score_record(record: object) -> dict[str, Any]:
    """Score a deal or match record (dispatching on ``format``), as ``ulti score`` prints it.

    The opener (seat 0) bids the Simple game, everyone passes, and it gives up: 2 to each defender.

    >>> GIVE_UP = {
    ...     "format": "ulti-deal/1", "rules": "ulti-rules/1", "dealer": 2,
    ...     "hands": [["AH", "KC", "QC", "7C", "AD", "JH", "JC", "JD", "AS", "JS", "TS", "QS"],
    ...               ["9S", "AC", "9D", "QD", "8S", "TD", "7H", "KD", "8H", "8C"],
    ...               ["9C", "7D", "TH", "KH", "8D", "7S", "QH", "KS", "9H", "TC"]],
    ...     "actions": [{"seat": 0, "action": "bid", "bid": "M-S", "discard": ["7C", "JD"]},
    ...                 {"seat": 1, "action": "pass"}, {"seat": 2, "action": "pass"},
    ...                 {"seat": 0, "action": "pass"}, {"seat": 0, "action": "give_up"}],
    ... }
    >>> score_record(GIVE_UP)
    {'complete': True, 'declarer': 0, 'bid': 'M-S', 'trump': None, 'given_up': True, 'parts': [],
     'silent': [], 'per_defender': -2, 'scores': [-4, 2, 2]}
    >>> match = {"format": "ulti-match/1", "deals_planned": 6, "first_dealer": 2, "deals": [GIVE_UP]}
    >>> {key: value for key, value in score_record(match).items() if key != "deals"}
    {'complete': False, 'deals_played': 1, 'totals': [-4, 2, 2], 'winner': None}
    >>> score_record({"format": "ulti-deal/1", "dealer": 0, "hands": []})
    Traceback (most recent call last):
    ...
    ulti.engine.errors.RecordError: hands must be a list of 3 hands
    """
    if isinstance(record, dict) and record.get("format") == MATCH_FORMAT:
        if record.get("seats", 3) != 3:
            return four_match_score(four_match_from_record(record))
        return match_score(match_from_record(record))
    if isinstance(record, dict) and record.get("format") not in (DEAL_FORMAT, None):
        raise RecordError(f"unknown format {record.get('format')!r} (expected {DEAL_FORMAT} or {MATCH_FORMAT})")
    return deal_score(deal_from_record(record))
