"""One exception family for the engine.

``RecordError`` means the input could not be parsed (bad JSON shape, unknown card or bid code);
``IllegalAction`` means the input was understood but the rules forbid it now. Both carry a message
written for a player, naming the rule or the field.
"""


class UltiError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(UltiError):
    """An action the rules do not allow in the current state. The state is left unchanged."""


class RecordError(UltiError):
    """Input that cannot be understood: a malformed record, card code, bid code or field."""
