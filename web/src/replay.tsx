// A finished match, step by step, forward and back, with the board shown (the server replays
// the record: GET /api/matches/{id}/replay?ply=N gives the public view after move N).
import { useEffect, useState } from "preact/hooks";
import { ApiError, api } from "./api";
import type { ReplayAnswer } from "./api";
import { Board, ScoreTrack } from "./board";
import { useAnnounce, useT } from "./context";
import { seatNames, stepText } from "./game";
import { FinalScores, Piles, Players, WishRow } from "./table";

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
  useEffect(() => {
    if (data) announce(data.step ? stepText(t, names, data.step) : t.t("web.replay.start"));
  }, [data]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.target as HTMLElement | null)?.tagName === "INPUT") return;
      if (event.key === "ArrowRight") setPly((p) => Math.min(total, p + 1));
      else if (event.key === "ArrowLeft") setPly((p) => Math.max(0, p - 1));
      else if (event.key === "Home") setPly(0);
      else if (event.key === "End") setPly(total);
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [total]);
  if (!data) {
    return (
      <main id="main" class="replay">
        {error ? <p class="error" role="alert">{error}</p> : <p role="status">{t.t("web.loading")}</p>}
      </main>
    );
  }
  const view = data.view;
  return (
    <main id="main" class={`replay game game-${view.game}`} data-ply={data.ply}>
      <div class="game-head">
        <h1>{t.t("web.replay")}: {t.t(`title.${view.game}`)}</h1>
        <nav class="replay-controls" aria-label={t.t("web.replay")}>
          <button type="button" onClick={() => setPly(0)} disabled={ply === 0}>⏮ {t.t("web.replay.first")}</button>
          <button type="button" onClick={() => setPly(Math.max(0, ply - 1))} disabled={ply === 0}>◀ {t.t("web.replay.back")}</button>
          <label class="replay-at">
            <span>{t.t("web.replay.move", { ply: data.ply, total })}</span>
            <input type="range" min={0} max={total} value={ply} aria-label={t.t("web.replay.move", { ply: data.ply, total })}
              onInput={(e) => setPly(Number((e.target as HTMLInputElement).value))} />
          </label>
          <button type="button" onClick={() => setPly(Math.min(total, ply + 1))} disabled={ply >= total} data-testid="replay-next">{t.t("web.replay.next")} ▶</button>
          <button type="button" onClick={() => setPly(total)} disabled={ply >= total}>{t.t("web.replay.last")} ⏭</button>
        </nav>
        <p class="replay-step" aria-live="off">{data.step ? stepText(t, names, data.step) : t.t("web.replay.start")}</p>
      </div>
      <div class="layout">
        <div class="table-area">
          {view.game === "board" ? (
            <div class="board-wrap">
              <Board t={t} view={view} names={names} last={data.step} targets={new Map()} act={() => undefined} />
              <ScoreTrack t={t} scores={view.players.map((p) => p.score)} names={names} />
            </div>
          ) : (
            <WishRow t={t} view={view} names={names} />
          )}
          <Piles t={t} view={view} drawTargets={new Map()} act={() => undefined} />
        </div>
        <div class="side">
          {view.over && view.outcome && <FinalScores t={t} outcome={view.outcome} names={names} />}
          <Players t={t} view={view} names={names} seats={data.match.seats} me={null} last={data.step} canStandIn={() => false} standIn={() => undefined} />
        </div>
      </div>
    </main>
  );
}
