"""The card game's screen: the wish stones on the table and every player's rows.

Each colour row shows its last value and direction and its number of cards (``7↑ ×5``), a
closed row a ``■`` per closing card; the point row and the wish stones follow. Colours keep
their letters, so nothing depends on hue.
"""

from __future__ import annotations

from typing import ClassVar

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from keltis.cards import CardView
from keltis.cards.state import CLOSED_ROWS_TO_END
from keltis.core.actions import DECK, POINT_PILE, Action, ActionKind
from keltis.core.cards import (
    CARD_COLOUR,
    CARD_VALUE,
    COLOUR_LETTERS,
    NUM_COLOURS,
    is_closing,
    is_point,
)
from keltis.core.protocol import JSON, View
from keltis.core.scoring import ASCENDING, DESCENDING
from keltis.tui.screen import GameScreen, drawn_card
from keltis.tui.style import DIM, EMPHASIS, POINT_STYLE, card_text, colour_style


class CardsScreen(GameScreen):
    """Screens of Keltis: The Card Game."""

    game: ClassVar[str] = "cards"

    # -- the table --------------------------------------------------------------------

    def table(self, view: View) -> RenderableType:
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

    def players(self, view: View) -> RenderableType:
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
            *(
                Text(" ".join(str(v) for v in sorted(view.wish_stones[seat])) or g.dash)
                for seat in seats
            ),
        )
        table.add_row(Text(t("players.hand")), *(self._hand(view, seat) for seat in seats))
        table.add_row(
            Text(t("players.score"), style=EMPHASIS),
            *(Text(str(view.scores[seat]), style=EMPHASIS) for seat in seats),
        )
        legend = Text(
            t("cards.legend", up=g.up, down=g.down, open=g.open, closed=g.closed), style=DIM
        )
        return Group(table, legend)

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

    def _hand(self, view: CardView, seat: int) -> Text:
        hand = Text(str(view.hand_sizes[seat]))
        known = view.known_cards[seat]
        if known and seat != view.viewer:
            hand.append(" ")
            hand.append(Text(" ").join(card_text(c) for c in known))
        return hand

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

    def preview_label(self, view: View, action: Action, preview: JSON) -> str:
        """What an action would do: the row it lengthens and what that row would score."""
        t = self.t
        kind = action.kind
        ends = f" ({t('act.ends_game')})" if preview["ends_game"] else ""
        if kind is ActionKind.LAY:
            row = preview["row"]
            if row["colour"] == "*":
                return t("act.cards.point_row") + ends
            name = t.colour_name(COLOUR_LETTERS.index(row["colour"]))
            if row.get("closing"):
                return t("act.cards.close", row=name) + ends
            points = f"{row['points']:+d}"
            return t("act.cards.lay", row=name, count=row["length"], points=points) + ends
        if kind is ActionKind.CLAIM:
            return t("act.cards.claim", value=action.claim_value)
        if kind is ActionKind.DISCARD:
            if is_point(action.card):
                return t("act.discard.point")
            return t("act.discard", pile=t.colour_name(CARD_COLOUR[action.card]))
        if kind is ActionKind.DRAW:
            if action.target == DECK:
                return t("act.draw_deck") + ends
            card = drawn_card(preview)
            if action.target == POINT_PILE:
                return t("act.draw_pile.point", card=card) + ends
            return t("act.draw_pile", card=card, pile=t.colour_name(action.target)) + ends
        return t("act.cards.pass") + ends

    def rules_help(self) -> str:
        """The card game's rules in a few lines."""
        return self.t("help.cards")
