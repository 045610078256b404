// "How to play": a page for each game (#/rules/board, #/rules/cards; #/rules/board/B-10 scrolls
// to that rule), and the same text in a dialog over a game (the Rules button), so that a player
// reads the rules without leaving the game or its live connection. Every rule of the
// specification has its block, whose element id is the rule's id (B-1 … B-24, C-1 … C-19).
// The words are the catalogs' rules.* messages; the pictures are the client's own pieces
// (cards, stones, tiles, figures, the score track); the tables and the stones' values are the
// server's numbers (tables.ts), never numbers of the client's own.
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { ScoreTrack } from "./board";
import { useT } from "./context";
import { useModal } from "./modal";
import type { Translator } from "./i18n";
import { CardFace, PLAYER_MARK, PLAYER_TEXT, SYMBOL } from "./pieces";
import { scoringTables } from "./tables";
import type { Tables } from "./tables";
import type { Colour } from "./types";

export type RulesGame = "board" | "cards";
export const RULES_GAMES: RulesGame[] = ["board", "cards"];

/** Where the page is shown: as a page of its own (links change the address) or in a dialog
 * over a game (links only scroll, the address and the game stay). */
type Mode = "page" | "dialog";

interface Ctx {
  t: Translator;
  game: RulesGame;
  mode: Mode;
  /** The numbers both games score by, as the server sends them. */
  tables: Tables;
}

function signed(t: Translator, n: number): string {
  return t.number(n, { signDisplay: "exceptZero" });
}

/** Scroll to the element with this id (a rule or a section) and give it the focus. */
function showSection(id: string, smooth = false): boolean {
  const found = document.getElementById(id);
  if (!found) return false;
  const still = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  found.scrollIntoView({ block: "start", behavior: smooth && !still ? "smooth" : "auto" });
  found.focus({ preventScroll: true });
  return true;
}

/** A link to a rule or a section: on the page, the address of that place; in a dialog, the
 * same address but followed by scrolling only. */
function PlaceLink({ ctx, id, children, label, class: cls }: {
  ctx: Ctx; id: string; children: ComponentChildren; label?: string; class?: string;
}) {
  const onClick =
    ctx.mode === "dialog"
      ? (event: MouseEvent) => {
          event.preventDefault();
          showSection(id, true);
        }
      : undefined;
  return (
    <a href={`#/rules/${ctx.game}/${id}`} class={cls} aria-label={label} onClick={onClick}>
      {children}
    </a>
  );
}

/** One rule: its title, its id (a link to it) and its text and pictures. */
function Rule({ ctx, id, title, children }: { ctx: Ctx; id: string; title: string; children: ComponentChildren }) {
  const Heading = (ctx.mode === "page" ? "h3" : "h4") as keyof JSX.IntrinsicElements;
  return (
    <div class="rule" id={id} data-rule={id} tabIndex={-1}>
      <Heading class="rule-title">
        {title}{" "}
        <PlaceLink ctx={ctx} id={id} class="rule-id" label={ctx.t.t("rules.anchor", { id })}>{id}</PlaceLink>
      </Heading>
      {children}
    </div>
  );
}

/** A group of rules under a heading; `place` is its own id (#/rules/board/setup). */
function Part({ ctx, place, title, children }: { ctx: Ctx; place: string; title: string; children: ComponentChildren }) {
  const Heading = (ctx.mode === "page" ? "h2" : "h3") as keyof JSX.IntrinsicElements;
  return (
    <section class="rules-part" id={place} tabIndex={-1} aria-labelledby={`${place}-title`}>
      <Heading id={`${place}-title`}>{title}</Heading>
      {children}
    </section>
  );
}

// -- pictures -------------------------------------------------------------------------------

/** Cards in a row, as the game shows them, with their names for screen readers. */
function CardRow({ t, cards, caption }: { t: Translator; cards: string[]; caption?: string }) {
  return (
    <figure class="rules-pic">
      <span class="rules-cards" role="img" aria-label={cards.map((c) => t.card(c)).join(", ")}>
        {cards.map((card, i) => <CardFace key={`${card}-${i}`} card={card} />)}
      </span>
      {caption && <figcaption>{caption}</figcaption>}
    </figure>
  );
}

/** The two directions of a row, with the rulebooks' examples. */
function Directions({ t, colours }: { t: Translator; colours: [Colour, Colour] }) {
  const [up, down] = colours;
  return (
    <div class="rules-pics">
      <CardRow t={t} cards={[3, 3, 6, 7, 7].map((v) => `${up}${v}`)} caption={`↑ ${t.t("web.direction.ascending")}`} />
      <CardRow t={t} cards={[9, 8, 8, 5, 3].map((v) => `${down}${v}`)} caption={`↓ ${t.t("web.direction.descending")}`} />
    </div>
  );
}

type TileKind = "clover" | "wish" | number;

function tileLabel(t: Translator, tile: TileKind): string {
  if (tile === "clover") return t.t("act.tile.clover");
  if (tile === "wish") return t.t("act.tile.wish");
  return t.t("act.tile.points", { points: tile });
}

function TileGlyph({ tile, x, y }: { tile: TileKind; x: number; y: number }) {
  const kind = typeof tile === "number" ? "points" : tile;
  return (
    <text x={x} y={y} class={`tile tile-${kind}`} aria-hidden="true">
      {tile === "clover" ? "♣" : tile === "wish" ? "◆" : `+${tile}`}
    </text>
  );
}

/** A figure as the board draws it: a disc in its player's colour with the seat's number, the
 * big one larger and ringed. */
function Figure({ seat, big, x, y }: { seat: number; big?: boolean; x: number; y: number }) {
  const r = big ? 13.5 : 11;
  return (
    <g class={`figure${big ? " big" : ""}`} transform={`translate(${x} ${y})`} aria-hidden="true">
      <circle r={r} fill={PLAYER_MARK[seat]} class="figure-body" />
      {big && <circle r={r - 3.2} class="figure-ring" stroke={PLAYER_TEXT[seat]} />}
      <text y="5" class="figure-num" fill={PLAYER_TEXT[seat]}>{seat + 1}</text>
    </g>
  );
}

/** A stone with one tile on it (a dark stone, as on the board). */
function TilePicture({ t, tile }: { t: Translator; tile: TileKind }) {
  return (
    <figure class="rules-pic">
      <svg class="rules-tile" viewBox="0 0 84 54" width="84" height="54" role="img" aria-label={tileLabel(t, tile)}>
        <g class="stone dark">
          <rect x="4" y="4" width="76" height="46" rx="12" class="stone-shape" />
        </g>
        <TileGlyph tile={tile} x={42} y={33} />
      </svg>
      <figcaption>{tileLabel(t, tile)}</figcaption>
    </figure>
  );
}

/** One stone path of the board: the start stone, nine stones with their values beside them,
 * the goal area, tiles on the dark stones and the end stone, and a few figures. */
function PathPicture({ t, colour, tables }: { t: Translator; colour: Colour; tables: Tables["board"] }) {
  const top = 56;
  const pitch = 38;
  const y = (row: number) => top + (9 - row) * pitch;
  const dark: Record<number, TileKind> = { 2: "clover", 4: 2, 6: "wish", 8: 3, 9: "wish" };
  const values = tables.row_values;
  const goalTop = y(9) - 20;
  const goalBottom = y(tables.goal_row) + 19;
  const startY = y(0) + 4;
  const figures = [
    { seat: 0, row: 3, big: false },
    { seat: 1, row: 7, big: true },
  ];
  const label = [
    `${SYMBOL[colour]} ${t.colour(colour)}`,
    ...Array.from({ length: 9 }, (_, k) => {
      const row = k + 1;
      const tile = dark[row];
      const here = figures.filter((f) => f.row === row)
        .map((f) => t.t(f.big ? "web.figure.big" : "web.figure.small", { name: t.t("name.player", { n: f.seat + 1 }) }));
      return [t.t("web.stone", { path: colour, row, value: signed(t, values[row]) }),
        ...(tile !== undefined ? [tileLabel(t, tile)] : []), ...here].join(", ");
    }),
  ].join("; ");
  return (
    <figure class="rules-pic">
      <svg class="rules-path" viewBox="0 0 200 442" width="200" height="442" role="img" aria-label={label}>
        <rect x="0" y="0" width="200" height="442" rx="14" class="board-bg" />
        <rect x="44" y={goalTop} width="150" height={goalBottom - goalTop} rx="10" class="goal-area" />
        <line x1="44" x2="194" y1={goalBottom + 0.5} y2={goalBottom + 0.5} class="goal-line" />
        <text x="120" y="24" class="path-head" aria-hidden="true">{SYMBOL[colour]} {t.colour(colour)}</text>
        <rect x="74" y={y(9) - 19} width="92" height={y(1) - y(9) + 38} rx="14" class={`path-bg c-${colour}`} />
        {Array.from({ length: 9 }, (_, k) => {
          const row = k + 1;
          const tile = dark[row];
          return (
            <g key={row}>
              <text x="26" y={y(row) + 5} class="row-value" aria-hidden="true">{signed(t, values[row])}</text>
              <g class={`stone${tile !== undefined ? " dark" : ""}`}>
                <rect x="82" y={y(row) - 15} width="76" height="30" rx="10" class="stone-shape" />
              </g>
              {tile !== undefined && <TileGlyph tile={tile} x={99} y={y(row) + 6} />}
            </g>
          );
        })}
        {figures.map((f) => <Figure key={f.seat} seat={f.seat} big={f.big} x={136} y={y(f.row)} />)}
        <rect x="20" y={startY - 15} width="174" height="32" rx="12" class="start-stone" />
        <text x="107" y={startY + 6} class="start-label" aria-hidden="true">{t.t("board.start")}</text>
      </svg>
    </figure>
  );
}

/** A player's five figures on the start stone. */
function FiguresPicture({ t }: { t: Translator }) {
  const name = t.t("name.player", { n: 1 });
  const label = [t.t("web.figure.big", { name }), ...Array.from({ length: 4 }, () => t.t("web.figure.small", { name }))].join(", ");
  return (
    <figure class="rules-pic">
      <svg class="rules-figures" viewBox="0 0 200 60" width="200" height="60" role="img" aria-label={label}>
        <rect x="4" y="8" width="192" height="44" rx="12" class="start-stone" />
        <Figure seat={0} big x={34} y={30} />
        {[0, 1, 2, 3].map((i) => <Figure key={i} seat={0} x={74 + i * 32} y={30} />)}
      </svg>
      <figcaption>{t.t("board.start")}</figcaption>
    </figure>
  );
}

/** The card game's wish stones, as the table shows them. */
function WishStones({ t, values }: { t: Translator; values: number[] }) {
  return (
    <ol class="stones rules-stones">
      {values.map((value) => (
        <li key={value} class="wish" aria-label={t.t("web.wish_stone", { value })}>
          <span aria-hidden="true">◆{value}</span>
        </li>
      ))}
    </ol>
  );
}

/** Two cards of one value buy the wish stone of that value. */
function ClaimPicture({ t }: { t: Translator }) {
  const cards = ["G5", "*5"];
  const label = `${cards.map((c) => t.card(c)).join(" + ")} → ${t.t("web.wish_stone", { value: 5 })}`;
  return (
    <figure class="rules-pic">
      <span class="rules-cards rules-claim" role="img" aria-label={label}>
        <CardFace card={cards[0]} />
        <span class="rules-op" aria-hidden="true">+</span>
        <CardFace card={cards[1]} />
        <span class="rules-op" aria-hidden="true">→</span>
        <span class="wish" aria-hidden="true">◆5</span>
      </span>
    </figure>
  );
}

/** A table of values, one line per number: a heading cell, then the values. */
function ValueTable({ caption, head, rows }: { caption: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <table class="rules-table">
      <caption>{caption}</caption>
      <thead>
        <tr>{head.map((h) => <th key={h} scope="col">{h}</th>)}</tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={String(row[0])}>
            <th scope="row">{row[0]}</th>
            {row.slice(1).map((cell, i) => <td key={i}>{cell}</td>)}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function WishTable({ ctx }: { ctx: Ctx }) {
  const { t, game } = ctx;
  const points = ctx.tables[game].wish_points;
  return (
    <ValueTable caption={t.t("rules.table.wishes")} head={[t.t("rules.table.count"), t.t("rules.table.points")]}
      rows={points.map((p, n) => [n === points.length - 1 ? t.t("rules.table.or_more", { count: n }) : n, signed(t, p)])} />
  );
}

// -- the board game ---------------------------------------------------------------------------

function BoardRules({ ctx }: { ctx: Ctx }) {
  const { t } = ctx;
  const path = (
    <ValueTable caption={t.t("rules.table.path")}
      head={[t.t("rules.table.stone"), t.t("rules.table.small"), t.t("rules.table.big")]}
      rows={ctx.tables.board.row_values.slice(1).map((v, i) => [i + 1, signed(t, v), signed(t, 2 * v)])} />
  );
  return (
    <>
      <Part ctx={ctx} place="components" title={t.t("rules.h.components")}>
        <Rule ctx={ctx} id="B-1" title={t.t("rules.board.cards.title")}>
          <p>{t.t("rules.board.cards")}</p>
          <CardRow t={t} cards={["G0", "Y3", "R5", "P7", "B10"]} />
        </Rule>
        <Rule ctx={ctx} id="B-2" title={t.t("rules.board.paths.title")}>
          <p>{t.t("rules.board.paths")}</p>
          <div class="rules-pics">
            <PathPicture t={t} colour="G" tables={ctx.tables.board} />
          </div>
        </Rule>
        <Rule ctx={ctx} id="B-3" title={t.t("rules.board.tiles.title")}>
          <p>{t.t("rules.board.tiles")}</p>
          <div class="rules-pics">
            <TilePicture t={t} tile="wish" />
            <TilePicture t={t} tile="clover" />
            <TilePicture t={t} tile={1} />
            <TilePicture t={t} tile={2} />
            <TilePicture t={t} tile={3} />
          </div>
        </Rule>
        <Rule ctx={ctx} id="B-4" title={t.t("rules.board.places.title")}>
          <p>{t.t("rules.board.places")}</p>
        </Rule>
        <Rule ctx={ctx} id="B-5" title={t.t("rules.board.pieces.title")}>
          <p>{t.t("rules.board.pieces")}</p>
          <div class="rules-pics">
            <FiguresPicture t={t} />
          </div>
        </Rule>
      </Part>
      <Part ctx={ctx} place="setup" title={t.t("rules.h.setup")}>
        <Rule ctx={ctx} id="B-6" title={t.t("rules.board.lay_tiles.title")}>
          <p>{t.t("rules.board.lay_tiles")}</p>
        </Rule>
        <Rule ctx={ctx} id="B-7" title={t.t("rules.deal.title")}>
          <p>{t.t("rules.board.deal")}</p>
        </Rule>
        <Rule ctx={ctx} id="B-8" title={t.t("rules.two.title")}>
          <p>{t.t("rules.two")}</p>
        </Rule>
        <Rule ctx={ctx} id="B-9" title={t.t("rules.start.title")}>
          <p>{t.t("rules.board.start")}</p>
        </Rule>
      </Part>
      <Part ctx={ctx} place="turn" title={t.t("rules.board.h.turn")}>
        <Rule ctx={ctx} id="B-10" title={t.t("rules.board.play.title")}>
          <p>{t.t("rules.board.play")}</p>
        </Rule>
        <Rule ctx={ctx} id="B-11" title={t.t("rules.board.first.title")}>
          <p>{t.t("rules.board.first")}</p>
        </Rule>
        <Rule ctx={ctx} id="B-12" title={t.t("rules.board.next.title")}>
          <p>{t.t("rules.board.next")}</p>
        </Rule>
        <Rule ctx={ctx} id="B-13" title={t.t("rules.direction.title")}>
          <p>{t.t("rules.direction")}</p>
          <Directions t={t} colours={["R", "B"]} />
        </Rule>
        <Rule ctx={ctx} id="B-14" title={t.t("rules.board.overflow.title")}>
          <p>{t.t("rules.board.overflow")}</p>
        </Rule>
        <Rule ctx={ctx} id="B-15" title={t.t("rules.board.draw.title")}>
          <p>{t.t("rules.board.draw")}</p>
        </Rule>
      </Part>
      <Part ctx={ctx} place="tiles" title={t.t("rules.board.h.tiles")}>
        <p>{t.t("rules.board.tiles_act")}</p>
        <Rule ctx={ctx} id="B-16" title={t.t("rules.board.points.title")}>
          <div class="rules-side">
            <TilePicture t={t} tile={2} />
            <p>{t.t("rules.board.points")}</p>
          </div>
        </Rule>
        <Rule ctx={ctx} id="B-17" title={t.t("rules.board.clover.title")}>
          <div class="rules-side">
            <TilePicture t={t} tile="clover" />
            <p>{t.t("rules.board.clover")}</p>
          </div>
        </Rule>
        <Rule ctx={ctx} id="B-18" title={t.t("rules.board.wish.title")}>
          <div class="rules-side">
            <TilePicture t={t} tile="wish" />
            <p>{t.t("rules.board.wish")}</p>
          </div>
        </Rule>
      </Part>
      <Part ctx={ctx} place="end" title={t.t("rules.h.end")}>
        <Rule ctx={ctx} id="B-19" title={t.t("rules.board.goal.title")}>
          <p>{t.t("rules.board.goal")}</p>
        </Rule>
        <Rule ctx={ctx} id="B-20" title={t.t("rules.deck.title")}>
          <p>{t.t("rules.board.deck")}</p>
        </Rule>
      </Part>
      <Part ctx={ctx} place="scoring" title={t.t("rules.h.scoring")}>
        <Rule ctx={ctx} id="B-21" title={t.t("rules.board.figures.title")}>
          <p>{t.t("rules.board.figures")}</p>
          {path}
        </Rule>
        <Rule ctx={ctx} id="B-22" title={t.t("rules.board.tile_points.title")}>
          <p>{t.t("rules.board.tile_points")}</p>
          <ScoreTrack t={t} scores={[-4, 7, 15]} names={[1, 2, 3].map((n) => t.t("name.player", { n }))} />
        </Rule>
        <Rule ctx={ctx} id="B-23" title={t.t("rules.wishes.title")}>
          <p>{t.t("rules.board.wishes")}</p>
          <WishTable ctx={ctx} />
          <p>{t.t("rules.score_now")}</p>
        </Rule>
        <Rule ctx={ctx} id="B-24" title={t.t("rules.winner.title")}>
          <p>{t.t("rules.winner")}</p>
        </Rule>
      </Part>
      <Variants ctx={ctx} />
    </>
  );
}

// -- the card game ----------------------------------------------------------------------------

function CardRules({ ctx }: { ctx: Ctx }) {
  const { t } = ctx;
  // What a row of 1, 2, … cards scores (the table leaves out a row of none).
  const rowPoints = ctx.tables.cards.row_points.slice(1);
  return (
    <>
      <Part ctx={ctx} place="components" title={t.t("rules.h.components")}>
        <Rule ctx={ctx} id="C-1" title={t.t("rules.cards.numbers.title")}>
          <p>{t.t("rules.cards.numbers")}</p>
          <CardRow t={t} cards={["G0", "Y3", "R5", "P7", "B10"]} />
        </Rule>
        <Rule ctx={ctx} id="C-2" title={t.t("rules.cards.closing.title")}>
          <p>{t.t("rules.cards.closing")}</p>
          <CardRow t={t} cards={["GX", "YX", "RX", "PX", "BX"]} />
        </Rule>
        <Rule ctx={ctx} id="C-3" title={t.t("rules.cards.points.title")}>
          <p>{t.t("rules.cards.points")}</p>
          <CardRow t={t} cards={["*0", "*4", "*10"]} />
        </Rule>
        <Rule ctx={ctx} id="C-4" title={t.t("rules.wishes.title")}>
          <p>{t.t("rules.cards.wish_cards")}</p>
          <WishStones t={t} values={ctx.tables.cards.wish_stones} />
        </Rule>
      </Part>
      <Part ctx={ctx} place="setup" title={t.t("rules.h.setup")}>
        <Rule ctx={ctx} id="C-5" title={t.t("rules.deal.title")}>
          <p>{t.t("rules.cards.deal")}</p>
          <p>{t.t("rules.cards.start")}</p>
        </Rule>
        <Rule ctx={ctx} id="C-6" title={t.t("rules.two.title")}>
          <p>{t.t("rules.two")}</p>
        </Rule>
      </Part>
      <Part ctx={ctx} place="turn" title={t.t("rules.cards.h.turn")}>
        <p>{t.t("rules.cards.turn")}</p>
        <Rule ctx={ctx} id="C-7" title={t.t("rules.cards.discard.title")}>
          <p>{t.t("rules.cards.discard")}</p>
        </Rule>
        <Rule ctx={ctx} id="C-8" title={t.t("rules.cards.claim.title")}>
          <p>{t.t("rules.cards.claim")}</p>
          <ClaimPicture t={t} />
        </Rule>
        <Rule ctx={ctx} id="C-9" title={t.t("rules.cards.lay.title")}>
          <p>{t.t("rules.cards.lay")}</p>
          <p>{t.t("rules.direction")}</p>
          <Directions t={t} colours={["Y", "P"]} />
        </Rule>
        <Rule ctx={ctx} id="C-10" title={t.t("rules.cards.close.title")}>
          <p>{t.t("rules.cards.close")}</p>
          <CardRow t={t} cards={["R2", "R4", "R7", "RX", "RX"]} />
        </Rule>
        <Rule ctx={ctx} id="C-11" title={t.t("rules.cards.point.title")}>
          <p>{t.t("rules.cards.point")}</p>
          <div class="rules-pics">
            <CardRow t={t} cards={["*3", "*8", "*1"]} caption={t.t("score.point_row")} />
            <CardRow t={t} cards={["G6", "G4", "*4"]} caption={`↓ ${t.t("web.direction.descending")}`} />
          </div>
        </Rule>
        <Rule ctx={ctx} id="C-12" title={t.t("rules.cards.draw.title")}>
          <p>{t.t("rules.cards.draw")}</p>
        </Rule>
      </Part>
      <Part ctx={ctx} place="end" title={t.t("rules.h.end")}>
        <Rule ctx={ctx} id="C-13" title={t.t("rules.cards.closed.title")}>
          <p>{t.t("rules.cards.closed")}</p>
        </Rule>
        <Rule ctx={ctx} id="C-14" title={t.t("rules.deck.title")}>
          <p>{t.t("rules.cards.deck")}</p>
        </Rule>
        <Rule ctx={ctx} id="C-15" title={t.t("rules.cards.last.title")}>
          <p>{t.t("rules.cards.last")}</p>
        </Rule>
      </Part>
      <Part ctx={ctx} place="scoring" title={t.t("rules.h.scoring")}>
        <Rule ctx={ctx} id="C-16" title={t.t("rules.cards.rows.title")}>
          <p>{t.t("rules.cards.rows")}</p>
          <ValueTable caption={t.t("rules.table.rows")} head={[t.t("rules.table.cards"), t.t("rules.table.points")]}
            rows={rowPoints.map((p, i) => [i === rowPoints.length - 1 ? t.t("rules.table.or_more", { count: i + 1 }) : i + 1, signed(t, p)])} />
        </Rule>
        <Rule ctx={ctx} id="C-17" title={t.t("rules.cards.point_row.title")}>
          <p>{t.t("rules.cards.point_row")}</p>
        </Rule>
        <Rule ctx={ctx} id="C-18" title={t.t("rules.wishes.title")}>
          <p>{t.t("rules.cards.wishes")}</p>
          <WishTable ctx={ctx} />
          <p>{t.t("rules.score_now")}</p>
        </Rule>
        <Rule ctx={ctx} id="C-19" title={t.t("rules.winner.title")}>
          <p>{t.t("rules.winner")}</p>
        </Rule>
      </Part>
      <Variants ctx={ctx} />
    </>
  );
}

/** The rule switches the new-match form offers (web/src/home.tsx, from GET /api/games). */
function Variants({ ctx }: { ctx: Ctx }) {
  const { t, game } = ctx;
  return (
    <Part ctx={ctx} place="variants" title={t.t("rules.h.variants")}>
      <p>{t.t("rules.variants", { form: t.t("web.create"), rules: t.t("web.rules"), now: t.t("web.play_now") })}</p>
      <ul>
        {game === "board" && (
          <li>{t.t("rules.variants.no_take_back", { switch: t.t("web.variant.no_take_back") })}</li>
        )}
        <li>{t.t("rules.variants.turn_cap", { switch: t.t("web.variant.turn_cap") })}</li>
      </ul>
    </Part>
  );
}

/** The parts of a game's rules, for the contents. */
const PARTS: Record<RulesGame, [string, string, string, string][]> = {
  board: [
    ["components", "rules.h.components", "B-1", "B-5"],
    ["setup", "rules.h.setup", "B-6", "B-9"],
    ["turn", "rules.board.h.turn", "B-10", "B-15"],
    ["tiles", "rules.board.h.tiles", "B-16", "B-18"],
    ["end", "rules.h.end", "B-19", "B-20"],
    ["scoring", "rules.h.scoring", "B-21", "B-24"],
    ["variants", "rules.h.variants", "", ""],
  ],
  cards: [
    ["components", "rules.h.components", "C-1", "C-4"],
    ["setup", "rules.h.setup", "C-5", "C-6"],
    ["turn", "rules.cards.h.turn", "C-7", "C-12"],
    ["end", "rules.h.end", "C-13", "C-15"],
    ["scoring", "rules.h.scoring", "C-16", "C-19"],
    ["variants", "rules.h.variants", "", ""],
  ],
};

/** A game's rules: the introduction, the contents, every part. */
function RulesContent({ game, mode }: { game: RulesGame; mode: Mode }) {
  const t = useT();
  const ctx: Ctx = { t, game, mode, tables: scoringTables() };
  const other: RulesGame = game === "board" ? "cards" : "board";
  return (
    <div class={`rules rules-${game}`} data-rules={game}>
      <p class="rules-intro">{t.t(`rules.${game}.intro`)}</p>
      <nav class="rules-contents" aria-labelledby={`contents-${mode}`}>
        <p id={`contents-${mode}`} class="rules-contents-title">{t.t("rules.contents")}</p>
        <ol>
          {PARTS[game].map(([place, key, first, last]) => (
            <li key={place}>
              <PlaceLink ctx={ctx} id={place}>{t.t(key)}</PlaceLink>
              {first && <span class="muted"> ({first} – {last})</span>}
            </li>
          ))}
        </ol>
      </nav>
      {game === "board" ? <BoardRules ctx={ctx} /> : <CardRules ctx={ctx} />}
      {mode === "page" && (
        <p class="rules-other">
          {t.t("rules.other")} <a href={`#/rules/${other}`} data-testid="rules-other">{t.t(`title.${other}`)}</a>
        </p>
      )}
    </div>
  );
}

function isGame(game: string | undefined): game is RulesGame {
  return game === "board" || game === "cards";
}

/** The page #/rules/{game}[/{place}]: a rule's id or a part's name scrolls there. */
export function RulesPage({ game, place }: { game: string; place?: string }) {
  const t = useT();
  useEffect(() => {
    if (isGame(game)) document.title = `Keltis – ${t.t(`rules.title.${game}`)}`;
  }, [game, t]);
  useEffect(() => {
    if (place && isGame(game)) showSection(place);
  }, [game, place]);
  if (!isGame(game)) {
    return (
      <main id="main">
        <p>{t.t("web.not_found")}</p>
      </main>
    );
  }
  return (
    <main id="main" class="rules-page">
      <h1>{t.t(`rules.title.${game}`)}</h1>
      <RulesContent game={game} mode="page" />
    </main>
  );
}

/** The start page's links to both games' rules. */
export function RulesLinks() {
  const t = useT();
  return (
    <p class="rules-links" data-testid="rules-links">
      <span>{t.t("web.how_to_play")}:</span>
      {RULES_GAMES.map((g) => (
        <a key={g} class="button" href={`#/rules/${g}`} data-rules-link={g}>{t.t(`title.${g}`)}</a>
      ))}
    </p>
  );
}

/** The rules over a game, in a modal dialog: the game and its live connection stay; Escape,
 * the close button or a click beside the dialog close it, and the focus goes back to the
 * button that opened it. Keys pressed in it never reach the game (1–9 would play a move). */
function RulesDialog({ game, place, onClose }: { game: RulesGame; place?: string; onClose: () => void }) {
  const t = useT();
  const close = useRef<HTMLButtonElement>(null);
  // Opened at a rule: that rule in sight and focused (a screen reader reads it); else the
  // close button, the dialog's first control.
  const { dialog, handlers } = useModal(onClose, () => {
    if (!place || !showSection(place)) close.current?.focus();
  });
  return (
    <dialog ref={dialog} class="rules-dialog" aria-labelledby="rules-dialog-title" data-testid="rules-dialog"
      {...handlers}
      onClick={(event) => {
        if (event.target === dialog.current) onClose();
      }}>
      <div class="rules-dialog-head">
        <h2 id="rules-dialog-title">{t.t(`rules.title.${game}`)}</h2>
        <button ref={close} type="button" class="small-button rules-close" data-testid="rules-close" onClick={onClose}>
          <span aria-hidden="true">✕</span> <span class="rules-close-text">{t.t("rules.close")}</span>
        </button>
      </div>
      <div class="rules-dialog-body">
        <RulesContent game={game} mode="dialog" />
      </div>
    </dialog>
  );
}

/** A link to one rule (a refusal's, say) that opens the rules over the game at that rule:
 * the game and its connection stay. Its address is the rule's page (a new tab gets that).
 * With a `term` (a term of the game where it first shows: the big figure, wish stones, point
 * cards, closing cards) it is a small "?" named for the term. */
export function RuleLink({ game, rule, term }: { game: string; rule: string; term?: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (!isGame(game)) return null;
  return (
    <>
      <a class={term ? "term-help" : "rule-link"} href={`#/rules/${game}/${rule}`} data-rule-link={rule}
        aria-haspopup="dialog" aria-label={term ? t.t("web.rule.about", { term }) : undefined}
        title={term ? t.t("web.rule.about", { term }) : undefined}
        onClick={(event) => {
          if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
          event.preventDefault();
          setOpen(true);
        }}>
        {term ? "?" : t.t("rules.link", { id: rule })}
      </a>
      {open && <RulesDialog game={game} place={rule} onClose={() => setOpen(false)} />}
    </>
  );
}

/** "Rules": a button that opens the game's rules over it. */
export function RulesButton({ game }: { game: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (!isGame(game)) return null;
  return (
    <>
      <button type="button" class="small-button rules-button" aria-haspopup="dialog" data-testid="rules-button"
        onClick={() => setOpen(true)}>
        <span aria-hidden="true">?</span> {t.t("web.rules")}
      </button>
      {open && <RulesDialog game={game} onClose={() => setOpen(false)} />}
    </>
  );
}
