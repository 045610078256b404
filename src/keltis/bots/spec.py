"""Bot specs: the one way to name a bot as text, everywhere — :func:`make_bot`, the terminal's
``--bot`` and ``--seats``, ``keltis arena``'s bot arguments, and the seat ``kind`` of a record.

A spec is one of::

    greedy                                  a bot of BOTS by name (any case)
    hard, Morrigan                          a level, by its key or its persona's name
    ismcts:iterations=200,exploration=0.5   a bot or a level with options
    hard:seconds=2                          (a level's options go to the bot behind it)
    mypackage.mybots:MyBot                  a keltis.bots.Bot subclass by import path
    mypackage.mybots:MyBot:depth=3          the same with options
    mine=mypackage.mybots:MyBot             any of these with a label (the name in reports)
    learned=ppo-cards.pt                    a trained policy's file, played by the bot its
                                            suffix names (keltis.env.torch_policy:PPOBot here)
    cards.npz:greedy=false                  the same with options

Option values are read as ``true``/``false``, ``none``, whole numbers, decimals, or else kept
as text, then checked against the type the bot declares for the option (``iterations: int``
takes whole numbers only). A bot is built as ``factory(seed, **arguments)``: an option named
like a parameter of the bot's ``__init__`` is passed as that argument; an option named like a
field of a dataclass parameter (``IsmctsBot(seed, config: SearchConfig)``) goes into that
dataclass. A level is its bot's spec (:data:`~keltis.bots.levels.LEVELS`) with the given
options on top: ``hard:seconds=2`` is ``ismcts:iterations=800,playout_rounds=5,seconds=2``.
A policy file (a path without ``:`` or ``,``, ending in a suffix of
:data:`POLICY_FILES`) is the bot that plays it with ``path=`` the file, other options after.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import os
import re
import sys
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from keltis.bots.base import Bot, RandomBot
from keltis.bots.greedy import GreedyBot
from keltis.bots.heuristic import HeuristicBot
from keltis.bots.levels import LEVELS, Level, find_level

OptionValue = bool | int | float | str | None

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")
_LABEL = re.compile(r"[^\s=:,]+\Z")


#: Policy files a spec may name directly, by suffix: the bot that plays each (``path=`` the file).
POLICY_FILES: dict[str, str] = {
    ".npz": "keltis.env.linear:LinearBot",
    ".pt": "keltis.env.torch_policy:PPOBot",
}


class BotSpecError(ValueError):
    """A bot spec could not be read, or names no usable bot."""


class LevelFactory:
    """Builds the bot of a level: ``factory(seed, **options)``, the options on top of the
    level's own (``BOTS["hard"](1, seconds=2)``)."""

    def __init__(self, level: Level) -> None:
        self.level = level
        self.description = f"{level.persona}: {level.description}"

    def __call__(self, seed: int | None = None, **options: OptionValue) -> Bot:
        return BotSpec(self.level.key, tuple(options.items())).build(seed)

    def __repr__(self) -> str:
        return f"LevelFactory({self.level.key!r})"


class Registry(Mapping[str, Callable[..., Bot]]):
    """Bot factories by name. An entry given as ``"module:Class"`` is imported when first
    looked up: the search (``ismcts``, behind the ``hard`` level) loads only when a search
    bot is built, not for ``keltis play`` against medium bots or for ``--help``."""

    def __init__(self, entries: Mapping[str, Callable[..., Bot] | str]) -> None:
        self._entries: dict[str, Callable[..., Bot] | str] = dict(entries)

    def __getitem__(self, name: str) -> Callable[..., Bot]:
        entry = self._entries[name]
        if isinstance(entry, str):
            module, _, attr = entry.partition(":")
            entry = getattr(importlib.import_module(module), attr)
            assert callable(entry)
            self._entries[name] = entry
        return entry

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


#: The bots that come with keltis by name: the bots themselves, then the levels for people.
BOTS: Registry = Registry(
    {
        "random": RandomBot,
        "greedy": GreedyBot,
        "heuristic": HeuristicBot,
        "ismcts": "keltis.bots.ismcts:IsmctsBot",
        "learned-search": "keltis.learn.search:LearnedSearchBot",
        "ismcts-kernel": "keltis.fast.search:KernelSearchBot",
        **{key: LevelFactory(level) for key, level in LEVELS.items()},
    }
)


def known_names() -> str:
    """The names a spec may use, for messages: ``random, greedy, …, hard (or Brigid, …)``."""
    personas = ", ".join(level.persona for level in LEVELS.values())
    return f"{', '.join(BOTS)} (levels also by name: {personas})"


def parse_value(text: str) -> OptionValue:
    """An option value from its text: bool, None, int, float, else the text itself."""
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("none", "null"):
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def format_value(value: OptionValue) -> str:
    """The text of an option value, read back by :func:`parse_value`."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class BotSpec:
    """A bot to seat: a registry name or ``module:Class`` target, options and a label."""

    target: str
    """A name of :data:`BOTS` (lower case; a persona's name is read as its level's key) or
    ``package.module:ClassName``."""
    options: tuple[tuple[str, OptionValue], ...] = ()
    label: str = ""

    @property
    def is_import_path(self) -> bool:
        """True for a ``module:Class`` target, False for a name of :data:`BOTS`."""
        return ":" in self.target

    @property
    def level(self) -> Level | None:
        """The level this spec names (``hard``, ``hard:seconds=2``), else ``None``."""
        return None if self.is_import_path else LEVELS.get(self.target)

    @property
    def text(self) -> str:
        """The spec without its label, e.g. ``ismcts:iterations=200`` (parses back)."""
        if not self.options:
            return self.target
        opts = ",".join(f"{k}={format_value(v)}" for k, v in self.options)
        return f"{self.target}:{opts}"

    @property
    def name(self) -> str:
        """The label if given, else the spec text: the bot's name in reports."""
        return self.label or self.text

    def __str__(self) -> str:
        return f"{self.label}={self.text}" if self.label else self.text

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """Read a spec (see the module docstring); raises :class:`BotSpecError`."""
        original = text
        text = text.strip()
        if not text:
            raise BotSpecError("empty bot spec")
        label = ""
        head, eq, rest = text.partition("=")
        if eq and ":" not in head:
            label, text = head.strip(), rest.strip()
            if not _LABEL.match(label):
                raise BotSpecError(
                    f"bad label {label!r} in bot spec {original!r}: "
                    "use letters, digits, '-', '_' or '.' (no spaces, '=', ':' or ',')"
                )
            if not text:
                raise BotSpecError(f"bot spec {original!r} has a label but no bot")
        parts = text.split(":")
        if len(parts) == 1:
            target, options_text = parts[0], ""
        elif len(parts) == 2 and ("=" in parts[1] or not parts[1].strip()):
            target, options_text = parts
        elif len(parts) == 2:
            target, options_text = text, ""
        elif len(parts) == 3:
            target, options_text = f"{parts[0]}:{parts[1]}", parts[2]
        else:
            raise BotSpecError(
                f"cannot read bot spec {original!r}: expected NAME, NAME:OPTIONS, "
                "MODULE:CLASS or MODULE:CLASS:OPTIONS"
            )
        target = target.strip()
        player = next((b for sfx, b in POLICY_FILES.items() if target.endswith(sfx)), None)
        if player is not None and ":" not in target:  # learned=ppo-cards.pt
            options = _parse_options(options_text, original)
            if any(key == "path" for key, _ in options):
                raise BotSpecError(f"bot spec {original!r} names its policy file twice")
            return cls(player, (("path", target), *options), label)
        if ":" in target:
            module, _, attr = target.partition(":")
            module, attr = module.strip(), attr.strip()
            if not _MODULE.match(module) or not _IDENTIFIER.match(attr):
                raise BotSpecError(
                    f"bad import path {target!r} in bot spec {original!r}: "
                    "expected package.module:ClassName"
                )
            target = f"{module}:{attr}"
        elif not _IDENTIFIER.match(target.replace("-", "_")):
            raise BotSpecError(f"bad bot name {target!r} in bot spec {original!r}")
        else:
            level = find_level(target)
            target = level.key if level is not None else target.lower()
        return cls(target, _parse_options(options_text, original), label)

    def resolved(self) -> BotSpec:
        """The spec of the bot that is built: for a level, the level's bot with this spec's
        options on top of the level's (same label); any other spec is itself."""
        level = self.level
        if level is None:
            return self
        base = BotSpec.parse(level.spec)
        options = dict(base.options)
        options.update(self.options)
        return BotSpec(base.target, tuple(options.items()), self.label)

    def factory(self) -> Callable[..., Bot]:
        """The class (or factory function) that builds this bot (for a level, the class of
        the bot behind it); raises :class:`BotSpecError`."""
        spec = self.resolved()
        if not spec.is_import_path:
            try:
                return BOTS[spec.target]
            except KeyError:
                raise BotSpecError(
                    f"unknown bot {self.target!r}: choose one of {known_names()}, or give an "
                    "import path package.module:ClassName"
                ) from None
        module_name, _, attr = spec.target.partition(":")
        try:
            module = _import(module_name)
        except ImportError as error:
            lowered = module_name.lower()
            if lowered in BOTS or find_level(lowered) is not None:
                raise BotSpecError(
                    f"cannot read bot spec {spec.text!r}: options of bot {module_name!r} are "
                    f"written key=value, e.g. {module_name}:{attr}=…"
                ) from None
            raise BotSpecError(
                f"cannot import {module_name!r} for bot {spec.target!r}: {error}"
            ) from None
        except Exception as error:  # the module itself fails while it is imported
            raise BotSpecError(
                f"importing {module_name!r} for bot {spec.target!r} failed: "
                f"{type(error).__name__}: {error}"
            ) from error
        found = getattr(module, attr, None)
        if found is None:
            raise BotSpecError(f"module {module_name!r} has no {attr!r} (bot {spec.target!r})")
        if not (isinstance(found, type) and issubclass(found, Bot)):
            raise BotSpecError(f"{spec.target!r} is not a subclass of keltis.bots.Bot")
        if inspect.isabstract(found):
            missing = ", ".join(sorted(getattr(found, "__abstractmethods__", ())))
            raise BotSpecError(f"{spec.target!r} is abstract (it does not implement {missing})")
        return found

    def check(self) -> None:
        """Refuse an unknown bot or an option the bot does not take (or a value of the wrong
        type), before any game."""
        self.arguments()

    def _parameters(self) -> tuple[dict[str, Any], dict[str, type]] | None:
        """The bot's plain option parameters (name: type hint, ``Any`` if none) and its
        dataclass parameters (name: class), or ``None`` if it takes any keyword
        (``**kwargs``)."""
        return _factory_parameters(self.factory())

    def option_names(self) -> list[str] | None:
        """The options this bot takes (``None``: any, it takes ``**kwargs``)."""
        found = self._parameters()
        if found is None:
            return None
        direct, configs = found
        return list(direct) + [f for c in configs.values() for f in _fields(c)]

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments the options become (see the module docstring): an option
        that names a parameter of the bot is passed as it is; an option that names a field of
        a dataclass parameter (such as ``config: SearchConfig``) goes into that dataclass.
        Each value is checked against the option's declared type."""
        spec = self.resolved()
        found = spec._parameters()
        if found is None:
            return dict(spec.options)
        direct, configs = found
        kwargs: dict[str, Any] = {}
        grouped: dict[str, dict[str, Any]] = {}
        for key, value in spec.options:
            if key in direct:
                kwargs[key] = self._typed(key, value, direct[key])
                continue
            owner = next((name for name, c in configs.items() if key in _fields(c)), None)
            if owner is None:
                known = spec.option_names() or []
                takes = f"its options are {', '.join(known)}" if known else "it has none"
                raise BotSpecError(f"bot {self.target!r} has no option {key!r} ({takes})")
            hint = _hints(configs[owner]).get(key, Any)
            grouped.setdefault(owner, {})[key] = self._typed(key, value, hint)
        for name, values in grouped.items():
            try:
                kwargs[name] = configs[name](**values)
            except (TypeError, ValueError) as error:
                raise BotSpecError(f"bad options for bot {self.text!r}: {error}") from error
        return kwargs

    def _typed(self, key: str, value: OptionValue, hint: Any) -> Any:
        try:
            return _coerce(value, hint)
        except _MismatchError as error:
            raise BotSpecError(
                f"{self.target} option {key}: {format_value(value)!r} is not {error.expected}"
            ) from None

    def build(self, seed: int | None) -> Bot:
        """A new bot seeded with ``seed``; raises :class:`BotSpecError` if it cannot be built.
        A level's bot has ``bot.level`` set to the level's key."""
        factory = self.factory()
        kwargs = self.arguments()
        try:
            bot = factory(seed, **kwargs)
        except (TypeError, ValueError) as error:
            raise BotSpecError(f"cannot build bot {self.text!r}: {error}") from error
        if not isinstance(bot, Bot):
            raise BotSpecError(f"{self.target!r} did not build a keltis.bots.Bot")
        level = self.level
        if level is not None:
            bot.level = level.key
        return bot

    def display_name(self) -> str:
        """A short name for a seat on screen: the label, else a level's persona, else the
        bot's name (``Greedy``) or its class (``MyBot``)."""
        if self.label:
            return self.label
        level = self.level
        if level is not None:
            return level.persona
        if self.is_import_path:
            return self.target.partition(":")[2]
        return self.target.capitalize()

    def to_json(self) -> dict[str, Any]:
        """``{"label": …, "spec": …}``; read back by :meth:`from_json`."""
        return {"label": self.name, "spec": self.text}

    @classmethod
    def from_json(cls, data: Any) -> BotSpec:
        """Read the form written by :meth:`to_json`."""
        if not isinstance(data, dict) or not isinstance(data.get("spec"), str):
            raise BotSpecError('a bot entry must be an object with a "spec" text')
        spec = cls.parse(data["spec"])
        label = data.get("label")
        if isinstance(label, str) and label != spec.text:
            spec = cls(spec.target, spec.options, label)
        return spec


def make_bot(spec: str | BotSpec, seed: int | None = None) -> Bot:
    """A bot from a spec (see the module docstring): ``make_bot("hard", 7)``,
    ``make_bot("ismcts:iterations=200,playout=random")``, ``make_bot("mybots:MyBot")``.
    Raises :class:`BotSpecError` (a ``ValueError``) naming what is wrong."""
    if isinstance(spec, str):
        spec = BotSpec.parse(spec)
    return spec.build(seed)


def bot_list() -> list[str]:
    """Lines that list the bots of :data:`BOTS` with what they do and their options, then
    how to name a bot of your own (``--list-bots`` of ``keltis play`` and ``keltis arena``)."""
    lines: list[str] = []
    for name in BOTS:
        spec = BotSpec(name)
        level = spec.level
        if level is not None:
            lines.append(f"{name:10} {level.persona}: {level.description} (= {level.spec})")
        else:
            try:
                factory = BOTS[name]
            except ImportError as error:  # a bot of an optional part that is not installed
                lines.append(f"{name:10} not installed here: {error}")
                continue
            lines.append(f"{name:10} {getattr(factory, 'description', '')}")
        options = spec.option_names()
        if options:
            lines.append(f"{'':10} options: {', '.join(options)}")
    lines.append(
        "Names in any case; the levels also by their names "
        f"({', '.join(level.persona for level in LEVELS.values())})."
    )
    lines.append("Options: NAME:key=value,... (e.g. ismcts:iterations=200, hard:seconds=2).")
    lines.append(
        "Your own bot: package.module:ClassName[:key=value,...] (a keltis.bots.Bot subclass)."
    )
    return lines


class _MismatchError(Exception):
    def __init__(self, expected: str) -> None:
        super().__init__(expected)
        self.expected = expected


def _coerce(value: OptionValue, hint: Any) -> Any:
    """``value`` as the type ``hint`` declares (an int for a float, text for text), or
    :class:`_MismatchError` naming what was expected; types it does not know pass as they are."""
    if hint is Any:
        return value
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        choices = typing.get_args(hint)
        if value is None and type(None) in choices:
            return None
        expected: list[str] = []
        for choice in choices:
            if choice is type(None):
                continue
            try:
                return _coerce(value, choice)
            except _MismatchError as error:
                expected.append(error.expected)
        raise _MismatchError(" or ".join(expected))
    if origin is typing.Literal:
        allowed = typing.get_args(hint)
        for item in allowed:
            if item == value or (isinstance(item, str) and item == format_value(value)):
                return item
        raise _MismatchError("one of " + ", ".join(format_value(a) for a in allowed))
    if hint is bool:
        if isinstance(value, bool):
            return value
        if value in (0, 1) and isinstance(value, int):
            return bool(value)
        raise _MismatchError("true or false")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise _MismatchError("a whole number")
    if hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise _MismatchError("a number")
    if hint is str:
        return value if isinstance(value, str) else format_value(value)
    return value


def _import(module_name: str) -> types.ModuleType:
    """Import a bot's module; one not found is looked for in the current directory too (as
    ``python`` itself does for a script there), for ``mybots.py`` next to the player."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        top = module_name.partition(".")[0]
        here = os.getcwd()
        if error.name != top or "" in sys.path or here in sys.path:
            raise
        sys.path.append(here)
        return importlib.import_module(module_name)


@functools.lru_cache(maxsize=256)
def _factory_parameters(
    factory: Callable[..., Bot],
) -> tuple[dict[str, Any], dict[str, type]] | None:
    """:meth:`BotSpec._parameters` of a factory, worked out once per factory (from its
    signature and type hints: a tournament builds its bots for every game). The dictionaries
    are shared: read them only."""
    try:
        params = list(inspect.signature(factory).parameters.values())[1:]
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    hints = _hints(_init_of(factory))
    configs = _dataclass_parameters(hints)
    direct = {
        p.name: hints.get(p.name, Any) for p in params if p.kind in named and p.name not in configs
    }
    return direct, configs


def _init_of(factory: Callable[..., Bot]) -> Any:
    """The function whose parameters the options become: a class's ``__init__``."""
    if isinstance(factory, type):
        return next(k.__dict__["__init__"] for k in factory.__mro__ if "__init__" in k.__dict__)
    return factory


def _hints(target: Any) -> dict[str, Any]:
    try:
        return typing.get_type_hints(target)
    except Exception:  # unresolvable annotations: then no option is checked by its type
        return {}


def _dataclass_parameters(hints: dict[str, Any]) -> dict[str, type]:
    """Parameters whose type is a dataclass (or a dataclass or None)."""
    found: dict[str, type] = {}
    for name, hint in hints.items():
        candidates = typing.get_args(hint) if typing.get_args(hint) else (hint,)
        for candidate in candidates:
            if isinstance(candidate, type) and dataclasses.is_dataclass(candidate):
                found[name] = candidate
                break
    return found


def _fields(config: type) -> list[str]:
    return [f.name for f in dataclasses.fields(config) if f.init]


def _parse_options(text: str, original: str) -> tuple[tuple[str, OptionValue], ...]:
    options: list[tuple[str, OptionValue]] = []
    seen: set[str] = set()
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not _IDENTIFIER.match(key):
            raise BotSpecError(
                f"bad option {item!r} in bot spec {original!r}: expected key=value, "
                "several separated by commas"
            )
        if key in seen:
            raise BotSpecError(f"option {key!r} is given twice in bot spec {original!r}")
        seen.add(key)
        options.append((key, parse_value(value.strip())))
    return tuple(options)
