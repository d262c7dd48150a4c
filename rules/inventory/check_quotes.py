"""Check the card-writing rule inventory against the game's documents (standard library only).

Every ``quote`` (or per-source ``quotes``) of card-writing-rules.yaml must occur verbatim in every
document its entry cites, outside the sections the HTML sources comment out (not in force); every
``example`` must occur verbatim in its document; every component an example card ``uses`` must be
listed, not struck (redacted), by the guide of the example's edition. editions.yaml must agree with
the entries' ``editions``. Run: ``python3 rules/inventory/check_quotes.py [--shared DIR]``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_SHARED = HERE.parent.parent.parent / "shared"
MAX_QUOTE_WORDS = 40
EDITIONS = [str(n) for n in range(1, 11)] + ["11-pre"] + [str(n) for n in range(11, 18)]
TOPICS = {
    "agreement", "removal", "substitution", "join", "capitalisation", "ability-names",
    "placeholder", "tutorial", "order", "count", "types-stats", "figure", "variables",
    "edition-indicator", "ultra-points", "layout", "other",
}
MODALS = {"must", "should", "can", "may", "recommended", "descriptive"}
PDF_FOOTER = re.compile(r"^\s*Keeper of the Cards: (Card Building Guide|Rulebook) \(.*\)\s+Page \d+\s*$")


def source_file(shared: Path, source: str) -> Path:
    """The transcription a source id names (the ids of rules/README.md's Sources table)."""
    if source == "guide-11-pre":
        return shared / "seeds" / "card-building-guide-11th.txt"
    if source == "rulebook-11-pre":
        return shared / "seeds" / "rulebook-11th.txt"
    match = re.fullmatch(r"(guide|rulebook)-(\d\d)", source)
    if not match or source == "rulebook-08" or not 1 <= int(match[2]) <= 17:
        raise KeyError(source)
    name = "card-building-guide.txt" if match[1] == "guide" else "rulebook.txt"
    return shared / "sources" / match[2] / name


def guide_of(edition: str) -> str:
    return "guide-11-pre" if edition == "11-pre" else f"guide-{int(edition):02d}"


def normalise(text: str) -> str:
    """Whitespace collapsed; bold/italic/strike markers dropped (they are typography, not text)."""
    return re.sub(r"\s+", " ", re.sub(r"\*+|~~", "", text)).strip()


def document_text(path: Path) -> tuple[str, str]:
    """(in-force text, in-force text without struck runs), both normalised.

    Drops the transcription header (up to its line of '='), the PDFs' page markers and running
    footers, and the HTML sources' commented-out parts; joins a PDF line ending in a hyphen to the
    next line without a space (the transcriptions' README: every such hyphen is real).
    """
    raw = path.read_text(encoding="utf-8")
    head = re.search(r"^=+$", raw, flags=re.M)
    if raw.startswith("[Transcription header") and head:
        raw = raw[head.end():]
    raw = re.sub(r"^\[commented out in the source:\n.*?^\]$", "", raw, flags=re.M | re.S)
    raw = re.sub(r"\[commented out in the source: [^\n]*\]", "", raw)
    lines = [line for line in raw.split("\n")
             if not re.fullmatch(r"\s*\[page \d+\]\s*", line) and not PDF_FOOTER.match(line)]
    raw = re.sub(r"(?<=\w)-\n\s*", "-", "\n".join(lines))
    unstruck = re.sub(r"~~.*?~~", " ", raw, flags=re.S)
    return normalise(raw), normalise(unstruck)


def load_entries(path: Path) -> tuple[list[dict], list[str]]:
    """Read the inventory's line-based YAML subset (valid YAML; see rules/inventory/README.md).

    An entry starts with ``- id: slug``; its fields are ``  key: value`` lines, or ``  key:`` followed by
    ``    - value`` (a list) or ``    subkey: value`` (a mapping) lines. A value is JSON, or a plain
    word (``should``). Comment lines start with ``#``.
    """
    entries: list[dict] = []
    comments: list[str] = []
    current: dict | None = None
    key: str | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            comments.append(line)
            continue
        where = f"{path.name}:{number}"
        if line.startswith("- "):
            current, key = {}, None
            entries.append(current)
            line = "  " + line[2:]
        if current is None:
            raise SystemExit(f"{where}: a field before the first '- id:' line")
        if match := re.fullmatch(r"  ([a-z_]+):(?: (.*))?", line):
            key = match[1]
            if key in current:
                raise SystemExit(f"{where}: field {key!r} given twice")
            current[key] = scalar(match[2], where) if match[2] is not None else None
        elif key and (match := re.fullmatch(r"    - (.*)", line)):
            if current[key] is None:
                current[key] = []
            if not isinstance(current[key], list):
                raise SystemExit(f"{where}: list item under a mapping field {key!r}")
            current[key].append(scalar(match[1], where))
        elif key and (match := re.fullmatch(r"    ([A-Za-z0-9_.-]+): (.*)", line)):
            if current[key] is None:
                current[key] = {}
            if not isinstance(current[key], dict):
                raise SystemExit(f"{where}: mapping item under a list field {key!r}")
            current[key][match[1]] = scalar(match[2], where)
        else:
            raise SystemExit(f"{where}: cannot read this line (see the format in README.md)")
    return entries, comments


def scalar(text: str, where: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        if re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", text):
            return text
        raise SystemExit(f"{where}: not JSON and not a plain word: {text[:60]!r}") from None


def check(shared: Path) -> list[str]:
    problems: list[str] = []
    entries, comments = load_entries(HERE / "card-writing-rules.yaml")
    if not comments or comments[-1].strip() != "# complete: true":
        problems.append("card-writing-rules.yaml: the last line is not '# complete: true'")
    texts: dict[str, tuple[str, str]] = {}

    def text_of(source: str) -> tuple[str, str] | None:
        if source not in texts:
            try:
                texts[source] = document_text(source_file(shared, source))
            except (KeyError, FileNotFoundError):
                return None
        return texts[source]

    seen: set[str] = set()
    for entry in entries:
        rid = entry.get("id", "?")
        if rid in seen:
            problems.append(f"{rid}: id given twice")
        seen.add(rid)
        for field in ("topic", "editions", "sources", "section", "quote", "modal", "follows", "breaks"):
            if field not in entry:
                problems.append(f"{rid}: no {field!r}")
        if entry.get("topic") not in TOPICS:
            problems.append(f"{rid}: topic {entry.get('topic')!r} is not one of the topics")
        modals = [entry.get("modal")] + list((entry.get("modal_by_source") or {}).values())
        modals += [entry["reads_as"]] if "reads_as" in entry else []
        for modal in modals:
            if modal not in MODALS:
                problems.append(f"{rid}: modal {modal!r} is not one of {sorted(MODALS)}")
        editions = [str(e) for e in entry.get("editions") or []]
        for edition in editions:
            if edition not in EDITIONS:
                problems.append(f"{rid}: edition {edition!r} unknown")
        quotes = entry.get("quotes") or {}
        for source in quotes:
            if source not in (entry.get("sources") or []):
                problems.append(f"{rid}: quotes names {source}, which is not in sources")
        for source in entry.get("sources") or []:
            doc = text_of(source)
            if doc is None:
                problems.append(f"{rid}: source {source} has no document")
                continue
            excerpts = quotes.get(source, entry.get("quote"))
            excerpts = excerpts if isinstance(excerpts, list) else [excerpts]
            for quote in excerpts:
                if not isinstance(quote, str) or not quote:
                    problems.append(f"{rid}: no quote for {source}")
                    continue
                if len(quote.split()) > MAX_QUOTE_WORDS:
                    problems.append(f"{rid}: quote for {source} has {len(quote.split())} words (> {MAX_QUOTE_WORDS})")
                if normalise(quote) not in doc[0]:
                    problems.append(f"{rid}: quote not found in {source}: {quote!r}")
        for source in entry.get("modal_by_source") or {}:
            if source not in (entry.get("sources") or []):
                problems.append(f"{rid}: modal_by_source names {source}, which is not in sources")
        for source, example in (entry.get("example") or {}).items():
            doc = text_of(source)  # a worked example may stand in a document that does not state the rule
            if doc is None:
                problems.append(f"{rid}: example source {source} has no document")
            elif normalise(example) not in doc[0]:
                problems.append(f"{rid}: example not found in {source}: {example!r}")
        for field in ("follows", "breaks"):
            for item in entry.get(field) or []:
                if not isinstance(item, dict) or "edition" not in item or not ({"text", "card"} & item.keys()):
                    problems.append(f"{rid}: {field} item needs edition and text/card: {item!r}")
                    continue
                edition = str(item["edition"])
                if edition not in editions:
                    problems.append(f"{rid}: {field} example for edition {edition}, not in the entry's editions")
                design = str(item.get("design", edition))  # a card judged later uses its design edition's texts
                guide = text_of(guide_of(design)) if design in EDITIONS else None
                for component in item.get("uses") or []:
                    if guide is None or normalise(component) not in guide[1]:
                        problems.append(f"{rid}: {field} uses {component!r}, not listed (unstruck) "
                                        f"in {guide_of(design)}")
    problems += check_editions(entries)
    return problems


def check_editions(entries: list[dict]) -> list[str]:
    """editions.yaml lists, per edition, exactly the ids in force there and the ids absent."""
    problems = []
    path = HERE / "editions.yaml"
    per_edition: dict[str, dict[str, list[str]]] = {}
    edition = None
    field = None
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if match := re.fullmatch(r'"?([0-9]+|11-pre)"?:', line):
            edition, field = match[1], None
            per_edition[edition] = {}
        elif edition and (match := re.fullmatch(r"  (in_force|absent): (\[.*\])", line)):
            per_edition[edition][match[1]] = json.loads(match[2])
        elif edition and re.fullmatch(r"  (count|in_force_count|absent_count): \d+", line):
            continue
        else:
            problems.append(f"editions.yaml:{number}: cannot read this line")
    ids = [entry["id"] for entry in entries]
    for edition in EDITIONS:
        want = sorted(entry["id"] for entry in entries if edition in [str(e) for e in entry["editions"]])
        got = per_edition.get(edition, {})
        if sorted(got.get("in_force", [])) != want:
            problems.append(f"editions.yaml: edition {edition}: in_force differs from the entries' editions")
        if sorted(got.get("absent", [])) != sorted(set(ids) - set(want)):
            problems.append(f"editions.yaml: edition {edition}: absent is not the complement of in_force")
    return problems


def write_editions(entries: list[dict]) -> None:
    """Rewrite editions.yaml from the entries' ``editions`` (in force / absent per edition, entry order)."""
    ids = [entry["id"] for entry in entries]
    lines = ["# Per edition: the card-writing rule ids in force (their entry's `editions` holds it) and, explicitly, the",
             "# ids absent there. Generated from card-writing-rules.yaml's `editions`; check_quotes.py checks they agree.",
             "# \"11-pre\" is the seeds' pre-release 11th (guide-11-pre, rulebook-11-pre); the 8th's rulebook is rulebook-07.", ""]
    for edition in EDITIONS:
        in_force = [entry["id"] for entry in entries if edition in [str(e) for e in entry["editions"]]]
        absent = [rid for rid in ids if rid not in in_force]
        lines += [f'"{edition}":',
                  f"  in_force_count: {len(in_force)}", f"  in_force: {json.dumps(in_force)}",
                  f"  absent_count: {len(absent)}", f"  absent: {json.dumps(absent)}"]
    (HERE / "editions.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED,
                        help="the directory holding sources/ and seeds/ (default: %(default)s)")
    parser.add_argument("--write-editions", action="store_true",
                        help="rewrite editions.yaml from the entries' editions, then check")
    args = parser.parse_args(argv)
    entries, _ = load_entries(HERE / "card-writing-rules.yaml")
    if args.write_editions:
        write_editions(entries)
    problems = check(args.shared)
    checked = sum(len(entry.get("sources") or []) for entry in entries)
    for problem in problems:
        print(problem)
    print(f"{len(entries)} rules, {checked} quote/source pairs checked: "
          f"{'OK' if not problems else f'{len(problems)} problem(s)'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
