"""Errors as values: every problem names its place, and commands print them all in the
``file:line:column: message`` form that editors and CI logs understand.
"""

from __future__ import annotations

from typing import Iterable

from .value import Value


class Problem(Value):
    """One thing wrong, where it is, and (optionally) how to fix it; problems sort by place, message
    and hint."""

    __slots__ = ("file", "line", "column", "message", "hint", "unreadable")

    def __init__(self, file: str, line: int, column: int, message: str, hint: str | None = None,
                 unreadable: bool = False):
        self.file = file
        self.line = line  # 1-based; 0 when the place is the whole file
        self.column = column  # 1-based; 0 when unknown
        self.message = message
        self.hint = hint
        self.unreadable = unreadable  # the input cannot be read at all: exit status 2, not 1

    def __lt__(self, other: Problem) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.file, self.line, self.column, self.message, self.hint or "") < (
            other.file, other.line, other.column, other.message, other.hint or "")

    def to_json(self, file: str | None = None) -> dict:
        """As JSON: its place (``file`` shown instead of its own where given; null for an unknown line or
        column), message and hint."""
        return {"file": self.file if file is None else file, "line": self.line or None, "column": self.column or None,
                "message": self.message, "hint": self.hint}

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
        self.problems = sorted(set(problems))
        super().__init__("\n".join([f"{len(self.problems)} problem(s):", *map(str, self.problems)]))  # (a program's traceback)


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
    """An OS error while writing an output (a full disk, EIO), naming the file (``filename``): exit status 2."""


class OutputRefused(Exception):
    """An output the writer will not write (a directory, a device, an input of the command …): exit status 2."""
