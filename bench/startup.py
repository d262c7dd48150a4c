"""Start-up and latency of kotc-rulesc's commands, as an installed kotc-rulesc runs them.

This checkout is built into a wheel and installed into a fresh venv (an editable install's import
hook slows ``python -c pass`` itself); each run is a fresh interpreter of that venv, as a user or a
CI job starts it.  The two latency targets of issue 25, and the figures that show them:

* **one card, ≤ 2× ``python -c "import click"``** (click's import is the floor of any click
  command line) — ``check-cards card.json`` and ``cost card.json`` on a one-card file, reading the
  bundled compiled tables;
* **unchanged rules, ≤ 0.3 s** — ``check``, ``show --edition 17``, ``diff 9 11-pre`` and
  ``build --check`` on a maintainer's rules checkout (a copy of the rules, and beside it the
  ``generated/`` that the installed kotc-rulesc builds from them): its tables answer for the rules,
  and build --check reads its MANIFEST.json; ``check-cards --rules`` is shown beside them.

``python -c pass`` is the floor no command goes below.  For each command: the median and minimum
wall time and the median CPU time (user + system) of N runs, runs interleaved so that machine
noise hits all alike, the ratios of the wall and CPU medians to the baseline's, the peak resident
memory, and which heavy modules it imported.  On a busy machine the CPU ratio is the steadier
figure.  By default the byte-code caches are written by a warm-up run and used, as in any
installation; ``--no-bytecode`` compiles every module from source on each start.

    python bench/startup.py                       # rules/, 21 runs
    python bench/startup.py --runs 41 --edition 11-pre
    python bench/startup.py --rules tests/fixtures/mini_rules --edition 2 --diff 1 2 --show 2
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
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
ONE_CARD_TIMES_CLICK = 2.0
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


def _imported(python: Path, args: list[str], env: dict[str, str]) -> str:
    done = subprocess.run([str(python), "-c", _PROBE, *args], env=env, capture_output=True, text=True)
    lines = [line for line in done.stderr.splitlines() if line.startswith("IMPORTED")]
    return lines[-1][len("IMPORTED") :].strip() or "(none)" if lines else "?"


def _figure(name: str, group: str, argv: list[str] | None, env: dict[str, str]) -> dict:
    return {"name": name, "group": group, "argv": argv, "env": env, "wall": [], "cpu": [], "rss": []}


#: what a wheel is built from
_SOURCES = ("pyproject.toml", "README.md", "LICENSE", "kotc_rulesc", "rules", "templates", "docs", "generated")


def _install(tmp: Path) -> Path:
    """This checkout as a wheel, installed into a fresh venv under ``tmp`` (the venv borrows the
    dependencies of this interpreter's environment); its python."""
    src, dist, venv = tmp / "src", tmp / "dist", tmp / "venv"
    src.mkdir()
    for name in _SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(ROOT / name, src / name)
    steps = [[sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dist), str(src)],
             [sys.executable, "-m", "venv", "--without-pip", str(venv)]]
    for step in steps:
        subprocess.run(step, check=True, capture_output=True)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    here = {sysconfig.get_paths()[k] for k in ("purelib", "platlib")}
    (Path(site) / "kotc-bench-dependencies.pth").write_text("".join(f"{p}\n" for p in sorted(here)))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q",
                    *dist.glob("*.whl")], check=True, capture_output=True)
    return python


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

    with tempfile.TemporaryDirectory(prefix="kotc-bench-") as tmp:
        tmp_path = Path(tmp)
        python = _install(tmp_path)
        card = tmp_path / "card.json"
        card.write_text(json.dumps(CARD))
        rules = tmp_path / "checkout" / "rules"  # a maintainer's rules checkout: rules/ and generated/
        shutil.copytree(Path(args.rules).resolve(), rules)
        base_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "VIRTUAL_ENV")}
        if args.no_bytecode:
            base_env["PYTHONDONTWRITEBYTECODE"] = "1"
            base_env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "no-such-cache")
        cli = [str(python), "-m", "kotc_rulesc"]
        # every run starts in the temporary folder: ``python -m`` and ``-c`` put the current directory
        # first on sys.path, and from a checkout they would import its kotc_rulesc, not the wheel's
        here = os.getcwd()
        os.chdir(tmp_path)
        built = subprocess.run(cli + ["build", "--rules", str(rules)], env=base_env, capture_output=True, text=True)
        if built.returncode != 0:
            raise SystemExit(f"building the tables failed:\n{built.stdout}{built.stderr}")

        edition = ["--edition", str(args.edition)] if args.edition is not None else []
        own = ["--rules", str(rules)]
        one, rules_group = "one card", "unchanged rules"
        figures = [
            _figure("python -c pass", "baseline", [str(python), "-c", "pass"], base_env),
            _figure("import click", "baseline", [str(python), "-c", "import click"], base_env),
            _figure("check-cards, one card", one, cli + ["check-cards", *edition, str(card)], base_env),
            _figure("cost, one card", one, cli + ["cost", *edition, str(card)], base_env),
            _figure("check-cards --rules", one, cli + ["check-cards", *own, *edition, str(card)], base_env),
            _figure("check", rules_group, cli + ["check", *own], base_env),
            _figure(f"show -e {args.show}", rules_group, cli + ["show", *own, "-e", args.show], base_env),
            _figure(f"diff {' '.join(args.diff)}", rules_group, cli + ["diff", *own, *args.diff], base_env),
            _figure("build --check", rules_group, cli + ["build", "--check", *own], base_env),
        ]
        for f in figures:  # warm the byte-code caches and the disk cache
            _run(f["argv"], f["env"])
        for _ in range(args.runs):
            for f in figures:
                wall, cpu, rss = _run(f["argv"], f["env"])
                f["wall"].append(wall)
                f["cpu"].append(cpu)
                f["rss"].append(rss)
        for f in figures:
            f["imported"] = "(none)" if f["group"] == "baseline" else _imported(python, f["argv"][3:], f["env"])
        os.chdir(here)

    load = os.getloadavg()
    python_wall, python_cpu = (statistics.median(figures[0][k]) for k in ("wall", "cpu"))
    click_wall = statistics.median(figures[1]["wall"])
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
            row["x_click"] = round(wall / click_wall, 2)
            row["target"] = f"<= {ONE_CARD_TIMES_CLICK:g}x import click"
            row["met"] = row["x_click"] <= ONE_CARD_TIMES_CLICK
        elif f["group"] == rules_group:
            row["target"] = f"<= {UNCHANGED_RULES_SECONDS:g} s"
            row["met"] = wall <= UNCHANGED_RULES_SECONDS
        rows.append(row)
    record(*(Figure(f"{r['figure']} (wall, median of {args.runs})", r["median_ms"], "ms",
                    *(("import click", round(click_wall * 1000, 1)) if "x_click" in r else
                      ("python -c pass", round(python_wall * 1000, 1))),
                    r["target"].replace("<=", "≤"), r["met"], r["peak_rss_mb"], note=f"CPU {r['cpu_x_python']:.2f}× python's")
             for r in rows if "target" in r))
    if args.json:
        data = {"rules": args.rules, "runs": args.runs, "bytecode": not args.no_bytecode, "load": load, "figures": rows}
        print(json.dumps(data, indent=2))
        return
    cache = "compiled from source each run" if args.no_bytecode else "byte-code cached"
    print(f"kotc-rulesc start-up and latency, installed from a wheel; rules: {args.rules}; {args.runs} runs each, interleaved; {cache}; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'figure':<22} {'median':>9} {'min':>9} {'x python':>8} {'cpu':>9} {'x python':>8} {'peak RSS':>9}"
          f"  {'target':<24} heavy modules imported")
    for r in rows:
        target = f"{r.get('x_click', '')}{'x ' if 'x_click' in r else ''}{r['target']}: {'met' if r['met'] else 'MISSED'}" if "target" in r else ""
        print(f"{r['figure']:<22} {r['median_ms']:>7.1f}ms {r['min_ms']:>7.1f}ms {r['x_python']:>7.2f}x "
              f"{r['cpu_median_ms']:>7.1f}ms {r['cpu_x_python']:>7.2f}x {r['peak_rss_mb']:>6.1f} MB  {target:<24} "
              f"{r['imported']}")
    print("x python: the median as a multiple of python -c pass's (wall, then CPU = user + system); the targets are"
          f" issue 25's (wall; one card: {click_wall * 1000:.1f} ms for import click, the median)")


if __name__ == "__main__":
    main()
