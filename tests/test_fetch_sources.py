"""tools/fetch-sources.py makes the documents the document tests read, from a clone of the game's
repository: here a repository made of the HTML pages the transcriptions keep beside them (the
11th–17th), at the site's paths, whose documents must come out as the transcriptions are."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT.parent / "shared" / "sources"


def _body(path: Path) -> str:
    """A transcription below its header (the line of '=' that ends it)."""
    return path.read_text(encoding="utf-8").split("\n" + "=" * 78 + "\n", 1)[1]


def test_the_html_documents_come_out_as_the_transcriptions(tmp_path):
    if not (SOURCES / "17" / "card-building-guide.html").is_file() or shutil.which("git") is None:
        pytest.skip(f"the game's documents are not in {SOURCES} (docs/contributing.md: tools/fetch-sources.py makes them)")
    site = tmp_path / "site"
    for n in range(11, 18):
        (site / "old" / f"{n:02d}").mkdir(parents=True)
        shutil.copy(SOURCES / f"{n:02d}" / "card-building-guide.html", site / "old" / f"{n:02d}" / "cardbuilding.html")
        shutil.copy(SOURCES / f"{n:02d}" / "rulebook.html", site / "old" / f"{n:02d}" / "rulebook.html")
    git = ["git", "-C", str(site), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "the site"]):
        subprocess.run(git + args, check=True)
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "fetch-sources.py"), str(site), "--commit", "HEAD",
                           "--out", str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "14 documents written" in done.stdout
    if shutil.which("pdftotext") is None:
        assert "left out 20: poppler's pdftotext is not installed" in done.stderr
    for n in range(11, 18):
        for name in ("card-building-guide", "rulebook"):
            ours = tmp_path / "out" / f"{n:02d}" / f"{name}.txt"
            assert _body(ours) == _body(SOURCES / f"{n:02d}" / f"{name}.txt"), ours
            assert (tmp_path / "out" / f"{n:02d}" / f"{name}.html").read_bytes() == (SOURCES / f"{n:02d}" / f"{name}.html").read_bytes()


def test_a_folder_that_is_no_clone_is_refused(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "fetch-sources.py"), str(tmp_path), "--out", str(tmp_path / "o")],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "is not a clone of the game's repository" in done.stderr
