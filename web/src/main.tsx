// The Keltis browser client: routes (in the address's #, so an invitation's secret never
// reaches a server log), the language, and the page's frame.
import { render } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import { setApiLanguage } from "./api";
import type { CreateRequest } from "./api";
import { Announcer, I18n } from "./context";
import { Game } from "./game";
import { CreateMatch, Home, Join, Matches, createAndGo } from "./home";
import { Translator, browserLanguage, languageNames, loadTranslator } from "./i18n";
import { Replay } from "./replay";
import { RulesPage } from "./rules";
import { LearnStart } from "./tutorial";
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

function App() {
  const [hash, go] = useHash();
  // The language: chosen among the server's once it has said which it has.
  const [lang, setLang] = useState<string | null>(null);
  const [t, setT] = useState<Translator | null>(null);
  const [failed, setFailed] = useState(false);
  const [names, setNames] = useState<Record<string, string>>({});
  const [spoken, setSpoken] = useState("");
  useEffect(() => {
    languageNames().then(
      (found) => {
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
  const announce = useCallback((text: string) => {
    // The same text twice is still announced: clear, then set.
    setSpoken("");
    window.setTimeout(() => setSpoken(text), 30);
  }, []);
  if (!t || lang === null) {
    return (
      <p role="status" class="boot">
        {failed ? "Keltis: the server cannot be reached. Is keltis serve running?" : "Keltis …"}
      </p>
    );
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
      page = <Game key={`m-${parts[1]}`} id={parts[1]} lang={lang} go={go} playAgain={playAgain} />;
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
    case "learn":
      page = <LearnStart key={`l-${hash}`} name={parts[1] ?? ""} go={go} />;
      break;
    case "rules":
      page = <RulesPage game={parts[1] ?? ""} place={parts[2]} />;
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
        <header class="top">
          <a href="#/" class="brand" aria-label={t.t("web.home")}>
            <span aria-hidden="true">☘</span> Keltis
          </a>
          <label class="lang">
            <span>{t.t("web.language")}</span>
            <select value={lang} data-testid="language" onChange={(e) => {
              const next = (e.target as HTMLSelectElement).value;
              localStorage.setItem("keltis.lang", next);
              setLang(next);
            }}>
              {Object.keys(names).map((code) => (
                <option key={code} value={code} lang={code}>{names[code] ?? code}</option>
              ))}
            </select>
          </label>
        </header>
        {page}
        <div class="sr-only" aria-live="polite" role="status" data-testid="announce">{spoken}</div>
      </Announcer.Provider>
    </I18n.Provider>
  );
}

render(<App />, document.getElementById("app")!);
