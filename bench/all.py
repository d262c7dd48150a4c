#!/usr/bin/env python3
"""Every figure of issue 16 in one run: each bench script in turn, then one table of them all.

Each script prints its own report (kept in full below its heading) and records its figures
(bench/figures.py); the table at the end gives every figure beside the baseline measured in the
same run, their ratio, the target and the peak memory — the README's benchmark table is a copy
of it.  Nothing here asserts: the figures are for reading (and for the issue's note).

    .venv/bin/python bench/all.py                 # the sizes the targets name (1M cards: ~15 min)
    .venv/bin/python bench/all.py --quick         # smaller collections, fewer runs (~3 min)
    .venv/bin/python bench/all.py --suite         # also time the test suite (tools/test.sh's pytest)
    .venv/bin/python bench/all.py --markdown t.md # also write the table to t.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from figures import Figure, record, table  # noqa: E402

#: (heading, script, arguments for the full run, arguments for --quick)
SCRIPTS = [
    ("start-up and latency", "startup.py", ["--runs", "21"], ["--runs", "7"]),
    ("JSONL: migrate, check-cards", "migrate_bench.py", ["--cards", "1000000", "--check-formats", "text,json"],
     ["--cards", "100000", "--check-formats", "text,json"]),
    ("YAML collections: migrate", "yaml_bench.py", ["--cards", "10000"], ["--cards", "10000", "--no-round-trip"]),
    ("the workbench and the API", "workbench_bench.py", ["--runs", "21"], ["--runs", "7", "--requests", "100"]),
]


def _suite() -> Figure:
    """The test suite as tools/test.sh runs it (the package compiled, then every core), wall time beside its
    CPU time; where a test fails, what pytest printed of the failures."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "kotc_rulesc", "generated"], cwd=ROOT, capture_output=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "auto", "--dist", "loadfile", "-q", "-p", "no:cacheprovider"],
                          cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-500:]
    print(f"test suite: {last}; wall {wall:.1f} s, CPU {cpu:.1f} s on {os.cpu_count()} cores")
    if done.returncode != 0:  # (a failure under a benchmark's load may not come back: keep its words)
        at = done.stdout.find("= FAILURES =")
        print(done.stdout[done.stdout.rfind("\n", 0, at) + 1:] if at >= 0 else done.stdout[-4000:] + done.stderr[-2000:])
    return Figure("test suite (tools/test.sh's pytest, every core)", wall, "s",
                  "the same run's CPU time, all workers", cpu, "≤ 60 s wall", wall <= 60 and done.returncode == 0,
                  note=last)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller collections and fewer runs")
    parser.add_argument("--suite", action="store_true", help="also time the test suite")
    parser.add_argument("--markdown", metavar="FILE", help="also write the table of figures to FILE")
    args = parser.parse_args()

    print(f"python {platform.python_version()}, {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}, {time.strftime('%Y-%m-%d %H:%M')}")
    with tempfile.TemporaryDirectory(prefix="kotc-bench-all-") as tmp:
        sink = Path(tmp) / "figures.jsonl"
        env = {**os.environ, "KOTC_BENCH_FIGURES": str(sink)}
        for heading, script, full, quick in SCRIPTS:
            print(f"\n#### {heading} (bench/{script} {' '.join(quick if args.quick else full)})", flush=True)
            done = subprocess.run([sys.executable, str(ROOT / "bench" / script), *(quick if args.quick else full)],
                                  env=env, cwd=ROOT)
            if done.returncode != 0:
                print(f"bench/{script} failed with status {done.returncode}", flush=True)
        if args.suite:
            print("\n#### the test suite", flush=True)
            os.environ["KOTC_BENCH_FIGURES"] = str(sink)
            record(_suite())
        figures = [Figure(**json.loads(line)) for line in sink.read_text().splitlines()] if sink.exists() else []

    text = table(figures)
    print(f"\n#### every figure, load average now {os.getloadavg()[0]:.2f}\n")
    print(text)
    missed = [f.figure for f in figures if not f.met]
    print(f"{len(figures) - len(missed)} of {len(figures)} figures meet their target" + (f"; missed: {'; '.join(missed)}" if missed else ""))
    if args.markdown:
        Path(args.markdown).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
