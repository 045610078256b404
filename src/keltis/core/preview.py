"""Previews: what each legal action of a view would do, as language-neutral data.

Each game's preview (``keltis.board.preview``, ``keltis.cards.preview``) describes one
action from the deciding seat's view. The parts that need the rules — the score afterwards,
whether the game ends, which decision follows, the events — come from the engine itself: the
action is applied to a state *sampled* from the view (the game's sampler) and only what a
spectator would see of the result is read. A move's public effect never depends on the
hidden cards (a draw from the draw pile shows no card), so the preview is the same for every
sample: it tells the player nothing they could not work out, and never a hidden card.

The game's preview module hands in what is the game's own (its sampler, its events, its
details); nothing here knows which games there are.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TypeVar

from keltis.core.actions import Action
from keltis.core.events import Event, event_json
from keltis.core.gamestate import GameState
from keltis.core.protocol import JSON, View

#: The sample's seed: any seed gives the same previews; a fixed one keeps them cheap to test.
SAMPLE_SEED = 0

#: One game's view type.
V = TypeVar("V", bound=View)


def game_previews(
    view: V,
    sample_state: Callable[[V, random.Random], GameState],
    events: Callable[[V, Action, V], list[Event]],
    details: Callable[[V, Action, V], JSON],
) -> list[JSON]:
    """A preview per action of ``view.legal`` (empty unless the viewer is to decide): the
    parts every game's preview has (:func:`common_preview`), then what ``details`` adds for
    the game from the view, the action and the spectator's view after it. ``sample_state``
    and ``events`` are the game's sampler and events (``Game.sample_state``, ``Game.events``)."""
    out = []
    for action, before, after in simulate(view, sample_state):
        preview = common_preview(view, action, before, after, events)
        preview.update(details(view, action, after))
        out.append(preview)
    return out


def simulate(
    view: V, sample_state: Callable[[V, random.Random], GameState]
) -> Iterator[tuple[Action, V, V]]:
    """For each of ``view.legal``: spectator views of a state sampled from ``view`` (by the
    game's ``sample_state``) before and after it."""
    if not view.legal:
        return
    state = sample_state(view, random.Random(SAMPLE_SEED))
    before = _same_game(view, state.view(None))
    for action in view.legal:
        after_state = state.clone()
        after_state.apply(action)
        yield action, before, _same_game(view, after_state.view(None))


def _same_game(view: V, other: View) -> V:
    """``other``, a view of a state sampled from ``view``: of the same game's view type."""
    if not isinstance(other, type(view)):
        raise TypeError(
            f"a state sampled from a {type(view).__name__} gave a {type(other).__name__}"
        )
    return other


def common_preview(
    view: V, action: Action, before: V, after: V, events: Callable[[V, Action, V], list[Event]]
) -> JSON:
    """The parts of a preview both games share: ``score`` (the deciding seat's score change,
    as if the game ended right after), ``ends_game``, ``next`` (the seat's next decision in
    the same turn — ``figure``, ``clover``, ``draw`` … — or ``null`` when the turn passes) and
    ``events`` (wire form, as a spectator would see them, from the game's ``events``)."""
    me = view.current_player
    ender_before = getattr(before, "ender", -1)
    ender_after = getattr(after, "ender", -1)
    ends = after.over or ender_before < 0 <= ender_after
    same_turn = not after.over and after.current_player == me and after.turn == before.turn
    return {
        "score": after.scores[me] - before.scores[me],
        "ends_game": ends,
        "next": after.phase if same_turn else None,
        "events": [event_json(e) for e in events(before, action, after)],
    }
