"""Read every edition's Card Building Guide list from its transcription, independently of the rules data.

The transcriptions live in ``../shared/sources/NN/card-building-guide.txt`` beside the
repository (see that folder's README for the notation).  The 1st–7th guides number their
items (``12. “Text.” (x/2) {x≤7}``, formula after the text); the 8th–10th bullet them
(``•   (x/2) {x≤7} “Text.”``, formula first).  History notes sit under an item (``◦`` or,
under numbered items of the 6th and 7th, ``•``): "Revised from: “…” (Nth Edition)",
"Cost Revised (Nth Edition); was: F", "Limit revised (Nth Edition); was: {no limit}".  A
struck item (``~~…~~``) is redacted; "Redacted (Nth Edition)" follows it.

What this reads is what the tests compare ``show --edition N`` with, entry by entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

SOURCES = Path(__file__).resolve().parent.parent.parent / "shared" / "sources"

KIND_HEADINGS = {
    "Caveats": "caveat",
    "Activation Conditions": "condition",
    "Activation Costs": "cost",
    "Target Selections": "target",
    "Effects": "effect",
}


def document(edition: int, name: str = "card-building-guide.txt") -> str:
    """The document below its transcription header."""
    path = SOURCES / f"{edition:02d}" / name
    if not path.exists():
        pytest.skip(f"source document {path} is not available")
    text = path.read_text(encoding="utf-8")
    return text.split("\n=====", 1)[1].split("\n", 1)[1]


def clean(text: str) -> str:
    """Straight quotes and apostrophes, single spaces."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class GuideEntry:
    kind: str
    text: str
    formula: str
    limits: dict = field(default_factory=dict)
    struck: bool = False
    redacted: int | None = None  # the edition its "Redacted (Nth Edition)" note gives
    revised_from: list = field(default_factory=list)  # [(old text, edition)]
    cost_revised: list = field(default_factory=list)  # [(edition, was)]
    limit_revised: list = field(default_factory=list)  # [(edition, was)] ("{no limit}" → {})


_FOOTER = re.compile(r"^\s*Keeper of the Cards: Card Building Guide .*Page \d+\s*$|^\s*\[page \d+\]\s*$")
_NUMBERED = re.compile(r"^\s*(?:~~)?\d+\.\s*(?:~~)?\s*“")
_ORD = r"(\d+)(?:st|nd|rd|th)\s+Edition"


def _balanced(s: str, i: int) -> int:
    """Index just after the parenthesised group opening at ``s[i]``."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "(":
            depth += 1
        elif s[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    raise ValueError(f"unbalanced parentheses in {s!r}")


def _formula(group: str) -> str:
    """``(x/(y+1))`` → ``x/(y+1)``; spaces dropped."""
    return group[1:-1].replace(" ", "")


def _limits(s: str) -> dict:
    out = {}
    for var, value in re.findall(r"\{\s*([xyz])\s*≤\s*(\d+)\s*\}", s):
        out[var] = int(value)
    return out


def _parse_item(raw: str, kind: str) -> GuideEntry:
    struck = "~~" in raw
    s = clean(raw.replace("~~", ""))
    s = re.sub(r"^\d+\.\s*", "", s)
    s = re.sub(r"^•\s*", "", s)
    formula = None
    limits: dict = {}
    if s.startswith("("):  # 8th–10th: (formula) {limit} "text"
        end = _balanced(s, 0)
        formula, s = _formula(s[:end]), s[end:].strip()
        m = re.match(r"^((?:\{[^}]*\}\s*)*)", s)
        limits, s = _limits(m.group(1)), s[m.end():].strip()
    m = re.match(r'^"(?P<text>[^"]+)"\s*(?P<rest>.*)$', s)
    if not m:
        raise ValueError(f"cannot read guide item {raw!r}")
    text, rest = m.group("text"), m.group("rest")
    if formula is None:  # 1st–7th: "text" (formula) {limit}
        end = _balanced(rest, 0)
        formula, rest = _formula(rest[:end]), rest[end:].strip()
        m2 = re.match(r"^((?:\{[^}]*\}\s*)*)", rest)
        limits, rest = _limits(m2.group(1)), rest[m2.end():].strip()
    entry = GuideEntry(kind, text, formula, limits, struck)
    red = re.search(r"Redacted\s*\(" + _ORD + r"\)", rest)
    if red:
        entry.redacted = int(red.group(1))
    elif rest:
        raise ValueError(f"unread rest {rest!r} of guide item {raw!r}")
    return entry


def _add_note(entry: GuideEntry, raw: str) -> None:
    s = clean(raw.replace("~~", ""))
    s = re.sub(r"^[◦•]\s*", "", s)
    m = re.match(r'^Revised from: "(.+)" \(' + _ORD + r"\)$", s)
    if m:
        entry.revised_from.append((m.group(1), int(m.group(2))))
        return
    m = re.match(r"^Cost Revised \(" + _ORD + r"\); was: (.+)$", s)
    if m:
        entry.cost_revised.append((int(m.group(1)), m.group(2).strip().replace(" ", "")))
        return
    m = re.match(r"^Limit revised \(" + _ORD + r"\); was: (.+)$", s)
    if m:
        was = m.group(2).strip()
        entry.limit_revised.append((int(m.group(1)), {} if was == "{no limit}" else _limits(was)))
        return
    raise ValueError(f"cannot read history note {raw!r}")


def _join(line: str, continuation: str) -> str:
    """Join a wrapped line: a hyphen at a line end is a real hyphen, kept without a space."""
    line = line.rstrip()
    if line.endswith("-") and not line.endswith(" -"):
        return line + continuation
    return line + " " + continuation


def guide_entries(edition: int) -> list[GuideEntry]:
    """Every component the edition's guide lists, in the guide's order."""
    lines = [line for line in document(edition).splitlines() if not _FOOTER.match(line)]
    numbered = any(_NUMBERED.match(line) for line in lines)
    item_start = _NUMBERED if numbered else re.compile(r"^\s*(?:~~)?•\s+(?:~~)?\(")
    note_start = re.compile(r"^\s*[◦•]\s+\S") if numbered else re.compile(r"^\s*◦\s+\S")
    blocks: list[tuple[str, str, list[str]]] = []  # (kind, item text, [note texts])
    kind = None
    current: list[str] | None = None  # lines of the item or note being read
    for line in lines:
        stripped = line.strip()
        if stripped in KIND_HEADINGS:
            kind, current = KIND_HEADINGS[stripped], None
            continue
        if kind is None:
            continue
        if item_start.match(line):
            blocks.append((kind, line, []))
            current = None
            continue
        if blocks and note_start.match(line) and blocks[-1][0] == kind:
            blocks[-1][2].append(line)
            current = blocks[-1][2]
            continue
        if not stripped:
            continue
        if blocks and blocks[-1][0] == kind and line.startswith("  "):  # a continuation line
            if current is not None:
                current[-1] = _join(current[-1], stripped)
            else:
                k, item, notes = blocks[-1]
                if not notes:
                    blocks[-1] = (k, _join(item, stripped), notes)
            continue
        current = None  # prose: the list is over until the next item
    out = []
    for kind, item, notes in blocks:
        entry = _parse_item(item, kind)
        for note in notes:
            _add_note(entry, note)
        out.append(entry)
    return out


def cost_rule_lines(edition: int) -> list[str]:
    """The guide's card-cost rule "in mathematical terms (using Python programming syntax)"."""
    text = document(edition)
    after = text.split("using Python programming syntax):", 1)[1]
    out = []
    for line in after.splitlines():
        s = line.strip().lstrip("•").strip()
        if not s:
            if out:
                break
            continue
        out.append(s)
    return out


if __name__ == "__main__":  # python tests/source_guides.py: print every guide's list
    for n in range(1, 11):
        entries = guide_entries(n)
        print(f"== {n}: {len(entries)} entries")
        for e in entries:
            print(f"  {e.kind:9} ({e.formula}) {e.limits or ''} {e.text!r}"
                  f"{' STRUCK' if e.struck else ''}{f' red={e.redacted}' if e.redacted else ''}"
                  f"{f' rev={e.revised_from}' if e.revised_from else ''}"
                  f"{f' cost={e.cost_revised}' if e.cost_revised else ''}"
                  f"{f' lim={e.limit_revised}' if e.limit_revised else ''}")
        print("  rule:", cost_rule_lines(n))
