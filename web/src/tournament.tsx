// Swiss tournaments for people (docs/web.md, "Tournaments"): #/tournaments lists the
// upcoming, running and finished ones (a page each) with a form to create one;
// #/tournaments/{id} is one tournament live: its players, the current round's tables with
// links to their matches (the player's own highlighted), the standings, joining and
// withdrawing; once finished, the crosstable with a link to every match. Both pages follow
// the lobby's stream (/api/lobby/events): `tournaments` when the lists changed,
// `tournament` ({"id"}) when one tournament did — then they read it again.
import { useEffect, useRef, useState } from "preact/hooks";
import { request } from "./api";
import { timeWords } from "./clock";
import { errorText, useSession } from "./community";
import type { GameName, TimeControl } from "./community";
import { useAnnounce, useT } from "./context";
import type { Translator } from "./i18n";
import { CountChoice, DEFAULT_TIME, GameChoice, RatedChoice, TimeChoice, rememberedGame, timeControl } from "./lobby";
import type { TimeSetting } from "./lobby";
import { PlayerLink } from "./ratings";

type Status = "upcoming" | "running" | "finished";
const STATUSES: Status[] = ["upcoming", "running", "finished"];

export interface TournamentInfo {
  id: string;
  name: string;
  by: string;
  game: GameName;
  /** Players at a table: 2, or 3–4. */
  per_table: number;
  rated: boolean;
  time: TimeControl | null;
  round_count: number;
  round_minutes: number;
  max_players: number;
  starts_at: string;
  status: Status;
  /** The round now played (0 before the first). */
  round: number;
  round_ends_at: string | null;
  finished_at: string | null;
  entrants: number;
}

interface TableInfo {
  number: number;
  players: string[];
  match: string | null;
  bye: boolean;
  points: number[] | null;
  mine: boolean;
}

interface RoundEntry {
  table: number;
  match: string | null;
  points: number;
  against: string[];
}

interface StandingRow {
  rank: number;
  name: string;
  rating: number;
  withdrawn: boolean;
  points: number;
  buchholz: number;
  berger: number;
  rounds: (RoundEntry | null)[];
}

interface Page {
  status: Status;
  page: number;
  per_page: number;
  total: number;
  tournaments: TournamentInfo[];
}

/** GET /api/tournaments/{id}: the description, the viewer's part, the players, the rounds
 * played with their tables, and the standings with each player's rounds (the crosstable). */
interface Detail extends TournamentInfo {
  joined: boolean;
  withdrawn: boolean;
  players: { name: string; rating: number; withdrawn: boolean }[];
  rounds: { number: number; tables: TableInfo[] }[];
  standings: StandingRow[];
}

const path = (id: string) => `/api/tournaments/${encodeURIComponent(id)}`;

const tournaments = {
  list: (status: Status, page: number) => request<Page>("GET", `/api/tournaments?status=${status}&page=${page}`),
  get: (id: string) => request<Detail>("GET", path(id)),
  create: (body: Record<string, unknown>) => request<TournamentInfo>("POST", "/api/tournaments", body),
  join: (id: string) => request<Detail>("POST", `${path(id)}/players`),
  withdraw: (id: string) => request<Detail>("DELETE", `${path(id)}/players/me`),
};

function when(t: Translator, iso: string | null): string {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : new Intl.DateTimeFormat(t.lang, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

function points(t: Translator, value: number): string {
  return t.number(value, { maximumFractionDigits: 2 });
}

/** Live changes from the lobby's stream: `kind` events (for one tournament: its id). */
function useTournamentEvents(kind: "tournaments" | "tournament", id: string | null, changed: () => void) {
  const latest = useRef(changed);
  latest.current = changed;
  useEffect(() => {
    const source = new EventSource("/api/lobby/events");
    source.addEventListener(kind, (event) => {
      if (id !== null) {
        try {
          const data = JSON.parse((event as MessageEvent<string>).data) as { id?: string };
          if (data.id !== id) return;
        } catch {
          return;
        }
      }
      latest.current();
    });
    return () => source.close();
  }, [kind, id]);
}

/** What a tournament is, in one line: the game, players per table, rounds, time, rated. */
function Facts({ info }: { info: TournamentInfo }) {
  const t = useT();
  return (
    <span class="tournament-facts">
      <strong>{t.t(`title.${info.game}`)}</strong>
      <span>{t.t("web.tournaments.per_table", { count: info.per_table })}</span>
      <span>{t.t("web.tournaments.rounds", { count: info.round_count })}</span>
      <span>{timeWords(t, info.time)}</span>
      <span class={`tag${info.rated ? " rated" : ""}`}>{t.t(info.rated ? "web.rated" : "web.unrated")}</span>
    </span>
  );
}

// -- the list -------------------------------------------------------------------------------

function StatusList({ status, stamp }: { status: Status; stamp: number }) {
  const t = useT();
  const [page, setPage] = useState(0);
  const [found, setFound] = useState<Page | null>(null);
  useEffect(() => {
    let gone = false;
    tournaments.list(status, page).then((answer) => !gone && setFound(answer), () => undefined);
    return () => {
      gone = true;
    };
  }, [status, page, stamp]);
  const pages = found ? Math.max(1, Math.ceil(found.total / found.per_page)) : 1;
  return (
    <section class="panel" aria-labelledby={`tournaments-${status}`} data-testid={`tournaments-${status}`}>
      <h2 id={`tournaments-${status}`}>{t.t(`web.tournaments.${status}`)}</h2>
      {found === null ? (
        <p role="status">{t.t("web.loading")}</p>
      ) : found.tournaments.length === 0 ? (
        <p class="muted">{t.t("web.tournaments.none")}</p>
      ) : (
        <ul class="tournament-list">
          {found.tournaments.map((info) => (
            <li key={info.id} data-tournament={info.id}>
              <a href={`#/tournaments/${encodeURIComponent(info.id)}`}>{info.name}</a>
              <Facts info={info} />
              <span class="muted">
                {t.t("web.lobby.players", { count: info.entrants })}
                {" · "}
                {status === "finished"
                  ? t.t("web.tournaments.finished_at", { when: when(t, info.finished_at) })
                  : status === "running"
                    ? t.t("web.tournaments.round_of", { round: info.round, rounds: info.round_count })
                    : t.t("web.tournaments.starts", { when: when(t, info.starts_at) })}
              </span>
            </li>
          ))}
        </ul>
      )}
      {pages > 1 && (
        <p class="button-row">
          <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>{t.t("web.tournaments.previous_page")}</button>
          <button type="button" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>{t.t("web.tournaments.next_page")}</button>
        </p>
      )}
    </section>
  );
}

/** A local date and time for a datetime-local input, `minutes` from now. */
function localInput(minutes: number): string {
  const date = new Date(Date.now() + minutes * 60000);
  date.setSeconds(0, 0);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function CreateForm({ go }: { go: (hash: string) => void }) {
  const t = useT();
  const announce = useAnnounce();
  const [name, setName] = useState("");
  const [game, setGame] = useState<GameName>(() => rememberedGame("keltis.tournament.game"));
  const [size, setSize] = useState(2);
  const [rounds, setRounds] = useState(5);
  const [starts, setStarts] = useState(() => localInput(30));
  const [rated, setRated] = useState(true);
  const [most, setMost] = useState(32);
  const [time, setTime] = useState<TimeSetting>(DEFAULT_TIME);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const made = await tournaments.create({
        name: name.trim(),
        game,
        players: size,
        rounds,
        starts_at: new Date(starts).toISOString(),
        rated,
        max_players: most,
        time: timeControl(time),
      });
      announce(t.t("web.tournaments.created"));
      go(`#/tournaments/${encodeURIComponent(made.id)}`);
    } catch (e) {
      setError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="panel tournament-form" onSubmit={submit} aria-labelledby="tournament-form-title" data-testid="tournament-form">
      <h2 id="tournament-form-title">{t.t("web.tournaments.create")}</h2>
      <label>
        {t.t("web.tournaments.name")}
        <input value={name} maxLength={48} required data-testid="tournament-name" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      </label>
      <GameChoice value={game} set={setGame} idPrefix="tournament" />
      <CountChoice label={t.t("web.tournaments.table_size")} value={size} set={setSize} testid="tournament-size" />
      <label>
        {t.t("web.tournaments.rounds_choice")}
        <select value={rounds} data-testid="tournament-rounds" onChange={(e) => setRounds(Number((e.target as HTMLSelectElement).value))}>
          {Array.from({ length: 15 }, (_, i) => i + 1).map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      </label>
      <label>
        {t.t("web.tournaments.starts_choice")}
        <input type="datetime-local" value={starts} required data-testid="tournament-starts" onInput={(e) => setStarts((e.target as HTMLInputElement).value)} />
      </label>
      <label>
        {t.t("web.tournaments.max_players")}
        <input type="number" min={2} max={100} value={most} data-testid="tournament-max" onInput={(e) => setMost(Number((e.target as HTMLInputElement).value))} />
      </label>
      <RatedChoice value={rated} set={setRated} testid="tournament-rated" />
      <TimeChoice value={time} set={setTime} none={t.t("web.time.none")} idPrefix="tournament" />
      {error && <p class="error" role="alert" data-testid="tournament-error">{error}</p>}
      <button type="submit" class="primary" disabled={busy} data-testid="tournament-create">{t.t("web.tournaments.create_button")}</button>
    </form>
  );
}

export function TournamentsPage({ go }: { go: (hash: string) => void }) {
  const t = useT();
  const { account, known } = useSession();
  const [stamp, setStamp] = useState(0);
  useTournamentEvents("tournaments", null, () => setStamp((n) => n + 1));
  return (
    <main id="main" class="tournaments-page">
      <h1>{t.t("web.tournaments")}</h1>
      <p class="muted">{t.t("web.tournaments.detail")}</p>
      <div class="lobby-grid">
        <div>
          {STATUSES.map((status) => <StatusList key={status} status={status} stamp={stamp} />)}
        </div>
        {known && account ? (
          <CreateForm go={go} />
        ) : known ? (
          <section class="panel" aria-labelledby="tournament-login-title">
            <h2 id="tournament-login-title">{t.t("web.tournaments.create")}</h2>
            <p>{t.t("web.tournaments.login")}</p>
            <p class="button-row">
              <a class="button primary" href={`#/login/${encodeURIComponent("#/tournaments")}`}>{t.t("web.account.log_in")}</a>
            </p>
          </section>
        ) : null}
      </div>
    </main>
  );
}

// -- one tournament -------------------------------------------------------------------------

/** Where a table's match opens: the player's own seat, the replay once over, else watching. */
function matchHref(table: { match: string | null; mine?: boolean }, over: boolean): string {
  const id = encodeURIComponent(table.match ?? "");
  if (over) return `#/replay/${id}`;
  return table.mine ? `#/match/${id}` : `#/watch/${id}`;
}

function Tables({ round, tables }: { round: number; tables: TableInfo[] }) {
  const t = useT();
  return (
    <section class="panel" aria-labelledby="tables-title" data-testid="tournament-tables">
      <h2 id="tables-title">{t.t("web.tournaments.tables", { round })}</h2>
      <ul class="tournament-tables">
        {tables.map((table) => {
          const over = table.points !== null;
          return (
            <li key={table.number} class={table.mine ? "mine" : ""} data-table={table.number}>
              <span class="table-number">{table.number}</span>
              <span class="table-players">
                {table.players.map((name, i) => (
                  <span key={name}>
                    {i > 0 && " – "}
                    <PlayerLink name={name} />
                    {table.points !== null && <span class="muted"> ({points(t, table.points[i])})</span>}
                  </span>
                ))}
              </span>
              {table.bye ? (
                <span class="muted">{t.t("web.tournaments.bye")}</span>
              ) : table.match ? (
                <a class={table.mine && !over ? "button primary" : ""} href={matchHref(table, over)} data-testid={table.mine ? "my-match" : undefined}>
                  {over ? t.t("web.tournaments.replay") : table.mine ? t.t("web.tournaments.your_match") : t.t("web.tournaments.watch")}
                </a>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Standings({ detail, me }: { detail: Detail; me: string | undefined }) {
  const t = useT();
  const finished = detail.status === "finished";
  const played = detail.round;
  return (
    <section class="panel standings" aria-labelledby="standings-title" data-testid="tournament-standings">
      <h2 id="standings-title">{finished ? t.t("web.tournaments.crosstable") : t.t("web.tournaments.standings")}</h2>
      <div class="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">{t.t("web.ratings.rank")}</th>
              <th scope="col">{t.t("web.ratings.player")}</th>
              <th scope="col">{t.t("web.tournaments.points")}</th>
              {Array.from({ length: played }, (_, i) => (
                <th scope="col" key={i}>{t.t("web.tournaments.round", { round: i + 1 })}</th>
              ))}
              <th scope="col">{t.t("web.tournaments.buchholz")}</th>
              <th scope="col">{t.t("web.tournaments.berger")}</th>
              <th scope="col">{t.t("web.ratings.rating")}</th>
            </tr>
          </thead>
          <tbody>
            {detail.standings.map((row) => (
              <tr key={row.name} class={me && row.name.toLowerCase() === me.toLowerCase() ? "mine" : ""}>
                <td>{row.rank}</td>
                <th scope="row">
                  <PlayerLink name={row.name} />
                  {row.withdrawn && <span class="muted"> ({t.t("web.tournaments.left")})</span>}
                </th>
                <td>{points(t, row.points)}</td>
                {row.rounds.map((entry, i) => (
                  <td key={i}>
                    {entry === null ? (
                      "–"
                    ) : entry.match ? (
                      <a href={matchHref({ match: entry.match }, true)} title={entry.against.join(", ")}>
                        {points(t, entry.points)}
                      </a>
                    ) : (
                      <span title={t.t("web.tournaments.bye")}>{points(t, entry.points)}</span>
                    )}
                  </td>
                ))}
                <td>{points(t, row.buchholz)}</td>
                <td>{points(t, row.berger)}</td>
                <td>{t.number(row.rating, { maximumFractionDigits: 1 })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="muted">{t.t("web.tournaments.tiebreaks")}</p>
    </section>
  );
}

export function TournamentPage({ id }: { id: string }) {
  const t = useT();
  const announce = useAnnounce();
  const { account, known } = useSession();
  const [found, setFound] = useState<Detail | null>(null);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = () =>
    tournaments.get(id).then(
      (answer) => setFound(answer),
      () => setMissing(true),
    );
  useEffect(() => {
    void load();
  }, [id, account?.name]);
  useTournamentEvents("tournament", id, () => void load());
  if (missing) {
    return (
      <main id="main">
        <p>{t.t("web.not_found")}</p>
      </main>
    );
  }
  if (found === null) {
    return (
      <main id="main">
        <p role="status">{t.t("web.loading")}</p>
      </main>
    );
  }
  const info = found;
  const act = async (what: "join" | "withdraw") => {
    setBusy(true);
    setError(null);
    try {
      const answer = await (what === "join" ? tournaments.join(id) : tournaments.withdraw(id));
      setFound(answer);
      announce(t.t(what === "join" ? "web.tournaments.joined" : "web.tournaments.withdrawn"));
    } catch (e) {
      setError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };
  const current = found.rounds.find((r) => r.number === info.round);
  return (
    <main id="main" class="tournament-page">
      <h1>{info.name}</h1>
      <p class="tournament-head">
        <Facts info={info} />
      </p>
      <p data-testid="tournament-status">
        {info.status === "upcoming"
          ? t.t("web.tournaments.starts", { when: when(t, info.starts_at) })
          : info.status === "running"
            ? t.t("web.tournaments.round_of", { round: info.round, rounds: info.round_count })
            : t.t("web.tournaments.finished_at", { when: when(t, info.finished_at) })}
        {" · "}
        {t.t("web.tournaments.by", { name: info.by })}
      </p>
      {info.status === "running" && info.round_ends_at && (
        <p class="muted">{t.t("web.tournaments.round_ends", { when: when(t, info.round_ends_at) })}</p>
      )}
      {info.status !== "finished" && known && (
        <p class="button-row">
          {found.joined && <span data-testid="tournament-joined">{t.t("web.tournaments.joined")}</span>}
          {!account ? (
            <a class="button primary" href={`#/login/${encodeURIComponent(`#/tournaments/${id}`)}`}>{t.t("web.account.log_in")}</a>
          ) : found.joined ? (
            <button type="button" disabled={busy} data-testid="tournament-withdraw" onClick={() => void act("withdraw")}>
              {t.t("web.tournaments.withdraw")}
            </button>
          ) : (
            <button type="button" class="primary" disabled={busy} data-testid="tournament-join" onClick={() => void act("join")}>
              {t.t("web.tournaments.join")}
            </button>
          )}
        </p>
      )}
      {error && <p class="error" role="alert" data-testid="tournament-error">{error}</p>}
      <div class="lobby-grid">
        <div>
          {current && info.status === "running" && <Tables round={current.number} tables={current.tables} />}
          {info.round > 0 && <Standings detail={found} me={account?.name} />}
        </div>
        <section class="panel" aria-labelledby="entrants-title" data-testid="tournament-players">
          <h2 id="entrants-title">
            {t.t("web.players")} ({found.players.filter((p) => !p.withdrawn).length}/{info.max_players})
          </h2>
          <ul class="plain">
            {found.players.map((p) => (
              <li key={p.name}>
                <PlayerLink name={p.name} /> <span class="muted">{t.number(p.rating, { maximumFractionDigits: 1 })}</span>
                {p.withdrawn && <span class="muted"> ({t.t("web.tournaments.left")})</span>}
              </li>
            ))}
          </ul>
        </section>
      </div>
    </main>
  );
}
