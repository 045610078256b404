// What an action would do, in words: the terminal's preview labels
// (keltis.tui.board_screen / cards_screen .preview_label) over the wire's previews.
import type { Translator } from "./i18n";
import type { Colour, Legal, Pile, View } from "./types";

function drawnCard(legal: Legal): string | undefined {
  const event = legal.preview.events.find((e) => e.type === "draw_pile");
  return event?.card;
}

function endsGame(t: Translator, legal: Legal, text: string): string {
  return legal.preview.ends_game ? `${text} (${t.t("act.ends_game")})` : text;
}

function boardLabel(t: Translator, legal: Legal): string {
  const figure = legal.preview.figure;
  const n = legal.notation;
  if (figure) {
    const path = figure.path;
    if (legal.kind === "figure") return t.t(figure.big ? "act.figure.big" : "act.figure.small", { path });
    if (figure.overflow) return t.t("act.lay_end", { path });
    let text: string;
    if (legal.kind === "lay" && figure.from === 0) text = t.t("act.lay_open", { path });
    else if (legal.kind === "lay") text = t.t("act.lay_step", { path, row: figure.to });
    else text = t.t("act.advance", { path, row: figure.to });
    const extras: string[] = [];
    if (figure.goal) extras.push(t.t("act.goal"));
    if (legal.preview.ends_game) extras.push(t.t("act.ends_game"));
    else if (figure.tile) {
      const tile = figure.tile;
      if (tile.kind === "clover") extras.push(t.t("act.tile.clover"));
      else if (tile.kind === "wish") extras.push(t.t("act.tile.wish"));
      else extras.push(t.t("act.tile.points", { points: tile.points ?? 0 }));
    }
    return extras.length ? `${text} (${extras.join(", ")})` : text;
  }
  if (legal.kind === "discard") return t.t("act.discard", { pile: n.slice(1, 2) });
  if (legal.kind === "draw") {
    const target = n.split(" ")[1];
    if (!target) return endsGame(t, legal, t.t("act.draw_deck"));
    return endsGame(t, legal, t.t("act.draw_pile", { card: drawnCard(legal) ?? "", pile: target }));
  }
  return t.t("act.pass");
}

function cardsLabel(t: Translator, legal: Legal): string {
  const p = legal.preview;
  const ends = p.ends_game ? ` (${t.t("act.ends_game")})` : "";
  if (legal.kind === "lay" && p.row) {
    const row = p.row;
    if (row.colour === "*") return t.t("act.cards.point_row") + ends;
    if (row.closing) return t.t("act.cards.close", { row: row.colour }) + ends;
    const points = row.points >= 0 ? `+${row.points}` : `${row.points}`;
    return t.t("act.cards.lay", { row: row.colour, count: row.length, points }) + ends;
  }
  if (legal.kind === "claim") return t.t("act.cards.claim", { value: p.wish ?? "" });
  if (legal.kind === "discard") {
    const pile = (p.pile ?? legal.notation.slice(1, 2)) as Pile;
    return pile === "*" ? t.t("act.discard.point") : t.t("act.discard", { pile });
  }
  if (legal.kind === "draw") {
    const target = legal.notation.split(" ")[1];
    if (!target) return t.t("act.draw_deck") + ends;
    const card = drawnCard(legal) ?? "";
    if (target === "*") return t.t("act.draw_pile.point", { card }) + ends;
    return t.t("act.draw_pile", { card, pile: target as Colour }) + ends;
  }
  return t.t("act.cards.pass") + ends;
}

export function actionLabel(t: Translator, view: View, legal: Legal): string {
  return view.game === "board" ? boardLabel(t, legal) : cardsLabel(t, legal);
}

/** The cards an action plays from the hand (lay, discard: one; a claim: two). */
export function actionCards(legal: Legal): string[] {
  if (legal.kind === "lay") return [legal.notation.split(">")[0]];
  if (legal.kind === "discard") return [legal.notation.slice(1)];
  if (legal.kind === "claim") return legal.notation.split(" ").slice(1);
  return [];
}

/** The phase's instruction (phase.board.* / phase.cards.*). */
export function instruction(t: Translator, view: View, name: string): string {
  if (view.game === "board") {
    return t.t(`phase.board.${view.phase}`, { name, path: view.pending ?? "" });
  }
  const count = view.phase === "draw" ? view.draws_left : view.final_lays_left;
  return t.t(`phase.cards.${view.phase}`, { name, count });
}
