"""Previews: what each legal action of a view would do, as language-neutral data.

Each game's preview (``keltis.board.preview``, ``keltis.cards.preview``) describes one
action from the deciding seat's view. The parts that need the rules — the score afterwards,
whether the game ends, which decision follows, the events — come from the engine itself: the
action is applied to a state *sampled* from the view (``Game.sample_state``) and only what a
spectator would see of the result is read. A move's public effect never depends on the
hidden cards (a draw from the draw pile shows no card), so the preview is the same for every
sample: it tells the player nothing they could not work out, and never a hidden card.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from keltis.core.actions import Action
from keltis.core.events import event_json
from keltis.core.protocol import JSON, View
from keltis.games import get_game

#: The sample's seed: any seed gives the same previews; a fixed one keeps them cheap to test.
SAMPLE_SEED = 0


def simulate(view: View) -> Iterator[tuple[Action, View, View]]:
    """For each of ``view.legal``: spectator views of a sampled state before and after it."""
    if not view.legal:
        return
    game = get_game(view.game)
    state = game.sample_state(view, random.Random(SAMPLE_SEED))
    before = state.view(None)
    for action in view.legal:
        after_state = state.clone()
        after_state.apply(action)
        yield action, before, after_state.view(None)


def common_preview(view: View, action: Action, before: View, after: View) -> JSON:
    """The parts of a preview both games share: ``score`` (the deciding seat's score change,
    as if the game ended right after), ``ends_game``, ``next`` (the seat's next decision in
    the same turn — ``figure``, ``clover``, ``draw`` … — or ``null`` when the turn passes) and
    ``events`` (wire form, as a spectator would see them)."""
    me = view.current_player
    ender_before = getattr(before, "ender", -1)
    ender_after = getattr(after, "ender", -1)
    ends = after.over or ender_before < 0 <= ender_after
    same_turn = not after.over and after.current_player == me and after.turn == before.turn
    events = get_game(view.game).events(before, action, after)
    return {
        "score": after_score(after, me) - after_score(before, me),
        "ends_game": ends,
        "next": after.phase if same_turn else None,
        "events": [event_json(e) for e in events],
    }


def after_score(view: View, seat: int) -> int:
    """The seat's total as if the game ended now (every game's view carries ``scores``)."""
    scores: tuple[int, ...] = getattr(view, "scores")  # noqa: B009 - every game's view has it
    return scores[seat]
