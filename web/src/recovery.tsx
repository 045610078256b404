// Getting back into an account, and confirmed e-mail addresses (docs/server.md, "Password
// resets and confirmed addresses"): ask for a link to set a new password (#/forgot), set it
// with the link from the e-mail (#/reset/{token}), confirm an address with the link sent to it
// (#/confirm/{token}). The links' secrets are after the #, so they reach no server log; the
// page posts them. Opening a link changes nothing by itself: a button does (a mail scanner
// that fetches the page confirms nothing).
import { useState } from "preact/hooks";
import { request } from "./api";
import { errorText, loadSession, logOut, sessionState } from "./community";
import { useAnnounce, useT } from "./context";

const enc = encodeURIComponent;

export const recovery = {
  /** Ask for a link to set a new password: the same answer whatever is asked. */
  ask: (body: { name: string } | { email: string }) =>
    request<{ requested: boolean; minutes: number }>("POST", "/api/password-resets", body),
  reset: (token: string, password: string) =>
    request<void>("POST", `/api/password-resets/${enc(token)}`, { password }),
  confirm: (token: string) =>
    request<{ name: string; email: string; email_confirmed: boolean }>("POST", `/api/email-confirmations/${enc(token)}`),
  /** The link that confirms the account's address, again (a session). */
  resend: () => request<{ email: string; minutes: number }>("POST", "/api/me/email-confirmation"),
};

/** #/forgot: a name or an address, and a link to set a new password goes to the account's
 * confirmed address (if there is one: the page says the same either way). */
export function Forgot() {
  const t = useT();
  const announce = useAnnounce();
  const [who, setWho] = useState("");
  const [minutes, setMinutes] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const given = who.trim();
    setBusy(true);
    setError(null);
    try {
      const answer = await recovery.ask(given.includes("@") ? { email: given } : { name: given });
      setMinutes(answer.minutes);
      announce(t.t("web.forgot.sent", { count: answer.minutes }));
    } catch (e) {
      setError(errorText(t, e));
    }
    setBusy(false);
  };
  return (
    <main id="main" class="account-page">
      <h1>{t.t("web.forgot.title")}</h1>
      {minutes === null ? (
        <>
          <p class="muted">{t.t("web.forgot.intro")}</p>
          <form class="panel narrow" onSubmit={submit} data-testid="forgot-form">
            <label>
              {t.t("web.forgot.who")}
              <input type="text" value={who} required maxLength={254} autoComplete="username" autoCapitalize="none"
                spellcheck={false} onInput={(e) => setWho((e.target as HTMLInputElement).value)} />
            </label>
            {error && <p class="error" role="alert" data-testid="account-error">{error}</p>}
            <button type="submit" class="primary" disabled={busy}>{t.t("web.forgot.send")}</button>
          </form>
        </>
      ) : (
        <section class="panel narrow" data-testid="forgot-sent">
          <p class="banner ok" role="status">{t.t("web.forgot.sent", { count: minutes })}</p>
          <p class="muted">{t.t("web.forgot.no_mail")}</p>
          <p><a class="button primary" href="#/login">{t.t("web.account.log_in")}</a></p>
        </section>
      )}
    </main>
  );
}

/** #/reset/{token}: the new password, twice. Every session of the account ends (this
 * browser's too): then log in with it. */
export function ResetPassword({ token }: { token: string }) {
  const t = useT();
  const announce = useAnnounce();
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    if (password !== again) {
      setError(t.t("web.account.passwords_differ"));
      return;
    }
    setBusy(true);
    try {
      await recovery.reset(token, password);
      // the session of this browser ended with the others: forget it here too
      if (sessionState().account) await logOut().catch(() => undefined);
      setDone(true);
      announce(t.t("web.reset.done"));
    } catch (e) {
      setError(errorText(t, e));
    }
    setBusy(false);
  };
  return (
    <main id="main" class="account-page">
      <h1>{t.t("web.reset.title")}</h1>
      {done ? (
        <section class="panel narrow" data-testid="reset-done">
          <p class="banner ok" role="status">{t.t("web.reset.done")}</p>
          <p><a class="button primary" href="#/login">{t.t("web.account.log_in")}</a></p>
        </section>
      ) : (
        <form class="panel narrow" onSubmit={submit} data-testid="reset-form">
          <label>
            {t.t("web.settings.password_new")}
            <input type="password" value={password} required minLength={8} maxLength={200} autoComplete="new-password"
              aria-describedby="reset-help" onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
          </label>
          <span class="help" id="reset-help">{t.t("web.account.password_help")}</span>
          <label>
            {t.t("web.account.password_again")}
            <input type="password" value={again} required minLength={8} maxLength={200} autoComplete="new-password"
              onInput={(e) => setAgain((e.target as HTMLInputElement).value)} />
          </label>
          {error && (
            <div role="alert" data-testid="account-error">
              <p class="error">{error}</p>
              <p><a href="#/forgot">{t.t("web.account.forgot")}</a></p>
            </div>
          )}
          <button type="submit" class="primary" disabled={busy}>{t.t("web.reset.button")}</button>
        </form>
      )}
    </main>
  );
}

/** #/confirm/{token}: a button confirms the address the link was sent to. */
export function ConfirmEmail({ token }: { token: string }) {
  const t = useT();
  const announce = useAnnounce();
  const [email, setEmail] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await recovery.confirm(token);
      setEmail(answer.email);
      announce(t.t("web.confirm.done", { email: answer.email }));
      // a session of the account shows the address confirmed from now on
      if (sessionState().account) void loadSession();
    } catch (e) {
      setError(errorText(t, e));
    }
    setBusy(false);
  };
  return (
    <main id="main" class="account-page">
      <h1>{t.t("web.confirm.title")}</h1>
      {email !== null ? (
        <section class="panel narrow" data-testid="confirm-done">
          <p class="banner ok" role="status">{t.t("web.confirm.done", { email })}</p>
          <p><a href="#/">{t.t("web.home")}</a></p>
        </section>
      ) : (
        <form class="panel narrow" onSubmit={submit} data-testid="confirm-form">
          <p>{t.t("web.confirm.text")}</p>
          {error && <p class="error" role="alert" data-testid="account-error">{error}</p>}
          <button type="submit" class="primary" disabled={busy}>{t.t("web.confirm.button")}</button>
        </form>
      )}
    </main>
  );
}
