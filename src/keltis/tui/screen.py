"""What both games' screens share: header, hand, discard piles, last moves, options, results.

A screen is drawn from one :class:`~keltis.core.protocol.View` only — the view of the human
seat to decide, or a spectator's view — so it cannot show a card its reader may not see. Each
game has a subclass in its package (:mod:`keltis.board.screen`, :mod:`keltis.cards.screen`) that
draws the table and describes the game's actions in words.

Two layouts: the *roomy* one (:meth:`GameScreen.render`) spreads everything out for a
terminal of at least :data:`ROOMY_WIDTH` × :data:`ROOMY_HEIGHT`; the *compact* one fits
80 × 24. :meth:`GameScreen.fit` picks one when it is printed, from the console's size at that
moment, and fills the lines left over with the last moves — so a terminal resized during a
game gets the layout of its new size on the next screen.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from keltis.core.actions import Action, ActionKind
from keltis.core.card_codes import CARD_COLOUR, COLOUR_LETTERS, NUM_COLOURS
from keltis.core.protocol import JSON, Outcome, View
from keltis.i18n import Translator
from keltis.tui.style import DIM, EMPHASIS, MAX_WIDTH, Glyphs, card_text, colour_style

#: Names in the compact players' table are cut to this many columns.
NAME_WIDTH = 14
#: Discards go to a second column of options once there are more options than this.
SPLIT_OPTIONS = 6
#: The roomy layout needs at least this many columns and lines; below, the compact one.
ROOMY_WIDTH = 100
ROOMY_HEIGHT = 40
#: Lines kept free under an end screen for what follows it (where the record went …).
END_RESERVE = 4

Lines = list[list[Segment]]


def is_compact(width: int, height: int) -> bool:
    """Whether a console of ``width`` × ``height`` gets the compact layout."""
    return width < ROOMY_WIDTH or height < ROOMY_HEIGHT


@dataclass
class TurnNote:
    """One player's consecutive moves, as notation and as translated phrases."""

    seat: int
    moves: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)


def packed(label: Text, items: Sequence[Text], width: int, sep: str = "  ") -> list[Text]:
    """``label`` and ``items`` on as few lines of ``width`` as they go, never splitting an
    item; lines after the first are indented by two spaces."""
    lines = [label.copy()]
    empty = True  # the last line holds no item yet
    for item in items:
        line = lines[-1]
        gap = (" " if label.plain else "") if empty and len(lines) == 1 else "" if empty else sep
        if line.plain.strip() and line.cell_len + len(gap) + item.cell_len > width:
            line = Text("  ")
            lines.append(line)
            gap = ""
        line.append(gap, style=DIM)
        line.append(item)
        empty = False
    return lines


def aligned(
    rows: Sequence[Sequence[Text]], right: Sequence[bool], gap: int = 1, width: int = 0
) -> list[Text]:
    """``rows`` of cells as lines, each column as wide as its widest cell, the columns that
    ``right`` marks aligned right (a quick table for the compact layout); with ``width``, a
    gap of two spaces between the columns where the lines stay within it."""
    widths = [max((row[i].cell_len for row in rows), default=0) for i in range(len(right))]
    if width and sum(widths) + 2 * (len(widths) - 1) <= width:
        gap = 2
    lines = []
    for row in rows:
        line = Text()
        for i, cell in enumerate(row):
            pad = " " * (widths[i] - cell.cell_len)
            if i:
                line.append(" " * gap)
            line.append_text(Text(pad) + cell if right[i] else cell + Text(pad))
        line.rstrip()
        lines.append(line)
    return lines


def beside(left: Sequence[Text], right: Sequence[Text], gap: int = 3) -> list[Text]:
    """Two columns of lines side by side."""
    width = max((line.cell_len for line in left), default=0)
    lines = []
    for i in range(max(len(left), len(right))):
        line = left[i].copy() if i < len(left) else Text()
        if i < len(right):
            line.append(" " * (width - line.cell_len + gap))
            line.append_text(right[i])
        lines.append(line)
    return lines


class AtWidth:
    """Lines made for the width they are printed at: ``make(width)``."""

    def __init__(self, make: Callable[[int], list[Text]]) -> None:
        self.make = make

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.make(options.max_width)


class BySize:
    """One of two renderables, chosen by the console's size when it is printed."""

    def __init__(self, compact: RenderableType, roomy: RenderableType) -> None:
        self.compact = compact
        self.roomy = roomy

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        height = options.height or options.size.height
        yield self.compact if is_compact(options.max_width, height) else self.roomy


class Fitted:
    """A screen laid out for the console it is printed on (see :meth:`GameScreen.fit`)."""

    def __init__(
        self,
        screen: GameScreen,
        view: View,
        notes: Sequence[TurnNote],
        *,
        legend: bool,
        reserve: int,
    ) -> None:
        self.screen = screen
        self.view = view
        self.notes = list(notes)
        self.legend = legend
        self.reserve = reserve

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        height = options.height or options.size.height
        opts = options.update(width=min(width, MAX_WIDTH), height=None)
        lines = self.screen.layout(
            console,
            opts,
            self.view,
            self.notes,
            compact=is_compact(width, height),
            legend=self.legend,
            lines=height - 1 - self.reserve,  # the prompt takes the last line
        )
        for line in lines:
            yield from line
            yield Segment.line()


class GameScreen(ABC):
    """Draws one game's screens. Subclasses add the table and the words for actions."""

    game: ClassVar[str]
    #: The compact layout shows the cards set aside elsewhere than in the header.
    removed_elsewhere: ClassVar[bool] = False
    #: The compact layout can show the last turns by notation beside the table.
    notes_beside: ClassVar[bool] = False

    def __init__(self, t: Translator, glyphs: Glyphs, names: Sequence[str]) -> None:
        self.t = t
        self.glyphs = glyphs
        self.names = list(names)
        self.legend_shown: set[int | None] = set()
        """Seats whose screen has shown the legends (the terminal shows them once each)."""

    # -- what each game provides ------------------------------------------------------

    @abstractmethod
    def table(self, view: View, *, legend: bool = True) -> RenderableType:
        """The shared play area: paths and figures (board) or everyone's rows (cards)."""

    @abstractmethod
    def players(self, view: View, *, legend: bool = True) -> RenderableType:
        """One line per player: rows, wish stones, points, score."""

    @abstractmethod
    def legends(self) -> list[Text]:
        """The lines that explain the symbols (shown once, and in ``help``)."""

    @abstractmethod
    def compact_parts(
        self, view: View, notes: Sequence[TurnNote] = ()
    ) -> list[tuple[str, RenderableType]]:
        """The compact layout between header and last moves, as named parts; a part named
        ``players`` may be left out of an end screen that lacks the lines. With
        :attr:`notes_beside`, ``notes`` are the last turns to show beside the table where it
        has room for them, without taking more lines."""

    def action_label(self, view: View, action: Action, preview: JSON | None = None) -> str:
        """A short description of what ``action`` (one of ``view.legal``) would do, in the
        reader's language: the game's label of it (``keltis.board.labels``,
        ``keltis.cards.labels``), translated; the preview is computed if not given."""
        if preview is None:
            preview = view.previews()[view.legal.index(action)]
        label = view.action_label(action, preview)
        return self.t.label(label) if label is not None else str(action)

    @abstractmethod
    def short_label(self, view: View, action: Action, preview: JSON) -> Text:
        """An action's preview in a few symbols, for the compact options."""

    @abstractmethod
    def instruction(self, view: View) -> str:
        """What the player to decide must do now (the phase, in words)."""

    @abstractmethod
    def rules_help(self) -> str:
        """A short summary of the rules, for ``help``: the rules and the legends."""

    def input_help(self) -> str:
        """How to type moves, for ``help``."""
        return self.t(f"help.input.{self.game}")

    @abstractmethod
    def pile_label(self, pile: int) -> Text:
        """The label of discard pile ``pile``."""

    # -- the whole screen ---------------------------------------------------------------

    def seat_cells(self, view: View, seat: int) -> list[Text]:
        """The first cells of a player's line in the compact table: the turn marker with the
        seat number, and the name (cut to fit)."""
        marker = self.glyphs.turn if seat == view.current_player else ""
        name = Text(self.names[seat], style=EMPHASIS if seat == view.viewer else "")
        name.truncate(NAME_WIDTH, overflow="ellipsis")
        return [Text(f"{marker}{seat + 1}", style=EMPHASIS), name]

    def hand_cell(self, view: View, seat: int) -> Text:
        """A player's hand size and the cards known to be in it (taken from a pile)."""
        hand = Text(str(view.hand_sizes[seat]))
        known = view.known_cards[seat]
        if known and seat != view.viewer:
            hand.append(" ")
            hand.append(Text(" ").join(card_text(c) for c in known))
        return hand

    def _roomy_top(self, view: View, legend: bool) -> list[RenderableType]:
        """The roomy screen down to the viewer's hand: header, table, players, piles."""
        parts: list[RenderableType] = [
            self.header(view),
            self.table(view, legend=legend),
            self.players(view, legend=legend),
            self.piles(view),
        ]
        if view.hand is not None:
            parts.append(self.hand(view))
        return parts

    def render(self, view: View, notes: Sequence[TurnNote], *, legend: bool = True) -> Group:
        """The roomy screen for ``view``: everything public, plus the viewer's hand and
        options; ``legend``: with the lines that explain the symbols."""
        parts = self._roomy_top(view, legend)
        parts.append(self.last_moves(view, notes))
        parts += self.decision(view)
        return Group(*parts)

    def fit(
        self, view: View, notes: Sequence[TurnNote], *, legend: bool = False, reserve: int = 0
    ) -> Fitted:
        """The screen for ``view`` in the layout the console's size calls for when it is
        printed: roomy from :data:`ROOMY_WIDTH` × :data:`ROOMY_HEIGHT`, else compact. The
        last moves take the lines left over; ``legend`` adds the legends where they fit (the
        compact layout's first screen may lack the lines); ``reserve``: lines to leave free
        under the screen (a notice)."""
        return Fitted(self, view, notes, legend=legend, reserve=reserve)

    def decision(self, view: View, options: RenderableType | None = None) -> list[RenderableType]:
        """What the player to decide reads last: what to do, the options, how to type."""
        if not view.legal:
            return []
        return [
            Text(""),
            Text(self.instruction(view), style=EMPHASIS),
            self.options(view) if options is None else options,
            Text(self.t("prompt.help"), style=DIM),
        ]

    def layout(
        self,
        console: Console,
        options: ConsoleOptions,
        view: View,
        notes: Sequence[TurnNote],
        *,
        compact: bool,
        legend: bool,
        lines: int,
    ) -> Lines:
        """The lines of a screen in at most ``lines`` lines where it can: fixed parts first,
        then the legends, the options' long form and the last moves as far as they go."""

        def draw(renderable: RenderableType) -> Lines:
            return console.render_lines(renderable, options, pad=False)

        if not compact:
            top = draw(Group(*self._roomy_top(view, legend)))
            bottom = draw(Group(*self.decision(view)))
            free = lines - len(top) - len(bottom)
            if view.over and view.outcome is not None:
                free -= len(draw(self.results(view.outcome, compact=False))) + END_RESERVE
            moves = self._fitted_moves(draw, view, notes, free, least=0)
            return top + moves + bottom

        head = draw(self.header(view, compact=True, width=options.max_width))

        def body_of(shown_notes: Sequence[TurnNote]) -> list[tuple[str, Lines]]:
            return [(name, draw(part)) for name, part in self.compact_parts(view, shown_notes)]

        body = body_of(())
        if view.over:  # the players' table only if it fits above the scores
            body = [(name, part) for name, part in body if name != "players"]
        free = lines - len(head) - sum(len(part) for _, part in body)
        if view.over and view.outcome is not None:
            free -= len(draw(self.results(view.outcome, compact=True))) + END_RESERVE
            players = [part for name, part in body_of(()) if name == "players"]
            if players and len(players[0]) <= free - 2:  # the last moves go first
                body.append(("players", players[0]))
                free -= len(players[0])
        instruction = draw(Text(self.instruction(view), style=EMPHASIS)) if view.legal else []
        free -= len(instruction)
        # the others' last turns, in words or at least by notation (beside the board, where
        # there is room there)
        others = list(notes[-max(view.num_players - 1, 1) :])
        keep = len(draw(self.moves_line(others))) if others and not self.notes_beside else 0
        choices: Lines = []
        if view.legal:
            choices = draw(self.options(view))
            if len(choices) > free - keep:
                choices = draw(self.terse_options(view, options.max_width))
            free -= len(choices)
        shown: Lines = []
        if legend:
            for text in [*self.legends(), Text(self.t("prompt.help"))]:
                drawn = draw(Text(text.plain, style=DIM))
                if len(drawn) <= free - keep:
                    shown += drawn
                    free -= len(drawn)
        moves = self._fitted_moves(draw, view, notes, free, least=len(others)) if notes else []
        if not moves and others and self.notes_beside:
            names = [name for name, _ in body]
            beside = [(name, part) for name, part in body_of(notes) if name in names]
            # only where the notes fit beside the table, in the lines it takes anyway
            same_height = [len(p) for _, p in beside] == [len(p) for _, p in body]
            if same_height and _text(beside) != _text(body):
                body, others = beside, []
        if not moves and others:
            for count in range(min(view.num_players + 1, len(notes)), 0, -1):
                drawn = draw(self.moves_line(notes[-count:]))
                if len(drawn) <= free:
                    moves = drawn
                    break
        return (
            head
            + [line for _, part in body for line in part]
            + shown
            + moves
            + instruction
            + choices
        )

    def _fitted_moves(
        self,
        draw: Callable[[RenderableType], Lines],
        view: View,
        notes: Sequence[TurnNote],
        free: int,
        *,
        least: int = 1,
    ) -> Lines:
        """The last turns in words in at most ``free`` lines, as many as fit but at least
        ``least`` (else none); the roomy layout says "none yet" before the first move."""
        if not notes:
            if least:
                return []
            drawn: Lines = draw(self.last_moves(view, []))
            return drawn if len(drawn) <= free else []
        most = min(view.num_players + 1, len(notes), free - 1)  # a line each, and the title
        for count in range(most, max(least, 1) - 1, -1):
            drawn = draw(self.last_moves(view, notes[-count:], limit=count))
            if len(drawn) <= free:
                return drawn
        return []

    def header(self, view: View, *, compact: bool = False, width: int = 80) -> Text:
        """Title, turn, draw pile and whose decision it is; ``compact``: the parts that fit
        ``width`` — the cards set aside go first, then whose turn it is (the instruction
        says it too), then the title."""
        t = self.t
        parts: list[tuple[str, Text]] = [
            ("title", Text(t(f"title.{self.game}"), style=EMPHASIS)),
            ("turn", Text(t("screen.turn", turn=view.turn + 1))),
            ("deck", Text(t("screen.deck", count=view.deck_size))),
        ]
        if view.removed_count and not (compact and self.removed_elsewhere):
            parts.append(("removed", Text(t("screen.removed", count=view.removed_count), DIM)))
        if view.over:
            parts.append(("to_move", Text(t("screen.over"), style=EMPHASIS)))
        else:
            name = self.seat_name(view.current_player)
            parts.append(("to_move", Text(t("screen.to_move", name=name), style=EMPHASIS)))
        sep = f" {self.glyphs.sep} " if compact else f"  {self.glyphs.sep}  "
        if compact:
            for drop in ("removed", "to_move", "title"):
                if sum(p.cell_len for _, p in parts) + len(sep) * (len(parts) - 1) <= width:
                    break
                if drop == "to_move" and view.over:
                    continue
                parts = [p for p in parts if p[0] != drop]
        line = Text()
        for i, (_, part) in enumerate(parts):
            if i:
                line.append(sep)
            line.append(part)
        return line

    def seat_name(self, seat: int) -> str:
        """``name (n)`` with the 1-based seat number that marks the seat's figures."""
        return f"{self.names[seat]} ({seat + 1})"

    def hand_groups(self, view: View) -> list[Text]:
        """The viewer's hand by colour (point cards last), a text per colour."""
        assert view.hand is not None
        groups: list[list[int]] = [[] for _ in range(NUM_COLOURS + 1)]
        for card in sorted(view.hand):
            groups[CARD_COLOUR[card]].append(card)
        return [Text(" ").join(card_text(c) for c in group) for group in groups if group]

    def hand(self, view: View) -> Text:
        """The viewer's hand, grouped by colour (point cards last)."""
        line = Text(self.t("screen.hand") + " ", style=EMPHASIS)
        shown = self.hand_groups(view)
        for i, group in enumerate(shown):
            if i:
                line.append(f"  {self.glyphs.sep} ", style=DIM)
            line.append(group)
        if not shown:
            line.append(self.glyphs.dash)
        return line

    def pile_items(self, view: View) -> list[Text]:
        """Each discard pile's top card and size (or its label and a dash)."""
        piles: tuple[tuple[int, ...], ...] = getattr(view, "piles", ())
        items = []
        for pile, cards in enumerate(piles):
            item = Text()
            if cards:
                item.append(card_text(cards[-1]))
                item.append(f" ({len(cards)})", style=DIM)
            else:
                item.append(self.pile_label(pile))
                item.append(f" {self.glyphs.dash}", style=DIM)
            items.append(item)
        return items

    def piles(self, view: View) -> Text:
        """Each discard pile's top card and size."""
        line = Text(self.t("screen.piles") + " ")
        line.append(Text("  ").join(self.pile_items(view)))
        return line

    def last_moves(
        self,
        view: View,
        notes: Sequence[TurnNote],
        *,
        limit: int | None = None,
    ) -> RenderableType:
        """The last turns (``limit``, or one more than there are players): who did what, in
        words (from spectator views only)."""
        t = self.t
        count = view.num_players + 1 if limit is None else limit
        shown = list(notes)[-count:] if count else []
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

    def moves_line(self, notes: Sequence[TurnNote]) -> Text:
        """The last turns by notation only, on as few lines as they go."""
        line = Text(self.t("screen.last_moves"), style=EMPHASIS)
        for i, note in enumerate(notes):
            line.append(f" {self.glyphs.sep} " if i else " ", style=DIM)
            line.append(self.seat_name(note.seat))
            line.append(" " + " ".join(note.moves), style=DIM)
        return line

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

    def terse_options(self, view: View, width: int) -> Table:
        """The numbered legal actions in as many columns as ``width`` holds, each with its
        preview in symbols (:meth:`short_label`), numbered down the columns."""
        legal = view.legal
        previews = view.previews()
        digits = len(str(len(legal)))
        cells = []
        for number, (action, preview) in enumerate(zip(legal, previews, strict=True), 1):
            cell = Text(str(number).rjust(digits), style=EMPHASIS)
            cell.append(" ")
            cell.append(self.notation(action))
            label = self.short_label(view, action, preview)
            if label.plain:
                cell.append(" ")
                cell.append(label)
            cells.append(cell)
        gap = 3
        columns = 1
        for count in range(len(cells), 0, -1):
            rows = -(-len(cells) // count)
            widths = [
                max(c.cell_len for c in cells[i * rows : (i + 1) * rows])
                for i in range(-(-len(cells) // rows))
            ]
            if sum(widths) + gap * (len(widths) - 1) <= width:
                columns = len(widths)
                break
        rows = -(-len(cells) // columns)
        grid = Table.grid(padding=(0, gap, 0, 0))
        for _ in range(-(-len(cells) // rows)):
            grid.add_column(no_wrap=True)
        for row in range(rows):
            grid.add_row(
                *(
                    cells[i] if i < len(cells) else Text("")
                    for i in _column_major(row, rows, len(cells))
                )
            )
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

    def results(self, outcome: Outcome, *, compact: bool | None = None) -> RenderableType:
        """The final scores with their parts and the winners, best first (``#`` is the rank;
        equal totals share it); ``compact`` (by default: when the console is small) without
        the table's frame."""
        if compact is None:
            return BySize(self.results(outcome, compact=True), self.results(outcome, compact=False))
        t = self.t
        keys = [k for k in outcome.breakdown[0] if not k.endswith("_count")]
        table = Table(title=t(f"end.{outcome.end_reason.value}"), title_justify="left")
        if compact:
            table.box = box.SIMPLE_HEAD
            table.show_edge = False
            table.pad_edge = False
        table.add_column("#", justify="right")
        table.add_column(t("players.name"))
        for key in keys:
            table.add_column(t.get(f"score.{key}", key), justify="right")
        table.add_column(t("score.total"), justify="right", style=EMPHASIS)
        order = sorted(range(len(outcome.scores)), key=lambda s: (-outcome.scores[s], s))
        for seat in order:
            parts = outcome.breakdown[seat]
            rank = 1 + sum(1 for score in outcome.scores if score > outcome.scores[seat])
            mark = f" {self.glyphs.turn}" if seat in outcome.winners else ""
            cells = []
            for key in keys:
                text = str(parts[key])
                if key == "wishes" and "wish_count" in parts:
                    text = f"{text} ({parts['wish_count']}{self.glyphs.wish})"
                cells.append(text)
            name = self.seat_name(seat) + mark
            table.add_row(f"{rank}.", name, *cells, str(outcome.scores[seat]))
        names = ", ".join(self.names[s] for s in outcome.winners)
        key = "end.winner" if len(outcome.winners) == 1 else "end.winners"
        return Group(table, Text(t(key, names=names), style=EMPHASIS))


def _text(parts: Sequence[tuple[str, Lines]]) -> str:
    return "".join(segment.text for _, part in parts for line in part for segment in line)


def _column_major(row: int, rows: int, count: int) -> Iterable[int]:
    """The cell indices of line ``row`` when ``count`` cells go down ``rows``-line columns."""
    return range(row, rows * -(-count // rows), rows)
