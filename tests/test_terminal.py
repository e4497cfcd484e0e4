"""`ulti play`: a bot match printed deal by deal with the running score sheet."""

from __future__ import annotations

import re
import subprocess
import sys


def test_ulti_play_prints_every_deal_and_the_winner() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ulti.cli", "play", "--deals", "6", "--seed", "3"], capture_output=True, text=True,
        check=True,
    )
    deals = re.findall(r"^Deal (\d+): seat \d declares ", proc.stdout, re.M)
    sheets = re.findall(r"score sheet: Bot A ([+-]\d+)  Bot B ([+-]\d+)  Bot C ([+-]\d+)", proc.stdout)
    assert len(deals) >= 6 and deals[:6] == ["1", "2", "3", "4", "5", "6"]
    assert len(sheets) == len(deals)
    for row in sheets:
        assert sum(int(x) for x in row) == 0
    final = [int(x) for x in sheets[-1]]
    winner = re.search(r"^Winner: Bot ([ABC]) with ([+-]\d+) after (\d+) deals", proc.stdout, re.M)
    assert winner is not None
    assert int(winner.group(2)) == max(final) and final.count(max(final)) == 1
    assert int(winner.group(3)) == len(deals)
