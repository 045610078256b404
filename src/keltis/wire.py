"""The wire format: the JSON that a browser, a server and a learner rely on.

Six documents, each described by a JSON Schema (draft 2020-12) shipped in
``keltis/schemas/`` and versioned by :data:`~keltis.core.protocol.WIRE_VERSION`:

=============  =========================================================================
``view``       ``View.to_json()``: what one seat or a spectator may see, with ``ply`` and
               the legal actions (notation, action id in its game, kind, preview)
``step``       ``Step.to_json(viewer)``: one accepted action and its events for a receiver
``game-info``  ``Game.info(players, variant).to_json()``: the game's metadata
``record``     ``GameRecord.to_json()``: a game record (version 2)
``live``       a game server's message to a client on the live WebSocket (snapshot, step,
               match, ack, hints, pong, chat, error; ``docs/server.md``); its ``$defs``
               also describe the client's ``chat`` message (``client_chat``)
``review``     ``Review.to_json()``: a finished game's review (``keltis review --json``,
               the server's review route; ``docs/bots.md``)
=============  =========================================================================

``common`` holds the shared definitions (card, action, preview, event, outcome). Read
``docs/wire.md`` for the meaning of each field. :func:`validate` checks a document (it needs
the ``jsonschema`` package, which the test and server extras install; the schemas themselves
are plain files any language can use).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Final

from keltis.core.protocol import JSON, WIRE_VERSION

#: The documents with a schema of their own.
DOCUMENTS: Final = ("view", "step", "game-info", "record", "live", "review")
#: Every schema file, the shared definitions included.
SCHEMAS: Final = ("common", *DOCUMENTS)


@cache
def schema(name: str) -> JSON:
    """The JSON Schema of document ``name`` (one of :data:`SCHEMAS`)."""
    if name not in SCHEMAS:
        raise ValueError(f"no schema {name!r}: choose one of {', '.join(SCHEMAS)}")
    text = resources.files("keltis.schemas").joinpath(f"{name}.schema.json").read_text("utf-8")
    data: JSON = json.loads(text)
    return data


@cache
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry: Registry[Any] = Registry().with_resources(
        (schema(n)["$id"], Resource.from_contents(schema(n))) for n in SCHEMAS
    )
    return Draft202012Validator(schema(name), registry=registry)


def validate(name: str, document: Any) -> None:
    """Raise ``jsonschema.ValidationError`` (a ``ValueError`` here, with the path of the bad
    entry) unless ``document`` is a valid ``name`` document."""
    if name not in DOCUMENTS:
        raise ValueError(f"no document {name!r}: choose one of {', '.join(DOCUMENTS)}")
    errors = sorted(_validator(name).iter_errors(document), key=lambda e: list(e.path))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path) or "(top)"
        raise ValueError(f"not a valid {name} document at {where}: {first.message}")


__all__ = ["DOCUMENTS", "SCHEMAS", "WIRE_VERSION", "schema", "validate"]
