"""A card's outcome in the edition's own words, the same wherever it is said: every JSON keeps the machine
code (``status``), a player reads the rulebook's word (``outcome``: the 13th on refurbish and prune).
"""

from __future__ import annotations

from typing import Mapping

__all__ = ["outcome_word"]

#: the rulebook term that words each status where the rulebook has its own
_TERM = {"rewritten": "revised", "banned": "banned"}
#: the words where it has none (the 1st–12th's)
_PLAIN = {"rewritten": "revised", "reissued": "re-issued"}


def outcome_word(status: str, terms: Mapping[str, str] | None) -> str:
    """The word for ``status`` in a rulebook whose ``terms`` are given ("pruned" for banned from the 13th)."""
    term = _TERM.get(status)
    own = terms.get(term) if term is not None and terms else None
    return own or _PLAIN.get(status, status)
