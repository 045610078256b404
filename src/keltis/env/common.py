"""What the Gymnasium and PettingZoo adapters share: matches, rewards, illegal actions, text.

Both adapters play through :class:`keltis.match.Match` (``narrate=False``): the learner's or
agents' actions go in with :meth:`~keltis.match.Match.submit`, keltis bots move with
:meth:`~keltis.match.Match.play_bot`, so there is one game loop, the same as the terminal's
and the arena's, and every episode is a game record (``match.record``) that ``keltis replay``
can show.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal, Protocol, SupportsIndex, SupportsInt, runtime_checkable

from keltis.bots import Bot, make_bot
from keltis.bots.base import derive_seed
from keltis.core.card_codes import CARD_TEXT, COLOUR_LETTERS, NUM_COLOURS
from keltis.core.errors import KeltisError
from keltis.core.protocol import JSON, EndReason, Outcome, View
from keltis.core.scoring import direction_name
from keltis.env.encode import SCORE_SCALE, cards_text
from keltis.games import GAME_NAMES, get_game
from keltis.match import Match
from keltis.record import PlayerInfo

Reward = Literal["win", "margin"]
IllegalAction = Literal["penalty", "raise"]

#: Terminal rewards: ``win`` pays 1 to a sole winner, 1/k to each of k players sharing the
#: victory (B-24, C-19) and 0 to the others; ``margin`` pays (own score − best other score)
#: / 100.
REWARDS: Final = ("win", "margin")
#: What an action that is not legal does: ``penalty`` (the default) pays ``illegal_reward``
#: and lets the fallback bot make that decision instead, so the game goes on; ``raise``
#: raises :class:`InvalidActionError` and changes nothing.
ILLEGAL_ACTIONS: Final = ("penalty", "raise")


class InvalidActionError(ValueError):
    """An action that is not legal for the seat now (``illegal_action="raise"``)."""


def check_options(game: str, players: int, reward: str, illegal_action: str, fallback: str) -> Bot:
    """Refuse an unknown game, player count, reward or illegal-action mode with a clear
    message; returns the fallback bot (its spec checked by building it)."""
    if game not in GAME_NAMES:
        raise ValueError(f"no game {game!r}: {' or '.join(map(repr, GAME_NAMES))}")
    if not 2 <= players <= 4:
        raise ValueError(f"Keltis is for 2-4 players, not {players}")
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    if illegal_action not in ILLEGAL_ACTIONS:
        raise ValueError(
            f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, not {illegal_action!r}"
        )
    return make_bot(fallback, 0)


def new_match(
    game: str,
    seed: int,
    players: Sequence[PlayerInfo],
    bots: Mapping[int, Bot],
    variant: JSON | None,
) -> Match:
    """A fresh match of ``game`` dealt from ``seed``, bots in some seats, without narration
    (the record names a learning seat's kind ``agent``, a bot's by its spec)."""
    return Match.new(game, list(players), bots, seed=seed, variant=variant, narrate=False)


def action_index(action: SupportsInt | SupportsIndex) -> int:
    """An action id as a Python int (numpy integers and 0-d arrays included)."""
    if isinstance(action, bool):
        raise TypeError("an action is an integer index, not a bool")
    return int(action)


def submit(
    match: Match,
    seat: int,
    index: int,
    illegal_action: str,
    fallback: Bot,
) -> bool:
    """Play action ``index`` for ``seat``; ``True`` if it was legal. An illegal one raises
    :class:`InvalidActionError` (``raise``) or is replaced by the fallback bot's choice
    (``penalty``)."""
    space = match.actions
    if 0 <= index < space.size:
        try:
            match.submit(seat, index)
            return True
        except KeltisError as error:
            reason = str(error)
    else:
        reason = f"the {match.game} game's action ids are 0-{space.size - 1}"
    if illegal_action == "raise":
        legal = ", ".join(f"{space.index(a)} ({a})" for a in match.view(seat).legal)
        shown = f"{index} ({space.action(index)})" if 0 <= index < space.size else index
        raise InvalidActionError(
            f"action {shown} is not legal for seat {seat} now: {reason}. Legal: {legal}. "
            "Sample from the observation's action_mask, or pass illegal_action='penalty'."
        )
    play_for(match, seat, fallback)
    return False


def play_for(match: Match, seat: int, bot: Bot) -> None:
    """Let ``bot`` make the decision of ``seat`` (through the match's bot machinery, seeded
    from the seat's bot seed and the ply like every bot move)."""
    match.bots[seat] = bot
    try:
        match.play_bot()
    finally:
        del match.bots[seat]


def terminal_reward(outcome: Outcome, seat: int, reward: str) -> float:
    """The reward ``seat`` gets for a finished game (see :data:`REWARDS`)."""
    if reward == "margin":
        others = [s for p, s in enumerate(outcome.scores) if p != seat]
        return (outcome.scores[seat] - max(others)) / SCORE_SCALE
    if seat in outcome.winners:
        return 1.0 / len(outcome.winners)
    return 0.0


def episode_seed(rng: Any) -> int:
    """A game seed drawn from a numpy ``Generator`` (the environment's ``np_random``)."""
    return int(rng.integers(0, 2**32))


def fallback_seed(seed: int) -> int:
    """The seed of the fallback bot for a game (its moves are reseeded per ply anyway)."""
    return derive_seed(seed, "fallback")


def ended_by_cap(outcome: Outcome | None) -> bool:
    """Whether a finished game was cut off by its turn cap (``truncated`` in both APIs)."""
    return outcome is not None and outcome.end_reason is EndReason.TRUNCATED


# -- text ----------------------------------------------------------------------------------


def _cards(cards: Sequence[int]) -> str:
    return cards_text(cards)


@runtime_checkable
class _TableView(Protocol):
    """What both games' views show of the table beyond the View base: discard piles and
    rows."""

    piles: tuple[tuple[int, ...], ...]
    rows: tuple[tuple[tuple[int, ...], ...], ...]
    directions: tuple[tuple[int, ...], ...]


def render_view(view: View) -> str:
    """A plain-text picture of a view (``render_mode="ansi"``): piles, every seat's rows, the
    viewer's hand and legal actions. It shows what the view shows, nothing more; what only
    one game has comes from its ``encoding`` part."""
    if not isinstance(view, _TableView):
        raise TypeError(f"cannot draw a {type(view).__name__}")
    rules = get_game(view.game)
    text = rules.part("encoding")
    title = rules.title
    to_move = f" · seat {view.current_player} to move" if view.current_player >= 0 else ""
    lines = [f"{title} · turn {view.turn} · ply {view.ply} · {view.phase}{to_move}"]
    letters = [*COLOUR_LETTERS, "*"]
    tops = "  ".join(
        f"{letters[i]}:{CARD_TEXT[p[-1]] if p else '-'}({len(p)})" for i, p in enumerate(view.piles)
    )
    lines.append(f"draw pile {view.deck_size}   discards {tops}")
    lines += text.table_text(view)
    for seat in range(view.num_players):
        mark = " (you)" if seat == view.viewer else ""
        extra = text.seat_text(view, seat)
        lines.append(
            f"seat {seat}{mark}: score {view.scores[seat]}, {view.hand_sizes[seat]} cards, {extra}"
        )
        for colour in range(NUM_COLOURS):
            row = view.rows[seat][colour]
            figure = text.row_note(view, seat, colour)
            if row or figure:
                direction = direction_name(view.directions[seat][colour])
                lines.append(f"  {COLOUR_LETTERS[colour]} {direction:10} {_cards(row)}{figure}")
        if view.known_cards[seat] and seat != view.viewer:
            lines.append(f"  known in hand: {_cards(view.known_cards[seat])}")
    if view.hand is not None:
        lines.append(f"your hand: {_cards(view.hand)}")
    if view.legal:
        lines.append("legal: " + " ".join(f"{a}={view.actions.index(a)}" for a in view.legal))
    if view.outcome is not None:
        outcome = view.outcome
        lines.append(
            f"over ({outcome.end_reason.value}): scores {list(outcome.scores)}, "
            f"winners {list(outcome.winners)}"
        )
    return "\n".join(lines) + "\n"
