"""A finished deal's replay frames are the engine's own spectator views, action by action.

The Past matches page draws these frames and decides no rule, so each frame's ``view`` must be exactly
what ``Deal.view(None)`` gives after replaying the record action by action; the frame adds only what a
spectator's view hides until the end (every hand and the talon), and the kontra step of each kontra.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from ulti.bots.random_bot import random_legal_action
from ulti.engine.cards import FULL_DECK, mask_of, parse_card
from ulti.engine.deal import Deal
from ulti.engine.dealing import deal_hands
from ulti.engine.record import deal_from_record, deal_to_record, parse_action
from ulti.engine.replay import replay_frames, replay_record


def example_deals(examples_dir: Path) -> list[tuple[str, dict[str, Any]]]:
    """Every finished deal record among the examples (the match's deals included)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for path in sorted(examples_dir.glob("*.json")):
        if path.stem.startswith("refused") or path.stem.endswith(".result") or path.stem == "perft":
            continue
        record = json.loads(path.read_text())
        if record.get("format") == "ulti-match/1":
            out += [(f"{path.stem}[{k}]", d) for k, d in enumerate(record["deals"])]
        elif record.get("format") == "ulti-deal/1":
            out.append((path.stem, record))  # a tournament or event record holds no deal of its own here
    return out


def views_by_hand(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The spectator's view of the record's deal as dealt, then after each action, through ``Deal``."""
    deal = Deal([[parse_card(c) for c in hand] for hand in record["hands"]], record["dealer"])
    views = [deal.view(None)]
    for entry in record["actions"]:
        deal.apply(parse_action(entry))
        views.append(deal.view(None))
    return views


def check_frames(record: dict[str, Any], frames: list[dict[str, Any]]) -> None:
    """``frames`` are the engine's views of ``record`` plus the open hands, talon and kontra steps."""
    actions = record["actions"]
    assert [f["index"] for f in frames] == list(range(len(actions) + 1))
    assert [f["view"] for f in frames] == views_by_hand(record)
    assert frames[0]["action"] is None
    assert frames[0]["hands"] == [sorted(h, key=parse_card) for h in record["hands"]]
    assert frames[-1]["view"]["result"] is not None
    for before, frame, entry in zip(frames[:-1], frames[1:], actions, strict=True):
        shown = dict(frame["action"])
        taken = shown.pop("cards", None)
        step = shown.pop("step", None)
        assert shown == entry  # the record's action, discards included
        if entry["action"] == "take":
            assert taken == before["talon"] and frame["talon"] == []
        if entry["action"] == "kontra":
            chain = before["view"]["chain"]
            assert step == (chain["step"] if chain else "kontra")
        else:
            assert step is None
        # every card is somewhere: in a hand, the talon, the trick or a finished trick
        view = frame["view"]
        cards = [c for h in frame["hands"] for c in h] + frame["talon"]
        if view["trick"] is not None:
            cards += view["trick"]["cards"] + [c for t in view["tricks"] for c in t["cards"]]
        assert len(cards) == 32 and mask_of(parse_card(c) for c in cards) == FULL_DECK
        assert [len(h) for h in frame["hands"]] == view["hand_sizes"]


def test_example_replays_are_the_engine_views(examples_dir: Path) -> None:
    deals = example_deals(examples_dir)
    assert len(deals) >= 20
    for name, record in deals:
        frames = replay_record(record)
        assert len(frames) == len(record["actions"]) + 1, name
        check_frames(record, frames)
        # the same frames from the finished deal itself, and they are plain JSON
        assert replay_frames(deal_from_record(record)) == frames, name
        assert json.loads(json.dumps(frames)) == frames, name


def test_kontra_steps_of_the_chain_example(examples_dir: Path) -> None:
    frames = replay_record(json.loads((examples_dir / "02-ulti-kontra-chain.json").read_text()))
    kontras = [f["action"] for f in frames if f["action"] and f["action"]["action"] == "kontra"]
    assert [(k["seat"], k["parts"], k["step"]) for k in kontras] == [
        (0, ["ulti"], "kontra"), (1, ["ulti"], "rekontra"), (0, [], "szubkontra"), (2, [], "szubkontra"),
    ]
    last = frames[-1]["view"]
    assert last["kontra"] == {"ulti": 4} and last["contract"]["trump"] == "H"
    # the trick winners are the engine's, frame by frame
    tricks = deal_from_record(json.loads((examples_dir / "02-ulti-kontra-chain.json").read_text())).tricks
    assert [t["winner"] for t in last["tricks"]] == [t.winner for t in tricks]


@pytest.mark.parametrize("seed", range(40))
def test_random_deal_replays_are_the_engine_views(seed: int) -> None:
    rng = random.Random(seed)
    dealer = rng.randrange(3)
    deal = Deal(deal_hands(rng, dealer), dealer)
    while not deal.is_over:
        deal.apply(random_legal_action(deal, rng, kontra_rate=0.6))
    check_frames(deal_to_record(deal), replay_frames(deal))


def test_an_unfinished_deal_has_no_replay(examples_dir: Path) -> None:
    record = json.loads((examples_dir / "02-ulti-kontra-chain.json").read_text())
    record["actions"] = record["actions"][:-1]
    with pytest.raises(ValueError, match="finished"):
        replay_record(record)
