"""Errors as values: every problem names its place (file, line, column or card and field).

Commands collect problems rather than stopping at the first, and print them all
in the ``file:line:column: message`` form that editors and CI logs understand.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong, where it is, and (optionally) how to fix it."""

    file: str
    line: int  # 1-based; 0 when the place is the whole file
    column: int  # 1-based; 0 when unknown
    message: str
    hint: str | None = None

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
