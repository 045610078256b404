// What both games show around the board: players with their rows, the discard piles and the
// draw pile (buttons when drawing from them is a legal move), the card game's table, and the
// final scores.
import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { Translator } from "./i18n";
import type { CardsView, Colour, Legal, Outcome, Pile, View } from "./types";
import { COLOURS } from "./types";
import { Card, CardFace, ColourTag, PLAYER_MARK, PLAYER_TEXT, SYMBOL } from "./pieces";
import type { SeatInfo, Step } from "./types";
import type { Mark, Marked } from "./marks";
import { markClass } from "./marks";
import type { Advice, AdviceKind } from "./board";
import { RuleLink } from "./rules";
import { formatTime } from "./clock";

const ARROW: Record<string, string> = { open: "↕", ascending: "↑", descending: "↓" };

export function SeatBadge({ seat }: { seat: number }) {
  return (
    <span class="seat-badge" style={{ background: PLAYER_MARK[seat], color: PLAYER_TEXT[seat] }} aria-hidden="true">
      {seat + 1}
    </span>
  );
}

/** Which cards of a row the marks laid: the last cards of each one's value (equal cards are
 * two cards), the mark of each by its place. */
function laidMarks(cards: string[], marks: Mark[]): Map<number, Mark> {
  const out = new Map<number, Mark>();
  for (const mark of [...marks].reverse()) {
    for (let i = cards.length - 1; i >= 0; i--) {
      if (cards[i] === mark.card && !out.has(i)) {
        out.set(i, mark);
        break;
      }
    }
  }
  return out;
}

function RowLine({ t, colour, cards, direction, fresh, laid, marked, help }: {
  t: Translator; colour: Pile; cards: string[]; direction: string; fresh?: boolean; laid?: Mark[]; marked?: Marked;
  /** A "?" that opens the rules about the row (the point row's, once). */
  help?: ComponentChildren;
}) {
  const marks = laidMarks(cards, laid ?? []);
  const label = `${t.pileName(colour)}: ${
    cards.length ? cards.map((c) => t.card(c)).join(", ") : t.t("web.row.empty")
  }${cards.length ? `; ${t.t(`web.direction.${direction}`)}` : ""}`;
  return (
    <li class="row-line" aria-label={label}>
      <ColourTag t={t} colour={colour} />
      {help}
      <span class="row-cards" aria-hidden="true">
        {cards.map((c, i) => (
          <span key={i} class={`${fresh && i === cards.length - 1 ? "fresh" : ""}${marks.has(i) ? ` marked${markClass(marked, marks.get(i)!)}` : ""}` || undefined}
            data-mark={marks.get(i)?.text} style={marks.has(i) ? { "--mark": PLAYER_MARK[marks.get(i)!.seat] } : undefined}>
            <CardFace card={c} small />
          </span>
        ))}
      </span>
      {cards.length > 0 && colour !== "*" && (
        <span class="row-dir" aria-hidden="true" title={t.t(`web.direction.${direction}`)}>
          {ARROW[direction]}
        </span>
      )}
    </li>
  );
}

interface PlayersProps {
  t: Translator;
  view: View;
  names: string[];
  seats: SeatInfo[];
  me: number | null;
  last?: Step | null;
  /** The turn clock: the seat it runs for, whether it is out, its text. */
  clock?: { seat: number; out: boolean; text: ComponentChildren } | null;
  canStandIn: (seat: number) => boolean;
  standIn: (seat: number) => void;
  /** A replay: who is a bot, online or away now means nothing there, so it is not said. */
  replay?: boolean;
  /** What the others did since this player's last decision (marks.ts). */
  marked?: Marked;
}

/** The row a step laid a card on: its colour ("*" the point row), if the step laid one. */
function laidRow(step: Step | null | undefined): Pile | null {
  for (const e of step?.events ?? []) {
    if (e.type === "lay_onto" && e.onto) return e.onto;
    if (e.type === "lay" && e.card) return e.card[0] as Pile;
  }
  return null;
}

/** A player's score as a button that shows what it is made of as it stands (the view's
 * `parts`: each path's figure or each row, the tiles or the point row, the wish stones), so
 * that −4 at the start explains itself. */
function ScoreButton({ t, view, seat, name }: { t: Translator; view: View; seat: number; name: string }) {
  const [open, setOpen] = useState(false);
  // Opened near the window's bottom edge (a phone, a panel low on the page), the breakdown
  // would hang below it: it is scrolled into view, as little as needed.
  const parts = useRef<HTMLDListElement>(null);
  useEffect(() => {
    if (!open || !parts.current) return;
    const still = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    parts.current.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
  }, [open]);
  const score = view.players[seat].score;
  const signed = (n: number) => t.number(n, { signDisplay: "exceptZero" });
  const lines: [string, number][] = [];
  if (view.game === "board") {
    const p = view.players[seat];
    for (const c of COLOURS) {
      const row = p.positions[c];
      if (row > 0) {
        lines.push([`${SYMBOL[c]} ${t.t(p.big === c ? "web.parts.path.big" : "web.parts.path", { path: c, row })}`, p.parts.paths[c]]);
      }
    }
    if (!lines.length) lines.push([t.t("web.parts.none"), 0]);
    lines.push([t.t("score.tiles"), p.parts.tiles]);
  } else {
    const p = view.players[seat];
    for (const c of COLOURS) {
      const count = p.rows[c].length;
      if (count > 0) lines.push([`${SYMBOL[c]} ${t.t("web.parts.row", { row: c, count })}`, p.parts.rows[c]]);
    }
    lines.push([t.t("score.point_row"), p.parts.point_row]);
  }
  const wishes = view.players[seat].parts;
  lines.push([t.t("web.parts.wishes", { count: wishes.wish_count }), wishes.wishes]);
  const id = `parts-${seat}`;
  return (
    <span class="score-wrap">
      <button type="button" class="score" aria-expanded={open} aria-controls={id} data-testid="score"
        aria-label={`${t.t("web.score_of", { name, score })} – ${t.t("web.parts.button")}`}
        onClick={() => setOpen(!open)}>
        {score}
      </button>
      {open && (
        <dl class="parts" id={id} data-testid="parts" ref={parts}>
          {lines.map(([what, points], i) => (
            <div key={i}>
              <dt>{what}</dt>
              <dd data-points={points}>{signed(points)}</dd>
            </div>
          ))}
          <div class="parts-total">
            <dt>{t.t("score.total")}</dt>
            <dd data-points={score}>{signed(score)}</dd>
          </div>
        </dl>
      )}
    </span>
  );
}

/** A seat's vacation's end, in the reader's words (docs/server.md, "Vacation"). */
function untilText(t: Translator, iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : new Intl.DateTimeFormat(t.lang, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

export function Players({ t, view, names, seats, me, last, clock, canStandIn, standIn, replay, marked }: PlayersProps) {
  const laid = laidRow(last);
  const layMarks = (seat: number, row: Pile) =>
    (marked?.marks ?? []).filter((m) => m.kind === "lay" && m.seat === seat && m.onto === row);
  return (
    <section class="players" aria-label={t.t("web.scores")}>
      {view.players.map((p, seat) => {
        const info = seats[seat];
        const status = replay
          ? ""
          : info?.timed_out
          ? t.t("web.time.timed_out")
          : info?.kind === "bot"
          ? t.t("web.bot")
          : info?.stand_in
            ? t.t("web.stand_in")
            : info?.vacation
              ? t.t("web.vacation.until", { date: untilText(t, info.vacation) })
              : info?.connected
                ? t.t("web.online")
                : info?.away
                  ? t.t("web.away")
                  : "";
        const current = view.current_player === seat && !view.over;
        return (
          <article key={seat} class={`player${current ? " current" : ""}${seat === me ? " me" : ""}`}
            aria-current={current ? "true" : undefined} data-seat={seat}>
            <header>
              <SeatBadge seat={seat} />
              <h3>
                {names[seat]}
                {seat === me && names[seat] !== t.t("name.you") && <span class="you"> ({t.t("web.you")})</span>}
              </h3>
              {status && <span class="status">{status}</span>}
              <ScoreButton t={t} view={view} seat={seat} name={names[seat] ?? ""} />
            </header>
            {/* (the status line above the game says the same to screen readers) */}
            {current && clock?.seat === seat && (
              <p class={`player-clock clock${clock.out ? " out" : ""}`} aria-hidden="true" data-testid="player-clock">
                {clock.text}
              </p>
            )}
            {!replay && typeof info?.bank === "number" && !(current && clock?.seat === seat) && (
              <p class="bank-line" data-testid="seat-bank">{t.t("web.time.bank", { time: formatTime(info.bank) })}</p>
            )}
            <p class="hand-count">{t.t("web.hand.other", { name: names[seat], count: view.hand_sizes[seat] })}</p>
            {view.known_cards[seat]?.length > 0 && seat !== me && (
              <p class="known" data-testid="known">
                <span class="known-caption">{t.t("web.known")}</span>{" "}
                {view.known_cards[seat].map((c, i) => <Card key={`${c}-${i}`} t={t} card={c} small />)}
              </p>
            )}
            {view.game === "board" ? (
              <p class="tiles-line">
                {t.t("web.tiles", { points: view.players[seat].tile_points, wishes: view.players[seat].wishes })}
                {seat === (me ?? 0) && <>{" "}<RuleLink game="board" rule="B-3" term={t.t("score.tiles")} /></>}
              </p>
            ) : (
              <p class="tiles-line">
                {t.t("web.wish_stones")}: {view.players[seat].wish_stones.join(", ") || "–"}
              </p>
            )}
            <ul class="rows" aria-label={t.t("web.rows")}>
              {COLOURS.map((c) => (
                <RowLine key={c} t={t} colour={c} cards={p.rows[c]} direction={p.directions[c]}
                  fresh={last?.seat === seat && laid === c} laid={layMarks(seat, c)} marked={marked} />
              ))}
              {view.game === "cards" && (
                <RowLine t={t} colour="*" cards={view.players[seat].point_row} direction="open"
                  help={seat === (me ?? 0) ? <RuleLink game="cards" rule="C-11" term={t.t("web.point_cards")} /> : undefined}
                  fresh={last?.seat === seat && laid === "*"} laid={layMarks(seat, "*")} marked={marked} />
              )}
            </ul>
            {canStandIn(seat) && (
              <button type="button" class="small-button" onClick={() => standIn(seat)}>
                {t.t("web.stand_in.button", { name: names[seat] })}
              </button>
            )}
          </article>
        );
      })}
    </section>
  );
}

interface PilesProps {
  t: Translator;
  view: View;
  drawTargets: Map<string, { legal: Legal; label: string }>;
  act: (legal: Legal) => void;
  /** What the others did since this player's last decision (marks.ts), with their names. */
  marked?: Marked;
  names?: string[];
  /** A review's moves at the piles (review.tsx: discarded to, drawn from), and their words. */
  advice?: Advice;
  adviceWords?: (kind: AdviceKind) => string;
}

/** A card laid on a pile (discarded, or one of a claim's pair) or taken from it, by whom. */
function PileMark({ t, mark, card, names, marked }: { t: Translator; mark: Mark; card: string; names: string[]; marked?: Marked }) {
  const taken = mark.kind === "take";
  const label = t.t(taken ? "web.mark.taken" : "web.mark.discarded", { name: names[mark.seat] ?? "", card: t.card(card) });
  return (
    <li class={`pile-mark${taken ? " taken" : ""}${markClass(marked, mark)}`} data-mark={mark.text} title={label}
      style={{ "--mark": PLAYER_MARK[mark.seat] }}>
      <span class="sr-only">{label}</span>
      <SeatBadge seat={mark.seat} />
      <span class="pile-mark-arrow" aria-hidden="true">{taken ? "↑" : "↓"}</span>
      <CardFace card={card} small />
    </li>
  );
}

export function Piles({ t, view, drawTargets, act, marked, names, advice, adviceWords }: PilesProps) {
  const advised = (pile: string) => advice?.get(pile);
  const adviceClass = (pile: string) => (advised(pile) ? ` advice-${advised(pile)}` : "");
  const adviceSaid = (pile: string) => {
    const kind = advised(pile);
    return kind && adviceWords ? ` (${adviceWords(kind)})` : "";
  };
  const piles: Pile[] = view.game === "cards" ? [...COLOURS, "*"] : [...COLOURS];
  const deck = drawTargets.get("deck");
  const blocked = view.game === "cards" ? view.blocked_piles : [];
  return (
    <section class="piles" aria-label={t.t("web.discards")}>
      <h3>{t.t("web.discards")}</h3>
      <ul class="pile-list">
        {piles.map((pile) => {
          const cards = (view.discards as Record<Pile, string[]>)[pile] ?? [];
          const top = cards[cards.length - 1];
          const target = drawTargets.get(pile);
          const label = `${t.pileName(pile)}: ${top ? `${t.card(top)} (${cards.length})` : t.t("web.pile.empty")}${adviceSaid(pile)}`;
          const body = (
            <>
              {top ? <CardFace card={top} /> : <span class={`card empty c-${pile === "*" ? "S" : pile}`} aria-hidden="true"><span class="card-symbol">{SYMBOL[pile]}</span></span>}
              <span class="pile-count" aria-hidden="true">{cards.length}</span>
            </>
          );
          // (a claim lays its pair onto one pile or two)
          const marks = (marked?.marks ?? []).flatMap((m) =>
            m.kind === "claim"
              ? (m.cards ?? []).filter((c) => c[0] === pile).map((c) => ({ mark: m, card: c }))
              : (m.kind === "discard" || m.kind === "take") && m.piles?.includes(pile) && m.card ? [{ mark: m, card: m.card }] : [],
          );
          return (
            <li key={pile} class={`pile${blocked.includes(pile) ? " blocked" : ""}${marks.length ? " marked" : ""}${adviceClass(pile)}`} data-pile={pile}
              data-advice={advised(pile)}>
              {target ? (
                <button type="button" class="pile-button target" aria-label={`${target.label} (${label})`}
                  onClick={() => act(target.legal)}>
                  {body}
                </button>
              ) : (
                <span class="pile-static" role="img" aria-label={label}>{body}</span>
              )}
              {marks.length > 0 && (
                <ul class="pile-marks">
                  {marks.map(({ mark, card }, i) => <PileMark key={i} t={t} mark={mark} card={card} names={names ?? []} marked={marked} />)}
                </ul>
              )}
            </li>
          );
        })}
        <li class={`pile deck${adviceClass("deck")}`} data-pile="deck" data-advice={advised("deck")}>
          {deck ? (
            <button type="button" class="pile-button target" onClick={() => act(deck.legal)}
              aria-label={`${deck.label} (${t.t("screen.deck", { count: view.deck_size })})`}>
              <span class="card back" aria-hidden="true">{view.deck_size}</span>
            </button>
          ) : (
            <span class="pile-static" role="img" aria-label={`${t.t("screen.deck", { count: view.deck_size })}${adviceSaid("deck")}`}>
              <span class="card back" aria-hidden="true">{view.deck_size}</span>
            </span>
          )}
          <span class="pile-caption" aria-hidden="true">{t.t("web.deck")}</span>
        </li>
      </ul>
    </section>
  );
}

/** The card game's middle of the table: the wish stones still there, and the closed rows. */
export function WishRow({ t, view, names, marked }: { t: Translator; view: CardsView; names: string[]; marked?: Marked }) {
  const holders = new Map<number, number>();
  view.players.forEach((p, seat) => p.wish_stones.forEach((v) => holders.set(v, seat)));
  return (
    <section class="wish-row" aria-label={t.t("web.wish_stones")}>
      <h3>{t.t("web.wish_stones")} <RuleLink game="cards" rule="C-8" term={t.t("web.wish_stones")} /></h3>
      <ol class="stones">
        {Array.from({ length: 9 }, (_, i) => i + 1).map((value) => {
          const holder = holders.get(value);
          const there = view.wish_row.includes(value);
          const label = `${t.t("web.wish_stone", { value })}${holder !== undefined ? `: ${names[holder]}` : ""}`;
          const claim = marked?.marks.find((m) => m.kind === "claim" && m.value === value);
          return (
            <li key={value} class={`wish${there ? "" : " taken"}${claim ? ` marked${markClass(marked, claim)}` : ""}`} aria-label={label} title={label}
              data-mark={claim?.text} style={claim ? { "--mark": PLAYER_MARK[claim.seat] } : undefined}>
              <span aria-hidden="true">◆{value}</span>
              {holder !== undefined && <SeatBadge seat={holder} />}
            </li>
          );
        })}
      </ol>
      <p>
        {t.t("web.closed_rows", { count: view.closed_rows, total: 5 })}{" "}
        <RuleLink game="cards" rule="C-10" term={t.t("web.closed_rows", { count: view.closed_rows, total: 5 })} />
      </p>
    </section>
  );
}

/** The final scores: a table where it fits its box; where it would not (long words, a narrow
 * screen), each player's line wraps instead — name and total first, then each part with its
 * name — so the total is never out of sight or a sideways scroll away. */
export function FinalScores({ t, outcome, names }: { t: Translator; outcome: Outcome; names: string[] }) {
  const keys = Object.keys(outcome.breakdown[0] ?? {});
  const box = useRef<HTMLElement>(null);
  const [stacked, setStacked] = useState(false);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    let width = -1;
    const fit = () => {
      width = element.clientWidth;
      element.classList.remove("stacked");
      const over = element.scrollWidth > element.clientWidth;
      if (over) element.classList.add("stacked");
      setStacked(over);
    };
    fit();
    // (the width only: stacking changes the height, which must not measure again)
    const observer = new ResizeObserver(() => {
      if (element.clientWidth !== width) fit();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [t, outcome, names.join("\n")]);
  const number = (n: number) => t.number(n);
  return (
    <section ref={box} class={`final${stacked ? " stacked" : ""}`} aria-labelledby="final-title">
      <h2 id="final-title" tabIndex={-1}>{t.t("web.final")}</h2>
      <p>{t.t(`end.${outcome.end_reason}`)}</p>
      <table>
        <thead>
          <tr>
            <th scope="col">{t.t("players.name")}</th>
            {keys.map((k) => <th scope="col" key={k}>{t.t(`score.${k}`)}</th>)}
            <th scope="col">{t.t("score.total")}</th>
          </tr>
        </thead>
        <tbody>
          {outcome.scores.map((score, seat) => (
            <tr key={seat} class={outcome.winners.includes(seat) ? "winner" : ""}>
              <th scope="row">
                <SeatBadge seat={seat} /> {names[seat]}
                {outcome.winners.includes(seat) && <span class="win-mark"> ★ {t.t("web.winner")}</span>}
              </th>
              {keys.map((k) => (
                <td key={k} class="part" data-label={t.t(`score.${k}`)}>{number(outcome.breakdown[seat][k])}</td>
              ))}
              <td class="total" data-label={t.t("score.total")}><strong>{number(score)}</strong></td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        {t.t(outcome.winners.length > 1 ? "end.winners" : "end.winner", {
          names: outcome.winners.map((s) => names[s]).join(", "),
        })}
      </p>
    </section>
  );
}

export type { Colour };
