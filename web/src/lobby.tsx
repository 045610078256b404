// The lobby (#/lobby): the open seeks, live (Server-Sent Events from /api/lobby/events: the
// list at once, then each change — `seek` for a seek opened or changed, `gone` for one that
// left the list — and `started` when a seek became a match), a form to
// open a seek, and joining, leaving or cancelling one. When a seek this account sits in
// starts, the page finds the account's seat and its token (GET /api/me/matches) and opens the
// match as a created match opens. The time-control choice here is the new-match form's too.
import { useEffect, useRef, useState } from "preact/hooks";
import { durationWords, timeWords } from "./clock";
import { errorText, refreshMatches, seeks, useSession } from "./community";
import type { GameName, Seek, TimeControl } from "./community";
import { useAnnounce, useT } from "./context";
import { PlayerLink, RatingValue, ratingText } from "./ratings";
import { useBlocks } from "./moderation";

// -- the time control: a choice for forms -------------------------------------------------

export type TimeKind = "none" | "realtime" | "correspondence";

export interface TimeSetting {
  kind: TimeKind;
  decision: number;
  bank: number;
  days: number;
}

export const DEFAULT_TIME: TimeSetting = { kind: "realtime", decision: 30, bank: 300, days: 1 };

/** What Play now on the start page offers first: the board game, three players. */
export const PLAY_NOW_GAME: GameName = "board";
export const PLAY_NOW_PLAYERS = 3;

/** The game and players a form starts with: its own last choice in this browser (under
 * `key`), else Play now's last one, else Play now's first — so the lobby's form and Play now
 * agree until the player chooses otherwise. */
export function rememberedGame(key: string): GameName {
  const found = localStorage.getItem(key) ?? localStorage.getItem("keltis.game");
  return found === "board" || found === "cards" ? found : PLAY_NOW_GAME;
}

export function rememberedPlayers(key: string): number {
  const found = Number(localStorage.getItem(key) ?? localStorage.getItem("keltis.players"));
  return [2, 3, 4].includes(found) ? found : PLAY_NOW_PLAYERS;
}
/** The choices offered, in seconds (the server takes 5–600 a decision, a bank of 0–3600). */
const DECISIONS = [10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600];
const BANKS = [0, 60, 120, 180, 300, 600, 900, 1800, 3600];
const DAYS = [1, 2, 3];
const BOTS_AFTER = [0, 30, 60, 120, 300, 600];

export function timeControl(setting: TimeSetting): TimeControl | null {
  if (setting.kind === "realtime") return { kind: "realtime", decision: setting.decision, bank: setting.bank };
  if (setting.kind === "correspondence") return { kind: "correspondence", days: setting.days };
  return null;
}

/** Seconds in words for a select's options (see durationWords: the same words). */
function SecondsOptions({ values }: { values: number[] }) {
  const t = useT();
  return (
    <>
      {values.map((s) => (
        <option key={s} value={s}>
          {s === 0 ? t.t("web.time.no_bank") : durationWords(t, s)}
        </option>
      ))}
    </>
  );
}

/** The game a form asks for (the lobby's seek, the pool, a tournament): one radio each. */
export function GameChoice({ value, set, idPrefix }: {
  value: GameName;
  set: (value: GameName) => void;
  idPrefix: string;
}) {
  const t = useT();
  return (
    <fieldset>
      <legend>{t.t("web.game")}</legend>
      {(["board", "cards"] as const).map((g) => (
        <label key={g} class="radio">
          <input type="radio" name={`${idPrefix}-game`} value={g} checked={value === g} onChange={() => set(g)} />
          {t.t(`title.${g}`)}
        </label>
      ))}
    </fieldset>
  );
}

/** How many players (at a table): 2 to 4, under `label`. */
export function CountChoice({ label, value, set, testid }: {
  label: string;
  value: number;
  set: (value: number) => void;
  testid: string;
}) {
  return (
    <label>
      {label}
      <select value={value} data-testid={testid} onChange={(e) => set(Number((e.target as HTMLSelectElement).value))}>
        {[2, 3, 4].map((n) => <option key={n} value={n}>{n}</option>)}
      </select>
    </label>
  );
}

/** Rated or casual: one check box. */
export function RatedChoice({ value, set, testid }: { value: boolean; set: (value: boolean) => void; testid: string }) {
  const t = useT();
  return (
    <label class="check">
      <input type="checkbox" checked={value} data-testid={testid} onChange={(e) => set((e.target as HTMLInputElement).checked)} />
      {t.t("web.rated.choice")}
    </label>
  );
}

/** The time control: none (where `none` names what that means here), real time (a time for
 * each decision and a bank) or correspondence (days a decision). */
export function TimeChoice({ value, set, none, idPrefix }: {
  value: TimeSetting;
  set: (value: TimeSetting) => void;
  /** The words for "no time control" (left out: there is no such choice). */
  none?: string;
  idPrefix: string;
}) {
  const t = useT();
  const kinds: TimeKind[] = none ? ["none", "realtime", "correspondence"] : ["realtime", "correspondence"];
  return (
    <fieldset class="time-choice" data-testid={`${idPrefix}-time`}>
      <legend>{t.t("web.time.choice")}</legend>
      {kinds.map((kind) => (
        <label key={kind} class="radio">
          <input type="radio" name={`${idPrefix}-time-kind`} value={kind} checked={value.kind === kind}
            onChange={() => set({ ...value, kind })} />
          {kind === "none" ? none : t.t(`web.time.kind.${kind}`)}
        </label>
      ))}
      {value.kind === "realtime" && (
        <div class="time-fields">
          <label>
            {t.t("web.time.decision")}
            <select value={value.decision} data-testid={`${idPrefix}-decision`}
              onChange={(e) => set({ ...value, decision: Number((e.target as HTMLSelectElement).value) })}>
              <SecondsOptions values={DECISIONS} />
            </select>
          </label>
          <label>
            {t.t("web.time.bank_choice")}
            <select value={value.bank} data-testid={`${idPrefix}-bank`}
              onChange={(e) => set({ ...value, bank: Number((e.target as HTMLSelectElement).value) })}>
              <SecondsOptions values={BANKS} />
            </select>
          </label>
        </div>
      )}
      {value.kind === "correspondence" && (
        <div class="time-fields">
          <label>
            {t.t("web.time.days_choice")}
            <select value={value.days} data-testid={`${idPrefix}-days`}
              onChange={(e) => set({ ...value, days: Number((e.target as HTMLSelectElement).value) })}>
              {DAYS.map((d) => <option key={d} value={d}>{t.t("web.time.days", { n: d })}</option>)}
            </select>
          </label>
        </div>
      )}
    </fieldset>
  );
}

// -- the lobby ------------------------------------------------------------------------------

type Feed = "connecting" | "open" | "lost";

/** The seeks in an event's data: a list, or {"seeks": […]}. */
function seeksOf(data: string): Seek[] | null {
  try {
    const parsed = JSON.parse(data) as unknown;
    if (Array.isArray(parsed)) return parsed as Seek[];
    const found = (parsed as { seeks?: unknown }).seeks;
    return Array.isArray(found) ? (found as Seek[]) : null;
  } catch {
    return null;
  }
}

/** The JSON object in an event's data (a seek, or `{"id"}`), if it is one with an id. */
function objectOf<T extends { id: string }>(data: string): T | null {
  try {
    const parsed = JSON.parse(data) as unknown;
    if (parsed && typeof parsed === "object" && typeof (parsed as { id?: unknown }).id === "string") {
      return parsed as T;
    }
  } catch {
    // not JSON: passed over
  }
  return null;
}

/** The list with `seek` in it: in its place if it was there, else by age (oldest first). */
function withSeek(list: Seek[], seek: Seek): Seek[] {
  const at = list.findIndex((s) => s.id === seek.id);
  if (at >= 0) return [...list.slice(0, at), seek, ...list.slice(at + 1)];
  const later = list.findIndex(
    (s) => s.created > seek.created || (s.created === seek.created && s.id > seek.id),
  );
  return later < 0 ? [...list, seek] : [...list.slice(0, later), seek, ...list.slice(later)];
}

function sits(seek: Seek, name: string | undefined): boolean {
  if (!name) return false;
  const lower = name.toLowerCase();
  return seek.by.toLowerCase() === lower || seek.seated.some((n) => n.toLowerCase() === lower);
}

function SeekItem({ seek, me, busy, act }: {
  seek: Seek;
  me: string | undefined;
  busy: boolean;
  act: (seek: Seek, what: "join" | "leave") => void;
}) {
  const t = useT();
  const mine = !!me && seek.by.toLowerCase() === me.toLowerCase();
  const seated = sits(seek, me);
  const full = seek.seated.length >= seek.players;
  const id = `seek-${seek.id}`;
  const range = seek.rating_min !== null || seek.rating_max !== null;
  return (
    <li class={`seek${seated ? " mine" : ""}`} data-seek={seek.id}>
      <div class="seek-what" id={id}>
        <strong>{t.t(`title.${seek.game}`)}</strong>
        <span>{t.t("web.lobby.players", { count: seek.players })}</span>
        <span class={`tag${seek.rated ? " rated" : ""}`}>{t.t(seek.rated ? "web.rated" : "web.unrated")}</span>
        <span>{timeWords(t, seek.time)}</span>
        {range && (
          <span>
            {t.t("web.lobby.range", {
              min: seek.rating_min === null ? "–" : ratingText(t, seek.rating_min),
              max: seek.rating_max === null ? "–" : ratingText(t, seek.rating_max),
            })}
          </span>
        )}
        {seek.bots_after !== null && seek.bots_after > 0 && (
          <span>{t.t("web.lobby.bots_after", { time: durationWords(t, seek.bots_after) })}</span>
        )}
        <span class="seek-who">
          {t.t("web.lobby.seated", { count: seek.seated.length, players: seek.players })}{" "}
          {seek.seated.map((n, i) => (
            <span key={n}>
              {i > 0 && ", "}<PlayerLink name={n} />
              {/* the seeker's rating in this game (the others' are on their pages) */}
              {n === seek.by && seek.by_rating && (
                <span class="seek-rating" data-testid="seek-rating">
                  {" ("}<RatingValue rating={seek.by_rating.rating} provisional={seek.by_rating.provisional} />{")"}
                </span>
              )}
            </span>
          ))}
        </span>
      </div>
      {me && (
        <div class="seek-buttons">
          {mine ? (
            <button type="button" disabled={busy} aria-describedby={id} data-action="cancel" onClick={() => act(seek, "leave")}>
              {t.t("web.lobby.cancel")}
            </button>
          ) : seated ? (
            <button type="button" disabled={busy} aria-describedby={id} data-action="leave" onClick={() => act(seek, "leave")}>
              {t.t("web.lobby.leave")}
            </button>
          ) : (
            !full && (
              <button type="button" class="primary" disabled={busy} aria-describedby={id} data-action="join" onClick={() => act(seek, "join")}>
                {t.t("web.lobby.join")}
              </button>
            )
          )}
        </div>
      )}
    </li>
  );
}

function SeekForm({ opened }: { opened: (seek: Seek) => void }) {
  const t = useT();
  const [game, setGame] = useState<GameName>(() => rememberedGame("keltis.seek.game"));
  const [players, setPlayers] = useState(() => rememberedPlayers("keltis.seek.players"));
  const [rated, setRated] = useState(true);
  const [time, setTime] = useState<TimeSetting>(DEFAULT_TIME);
  const [min, setMin] = useState("");
  const [max, setMax] = useState("");
  const [bots, setBots] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    localStorage.setItem("keltis.seek.game", game);
    localStorage.setItem("keltis.seek.players", String(players));
    try {
      const seek = await seeks.open({
        game,
        players,
        rated,
        time: timeControl(time),
        rating_min: min.trim() === "" ? null : Number(min),
        rating_max: max.trim() === "" ? null : Number(max),
        bots_after: bots > 0 ? bots : null,
      });
      opened(seek);
    } catch (e) {
      setError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="panel seek-form" onSubmit={submit} aria-labelledby="seek-form-title" data-testid="seek-form">
      <h2 id="seek-form-title">{t.t("web.lobby.open")}</h2>
      <GameChoice value={game} set={setGame} idPrefix="seek" />
      <CountChoice label={t.t("web.players")} value={players} set={setPlayers} testid="seek-players" />
      <RatedChoice value={rated} set={setRated} testid="seek-rated" />
      <TimeChoice value={time} set={setTime} idPrefix="seek" />
      <fieldset class="range">
        <legend>{t.t("web.lobby.range_choice")}</legend>
        <label>
          {t.t("web.lobby.range_min")}
          <input type="number" step="1" inputMode="numeric" placeholder="1200" value={min} onInput={(e) => setMin((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          {t.t("web.lobby.range_max")}
          <input type="number" step="1" inputMode="numeric" placeholder="1800" value={max} onInput={(e) => setMax((e.target as HTMLInputElement).value)} />
        </label>
      </fieldset>
      <label>
        {t.t("web.lobby.bots_choice")}
        <select value={bots} data-testid="seek-bots" onChange={(e) => setBots(Number((e.target as HTMLSelectElement).value))}>
          {BOTS_AFTER.map((s) => (
            <option key={s} value={s}>{s === 0 ? t.t("web.lobby.bots_never") : t.t("web.lobby.bots_after", { time: durationWords(t, s) })}</option>
          ))}
        </select>
      </label>
      {error && <p class="error" role="alert" data-testid="seek-error">{error}</p>}
      <button type="submit" class="primary" disabled={busy} data-testid="seek-open">{t.t("web.lobby.open_button")}</button>
    </form>
  );
}

export function LobbyPage({ go }: { go: (hash: string) => void }) {
  const t = useT();
  const announce = useAnnounce();
  const { account, known } = useSession();
  const [list, setList] = useState<Seek[] | null>(null);
  const [feed, setFeed] = useState<Feed>("connecting");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The seeks this account sits in (for `started`), by id: the latest list's and the ones it
  // just opened or joined (a list may come after the start).
  const mySeeks = useRef(new Set<string>());
  const me = account?.name;
  // The seeks of players this account blocked are not shown (the server refuses the join
  // anyway: a block stands between them).
  const { isBlocked } = useBlocks();
  const shown = list?.filter((s) => sits(s, me) || !(isBlocked(s.by) || s.seated.some(isBlocked)));
  const meRef = useRef(me);
  meRef.current = me;
  const tRef = useRef(t);
  tRef.current = t;

  const remember = (found: Seek[]) => {
    for (const s of found) if (sits(s, meRef.current)) mySeeks.current.add(s.id);
  };

  useEffect(() => {
    let gone = false;
    // The list at once (the stream gives it too; whichever comes first).
    seeks.list().then(
      (answer) => {
        if (gone) return;
        setList((now) => now ?? answer.seeks);
        remember(answer.seeks);
      },
      () => undefined,
    );
    const source = new EventSource("/api/lobby/events");
    source.onopen = () => setFeed("open");
    source.onerror = () => setFeed(source.readyState === EventSource.CLOSED ? "lost" : "connecting");
    source.addEventListener("seeks", (event) => {
      const found = seeksOf((event as MessageEvent<string>).data);
      if (!found) return;
      setFeed("open");
      setList(found);
      remember(found);
    });
    source.addEventListener("seek", (event) => {
      const seek = objectOf<Seek>((event as MessageEvent<string>).data);
      if (!seek) return;
      setFeed("open");
      setList((now) => withSeek(now ?? [], seek));
      remember([seek]);
    });
    source.addEventListener("gone", (event) => {
      const gone = objectOf<{ id: string }>((event as MessageEvent<string>).data);
      if (!gone) return;
      setList((now) => (now ? now.filter((s) => s.id !== gone.id) : now));
    });
    source.addEventListener("started", (event) => {
      let data: { seek?: string; match?: string } = {};
      try {
        data = JSON.parse((event as MessageEvent<string>).data) as typeof data;
      } catch {
        return;
      }
      if (!data.seek || !data.match || !mySeeks.current.has(data.seek) || !meRef.current) return;
      const matchId = data.match;
      announce(tRef.current.t("web.lobby.started"));
      // The seat and its token: the account's matches (kept in this browser as they come).
      void (async () => {
        for (let i = 0; i < 5 && !gone; i++) {
          const found = await refreshMatches();
          const all = found ? [...found.waiting, ...found.running, ...found.open] : [];
          if (all.some((m) => m.match.id === matchId)) {
            go(`#/match/${matchId}`);
            return;
          }
          await new Promise((resolve) => window.setTimeout(resolve, 400 * (i + 1)));
        }
      })();
    });
    return () => {
      gone = true;
      source.close();
    };
  }, []);

  const act = async (seek: Seek, what: "join" | "leave") => {
    setBusy(true);
    setError(null);
    try {
      if (what === "join") {
        mySeeks.current.add(seek.id);
        await seeks.join(seek.id);
        announce(t.t("web.lobby.joined"));
      } else {
        await seeks.leave(seek.id);
        mySeeks.current.delete(seek.id);
        announce(t.t(seek.by === me ? "web.lobby.cancelled" : "web.lobby.left"));
      }
    } catch (e) {
      if (what === "join") mySeeks.current.delete(seek.id);
      setError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  const opened = (seek: Seek) => {
    mySeeks.current.add(seek.id);
    setList((now) => (now && !now.some((s) => s.id === seek.id) ? [...now, seek] : now));
    announce(t.t("web.lobby.opened"));
  };

  return (
    <main id="main" class="lobby-page">
      <h1>{t.t("web.lobby")}</h1>
      <p class="muted">{t.t("web.lobby.detail")}</p>
      {feed !== "open" && list !== null && (
        <p class="banner warn" role="status">{t.t("web.connection.lost")}</p>
      )}
      <div class="lobby-grid">
        <section class="panel" aria-labelledby="seeks-title" data-testid="seeks">
          <h2 id="seeks-title">{t.t("web.lobby.seeks")}</h2>
          {shown === undefined ? (
            <p role="status">{t.t("web.loading")}</p>
          ) : shown.length === 0 ? (
            <p class="muted">{t.t("web.lobby.none")}</p>
          ) : (
            <ul class="seek-list">
              {shown.map((s) => <SeekItem key={s.id} seek={s} me={me} busy={busy} act={act} />)}
            </ul>
          )}
          {error && <p class="error" role="alert" data-testid="lobby-error">{error}</p>}
        </section>
        {known && account ? (
          <SeekForm opened={opened} />
        ) : known ? (
          <section class="panel" aria-labelledby="seek-login-title">
            <h2 id="seek-login-title">{t.t("web.lobby.open")}</h2>
            <p>{t.t("web.lobby.login")}</p>
            <p class="button-row">
              <a class="button primary" href={`#/login/${encodeURIComponent("#/lobby")}`}>{t.t("web.account.log_in")}</a>
              <a class="button" href={`#/register/${encodeURIComponent("#/lobby")}`}>{t.t("web.account.register")}</a>
            </p>
          </section>
        ) : null}
      </div>
    </main>
  );
}
