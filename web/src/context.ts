// The translator every component words its text with (re-rendered on a language switch).
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Translator } from "./i18n";

export const I18n = createContext<Translator | null>(null);

export function useT(): Translator {
  const found = useContext(I18n);
  if (!found) throw new Error("no translator");
  return found;
}

/** Polite announcements for screen readers (one aria-live region in the page). */
type Announce = (text: string) => void;
export const Announcer = createContext<Announce>(() => undefined);
export const useAnnounce = (): Announce => useContext(Announcer);
/** Take back an announcement that belongs to a page being left (a match's last event): the
 * live region is emptied if it still says that text, so that a screen reader does not read
 * it again on the next page. */
export const Retractor = createContext<Announce>(() => undefined);
export const useRetract = (): Announce => useContext(Retractor);
