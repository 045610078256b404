// Cards, colours and tiles as the page draws them. Colour is never the only signal: every
// colour has a symbol too (green ▲, yellow ●, red ■, pink ✿, blue ≈), in a colour-blind-safe
// palette (Okabe and Ito); where a colour is written, it is the colour's name in the reader's
// language, never the notation's letter.
import type { Colour, Pile, Tile } from "./types";
import { COLOURS } from "./types";
import type { Translator } from "./i18n";

export const SYMBOL: Record<Pile, string> = { G: "▲", Y: "●", R: "■", P: "✿", B: "≈", "*": "★" };

export interface ParsedCard {
  colour: Pile;
  value: number | "X";
}

export function parseCard(text: string): ParsedCard {
  const colour = text[0] as Pile;
  const rest = text.slice(1);
  return { colour, value: rest === "X" ? "X" : Number(rest) };
}

/** Sort a hand by colour, then value (closing cards last, point cards after the colours). */
export function sortHand(cards: string[]): string[] {
  const order = (c: string) => {
    const { colour, value } = parseCard(c);
    const col = colour === "*" ? 5 : COLOURS.indexOf(colour as Colour);
    return col * 100 + (value === "X" ? 50 : value);
  };
  return [...cards].sort((a, b) => order(a) - order(b));
}

export function CardFace({ card, small }: { card: string; small?: boolean }) {
  const { colour, value } = parseCard(card);
  return (
    <span class={`card c-${colour === "*" ? "S" : colour}${small ? " small" : ""}`} aria-hidden="true">
      <span class="card-symbol">{SYMBOL[colour]}</span>
      <span class="card-value">{value}</span>
    </span>
  );
}

/** A card that is only shown: an image with a name. */
export function Card({ t, card, small }: { t: Translator; card: string; small?: boolean }) {
  return (
    <span class="card-wrap" role="img" aria-label={t.card(card)} title={t.card(card)}>
      <CardFace card={card} small={small} />
    </span>
  );
}

export function ColourTag({ t, colour }: { t: Translator; colour: Pile }) {
  return (
    <span class={`colour-tag c-${colour === "*" ? "S" : colour}`}>
      <span aria-hidden="true">{SYMBOL[colour]}</span> {t.pileName(colour)}
    </span>
  );
}

export function tileText(t: Translator, tile: Tile | null): string {
  if (!tile) return "";
  if (tile.kind === "clover") return t.t("act.tile.clover");
  if (tile.kind === "wish") return t.t("act.tile.wish");
  return t.t("act.tile.points", { points: tile.points ?? 0 });
}

/** The tile letter of the view's `tiles` strings: "." none, "W" wish stone, "C" clover, a digit
 * point tile. */
export function tileAt(code: string | undefined): Tile | null {
  if (!code || code === ".") return null;
  if (code === "W") return { kind: "wish" };
  if (code === "C") return { kind: "clover" };
  return { kind: "points", points: Number(code) };
}

export const PLAYER_MARK = ["#ffffff", "#1f1f1f", "#b07a3a", "#8a8f98"];
export const PLAYER_TEXT = ["#1f1f1f", "#ffffff", "#1f1f1f", "#1f1f1f"];
