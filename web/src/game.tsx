// A match, live: the lobby while players join, then the game (board or table), the hand and
// the moves open now with what each would do, the log, hints, undo, and the final scores.
import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ApiError, api, held, hold } from "./api";
import type { CreateRequest, Held } from "./api";
import { Board, ScoreTrack, boardTargets } from "./board";
import type { StoneTarget } from "./board";
import { BankText, ClockText, decisionClock, holdClock, onTimeoutWords, timeWords, useClockOut } from "./clock";
import { ChatPanel, useChat } from "./chat";
import { clockBank, matchRated, matchTime, refreshMatches, seatBank, seatIsAccount, useSession } from "./community";
import type { ChatMessage } from "./community";
import type { HeldClock } from "./clock";
import { useAnnounce, useRetract, useT } from "./context";
import type { Translator } from "./i18n";
import { instruction, moveWords } from "./labels";
import { Live } from "./live";
import { batchSince, marksOf, turnsOf } from "./marks";
import { shownName } from "./names";
import type { Marked } from "./marks";
import type { LiveState } from "./live";
import { CardFace, sortHand } from "./pieces";
import { FinalScores, Piles, Players, SeatBadge, WishRow } from "./table";
import { RuleLink, RulesButton } from "./rules";
import type { Hint, Legal, MatchInfo, ServerMessage, Step, View } from "./types";
import { TutorialPanel, useTutor } from "./tutorial";
import { ReportButton } from "./moderation";
import { RatingChangesView } from "./ratings";

/** What a card of the hand can do at a decision that plays one: be laid in a row of the
 * player's, only be discarded (alone or, in the card game, in a claim), nothing now. */
type Fit = "lay" | "discard" | "none";
const FITS: Fit[] = ["lay", "discard", "none"];
const FIT_MARK: Record<Fit, string> = { lay: "✓", discard: "↓", none: "✕" };
const FIT_WORDS: Record<Fit, string> = { lay: "web.hand.can_lay", discard: "web.hand.discard_only", none: "web.hand.not_now" };

interface Snap {
  match: MatchInfo;
  seat: number | null;
  view: View;
  log: Step[];
}

/** Each seat's name as shown (names.ts: a deleted account's in the page's language). */
export function seatNames(t: Translator, match: MatchInfo): string[] {
  return match.seats.map((s) => (s.name ? shownName(t, s.name) : t.t("name.player", { n: s.seat + 1 })));
}

export function stepText(t: Translator, names: string[], step: Step): string {
  return t.t("web.log.line", { name: names[step.seat] ?? "?", what: t.events(step.events) });
}

/** A match of this browser's, or of the account's on any device: where this browser holds no
 * seat of it, the account's matches are asked first (their tokens are kept as a created
 * match's), then the game opens — as a seat if one was found, else to watch. */
export function MatchRoute({ id, children }: { id: string; children: ComponentChildren }) {
  const t = useT();
  const { account, known } = useSession();
  const [ready, setReady] = useState(() => held(id) !== null);
  useEffect(() => {
    if (ready || !known) return;
    if (!account) {
      setReady(true);
      return;
    }
    refreshMatches().finally(() => setReady(true));
  }, [ready, known, account?.name]);
  if (!ready) {
    return (
      <main id="main" class="game loading">
        <p role="status">{t.t("web.loading")}</p>
      </main>
    );
  }
  return <>{children}</>;
}

interface Props {
  id: string;
  watch?: boolean;
  lang: string;
  go: (hash: string) => void;
  playAgain: (request: CreateRequest) => void;
}

export function Game({ id, watch, lang, go, playAgain }: Props) {
  const t = useT();
  // What this match said last in the live region is taken back when the page is left, so
  // that the next match's page does not begin with this one's last event.
  const announceAll = useAnnounce();
  const retract = useRetract();
  const said = useRef("");
  const announce = (text: string) => {
    said.current = text;
    announceAll(text);
  };
  useEffect(() => () => retract(said.current), []);
  const mine: Held | null = useMemo(() => held(id), [id]);
  // A guided first game: its tutor vetoes off-script moves and points at the piece to play.
  const tutor = useTutor(mine?.tutorial);
  const [snap, setSnap] = useState<Snap | null>(null);
  const [conn, setConn] = useState<LiveState>("connecting");
  const [wasLost, setWasLost] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The rule that refused the last move (its section on the rules page) and its reason, the
  // wire's `rule` and `reason`: while `error` is that reason, the rule is linked beside it.
  const [errorRule, setErrorRule] = useState<{ rule: string; reason: string } | null>(null);
  const [hints, setHints] = useState<Hint[] | null>(null);
  const [thinking, setThinking] = useState(false);
  // The card chosen in the hand: its place in the sorted hand (two equal cards are two cards).
  const [chosen, setChosen] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [fatal, setFatal] = useState(false);
  const [typed, setTyped] = useState("");
  const [clock, setClock] = useState<HeldClock | null>(null);
  // The steps the last snapshot took away (a move taken back), said until the next step.
  const [undone, setUndone] = useState<Step[] | null>(null);
  // "Show again": the turn of the batch played back now (null: none).
  const [playing, setPlaying] = useState<number | null>(null);
  const live = useRef<Live | null>(null);
  const tRef = useRef(t);
  tRef.current = t;
  const snapRef = useRef<Snap | null>(null);
  snapRef.current = snap;
  // Chat: the players' channel for a seat, the spectators' for a logged-in spectator.
  const chatState = useChat(id, watch ? null : mine?.token ?? null, live);
  const chatRef = useRef(chatState);
  chatRef.current = chatState;

  useEffect(() => {
    // The state a message builds on is the one the last message left, not the last render's:
    // two messages handled before a render would otherwise lose the first one's step.
    const put = (next: Snap) => {
      snapRef.current = next;
      setSnap(next);
    };
    const onMessage = (message: ServerMessage) => {
      const tr = tRef.current;
      // (chat is a message of the live protocol the wire types may not name yet)
      if ((message as { type: string }).type === "chat") {
        chatRef.current.add([message as unknown as ChatMessage]);
        return;
      }
      switch (message.type) {
        case "snapshot": {
          // A snapshot behind the one shown: moves were taken back; say which.
          const before = snapRef.current;
          const lastPly = message.log.length ? message.log[message.log.length - 1].ply : 0;
          const gone = before && message.view.ply < before.view.ply ? before.log.filter((s) => s.ply > lastPly) : [];
          if (gone.length) {
            const names = seatNames(tr, message.match);
            setUndone(gone);
            announce(`${tr.t("web.undone", { count: gone.length })} ${gone.map((s) => stepText(tr, names, s)).join("; ")}`);
          } else setUndone(null);
          put({ match: message.match, seat: message.seat, view: message.view, log: message.log });
          setClock(holdClock(message.match.clock));
          chatRef.current.reload();
          setBusy(false);
          setChosen(null);
          setHints(null);
          break;
        }
        case "step": {
          const current = snapRef.current;
          if (!current) break;
          const names = seatNames(tr, current.match);
          announce(stepText(tr, names, message.step));
          put({ ...current, view: message.view, log: [...current.log, message.step].slice(-300) });
          setClock(holdClock(message.clock));
          setChosen(null);
          setHints(null);
          setUndone(null);
          setError(null);
          if (message.step.seat === current.seat) setBusy(false);
          break;
        }
        case "match": {
          const current = snapRef.current;
          if (!current) break;
          const started = current.match.status === "open" && message.match.status !== "open";
          put({ ...current, match: message.match });
          setClock(holdClock(message.match.clock));
          if (started) live.current?.send({ type: "sync" });
          break;
        }
        case "ack":
          if (chatRef.current.acked(message.ref)) break;
          setBusy(false);
          break;
        case "hints":
          setThinking(false);
          setHints(message.hints);
          break;
        case "error":
          if (chatRef.current.refused((message as { ref?: unknown }).ref, message.message)) break;
          setBusy(false);
          setThinking(false);
          setError(message.rule && message.reason ? message.reason : message.message);
          setErrorRule(message.rule && message.reason ? { rule: message.rule, reason: message.reason } : null);
          announce(message.message);
          // An account's seat whose token changed (its password changed, it logged out
          // everywhere): the account's matches give the new token, and the page opens again.
          if (message.code === "server.bad_token" && mine?.account && !watch) {
            const used = mine.token;
            live.current?.close();
            refreshMatches().then(() => {
              const now = held(id);
              if (now?.token && now.token !== used) window.location.reload();
              else setFatal(true);
            });
            break;
          }
          // No such match, or a seat's token it does not know: connecting again cannot help.
          if (message.code === "server.no_match" || message.code === "server.bad_token") {
            setFatal(true);
            live.current?.close();
          }
          if (message.code === "refuse.stale_action") live.current?.send({ type: "sync" });
          break;
        default:
          break;
      }
    };
    const connection = new Live(id, watch ? null : mine?.token ?? null, lang, {
      message: onMessage,
      state: (state) => {
        setConn(state);
        if (state === "lost") setWasLost(true);
      },
    });
    live.current = connection;
    return () => connection.close();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, watch]);

  const firstLang = useRef(lang);
  useEffect(() => {
    if (lang !== firstLang.current) live.current?.relang(lang);
    firstLang.current = lang;
  }, [lang]);

  useEffect(() => {
    if (conn === "open" && wasLost) {
      announce(t.t("web.connection.back"));
      const timer = window.setTimeout(() => setWasLost(false), 4000);
      return () => window.clearTimeout(timer);
    }
    return undefined;
  }, [conn, wasLost]);

  const view = snap?.view ?? null;
  const me = snap?.seat ?? null;
  const names = snap ? seatNames(t, snap.match) : [];
  // The turn clock of the seat to move (live matches only; a replay has none).
  const clockOut = useClockOut(clock);
  const ticking = clock && view && !view.over && clock.clock.seat === view.current_player ? clock : null;
  // A time control: the clock's time left includes the bank of the seat to move; the bank pays
  // once the decision's own time is spent, and when both are, the server lets a bot play on.
  const timeControl = snap ? matchTime(snap.match) : null;
  const bank = ticking && snap ? clockBank(ticking.clock) ?? (timeControl ? seatBank(snap.match, ticking.clock.seat) : null) : null;
  const decision = useMemo(() => (ticking && bank ? decisionClock(ticking, bank) : null), [ticking, bank]);
  const decisionOut = useClockOut(decision);
  // Running out is said once (the countdown itself is not read out every second).
  const clockWasOut = useRef(true);
  useEffect(() => {
    if (clockOut && !clockWasOut.current && ticking) {
      announce(`${names[ticking.clock.seat] ?? ""}: ${t.t("web.clock.out")}`);
    }
    clockWasOut.current = clockOut;
  }, [clockOut, clock]);
  const myTurn = !!view && me !== null && view.current_player === me && !view.over && view.legal.length > 0;
  // What the others did since this player's last decision (a spectator: since the player to
  // move ended their previous turn), from the steps' events alone.
  const batch = useMemo(
    () => (snap && view ? batchSince(snap.log, me, view.current_player) : []),
    [snap?.log, me, view?.current_player],
  );
  const turns = useMemo(() => turnsOf(batch), [batch]);
  const marks = useMemo(() => marksOf(batch), [batch]);
  const marked: Marked = { marks, focus: playing };
  const batchKey = batch.map((s) => s.ply).join(",");
  // Playing back: each turn in order, then all marks alike again; a new batch stops it.
  useEffect(() => setPlaying(null), [batchKey]);
  useEffect(() => {
    if (playing === null) return undefined;
    const timer = window.setTimeout(() => setPlaying(playing + 1 < turns.length ? playing + 1 : null), 1100);
    return () => window.clearTimeout(timer);
  }, [playing, turns.length]);
  const legal = myTurn && !busy && view ? view.legal : [];
  // A refusal by a rule is said in words (without the rule's id) and links to its section.
  const refusedBy = errorRule && error === errorRule.reason ? errorRule.rule : null;
  const label = (l: Legal) => t.label(l.label);

  const send = (action: string) => {
    if (!view || busy) return;
    if (tutor?.veto(action, view)) return;
    setError(null);
    setBusy(true);
    if (live.current?.send({ type: "act", version: view.ply, action }) === null) setBusy(false);
  };
  const act = (l: Legal) => send(l.notation);
  const submitTyped = (event: Event) => {
    event.preventDefault();
    // Sent as typed (the language's words for the notation's read as those): the server
    // checks it and answers with the rule's reason if it is no move.
    if (typed.trim()) send(t.typedMove(typed));
    setTyped("");
  };
  const askHint = () => {
    if (!view) return;
    setThinking(true);
    setHints(null);
    live.current?.send({ type: "hint", version: view.ply });
  };
  const undo = () => {
    if (!view) return;
    setError(null);
    setUndone(null);
    live.current?.send({ type: "undo", version: view.ply });
  };

  // The moves open now, by where they are chosen: a card of the hand, a stone, a pile, a prompt
  // (a claim with two equal cards is one move of that card, not two).
  const hand = view?.hand ? sortHand(view.hand) : null;
  const selected = chosen !== null ? hand?.[chosen] ?? null : null;
  const byCard = new Map<string, Legal[]>();
  const other: Legal[] = [];
  for (const l of legal) {
    const cards = new Set(l.cards);
    if (cards.size) for (const c of cards) byCard.set(c, [...(byCard.get(c) ?? []), l]);
    else other.push(l);
  }
  const options: Legal[] = selected ? byCard.get(selected) ?? [] : other;
  // A decision that plays a card from the hand: each card says what it can do now (laid in a
  // row of the player's, only discarded, nothing), by a mark of its own shape, not only by
  // being greyed out.
  const cardDecision = byCard.size > 0;
  const fitOf = (card: string): Fit => {
    const moves = byCard.get(card) ?? [];
    return moves.some((l) => l.kind === "lay") ? "lay" : moves.length ? "discard" : "none";
  };
  const drawTargets = new Map<string, { legal: Legal; label: string }>();
  for (const l of legal) {
    if (l.kind !== "draw") continue;
    drawTargets.set(l.pile ?? "deck", { legal: l, label: label(l) });
  }
  // The best hint's cards, marked in the hand (one mark per card the move plays).
  const hinted = new Set<number>();
  const bestHint = hints?.[0] ? legal.find((l) => l.notation === hints[0].action) : undefined;
  if (bestHint && hand) {
    for (const c of bestHint.cards) {
      const at = hand.findIndex((h, i) => h === c && !hinted.has(i));
      if (at >= 0) hinted.add(at);
    }
  }
  const stoneTargets: Map<string, StoneTarget> =
    view?.game === "board" ? boardTargets(selected ? options : other, label) : new Map();

  // When the game ends (or a finished one opens), the final scores come into view wherever
  // the player was on the page, and the keyboard's focus goes to their heading.
  const over = !!view?.over;
  useEffect(() => {
    if (!over) return;
    const heading = document.getElementById("final-title");
    if (!heading) return;
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    heading.closest(".final-wrap")?.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
    heading.focus({ preventScroll: true });
  }, [over]);

  // The turn badge follows this match's turn at once (not at its next look).
  const { account } = useSession();
  useEffect(() => {
    if (account && me !== null) void refreshMatches();
  }, [myTurn, account?.name]);

  // A tab in the background says when it is the player's turn.
  useEffect(() => {
    if (!view) return;
    document.title = myTurn ? `▶ ${t.t("web.your_turn")} – Keltis` : t.t(`title.${view.game}`);
  }, [myTurn, view?.game, t]);

  const optionsRef = useRef<Legal[]>([]);
  optionsRef.current = options;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const n = Number(event.key);
      if (n >= 1 && n <= 9 && optionsRef.current[n - 1]) {
        event.preventDefault();
        act(optionsRef.current[n - 1]);
      } else if (event.key === "Escape") setChosen(null);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  // A rematch someone said no to is cancelled: back to the finished match, which says who.
  const cancelledFor = snap?.match.status === "cancelled" ? (snap.match.previous ?? null) : null;
  useEffect(() => {
    if (cancelledFor) go(`#/match/${cancelledFor}`);
  }, [cancelledFor]);

  // After a finished match: whether this seat took its seat in the next match already
  // (then it waits for the others and may cancel; else it may join or say no thanks).
  const nextId = snap?.match.status === "finished" ? (snap.match.next ?? null) : null;
  const [nextJoined, setNextJoined] = useState(false);
  useEffect(() => {
    setNextJoined(false);
    if (!nextId || me === null) return undefined;
    let current = true;
    api.describe(nextId).then(
      (next) => {
        if (current) setNextJoined(!!next.seats[me]?.joined);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [nextId, me]);

  if (fatal || !snap || !view) {
    return (
      <main id="main" class="game loading">
        {!fatal && <p role="status">{conn === "lost" ? t.t("web.connection.lost") : t.t("web.loading")}</p>}
        {error && <p class="error" role="alert">{error}</p>}
        {fatal && <a class="button" href="#/">{t.t("web.home")}</a>}
      </main>
    );
  }

  const match = snap.match;
  const mySeat = me !== null ? match.seats[me] : null;
  const persons = match.seats.filter((s) => s.kind === "person").length;
  const last = snap.log[snap.log.length - 1] ?? null;
  const status = view.over
    ? t.t("screen.over")
    : myTurn
      ? t.t("web.your_turn")
      : t.t("web.waiting_for", { name: names[view.current_player] ?? "" });
  // Play again among people: the next match is one for all of them, each taking their
  // own seat with their token of this one (the server tells everyone when it exists).
  const playOn = async () => {
    if (!mine?.token) return;
    setBusy(true);
    try {
      const answer = await api.again(match.id, mine.token);
      hold(answer.id, { seat: answer.seat, token: answer.token });
      go(`#/match/${answer.id}`);
    } catch (e) {
      if (e instanceof ApiError && e.code === "server.again_taken" && match.next) {
        go(`#/match/${match.next}`);
      } else {
        setError((e as Error).message || t.t("web.offline"));
      }
    } finally {
      setBusy(false);
    }
  };
  const again = (): CreateRequest => ({
    game: match.game,
    seats: match.seats.map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level ?? "medium" } : { kind: "person" })),
    variant: match.variant,
    hints: match.options.hints,
    undo: match.options.undo,
    name: mySeat?.name ?? undefined,
    seat: me,
  });

  // Saying no to playing again: this seat's token of the finished match does it.
  const sayNo = async (finished: string, token: string | null | undefined) => {
    if (!token) return;
    setBusy(true);
    try {
      await api.noAgain(finished, token);
      if (finished !== match.id) go(`#/match/${finished}`);
    } catch (e) {
      setError((e as Error).message || t.t("web.offline"));
    } finally {
      setBusy(false);
    }
  };
  if (match.status === "cancelled") {
    return (
      <main id="main" class="lobby">
        <p role="status">{t.t("web.again.cancelled")}</p>
        {match.previous && <a class="button" href={`#/match/${match.previous}`}>{t.t("web.again.back")}</a>}
      </main>
    );
  }
  if (match.status === "open") {
    const before = match.previous ? held(match.previous) : null;
    const cancel = match.previous && before?.token && me !== null
      ? () => void sayNo(match.previous as string, before.token)
      : null;
    return <Lobby match={match} names={names} mine={mine} me={me} cancel={cancel} error={error} />;
  }
  const chatPanel = <ChatPanel state={chatState} seat={me} match={match} />;

  // The clock's words: the decision's time, then (a time control) the bank it draws on.
  const clockText = ticking ? (
    decision && bank ? (
      <>
        {!decisionOut && <><ClockText held={decision} out={false} /> · </>}
        {clockOut ? t.t("web.clock.out") : <BankText held={ticking} bank={bank} />}
      </>
    ) : (
      <ClockText held={ticking} out={clockOut} />
    )
  ) : null;
  // A person's seat may go to a bot when its player is away, or is out of time for the move due
  // (the turn clock) — never with a time control: there the clock alone decides.
  const players = (
    <Players t={t} view={view} names={names} seats={match.seats} me={me} last={last}
      clock={ticking ? { seat: ticking.clock.seat, out: clockOut, text: clockText } : null}
      canStandIn={(seat) => me !== null && seat !== me && !view.over && match.seats[seat]?.kind === "person" &&
        !match.seats[seat]?.stand_in &&
        !timeControl &&
        ((!!match.seats[seat]?.away && !match.seats[seat]?.connected) || (clockOut && ticking?.clock.seat === seat))}
      standIn={(seat) => live.current?.send({ type: "stand_in", seat })} marked={marked} />
  );
  // On the board itself: the choice that follows a lay (big or small figure; a clover's or an
  // overflow's move, whose stones are marked, or passing).
  const prompt = view.game === "board" && myTurn && !busy && ["figure", "clover", "overflow"].includes(view.phase);
  // The others' turns in a line: beside the prompt, or in a lesson's box.
  const sinceLine = turns.length > 0 && !view.over ? (
    <SinceLine t={t} names={names} turns={turns}
      lead={me !== null ? t.t("web.since.title") : t.t("web.since.watch", { name: names[view.current_player] ?? "" })} />
  ) : null;

  return (
    <main id="main" class={`game game-${view.game}`} data-ply={view.ply} data-turn={myTurn ? "mine" : "other"}
      data-marks={marks.map((m) => m.text).join(" | ")}>
      <div class="game-head">
        <h1>{t.t(`title.${view.game}`)}</h1>
        <RulesButton game={view.game} />
        <p class="turn-status" data-testid="status">
          {!view.over && <SeatBadge seat={view.current_player} />} {status}
          <span class="muted"> · {t.t("screen.turn", { turn: view.turn + 1 })}</span>
          {ticking && (
            <span class={`clock${clockOut ? " out" : ""}`} role="timer" aria-live="off" data-testid="clock"
              data-seat={ticking.clock.seat}>
              {clockText}
            </span>
          )}
        </p>
        <TimeLine match={match} />
        {me === null && <p class="muted">{t.t("web.spectating")}</p>}
      </div>
      {conn !== "open" && wasLost && (
        <p class="banner warn" role="status">{t.t("web.connection.lost")}</p>
      )}
      {conn === "open" && wasLost && <p class="banner ok" role="status">{t.t("web.connection.back")}</p>}
      {mySeat?.stand_in && (
        <p class="banner warn">
          {t.t("web.reclaim")}{" "}
          <button type="button" onClick={() => live.current?.send({ type: "reclaim" })}>{t.t("web.reclaim.button")}</button>
        </p>
      )}
      {tutor && (
        <TutorialPanel tutor={tutor} view={view} myTurn={myTurn} names={names} selected={selected} matchId={id} go={go}
          since={sinceLine} />
      )}
      <div class="layout">
        <div class="table-area">
          {view.game === "board" ? (
            <div class="board-wrap">
              {prompt && (
                <div class="board-prompt" role="group" aria-label={instruction(t, view, names[view.current_player] ?? "")}>
                  <p>
                    {instruction(t, view, names[view.current_player] ?? "")}
                    {view.phase === "figure" && <>{" "}<RuleLink game="board" rule="B-11" term={t.t("web.term.big_figure")} /></>}
                  </p>
                  <p class="board-prompt-buttons">
                    {other.filter((l) => l.kind !== "advance").map((l) => (
                      <button type="button" key={l.notation} data-prompt={l.notation} onClick={() => act(l)}>{label(l)}</button>
                    ))}
                  </p>
                </div>
              )}
              <Board t={t} view={view} names={names} last={last} targets={stoneTargets} act={act} marked={marked} />
              <ScoreTrack t={t} scores={view.players.map((p) => p.score)} names={names} />
            </div>
          ) : (
            <WishRow t={t} view={view} names={names} marked={marked} />
          )}
          <Piles t={t} view={view} drawTargets={drawTargets} act={act} marked={marked} names={names} />
          {view.game === "cards" && players}
        </div>
        <div class="side">
          {view.over && view.outcome ? (
            <div class="final-wrap">
              <FinalScores t={t} outcome={view.outcome} names={names} />
              {matchRated(match) && <RatingChangesView match={match.id} />}
              {me !== null && persons > 1 && <RematchLine match={match} me={me} names={names} joined={nextJoined}
                cancel={() => void sayNo(match.id, mine?.token)} busy={busy} />}
              <p class="final-buttons">
                {me !== null && persons === 1 && (
                  <button type="button" class="primary" onClick={() => playAgain(again())}>{t.t("web.play_again")}</button>
                )}
                {me !== null && persons > 1 && !nextJoined && (
                  <button type="button" class="primary" data-testid="play-on" disabled={busy} onClick={() => void playOn()}>
                    {t.t(match.next ? "web.again.join" : "web.play_again")}
                  </button>
                )}
                {me !== null && persons > 1 && match.next && !nextJoined && (
                  <button type="button" data-testid="no-thanks" disabled={busy} onClick={() => void sayNo(match.id, mine?.token)}>
                    {t.t("web.again.no")}
                  </button>
                )}
                <button type="button" onClick={() => go(`#/replay/${match.id}`)}>{t.t("web.replay")}</button>
                <button type="button" data-testid="open-review" onClick={() => go(`#/review/${match.id}`)}>{t.t("web.review.open")}</button>
                <ReportButton className="" testid="report-match" match={match.id}
                  names={match.seats.filter((s, seat) => seat !== me && s.kind === "person" && seatIsAccount(match, seat)).map((s) => s.name)} />
                <a class="button" href={`#/rules/${view.game}`} data-testid="final-rules">{t.t("web.how_to_play")}</a>
                <button type="button" onClick={() => go("#/")}>{t.t("web.home")}</button>
              </p>
            </div>
          ) : (
            <section class="moves" aria-labelledby="moves-title">
              <h2 id="moves-title">{myTurn ? t.t("web.choose") : status}</h2>
              {!tutor && sinceLine}
              <p class="instruction" data-testid="instruction">
                {myTurn
                  ? instruction(t, view, names[view.current_player] ?? "")
                  : t.t(me === null ? "web.wait.spectator" : "web.wait.player", { name: names[view.current_player] ?? "" })}
              </p>
              {undone && (
                <div class="banner ok undone" data-testid="undone">
                  <p>{t.t("web.undone", { count: undone.length })}</p>
                  <ol>
                    {undone.map((step) => (
                      <li key={step.ply}><SeatBadge seat={step.seat} /> {stepText(t, names, step)}</li>
                    ))}
                  </ol>
                </div>
              )}
              {error && (
                <p class="error" role="alert" data-testid="error">
                  {error}
                  {refusedBy && <>{" "}<RuleLink game={view.game} rule={refusedBy} /></>}
                </p>
              )}
              {hand && (
                <div class="hand" role="group" aria-label={t.t("web.hand")}>
                  <h3>{t.t("web.hand")}</h3>
                  <ul>
                    {hand.map((card, i) => {
                      const playable = byCard.has(card);
                      const isSel = chosen === i;
                      const fit = cardDecision ? fitOf(card) : null;
                      const said = [fit && t.t(FIT_WORDS[fit]), hinted.has(i) && t.t("web.hint")].filter(Boolean);
                      return (
                        <li key={`${card}-${i}`}>
                          <button type="button" class={`card-button${playable ? " playable" : ""}${isSel ? " selected" : ""}${hinted.has(i) ? " hinted" : ""}`}
                            disabled={!playable} aria-pressed={playable ? isSel : undefined}
                            aria-label={said.length ? `${t.card(card)} (${said.join(", ")})` : t.card(card)} data-card={card}
                            data-fit={fit ?? undefined} onClick={() => setChosen(isSel ? null : i)}>
                            <CardFace card={card} />
                            {fit && <span class={`fit-mark fit-${fit}`} aria-hidden="true">{FIT_MARK[fit]}</span>}
                          </button>
                        </li>
                      );
                    })}
                  </ul>
                  {myTurn && byCard.size > 0 && !selected && <p class="muted">{t.t("web.choose.card")}</p>}
                  {cardDecision && (
                    <p class="muted fit-legend" data-testid="fit-legend">
                      {FITS.filter((f) => hand.some((c) => fitOf(c) === f)).map((f, n) => (
                        <span key={f}>
                          {n > 0 && " · "}
                          <span class={`fit-mark fit-${f}`} aria-hidden="true">{FIT_MARK[f]}</span> {t.t(FIT_WORDS[f])}
                        </span>
                      ))}
                    </p>
                  )}
                </div>
              )}
              {options.length > 0 && (
                <ol class="options" aria-label={t.t("web.choose")}>
                  {options.map((l, i) => (
                    <li key={l.notation}>
                      <button type="button" class="option" data-action={l.notation} onClick={() => act(l)}>
                        <kbd aria-hidden="true">{i + 1}</kbd> <code>{t.moveInWords(l.notation)}</code> {label(l)}
                        {l.preview.score !== 0 && <span class="delta"> ({t.number(l.preview.score, { signDisplay: "exceptZero" })})</span>}
                      </button>
                    </li>
                  ))}
                </ol>
              )}
              {selected && (
                <button type="button" class="small-button" onClick={() => setChosen(null)}>{t.t("web.cancel")}</button>
              )}
              {myTurn && (
                <form class="type-move" onSubmit={submitTyped}>
                  <label>
                    {t.t("web.type_move")}
                    <input type="text" value={typed} autoComplete="off" spellcheck={false} data-testid="type-move"
                      onInput={(e) => setTyped((e.target as HTMLInputElement).value)} />
                  </label>
                  <button type="submit" disabled={busy}>{t.t("web.type_move.button")}</button>
                  <p class="muted type-help">{t.t(`web.type_move.help.${view.game}`)}</p>
                </form>
              )}
              <p class="tools">
                {myTurn && match.options.hints && (
                  <button type="button" onClick={askHint} disabled={thinking}>{thinking ? t.t("web.hint.thinking") : t.t("web.hint")}</button>
                )}
                {me !== null && match.options.undo && persons === 1 && view.ply > 0 && (
                  <button type="button" onClick={undo}>{t.t("web.undo")}</button>
                )}
              </p>
              {hints && (
                <ul class="hints" aria-label={t.t("web.hint")} data-testid="hints">
                  {hints.slice(0, 3).map((h) => {
                    const move = legal.find((l) => l.notation === h.action);
                    return (
                      <li key={h.action} data-action={h.action}>
                        {t.t("web.hint.line", {
                          move: move ? moveWords(t, move) : h.action,
                          win: t.number(h.win, { style: "percent", maximumFractionDigits: 0 }),
                          margin: t.number(h.margin, { signDisplay: "exceptZero", minimumFractionDigits: 1, maximumFractionDigits: 1 }),
                        })}
                        {move && (
                          <button type="button" class="small-button" data-hint-play={h.action} onClick={() => act(move)}>
                            {t.t("web.hint.play")}
                          </button>
                        )}
                      </li>
                    );
                  })}
                </ul>
              )}
            </section>
          )}
          {view.game === "board" && players}
          {chatPanel}
          {turns.length > 0 && (
            <SinceLast t={t} names={names} turns={turns} title={me !== null ? t.t("web.since.title") : t.t("web.since.watch", { name: names[view.current_player] ?? "" })}
              playing={playing} play={() => setPlaying(0)} />
          )}
          <section class="log" aria-labelledby="log-title">
            <h2 id="log-title">{t.t("web.log")}</h2>
            <ol reversed tabIndex={0} aria-labelledby="log-title">
              {snap.log.slice(-30).reverse().map((step) => (
                <li key={step.ply} class={step.ply === last?.ply ? "last" : ""}>
                  <span class="ply">{step.ply}.</span> <SeatBadge seat={step.seat} /> {stepText(t, names, step)}
                </li>
              ))}
              {snap.log.length === 0 && <li>{t.t("screen.no_moves")}</li>}
            </ol>
          </section>
        </div>
      </div>
    </main>
  );
}

/** What a turn did, in short: its first event (the card played: laid, discarded, a claim) and
 * the cards it took from the discard piles — what changed the table; the rest (a figure
 * chosen, a card drawn unseen) is in the panel. */
function turnShort(t: Translator, turn: ReturnType<typeof turnsOf>[number]): string {
  const events = turn.steps.flatMap((s) => s.events);
  const short = events.filter((e, i) => i === 0 || e.type === "draw_pile");
  return short.map((e) => t.event(e)).join(", ");
}

/** The others' turns since this player's last decision in one line, beside the prompt (where
 * the eye is when a turn starts: on a phone the panel is far below), each after its player's
 * badge, and a button to the panel with the whole of each turn. */
function SinceLine({ t, names, turns, lead }: {
  t: Translator; names: string[]; turns: ReturnType<typeof turnsOf>; lead: string;
}) {
  const toPanel = () => {
    const heading = document.getElementById("since-title");
    if (!heading) return;
    const still = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    heading.closest("section")?.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
    heading.focus({ preventScroll: true });
  };
  return (
    <p class="since-line" data-testid="since-line">
      <strong>{lead}:</strong>{" "}
      {turns.map((turn, n) => (
        <span key={turn.steps[0].ply} class="since-turn" data-seat={turn.seat}>
          {n > 0 && <span aria-hidden="true"> · </span>}
          <SeatBadge seat={turn.seat} /> <span class="sr-only">{names[turn.seat] ?? "?"}: </span>{turnShort(t, turn)}
        </span>
      ))}{" "}
      <button type="button" class="link-button" data-testid="since-more" aria-controls="since-title" onClick={toPanel}>
        {t.t("web.since.more")}
      </button>
    </p>
  );
}

/** "Since your last move": each other player's turn in words (the log's sentences), and a
 * button that plays the turns back on the board one after the other. */
function SinceLast({ t, names, turns, title, playing, play }: {
  t: Translator; names: string[]; turns: ReturnType<typeof turnsOf>; title: string; playing: number | null; play: () => void;
}) {
  return (
    <section class="since" aria-labelledby="since-title" data-testid="since" data-playing={playing ?? undefined}>
      <h2 id="since-title" tabIndex={-1}>{title}</h2>
      <ol>
        {turns.map((turn, n) => (
          <li key={turn.steps[0].ply} class={playing === n ? "now" : undefined} data-seat={turn.seat}
            aria-current={playing === n ? "step" : undefined}>
            <SeatBadge seat={turn.seat} />{" "}
            {t.t("web.log.line", {
              name: names[turn.seat] ?? "?",
              what: turn.steps.map((s) => t.events(s.events)).join("; "),
            })}
          </li>
        ))}
      </ol>
      <button type="button" class="small-button" data-testid="show-again" onClick={play}>{t.t("web.since.again")}</button>
    </section>
  );
}

/** A rated match's mark and the time control, with what happens to a seat out of time, and
 * hints agreed between people (said before the match starts — on the join page, in its lobby —
 * and during it); a rated match aborted (a player never moved) says no rating changed. */
export function TimeLine({ match }: { match: MatchInfo }) {
  const t = useT();
  const time = matchTime(match);
  const rated = matchRated(match);
  const agreed = !!match.options.hints_agreed;
  if (!time && !rated && !agreed && !match.aborted) return null;
  const rule = onTimeoutWords(t, time, rated);
  return (
    <p class="time-line" data-testid="time-control">
      {rated && <span class="tag rated">{t.t("web.rated")}</span>}{" "}
      {time && <span>{timeWords(t, time)}</span>}
      {rule && <span class="muted">{rule}</span>}
      {agreed && <span data-testid="hints-agreed">{t.t("web.hints_agreed")}</span>}
      {match.aborted && <span class="muted" data-testid="aborted">{t.t("web.aborted")}</span>}
    </p>
  );
}

/** Where a match between people was played again, or asked to be: the player waiting in
 * the next match may cancel it; the last no said to it, by whom. */
function RematchLine({ match, me, names, joined, cancel, busy }: {
  match: MatchInfo;
  me: number;
  names: string[];
  joined: boolean;
  cancel: () => void;
  busy: boolean;
}) {
  const t = useT();
  if (match.next && joined) {
    const others = match.seats.filter((s) => s.kind === "person" && s.seat !== me).map((s) => names[s.seat]);
    return (
      <p class="rematch" role="status" data-testid="rematch">
        {t.t("web.again.waiting", { names: others.join(", ") })}{" "}
        <a class="button" href={`#/match/${match.next}`}>{t.t("web.again.open")}</a>{" "}
        <button type="button" data-testid="cancel-rematch" disabled={busy} onClick={cancel}>{t.t("web.again.cancel")}</button>
      </p>
    );
  }
  const said = match.rematch ?? [];
  const last = said[said.length - 1];
  if (match.next || !last) return null;
  const key = last.seat === me
    ? last.answer === "withdrew" ? "web.again.you_withdrew" : "web.again.you_declined"
    : last.answer === "withdrew" ? "web.again.withdrew" : "web.again.declined";
  return <p class="rematch" role="status" data-testid="rematch">{t.t(key, { name: names[last.seat] ?? "" })}</p>;
}

function Lobby({ match, names, mine, me, cancel, error: failed }: {
  match: MatchInfo;
  names: string[];
  mine: Held | null;
  me: number | null;
  cancel: (() => void) | null;
  error: string | null;
}) {
  const t = useT();
  const [copied, setCopied] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const free = match.seats.filter((s) => !s.joined).map((s) => s.seat + 1);
  // Links at this page's own address, the one the players reached the server at (not the
  // server's idea of its address, which the answer's links carry).
  const here = `${location.origin}${location.pathname}`;
  const inviteLink = (invite: string) => `${here}#/join/${match.id}/${invite}`;
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(text);
    } catch {
      setCopied(null);
    }
  };
  const start = async () => {
    if (!mine?.host) return;
    try {
      await api.start(match.id, mine.host);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <main id="main" class="lobby">
      <h1>{t.t(`title.${match.game}`)}</h1>
      <RulesButton game={match.game} />
      <ul class="lobby-seats">
        {match.seats.map((s) => (
          <li key={s.seat}>
            <SeatBadge seat={s.seat} /> {t.t("web.seat", { n: s.seat + 1 })}: {names[s.seat]}
            {s.seat === me && ` (${t.t("web.you")})`}
            {s.kind === "bot" ? ` — ${t.t(`web.level.${s.level ?? "medium"}`)}` : s.joined ? " ✓" : " …"}
          </li>
        ))}
      </ul>
      <TimeLine match={match} />
      {free.length > 0 && !(match.previous && me !== null && cancel) && (
        <p role="status">{t.t("web.waiting", { seats: free.join(", ") })}</p>
      )}
      {mine?.invites && mine.invites.length > 0 && (
        <section>
          <h2>{t.t("web.invites")}</h2>
          <ul class="invites">
            {mine.invites.map((inv) => {
              const link = inviteLink(inv.invite);
              return (
                <li key={inv.seat}>
                  <label>
                    {t.t("web.seat", { n: inv.seat + 1 })}
                    <input type="text" readOnly value={link} data-invite={inv.seat} onFocus={(e) => (e.target as HTMLInputElement).select()} />
                  </label>
                  <button type="button" onClick={() => copy(link)}>{copied === link ? t.t("web.copied") : t.t("web.copy")}</button>
                </li>
              );
            })}
          </ul>
          {mine.watch && (
            <p>
              <label>
                {t.t("web.watch_link")}
                <input type="text" readOnly value={`${here}#/watch/${match.id}`} data-testid="watch-link" />
              </label>
            </p>
          )}
        </section>
      )}
      {mine?.host ? (
        <button type="button" class="primary" disabled={free.length > 0} onClick={start}>{t.t("web.start")}</button>
      ) : (
        free.length === 0 && <p>{t.t("web.waiting_host")}</p>
      )}
      {match.previous && me !== null && cancel && (
        <p class="rematch" role="status" data-testid="rematch">
          {t.t("web.again.waiting", {
            names: match.seats.filter((s) => s.kind === "person" && !s.joined).map((s) => names[s.seat]).join(", "),
          })}{" "}
          <button type="button" data-testid="cancel-rematch" onClick={cancel}>{t.t("web.again.cancel")}</button>
        </p>
      )}
      {(error ?? failed) && <p class="error" role="alert">{error ?? failed}</p>}
    </main>
  );
}
