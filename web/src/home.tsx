// The start page (play now against bots, play with friends, join by link, this browser's own
// matches, public matches), the form that creates a match for friends, and joining by an
// invitation.
import { useEffect, useState } from "preact/hooks";
import { ApiError, api, held, heldIds, hold, letGo, playerName, setPlayerName } from "./api";
import type { CreateRequest, GamesAnswer } from "./api";
import { useT } from "./context";
import type { Level, MatchInfo } from "./types";
import { TimeLine, seatNames } from "./game";
import { CardFace } from "./pieces";
import { RulesLinks } from "./rules";
import { LearnPanel } from "./tutorial";
import { matchRated, matchTime, useSession } from "./community";
import { MatchKind } from "./ratings";
import { TimeChoice, rememberedGame, rememberedPlayers, timeControl } from "./lobby";
import type { TimeSetting } from "./lobby";

const LEVELS: Level[] = ["easy", "medium", "hard"];
/** The turn clock's choices in the new-match form, in seconds (0: no limit). */
const TURN_CHOICES = [0, 60, 120, 300, 900, 3600, 86400];
const DEFAULT_TURN = 300;
/** How many finished matches the start page keeps listing (older ones are forgotten). */
const KEEP_FINISHED = 20;

function useGames(): GamesAnswer | null {
  const [games, setGames] = useState<GamesAnswer | null>(null);
  useEffect(() => {
    api.games().then(setGames, () => setGames(null));
  }, []);
  return games;
}

function errorText(t: ReturnType<typeof useT>, error: unknown): string {
  if (error instanceof ApiError && error.message) return error.message;
  return t.t("web.offline");
}

/** Create a match and go to it (the token stays in this browser). */
export async function createAndGo(request: CreateRequest, go: (hash: string) => void): Promise<void> {
  const answer = await api.create(request);
  hold(answer.id, {
    seat: answer.seat,
    token: answer.token,
    host: answer.host_token,
    invites: answer.invites,
    watch: answer.watch,
  });
  go(`#/match/${answer.id}`);
}

type GameName = "board" | "cards";

/** A match this browser holds a seat of (or the host's token), as the server describes it. */
interface MyMatch {
  id: string;
  seat: number | null;
  match: MatchInfo;
}

/** The matches of this browser's storage, described by the server (null while asked): those
 * waiting for this player first, then the others running, waiting for players, finished;
 * the latest first within each. A match the server no longer knows (or a cancelled rematch)
 * is forgotten, and so are finished ones beyond the last KEEP_FINISHED. */
function useMyMatches(): MyMatch[] | null {
  const [list, setList] = useState<MyMatch[] | null>(null);
  // An account's matches (found on another device too) are kept here as they come: asked
  // again when another comes.
  const { matches } = useSession();
  const accountIds = matches
    ? [...matches.waiting, ...matches.running, ...matches.open].map((m) => m.match.id).sort().join(",")
    : "";
  useEffect(() => {
    let gone = false;
    const ask = (id: string): Promise<MyMatch | null> =>
      api.describe(id).then(
        (match) => {
          // a rematch someone said no to is never played: forgotten as one the server lost
          if (match.status === "cancelled") {
            letGo(id);
            return null;
          }
          return { id, seat: held(id)?.seat ?? null, match };
        },
        (e: unknown) => {
          if (e instanceof ApiError && e.status === 404) letGo(id);
          return null;
        },
      );
    Promise.all(heldIds().map(ask)).then((found) => {
      const rank = ({ seat, match }: MyMatch) =>
        match.status === "finished" ? 3 : match.status === "open" ? 2 : seat !== null && match.to_move === seat ? 0 : 1;
      const when = ({ match }: MyMatch) => match.updated ?? match.created ?? "";
      const mine = found
        .filter((m): m is MyMatch => m !== null)
        .sort((a, b) => rank(a) - rank(b) || (when(a) < when(b) ? 1 : when(a) > when(b) ? -1 : 0));
      const old = new Set(mine.filter((m) => m.match.status === "finished").slice(KEEP_FINISHED).map((m) => m.id));
      old.forEach(letGo);
      if (!gone) setList(mine.filter((m) => !old.has(m.id)));
    });
    return () => {
      gone = true;
    };
  }, [accountIds]);
  return list;
}

/** The start page's list of this browser's matches: the game, the players, whose turn it is,
 * and "continue" (a finished match: its replay). */
function MyMatches({ list }: { list: MyMatch[] }) {
  const t = useT();
  return (
    <section class="panel my-matches" aria-labelledby="my-matches-title" data-testid="my-matches">
      <h2 id="my-matches-title">{t.t("web.my_matches")}</h2>
      <ul class="mine-list">
        {list.map(({ id, seat, match }) => {
          const names = seatNames(t, match);
          const mine = seat !== null && match.status === "running" && match.to_move === seat;
          const state =
            match.status === "finished"
              ? t.t("web.matches.finished")
              : match.status === "open"
                ? t.t("web.matches.open")
                : mine
                  ? t.t("web.your_turn")
                  : t.t("web.waiting_for", { name: names[match.to_move ?? -1] ?? "" });
          return (
            <li key={id} data-match={id} data-status={match.status} class={mine ? "turn" : ""}>
              <div class="mine-what" id={`mine-${id}`}>
                <strong>{t.t(`title.${match.game}`)}</strong>
                <span class="mine-who">
                  {match.seats.map((s, i) => (
                    <span key={s.seat}>
                      {i > 0 && ", "}
                      {names[s.seat]}
                      {s.seat === seat && names[s.seat] !== t.t("name.you") && <span class="you"> ({t.t("web.you")})</span>}
                    </span>
                  ))}
                </span>
                <span class={`mine-state${mine ? " turn" : ""}`}>{state}</span>
                <span class="match-kind"><MatchKind rated={matchRated(match)} time={matchTime(match)} /></span>
              </div>
              {match.status === "finished" ? (
                <a class="button" href={`#/replay/${id}`} aria-describedby={`mine-${id}`}>{t.t("web.replay")}</a>
              ) : (
                <a class="button primary" href={`#/match/${id}`} aria-describedby={`mine-${id}`}>{t.t("web.continue")}</a>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Which game: the two titles as radio buttons. */
function GameChoice({ game, setGame }: { game: GameName; setGame: (game: GameName) => void }) {
  const t = useT();
  return (
    <fieldset>
      <legend>{t.t("web.game")}</legend>
      {(["board", "cards"] as const).map((g) => (
        <label key={g} class="radio">
          <input type="radio" name="game" value={g} checked={game === g} onChange={() => setGame(g)} />
          {t.t(`title.${g}`)}
        </label>
      ))}
    </fieldset>
  );
}

function PlayerCount({ value, set }: { value: number; set: (players: number) => void }) {
  const t = useT();
  return (
    <label>
      {t.t("web.players")}
      <select value={value} onChange={(e) => set(Number((e.target as HTMLSelectElement).value))}>
        {[2, 3, 4].map((n) => <option key={n} value={n}>{n}</option>)}
      </select>
    </label>
  );
}

export function Home({ go }: { go: (hash: string) => void }) {
  const t = useT();
  const [game, setGame] = useState<GameName>(() => rememberedGame("keltis.game"));
  const [players, setPlayers] = useState(() => rememberedPlayers("keltis.players"));
  const [level, setLevel] = useState<Level>(() => (localStorage.getItem("keltis.level") as Level) ?? "medium");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState("");
  const [name, setName] = useState(playerName);
  const { account } = useSession();
  const mine = useMyMatches() ?? [];
  // Matches still to play come first on the page; finished ones only after the new-match forms.
  const ongoing = mine.some((m) => m.match.status !== "finished");
  const playNow = async (event: Event) => {
    event.preventDefault();
    if (!account) setPlayerName(name.trim());
    localStorage.setItem("keltis.game", game);
    localStorage.setItem("keltis.players", String(players));
    localStorage.setItem("keltis.level", level);
    setBusy(true);
    setError(null);
    try {
      await createAndGo(
        {
          game,
          seats: [{ kind: "person" }, ...Array.from({ length: players - 1 }, () => ({ kind: "bot" as const, level }))],
          name: account?.name ?? name.trim(),
          public: false,
        },
        go,
      );
    } catch (e) {
      setError(errorText(t, e));
      setBusy(false);
    }
  };
  const join = (event: Event) => {
    event.preventDefault();
    const found = link.match(/#\/(join|match|watch|replay)\/[^\s]+/);
    if (!found) {
      setError(t.t("web.join.bad_link"));
      return;
    }
    go(found[0]);
  };
  return (
    <main id="main" class="home">
      <div class="hero">
        <div>
          <h1>Keltis</h1>
          <p class="tagline">{t.t("web.tagline")}</p>
          {account && (
            // a logged-in player's first button: a person to play now (#/pool)
            <p>
              <a class="button primary big" href="#/pool" data-testid="play-person">{t.t("web.pool.play")}</a>
            </p>
          )}
          <RulesLinks />
        </div>
        <div class="fan" aria-hidden="true">
          {["G7", "Y3", "R9", "P5", "B1"].map((card) => <CardFace key={card} card={card} />)}
        </div>
      </div>
      {ongoing && <MyMatches list={mine} />}
      <LearnPanel />
      <div class="cards-grid">
        <form class="panel" onSubmit={playNow} aria-labelledby="play-now-title">
          <h2 id="play-now-title">{t.t("web.play_now")}</h2>
          <p class="muted">{t.t("web.play_now.detail")}</p>
          {account ? (
            <p class="muted">{t.t("web.settings.as", { name: account.name })}</p>
          ) : (
            <label>
              {t.t("web.your_name")}
              <input type="text" maxLength={40} value={name} required pattern=".*\S.*" autoComplete="nickname"
                data-testid="play-now-name" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
            </label>
          )}
          <GameChoice game={game} setGame={setGame} />
          <PlayerCount value={players} set={setPlayers} />
          <label>
            {t.t("web.level")}
            <select value={level} onChange={(e) => setLevel((e.target as HTMLSelectElement).value as Level)}>
              {LEVELS.map((l) => <option key={l} value={l}>{t.t(`web.level.${l}`)}</option>)}
            </select>
          </label>
          <button type="submit" class="primary big" disabled={busy} data-testid="play-now">{t.t("web.play_now")}</button>
        </form>
        <section class="panel" aria-labelledby="friends-title">
          <h2 id="friends-title">{t.t("web.create")}</h2>
          <p class="muted">{t.t("web.create.detail")}</p>
          <a class="button" href="#/new">{t.t("web.create")}</a>
          <form onSubmit={join} class="join-form">
            <label>
              {t.t("web.join.link")}
              <input type="url" value={link} onInput={(e) => setLink((e.target as HTMLInputElement).value)} />
            </label>
            <button type="submit">{t.t("web.join")}</button>
          </form>
          <a class="button" href="#/matches">{t.t("web.matches")}</a>
        </section>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {!ongoing && mine.length > 0 && <MyMatches list={mine} />}
    </main>
  );
}

export function CreateMatch({ go }: { go: (hash: string) => void }) {
  const t = useT();
  const games = useGames();
  const [game, setGame] = useState<GameName>("board");
  const [seats, setSeats] = useState<string[]>(["me", "person", "medium"]);
  const [variant, setVariant] = useState<Record<string, unknown>>({});
  const [hints, setHints] = useState(true);
  // Hints between people only where everyone agrees: the creator asks, whoever joins agrees.
  const [agreedHints, setAgreedHints] = useState(false);
  const [undo, setUndo] = useState(true);
  const [pub, setPub] = useState(true);
  const [turn, setTurn] = useState(DEFAULT_TURN);
  const { account } = useSession();
  const [rated, setRated] = useState(false);
  const [time, setTime] = useState<TimeSetting>({ kind: "none", decision: 60, bank: 300, days: 1 });
  const [name, setName] = useState(playerName());
  const [error, setError] = useState<string | null>(null);
  const info = games?.games.find((g) => g.name === game);
  useEffect(() => setVariant({ ...(info?.variant ?? {}) }), [info]);
  // A turn clock lets the others hand a late player's seat to a bot: it needs two people.
  const people = seats.filter((s) => s === "me" || s === "person").length;
  // Rated: the creator logged in (the invited seats are taken by accounts: the server sees to it).
  const isRated = rated && !!account;
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setPlayerName(name);
    try {
      await createAndGo(
        {
          game,
          seats: seats.map((s) => (s === "me" || s === "person" ? { kind: "person" } : { kind: "bot", level: s as Level })),
          seat: 0,
          name: account?.name ?? (name || t.t("name.player", { n: 1 })),
          variant,
          hints: people > 1 ? agreedHints && !isRated : hints,
          undo: isRated ? false : undo,
          public: pub,
          ...(time.kind !== "none"
            ? { time: timeControl(time) }
            : { turn_seconds: people > 1 && turn > 0 ? turn : null }),
          ...(isRated ? { rated: true } : {}),
        },
        go,
      );
    } catch (e) {
      setError(errorText(t, e));
    }
  };
  return (
    <main id="main" class="create">
      <h1>{t.t("web.create")}</h1>
      <form class="panel" onSubmit={submit}>
        {account ? (
          <p class="muted">{t.t("web.settings.as", { name: account.name })}</p>
        ) : (
          <label>
            {t.t("web.your_name")}
            <input type="text" maxLength={40} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} autoComplete="nickname" />
          </label>
        )}
        <GameChoice game={game} setGame={setGame} />
        <fieldset>
          <legend>{t.t("web.players")}</legend>
          <PlayerCount value={seats.length}
            set={(n) => setSeats((old) => [...old, "medium", "medium", "medium"].slice(0, n))} />
          {seats.map((s, i) => (
            <label key={i}>
              {t.t("web.seat.kind", { n: i + 1 })}
              {i === 0 ? (
                <input type="text" readOnly value={t.t("web.seat.me")} />
              ) : (
                <select value={s} data-seat={i} onChange={(e) => {
                  const value = (e.target as HTMLSelectElement).value;
                  setSeats((old) => old.map((x, j) => (j === i ? value : x)));
                }}>
                  <option value="person">{t.t("web.seat.person")}</option>
                  {LEVELS.map((l) => <option key={l} value={l}>{t.t("web.seat.bot")}: {t.t(`web.level.${l}`)}</option>)}
                </select>
              )}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{t.t("web.rules")}</legend>
          {Object.entries(variant).map(([key, value]) =>
            typeof value === "boolean" ? (
              <label key={key} class="check">
                <input type="checkbox" checked={value} onChange={(e) => setVariant({ ...variant, [key]: (e.target as HTMLInputElement).checked })} />
                {t.has(`web.variant.${key}`) ? t.t(`web.variant.${key}`) : key}
              </label>
            ) : typeof value === "number" ? (
              <label key={key}>
                {t.has(`web.variant.${key}`) ? t.t(`web.variant.${key}`) : key}
                <input type="number" min={1} value={value} onInput={(e) => setVariant({ ...variant, [key]: Number((e.target as HTMLInputElement).value) })} />
              </label>
            ) : null,
          )}
          {account && (
            <div class="rated-choice">
              <label class="check">
                <input type="checkbox" checked={rated} data-testid="rated" aria-describedby="rated-help"
                  onChange={(e) => setRated((e.target as HTMLInputElement).checked)} />
                {t.t("web.rated.choice")}
              </label>
              <p class="help" id="rated-help">{t.t("web.rated.help")}</p>
            </div>
          )}
          <TimeChoice value={time} set={setTime} none={t.t("web.time.kind.none")} idPrefix="new" />
          {people > 1 && time.kind === "none" && (
            <label>
              {t.t("web.clock.choice")}
              <select value={turn} data-testid="turn-seconds" onChange={(e) => setTurn(Number((e.target as HTMLSelectElement).value))}>
                {TURN_CHOICES.map((s) => (
                  <option key={s} value={s}>
                    {s === 0
                      ? t.t("web.clock.none")
                      : s < 3600
                        ? t.t("web.clock.minutes", { n: s / 60 })
                        : t.t("web.clock.hours", { n: s / 3600 })}
                  </option>
                ))}
              </select>
            </label>
          )}
          {people > 1 ? (
            !isRated && (
              <label class="check">
                <input type="checkbox" checked={agreedHints} data-testid="hints-agreed"
                  onChange={(e) => setAgreedHints((e.target as HTMLInputElement).checked)} />
                {t.t("web.option.hints_agreed")}
              </label>
            )
          ) : (
            <label class="check">
              <input type="checkbox" checked={hints} onChange={(e) => setHints((e.target as HTMLInputElement).checked)} />
              {t.t("web.option.hints")}
            </label>
          )}
          {!isRated && (
            <label class="check">
              <input type="checkbox" checked={undo} onChange={(e) => setUndo((e.target as HTMLInputElement).checked)} />
              {t.t("web.option.undo")}
            </label>
          )}
          <label class="check">
            <input type="checkbox" checked={pub} onChange={(e) => setPub((e.target as HTMLInputElement).checked)} />
            {t.t("web.option.public")}
          </label>
        </fieldset>
        <button type="submit" class="primary">{t.t("web.create_button")}</button>
        {error && <p class="error" role="alert">{error}</p>}
      </form>
    </main>
  );
}

export function Join({ id, invite, go }: { id: string; invite: string; go: (hash: string) => void }) {
  const t = useT();
  const [match, setMatch] = useState<MatchInfo | null>(null);
  const [name, setName] = useState(playerName());
  const [error, setError] = useState<string | null>(null);
  const [needsAccount, setNeedsAccount] = useState(false);
  const { account } = useSession();
  useEffect(() => {
    api.describe(id).then(setMatch, (e) => setError(errorText(t, e)));
  }, [id]);
  const submit = async (event: Event) => {
    event.preventDefault();
    setPlayerName(name);
    try {
      const answer = await api.join(id, invite, account?.name ?? (name || t.t("name.player", { n: 2 })));
      hold(id, { seat: answer.seat, token: answer.token });
      go(`#/match/${id}`);
    } catch (e) {
      setError(errorText(t, e));
      setNeedsAccount(e instanceof ApiError && e.code === "account.rated_needs_account" && !account);
    }
  };
  const host = match ? seatNames(t, match)[0] : "";
  return (
    <main id="main" class="join">
      <h1>{t.t("web.join")}</h1>
      {match && <p>{t.t("web.join.detail", { host, game: t.t(`title.${match.game}`) })}</p>}
      {/* what joining agrees to: rated, the time control, hints between people */}
      {match && <TimeLine match={match} />}
      <form class="panel" onSubmit={submit}>
        {account ? (
          <p class="muted">{t.t("web.settings.as", { name: account.name })}</p>
        ) : (
          <label>
            {t.t("web.your_name")}
            <input type="text" maxLength={40} value={name} required onInput={(e) => setName((e.target as HTMLInputElement).value)} autoComplete="nickname" />
          </label>
        )}
        <button type="submit" class="primary">{t.t("web.join_button")}</button>
      </form>
      {error && <p class="error" role="alert">{error}</p>}
      {needsAccount && (
        <p>
          <a class="button primary" href={`#/login/${encodeURIComponent(`#/join/${id}/${invite}`)}`}>{t.t("web.account.log_in")}</a>{" "}
          <a class="button" href={`#/register/${encodeURIComponent(`#/join/${id}/${invite}`)}`}>{t.t("web.account.register")}</a>
        </p>
      )}
    </main>
  );
}

/** The matches page: this browser's own matches — the start page's list, from the same source
 * (useMyMatches), "Play now" ones too — then the public ones by state, without those already
 * listed as this player's. */
export function Matches({ go }: { go: (hash: string) => void }) {
  const t = useT();
  const [lists, setLists] = useState<Record<string, MatchInfo[]> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mine = useMyMatches() ?? [];
  const own = new Set(mine.map((m) => m.id));
  useEffect(() => {
    Promise.all((["open", "running", "finished"] as const).map((s) => api.list(s).then((r) => [s, r.matches] as const)))
      .then((entries) => setLists(Object.fromEntries(entries)), (e) => setError(errorText(t, e)));
  }, []);
  return (
    <main id="main" class="matches">
      <h1>{t.t("web.matches")}</h1>
      {mine.length > 0 && <MyMatches list={mine} />}
      <h2 class="public-title">{t.t("web.matches.public")}</h2>
      {error && <p class="error" role="alert">{error}</p>}
      {!lists && !error && <p role="status">{t.t("web.loading")}</p>}
      {lists &&
        (["open", "running", "finished"] as const).map((status) => ({ status, list: lists[status].filter((m) => !own.has(m.id)) })).map(({ status, list }) => (
          <section key={status} aria-labelledby={`list-${status}`} data-testid={`public-${status}`}>
            <h3 id={`list-${status}`}>{t.t(`web.matches.${status}`)}</h3>
            {list.length === 0 ? (
              <p class="muted">{t.t("web.matches.none")}</p>
            ) : (
              <ul class="match-list">
                {list.map((m) => (
                  <li key={m.id}>
                    <span>{t.t(`title.${m.game}`)}: {seatNames(t, m).join(", ")}</span>{" "}
                    <span class="match-kind"><MatchKind rated={matchRated(m)} time={matchTime(m)} /></span>{" "}
                    {status === "finished" ? (
                      <button type="button" onClick={() => go(`#/replay/${m.id}`)}>{t.t("web.replay")}</button>
                    ) : (
                      <button type="button" onClick={() => go(`#/watch/${m.id}`)}>{t.t("web.watch")}</button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
        ))}
    </main>
  );
}
