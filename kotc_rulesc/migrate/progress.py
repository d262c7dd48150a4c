"""A progress bar on standard error, for long runs on a terminal only.

It appears when standard error is a terminal and the input is large (its size is
known and at least :data:`MIN_BYTES`); in a pipe, a log file or for a small
collection nothing is printed at all."""

from __future__ import annotations

import sys
from typing import Any, TextIO

__all__ = ["Progress", "MIN_BYTES"]

#: inputs smaller than this (about 4,000 cards) finish before a bar is worth drawing
MIN_BYTES = 1 << 20


class Progress:
    def __init__(self, total: int | None, stream: TextIO | None = None, label: str = "migrating"):
        stream = stream if stream is not None else sys.stderr
        self._bar: Any = None
        if total is not None and total >= MIN_BYTES and _isatty(stream):
            import click

            from ..terminal import unguarded  # (the bar's own control characters reach the terminal as such)

            stream = unguarded(stream)
            self._bar = click.progressbar(length=total, label=label, file=stream, show_eta=True, show_percent=True)
            self._bar.__enter__()

    @property
    def shown(self) -> bool:
        return self._bar is not None

    def update(self, n: int) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
