"""The set-up checks count cards and tiles in lists (keltis.core.setup.code_counts,
surplus_codes, missing_codes): the same answers as collections.Counter, which they replaced."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keltis.core.errors import SetupError
from keltis.core.setup import code_counts, missing_codes, surplus_codes

SIZE = 12
_PARTS = st.lists(st.lists(st.integers(0, SIZE - 1), max_size=8), max_size=4)


@given(_PARTS, _PARTS)
def test_the_counts_answer_as_counters_do(first: list[list[int]], second: list[list[int]]) -> None:
    a, b = code_counts(first, SIZE), code_counts(second, SIZE)
    counted_a = Counter(c for part in first for c in part)
    counted_b = Counter(c for part in second for c in part)
    assert a == [counted_a[c] for c in range(SIZE)]
    assert surplus_codes(a, b) == sorted(counted_a - counted_b)
    assert missing_codes(a, b) == sorted((counted_b - counted_a).elements())


def test_a_code_outside_the_range_is_refused() -> None:
    with pytest.raises(SetupError, match="no card or tile has code 12"):
        code_counts([[1, 12]], SIZE)
    with pytest.raises(SetupError, match="code -1"):
        code_counts([[-1]], SIZE)
