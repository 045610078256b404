// The board game's board as SVG: five stone paths of nine stones with their row values, the
// start stone, the goal area (rows 7–9), the tiles, every player's figures, the last move
// marked. Stones a legal move leads to are buttons.
import type { Translator } from "./i18n";
import type { BoardView, Colour, Legal, Step } from "./types";
import { COLOURS } from "./types";
import { PLAYER_MARK, PLAYER_TEXT, SYMBOL, tileAt, tileText } from "./pieces";

export const ROW_VALUES = [0, -4, -3, -2, 1, 2, 3, 6, 7, 10];
const COL_X = (i: number) => 105 + i * 92;
const ROW_Y = (r: number) => 622 - r * 56;
const STONE_W = 76;
const STONE_H = 46;
const FIG_SLOTS: [number, number][] = [
  [6, -11],
  [24, -11],
  [6, 11],
  [24, 11],
];

export interface StoneTarget {
  legal: Legal;
  label: string;
}

export function stoneKey(path: Colour, row: number): string {
  return `${path}${row}`;
}

/** Where each action open now would take a figure: path and row → the action. */
export function boardTargets(legal: Legal[], label: (l: Legal) => string): Map<string, StoneTarget> {
  const out = new Map<string, StoneTarget>();
  for (const l of legal) {
    const f = l.preview.figure;
    if (!f || l.kind === "figure" || f.overflow) continue;
    out.set(stoneKey(f.path, Math.max(f.to, 1)), { legal: l, label: label(l) });
  }
  return out;
}

interface Props {
  t: Translator;
  view: BoardView;
  names: string[];
  last: Step | null;
  targets: Map<string, StoneTarget>;
  act: (legal: Legal) => void;
}

export function Board({ t, view, names, last, targets, act }: Props) {
  const lastStones = new Set<string>();
  for (const e of last?.events ?? []) {
    if (e.type === "moved" && e.path && e.row) lastStones.add(stoneKey(e.path, e.row));
  }
  const goalTop = ROW_Y(9) - STONE_H / 2 - 8;
  const goalBottom = (ROW_Y(6) + ROW_Y(7)) / 2;
  const figures = (path: Colour, row: number) =>
    view.players
      .map((p, seat) => ({ seat, at: p.positions[path], big: p.big === path }))
      .filter((f) => f.at === row);
  return (
    <svg class="board" viewBox="0 0 570 666" role="group" aria-label={t.t("web.board")}>
      <rect x="0" y="0" width="570" height="666" rx="18" class="board-bg" />
      <rect x="52" y={goalTop} width="510" height={goalBottom - goalTop} rx="10" class="goal-area" />
      <text x="307" y={goalTop - 7} class="goal-label">
        {t.t("board.goal_short", { count: view.goal_count, total: 5 })}
      </text>
      <line x1="52" x2="562" y1={goalBottom} y2={goalBottom} class="goal-line" />
      {ROW_VALUES.slice(1).map((value, i) => (
        <text x="28" y={ROW_Y(i + 1) + 5} class="row-value" aria-hidden="true">
          {value > 0 ? `+${value}` : value}
        </text>
      ))}
      {COLOURS.map((c, i) => (
        <g class={`path path-${c}`} key={c}>
          <rect x={COL_X(i) - STONE_W / 2 - 4} y={ROW_Y(9) - STONE_H / 2 - 4} width={STONE_W + 8}
            height={ROW_Y(1) - ROW_Y(9) + STONE_H + 8} rx="14" class={`path-bg c-${c}`} />
          <text x={COL_X(i)} y="26" class="path-head" aria-hidden="true">
            {SYMBOL[c]} {c}
          </text>
          {Array.from({ length: 9 }, (_, k) => {
            const row = k + 1;
            const key = stoneKey(c, row);
            const target = targets.get(key);
            const tile = tileAt(view.tiles[c][k]);
            const dark = view.layout.dark[c].includes(row) || row === 9;
            const here = figures(c, row);
            const who = here.map((f) => t.t(f.big ? "web.figure.big" : "web.figure.small", { name: names[f.seat] }));
            const parts = [t.t("web.stone", { path: c, row, value: ROW_VALUES[row] })];
            if (tile) parts.push(tileText(t, tile));
            if (who.length) parts.push(t.t("web.figures_here", { names: who.join(", ") }));
            if (target) parts.unshift(target.label);
            const x = COL_X(i) - STONE_W / 2;
            const y = ROW_Y(row) - STONE_H / 2;
            const activate = target ? () => act(target.legal) : undefined;
            return (
              <g
                key={key}
                class={`stone${dark ? " dark" : ""}${target ? " target" : ""}${lastStones.has(key) ? " last" : ""}`}
                role={target ? "button" : "img"}
                tabIndex={target ? 0 : undefined}
                aria-label={parts.join("; ")}
                data-stone={key}
                onClick={activate}
                onKeyDown={
                  activate
                    ? (event: KeyboardEvent) => {
                        if (event.key === "Enter" || event.key === " ") {
                          event.preventDefault();
                          activate();
                        }
                      }
                    : undefined
                }
              >
                <title>{parts.join("; ")}</title>
                <rect x={x} y={y} width={STONE_W} height={STONE_H} rx="12" class="stone-shape" />
                {tile && (
                  <text x={x + 17} y={ROW_Y(row) + 6} class={`tile tile-${tile.kind}`} aria-hidden="true">
                    {tile.kind === "clover" ? "♣" : tile.kind === "wish" ? "◆" : `+${tile.points}`}
                  </text>
                )}
                {target && <circle cx={x + STONE_W - 8} cy={y + 8} r="6" class="target-dot" />}
              </g>
            );
          })}
        </g>
      ))}
      {/* Figures in a fixed order (seat, path), so that a figure that moves keeps its element
          and slides to its new stone. */}
      {view.players.flatMap((p, seat) =>
        COLOURS.filter((c) => p.positions[c] > 0).map((c) => {
          const row = p.positions[c];
          const slot = figures(c, row).findIndex((f) => f.seat === seat);
          const [dx, dy] = FIG_SLOTS[slot % 4];
          const cx = COL_X(COLOURS.indexOf(c)) - STONE_W / 2 + 30 + dx;
          const cy = ROW_Y(row) + dy;
          const big = p.big === c;
          return (
            <g
              key={`fig-${seat}-${c}`}
              class={`figure${big ? " big" : ""}`}
              style={{ transform: `translate(${cx}px, ${cy}px)` }}
              aria-hidden="true"
            >
              {big && <circle r="11.5" class="figure-ring" />}
              <circle r={big ? 9 : 7.5} fill={PLAYER_MARK[seat]} class="figure-body" />
              <text y="3.5" class="figure-num" fill={PLAYER_TEXT[seat]}>
                {seat + 1}
              </text>
            </g>
          );
        }),
      )}
      <rect x="52" y={ROW_Y(0) - 18} width="510" height="36" rx="14" class="start-stone" />
      <text x="307" y={ROW_Y(0) + 5} class="start-label">
        {t.t("board.start")}
      </text>
    </svg>
  );
}

/** The score track: every player's marker on one line. */
export function ScoreTrack({ t, scores, names }: { t: Translator; scores: number[]; names: string[] }) {
  const low = Math.min(-10, ...scores);
  const high = Math.max(40, ...scores);
  const x = (s: number) => 20 + ((s - low) / (high - low)) * 530;
  const ticks: number[] = [];
  for (let s = Math.ceil(low / 10) * 10; s <= high; s += 10) ticks.push(s);
  return (
    <svg class="score-track" viewBox="0 0 570 64" role="img"
      aria-label={`${t.t("web.score_track")}: ${scores.map((s, i) => t.t("web.score_of", { name: names[i], score: s })).join(", ")}`}>
      <line x1="20" x2="550" y1="40" y2="40" class="track-line" />
      {ticks.map((s) => (
        <g key={s}>
          <line x1={x(s)} x2={x(s)} y1="34" y2="46" class="track-tick" />
          <text x={x(s)} y="60" class="track-label">{s}</text>
        </g>
      ))}
      {scores.map((s, seat) => (
        <g key={seat} class="track-marker" style={{ transform: `translate(${x(s)}px, ${26 - (seat % 2) * 12}px)` }}>
          <circle r="8" fill={PLAYER_MARK[seat]} class="figure-body" />
          <text y="3.5" class="figure-num" fill={PLAYER_TEXT[seat]}>{seat + 1}</text>
        </g>
      ))}
    </svg>
  );
}
