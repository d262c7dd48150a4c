"""How a report cites the documents a reason rests on: one compact citation a player can look up ("17th
rulebook, Refurbished Card Texts", "17th guide"); with ``--verbose`` every document id and the event's edition
("16th edition; guide-16, rulebook-16").  ``check-cards`` and ``migrate`` cite alike.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from .model import LIST_TITLES, edition_number, ordinal

#: the rulebook list each kind of reason rests on (a rewritten text: "revised")
LIST_OF = {"clean-slate": "lists", "redacted": "redacted", "over-limit": "limits", "cost-revised": "costs",
           "revised": "revised"}

#: a document id of the rules: "rulebook-17", "guide-11-pre", "rulebook-12-draft", "rulebook-06-seed"
_DOCUMENT = re.compile(r"(?P<kind>guide|rulebook)-(?P<number>\d+)(?P<pre>-pre)?(?:-(?P<state>draft|seed))?")
_STATES = {"draft": " (draft)", "seed": " (seeds)"}


def _parts(source: str) -> tuple[str, Any, str] | None:
    """(kind, edition key, state) of a document id, or None when it names no edition's guide or rulebook."""
    m = _DOCUMENT.fullmatch(source)
    if m is None:
        return None
    number = int(m["number"])
    return m["kind"], f"{number}-pre" if m["pre"] else number, m["state"] or ""


def as_of(sources: Iterable[str], edition: Any) -> tuple[str, ...]:
    """The documents of ``sources`` written by ``edition`` (its own and earlier editions'; a pre-release's before
    its edition's), as an edition's description cites them: the rules cite every document that states a fact,
    a later one confirming it.  All of them where none is (or where ``edition`` is None)."""
    sources = tuple(sources)
    if edition is None:
        return sources
    limit = (edition_number(edition), isinstance(edition, int))
    own = tuple(s for s in sources if (p := _parts(s)) is None
                or (edition_number(p[1]), isinstance(p[1], int)) <= limit)
    return own or sources


def document_name(source: str) -> str:
    """ "17th rulebook", "11th pre-release guide", "12th rulebook (draft)"; another id as it is."""
    parts = _parts(source)
    if parts is None:
        return source
    kind, key, state = parts
    edition = ordinal(key) if isinstance(key, int) else f"{ordinal(edition_number(key))} pre-release"
    return f"{edition} {kind}{_STATES.get(state, '')}"


class Citations:
    """The citations of one report, of reasons judged in (or cards migrated to) the edition ``target``
    of ``view`` (a :class:`~kotc_rulesc.view.RulesView`); ``verbose``: every document id."""

    def __init__(self, view: Any, target: Any, verbose: bool = False):
        self.view = view
        self.target = target
        self.verbose = verbose
        self._made: dict[tuple, str] = {}  # (a report cites the same few sources for many cards)

    def reason(self, r: Any) -> str:
        """`` [17th rulebook, Revised Levels]`` for a reason; empty where it cites nothing."""
        return self.of(r.sources, r.edition, LIST_OF.get(r.code))

    def of(self, sources: Iterable[str], edition: Any = None, list_key: str | None = None) -> str:
        """The citation of ``sources`` (an event of ``edition``; ``list_key``: the rulebook list it is on)."""
        key = (tuple(sources), edition, list_key)
        if key not in self._made:
            self._made[key] = self._cite(*key)
        return self._made[key]

    def _cite(self, sources: tuple[str, ...], edition: Any, list_key: str | None) -> str:
        if self.verbose:
            cite = [f"{ordinal(edition)} edition"] if edition is not None else []
            cite += [", ".join(sources)] if sources else []
            return f" [{'; '.join(cite)}]" if cite else ""
        if not sources:
            return f" [{ordinal(edition)} edition]" if edition is not None else ""
        source = self._chosen(sources, "rulebook" if list_key else None)
        parts = _parts(source)
        if parts is None or parts[0] != "rulebook" or not list_key:
            return f" [{document_name(source)}]"
        # the list's title in that rulebook: its own (``Rulebook.sections``), else the 1st–12th's
        rulebook = self.view.catalog(parts[1]).rulebook if parts[1] in self.view.keys else None
        return f" [{document_name(source)}, {(rulebook and rulebook.sections.get(list_key)) or LIST_TITLES[list_key]}]"

    def _chosen(self, sources: tuple[str, ...], kind: str | None) -> str:
        """The document to cite: of the target edition if one is, else of the latest edition (a
        rulebook before a guide where the reason is a rulebook list's), else the first."""
        found = [(parts, s) for s in sources if (parts := _parts(s)) is not None]
        if not found:
            return sources[0]
        target = edition_number(self.target)

        def rank(item: tuple) -> tuple:
            (doc_kind, key, state), _ = item
            number = edition_number(key)
            return key == self.target, number <= target, number, doc_kind == (kind or doc_kind), not state

        return max(found, key=rank)[1]
