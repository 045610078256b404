// The turn clock (docs/server.md): the time the seat to move has left for its decision,
// counted down from the `remaining` seconds of the last message that carried the clock,
// from the moment it arrived: the local wall clock is never compared with the deadline.
import { useEffect, useState } from "preact/hooks";
import { useT } from "./context";
import type { Clock } from "./types";
import type { Translator } from "./i18n";
import type { TimeControl } from "./community";

/** A clock as received: the server's clock and when it arrived (performance.now()). */
export interface HeldClock {
  clock: Clock;
  at: number;
}

/** How long after the count reaches 0 the page calls the time out (and offers a stand-in):
 * the server rounds `remaining` to a tenth of a second, so it is never asked too early. */
const GRACE_MS = 200;

export function holdClock(clock: Clock | null | undefined): HeldClock | null {
  return clock ? { clock, at: performance.now() } : null;
}

/** Milliseconds left until the clock is out here (≤ 0: out). */
function msLeft(held: HeldClock): number {
  if (held.clock.expired) return 0;
  return held.clock.remaining * 1000 + GRACE_MS - (performance.now() - held.at);
}

/** Whether the held clock has run out; the component re-renders when it does. */
export function useClockOut(held: HeldClock | null): boolean {
  const [, bump] = useState(0);
  const out = held !== null && msLeft(held) <= 0;
  useEffect(() => {
    if (!held || out) return undefined;
    const timer = window.setTimeout(() => bump((n) => n + 1), msLeft(held) + 5);
    return () => window.clearTimeout(timer);
  }, [held, out]);
  return out;
}

/** Seconds as m:ss, or h:mm:ss from an hour on. */
export function formatTime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const two = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/** "2:31 left for this move", a second at a time, then "out of time" (`out`, from
 * useClockOut). Only this text re-renders every second. */
export function ClockText({ held, out }: { held: HeldClock; out: boolean }) {
  const t = useT();
  const [, tick] = useState(0);
  const left = held.clock.remaining - (performance.now() - held.at) / 1000;
  // Whole seconds, rounded up: 0:01 until the last second is over.
  const shown = Math.max(0, Math.ceil(left - 1e-6));
  useEffect(() => {
    if (out || shown === 0) return undefined;
    const timer = window.setTimeout(() => tick((n) => n + 1), (left - (shown - 1)) * 1000 + 10);
    return () => window.clearTimeout(timer);
  });
  return <>{out ? t.t("web.clock.out") : t.t("web.clock", { time: formatTime(shown) })}</>;
}

/** A span of time in words: "30 seconds", "5 minutes", "2 hours", "1 day" (the largest
 * unit it is a whole number of). */
export function durationWords(t: Translator, seconds: number): string {
  if (seconds > 0 && seconds % 86400 === 0) return t.t("web.time.days", { n: seconds / 86400 });
  if (seconds > 0 && seconds % 3600 === 0) return t.t("web.clock.hours", { n: seconds / 3600 });
  if (seconds > 0 && seconds % 60 === 0) return t.t("web.clock.minutes", { n: seconds / 60 });
  return t.t("web.time.seconds", { n: seconds });
}

/** A time control in words: "30 seconds a move, 5 minutes in the bank" or "2 days a move". */
export function timeWords(t: Translator, time: TimeControl | null | undefined): string {
  if (!time) return t.t("web.time.none");
  if (time.kind === "correspondence") return t.t("web.time.correspondence", { days: durationWords(t, time.days * 86400) });
  return time.bank > 0
    ? t.t("web.time.realtime", { decision: durationWords(t, time.decision), bank: durationWords(t, time.bank) })
    : t.t("web.time.realtime_no_bank", { decision: durationWords(t, time.decision) });
}

/** What happens to a seat whose time runs out, as the match states it before it starts. */
export function onTimeoutWords(t: Translator, time: TimeControl | null | undefined, rated: boolean): string | null {
  if (!time) return null;
  const rule = time.on_timeout ?? (rated ? "bot_plays_on_ranked_last" : "bot_plays_on");
  return t.t(rule === "bot_plays_on_ranked_last" ? "web.time.timeout_rated" : "web.time.timeout");
}

/** The bank of the seat to move, counted down once its decision time is spent: the clock's
 * `remaining` includes the bank (the deadline is the decision's time and then the bank), so
 * the bank left is the smaller of the bank and the time left. */
export function BankText({ held, bank }: { held: HeldClock; bank: number }) {
  const t = useT();
  const [, tick] = useState(0);
  const total = held.clock.remaining - (performance.now() - held.at) / 1000;
  const left = Math.max(0, Math.min(bank, total));
  const shown = Math.ceil(left - 1e-6);
  useEffect(() => {
    if (shown === 0) return undefined;
    // the next change: the bank starts to pay, or its next whole second
    const wait = total > bank ? (total - bank) * 1000 + 10 : (left - (shown - 1)) * 1000 + 10;
    const timer = window.setTimeout(() => tick((n) => n + 1), Math.max(50, wait));
    return () => window.clearTimeout(timer);
  });
  return <>{t.t("web.time.bank", { time: formatTime(shown) })}</>;
}

/** The decision's own time of a clock with a bank: the time left before the bank pays. */
export function decisionClock(held: HeldClock, bank: number): HeldClock {
  return { clock: { ...held.clock, remaining: Math.max(0, held.clock.remaining - bank), expired: held.clock.expired }, at: held.at };
}
