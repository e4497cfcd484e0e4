"""The theme and phase names of the package's table are the page's (web/js/i18n en.js and hu.js)."""

from __future__ import annotations

import re

from tests.conftest import ROOT
from ulti.puzzles.themes import PHASES, THEMES


def _dictionary(lang: str) -> dict[str, str]:
    text = (ROOT / "web" / "js" / "i18n" / f"{lang}.js").read_text(encoding="utf-8")
    return dict(re.findall(r'^\s*"(puzzle\.[a-z_.]+)":\s*"([^"]*)"', text, re.M))


def test_theme_and_phase_names_match_the_page_in_both_languages() -> None:
    for index, lang in enumerate(("en", "hu")):
        words = _dictionary(lang)
        for name, names in THEMES.items():
            assert words[f"puzzle.theme.{name}"] == names[index]
        for name, names in PHASES.items():
            assert words[f"puzzle.phase.{name}"] == names[index]
