// A finished match, step by step, forward and back, with the board shown (the server replays
// the record: GET /api/matches/{id}/replay?ply=N gives the public view after move N).
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api } from "./api";
import type { ReplayAnswer } from "./api";
import type { Step } from "./types";
import { Board, ScoreTrack } from "./board";
import { useAnnounce, useT } from "./context";
import { seatNames, stepText } from "./game";
import { FinalScores, Piles, Players, SeatBadge, WishRow } from "./table";
import { marksOf } from "./marks";
import { RulesButton } from "./rules";
import type { Marked } from "./marks";
import { DownloadRecord } from "./export";

/** The controls' icons, drawn here (a font's ⏮ ⏭ are empty boxes where it lacks them). */
function Icon({ name }: { name: "first" | "back" | "next" | "last" }) {
  const shapes = {
    first: <><rect x="2" y="2" width="2.5" height="12" /><path d="M14 2 5.5 8 14 14Z" /></>,
    back: <path d="M12 2 3.5 8 12 14Z" />,
    next: <path d="M4 2 12.5 8 4 14Z" />,
    last: <><path d="M2 2 10.5 8 2 14Z" /><rect x="11.5" y="2" width="2.5" height="12" /></>,
  };
  return (
    <svg class="icon" viewBox="0 0 16 16" width="16" height="16" fill="currentColor" aria-hidden="true" focusable="false">
      {shapes[name]}
    </svg>
  );
}

/** Every step of a finished match, in words: the last ones from a spectator's view of the
 * match, the others from the replay's positions, fetched a few at a time. */
export function useAllSteps(id: string, total: number, seen: Step | null): Record<number, Step> {
  const [steps, setSteps] = useState<Record<number, Step>>({});
  useEffect(() => {
    if (seen) setSteps((known) => (known[seen.ply] ? known : { ...known, [seen.ply]: seen }));
  }, [seen]);
  useEffect(() => {
    if (!total) return undefined;
    let stale = false;
    const found: Record<number, Step> = {};
    const flush = () => !stale && setSteps((known) => ({ ...known, ...found }));
    (async () => {
      try {
        const response = await fetch(`/api/matches/${encodeURIComponent(id)}/view`);
        if (response.ok) {
          const answer = (await response.json()) as { log?: Step[] };
          for (const step of answer.log ?? []) found[step.ply] = step;
          flush();
        }
      } catch {
        // the positions below will do
      }
      const missing = Array.from({ length: total }, (_, i) => i + 1).filter((p) => !found[p]);
      const worker = async () => {
        while (!stale && missing.length) {
          const ply = missing.shift()!;
          try {
            const answer = await api.replay(id, ply);
            if (answer.step) found[ply] = answer.step;
          } catch {
            return;
          }
          if (Object.keys(found).length % 10 === 0) flush();
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
      flush();
    })();
    return () => {
      stale = true;
    };
  }, [id, total]);
  return steps;
}

export function Replay({ id }: { id: string }) {
  const t = useT();
  const announce = useAnnounce();
  const [ply, setPly] = useState(0);
  const [data, setData] = useState<ReplayAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stale = false;
    api.replay(id, ply).then(
      (answer) => {
        if (stale) return;
        setData(answer);
        setError(null);
      },
      (e) => !stale && setError(e instanceof ApiError && e.message ? e.message : t.t("web.offline")),
    );
    return () => {
      stale = true;
    };
  }, [id, ply]);
  const total = data?.total ?? 0;
  const names = data ? seatNames(t, data.match) : [];
  const steps = useAllSteps(id, total, data?.step ?? null);
  // The list keeps the position shown in sight (scrolling the list only, not the page).
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const box = list.current;
    const item = box?.querySelector<HTMLElement>("[aria-current]");
    if (!box || !item) return;
    const top = item.offsetTop; // (the list is the item's offset parent)
    if (top < box.scrollTop) box.scrollTop = top;
    else if (top + item.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = top + item.offsetHeight - box.clientHeight;
  }, [data?.ply, steps]);
  useEffect(() => {
    if (data) announce(data.step ? stepText(t, names, data.step) : t.t("web.replay.start"));
  }, [data]);
  useStepKeys(total, setPly);
  if (!data) {
    return (
      <main id="main" class="replay">
        {error ? <p class="error" role="alert">{error}</p> : <p role="status">{t.t("web.loading")}</p>}
      </main>
    );
  }
  const view = data.view;
  // The move shown is marked as a live game marks the others' moves (marks.ts).
  const marked: Marked = { marks: data.step ? marksOf([data.step]) : [], focus: null };
  return (
    <main id="main" class={`replay game game-${view.game}`} data-ply={data.ply} data-marks={marked.marks.map((m) => m.text).join(" | ")}>
      <div class="game-head">
        <h1>{t.t("web.replay")}: {t.t(`title.${view.game}`)}</h1>
        <RulesButton game={view.game} />
        <a class="button" href={`#/review/${id}`} data-testid="open-review">{t.t("web.review.open")}</a>
        <DownloadRecord match={id} />
        <nav class="replay-controls" aria-label={t.t("web.replay")}>
          <button type="button" onClick={() => setPly(0)} disabled={ply === 0}><Icon name="first" /> {t.t("web.replay.first")}</button>
          <button type="button" onClick={() => setPly(Math.max(0, ply - 1))} disabled={ply === 0}><Icon name="back" /> {t.t("web.replay.back")}</button>
          <label class="replay-at">
            <span>{t.t("web.replay.move", { ply: data.ply, total })}</span>
            <input type="range" min={0} max={total} value={ply} aria-label={t.t("web.replay.move", { ply: data.ply, total })}
              onInput={(e) => setPly(Number((e.target as HTMLInputElement).value))} />
          </label>
          <button type="button" onClick={() => setPly(Math.min(total, ply + 1))} disabled={ply >= total} data-testid="replay-next">{t.t("web.replay.next")} <Icon name="next" /></button>
          <button type="button" onClick={() => setPly(total)} disabled={ply >= total}>{t.t("web.replay.last")} <Icon name="last" /></button>
        </nav>
        <p class="replay-step" aria-live="off">{data.step ? stepText(t, names, data.step) : t.t("web.replay.start")}</p>
      </div>
      <div class="layout">
        <div class="table-area">
          {view.game === "board" ? (
            <div class="board-wrap">
              <Board t={t} view={view} names={names} last={data.step} targets={new Map()} act={() => undefined} marked={marked} />
              <ScoreTrack t={t} scores={view.players.map((p) => p.score)} names={names} />
            </div>
          ) : (
            <WishRow t={t} view={view} names={names} marked={marked} />
          )}
          <Piles t={t} view={view} drawTargets={new Map()} act={() => undefined} marked={marked} names={names} />
        </div>
        <div class="side">
          {view.over && view.outcome && <FinalScores t={t} outcome={view.outcome} names={names} />}
          <Players t={t} view={view} names={names} seats={data.match.seats} me={null} last={data.step} canStandIn={() => false} standIn={() => undefined} replay marked={marked} />
          <section class="replay-list" aria-labelledby="replay-moves-title">
            <h2 id="replay-moves-title">{t.t("web.replay.moves")}</h2>
            <ol ref={list} class="replay-moves">
              {Array.from({ length: total + 1 }, (_, n) => {
                const step = n > 0 ? steps[n] : null;
                return (
                  <li key={n}>
                    <button type="button" class="replay-move" data-ply={n} aria-current={n === data.ply ? "step" : undefined}
                      onClick={() => setPly(n)}>
                      <span class="ply">{n}.</span>
                      {step && <SeatBadge seat={step.seat} />}
                      <span>{n === 0 ? t.t("web.replay.start") : step ? stepText(t, names, step) : "…"}</span>
                    </button>
                  </li>
                );
              })}
            </ol>
          </section>
        </div>
      </div>
    </main>
  );
}

/** Left and right arrow keys step through positions 0…``last`` (a replay's plies, a review's
 * decisions), Home and End go to the first and the last — not while typing in a field, inside
 * a table that scrolls sideways (the arrows scroll it), with a modifier held (the browser's
 * own shortcuts) or with nothing to step through (``last`` below 0). */
export function useStepKeys(last: number, setAt: (update: (n: number) => number) => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
      if (target?.closest?.(".table-scroll")) return;
      if (event.altKey || event.ctrlKey || event.metaKey || last < 0) return;
      if (event.key === "ArrowRight") setAt((n) => Math.min(last, n + 1));
      else if (event.key === "ArrowLeft") setAt((n) => Math.max(0, n - 1));
      else if (event.key === "Home") setAt(() => 0);
      else if (event.key === "End") setAt(() => last);
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [last]);
}
