#!/usr/bin/env python3
"""Benchmark ``kotc-rulesc migrate`` on a synthetic YAML collection (prints figures; not a test).

The collection is drawn from the real catalogs by ``bench/migrate_bench.py``'s
generator (6th-edition designs migrated to the 11-pre, and 13th-edition designs
migrated to the 17th), and written as a hand-kept YAML file would be: a header
comment, section comments and blank lines between the cards, end-of-line comments
on some fields, and every layout a card may have — texts as literal blocks (``|``
and ``|-``), plain, single- and double-quoted scalars, flow lists of tags, a nested
mapping, and one-line flow mappings.

Then, in the same run, each in a child process of its own:

* the baselines: a plain read and write of the file's text (the least any
  migration costs), and ruamel.yaml's round-trip load and dump of the same file
  (what a migration that rewrote the whole document would cost);
* ``migrate`` of the file, reporting the migration's own time (after the rules
  are loaded), the wall time of the whole command, and the peak resident memory.

The last lines give the targets of issue 16 beside the figures: 10,000 cards in
at most 10 s, with at most 150 MB of peak memory.

Usage::

    .venv/bin/python bench/yaml_bench.py                  # 10,000 cards of each collection
    .venv/bin/python bench/yaml_bench.py --cards 2000     # a quicker run
    .venv/bin/python bench/yaml_bench.py --collections 6-11pre --keep build/yaml-bench
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from figures import Figure, record  # noqa: E402  (bench/figures.py)
from migrate_bench import (  # noqa: E402
    COLLECTIONS, _command, _peak_rss_kb, collection_options, make_designs, started, work_folder)

TARGET_SECONDS = 10.0  # issue 16: 10,000 cards
TARGET_MB = 150.0


# --------------------------------------------------------------------------- the synthetic collection

_INDENTS = {  # (mapping, sequence offset): how the collection's lists and mappings are indented
    "2-2": (2, 2),  # cards:\n  - name: …
    "2-0": (2, 0),  # cards:\n- name: …
    "4-4": (4, 4),  # cards:\n    -   name: …  (four everywhere)
}

_PLAIN_BAD = set(":#'\"{}[],&*!|>%@`")


def _plain_ok(s: str) -> bool:
    """``s`` may be written as a plain scalar (conservatively)."""
    return bool(s) and s == s.strip() and not (set(s) & _PLAIN_BAD) and "\n" not in s and not s[0] in "-?" \
        and s.lower() not in ("null", "true", "false", "yes", "no", "on", "off", "~") and not s[0].isdigit()


def _dq(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _sq(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _scalar(s: str, style: str) -> str:
    if style == "plain" and _plain_ok(s):
        return s
    if style == "single" and "\n" not in s:
        return _sq(s)
    return _dq(s)


def _card_lines(card: dict, rng: random.Random, step: int, dash: str, first: str) -> list[str]:
    """One card as block mapping lines; ``dash`` starts the first line, ``first`` indents the others."""
    out: list[str] = []
    text_style = rng.choice(("literal", "literal", "literal-strip", "plain", "double", "single"))
    for key, value in card.items():
        if key == "text":
            if text_style.startswith("literal") or "\n" in value:
                head = "|-" if text_style == "literal-strip" else "|"
                body = [first + " " * step + line for line in value.split("\n")]
                value_text = value if head == "|-" else value + "\n"
                out.append(f"text: {head}")
                out.extend(body)
                card["text"] = value_text
                continue
            out.append(f"text: {_scalar(value, text_style)}")
        elif key == "tags":
            out.append(f"tags: [{', '.join(value)}]")
        elif key == "meta":
            out.append("meta:")
            out.extend(first + " " * step + f"{k}: {v}" for k, v in value.items())
        elif isinstance(value, str):
            out.append(f"{key}: {_scalar(value, rng.choice(('plain', 'plain', 'double', 'single')))}")
        else:
            line = f"{key}: {value}"
            if key in ("cost", "level") and rng.random() < 0.1:
                line += " " * rng.randint(1, 8) + "# as printed"
            out.append(line)
    lines = []
    for i, line in enumerate(out):
        if line.startswith(first) and i:  # a continuation line, already indented
            lines.append(line)
        else:
            lines.append((dash if i == 0 else first) + line)
    return lines


def _flow_card(card: dict) -> str:
    parts = []
    for key, value in card.items():
        if isinstance(value, str):
            parts.append(f"{key}: {value if _plain_ok(value) else _dq(value)}")
        elif isinstance(value, list):
            parts.append(f"{key}: [{', '.join(value)}]")
        else:
            parts.append(f"{key}: {value}")
    return "{" + ", ".join(parts) + "}"


def write_yaml_collection(path: Path, designs: list[dict], cards: int, seed: int, indent: str = "2-2") -> None:
    """``cards`` cards drawn from ``designs`` (Zipf-like popularity), written as a hand-kept collection."""
    step, offset = _INDENTS[indent]
    rng = random.Random(seed + 2)
    weights = [1.0 / (rank + 1) for rank in range(len(designs))]
    picks = rng.choices(range(len(designs)), weights=weights, k=cards) if len(designs) < cards \
        else rng.sample(range(len(designs)), cards)
    pad = " " * offset
    dash = pad + "-" + " " * (step - 1 if step > 2 else 1)
    first = pad + " " * (len(dash) - offset)
    lines = ["# yaml-language-server: $schema=../kotc_rulesc/schemas/collection.schema.json",
             "# A synthetic hand-kept collection (bench/yaml_bench.py): comments, blank lines and",
             "# every card layout a collection may have.", "cards:"]
    for i, d in enumerate(picks):
        card = {"name": f"Card {d:05d} no. {i}", **designs[d]}
        if i % 50 == 0:
            lines += ["", pad + f"# --- section {i // 50 + 1} " + "-" * 40, ""]
        elif rng.random() < 0.5:
            lines.append("")
        roll = rng.random()
        if roll < 0.2:
            card["flavor"] = rng.choice(("Synthetic.", "It came from the bench: a card.", "Small, but it's bright."))
        elif roll < 0.3:
            card["tags"] = rng.sample(["draw", "classic", "bench", "promo"], 2)
        elif roll < 0.35:
            card["meta"] = {"set": "bench", "number": i}
        if rng.random() < 0.1:
            lines.append(pad + "# a comment above a card")
        if rng.random() < 0.05 and "\n" not in card["text"]:
            lines.append(dash + _flow_card(card) + ("  # one line" if rng.random() < 0.5 else ""))
            continue
        lines.extend(_card_lines(card, rng, step, dash, first))
    lines.append("# end of the collection")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# --------------------------------------------------------------------------- measurements (each in a child process)


def _figures(seconds: float, **more) -> None:
    print(json.dumps({"seconds": seconds, "cpu": time.process_time(), "rss_kb": _peak_rss_kb(), **more}))


def child_copy(src: str, dst: str) -> None:
    """The least a migration costs: the file's text read and written back (stdlib)."""
    t = time.perf_counter()
    with open(src, encoding="utf-8") as fin, open(dst, "w", encoding="utf-8") as fout:
        fout.write(fin.read())
    _figures(time.perf_counter() - t)


def child_round_trip(src: str, dst: str) -> None:
    """ruamel.yaml's round-trip load and dump of the file, with the document's indentation (pure
    Python: the round trip has no C loader)."""
    import io

    from ruamel.yaml import YAML

    from kotc_rulesc.migrate.io_yaml import detect_indent

    t = time.perf_counter()
    with open(src, encoding="utf-8") as f:
        text = f.read()
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 16
    mapping, sequence, offset = detect_indent(text)
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    doc = yaml.load(text)
    buf = io.StringIO()
    yaml.dump(doc, buf)
    with open(dst, "w", encoding="utf-8") as f:
        f.write(buf.getvalue())
    _figures(time.perf_counter() - t)


def child_migrate(src: str, dst: str, target: str, assume: str) -> None:
    """``migrate`` in this process, after the rules are loaded."""
    import io

    t0 = time.perf_counter()
    from ruamel.yaml import YAML

    from kotc_rulesc.cards.rules_source import get_view
    from kotc_rulesc.migrate import run as runmod

    view = get_view(None)
    parser = "libyaml" if YAML(typ="safe").Parser.__name__ == "CParser" else "pure"
    stats = {}
    original = runmod.Migrator

    class Counting(original):  # to report the decision cache's hit rate, and the time spent deciding
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            stats["migrator"] = self
            self.deciding = 0.0

        def decide(self, card):
            start = time.perf_counter()
            try:
                return super().decide(card)
            finally:
                self.deciding += time.perf_counter() - start

    runmod.Migrator = Counting
    t1, cpu1 = time.perf_counter(), time.process_time()
    err = io.StringIO()
    code = runmod.run(runmod.Options(src, target if target == "11-pre" else int(target),
                                     assume=int(assume) if assume != "-" else None, output=dst), view, stderr=err)
    t2 = time.perf_counter()
    m = stats["migrator"]
    _figures(t2 - t1, load=t1 - t0, code=code, summary=err.getvalue().splitlines()[0], hits=m.hits, misses=m.misses,
             parser=parser, deciding=m.deciding, cpu=time.process_time() - cpu1)


def in_child(kind: str, *args: str) -> dict:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, __file__, "--child", kind, *map(str, args)], check=True, capture_output=True,
                         text=True, cwd=ROOT)
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    figures["wall"] = time.perf_counter() - start
    return figures


def _mb(kb: int) -> str:
    return f"{kb / 1024:.0f} MB"


def measure(view, args, name: str, workdir: Path) -> dict:
    edition, assume, target = COLLECTIONS[name]
    src = workdir / f"collection-{name}.yaml"
    designs = min(args.designs, args.cards)
    t = time.perf_counter()
    write_yaml_collection(src, make_designs(view, designs, args.seed, edition), args.cards, args.seed, args.indent)
    text = src.read_text(encoding="utf-8")
    print(f"\n== {name}: {args.cards:,} cards drawn from {designs:,} designs of the {edition}th edition catalog, "
          f"{len(text.encode()) / 1e6:.1f} MB of YAML in {text.count(chr(10)):,} lines, indented {args.indent} "
          f"(generated in {time.perf_counter() - t:.1f} s)")
    copy = in_child("copy", src, workdir / "copy.yaml")
    print(f"baseline, the text read and written (stdlib): {copy['seconds']:.3f} s; peak RSS {_mb(copy['rss_kb'])}")
    trip = None
    if not args.no_round_trip:
        trip = in_child("round-trip", src, workdir / "round-trip.yaml")
        print(f"baseline, ruamel.yaml round trip (load + dump): {trip['seconds']:.2f} s, CPU {trip['cpu']:.2f} s; "
              f"peak RSS {_mb(trip['rss_kb'])}")
    command = _command(assume, target)
    f = in_child("migrate", src, workdir / f"migrated-{name}.yaml", target, assume if assume is not None else "-")
    total = f["hits"] + f["misses"]
    print(f"{command}: {f['seconds']:.2f} s migrating ({args.cards / f['seconds']:,.0f} cards/s), "
          f"{f['wall']:.2f} s wall with start-up (rules loaded in {f['load']:.2f} s); CPU {f['cpu']:.2f} s migrating; "
          f"peak RSS {_mb(f['rss_kb'])}; parser {f['parser']}")
    print(f"    of which deciding the cards (the Migrator, as for JSON): {f['deciding']:.2f} s, decisions cached for "
          f"{f['hits'] / total:.1%} of the cards; reading the YAML and writing the changes: {f['seconds'] - f['deciding']:.2f} s")
    print(f"    {f['summary']}; load average now {os.getloadavg()[0]:.2f}")
    ratios = f"    = {f['seconds'] / copy['seconds']:,.0f}x the text copy"
    if trip:
        ratios += f", {f['seconds'] / trip['seconds']:.2f}x the ruamel round trip"
    print(ratios)
    memory = f["rss_kb"] / 1024
    if args.cards == 10_000:
        seconds = f["seconds"]
        verdict = "met" if seconds <= TARGET_SECONDS else f"missed by {seconds - TARGET_SECONDS:.1f} s"
        timing = f"10,000 cards in <= {TARGET_SECONDS:.0f} s: {seconds:.2f} s, {verdict}"
    else:
        timing = "10,000 cards in <= 10 s: measured with --cards 10000 only"
    mverdict = "met" if memory <= TARGET_MB else f"missed by {memory - TARGET_MB:.0f} MB"
    print(f"    targets (issue 16): {timing}; peak RSS <= {TARGET_MB:.0f} MB: {memory:.0f} MB, {mverdict}")
    base = trip or copy
    record(Figure(f"migrate YAML {name}, {args.cards:,} cards", round(f["seconds"], 2), "s",
                  "ruamel.yaml round trip of the file" if trip else "the text read and written", round(base["seconds"], 3),
                  f"≤ {TARGET_SECONDS:.0f} s, ≤ {TARGET_MB:.0f} MB (10,000 cards)",
                  args.cards == 10_000 and f["seconds"] <= TARGET_SECONDS and memory <= TARGET_MB, round(memory, 1)))
    return {"copy": copy, "round_trip": trip, "migrate": f}


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        kind, rest = sys.argv[2], sys.argv[3:]
        {"copy": child_copy, "round-trip": child_round_trip, "migrate": child_migrate}[kind](*rest)
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    collection_options(ap, 10_000)
    ap.add_argument("--indent", default="2-2", choices=sorted(_INDENTS), help="how the collection is indented")
    ap.add_argument("--no-round-trip", action="store_true", help="skip the ruamel.yaml round-trip baseline (slow)")
    args, names, view = started(ap)
    with work_folder(args.keep, "kotc-yaml-bench-") as workdir:
        for name in names:
            measure(view, args, name, workdir)


if __name__ == "__main__":
    main()
