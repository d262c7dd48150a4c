"""``kotc-rulesc new-edition N``: the commented skeleton of the next edition's rules file, valid as
written (every list empty), its comments teaching each kind of change with the rules' own ids,
sources, rulebook and card-cost rule; ``catalog: unknown`` where the previous catalog is unknown.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .fold import fold
from .history import CLEAN_SLATE, KINDS
from .history.change import quoted
from .rules_folder import FILE_NAME, listing
from .model import CostRule, Rulebook, RuleSet, ordinal
from .system import kind_titles

__all__ = ["ScaffoldError", "scaffold_text", "target_path", "plan_scaffold", "rules_before"]


class ScaffoldError(Exception):
    """A usage error (exit 2): the edition is not the next one, or the file exists."""


def target_path(rules_dir: Path, n: int) -> Path:
    return Path(rules_dir) / f"edition-{n:02d}.yaml"


def _examples(rules: RuleSet) -> dict[str, Any]:
    """What the comments' examples name: a legal component of each role in the newest known catalog
    (``cost``: an effect, ``sets``: a target selection, ``relief``: an activation cost), its kind and
    formula (``cost_kind``, ``cost_formula`` …), the system's kinds, the newest edition with a catalog."""
    newest = rules.newest_with_catalog()
    cat = fold(rules, newest)
    system = cat.system
    out: dict[str, Any] = {"kinds": " | ".join(kind_titles(system)), "newest": newest}
    for role in ("cost", "sets", "relief"):
        kinds = [k.id for k in system.kinds if k.role == role and k.place != "card"] if system else []
        legal = [c for c in cat.components or () if c.kind in kinds and c.status == "legal"]
        out[f"{role}_kind"] = kind = kinds[0] if kinds else role
        out[role] = legal[0].id if legal else f"{kind}-example"
        out[f"{role}_formula"] = legal[0].formula.notation() if legal and legal[0].formula else "unknown"
    return out


def _rulebook_lines(rb: Rulebook | None) -> list[str]:
    if rb is None:
        return ["#   source: <id>", "#   players: {min: 2, recommended: [2, 8]}", "#   deck: {min: 40, max: 60}"]
    lines = [f"#   source: {rb.sources[0] if len(rb.sources) == 1 else list(rb.sources)}"]
    for key in ("players", "deck", "reserves"):
        r = getattr(rb, key)
        if r is not None:
            parts = [f"{k}: {v}" for k, v in (("min", r.min), ("max", r.max)) if v is not None]
            if r.recommended:
                parts.append(f"recommended: [{r.recommended[0]}, {r.recommended[1]}]")
            lines.append(f"#   {key}: {{{', '.join(parts)}}}")
    for key in ("starting_hand", "starting_hitpoints", "deck_ultra_points", "edition_indicator", "exhaustive_lists",
                "cost_revised"):
        value = getattr(rb, key)
        if value is not None:
            lines.append(f"#   {key}: {json.dumps(value) if isinstance(value, bool) else value}")
    if rb.terms:
        lines.append("#   terms: {" + ", ".join(f"{k}: {quoted(v)}" for k, v in rb.terms.items()) + "}")
    for key in ("zones", "ability_layout", "keywords"):
        values = getattr(rb, key)
        if values:
            lines.append(f"#   {key}: [" + ", ".join(quoted(v) for v in values) + "]")
    return lines


def _card_cost_lines(rule: CostRule | None) -> list[str]:
    if rule is None:
        return ["#   source: <id>", '#   total_relief: "condition_relief + cost_relief"']
    lines = [f"#   source: {rule.sources[0] if len(rule.sources) == 1 else list(rule.sources)}"]
    lines += [f"#   {name}: {quoted(f.notation())}" for name, f in rule.parts()]
    return lines


def scaffold_text(rules: RuleSet, n: int, option: str = "") -> str:
    """The skeleton of edition ``n`` (the edition after ``rules.last``); ``option`` is what the
    commands it names need to find these rules (`` --rules DIR``, or nothing for the bundled ones)."""
    last = rules.last
    ex = _examples(rules)
    prev = fold(rules, last)
    base = rules.editions[0].file.rsplit("/", 1)[-1]
    sources = ", ".join(sorted(rules.sources)) or "none yet"
    rulebook_of = next((e for e in reversed(rules.editions) if e.rulebook is not None), None)
    cost_of = next((e for e in reversed(rules.editions) if e.card_cost is not None), None)
    nth = ordinal(n)
    steps = [(f"kotc-rulesc check{option}", "every problem, with its line"),
             (f"kotc-rulesc diff {last} {n}{option}", "what moves, word by word"),
             (f"kotc-rulesc build{option}", "regenerate the tables and the documents")]
    width = max(len(c) for c, _ in steps)
    lines = [
        f"# Keeper of the Cards, {nth} Edition: what it changed.",
        f"# Written by `kotc-rulesc new-edition {n}`. Fill in the lists below, then run",
        *(f"#   {command:<{width}}  {what}" for command, what in steps),
        "# Every list may stay empty: an edition that changed nothing is valid. A change that",
        "# changes nothing is not (a revision to the same text or formula, a second redaction).",
        "#",
        f"# Every fact cites the document that states it, by an id declared in {base} under",
        f"# `sources:` (so far: {sources}).",
        *(
            [f"# This edition's documents are declared there: guide-{n:02d}, rulebook-{n:02d}."]
            if f"guide-{n:02d}" in rules.sources and f"rulebook-{n:02d}" in rules.sources
            else [
                "# Declare this edition's documents there, e.g.",
                f'#   guide-{n:02d}: {{file: sources/{n:02d}/card-building-guide.txt, title: "Card Building Guide, {nth} Edition"}}',
                f'#   rulebook-{n:02d}: {{file: sources/{n:02d}/rulebook.txt, title: "Rulebook, {nth} Edition"}}',
            ]
        ),
        f"edition: {n}",
        f"follows: {last}",
        "# The default source of every event below (each event may name its own with `source:`):",
        f"# source: [guide-{n:02d}, rulebook-{n:02d}]",
        "",
    ]
    if not prev.catalog_known:
        lines += [
            f"# The {ordinal(last)} Edition's component catalog is unknown (no source gives it), so this",
            "# edition's is unknown too. Delete this line only when a source gives this edition's",
            f"# catalog: it is then read as the {ordinal(rules.newest_with_catalog())} Edition's, changed by every later file up to",
            "# this one; record here whatever else that source shows changed (redactions, new components).",
            "catalog: unknown",
            "",
        ]
    else:
        lines += [
            "# If no source gives this edition's component catalog, say so:",
            "# catalog: unknown",
            "",
        ]
    for kind in KINDS:  # each kind says how its list is written (kotc_rulesc.history)
        for line in kind.skeleton:
            lines += kind.example(rules) if line == "{example}" else [line.format(**ex)]
        lines += [f"{kind.key}: []", ""]
    lines += [
        "# Components new in this edition, written as in the base file:",
        f"#   - id: {ex['cost_kind']}-gain-level     # its kind, then a short kebab-case slug",
        f"#     kind: {ex['cost_kind']}              # {ex['kinds']}",
        '#     text: "Increase your level by [x]."',
        '#     formula: "2x"',
        "#     limits: {x: 10}           # optional",
        "#     source: <id>",
        "components: []",
        "",
        *(line.format(**ex) for line in CLEAN_SLATE.skeleton),
        "",
        "# The rulebook's parameters this edition's rulebook changes: a key left out keeps the one",
        "# before's, null makes it unknown (`rulebook: null`: no source gives this edition's rulebook)."
        + (f" The {ordinal(rulebook_of.number)} Edition's, for reference:" if rulebook_of else ""),
        "# rulebook:",
        *_rulebook_lines(rulebook_of.rulebook if rulebook_of else None),
        "",
        "# The card-cost rule, if this edition's documents state one (otherwise the latest stated",
        "# rule applies, and the documents say so)."
        + (f" The {ordinal(cost_of.number)} Edition's:" if cost_of else ""),
        "# card_cost:",
        *_card_cost_lines(cost_of.card_cost if cost_of else None),
    ]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class Plan:
    path: Path
    text: str
    overwrite: bool
    follows: int


def rules_before(rules_dir: Path, n: int, force: bool, load, redo: str = "replace it with a fresh skeleton") -> tuple[RuleSet, Path, bool]:
    """The rules a new file for edition ``n`` is written over: (rules, its path, whether it replaces a file).

    Refused (:class:`ScaffoldError`) when the file exists and is not the last edition's, or exists
    and ``force`` is not given (``--force`` would ``redo``); with ``force`` the file is set aside
    while the rules are read.  (``new-edition`` and ``import-edition`` write a file this way.)"""
    path = target_path(rules_dir, n)
    if Path(rules_dir).is_dir() and listing(Path(rules_dir))[1]:
        load(rules_dir)  # (a FIFO, a device, a folder named like a rules file: the loader names it, exit 2)
    if not os.path.lexists(path):
        return load(rules_dir), path, False
    last = max(int(m.group(1)) for p in Path(rules_dir).iterdir() if (m := FILE_NAME.match(p.name)))
    if n != last:
        raise ScaffoldError(f"edition {n} is already in the rules, and is not the last one; the next edition is {last + 1}")
    if not force:
        raise ScaffoldError(f"{path} already exists; pass --force to {redo}")
    with tempfile.TemporaryDirectory() as tmp:
        for p in sorted(Path(rules_dir).iterdir()):
            if p.is_file() and p != path:
                shutil.copy2(p, tmp)
        return load(Path(tmp)), path, True


def plan_scaffold(rules_dir: Path, n: int, force: bool, load, option: str = "") -> Plan:
    """What ``new-edition n`` writes; ``load(dir)`` loads a rules directory, ``option`` is how the
    commands the skeleton names find these rules.  Refused (:class:`ScaffoldError`) when ``n`` is
    not the next edition, or as :func:`rules_before` refuses."""
    rules, path, overwrite = rules_before(rules_dir, n, force, load)
    if n <= rules.last:
        raise ScaffoldError(f"edition {n} is already in the rules (they run from the {ordinal(rules.first)} to the "
                            f"{ordinal(rules.last)}); the next edition is {rules.last + 1}")
    if n != rules.last + 1:
        raise ScaffoldError(f"the next edition is {rules.last + 1}, not {n}: scaffold the editions in order "
                            "(an edition that changed nothing is a valid file as scaffolded)")
    return Plan(path, scaffold_text(rules, n, option), overwrite, rules.last)
