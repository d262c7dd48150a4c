"""How a report cites the documents a reason rests on.

By default one compact citation a player can look up: the document of the edition in force where it
says so, else the latest that does, and the rulebook's list where the reason is one of its lists'
("17th rulebook, Refurbished Card Texts", "13th rulebook, Refurbished and Pruned Cards", "17th
guide").  With ``--verbose`` every document id and the edition of the event, as the rules record
them ("16th edition; guide-16, rulebook-16, rulebook-17").  ``check-cards`` and ``migrate`` cite alike.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from .model import ordinal

__all__ = ["LIST_TITLES", "Citations", "LIST_OF", "document_name"]

#: what the 1st–12th rulebooks title their lists (a later rulebook names its own: ``Rulebook.sections``)
LIST_TITLES = {
    "lists": "Revised and Banned Cards",
    "revised": "Revised Ability Text",
    "redacted": "Redacted Ability Text (Banned Cards)",
    "limits": "Revised Variable Limits",
    "costs": "Revised Costs",
}

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


def document_name(source: str) -> str:
    """ "17th rulebook", "11th pre-release guide", "12th rulebook (draft)"; another id as it is."""
    parts = _parts(source)
    if parts is None:
        return source
    kind, key, state = parts
    edition = f"{ordinal(int(key[:-4]))} pre-release" if isinstance(key, str) else ordinal(key)
    return f"{edition} {kind}{_STATES.get(state, '')}"


class Citations:
    """The citations of one report, of reasons judged in (or cards migrated to) the edition ``target``
    of ``view`` (a :class:`~kotc_rulesc.view.RulesView`); ``verbose``: every document id."""

    def __init__(self, view: Any, target: Any, verbose: bool = False):
        self.view = view
        self.target = target
        self.verbose = verbose
        self._made: dict[tuple, str] = {}

    def reason(self, r: Any) -> str:
        """``[17th rulebook, Revised Levels]`` for a reason (``[16th edition; guide-16, …]`` verbose);
        empty where it cites nothing."""
        return self.of(r.sources, r.edition, LIST_OF.get(r.code))

    def of(self, sources: Iterable[str], edition: Any = None, list_key: str | None = None) -> str:
        """The citation of ``sources`` (an event of ``edition``; ``list_key``: the rulebook list it is on)."""
        key = (tuple(sources), edition, list_key)
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = self._cite(*key)
        return made

    def _cite(self, sources: tuple[str, ...], edition: Any, list_key: str | None) -> str:
        if self.verbose:
            cite = ([f"{ordinal(edition)} edition"] if edition is not None else []) + ([", ".join(sources)] if sources else [])
            return f" [{'; '.join(cite)}]" if cite else ""
        if not sources:
            return f" [{ordinal(edition)} edition]" if edition is not None else ""
        source = self._chosen(sources, "rulebook" if list_key else None)
        parts = _parts(source)
        if parts is None or parts[0] != "rulebook" or not list_key:
            return f" [{document_name(source)}]"
        return f" [{document_name(source)}, {self._list_title(parts[1], list_key)}]"

    def _chosen(self, sources: tuple[str, ...], kind: str | None) -> str:
        """The document to cite: of the target edition if one is, else of the latest edition (a
        rulebook before a guide where the reason is a rulebook list's), else the first."""
        found = [(parts, s) for s in sources if (parts := _parts(s)) is not None]
        if not found:
            return sources[0]
        target_number = _number(self.target)

        def rank(item: tuple) -> tuple:
            (doc_kind, key, state), _ = item
            return (key == self.target, _number(key) <= target_number, _number(key), doc_kind == (kind or doc_kind),
                    not state)

        return max(found, key=rank)[1]

    def _list_title(self, key: Any, list_key: str) -> str:
        """The title of a rulebook's list: its own (``Rulebook.sections``), else the 1st–12th's."""
        rulebook = None
        if key in self.view.keys:
            rulebook = self.view.catalog(key).rulebook
        own = rulebook.sections.get(list_key) if rulebook is not None else None
        return own or LIST_TITLES[list_key]


def _number(key: Any) -> int:
    return int(key[:-4]) if isinstance(key, str) else key
