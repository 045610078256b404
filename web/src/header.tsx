// The header of every page: the start page, the lobby and the leaderboard, the language, and
// either "Log in" / "Register" or the account (its menu: my page, settings, log out) with the
// turn badge — how many of the account's matches wait for its move, polled (every 15 s while
// the page is seen, every minute in the background), with the list of those matches, and a
// browser notification when one more starts waiting while the tab is in the background (only
// where the player asked for it, with a click: settings or the badge's list).
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { dismissNotice, logOut, matchRated, matchTime, notifyWanted, refreshMatches, setNotify, usePoll, useSession } from "./community";
import type { AccountMatch } from "./community";
import { useAnnounce, useT } from "./context";
import { seatNames } from "./game";
import { isModerator } from "./moderation";
import { ChallengeBadge } from "./friends";
import { MatchKind } from "./ratings";

/** How often the turn badge asks, in milliseconds: the page seen, in the background. */

/** A button that opens a box under it: Escape or a click elsewhere closes it (Escape gives
 * the focus back to the button), and so does following a link in it. */
function usePopup(): {
  open: boolean;
  setOpen: (open: boolean) => void;
  wrap: { current: HTMLDivElement | null };
  button: { current: HTMLButtonElement | null };
} {
  const [open, setOpen] = useState(false);
  const wrap = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        button.current?.focus();
      }
    };
    const onDown = (event: Event) => {
      if (wrap.current && !wrap.current.contains(event.target as Node)) setOpen(false);
    };
    const onHash = () => setOpen(false);
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    document.addEventListener("focusin", onDown);
    window.addEventListener("hashchange", onHash);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown);
      document.removeEventListener("focusin", onDown);
      window.removeEventListener("hashchange", onHash);
    };
  }, [open]);
  return { open, setOpen, wrap, button };
}

/** "Tell me when it is my turn": asks the browser's permission on the click itself. */
export function NotifyToggle() {
  const t = useT();
  const [on, setOn] = useState(notifyWanted);
  const [refused, setRefused] = useState(false);
  const supported = "Notification" in window;
  if (!supported) return <p class="muted">{t.t("web.notify.unsupported")}</p>;
  return (
    <>
      <label class="check notify-toggle">
        <input type="checkbox" checked={on} data-testid="notify-toggle" onChange={(e) => {
          const wanted = (e.target as HTMLInputElement).checked;
          void setNotify(wanted).then((granted) => {
            setOn(granted);
            setRefused(wanted && !granted);
          });
        }} />
        {t.t("web.notify.toggle")}
      </label>
      {refused && <p class="muted" role="status">{t.t("web.notify.refused")}</p>}
    </>
  );
}

/** A match of the account in a line: the game and the other players. */
function matchLine(t: ReturnType<typeof useT>, m: AccountMatch): string {
  const names = seatNames(t, m.match).filter((_, seat) => seat !== m.seat);
  return t.t("web.badge.match", { game: t.t(`title.${m.match.game}`), names: names.join(", ") });
}

function TurnBadge() {
  const t = useT();
  const { account, matches } = useSession();
  const { open, setOpen, wrap, button } = usePopup();
  const waiting = matches?.waiting ?? [];
  const count = waiting.length;

  // Poll while logged in: often while the page is seen, seldom in the background, at once
  // when it comes back into view.
  usePoll(account?.name, refreshMatches);

  // One more match waiting while the tab is in the background: the browser's notification.
  const before = useRef<number | null>(null);
  useEffect(() => {
    if (!matches) return;
    const last = before.current;
    before.current = count;
    if (last === null || count <= last || !document.hidden || !notifyWanted()) return;
    try {
      const first = waiting[0];
      const note = new Notification(t.t("web.notify.title"), {
        body: t.t("web.notify.body", { count }),
        tag: "keltis-turn",
        lang: t.lang,
      });
      note.onclick = () => {
        window.focus();
        if (first) location.hash = `#/match/${first.match.id}`;
        note.close();
      };
    } catch {
      // (a browser that has Notification but refuses it here: the badge says it)
    }
  }, [matches]);

  return (
    <div class="popup-wrap" ref={wrap}>
      <button type="button" ref={button} class={`turn-badge${count ? " waiting" : ""}`} data-testid="turn-badge"
        data-count={count} aria-expanded={open} aria-controls="turn-list" onClick={() => setOpen(!open)}
        aria-label={t.t("web.badge.label", { count })}>
        <span aria-hidden="true">▶</span>
        <span class="badge-count" aria-hidden="true">{count}</span>
      </button>
      {open && (
        <div class="popup turn-list" id="turn-list">
          <h2>{t.t("web.badge.title")}</h2>
          {count === 0 ? (
            <p class="muted">{t.t("web.badge.none")}</p>
          ) : (
            <ul>
              {waiting.map((m) => (
                <li key={m.match.id}>
                  <a href={`#/match/${m.match.id}`} data-match={m.match.id}>{matchLine(t, m)}</a>{" "}
                  <span class="match-kind"><MatchKind rated={matchRated(m.match)} time={matchTime(m.match)} /></span>
                </li>
              ))}
            </ul>
          )}
          <NotifyToggle />
        </div>
      )}
    </div>
  );
}

/** What the account is told on any page, from the turn badge's polling: another player said
 * no to a rematch (declined the one it asked for, or withdrew the one it was asked to
 * join), each until dismissed. */
function Notices() {
  const t = useT();
  const { matches } = useSession();
  const notices = matches?.notices ?? [];
  if (notices.length === 0) return null;
  return (
    <div class="notices" role="status" data-testid="notices">
      {notices.map((n) => (
        <p key={n.id} class="notice" data-notice={n.id}>
          <span>{t.t(n.answer === "withdrew" ? "web.again.withdrew" : "web.again.declined", { name: n.name })}</span>{" "}
          <a href={`#/match/${n.match}`} onClick={() => void dismissNotice(n.id)}>{t.t("web.notice.open")}</a>{" "}
          <button type="button" class="small-button" data-testid="dismiss-notice" onClick={() => void dismissNotice(n.id)}>
            {t.t("web.notice.dismiss")}
          </button>
        </p>
      ))}
    </div>
  );
}

function AccountMenu({ name, go, moderator }: { name: string; go: (hash: string) => void; moderator: boolean }) {
  const t = useT();
  const announce = useAnnounce();
  const { open, setOpen, wrap, button } = usePopup();
  return (
    <div class="popup-wrap" ref={wrap}>
      <button type="button" ref={button} class="account-button" data-testid="account-menu" aria-expanded={open}
        aria-controls="account-list" onClick={() => setOpen(!open)}>
        <span class="account-name">{name}</span> <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul class="popup account-list" id="account-list" aria-label={name}>
          <li><a href={`#/player/${encodeURIComponent(name)}`}>{t.t("web.account.page")}</a></li>
          <li><a href="#/settings">{t.t("web.settings")}</a></li>
          {moderator && <li><a href="#/moderation" data-testid="nav-moderation">{t.t("web.moderation")}</a></li>}
          <li>
            <button type="button" data-testid="log-out" onClick={() => {
              setOpen(false);
              void logOut().finally(() => {
                announce(t.t("web.account.logged_out"));
                go("#/");
              });
            }}>{t.t("web.account.log_out")}</button>
          </li>
        </ul>
      )}
    </div>
  );
}

function NavLink({ href, here, children, testid }: { href: string; here: string; children: ComponentChildren; testid?: string }) {
  const current =
    here === href ||
    (href.startsWith("#/ratings") && here.startsWith("#/ratings")) ||
    (href === "#/tournaments" && here.startsWith("#/tournaments/"));
  return <a href={href} aria-current={current ? "page" : undefined} data-testid={testid}>{children}</a>;
}

export function Header({ hash, lang, names, chooseLang, go }: {
  hash: string;
  lang: string;
  names: Record<string, string>;
  chooseLang: (lang: string) => void;
  go: (hash: string) => void;
}) {
  const t = useT();
  const { account, known } = useSession();
  const [menu, setMenu] = useState(false);
  useEffect(() => setMenu(false), [hash]);
  // Where a log-in returns to: this page (not the log-in or register pages themselves).
  const back = /^#\/(login|register)\b/.test(hash) ? "" : `/${encodeURIComponent(hash)}`;
  return (
    <header class="top">
      <a href="#/" class="brand" aria-label={t.t("web.home")}>
        <span aria-hidden="true">☘</span> <span class="brand-name">Keltis</span>
      </a>
      <button type="button" class="menu-button" aria-expanded={menu} aria-controls="top-nav" data-testid="menu-button"
        onClick={() => setMenu(!menu)} aria-label={t.t("web.nav")}>
        <span aria-hidden="true">☰</span>
      </button>
      <nav id="top-nav" class={`top-nav${menu ? " open" : ""}`} aria-label={t.t("web.nav")}>
        <NavLink href="#/lobby" here={hash} testid="nav-lobby">{t.t("web.lobby")}</NavLink>
        <NavLink href="#/tournaments" here={hash} testid="nav-tournaments">{t.t("web.tournaments")}</NavLink>
        <NavLink href="#/ratings/board" here={hash} testid="nav-ratings">{t.t("web.ratings")}</NavLink>
        {account && <NavLink href="#/friends" here={hash} testid="nav-friends">{t.t("web.friends")}</NavLink>}
        {known && !account && (
          <>
            <NavLink href={`#/login${back}`} here={hash} testid="nav-login">{t.t("web.account.log_in")}</NavLink>
            <NavLink href={`#/register${back}`} here={hash} testid="nav-register">{t.t("web.account.register")}</NavLink>
          </>
        )}
      </nav>
      <div class="top-right">
        {known && !account && !/^#\/login\b/.test(hash) && (
          <a class="login-short" href={`#/login${back}`}>{t.t("web.account.log_in")}</a>
        )}
        <label class="lang">
          <span>{t.t("web.language")}</span>
          <select value={lang} data-testid="language" onChange={(e) => chooseLang((e.target as HTMLSelectElement).value)}>
            {Object.keys(names).map((code) => (
              <option key={code} value={code} lang={code}>{names[code] ?? code}</option>
            ))}
          </select>
        </label>
        {account && <ChallengeBadge />}
        {account && <TurnBadge />}
        {account && <AccountMenu name={account.name} go={go} moderator={isModerator(account)} />}
      </div>
      {account && <Notices />}
    </header>
  );
}
