"""What both games' screens share: header, hand, discard piles, last moves, options, results.

A screen is drawn from one :class:`~keltis.core.protocol.View` only — the view of the human
seat to decide, or a spectator's view — so it cannot show a card its reader may not see. Each
game has a subclass (:mod:`keltis.tui.board_screen`, :mod:`keltis.tui.cards_screen`) that
draws the table and describes the game's actions in words.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from keltis.core.actions import Action, ActionKind
from keltis.core.cards import CARD_COLOUR, COLOUR_LETTERS, NUM_COLOURS
from keltis.core.protocol import JSON, Outcome, View
from keltis.i18n import Translator
from keltis.tui.style import DIM, EMPHASIS, Glyphs, card_text, colour_style

#: Discards go to a second column of options once there are more options than this.
SPLIT_OPTIONS = 6


@dataclass
class TurnNote:
    """One player's consecutive moves, as notation and as translated phrases."""

    seat: int
    moves: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)


def drawn_card(preview: JSON) -> str:
    """The card a draw from a discard pile takes, as its preview's event names it."""
    for event in preview["events"]:
        if event["type"] == "draw_pile":
            return str(event["card"])
    return "?"


class GameScreen(ABC):
    """Draws one game's screens. Subclasses add the table and the words for actions."""

    game: ClassVar[str]

    def __init__(self, t: Translator, glyphs: Glyphs, names: Sequence[str]) -> None:
        self.t = t
        self.glyphs = glyphs
        self.names = list(names)

    # -- what each game provides ------------------------------------------------------

    @abstractmethod
    def table(self, view: View) -> RenderableType:
        """The shared play area: paths and figures (board) or everyone's rows (cards)."""

    @abstractmethod
    def players(self, view: View) -> RenderableType:
        """One line per player: rows, wish stones, points, score."""

    def action_label(self, view: View, action: Action, preview: JSON | None = None) -> str:
        """A short description of what ``action`` (one of ``view.legal``) would do, in the
        reader's language, from the game's preview of it (computed if not given)."""
        if preview is None:
            preview = view.previews()[view.legal.index(action)]
        return self.preview_label(view, action, preview)

    @abstractmethod
    def preview_label(self, view: View, action: Action, preview: JSON) -> str:
        """Words for an action's preview (``keltis.board.preview``, ``keltis.cards.preview``):
        the screens translate what the game computed, they hold no rules of their own."""

    @abstractmethod
    def instruction(self, view: View) -> str:
        """What the player to decide must do now (the phase, in words)."""

    @abstractmethod
    def rules_help(self) -> str:
        """A short summary of the rules, for ``help``."""

    def input_help(self) -> str:
        """How to type moves, for ``help``."""
        return self.t(f"help.input.{self.game}")

    @abstractmethod
    def pile_label(self, pile: int) -> Text:
        """The label of discard pile ``pile``."""

    # -- the whole screen ---------------------------------------------------------------

    def render(self, view: View, notes: Sequence[TurnNote]) -> RenderableType:
        """The screen for ``view``: everything public, plus the viewer's hand and options."""
        parts: list[RenderableType] = [
            self.header(view),
            self.table(view),
            self.players(view),
            self.piles(view),
        ]
        if view.hand is not None:
            parts.append(self.hand(view))
        parts.append(self.last_moves(view, notes))
        if view.legal:
            parts.append(Text(""))
            parts.append(Text(self.instruction(view), style=EMPHASIS))
            parts.append(self.options(view))
            parts.append(Text(self.t("prompt.help"), style=DIM))
        return Group(*parts)

    def header(self, view: View) -> Text:
        """Title, turn, draw pile and whose decision it is."""
        t = self.t
        line = Text()
        line.append(t(f"title.{self.game}"), style=EMPHASIS)
        line.append(f"  {self.glyphs.sep}  ")
        line.append(t("screen.turn", turn=view.turn + 1))
        line.append(f"  {self.glyphs.sep}  ")
        line.append(t("screen.deck", count=view.deck_size))
        if view.removed_count:
            line.append(f"  {self.glyphs.sep}  ")
            line.append(t("screen.removed", count=view.removed_count), style=DIM)
        line.append(f"  {self.glyphs.sep}  ")
        if view.over:
            line.append(t("screen.over"), style=EMPHASIS)
        else:
            seat = view.current_player
            line.append(t("screen.to_move", name=self.seat_name(seat)), style=EMPHASIS)
        return line

    def seat_name(self, seat: int) -> str:
        """``name (n)`` with the 1-based seat number that marks the seat's figures."""
        return f"{self.names[seat]} ({seat + 1})"

    def hand(self, view: View) -> Text:
        """The viewer's hand, grouped by colour (point cards last)."""
        assert view.hand is not None
        line = Text(self.t("screen.hand") + " ", style=EMPHASIS)
        groups: list[list[int]] = [[] for _ in range(NUM_COLOURS + 1)]
        for card in sorted(view.hand):
            groups[CARD_COLOUR[card]].append(card)
        shown = [g for g in groups if g]
        for i, group in enumerate(shown):
            if i:
                line.append(f"  {self.glyphs.sep} ", style=DIM)
            line.append(Text(" ").join(card_text(c) for c in group))
        if not shown:
            line.append(self.glyphs.dash)
        return line

    def piles(self, view: View) -> Text:
        """Each discard pile's top card and size."""
        piles: tuple[tuple[int, ...], ...] = getattr(view, "piles", ())
        line = Text(self.t("screen.piles") + " ")
        for pile, cards in enumerate(piles):
            if pile:
                line.append("  ")
            if cards:
                line.append(card_text(cards[-1]))
                line.append(f" ({len(cards)})", style=DIM)
            else:
                line.append(self.pile_label(pile))
                line.append(f" {self.glyphs.dash}", style=DIM)
        return line

    def last_moves(self, view: View, notes: Sequence[TurnNote]) -> RenderableType:
        """The last turns: who did what, in words (from spectator views only)."""
        t = self.t
        shown = list(notes)[-(view.num_players + 1) :]
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True)
        grid.add_column()
        for note in shown:
            grid.add_row(
                Text(self.seat_name(note.seat), style=EMPHASIS),
                Text(" ".join(note.moves), style=DIM),
                Text("; ".join(p for p in note.phrases if p)),
            )
        title = Text(t("screen.last_moves"), style=EMPHASIS)
        if not shown:
            return Group(title, Text("  " + t("screen.no_moves"), style=DIM))
        return Group(title, grid)

    def options(self, view: View) -> Table:
        """The numbered list of legal actions with what each does.

        With many options the discards go to a second column, by notation only (under a
        heading saying what they do), so each line stays within 80 columns.
        """
        legal = view.legal
        previews = view.previews()
        grid = Table.grid(padding=(0, 1))
        discards = [i for i, a in enumerate(legal) if a.kind is ActionKind.DISCARD]
        split = discards[0] if len(legal) > SPLIT_OPTIONS and discards else len(legal)
        grid.add_column(no_wrap=True, justify="right")
        grid.add_column(no_wrap=True)
        grid.add_column(ratio=1)
        right = list(range(split, len(legal)))
        if right:
            grid.add_column(no_wrap=True, justify="right")
            grid.add_column(no_wrap=True)
            grid.add_row(Text(""), Text(""), Text(""), Text(""), Text(self.t("options.discard")))
        for row in range(max(split, len(right))):
            cells: list[Text] = []
            if row < split:
                action = legal[row]
                cells += [
                    Text(str(row + 1), style=EMPHASIS),
                    self.notation(action),
                    Text(self.action_label(view, action, previews[row])),
                ]
            else:
                cells += [Text(""), Text(""), Text("")]
            if right:
                if row < len(right):
                    index = right[row]
                    cells += [Text(str(index + 1), style=EMPHASIS), self.notation(legal[index])]
                else:
                    cells += [Text(""), Text("")]
            grid.add_row(*cells)
        return grid

    def notation(self, action: Action) -> Text:
        """An action's notation, its card styled in its colour."""
        text = str(action)
        if action.kind in (ActionKind.LAY, ActionKind.DISCARD) and action.card >= 0:
            out = Text("-" if action.kind is ActionKind.DISCARD else "")
            out.append(card_text(action.card))
            if action.target >= 0:
                out.append(">")
                out.append(COLOUR_LETTERS[action.target], style=colour_style(action.target))
            return out
        return Text(text)

    # -- the end ----------------------------------------------------------------------

    def results(self, outcome: Outcome) -> RenderableType:
        """The final scores with their parts and the winners."""
        t = self.t
        keys = [k for k in outcome.breakdown[0] if not k.endswith("_count")]
        table = Table(title=t(f"end.{outcome.end_reason.value}"), title_justify="left")
        table.add_column("#", justify="right")
        table.add_column(t("players.name"))
        for key in keys:
            table.add_column(t.get(f"score.{key}", key), justify="right")
        table.add_column(t("score.total"), justify="right", style=EMPHASIS)
        for seat, parts in enumerate(outcome.breakdown):
            mark = f" {self.glyphs.turn}" if seat in outcome.winners else ""
            cells = []
            for key in keys:
                text = str(parts[key])
                if key == "wishes" and "wish_count" in parts:
                    text = f"{text} ({parts['wish_count']}{self.glyphs.wish})"
                cells.append(text)
            table.add_row(str(seat + 1), self.names[seat] + mark, *cells, str(outcome.scores[seat]))
        names = ", ".join(self.names[s] for s in outcome.winners)
        key = "end.winner" if len(outcome.winners) == 1 else "end.winners"
        return Group(table, Text(t(key, names=names), style=EMPHASIS))
