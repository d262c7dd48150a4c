"""Text revisions: a component's wording changes; the old wording stays legal and reads as the new one.
The event (:class:`TextRevision`), its record (:class:`Wording`) and step (:class:`Rewrite`)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Mapping

from ..errors import Problem
from ..formula import EVALUATION_ERRORS, Formula
from ..model import ComponentDecl, When, Where, ordinal
from ..text import Template
from ..value import Value
from .change import ComponentChange, binds_text, formula_text, quoted, reading_diff
from .event import Event, Track

if TYPE_CHECKING:
    from ..model import RuleSet

__all__ = ["Rewrite", "TextRevision", "Wording"]


def _note(binds: dict[str, int], new: Template, listed: bool, formulas: tuple | None = None) -> str:
    """What a rewording's row says beside the words: what old cards read as, the formula printed with the
    new wording (``formulas``: was, now), and if no list names it."""
    parts = (f"{binds_text(binds)}; the new wording: “{new}”" if binds else "",
             f"formula {_formula_change(formulas)}" if formulas is not None else "",
             "" if listed else "in no rulebook list")
    return "; ".join(filter(None, parts))


def _formula_change(formulas: tuple) -> str:
    """ "1 → x/5, the same cost for old cards": a formula (was, now) printed with a new wording (the loader
    checks that it costs the old wording what it cost)."""
    return f"{formula_text(formulas[0])} → {formula_text(formulas[1])}, the same cost for old cards"


class Wording(Value):
    """An earlier wording of a component, still read as the current one."""

    __slots__ = ("text", "binds", "replaced_in", "replaced_by", "step_binds", "sources", "row", "listed", "formulas")

    def __init__(self, text: Template, binds: dict[str, int], replaced_in: When, replaced_by: Template,
                 step_binds: dict[str, int], sources: tuple[str, ...], row: tuple[str, str] | None = None,
                 listed: bool = True, formulas: tuple[Formula | None, Formula] | None = None) -> None:
        self.text = text
        self.binds = binds  # values this wording stands for in the current text
        self.replaced_in = replaced_in  # the revision that replaced it
        self.replaced_by = replaced_by  # the wording that replaced it (the next one)
        self.step_binds = step_binds  # what that one revision bound
        self.sources = sources
        self.row = row  # the rulebook's Refurbished Card Texts row it follows
        self.listed = listed  # False: no rulebook list names the revision
        self.formulas = formulas  # (was, now): the formula the revision printed with the new wording

    def formula_note(self, when: str) -> list[str]:
        """ "Formula printed with the new wording (``when``): 1 → x/5, the same cost for old cards", where the
        revision printed one (a history's line after the wording's)."""
        if self.formulas is None:
            return []
        return [f"Formula printed with the new wording ({when}): {_formula_change(self.formulas)}"]


class Rewrite(Value):
    """Old wording → new wording of one component, made by one edition."""

    __slots__ = ("component", "kind", "old", "new", "binds", "edition", "by", "sources", "listed", "formulas")

    def __init__(self, component: str, kind: str, old: Template, new: Template, binds: dict[str, int],
                 edition: int | None, by: int, sources: tuple[str, ...], listed: bool = True,
                 formulas: tuple[Formula | None, Formula] | None = None) -> None:
        self.component = component
        self.kind = kind
        self.old = old
        self.new = new
        self.binds = binds  # values the old wording stands for (it lacks these variables)
        self.edition = edition  # None: the edition of the revision is unknown (made by ``by``)
        self.by = by
        self.sources = sources
        self.listed = listed  # False: no rulebook list names it (migrate keeps the old wording as printed)
        self.formulas = formulas  # (was, now): a formula printed with the new wording (the same cost)

    def apply(self, sentence: str) -> str | None:
        """The rewritten sentence, or ``None`` when ``sentence`` is not this old wording."""
        m = self.old.match(sentence)
        if m is None or m.conflicts:
            return None
        return self.new.render({**m.values, **self.binds})


class TextRevision(Event):
    """A component's wording changes; the old wording stays legal and reads as the new one."""

    key, noun, pass_field = "text_revisions", "text revision", "rewrites"
    heading, intro = "Reworded", "Cards printed with the old wording are read as the new one."
    diff_sections = (("reworded", "Components reworded"),)
    skeleton = (
        "# Text revisions: cards printed with the old wording are read as the new one from this",
        "# edition on. The new text keeps the old one's variables; a variable the old wording lacked",
        "# needs `binds`: the value that old cards stand for. A revision a rulebook table lists names",
        "# its row (`row: {{old: \"in-play card\", new: \"on-field minion\"}}`); one no list names says",
        "# `listed: false`.",
        "{example}",
    )

    __slots__ = ("component", "text", "binds", "when", "sources", "where", "formula", "note", "into", "row", "listed")

    def __init__(self, component: str, text: Template, binds: dict[str, int], when: When, sources: tuple[str, ...],
                 where: Where, formula: Formula | None = None, note: str | None = None, into: str | None = None,
                 row: tuple[str, str] | None = None, listed: bool = True) -> None:
        super().__init__(component, when, sources, where)
        self.text = text
        self.binds = binds  # values the old wording stands for (it had no such variable)
        self.formula = formula  # a new formula printed with it, costing the old wording what it cost
        self.note = note
        self.into = into  # the component whose text this becomes, as a rulebook refurbishes two texts into one
        # the row of a rulebook's Refurbished Card Texts table it follows: phrases of the old and new wordings
        self.row = row
        self.listed = listed  # False: no rulebook list names it (migrate keeps an older card's text as printed)

    @classmethod
    def read(cls, entry: Any) -> TextRevision | None:
        cid, new = entry.component(), entry.text("text")
        if not cid or not new:
            return None
        binds = entry.binds()
        for var in binds:
            if var not in new.variables:
                entry.problem("binds", f"binds: [{var}] is not in the new text")
        formula = None
        if entry.has("formula"):
            ok, formula = entry.formula("formula")
            if ok and formula is not None:
                entry.check_formula("formula", formula, entry.declared(cid).kind, set(new.variables))
        row = None
        if entry.has("row"):
            phrases = entry.entry("row")
            row = (phrases.string("old") or "", phrases.string("new") or "")
        into = entry.string("into")
        if into is not None and not cls._merges(entry, cid, into):
            return None
        listed = entry.flag("listed", True)
        if not listed and row is not None:
            entry.problem("listed", "listed: false, yet the revision follows a row of a rulebook table")
        return cls(cid, new, binds, entry.when, entry.sources, entry.where, formula, entry.string("note"), into, row, listed)

    @staticmethod
    def _merges(entry: Any, cid: str, into: str) -> bool:
        """May ``cid`` be merged into ``into``: another component of the same kind on the line?"""
        other = entry.declared(into)
        if other is None or not entry.on_line(into):
            entry.problem("into", f"into: unknown component {into!r} (or not on this edition's line)")
            return False
        kind = entry.declared(cid).kind  # type: ignore[union-attr]
        if other.kind != kind or into == cid:
            entry.problem("into", f"into: {into} is not another component of the kind {kind}")
            return False
        return True

    def check(self, line: Track) -> tuple[list[Problem], TextRevision | None]:
        old, new, cid = line.current[self.component], self.text, self.component
        if str(new) == str(old):
            return [self.problem("text", "text: the revision does not change the text (a no-op delta)")], None
        problems = [self.problem("binds", f"binds: the old text already has [{var}]; only variables it lacks can be bound")
                    for var in self.binds if var in new.variables and var in old.variables]
        for var in new.variables:
            if var not in old.variables and var not in self.binds:
                problems.append(self.problem("text", f"text: the new text has [{var}] that the old text lacks",
                                             f"say what the old wording reads as: binds: {{{var}: N}}"))
        for var in old.variables:
            if var not in new.variables:
                problems.append(self.problem("text", f"text: the new text drops [{var}] of the old text"))
        if self.formula is not None:
            problems += self._same_cost(line.formula.get(cid))
        event: TextRevision | None = self
        if self.row is not None:
            event = self._follows_row(old, problems)
        if self.into is not None and str(line.current[self.into]) != str(new):
            problems.append(self.problem("text", f"text: a revision into {self.into} takes its text, which reads "
                                                 f"{str(line.current[self.into])!r}"))
            event = None
        return problems, event

    def _same_cost(self, old: Formula | None) -> list[Problem]:
        """The new formula must cost the old wording what it cost: the old formula and the new one with
        ``binds`` agree for every value of the old wording's variables."""
        formula, binds = self.formula, self.binds
        if old is None or formula is None:
            return []
        names = sorted((old.variables | formula.variables) - set(binds))
        for values in ((1, 1, 1, 1), (2, 3, 5, 7), (6, 4, 3, 2)):
            env = {name: Fraction(v) for name, v in zip(names, values)}
            try:
                same = old.evaluate({**env, **binds}) == formula.evaluate({**env, **binds})
            except EVALUATION_ERRORS:
                continue
            if not same:
                return [self.problem("formula", f"formula: {formula} with {binds or 'no binds'} does not cost the old "
                                                f"wording what {old} did",
                                     "a different cost for the same card is a cost revision: record it under cost_revisions")]
        return []

    def _follows_row(self, old: Template, problems: list[Problem]) -> TextRevision:
        """The revision as it follows its table row: the row's original text must be in the old wording
        and its new text in the new one ("Any card containing any exact original text indicated here is
        refurbished as shown"; a row in lowercase stands for a capitalized opening too); a row that does
        not is reported and left out."""
        assert self.row is not None
        for phrase, wording, side in ((self.row[0], old, "old"), (self.row[1], self.text, "new")):
            if phrase.casefold() not in str(wording).casefold():
                problems.append(self.problem(f"row.{side}", f"row: {side}: {phrase!r} is not in the {side} wording {str(wording)!r}"))
                return self.replace(row=None)
        return self

    def step(self, line: Track) -> Rewrite:
        cid = self.component
        formulas = None if self.formula is None else (line.formula.get(cid), self.formula)
        rewrite = Rewrite(cid, line.kinds[cid], line.current[cid], self.text, dict(self.binds), self.when.edition,
                          self.when.by, self.sources, self.listed, formulas)
        line.current[cid] = self.text
        line.variables[cid] |= set(self.text.variables) | set(self.binds)
        if self.formula is not None:
            line.formula[cid] = self.formula
        return rewrite

    def fold(self, state: dict[str, Any], happened: str) -> None:
        c = state[self.component]
        # older wordings now also stand for the new binds (new values: an earlier edition's catalog shares the old ones)
        wordings = tuple(w.replace(binds={**w.binds, **self.binds}) if self.binds else w for w in c.wordings)
        formulas = None if self.formula is None else (c.formula, self.formula)
        wordings += (Wording(c.text, dict(self.binds), self.when, self.text, dict(self.binds), self.sources, self.row,
                             self.listed, formulas),)
        self.folded(state, self.component, wordings=wordings, text=self.text,
                    formula=c.formula if self.formula is None else self.formula)
        if self.into is not None and self.into in state and happened == "yes":
            # two texts refurbished into one: the other component reads every wording of this one
            merged = state.pop(self.component)
            self.folded(state, self.into, wordings=state[self.into].wordings + merged.wordings)

    @classmethod
    def describe(cls, item: Rewrite, comps: Mapping[str, ComponentDecl]) -> ComponentChange:
        note, words = _note(item.binds, item.new, item.listed, item.formulas), reading_diff(item.old, item.new, item.binds)
        return ComponentChange(item.component, item.kind, str(item.new), "reworded", "", note, words=words)

    @classmethod
    def compare(cls, old: Any, new: Any, ca: Any, cb: Any) -> list[ComponentChange]:
        if str(old.text) == str(new.text):
            return []
        binds = new.wordings[len(old.wordings)].binds if len(new.wordings) > len(old.wordings) else {}
        listed = all(w.listed for w in new.wordings[len(old.wordings):])  # (False: no rulebook list names it)
        words = reading_diff(old.text, new.text, binds)
        note = _note(binds, new.text, listed)
        line = f"“{words.old.text()}” → “{words.new.text()}”" + (f" ({note})" if note else "")
        json = {"old": str(old.text), "new": str(new.text), "old_marked": words.old.markdown(),
                "new_marked": words.new.markdown(), "reading": str(words.new), "removed": words.old.marked(),
                "added": words.new.marked(), "binds": dict(sorted(binds.items())), **({} if listed else {"listed": False})}
        return [ComponentChange(new.id, new.kind, str(new.text), "reworded", line, note, json=json, before=str(old.text),
                                after=str(new.text), words=words)]

    @classmethod
    def example(cls, rules: RuleSet) -> list[str]:
        """A text revision the rules already hold (one that binds a variable, if any), as the
        skeleton's comment (its ``{example}`` line)."""
        revisions = [(e.number, r) for e in rules.editions for r in e.of_kind(cls)]
        revisions.sort(key=lambda item: not item[1].binds)
        if not revisions:
            return ["#   - component: <component id>", '#     text: "<the new wording, with [x] where the old had none>"',
                    "#     binds: {x: 5}"]
        n, rev = revisions[0]
        lines = [f"# For example, the {ordinal(n)} Edition's file records:", f"#   - component: {rev.component}",
                 f"#     text: {quoted(str(rev.text))}"]
        if rev.binds:
            lines.append("#     binds: {" + ", ".join(f"{k}: {v}" for k, v in sorted(rev.binds.items())) + "}")
        return lines
