"""``kotc-rulesc import-edition``: an edition's rules file drafted from its guide and rulebook, read
(:mod:`kotc_rulesc.documents`) against the previous edition's catalog (:mod:`.match`) and guide
(:mod:`.review`); what a reader cannot settle is a question for the maintainer (:mod:`.decisions`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..catalog import Catalog
from ..documents.guide import DocumentError, Guide, edition_of, read_guide
from ..documents.parameters import Fact, read_parameters
from ..documents.rulebook import RulebookPage, read_rulebook
from ..fold import fold
from ..model import RuleSet, ordinal
from .decisions import decide
from .match import Changes, classify
from .review import Review, agreeing_nouns, review

__all__ = ["Import", "read_edition", "ImportProblem"]


class ImportProblem(ValueError):
    """The documents are not the edition's, or cannot be read: a usage error (exit 2)."""


@dataclass
class Import:
    """Everything read of one edition's documents, against the rules before it."""

    n: int
    rules: RuleSet
    prev: Catalog
    guide: Guide
    page: RulebookPage
    changes: Changes
    review: Review
    params: dict[str, Fact]
    #: plural nouns new texts print after a variable that the system does not yet make agree: plural → (singular, text)
    agreement: dict[str, tuple[str, str]] = field(default_factory=dict)
    decisions: list = field(default_factory=list)  # decisions.Decision, filled by decisions.decide

    @property
    def guide_id(self) -> str:
        return f"guide-{self.n:02d}"

    @property
    def rulebook_id(self) -> str:
        return f"rulebook-{self.n:02d}"

    @property
    def sources(self) -> list[str]:
        return [self.guide_id, self.rulebook_id]

    def guide_sentence(self, pattern: str) -> str | None:
        """The first sentence of the guide's prose that matches ``pattern``."""
        return next((s.text for s in self.guide.prose() if re.search(pattern, s.text)), None)


def read_edition(rules: RuleSet, n: int, guide_html: str, rulebook_html: str, previous_guide_html: str | None = None) -> Import:
    """Read edition ``n``'s documents against ``rules`` (which end with the edition before it)."""
    if rules.last != n - 1:
        raise ImportProblem(f"the rules end with the {ordinal(rules.last)} edition: the edition to import is {rules.last + 1}, not {n}")
    prev = fold(rules, rules.last)
    if prev.components is None:
        raise ImportProblem(f"the {ordinal(rules.last)} edition's catalog is unknown: there is nothing to draft a delta over")
    kinds = prev.system.kinds if prev.system else ()
    sections = {k.title: k.id for k in kinds}
    try:
        guide = read_guide(guide_html, sections)
        page = read_rulebook(rulebook_html)
        previous = read_guide(previous_guide_html, sections) if previous_guide_html is not None else None
        for what, outline, other in (("guide", guide.outline, "Rulebook"), ("rulebook", page.outline, "Card Building Guide")):
            if edition_of(outline, other) is not None:
                raise ImportProblem(f"the {what} given is a {other} page (its title says so)")
        for what, got in (("guide", guide.edition), ("rulebook", page.edition)):
            if got is not None and got != n:
                raise ImportProblem(f"the {what} is the {ordinal(got)} edition's (its title says so), not the {ordinal(n)}'s")
        if previous is not None and previous.edition not in (None, n - 1):
            raise ImportProblem(f"the previous guide is the {ordinal(previous.edition)} edition's, not the {ordinal(n - 1)}'s")
        used = {c.id for e in rules.editions for c in e.components}
        nouns = {k.noun: k.id for k in kinds}
        imp = Import(n, rules, prev, guide, page, classify(prev, guide, page, n, used),
                     review(guide, previous), read_parameters(page, nouns))
        if prev.system is not None:
            texts = [x.entry.clean_text for x in imp.changes.new] + [r.entry.clean_text for r in imp.changes.reworded]
            imp.agreement = agreeing_nouns(texts, dict(prev.system.plurals))
        imp.decisions = decide(imp)
        imp.guide.section_paragraphs("Level")  # (a guide with two Level sections cannot be drafted from)
    except DocumentError as exc:
        raise ImportProblem(f"cannot read the documents: {exc}") from None
    return imp
