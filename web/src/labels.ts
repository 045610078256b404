// A move in words — the label the server gives every legal action (keltis.board.labels,
// keltis.cards.labels), translated — and the phase's instruction.
import type { Translator } from "./i18n";
import type { Legal, View } from "./types";

/** A move as the player reads it: the card(s) it plays from the hand, then what it does
 * (the server's label, translated). */
export function moveWords(t: Translator, legal: Legal): string {
  const words = t.label(legal.label);
  return legal.cards.length ? `${legal.cards.map((c) => t.card(c)).join(" + ")} – ${words}` : words;
}

/** The phase's instruction in words: the browser's own where the terminal's names the
 * notation (web.phase.*), else the terminal's (phase.board.* / phase.cards.*). */
export function instruction(t: Translator, view: View, name: string): string {
  const key = (phase: string) => (t.has(`web.phase.${view.game}.${phase}`) ? `web.phase.${view.game}.${phase}` : `phase.${view.game}.${phase}`);
  if (view.game === "board") {
    return t.t(key(view.phase), { name, path: view.pending ?? "" });
  }
  const count = view.phase === "draw" ? view.draws_left : view.final_lays_left;
  return t.t(key(view.phase), { name, count });
}
