// Quick pairing (#/pool, docs/web.md "Play a person now"): a small form with the defaults
// filled in (the game and players last chosen here, else the board game and two; rated; 30 s
// a decision with a 5-minute bank; people only), then a waiting screen — how long this player
// has waited, how many wait for the same game, a button to stop — that asks the server every
// POLL_MS (GET /api/pool: asking keeps the entry alive) and opens the match by itself once
// the server seated the player at a table. A guest is sent to log in first.
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, request } from "./api";
import { durationWords, timeWords } from "./clock";
import { errorText, refreshMatches, useSession } from "./community";
import type { GameName, TimeControl } from "./community";
import { useAnnounce, useT } from "./context";
import { CountChoice, DEFAULT_TIME, GameChoice, RatedChoice, TimeChoice, timeControl } from "./lobby";
import type { TimeSetting } from "./lobby";

/** How often the waiting screen asks for its entry (the server drops one not asked for in
 * 30 s). */
const POLL_MS = 2000;
/** The waits for bots offered, in seconds (0: people only). */
const BOTS_AFTER = [0, 30, 60, 120, 300];

/** The account's entry in the pool, as GET /api/pool gives it. */
export interface PoolEntry {
  game: GameName;
  players: number;
  rated: boolean;
  time: TimeControl | null;
  bots_after: number | null;
  status: "waiting" | "paired";
  match: string | null;
  joined: string;
  waited: number;
  gap: number;
  waiting: number;
}

export interface PoolRequest {
  game: GameName;
  players: number;
  rated: boolean;
  time: TimeControl | null;
  bots_after: number | null;
}

export const pool = {
  join: (body: PoolRequest) => request<PoolEntry>("POST", "/api/pool", body),
  mine: () => request<{ entry: PoolEntry | null }>("GET", "/api/pool").then((a) => a.entry),
  leave: () => request<unknown>("DELETE", "/api/pool"),
};

/** Open the match the account was seated at, once its seat is known (GET /api/me/matches:
 * the seat's token is kept in this browser as any of the account's matches). */
async function openMatch(matchId: string, go: (hash: string) => void, gone: () => boolean): Promise<void> {
  for (let i = 0; i < 6 && !gone(); i++) {
    const found = await refreshMatches();
    const all = found ? [...found.waiting, ...found.running, ...found.open] : [];
    if (all.some((m) => m.match.id === matchId)) {
      go(`#/match/${matchId}`);
      return;
    }
    await new Promise((resolve) => window.setTimeout(resolve, 400 * (i + 1)));
  }
  if (!gone()) go(`#/match/${matchId}`);
}

/** The game and the players last chosen in this form; else the pool's defaults (the board
 * game, two players: the server's too). */
function remembered(): { game: GameName; players: number } {
  const game = localStorage.getItem("keltis.pool.game");
  const players = Number(localStorage.getItem("keltis.pool.players"));
  return { game: game === "cards" ? "cards" : "board", players: [2, 3, 4].includes(players) ? players : 2 };
}

function PoolForm({ joined }: { joined: (entry: PoolEntry) => void }) {
  const t = useT();
  const [game, setGame] = useState<GameName>(() => remembered().game);
  const [players, setPlayers] = useState(() => remembered().players);
  const [rated, setRated] = useState(true);
  const [time, setTime] = useState<TimeSetting>(DEFAULT_TIME);
  const [bots, setBots] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    localStorage.setItem("keltis.pool.game", game);
    localStorage.setItem("keltis.pool.players", String(players));
    try {
      joined(await pool.join({ game, players, rated, time: timeControl(time), bots_after: bots > 0 ? bots : null }));
    } catch (e) {
      setError(errorText(t, e));
      setBusy(false);
    }
  };
  return (
    <form class="panel pool-form" onSubmit={submit} aria-labelledby="pool-title" data-testid="pool-form">
      <GameChoice value={game} set={setGame} idPrefix="pool" />
      <CountChoice label={t.t("web.players")} value={players} set={setPlayers} testid="pool-players" />
      <RatedChoice value={rated} set={setRated} testid="pool-rated" />
      <TimeChoice value={time} set={setTime} idPrefix="pool" />
      <label>
        {t.t("web.lobby.bots_choice")}
        <select value={bots} data-testid="pool-bots" onChange={(e) => setBots(Number((e.target as HTMLSelectElement).value))}>
          {BOTS_AFTER.map((s) => (
            <option key={s} value={s}>{s === 0 ? t.t("web.lobby.bots_never") : t.t("web.lobby.bots_after", { time: durationWords(t, s) })}</option>
          ))}
        </select>
      </label>
      {error && <p class="error" role="alert">{error}</p>}
      <button type="submit" class="primary big" disabled={busy} data-testid="pool-find">{t.t("web.pool.find")}</button>
    </form>
  );
}

function Waiting({ entry, stop, busy }: { entry: PoolEntry; stop: () => void; busy: boolean }) {
  const t = useT();
  // the time waited counts on between two answers, from when the entry joined as the server
  // said it (less the server's own count at that answer: no trust in this browser's clock)
  const [since] = useState(() => Date.now() - entry.waited * 1000);
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => tick((n) => n + 1), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const waited = Math.max(0, Math.floor((Date.now() - since) / 1000));
  return (
    <section class="panel pool-waiting" aria-labelledby="pool-waiting-title" data-testid="pool-waiting" aria-busy="true">
      <h2 id="pool-waiting-title">{t.t("web.pool.waiting")}</h2>
      <p class="muted" data-testid="pool-choice">
        {[
          t.t(`title.${entry.game}`),
          t.t("web.lobby.players", { count: entry.players }),
          t.t(entry.rated ? "web.rated" : "web.unrated"),
          timeWords(t, entry.time),
        ].join(" · ")}
      </p>
      <p data-testid="pool-waited">
        <strong>{t.t("web.pool.waited", { time: durationWords(t, waited) })}</strong>
      </p>
      <p data-testid="pool-others">{t.t("web.pool.others", { count: entry.waiting })}</p>
      <button type="button" disabled={busy} data-testid="pool-stop" onClick={stop}>{t.t("web.pool.stop")}</button>
    </section>
  );
}

export function PoolPage({ go }: { go: (hash: string) => void }) {
  const t = useT();
  const announce = useAnnounce();
  const { account, known } = useSession();
  const [entry, setEntry] = useState<PoolEntry | null>(null);
  const [asked, setAsked] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // whether an entry waits, as the latest answer (or the join) said
  const waitingRef = useRef(false);
  const tRef = useRef(t);
  tRef.current = t;

  useEffect(() => {
    if (known && !account) go(`#/login/${encodeURIComponent("#/pool")}`);
  }, [known, account]);

  // The entry at once, then every POLL_MS while waiting; a paired entry opens its match.
  useEffect(() => {
    if (!account) return;
    let gone = false;
    let timer = 0;
    const ask = async () => {
      try {
        const found = await pool.mine();
        if (gone) return;
        setAsked(true);
        if (found?.status === "paired" && found.match) {
          if (!waitingRef.current) {
            // paired before this page asked (an earlier visit): that match is among the
            // account's matches; this page offers a new wait
            setEntry(null);
            return;
          }
          waitingRef.current = false;
          announce(tRef.current.t("web.lobby.started"));
          setEntry(found);
          // the entry is forgotten (its match goes on), so that a later visit starts afresh
          void pool.leave().catch(() => undefined);
          await openMatch(found.match, go, () => gone);
          return;
        }
        if (!found && waitingRef.current) setNote(tRef.current.t("web.pool.dropped"));
        waitingRef.current = found?.status === "waiting";
        setEntry(found);
      } catch (e) {
        if (gone) return;
        setAsked(true);
        if (e instanceof ApiError && e.status === 401) return;
      }
      // asked on while an entry waits (a new entry starts this again)
      if (!gone && waitingRef.current) timer = window.setTimeout(ask, POLL_MS);
    };
    void ask();
    return () => {
      gone = true;
      window.clearTimeout(timer);
    };
  }, [account?.name, entry?.joined ?? ""]);

  const stop = async () => {
    setBusy(true);
    try {
      await pool.leave();
    } catch {
      // already gone (paired or dropped): the next answer says which
    }
    setBusy(false);
    waitingRef.current = false;
    setEntry(null);
    announce(t.t("web.pool.stopped"));
  };

  const joined = (found: PoolEntry) => {
    setNote(null);
    waitingRef.current = true;
    setEntry(found);
    announce(t.t("web.pool.waiting"));
  };

  return (
    <main id="main" class="pool-page">
      <h1 id="pool-title">{t.t("web.pool.play")}</h1>
      <p class="muted">{t.t("web.pool.detail")}</p>
      {note && <p class="banner warn" role="status">{note}</p>}
      {!account || !asked ? (
        <p role="status">{t.t("web.loading")}</p>
      ) : entry ? (
        <Waiting key={entry.joined} entry={entry} stop={stop} busy={busy || entry.status === "paired"} />
      ) : (
        <PoolForm joined={joined} />
      )}
    </main>
  );
}
