// Generated from src/keltis/schemas/*.schema.json by web/scripts/gen-types.mjs
// (json-schema-to-typescript): do not edit. After changing a schema: cd web && npm run types
// (docs/web.md). tests/web/test_wire_types.py fails while this file is not what that writes.

export type WireDocument = GameInfo | LiveMessage | GameRecord | Review | Step | View;
/**
 * What keltis serve sends on /api/matches/{id}/live (docs/server.md). Every message names the match's version, except an error before the match is known.
 */
export type LiveMessage =
  | {
      type: "snapshot";
      /**
       * actions stored so far: the view's ply
       */
      version: number;
      seat: Seat | null;
      match: Match;
      view: View;
      log: Step[];
      result: Outcome | null;
    }
  | {
      type: "step";
      /**
       * actions stored so far: the view's ply
       */
      version: number;
      step: Step;
      view: View;
      result: Outcome | null;
      /**
       * the turn clock of the decision now due
       */
      clock?: Clock | null;
    }
  | {
      type: "match";
      /**
       * actions stored so far: the view's ply
       */
      version: number;
      match: Match;
    }
  | {
      type: "ack";
      /**
       * actions stored so far: the view's ply
       */
      version: number;
      /**
       * the ref of the client's request this answers
       */
      ref?: string | number;
    }
  | {
      type: "hints";
      /**
       * actions stored so far: the view's ply
       */
      version: number;
      /**
       * the ref of the client's request this answers
       */
      ref?: string | number;
      hints: Hint[];
    }
  | {
      type: "pong";
      /**
       * actions stored so far: the view's ply
       */
      version: number;
      /**
       * the ref of the client's request this answers
       */
      ref?: string | number;
    }
  | {
      type: "chat";
      /**
       * actions stored so far: the view's ply
       */
      version: number;
      /**
       * grows with each message of the server; GET /api/matches/{id}/chat?after=ID reads the ones after it
       */
      id: number;
      channel: "players" | "spectators";
      /**
       * the speaking seat (null: a spectator)
       */
      seat: Seat | null;
      /**
       * the speaker's name (a seat's player, or a spectator's account)
       */
      name: string;
      /**
       * the speaker's account name (null: a guest), so that a client can leave out the accounts its player muted
       */
      account: string | null;
      /**
       * plain text, one line, trimmed
       */
      text: string;
      /**
       * when it was said (ISO 8601, UTC)
       */
      at: string;
    }
  | {
      type: "error";
      /**
       * actions stored so far: the view's ply
       */
      version?: number;
      /**
       * the ref of the client's request this answers
       */
      ref?: string | number;
      /**
       * a message key: server.*, refuse.* (a move refused: the rule's reason), msg.*
       */
      code: string;
      /**
       * the reason in the client's language
       */
      message: string;
      /**
       * a move refused by a rule: the rule's id, the anchor of its section on the rules page (docs/web.md)
       */
      rule?: string;
      /**
       * a move refused by a rule: the message without the rule's id ("B-13: "), for a client that shows the rule apart
       */
      reason?: string;
    };
export type Seat = number;
/**
 * What one seat (or a spectator) may see of a game: View.to_json(). Hidden cards appear only as counts.
 */
export type View = BoardView | CardsView;
export type Event =
  | {
      type: "lay";
      /**
       * a card in notation: G7, B10, RX (closing card), *5 (point card)
       */
      card: string;
      label: Label;
    }
  | {
      type: "lay_onto";
      /**
       * a card in notation: G7, B10, RX (closing card), *5 (point card)
       */
      card: string;
      onto: "G" | "Y" | "R" | "P" | "B";
      label: Label;
    }
  | {
      type: "discard";
      /**
       * a card in notation: G7, B10, RX (closing card), *5 (point card)
       */
      card: string;
      label: Label;
    }
  | {
      type: "claim";
      /**
       * a card in notation: G7, B10, RX (closing card), *5 (point card)
       */
      first: string;
      /**
       * a card in notation: G7, B10, RX (closing card), *5 (point card)
       */
      second: string;
      value: number;
      label: Label;
    }
  | {
      type: "draw_deck";
      /**
       * a card in notation: G7, B10, RX (closing card), *5 (point card)
       */
      card?: string;
      label: Label;
    }
  | {
      type: "draw_pile";
      /**
       * a card in notation: G7, B10, RX (closing card), *5 (point card)
       */
      card: string;
      pile: "G" | "Y" | "R" | "P" | "B" | "*";
      label: Label;
    }
  | {
      type: "figure";
      big: boolean;
      label: Label;
    }
  | {
      type: "advance";
      path: "G" | "Y" | "R" | "P" | "B";
      label: Label;
    }
  | {
      type: "pass";
      label: Label;
    }
  | {
      type: "moved";
      path: "G" | "Y" | "R" | "P" | "B";
      row: number;
      big: boolean;
      label: Label;
    }
  | {
      type: "points";
      points: number;
      label: Label;
    }
  | {
      type: "wish";
      count: number;
      label: Label;
    }
  | {
      type: "clover";
      label: Label;
    }
  | {
      type: "end";
      reason: "goal" | "deck" | "closed" | "truncated";
      label: Label;
    }
  | {
      type: "final";
      label: Label;
    };
export type Tile =
  | null
  | {
      kind: "points";
      points: number;
    }
  | {
      kind: "clover";
    }
  | {
      kind: "wish";
    };
/**
 * a card in notation: G7, B10, RX (closing card), *5 (point card)
 */
export type Card = string;
export type Cards = Card[];
export type Pile = "G" | "Y" | "R" | "P" | "B" | "*";
export type Colour = "G" | "Y" | "R" | "P" | "B";
export type ReviewSeat = number;
export type ReviewChance = number;
export type ReviewMark = "best" | "good" | "inaccuracy" | "mistake" | "blunder";
/**
 * one win chance per seat
 *
 * @minItems 2
 * @maxItems 4
 */
export type ReviewChances = ReviewChance[];

/**
 * Game.info(players, variant).to_json(), after OpenSpiel's GameType and GameInfo.
 */
export interface GameInfo {
  short_name: "keltis_board" | "keltis_cards";
  long_name: string;
  version: string;
  num_players: number;
  min_num_players: 2;
  max_num_players: 4;
  /**
   * the size of the game's action space (Game.actions): 124 in the board game, 500 in the card game
   */
  num_distinct_actions: 124 | 500;
  max_game_length: number;
  turn_cap: number;
  dynamics: "sequential";
  chance_mode: "sampled_stochastic";
  information: "imperfect_information";
  utility: "general_sum";
  reward_model: "terminal";
  wire_version: 3;
}
/**
 * a match's public description: never a token, an invite or a hidden card
 */
export interface Match {
  id: string;
  game: "board" | "cards";
  /**
   * cancelled: a match to play another again that never began, as one of its players said no (DELETE /api/matches/{id}/again)
   */
  status: "open" | "running" | "finished" | "cancelled";
  players: number;
  variant: {
    [k: string]: unknown;
  };
  /**
   * a rated match, over, in which a person seat never made a move of its own: its result changed no rating
   */
  aborted?: boolean;
  options: {
    /**
     * hints are offered: one person against bots, or every person agreed to them (hints_agreed)
     */
    hints: boolean;
    /**
     * hints between people, created so: whoever joins agrees to them (such a match is never rated)
     */
    hints_agreed?: boolean;
    undo: boolean;
    /**
     * the turn clock: seconds for each decision (null: no limit)
     */
    turn_seconds?: number | null;
    /**
     * the match's time control (docs/server.md, "Time controls"); null: none (then turn_seconds may give a turn clock)
     */
    time?: TimeControl | null;
  };
  /**
   * actions stored so far: the view's ply
   */
  version: number;
  to_move: Seat | null;
  seats: {
    seat: Seat;
    name: string;
    kind: "person" | "bot";
    level: "random" | "easy" | "medium" | "hard" | null;
    joined: boolean;
    stand_in: "random" | "easy" | "medium" | "hard" | null;
    away: boolean;
    /**
     * connected to this server process
     */
    connected?: boolean;
    /**
     * seconds left in the seat's bank (a real-time time control; null without a bank)
     */
    bank?: number | null;
    /**
     * the seat ran out of time: a bot plays it to the end
     */
    timed_out?: boolean;
    /**
     * a bot stood in for the seat's player at some point (in a rated match it ranks last)
     */
    stood_in?: boolean;
    /**
     * until when the seat's account is on vacation: a correspondence match's clock stops for it (docs/server.md, "Vacation"); null: not on vacation
     */
    vacation?: string | null;
  }[];
  result: Outcome | null;
  clock?: Clock | null;
  /**
   * the match its players asked to play next (POST /api/matches/{id}/again), once one did
   */
  next?: string | null;
  /**
   * the match this one plays again
   */
  previous?: string | null;
  /**
   * the seats that said no to playing this finished match again, oldest first: each cancelled the next match it names
   */
  rematch?: {
    seat: number;
    /**
     * declined: asked, it did not join; withdrew: it waited in the next match, then cancelled
     */
    answer: "declined" | "withdrew";
    next: string;
    at: string;
  }[];
  created?: string;
  updated?: string;
}
/**
 * a time control: when a seat's decision time and bank are spent, the server marks it timed_out and a bot plays it on
 */
export interface TimeControl {
  kind: "realtime" | "correspondence";
  /**
   * realtime: seconds for each decision
   */
  decision?: number;
  /**
   * realtime: seconds per seat for decisions taking longer
   */
  bank?: number;
  /**
   * correspondence: days for each decision
   */
  days?: number;
  /**
   * what happens to a seat out of time (ranked last: a rated match)
   */
  on_timeout: "bot_plays_on" | "bot_plays_on_ranked_last";
}
export interface Outcome {
  /**
   * @minItems 2
   * @maxItems 4
   */
  scores: number[];
  /**
   * @minItems 2
   * @maxItems 4
   */
  breakdown: {
    [k: string]: number;
  }[];
  /**
   * @minItems 1
   */
  winners: number[];
  end_reason: "goal" | "deck" | "closed" | "truncated";
}
/**
 * the clock of the decision now due: with a time control, the server hands the seat to a bot once it runs out; with the turn clock, the other players may (null where none runs: no limit, the match not running, a bot or a stand-in to move)
 */
export interface Clock {
  /**
   * the time for each decision
   */
  seconds: number;
  /**
   * who must decide
   */
  seat: Seat;
  /**
   * when the time runs out (ISO 8601, UTC)
   */
  deadline: string;
  /**
   * seconds left when the message was made (0 once out): count down from receipt, whatever the receiver's clock says
   */
  remaining: number;
  expired: boolean;
  /**
   * with a time control: the bank of the seat to move, included in the deadline (null: no bank)
   */
  bank?: number | null;
}
export interface BoardView {
  wire_version: 3;
  game: "board";
  /**
   * the seat this view is for; null: a spectator
   */
  viewer: number | null;
  num_players: number;
  /**
   * -1 once the game is over
   */
  current_player: number;
  phase: "play" | "figure" | "clover" | "overflow" | "draw" | "over";
  turn: number;
  /**
   * actions applied so far; send it back as expected_ply
   */
  ply: number;
  /**
   * non-empty only for the seat to decide
   */
  legal: (Action & {
    preview: Preview;
    /**
     * what the action would do, in words (legal actions of a view only)
     */
    label: Label;
  })[];
  /**
   * the viewer's own hand; null for a spectator
   */
  hand: Cards | null;
  hand_sizes: number[];
  deck_size: number;
  removed_count: number;
  /**
   * per seat: cards everyone saw it take from a discard pile, still in its hand
   */
  known_cards: Cards[];
  recent: [number, string][];
  over: boolean;
  outcome: Outcome | null;
  variant: Variant;
  layout: {
    name?: string;
    dark: {
      G: number[];
      Y: number[];
      R: number[];
      P: number[];
      B: number[];
    };
  };
  tiles: {
    G: string;
    Y: string;
    R: string;
    P: string;
    B: string;
  };
  discards: {
    G: Cards;
    Y: Cards;
    R: Cards;
    P: Cards;
    B: Cards;
  };
  players: {
    rows: {
      G: Cards;
      Y: Cards;
      R: Cards;
      P: Cards;
      B: Cards;
    };
    directions: {
      G: "open" | "ascending" | "descending";
      Y: "open" | "ascending" | "descending";
      R: "open" | "ascending" | "descending";
      P: "open" | "ascending" | "descending";
      B: "open" | "ascending" | "descending";
    };
    positions: {
      G: number;
      Y: number;
      R: number;
      P: number;
      B: number;
    };
    big: ("G" | "Y" | "R" | "P" | "B") | null;
    tile_points: number;
    wishes: number;
    score: number;
    /**
     * what the score is made of as it stands (B-21-B-23): each path's figure (its row's value, double for the big figure), the point tiles, the wish stones' points and their number; paths + tiles + wishes = score
     */
    parts: {
      paths: {
        G: number;
        Y: number;
        R: number;
        P: number;
        B: number;
      };
      tiles: number;
      wishes: number;
      wish_count: number;
    };
  }[];
  goal_count: number;
  pending: ("G" | "Y" | "R" | "P" | "B") | null;
  discarded_pile: ("G" | "Y" | "R" | "P" | "B") | null;
}
export interface Action {
  /**
   * docs/notation.md
   */
  notation: string;
  /**
   * the action's id in its game's action space (Game.actions): 0-123 in the board game, 0-499 in the card game
   */
  index: number;
  kind: "lay" | "discard" | "claim" | "figure" | "advance" | "pass" | "draw";
  preview?: Preview;
  /**
   * the cards the action plays from the hand: one for a lay or a discard, two for a claim, none otherwise
   */
  cards: Cards;
  /**
   * the pile a discard goes to or a draw takes from: a colour, `*` (the point cards) or `deck` (the draw pile); null for other kinds
   */
  pile: Pile | "deck" | null;
  /**
   * the colour row a point card is laid on (card game); null otherwise
   */
  onto: Colour | null;
  /**
   * the path whose figure an advance moves (board game); null otherwise
   */
  path: Colour | null;
  /**
   * the figure choice (board game): true for the big figure; null for other kinds
   */
  big: boolean | null;
  /**
   * what the action would do, in words (legal actions of a view only)
   */
  label?: Label;
}
export interface Preview {
  /**
   * change of the deciding seat's score (as if the game ended right after)
   */
  score: number;
  ends_game: boolean;
  /**
   * the seat's next decision in the same turn (phase name), null when the turn passes
   */
  next: string | null;
  events: Event[];
  /**
   * board game: the figure the action moves
   */
  figure?: null | {
    path: "G" | "Y" | "R" | "P" | "B";
    from: number;
    to: number;
    big: boolean | null;
    overflow: boolean;
    goal: boolean;
    tile: Tile;
  };
  /**
   * card game: the row a lay lengthens (* = the point row) and what it scores then
   */
  row?: {
    colour: "G" | "Y" | "R" | "P" | "B" | "*";
    length: number;
    points: number;
    closing?: boolean;
    closes_row?: boolean;
  };
  /**
   * card game: the wish stone a claim takes
   */
  wish?: number;
  /**
   * card game: the discard pile a discard or draw uses
   */
  pile?: "G" | "Y" | "R" | "P" | "B" | "*";
}
/**
 * a move or event in words, for any language: the message `key` of the translation catalogs with its `params` (colours as letters, `*` the point cards; cards in notation; numbers), then `notes` worded in brackets after it, joined by commas
 */
export interface Label {
  key: string;
  params: {
    [k: string]: string | number | boolean;
  };
  notes: Label[];
}
export interface Variant {
  turn_cap: number;
  no_take_back?: boolean;
}
export interface CardsView {
  wire_version: 3;
  game: "cards";
  /**
   * the seat this view is for; null: a spectator
   */
  viewer: number | null;
  num_players: number;
  /**
   * -1 once the game is over
   */
  current_player: number;
  phase: "play" | "draw" | "final" | "over";
  turn: number;
  /**
   * actions applied so far; send it back as expected_ply
   */
  ply: number;
  /**
   * non-empty only for the seat to decide
   */
  legal: (Action & {
    preview: Preview;
    /**
     * what the action would do, in words (legal actions of a view only)
     */
    label: Label;
  })[];
  /**
   * the viewer's own hand; null for a spectator
   */
  hand: Cards | null;
  hand_sizes: number[];
  deck_size: number;
  removed_count: number;
  /**
   * per seat: cards everyone saw it take from a discard pile, still in its hand
   */
  known_cards: Cards[];
  recent: [number, string][];
  over: boolean;
  outcome: Outcome | null;
  variant: Variant;
  wish_row: number[];
  discards: {
    G: Cards;
    Y: Cards;
    R: Cards;
    P: Cards;
    B: Cards;
    "*": Cards;
  };
  players: {
    rows: {
      G: Cards;
      Y: Cards;
      R: Cards;
      P: Cards;
      B: Cards;
    };
    directions: {
      G: "open" | "ascending" | "descending";
      Y: "open" | "ascending" | "descending";
      R: "open" | "ascending" | "descending";
      P: "open" | "ascending" | "descending";
      B: "open" | "ascending" | "descending";
    };
    point_row: Cards;
    wish_stones: number[];
    score: number;
    /**
     * what the score is made of as it stands (C-16-C-18): each colour row's points by its length, the point row's cards, the wish stones' points and their number; rows + point_row + wishes = score
     */
    parts: {
      rows: {
        G: number;
        Y: number;
        R: number;
        P: number;
        B: number;
      };
      point_row: number;
      wishes: number;
      wish_count: number;
    };
  }[];
  closed_rows: number;
  draws_left: number;
  blocked_piles: Pile[];
  final_lays_left: number;
  ender: number;
}
/**
 * keltis.match.Step.to_json(viewer). events never name a card the receiver may not see.
 */
export interface Step {
  /**
   * the match's ply after this action
   */
  ply: number;
  seat: number;
  action: Action;
  events: Event[];
}
export interface Hint {
  action: string;
  win: number;
  spread: number;
  margin: number;
  playouts: number;
}
/**
 * docs/records.md. keltis also reads version-1 records (setup {"seed": N} without "dealt").
 */
export interface GameRecord {
  format: "keltis-record";
  version: 2;
  game: "board" | "cards";
  created?: string;
  /**
   * @minItems 2
   * @maxItems 4
   */
  players: {
    name: string;
    kind: string;
  }[];
  variant: Variant;
  layout?: {
    [k: string]: unknown;
  };
  setup:
    | {
        seed: number;
        dealt: {
          [k: string]: unknown;
        };
      }
    | {
        explicit: {
          [k: string]: unknown;
        };
      };
  meta?: {
    [k: string]: unknown;
  };
  result?: Outcome;
  actions: string[];
}
/**
 * keltis.review.Review.to_json(): `keltis review --json`, the server's GET /api/matches/{id}/review. Win chances are shares of 0…1 (a shared victory counts in part); docs/bots.md defines the marks, the accuracy and the luck.
 */
export interface Review {
  format: "keltis-review";
  version: 1;
  game: "board" | "cards";
  /**
   * @minItems 2
   * @maxItems 4
   */
  players: string[];
  /**
   * the seats reviewed
   *
   * @minItems 1
   * @maxItems 4
   */
  seats: ReviewSeat[];
  budget: {
    iterations: number;
    width: number;
    luck_playouts: number;
    seed: number;
  };
  /**
   * the least loss of win chance of each mark
   */
  thresholds: {
    inaccuracy: ReviewChance;
    mistake: ReviewChance;
    blunder: ReviewChance;
  };
  /**
   * how many actions the record holds
   */
  actions: number;
  /**
   * @minItems 2
   * @maxItems 4
   */
  scores: number[];
  /**
   * @minItems 1
   * @maxItems 4
   */
  winners: ReviewSeat[];
  summaries: ReviewSummary[];
  decisions: ReviewDecision[];
  luck: ReviewLuck[];
  cpu_seconds: number;
}
export interface ReviewSummary {
  seat: ReviewSeat;
  decisions: number;
  /**
   * moves with one legal choice (not judged)
   */
  forced: number;
  accuracy: number;
  marks: {
    best: number;
    good: number;
    inaccuracy: number;
    mistake: number;
    blunder: number;
  };
  /**
   * the sum of the losses beyond the search's error
   */
  loss: number;
  /**
   * the sum of every deal's and draw's swing of this seat's all-seeing win chance
   */
  luck: number;
  /**
   * the 95% error of luck
   */
  luck_error: number;
}
/**
 * a decision of a reviewed seat: the position after `index` actions
 */
export interface ReviewDecision {
  index: number;
  turn: number;
  seat: ReviewSeat;
  played: ReviewCandidate;
  best: ReviewCandidate;
  /**
   * best.win - played.win
   */
  loss: number;
  /**
   * the search's own 95% error of loss
   */
  error: number;
  mark: ReviewMark;
  accuracy: number;
  /**
   * every move searched, the best first
   *
   * @minItems 1
   */
  candidates: ReviewCandidate[];
}
/**
 * a move the search tried from the seat's own view
 */
export interface ReviewCandidate {
  /**
   * the move in notation (docs/notation.md)
   */
  action: string;
  /**
   * the chance to win after this move, calibrated (docs/bots.md)
   */
  win: ReviewChance;
  /**
   * the share of the search's playouts won, before the calibration map
   */
  raw: ReviewChance;
  /**
   * expected final score minus the best other player's
   */
  margin: number;
  /**
   * half the width of the 95% interval of win
   */
  spread: number;
  playouts: number;
}
/**
 * how the deal or a draw from the draw pile moved each seat's all-seeing win chance
 */
export interface ReviewLuck {
  kind: "deal" | "draw";
  index: number;
  turn: number;
  /**
   * who drew (null for the deal)
   */
  seat: ReviewSeat | null;
  before: ReviewChances;
  after: ReviewChances;
  /**
   * @minItems 2
   * @maxItems 4
   */
  swing: number[];
  /**
   * each seat's 95% error of its swing
   *
   * @minItems 2
   * @maxItems 4
   */
  error: number[];
  playouts: number;
}
