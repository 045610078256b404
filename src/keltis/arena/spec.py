"""Bot specifications: which bot plays a seat, written as text on the command line.

A spec is one of::

    greedy                                  a bot of keltis.bots.BOTS by name
    ismcts:iterations=200,exploration=0.5   the same with options
    mypackage.mybots:MyBot                  a keltis.bots.Bot subclass by import path
    mypackage.mybots:MyBot:depth=3          the same with options
    mine=mypackage.mybots:MyBot             any of these with a label (the name in reports)

Option values are read as ``true``/``false``, ``none``, whole numbers, decimals, or else kept
as text. A bot is built as ``factory(seed, **arguments)``: an option named like a parameter of
the bot's ``__init__`` is passed as that argument; an option named like a field of a dataclass
parameter (``IsmctsBot(seed, config: SearchConfig)``) goes into that dataclass.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from keltis.bots import BOTS, Bot

OptionValue = bool | int | float | str | None

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")
_LABEL = re.compile(r"[^\s=:,]+\Z")


class BotSpecError(ValueError):
    """A bot spec could not be read, or names no usable bot."""


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
    options: tuple[tuple[str, OptionValue], ...] = ()
    label: str = ""

    @property
    def is_import_path(self) -> bool:
        """True for a ``module:Class`` target, False for a name of ``keltis.bots.BOTS``."""
        return ":" in self.target

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
        elif len(parts) == 2 and ("=" in parts[1] or not parts[1]):
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
        if ":" in target:
            module, _, attr = target.partition(":")
            if not _MODULE.match(module) or not _IDENTIFIER.match(attr):
                raise BotSpecError(
                    f"bad import path {target!r} in bot spec {original!r}: "
                    "expected package.module:ClassName"
                )
        elif not _IDENTIFIER.match(target.replace("-", "_")):
            raise BotSpecError(f"bad bot name {target!r} in bot spec {original!r}")
        return cls(target, _parse_options(options_text, original), label)

    def factory(self) -> Callable[..., Bot]:
        """The class (or factory function) that builds this bot; raises :class:`BotSpecError`."""
        if not self.is_import_path:
            try:
                return BOTS[self.target]
            except KeyError:
                raise BotSpecError(
                    f"unknown bot {self.target!r}: choose one of {', '.join(BOTS)}, "
                    "or give an import path package.module:ClassName"
                ) from None
        module_name, _, attr = self.target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            if module_name in BOTS:
                raise BotSpecError(
                    f"cannot read bot spec {self.text!r}: options of bot {module_name!r} are "
                    f"written key=value, e.g. {module_name}:{attr}=…"
                ) from None
            raise BotSpecError(
                f"cannot import {module_name!r} for bot {self.target!r}: {error}"
            ) from None
        found = getattr(module, attr, None)
        if found is None:
            raise BotSpecError(f"module {module_name!r} has no {attr!r} (bot {self.target!r})")
        if not (isinstance(found, type) and issubclass(found, Bot)):
            raise BotSpecError(f"{self.target!r} is not a subclass of keltis.bots.Bot")
        if inspect.isabstract(found):
            missing = ", ".join(sorted(getattr(found, "__abstractmethods__", ())))
            raise BotSpecError(f"{self.target!r} is abstract (it does not implement {missing})")
        return found

    def check(self) -> None:
        """Refuse an unknown bot or an option the bot does not take, before any game."""
        self.arguments()

    def _parameters(self) -> tuple[list[str], dict[str, type]] | None:
        """The bot's plain option parameters and its dataclass parameters (by name), or
        ``None`` if it takes any keyword (``**kwargs``)."""
        factory = self.factory()
        try:
            params = list(inspect.signature(factory).parameters.values())[1:]
        except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
            return None
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
            return None
        named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        configs = _dataclass_parameters(factory)
        direct = [p.name for p in params if p.kind in named and p.name not in configs]
        return direct, configs

    def option_names(self) -> list[str] | None:
        """The options this bot takes (``None``: any, it takes ``**kwargs``)."""
        found = self._parameters()
        if found is None:
            return None
        direct, configs = found
        return direct + [f for c in configs.values() for f in _fields(c)]

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments the options become (see the module docstring): an option
        that names a parameter of the bot is passed as it is; an option that names a field of
        a dataclass parameter (such as ``config: SearchConfig``) goes into that dataclass."""
        found = self._parameters()
        if found is None:
            return dict(self.options)
        direct, configs = found
        kwargs: dict[str, Any] = {}
        grouped: dict[str, dict[str, Any]] = {}
        for key, value in self.options:
            if key in direct:
                kwargs[key] = value
                continue
            owner = next((name for name, c in configs.items() if key in _fields(c)), None)
            if owner is None:
                known = self.option_names() or []
                takes = f"its options are {', '.join(known)}" if known else "it has none"
                raise BotSpecError(f"bot {self.target!r} has no option {key!r} ({takes})")
            grouped.setdefault(owner, {})[key] = value
        for name, values in grouped.items():
            try:
                kwargs[name] = configs[name](**values)
            except (TypeError, ValueError) as error:
                raise BotSpecError(f"bad options for bot {self.text!r}: {error}") from error
        return kwargs

    def build(self, seed: int | None) -> Bot:
        """A new bot seeded with ``seed``; raises :class:`BotSpecError` if it cannot be built."""
        factory = self.factory()
        kwargs = self.arguments()
        try:
            bot = factory(seed, **kwargs)
        except (TypeError, ValueError) as error:
            raise BotSpecError(f"cannot build bot {self.text!r}: {error}") from error
        if not isinstance(bot, Bot):
            raise BotSpecError(f"{self.target!r} did not build a keltis.bots.Bot")
        return bot

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


def _dataclass_parameters(factory: Callable[..., Bot]) -> dict[str, type]:
    """Parameters of ``factory`` whose type is a dataclass (or a dataclass or None)."""
    target: Any = factory
    if isinstance(factory, type):
        target = next(k.__dict__["__init__"] for k in factory.__mro__ if "__init__" in k.__dict__)
    try:
        hints = typing.get_type_hints(target)
    except Exception:  # unresolvable annotations: then no option goes into a dataclass
        return {}
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


def parse_bots(texts: list[str]) -> tuple[BotSpec, ...]:
    """Read several specs; names (labels or spec texts) must differ."""
    specs = tuple(BotSpec.parse(t) for t in texts)
    names = [s.name for s in specs]
    for name in names:
        if names.count(name) > 1:
            raise BotSpecError(
                f"bot {name!r} is given twice: to compare a bot with itself, give the copies "
                f"labels, e.g. a={name} b={name}"
            )
    return specs
