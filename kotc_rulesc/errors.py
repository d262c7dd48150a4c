"""Errors as values: every problem names its place (file, line, column or card and field).

Commands collect problems rather than stopping at the first, and print them all
in the ``file:line:column: message`` form that editors and CI logs understand.
"""

from __future__ import annotations

from typing import Iterable

from .value import Value


class Problem(Value):
    """One thing wrong, where it is, and (optionally) how to fix it.

    Problems sort and compare by place, message and hint (``unreadable`` is how to exit, not what is
    wrong); a slotted class, since every command defines it at start-up."""

    __slots__ = ("file", "line", "column", "message", "hint", "unreadable")

    def __init__(self, file: str, line: int, column: int, message: str, hint: str | None = None,
                 unreadable: bool = False):
        self.file = file
        self.line = line  # 1-based; 0 when the place is the whole file
        self.column = column  # 1-based; 0 when unknown
        self.message = message
        self.hint = hint
        #: the input cannot be read at all (a missing folder, a file that cannot be opened): a usage
        #: error, exit status 2, rather than a problem in the data (1)
        self.unreadable = unreadable

    def _values(self) -> tuple:
        return (self.file, self.line, self.column, self.message, self.hint)

    def __lt__(self, other: Problem) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.file, self.line, self.column, self.message, self.hint or "") < (
            other.file, other.line, other.column, other.message, other.hint or "")

    def __str__(self) -> str:
        where = self.file
        if self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        text = f"{where}: {self.message}"
        if self.hint:
            text += f" (hint: {self.hint})"
        return text


class ProblemsFound(Exception):
    """Raised with the full list when loading cannot produce a usable result."""

    def __init__(self, problems: list[Problem]):
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = sorted(set(problems))


def exit_code(problems: Iterable[Problem]) -> int:
    """The exit status for problems found: 2 when any of them is input that cannot be read,
    else 1 (problems in the data)."""
    return 2 if any(p.unreadable for p in problems) else 1


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is (``cli.run`` installs the handler), so that a run
    unwinds and cleans up as on ^C."""


def interrupt_status(exc: KeyboardInterrupt) -> int:
    """The exit status of a run stopped by a signal, after cleaning up: 128 + the signal's number,
    as a shell reports it — 130 for ^C (SIGINT), 143 for SIGTERM."""
    return 143 if isinstance(exc, Terminated) else 130


class OutputError(OSError):
    """An OS error while writing an output (a full disk, a read-only folder, EIO), naming the file
    it was writing (``filename``): exit status 2 (:mod:`kotc_rulesc.output`, the one writer)."""


class OutputRefused(Exception):
    """An output the writer will not write (a directory, a FIFO or a device, an input of the
    command, a rules file, a link inside a build's folder): a usage error, exit status 2."""
