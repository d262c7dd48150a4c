"""What every kind of history event shares, as a Django migration ``Operation``'s life: the
:class:`Event` base, and the :class:`Track` of a line it is checked and stepped against.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Iterable

from ..errors import Problem
from ..formula import COMPONENT_VARIABLES, Formula
from ..model import ComponentDecl, When, Where
from ..text import Template
from ..value import Value

if TYPE_CHECKING:
    from ..model import RuleSet
    from ..system import System

__all__ = ["Event", "Track", "formula_problems"]


class Track:
    """What the events of one line of editions meet: each component's current text, formula,
    limits and kind, every variable its wordings and binds know, the edition of its redaction (if it
    is redacted), and the line's card-building system.  The replay moves it past each event."""

    __slots__ = ("current", "formula", "limits", "kinds", "variables", "redacted", "system")

    def __init__(self) -> None:
        self.current: dict[str, Template] = {}
        self.formula: dict[str, Formula | None] = {}
        self.limits: dict[str, dict[str, int | None]] = {}
        self.kinds: dict[str, str] = {}
        self.variables: dict[str, set[str]] = {}
        self.redacted: dict[str, int] = {}
        self.system: System | None = None

    def declare(self, c: ComponentDecl) -> None:
        self.current[c.id], self.formula[c.id], self.limits[c.id] = c.text, c.formula, dict(c.limits)
        self.kinds[c.id], self.variables[c.id] = c.kind, set(c.text.variables)

    def copy(self) -> Track:
        """A copy later events do not change (texts, formulas and systems are values)."""
        t = Track()
        t.current, t.formula, t.kinds, t.redacted = dict(self.current), dict(self.formula), dict(self.kinds), dict(self.redacted)
        t.limits = {k: dict(v) for k, v in self.limits.items()}
        t.variables = {k: set(v) for k, v in self.variables.items()}
        t.system = self.system
        return t


class Event(Value):
    """One kind of history event (:data:`kotc_rulesc.history.KINDS`): its fields, and its behaviour —
    ``read(entry)``, the event an entry of the kind's list declares (None: reported; ``entry`` is the
    loader's ``loader.editions.Entry``, typed Any so that history imports nothing above it); ``check(line)``, what
    the folded history shows wrong with it and the event as it applies (None: a no-op delta);
    ``step(line)``, what a card crossing the edition meets (moving ``line`` past the event);
    ``fold(state, happened)``, the event applied to its component's state in ``state`` (``happened``:
    "yes", or "unknown" for an undated event that may not have happened yet); ``describe(step, comps)``,
    a changelog row; ``compare(old, new, ca, cb)``, the diff rows of one component's states in two catalogs."""

    __slots__ = ()

    key: ClassVar[str]  # its list in a rules file
    noun: ClassVar[str]  # "text revision"
    pass_field: ClassVar[str]  # the Pass field its steps go to
    #: does an event of unknown date apply to a fold it may precede ("unknown" state)?
    applies_when_unknown: ClassVar[bool] = True
    #: the docs' changelog section of an edition's events of this kind: heading, what it means for cards
    heading: ClassVar[str]
    intro: ClassVar[str]
    #: the diff's sections for the changes of this kind between two editions: (key, title)
    diff_sections: ClassVar[tuple[tuple[str, str], ...]]
    #: what the ``new-edition`` skeleton says above the kind's empty list (``{cost}``, ``{relief}``,
    #: ``{sets}``: example component ids; ``{cost_formula}``; ``{newest}``: the newest catalog; a line
    #: ``{example}``: :meth:`example`'s)
    skeleton: ClassVar[tuple[str, ...]]

    def __init__(self, component: str, when: When, sources: tuple[str, ...], where: Where) -> None:
        self.component = component
        self.when = when
        self.sources = sources
        self.where = where

    @classmethod
    def example(cls, rules: RuleSet) -> list[str]:
        """An event of this kind the rules already hold, as comment lines for the skeleton."""
        return []

    def folded(self, state: dict[str, Any], cid: str, **changes: Any) -> None:
        """Replace ``state[cid]`` (a :class:`~kotc_rulesc.catalog.ComponentState`) by it with ``changes``, citing
        the event's sources."""
        c = state[cid]
        state[cid] = c.replace(sources=tuple(dict.fromkeys(c.sources + self.sources)), **changes)

    def problem(self, key: str, message: str, hint: str | None = None) -> Problem:
        """A problem located at ``key`` of the event's entry."""
        line, column = self.where.at(key)
        return Problem(self.where.file, line, column, message, hint)


def formula_problems(formula: Formula, kind: str, known: Iterable[str], system: System | None) -> list[tuple[str, str | None]]:
    """(message, hint) for each variable a component formula of ``kind`` may not use: ``known`` are
    the variables its wordings have; a variable a kind sets (``t``) only in the cost kinds' formulas."""
    out: list[tuple[str, str | None]] = []
    set_by = system.set_variables if system else {}
    cost_kinds = [k.id for k in system.kinds if k.role == "cost"] if system else []
    for var in sorted(formula.variables):
        if var in set_by:
            if kind not in cost_kinds:
                out.append((f"{var!r} (set by the {set_by[var].noun}) may appear only in "
                            f"{' and '.join(cost_kinds) or 'cost'} formulas, not in a {kind}", None))
        elif var not in COMPONENT_VARIABLES:
            out.append((f"unknown variable {var!r} in a component formula",
                        f"component formulas use x, y, z and the variables the system's kinds set ({', '.join(set_by) or 'none'})"))
        elif var not in known:
            out.append((f"the formula uses {var!r} but the text has no [{var}]",
                        "add [" + var + "] to the text, or bind it in the text revision with binds: {" + var + ": N}"))
    return out
