// What an action would do, in words: the label the server gives every legal action
// (keltis.board.labels, keltis.cards.labels), translated; and the phase's instruction.
import type { Translator } from "./i18n";
import type { Legal, View } from "./types";

export function actionLabel(t: Translator, legal: Legal): string {
  return t.label(legal.label);
}

/** The cards an action plays from the hand (lay, discard: one; a claim: two). */
export function actionCards(legal: Legal): string[] {
  return legal.cards;
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
