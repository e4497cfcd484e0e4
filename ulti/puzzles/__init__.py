"""Puzzles: positions cut from deal records where one card (or one class of equal cards) is the only good
one from what the player knew, themed and rated.

Modules in reading order: ``judge`` (is one decision a puzzle move), ``line`` (the solver's line),
``themes`` (names and classifier), ``difficulty`` (a new puzzle's rating), ``cut`` (records to puzzles,
the ``ulti-puzzle/1`` object), ``check`` (verifying a puzzle again), ``ratings`` (attempts update the
player and the puzzle; picking a puzzle near a rating), ``shipped`` (the set shipped in ``data/``).
"""
