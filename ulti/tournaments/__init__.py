"""Tournaments (pure, no I/O): schedules, seatings, standings, the director's log, the record."""
