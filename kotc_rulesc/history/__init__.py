"""The kinds of history event, one unit a file as a Django migration's ``Operation``: its data and its
behaviour (:mod:`.event`).  Everything else iterates :data:`KINDS` and names no kind: adding a kind is
adding a module here (and its list to the schema); :data:`CLEAN_SLATE` is the edition-wide event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import ordinal
from .clean_slate import CLEAN_SLATE, Successor
from .cost_revision import CostRevision
from .event import Event
from .limit_revision import LimitRevision
from .redaction import Redaction
from .reinstatement import Reinstatement
from .text_revision import TextRevision

if TYPE_CHECKING:
    from ..model import EditionDecl

__all__ = ["CLEAN_SLATE", "KINDS", "Event", "Successor", "edition_summary"]

#: every kind, in the order an edition's events apply (a text revision before a redaction of the
#: same component, a redaction before its reinstatement)
KINDS: tuple[type[Event], ...] = (TextRevision, Redaction, Reinstatement, CostRevision, LimitRevision)


def edition_summary(decl: EditionDecl) -> str:
    """One line: what an edition's rules file changed (``kotc-rulesc editions``, the docs)."""
    parts = []
    if decl.pre_release:
        parts.append(f"pre-release of the {ordinal(decl.number)}, following the {ordinal(decl.follows)}")
    if decl.base:
        parts.append(f"base catalog of {len(decl.components)} components")
    elif decl.components:
        parts.append(f"{len(decl.components)} new component(s)")
    for items, word in (*((decl.of_kind(kind), kind.noun) for kind in KINDS), (decl.disagreements, "recorded disagreement")):
        if items:
            parts.append(f"{len(items)} {word}{'s' if len(items) != 1 else ''}")
    if decl.clean_slate:
        parts.append("clean slate")
    if not decl.catalog_known:
        parts.append("component catalog unknown")
    if decl.rulebook_stated:
        parts.append("rulebook parameters")
    if decl.card_cost:
        parts.append("card-cost rule")
    if decl.system:
        parts.append("card-building system")
    return ", ".join(parts) or "no changes"
