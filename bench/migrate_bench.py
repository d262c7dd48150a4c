#!/usr/bin/env python3
"""Benchmark ``kotc-rulesc migrate`` on synthetic JSONL collections (prints figures; not a test).

Two collections, each migrated and compared with a plain JSON copy of itself:

* **6 → 11-pre**: cards drawn from the real component catalog of the 6th edition —
  each card a creature (an optional caveat and up to two abilities) or a spell (one
  ability), every ability in the guide's order (activation condition, activation
  cost, target selection, effects; a target whenever an effect's cost depends on
  t), variables sampled within the 6th edition's limits, and the printed cost the
  6th edition's rules give (a few percent of them wrong, as collections have
  misprints).  None bears an Edition Indicator, as on 6th edition cards
  (``--from 6``).
* **13 → 17**: cards drawn from the 13th edition's catalog (the 12th's system:
  minions with SP and HP and one or two named abilities, or spells; an ability is an
  optional activation condition, activation costs joined ", also ", then one or two
  sub-abilities of an optional target selection and effects joined ", then "), each
  bearing the Edition Indicator 13 and the level the 13th's rules give (a few
  percent misprinted).  Migrated to the 17th they meet every refurbishment of the
  14th-17th tables, the 16th's Revised Levels (pruned) and its unlisted changes.

A collection holds many copies of its designs: the cards are drawn from a pool of
``--designs`` distinct designs (each copy with its own name), with a Zipf-like
popularity.  ``--designs`` equal to ``--cards`` makes every card distinct.

Then, in the same run:

* a plain JSON read-and-write of the same file (``json.loads`` + ``json.dumps`` per
  line, one process) — the baseline, run again after each command: each command is
  measured against the mean of the copies just before and after it (a shared machine's
  speed drifts by tens of percent within minutes);
* ``kotc-rulesc migrate`` of the file (``--from 6 --to 11-pre``, ``--to 17``, ``-o`` a file), the
  whole command as a user runs it (start-up and rules included), for each ``--command`` and each
  ``--jobs`` value: its wall time, its CPU time and the peak resident memory of its largest
  process (``wait4``; a small launcher starts it, so that no peak of this script is inherited);
  the outputs of every command and ``--jobs`` value are compared byte for byte;
* ``check-cards`` of the file in the edition it migrates to (``-e 11-pre``, ``-e 17``; the text
  report by default, ``--check-formats text,json`` for both), in a child process, its report
  written to a file: the time of the judging (after the rules are loaded) and the peak
  resident memory.

Measure an installed wheel, not an editable install (run this script with the wheel's venv's
Python: ``kotc_rulesc`` is then imported from it, and ``--command`` defaults to its
``kotc-rulesc``).  Usage::

    /tmp/v/bin/python bench/migrate_bench.py                 # 1,000,000 cards each
    /tmp/v/bin/python bench/migrate_bench.py --cards 100000  # a quicker run
    /tmp/v/bin/python bench/migrate_bench.py --cards 5000 --check-formats ''   # a large player's collection
    /tmp/v/bin/python bench/migrate_bench.py --collections 13-17 --jobs 1,2 \
        --command before=/tmp/before/bin/kotc-rulesc --command after=/tmp/v/bin/kotc-rulesc   # two builds, interleaved

The last lines compare the two collections: cards per second, and the time of each
migration and check as a multiple of its own JSON copy (the cost of migrating or
judging, apart from the size of the cards).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
try:  # an installed kotc_rulesc (a wheel: what users run), else the checkout's
    import kotc_rulesc  # noqa: F401
except ImportError:
    sys.path.insert(0, str(ROOT))

from figures import Figure, record  # noqa: E402  (bench/figures.py)


# --------------------------------------------------------------------------- the synthetic collection


def _values(comp, rng: random.Random) -> dict[str, int]:
    values = {}
    for var in comp.text.variables:
        high = 6 if var == "x" else 3
        limit = comp.limits.get(var)
        if limit is not None:
            high = min(high, limit)
        values[var] = rng.randint(1, max(high, 1))
    return values


def _ability(by_kind, rng: random.Random) -> str:
    parts = []
    for kind, chance in (("condition", 0.35), ("cost", 0.3)):
        if by_kind[kind] and rng.random() < chance:
            comp = rng.choice(by_kind[kind])
            parts.append(comp.text.render(_values(comp, rng)))
    effects = [rng.choice(by_kind["effect"]) for _ in range(1 if rng.random() < 0.75 else 2)]
    needs_target = any(e.formula is not None and "t" in e.formula.variables for e in effects)
    if needs_target or rng.random() < 0.2:
        comp = rng.choice(by_kind["target"])
        parts.append(comp.text.render(_values(comp, rng)))
    parts.extend(e.text.render(_values(e, rng)) for e in effects)
    return " ".join(parts)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _ability_subs(by_kind, rng: random.Random) -> str:
    """An ability of the 12th's system: condition, costs joined ", also ", then sub-abilities (one
    sentence each: a target selection and effects joined ", then ")."""
    head = []
    if by_kind["condition"] and rng.random() < 0.35:
        comp = rng.choice(by_kind["condition"])
        head.append(comp.text.render(_values(comp, rng)))
    if by_kind["cost"] and rng.random() < 0.3:
        costs = [rng.choice(by_kind["cost"]) for _ in range(1 if rng.random() < 0.8 else 2)]
        rendered = [c.text.render(_values(c, rng)) for c in costs]
        joined = ", also ".join([r[:-1] if r.endswith("→") else r for r in rendered[:-1]] + rendered[-1:])
        head.append(_capital(joined))
    subs = []
    for _ in range(1 if rng.random() < 0.8 else 2):
        effects = [rng.choice(by_kind["effect"]) for _ in range(1 if rng.random() < 0.75 else 2)]
        rendered = [e.text.render(_values(e, rng)) for e in effects]
        body = ", then ".join([r[:-1] if r.endswith(".") else r for r in rendered[:-1]] + rendered[-1:])
        needs_target = any(e.formula is not None and "t" in e.formula.variables for e in effects)
        if needs_target or rng.random() < 0.2:
            comp = rng.choice(by_kind["target"])
            body = f"{_capital(comp.text.render(_values(comp, rng)))} {body[:1].lower() + body[1:]}"
        subs.append(_capital(body))
    return " ".join(head + subs)


def make_designs(view, count: int, seed: int, edition=6) -> list[dict]:
    """``count`` distinct card designs of ``edition`` (the 6th, or the 13th), with the figure its
    rules give (the 13th's bear their Edition Indicator)."""
    if edition != 6:
        return _make_designs_subs(view, count, seed, edition)
    from kotc_rulesc.cards import judge

    catalog = view.catalog(6)
    by_kind: dict[str, list] = {k: [] for k in ("caveat", "condition", "cost", "target", "effect")}
    for comp in catalog.components:
        if comp.status == "legal":
            by_kind[comp.kind].append(comp)
    rng = random.Random(seed)
    designs: list[dict] = []
    seen: set[tuple] = set()
    attempts = 0
    while len(designs) < count:
        attempts += 1
        if attempts > 50 * count + 1000:
            raise SystemExit(f"could only make {len(designs)} distinct designs")
        if rng.random() < 0.6:
            lines = []
            if rng.random() < 0.3:
                comp = rng.choice(by_kind["caveat"])
                lines.append(comp.text.render(_values(comp, rng)))
            for i in range(rng.choice((0, 1, 1, 2))):
                body = _ability(by_kind, rng)
                lines.append(f"ABILITY {i + 1}: {body}" if rng.random() < 0.5 else body)
            card = {"type": "creature", "offense": rng.randint(0, 9), "defense": rng.randint(0, 20),
                    "text": "\n".join(lines) or "This card has no abilities."}
        else:
            card = {"type": "spell", "text": _ability(by_kind, rng)}
        key = (card["type"], card.get("offense"), card.get("defense"), card["text"])
        if key in seen:
            continue
        j = judge({"name": "design", **card}, 6, view)
        if j.status == "error" or j.cost is None:
            continue  # an order or count rule the sampler broke
        seen.add(key)
        cost = j.cost
        if rng.random() < 0.03:
            cost = max(0, cost + rng.choice((-1, 1)))  # a misprint
        designs.append({"type": card["type"], "cost": cost, **{k: card[k] for k in ("offense", "defense") if k in card},
                        "text": card["text"]})
    return designs


def _make_designs_subs(view, count: int, seed: int, edition) -> list[dict]:
    from kotc_rulesc.cards import judge

    catalog = view.catalog(edition)
    figure = catalog.system.figure
    by_kind: dict[str, list] = {k.id: [] for k in catalog.system.kinds}
    for comp in catalog.components:
        if comp.status == "legal":
            by_kind[comp.kind].append(comp)
    rng = random.Random(seed)
    designs: list[dict] = []
    seen: set[tuple] = set()
    attempts = 0
    while len(designs) < count:
        attempts += 1
        if attempts > 50 * count + 1000:
            raise SystemExit(f"could only make {len(designs)} distinct designs")
        if rng.random() < 0.6:
            lines = [f"{name}: {_ability_subs(by_kind, rng)}" for name in rng.sample(("STRIKE", "GUARD", "RALLY", "HEX"), rng.choice((1, 1, 2)))]
            card = {"type": "minion", "sp": rng.randint(0, 6), "hp": rng.randint(0, 12), "text": "\n".join(lines)}
        else:
            card = {"type": "spell", "text": _ability_subs(by_kind, rng)}
        key = (card["type"], card.get("sp"), card.get("hp"), card["text"])
        if key in seen:
            continue
        j = judge({"name": "design", "edition": edition, **card}, edition, view)
        if j.status != "legal" or j.cost is None:
            continue  # an order or count rule the sampler broke
        seen.add(key)
        level = j.cost
        if rng.random() < 0.03:
            level = max(0, level + rng.choice((-1, 1)))  # a misprint
        designs.append({"type": card["type"], "edition": edition, figure: level,
                        **{k: card[k] for k in ("sp", "hp") if k in card}, "text": card["text"]})
    return designs


def write_collection(path: Path, designs: list[dict], cards: int, seed: int) -> None:
    rng = random.Random(seed + 1)
    weights = [1.0 / (rank + 1) for rank in range(len(designs))]  # Zipf-like popularity
    picks = rng.choices(range(len(designs)), weights=weights, k=cards) if len(designs) < cards else rng.sample(range(len(designs)), cards)
    with open(path, "w", encoding="utf-8") as f:
        for i, d in enumerate(picks):
            design = designs[d]
            card = {"name": f"Card {d:05d} #{i}", **design, "flavor": "Synthetic."}
            f.write(json.dumps(card) + "\n")


# --------------------------------------------------------------------------- measurements


def json_copy(src: Path, dst: Path) -> float:
    """Seconds for json.loads + json.dumps of every line, read from src and written to dst."""
    start = time.perf_counter()
    with open(src, "rb") as fin, open(dst, "w", encoding="utf-8") as fout:
        for line in fin:
            fout.write(json.dumps(json.loads(line)) + "\n")
    return time.perf_counter() - start


def _peak_rss_kb() -> int:
    """This process's own peak resident memory: VmHWM where Linux gives it (``ru_maxrss`` of a process
    started by fork and exec keeps the parent's peak at the fork, which here is the generator's)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


#: starts a command and prints, as JSON, its wall time, exit code, CPU time and peak memory (those
#: of the largest process it ran and waited for: ``wait4``'s usage covers its workers too); a small
#: process of its own, so that the command inherits no peak of this script's
_LAUNCH = """
import json, os, sys, time
start = time.perf_counter()
pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ)
_, status, use = os.wait4(pid, 0)
print(json.dumps({"wall": time.perf_counter() - start, "code": os.waitstatus_to_exitcode(status),
                  "cpu": use.ru_utime + use.ru_stime, "rss_kb": use.ru_maxrss}))
"""


def run_command(argv: list[str]) -> dict:
    """Run ``argv`` (a whole command) through :data:`_LAUNCH`; its figures, and what it wrote to
    standard error."""
    out = subprocess.run([sys.executable, "-c", _LAUNCH, *argv], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise SystemExit(f"could not run {' '.join(argv)}: {out.stderr}")
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    figures["stderr"] = out.stderr.strip()
    return figures


def check_child(argv: list[str]) -> None:
    """Run ``check-cards`` in this process, its report to a file, and print its figures as JSON (called via --check-child)."""
    src, dst, edition, fmt = argv
    t0 = time.perf_counter()
    from kotc_rulesc import api
    from kotc_rulesc.cards import legality
    from kotc_rulesc.cli import main as cli

    api.rules()  # the rules once, loaded before the clock starts (check-cards judges by these shared ones)
    stats = {}
    keep_made(legality, "CardJudge", stats, "judge")  # to report the judgement cache's hit rate
    t1 = time.perf_counter()
    c1 = time.process_time()
    with open(dst, "w", encoding="utf-8") as out:
        sys.stdout = out
        try:
            cli(["check-cards", src, "-e", edition, "--format", fmt], standalone_mode=False)
            code = 0
        except SystemExit as exc:
            code = exc.code
        finally:
            sys.stdout = sys.__stdout__
    t2 = time.perf_counter()
    c2 = time.process_time()
    memo = stats["judge"].memo
    print(json.dumps({"code": code, "load": t1 - t0, "check": t2 - t1, "rss_self_kb": _peak_rss_kb(),
                      "cpu_run": c2 - c1, "hits": memo.hits, "misses": memo.misses}))


def keep_made(module, name: str, stats: dict, key: str) -> None:
    """Make ``module.name`` (a class) keep its last instance in ``stats[key]``, for its counters."""
    original = getattr(module, name)

    class Kept(original):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            stats[key] = self

    setattr(module, name, Kept)


def _in_child(*args: str) -> dict:
    """The figures a child process of this script prints (its last line, JSON), with its wall time
    and what it wrote to standard error."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, __file__, *args], check=True, capture_output=True, text=True, cwd=ROOT)
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    figures["wall"] = time.perf_counter() - start
    figures["stderr"] = out.stderr.strip()
    return figures


def check_in_child(src: Path, dst: Path, edition, fmt: str) -> dict:
    return _in_child("--check-child", str(src), str(dst), str(edition), fmt)


def migrate_command(command: list[str], src: Path, dst: Path, jobs: int | None, target, assume) -> dict:
    argv = [*command, "migrate", str(src), "--to", str(target), "-o", str(dst)]
    argv += ["--from", str(assume)] if assume is not None else []
    return run_command(argv + (["--jobs", str(jobs)] if jobs is not None else []))


#: the collections measured: name → (design edition, --from, --to)
COLLECTIONS = {"6-11pre": (6, 6, "11-pre"), "13-17": (13, None, 17)}


def collection_options(ap: argparse.ArgumentParser, cards: int) -> None:
    """The options of every bench of synthetic collections (migrate_bench, yaml_bench): how many
    cards, drawn from how many designs, which collections, the seed, where the files are kept."""
    ap.add_argument("--cards", type=int, default=cards, help="cards per collection")
    ap.add_argument("--designs", type=int, default=5000, help="distinct card designs the cards are drawn from")
    ap.add_argument("--collections", default=",".join(COLLECTIONS), help=f"comma-separated, of {', '.join(COLLECTIONS)}")
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--keep", metavar="DIR", help="keep the generated and migrated files in DIR")


def chosen_collections(ap: argparse.ArgumentParser, text: str) -> list[str]:
    """The collections --collections names (comma-separated), each one of :data:`COLLECTIONS`."""
    names = [n for n in text.split(",") if n]
    for n in names:
        if n not in COLLECTIONS:
            ap.error(f"--collections: {n!r} is none of {', '.join(COLLECTIONS)}")
    return names


def started(ap: argparse.ArgumentParser) -> tuple[argparse.Namespace, list[str], Any]:
    """The options read, the collections chosen and the rules loaded (the compiled tables); the
    machine said."""
    args = ap.parse_args()
    names = chosen_collections(ap, args.collections)
    from kotc_rulesc.cards.rules_source import get_view

    view = get_view(None)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} "
          "(other processes share the cores: compare CPU seconds too)")
    return args, names, view


@contextlib.contextmanager
def work_folder(keep: str | None, prefix: str) -> Iterator[Path]:
    """Where a bench writes its files: ``keep`` (kept), or a temporary folder removed afterwards."""
    if keep:
        folder = Path(keep)
        folder.mkdir(parents=True, exist_ok=True)
        yield folder
        return
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        yield Path(folder)


def _command(assume, target, jobs: int | None = None) -> str:
    return f"migrate{f' --from {assume}' if assume is not None else ''} --to {target}{f' --jobs {jobs}' if jobs else ''}"


def measure(view, args, name: str, workdir: Path) -> dict:
    """Generate one collection, copy it as plain JSON, migrate it per --jobs; print and return the figures."""
    edition, assume, target = COLLECTIONS[name]
    src = workdir / f"collection-{name}.jsonl"
    designs = min(args.designs, args.cards)
    t = time.perf_counter()
    pool = make_designs(view, designs, args.seed, edition)
    write_collection(src, pool, args.cards, args.seed)
    size = src.stat().st_size
    print(f"\n== {name}: {args.cards:,} cards drawn from {designs:,} designs of the {edition}th edition catalog, "
          f"{size / 1e6:.1f} MB JSONL (generated in {time.perf_counter() - t:.1f} s)")

    def copy() -> tuple[float, float]:
        cpu = time.process_time()
        wall = json_copy(src, workdir / f"copy-{name}.jsonl")
        return wall, time.process_time() - cpu

    # the baseline of each command is the mean of the JSON copies run just before and just after it
    copies = [copy()]

    def baseline(f: dict) -> None:
        copies.append(copy())
        (w0, c0), (w1, c1) = copies[-2:]
        f["base"], f["base_cpu"] = (w0 + w1) / 2, (c0 + c1) / 2

    wall, cpu = copies[0]
    print(f"plain JSON read-and-write (json.loads + json.dumps per line): {wall:.2f} s, {args.cards / wall:,.0f} cards/s; "
          f"CPU {cpu:.1f} s (run again after each command below: each is measured against the mean of the copies "
          "before and after it)")

    results = {}  # (command label, --jobs) → figures
    for label, command in args.commands:
        for jobs in args.jobs_values:
            dst = workdir / f"migrated-{name}-{label}-{jobs}.jsonl"
            f = migrate_command(command, src, dst, jobs, target, assume)
            if f["code"] not in (0, 1) or not dst.exists():
                raise SystemExit(f"{label}: migrate exited {f['code']} and wrote no output:\n{f['stderr']}")
            baseline(f)
            f["sha256"] = _sha256(dst)
            dst.unlink()
            results[label, jobs] = f
            print(f"{label}: {_command(assume, target, jobs)}: {f['wall']:.2f} s wall "
                  f"({args.cards / f['wall']:,.0f} cards/s, {f['wall'] / f['base']:.2f}x the JSON copy), "
                  f"CPU {f['cpu']:.1f} s ({f['cpu'] / f['base_cpu']:.2f}x the copy's), peak RSS {f['rss_kb'] / 1024:.0f} MB, "
                  f"exit {f['code']}")
            print(f"    load average now {os.getloadavg()[0]:.2f}; the JSON copy after it: {copies[-1][0]:.2f} s")
            said = [line for line in f["stderr"].splitlines() if not line.startswith(" ")]  # not the cards listed
            if said:
                print("    " + "\n    ".join(said))
    for (label, jobs), f in results.items():
        one = results.get((label, 1))
        if jobs is not None and jobs > 1 and one is not None:
            print(f"{label}: --jobs {jobs} against --jobs 1: {one['wall'] / f['wall']:.2f}x as fast (wall time), "
                  f"CPU {f['cpu'] / one['cpu']:.2f}x")
    if len(results) > 1:
        same = len({f["sha256"] for f in results.values()}) == 1
        print(f"outputs of every command{' and --jobs value' if len(args.jobs_values) > 1 else ''} identical: {same}")
    checks = {}
    for fmt in (f for f in args.check_formats.split(",") if f):
        c = check_in_child(src, workdir / f"checked-{name}.{fmt}", target, fmt)
        baseline(c)
        checks[fmt] = c
        cached = c["hits"] / (c["hits"] + c["misses"]) if c["hits"] + c["misses"] else 0.0
        print(f"check-cards -e {target} --format {fmt}: {c['check']:.2f} s judging ({args.cards / c['check']:,.0f} cards/s, "
              f"{c['check'] / c['base']:.2f}x the JSON copy), {c['wall']:.2f} s wall with start-up (rules loaded in "
              f"{c['load']:.2f} s); peak RSS {c['rss_self_kb'] / 1024:.0f} MB; CPU {c['cpu_run']:.1f} s judging; "
              f"judgements cached for {cached:.1%} of the cards; exit {c['code']}")
        print(f"    load average now {os.getloadavg()[0]:.2f}; the JSON copy after it: {copies[-1][0]:.2f} s")
        if c["stderr"]:
            print("    " + c["stderr"].replace("\n", "\n    "))
    return {"copies": copies, "results": results, "command": (assume, target), "checks": checks, "target": target}


def _sha256(path: Path) -> str:
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _record(args, name: str, f: dict) -> None:
    """Issue 16's and 25's figures of one collection, for bench/all.py's table (bench/figures.py)."""
    cards = f"{args.cards:,} JSONL cards"
    copy = "stdlib JSON copy of the file"
    for (label, jobs), r in f["results"].items():
        rss = r["rss_kb"] / 1024
        who = f" ({label})" if len(args.commands) > 1 else ""
        record(Figure(f"{_command(*f['command'], jobs)}, {cards}{who}", round(r["wall"], 2), "s", copy, round(r["base"], 2),
                      "≤ 1.5×, ≤ 100 MB", r["wall"] <= 1.5 * r["base"] and rss <= 100, round(rss, 1),
                      note=f"whole command; CPU {r['cpu'] / r['base_cpu']:.2f}× the copy's"))
    for fmt, c in f["checks"].items():
        rss = c["rss_self_kb"] / 1024
        record(Figure(f"check-cards -e {f['target']} --format {fmt}, {cards} ({name})", round(c["check"], 2), "s", copy,
                      round(c["base"], 2), "≤ 2×, memory flat", c["check"] <= 2 * c["base"], round(rss, 1),
                      note=f"CPU {c['cpu_run'] / c['base_cpu']:.2f}× the copy's"))


def _labelled(ap: argparse.ArgumentParser, text: str) -> tuple[str, list[str]]:
    import shlex

    label, sep, command = text.partition("=")
    if not sep or not label or not command:
        ap.error(f"--command {text!r}: give LABEL=COMMAND, e.g. before=/tmp/before/bin/kotc-rulesc")
    return label, shlex.split(command)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--check-child":
        check_child(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    collection_options(ap, 1_000_000)
    ap.add_argument("--jobs", default="", help="comma-separated --jobs values to give migrate (default: none given)")
    ap.add_argument("--command", action="append", metavar="LABEL=COMMAND", default=[],
                    help="a kotc-rulesc to measure (a command line, split as a shell does), under a label; repeat "
                         "to compare builds in one run (default: the kotc-rulesc beside this Python)")
    ap.add_argument("--check-formats", default="text", help="comma-separated check-cards --format values to measure "
                    "(text, json; empty: none)")
    args, names, view = started(ap)
    args.jobs_values = [int(j) for j in args.jobs.split(",") if j] or [None]
    args.commands = [_labelled(ap, text) for text in args.command] or [
        ("this", [str(Path(sys.executable).with_name("kotc-rulesc"))])]
    with work_folder(args.keep, "kotc-bench-") as workdir:
        figures = {name: measure(view, args, name, workdir) for name in names}

    print("\n== summary (the whole command, each against the JSON copies around it)")
    ratios, cpu_ratios = {}, {}
    for name, f in figures.items():
        spread = [w for w, _ in f["copies"]]
        print(f"{name:>8}: the JSON copy took {min(spread):.2f}–{max(spread):.2f} s in {len(spread)} runs "
              f"({args.cards / (sum(spread) / len(spread)):,.0f} cards/s on average)")
        for (label, jobs), r in f["results"].items():
            ratios.setdefault(name, r["wall"] / r["base"])  # the first command and --jobs value
            cpu_ratios.setdefault(name, r["cpu"] / r["base_cpu"] if r["base_cpu"] else float("nan"))
            print(f"{'':>8}  {label}: {_command(*f['command'], jobs)}: {args.cards / r['wall']:,.0f} cards/s, "
                  f"{r['wall'] / r['base']:.2f}x its JSON copy; in CPU seconds {r['cpu'] / r['base_cpu']:.2f}x; "
                  f"peak RSS {r['rss_kb'] / 1024:.0f} MB")
        for fmt, c in f["checks"].items():
            print(f"{'':>8}  check-cards -e {f['target']} --format {fmt}: {args.cards / c['check']:,.0f} cards/s, "
                  f"{c['check'] / c['base']:.2f}x its JSON copy; in CPU seconds {c['cpu_run'] / c['base_cpu']:.2f}x; "
                  f"peak RSS {c['rss_self_kb'] / 1024:.0f} MB")
        _record(args, name, f)
    if len(ratios) == 2:
        (a, ra), (b, rb) = ratios.items()
        ca, cb = cpu_ratios[a], cpu_ratios[b]
        print(f"ratio of ratios {b} / {a}: {rb / ra:.2f} by wall time, {cb / ca:.2f} by CPU seconds "
              "(1.00: migrating costs the same per JSON copy; on a busy machine trust the CPU seconds)")


if __name__ == "__main__":
    main()
