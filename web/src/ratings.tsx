// Ratings: the leaderboard of each game (#/ratings/board, #/ratings/cards) and a player's page
// (#/player/{name}; a bot level's is #/player/bot:hard): the rating in each game with its
// course drawn here (inline SVG, the same numbers in a table beside it), the recent matches
// with their replays, and the results against each opponent.
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "./api";
import { timeWords } from "./clock";
import { ratings } from "./community";
import type { BoardEntry, GameName, GameRating, HistoryPoint, PlayerPage, RatingChanges, RecentMatch, TimeControl } from "./community";
import { useT } from "./context";
import type { Translator } from "./i18n";
import { PlayerActions } from "./moderation";
import { isDeleted, playerWords } from "./names";

const GAMES: GameName[] = ["board", "cards"];
/** Where every rating starts: the server shows openskill's ordinal as 1500 + 20 · ordinal
 * (docs/server.md, "Ratings"), and a new player's ordinal is 0. */
const START_RATING = 1500;

/** A rating as shown: a whole number, as the server gives it. */
export function ratingText(t: Translator, rating: number): string {
  return t.number(Math.round(rating), { maximumFractionDigits: 0, useGrouping: false });
}

/** A rating with, while it is provisional, a "?" whose title says why in words (read by
 * screen readers from the hidden text beside it). */
export function RatingValue({ rating, provisional, testid }: { rating: number; provisional?: boolean; testid?: string }) {
  const t = useT();
  const why = t.t("web.rating.provisional");
  return (
    <span class="rating-value" data-rating={rating} data-provisional={provisional ? "true" : undefined} data-testid={testid}>
      {ratingText(t, rating)}
      {provisional && (
        <>
          <span class="provisional" title={why} aria-hidden="true">?</span>
          <span class="sr-only"> ({why})</span>
        </>
      )}
    </span>
  );
}

/** What the "?" means, in words under a list that shows one (a title is no help on a phone,
 * which has no pointer to hover with). */
export function ProvisionalNote() {
  const t = useT();
  return (
    <p class="muted provisional-note" data-testid="provisional-note">
      <span aria-hidden="true">? </span>
      {t.t("web.rating.provisional")}
    </p>
  );
}

/** A rating's change as signed points: "+37", "−12", "±0". */
export function changeText(t: Translator, change: number): string {
  const size = t.number(Math.abs(Math.round(change)), { maximumFractionDigits: 0, useGrouping: false });
  return change > 0 ? `+${size}` : change < 0 ? `−${size}` : `±${size}`;
}

/** What kind of match it is, as every list of matches says: rated or not, and its time
 * control ("no time control", "30 seconds a move…", "correspondence, 3 days a move"). */
export function MatchKind({ rated, time }: { rated: boolean; time: TimeControl | null | undefined }) {
  const t = useT();
  return (
    <>
      <span class={`tag${rated ? " rated" : ""}`} data-testid="match-rated">{t.t(rated ? "web.rated" : "web.unrated")}</span>
      <span class="match-time" data-testid="match-time" data-kind={time ? time.kind : "none"}>{timeWords(t, time)}</span>
    </>
  );
}

/** The final screen's rating changes of a rated match: asked for until the server has rated
 * it (a moment after its end), then each seat's new rating and its change. */
export function RatingChangesView({ match }: { match: string }) {
  const t = useT();
  const [data, setData] = useState<RatingChanges | null>(null);
  useEffect(() => {
    let stale = false;
    let timer: number | undefined;
    let tries = 0;
    const ask = () => {
      ratings.changes(match).then(
        (found) => {
          if (stale) return;
          setData(found);
          if (found.state === "pending" && ++tries < 60) timer = window.setTimeout(ask, 1000);
        },
        () => {
          if (!stale && ++tries < 60) timer = window.setTimeout(ask, 2000);
        },
      );
    };
    ask();
    return () => {
      stale = true;
      window.clearTimeout(timer);
    };
  }, [match]);
  if (!data || data.state === "unrated" || data.state === "aborted") return null;
  return (
    <section class="rating-changes" aria-labelledby="rating-changes-title" data-testid="rating-changes" data-state={data.state}>
      <h3 id="rating-changes-title">{t.t("web.rating.changes")}</h3>
      {data.state === "pending" && <p class="muted" role="status">{t.t("web.rating.pending")}</p>}
      {data.state === "voided" && <p class="muted">{t.t("web.player.voided")}</p>}
      {data.state === "rated" && (
        <ul>
          {data.seats.map((s) => (
            <li key={s.seat} data-seat={s.seat} data-change={s.change}>
              <PlayerLink name={s.name} />{" "}
              <RatingValue rating={s.after} provisional={s.provisional} />{" "}
              <span class={`rating-change${s.change > 0 ? " up" : s.change < 0 ? " down" : ""}`}
                aria-label={t.t("web.rating.change", { change: changeText(t, s.change), before: ratingText(t, s.before) })}>
                {changeText(t, s.change)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {data.state === "rated" && data.seats.some((s) => s.provisional) && <ProvisionalNote />}
    </section>
  );
}

export function dateText(t: Translator, iso: string | null | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(t.lang, { dateStyle: "medium" }).format(date);
}

/** A player's name as a link to their page; a deleted account's is words, no link (it has
 * no page). */
export function PlayerLink({ name }: { name: string }) {
  const t = useT();
  if (isDeleted(name)) return <span class="deleted-name">{playerWords(t, name)}</span>;
  return <a href={`#/player/${encodeURIComponent(name)}`} data-player={name}>{playerWords(t, name)}</a>;
}

function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | null; error: string | null; missing: boolean } {
  const t = useT();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    let stale = false;
    setData(null);
    setError(null);
    setMissing(false);
    load().then(
      (found) => !stale && setData(found),
      (e: unknown) => {
        if (stale) return;
        if (e instanceof ApiError && e.status === 404) setMissing(true);
        setError(e instanceof ApiError && e.message ? e.message : t.t(e instanceof ApiError && e.status === 404 ? "web.not_found" : "web.offline"));
      },
    );
    return () => {
      stale = true;
    };
  }, deps);
  return { data, error, missing };
}

export function Leaderboard({ game }: { game: GameName }) {
  const t = useT();
  const { data, error } = useLoad(() => ratings.board(game), [game]);
  const players: BoardEntry[] = data?.players ?? [];
  return (
    <main id="main" class="ratings-page">
      <h1>{t.t("web.ratings")}</h1>
      <nav class="tabs" aria-label={t.t("web.game")}>
        {GAMES.map((g) => (
          <a key={g} class="button" href={`#/ratings/${g}`} aria-current={g === game ? "page" : undefined} data-game={g}>
            {t.t(`title.${g}`)}
          </a>
        ))}
      </nav>
      <p class="muted">{t.t("web.ratings.detail")}</p>
      {error && <p class="error" role="alert">{error}</p>}
      {!data && !error && <p role="status">{t.t("web.loading")}</p>}
      {data && players.length === 0 && <p class="muted">{t.t("web.ratings.none")}</p>}
      {players.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="board-caption">
          <table class="data-table board-table" data-testid="leaderboard">
            <caption id="board-caption">{t.t("web.ratings.caption", { game: t.t(`title.${game}`) })}</caption>
            <thead>
              <tr>
                <th scope="col" class="num">{t.t("web.ratings.rank")}</th>
                <th scope="col">{t.t("web.ratings.player")}</th>
                <th scope="col" class="num">{t.t("web.ratings.rating")}</th>
                <th scope="col" class="num">{t.t("web.ratings.games")}</th>
              </tr>
            </thead>
            <tbody>
              {players.map((p, i) => (
                <tr key={p.name} data-player={p.name} class={p.kind === "bot" ? "bot" : undefined}>
                  <td class="num">{i + 1}</td>
                  <th scope="row"><PlayerLink name={p.name} /></th>
                  <td class="num"><RatingValue rating={p.rating} provisional={p.provisional} /></td>
                  <td class="num">{p.games}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {players.some((p) => p.provisional) && <ProvisionalNote />}
    </main>
  );
}

/** The drawing's width: its box's, in CSS pixels (so that its words keep their size). */
function useWidth(): [{ current: HTMLElement | null }, number] {
  const box = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(600);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const measure = () => setWidth(Math.max(240, Math.round(el.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [box, width];
}

/** Grid lines at round ratings (multiples of 10: steps of 10, 20, 40, 50, 100, 200, 250, …)
 * between `lo` and `hi`, two to four of them, so that the axis reads 1500, 1550, 1600 rather
 * than the odd values of a range's tenths: the finest such step with at most four lines,
 * never one that leaves fewer than two (a narrow range, after one rated match, drew one). */
export function roundTicks(lo: number, hi: number): number[] {
  const within = (step: number): number[] => {
    const ticks: number[] = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) ticks.push(v);
    return ticks;
  };
  let fallback: number[] = within(10);
  for (const m of [1, 2, 4, 5, 10, 20, 25, 40, 50, 100, 200, 250, 500]) {
    const ticks = within(10 * m);
    if (ticks.length < 2) break;
    fallback = ticks;
    if (ticks.length <= 4) return ticks;
  }
  return fallback;
}

/** The rating's course: a line from where every rating starts over the rated matches, its
 * numbers in the table below (the drawing's text alternative); the drawing itself says the
 * first, last, lowest and highest. */
function RatingChart({ t, game, history }: { t: Translator; game: GameName; history: HistoryPoint[] }) {
  const [box, W] = useWidth();
  const H = 190;
  const pad = { left: 46, right: 14, top: 12, bottom: 26 };
  const values = [START_RATING, ...history.map((h) => h.rating)];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 40) {
    lo -= 20;
    hi += 20;
  }
  const span = hi - lo;
  lo -= span * 0.08;
  hi += span * 0.08;
  const x = (i: number) => pad.left + (i * (W - pad.left - pad.right)) / (values.length - 1);
  const y = (v: number) => pad.top + ((hi - v) * (H - pad.top - pad.bottom)) / (hi - lo);
  const ticks = roundTicks(lo, hi);
  const path = values.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(" ");
  const summary = t.t("web.player.chart", {
    game: t.t(`title.${game}`),
    count: history.length,
    first: ratingText(t, values[0]),
    last: ratingText(t, values[values.length - 1]),
    low: ratingText(t, Math.min(...values)),
    high: ratingText(t, Math.max(...values)),
  });
  return (
    <figure class="rating-chart" ref={box}>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={summary} data-testid={`chart-${game}`}>
        {ticks.map((v) => (
          <g key={v} class="chart-tick">
            <line x1={pad.left} x2={W - pad.right} y1={y(v)} y2={y(v)} />
            <text x={pad.left - 6} y={y(v) + 4} text-anchor="end">{ratingText(t, v)}</text>
          </g>
        ))}
        <line class="chart-axis" x1={pad.left} x2={pad.left} y1={pad.top} y2={H - pad.bottom} />
        <line class="chart-axis" x1={pad.left} x2={W - pad.right} y1={H - pad.bottom} y2={H - pad.bottom} />
        <path class="chart-line" d={path} />
        {values.map((v, i) => (
          <circle key={i} class={i ? "chart-dot" : "chart-dot start"} cx={x(i)} cy={y(v)} r={values.length > 60 ? 2 : 3.5} />
        ))}
        <text class="chart-label" x={pad.left} y={H - 7}>{dateText(t, history[0].at)}</text>
        {history.length > 1 && (
          <text class="chart-label" x={W - pad.right} y={H - 7} text-anchor="end">{dateText(t, history[history.length - 1].at)}</text>
        )}
      </svg>
      <figcaption>{summary}</figcaption>
    </figure>
  );
}

function GameRatingView({ t, game, rating }: { t: Translator; game: GameName; rating: GameRating }) {
  const history = rating.history ?? [];
  return (
    <section class="panel game-rating" aria-labelledby={`rating-${game}`} data-game={game}>
      <h3 id={`rating-${game}`}>{t.t(`title.${game}`)}</h3>
      <p class="rating-line">
        <span class="big-rating"><RatingValue rating={rating.rating} provisional={rating.provisional} testid={`rating-${game}`} /></span>{" "}
        <span class="muted">{t.t("web.player.games", { count: rating.games })}</span>
      </p>
      {history.length > 0 && <RatingChart t={t} game={game} history={history} />}
      {history.length > 0 && (
        <details class="history">
          <summary>{t.t("web.player.history")}</summary>
          <div class="table-wrap" tabIndex={0} role="region" aria-label={t.t("web.player.history")}>
            <table class="data-table">
              <thead>
                <tr>
                  <th scope="col">{t.t("web.player.date")}</th>
                  <th scope="col" class="num">{t.t("web.ratings.rating")}</th>
                  <th scope="col">{t.t("web.player.match")}</th>
                </tr>
              </thead>
              <tbody>
                {[...history].reverse().map((h, i) => (
                  <tr key={`${h.match}-${i}`}>
                    <td>{dateText(t, h.at)}</td>
                    <td class="num"><RatingValue rating={h.rating} provisional={h.provisional} /></td>
                    <td><a href={`#/replay/${h.match}`}>{t.t("web.replay")}</a></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </section>
  );
}

function playersOf(m: RecentMatch): string[] {
  return (m.players ?? []).map((p) => (typeof p === "string" ? p : p.name));
}

export function PlayerPageView({ name }: { name: string }) {
  const t = useT();
  const { data, error, missing } = useLoad<PlayerPage>(() => ratings.player(name), [name]);
  if (!data) {
    return (
      <main id="main" class="player-page">
        <h1>{playerWords(t, name)}</h1>
        {missing ? <p role="alert">{t.t("web.player.none")}</p> : error ? <p class="error" role="alert">{error}</p> : <p role="status">{t.t("web.loading")}</p>}
      </main>
    );
  }
  const games = GAMES.filter((g) => data.ratings?.[g]);
  return (
    <main id="main" class="player-page" data-player={data.name}>
      <h1>{playerWords(t, data.name)}</h1>
      <p class="muted">
        {data.kind === "bot" ? t.t("web.player.is_bot") : data.created ? t.t("web.player.since", { date: dateText(t, data.created) }) : ""}
      </p>
      {data.kind === "account" && <PlayerActions name={data.name} />}
      <section aria-labelledby="player-ratings">
        <h2 id="player-ratings">{t.t("web.player.ratings")}</h2>
        {games.length === 0 ? (
          <p class="muted">{t.t("web.player.unrated")}</p>
        ) : (
          <div class="rating-grid">
            {games.map((g) => <GameRatingView key={g} t={t} game={g} rating={data.ratings[g]!} />)}
          </div>
        )}
        {games.some((g) => data.ratings[g]?.provisional) && <ProvisionalNote />}
      </section>
      <section aria-labelledby="player-recent">
        <h2 id="player-recent">{t.t("web.player.recent")}</h2>
        {data.recent.length === 0 ? (
          <p class="muted">{t.t("web.player.no_matches")}</p>
        ) : (
          <ul class="recent-list" data-testid="recent">
            {data.recent.map((m) => {
              const names = playersOf(m);
              const others = names.filter((_, seat) => seat !== m.seat);
              return (
                <li key={m.match} data-match={m.match}>
                  <div class="recent-what" id={`recent-${m.match}`}>
                    <strong>{t.t(`title.${m.game}`)}</strong>
                    <span>{dateText(t, m.at)}</span>
                    <span>{t.t("web.player.against", { names: others.map((n) => playerWords(t, n)).join(", ") })}</span>
                    <span>{t.t("web.player.place", { rank: m.rank, players: names.length || 2 })}</span>
                    {typeof m.score === "number" && <span>{t.t("web.player.score", { score: m.score })}</span>}
                    <MatchKind rated={m.rated} time={m.time} />
                    {m.voided && <span class="tag" data-testid="voided">{t.t("web.player.voided")}</span>}
                  </div>
                  <a class="button small-button" href={`#/replay/${m.match}`} aria-describedby={`recent-${m.match}`}>{t.t("web.replay")}</a>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section aria-labelledby="player-opponents">
        <h2 id="player-opponents">{t.t("web.player.opponents")}</h2>
        {data.opponents.length === 0 ? (
          <p class="muted">{t.t("web.player.no_matches")}</p>
        ) : (
          GAMES.filter((g) => data.opponents.some((o) => o.game === g)).map((g) => (
            <div key={g} class="table-wrap" tabIndex={0} role="region" aria-labelledby={`opponents-${g}`}>
              <table class="data-table" data-testid="opponents" data-game={g}>
                <caption id={`opponents-${g}`}>{t.t(`title.${g}`)}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t.t("web.player.opponent")}</th>
                    <th scope="col" class="num">{t.t("web.player.played")}</th>
                    <th scope="col" class="num">{t.t("web.player.won")}</th>
                    <th scope="col" class="num">{t.t("web.player.lost")}</th>
                    <th scope="col" class="num">{t.t("web.player.tied")}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.opponents.filter((o) => o.game === g).map((o) => (
                    <tr key={o.name} data-opponent={o.name}>
                      <th scope="row"><PlayerLink name={o.name} /></th>
                      <td class="num">{o.played}</td>
                      <td class="num">{o.won}</td>
                      <td class="num">{o.lost}</td>
                      <td class="num">{o.tied}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))
        )}
      </section>
    </main>
  );
}
