// Players' names as a player reads them. Every component that shows a player's name takes it
// through shownName (a seat's, through seatNames in game.tsx): a deleted account's is
// name.deleted in the page's language. The ratings pages' names, which may be a bot level's
// (bot:hard), go through playerWords, which words those too.
import type { Translator } from "./i18n";

/** The name the server gives a deleted account wherever it stays (its finished matches'
 * seats and records, its chat lines, the reports that name it): a sentinel no player can
 * have (keltis.names.DELETED_NAME, the same string; a test holds them together). */
export const DELETED_NAME = "(deleted)";

/** Whether `name` is a deleted account's: no player page, nobody to mute or report. */
export function isDeleted(name: string | null | undefined): boolean {
  return name === DELETED_NAME;
}

/** A player's name as shown: a deleted account's in the page's language, any other as it
 * is (a guest may call themself "bot:hard": only the ratings pages' names are levels). */
export function shownName(t: Translator, name: string): string {
  return isDeleted(name) ? t.t("name.deleted") : name;
}

/** A name of the ratings pages as shown: a bot level's (bot:hard) by its level's name, else
 * as shownName. */
export function playerWords(t: Translator, name: string): string {
  if (isDeleted(name)) return shownName(t, name);
  const level = name.startsWith("bot:") ? name.slice(4) : null;
  if (level && t.has(`web.level.${level}`)) return t.t("web.player.bot", { level: t.t(`web.level.${level}`) });
  return name;
}
