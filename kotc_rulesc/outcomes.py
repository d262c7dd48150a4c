"""A card's outcome in the edition's own words, the same wherever it is said: every JSON keeps the machine
code (``status``), a player reads the rulebook's word (``outcome``: the 13th on refurbish and prune).
"""

from __future__ import annotations

from typing import Iterable, Mapping

__all__ = ["MISPRINTED", "outcome_key", "outcome_word"]

#: the rulebook term that words each status where the rulebook has its own
_TERM = {"rewritten": "revised", "banned": "banned"}
#: the words where it has none (the 1st–12th's)
_PLAIN = {"rewritten": "revised", "reissued": "re-issued"}
#: the outcome of a card banned by its printed figure alone (``cost-mismatch``): not legal as printed (the
#: 13th–17th guides: the level "is strictly defined" by its stats and abilities), yet pruned by none of the
#: lists that name "all cases" in which a card is pruned; those rulebooks call a card they exclude so "invalid"
MISPRINTED = "misprinted"
#: the ban codes of the rulebook's prune lists and of a missing Edition Indicator (cards/legality.py)
_PRUNING = frozenset({"invalid", "redacted", "over-limit", "cost-revised", "clean-slate"})


def outcome_key(status: str, codes: Iterable[str] = ()) -> str:
    """The outcome a card is counted and worded by: its ``status``, or :data:`MISPRINTED` for a banned card
    whose reasons' ``codes`` name no ban but ``cost-mismatch``."""
    if status == "banned":
        codes = set(codes)
        if "cost-mismatch" in codes and not codes & _PRUNING:
            return MISPRINTED
    return status


def outcome_word(status: str, terms: Mapping[str, str] | None, codes: Iterable[str] = ()) -> str:
    """The word for ``status`` (or an :func:`outcome_key`) in a rulebook whose ``terms`` are given, its
    reasons' ``codes`` given: "pruned" for banned from the 13th, "invalid" there for a card misprinted."""
    key = outcome_key(status, codes)
    if key == MISPRINTED:
        if terms and terms.get("banned"):
            return "invalid"
        status = "banned"
    term = _TERM.get(status)
    own = terms.get(term) if term is not None and terms else None
    return own or _PLAIN.get(status, status)
