// The turn clock (docs/server.md): the time the seat to move has left for its decision,
// counted down from the `remaining` seconds of the last message that carried the clock,
// from the moment it arrived: the local wall clock is never compared with the deadline.
import { useEffect, useState } from "preact/hooks";
import { useT } from "./context";
import type { Clock } from "./types";

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
