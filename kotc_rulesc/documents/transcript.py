"""The plain-text documents: the 1st–10th guides and rulebooks (``pdftotext -layout`` transcriptions,
``../shared/sources/NN/*.txt``) and the seeds' 11th pre-release (``../shared/seeds``).

The 1st–7th guides number their items (``12. “Text.” (x/2) {x≤7}``), the 8th–10th bullet them with
the formula first (``•   (x/2) {x≤7} “Text.”``); history notes sit under an item ("Revised from: …",
"Cost Revised (Nth Edition); was: F"); a struck item is redacted.  The seeds are Markdown-like text
with LaTeX noise (``$x \\le 14$``, ``3^{rd}``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .guide import SECTIONS, DocumentError, _balanced, clean
from .rulebook import SECTION_KEYS, RulebookLists, list_item

__all__ = ["TranscriptEntry", "body", "guide_entries", "cost_rule_lines", "rulebook_lists",
           "seed_guide_entries", "seed_rulebook_lists"]

_ORD = r"(\d+)(?:st|nd|rd|th)\s+Edition"
_FOOTER = re.compile(r"^\s*Keeper of the Cards: Card Building Guide .*Page \d+\s*$|^\s*\[page \d+\]\s*$")
_NUMBERED = re.compile(r"^\s*(?:~~)?\d+\.\s*(?:~~)?\s*“")
_PAGE = re.compile(r"^\[page \d+\]$")
_RULEBOOK_FOOTER = re.compile(r"^Keeper of the Cards: Rulebook \(.*Edition.*\)\s+Page \d+$")


@dataclass
class TranscriptEntry:
    """One component of a text guide, with the history notes printed under it."""

    kind: str
    text: str
    formula: str
    limits: dict[str, int] = field(default_factory=dict)
    struck: bool = False
    redacted: int | None = None  # the edition its "Redacted (Nth Edition)" note gives
    revised_from: list[tuple[str, int]] = field(default_factory=list)
    cost_revised: list[tuple[int, str]] = field(default_factory=list)  # [(edition, was)]
    limit_revised: list[tuple[int, dict]] | None = field(default_factory=list)  # None: the document prints none


def body(text: str) -> str:
    """A transcription without its header (everything after the first line of only '=')."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() and set(line.strip()) == {"="}:
            return "\n".join(lines[i + 1:]) + "\n"
    return text


def _limits(s: str) -> dict[str, int]:
    return {var: int(value) for var, value in re.findall(r"\{\s*([xyz])\s*≤\s*(\d+)\s*\}", s)}


def _formula_and_limits(s: str) -> tuple[str, dict[str, int], str]:
    """The parenthesised formula that opens ``s`` (spaces removed), the limits after it, the rest."""
    end = _balanced(s)
    m = re.match(r"^((?:\{[^}]*\}\s*)*)", s[end:].strip())
    return s[1:end - 1].replace(" ", ""), _limits(m.group(1)), m.string[m.end():].strip()


def _parse_item(raw: str, kind: str) -> TranscriptEntry:
    struck = "~~" in raw
    s = clean(raw.replace("~~", ""))
    s = re.sub(r"^(?:\d+\.|•)\s*", "", s)
    formula = None
    limits: dict[str, int] = {}
    if s.startswith("("):  # 8th–10th: (formula) {limit} "text"
        formula, limits, s = _formula_and_limits(s)
    m = re.match(r'^"(?P<text>[^"]+)"\s*(?P<rest>.*)$', s)
    if not m:
        raise DocumentError(f"cannot read the guide item {raw!r}")
    text, rest = m.group("text"), m.group("rest")
    if formula is None:  # 1st–7th: "text" (formula) {limit}
        formula, limits, rest = _formula_and_limits(rest)
    entry = TranscriptEntry(kind, text, formula, limits, struck)
    red = re.search(r"Redacted\s*\(" + _ORD + r"\)", rest)
    if red:
        entry.redacted = int(red.group(1))
    elif rest:
        raise DocumentError(f"unread rest {rest!r} of the guide item {raw!r}")
    return entry


def _add_note(entry: TranscriptEntry, raw: str) -> None:
    s = re.sub(r"^[◦•-]\s*", "", clean(raw.replace("~~", "")))
    m = re.match(r'^Revised from: "(.+)" \(' + _ORD + r"\)$", s)
    if m:
        entry.revised_from.append((m.group(1), int(m.group(2))))
        return
    m = re.match(r"^Cost Revised \(" + _ORD + r"\); was: (.+)$", s)
    if m:
        entry.cost_revised.append((int(m.group(1)), m.group(2).strip().replace(" ", "")))
        return
    m = re.match(r"^Limit revised \(" + _ORD + r"\); was: (.+)$", s)
    if m and entry.limit_revised is not None:
        was = m.group(2).strip()
        entry.limit_revised.append((int(m.group(1)), {} if was == "{no limit}" else _limits(was)))
        return
    raise DocumentError(f"cannot read the history note {raw!r}")


def _join(line: str, continuation: str) -> str:
    """A wrapped line joined: a hyphen at a line end is a real hyphen, kept without a space."""
    line = line.rstrip()
    return line + continuation if line.endswith("-") and not line.endswith(" -") else f"{line} {continuation}"


def guide_entries(text: str) -> list[TranscriptEntry]:
    """Every component a 1st–10th guide lists (its transcription's text), in the guide's order."""
    lines = [line for line in body(text).splitlines() if not _FOOTER.match(line)]
    numbered = any(_NUMBERED.match(line) for line in lines)
    item_start = _NUMBERED if numbered else re.compile(r"^\s*(?:~~)?•\s+(?:~~)?\(")
    note_start = re.compile(r"^\s*[◦•]\s+\S") if numbered else re.compile(r"^\s*◦\s+\S")
    blocks: list[tuple[str, str, list[str]]] = []  # (kind, item text, [note texts])
    kind = None
    current: list[str] | None = None  # the notes of the item being read, while a note continues
    for line in lines:
        stripped = line.strip()
        if stripped in SECTIONS:
            kind, current = SECTIONS[stripped], None
            continue
        if kind is None:
            continue
        if item_start.match(line):
            blocks.append((kind, line, []))
            current = None
        elif blocks and note_start.match(line) and blocks[-1][0] == kind:
            blocks[-1][2].append(line)
            current = blocks[-1][2]
        elif not stripped:
            continue
        elif blocks and blocks[-1][0] == kind and line.startswith("  "):  # a continuation line
            if current is not None:
                current[-1] = _join(current[-1], stripped)
            elif not blocks[-1][2]:
                blocks[-1] = (blocks[-1][0], _join(blocks[-1][1], stripped), blocks[-1][2])
        else:
            current = None  # prose: the list is over until the next item
    out = []
    for kind, item, notes in blocks:
        entry = _parse_item(item, kind)
        for note in notes:
            _add_note(entry, note)
        out.append(entry)
    return out


def cost_rule_lines(text: str) -> list[str]:
    """A 1st–10th guide's card-cost rule "in mathematical terms (using Python programming syntax)"."""
    after = body(text).split("using Python programming syntax):", 1)[1]
    out: list[str] = []
    for line in after.splitlines():
        s = line.strip().lstrip("•").strip()
        if not s:
            if out:
                break
            continue
        out.append(s)
    return out


def rulebook_lists(text: str) -> RulebookLists:
    """A 1st–10th rulebook's lists (its transcription's text).  (The 8th's file is the 7th's.)"""
    lines = [line.rstrip() for line in body(text).splitlines()]
    lines = [line for line in lines if not _PAGE.match(line.strip()) and not _RULEBOOK_FOOTER.match(line.strip())]
    sections: dict[str, list[str]] = {}
    title = None
    in_item = False  # the line before was an item's: a line indented 4 or more continues it
    prev_blank = True
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        continues, in_item = in_item and indent >= 4, False
        if stripped in SECTION_KEYS:
            title = stripped
            sections[title] = []
        elif not stripped or title is None:
            pass
        elif stripped.startswith("•"):
            sections[title].append(stripped[1:].strip())
            in_item = True
        elif continues:
            sections[title][-1] += " " + stripped
            in_item = True
        elif indent >= 10 and prev_blank:
            title = None  # another (centred) heading: the section is over
        # (else prose: the section's introduction)
        prev_blank = not stripped
    out = RulebookLists()
    for title, items in sections.items():
        key = SECTION_KEYS[title]
        out.sections[key] = title
        for entry in items:
            list_item(key, entry, out)
    return out


# -- the seeds -----------------------------------------------------------------------------------


def _seed_clean(text: str) -> str:
    """Straight quotes, no LaTeX or emphasis noise, single spaces."""
    text = clean(text).replace("$", "").replace("\\leq", "≤").replace("\\le", "≤")
    text = re.sub(r"\^\{?(st|nd|rd|th)\}?", r"\1", text)
    text = re.sub(r"(?<!\*)\*(?!\*)", "", text.replace("y^2", "y²")).replace("\\{", "{").replace("\\}", "}")
    return " ".join(text.split())


_SEED_ITEM = re.compile(r'^- \((?P<formula>.+?)\)\s*(?:\{\s*(?P<var>[xyz])\s*≤\s*(?P<limit>\d+)\s*\}\s*)?"(?P<text>[^"]+)"(?P<rest>.*)$')


def seed_guide_entries(text: str) -> list[TranscriptEntry]:
    """The components of the seeds' 11th guide (``card-building-guide-11th.txt``)."""
    lines = text.splitlines()
    # the catalog starts at the second "Caveats" heading (the first is in the introduction)
    start = [i for i, line in enumerate(lines) if line.strip() == "Caveats"][1]
    kind = None
    out: list[TranscriptEntry] = []
    for raw in lines[start:]:
        line = _seed_clean(raw)
        if line in SECTIONS:
            kind = SECTIONS[line]
            continue
        m = _SEED_ITEM.match(line)
        if m and kind:
            formula = m.group("formula").replace(" ", "")
            if formula.startswith("(") and formula.endswith(")") and formula.count("(") == 1:
                formula = formula[1:-1]
            entry = TranscriptEntry(kind, m.group("text"), formula, limit_revised=None)
            if m.group("var"):
                entry.limits = {m.group("var"): int(m.group("limit"))}
            red = re.search(r"(?:Redacted|Reducted)\s*\(?(\d+)", m.group("rest"))  # (sic: "Reducted")
            if red:
                entry.redacted = int(red.group(1))
                entry.struck = True
            out.append(entry)
        elif out and re.match(r"^- (?:Revised from|Cost Revised)", line):
            _add_note(out[-1], line)
    return out


def seed_rulebook_lists(text: str) -> RulebookLists:
    """The lists of the seeds' 11th rulebook (``rulebook-11th.txt``): each heading's "- " items, an
    arrow line continuing the item before."""
    out = RulebookLists()
    lines = text.splitlines()
    for heading, key in (("Revised Ability Text", "revised"), ("Redacted Ability Text", "redacted"),
                         ("Revised Variable Limits", "limits"), ("Revised Costs", "costs")):
        if heading not in text:
            continue
        out.sections[key] = heading
        items: list[str] = []
        start = next(i for i, line in enumerate(lines) if line.strip().startswith(heading))
        for line in (line.strip() for line in lines[start + 1:]):
            if line.startswith(("Redacted Ability Text", "Revised Variable Limits", "Revised Costs")):
                break
            if line.startswith("- "):
                items.append(line[2:])
            elif line.startswith("→") and items:
                items[-1] += " " + line
        for item in items:
            list_item(key, _seed_clean(item), out)
    return out
