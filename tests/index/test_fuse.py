import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from recall import fuse_linear, fuse_rrf, minmax

scores = st.lists(st.floats(min_value=0, max_value=50, allow_nan=False), min_size=1, max_size=30)
cosines = st.floats(min_value=-1, max_value=1, allow_nan=False)


@st.composite
def legs(draw: st.DrawFn) -> tuple[list[float], list[float]]:
    kw = draw(scores)
    vec = draw(st.lists(cosines, min_size=len(kw), max_size=len(kw)))
    return kw, vec


def test_minmax_keeps_order_of_tiny_scores() -> None:
    # Found by Hypothesis in CI: an absolute tolerance called these two a tie.
    assert minmax([1.13e-75, 4.1e-69]).tolist() == [0.0, 1.0]


def test_minmax_guards() -> None:
    assert minmax([0.0, 0.0]).tolist() == [0.0, 0.0]  # no signal: no free 1.0
    assert minmax([3.0]).tolist() == [1.0]  # single hit
    assert minmax([2.0, 2.0]).tolist() == [1.0, 1.0]  # ties
    assert minmax([-0.2]).tolist() == [0.0]  # single hit without signal
    assert minmax([1.0, 3.0, 2.0]).tolist() == [0.0, 1.0, 0.5]
    assert minmax([]).size == 0


@given(legs(), st.floats(min_value=0, max_value=1))
def test_fused_in_unit_interval(pair: tuple[list[float], list[float]], alpha: float) -> None:
    kw, vec = pair
    for fused in (fuse_linear(kw, vec, alpha), fuse_rrf(kw, vec, alpha)):
        assert np.all(fused >= 0) and np.all(fused <= 1)


@given(legs())
def test_alpha_one_is_keyword_order(pair: tuple[list[float], list[float]]) -> None:
    kw, vec = pair
    fused = fuse_linear(kw, vec, 1.0)
    if max(kw) > 0:
        assert np.array_equal(
            np.argsort(-fused, kind="stable"), np.argsort(-minmax(kw), kind="stable")
        )
        # The fused winner is a keyword winner (up to the tie tolerance of minmax).
        assert kw[int(np.argmax(fused))] >= max(kw) * (1 - 1e-9)


@given(legs())
def test_alpha_zero_is_vector_order(pair: tuple[list[float], list[float]]) -> None:
    kw, vec = pair
    fused = fuse_linear(kw, vec, 0.0)
    if max(vec) > 0:
        order = np.argsort(-fused, kind="stable")
        # Vector scores along the fused order never increase.
        assert all(vec[a] >= vec[b] - 1e-12 for a, b in itertools.pairwise(order))


def test_leg_without_signal_contributes_nothing() -> None:
    fused = fuse_linear([0.0, 0.0, 0.0], [0.9, 0.5, 0.1], 0.5)
    assert fused.tolist() == [0.5, 0.25, 0.0]


def test_rrf_first_in_both_scores_one() -> None:
    assert fuse_rrf([3.0, 1.0], [0.9, 0.1], 0.5)[0] == 1.0
