// "Learn to play": a guided first game of each game (docs/web.md). A real match against one
// easy bot that the server sets up from the tutorial's name; its script (GET
// /api/tutorials/{name}) says, per decision of the player, the move it asks for, the piece to
// point at and the message that explains it. The game screen asks the tutor before it sends a
// move (an off-script move is explained, not sent) and shows its panel; the tutor marks the
// piece with `data-tutor` (styled in style.css, found by the browser tests).
import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, held, heldIds, hold, letGo, playerName } from "./api";
import type { TutorialScript, TutorialStep } from "./api";
import { stoneKey } from "./board";
import { useT } from "./context";
import { moveWords } from "./labels";
import type { Colour, View } from "./types";

export const TUTORIALS = ["board", "cards"] as const;

/** The start page's panel: a guided first game of each game. */
export function LearnPanel() {
  const t = useT();
  return (
    <section class="panel learn" aria-labelledby="learn-title" data-testid="learn">
      <h2 id="learn-title">{t.t("tutorial.learn")}</h2>
      <p class="muted">{t.t("tutorial.learn.detail")}</p>
      <p class="learn-buttons">
        {TUTORIALS.map((name) => (
          <a key={name} class="button" href={`#/learn/${name}`} data-tutorial={name}>{t.t(`tutorial.learn.${name}`)}</a>
        ))}
      </p>
    </section>
  );
}

/** `#/learn/{name}`: create the lesson's match (a fresh one each time) and open it. */
export function LearnStart({ name, go }: { name: string; go: (hash: string) => void }) {
  const t = useT();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The player under the name they gave, else the language's "you" (an account's name
    // replaces it on the server): never the server's default "Player", which the final
    // scores would show.
    const who = playerName().trim() || t.t("name.you");
    api
      .create({
        game: name === "cards" ? "cards" : "board",
        seats: [{ kind: "person" }, { kind: "bot", level: "easy" }],
        tutorial: name,
        name: who,
        public: false,
        hints: false,
        undo: false,
      })
      .then((answer) => {
        // An earlier lesson of this game that was not finished is replaced by the new one.
        for (const id of heldIds()) if (held(id)?.tutorial === name) letGo(id);
        hold(answer.id, { seat: answer.seat, token: answer.token, tutorial: name });
        go(`#/match/${answer.id}`);
      })
      .catch((e: unknown) => setError(e instanceof ApiError && e.message ? e.message : t.t("web.offline")));
  }, [name]);
  return (
    <main id="main" class="learn-start">
      {error ? (
        <>
          <p class="error" role="alert" data-testid="learn-error">{error}</p>
          <a class="button" href="#/">{t.t("web.home")}</a>
        </>
      ) : (
        <p role="status">{t.t("tutorial.starting")}</p>
      )}
    </main>
  );
}

/** A move as the engine reads its notation (keltis.core.actions.parse_action): any case,
 * spaces around a card or a `>` or `-`, a claim's two cards in either order and apart by
 * spaces, commas or `+`, `stop` for `pass`; one string per move. */
function canonical(move: string): string {
  const text = move.trim().toUpperCase();
  if (text === "STOP" || text === "PASS") return "PASS";
  if (text.startsWith("WISH")) return `WISH ${text.slice(4).trim().split(/[\s,+]+/).filter(Boolean).sort().join(" ")}`;
  if (text.startsWith("DRAW")) return `DRAW ${text.slice(4).trim()}`.trim();
  return text.replace(/\s+/g, "");
}

function same(a: string, b: string): boolean {
  return canonical(a) === canonical(b);
}

export interface Tutor {
  name: string;
  /** The script, once it has come (`undefined` until then, `null` if it could not be had). */
  script: TutorialScript | null | undefined;
  /** The move held back last (its notation), said until the next move. */
  wrong: string | null;
  /** Whether the move is a legal one off the script (then it is not sent, and the panel says
   * why); a move the rules refuse is sent, for the engine's refusal as in a real game. */
  veto: (action: string, view: View) => boolean;
}

/** The tutor of a match that is a guided first game (`name`), or null for any other match. */
export function useTutor(name: string | null | undefined): Tutor | null {
  // undefined until the script has come (null if it could not be had)
  const [script, setScript] = useState<TutorialScript | null | undefined>(undefined);
  const [wrong, setWrong] = useState<string | null>(null);
  useEffect(() => {
    if (!name) return;
    setScript(undefined);
    api.tutorial(name).then(setScript, () => setScript(null));
  }, [name]);
  if (!name) return null;
  return {
    name,
    script,
    wrong,
    veto: (action, view) => {
      if (script === undefined) return true; // a moment before the script has come: wait
      const step = script?.steps.find((s) => s.ply === view.ply);
      // Not the lesson's to judge: no step here, the lesson's move, or no move in this position
      // (a card not held, a pile just discarded to): the server refuses the last with the
      // rule's words and its link, as in a real game, and never plays it.
      const legal = view.legal.some((l) => same(l.notation, action));
      if (!step || view.over || same(action, step.move) || !legal) {
        setWrong(null);
        return false;
      }
      setWrong(action);
      return true;
    },
  };
}

/** The CSS selectors of what a step points at now: the card to choose, then (chosen) the move's
 * option and the stone it goes to; a pile; a button under the board; a stone. */
function targets(step: TutorialStep, view: View, selected: string | null): string[] {
  const [kind, what] = step.point.split(":");
  const legal = view.legal.find((l) => same(l.notation, step.move));
  if (kind === "card") {
    if (legal && selected && legal.cards.includes(selected)) {
      const out = [`.option[data-action="${CSS.escape(legal.notation)}"]`];
      const f = legal.preview.figure;
      if (view.game === "board" && f && !f.overflow) out.push(`[data-stone="${stoneKey(f.path, Math.max(f.to, 1))}"]`);
      return out;
    }
    return [`.card-button[data-card="${CSS.escape(what)}"]`];
  }
  // (the same move is also listed among the moves beside the board: marked there too)
  const option = legal ? [`.option[data-action="${CSS.escape(legal.notation)}"]`] : [];
  if (kind === "pile") return [`[data-pile="${CSS.escape(what)}"] .pile-button`, ...option];
  if (kind === "prompt") return [`[data-prompt="${CSS.escape(what)}"]`, ...option];
  if (kind === "stone") return [`[data-stone="${stoneKey(what[0] as Colour, Number(what.slice(1)))}"]`, ...option];
  return [];
}

interface PanelProps {
  tutor: Tutor;
  view: View;
  myTurn: boolean;
  names: string[];
  /** The card chosen in the hand, if any. */
  selected: string | null;
  matchId: string;
  go: (hash: string) => void;
  /** The others' moves since the player's last one, in a line: in a lesson it stands in the
   * lesson's box, where the eye is (on a phone the game's own place for it is below the
   * board, out of the first screen with the box above). */
  since?: ComponentChildren;
}

/** The lesson beside the game: the step's words, the off-script explanation, the marks on the
 * piece to play, start again and leave. */
export function TutorialPanel({ tutor, view, myTurn, names, selected, matchId, go, since }: PanelProps) {
  const t = useT();
  const script = tutor.script;
  const steps = script?.steps ?? [];
  const index = myTurn ? steps.findIndex((s) => s.ply === view.ply) : -1;
  const step = index >= 0 ? steps[index] : null;
  const done = view.over;
  const lastPly = steps.length ? steps[steps.length - 1].ply : 0;
  const selectors = step ? targets(step, view, selected) : [];
  const key = selectors.join(",");
  // The lesson's words may be folded away to its heading line (the board and the hand seen
  // together on a phone); a move held back opens them again, since they say why.
  const [open, setOpen] = useState(true);
  useEffect(() => {
    if (tutor.wrong) setOpen(true);
  }, [tutor.wrong]);

  // Mark the pieces: again after every render and whenever the game's elements change.
  useLayoutEffect(() => {
    const mark = () => {
      document.querySelectorAll("[data-tutor]").forEach((el) => {
        if (!key || !el.matches(key)) el.removeAttribute("data-tutor");
      });
      if (key) document.querySelectorAll(key).forEach((el) => el.setAttribute("data-tutor", "here"));
    };
    mark();
    const root = document.querySelector("main.game");
    if (!root) return undefined;
    const watcher = new MutationObserver(mark);
    watcher.observe(root, { childList: true, subtree: true });
    return () => {
      watcher.disconnect();
      document.querySelectorAll("[data-tutor]").forEach((el) => el.removeAttribute("data-tutor"));
    };
  });
  // A new step brings its piece into view below the panel, which stays at the top (and again
  // when the panel opens, which may cover it).
  useEffect(() => {
    if (!key) return;
    const all = Array.from(document.querySelectorAll(key));
    const first = all[0];
    if (!first) return;
    const tutorBox = document.querySelector(".tutor");
    const panel = tutorBox?.getBoundingClientRect();
    const top = panel && getComputedStyle(tutorBox!).position === "sticky" ? panel.bottom : 0;
    const seen = (el: Element) => {
      const box = el.getBoundingClientRect();
      return box.top >= top && box.bottom <= window.innerHeight;
    };
    if (all.some(seen)) return;
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    // the middle of the room the panel leaves
    const box = first.getBoundingClientRect();
    const y = window.scrollY + box.top + box.height / 2 - (top + window.innerHeight) / 2;
    window.scrollTo({ top: Math.max(0, y), behavior: still ? "auto" : "smooth" });
  }, [key, view.ply, open]);

  const restart = () => {
    letGo(matchId);
    go(`#/learn/${tutor.name}`);
  };
  const words = (notation: string) => {
    const legal = view.legal.find((l) => same(l.notation, notation));
    return legal ? moveWords(t, legal) : notation;
  };
  const bot = names[1] ?? "";
  let text: string;
  if (done) text = t.t(script?.done ?? `tutorial.${tutor.name}.done`);
  else if (step) text = t.t(step.key);
  else if (!myTurn) text = t.t("tutorial.wait", { name: bot });
  else if (view.ply > lastPly || !script) text = t.t(script?.free ?? "tutorial.free");
  else text = t.t("tutorial.free");
  const shownStep = done ? steps.length : index >= 0 ? index + 1 : steps.filter((s) => s.ply < view.ply).length;
  return (
    <section class={`tutor${done ? " done" : ""}${open ? "" : " folded"}`} aria-labelledby="tutor-title" data-testid="tutor"
      data-step={step ? index + 1 : undefined} data-done={done ? "true" : undefined} data-free={!done && !step && myTurn && script !== undefined ? "true" : undefined}>
      <div class="tutor-head">
        <h2 id="tutor-title">
          {done ? t.t("tutorial.done.title") : t.t("tutorial.heading")}
          {steps.length > 0 && !done && (
            <span class="tutor-progress"> · {t.t("tutorial.progress", { step: Math.max(1, shownStep), count: steps.length })}</span>
          )}
        </h2>
        <button type="button" class="small-button tutor-toggle" aria-expanded={open} aria-controls="tutor-body"
          data-testid="tutor-toggle" onClick={() => setOpen(!open)}>
          {t.t(open ? "tutorial.fold" : "tutorial.unfold")}
        </button>
      </div>
      <div id="tutor-body" class="tutor-body" hidden={!open}>
        {tutor.wrong && step && !done && (
          <p class="tutor-wrong" role="alert" data-testid="tutor-wrong">
            {t.t("tutorial.off_script", { move: words(tutor.wrong), wanted: words(step.move) })}
          </p>
        )}
        {since}
        <p class="tutor-text" aria-live="polite" data-testid="tutor-text">{text}</p>
        <p class="tutor-buttons">
          {done && <a class="button primary" href="#/" data-testid="tutor-home">{t.t("web.home")}</a>}
          {done && <a class="button" href={`#/rules/${view.game}`}>{t.t("web.how_to_play")}</a>}
          <button type="button" class="small-button" data-testid="tutor-restart" onClick={restart}>{t.t("tutorial.restart")}</button>
          {!done && <a class="button small-button" href="#/" data-testid="tutor-leave">{t.t("tutorial.leave")}</a>}
        </p>
      </div>
    </section>
  );
}
