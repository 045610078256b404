// The board game's board as SVG: five stone paths of nine stones with their row values, the
// start stone, the goal area (rows 7–9), the tiles, every player's figures, the last move
// marked. Stones a legal move leads to are buttons (focusable, Enter or Space plays them); a
// figure never takes a press from the stone it stands on.
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { Translator } from "./i18n";
import type { BoardView, Colour, Legal, Step } from "./types";
import type { Mark, Marked } from "./marks";
import { markClass } from "./marks";
import { COLOURS } from "./types";
import { PLAYER_MARK, PLAYER_TEXT, SYMBOL, tileAt, tileText } from "./pieces";
import { scoringTables } from "./tables";

const COL_STEP = 92;
const COL_X = (i: number) => 105 + i * COL_STEP;
const ROW_Y = (r: number) => 622 - r * 56;
const STONE_W = 76;
const STONE_H = 46;
/** A small figure's radius and a big one's: at the narrowest board (a 360 px phone, the board
 * about 330 px wide) a small figure is still 12 px across, with a number that can be read. */
const FIG_R = 11;
const BIG_R = 13.5;
/** Where the figures on one stone stand, from the stone's left edge and middle, by how many
 * stand there: one in the middle of the free part (the tile is on the left), two side by
 * side, three or four two by two. */
function figureSlot(slot: number, count: number): [number, number] {
  if (count === 1) return [51, 0];
  if (count === 2) return slot === 0 ? [39, 0] : [63, 0];
  return [
    [39, -12],
    [63, -12],
    [39, 12],
    [63, 12],
  ][slot % 4] as [number, number];
}
/** What gets the focus when a move has taken it away (the stone pressed is no longer a button,
 * the card laid has left the hand): the next decision's first control, in reading order. */
const NEXT_CONTROL = ".board-prompt button, .pile-button.target, .card-button.playable, .stone.target";

/** The widest a path's heading may be (its symbol and colour name): the distance between two
 * paths less a gap, so that long names ("≈ niebieski", "✿ rózsaszín") never run into the next
 * path's. */
const HEAD_MAX = COL_STEP - 6;

/** Squeeze each path's heading that is wider than HEAD_MAX into it (the browser measures the
 * text in the page's font; a short name keeps its natural width). */
function useFittedHeads(svgRef: { current: SVGSVGElement | null }, lang: string) {
  useLayoutEffect(() => {
    for (const head of svgRef.current?.querySelectorAll<SVGTextElement>("text.path-head") ?? []) {
      head.removeAttribute("textLength");
      head.removeAttribute("lengthAdjust");
      if (head.getComputedTextLength() > HEAD_MAX) {
        head.setAttribute("textLength", String(HEAD_MAX));
        head.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    }
  }, [lang]);
}

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

/** What a review draws on a stone or a pile (review.tsx): the move played leads there, the
 * better move does, or both do. */
export type AdviceKind = "played" | "better" | "both";
/** Stones (by `stoneKey`) or piles (a colour, "*", "deck") and what a review draws there. */
export type Advice = Map<string, AdviceKind>;

interface Props {
  t: Translator;
  view: BoardView;
  names: string[];
  last: Step | null;
  targets: Map<string, StoneTarget>;
  act: (legal: Legal) => void;
  /** What the others did since this player's last decision (marks.ts). */
  marked?: Marked;
  /** A review's moves on the board (review.tsx), and their words for a screen reader. */
  advice?: Advice;
  adviceWords?: (kind: AdviceKind) => string;
}

/** Whether an element that had the focus can no longer have it: taken from the page, a stone
 * that is no longer a target (its tabindex gone), a button disabled. */
function unfocusable(el: Element, svg: SVGSVGElement): boolean {
  if (!el.isConnected) return true;
  if (el instanceof SVGElement && el !== svg && !el.hasAttribute("tabindex")) return true;
  return el instanceof HTMLButtonElement && el.disabled;
}

/** Keep the keyboard's place across moves: when a change of position took the focus away
 * (the stone pressed is no longer a button, the card laid or the prompt answered has left
 * the page), give it to the next decision's first control — or, when this player has none
 * now, to the board, and from there to the first control once there is one again. The page
 * scrolls to the control only for the keyboard: whoever pressed a stone or a card keeps the
 * board in sight. A prompt that appears is scrolled into sight, its bottom edge at the
 * window's so that as much of the board as fits (the stones its moves lead to) shows above
 * it — unless the prompt and the board's top are in sight already. */
function useKeptFocus(svgRef: { current: SVGSVGElement | null }) {
  const kept = useRef<{ last: Element | null; parked: boolean; prompt: boolean; keys: boolean }>({
    last: null,
    parked: false,
    prompt: false,
    keys: false,
  });
  useEffect(() => {
    // The element of this game that last got the focus (none once the focus went elsewhere).
    const onFocus = (event: FocusEvent) => {
      const main = svgRef.current?.closest("main");
      const target = event.target;
      kept.current.last = main && target instanceof Element && main.contains(target) ? target : null;
    };
    const onKey = () => (kept.current.keys = true);
    const onPointer = () => (kept.current.keys = false);
    document.addEventListener("focusin", onFocus);
    document.addEventListener("keydown", onKey, true);
    document.addEventListener("pointerdown", onPointer, true);
    return () => {
      document.removeEventListener("focusin", onFocus);
      document.removeEventListener("keydown", onKey, true);
      document.removeEventListener("pointerdown", onPointer, true);
    };
  }, []);
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const state = kept.current;
    const root = svg.closest("main") ?? document.body;
    const active = document.activeElement;
    const next = root.querySelector<HTMLElement | SVGElement>(NEXT_CONTROL);
    const gone = state.last !== null && unfocusable(state.last, svg);
    const onDocument = !active || active === document.body || active === document.documentElement;
    const scroll = { preventScroll: !state.keys };
    if (gone && (onDocument || active === state.last)) {
      if (next) {
        next.focus(scroll);
        state.parked = false;
      } else {
        svg.focus({ preventScroll: true });
        state.parked = true;
      }
    } else if (state.parked && active === svg && next) {
      next.focus(scroll);
      state.parked = false;
    } else if (active !== svg) {
      state.parked = false;
    }
    const prompt = svg.parentElement?.querySelector<HTMLElement>(".board-prompt") ?? null;
    if (prompt && !state.prompt) {
      // A prompt whose moves lead to stones (a clover's, an overflow's) is shown with the
      // board above it; one about the card just chosen (the big or a small figure) with the
      // hand below it, where the player is looking.
      const onBoard = svg.querySelector(".stone.target") !== null;
      const box = prompt.getBoundingClientRect();
      const hidden = box.top < 0 || box.bottom > window.innerHeight;
      if (hidden || (onBoard && svg.getBoundingClientRect().top < 0)) {
        const still = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
        prompt.scrollIntoView({ block: onBoard ? "end" : "nearest", behavior: still ? "auto" : "smooth" });
      }
    }
    state.prompt = !!prompt;
  });
}

export function Board({ t, view, names, last, targets, act, marked, advice, adviceWords }: Props) {
  const svgRef = useRef<SVGSVGElement>(null);
  useKeptFocus(svgRef);
  useFittedHeads(svgRef, t.lang);
  const lastStones = new Set<string>();
  for (const e of last?.events ?? []) {
    if (e.type === "moved" && e.path && e.row) lastStones.add(stoneKey(e.path, e.row));
  }
  // The marks on each stone: the stones a figure passed (the one it reached included), the
  // stone it left (drawn dashed), the stones whose tile was taken.
  const onStone = new Map<string, { mark: Mark; left?: boolean }[]>();
  const put = (key: string, mark: Mark, left?: boolean) => onStone.set(key, [...(onStone.get(key) ?? []), { mark, left }]);
  for (const mark of marked?.marks ?? []) {
    if (mark.kind === "move" && mark.path && mark.from !== undefined && mark.to !== undefined) {
      if (mark.from > 0) put(stoneKey(mark.path, mark.from), mark, true);
      for (let row = Math.max(mark.from + 1, 1); row <= mark.to; row++) put(stoneKey(mark.path, row), mark);
    } else if (mark.kind === "tile" && mark.path && mark.row) put(stoneKey(mark.path, mark.row), mark);
  }
  // The row values, the goal area and the figures that end the game: the server's numbers.
  const { row_values: rowValues, goal_row: goalRow, goal_figures: goalFigures } = scoringTables().board;
  const goalTop = ROW_Y(9) - STONE_H / 2 - 8;
  const goalBottom = (ROW_Y(goalRow - 1) + ROW_Y(goalRow)) / 2;
  const figures = (path: Colour, row: number) =>
    view.players
      .map((p, seat) => ({ seat, at: p.positions[path], big: p.big === path }))
      .filter((f) => f.at === row);
  return (
    <svg ref={svgRef} class="board" viewBox="0 0 570 666" role="group" aria-label={t.t("web.board")} tabindex={-1}>
      <rect x="0" y="0" width="570" height="666" rx="18" class="board-bg" />
      <rect x="52" y={goalTop} width="510" height={goalBottom - goalTop} rx="10" class="goal-area" />
      <text x="307" y={goalTop - 7} class="goal-label">
        {t.t("board.goal_short", { count: view.goal_count, total: goalFigures })}
      </text>
      <line x1="52" x2="562" y1={goalBottom} y2={goalBottom} class="goal-line" />
      {rowValues.slice(1).map((value, i) => (
        <text x="28" y={ROW_Y(i + 1) + 5} class="row-value" aria-hidden="true">
          {value > 0 ? `+${value}` : value}
        </text>
      ))}
      {COLOURS.map((c, i) => (
        <g class={`path path-${c}`} key={c}>
          <rect x={COL_X(i) - STONE_W / 2 - 4} y={ROW_Y(9) - STONE_H / 2 - 4} width={STONE_W + 8}
            height={ROW_Y(1) - ROW_Y(9) + STONE_H + 8} rx="14" class={`path-bg c-${c}`} />
          <text x={COL_X(i)} y="26" class="path-head" aria-hidden="true">
            {SYMBOL[c]} {t.colour(c)}
          </text>
          {Array.from({ length: 9 }, (_, k) => {
            const row = k + 1;
            const key = stoneKey(c, row);
            const target = targets.get(key);
            const tile = tileAt(view.tiles[c][k]);
            const dark = view.layout.dark[c].includes(row) || row === 9;
            const here = figures(c, row);
            const who = here.map((f) => t.t(f.big ? "web.figure.big" : "web.figure.small", { name: names[f.seat] }));
            const parts = [t.t("web.stone", { path: c, row, value: rowValues[row] })];
            if (tile) parts.push(tileText(t, tile));
            if (who.length) parts.push(t.t("web.figures_here", { names: who.join(", ") }));
            const marks = onStone.get(key) ?? [];
            for (const { mark, left } of marks) {
              if (!left) parts.push(t.t(mark.kind === "tile" ? "web.mark.tile" : "web.mark.stone", { name: names[mark.seat] }));
            }
            const outlines = marks.filter((m) => m.mark.kind === "move");
            if (target) parts.unshift(target.label);
            const advised = advice?.get(key);
            if (advised && adviceWords) parts.push(adviceWords(advised));
            const x = COL_X(i) - STONE_W / 2;
            const y = ROW_Y(row) - STONE_H / 2;
            const activate = target ? () => act(target.legal) : undefined;
            return (
              <g
                key={key}
                class={`stone${dark ? " dark" : ""}${target ? " target" : ""}${lastStones.has(key) ? " last" : ""}`}
                role={target ? "button" : "img"}
                tabindex={target ? 0 : undefined}
                aria-label={parts.join("; ")}
                data-stone={key}
                data-marked={marks.length ? marks.map(({ mark, left }) => `${left ? "left" : mark.kind}:${mark.seat}`).join(" ") : undefined}
                data-advice={advised}
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
                <rect x={x - 5} y={y - 5} width={STONE_W + 10} height={STONE_H + 10} rx="16" class="stone-focus" />
                <rect x={x} y={y} width={STONE_W} height={STONE_H} rx="12" class="stone-shape" />
                {tile && (
                  <text x={x + 17} y={ROW_Y(row) + 6} class={`tile tile-${tile.kind}`} aria-hidden="true">
                    {tile.kind === "clover" ? "♣" : tile.kind === "wish" ? "◆" : `+${tile.points}`}
                  </text>
                )}
                {target && <circle cx={x + 9} cy={y + 9} r="5" class="target-dot" />}
                {/* A review's moves: the one played outlined solid, the better one dashed
                    (outside the stone, where a mark of the others' moves is never drawn). */}
                {advised && advised !== "better" && (
                  <rect x={x - 4} y={y - 4} width={STONE_W + 8} height={STONE_H + 8} rx="15" class="advice-played" aria-hidden="true" />
                )}
                {advised && advised !== "played" && (
                  <rect x={x - (advised === "both" ? 8 : 4)} y={y - (advised === "both" ? 8 : 4)} width={STONE_W + (advised === "both" ? 16 : 8)}
                    height={STONE_H + (advised === "both" ? 16 : 8)} rx="17" class="advice-better" aria-hidden="true" />
                )}
                {/* A figure's way since this player's last decision: the stones it passed
                    outlined in its player's colour on a dark edge (the stone it left
                    dashed); one inside the other where several passed. */}
                {outlines.map(({ mark, left }, k) => {
                  const box = { x: x + 3 + k * 6, y: y + 3 + k * 6, width: STONE_W - 6 - k * 12, height: STONE_H - 6 - k * 12, rx: Math.max(9 - k * 3, 3) };
                  return (
                    <g key={`m${k}`} class={`mark-stone${left ? " left" : ""}${markClass(marked, mark)}`} aria-hidden="true">
                      <rect {...box} class="mark-edge" />
                      <rect {...box} class="mark-line" style={{ stroke: PLAYER_MARK[mark.seat] }} />
                    </g>
                  );
                })}
                {marks.filter((m) => m.mark.kind === "tile").map(({ mark }, k) => (
                  <g key={`t${k}`} class={`mark-tile${markClass(marked, mark)}`} aria-hidden="true">
                    <circle cx={x + 17} cy={ROW_Y(row)} r="12" style={{ stroke: PLAYER_MARK[mark.seat] }} />
                    <text x={x + 17} y={ROW_Y(row) + 5}>{mark.glyph}</text>
                  </g>
                ))}
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
          const here = figures(c, row);
          const slot = here.findIndex((f) => f.seat === seat);
          const [dx, dy] = figureSlot(slot, here.length);
          const cx = COL_X(COLOURS.indexOf(c)) - STONE_W / 2 + dx;
          const cy = ROW_Y(row) + dy;
          const big = p.big === c;
          // The big figure: larger, with a ring inside its edge in the number's colour.
          return (
            <g
              key={`fig-${seat}-${c}`}
              class={`figure${big ? " big" : ""}`}
              style={{ transform: `translate(${cx}px, ${cy}px)` }}
              aria-hidden="true"
              data-seat={seat}
            >
              <circle r={big ? BIG_R : FIG_R} fill={PLAYER_MARK[seat]} class="figure-body" />
              {big && <circle r={BIG_R - 3.2} class="figure-ring" stroke={PLAYER_TEXT[seat]} />}
              <text y="5" class="figure-num" fill={PLAYER_TEXT[seat]}>
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

/** The score track: a lane for each player, so that equal or close scores never hide a
 * marker; the scale under the lanes, its lines running up through them. */
export function ScoreTrack({ t, scores, names }: { t: Translator; scores: number[]; names: string[] }) {
  const low = Math.min(-10, ...scores);
  const high = Math.max(40, ...scores);
  const x = (s: number) => 20 + ((s - low) / (high - low)) * 530;
  const ticks: number[] = [];
  for (let s = Math.ceil(low / 10) * 10; s <= high; s += 10) ticks.push(s);
  const LANE = 19;
  const laneY = (seat: number) => 11 + seat * LANE;
  const axisY = laneY(scores.length - 1) + 15;
  const height = axisY + 21;
  return (
    <svg class="score-track" viewBox={`0 0 570 ${height}`} role="img"
      aria-label={`${t.t("web.score_track")}: ${scores.map((s, i) => t.t("web.score_of", { name: names[i], score: s })).join(", ")}`}>
      {ticks.map((s) => (
        <g key={s}>
          <line x1={x(s)} x2={x(s)} y1="2" y2={axisY + 6} class={s === 0 ? "track-tick zero" : "track-tick"} />
          <text x={x(s)} y={axisY + 19} class="track-label">{s}</text>
        </g>
      ))}
      {scores.map((_, seat) => (
        <line key={seat} x1="20" x2="550" y1={laneY(seat)} y2={laneY(seat)} class="track-lane" />
      ))}
      <line x1="20" x2="550" y1={axisY} y2={axisY} class="track-line" />
      {scores.map((s, seat) => (
        <g key={seat} class="track-marker" data-seat={seat} style={{ transform: `translate(${x(s)}px, ${laneY(seat)}px)` }}>
          <circle r="9" fill={PLAYER_MARK[seat]} class="figure-body" />
          <text y="4.5" class="figure-num" fill={PLAYER_TEXT[seat]}>{seat + 1}</text>
        </g>
      ))}
    </svg>
  );
}
