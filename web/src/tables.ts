// The numbers each game scores by, as the server sends them (GET /api/games, each game's
// `tables`: keltis.core.scoring). The rules pages and the board show these and hold no rule
// numbers of their own, so that what a player reads is always what the engine counts.
import { api } from "./api";

/** The board game's: `row_values[row]` (0: the start stone … 9: the end stone; the big
 * figure scores twice that), `wish_points[n]` for n wish stones (the last: n or more), the
 * goal area from `goal_row` on, and the game ends with `goal_figures` figures in it. */
export interface BoardTables {
  row_values: number[];
  wish_points: number[];
  goal_row: number;
  goal_figures: number;
}

/** The card game's: `row_points[n]` for a colour row of n cards and `wish_points[n]` for n
 * wish stones (each list's last: n or more), and the wish stones' values. */
export interface CardTables {
  row_points: number[];
  wish_points: number[];
  wish_stones: number[];
}

export interface Tables {
  board: BoardTables;
  cards: CardTables;
}

let loaded: Tables | null = null;

/** The tables, loaded with the page: main.tsx shows no page before loadTables() is done. */
export function scoringTables(): Tables {
  if (!loaded) throw new Error("no scoring tables");
  return loaded;
}

/** Both games' tables from GET /api/games, kept for scoringTables(). */
export async function loadTables(): Promise<Tables> {
  const answer = await api.games();
  const of = (name: string) => answer.games.find((g) => g.name === name)?.tables;
  const board = of("board") as BoardTables | undefined;
  const cards = of("cards") as CardTables | undefined;
  if (!board || !cards) throw new Error("the server sent no scoring tables");
  loaded = { board, cards };
  return loaded;
}
