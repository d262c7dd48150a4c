"""Read the source rulebooks' revision lists, independently of the rules data, to check the data against them.

The sources live in ../shared/sources/NN/rulebook.txt beside the repository (NN = 01..17; see
../shared/sources/README.md). 01-10 are PDF transcriptions (pdftotext -layout): "[page N]" markers,
running footers "Keeper of the Cards: Rulebook (Nth Edition)   Page N", "•" list items wrapped over
several indented lines (and over page breaks), ~~struck~~ (removed) and **bold** (added) words.
11-17 come from HTML: "#" headings, "- " list items, "| a | b |" table rows, and HTML comments
rendered as "[commented out in the source: ...]" (one line) or as a block from a line
"[commented out in the source:" to a line "]"; what is inside a comment is NOT in force.

Note: 07/rulebook.txt and 08/rulebook.txt are the same document (the 7th-edition rulebook; there
is no 8th rulebook), so rulebook_lists(8) == rulebook_lists(7).

The four list sections of the PDF rulebooks were renamed in the HTML ones; each title is mapped to
the key of rulebook_lists() it fills (SECTION_KEYS). "Revised Levels" (16th, 17th) has the same
shape as "Revised Costs" and goes to "levels".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SOURCES = Path(__file__).resolve().parent.parent.parent / "shared" / "sources"

EDITIONS = range(1, 18)

# section title as printed -> key of rulebook_lists()
SECTION_KEYS = {
    # 2nd-10th (PDF)
    "Revised Ability Text": "revised",
    "Redacted Ability Text (Banned Cards)": "redacted",
    "Revised Variable Limits": "limits",
    "Revised Costs": "costs",
    # 11th-12th (HTML; all three commented out)
    "Redacted Ability Text": "redacted",
    # 13th-17th (HTML)
    "Refurbished Card Texts": "revised",
    "Redacted Card Texts": "redacted",
    "Revised Cost Texts": "costs",
    "Revised Levels": "levels",
}

_PAGE = re.compile(r"^\[page \d+\]$")
_FOOTER = re.compile(r"^Keeper of the Cards: Rulebook \(.*Edition.*\)\s+Page \d+$")
_EDITION_NOTE = re.compile(r"^(?P<text>.+?)\s*\*?\((?P<edition>\d+)(?:st|nd|rd|th) Edition\)\*?$")
_LIMIT = re.compile(r"^(?P<text>.+?)\s*\{(?P<limit>[^{}]+)\}$")
_COMMENT_LINE = "[commented out in the source:"
_CLEAN_SLATE = re.compile(r"(\d+)(?:st|nd|rd|th) Edition is considered to be a clean slate edition")


def rulebook_text(edition: int) -> str:
    """The rulebook of an edition, without the transcription header (up to the first line of '=')."""
    path = SOURCES / f"{edition:02d}" / "rulebook.txt"
    if not path.exists():
        pytest.skip(f"source rulebook {path} is not available")
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.strip() and set(line.strip()) == {"="}:
            return "\n".join(lines[i + 1 :]) + "\n"
    return "\n".join(lines) + "\n"


def clean(text: str) -> str:
    """Straight quotes and apostrophes, single spaces."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text).strip()


def unmark(text: str) -> str:
    """Drop the ~~struck~~ and **bold** marks (keep the words)."""
    return text.replace("~~", "").replace("**", "")


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        return text[1:-1]
    return text


def _empty() -> dict:
    return {"revised": [], "redacted": [], "limits": [], "costs": [], "levels": [], "sections": set(), "commented": {}}


# ---------------------------------------------------------------- PDF rulebooks (1st-10th)


def _pdf_sections(text: str) -> dict[str, list[str]]:
    """{title: [joined item]} for the list sections of a PDF rulebook."""
    lines = [line.rstrip() for line in text.splitlines()]
    # page markers and running footers are not part of the text (an item may run on over them)
    lines = [line for line in lines if not _PAGE.match(line.strip()) and not _FOOTER.match(line.strip())]
    out: dict[str, list[str]] = {}
    title = None
    item: list[str] | None = None
    prev_blank = True

    def close():
        nonlocal item
        if item is not None and title is not None:
            out[title].append(" ".join(part.strip() for part in item))
        item = None

    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if stripped in SECTION_KEYS:
            close()
            title = stripped
            out[title] = []
        elif not stripped:
            close()
        elif title is not None and stripped.startswith("•"):
            close()
            item = [stripped[1:]]
        elif title is not None and item is not None and indent >= 4:
            item.append(stripped)  # continuation line of the item
        elif title is not None and indent >= 10 and prev_blank:
            close()
            title = None  # some other (centred) heading: the section ended
        else:
            close()  # prose (the section's introduction)
        prev_blank = not stripped
    close()
    return out


# ---------------------------------------------------------------- HTML rulebooks (11th-17th)


def _html_sections(text: str) -> tuple[dict[str, list], dict[str, list]]:
    """({title: [item]} in force, {title: [item]} inside comments); a list item is its text,
    a table row a tuple of cells (the table's header row is left out, and so are empty rows)."""
    live: dict[str, list] = {}
    commented: dict[str, list] = {}
    in_comment = False
    title = None
    target = None
    header_seen = False
    for line in text.splitlines():
        stripped = line.strip()
        if not in_comment and stripped == _COMMENT_LINE:
            in_comment, title = True, None
            continue
        if in_comment and stripped == "]":
            in_comment, title = False, None
            continue
        if stripped.startswith(_COMMENT_LINE):
            continue  # a one-line comment (table of contents)
        if stripped.startswith("#"):
            heading = stripped.lstrip("#").strip()
            title = heading if heading in SECTION_KEYS else None
            if title is not None:
                target = commented if in_comment else live
                target[title] = []
                header_seen = False
            continue
        if title is None:
            continue
        if stripped.startswith("[image:"):
            title = None
        elif line.startswith("- "):
            target[title].append(clean_spaces(line[2:]))
        elif stripped.startswith("|") and stripped.endswith("|"):
            cells = tuple(clean_spaces(cell) for cell in stripped[1:-1].split("|"))
            if not header_seen:
                header_seen = True  # "| Original Text | Revised Text |"
            elif any(cells):
                target[title].append(cells)
    return live, commented


def clean_spaces(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# ---------------------------------------------------------------- both


def _parse_item(key: str, item, out: dict) -> None:
    if isinstance(item, tuple):  # a table row (HTML): old | new
        if key != "revised" or len(item) != 2:
            raise ValueError(f"unexpected table row in a {key} section: {item!r}")
        old, new = (_unquote(clean(cell)) for cell in item)
        out["revised"].append((unmark(old), unmark(new), old, new))
        return
    item = clean(item)
    if key == "revised":
        old, new = (_unquote(part) for part in item.split("→"))
        out["revised"].append((unmark(old), unmark(new), old, new))
    elif key == "redacted":
        m = _EDITION_NOTE.match(item)
        out["redacted"].append(_unquote(m.group("text") if m else item))
    elif key == "limits":
        m = _LIMIT.match(item)
        if not m:
            raise ValueError(f"unreadable variable limit: {item!r}")
        out["limits"].append((_unquote(m.group("text")), m.group("limit").replace(" ", "")))
    elif key in ("costs", "levels"):
        m = _EDITION_NOTE.match(item)
        if not m:
            raise ValueError(f"unreadable {key} entry: {item!r}")
        out[key].append((_unquote(m.group("text")), int(m.group("edition"))))


def rulebook_lists(edition: int) -> dict:
    """The rulebook's revision lists, exactly as printed in that edition's rulebook:
    revised [(old, new, old_marked, new_marked)], redacted [text], limits [(text, "x≤14")],
    costs [(text, edition)], levels [(text, edition)] (16th-17th "Revised Levels"),
    sections {title present and in force}, commented {title: [raw item]} (11th-17th: sections
    inside HTML comments; a raw item is a list item's text or a table row's tuple of cells).
    Texts are clean()ed and unquoted; old/new have the ~~/** marks removed, *_marked keep them.
    An "N/A" item means an empty list (the section is still present)."""
    text = rulebook_text(edition)
    out = _empty()
    if edition >= 11:
        live, out["commented"] = _html_sections(text)
    else:
        live = _pdf_sections(text)
    for title, items in live.items():
        out["sections"].add(title)
        key = SECTION_KEYS[title]
        for item in items:
            if not isinstance(item, tuple) and clean(item) == "N/A":
                continue
            _parse_item(key, item, out)
    return out


def _in_force(text: str) -> str:
    """The text without anything inside HTML comments (a no-op for the PDF rulebooks)."""
    kept: list[str] = []
    in_comment = False
    for line in text.splitlines():
        stripped = line.strip()
        if not in_comment and stripped == _COMMENT_LINE:
            in_comment = True
        elif in_comment and stripped == "]":
            in_comment = False
        elif not in_comment and not stripped.startswith(_COMMENT_LINE):
            kept.append(line)
    return "\n".join(kept)


def clean_slate_edition(edition: int) -> int | None:
    """The edition the rulebook declares a clean slate edition (in force), if any: 11 in the 11th,
    12 in the 12th, 13 in the 13th-17th."""
    m = _CLEAN_SLATE.search(clean(_in_force(rulebook_text(edition))))
    return int(m.group(1)) if m else None


def clean_slate(edition: int) -> bool:
    """Whether the edition's rulebook declares that edition itself a clean slate edition."""
    return clean_slate_edition(edition) == edition


if __name__ == "__main__":
    for ed in EDITIONS:
        lists = rulebook_lists(ed)
        print(f"=== {ed:02d}" + ("   (same file as the 7th-edition rulebook)" if ed == 8 else ""))
        print(
            "counts: "
            + ", ".join(f"{key} {len(lists[key])}" for key in ("revised", "redacted", "limits", "costs", "levels"))
        )
        print(f"sections: {sorted(lists['sections'])}")
        print(f"clean slate: {clean_slate(ed)} (declared: {clean_slate_edition(ed)})")
        for old, new, old_marked, new_marked in lists["revised"]:
            print(f"  revised: {old_marked!r}\n        -> {new_marked!r}")
        for entry in lists["redacted"]:
            print(f"  redacted: {entry!r}")
        for entry, limit in lists["limits"]:
            print(f"  limit: {entry!r} {{{limit}}}")
        for entry, ed_ in lists["costs"]:
            print(f"  cost: {entry!r} ({ed_})")
        for entry, ed_ in lists["levels"]:
            print(f"  level: {entry!r} ({ed_})")
        for title, items in lists["commented"].items():
            print(f"  commented out: {title!r}: {items!r}")
