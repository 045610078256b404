// Reports, blocks and moderation (docs/server.md, "Reports and blocks", "Moderation"):
// the report dialog (a player's page, a chat line, a finished match), blocking and
// unblocking a player, the moderators' warnings an account reads on its next page, and the
// moderation page (#/moderation, moderators only): the report queue with the reported chat
// lines in context, the flagged rated results and the log, and the moderators' actions.
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, request } from "./api";
import { errorText, useSession } from "./community";
import { useAnnounce, useT } from "./context";
import { useModal } from "./modal";
import { FollowButtons } from "./friends";
import type { Translator } from "./i18n";
import { isDeleted, shownName } from "./names";

// -- the API ------------------------------------------------------------------------------

export type ReportReason = "cheating" | "chat_abuse" | "offensive_name" | "stalling" | "other";
export const REPORT_REASONS: ReportReason[] = ["cheating", "chat_abuse", "offensive_name", "stalling", "other"];
/** The longest text of a report (characters). */
export const REPORT_MAX = 500;
/** The longest reason a moderator gives (characters). */
export const REASON_MAX = 200;

export interface ReportBody {
  name: string;
  reason: ReportReason;
  text: string;
  match?: string;
  chat_line?: number;
}

export interface Warning {
  id: number;
  at: string;
  text: string;
}

export interface ContextLine {
  id: number;
  channel: string;
  seat: number | null;
  name: string;
  text: string;
  at: string;
  by_reported: boolean;
  reported: boolean;
}

export interface Report {
  id: number;
  at: string;
  by: string;
  name: string;
  reason: ReportReason;
  text: string;
  match: string | null;
  chat_line: number | null;
  status: "open" | "closed";
  closed_at: string | null;
  closed_by: string | null;
  note: string | null;
  account: { name: string; suspended: boolean; muted_until: string | null; moderator: boolean; open_reports: number } | null;
  context: ContextLine[];
}

export interface Flag {
  id: number;
  reason: string;
  accounts: string[];
  address: string | null;
  matches: { id: string; game: string | null; rated_at: string | null; voided: boolean }[];
  created: string;
  updated: string;
  resolved_at: string | null;
}

export interface LogEntry {
  id: number;
  at: string;
  by: string;
  web: boolean;
  action: string;
  target: string;
  reason: string;
  report: number | null;
  match: string | null;
}

const enc = encodeURIComponent;

export const safety = {
  report: (body: ReportBody) => request<{ id: number }>("POST", "/api/reports", body),
  blocks: () => request<{ blocks: string[] }>("GET", "/api/me/blocks").then((a) => a.blocks),
  block: (name: string) => request<void>("POST", "/api/me/blocks", { name }),
  unblock: (name: string) => request<void>("DELETE", `/api/me/blocks/${enc(name)}`),
  warnings: () => request<{ warnings: Warning[] }>("GET", "/api/me/warnings").then((a) => a.warnings),
  seen: (id: number) => request<void>("POST", `/api/me/warnings/${id}/seen`, {}),
};

export const moderation = {
  reports: (status: "open" | "closed") => request<{ reports: Report[] }>("GET", `/api/moderation/reports?status=${status}`),
  close: (id: number, reason: string) => request<Report>("POST", `/api/moderation/reports/${id}/close`, { reason }),
  flags: (status: "open" | "resolved") => request<{ flags: Flag[] }>("GET", `/api/moderation/flags?status=${status}`),
  resolve: (id: number, reason: string) => request<unknown>("POST", `/api/moderation/flags/${id}/resolve`, { reason }),
  log: () => request<{ log: LogEntry[] }>("GET", "/api/moderation/log?limit=100"),
  warn: (name: string, reason: string, report?: number) => request<unknown>("POST", "/api/moderation/warn", { name, reason, report }),
  mute: (name: string, minutes: number, reason: string, report?: number) =>
    request<unknown>("POST", "/api/moderation/mute", { name, minutes, reason, report }),
  suspend: (name: string, reason: string, report?: number) => request<unknown>("POST", "/api/moderation/suspend", { name, reason, report }),
  unsuspend: (name: string, reason: string, report?: number) => request<unknown>("POST", "/api/moderation/unsuspend", { name, reason, report }),
  void: (match: string, reason: string, flag?: number) => request<unknown>("POST", "/api/moderation/void", { match, reason, flag }),
};

/** Whether the session's account is a moderator (the account JSON says so). */
export function isModerator(account: unknown): boolean {
  return !!(account as { moderator?: boolean } | null)?.moderator;
}

// -- blocks, shared by the page ---------------------------------------------------------

let blocked: string[] | null = null;
let blocksOf: string | null = null;
const blockListeners = new Set<() => void>();

function setBlocked(next: string[]): void {
  blocked = next;
  for (const listener of blockListeners) listener();
}

/** The accounts this account blocked (asked once per account), with blocking and
 * unblocking. */
export function useBlocks(): { blocked: string[]; isBlocked: (name: string) => boolean; block: (name: string, on: boolean) => Promise<void> } {
  const { account } = useSession();
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((n) => n + 1);
    blockListeners.add(listener);
    return () => {
      blockListeners.delete(listener);
    };
  }, []);
  useEffect(() => {
    if (!account) return;
    if (blocksOf === account.name && blocked !== null) return;
    blocksOf = account.name;
    safety.blocks().then(setBlocked, () => setBlocked([]));
  }, [account?.name]);
  const list = account && blocksOf === account.name ? blocked ?? [] : [];
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  return {
    blocked: list,
    isBlocked: (name) => list.some((n) => same(n, name)),
    block: async (name, on) => {
      await (on ? safety.block(name) : safety.unblock(name));
      const rest = (blocked ?? []).filter((n) => !same(n, name));
      setBlocked(on ? [...rest, name] : rest);
    },
  };
}

/** A player's page's "Report" and "Block" / "Unblock" (a logged-in account, another
 * account's page). */
export function PlayerActions({ name }: { name: string }) {
  const { account } = useSession();
  if (!account || account.name.toLowerCase() === name.toLowerCase()) return null;
  return (
    <p class="player-actions" data-testid="player-actions">
      <FollowButtons name={name} />
      <ReportButton names={[name]} />
      <BlockButton name={name} />
    </p>
  );
}

/** "Block" / "Unblock" on a player's page. */
export function BlockButton({ name }: { name: string }) {
  const t = useT();
  const announce = useAnnounce();
  const { isBlocked, block } = useBlocks();
  const [error, setError] = useState<string | null>(null);
  const on = isBlocked(name);
  return (
    <span class="block-wrap">
      <button type="button" class="small-button" data-testid="block" aria-pressed={on}
        aria-label={t.t(on ? "web.block.unblock_name" : "web.block.block_name", { name })}
        onClick={() => {
          setError(null);
          block(name, !on).then(
            () => announce(t.t(on ? "web.block.unblocked" : "web.block.blocked", { name })),
            (e: unknown) => setError(errorText(t, e)),
          );
        }}>
        {t.t(on ? "web.block.unblock" : "web.block.block")}
      </button>
      {on && <span class="muted" data-testid="blocked-note"> {t.t("web.block.note")}</span>}
      {error && <span class="error" role="alert">{error}</span>}
    </span>
  );
}

// -- reporting ----------------------------------------------------------------------------

/** The report dialog: who (chosen among `names` for a match, else `name`), why, what
 * happened; sent with the match and the chat line it is about. */
export function ReportDialog({ names, match, line, onClose }: {
  names: string[];
  match?: string;
  line?: { id: number; name: string; text: string };
  onClose: () => void;
}) {
  const t = useT();
  const first = useRef<HTMLSelectElement & HTMLInputElement>(null);
  const { dialog, handlers } = useModal(onClose, () => first.current?.focus());
  const [who, setWho] = useState(names[0] ?? "");
  const [reason, setReason] = useState<ReportReason | null>(line ? "chat_abuse" : null);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const done = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (sent) done.current?.focus();
  }, [sent]);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    if (!reason) {
      setError(t.t("web.report.choose"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await safety.report({ name: who, reason, text: text.trim(), match, chat_line: line?.id });
      setSent(true);
    } catch (e) {
      setError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };
  const title = names.length === 1 ? t.t("web.report.title", { name: names[0] }) : t.t("web.report.title_match");
  return (
    <dialog ref={dialog} class="report-dialog" aria-labelledby="report-title" data-testid="report-dialog" {...handlers}>
      <h2 id="report-title">{title}</h2>
      {sent ? (
        <div>
          <p class="banner ok" role="status" data-testid="report-sent">{t.t("web.report.sent")}</p>
          <button type="button" ref={done} class="primary" onClick={onClose}>{t.t("web.report.close")}</button>
        </div>
      ) : (
        <form onSubmit={submit} data-testid="report-form">
          <p class="muted">{t.t("web.report.detail")}</p>
          {names.length > 1 && (
            <label>
              {t.t("web.report.who")}
              <select ref={first} value={who} data-testid="report-who" onChange={(e) => setWho((e.target as HTMLSelectElement).value)}>
                {names.map((n) => <option key={n} value={n}>{n}</option>)}
              </select>
            </label>
          )}
          {line && (
            <figure class="report-line">
              <figcaption>{t.t("web.report.line", { name: line.name })}</figcaption>
              <blockquote>{line.text}</blockquote>
            </figure>
          )}
          <fieldset>
            <legend>{t.t("web.report.reason")}</legend>
            {REPORT_REASONS.map((r, i) => (
              <label class="radio" key={r}>
                <input ref={i === 0 && names.length <= 1 ? first : undefined} type="radio" name="report-reason" value={r}
                  checked={reason === r} data-reason={r} onChange={() => setReason(r)} />
                {t.t(`web.report.reason.${r}`)}
              </label>
            ))}
          </fieldset>
          <label>
            {t.t("web.report.text")}
            <input type="text" value={text} maxLength={REPORT_MAX} autoComplete="off" data-testid="report-text"
              required={reason === "other"} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
            <span class="muted small">{t.t("web.report.text_help", { limit: REPORT_MAX })}</span>
          </label>
          {error && <p class="error" role="alert" data-testid="report-error">{error}</p>}
          <p class="form-buttons">
            <button type="submit" class="primary" disabled={busy} data-testid="report-send">{t.t("web.report.send")}</button>
            <button type="button" onClick={onClose}>{t.t("web.report.cancel")}</button>
          </p>
        </form>
      )}
    </dialog>
  );
}

/** A "Report" button that opens the report dialog (logged-in accounts only; never for
 * oneself). */
export function ReportButton({ names, match, line, label, className, testid }: {
  names: string[];
  match?: string;
  line?: { id: number; name: string; text: string };
  label?: string;
  className?: string;
  testid?: string;
}) {
  const t = useT();
  const { account } = useSession();
  const [open, setOpen] = useState(false);
  // nobody reports themself, nor a deleted account (there is no one left to act on)
  const others = names.filter((n) => !isDeleted(n) && (!account || n.toLowerCase() !== account.name.toLowerCase()));
  if (!account || others.length === 0) return null;
  return (
    <>
      <button type="button" class={className ?? "small-button"} aria-haspopup="dialog" data-testid={testid ?? "report"}
        aria-label={label ?? (others.length === 1 ? t.t("web.report.title", { name: others[0] }) : undefined)}
        onClick={() => setOpen(true)}>
        {t.t(others.length === 1 ? "web.report.button" : "web.report.match")}
      </button>
      {open && <ReportDialog names={others} match={match} line={line} onClose={() => setOpen(false)} />}
    </>
  );
}

// -- warnings -----------------------------------------------------------------------------

/** The moderators' warnings the account has not said it read, at the top of every page. */
export function WarningsBanner() {
  const t = useT();
  const { account } = useSession();
  const [warnings, setWarnings] = useState<Warning[]>([]);
  useEffect(() => {
    if (!account) {
      setWarnings([]);
      return;
    }
    safety.warnings().then(setWarnings, () => setWarnings([]));
  }, [account?.name]);
  if (!account || warnings.length === 0) return null;
  return (
    <section class="warnings" aria-labelledby="warnings-title" data-testid="warnings">
      <h2 id="warnings-title">{t.t("web.warning.title")}</h2>
      {warnings.map((w) => (
        <div key={w.id} class="banner warn" role="alert" data-warning={w.id}>
          <p>
            <span class="muted">{timeText(t, w.at)}: </span>
            {w.text}
          </p>
          <button type="button" class="small-button" data-testid="warning-read"
            onClick={() => {
              void safety.seen(w.id).finally(() => setWarnings((now) => now.filter((x) => x.id !== w.id)));
            }}>
            {t.t("web.warning.read")}
          </button>
        </div>
      ))}
    </section>
  );
}

// -- the moderation page ------------------------------------------------------------------

/** How long a moderator mutes for: minutes. */
const MUTES = [15, 60, 24 * 60, 7 * 24 * 60];

function spanText(t: Translator, minutes: number): string {
  if (minutes % (24 * 60) === 0) return t.t("web.time.days", { n: minutes / (24 * 60) });
  if (minutes % 60 === 0) return t.t("web.moderation.hours", { n: minutes / 60 });
  return t.t("web.moderation.minutes", { n: minutes });
}

function timeText(t: Translator, iso: string | null | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(t.lang, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

function actionText(t: Translator, action: string): string {
  const key = `web.moderation.action.${action.replace(/-/g, "_")}`;
  return t.has(key) ? t.t(key) : action;
}

/** What a moderator does: the reason field and the buttons, the outcome in words. */
function useAct(reload: () => void): {
  busy: boolean;
  error: string | null;
  done: string | null;
  run: (work: () => Promise<unknown>) => void;
} {
  const t = useT();
  const announce = useAnnounce();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const run = (work: () => Promise<unknown>) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    setDone(null);
    work().then(
      () => {
        setDone(t.t("web.moderation.done"));
        announce(t.t("web.moderation.done"));
        reload();
      },
      (e: unknown) => setError(errorText(t, e)),
    ).finally(() => setBusy(false));
  };
  return { busy, error, done, run };
}

function ReportCard({ report, reload }: { report: Report; reload: () => void }) {
  const t = useT();
  const [why, setWhy] = useState("");
  const [minutes, setMinutes] = useState(MUTES[1]);
  const { busy, error, done, run } = useAct(reload);
  const [missing, setMissing] = useState(false);
  const act = (work: (reason: string) => Promise<unknown>) => {
    const reason = why.trim();
    setMissing(!reason);
    if (reason) run(() => work(reason));
  };
  const state = report.account;
  const id = `report-${report.id}`;
  return (
    <li class="panel report-card" data-report={report.id} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {t.t("web.moderation.reported", { by: shownName(t, report.by), name: shownName(t, report.name) })}
        {" · "}<span class="tag">{t.t(`web.report.reason.${report.reason}`)}</span>
      </h3>
      <p class="muted">
        {timeText(t, report.at)}
        {state && (
          <>
            {" · "}<a href={`#/player/${enc(state.name)}`} data-player={state.name}>{state.name}</a>
            {state.suspended && <> · <span class="tag" data-state="suspended">{t.t("web.moderation.suspended")}</span></>}
            {state.muted_until && <> · <span class="tag" data-state="muted">{t.t("web.moderation.muted", { time: timeText(t, state.muted_until) })}</span></>}
            {" · "}{t.t("web.moderation.open_reports", { count: state.open_reports })}
          </>
        )}
      </p>
      {report.text && <p class="report-text" data-testid="report-text">{report.text}</p>}
      {report.match && (
        <p>
          <a href={`#/replay/${enc(report.match)}`}>{t.t("web.moderation.match")}</a>{" · "}
          <a href={`#/watch/${enc(report.match)}`}>{t.t("web.moderation.watch")}</a>
        </p>
      )}
      {report.context.length > 0 && (
        <details open={report.chat_line !== null} class="report-context">
          <summary>{t.t("web.moderation.context")}</summary>
          <ol class="context-lines" data-testid="context">
            {report.context.map((c) => (
              <li key={c.id} data-line={c.id} class={`${c.reported ? "reported" : ""}${c.by_reported ? " by-reported" : ""}`}>
                <span class="muted">{timeText(t, c.at)}</span>{" "}
                <strong>{shownName(t, c.name)}</strong>
                {c.channel === "spectators" && <span class="muted"> ({t.t("web.chat.spectators")})</span>}: {c.text}
                {c.reported && <span class="tag reported-tag"> {t.t("web.moderation.reported_line")}</span>}
              </li>
            ))}
          </ol>
        </details>
      )}
      {report.status === "closed" ? (
        <p class="muted" data-testid="closed">{t.t("web.moderation.closed_by", { name: report.closed_by ?? "", note: report.note ?? "" })}</p>
      ) : (
        <div class="mod-actions">
          <label>
            {t.t("web.moderation.why")}
            <input type="text" value={why} maxLength={REASON_MAX} data-testid="why"
              onInput={(e) => setWhy((e.target as HTMLInputElement).value)} />
            <span class="muted small">{t.t("web.moderation.why_help")}</span>
          </label>
          {missing && <p class="error" role="alert">{t.t("web.moderation.need_why")}</p>}
          <div class="mod-buttons">
            {state && (
              <>
                <button type="button" class="small-button" disabled={busy} data-action="warn"
                  onClick={() => act((r) => moderation.warn(report.name, r, report.id))}>{t.t("web.moderation.warn")}</button>
                <span class="mute-group">
                  <button type="button" class="small-button" disabled={busy} data-action="mute"
                    onClick={() => act((r) => moderation.mute(report.name, minutes, r, report.id))}>{t.t("web.moderation.mute")}</button>
                  <label class="inline">
                    <span class="sr-only">{t.t("web.moderation.mute_for")}</span>
                    <select value={minutes} data-testid="mute-minutes" onChange={(e) => setMinutes(Number((e.target as HTMLSelectElement).value))}>
                      {MUTES.map((m) => <option key={m} value={m}>{spanText(t, m)}</option>)}
                    </select>
                  </label>
                </span>
                {state.suspended ? (
                  <button type="button" class="small-button" disabled={busy} data-action="unsuspend"
                    onClick={() => act((r) => moderation.unsuspend(report.name, r, report.id))}>{t.t("web.moderation.unsuspend")}</button>
                ) : (
                  <button type="button" class="small-button danger-button" disabled={busy} data-action="suspend"
                    onClick={() => act((r) => moderation.suspend(report.name, r, report.id))}>{t.t("web.moderation.suspend")}</button>
                )}
              </>
            )}
            <button type="button" class="small-button" disabled={busy} data-action="close"
              onClick={() => act((r) => moderation.close(report.id, r))}>{t.t("web.moderation.close")}</button>
          </div>
          {error && <p class="error" role="alert">{error}</p>}
          {done && <p class="banner ok" role="status">{done}</p>}
        </div>
      )}
    </li>
  );
}

function FlagCard({ flag, reload }: { flag: Flag; reload: () => void }) {
  const t = useT();
  const [why, setWhy] = useState("");
  const [missing, setMissing] = useState(false);
  const { busy, error, done, run } = useAct(reload);
  const act = (work: (reason: string) => Promise<unknown>) => {
    const reason = why.trim();
    setMissing(!reason);
    if (reason) run(() => work(reason));
  };
  return (
    <li class="panel flag-card" data-flag={flag.id}>
      <h3>
        {t.t("web.moderation.flag", { names: flag.accounts.map((n) => shownName(t, n)).join(", "), count: flag.matches.length })}
      </h3>
      <p class="muted">
        {timeText(t, flag.updated)}
        {flag.address && <> · {t.t("web.moderation.address", { address: flag.address })}</>}
        {flag.resolved_at && <> · <span class="tag">{t.t("web.moderation.resolved")}</span></>}
      </p>
      <ul class="flag-matches">
        {flag.matches.map((m) => (
          <li key={m.id} data-match={m.id}>
            <a href={`#/replay/${enc(m.id)}`}>{m.game ? t.t(`title.${m.game}`) : m.id}</a>
            {m.rated_at && <span class="muted"> {timeText(t, m.rated_at)}</span>}{" "}
            {m.voided ? (
              <span class="tag" data-state="voided">{t.t("web.moderation.voided")}</span>
            ) : (
              !flag.resolved_at && (
                <button type="button" class="small-button" disabled={busy} data-action="void"
                  onClick={() => act((r) => moderation.void(m.id, r, flag.id))}>{t.t("web.moderation.void")}</button>
              )
            )}
          </li>
        ))}
      </ul>
      {!flag.resolved_at && (
        <div class="mod-actions">
          <label>
            {t.t("web.moderation.why")}
            <input type="text" value={why} maxLength={REASON_MAX} data-testid="why"
              onInput={(e) => setWhy((e.target as HTMLInputElement).value)} />
          </label>
          {missing && <p class="error" role="alert">{t.t("web.moderation.need_why")}</p>}
          <div class="mod-buttons">
            <button type="button" class="small-button" disabled={busy} data-action="resolve"
              onClick={() => act((r) => moderation.resolve(flag.id, r))}>{t.t("web.moderation.resolve")}</button>
          </div>
          {error && <p class="error" role="alert">{error}</p>}
          {done && <p class="banner ok" role="status">{done}</p>}
        </div>
      )}
    </li>
  );
}

type Tab = "reports" | "flags" | "log";

export function ModerationPage({ tab }: { tab: string }) {
  const t = useT();
  const { account, known } = useSession();
  const here: Tab = tab === "flags" || tab === "log" ? tab : "reports";
  const [closed, setClosed] = useState(false);
  const [reports, setReports] = useState<Report[] | null>(null);
  const [flags, setFlags] = useState<Flag[] | null>(null);
  const [log, setLog] = useState<LogEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const reload = () => setRound((n) => n + 1);
  const allowed = isModerator(account);
  useEffect(() => {
    if (!allowed) return;
    setError(null);
    const fail = (e: unknown) => setError(e instanceof ApiError && e.message ? e.message : t.t("web.offline"));
    if (here === "reports") moderation.reports(closed ? "closed" : "open").then((a) => setReports(a.reports), fail);
    else if (here === "flags") moderation.flags(closed ? "resolved" : "open").then((a) => setFlags(a.flags), fail);
    else moderation.log().then((a) => setLog(a.log), fail);
  }, [allowed, here, closed, round]);
  if (!known) return <main id="main"><p role="status">{t.t("web.loading")}</p></main>;
  if (!allowed) {
    return (
      <main id="main" class="moderation-page">
        <h1>{t.t("web.moderation")}</h1>
        <p role="alert" data-testid="moderation-only">{t.t("web.moderation.only")}</p>
      </main>
    );
  }
  const tabs: Tab[] = ["reports", "flags", "log"];
  return (
    <main id="main" class="moderation-page" data-testid="moderation">
      <h1>{t.t("web.moderation")}</h1>
      <nav class="tabs" aria-label={t.t("web.moderation")}>
        {tabs.map((name) => (
          <a key={name} class="button" href={`#/moderation/${name}`} aria-current={name === here ? "page" : undefined} data-tab={name}>
            {t.t(`web.moderation.tab.${name}`)}
          </a>
        ))}
      </nav>
      {here !== "log" && (
        <label class="check">
          <input type="checkbox" checked={closed} data-testid="show-closed" onChange={(e) => setClosed((e.target as HTMLInputElement).checked)} />
          {t.t(here === "reports" ? "web.moderation.show_closed" : "web.moderation.show_resolved")}
        </label>
      )}
      {error && <p class="error" role="alert">{error}</p>}
      {here === "reports" && (
        <section aria-labelledby="mod-reports">
          <h2 id="mod-reports">{t.t(closed ? "web.moderation.closed_reports" : "web.moderation.open_reports_title")}</h2>
          {reports === null ? (
            <p role="status">{t.t("web.loading")}</p>
          ) : reports.length === 0 ? (
            <p class="muted" data-testid="no-reports">{t.t("web.moderation.no_reports")}</p>
          ) : (
            <ul class="report-list" data-testid="reports">
              {reports.map((r) => <ReportCard key={`${r.id}-${r.status}`} report={r} reload={reload} />)}
            </ul>
          )}
        </section>
      )}
      {here === "flags" && (
        <section aria-labelledby="mod-flags">
          <h2 id="mod-flags">{t.t("web.moderation.flags")}</h2>
          <p class="muted">{t.t("web.moderation.flags_detail")}</p>
          {flags === null ? (
            <p role="status">{t.t("web.loading")}</p>
          ) : flags.length === 0 ? (
            <p class="muted" data-testid="no-flags">{t.t("web.moderation.no_flags")}</p>
          ) : (
            <ul class="report-list" data-testid="flags">
              {flags.map((f) => <FlagCard key={`${f.id}-${f.resolved_at ?? ""}`} flag={f} reload={reload} />)}
            </ul>
          )}
        </section>
      )}
      {here === "log" && (
        <section aria-labelledby="mod-log">
          <h2 id="mod-log">{t.t("web.moderation.log")}</h2>
          {log === null ? (
            <p role="status">{t.t("web.loading")}</p>
          ) : log.length === 0 ? (
            <p class="muted">{t.t("web.moderation.no_log")}</p>
          ) : (
            <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="mod-log">
              <table class="data-table log-table" data-testid="log">
                <thead>
                  <tr>
                    <th scope="col">{t.t("web.moderation.when")}</th>
                    <th scope="col">{t.t("web.moderation.who")}</th>
                    <th scope="col">{t.t("web.moderation.what")}</th>
                    <th scope="col">{t.t("web.moderation.about")}</th>
                    <th scope="col">{t.t("web.moderation.reason")}</th>
                  </tr>
                </thead>
                <tbody>
                  {log.map((e) => (
                    <tr key={e.id} data-action={e.action}>
                      <td data-label={t.t("web.moderation.when")}>{timeText(t, e.at)}</td>
                      <td data-label={t.t("web.moderation.who")}>{e.web ? e.by : t.t("web.moderation.by_admin", { name: e.by })}</td>
                      <td data-label={t.t("web.moderation.what")}>{actionText(t, e.action)}</td>
                      <td data-label={t.t("web.moderation.about")}>{e.target}</td>
                      <td data-label={t.t("web.moderation.reason")} class="log-reason">{e.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      )}
    </main>
  );
}
