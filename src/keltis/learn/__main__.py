"""``python -m keltis.learn``: the training pipeline's commands (see :mod:`keltis.learn`)."""

from __future__ import annotations

from keltis.learn.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
