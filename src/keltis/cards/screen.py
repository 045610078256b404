"""The card game's screen: the wish stones on the table and every player's rows.

Each colour row shows its last value and direction and its number of cards (``7↑ ×5``), a
closed row a ``■`` per closing card; the point row and the wish stones follow. Colours keep
their letters, so nothing depends on hue.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from keltis.cards import CardView
from keltis.cards.state import CLOSED_ROWS_TO_END
from keltis.core.actions import DECK, POINT_PILE, Action, ActionKind
from keltis.core.card_codes import (
    CARD_VALUE,
    COLOUR_LETTERS,
    NUM_COLOURS,
    is_closing,
)
from keltis.core.labels import drawn_card
from keltis.core.protocol import JSON, View
from keltis.core.scoring import ASCENDING, DESCENDING
from keltis.tui.screen import AtWidth, GameScreen, TurnNote, aligned
from keltis.tui.style import DIM, EMPHASIS, POINT_STYLE, colour_style


class CardsScreen(GameScreen):
    """Screens of Keltis: The Card Game."""

    game: ClassVar[str] = "cards"

    # -- the table --------------------------------------------------------------------

    def table(self, view: View, *, legend: bool = True) -> RenderableType:
        """The wish stones still on the table and how close the game is to its end."""
        assert isinstance(view, CardView)
        t = self.t
        g = self.glyphs
        values = " ".join(str(v) for v in view.wish_row) or g.dash
        wishes = Text(f"{g.wish} ", style="bold cyan")
        wishes.append(t("cards.wish_row", values=values), style=EMPHASIS)
        closed = Text(
            t("cards.closed", count=view.closed_rows, total=CLOSED_ROWS_TO_END), style=EMPHASIS
        )
        return Group(wishes, closed)

    def players(self, view: View, *, legend: bool = True) -> RenderableType:
        """A column per player: each colour row, the point row, wish stones, hand, score."""
        assert isinstance(view, CardView)
        t = self.t
        g = self.glyphs
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), show_edge=False)
        table.add_column("", no_wrap=True)
        for seat in range(view.num_players):
            marker = g.turn if seat == view.current_player else ""
            header = Text(f"{marker}{seat + 1} {self.names[seat]}")
            table.add_column(
                header, justify="right", max_width=18, overflow="ellipsis", no_wrap=True
            )
        seats = range(view.num_players)
        for colour in range(NUM_COLOURS):
            label = Text(f"{COLOUR_LETTERS[colour]} {t.colour(colour)}")
            label.stylize(colour_style(colour))
            table.add_row(label, *(self._row_cell(view, seat, colour) for seat in seats))
        table.add_row(
            Text(f"* {t('cards.point_row')}", style=POINT_STYLE),
            *(self._count(len(view.point_rows[seat])) for seat in seats),
        )
        table.add_row(
            Text(f"{g.wish} {t('cards.wishes')}", style="bold cyan"),
            *(self._wishes(view, seat) for seat in seats),
        )
        table.add_row(Text(t("players.hand")), *(self.hand_cell(view, seat) for seat in seats))
        table.add_row(
            Text(t("players.score"), style=EMPHASIS),
            *(Text(str(view.scores[seat]), style=EMPHASIS) for seat in seats),
        )
        return Group(table, self._legend()) if legend else table

    def _legend(self) -> Text:
        g = self.glyphs
        text = self.t("cards.legend", up=g.up, down=g.down, open=g.open, closed=g.closed)
        return Text(text, style=DIM)

    def legends(self) -> list[Text]:
        """What the players' rows show."""
        return [self._legend()]

    def _wishes(self, view: CardView, seat: int) -> Text:
        return Text(" ".join(str(v) for v in sorted(view.wish_stones[seat])) or self.glyphs.dash)

    # -- the compact layout -------------------------------------------------------------

    def compact_parts(
        self, view: View, notes: Sequence[TurnNote] = ()
    ) -> list[tuple[str, RenderableType]]:
        """The wish stones on the table and the closed rows, a line per player, the discard
        piles, the hand."""
        assert isinstance(view, CardView)
        parts: list[tuple[str, RenderableType]] = [
            ("table", self.table(view)),
            ("players", AtWidth(lambda width: self.compact_players(view, width))),
            ("piles", self.piles(view)),
        ]
        if view.hand is not None:
            parts.append(("hand", self.hand(view)))
        return parts

    def compact_players(self, view: CardView, width: int = 80) -> list[Text]:
        """A line per player under a line of headings: each row, the point row, wish
        stones, hand and score."""
        t = self.t
        g = self.glyphs
        rows = [
            [
                Text(""),
                Text(t("players.name")),
                *(Text(COLOUR_LETTERS[c], style=colour_style(c)) for c in range(NUM_COLOURS)),
                Text("*", style=POINT_STYLE),
                Text(g.wish, style="bold cyan"),
                Text(t("players.hand")),
                Text(t("players.score")),
            ]
        ]
        for seat in range(view.num_players):
            rows.append(
                [
                    *self.seat_cells(view, seat),
                    *(self._row_cell(view, seat, colour) for colour in range(NUM_COLOURS)),
                    self._count(len(view.point_rows[seat])),
                    self._wishes(view, seat),
                    self.hand_cell(view, seat),
                    Text(str(view.scores[seat]), style=EMPHASIS),
                ]
            )
        return aligned(rows, [False, False] + [True] * (NUM_COLOURS + 4), width=width)

    def _row_cell(self, view: CardView, seat: int, colour: int) -> Text:
        laid = view.rows[seat][colour]
        if not laid:
            return Text(self.glyphs.dash, style=DIM)
        values = [CARD_VALUE[c] for c in laid if not is_closing(c)]
        closings = sum(1 for c in laid if is_closing(c))
        direction = view.directions[seat][colour]
        arrow = {ASCENDING: self.glyphs.up, DESCENDING: self.glyphs.down}.get(
            direction, self.glyphs.open
        )
        cell = Text(f"{values[-1]}{arrow}" if values else "", style=colour_style(colour))
        cell.append(self.glyphs.closed * closings, style=EMPHASIS)
        cell.append(f" ×{len(laid)}")
        return cell

    def _count(self, count: int) -> Text:
        return Text(f"×{count}") if count else Text(self.glyphs.dash, style=DIM)

    # -- words --------------------------------------------------------------------------

    def pile_label(self, pile: int) -> Text:
        """``G`` … ``B`` for the colour piles, ``*`` for the point-card pile."""
        if pile == POINT_PILE:
            return Text("*", style=POINT_STYLE)
        return Text(COLOUR_LETTERS[pile], style=colour_style(pile))

    def instruction(self, view: View) -> str:
        """What to do in the current phase."""
        assert isinstance(view, CardView)
        count = view.draws_left if view.phase == "draw" else view.final_lays_left
        name = self.seat_name(view.current_player)
        return self.t(f"phase.cards.{view.phase}", name=name, count=count)

    def short_label(self, view: View, action: Action, preview: JSON) -> Text:
        """What a lay does to its row in symbols (``×3 -2``: three cards, -2 points; ``■`` a
        closing card; ``+1`` the point row), or the card a draw takes."""
        label = Text()
        if action.kind is ActionKind.LAY:
            row = preview["row"]
            if row["colour"] == "*":
                label.append("+1")
            elif row.get("closing"):
                label.append(self.glyphs.closed, style=EMPHASIS)
            else:
                label.append(f"×{row['length']} {row['points']:+d}")
        elif action.kind is ActionKind.DRAW and action.target != DECK:
            label.append(drawn_card(preview), style=DIM)
        if preview["ends_game"]:
            label.append(
                f" ({self.t('act.ends_game')})" if label.plain else self.t("act.ends_game")
            )
        return label

    def rules_help(self) -> str:
        """The card game's rules in a few lines, and what the symbols mean."""
        return "\n".join([self.t("help.cards"), *(text.plain for text in self.legends())])


#: The game's terminal screen, as ``Game.part("screen")`` hands it out.
SCREEN: Final[type[GameScreen]] = CardsScreen
