// An account of one's own: register (the guest seats this browser holds go with it), log in,
// and the settings — language, e-mail (confirmed or not: its link sent again) and e-mails on
// one's turn, notifications, the password, deleting the account. Every refusal is the
// server's message, in the player's language.
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "./api";
import { accounts, deleteAccount, errorText, guestSeats, logIn, register, updateAccount, useSession } from "./community";
import { useAnnounce, useT } from "./context";
import { ExportData } from "./export";
import { FriendSettingsPanel, VacationSettings } from "./friends";
import { NotifyToggle } from "./header";
import { recovery } from "./recovery";

/** Where to go after logging in: the page the player came from (never back to a log-in). */
function after(next: string | undefined): string {
  return next && next.startsWith("#/") && !/^#\/(login|register|forgot|reset|confirm)\b/.test(next) ? next : "#/";
}

const NAME_PATTERN = "[A-Za-z0-9_\\-]{3,20}";
const NAME_RULE = new RegExp(`^${NAME_PATTERN}$`);

/** The registration field a refusal is about (it clears once that field is fixed). */
type Field = "name" | "password" | "again";

function fieldOf(error: unknown): Field | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === "account.bad_name" || error.code === "account.name_taken") return "name";
  if (error.code.startsWith("account.") && error.code.includes("password")) return "password";
  return null;
}

export function LogIn({ go, next, chooseLang }: { go: (hash: string) => void; next?: string; chooseLang: (lang: string) => void }) {
  const t = useT();
  const announce = useAnnounce();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const seats = guestSeats().length;
  const [take, setTake] = useState(true);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const account = await logIn(name.trim(), password, take && seats > 0);
      announce(t.t("web.account.logged_in", { name: account.name }));
      if (account.language && account.language !== t.lang) chooseLang(account.language);
      go(after(next));
    } catch (e) {
      setError(errorText(t, e));
      setBusy(false);
    }
  };
  return (
    <main id="main" class="account-page">
      <h1>{t.t("web.account.log_in")}</h1>
      <form class="panel narrow" onSubmit={submit} data-testid="login-form">
        <label>
          {t.t("web.account.name")}
          <input type="text" value={name} required autoComplete="username" autoCapitalize="none" spellcheck={false}
            onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          {t.t("web.account.password")}
          <input type="password" value={password} required autoComplete="current-password"
            onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
        </label>
        {seats > 0 && (
          <label class="check">
            <input type="checkbox" checked={take} onChange={(e) => setTake((e.target as HTMLInputElement).checked)} />
            {t.t("web.account.take_seats", { count: seats })}
          </label>
        )}
        {error && <p class="error" role="alert" data-testid="account-error">{error}</p>}
        <button type="submit" class="primary" disabled={busy}>{t.t("web.account.log_in")}</button>
        <p class="muted">
          <a href="#/forgot" data-testid="forgot-link">{t.t("web.account.forgot")}</a>
        </p>
        <p class="muted">
          {t.t("web.account.no_account")}{" "}
          <a href={`#/register${next ? `/${encodeURIComponent(next)}` : ""}`}>{t.t("web.account.register")}</a>
        </p>
      </form>
    </main>
  );
}

export function Register({ go, next, lang }: { go: (hash: string) => void; next?: string; lang: string }) {
  const t = useT();
  const announce = useAnnounce();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [email, setEmail] = useState("");
  // The refusal shown, and the field it is about with that field's value then: it clears as
  // soon as the player changes that field to a value that may pass (a name the rule allows,
  // the two passwords alike), instead of staying until the next try.
  const [error, setError] = useState<{ text: string; field: Field | null; value: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const seats = guestSeats().length;
  const fixed = (field: Field, value: string, now: { password: string; again: string }) => {
    if (!error || value === error.value) return;
    if (field === "name" && error.field === "name" && NAME_RULE.test(value.trim())) setError(null);
    if (field === "password" && error.field === "password") setError(null);
    if (error.field === "again" && now.password === now.again) setError(null);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    if (password !== again) {
      setError({ text: t.t("web.account.passwords_differ"), field: "again", value: again });
      return;
    }
    setBusy(true);
    try {
      const zone = browserTimeZone();
      const account = await register({
        name: name.trim(), password, language: lang,
        ...(email.trim() ? { email: email.trim() } : {}), ...(zone ? { time_zone: zone } : {}),
      });
      announce(t.t("web.account.welcome", { name: account.name }));
      go(after(next));
    } catch (e) {
      const field = fieldOf(e);
      setError({ text: errorText(t, e), field, value: field === "name" ? name.trim() : field === "password" ? password : "" });
      setBusy(false);
    }
  };
  return (
    <main id="main" class="account-page">
      <h1>{t.t("web.account.register")}</h1>
      <p class="muted">{t.t("web.account.why")}</p>
      <form class="panel narrow" onSubmit={submit} data-testid="register-form">
        <label>
          {t.t("web.account.name")}
          <input type="text" value={name} required minLength={3} maxLength={20} pattern={NAME_PATTERN}
            title={t.t("web.account.name_help")} data-testid="register-name"
            autoComplete="username" autoCapitalize="none" spellcheck={false} aria-describedby="name-help"
            aria-invalid={error?.field === "name" ? "true" : undefined}
            onInput={(e) => {
              const value = (e.target as HTMLInputElement).value;
              setName(value);
              fixed("name", value.trim(), { password, again });
            }} />
        </label>
        <span class="help" id="name-help">{t.t("web.account.name_help")}</span>
        <label>
          {t.t("web.account.password")}
          <input type="password" value={password} required minLength={8} maxLength={200} autoComplete="new-password"
            data-testid="register-password" aria-describedby="password-help"
            aria-invalid={error?.field === "password" ? "true" : undefined}
            onInput={(e) => {
              const value = (e.target as HTMLInputElement).value;
              setPassword(value);
              fixed("password", value, { password: value, again });
            }} />
        </label>
        <span class="help" id="password-help">{t.t("web.account.password_help")}</span>
        <label>
          {t.t("web.account.password_again")}
          <input type="password" value={again} required minLength={8} maxLength={200} autoComplete="new-password"
            data-testid="register-again" aria-invalid={error?.field === "again" ? "true" : undefined}
            onInput={(e) => {
              const value = (e.target as HTMLInputElement).value;
              setAgain(value);
              fixed("again", value, { password, again: value });
            }} />
        </label>
        <label>
          {t.t("web.account.email_optional")}
          <input type="email" value={email} autoComplete="email" aria-describedby="email-help"
            onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
        </label>
        <span class="help" id="email-help">{t.t("web.account.email_help")}</span>
        {seats > 0 && <p class="muted">{t.t("web.account.keeps_seats", { count: seats })}</p>}
        {error && <p class="error" role="alert" data-testid="account-error">{error.text}</p>}
        <button type="submit" class="primary" disabled={busy}>{t.t("web.account.create")}</button>
        <p class="muted">
          {t.t("web.account.have_account")}{" "}
          <a href={`#/login${next ? `/${encodeURIComponent(next)}` : ""}`}>{t.t("web.account.log_in")}</a>
        </p>
      </form>
    </main>
  );
}

/** A form's outcome line: the server's refusal, or what was done. */
function Outcome({ error, done }: { error: string | null; done: string | null }) {
  if (error) return <p class="error" role="alert">{error}</p>;
  if (done) return <p class="banner ok" role="status">{done}</p>;
  return null;
}

export function Settings({ go, lang, names, chooseLang }: {
  go: (hash: string) => void;
  lang: string;
  names: Record<string, string>;
  chooseLang: (lang: string) => void;
}) {
  const t = useT();
  const { account, known } = useSession();
  const [email, setEmail] = useState<string | null>(null);
  const [turns, setTurns] = useState<boolean | null>(null);
  const [mailState, setMailState] = useState<{ error: string | null; done: string | null }>({ error: null, done: null });
  const [linkState, setLinkState] = useState<{ error: string | null; done: string | null }>({ error: null, done: null });
  const [old, setOld] = useState("");
  const [fresh, setFresh] = useState("");
  const [fresh2, setFresh2] = useState("");
  const [pwState, setPwState] = useState<{ error: string | null; done: string | null }>({ error: null, done: null });
  const [confirm, setConfirm] = useState("");
  const [delError, setDelError] = useState<string | null>(null);
  if (!known) return <main id="main"><p role="status">{t.t("web.loading")}</p></main>;
  if (!account) {
    return (
      <main id="main" class="account-page">
        <h1>{t.t("web.settings")}</h1>
        <p>{t.t("web.account.needed")}</p>
        <p><a class="button primary" href={`#/login/${encodeURIComponent("#/settings")}`}>{t.t("web.account.log_in")}</a></p>
      </main>
    );
  }
  const shownEmail = email ?? account.email ?? "";
  const shownTurns = turns ?? !!account.email_turns;
  const saveMail = async (event: Event) => {
    event.preventDefault();
    setMailState({ error: null, done: null });
    setLinkState({ error: null, done: null });
    try {
      const saved = await updateAccount({ email: shownEmail.trim() || null, email_turns: shownTurns });
      const asked = saved.email && saved.email !== account.email && !saved.email_confirmed;
      setMailState({ error: null, done: asked ? t.t("web.settings.email_link_sent", { email: saved.email }) : t.t("web.settings.saved") });
    } catch (e) {
      setMailState({ error: errorText(t, e), done: null });
    }
  };
  const resend = async () => {
    setLinkState({ error: null, done: null });
    try {
      const sent = await recovery.resend();
      setLinkState({ error: null, done: t.t("web.settings.email_resent", { email: sent.email }) });
    } catch (e) {
      setLinkState({ error: errorText(t, e), done: null });
    }
  };
  const changePassword = async (event: Event) => {
    event.preventDefault();
    if (fresh !== fresh2) {
      setPwState({ error: t.t("web.account.passwords_differ"), done: null });
      return;
    }
    try {
      await accounts.password(old, fresh);
      setOld("");
      setFresh("");
      setFresh2("");
      setPwState({ error: null, done: t.t("web.settings.password_changed") });
    } catch (e) {
      setPwState({ error: errorText(t, e), done: null });
    }
  };
  const remove = async (event: Event) => {
    event.preventDefault();
    setDelError(null);
    try {
      await deleteAccount(confirm);
      deletedName = account.name;
      go("#/deleted");
    } catch (e) {
      setDelError(errorText(t, e));
    }
  };
  return (
    <main id="main" class="account-page settings">
      <h1>{t.t("web.settings")}</h1>
      <p class="muted">{t.t("web.settings.as", { name: account.name })}</p>
      <section class="panel" aria-labelledby="set-lang">
        <h2 id="set-lang">{t.t("web.language")}</h2>
        <label>
          {t.t("web.settings.language")}
          <select value={lang} data-testid="settings-language" onChange={(e) => chooseLang((e.target as HTMLSelectElement).value)}>
            {Object.keys(names).map((code) => <option key={code} value={code} lang={code}>{names[code] ?? code}</option>)}
          </select>
        </label>
      </section>
      <form class="panel" onSubmit={saveMail} aria-labelledby="set-mail" data-testid="settings-mail">
        <h2 id="set-mail">{t.t("web.settings.email")}</h2>
        <label>
          {t.t("web.account.email")}
          <input type="email" value={shownEmail} autoComplete="email" aria-describedby={account.email ? "email-status" : undefined}
            onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
        </label>
        {account.email && (
          <div class="email-status" data-testid="email-status" data-confirmed={account.email_confirmed ? "yes" : "no"}>
            <span class="help" id="email-status">
              {t.t(account.email_confirmed ? "web.settings.email_confirmed" : "web.settings.email_unconfirmed")}
            </span>
            {!account.email_confirmed && (
              <button type="button" data-testid="email-resend" onClick={() => void resend()}>{t.t("web.settings.email_resend")}</button>
            )}
            <Outcome {...linkState} />
          </div>
        )}
        <label class="check">
          <input type="checkbox" checked={shownTurns} onChange={(e) => setTurns((e.target as HTMLInputElement).checked)} />
          {t.t("web.settings.email_turns")}
        </label>
        <Outcome {...mailState} />
        <button type="submit">{t.t("web.settings.save")}</button>
      </form>
      <section class="panel" aria-labelledby="set-notify">
        <h2 id="set-notify">{t.t("web.settings.notify")}</h2>
        <NotifyToggle />
      </section>
      <TimeZoneSettings />
      <form class="panel" onSubmit={changePassword} aria-labelledby="set-password" data-testid="settings-password">
        <h2 id="set-password">{t.t("web.settings.password")}</h2>
        <label>
          {t.t("web.settings.password_old")}
          <input type="password" value={old} required autoComplete="current-password" onInput={(e) => setOld((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          {t.t("web.settings.password_new")}
          <input type="password" value={fresh} required minLength={8} maxLength={200} autoComplete="new-password"
            onInput={(e) => setFresh((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          {t.t("web.account.password_again")}
          <input type="password" value={fresh2} required minLength={8} maxLength={200} autoComplete="new-password"
            onInput={(e) => setFresh2((e.target as HTMLInputElement).value)} />
        </label>
        <Outcome {...pwState} />
        <button type="submit">{t.t("web.settings.password_button")}</button>
      </form>
      <VacationSettings />
      <FriendSettingsPanel />
      <ExportData />
      <form class="panel danger" onSubmit={remove} aria-labelledby="set-delete" data-testid="settings-delete">
        <h2 id="set-delete">{t.t("web.settings.delete")}</h2>
        <p>{t.t("web.settings.delete_detail")}</p>
        <label>
          {t.t("web.settings.delete_password")}
          <input type="password" value={confirm} required autoComplete="current-password"
            onInput={(e) => setConfirm((e.target as HTMLInputElement).value)} />
        </label>
        {delError && <p class="error" role="alert">{delError}</p>}
        <button type="submit" class="danger-button">{t.t("web.settings.delete_button")}</button>
      </form>
    </main>
  );
}

/** The name of the account this page just deleted (gone after a reload: the page then says
 * it without the name). */
let deletedName: string | null = null;

/** After deleting the account (#/deleted): it is gone, what stays, and the way back. */
export function Deleted() {
  const t = useT();
  return (
    <main id="main" class="account-page">
      <h1>{t.t("web.deleted.title")}</h1>
      <section class="panel narrow" data-testid="deleted">
        <p role="status">{deletedName ? t.t("web.deleted.named", { name: deletedName }) : t.t("web.settings.deleted")}</p>
        <p>{t.t("web.deleted.detail")}</p>
        <p><a class="button primary" href="#/">{t.t("web.deleted.home")}</a></p>
      </section>
    </main>
  );
}

/** This browser's time zone (an IANA name), if it says one. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** The time zones to choose from: the browser's list, UTC first, the account's own kept. */
function timeZoneChoices(own: string | null): string[] {
  const known = (Intl as unknown as { supportedValuesOf?: (what: string) => string[] }).supportedValuesOf?.("timeZone") ?? [];
  const all = new Set(["UTC", ...known]);
  if (own) all.add(own);
  const here = browserTimeZone();
  if (here) all.add(here);
  return [...all];
}

/** The settings' time zone: e-mails write their deadlines in it. An account that has none
 * yet (made before there was one, or by a browser that said none) gets the browser's on
 * this first visit, shown and changeable here. */
function TimeZoneSettings() {
  const t = useT();
  const { account } = useSession();
  const [zone, setZone] = useState<string | null>(null);
  const [state, setState] = useState<{ error: string | null; done: string | null }>({ error: null, done: null });
  const own = account?.time_zone ?? null;
  useEffect(() => {
    const here = browserTimeZone();
    if (account && !account.time_zone && here) updateAccount({ time_zone: here }).catch(() => undefined);
  }, [account?.name]);
  if (!account) return null;
  const shown = zone ?? own ?? browserTimeZone() ?? "UTC";
  const save = async (event: Event) => {
    event.preventDefault();
    setState({ error: null, done: null });
    try {
      await updateAccount({ time_zone: shown });
      setState({ error: null, done: t.t("web.settings.saved") });
    } catch (e) {
      setState({ error: errorText(t, e), done: null });
    }
  };
  return (
    <form class="panel" onSubmit={save} aria-labelledby="set-zone" data-testid="settings-time-zone">
      <h2 id="set-zone">{t.t("web.settings.time_zone")}</h2>
      <label>
        {t.t("web.settings.time_zone_choice")}
        <select value={shown} data-testid="time-zone" aria-describedby="zone-help"
          onChange={(e) => setZone((e.target as HTMLSelectElement).value)}>
          {timeZoneChoices(own).map((z) => <option key={z} value={z}>{z.replaceAll("_", " ")}</option>)}
        </select>
      </label>
      <p class="help" id="zone-help">{t.t("web.settings.time_zone_help")}</p>
      <Outcome {...state} />
      <button type="submit">{t.t("web.settings.save")}</button>
    </form>
  );
}
