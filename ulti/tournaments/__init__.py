"""Tournaments without a server (pure functions, no I/O; the server, store and bots are never imported).

``kirkman``, ``nearly``, ``small``, ``bases`` and ``schedule``: everyone meets everyone in the fewest
rounds (Kirkman and nearly Kirkman triple systems, a search for a few small numbers), drawn and rated
first rounds, teams of three; ``fours``: tables of four where the dealer sits out each deal;
``seating``: rounds seated by standings; ``arena``: pairing finishers of near
score; ``duplicate``: sport ulti rounds on the same seeded deals; ``settings`` and ``log``: the host's
choices and the director's log folded into the state; ``standings``: totals and named tie-breaks;
``rounds``: the next round by format and the seating check; ``record``: ``ulti-tournament/1`` and its
check; ``plan``: what ``ulti tournament schedule`` prints.
"""
