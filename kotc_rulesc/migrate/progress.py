"""A progress bar on standard error, drawn only on a terminal and for an input of known, large size."""

from __future__ import annotations

from typing import Any, TextIO

__all__ = ["Progress", "MIN_BYTES"]

#: inputs smaller than this (about 4,000 cards) finish before a bar is worth drawing
MIN_BYTES = 1 << 20


class Progress:
    def __init__(self, total: int | None, stream: TextIO):
        self._bar: Any = None
        if total is not None and total >= MIN_BYTES and _isatty(stream):
            import click

            from ..terminal import unguarded  # (the bar's own control characters reach the terminal as such)

            self._bar = click.progressbar(length=total, label="migrating", file=unguarded(stream), show_eta=True,
                                          show_percent=True)
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
