"""Migration passes: what one edition step does to a card, as data.

Each :class:`Rewrite` turns one old wording into the next, as a pyupgrade rewrite; applied twice it
changes nothing (the new wording never matches the old).  Bans, cost and limit changes are listed for
the migrator to judge.
"""

from __future__ import annotations

from .model import EditionKey
from .history.cost_revision import CostStep
from .history.limit_revision import LimitStep
from .history.redaction import Ban
from .history.reinstatement import Reinstated
from .history.text_revision import Rewrite
from .value import Value
from .text import normalize


class Pass(Value):
    """Everything the step ``source → target`` does (target is the edition that follows source:
    the next on the main line, or a pre-release branching from source)."""

    __slots__ = ("source", "target", "rewrites", "bans", "cost_changes", "limit_changes", "clean_slate",
                 "catalog_known", "successors", "reinstated")

    def __init__(self, source: EditionKey, target: EditionKey, rewrites: tuple[Rewrite, ...] = (),
                 bans: tuple[Ban, ...] = (), cost_changes: tuple[CostStep, ...] = (),
                 limit_changes: tuple[LimitStep, ...] = (), clean_slate: bool = False, catalog_known: bool = True,
                 successors: tuple[tuple[str, str], ...] = (), reinstated: tuple[Reinstated, ...] = ()) -> None:
        self.source = source
        self.target = target
        self.rewrites = rewrites
        self.bans = bans
        self.cost_changes = cost_changes
        self.limit_changes = limit_changes
        self.clean_slate = clean_slate
        self.catalog_known = catalog_known
        self.successors = successors  # (old component, successor component)
        self.reinstated = reinstated

    def rewrite(self, sentence: str) -> tuple[str, Rewrite | None]:
        """Apply the first rewrite that matches; return the sentence and the rewrite used."""
        sentence = normalize(sentence)
        for rw in self.rewrites:
            new = rw.apply(sentence)
            if new is not None:
                return new, rw
        return sentence, None


def path(passes: list[Pass], source: EditionKey, target: EditionKey) -> list[Pass] | None:
    """The passes from ``source`` to ``target`` in order ([] when equal), or ``None`` when
    ``target`` does not descend from ``source`` (a pre-release and a later main-line edition)."""
    into = {p.target: p for p in passes}
    steps: list[Pass] = []
    key = target
    while key != source:
        p = into.get(key)
        if p is None:
            return None
        steps.append(p)
        key = p.source
    return steps[::-1]

