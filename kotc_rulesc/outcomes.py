"""A card's outcome in the edition's own words: one word per outcome, the same wherever it is said.

``check-cards`` judges a card ``legal``, ``banned``, ``error`` or ``unknown``; ``migrate`` decides it
``rewritten``, ``reissued``, ``unchanged`` or, kept as it was, ``banned``, ``unknown``, ``error``.
Those are the machine codes every JSON keeps (``status``: the same in every edition, for programs).
A player reads the rulebook's word (``outcome``): the 1st–12th rulebooks' "Revised and Banned Cards"
revise and ban, the 13th's on "Refurbished and Pruned Cards" refurbish and prune (the rulebook's
``terms``: ``revised: refurbished``, ``banned: pruned``).  ``check-cards``' text, ``migrate``'s report,
the ``migration`` field it marks a card with, the API and the workbench all say it with
:func:`outcome_word`.
"""

from __future__ import annotations

from typing import Any, Mapping

__all__ = ["outcome_word", "terms_of"]

#: the rulebook term that words each status where the rulebook has its own
_TERM = {"rewritten": "revised", "banned": "banned"}
#: the words where it has none (the 1st–12th's)
_PLAIN = {"rewritten": "revised", "reissued": "re-issued"}


def outcome_word(status: str, terms: Mapping[str, str] | None) -> str:
    """The word for ``status`` in a rulebook whose ``terms`` are given ("pruned" for banned, "refurbished"
    for rewritten from the 13th on; else "banned", "revised", "re-issued", or the status itself)."""
    term = _TERM.get(status)
    own = terms.get(term) if term is not None and terms else None
    return own or _PLAIN.get(status, status)


def terms_of(rulebook: Any) -> Mapping[str, str]:
    """A rulebook's ``terms`` (none where no source gives the rulebook)."""
    return rulebook.terms if rulebook is not None else {}
