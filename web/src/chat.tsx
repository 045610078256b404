// Chat in a match (docs/server.md, "Chat"): the players' channel for a seat, the spectators'
// for a logged-in spectator (players never see it), read only for a guest spectator. Sent over
// the live WebSocket ({"type": "chat", "text"}), over HTTP where the socket is down; the
// history from GET /api/matches/{id}/chat. Text only: a message is never read as markup.
// A logged-in player mutes an account: its messages are hidden here (and the server leaves
// them out from then on).
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { accounts, chat, errorText, seatIsAccount, useSession } from "./community";
import type { MatchInfo } from "./types";
import type { ChatMessage } from "./community";
import { useT } from "./context";
import type { Live } from "./live";
import { SeatBadge } from "./table";
import { ReportButton } from "./moderation";
import { isDeleted, shownName } from "./names";

/** How many messages a page keeps (the oldest go first). */
const KEEP = 300;
export const CHAT_MAX = 300;

function merge(now: ChatMessage[], found: ChatMessage[]): ChatMessage[] {
  const byId = new Map(now.map((m) => [String(m.id), m]));
  let changed = false;
  for (const m of found) {
    if (!m || typeof m.text !== "string") continue;
    if (!byId.has(String(m.id))) changed = true;
    byId.set(String(m.id), m);
  }
  if (!changed) return now;
  const order = (m: ChatMessage) => (typeof m.id === "number" ? m.id : Number.NaN);
  return [...byId.values()]
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : order(a) - order(b) || 0))
    .slice(-KEEP);
}

export interface ChatState {
  messages: ChatMessage[];
  error: string | null;
  /** A message that came live. */
  add: (found: ChatMessage[]) => void;
  /** Ask for the history again (after a snapshot: what was missed while away). */
  reload: () => void;
  send: (text: string) => Promise<boolean>;
  /** Whether a refusal with this ref was an answer to a chat message (it is shown here). */
  refused: (ref: unknown, message: string) => boolean;
  /** Whether an `ack` with this ref answered a chat message (not a move). */
  acked: (ref: unknown) => boolean;
}

export function useChat(matchId: string, token: string | null, live: { current: Live | null }): ChatState {
  const t = useT();
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [error, setError] = useState<string | null>(null);
  const refs = useRef(new Set<unknown>());
  const add = useCallback((found: ChatMessage[]) => setMessages((now) => merge(now, found)), []);
  const reload = useCallback(() => {
    chat.history(matchId, token).then(add, () => undefined);
  }, [matchId, token]);
  const send = async (text: string): Promise<boolean> => {
    setError(null);
    const ref = live.current?.send({ type: "chat", text }) ?? null;
    if (ref !== null) {
      refs.current.add(ref);
      return true;
    }
    try {
      await chat.send(matchId, text, token);
      reload();
      return true;
    } catch (e) {
      setError(errorText(t, e));
      return false;
    }
  };
  const refused = (ref: unknown, message: string): boolean => {
    if (ref === undefined || ref === null || !refs.current.has(ref)) return false;
    refs.current.delete(ref);
    setError(message);
    return true;
  };
  const acked = (ref: unknown): boolean => refs.current.delete(ref);
  return { messages, error, add, reload, send, refused, acked };
}

/** The accounts this account has muted (lower case), with muting and unmuting. */
function useMutes(): { muted: string[]; mute: (name: string) => Promise<void>; unmute: (name: string) => Promise<void> } {
  const { account } = useSession();
  const [muted, setMuted] = useState<string[]>([]);
  useEffect(() => {
    if (!account) {
      setMuted([]);
      return;
    }
    accounts.mutes().then(setMuted, () => setMuted([]));
  }, [account?.name]);
  const mute = async (name: string) => {
    await accounts.mute(name);
    setMuted((now) => (now.some((n) => n.toLowerCase() === name.toLowerCase()) ? now : [...now, name]));
  };
  const unmute = async (name: string) => {
    await accounts.unmute(name);
    setMuted((now) => now.filter((n) => n.toLowerCase() !== name.toLowerCase()));
  };
  return { muted, mute, unmute };
}

function clockTime(lang: string, iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit" }).format(date);
}

export function ChatPanel({ state, seat, match }: { state: ChatState; seat: number | null; match: MatchInfo }) {
  const matchId = match.id;
  const t = useT();
  const { account } = useSession();
  const { muted, mute, unmute } = useMutes();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [muteError, setMuteError] = useState<string | null>(null);
  const log = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  const isMuted = (name: string) => muted.some((n) => n.toLowerCase() === name.toLowerCase());
  // The account that wrote a message (a guest's seat has none, nor a deleted account's: it
  // cannot be muted).
  const authorAccount = (m: ChatMessage): string | null => {
    if (m.account !== undefined) return m.account ?? null;
    if (isDeleted(m.name)) return null;
    return m.seat === null || m.seat === undefined || seatIsAccount(match, m.seat) ? m.name : null;
  };
  const shown = state.messages.filter((m) => !isMuted(authorAccount(m) ?? ""));
  const canSend = seat !== null || !!account;
  const myName = account?.name.toLowerCase();
  // New messages keep the log at its end, unless the reader scrolled up to read.
  useLayoutEffect(() => {
    const box = log.current;
    if (box && nearBottom.current) box.scrollTop = box.scrollHeight;
  }, [shown.length]);
  const submit = async (event: Event) => {
    event.preventDefault();
    const said = text.trim();
    if (!said || busy) return;
    setBusy(true);
    if (await state.send(said.slice(0, CHAT_MAX))) setText("");
    setBusy(false);
  };
  const doMute = async (name: string, on: boolean) => {
    setMuteError(null);
    try {
      await (on ? mute(name) : unmute(name));
      // The history the page loaded while the account was muted left its messages out (the
      // server leaves them out for the reader): ask again, so they show without a reload.
      if (!on) state.reload();
    } catch (e) {
      setMuteError(errorText(t, e));
    }
  };
  const title = t.t(seat !== null ? "web.chat.players" : "web.chat.spectators");
  return (
    <section class="chat" aria-labelledby="chat-title" data-testid="chat">
      <h2 id="chat-title">{title}</h2>
      {canSend && <div class="chat-log" ref={log} role="log" aria-labelledby="chat-title" tabIndex={0}
        onScroll={() => {
          const box = log.current;
          if (box) nearBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
        }}>
        {shown.length === 0 ? (
          <p class="muted">{t.t("web.chat.empty")}</p>
        ) : (
          <ol>
            {shown.map((m) => {
              const own = (seat !== null && m.seat === seat) || (!!myName && m.name.toLowerCase() === myName);
              return (
                <li key={m.id} data-chat={m.id} class={own ? "own" : undefined}>
                  <span class="chat-head">
                    {m.seat !== null && m.seat !== undefined && <SeatBadge seat={m.seat} />}
                    <strong class="chat-name">{shownName(t, m.name)}</strong>
                    <time dateTime={m.at}>{clockTime(t.lang, m.at)}</time>
                    {account && !own && authorAccount(m) && (
                      <button type="button" class="link-button" data-mute={authorAccount(m)} aria-label={t.t("web.chat.mute", { name: m.name })}
                        onClick={() => void doMute(authorAccount(m)!, true)}>
                        {t.t("web.chat.mute_short")}
                      </button>
                    )}
                    {account && !own && authorAccount(m) && typeof m.id === "number" && (
                      <ReportButton names={[authorAccount(m)!]} match={matchId} line={{ id: m.id, name: m.name, text: m.text }}
                        label={t.t("web.chat.report", { name: m.name })} className="link-button" testid="chat-report" />
                    )}
                  </span>
                  <span class="chat-text">{m.text}</span>
                </li>
              );
            })}
          </ol>
        )}
      </div>}
      {canSend ? (
        <form class="chat-form" onSubmit={submit}>
          <label>
            <span class="sr-only">{t.t("web.chat.message")}</span>
            <input type="text" value={text} maxLength={CHAT_MAX} autoComplete="off" data-testid="chat-input"
              placeholder={t.t("web.chat.placeholder")} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
          </label>
          <button type="submit" disabled={busy || !text.trim()} data-testid="chat-send">{t.t("web.chat.send")}</button>
        </form>
      ) : (
        <p class="muted" data-testid="chat-guest">
          {t.t("web.chat.guest")}{" "}
          <a href={`#/login/${encodeURIComponent(`#/watch/${matchId}`)}`}>{t.t("web.account.log_in")}</a>
        </p>
      )}
      {(state.error || muteError) && <p class="error" role="alert" data-testid="chat-error">{state.error ?? muteError}</p>}
      {account && muted.length > 0 && (
        <details class="muted-list">
          <summary>{t.t("web.chat.muted", { count: muted.length })}</summary>
          <ul>
            {muted.map((name) => (
              <li key={name}>
                {name}{" "}
                <button type="button" class="small-button" data-unmute={name} aria-label={t.t("web.chat.unmute", { name })}
                  onClick={() => void doMute(name, false)}>
                  {t.t("web.chat.unmute_short")}
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
