"""Start-up time of `kotc-rulesc check-cards` on a one-card file: folding the YAML vs the tables.

Each run is a fresh interpreter (a subprocess), as a user or a CI job starts it:

* ``yaml``   — ``check-cards --rules DIR card.json``: loads and validates the rules
  files (ruamel.yaml, jsonschema) and folds the edition in memory;
* ``tables`` — ``check-cards card.json``: reads the compiled tables package
  (``kotc_tables``), built here from the same rules into a temporary directory that
  is put first on PYTHONPATH, so the figures never depend on a stale generated/;
* ``python`` — ``python -c pass``, the floor no command can go below.

Prints the median, minimum and maximum wall time of N runs of each (runs are
interleaved, so machine noise hits all three alike), and which heavy modules each
mode imported.  By default the byte-code caches are written by a warm-up run and
used, as in any normal installation (PYTHONDONTWRITEBYTECODE is removed from the
children's environment); ``--no-bytecode`` measures with every module compiled
from source on each start.

    python bench/startup.py                       # rules/, 21 runs, the default edition
    python bench/startup.py --runs 41 --edition 11-pre
    python bench/startup.py --rules tests/fixtures/mini_rules --edition 2
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
HEAVY = ("ruamel", "jsonschema", "jinja2", "kotc_rulesc.loader", "kotc_tables")
CARD = {
    "cards": [
        {"name": "Insight", "type": "spell", "edition": 11, "cost": 4, "text": "Draw 2 cards."},
    ]
}

_PROBE = """
import runpy, sys
sys.argv = ["kotc-rulesc", *sys.argv[1:]]
try:
    runpy.run_module("kotc_rulesc.cli", run_name="__main__")
except SystemExit:
    pass
heavy = sorted({m for m in sys.modules for h in %r if m == h or m.startswith(h + ".")})
print("\\nIMPORTED " + " ".join(sorted({m.split(".")[0] if m != "kotc_rulesc.loader" else m for m in heavy})),
      file=sys.stderr)
""" % (HEAVY,)


def _time(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
    return elapsed


def _imported(args: list[str], env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], env=env, capture_output=True, text=True)
    lines = [line for line in done.stderr.splitlines() if line.startswith("IMPORTED")]
    return lines[-1][len("IMPORTED") :].strip() or "(none)" if lines else "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default=str(ROOT / "rules"), help="the rules directory (default: rules/)")
    parser.add_argument("--runs", type=int, default=21, help="runs of each mode (default: 21)")
    parser.add_argument("--edition", default=None, help="the edition to judge in (10, 11-pre, …)")
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
        built = subprocess.run(
            [sys.executable, "-m", "kotc_rulesc.cli", "build", "--rules", str(rules), "--out", str(out)],
            capture_output=True,
            text=True,
        )
        if built.returncode != 0:
            raise SystemExit(f"building the tables failed:\n{built.stdout}{built.stderr}")

        drop = {"PYTHONPATH", "PYTHONDONTWRITEBYTECODE"}
        base_env = {k: v for k, v in os.environ.items() if k not in drop}
        if args.no_bytecode:
            base_env["PYTHONDONTWRITEBYTECODE"] = "1"
            base_env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "no-such-cache")
        tables_env = {**base_env, "PYTHONPATH": str(out)}
        edition = ["--edition", str(args.edition)] if args.edition is not None else []
        cli = [sys.executable, "-m", "kotc_rulesc.cli", "check-cards"]
        modes = {
            "yaml": (cli + ["--rules", str(rules), *edition, str(card)], base_env),
            "tables": (cli + [*edition, str(card)], tables_env),
            "python": ([sys.executable, "-c", "pass"], base_env),
        }
        for cmd, env in modes.values():  # warm the byte-code caches and the disk cache
            _time(cmd, env)
        times: dict[str, list[float]] = {name: [] for name in modes}
        for _ in range(args.runs):
            for name, (cmd, env) in modes.items():
                times[name].append(_time(cmd, env))
        imported = {
            "yaml": _imported(["check-cards", "--rules", str(rules), *edition, str(card)], base_env),
            "tables": _imported(["check-cards", *edition, str(card)], tables_env),
            "python": "(none)",
        }

    figures = {
        name: {
            "median_ms": round(statistics.median(ts) * 1000, 1),
            "min_ms": round(min(ts) * 1000, 1),
            "max_ms": round(max(ts) * 1000, 1),
            "imported": imported[name],
        }
        for name, ts in times.items()
    }
    if args.json:
        data = {"rules": str(rules), "runs": args.runs, "bytecode": not args.no_bytecode, "modes": figures}
        print(json.dumps(data, indent=2))
        return
    cache = "compiled from source each run" if args.no_bytecode else "byte-code cached"
    print(f"kotc-rulesc check-cards on a one-card file; rules: {rules}; {args.runs} runs each; {cache}")
    print(f"{'mode':<8} {'median':>9} {'min':>9} {'max':>9}  heavy modules imported")
    for name, f in figures.items():
        print(
            f"{name:<8} {f['median_ms']:>7.1f}ms {f['min_ms']:>7.1f}ms {f['max_ms']:>7.1f}ms  {f['imported']}"
        )
    y, t, p = (figures[m]["median_ms"] for m in ("yaml", "tables", "python"))
    print(f"tables vs yaml: {y / t:.1f}x faster ({y - t:.0f} ms saved); above bare python: {t - p:.0f} ms")


if __name__ == "__main__":
    main()
