// Friends, challenges and vacation (docs/server.md, "Friends and challenges", "Vacation";
// docs/web.md, "Friends"): the friends page (#/friends, #/friends/challenge/{name}) — the
// accounts one follows (online or not, on vacation, the live matches they play with a Watch
// link, a Challenge button each), following by name, the challenges to and from the account
// (accept, decline, cancel); the header's challenge badge (GET /api/challenges every 15 s
// while the page is seen, every minute in the background — the server also counts that as
// "online"); Follow and Challenge on a player's page; the settings page's vacation and
// friends sections.
import { useEffect, useRef, useState } from "preact/hooks";
import { request } from "./api";
import { errorText, refreshMatches, usePoll, useSession } from "./community";
import type { GameName, Seek } from "./community";
import { useAnnounce, useT } from "./context";
import type { Translator } from "./i18n";
import { DEFAULT_TIME, TimeChoice, timeControl } from "./lobby";
import type { TimeSetting } from "./lobby";

// -- the server's shapes and calls ----------------------------------------------------------

export interface Followed {
  name: string;
  /** null: the account hides it. */
  online: boolean | null;
  /** Until when it is on vacation (null: it is not). */
  vacation: string | null;
  playing: { id: string; game: GameName }[];
}

export interface Challenge extends Seek {
  /** The addressee's name. */
  for: string;
}

export interface Challenges {
  to_me: Challenge[];
  from_me: Challenge[];
}

export interface Vacation {
  until: string | null;
  used: number;
  left: number;
  per_year: number;
}

export interface FriendSettings {
  hide_online: boolean;
  email_challenges: boolean;
}

const enc = encodeURIComponent;

export const friends = {
  following: () => request<{ following: Followed[] }>("GET", "/api/me/following").then((a) => a.following),
  follow: (name: string) => request<void>("PUT", `/api/me/following/${enc(name)}`),
  unfollow: (name: string) => request<void>("DELETE", `/api/me/following/${enc(name)}`),
  challenges: () => request<Challenges>("GET", "/api/challenges"),
  challenge: (body: { to: string; game: GameName; rated: boolean; time: unknown }) =>
    request<Challenge>("POST", "/api/challenges", body),
  accept: (id: string) => request<Challenge & { match: string | null }>("POST", `/api/challenges/${enc(id)}/accept`, {}),
  decline: (id: string) => request<Challenge>("POST", `/api/challenges/${enc(id)}/decline`, {}),
  cancel: (id: string) => request<Challenge>("DELETE", `/api/challenges/${enc(id)}`),
  vacation: () => request<Vacation>("GET", "/api/me/vacation"),
  startVacation: (days: number | null) => request<Vacation>("POST", "/api/me/vacation", days === null ? {} : { days }),
  endVacation: () => request<Vacation>("DELETE", "/api/me/vacation"),
  settings: () => request<FriendSettings>("GET", "/api/me/friend-settings"),
  setSettings: (body: Partial<FriendSettings>) => request<FriendSettings>("PUT", "/api/me/friend-settings", body),
};

/** A date and time in the reader's language. */
export function whenText(t: Translator, iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : new Intl.DateTimeFormat(t.lang, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

// -- the open challenges, shared by the header's badge and the friends page ----------------

let known: Challenges | null = null;
const listeners = new Set<() => void>();

function setKnown(next: Challenges | null): void {
  known = next;
  for (const listener of listeners) listener();
}

/** Ask the server for the open challenges (everyone showing them is told). */
export function refreshChallenges(): Promise<Challenges | null> {
  return friends.challenges().then(
    (found) => {
      setKnown(found);
      return found;
    },
    () => null,
  );
}

function useChallenges(): Challenges | null {
  const [, bump] = useState(0);
  useEffect(() => {
    const listener = () => bump((n) => n + 1);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return known;
}

/** The header's badge: how many challenges wait for the account's answer, a link to the
 * friends page (nothing while none waits). */
export function ChallengeBadge() {
  const t = useT();
  const announce = useAnnounce();
  const { account } = useSession();
  const challenges = useChallenges();
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!account) {
      setKnown(null);
      seen.current = null;
    }
  }, [account?.name]);
  usePoll(account?.name, refreshChallenges);
  const waiting = account ? challenges?.to_me ?? [] : [];
  // a new challenge is said to screen readers once (not those there when the page opened)
  useEffect(() => {
    if (!challenges) return;
    const ids = new Set(challenges.to_me.map((c) => c.id));
    if (seen.current) {
      const fresh = challenges.to_me.find((c) => !seen.current?.has(c.id));
      if (fresh) announce(t.t("web.friends.challenge_from", { name: fresh.by, game: t.t(`title.${fresh.game}`) }));
    }
    seen.current = ids;
  }, [challenges]);
  if (waiting.length === 0) return null;
  return (
    <a class="challenge-badge" href="#/friends" data-testid="challenge-badge"
      aria-label={t.t("web.friends.badge", { count: waiting.length })}>
      <span aria-hidden="true">⚔ </span>
      {waiting.length}
    </a>
  );
}

// -- the friends page -------------------------------------------------------------------------

/** The challenge form for one account: game, rated, time control. */
function ChallengeForm({ name, done, close }: { name: string; done: () => void; close: () => void }) {
  const t = useT();
  const announce = useAnnounce();
  const [game, setGame] = useState<GameName>("board");
  const [rated, setRated] = useState(false);
  const [time, setTime] = useState<TimeSetting>({ ...DEFAULT_TIME, kind: "correspondence" });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await friends.challenge({ to: name, game, rated, time: timeControl(time) });
      announce(t.t("web.friends.sent", { name }));
      done();
    } catch (e) {
      setError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };
  const id = `challenge-${name}`;
  return (
    <form class="panel challenge-form" onSubmit={submit} aria-labelledby={id} data-testid="challenge-form">
      <h3 id={id}>{t.t("web.friends.challenge_name", { name })}</h3>
      <fieldset>
        <legend>{t.t("web.game")}</legend>
        {(["board", "cards"] as const).map((g, i) => (
          <label key={g} class="radio">
            <input ref={i === 0 ? first : undefined} type="radio" name={`${id}-game`} value={g}
              checked={game === g} onChange={() => setGame(g)} />
            {t.t(`title.${g}`)}
          </label>
        ))}
      </fieldset>
      <label class="check">
        <input type="checkbox" checked={rated} data-testid="challenge-rated"
          onChange={(e) => setRated((e.target as HTMLInputElement).checked)} />
        {t.t("web.rated.choice")}
      </label>
      <TimeChoice value={time} set={setTime} none={t.t("web.time.kind.none")} idPrefix="challenge" />
      {error && <p class="error" role="alert" data-testid="challenge-error">{error}</p>}
      <p class="form-buttons">
        <button type="submit" class="primary" disabled={busy} data-testid="challenge-send">{t.t("web.friends.send")}</button>
        <button type="button" onClick={close}>{t.t("web.friends.close")}</button>
      </p>
    </form>
  );
}

function onlineWords(t: Translator, f: Followed): string {
  if (f.online === null) return t.t("web.friends.hidden");
  return f.online ? t.t("web.friends.online") : t.t("web.friends.offline");
}

function FollowedItem({ f, challenging, setChallenging, reload }: {
  f: Followed;
  challenging: boolean;
  setChallenging: (name: string | null) => void;
  reload: () => void;
}) {
  const t = useT();
  const announce = useAnnounce();
  const [error, setError] = useState<string | null>(null);
  return (
    <li class="followed" data-followed={f.name} data-online={f.online === null ? "hidden" : f.online ? "yes" : "no"}>
      <p class="followed-line">
        <span class={`presence ${f.online ? "on" : "off"}`} aria-hidden="true" />
        <a href={`#/player/${enc(f.name)}`}><strong>{f.name}</strong></a>{" "}
        <span class="muted" data-testid="followed-online">{onlineWords(t, f)}</span>
        {f.vacation && (
          <span class="tag" data-testid="followed-vacation">{t.t("web.vacation.until", { date: whenText(t, f.vacation) })}</span>
        )}
      </p>
      {f.playing.length > 0 && (
        <ul class="followed-matches">
          {f.playing.map((m) => (
            <li key={m.id}>
              {t.t(`title.${m.game}`)}{" "}
              <a class="small-button" href={`#/watch/${m.id}`} data-watch={m.id}>{t.t("web.watch")}</a>
            </li>
          ))}
        </ul>
      )}
      <p class="form-buttons">
        <button type="button" class="small-button" data-testid="challenge" aria-expanded={challenging}
          aria-label={t.t("web.friends.challenge_name", { name: f.name })}
          onClick={() => setChallenging(challenging ? null : f.name)}>
          {t.t("web.friends.challenge")}
        </button>
        <button type="button" class="small-button" data-testid="unfollow"
          aria-label={t.t("web.friends.unfollow_name", { name: f.name })}
          onClick={() => {
            setError(null);
            friends.unfollow(f.name).then(() => {
              announce(t.t("web.friends.unfollowed", { name: f.name }));
              reload();
            }, (e) => setError(errorText(t, e)));
          }}>
          {t.t("web.friends.unfollow")}
        </button>
      </p>
      {error && <p class="error" role="alert">{error}</p>}
      {challenging && (
        <ChallengeForm name={f.name} close={() => setChallenging(null)} done={() => {
          setChallenging(null);
          void refreshChallenges();
        }} />
      )}
    </li>
  );
}

/** Open the match ``matchId`` once its seat is among the account's matches (their tokens
 * come with them), asking a few times. */
async function openWhenSeated(matchId: string, go: (hash: string) => void): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const found = await refreshMatches();
    const all = found ? [...found.waiting, ...found.running, ...found.open] : [];
    if (all.some((m) => m.match.id === matchId)) break;
    await new Promise((resolve) => window.setTimeout(resolve, 300 * (i + 1)));
  }
  void refreshChallenges();
  go(`#/match/${matchId}`);
}

function ChallengeItem({ c, mine, go }: { c: Challenge; mine: boolean; go: (hash: string) => void }) {
  const t = useT();
  const announce = useAnnounce();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const game = t.t(`title.${c.game}`);
  const act = (work: () => Promise<unknown>, said: string) => {
    setBusy(true);
    setError(null);
    work().then(() => {
      announce(said);
      void refreshChallenges();
    }, (e) => setError(errorText(t, e))).finally(() => setBusy(false));
  };
  return (
    <li class="challenge" data-challenge={c.id}>
      <p>
        {mine ? t.t("web.friends.challenge_to", { name: c.for, game }) : t.t("web.friends.challenge_from", { name: c.by, game })}
        {c.rated && <> · <span class="tag">{t.t("web.rated")}</span></>}
        {c.time && <> · <span class="muted">{t.t(`web.time.kind.${c.time.kind}`)}</span></>}
      </p>
      <p class="form-buttons">
        {mine ? (
          <button type="button" class="small-button" disabled={busy} data-testid="challenge-cancel"
            onClick={() => act(() => friends.cancel(c.id), t.t("web.friends.cancelled"))}>
            {t.t("web.friends.cancel")}
          </button>
        ) : (
          <>
            <button type="button" class="primary small-button" disabled={busy} data-testid="challenge-accept"
              onClick={() => {
                setBusy(true);
                setError(null);
                friends.accept(c.id).then(async (started) => {
                  if (started.match) await openWhenSeated(started.match, go);
                }, (e) => setError(errorText(t, e))).finally(() => setBusy(false));
              }}>
              {t.t("web.friends.accept")}
            </button>
            <button type="button" class="small-button" disabled={busy} data-testid="challenge-decline"
              onClick={() => act(() => friends.decline(c.id), t.t("web.friends.declined"))}>
              {t.t("web.friends.decline")}
            </button>
          </>
        )}
      </p>
      {error && <p class="error" role="alert">{error}</p>}
    </li>
  );
}

export function FriendsPage({ go, challenge }: { go: (hash: string) => void; challenge?: string }) {
  const t = useT();
  const announce = useAnnounce();
  const { account, known: sessionKnown } = useSession();
  const [list, setList] = useState<Followed[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const [challenging, setChallenging] = useState<string | null>(challenge ?? null);
  const challenges = useChallenges();
  const load = () => {
    friends.following().then((found) => {
      setList(found);
      setError(null);
    }, (e) => setError(errorText(t, e)));
  };
  useEffect(() => {
    if (!account) return undefined;
    load();
    void refreshChallenges();
    const timer = window.setInterval(load, 30_000);
    return () => window.clearInterval(timer);
  }, [account?.name]);
  // Live while this page is open: the lobby's stream tells this account of the challenges
  // to it (`challenge`) and of its challenges' matches (`started`): the challenger waiting
  // here goes to the match as soon as it is accepted.
  useEffect(() => {
    if (!account) return undefined;
    const source = new EventSource("/api/lobby/events");
    source.addEventListener("challenge", () => {
      void refreshChallenges();
    });
    source.addEventListener("started", (event) => {
      let data: { seek?: string; match?: string } = {};
      try {
        data = JSON.parse((event as MessageEvent<string>).data) as typeof data;
      } catch {
        return;
      }
      const mine = (known?.from_me ?? []).some((c) => c.id === data.seek);
      if (mine && data.match) {
        announce(t.t("web.lobby.started"));
        void openWhenSeated(data.match, go);
      }
    });
    return () => source.close();
  }, [account?.name]);
  if (!sessionKnown) return <main id="main"><p role="status">{t.t("web.loading")}</p></main>;
  if (!account) {
    return (
      <main id="main" class="friends-page">
        <h1>{t.t("web.friends")}</h1>
        <p>{t.t("web.account.needed")}</p>
        <p><a class="button primary" href={`#/login/${enc("#/friends")}`}>{t.t("web.account.log_in")}</a></p>
      </main>
    );
  }
  const follow = async (event: Event) => {
    event.preventDefault();
    const wanted = name.trim();
    if (!wanted) return;
    setFormError(null);
    try {
      await friends.follow(wanted);
      announce(t.t("web.friends.followed", { name: wanted }));
      setName("");
      load();
    } catch (e) {
      setFormError(errorText(t, e));
    }
  };
  const toMe = challenges?.to_me ?? [];
  const fromMe = challenges?.from_me ?? [];
  const listed = list ?? [];
  // a challenge asked for by name (a player's page) to someone not followed
  const outside = challenging && !listed.some((f) => f.name.toLowerCase() === challenging.toLowerCase());
  return (
    <main id="main" class="friends-page">
      <h1>{t.t("web.friends")}</h1>
      <section class="panel" aria-labelledby="challenges-title" data-testid="challenges">
        <h2 id="challenges-title">{t.t("web.friends.to_me")}</h2>
        {toMe.length === 0 ? <p class="muted">{t.t("web.friends.no_challenges")}</p> : (
          <ul class="challenge-list">{toMe.map((c) => <ChallengeItem key={c.id} c={c} mine={false} go={go} />)}</ul>
        )}
        {fromMe.length > 0 && (
          <>
            <h2>{t.t("web.friends.from_me")}</h2>
            <ul class="challenge-list" data-testid="my-challenges">
              {fromMe.map((c) => <ChallengeItem key={c.id} c={c} mine go={go} />)}
            </ul>
          </>
        )}
      </section>
      {outside && (
        <ChallengeForm name={challenging} close={() => setChallenging(null)} done={() => {
          setChallenging(null);
          void refreshChallenges();
        }} />
      )}
      <section class="panel" aria-labelledby="following-title" data-testid="following">
        <h2 id="following-title">{t.t("web.friends.following")}</h2>
        <form class="follow-form" onSubmit={follow} data-testid="follow-form">
          <label>
            {t.t("web.friends.follow_label")}
            <input type="text" value={name} required maxLength={32} autoCapitalize="none" spellcheck={false}
              data-testid="follow-name" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </label>
          <button type="submit" data-testid="follow-button">{t.t("web.friends.follow")}</button>
        </form>
        {formError && <p class="error" role="alert" data-testid="follow-error">{formError}</p>}
        {error && <p class="error" role="alert">{error}</p>}
        {list === null ? <p role="status">{t.t("web.loading")}</p> : listed.length === 0 ? (
          <p class="muted" data-testid="following-none">{t.t("web.friends.none")}</p>
        ) : (
          <ul class="followed-list">
            {listed.map((f) => (
              <FollowedItem key={f.name} f={f} reload={load}
                challenging={challenging?.toLowerCase() === f.name.toLowerCase()} setChallenging={setChallenging} />
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}

// -- on a player's page ---------------------------------------------------------------------

/** "Follow" / "Stop following" and "Challenge" on another account's page. */
export function FollowButtons({ name }: { name: string }) {
  const t = useT();
  const announce = useAnnounce();
  const [following, setFollowing] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    friends.following().then(
      (found) => setFollowing(found.some((f) => f.name.toLowerCase() === name.toLowerCase())),
      () => setFollowing(false),
    );
  }, [name]);
  return (
    <span class="follow-wrap">
      <button type="button" class="small-button" data-testid="follow" aria-pressed={!!following}
        disabled={following === null}
        onClick={() => {
          setError(null);
          const on = !following;
          (on ? friends.follow(name) : friends.unfollow(name)).then(() => {
            setFollowing(on);
            announce(t.t(on ? "web.friends.followed" : "web.friends.unfollowed", { name }));
          }, (e) => setError(errorText(t, e)));
        }}>
        {t.t(following ? "web.friends.unfollow" : "web.friends.follow")}
      </button>{" "}
      <a class="small-button button" href={`#/friends/challenge/${enc(name)}`} data-testid="challenge-link"
        aria-label={t.t("web.friends.challenge_name", { name })}>
        {t.t("web.friends.challenge")}
      </a>
      {error && <span class="error" role="alert">{error}</span>}
    </span>
  );
}

// -- on the settings page -------------------------------------------------------------------

/** Vacation: the days left, start (for a number of days, or all left) and end early. */
export function VacationSettings() {
  const t = useT();
  const announce = useAnnounce();
  const [state, setState] = useState<Vacation | null>(null);
  const [days, setDays] = useState("");
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    friends.vacation().then(setState, (e) => setError(errorText(t, e)));
  }, []);
  const run = (work: Promise<Vacation>, said: string) => {
    setError(null);
    work.then((next) => {
      setState(next);
      announce(said);
    }, (e) => setError(errorText(t, e)));
  };
  return (
    <section class="panel" aria-labelledby="set-vacation" data-testid="settings-vacation">
      <h2 id="set-vacation">{t.t("web.vacation.title")}</h2>
      <p class="muted">{t.t("web.vacation.text", { per_year: state?.per_year ?? 30 })}</p>
      {state && (
        <p data-testid="vacation-left">{t.t("web.vacation.left", { count: state.left })}</p>
      )}
      {state?.until ? (
        <>
          <p class="banner ok" role="status" data-testid="vacation-on">{t.t("web.vacation.on", { date: whenText(t, state.until) })}</p>
          <button type="button" data-testid="vacation-end"
            onClick={() => run(friends.endVacation(), t.t("web.vacation.ended"))}>
            {t.t("web.vacation.end")}
          </button>
        </>
      ) : state && state.left > 0 ? (
        <form onSubmit={(event) => {
          event.preventDefault();
          run(friends.startVacation(days ? Number(days) : null), t.t("web.vacation.started"));
        }} data-testid="vacation-form">
          <label>
            {t.t("web.vacation.days")}
            <input type="number" min={1} max={state.left} step={1} value={days} inputMode="numeric"
              placeholder={String(state.left)} data-testid="vacation-days"
              onInput={(e) => setDays((e.target as HTMLInputElement).value)} />
          </label>
          <span class="help">{t.t("web.vacation.days_help")}</span>
          <button type="submit" data-testid="vacation-start">{t.t("web.vacation.start")}</button>
        </form>
      ) : null}
      {error && <p class="error" role="alert" data-testid="vacation-error">{error}</p>}
    </section>
  );
}

/** Hide whether I'm online; e-mail me challenges. */
export function FriendSettingsPanel() {
  const t = useT();
  const announce = useAnnounce();
  const [state, setState] = useState<FriendSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    friends.settings().then(setState, (e) => setError(errorText(t, e)));
  }, []);
  const change = (body: Partial<FriendSettings>) => {
    setError(null);
    friends.setSettings(body).then((next) => {
      setState(next);
      announce(t.t("web.settings.saved"));
    }, (e) => setError(errorText(t, e)));
  };
  return (
    <section class="panel" aria-labelledby="set-friends" data-testid="settings-friends">
      <h2 id="set-friends">{t.t("web.settings.friends")}</h2>
      {state && (
        <>
          <label class="check">
            <input type="checkbox" checked={state.hide_online} data-testid="hide-online"
              onChange={(e) => change({ hide_online: (e.target as HTMLInputElement).checked })} />
            {t.t("web.settings.hide_online")}
          </label>
          <label class="check">
            <input type="checkbox" checked={state.email_challenges} data-testid="email-challenges"
              onChange={(e) => change({ email_challenges: (e.target as HTMLInputElement).checked })} />
            {t.t("web.settings.email_challenges")}
          </label>
        </>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </section>
  );
}
