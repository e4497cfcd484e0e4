"""Bots: each gets one seat's view (``Deal.seat_view(seat)``, a ``SeatView``) and returns an action for that seat.

In reading order: ``interface`` (what every bot is), ``random_bot`` and ``heuristic`` (the simple levels),
``sampling`` and ``solver`` (drawing worlds, solving them double-dummy), ``strong`` and ``expert`` (the
searching levels), ``levels`` (the levels tables offer, as data) and ``selfplay`` (bots playing a deal).
The package imports nothing on its own, so that reading the interface loads no bot.
"""
