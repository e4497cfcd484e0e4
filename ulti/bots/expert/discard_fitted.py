"""The discard model's coefficients (``ulti.bots.expert.discard_model``), written by its fit:

    python -m ulti.lab.discard_fit --records /tmp/s26/played_game.jsonl --write

Per family: the coefficients in ``FEATURE_NAMES`` order (a pair's score is the sum over its two cards
plus the pair's own features; no intercept); the number of discards each was fitted on in ``DISCARDS``.
Do not edit by hand: run the fit again."""

COEFFICIENTS: dict[str, tuple[float, ...]] = {
    "betli": (
        0.0,
        5.772178,
        0.144808,
        -0.682427,
        0.378302,
        0.004686,
        0.006499,
        1.590974,
        1.011677,
    ),
    "trumps": (
        -2.222095,
        -3.835077,
        -1.773626,
        -0.950072,
        -0.565736,
        -1.031192,
        0.0,
        2.341605,
        0.75425,
    ),
}
DISCARDS: dict[str, int] = {
    "betli": 334,
    "trumps": 2408,
}
