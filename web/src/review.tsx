// A finished match's review (issue 41, docs/web.md "The review"): where each player won and
// lost it. The server computes the review (POST /api/matches/{id}/review, then GET while it
// is queued or running); this page shows its progress, then a graph of the win chances over
// the game with a table of the same numbers, each player's accuracy, marks and luck, the list
// of their decisions with a mark each, and at the decision chosen the position as that player
// saw it (GET /replay?ply=INDEX&seat=SEAT) with the move played and the better one drawn on it.
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, held } from "./api";
import type { ReplayAnswer, ReviewState } from "./api";
import type { Legal, Review, ReviewDecision, ReviewLuck, ReviewMark, Step } from "./types";
import { Board, ScoreTrack, stoneKey } from "./board";
import type { Advice, AdviceKind } from "./board";
import { useAnnounce, useT } from "./context";
import type { Translator } from "./i18n";
import { seatNames } from "./game";
import { moveWords } from "./labels";
import { shownName } from "./names";
import { CardFace, PLAYER_MARK, sortHand } from "./pieces";
import { useAllSteps, useStepKeys } from "./replay";
import { RulesButton } from "./rules";
import { Piles, Players, SeatBadge, WishRow } from "./table";

/** Each mark's symbol (the chess annotations' where they have one): never its colour alone. */
export const MARK_SYMBOL: Record<ReviewMark, string> = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
/** A swing of luck this large (of win chance, 0…1), and larger than its error, is marked on
 * the graph. */
const BIG_SWING = 0.1;
/** How many of the biggest swings are told in words. */
const SWINGS_TOLD = 5;
/** How often the page asks how far a queued or running review is (ms). */
const POLL_MS = 1000;

const percent = (t: Translator, x: number) => t.number(x, { style: "percent", maximumFractionDigits: 0 });
/** A win chance's change in points (of 100), without its sign. */
const points = (x: number) => Math.round(Math.abs(x) * 100);

/** The review's state: asked for once it is known that nobody has (GET first: opening the
 * page again asks for nothing new), then followed about once a second while it is queued or
 * running. */
function useReview(id: string): { state: ReviewState | null; error: string | null } {
  const t = useT();
  const [state, setState] = useState<ReviewState | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stale = false;
    let timer = 0;
    const token = held(id)?.token ?? null;
    const fail = (e: unknown) => {
      if (stale) return;
      setError(e instanceof ApiError && e.message ? e.message : t.t(e instanceof ApiError && e.status === 404 ? "web.not_found" : "web.offline"));
    };
    const follow = (answer: ReviewState) => {
      if (stale) return;
      setState(answer);
      setError(null);
      if (answer.status === "queued" || answer.status === "running") {
        timer = window.setTimeout(() => api.review(id, token).then(follow, fail), POLL_MS);
      }
    };
    api.review(id, token).then((answer) => {
      if (stale) return;
      if (answer.status === "none") api.askReview(id, token).then(follow, fail);
      else follow(answer);
    }, fail);
    return () => {
      stale = true;
      window.clearTimeout(timer);
    };
  }, [id]);
  return { state, error };
}

export function ReviewPage({ id }: { id: string }) {
  const t = useT();
  const { state, error } = useReview(id);
  const review = state?.status === "done" ? state.review : null;
  return (
    <main id="main" class="review" data-status={state?.status ?? "loading"}>
      {review ? (
        <ReviewShown id={id} review={review} />
      ) : (
        <>
          <div class="game-head">
            <h1>{t.t("web.review")}</h1>
            <a class="button" href={`#/replay/${id}`}>{t.t("web.replay")}</a>
          </div>
          {error ? (
            <p class="error" role="alert">{error}</p>
          ) : state?.status === "failed" ? (
            <p class="error" role="alert">{t.t("web.review.failed")}</p>
          ) : (
            <ReviewProgress t={t} state={state} />
          )}
        </>
      )}
    </main>
  );
}

/** How far the review is: a bar and the same in words (said to a screen reader as it goes,
 * by a status region; the bar itself is named and not read at each step). */
function ReviewProgress({ t, state }: { t: Translator; state: ReviewState | null }) {
  const total = state?.total ?? 0;
  const done = state?.done ?? 0;
  const words = !state || state.status === "none"
    ? t.t("web.review.asking")
    : state.status === "queued" && done === 0
      ? t.t("web.review.queued")
      : t.t("web.review.progress", { done, total });
  return (
    <section class="review-progress" data-testid="review-progress" data-done={done} data-total={total}>
      <p role="status">{words}</p>
      <progress max={Math.max(total, 1)} value={total ? done : undefined} aria-label={t.t("web.review")} />
      <p class="muted">{t.t("web.review.wait")}</p>
    </section>
  );
}

/** The move a decision played in words, as the replay tells it (its step; "…" until known). */
function playedWords(t: Translator, decision: ReviewDecision, steps: Record<number, Step>): string {
  const step = steps[decision.index + 1];
  return step ? t.events(step.events) : "…";
}

function markWord(t: Translator, mark: ReviewMark): string {
  return t.t(`review.mark.${mark}`);
}

function MarkTag({ t, mark }: { t: Translator; mark: ReviewMark }) {
  return (
    <span class={`review-mark mark-${mark}`} data-mark={mark}>
      <span class="review-mark-symbol" aria-hidden="true">{MARK_SYMBOL[mark]}</span> {markWord(t, mark)}
    </span>
  );
}

function ReviewShown({ id, review }: { id: string; review: Review }) {
  const t = useT();
  const announce = useAnnounce();
  const decisions = review.decisions;
  const [at, setAt] = useState(0);
  const steps = useAllSteps(id, review.actions, null);
  const [position, setPosition] = useState<ReplayAnswer | null>(null);
  const [names, setNames] = useState<string[]>(() => review.players.map((n) => shownName(t, n)));
  const decision: ReviewDecision | undefined = decisions[at];
  // The position of the decision chosen, as its player saw it.
  useEffect(() => {
    if (!decision) return undefined;
    let stale = false;
    api.replay(id, decision.index, decision.seat).then(
      (answer) => {
        if (stale) return;
        setPosition(answer);
        setNames(seatNames(t, answer.match));
      },
      () => !stale && setPosition(null),
    );
    return () => {
      stale = true;
    };
  }, [id, decision?.index, decision?.seat]);
  // Left and right step through the decisions, Home and End go to the first and the last.
  useStepKeys(decisions.length - 1, setAt);
  // The decision chosen is said (not the first, which the page's heading introduces), and the
  // list keeps it in sight (scrolling the list only) with the keyboard's focus on it when the
  // focus was in the list.
  const list = useRef<HTMLOListElement>(null);
  const first = useRef(true);
  useEffect(() => {
    const box = list.current;
    const item = box?.querySelector<HTMLElement>("[aria-current]");
    if (box && item) {
      const top = item.offsetTop;
      if (top < box.scrollTop) box.scrollTop = top;
      else if (top + item.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = top + item.offsetHeight - box.clientHeight;
      if (box.contains(document.activeElement) && document.activeElement !== item) item.focus({ preventScroll: true });
    }
    if (first.current) {
      first.current = false;
      return;
    }
    if (decision) announce(decisionText(t, names, decision, steps));
  }, [at]);
  const game = review.game;
  return (
    <>
      <div class="game-head">
        <h1>{t.t("web.review")}: {t.t(`title.${game}`)}</h1>
        <RulesButton game={game} />
        <a class="button" href={`#/replay/${id}`}>{t.t("web.replay")}</a>
      </div>
      <p class="review-budget" data-testid="review-budget">
        {t.t("web.review.budget", { iterations: review.budget.iterations })}
      </p>
      <Summaries t={t} review={review} names={names} />
      <WinGraph t={t} review={review} names={names} selected={decision} select={(d) => setAt(decisions.indexOf(d))} />
      <Swings t={t} review={review} names={names} />
      {decisions.length === 0 ? (
        <p>{t.t("web.review.no_decisions")}</p>
      ) : (
        <div class="layout review-layout">
          <div class="table-area">
            {decision && <PositionShown t={t} decision={decision} position={position} names={names} steps={steps} />}
          </div>
          <div class="side">
            <section class="review-list" aria-labelledby="review-moves-title">
              <h2 id="review-moves-title">{t.t("web.review.moves")}</h2>
              <p class="muted">{t.t("web.review.keys")}</p>
              <ol ref={list} class="review-moves">
                {decisions.map((d, n) => (
                  <li key={d.index}>
                    <button type="button" class="review-move" data-index={d.index} data-mark={d.mark}
                      aria-current={n === at ? "step" : undefined} onClick={() => setAt(n)}>
                      <span class="ply">{t.t("web.review.turn", { turn: d.turn + 1 })}</span>
                      <SeatBadge seat={d.seat} />
                      <span class="review-move-text">
                        <span class="sr-only">{names[d.seat]}: </span>
                        {playedWords(t, d, steps)}
                        <span class="review-move-chances">
                          {t.t("web.review.chances", { played: percent(t, d.played.win), best: percent(t, d.best.win) })}
                        </span>
                      </span>
                      <MarkTag t={t} mark={d.mark} />
                    </button>
                  </li>
                ))}
              </ol>
            </section>
          </div>
        </div>
      )}
    </>
  );
}

/** A decision in one sentence: when, who, what, its mark, the chances played and best. */
function decisionText(t: Translator, names: string[], d: ReviewDecision, steps: Record<number, Step>): string {
  return t.t("web.review.said", {
    turn: d.turn + 1,
    name: names[d.seat] ?? "?",
    move: playedWords(t, d, steps),
    mark: markWord(t, d.mark),
    played: percent(t, d.played.win),
    best: percent(t, d.best.win),
  });
}

/** Per player: accuracy, the marks that count against it, luck. */
function Summaries({ t, review, names }: { t: Translator; review: Review; names: string[] }) {
  return (
    <section class="review-summaries" aria-labelledby="review-players-title">
      <h2 id="review-players-title">{t.t("web.review.players")}</h2>
      {/* (a region the keyboard can scroll, where a narrow screen cuts the table) */}
      <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="review-players-title">
        <table class="review-table" data-testid="review-summaries">
          <thead>
            <tr>
              <th scope="col">{t.t("web.review.player")}</th>
              <th scope="col">{t.t("web.review.accuracy")}</th>
              <th scope="col"><span aria-hidden="true">{MARK_SYMBOL.inaccuracy} </span>{t.t("web.review.count.inaccuracy")}</th>
              <th scope="col"><span aria-hidden="true">{MARK_SYMBOL.mistake} </span>{t.t("web.review.count.mistake")}</th>
              <th scope="col"><span aria-hidden="true">{MARK_SYMBOL.blunder} </span>{t.t("web.review.count.blunder")}</th>
              <th scope="col">{t.t("web.review.luck")}</th>
            </tr>
          </thead>
          <tbody>
            {review.summaries.map((s) => (
              <tr key={s.seat} data-seat={s.seat}>
                <th scope="row"><SeatBadge seat={s.seat} /> {names[s.seat]}</th>
                <td data-testid="accuracy">{t.number(s.accuracy, { maximumFractionDigits: 0 })}</td>
                <td>{s.marks.inaccuracy}</td>
                <td>{s.marks.mistake}</td>
                <td>{s.marks.blunder}</td>
                <td data-testid="luck">
                  {t.number(Math.round(s.luck * 100), { signDisplay: "exceptZero" })}
                  {s.luck_error > 0 && <span class="muted"> (±{t.number(Math.round(s.luck_error * 100))})</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** A luck event's swing for the player it concerns most: the drawer's, or (the deal, which
 * gives one player what it takes from the others) the player it gave most; with the swing's
 * own 95% error (the playouts' noise) and whether the swing is larger than that. */
function swingOf(event: ReviewLuck): { seat: number; swing: number; sure: boolean } {
  let seat = event.seat ?? 0;
  if (event.seat === null) {
    event.swing.forEach((s, i) => {
      if (s > event.swing[seat]) seat = i;
    });
  }
  const swing = event.swing[seat] ?? 0;
  return { seat, swing, sure: Math.abs(swing) > (event.error[seat] ?? 0) };
}

function swingText(t: Translator, names: string[], event: ReviewLuck): string {
  const { seat, swing } = swingOf(event);
  const key = `web.review.swing.${event.kind}.${swing < 0 ? "cost" : "gain"}`;
  return t.t(key, { turn: event.turn + 1, name: names[seat] ?? "?", points: points(swing) });
}

/** The biggest swings of luck, in words: only those larger than their own error. */
function Swings({ t, review, names }: { t: Translator; review: Review; names: string[] }) {
  const told = [...review.luck]
    .filter((e) => swingOf(e).sure && points(swingOf(e).swing) >= 1)
    .sort((a, b) => Math.abs(swingOf(b).swing) - Math.abs(swingOf(a).swing))
    .slice(0, SWINGS_TOLD);
  if (!told.length) return null;
  return (
    <section class="review-swings" aria-labelledby="review-swings-title">
      <h2 id="review-swings-title">{t.t("web.review.swings")}</h2>
      <ul data-testid="review-swings">
        {told.map((e) => (
          <li key={`${e.kind}${e.index}`} data-index={e.index}>{swingText(t, names, e)}</li>
        ))}
      </ul>
    </section>
  );
}

/** The win chances over the game, as a graph: each reviewed player's chance at their own
 * decisions as they saw it (solid), each player's all-seeing chance after every draw
 * (dashed), the big swings of luck marked (triangles: up a gain, down a loss), the decisions
 * marked mistake or blunder ringed in the mark's colour, the decision chosen a vertical line.
 * The same numbers follow in a table (behind a "Table" toggle). */
function WinGraph({ t, review, names, selected, select }: {
  t: Translator; review: Review; names: string[]; selected: ReviewDecision | undefined; select: (d: ReviewDecision) => void;
}) {
  // Drawn at the width it is shown at (one unit a pixel), so that its words keep their size
  // on a phone as on a wide screen.
  const box = useRef<HTMLDivElement>(null);
  const [W, setW] = useState(640);
  useLayoutEffect(() => {
    const measure = () => {
      const width = box.current?.clientWidth ?? 640;
      setW(Math.max(280, Math.min(900, Math.round(width))));
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, []);
  const H = W < 500 ? 200 : 230;
  const left = 40;
  const right = 10;
  const top = 10;
  const bottom = 26;
  const span = Math.max(1, review.actions);
  const x = (index: number) => left + (index / span) * (W - left - right);
  const y = (p: number) => top + (1 - p) * (H - top - bottom);
  const players = review.players.map((_, seat) => seat);
  // The turns along the bottom: where each turn (every one, or every 2nd, 5th, 10th …) begins.
  const starts = new Map<number, number>();
  for (const e of [...review.luck, ...review.decisions]) {
    const turn = e.turn + 1;
    starts.set(turn, Math.min(starts.get(turn) ?? e.index, e.index));
  }
  const lastTurn = Math.max(1, ...starts.keys());
  const every = [1, 2, 5, 10, 20, 50].find((n) => lastTurn / n <= (W < 500 ? 6 : 12)) ?? 100;
  // (none under the axis's word, at the right end)
  const ticks = [...starts].sort((a, b) => a[0] - b[0]).filter(([turn, index]) => (turn === 1 || turn % every === 0) && x(index) < W - right - 50);
  const own = (seat: number) => review.decisions.filter((d) => d.seat === seat);
  const line = (pts: [number, number][]) => pts.map(([a, b], i) => `${i ? "L" : "M"}${a.toFixed(1)},${b.toFixed(1)}`).join(" ");
  return (
    <section class="review-graph" aria-labelledby="review-graph-title">
      <h2 id="review-graph-title">{t.t("web.review.graph")}</h2>
      <div ref={box} class="win-graph-box">
      <svg class="win-graph" width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${t.t("web.review.graph")}. ${t.t("web.review.graph.help")}`}
        data-testid="win-graph">
        {[0, 0.25, 0.5, 0.75, 1].map((p) => (
          <g key={p}>
            <line x1={left} x2={W - right} y1={y(p)} y2={y(p)} class={p === 0.5 ? "graph-grid half" : "graph-grid"} />
            <text x={left - 4} y={y(p) + 4} class="graph-label">{percent(t, p)}</text>
          </g>
        ))}
        {ticks.map(([turn, index]) => (
          <g key={`t${turn}`} class="graph-turn">
            <line x1={x(index)} x2={x(index)} y1={H - bottom} y2={H - bottom + 4} class="graph-grid" />
            <text x={x(index)} y={H - 8} class="graph-label turn">{turn}</text>
          </g>
        ))}
        <text x={W - right} y={H - 8} class="graph-label">{t.t("web.review.column.turn")}</text>
        {selected && <line x1={x(selected.index)} x2={x(selected.index)} y1={top} y2={H - bottom} class="graph-now" data-testid="graph-now" />}
        {players.map((seat) => {
          const luck = review.luck.map((e): [number, number] => [x(e.index), y(e.after[seat] ?? 0)]);
          return luck.length > 1 ? (
            <g key={`l${seat}`} data-seat={seat} class="graph-luck-line">
              <path d={line(luck)} class="graph-edge thin" />
              <path d={line(luck)} class="graph-luck" style={{ stroke: PLAYER_MARK[seat] }} />
            </g>
          ) : null;
        })}
        {review.seats.map((seat) => {
          const pts = own(seat).map((d): [number, number] => [x(d.index), y(d.best.win)]);
          // (on a dark edge: the first player's colour is white)
          return pts.length > 1 ? (
            <g key={`o${seat}`} data-seat={seat} class="graph-own-line">
              <path d={line(pts)} class="graph-edge" />
              <path d={line(pts)} class="graph-own" style={{ stroke: PLAYER_MARK[seat] }} />
            </g>
          ) : null;
        })}
        {review.decisions.map((d) => (
          <circle key={`d${d.index}`} cx={x(d.index)} cy={y(d.best.win)} r={d.mark === "mistake" || d.mark === "blunder" ? 5 : 2.5}
            class={`graph-decision mark-${d.mark}`} style={{ fill: PLAYER_MARK[d.seat] }} data-index={d.index} onClick={() => select(d)} />
        ))}
        {review.luck.filter((e) => swingOf(e).sure && Math.abs(swingOf(e).swing) >= BIG_SWING).map((e) => {
          const { seat, swing } = swingOf(e);
          const cx = x(e.index);
          const cy = y(e.after[seat] ?? 0);
          const d = swing > 0 ? `M${cx},${cy - 7} L${cx + 6},${cy + 4} L${cx - 6},${cy + 4}Z` : `M${cx},${cy + 7} L${cx + 6},${cy - 4} L${cx - 6},${cy - 4}Z`;
          return <path key={`s${e.index}`} d={d} class="graph-swing" style={{ fill: PLAYER_MARK[seat] }} data-index={e.index} />;
        })}
      </svg>
      </div>
      <p class="graph-legend muted">
        {players.map((seat) => (
          <span key={seat}><SeatBadge seat={seat} /> {names[seat]} </span>
        ))}
        <br />
        {t.t("web.review.graph.help")}
      </p>
      <details class="review-numbers">
        <summary>{t.t("web.review.table")}</summary>
        <GraphTable t={t} review={review} names={names} />
      </details>
    </section>
  );
}

/** The graph's numbers: each decision (its player's own chance) and each draw (everyone's
 * all-seeing chance after it), in the order of the game. */
function GraphTable({ t, review, names }: { t: Translator; review: Review; names: string[] }) {
  type Row = { index: number; order: number; turn: number; what: string; chances: (number | null)[]; key: string };
  const rows: Row[] = [
    ...review.luck.map((e) => ({
      index: e.index,
      order: 0,
      turn: e.turn,
      what: e.kind === "deal" ? t.t("web.review.row.deal") : t.t("web.review.row.draw", { name: names[e.seat ?? 0] ?? "?" }),
      chances: e.after,
      key: `l${e.index}`,
    })),
    ...review.decisions.map((d) => ({
      index: d.index,
      order: 1,
      turn: d.turn,
      what: t.t("web.review.row.decision", { name: names[d.seat] ?? "?", mark: markWord(t, d.mark) }),
      chances: review.players.map((_, seat) => (seat === d.seat ? d.best.win : null)),
      key: `d${d.index}`,
    })),
  ].sort((a, b) => a.index - b.index || a.order - b.order);
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="review-graph-title">
      <table class="review-table" data-testid="graph-table">
        <thead>
          <tr>
            <th scope="col">{t.t("web.review.column.turn")}</th>
            <th scope="col">{t.t("web.review.column.what")}</th>
            {review.players.map((_, seat) => <th scope="col" key={seat}>{names[seat]}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <td>{row.turn + 1}</td>
              <th scope="row">{row.what}</th>
              {row.chances.map((c, seat) => <td key={seat}>{c === null ? "" : percent(t, c)}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Where a move shows on the table: the cards it plays from the hand, the stone its figure
 * reaches, the pile it discards to or draws from. */
function placesOf(legal: Legal | undefined): { cards: string[]; stone: string | null; pile: string | null } {
  if (!legal) return { cards: [], stone: null, pile: null };
  const figure = legal.preview.figure;
  const stone = figure && !figure.overflow ? stoneKey(figure.path, Math.max(figure.to, 1)) : null;
  const pile = legal.kind === "draw" || legal.kind === "discard" ? legal.pile ?? legal.preview.pile ?? null : null;
  return { cards: legal.cards, stone, pile };
}

function addAdvice(into: Map<string, AdviceKind>, key: string | null, kind: "played" | "better") {
  if (!key) return;
  const was = into.get(key);
  into.set(key, was && was !== kind ? "both" : kind);
}

/** The decision chosen: the position as its player saw it, the move played and the better
 * one drawn on it (solid: played; dashed: better), a legend in words. */
function PositionShown({ t, decision, position, names, steps }: {
  t: Translator; decision: ReviewDecision; position: ReplayAnswer | null; names: string[]; steps: Record<number, Step>;
}) {
  const view = position && position.ply === decision.index ? position.view : null;
  const legal = view?.legal ?? [];
  const played = legal.find((l) => l.notation === decision.played.action);
  const better = decision.best.action !== decision.played.action ? legal.find((l) => l.notation === decision.best.action) : undefined;
  const showBetter = decision.best.action !== decision.played.action;
  const stones: Advice = new Map();
  const piles: Advice = new Map();
  const p = placesOf(played);
  const b = placesOf(showBetter ? better : undefined);
  addAdvice(stones, p.stone, "played");
  addAdvice(stones, b.stone, "better");
  addAdvice(piles, p.pile, "played");
  addAdvice(piles, b.pile, "better");
  // The hand: the cards each move plays, lifted (two equal cards are two cards).
  const hand = view?.hand ? sortHand(view.hand) : [];
  const handAdvice = new Map<number, AdviceKind>();
  for (const [cards, kind] of [[p.cards, "played"], [b.cards, "better"]] as const) {
    const used = new Set<number>();
    for (const card of cards) {
      const i = hand.findIndex((h, n) => h === card && !used.has(n));
      if (i < 0) continue;
      used.add(i);
      const was = handAdvice.get(i);
      handAdvice.set(i, was && was !== kind ? "both" : kind);
    }
  }
  const adviceWords = (kind: AdviceKind) => t.t(`web.review.advice.${kind}`);
  const playedText = played ? moveWords(t, played) : playedWords(t, decision, steps);
  const betterText = better ? moveWords(t, better) : "…";
  return (
    <section class="review-position" aria-labelledby="review-position-title" data-index={decision.index} data-seat={decision.seat}
      data-loaded={view ? "" : undefined}>
      <h2 id="review-position-title">
        {t.t("web.review.position", { turn: decision.turn + 1, name: names[decision.seat] ?? "?" })}
      </h2>
      <ul class="review-legend" data-testid="review-legend">
        <li class="legend-played">
          <span class="legend-swatch played" aria-hidden="true" />
          <span>
            {t.t("web.review.legend.played", { move: playedText, chance: percent(t, decision.played.win) })}{" "}
            <MarkTag t={t} mark={decision.mark} />
          </span>
        </li>
        {showBetter ? (
          <li class="legend-better">
            <span class="legend-swatch better" aria-hidden="true" />
            <span>{t.t("web.review.legend.better", { move: betterText, chance: percent(t, decision.best.win) })}</span>
          </li>
        ) : (
          <li class="legend-best">{t.t("web.review.legend.best")}</li>
        )}
      </ul>
      {!view ? (
        <p role="status">{t.t("web.loading")}</p>
      ) : (
        <>
          {hand.length > 0 && (
            <div class="hand review-hand" role="group" aria-label={t.t("web.review.hand", { name: names[decision.seat] ?? "?" })}>
              <h3>{t.t("web.review.hand", { name: names[decision.seat] ?? "?" })}</h3>
              <ul>
                {hand.map((card, i) => {
                  const kind = handAdvice.get(i);
                  return (
                    <li key={`${card}-${i}`}>
                      <span class={`card-button review-card${kind ? ` advice-${kind}` : ""}`} data-card={card} data-advice={kind}
                        role="img" aria-label={kind ? `${t.card(card)} (${adviceWords(kind)})` : t.card(card)}>
                        <CardFace card={card} />
                      </span>
                    </li>
                  );
                })}
              </ul>
            </div>
          )}
          {view.game === "board" ? (
            <div class="board-wrap">
              <Board t={t} view={view} names={names} last={null} targets={new Map()} act={() => undefined}
                advice={stones} adviceWords={adviceWords} />
              <ScoreTrack t={t} scores={view.players.map((pl) => pl.score)} names={names} />
            </div>
          ) : (
            <WishRow t={t} view={view} names={names} />
          )}
          <Piles t={t} view={view} drawTargets={new Map()} act={() => undefined} names={names} advice={piles} adviceWords={adviceWords} />
          {position && (
            <Players t={t} view={view} names={names} seats={position.match.seats} me={null} last={null}
              canStandIn={() => false} standIn={() => undefined} replay />
          )}
        </>
      )}
    </section>
  );
}
