// Players of their own (docs/server.md, "Players of their own"): accounts and their session,
// the account's matches (the turn badge), mutes, ratings and player pages, the lobby's seeks,
// chat, time controls. The HTTP API's shapes and calls, and the session as the whole page
// shares it (a small store: useSession()).
import { useEffect, useState } from "preact/hooks";
import { ApiError, held, heldIds, hold, letGo, request, setCsrf, whenSessionLost } from "./api";
import type { Invite } from "./api";
import type { MatchInfo } from "./types";
import type { Translator } from "./i18n";

// -- shapes -------------------------------------------------------------------------------

export interface Account {
  name: string;
  language: string;
  email?: string | null;
  email_turns?: boolean;
  /** Its owner clicked the link sent to the address: only then does it get e-mails. */
  email_confirmed?: boolean;
  created?: string;
  /** The IANA time zone its e-mails write times in (null: not chosen yet, UTC). */
  time_zone?: string | null;
}

export interface SessionAnswer {
  account: Account;
  csrf: string;
}

/** A match of the account: its public description, the account's seat and its token. */
export interface AccountMatch {
  match: MatchInfo;
  seat: number;
  token: string;
  your_turn: boolean;
}

/** Another player said no to a rematch of a finished match of the account's: declined the
 * one it asked for, or withdrew the one it was asked to join (until dismissed). */
export interface RematchNotice {
  id: number;
  match: string;
  game: GameName;
  seat: number;
  name: string;
  answer: "declined" | "withdrew";
  at: string;
}

export interface AccountMatches {
  waiting: AccountMatch[];
  running: AccountMatch[];
  open: AccountMatch[];
  notices?: RematchNotice[];
}

/** A time control: real time (seconds per decision, plus a bank per seat) or correspondence
 * (days per decision). A match states what happens when it runs out (`on_timeout`). */
export type TimeControl =
  | { kind: "realtime"; decision: number; bank: number; on_timeout?: string }
  | { kind: "correspondence"; days: number; on_timeout?: string };

export type GameName = "board" | "cards";

export interface Seek {
  id: string;
  game: GameName;
  players: number;
  rated: boolean;
  time: TimeControl | null;
  rating_min: number | null;
  rating_max: number | null;
  bots_after: number | null;
  by: string;
  /** The seeker's rating in the seek's game (1500, provisional, for a new player). */
  by_rating?: ShownRating;
  seated: string[];
  created: string;
  status: string;
}

/** A rating as people read it (1500 for a new player) and whether it is provisional. */
export interface ShownRating {
  rating: number;
  provisional?: boolean;
}

export interface SeekRequest {
  game: GameName;
  players: number;
  rated: boolean;
  time: TimeControl | null;
  rating_min?: number | null;
  rating_max?: number | null;
  bots_after?: number | null;
}

export interface BoardEntry {
  name: string;
  kind: "account" | "bot";
  rating: number;
  provisional?: boolean;
  mu: number;
  sigma: number;
  games: number;
}

export interface HistoryPoint {
  at: string;
  match: string;
  rating: number;
  provisional?: boolean;
  mu: number;
  sigma: number;
}

export interface GameRating {
  rating: number;
  provisional?: boolean;
  mu: number;
  sigma: number;
  games: number;
  history: HistoryPoint[];
}

export interface RecentMatch {
  match: string;
  game: GameName;
  seat: number;
  rank: number;
  score: number | null;
  /** The players, by seat: names (or, from some servers, seats' descriptions). */
  players: (string | { name: string; kind?: string })[];
  rated: boolean;
  /** A moderator voided its rated result (its rating changes were taken back). */
  voided?: boolean;
  /** Its time control (null: none). */
  time?: TimeControl | null;
  at: string;
}

/** What a match did to its players' ratings (GET /api/matches/{id}/ratings). */
export interface RatingChanges {
  match: string;
  state: "unrated" | "pending" | "aborted" | "voided" | "rated";
  seats: { seat: number; name: string; before: number; after: number; change: number; provisional: boolean }[];
}

export interface Opponent {
  name: string;
  game: GameName;
  played: number;
  won: number;
  lost: number;
  tied: number;
}

export interface PlayerPage {
  name: string;
  kind: "account" | "bot";
  created?: string | null;
  ratings: Partial<Record<GameName, GameRating>>;
  recent: RecentMatch[];
  opponents: Opponent[];
}

export interface ChatMessage {
  type: "chat";
  id: number | string;
  channel: "players" | "spectators";
  seat: number | null;
  name: string;
  /** The author's account name (null: a guest's seat). */
  account?: string | null;
  text: string;
  at: string;
}

/** What the match's description adds for time controls and ratings (the wire types get
 * these fields with the server's work; read through these helpers until then). */
interface CommunityMatch {
  rated?: boolean;
  time?: TimeControl | null;
  options?: { rated?: boolean; time?: TimeControl | null };
  seats: { bank?: number | null; timed_out?: boolean; account?: boolean | string | null }[];
}

export function matchTime(match: MatchInfo): TimeControl | null {
  const m = match as unknown as CommunityMatch;
  return m.options?.time ?? m.time ?? null;
}

export function matchRated(match: MatchInfo): boolean {
  const m = match as unknown as CommunityMatch;
  return !!(m.rated ?? m.options?.rated);
}

export function seatBank(match: MatchInfo, seat: number): number | null {
  const found = (match as unknown as CommunityMatch).seats[seat]?.bank;
  return typeof found === "number" ? found : null;
}

/** Whether a seat is played by an account (its chat can be muted); unknown: true. */
export function seatIsAccount(match: MatchInfo, seat: number): boolean {
  const found = (match as unknown as CommunityMatch).seats[seat]?.account;
  return found === undefined || found === null ? true : !!found;
}

export function seatTimedOut(match: MatchInfo, seat: number): boolean {
  return !!(match as unknown as CommunityMatch).seats[seat]?.timed_out;
}

/** The bank of the seat to move, as the clock gives it (null: none). */
export function clockBank(clock: unknown): number | null {
  const found = (clock as { bank?: unknown } | null)?.bank;
  return typeof found === "number" ? found : null;
}

/** A refusal in words: the server's message (in the player's language), else "offline". */
export function errorText(t: Translator, error: unknown): string {
  if (error instanceof ApiError && error.message) return error.message;
  if (error instanceof ApiError && error.code === "web.not_found") return t.t("web.account.unavailable");
  return t.t("web.offline");
}

// -- calls --------------------------------------------------------------------------------

const enc = encodeURIComponent;

/** Lists the server may give bare or wrapped ({"mutes": […]}, {"messages": […]}). */
function listOf<T>(answer: unknown, key: string): T[] {
  if (Array.isArray(answer)) return answer as T[];
  const found = (answer as Record<string, unknown> | null)?.[key];
  return Array.isArray(found) ? (found as T[]) : [];
}

export const accounts = {
  register: (body: { name: string; password: string; language: string; email?: string; seats: { match: string; token: string }[] }) =>
    request<SessionAnswer>("POST", "/api/accounts", body),
  logIn: (name: string, password: string) => request<SessionAnswer>("POST", "/api/sessions", { name, password }),
  current: () => request<SessionAnswer>("GET", "/api/sessions/current"),
  logOut: () => request<void>("DELETE", "/api/sessions/current"),
  update: (body: { language?: string; email?: string | null; email_turns?: boolean }) =>
    request<Account | { account: Account }>("PATCH", "/api/me", body),
  password: (old: string, next: string) => request<void>("POST", "/api/me/password", { old, new: next }),
  remove: (password: string) => request<void>("DELETE", "/api/me", { password }),
  takeSeats: (seats: { match: string; token: string }[]) => request<unknown>("POST", "/api/me/seats", { seats }),
  matches: () => request<AccountMatches>("GET", "/api/me/matches"),
  dismissNotice: (id: number) => request<void>("DELETE", `/api/me/notices/${id}`),
  mutes: () => request<unknown>("GET", "/api/me/mutes").then((a) => listOf<string | { name: string }>(a, "mutes").map((m) => (typeof m === "string" ? m : m.name))),
  mute: (name: string) => request<unknown>("POST", "/api/me/mutes", { name }),
  unmute: (name: string) => request<unknown>("DELETE", `/api/me/mutes/${enc(name)}`),
};

export const ratings = {
  board: (game: GameName, limit = 50) => request<{ game: GameName; players: BoardEntry[] }>("GET", `/api/ratings/${enc(game)}?limit=${limit}`),
  player: (name: string) => request<PlayerPage>("GET", `/api/players/${enc(name)}`),
  changes: (match: string) => request<RatingChanges>("GET", `/api/matches/${enc(match)}/ratings`),
};

export const seeks = {
  list: () => request<{ seeks: Seek[] }>("GET", "/api/seeks"),
  open: (body: SeekRequest) => request<Seek>("POST", "/api/seeks", body),
  join: (id: string) => request<Seek>("POST", `/api/seeks/${enc(id)}/join`, {}),
  leave: (id: string) => request<unknown>("DELETE", `/api/seeks/${enc(id)}`),
};

export const chat = {
  history: (match: string, token: string | null) =>
    request<unknown>("GET", `/api/matches/${enc(match)}/chat`, undefined, token ?? undefined).then((a) =>
      listOf<ChatMessage>(a, "messages"),
    ),
  send: (match: string, text: string, token: string | null) =>
    request<unknown>("POST", `/api/matches/${enc(match)}/chat`, { text }, token ?? undefined),
};

/** The seats this browser holds as a guest (not found for an account): what an account
 * created here, or logging in here, takes over. */
export function guestSeats(): { match: string; token: string }[] {
  const found: { match: string; token: string }[] = [];
  for (const id of heldIds()) {
    const h = held(id);
    if (h?.token && !h.account) found.push({ match: id, token: h.token });
  }
  return found;
}

/** A new match's seat for this browser, the creator's bookkeeping as createAndGo keeps it. */
export type { Invite };

// -- the session, shared by the whole page ----------------------------------------------

export interface SessionState {
  /** Whether the server has said whether there is a session. */
  known: boolean;
  account: Account | null;
  /** The account's matches (GET /api/me/matches), once asked. */
  matches: AccountMatches | null;
}

let state: SessionState = { known: false, account: null, matches: null };
const listeners = new Set<() => void>();

function set(next: Partial<SessionState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

export function sessionState(): SessionState {
  return state;
}

export function useSession(): SessionState {
  const [now, setNow] = useState(state);
  useEffect(() => {
    const listener = () => setNow(state);
    listeners.add(listener);
    setNow(state);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return now;
}

function unwrapAccount(answer: Account | { account: Account }): Account {
  return "account" in answer && typeof answer.account === "object" ? answer.account : (answer as Account);
}

function signedIn(answer: SessionAnswer): Account {
  setCsrf(answer.csrf);
  set({ known: true, account: answer.account, matches: null });
  return answer.account;
}

/** Forget the account's seats in this browser's storage (at log-out: another person may use
 * this browser next). */
function forgetAccountSeats(): void {
  for (const id of heldIds()) if (held(id)?.account) letGo(id);
}

function signedOut(): void {
  setCsrf(null);
  forgetAccountSeats();
  set({ known: true, account: null, matches: null });
}

whenSessionLost(() => {
  if (state.account) signedOut();
});

/** Ask the server whether this browser has a session (once, as the page starts). */
export async function loadSession(): Promise<void> {
  try {
    signedIn(await accounts.current());
  } catch {
    // 401: no session; 404: a server without accounts; offline: try again with the next page
    setCsrf(null);
    set({ known: true, account: null });
  }
}

export async function logIn(name: string, password: string, takeGuestSeats: boolean): Promise<Account> {
  const account = signedIn(await accounts.logIn(name, password));
  if (takeGuestSeats) {
    const seats = guestSeats();
    if (seats.length) await accounts.takeSeats(seats).catch(() => undefined);
  }
  void refreshMatches();
  return account;
}

export async function register(body: { name: string; password: string; language: string; email?: string; time_zone?: string }): Promise<Account> {
  const account = signedIn(await accounts.register({ ...body, seats: guestSeats() }));
  void refreshMatches();
  return account;
}

export async function logOut(): Promise<void> {
  try {
    await accounts.logOut();
  } finally {
    signedOut();
  }
}

export async function updateAccount(body: { language?: string; email?: string | null; email_turns?: boolean; time_zone?: string | null }): Promise<Account> {
  const account = unwrapAccount(await accounts.update(body));
  set({ account: { ...state.account, ...account } });
  return account;
}

export async function deleteAccount(password: string): Promise<void> {
  await accounts.remove(password);
  signedOut();
}

let asking: Promise<AccountMatches | null> | null = null;

/** Ask for the account's matches again; their seats' tokens are kept in this browser as a
 * created match's are (so the game opens them as any other). */
export function refreshMatches(): Promise<AccountMatches | null> {
  const account = state.account;
  if (!account) return Promise.resolve(null);
  if (asking) return asking;
  asking = accounts
    .matches()
    .then(
      (found) => {
        const all = [...(found.waiting ?? []), ...(found.running ?? []), ...(found.open ?? [])];
        for (const m of all) {
          const id = m.match.id;
          const mine = held(id);
          if (!mine || mine.token !== m.token || mine.account !== account.name) {
            hold(id, { ...(mine ?? {}), seat: m.seat, token: m.token, account: account.name });
          }
        }
        if (state.account?.name === account.name) set({ matches: found });
        return found;
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401) signedOut();
        return null;
      },
    )
    .finally(() => {
      asking = null;
    });
  return asking;
}

/** Dismiss a rematch notice: gone from the header at once, and for good on the server. */
export async function dismissNotice(id: number): Promise<void> {
  const drop = () => {
    const found = state.matches;
    if (found) set({ matches: { ...found, notices: (found.notices ?? []).filter((n) => n.id !== id) } });
  };
  drop();
  await accounts.dismissNotice(id);
  drop(); // (a poll answered meanwhile may have brought it back)
}

/** Whether notifications of "your turn" are wanted here (asked for by a click, remembered). */
export function notifyWanted(): boolean {
  return localStorage.getItem("keltis.notify") === "on" && "Notification" in window && Notification.permission === "granted";
}

/** Ask for the browser's permission (call from a click) and remember the answer. */
export async function setNotify(on: boolean): Promise<boolean> {
  if (!on) {
    localStorage.setItem("keltis.notify", "off");
    return false;
  }
  if (!("Notification" in window)) return false;
  const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  localStorage.setItem("keltis.notify", answer === "granted" ? "on" : "off");
  return answer === "granted";
}

/** How often the header's badges ask the server while the page is seen, and in the
 * background. */
export const POLL_SEEN = 15_000;
export const POLL_HIDDEN = 60_000;

/** Ask with `refresh` while `who` (the account's name) is logged in: every
 * {@link POLL_SEEN} ms while the page is seen, every {@link POLL_HIDDEN} in the background,
 * and at once when it comes back into view. */
export function usePoll(who: string | undefined, refresh: () => Promise<unknown>): void {
  useEffect(() => {
    if (!who) return undefined;
    let timer: number | undefined;
    let stopped = false;
    const schedule = () => {
      window.clearTimeout(timer);
      if (!stopped) timer = window.setTimeout(ask, document.hidden ? POLL_HIDDEN : POLL_SEEN);
    };
    const ask = () => {
      void refresh().finally(schedule);
    };
    const onVisible = () => {
      if (!document.hidden) ask();
      else schedule();
    };
    ask();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [who]);
}
