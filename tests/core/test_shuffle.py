"""The set-up's own shuffle and unseen-card count, against the standard library's."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from keltis.board.state import COPIES as BOARD_COPIES
from keltis.board.state import FULL_DECK as BOARD_DECK
from keltis.cards.state import FULL_DECK as CARD_DECK
from keltis.cards.tables import COPIES as CARD_COPIES
from keltis.core.setup import shuffle, unseen_cards


@given(st.integers(0, 2**64), st.lists(st.integers(0, 120), max_size=130))
def test_shuffle_is_random_shuffle(seed: int, items: list[int]) -> None:
    """The same permutation from the same seed, and the generator left in the same place."""
    ours, theirs = list(items), list(items)
    mine, reference = random.Random(seed), random.Random(seed)
    shuffle(ours, mine)
    reference.shuffle(theirs)
    assert ours == theirs
    assert mine.random() == reference.random()


def test_shuffle_deals_the_full_decks_as_random_shuffle() -> None:
    for deck in (BOARD_DECK, CARD_DECK):
        for seed in range(50):
            ours, theirs = list(deck), list(deck)
            shuffle(ours, random.Random(seed))
            random.Random(seed).shuffle(theirs)
            assert ours == theirs


@given(st.data())
def test_unseen_cards_is_the_counter_difference(data: st.DataObject) -> None:
    deck, copies = data.draw(
        st.sampled_from([(BOARD_DECK, BOARD_COPIES), (CARD_DECK, CARD_COPIES)])
    )
    parts = data.draw(st.lists(st.lists(st.sampled_from(deck), max_size=12), max_size=8))
    seen: Counter[int] = Counter()
    for part in parts:
        seen.update(part)
    assert unseen_cards(copies, parts) == list((Counter(deck) - seen).elements())
