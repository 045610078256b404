// The wire format (docs/wire.md, src/keltis/schemas/*.schema.json) as TypeScript types:
// what the server sends. Only the fields the client reads are typed.

export type Colour = "G" | "Y" | "R" | "P" | "B";
export const COLOURS: Colour[] = ["G", "Y", "R", "P", "B"];
export type Pile = Colour | "*";

export interface Event {
  type: string;
  card?: string;
  onto?: Colour;
  first?: string;
  second?: string;
  value?: number;
  pile?: Pile;
  big?: boolean;
  path?: Colour;
  row?: number;
  points?: number;
  count?: number;
  reason?: string;
}

export interface Tile {
  kind: "points" | "clover" | "wish";
  points?: number;
}

export interface Preview {
  score: number;
  ends_game: boolean;
  next: string | null;
  events: Event[];
  figure?: {
    path: Colour;
    from: number;
    to: number;
    big: boolean | null;
    overflow: boolean;
    goal: boolean;
    tile: Tile | null;
  } | null;
  row?: { colour: Pile; length: number; points: number; closing?: boolean; closes_row?: boolean } | null;
  wish?: number | null;
  pile?: Pile | null;
}

export interface Legal {
  notation: string;
  index: number;
  kind: "lay" | "discard" | "claim" | "figure" | "advance" | "pass" | "draw";
  preview: Preview;
}

export interface Outcome {
  scores: number[];
  breakdown: Record<string, number>[];
  winners: number[];
  end_reason: string;
}

export type Direction = "open" | "ascending" | "descending";

interface PlayerBase {
  rows: Record<Colour, string[]>;
  directions: Record<Colour, Direction>;
  score: number;
}

export interface BoardPlayer extends PlayerBase {
  positions: Record<Colour, number>;
  big: Colour | null;
  tile_points: number;
  wishes: number;
}

export interface CardsPlayer extends PlayerBase {
  point_row: string[];
  wish_stones: number[];
}

interface ViewBase {
  wire_version: number;
  viewer: number | null;
  num_players: number;
  current_player: number;
  phase: string;
  turn: number;
  ply: number;
  legal: Legal[];
  hand: string[] | null;
  hand_sizes: number[];
  deck_size: number;
  removed_count: number;
  known_cards: string[][];
  recent: [number, string][];
  over: boolean;
  outcome: Outcome | null;
  variant: Record<string, unknown>;
}

export interface BoardView extends ViewBase {
  game: "board";
  layout: { name: string; dark: Record<Colour, number[]> };
  tiles: Record<Colour, string>;
  discards: Record<Colour, string[]>;
  players: BoardPlayer[];
  goal_count: number;
  pending: Colour | null;
  discarded_pile: Colour | null;
}

export interface CardsView extends ViewBase {
  game: "cards";
  wish_row: number[];
  discards: Record<Pile, string[]>;
  players: CardsPlayer[];
  closed_rows: number;
  draws_left: number;
  blocked_piles: Pile[];
  final_lays_left: number;
  ender: number;
}

export type View = BoardView | CardsView;

export interface StepAction {
  notation: string;
  index: number;
  kind: string;
}

export interface Step {
  ply: number;
  seat: number;
  action: StepAction;
  events: Event[];
}

export type Level = "random" | "easy" | "medium" | "hard";

export interface SeatInfo {
  seat: number;
  name: string;
  kind: "person" | "bot";
  level: Level | null;
  joined: boolean;
  stand_in: Level | null;
  away: boolean;
  connected?: boolean;
}

/** The turn clock of the decision now due (null where none runs: no limit, the match not
 * running, a bot or a stand-in to move). `remaining` is counted down from the message's
 * arrival: the local clock is never compared with `deadline`. */
export interface Clock {
  seconds: number;
  seat: number;
  deadline: string;
  remaining: number;
  expired: boolean;
}

export interface MatchInfo {
  id: string;
  game: "board" | "cards";
  status: "open" | "running" | "finished";
  players: number;
  variant: Record<string, unknown>;
  options: { hints: boolean; undo: boolean; turn_seconds?: number | null };
  version: number;
  to_move: number | null;
  seats: SeatInfo[];
  result: Outcome | null;
  clock?: Clock | null;
  /** The match its players asked to play next (POST /api/matches/{id}/again), once one did. */
  next?: string | null;
  /** The match this one plays again. */
  previous?: string | null;
  created?: string;
  updated?: string;
}

export interface Hint {
  action: string;
  win: number;
  spread: number;
  margin: number;
  playouts: number;
}

export type ServerMessage =
  | { type: "snapshot"; version: number; seat: number | null; match: MatchInfo; view: View; log: Step[]; result: Outcome | null }
  | { type: "step"; version: number; step: Step; view: View; result?: Outcome | null; clock?: Clock | null }
  | { type: "match"; version: number; match: MatchInfo }
  | { type: "ack"; version: number; ref?: string | number }
  | { type: "hints"; version: number; hints: Hint[]; ref?: string | number }
  | { type: "error"; code: string; message: string; version?: number; ref?: string | number }
  | { type: "pong"; version: number; ref?: string | number };
