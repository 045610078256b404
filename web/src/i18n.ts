// The interface's words: the project's translation catalogs (src/keltis/locale/*.po), served
// as JSON by keltis serve (/api/catalogs/{lang}); no string of the interface is written here.
import type { Colour, Event, Label, Pile } from "./types";
import { COLOURS } from "./types";

export interface Catalog {
  lang: string;
  name: string;
  plural: { nplurals: number; expr: string };
  colours: Record<string, string>[];
  messages: Record<string, string | { count: string; forms: string[] }>;
}

/** The languages the server has catalogs for, code → name in that language, in the
 * server's order (/api/catalogs): the client holds no list of its own. */
export async function languageNames(): Promise<Record<string, string>> {
  const response = await fetch("/api/catalogs");
  if (!response.ok) throw new Error(`catalogs: HTTP ${response.status}`);
  return (await response.json()) as Record<string, string>;
}

/** The language the browser asks for first among `codes` (the server's), else the first. */
export function browserLanguage(codes: string[]): string {
  const stored = localStorage.getItem("keltis.lang");
  if (stored && codes.includes(stored)) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const code = tag.toLowerCase().split("-")[0];
    if (codes.includes(code)) return code;
  }
  return codes.includes("en") ? "en" : codes[0] ?? "en";
}

/** Which plural form a number takes: the catalog's gettext rule, a C expression over n that
 * is also JavaScript, evaluated by a small closed interpreter (no eval: the page's content
 * security needs none). */
function pluralRule(expr: string): (n: number) => number {
  // The rules Babel writes use only n, integers, ( ) ! % == != < > <= >= && || ? :
  const tokens = expr.match(/\d+|n|==|!=|<=|>=|&&|\|\||[()!%<>?:]/g) ?? [];
  let pos = 0;
  type Node = (n: number) => number;
  const peek = () => tokens[pos];
  const next = () => tokens[pos++];
  const primary = (): Node => {
    const tok = next();
    if (tok === "(") {
      const inner = ternary();
      next();
      return inner;
    }
    if (tok === "!") {
      const inner = primary();
      return (n) => (inner(n) ? 0 : 1);
    }
    if (tok === "n") return (n) => n;
    const value = Number(tok);
    return () => value;
  };
  const binary = (ops: string[], sub: () => Node): (() => Node) => () => {
    let left = sub();
    while (ops.includes(peek() ?? "")) {
      const op = next();
      const l = left;
      const r = sub();
      left = (n) => {
        const a = l(n);
        switch (op) {
          case "%": return a % r(n);
          case "==": return a === r(n) ? 1 : 0;
          case "!=": return a !== r(n) ? 1 : 0;
          case "<": return a < r(n) ? 1 : 0;
          case ">": return a > r(n) ? 1 : 0;
          case "<=": return a <= r(n) ? 1 : 0;
          case ">=": return a >= r(n) ? 1 : 0;
          case "&&": return a && r(n) ? 1 : 0;
          default: return a || r(n) ? 1 : 0;
        }
      };
    }
    return left;
  };
  const mult = binary(["%"], primary);
  const rel = binary(["<", ">", "<=", ">="], mult);
  const eq = binary(["==", "!="], rel);
  const and = binary(["&&"], eq);
  const or = binary(["||"], and);
  function ternary(): Node {
    const cond = or();
    if (peek() !== "?") return cond;
    next();
    const yes = ternary();
    next();
    const no = ternary();
    return (n) => (cond(n) ? yes(n) : no(n));
  }
  const root = ternary();
  return (n) => root(Math.abs(Math.trunc(n)));
}

export type Params = Record<string, string | number | boolean | null | undefined>;

/** The words of the notation a player may also type in their language (move.word.*). */
const MOVE_WORDS = ["draw", "pass", "big", "small", "wish"];

/** Label parameters that hold a card in notation (keltis.core.labels.CARD_PARAMS). */
const CARD_PARAMS = new Set(["card", "first", "second"]);

/** A translator for one language: t("key", {params}). */
export class Translator {
  readonly lang: string;
  private readonly catalog: Catalog;
  private readonly plural: (n: number) => number;

  constructor(catalog: Catalog) {
    this.catalog = catalog;
    this.lang = catalog.lang;
    this.plural = pluralRule(catalog.plural.expr);
  }

  has(key: string): boolean {
    return key in this.catalog.messages;
  }

  /** Message `key` filled with `params`; colour letters in colour parameters become the
   * language's colour names, in the form the template asks for ({path:en}). */
  t = (key: string, params: Params = {}): string => {
    const entry = this.catalog.messages[key];
    if (entry === undefined) return key;
    let template: string;
    if (typeof entry === "string") template = entry;
    else {
      const count = Number(params[entry.count] ?? 5);
      template = entry.forms[Math.min(this.plural(count), entry.forms.length - 1)] ?? entry.forms[0];
    }
    return template.replace(/\{(\w+)(?::(\w*))?\}/g, (whole, name: string, spec?: string) => {
      const value = params[name];
      if (value === undefined || value === null) return whole;
      // A colour is a one-letter parameter (the wire's colour letters), whatever its name.
      if (typeof value === "string" && COLOURS.includes(value as Colour)) {
        return this.colour(value as Colour, spec ?? "");
      }
      return String(value);
    });
  };

  /** A number as the language writes it (a decimal comma in German, Czech, Polish …);
   * `options` as Intl.NumberFormat's (fraction digits, a sign on positive numbers). */
  number = (n: number, options: Intl.NumberFormatOptions = {}): string =>
    new Intl.NumberFormat(this.lang, options).format(n);

  colour(letter: Colour, form = ""): string {
    const forms = this.catalog.colours[COLOURS.indexOf(letter)];
    return forms?.[form] ?? forms?.[""] ?? letter;
  }

  /** A move or an event in words: its label (the message key the server chose, with its
   * parameters) in this language; colours become colour names, cards their names ("green 7"),
   * and notes follow in brackets (keltis.i18n.Translator.label words the same labels). */
  label(label: Label): string {
    const params: Params = {};
    for (const [name, value] of Object.entries(label.params)) {
      params[name] = CARD_PARAMS.has(name) && typeof value === "string" ? this.card(value) : value;
    }
    const text = this.t(label.key, params);
    return label.notes.length ? `${text} (${label.notes.map((n) => this.label(n)).join(", ")})` : text;
  }

  /** One event as a phrase. */
  event(e: Event): string {
    return this.label(e.label);
  }

  events(list: Event[]): string {
    return list.map((e) => this.event(e)).join("; ");
  }

  /** A card's name: "green 7", "green closing card", "point card 5" (never its notation). */
  card(text: string): string {
    const colour = text[0];
    const value = text.slice(1);
    if (colour === "*") return this.t("web.point_card", { value });
    if (value === "X") return this.t("web.closing_card", { colour });
    return `${this.colour(colour as Colour)} ${value}`;
  }

  /** A move typed in this language's words as the notation reads it: its first word, one of
   * the language's words for the notation's (move.word.*: "dobierz G", "duży"), becomes the
   * notation's ("draw G", "big"); cards, colour letters and anything else stay as typed
   * (keltis.i18n.Translator.typed_move reads the same). */
  typedMove(text: string): string {
    const typed = text.trim();
    const space = typed.search(/\s/);
    const head = (space < 0 ? typed : typed.slice(0, space)).toLocaleLowerCase(this.lang);
    const rest = space < 0 ? "" : typed.slice(space);
    for (const word of MOVE_WORDS) {
      const ours = this.t(`move.word.${word}`).toLocaleLowerCase(this.lang).split(/\s+/);
      if (head === word || ours.includes(head)) return word + rest;
    }
    return typed;
  }

  /** A move's notation with its word in this language ("draw G" → "dobierz G"): what the
   * player may type for it (keltis.i18n.Translator.move_in_words). */
  moveInWords(notation: string): string {
    const space = notation.indexOf(" ");
    const head = space < 0 ? notation : notation.slice(0, space);
    if (!MOVE_WORDS.includes(head)) return notation;
    const ours = this.t(`move.word.${head}`).split(/\s+/)[0] || head;
    return ours + (space < 0 ? "" : notation.slice(space));
  }

  pileName(pile: Pile): string {
    return pile === "*" ? this.t("web.point_cards") : this.colour(pile);
  }
}

const cache = new Map<string, Promise<Translator>>();

export function loadTranslator(lang: string): Promise<Translator> {
  let found = cache.get(lang);
  if (!found) {
    found = fetch(`/api/catalogs/${lang}`).then(async (response) => {
      if (!response.ok) throw new Error(`catalog ${lang}: HTTP ${response.status}`);
      return new Translator((await response.json()) as Catalog);
    });
    found.catch(() => cache.delete(lang));
    cache.set(lang, found);
  }
  return found;
}
