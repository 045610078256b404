// The Keltis browser client: routes (in the address's #, so an invitation's secret never
// reaches a server log), the language, and the page's frame.
import { render } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { setApiLanguage } from "./api";
import type { CreateRequest } from "./api";
import { Announcer, I18n, Retractor } from "./context";
import { Game, MatchRoute } from "./game";
import { CreateMatch, Home, Join, Matches, createAndGo } from "./home";
import { Translator, browserLanguage, languageNames, loadTranslator } from "./i18n";
import { Replay } from "./replay";
import { ReviewPage } from "./review";
import { RulesPage } from "./rules";
import { loadTables } from "./tables";
import { LearnStart } from "./tutorial";
import { Header } from "./header";
import { loadSession, updateAccount, useSession } from "./community";
import { Deleted, LogIn, Register, Settings } from "./account";
import { LobbyPage } from "./lobby";
import { FriendsPage } from "./friends";
import { TournamentPage, TournamentsPage } from "./tournament";
import { PoolPage } from "./pool";
import { ConfirmEmail, Forgot, ResetPassword } from "./recovery";
import { Leaderboard, PlayerPageView } from "./ratings";
import { ModerationPage, WarningsBanner } from "./moderation";
import "./style.css";

function useHash(): [string, (hash: string) => void] {
  const [hash, setHash] = useState(location.hash || "#/");
  useEffect(() => {
    const onChange = () => {
      setHash(location.hash || "#/");
      window.scrollTo(0, 0);
    };
    window.addEventListener("hashchange", onChange);
    // The address may have changed between the first render and this effect (a link
    // followed while the page was still starting): no event will say so, so look again.
    setHash(location.hash || "#/");
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  const go = useCallback((next: string) => {
    if (location.hash === next) setHash(next);
    else location.hash = next;
  }, []);
  return [hash, go];
}

loadSession();

function App() {
  const [hash, go] = useHash();
  const session = useSession();
  // The language: chosen among the server's once it has said which it has.
  const [lang, setLang] = useState<string | null>(null);
  const [t, setT] = useState<Translator | null>(null);
  const [failed, setFailed] = useState(false);
  const [names, setNames] = useState<Record<string, string>>({});
  const [spoken, setSpoken] = useState("");
  useEffect(() => {
    // The scoring tables too (tables.ts): the rules pages and the board show the server's.
    Promise.all([languageNames(), loadTables()]).then(
      ([found]) => {
        setNames(found);
        setLang(browserLanguage(Object.keys(found)));
      },
      () => setFailed(true),
    );
  }, []);
  useEffect(() => {
    if (lang === null) return;
    loadTranslator(lang).then(
      (tr) => {
        setT(tr);
        setFailed(false);
        setApiLanguage(lang);
        document.documentElement.lang = lang;
        document.title = `Keltis – ${tr.t("web.home")}`;
      },
      () => setFailed(true),
    );
  }, [lang]);
  // The text about to be said (set after a moment), so that it can be taken back before.
  const pending = useRef<{ text: string; timer: number } | null>(null);
  const announce = useCallback((text: string) => {
    // The same text twice is still announced: clear, then set.
    setSpoken("");
    if (pending.current) window.clearTimeout(pending.current.timer);
    const timer = window.setTimeout(() => {
      pending.current = null;
      setSpoken(text);
    }, 30);
    pending.current = { text, timer };
  }, []);
  const retract = useCallback((text: string) => {
    if (!text) return;
    if (pending.current?.text === text) {
      window.clearTimeout(pending.current.timer);
      pending.current = null;
    }
    setSpoken((now) => (now === text ? "" : now));
  }, []);
  if (!t || lang === null) {
    return (
      <p role="status" class="boot">
        {failed ? "Keltis: the server cannot be reached. Is keltis serve running?" : "Keltis …"}
      </p>
    );
  }
  // The language chosen here is the account's too (its e-mails come in it).
  function chooseLang(next: string) {
    if (!(next in names)) return;
    localStorage.setItem("keltis.lang", next);
    setLang(next);
    if (session.account && session.account.language !== next) void updateAccount({ language: next }).catch(() => undefined);
  }
  const playAgain = (request: CreateRequest) => {
    createAndGo(request, go).catch(() => go("#/"));
  };
  const parts = hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  let page;
  switch (parts[0]) {
    case "":
      page = <Home go={go} />;
      break;
    case "new":
      page = <CreateMatch go={go} />;
      break;
    case "matches":
      page = <Matches go={go} />;
      break;
    case "match":
      page = (
        <MatchRoute key={`m-${parts[1]}`} id={parts[1]}>
          <Game id={parts[1]} lang={lang} go={go} playAgain={playAgain} />
        </MatchRoute>
      );
      break;
    case "watch":
      page = <Game key={`w-${parts[1]}`} id={parts[1]} watch lang={lang} go={go} playAgain={playAgain} />;
      break;
    case "join":
      page = <Join id={parts[1]} invite={parts[2] ?? ""} go={go} />;
      break;
    case "replay":
      page = <Replay key={parts[1]} id={parts[1]} />;
      break;
    case "review":
      page = <ReviewPage key={parts[1]} id={parts[1]} />;
      break;
    case "learn":
      page = <LearnStart key={`l-${hash}`} name={parts[1] ?? ""} go={go} />;
      break;
    case "rules":
      page = <RulesPage game={parts[1] ?? ""} place={parts[2]} />;
      break;
    case "login":
      page = <LogIn go={go} next={parts[1]} chooseLang={chooseLang} />;
      break;
    case "register":
      page = <Register go={go} next={parts[1]} lang={lang} />;
      break;
    case "settings":
      page = <Settings go={go} lang={lang} names={names} chooseLang={chooseLang} />;
      break;
    case "deleted":
      page = <Deleted />;
      break;
    case "forgot":
      page = <Forgot />;
      break;
    case "reset":
      page = <ResetPassword key={`r-${parts[1]}`} token={parts[1] ?? ""} />;
      break;
    case "confirm":
      page = <ConfirmEmail key={`c-${parts[1]}`} token={parts[1] ?? ""} />;
      break;
    case "lobby":
      page = <LobbyPage go={go} />;
      break;
    case "pool":
      page = <PoolPage go={go} />;
      break;
    case "tournaments":
      page = parts[1]
        ? <TournamentPage key={`t-${parts[1]}`} id={parts[1]} />
        : <TournamentsPage go={go} />;
      break;
    case "ratings":
      page = <Leaderboard key={parts[1]} game={parts[1] === "cards" ? "cards" : "board"} />;
      break;
    case "moderation":
      page = <ModerationPage tab={parts[1] ?? ""} />;
      break;
    case "friends":
      // #/friends, or #/friends/challenge/{name}: the challenge form for that account open
      page = (
        <FriendsPage key={`f-${parts[2] ?? ""}`} go={go}
          challenge={parts[1] === "challenge" ? parts.slice(2).join("/") : undefined} />
      );
      break;
    case "player":
      page = <PlayerPageView key={parts.slice(1).join("/")} name={parts.slice(1).join("/")} />;
      break;
    default:
      page = (
        <main id="main">
          <p>{t.t("web.not_found")}</p>
        </main>
      );
  }
  return (
    <I18n.Provider value={t}>
      <Announcer.Provider value={announce}>
        <Retractor.Provider value={retract}>
          <Header hash={hash} lang={lang} names={names} chooseLang={chooseLang} go={go} />
          <WarningsBanner />
          {page}
          <div class="sr-only" aria-live="polite" role="status" data-testid="announce">{spoken}</div>
        </Retractor.Provider>
      </Announcer.Provider>
    </I18n.Provider>
  );
}

render(<App />, document.getElementById("app")!);
