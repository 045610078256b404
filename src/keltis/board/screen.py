"""The board game's screen: five paths, rows 9 (top) to 1, tiles and every player's figures.

Figures are marked by seat number — ``2`` a small figure of seat 2, ``[2]`` its big figure —
and tiles by symbol (``+2`` point tile, ``♣`` clover, ``◆`` wish stone), so nothing depends
on colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from keltis.board.layout import CLOVER, NO_TILE, WISH
from keltis.board.state import SMALL_FIGURES
from keltis.board.tables import BOARD_ROW_VALUES, GOAL_FIGURES, GOAL_ROW, LAST_ROW
from keltis.board.view import BoardView
from keltis.core.actions import DECK, Action, ActionKind
from keltis.core.card_codes import CARD_VALUE, COLOUR_LETTERS, NUM_COLOURS
from keltis.core.labels import drawn_card
from keltis.core.protocol import JSON, View
from keltis.core.scoring import ASCENDING, DESCENDING
from keltis.tui.screen import (
    AtWidth,
    GameScreen,
    TurnNote,
    aligned,
    beside,
    packed,
)
from keltis.tui.style import DIM, EMPHASIS, colour_style

TILE_STYLES = {CLOVER: "green", WISH: "bold cyan"}
#: The narrowest the notes beside the compact board may be.
NOTES_WIDTH = 24
#: Like ``box.SIMPLE_HEAD``, with a dashed line under the goal area (the one section break).
BOARD_BOX = box.Box("    \n    \n ── \n    \n ╌╌ \n    \n    \n    \n")


class BoardScreen(GameScreen):
    """Screens of Keltis, the board game."""

    game: ClassVar[str] = "board"

    # -- the board --------------------------------------------------------------------

    def table(self, view: View, *, legend: bool = True) -> RenderableType:
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
        if not legend:
            return Group(table, self._start_line(view), goal)
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

    def _start_marks(self, view: BoardView, seat: int) -> Text:
        """The figures of ``seat`` still on the start stone (a dash: none)."""
        on_paths = sum(1 for r in view.positions[seat] if r)
        big_out = view.big[seat] >= 0
        smalls = SMALL_FIGURES - (on_paths - (1 if big_out else 0))
        marks = ([] if big_out else [self._figure(view, seat, big=True)]) + [
            self._figure(view, seat, big=False) for _ in range(smalls)
        ]
        if not marks:
            return Text(f"{seat + 1}: {self.glyphs.dash}", style=DIM)
        return Text(" ").join(marks)

    def _start_line(self, view: BoardView) -> Text:
        """Figures still on the start stone."""
        line = Text(self.t("board.start") + ":", style=DIM)
        for seat in range(view.num_players):
            line.append(f"  {self.glyphs.sep} " if seat else "  ", style=DIM)
            line.append(self._start_marks(view, seat))
        return line

    def _legend(self) -> Text:
        g = self.glyphs
        return Text(self.t("board.legend", clover=g.clover, wish=g.wish), style=DIM)

    def _players_legend(self) -> Text:
        g = self.glyphs
        text = self.t("players.legend", up=g.up, down=g.down, open=g.open, wish=g.wish)
        return Text(text, style=DIM)

    def legends(self) -> list[Text]:
        """What the figure marks, tiles and the players' table mean."""
        return [self._legend(), self._players_legend()]

    # -- the compact layout -------------------------------------------------------------

    notes_beside: ClassVar[bool] = True

    def compact_parts(
        self, view: View, notes: Sequence[TurnNote] = ()
    ) -> list[tuple[str, RenderableType]]:
        """The board with the goal area, the start stone, the discard piles and ``notes``
        (the last turns, by notation, as far as they go) beside it, or the first three under
        it if it is too wide; the players' table; the hand."""
        assert isinstance(view, BoardView)
        parts: list[tuple[str, RenderableType]] = [
            ("board", AtWidth(lambda width: self.board_and_notes(view, width, notes))),
            ("players", AtWidth(lambda width: self.compact_players(view, width))),
        ]
        if view.hand is not None:
            parts.append(("hand", self.hand(view)))
        return parts

    def compact_board(self, view: BoardView) -> list[Text]:
        """Rows 9 to 1 with their values, a short column per path headed by its letter."""
        rows = [
            [
                Text(""),
                Text(""),
                *(Text(COLOUR_LETTERS[c], style=colour_style(c)) for c in range(NUM_COLOURS)),
            ]
        ]
        for row in range(LAST_ROW, 0, -1):
            style = EMPHASIS if row >= GOAL_ROW else DIM
            rows.append(
                [
                    Text(str(row), style=style),
                    Text(f"{BOARD_ROW_VALUES[row]:+d}", style=style),
                    *(self._cell(view, colour, row) for colour in range(NUM_COLOURS)),
                ]
            )
        return aligned(rows, [True, True] + [False] * NUM_COLOURS, gap=2)

    def compact_players(self, view: BoardView, width: int = 80) -> list[Text]:
        """The players' table, a line each under a line of headings."""
        t = self.t
        g = self.glyphs
        head = [
            Text(""),
            Text(t("players.name")),
            *(Text(COLOUR_LETTERS[c], style=colour_style(c)) for c in range(NUM_COLOURS)),
            Text(g.wish),
            Text(t("players.tiles")),
            Text(t("players.hand")),
            Text(t("players.score")),
        ]
        rows = [head]
        for seat in range(view.num_players):
            rows.append(
                [
                    *self.seat_cells(view, seat),
                    *(self._row_cell(view, seat, colour) for colour in range(NUM_COLOURS)),
                    Text(str(view.wishes[seat])),
                    Text(f"+{view.tile_points[seat]}"),
                    self.hand_cell(view, seat),
                    Text(str(view.scores[seat]), style=EMPHASIS),
                ]
            )
        return aligned(rows, [False, False] + [True] * (NUM_COLOURS + 4), width=width)

    def board_and_notes(
        self, view: BoardView, width: int, notes: Sequence[TurnNote] = ()
    ) -> list[Text]:
        """The compact board with its notes (:meth:`board_notes`) beside it, where ``width``
        leaves room for them, else under it (without the last turns)."""
        board = self.compact_board(view)
        room = width - max(line.cell_len for line in board) - 3
        if room < NOTES_WIDTH:
            return board + self.board_notes(view, width)
        lines = self.board_notes(view, room)
        spare = len(board) - len(lines) - 1
        if notes and spare > 0:
            lines.append(Text(self.t("screen.last_moves"), style=EMPHASIS))
            for note in notes[-spare:]:
                line = Text(self.seat_name(note.seat) + " ")
                line.append(" ".join(note.moves), style=DIM)
                line.truncate(room, overflow="ellipsis")
                lines.append(line)
        return beside(board, lines)

    def board_notes(self, view: BoardView, width: int) -> list[Text]:
        """What the compact layout shows beside the board, in lines of ``width``."""
        t = self.t
        goal = t("board.goal_short", count=view.goal_count, total=GOAL_FIGURES)
        lines = [Text(goal, style=EMPHASIS)]
        start = Text(t("board.start") + ":", style=DIM)
        marks = [self._start_marks(view, seat) for seat in range(view.num_players)]
        lines += packed(start, marks, width, sep=f" {self.glyphs.sep} ")
        lines += packed(Text(t("screen.piles_short")), self.pile_items(view), width)
        if view.removed_count:
            lines.append(Text(t("screen.removed", count=view.removed_count), style=DIM))
        return lines

    # -- the players ------------------------------------------------------------------

    def players(self, view: View, *, legend: bool = True) -> RenderableType:
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
            hand = self.hand_cell(view, seat)
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
        return Group(table, self._players_legend()) if legend else table

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

    def short_label(self, view: View, action: Action, preview: JSON) -> Text:
        """Where a figure goes (``→4``, bold in the goal area) and the tile it finds there,
        or the card a draw takes; words only for what is rare (the game ends, the figure
        already stands on the end stone)."""
        g = self.glyphs
        label = Text()
        figure = preview.get("figure")
        if figure is not None and action.kind is not ActionKind.FIGURE:
            if figure["overflow"]:
                path = self.t.colour_name(COLOUR_LETTERS.index(figure["path"]))
                label.append(self.t("act.lay_end", path=path))
            else:
                label.append(f"{g.to}{figure['to']}", style=EMPHASIS if figure["goal"] else "")
                tile = figure["tile"]
                if tile is not None and tile["kind"] == "clover":
                    label.append(f" {g.clover}", style=TILE_STYLES[CLOVER])
                elif tile is not None and tile["kind"] == "wish":
                    label.append(f" {g.wish}", style=TILE_STYLES[WISH])
                elif tile is not None:
                    label.append(f" +{tile['points']}", style=EMPHASIS)
        elif action.kind is ActionKind.DRAW and action.target != DECK:
            label.append(drawn_card(preview), style=DIM)
        if preview["ends_game"]:
            label.append(
                f" ({self.t('act.ends_game')})" if label.plain else self.t("act.ends_game")
            )
        return label

    def rules_help(self) -> str:
        """The board game's rules in a few lines, and what the symbols mean."""
        return "\n".join([self.t("help.board"), *(text.plain for text in self.legends())])


#: The game's terminal screen, as ``Game.part("screen")`` hands it out.
SCREEN: Final[type[GameScreen]] = BoardScreen
