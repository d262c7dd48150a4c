"""One record per benchmark figure, shared by every script under bench/ and collected by bench/all.py.

A figure is a measured value beside its baseline measured in the same run (so machine noise
hits both), their ratio, the target issue 16 sets, and the peak memory where it matters.  A
script prints its own report as before and, when ``KOTC_BENCH_FIGURES`` names a file, also
appends its figures there as JSON lines; ``bench/all.py`` runs every script that way and prints
one table of them all (Markdown, ready for the README).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass

__all__ = ["Figure", "record", "table"]


@dataclass(frozen=True)
class Figure:
    figure: str  #: what was measured, e.g. "check-cards, 1M JSONL cards (13 → 17)"
    value: float  #: its measure, in ``unit``
    unit: str  #: "s", "ms", "cards/s" …
    baseline: str  #: what it is compared with, e.g. "stdlib JSON copy of the same file"
    baseline_value: float  #: the baseline's measure, in ``unit``
    target: str  #: issue 16's target, e.g. "≤ 2×", "≤ 10 s"
    met: bool  #: whether the target is met in this run
    memory_mb: float | None = None  #: peak resident memory of the measured process, where it matters
    note: str = ""  #: anything a reader needs to read the figure (runs, load average …)

    @property
    def ratio(self) -> float:
        return self.value / self.baseline_value if self.baseline_value else float("inf")


def record(*figures: Figure) -> None:
    """Append ``figures`` to the file ``KOTC_BENCH_FIGURES`` names (nothing when it is unset)."""
    path = os.environ.get("KOTC_BENCH_FIGURES")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as f:
        for fig in figures:
            f.write(json.dumps(asdict(fig), ensure_ascii=False) + "\n")


def _number(x: float, unit: str) -> str:
    if unit == "cards/s":
        return f"{x:,.0f} {unit}"
    return f"{x:,.3g} {unit}" if x < 100 else f"{x:,.0f} {unit}"


def table(figures: list[Figure]) -> str:
    """The figures as a Markdown table: figure, value, baseline, ratio, target, met, memory."""
    rows = ["| figure | measured | baseline (same run) | ratio | target | met | peak memory |",
            "|---|---|---|---|---|---|---|"]
    for f in figures:
        memory = f"{f.memory_mb:,.0f} MB" if f.memory_mb is not None else "–"
        rows.append(f"| {f.figure} | {_number(f.value, f.unit)} | {f.baseline}: {_number(f.baseline_value, f.unit)} "
                    f"| {f.ratio:.2f}× | {f.target} | {'yes' if f.met else '**no**'} | {memory} |")
    return "\n".join(rows) + "\n"
