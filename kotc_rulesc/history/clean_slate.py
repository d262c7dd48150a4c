"""Clean slates: an edition that prunes every card designed before it; it alone may name successors,
the new component that takes an old one's place.  An event of a whole edition, but one unit all the same."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..model import ComponentDecl, ordinal
from ..value import Value
from .change import ComponentChange, reading_diff

if TYPE_CHECKING:
    from ..model import EditionDecl

__all__ = ["CLEAN_SLATE", "CleanSlate", "Successor"]


class Successor(Value):
    """The component that takes an old one's place in a card crossing a clean slate."""

    __slots__ = ("component", "successor", "binds", "sources")

    def __init__(self, component: str, successor: str, binds: dict[str, int], sources: tuple[str, ...]) -> None:
        self.component = component
        self.successor = successor
        self.binds = binds  # the values the old wording stands for in the new one
        self.sources = sources


class CleanSlate:
    """The clean slate of an edition, one unit: its flag and successors read, folded into the line's
    clean slates, stepped into a pass, described and scaffolded."""

    key, noun = "clean_slate", "clean slate"
    heading = "Successors"
    intro = "The component that takes an old one's place in a card that crosses the clean slate."
    skeleton = (
        "# A clean slate bans every card whose Edition Indicator is missing or older than this",
        "# edition. Only a clean slate names successors: the new component that takes an old one's",
        "# place (binds: the values the old wording stands for in the new one).",
        "#   - {{component: {cost}, successor: {cost_kind}-gain-level, binds: {{x: 1}}}}",
        "clean_slate: false",
        "successors: []",
    )

    def read(self, file: Any) -> tuple[bool, tuple[Successor, ...]]:
        """The flag and the successors of one rules file (checked: known components, only a clean slate)."""
        successors = []
        for entry in file.entries("successors"):
            cid, successor = entry.component(), entry.string("successor") or ""
            if file.declared(successor) is None:
                entry.problem("successor", f"successor: unknown component {successor!r}", file.nearest(successor))
                continue
            if cid and self._fits(entry, file.declared(cid), file.declared(successor)):
                successors.append(Successor(cid, successor, entry.binds(), entry.sources))
        clean_slate = file.flag("clean_slate", False)
        if successors and not clean_slate:
            file.problem("successors", "successors are declared only by a clean-slate edition", "add 'clean_slate: true'",
                         of_key=True)
        return clean_slate, tuple(successors)

    @staticmethod
    def _fits(entry: Any, old: ComponentDecl, new: ComponentDecl) -> bool:
        """Can a card's ``old`` text be written as ``new``'s (reported where not): every variable of the new
        text the old text's or bound (``binds``), none bound that it lacks."""
        binds, has, had = entry.binds(), set(new.text.variables), set(old.text.variables)
        problems = [("binds", f"binds: the successor's text {str(new.text)!r} has no [{var}]", None)
                     for var in sorted(set(binds) - has)]
        problems += [("successor", f"successor: its text {str(new.text)!r} has [{var}], which {old.id}'s {str(old.text)!r} "
                                   "lacks", f"say what old cards stand for: binds: {{{var}: N}}")
                     for var in sorted(has - had - set(binds))]
        for key, message, hint in problems:
            entry.problem(key, message, hint)
        return not problems

    def fold(self, decl: EditionDecl, clean_slates: tuple[int, ...]) -> tuple[int, ...]:
        """The clean-slate editions of a line, after ``decl``."""
        return clean_slates + (decl.number,) if decl.clean_slate else clean_slates

    def step(self, decl: EditionDecl) -> dict[str, object]:
        """The pass fields a card crossing ``decl`` meets."""
        return {"clean_slate": decl.clean_slate, "successors": tuple((s.component, s.successor) for s in decl.successors)}

    def rule(self, n: int, rulebook: Any = None) -> str | None:
        """What the ``n``th edition's own ``rulebook`` says its clean slate does, in its words, where it
        requires an Edition Indicator (the 13th on: a card older is "pruned", one without is "invalid");
        ``None`` for the 11th and 12th, whose rulebooks ban alike a card without one and an older one."""
        if rulebook is None or rulebook.edition_indicator != "required":
            return None
        return (f"every card whose design edition (its Edition Indicator) is older than the {ordinal(n)} is "
                f"{rulebook.terms.get('banned', 'banned')}, and a card with no Edition Indicator is invalid")

    def sentence(self, n: int, rulebook: Any = None, crossed: bool = False) -> str:
        """What the clean slate of the ``n``th edition does (``crossed``: as a diff across it says it), as
        its ``rulebook`` words it."""
        rule = self.rule(n, rulebook)
        if rule is not None:
            return f"Clean slate crossed: in the {ordinal(n)} Edition, {rule}." if crossed else f"From this edition on, {rule}."
        if crossed:
            return (f"Clean slate crossed: the {ordinal(n)} Edition bans every card whose Edition Indicator is missing "
                    f"or older than the {ordinal(n)}.")
        return f"Every card that bears no Edition Indicator, or one older than the {ordinal(n)}, is banned from this edition on."

    def describe(self, old: ComponentDecl, new: ComponentDecl) -> ComponentChange:
        """One successor, old component → new (the declarations)."""
        return ComponentChange(old.id, new.kind, str(new.text), "successors", "", "", words=reading_diff(old.text, new.text, {}))


CLEAN_SLATE = CleanSlate()
