"""keltis's version (the package's, as ``pyproject.toml`` gives it; ``keltis.__version__``)."""

__version__ = "0.1.0"
