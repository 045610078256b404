"""Translations of the interface: English plus German (the original Kosmos terms) and the
languages of the rulebooks (Czech, Slovak, Hungarian, Polish, Spanish), in the games' own
words (the rulebooks' terms, listed in ``docs/terminal.md``).

Every message is declared once in English, in :mod:`keltis.messages` (refusals in
:mod:`keltis.core.refusals`), and translated in a gettext catalog per language managed
with Babel (:mod:`keltis.catalogs`, ``docs/translating.md``). Messages are
``str.format`` templates keyed by name (``ev.lay``); the key is the catalog's message
context. A message with a number that meets a word has every plural form its language has
(CLDR rules), chosen by its count parameter.

Colour names are filled in as :class:`ColourName` objects, so a template asks for the
grammatical form its language needs with a format spec: Czech ``"na {path:f2} cestě"``
gives *na zelené cestě*, German ``"auf dem {path:en} Pfad"`` *auf dem grünen Pfad*; a
template without a spec gets the plain name. The forms are the catalog's: the ``colour.*``
messages list them (``"zelená | f2: zelené | …"``), so a translator adds one without
touching Python. A missing, fuzzy or unusable translation falls back to English, so a new
message never breaks a language.

The language comes from ``--lang``, else from ``KELTIS_LANG``, ``LANGUAGE`` (gettext's
list, ``de:en``), ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (``de_DE.UTF-8`` → ``de``),
else English.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from keltis.catalogs import LANGUAGES as LANGUAGES  # the languages are the catalogs'
from keltis.catalogs import fields, parse_colour, translations
from keltis.core.card_codes import COLOUR_LETTERS
from keltis.core.errors import IllegalActionError, KeltisError
from keltis.core.events import event_json
from keltis.core.labels import Label
from keltis.describe import Event
from keltis.messages import COLOUR_KEYS, MESSAGES, Phrase

#: Event and refusal parameters that hold a colour index (or ``"*"``: the point-card pile).
_COLOUR_PARAMS: Final = ("onto", "path", "pile", "colour")
#: The words of the notation a player may also type in their language (``move.word.*``).
MOVE_WORDS: Final = ("draw", "pass", "big", "small", "wish")


class _PerLanguage(Mapping[str, Any]):
    """A read-only mapping language → value, each value computed from the catalogs when
    first asked for."""

    def __init__(self, compute: Callable[[str], Any]) -> None:
        self._compute = functools.cache(compute)

    def __getitem__(self, lang: str) -> Any:
        if lang not in LANGUAGES:
            raise KeyError(lang)
        return self._compute(lang)

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)


def _colour_forms(lang: str) -> dict[str, tuple[str, ...]]:
    names = [_forms(lang, index) for index in range(len(COLOUR_KEYS))]
    shared = set.intersection(*(set(forms) for forms in names))
    return {form: tuple(forms[form] for forms in names) for form in names[0] if form in shared}


def _forms(lang: str, index: int) -> dict[str, str]:
    key = COLOUR_KEYS[index]
    english = MESSAGES[key].english
    if lang == "en":
        return {"": english}
    try:
        return parse_colour(str(translations(lang).pgettext(key, english)))
    except ValueError:
        return {"": english}


#: Colour names per language and form (``""``: the plain name; other forms as the catalog
#: names them, e.g. Czech ``f2``, German ``en``), read from the ``colour.*`` messages.
COLOUR_FORMS: Final[Mapping[str, dict[str, tuple[str, ...]]]] = _PerLanguage(_colour_forms)

#: Plain colour names per language.
COLOURS: Final[Mapping[str, tuple[str, ...]]] = _PerLanguage(lambda lang: COLOUR_FORMS[lang][""])


def detect_language(explicit: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The language to use: ``explicit`` if given, else from the environment, else ``en``.

    The environment is read as gettext does: ``KELTIS_LANG`` first, then each entry of
    ``LANGUAGE`` (unless the locale is ``C``/``POSIX``), then the first of ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG`` that is set; the first known language wins."""
    if explicit:
        code = _code(explicit)
        if code not in LANGUAGES:
            raise ValueError(f"unknown language {explicit!r}: choose one of {', '.join(LANGUAGES)}")
        return code
    env = os.environ if env is None else env
    locale = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "")
    candidates = [env.get("KELTIS_LANG", "")]
    if _code(locale) not in ("c", "posix"):
        candidates += env.get("LANGUAGE", "").split(":")
    candidates += [env.get(k, "") for k in ("LC_ALL", "LC_MESSAGES", "LANG")]
    for value in candidates:
        if _code(value) in LANGUAGES:
            return _code(value)
    return "en"


def _code(value: str) -> str:
    """``de_DE.UTF-8@euro`` → ``de``."""
    return value.lower().split(".")[0].split("@")[0].split("_")[0].split("-")[0]


class ColourName:
    """A colour's name in one language; ``format(name, "f2")`` gives a grammatical form
    (see :data:`COLOUR_FORMS`), an unknown or empty spec the plain name."""

    __slots__ = ("forms",)

    def __init__(self, forms: Mapping[str, str]) -> None:
        self.forms = dict(forms)

    def __format__(self, spec: str) -> str:
        return self.forms.get(spec, self.forms[""])

    def __str__(self) -> str:
        return self.forms[""]

    def __repr__(self) -> str:
        return f"ColourName({self.forms['']!r})"


def template_fields(template: str) -> dict[str, set[str]]:
    """The fields of a message template, each with the format specs it is used with."""
    return fields(template)


def plural_number(value: object) -> int:
    """The number that selects a plural form: an int as it is, a numeric text (``"+3"``)
    read; the sign does not count (``-2 points``). Anything else counts as 5, which takes the
    general plural form ("5 cards", Czech *5 karet*, Polish *5 kart*)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return abs(value)
    try:
        return abs(int(str(value).strip()))
    except ValueError:
        return 5


class Translator:
    """Messages of one language with English as the fallback."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
        self.lang = lang
        self._translations = None if lang == "en" else translations(lang)
        forms = COLOUR_FORMS[lang]
        self._names = tuple(
            ColourName({form: names[c] for form, names in forms.items()})
            for c in range(len(COLOUR_KEYS))
        )
        self._nameless = ColourName(dict.fromkeys(forms, ""))

    def template(self, key: str, count: object = 5) -> str | None:
        """The template of ``key`` in this language (for a plural message, the form for
        ``count``); ``None`` if there is no such message."""
        message = MESSAGES.get(key)
        if message is None:
            return None
        t = self._translations
        if message.plural is None:
            return message.english if t is None else str(t.pgettext(key, message.english))
        n = plural_number(count)
        if t is None:
            return message.english if n == 1 else message.plural
        return str(t.npgettext(key, message.english, message.plural, n))

    def english(self, key: str, count: object = 5) -> str | None:
        """The English template of ``key`` (see :meth:`template`)."""
        message = MESSAGES.get(key)
        if message is None:
            return None
        if message.plural is None or plural_number(count) == 1:
            return message.english
        return message.plural

    def __call__(self, key: str, **params: Any) -> str:
        """The message ``key`` filled with ``params`` (the key itself if unknown). A
        translation that ``params`` cannot fill gives the English, and an English that
        they cannot fill its raw template."""
        message = MESSAGES.get(key)
        if message is None:
            return key
        if any(isinstance(value, Phrase) for value in params.values()):
            params = {k: self(v.key) if isinstance(v, Phrase) else v for k, v in params.items()}
        count = params.get(message.count, 5)
        template = self.template(key, count)
        assert template is not None
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError, AttributeError):
            english = self.english(key, count) or key
            try:
                return english.format(**params)
            except (KeyError, IndexError, ValueError, AttributeError):
                return english

    def get(self, key: str, default: str) -> str:
        """The message ``key`` without parameters, or ``default`` if there is none."""
        template = self.template(key)
        return default if template is None else template

    def colour(self, index: int) -> str:
        """The plain name of colour ``index`` (0-4)."""
        return str(self._names[index])

    def colour_name(self, index: int) -> ColourName:
        """Colour ``index`` (0-4) with its grammatical forms, for message parameters;
        -1 gives an empty name."""
        return self._names[index] if 0 <= index < len(self._names) else self._nameless

    def move_words(self) -> dict[str, tuple[str, ...]]:
        """The words this language's players may type for each word of the notation
        (``draw``, ``pass``, ``big``, ``small``, ``wish``: the ``move.word.*`` messages), the
        first the one shown; the notation's own word is always read too."""
        return {word: tuple(self(f"move.word.{word}").split()) or (word,) for word in MOVE_WORDS}

    def typed_move(self, text: str) -> str:
        """A move typed in this language's words as the notation reads it: its first word
        (``dobierz G``, ``duży``) becomes the notation's (``draw G``, ``big``); cards and
        colour letters stay as they are, and so does anything else."""
        head, space, rest = text.strip().partition(" ")
        low = head.casefold()
        for word, ours in self.move_words().items():
            if low == word or low in (w.casefold() for w in ours):
                return f"{word}{space}{rest}"
        return text

    def move_in_words(self, notation: str) -> str:
        """A move's notation with its word in this language (``draw G`` → ``dobierz G``), as a
        refusal repeats it: the words the player reads are the language's."""
        head, space, rest = notation.strip().partition(" ")
        ours = self.move_words().get(head.casefold())
        return f"{ours[0]}{space}{rest}" if ours else notation

    def refusal(self, error: KeltisError, seat_name: Callable[[int], str] | None = None) -> str:
        """Why a move was refused (``"B-13: …"``, with the rule id) or typed input could not
        be read, in this language. ``seat_name`` names the seat in ``owner`` (else
        ``name.player``); an error without a worded ``key`` keeps its English text. In
        English this is ``str(error)`` (unless ``seat_name`` names the owner)."""
        text = self.reason(error, seat_name)
        return f"{error.rule}: {text}" if isinstance(error, IllegalActionError) else text

    def reason(self, error: KeltisError, seat_name: Callable[[int], str] | None = None) -> str:
        """:meth:`refusal` without the rule's id: the reason alone, for a client that shows
        the rule apart (a link to it); the same text as :meth:`refusal` for an error that
        names no rule."""
        key = f"refuse.{error.key}"
        if not error.key or key not in MESSAGES:
            return error.detail if isinstance(error, IllegalActionError) else str(error)
        values = self._named_colours(error.params)
        owner = values.get("owner")
        if isinstance(owner, int):
            values["owner"] = seat_name(owner) if seat_name else self("name.player", n=owner + 1)
        action = values.get("action")
        if isinstance(action, str):  # the refused move, its word in this language
            values["action"] = self.move_in_words(action)
        return self(key, **values)

    def event(self, event: Event) -> str:
        """One :mod:`keltis.describe` event as a phrase (its label, translated)."""
        return self.label(event_json(event)["label"])

    def label(self, label: Label | Mapping[str, Any]) -> str:
        """A move or an event in words (:class:`keltis.core.labels.Label`, or its wire form):
        colour letters in the parameters become this language's colour names; cards stay in
        notation, as the terminal shows them."""
        if not isinstance(label, Label):
            label = Label.from_json(label)
        values: dict[str, object] = {}
        for name, value in label.params.items():
            if isinstance(value, str) and len(value) == 1 and value in COLOUR_LETTERS:
                values[name] = self.colour_name(COLOUR_LETTERS.index(value))
            else:
                values[name] = value
        text = self(label.key, **values)
        if label.notes:
            text += f" ({', '.join(self.label(note) for note in label.notes)})"
        return text

    def _named_colours(self, params: Mapping[str, object]) -> dict[str, object]:
        """``params`` with each colour index (:data:`_COLOUR_PARAMS`) as its name."""
        values = dict(params)
        for name in _COLOUR_PARAMS:
            colour = values.get(name)
            if isinstance(colour, int) and not isinstance(colour, bool):
                values[name] = self.colour_name(colour)
        return values

    def events(self, events: list[Event]) -> str:
        """Several events joined into one line."""
        return "; ".join(self.event(e) for e in events)
