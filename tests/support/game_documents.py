"""Where the tests find the game's documents, read by the package's own reader
(:mod:`kotc_rulesc.documents`, the reader ``import-edition`` uses): one reader, not two.

The documents live beside the repository, in ``../shared/sources/NN/`` (the 1st–17th guides and
rulebooks: text transcriptions, and the HTML pages of the 11th–17th) and ``../shared/seeds/`` (the
11th's pre-release and two more rulebooks).  A test that needs one is skipped, saying which,
where they are absent (a checkout without ``../shared``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from kotc_rulesc.documents import transcript
from kotc_rulesc.documents.guide import Guide, read_guide
from kotc_rulesc.documents.rulebook import RulebookLists, RulebookPage, read_rulebook

SHARED = Path(__file__).resolve().parents[3] / "shared"
SOURCES = SHARED / "sources"
SEEDS = SHARED / "seeds"
#: the editions whose documents are HTML pages (the text beside them is a transcription)
HTML_EDITIONS = range(11, 18)


def source_path(edition: int, name: str) -> Path:
    path = SOURCES / f"{edition:02d}" / name
    if not path.exists():
        pytest.skip(f"source document {path} is not available (the game's documents live in ../shared/sources)")
    return path


def seed_text(name: str) -> str:
    path = SEEDS / name
    if not path.exists():
        pytest.skip(f"seed document {path} is not available (the seeds live in ../shared/seeds)")
    return path.read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def _guide(edition: int) -> Guide:
    return read_guide(source_path(edition, "card-building-guide.html").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _rulebook(edition: int) -> RulebookPage:
    return read_rulebook(source_path(edition, "rulebook.html").read_text(encoding="utf-8"))


def guide(edition: int) -> Guide:
    """The 11th–17th guide page, read."""
    if edition not in HTML_EDITIONS:
        raise ValueError(f"the HTML guides are the 11th–17th, not the {edition}th")
    return _guide(edition)


def rulebook(edition: int) -> RulebookPage:
    """The 11th–17th rulebook page, read."""
    if edition not in HTML_EDITIONS:
        raise ValueError(f"the HTML rulebooks are the 11th–17th, not the {edition}th")
    return _rulebook(edition)


def guide_entries(edition: int) -> list:
    """Every component the edition's guide lists, in its order: the HTML page's (11th–17th:
    :class:`~kotc_rulesc.documents.guide.GuideEntry`) or the transcription's (1st–10th:
    :class:`~kotc_rulesc.documents.transcript.TranscriptEntry`)."""
    if edition in HTML_EDITIONS:
        return guide(edition).entries
    return transcript.guide_entries(source_path(edition, "card-building-guide.txt").read_text(encoding="utf-8"))


def cost_rule_lines(edition: int) -> list[str]:
    return transcript.cost_rule_lines(source_path(edition, "card-building-guide.txt").read_text(encoding="utf-8"))


def rulebook_lists(edition: int) -> RulebookLists:
    """The lists of the edition's rulebook, as printed (the 8th's file is the 7th's rulebook)."""
    if edition in HTML_EDITIONS:
        return rulebook(edition).lists
    return transcript.rulebook_lists(source_path(edition, "rulebook.txt").read_text(encoding="utf-8"))


def seed_guide_entries() -> list:
    return transcript.seed_guide_entries(seed_text("card-building-guide-11th.txt"))


def seed_rulebook_lists(name: str) -> RulebookLists:
    return transcript.seed_rulebook_lists(seed_text(name))


def level_rule_paragraphs(edition: int) -> list[str]:
    return guide(edition).section_paragraphs("Level")


def ultra_rules(edition: int) -> list[str]:
    return guide(edition).section_paragraphs("Ultra Points") or []
