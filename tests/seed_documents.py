"""Read the seed documents' lists, independently of the rules data, to check the data against them.

The seeds live in ../shared/seeds beside the repository. Their transcription noise
(LaTeX fragments, emphasis marks, "Reducted", curly quotes) is read through here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds"

KIND_HEADINGS = {
    "Caveats": "caveat",
    "Activation Conditions": "condition",
    "Activation Costs": "cost",
    "Target Selections": "target",
    "Effects": "effect",
}


def seed(name: str) -> str:
    path = SEEDS / name
    if not path.exists():
        pytest.skip(f"seed document {path} is not available")
    return path.read_text(encoding="utf-8")


def clean(text: str) -> str:
    """Straight quotes, no LaTeX or emphasis noise, single spaces."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    text = text.replace("$", "").replace("\\le", "≤").replace("\\leq", "≤")
    text = re.sub(r"\^\{?(st|nd|rd|th)\}?", r"\1", text)
    text = re.sub(r"(?<!\*)\*(?!\*)", "", text.replace("y^2", "y²")).replace("\\{", "{").replace("\\}", "}")
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class GuideComponent:
    kind: str
    text: str
    formula: str
    limits: dict = field(default_factory=dict)
    redacted: int | None = None
    revised_from: list = field(default_factory=list)  # [(old text, edition)]
    cost_revised: list = field(default_factory=list)  # [(edition, was)]


_ITEM = re.compile(r'^- \((?P<formula>.+?)\)\s*(?:\{\s*(?P<var>[xyz])\s*≤\s*(?P<limit>\d+)\s*\}\s*)?"(?P<text>[^"]+)"(?P<rest>.*)$')


def guide_components() -> list[GuideComponent]:
    lines = seed("card-building-guide-11th.txt").splitlines()
    # the catalog starts at the second "Caveats" heading (the first is in the introduction)
    start = [i for i, line in enumerate(lines) if line.strip() == "Caveats"][1]
    kind = None
    out: list[GuideComponent] = []
    for raw in lines[start:]:
        line = clean(raw)
        if line in KIND_HEADINGS:
            kind = KIND_HEADINGS[line]
            continue
        m = _ITEM.match(line)
        if m:
            formula = m.group("formula").replace(" ", "")
            if formula.startswith("(") and formula.endswith(")") and formula.count("(") == 1:
                formula = formula[1:-1]
            comp = GuideComponent(kind, m.group("text"), formula)
            if m.group("var"):
                comp.limits = {m.group("var"): int(m.group("limit"))}
            red = re.search(r"(?:Redacted|Reducted)\s*\(?(\d+)", m.group("rest"))
            if red:
                comp.redacted = int(red.group(1))
            out.append(comp)
            continue
        rev = re.match(r'^- Revised from: "(.+)" \((\d+)\w\w Edition\)$', line)
        if rev:
            out[-1].revised_from.append((rev.group(1), int(rev.group(2))))
            continue
        cost = re.match(r"^- Cost Revised \((\d+)\w\w Edition\); was: (.+)$", line)
        if cost:
            out[-1].cost_revised.append((int(cost.group(1)), cost.group(2).strip()))
    return out


def _section(text: str, heading: str) -> list[str]:
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.strip().startswith(heading))
    items: list[str] = []
    for line in lines[i + 1 :]:
        stripped = line.strip()
        if stripped in ("Redacted Ability Text (Banned Cards)", "Revised Variable Limits", "Revised Costs") or (
            stripped.startswith("Redacted Ability Text")
        ):
            break
        if stripped.startswith("- "):
            items.append(stripped[2:])
        elif stripped.startswith("→") and items:
            items[-1] += " " + stripped
    return items


def rulebook_lists(name: str) -> dict[str, list]:
    """The rulebook's lists: revised [(old, new, old_marked, new_marked)], redacted [text],
    limits [(text, limit)], costs [(text, edition)]."""
    text = seed(name)
    out: dict[str, list] = {"revised": [], "redacted": [], "limits": [], "costs": []}
    for item in _section(text, "Revised Ability Text"):
        old, new = (clean(part) for part in item.split("→"))
        old, new = old.strip('"'), new.strip('"')
        out["revised"].append((old.replace("~~", ""), new.replace("**", ""), old, new))
    for item in _section(text, "Redacted Ability Text"):
        out["redacted"].append(clean(item).strip('"'))
    for item in _section(text, "Revised Variable Limits"):
        item = clean(item)
        if item == "N/A":
            continue
        m = re.match(r'^"(.+)" \{(.+)\}$', item)
        out["limits"].append((m.group(1), m.group(2).replace(" ", "")))
    if "Revised Costs" in text:
        for item in _section(text, "Revised Costs"):
            m = re.match(r'^"(.+)" \((\d+)\w\w Edition\)$', clean(item))
            out["costs"].append((m.group(1), int(m.group(2))))
    return out
