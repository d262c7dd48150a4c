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
* ``migrate`` of the file (``--from 6 --to 11-pre``, ``--to 17``), in a child process per ``--jobs`` value,
  reporting the time of the migration itself (after the rules are loaded), the
  wall time of the whole command, and the peak resident memory (``getrusage``) of
  the migrating process and of its largest worker;
* ``check-cards`` of the file in the edition it migrates to (``-e 11-pre``, ``-e 17``; the text
  report by default, ``--check-formats text,json`` for both), in a child process, its report
  written to a file: the time of the judging (after the rules are loaded) and the peak
  resident memory.

Usage::

    .venv/bin/python bench/migrate_bench.py                 # 1,000,000 cards each, --jobs 1 and 2
    .venv/bin/python bench/migrate_bench.py --cards 100000  # a quicker run
    .venv/bin/python bench/migrate_bench.py --cards 20000 --designs 20000   # every card distinct
    .venv/bin/python bench/migrate_bench.py --collections 13-17 --jobs 1    # one collection only
    .venv/bin/python bench/migrate_bench.py --cards 200000 --force-workers  # --jobs 2's workers on a busy machine too

Each --jobs value above 1 is compared with --jobs 1: the speed-up, the CPU time of both, the
main process's share while the workers migrate.  On a machine whose processors are all busy,
--jobs N runs in one process (as the command does); --force-workers starts the workers anyway,
to show their cost there.

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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

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


def child(argv: list[str]) -> None:
    """Run one migration in this process and print its figures as JSON (called via --child)."""
    src, dst, jobs = argv[0], argv[1], int(argv[2])
    target = argv[3] if argv[3] == "11-pre" else int(argv[3])
    assume = int(argv[4]) if argv[4] != "-" else None
    force = argv[5] == "force"  # --force-workers: start the workers however busy the machine is
    import io

    t0 = time.perf_counter()
    from kotc_rulesc.migrate import cpus

    cpus.mark()  # as the command does: idle processors are measured while the rules load
    from kotc_rulesc.cards.rules_source import get_view
    from kotc_rulesc.migrate import run as runmod

    view = get_view(None)
    t1 = time.perf_counter()
    cpu_loading = time.process_time()
    stats = {}
    keep_made(runmod, "Migrator", stats, "migrator")  # to report the decision cache's hit rate
    from kotc_rulesc.migrate import jobs as jobsmod

    parallel = jobsmod.migrate

    def measured(*a, **k):  # the workers' number, and the main process's CPU time while they migrate
        stats["workers"], start = a[6], time.process_time()
        yield from parallel(*a, **k)
        stats["main_parallel"] = time.process_time() - start

    jobsmod.migrate = measured
    err = io.StringIO()
    c1 = time.process_time()
    code = runmod.run(runmod.Options(src, target, assume=assume, output=dst, jobs=jobs, spare_only=not force), view,
                      stderr=err)
    t2 = time.perf_counter()
    c2 = time.process_time()
    m = stats["migrator"]
    print(json.dumps({
        "code": code,
        "load": t1 - t0,
        "migrate": t2 - t1,
        "summary": err.getvalue().splitlines()[0],
        "cpu_loading": cpu_loading,
        "rss_self_kb": _peak_rss_kb(),
        "rss_workers_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
        "cpu_self": resource.getrusage(resource.RUSAGE_SELF).ru_utime + resource.getrusage(resource.RUSAGE_SELF).ru_stime,
        "cpu_run": c2 - c1,  # the migration itself, in this process
        "cpu_workers": resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime + resource.getrusage(resource.RUSAGE_CHILDREN).ru_stime,
        "hits": m.hits,
        "misses": m.misses,
        "workers": stats.get("workers", 0),
        "main_parallel": stats.get("main_parallel", 0.0),
    }))


def check_child(argv: list[str]) -> None:
    """Run ``check-cards`` in this process, its report to a file, and print its figures as JSON (called via --check-child)."""
    src, dst, edition, fmt = argv
    t0 = time.perf_counter()
    from kotc_rulesc.cards import legality
    from kotc_rulesc.cards.rules_source import get_view
    from kotc_rulesc.cli import main as cli
    from kotc_rulesc.commands import card_commands

    view = get_view(None)
    card_commands._view_or_exit = lambda rules_dir: view  # the rules once, loaded before the clock starts
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


def migrate_in_child(src: Path, dst: Path, jobs: int, target, assume, force: bool = False) -> dict:
    return _in_child("--child", str(src), str(dst), str(jobs), str(target), str(assume) if assume is not None else "-",
                     "force" if force else "policy")


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


def _command(assume, target) -> str:
    return f"migrate{f' --from {assume}' if assume is not None else ''} --to {target}"


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

    results = {}
    for jobs in (int(j) for j in args.jobs.split(",")):
        f = migrate_in_child(src, workdir / f"migrated-{name}-{jobs}.jsonl", jobs, target, assume, args.force_workers)
        baseline(f)
        results[jobs] = f
        rate = args.cards / f["migrate"]
        line = (f"{_command(assume, target)} --jobs {jobs}: {f['migrate']:.2f} s migrating ({rate:,.0f} cards/s, "
                f"{f['migrate'] / f['base']:.2f}x the JSON copy), {f['wall']:.2f} s wall with start-up "
                f"(rules loaded in {f['load']:.2f} s); peak RSS {f['rss_self_kb'] / 1024:.0f} MB")
        if jobs > 1:
            line += (f" main + {f['rss_workers_kb'] / 1024:.0f} MB largest worker; CPU {f['cpu_self']:.1f} s main + "
                     f"{f['cpu_workers']:.1f} s workers")
        else:
            decided = f["hits"] + f["misses"]
            line += f"; CPU {f['cpu_run']:.1f} s migrating ({f['cpu_self']:.1f} s with start-up)"
            line += (f"; {1 - decided / args.cards:.1%} of the cards written as a line seen before (but for the name), "
                     f"{f['hits'] / args.cards:.1%} decided from the cache, {f['misses'] / args.cards:.1%} decided")
        print(line)
        print(f"    load average now {os.getloadavg()[0]:.2f}; {f['summary']}; the JSON copy after it: {copies[-1][0]:.2f} s")
        if f["stderr"]:
            print("    " + f["stderr"].replace("\n", "\n    "))
    if 1 in results:
        one = results[1]
        for jobs, f in results.items():
            if jobs > 1:
                cpu_one = one["cpu_self"] - one["cpu_loading"]  # CPU time migrating, the rules loaded
                cpu = f["cpu_self"] - f["cpu_loading"] + f["cpu_workers"]
                how = (f"{f['workers']} workers, the main process {f['main_parallel']:.2f} s CPU meanwhile "
                       f"({f['main_parallel'] / cpu:.1%}); with a core per worker ≈"
                       f"{cpu_one / (f['cpu_workers'] / f['workers'] + f['main_parallel']):.2f}x" if f["workers"]
                       else "in one process: no processor was idle for a worker (--force-workers starts them anyway)")
                print(f"--jobs {jobs} against --jobs 1: {one['migrate'] / f['migrate']:.2f}x as fast (wall time migrating, "
                      f"load average {os.getloadavg()[0]:.2f}); CPU {cpu / cpu_one:.2f}x ({1e6 * cpu / args.cards:.0f} against "
                      f"{1e6 * cpu_one / args.cards:.0f} µs per card); {how}")
        outputs = {j: (workdir / f"migrated-{name}-{j}.jsonl").read_bytes() for j in results}
        same = len(set(outputs.values())) == 1
        print(f"outputs of every --jobs value identical: {same}")
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
    return {"copies": copies, "results": results, "command": _command(assume, target), "checks": checks, "target": target}


def _record(args, name: str, f: dict) -> None:
    """Issue 16's figures of one collection, for bench/all.py's table (bench/figures.py)."""
    cards = f"{args.cards:,} JSONL cards"
    copy = "stdlib JSON copy of the file"
    one = f["results"].get(1)
    if one is not None:
        rss = one["rss_self_kb"] / 1024
        record(Figure(f"{f['command']} --jobs 1, {cards}", round(one["migrate"], 2), "s", copy, round(one["base"], 2),
                      "≤ 1.0×, ≤ 100 MB", one["migrate"] <= one["base"] and rss <= 100, round(rss, 1),
                      note=f"CPU {(one['cpu_run'] + one['cpu_workers']) / one['base_cpu']:.2f}× the copy's"))
        for jobs, r in f["results"].items():
            if jobs > 1:
                # baseline: --jobs 1; the figure is the time of --jobs N, so the ratio is 1 / the speed-up
                record(Figure(f"{f['command']} --jobs {jobs}, {cards} ({r['workers']} workers)", round(r["migrate"], 2), "s",
                              "--jobs 1, same run", round(one["migrate"], 2), "≤ 0.625× (≥ 1.6× faster) on idle cores",
                              r["migrate"] * 1.6 <= one["migrate"], round(max(r["rss_self_kb"], r["rss_workers_kb"]) / 1024, 1),
                              note=f"load average {os.getloadavg()[0]:.2f}"))
    for fmt, c in f["checks"].items():
        rss = c["rss_self_kb"] / 1024
        record(Figure(f"check-cards -e {f['target']} --format {fmt}, {cards} ({name})", round(c["check"], 2), "s", copy,
                      round(c["base"], 2), "≤ 2×, memory flat", c["check"] <= 2 * c["base"], round(rss, 1),
                      note=f"CPU {c['cpu_run'] / c['base_cpu']:.2f}× the copy's"))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2:])
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--check-child":
        check_child(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    collection_options(ap, 1_000_000)
    ap.add_argument("--jobs", default="1,2", help="comma-separated --jobs values to measure")
    ap.add_argument("--check-formats", default="text", help="comma-separated check-cards --format values to measure "
                    "(text, json; empty: none)")
    ap.add_argument("--force-workers", action="store_true",
                    help="start the --jobs workers even where no processor is idle (a busy machine runs in one process)")
    args, names, view = started(ap)
    with work_folder(args.keep, "kotc-bench-") as workdir:
        figures = {name: measure(view, args, name, workdir) for name in names}

    print("\n== summary (--jobs 1 where measured, else the first --jobs value; each against the JSON copies around it)")
    ratios, cpu_ratios = {}, {}
    for name, f in figures.items():
        spread = [w for w, _ in f["copies"]]
        print(f"{name:>8}: the JSON copy took {min(spread):.2f}–{max(spread):.2f} s in {len(spread)} runs "
              f"({args.cards / (sum(spread) / len(spread)):,.0f} cards/s on average)")
        if f["results"]:
            jobs = 1 if 1 in f["results"] else next(iter(f["results"]))
            r = f["results"][jobs]
            ratios[name] = r["migrate"] / r["base"]
            cpu_ratios[name] = (r["cpu_run"] + r["cpu_workers"]) / r["base_cpu"] if r["base_cpu"] else float("nan")
            print(f"{'':>8}  {f['command']} --jobs {jobs}: {args.cards / r['migrate']:,.0f} cards/s, "
                  f"{ratios[name]:.2f}x its JSON copy; in CPU seconds {cpu_ratios[name]:.2f}x; "
                  f"peak RSS {r['rss_self_kb'] / 1024:.0f} MB")
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
