#!/usr/bin/env python3
"""Make the game's documents the document tests compare the rules with, from a local clone of the
game's public repository (kotc-game/kotc-game.github.io).

    git clone https://github.com/kotc-game/kotc-game.github.io ~/kotc-site
    python3 tools/fetch-sources.py ~/kotc-site            # writes ../shared/sources beside this checkout
    bash tools/test.sh -rs                                # the document tests run instead of skipping

For every edition NN it writes NN/card-building-guide.txt and NN/rulebook.txt (and, for the
11th–17th, the pages themselves beside them as .html), each with the transcription header the
tests read, converted as the transcriptions the rules cite were: the HTML pages (11th–17th) with
tools/sources/html2txt.py (the standard library and this checkout's kotc_rulesc), the PDFs (1st–10th) with
tools/sources/pdf2txt.py, which needs poppler's `pdftotext` and the pdfplumber package
(`apt-get install poppler-utils`, `pip install pdfplumber`; without them the 1st–10th are left
out, and their tests skip, saying so). The converters write the transcriptions as they were made
(see tools/sources/README.md).

The documents are read at the commit the rules were encoded from (--commit: another commit, or
HEAD for the newest). Nothing is fetched from the network: the clone is yours. The seeds (the
11th's pre-release guide and rulebook, a draft of the 12th rulebook, a 6th rulebook) are not in the
game's repository; the few tests that read them keep skipping without them.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "sources"))

#: the commit of kotc-game/kotc-game.github.io the transcriptions (and so the rules) were made from
COMMIT = "91ff18ddd399249c218f3dbca9ad94598f7e603a"
#: where the tests look for the documents: ../shared/sources beside the checkout
DEFAULT_OUT = HERE.parent.parent / "shared" / "sources"
#: the site's file of each document, by the transcription's name: (1st–10th: a PDF, 11th–17th: a page)
FILES = {"card-building-guide": ("card_building_guide.pdf", "cardbuilding.html"), "rulebook": ("rules.pdf", "rulebook.html")}
RULE = "=" * 78


def git(clone: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(clone), *args], check=True, capture_output=True).stdout


def header(lines: list[str]) -> str:
    return "[Transcription header (not part of the source document)\n" + "\n".join(lines) + "]\n" + RULE + "\n\n"


def html_document(clone: Path, commit: str, n: int, name: str, page: str, out: Path) -> str:
    from html2txt import convert

    path = f"old/{n:02d}/{page}"
    raw = git(clone, "show", f"{commit}:{path}")
    blob = git(clone, "rev-parse", f"{commit}:{path}").decode().strip()
    (out / f"{name}.html").write_bytes(raw)
    title, abbrs, text = convert(raw.decode("utf-8"))
    abbreviations = "; ".join(f"{k} = {v}" for k, v in sorted(abbrs.items())) or "none"
    (out / f"{name}.txt").write_text(header([
        f" Document: {title}",
        f" Source: github.com/kotc-game/kotc-game.github.io, commit {commit}, path {path}",
        f"         ({len(raw)} bytes, git blob {blob}; verbatim copy: {name}.html next to this file)",
        " License: CC BY-SA 4.0 (Keeper of the Cards). Converted from HTML by tools/sources/html2txt.py.",
        " Notation: <var>x</var> is written [x]; MathML formulas are linearised (x/2, 2x, y^2/x);",
        "   <em>/<i> -> *..*, <strong>/<b> -> **..**; HTML comments -> [commented out in the source: ...].",
        f" Abbreviation titles (<abbr title>): {abbreviations}",
    ]) + text, encoding="utf-8")
    return path


def pdf_document(clone: Path, commit: str, n: int, name: str, pdf: str, out: Path, tmp: Path) -> str:
    from pdf2txt import convert, to_text

    path = f"old/{n:02d}/{pdf}"
    raw = git(clone, "show", f"{commit}:{path}")
    blob = git(clone, "rev-parse", f"{commit}:{path}").decode().strip()
    file = tmp / f"{n:02d}-{pdf}"
    file.write_bytes(raw)
    pages, _ = convert(str(file))
    (out / f"{name}.txt").write_text(header([
        f" Source: github.com/kotc-game/kotc-game.github.io, commit {commit}, path {path}",
        f"         ({len(raw)} bytes, git blob {blob}; {len(pages)} pages)",
        " License: CC BY-SA 4.0 (Keeper of the Cards). Converted with `pdftotext -layout` (poppler)",
        "   plus a pdfplumber overlay (tools/sources/pdf2txt.py).",
        " Notation: '[page N]' starts page N; the running footer of each page is kept as printed;",
        "   ~~text~~ = struck through in the PDF (redacted), **text** = bold in the PDF.",
        "   Hyphens at line ends are real hyphens (six-sided, in-play, face-down): join without removing them.",
    ]) + to_text(pages), encoding="utf-8")
    return path


def pdf_tools_missing() -> str | None:
    """Why the PDFs cannot be converted here, or ``None``."""
    if shutil.which("pdftotext") is None:
        return "poppler's pdftotext is not installed (apt-get install poppler-utils)"
    try:
        import pdfplumber  # noqa: F401
    except ImportError:
        return "the pdfplumber package is not installed (pip install pdfplumber)"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clone", type=Path, help="a local clone of kotc-game/kotc-game.github.io")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"where to write NN/… (default: {DEFAULT_OUT})")
    parser.add_argument("--commit", default=COMMIT, help="the commit to read the documents at (default: the one the rules were encoded from)")
    args = parser.parse_args()
    try:
        commit = git(args.clone, "rev-parse", "--verify", f"{args.commit}^{{commit}}").decode().strip()
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        print(f"fetch-sources: {args.clone} is not a clone of the game's repository holding {args.commit} ({exc})", file=sys.stderr)
        return 2
    no_pdf = pdf_tools_missing()
    import tempfile

    written, skipped = 0, []
    with tempfile.TemporaryDirectory(prefix="kotc-sources-") as tmp:
        for n in range(1, 18):
            out = args.out / f"{n:02d}"
            out.mkdir(parents=True, exist_ok=True)
            for name, (pdf, page) in FILES.items():
                try:
                    if n >= 11:
                        path = html_document(args.clone, commit, n, name, page, out)
                    elif no_pdf is None:
                        path = pdf_document(args.clone, commit, n, name, pdf, out, Path(tmp))
                    else:
                        skipped.append(f"{n:02d}/{name}")
                        continue
                except subprocess.CalledProcessError:
                    skipped.append(f"{n:02d}/{name} (no old/{n:02d}/{page if n >= 11 else pdf} at {commit[:12]})")
                    continue
                written += 1
                print(f"{out / name}.txt  <- {path}")
    print(f"fetch-sources: {written} documents written under {args.out}")
    if skipped:
        why = f": {no_pdf}" if no_pdf else ""
        print(f"fetch-sources: left out {len(skipped)}{why}: {', '.join(skipped)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
