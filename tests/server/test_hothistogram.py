"""``HotHistogram`` exports what ``prometheus_client.Histogram`` does for the same observations."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prometheus_client import CollectorRegistry, Histogram, generate_latest

from ulti.server.hothistogram import HotHistogram
from ulti.server.metrics import BATCH_BUCKETS, LATENCY_BUCKETS

# values on the bounds themselves included: a bucket holds the values up to and including its bound
_values = st.one_of(
    st.sampled_from([*LATENCY_BUCKETS, *BATCH_BUCKETS]),
    st.floats(min_value=0, max_value=1000, allow_nan=False),
)


@given(st.lists(st.tuples(st.sampled_from(["act", "chat"]), _values), max_size=40))
def test_a_hot_histogram_exports_the_series_a_prometheus_histogram_does(observed: list[tuple[str, float]]) -> None:
    plain, hot = CollectorRegistry(), CollectorRegistry()
    reference = Histogram("x_seconds", "doc", ["kind"], buckets=LATENCY_BUCKETS, registry=plain)
    counted = HotHistogram("x_seconds", "doc", LATENCY_BUCKETS, hot, ["kind"])
    for kind in ("act", "chat"):
        reference.labels(kind)
        counted.labels(kind)
    for kind, value in observed:
        reference.labels(kind).observe(value)
        counted.labels(kind).observe(value)
    assert generate_latest(hot) == generate_latest(plain)


def test_a_hot_histogram_without_labels_counts_each_value_in_the_first_bucket_that_holds_it() -> None:
    registry = CollectorRegistry()
    counted = HotHistogram("y_events", "doc", (1, 2, 5), registry)
    for value in (1, 1, 2, 3, 9):
        counted.observe(value)
    sample = registry.get_sample_value
    assert [sample("y_events_bucket", {"le": le}) for le in ("1.0", "2.0", "5.0", "+Inf")] == [2, 3, 4, 5]
    assert sample("y_events_count") == 5 and sample("y_events_sum") == 16


def test_a_hot_histogram_refuses_buckets_out_of_order_and_wrong_labels() -> None:
    with pytest.raises(ValueError, match="ascend"):
        HotHistogram("z", "doc", (2, 1), CollectorRegistry())
    counted = HotHistogram("w", "doc", (1,), CollectorRegistry(), ["kind"])
    with pytest.raises(ValueError, match="labels"):
        counted.labels("a", "b")
