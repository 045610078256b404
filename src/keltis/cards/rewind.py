"""Undoing a card game's recent moves on a sampled state, for a search that asks how likely
each hidden hand made the moves the other players were seen to make.

A state sampled from a player's view (:func:`keltis.cards.sample.sample_card_state`) deals
the hidden cards at random. :func:`rewind` walks the view's recent moves backwards on such
a state and undoes each one — a lay, a discard, a claim or a draw — so that, just before each
decision of another player, the state holds that player's hand *as it would have been* with
the sampled cards. A search can then ask its model of that player (the heuristic) how likely
the decision was, and prefer the samples that explain what was seen.

What cannot be known is chosen: a card drawn from the draw pile is one of the player's
hand cards not known to be taken from a discard pile, picked with the generator given. The
walk goes back through the whole list, the searching player's own moves included (its hand
is the true one). A card drawn from a discard pile is the one an earlier move of the list
discarded there, or else the last one the player is known to have taken from that pile. The
walk stops early at a move it cannot undo on this state: a draw whose turn began before the
list (which piles its play blocked is not known), or a card drawn from a pile that was not
seen discarded there when the player has laid a card of that pile since (which one it drew
is then not known).
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Iterator, Sequence

from keltis.cards.state import DRAW, PILE_OF, PLAY, CardState, derive_rows
from keltis.core.actions import DECK, Action, ActionKind
from keltis.core.card_codes import CARD_COLOUR, POINT_BASE


def rewind(
    state: CardState, moves: Sequence[tuple[int, Action]], viewer: int, rng: random.Random
) -> Iterator[Action]:
    """Undo ``moves`` (the view's recent moves, oldest first, as (player, action)) on
    ``state``, newest first, changing ``state`` in place.

    Before yielding an action of a player other than ``viewer``, the state is as it was just
    before that decision (the player to move, phase, draws due and blocked piles included),
    so a policy can score it. The viewer's own moves are undone without being yielded.
    Nothing is undone in the final phase or after the game's end.
    """
    if state.over or state.ender >= 0 or state.phase not in (PLAY, DRAW):
        return
    returned: set[tuple[int, int]] = set()  # (player, pile) of cards laid back in a hand
    for i in range(len(moves) - 1, -1, -1):
        p, action = moves[i]
        if not _undo(state, p, action, moves, i, returned, rng):
            return
        if p != viewer:
            yield action


def _undo(
    state: CardState,
    p: int,
    action: Action,
    moves: Sequence[tuple[int, Action]],
    index: int,
    returned: set[tuple[int, int]],
    rng: random.Random,
) -> bool:
    """Undo one move of ``p``; ``False`` (and nothing changed) if it cannot be undone.
    ``returned`` collects the (player, pile) of every card put back in a hand: a later draw
    from that pile by that player may have taken any of them, so it cannot be undone."""
    kind = action.kind
    if kind is ActionKind.DRAW:
        return _undo_draw(state, p, action, moves, index, returned, rng)
    if kind is ActionKind.DISCARD or kind is ActionKind.CLAIM:
        undone = _undo_discards(state, p, action, returned)
    elif kind is ActionKind.LAY:
        undone = _undo_lay(state, p, action, returned)
    else:
        undone = False
    if undone:  # back to the start of p's turn
        state.current_player = p
        state.phase = PLAY
        state.draws_left = 0
        state.blocked = 0
    return undone


def _undo_draw(
    state: CardState,
    p: int,
    action: Action,
    moves: Sequence[tuple[int, Action]],
    index: int,
    returned: set[tuple[int, int]],
    rng: random.Random,
) -> bool:
    """Put a drawn card back: an unknown card of the hand onto the deck, or the card seen
    discarded (or last taken) back onto its pile."""
    hand = state.hands[p]
    ends_turn = not (state.phase == DRAW and state.current_player == p)
    blocked = _blocked_by(p, moves, index) if ends_turn else state.blocked
    if blocked is None:
        return False
    source = action.target
    known = state.known[p]
    if source == DECK:
        hidden = [c for c in hand if c not in known]
        if not hidden:
            return False
        card = hidden[int(rng.random() * len(hidden))]
        state.deck.append(card)
    else:
        card = _discarded_onto(source, moves, index)
        if card < 0:  # not seen discarded: the last one taken from that pile, if sure
            if (p, source) in returned:
                return False
            for c in reversed(known):
                if PILE_OF[c] == source:
                    card = c
                    break
        if card < 0 or card not in hand:
            return False
        if card in known:
            known.remove(card)
        state.piles[source].append(card)
        state.filled |= 1 << source
    hand.remove(card)
    if ends_turn:
        state.turn -= 1
        state.current_player = p
        state.phase = DRAW
        state.draws_left = 1
        state.blocked = blocked
    else:
        state.draws_left += 1  # the first of a claim's two draws
    return True


def _undo_discards(
    state: CardState, p: int, action: Action, returned: set[tuple[int, int]]
) -> bool:
    """Take a discard (or a wish stone claim's two cards) back from the piles into the hand."""
    kind = action.kind
    hand = state.hands[p]
    cards = [action.card] if kind is ActionKind.DISCARD else [action.card2, action.card]
    for card in cards:
        pile = state.piles[PILE_OF[card]]
        if not pile or pile[-1] != card:
            return False
    for card in cards:
        pile = state.piles[PILE_OF[card]]
        pile.pop()
        if not pile:
            state.filled &= ~(1 << PILE_OF[card])
        insort(hand, card)
        returned.add((p, PILE_OF[card]))
    if kind is ActionKind.CLAIM:
        value = state.wish_stones[p].pop()
        state.wish_mask |= 1 << value
    return True


def _undo_lay(state: CardState, p: int, action: Action, returned: set[tuple[int, int]]) -> bool:
    """Take a laid card back from its row into the hand."""
    card = action.card
    if action.target >= 0:
        row = state.rows[p][action.target]
    elif card >= POINT_BASE:
        row = state.point_rows[p]
    else:
        row = state.rows[p][CARD_COLOUR[card]]
    if not row or row[-1] != card:
        return False
    row.pop()
    insort(state.hands[p], card)
    returned.add((p, PILE_OF[card]))
    if row is not state.point_rows[p]:  # a colour row: its ends and masks change
        derive_rows(state)
        state._rows_view = None
    return True


def _discarded_onto(pile: int, moves: Sequence[tuple[int, Action]], index: int) -> int:
    """The card on top of ``pile`` before ``moves[index]`` (a draw from it), if an earlier
    move in ``moves`` put it there; -1 if not known from ``moves``."""
    for i in range(index - 1, -1, -1):
        action = moves[i][1]
        kind = action.kind
        if kind is ActionKind.DRAW:
            if action.target == pile:
                return -1
        elif kind is ActionKind.DISCARD:
            if PILE_OF[action.card] == pile:
                return action.card
        elif kind is ActionKind.CLAIM:
            if PILE_OF[action.card2] == pile:
                return action.card2
            if PILE_OF[action.card] == pile:
                return action.card
    return -1


def _blocked_by(p: int, moves: Sequence[tuple[int, Action]], index: int) -> int | None:
    """The piles that ``p``'s play before ``moves[index]`` (a draw by ``p``) gave a card to
    (C-12); ``None`` if that play is not in ``moves``."""
    for i in range(index - 1, -1, -1):
        q, action = moves[i]
        if q != p:
            return None
        if action.kind is ActionKind.DISCARD:
            return 1 << PILE_OF[action.card]
        if action.kind is ActionKind.CLAIM:
            return 1 << PILE_OF[action.card] | 1 << PILE_OF[action.card2]
        if action.kind is not ActionKind.DRAW:
            return 0
    return None
