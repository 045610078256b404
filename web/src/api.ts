// The game server's HTTP API (docs/server.md) and what the browser keeps of it: each seat's
// secret token in localStorage, under the match's id, so a reload or a restart of the server
// finds the seat again.
import type { Level, MatchInfo, Outcome, Review, Step, View } from "./types";
import type { TimeControl } from "./community";

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(code: string, message: string, status: number) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

let currentLang = "en";
export function setApiLanguage(lang: string): void {
  currentLang = lang;
}

// -- the account's session (docs/server.md, "Accounts and sessions") ----------------------
// The session itself is an HttpOnly cookie the browser sends by itself; what the page keeps is
// the session's `csrf`, in memory only, sent as X-CSRF-Token with every request that changes
// something. Until the first GET /api/sessions/current has answered, such requests wait for
// it (a request sent without the token would be refused as cross-site).

let csrf: string | null = null;
let sessionKnown: () => void = () => undefined;
const sessionReady: Promise<void> = new Promise((resolve) => {
  sessionKnown = resolve;
});
/** Called when the server says the session is gone (expired, ended elsewhere). */
let onSessionLost: () => void = () => undefined;

/** The session's CSRF token from a log-in or GET /api/sessions/current (null: none). */
export function setCsrf(token: string | null): void {
  csrf = token;
  sessionKnown();
}

export function whenSessionLost(handler: () => void): void {
  onSessionLost = handler;
}

const CHANGES = new Set(["POST", "PATCH", "PUT", "DELETE"]);

export async function request<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = { "Accept-Language": currentLang };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (CHANGES.has(method)) {
    // (never waits long: the session's first answer comes with the page)
    await Promise.race([sessionReady, new Promise((resolve) => window.setTimeout(resolve, 5000))]);
    if (csrf) headers["X-CSRF-Token"] = csrf;
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("web.offline", "", 0);
  }
  if (response.status === 204) return undefined as T;
  const data = (await response.json().catch(() => null)) as
    | (T & { error?: { code: string; message: string } })
    | null;
  if (!response.ok || data === null) {
    const error = data?.error;
    const code = error?.code ?? (response.status === 404 ? "web.not_found" : "web.offline");
    if (response.status === 401 && code === "account.no_session" && path !== "/api/sessions/current" && !token) {
      onSessionLost();
    }
    throw new ApiError(code, error?.message ?? "", response.status);
  }
  return data;
}

export interface LevelInfo {
  level: Level;
  name: string;
  description: string;
}

export interface GameInfo {
  name: "board" | "cards";
  players: number[];
  variant: Record<string, unknown>;
  /** The numbers the game scores by (tables.ts). */
  tables: Record<string, unknown>;
}

export interface GamesAnswer {
  games: GameInfo[];
  levels: LevelInfo[];
}

export interface SeatRequest {
  kind: "person" | "bot";
  level?: Level;
}

export interface CreateRequest {
  game: "board" | "cards";
  seats: SeatRequest[];
  variant?: Record<string, unknown>;
  hints?: boolean;
  undo?: boolean;
  public?: boolean;
  /** The turn clock: seconds for each decision, null for none (left out: the server's
   * default, 300 with two or more people, none otherwise). */
  turn_seconds?: number | null;
  name?: string;
  seat?: number | null;
  start?: boolean;
  setup?: unknown;
  /** A guided first game by name ("board", "cards"): the server sets up the rest. */
  tutorial?: string;
  /** Rated (community.ts): every seat an account or a bot, the creator logged in. */
  rated?: boolean;
  /** A time control (community.ts), instead of the turn clock. */
  time?: TimeControl | null;
}

/** A guided first game's script (GET /api/tutorials/{name}, keltis.server.tutorials). */
export interface TutorialStep {
  ply: number;
  move: string;
  /** "card:G3", "pile:deck", "pile:G", "prompt:big", "stone:G3". */
  point: string;
  key: string;
}

export interface TutorialScript {
  name: string;
  game: "board" | "cards";
  steps: TutorialStep[];
  done: string;
  free: string;
}

export interface Invite {
  seat: number;
  invite: string;
  link: string;
}

export interface CreateAnswer {
  id: string;
  host_token: string;
  seat: number | null;
  token: string | null;
  invites: Invite[];
  watch: string;
  match: MatchInfo;
}

export interface ReplayAnswer {
  ply: number;
  total: number;
  view: View;
  step: Step | null;
  match: MatchInfo;
}

/** A review's state (GET/POST /api/matches/{id}/review, docs/server.md): queued or running
 * with its progress (steps done of total), done with the review, failed, or none asked. */
export interface ReviewState {
  status: "none" | "queued" | "running" | "done" | "failed";
  done: number;
  total: number;
  review: Review | null;
}

export const api = {
  games: () => request<GamesAnswer>("GET", "/api/games"),
  create: (body: CreateRequest) => request<CreateAnswer>("POST", "/api/matches", body),
  list: (status: "open" | "running" | "finished") =>
    request<{ matches: MatchInfo[] }>("GET", `/api/matches?status=${status}`),
  describe: (id: string) => request<MatchInfo>("GET", `/api/matches/${encodeURIComponent(id)}`),
  join: (id: string, invite: string, name: string) =>
    request<{ seat: number; token: string; match: MatchInfo }>(
      "POST",
      `/api/matches/${encodeURIComponent(id)}/join`,
      { invite, name },
    ),
  start: (id: string, hostToken: string) =>
    request<MatchInfo>("POST", `/api/matches/${encodeURIComponent(id)}/start`, {}, hostToken),
  again: (id: string, token: string) =>
    request<{ id: string; seat: number; token: string; match: MatchInfo }>(
      "POST",
      `/api/matches/${encodeURIComponent(id)}/again`,
      {},
      token,
    ),
  /** Say no to playing again (a seat's token of the finished match): withdraw from the
   * next match waiting, or decline it; either way it is cancelled. */
  noAgain: (id: string, token: string) =>
    request<{ answer: "declined" | "withdrew"; next: string; repeated: boolean; match: MatchInfo }>(
      "DELETE",
      `/api/matches/${encodeURIComponent(id)}/again`,
      undefined,
      token,
    ),
  tutorial: (name: string) => request<TutorialScript>("GET", `/api/tutorials/${encodeURIComponent(name)}`),
  /** The position after `ply` actions; with `seat`, as that seat saw it (its own hand and
   * its moves open then: a finished match's record is public). */
  replay: (id: string, ply: number, seat?: number) =>
    request<ReplayAnswer>(
      "GET",
      `/api/matches/${encodeURIComponent(id)}/replay?ply=${ply}${seat === undefined ? "" : `&seat=${seat}`}`,
    ),
  /** Ask for a finished match's review (a seat's token, where this browser holds one, shows
   * that it took part); the server computes nothing new for one asked before. */
  askReview: (id: string, token?: string | null) =>
    request<ReviewState>("POST", `/api/matches/${encodeURIComponent(id)}/review`, {}, token ?? undefined),
  review: (id: string, token?: string | null) =>
    request<ReviewState>("GET", `/api/matches/${encodeURIComponent(id)}/review`, undefined, token ?? undefined),
};

/** What this browser holds for a match: the seat's token, and for its creator the host token
 * and the invites still to hand out. */
export interface Held {
  seat: number | null;
  token: string | null;
  host?: string;
  invites?: Invite[];
  watch?: string;
  /** The guided first game this match is (its script's name). */
  tutorial?: string;
  /** The account this seat was found for (GET /api/me/matches): forgotten at log-out. */
  account?: string;
}

export function held(id: string): Held | null {
  try {
    const raw = localStorage.getItem(`keltis.match.${id}`);
    return raw ? (JSON.parse(raw) as Held) : null;
  } catch {
    return null;
  }
}

export function hold(id: string, value: Held): void {
  localStorage.setItem(`keltis.match.${id}`, JSON.stringify(value));
}

/** Every match this browser holds something of (a seat, or the host's token): their ids. */
export function heldIds(): string[] {
  const ids: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith("keltis.match.")) ids.push(key.slice("keltis.match.".length));
  }
  return ids;
}

/** Forget what this browser holds of a match (one the server no longer knows). */
export function letGo(id: string): void {
  localStorage.removeItem(`keltis.match.${id}`);
}

export function playerName(): string {
  return localStorage.getItem("keltis.name") ?? "";
}

export function setPlayerName(name: string): void {
  localStorage.setItem("keltis.name", name);
}

export type { Outcome };
