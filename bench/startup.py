"""Start-up and latency of kotc-rulesc's commands, each as a multiple of ``python -c pass``.

Each run is a fresh interpreter (a subprocess), as a user or a CI job starts it, running this
checkout's code (the script's own directory is put first on PYTHONPATH, whatever kotc-rulesc is
installed).  The tables are built from the rules into a temporary directory first, so the
figures never depend on a stale generated/, and the rules cache lives there too.

Issue 16's two latency targets, and the figures that show them:

* **one card, ≤ 3× python** — ``check-cards card.json`` and ``cost card.json`` on a one-card file,
  reading the compiled tables (as an installed kotc-rulesc does: the tables are not a source
  checkout's, so no rules file is hashed); ``check-cards --rules DIR`` (the rules cache hit) is
  shown beside them;
* **unchanged rules, ≤ 0.3 s** — ``check``, ``show --edition 17`` and ``diff 9 11-pre`` with the
  rules cache hit, and ``build --check`` once a full check has found the output up to date.

``python -c pass`` is the floor no command goes below (the baseline of every ratio).  For each
command: the median and minimum wall time and the median CPU time (user + system) of N runs,
runs interleaved so that machine noise hits all alike, the ratios of the wall and CPU medians to
python's, the peak resident memory, and which heavy modules it imported.  On a busy machine the
CPU ratio is the steadier figure.  By default the byte-code caches are written by a warm-up run
and used, as in any installation (PYTHONDONTWRITEBYTECODE is removed from the children's
environment); ``--no-bytecode`` compiles every module from source on each start.

    python bench/startup.py                       # rules/, 21 runs
    python bench/startup.py --runs 41 --edition 11-pre
    python bench/startup.py --rules tests/fixtures/mini_rules --edition 2 --diff 1 2 --show 2
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from figures import Figure, record  # noqa: E402  (bench/figures.py)
HEAVY = ("ruamel", "jsonschema", "jinja2", "difflib", "kotc_rulesc.loader", "kotc_rulesc.codegen", "kotc_tables")
CARD = {
    "cards": [
        {"name": "Insight", "type": "spell", "edition": 11, "cost": 4, "text": "Draw 2 cards."},
    ]
}
ONE_CARD_TIMES_PYTHON = 3.0
UNCHANGED_RULES_SECONDS = 0.3

_PROBE = """
import runpy, sys
sys.argv = ["kotc-rulesc", *sys.argv[1:]]
try:
    runpy.run_module("kotc_rulesc.cli", run_name="__main__")
except SystemExit:
    pass
heavy = {m for m in sys.modules for h in %r if m == h or m.startswith(h + ".")}
print("\\nIMPORTED " + " ".join(sorted({m if m.startswith("kotc_rulesc.") else m.split(".")[0] for m in heavy
                                        if m.count(".") <= 1})), file=sys.stderr)
""" % (HEAVY,)


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system) and peak resident kB of one run of ``cmd``."""
    with tempfile.TemporaryFile() as stderr:
        start = time.perf_counter()
        child = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(child.pid, 0)  # (wait4: this child's own resource usage)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode not in (0, 1):
            stderr.seek(0)
            raise SystemExit(f"{' '.join(cmd)} failed ({child.returncode}):\n{stderr.read().decode(errors='replace')}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def _imported(args: list[str], env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], env=env, capture_output=True, text=True)
    lines = [line for line in done.stderr.splitlines() if line.startswith("IMPORTED")]
    return lines[-1][len("IMPORTED") :].strip() or "(none)" if lines else "?"


def _figure(name: str, group: str, argv: list[str] | None, env: dict[str, str]) -> dict:
    return {"name": name, "group": group, "argv": argv, "env": env, "wall": [], "cpu": [], "rss": []}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default=str(ROOT / "rules"), help="the rules directory (default: rules/)")
    parser.add_argument("--runs", type=int, default=21, help="runs of each command (default: 21)")
    parser.add_argument("--edition", default=None, help="the edition the card is judged in (default: the newest)")
    parser.add_argument("--show", default="17", metavar="EDITION", help="the edition `show` prints (default: 17)")
    parser.add_argument("--diff", nargs=2, default=["9", "11-pre"], metavar=("A", "B"),
                        help="the editions `diff` compares (default: 9 11-pre)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="compile every module from source on each run (PYTHONDONTWRITEBYTECODE=1, no caches)",
    )
    args = parser.parse_args()

    rules = Path(args.rules).resolve()
    with tempfile.TemporaryDirectory(prefix="kotc-bench-") as tmp:
        tmp_path = Path(tmp)
        card = tmp_path / "card.json"
        card.write_text(json.dumps(CARD))
        out = tmp_path / "generated"
        drop = {"PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "KOTC_RULESC_CACHE"}
        base_env = {k: v for k, v in os.environ.items() if k not in drop}
        base_env["KOTC_RULESC_CACHE"] = str(tmp_path / "cache")
        if args.no_bytecode:
            base_env["PYTHONDONTWRITEBYTECODE"] = "1"
            base_env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "no-such-cache")
        code_env = {**base_env, "PYTHONPATH": str(ROOT)}  # this checkout's code; the tables are out's
        tables_env = {**base_env, "PYTHONPATH": os.pathsep.join([str(out), str(ROOT)])}
        cli = [sys.executable, "-m", "kotc_rulesc"]
        built = subprocess.run(cli + ["build", "--rules", str(rules), "--out", str(out)],
                               env=code_env, capture_output=True, text=True)
        if built.returncode != 0:
            raise SystemExit(f"building the tables failed:\n{built.stdout}{built.stderr}")

        edition = ["--edition", str(args.edition)] if args.edition is not None else []
        one, rules_group = "one card", "unchanged rules"
        figures = [
            _figure("python -c pass", "baseline", [sys.executable, "-c", "pass"], base_env),
            _figure("check-cards, one card", one, cli + ["check-cards", *edition, str(card)], tables_env),
            _figure("cost, one card", one, cli + ["cost", *edition, str(card)], tables_env),
            _figure("check-cards --rules", one, cli + ["check-cards", "--rules", str(rules), *edition, str(card)], code_env),
            _figure("check", rules_group, cli + ["check", "--rules", str(rules)], code_env),
            _figure(f"show -e {args.show}", rules_group, cli + ["show", "--rules", str(rules), "-e", args.show], code_env),
            _figure(f"diff {' '.join(args.diff)}", rules_group, cli + ["diff", "--rules", str(rules), *args.diff], code_env),
            _figure("build --check", rules_group, cli + ["build", "--check", "--rules", str(rules), "--out", str(out)],
                    code_env),
        ]
        for f in figures:  # warm the byte-code caches, the disk cache, the rules cache and build's verdict
            _run(f["argv"], f["env"])
        for _ in range(args.runs):
            for f in figures:
                wall, cpu, rss = _run(f["argv"], f["env"])
                f["wall"].append(wall)
                f["cpu"].append(cpu)
                f["rss"].append(rss)
        for f in figures:
            f["imported"] = "(none)" if f["group"] == "baseline" else _imported(f["argv"][3:], f["env"])

    load = os.getloadavg()
    python_wall, python_cpu = (statistics.median(figures[0][k]) for k in ("wall", "cpu"))
    rows = []
    for f in figures:
        wall, cpu = statistics.median(f["wall"]), statistics.median(f["cpu"])
        row = {
            "figure": f["name"],
            "median_ms": round(wall * 1000, 1),
            "min_ms": round(min(f["wall"]) * 1000, 1),
            "cpu_median_ms": round(cpu * 1000, 1),
            "x_python": round(wall / python_wall, 2),
            "cpu_x_python": round(cpu / python_cpu, 2),
            "peak_rss_mb": round(max(f["rss"]) / 1024, 1),
            "imported": f["imported"],
        }
        if f["group"] == one and f["name"].endswith("one card"):
            row["target"] = f"<= {ONE_CARD_TIMES_PYTHON:g}x python"
            row["met"] = row["x_python"] <= ONE_CARD_TIMES_PYTHON
        elif f["group"] == rules_group:
            row["target"] = f"<= {UNCHANGED_RULES_SECONDS:g} s"
            row["met"] = wall <= UNCHANGED_RULES_SECONDS
        rows.append(row)
    record(*(Figure(f"{r['figure']} (wall, median of {args.runs})", r["median_ms"], "ms", "python -c pass",
                    round(python_wall * 1000, 1), r["target"].replace("<=", "≤"), r["met"], r["peak_rss_mb"],
                    note=f"CPU {r['cpu_x_python']:.2f}× python's")
             for r in rows if "target" in r))
    if args.json:
        data = {"rules": str(rules), "runs": args.runs, "bytecode": not args.no_bytecode, "load": load, "figures": rows}
        print(json.dumps(data, indent=2))
        return
    cache = "compiled from source each run" if args.no_bytecode else "byte-code cached"
    print(f"kotc-rulesc start-up and latency; rules: {rules}; {args.runs} runs each, interleaved; {cache}; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'figure':<22} {'median':>9} {'min':>9} {'x python':>8} {'cpu':>9} {'x python':>8} {'peak RSS':>9}"
          f"  {'target':<24} heavy modules imported")
    for r in rows:
        target = f"{r['target']}: {'met' if r['met'] else 'MISSED'}" if "target" in r else ""
        print(f"{r['figure']:<22} {r['median_ms']:>7.1f}ms {r['min_ms']:>7.1f}ms {r['x_python']:>7.2f}x "
              f"{r['cpu_median_ms']:>7.1f}ms {r['cpu_x_python']:>7.2f}x {r['peak_rss_mb']:>6.1f} MB  {target:<24} "
              f"{r['imported']}")
    print("x python: the median as a multiple of python -c pass's (wall, then CPU = user + system);"
          " the targets are issue 16's (wall)")


if __name__ == "__main__":
    main()
