"""The board game's screen: five paths, rows 9 (top) to 1, tiles and every player's figures.

Figures are marked by seat number — ``2`` a small figure of seat 2, ``[2]`` its big figure —
and tiles by symbol (``+2`` point tile, ``♣`` clover, ``◆`` wish stone), so nothing depends
on colour.
"""

from __future__ import annotations

from typing import ClassVar

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from keltis.board.layout import CLOVER, NO_TILE, WISH
from keltis.board.state import SMALL_FIGURES
from keltis.board.view import BoardView
from keltis.core.actions import DECK, Action, ActionKind
from keltis.core.cards import CARD_COLOUR, CARD_VALUE, COLOUR_LETTERS, NUM_COLOURS
from keltis.core.protocol import JSON, View
from keltis.core.scoring import (
    ASCENDING,
    BOARD_ROW_VALUES,
    DESCENDING,
    GOAL_FIGURES,
    GOAL_ROW,
    LAST_ROW,
)
from keltis.tui.screen import GameScreen, drawn_card
from keltis.tui.style import DIM, EMPHASIS, card_text, colour_style

TILE_STYLES = {CLOVER: "green", WISH: "bold cyan"}
#: Like ``box.SIMPLE_HEAD``, with a dashed line under the goal area (the one section break).
BOARD_BOX = box.Box("    \n    \n ── \n    \n ╌╌ \n    \n    \n    \n")


class BoardScreen(GameScreen):
    """Screens of Keltis, the board game."""

    game: ClassVar[str] = "board"

    # -- the board --------------------------------------------------------------------

    def table(self, view: View) -> RenderableType:
        """The five paths as columns, rows 9 to 1 as lines, with tiles and figures."""
        assert isinstance(view, BoardView)
        t = self.t
        table = Table(box=BOARD_BOX, pad_edge=False, padding=(0, 1), show_edge=False)
        table.add_column(t("board.row"), justify="right", no_wrap=True)
        table.add_column(t("board.value"), justify="right", no_wrap=True)
        for colour in range(NUM_COLOURS):
            header = Text(f"{COLOUR_LETTERS[colour]} {t.colour(colour)}")
            table.add_column(header, header_style=colour_style(colour), min_width=10)
        for row in range(LAST_ROW, 0, -1):
            cells = [self._cell(view, colour, row) for colour in range(NUM_COLOURS)]
            style = EMPHASIS if row >= GOAL_ROW else ""
            table.add_row(
                Text(str(row), style=style),
                Text(f"{BOARD_ROW_VALUES[row]:+d}", style=style),
                *cells,
                end_section=row == GOAL_ROW,
            )
        goal = Text(t("board.goal", count=view.goal_count, total=GOAL_FIGURES), style=EMPHASIS)
        return Group(table, self._start_line(view), goal, self._legend())

    def _cell(self, view: BoardView, colour: int, row: int) -> Text:
        glyphs = self.glyphs
        cell = Text()
        tile = view.tiles[colour][row]
        if tile == CLOVER:
            cell.append(glyphs.clover, style=TILE_STYLES[CLOVER])
        elif tile == WISH:
            cell.append(glyphs.wish, style=TILE_STYLES[WISH])
        elif tile != NO_TILE:
            cell.append(f"+{tile}", style=EMPHASIS)
        else:
            cell.append("·", style=DIM)
        for seat in range(view.num_players):
            if view.positions[seat][colour] == row:
                cell.append(" ")
                cell.append(self._figure(view, seat, big=view.big[seat] == colour))
        return cell

    def _figure(self, view: BoardView, seat: int, *, big: bool) -> Text:
        mark = f"[{seat + 1}]" if big else str(seat + 1)
        style = "reverse" if seat == view.viewer else EMPHASIS if big else ""
        return Text(mark, style=style)

    def _start_line(self, view: BoardView) -> Text:
        """Figures still on the start stone."""
        line = Text(self.t("board.start") + ":", style=DIM)
        for seat in range(view.num_players):
            on_paths = sum(1 for r in view.positions[seat] if r)
            big_out = view.big[seat] >= 0
            smalls = SMALL_FIGURES - (on_paths - (1 if big_out else 0))
            marks = ([] if big_out else [self._figure(view, seat, big=True)]) + [
                self._figure(view, seat, big=False) for _ in range(smalls)
            ]
            line.append(f"  {self.glyphs.sep} " if seat else "  ", style=DIM)
            if not marks:
                line.append(f"{seat + 1}: {self.glyphs.dash}", style=DIM)
            for i, mark in enumerate(marks):
                if i:
                    line.append(" ")
                line.append(mark)
        return line

    def _legend(self) -> Text:
        g = self.glyphs
        return Text(self.t("board.legend", clover=g.clover, wish=g.wish), style=DIM)

    # -- the players ------------------------------------------------------------------

    def players(self, view: View) -> RenderableType:
        """Per player: last card and direction of each row, wish stones, tiles, hand, score."""
        assert isinstance(view, BoardView)
        t = self.t
        g = self.glyphs
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), show_edge=False)
        table.add_column("", no_wrap=True)
        table.add_column(t("players.name"), no_wrap=True, max_width=20, overflow="ellipsis")
        for colour in range(NUM_COLOURS):
            table.add_column(
                COLOUR_LETTERS[colour], header_style=colour_style(colour), justify="right"
            )
        table.add_column(g.wish, justify="right")
        table.add_column(t("players.tiles"), justify="right")
        table.add_column(t("players.hand"), justify="right")
        table.add_column(t("players.score"), justify="right", style=EMPHASIS)
        for seat in range(view.num_players):
            marker = g.turn if seat == view.current_player else ""
            cells = [self._row_cell(view, seat, colour) for colour in range(NUM_COLOURS)]
            hand = Text(str(view.hand_sizes[seat]))
            known = view.known_cards[seat]
            if known and seat != view.viewer:
                hand.append(" ")
                hand.append(Text(" ").join(card_text(c) for c in known))
            name_style = EMPHASIS if seat == view.viewer else ""
            table.add_row(
                Text(f"{marker}{seat + 1}", style=EMPHASIS),
                Text(self.names[seat], style=name_style),
                *cells,
                str(view.wishes[seat]),
                f"+{view.tile_points[seat]}",
                hand,
                str(view.scores[seat]),
            )
        legend = Text(t("players.legend", up=g.up, down=g.down, open=g.open, wish=g.wish))
        legend.stylize(DIM)
        return Group(table, legend)

    def _row_cell(self, view: BoardView, seat: int, colour: int) -> Text:
        laid = view.rows[seat][colour]
        if not laid:
            return Text(self.glyphs.dash, style=DIM)
        direction = view.directions[seat][colour]
        arrow = {ASCENDING: self.glyphs.up, DESCENDING: self.glyphs.down}.get(
            direction, self.glyphs.open
        )
        return Text(f"{CARD_VALUE[laid[-1]]}{arrow}", style=colour_style(colour))

    # -- words --------------------------------------------------------------------------

    def pile_label(self, pile: int) -> Text:
        """The colour letter of a discard pile."""
        return Text(COLOUR_LETTERS[pile], style=colour_style(pile))

    def instruction(self, view: View) -> str:
        """What to do in the current phase."""
        assert isinstance(view, BoardView)
        path = self.t.colour_name(view.pending) if view.pending >= 0 else ""
        name = self.seat_name(view.current_player)
        return self.t(f"phase.board.{view.phase}", name=name, path=path)

    def preview_label(self, view: View, action: Action, preview: JSON) -> str:
        """What an action would do: where a figure goes and what it finds there."""
        t = self.t
        kind = action.kind
        figure = preview.get("figure")
        if figure is not None:
            path = t.colour_name(COLOUR_LETTERS.index(figure["path"]))
            if kind is ActionKind.FIGURE:
                return t("act.figure.big" if action.target else "act.figure.small", path=path)
            if figure["overflow"]:
                return t("act.lay_end", path=path)
            if kind is ActionKind.LAY and figure["from"] == 0:
                text = t("act.lay_open", path=path)
            elif kind is ActionKind.LAY:
                text = t("act.lay_step", path=path, row=figure["to"])
            else:
                text = t("act.advance", path=path, row=figure["to"])
            return self._with_tile(text, figure, preview)
        if kind is ActionKind.DISCARD:
            return t("act.discard", pile=t.colour_name(CARD_COLOUR[action.card]))
        if kind is ActionKind.DRAW:
            if action.target == DECK:
                text = t("act.draw_deck")
            else:
                card = drawn_card(preview)
                text = t("act.draw_pile", card=card, pile=t.colour_name(action.target))
            return f"{text} ({t('act.ends_game')})" if preview["ends_game"] else text
        return t("act.pass")

    def _with_tile(self, text: str, figure: JSON, preview: JSON) -> str:
        t = self.t
        extras = []
        if figure["goal"]:
            extras.append(t("act.goal"))
        tile = figure["tile"]
        if preview["ends_game"]:
            extras.append(t("act.ends_game"))
        elif tile is not None:
            if tile["kind"] == "clover":
                extras.append(t("act.tile.clover"))
            elif tile["kind"] == "wish":
                extras.append(t("act.tile.wish"))
            else:
                extras.append(t("act.tile.points", points=tile["points"]))
        return f"{text} ({', '.join(extras)})" if extras else text

    def rules_help(self) -> str:
        """The board game's rules in a few lines."""
        return self.t("help.board")
