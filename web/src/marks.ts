// What the others did since this player's last decision, as marks on the board or table:
// figures moved (from where to where), tiles taken, cards laid, discarded and taken from the
// discard piles, wish stones claimed. Built only from the steps' events this receiver was
// sent (docs/wire.md: they never name a card it may not see) — never from a view's hidden
// parts.
import type { Colour, Pile, Step } from "./types";

export interface Mark {
  kind: "move" | "tile" | "lay" | "discard" | "take" | "claim";
  seat: number;
  /** Which turn of the batch (its place in `turnsOf`) made it. */
  turn: number;
  /** The mark as stable text (docs/web.md): `move 1 G 0-2`, `tile 1 G2`, `lay 1 G3`,
   * `lay 1 *7 G` (a point card on a colour row), `discard 1 G3`, `take 1 G3`,
   * `claim 1 5 G5 *5`. */
  text: string;
  path?: Colour;
  from?: number;
  to?: number;
  row?: number;
  card?: string;
  /** The row a laid card went to (its colour; "*" the card game's point row). */
  onto?: Pile;
  /** The discard piles a mark touches. */
  piles?: Pile[];
  cards?: string[];
  value?: number;
  /** A tile taken: what it showed (♣ clover, ◆ wish stone, +n points). */
  glyph?: string;
}

export interface Turn {
  seat: number;
  steps: Step[];
}

/** The steps to mark. A player: every step since their own last one (the others' moves
 * since their last decision; none while they are in the middle of their turn). A spectator
 * (`me` null): every step since the player to move ended their previous turn — the round
 * that player sees at the start of their turn, with their own moves of this turn. */
export function batchSince(log: Step[], me: number | null, current: number): Step[] {
  if (me !== null) {
    for (let i = log.length - 1; i >= 0; i--) if (log[i].seat === me) return log.slice(i + 1);
    return log;
  }
  for (let i = log.length - 2; i >= 0; i--) {
    if (log[i].seat === current && log[i + 1].seat !== current) return log.slice(i + 1);
  }
  return log;
}

/** The batch as turns: each run of steps by one seat. */
export function turnsOf(steps: Step[]): Turn[] {
  const turns: Turn[] = [];
  for (const step of steps) {
    const last = turns[turns.length - 1];
    if (last && last.seat === step.seat) last.steps.push(step);
    else turns.push({ seat: step.seat, steps: [step] });
  }
  return turns;
}

const pileOf = (card: string): Pile => card[0] as Pile;

/** The marks of a batch, in the order of its events; a figure's moves in one batch are one
 * mark from the stone it left to the one it reached. */
export function marksOf(steps: Step[]): Mark[] {
  const marks: Mark[] = [];
  const moves = new Map<string, Mark>();
  turnsOf(steps).forEach((turn, n) => {
    const seat = turn.seat;
    for (const step of turn.steps) {
      let reached: { path: Colour; row: number } | null = null;
      let tile = "";
      for (const e of step.events) {
        switch (e.type) {
          case "moved": {
            if (!e.path || e.row === undefined) break;
            reached = { path: e.path, row: e.row };
            const key = `${seat}${e.path}`;
            const known = moves.get(key);
            if (known) {
              known.to = Math.max(known.to ?? e.row, e.row);
              known.from = Math.min(known.from ?? e.row - 1, e.row - 1);
              known.text = `move ${seat} ${e.path} ${known.from}-${known.to}`;
            } else {
              const mark: Mark = { kind: "move", seat, turn: n, path: e.path, from: e.row - 1, to: e.row, text: `move ${seat} ${e.path} ${e.row - 1}-${e.row}` };
              moves.set(key, mark);
              marks.push(mark);
            }
            break;
          }
          case "points":
            tile = `${(e.points ?? 0) > 0 ? "+" : ""}${e.points ?? 0}`;
            break;
          case "wish":
            tile = "◆";
            break;
          case "clover":
            tile = "♣";
            break;
          case "lay":
            if (e.card) marks.push({ kind: "lay", seat, turn: n, card: e.card, onto: pileOf(e.card), text: `lay ${seat} ${e.card}` });
            break;
          case "lay_onto":
            if (e.card && e.onto) marks.push({ kind: "lay", seat, turn: n, card: e.card, onto: e.onto, text: `lay ${seat} ${e.card} ${e.onto}` });
            break;
          case "discard":
            if (e.card) marks.push({ kind: "discard", seat, turn: n, card: e.card, piles: [pileOf(e.card)], text: `discard ${seat} ${e.card}` });
            break;
          case "draw_pile":
            if (e.card) marks.push({ kind: "take", seat, turn: n, card: e.card, piles: [e.pile ?? pileOf(e.card)], text: `take ${seat} ${e.card}` });
            break;
          case "claim":
            if (e.first && e.second && e.value !== undefined) {
              marks.push({
                kind: "claim", seat, turn: n, value: e.value, cards: [e.first, e.second],
                piles: [pileOf(e.first), pileOf(e.second)], text: `claim ${seat} ${e.value} ${e.first} ${e.second}`,
              });
            }
            break;
          default:
            break;
        }
      }
      if (tile && reached) {
        marks.push({ kind: "tile", seat, turn: n, path: reached.path, row: reached.row, glyph: tile, text: `tile ${seat} ${reached.path}${reached.row}` });
      }
    }
  });
  return marks;
}

/** What the board, the table and the piles draw: the marks, and the turn played back now
 * ("Show again"; null: all marks alike). */
export interface Marked {
  marks: Mark[];
  focus: number | null;
}

/** A mark's class: played back now, or dimmed while another turn is. */
export function markClass(marked: Marked | undefined, mark: Mark): string {
  if (!marked || marked.focus === null) return "";
  return mark.turn === marked.focus ? " mark-now" : " mark-dim";
}
