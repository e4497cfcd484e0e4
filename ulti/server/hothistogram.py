"""A Prometheus histogram for the per-action path, counted in plain Python and read at scrape time.

``prometheus_client``'s ``Histogram.observe`` takes a lock for its sum and another for its bucket, found
by a loop over the bounds in Python: a few microseconds, paid after every command and every group commit.
Everything that observes these histograms runs on the event loop's thread, so ``HotHistogram`` keeps a
plain count per bucket (the bucket found by ``bisect``, in C) and a sum, and hands them to the registry
as a ``HistogramMetricFamily`` when it is collected (a scrape, or a test reading a sample). The series are
the ones a ``Histogram`` of the same name, labels and buckets exports: ``_bucket`` (cumulative, ``le``),
``_count`` and ``_sum``.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterator, Sequence

from prometheus_client import CollectorRegistry
from prometheus_client.core import HistogramMetricFamily
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString


class HistogramCounts:
    """One series of a ``HotHistogram``: how many observations fell in each bucket, and their sum."""

    __slots__ = ("_bounds", "counts", "total")

    def __init__(self, bounds: tuple[float, ...]) -> None:
        """Empty counts for the buckets of ``bounds`` (ascending, ending with +Inf)."""
        self._bounds = bounds
        #: per bucket, the observations at most its bound and above the bound before (not cumulative)
        self.counts = [0] * len(bounds)
        self.total = 0.0

    def observe(self, value: float) -> None:
        """Count ``value``. On the event loop's thread only (nothing here is locked)."""
        # the first bound at least ``value``: Prometheus buckets hold the values up to their bound (``le``)
        self.counts[bisect_left(self._bounds, value)] += 1
        self.total += value


class HotHistogram(Collector):
    """A histogram whose series count in plain Python (``HistogramCounts``), exported when collected."""

    def __init__(
        self,
        name: str,
        documentation: str,
        buckets: Sequence[float],
        registry: CollectorRegistry,
        labelnames: Sequence[str] = (),
    ) -> None:
        """Like ``prometheus_client.Histogram(name, documentation, labelnames, buckets=..., registry=...)``."""
        bounds = tuple(float(b) for b in buckets)
        if list(bounds) != sorted(set(bounds)):
            raise ValueError(f"{name}: buckets must ascend, each once: {buckets!r}")
        self._bounds = bounds if bounds and bounds[-1] == math.inf else (*bounds, math.inf)
        self._name = name
        self._documentation = documentation
        self._labelnames = tuple(labelnames)
        self._series: dict[tuple[str, ...], HistogramCounts] = {}
        if not self._labelnames:
            self._series[()] = HistogramCounts(self._bounds)
        registry.register(self)

    def labels(self, *values: str) -> HistogramCounts:
        """The series of these label values (made, empty, on first use)."""
        if len(values) != len(self._labelnames):
            raise ValueError(f"{self._name}: labels {self._labelnames!r}, got {values!r}")
        series = self._series.get(values)
        if series is None:
            series = self._series[values] = HistogramCounts(self._bounds)
        return series

    def observe(self, value: float) -> None:
        """Count ``value`` in the histogram without labels."""
        self._series[()].observe(value)

    def describe(self) -> list[HistogramMetricFamily]:
        """The metric's name and type, without its samples (the registry checks names with it)."""
        return [HistogramMetricFamily(self._name, self._documentation, labels=self._labelnames)]

    def collect(self) -> Iterator[HistogramMetricFamily]:
        """The histogram's series as Prometheus reads them (cumulative buckets, count and sum)."""
        family = HistogramMetricFamily(self._name, self._documentation, labels=self._labelnames)
        for values, series in self._series.items():
            cumulative = 0
            buckets: list[tuple[str, float]] = []
            for bound, count in zip(self._bounds, series.counts, strict=True):
                cumulative += count
                buckets.append((floatToGoString(bound), cumulative))  # type: ignore[no-untyped-call]
            family.add_metric(list(values), buckets, series.total)
        yield family
