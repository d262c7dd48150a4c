"""The card-writing rules of a system (variations, agreement, joins, capitals) applied to one ability
paragraph once its components are read: a *must* broken is malformed, a *should* broken a warning, and
:meth:`Writing.prescribed` gives the paragraph as the rules prescribe it, the text to print instead.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ..system import Join, System
from .model import Use
from .sentence import in_forms

__all__ = ["Placed", "Writing"]


class Placed:
    """A component as its paragraph prints it: the text (its end mark, unless a join replaced it) and
    the join printed after it (None: none)."""

    __slots__ = ("use", "printed", "join", "kind", "sentence", "state")

    def __init__(self, use: Use, printed: str, join: str | None = None):
        self.use = use
        self.printed = printed
        self.join = join
        self.kind = use.kind
        self.sentence = use.sentence
        self.state = use.state


class Writing:
    """The card-writing rules applied to one ability paragraph: what a *must* rule finds malformed, what a
    *should* rule warns of, and what each says to print instead."""

    def __init__(self, system: System, joins: tuple[Join, ...], placed: list[Placed], subs: list[list[Placed]]):
        self.system = system
        self.joins = joins
        self.placed = placed
        self.problems: list[tuple[str, tuple[str, ...]]] = []  # (message, sources): malformed
        self.warnings: list[tuple[str, str, tuple[str, ...]]] = []  # (code, message, sources)
        self.choices: dict[int, dict[int, int]] = {}  # piece → the forms it should print (segment → form)
        self.case: dict[int, bool] = {}  # piece → its first letter upper (True) or lower, where a rule says
        self.join: dict[int, str | None] = {}  # piece → the join it should print after it ("": its end mark)
        self.forms: set[int] = set()  # pieces whose words agree otherwise (the singular for 1)
        # piece → the pieces of its scope: its sub-ability (a kind placed there), else its ability's own
        at = {id(p): k for k, p in enumerate(placed)}
        own = [k for k, p in enumerate(placed) if not system.sub_ability or system.kind(p.kind).place != "sub_ability"]
        self.groups = [own] + [[at[id(p)] for p in sub] for sub in subs]
        self.scope = {k: group for group in self.groups for k in group}

    @cached_property
    def one(self) -> dict[int, tuple[bool, str]]:
        """piece → (can its target selection never select more than one, what it selects), in the scope
        where ``targets`` places the target selection (the ability, or each sub-ability)."""
        targets = self.system.targets
        out: dict[int, tuple[bool, str]] = {}
        if targets is None:
            return out
        system = self.system
        place = system.kind(targets.kind).place if targets.kind in system.kind_ids else "ability"
        groups = [list(range(len(self.placed)))] if place != "sub_ability" or not system.sub_ability else self.groups
        for ks in groups:
            setter = next((k for k in ks if self.placed[k].kind == targets.kind), None)
            if setter is None:
                what = f"no {system.noun(targets.kind)}: no targets"
                one = False
            else:
                use = self.placed[setter].use
                count = use.printed_values.get(use.selects) if isinstance(use.selects, str) else use.selects
                one = count == 1
                what = f'"{self.placed[setter].sentence}" selects ' + (
                    "one" if one else f"up to {count}" if count is not None else "more than one")
            out.update({k: (one, what) for k in ks})
        return out

    def check(self) -> None:
        for k, p in enumerate(self.placed):
            self._variations(k, p)
            self._agreement(k, p)
            self._capitals(k, p)
        self._joins()

    def _variations(self, k: int, p: Placed) -> None:
        reading = p.use.reading
        for seg, form in p.use.choices:
            choice = reading.segments[seg]
            rule = self.system.variations[choice.rule]
            one, what = self.one.get(k, (False, "no target selection"))
            holds = one if rule.when == "one-target" else True
            words = choice.forms[0]
            if form and not holds:
                printed = f'"{choice.forms[form]}"' if choice.forms[form] else "no words"
                self.problems.append((f'"{p.sentence}" prints {printed} for "{words.strip()}", as a card may only where '
                                      f"the number of targets can never be greater than 1: {what}", rule.sources))
                self.choices.setdefault(k, dict(p.use.choices))[seg] = 0
            elif not form and holds and rule.modal == "should":
                instead = choice.forms[1]
                others = " or ".join(f'"{f}"' for f in choice.forms[2:])
                change = f'"{words.strip()}" should be removed' if not instead.strip() else \
                    f'"{words}" should be "{instead}"' + (f" (or {others})" if others else "")
                self.warnings.append(("variation", f'"{p.sentence}": {change}, since the number of targets can never be '
                                                    f"greater than 1 ({what})", rule.sources))
                self.choices.setdefault(k, dict(p.use.choices))[seg] = 1

    def _agreement(self, k: int, p: Placed) -> None:
        rule = self.system.agreement
        if rule is None or rule.modal != "should":
            return
        for d in p.use.agreement:
            self.warnings.append(("agreement", f'"{p.sentence}": {d}', rule.sources))
            self.forms.add(k)

    def _capitals(self, k: int, p: Placed) -> None:
        rule = self.system.capitals_of.get(p.kind)
        if rule is None or not p.printed[:1].isalpha():
            return
        opening = self.scope.get(k, [k])[0] == k
        upper = True if opening else p.use.listed_upper
        if p.printed[:1].isupper() == upper:
            return
        self.case[k] = upper
        where = "opens" if opening else "follows another component in"
        scope = "its sub-ability" if self.system.sub_ability and self.system.kind(p.kind).place == "sub_ability" else "its ability"
        say = "its first letter should be capitalized" if opening else \
            f"its first letter is {'capitalized' if upper else 'lowercase'}, as the guide lists it"
        if rule.modal == "should":
            self.warnings.append(("capitals", f'"{p.printed}" {where} {scope}: {say}', rule.sources))
        elif rule.modal == "must":
            self.problems.append((f'"{p.printed}" {where} {scope}: {say}', rule.sources))

    def _joins(self) -> None:
        """Each join printed joins the kinds a rule of the card's joins names, in the order a series
        puts them; consecutive components that a *must* rule joins are joined."""
        placed = self.placed
        system = self.system
        k = 0
        while k < len(placed) - 1:
            p, q = placed[k], placed[k + 1]
            rules = [j for j in self.joins if j.after == p.kind and j.before == q.kind]
            if p.join is not None:
                fits = [j for j in rules if p.join in j.joining]
                if not fits:
                    allowed = "; ".join(f"{_a(system.noun(j.after))} and the {system.noun(j.before)} after it are "
                                        f"{j.describe()}" for j in rules)
                    self.problems.append((f'"{p.sentence}" and "{q.sentence}" are joined with {p.join!r}, which joins no '
                                          f"{system.noun(p.kind)} to {_a(system.noun(q.kind))}"
                                          + (f" ({allowed})" if allowed else ""), rules[0].sources if rules else system.sources))
                    self.join[k] = rules[0].joining[0] if rules else ""
                    if not rules and k + 1 not in self.case and q.printed[:1].isalpha():
                        self.case[k + 1] = q.use.listed_upper  # (no join before it: as listed)
                elif fits[0].series:
                    k = self._series(k, fits[0])
                    continue
            else:
                must = next((j for j in rules if j.modal == "must" and self._same_sentence(k)), None)
                if must is not None:
                    count = self._run(k, must) - k + 1
                    self.problems.append((f'"{p.sentence}" and "{q.sentence}" are consecutive {system.noun(p.kind)}s, each with its '
                                          f'"{must.end}": {system.noun(p.kind)}s are {must.describe()}', must.sources))
                    if must.series:
                        want = self._series_words(must, count)
                        for i, word in enumerate(want):
                            self.join[k + i] = word
                        k += count
                        continue
                    self.join[k] = must.words[0]
            k += 1

    def _same_sentence(self, k: int) -> bool:
        """Whether pieces k and k+1 share their sentence (a join stands inside one)."""
        return self.placed[k].printed.rstrip()[-1:] != "."

    def _run(self, k: int, rule: Join) -> int:
        """The last piece of the run of components that ``rule`` joins from piece k on (each printed
        with its end mark)."""
        placed = self.placed
        j = k + 1
        while j + 1 < len(placed) and placed[j + 1].kind == rule.before and placed[j].kind == rule.after \
                and placed[j].join is None and self._same_sentence(j):
            j += 1
        return j

    @staticmethod
    def _series_words(rule: Join, count: int) -> list[str]:
        two, between, last = rule.series
        return [two] if count == 2 else [between] * (count - 2) + [last]

    def _series(self, k: int, rule: Join) -> int:
        """A coordinated list (the 14th's costs: "A and B→", "A, B, and C→") uses each join where the list
        puts it.  Returns the piece after the run."""
        placed = self.placed
        j = k
        while j + 1 < len(placed) and placed[j + 1].kind == rule.before and placed[j].join in rule.joining:
            j += 1
        used = [placed[i].join for i in range(k, j)]
        want = self._series_words(rule, len(used) + 1)
        if used != want:
            count = len(used) + 1
            two, between, last = rule.series
            say = (f"two are joined with {two!r}" if count == 2
                   else f"{count} are joined with {between!r}, the last two with {last!r}")
            self.problems.append((f"{count} {self.system.noun(rule.after)}s joined with {', '.join(repr(x) for x in used)}: {say}",
                                  rule.sources))
            for i, word in enumerate(want):
                self.join[k + i] = word
        return j + 1

    def prescribed(self, paragraph: str) -> str | None:
        """``paragraph`` with each piece a rule changes printed as the rule says; None when no rule changes
        one, or a piece cannot be found where it was read."""
        changed = set(self.choices) | set(self.case) | set(self.join) | self.forms
        if not changed:
            return None
        changed |= {k for k, p in enumerate(self.placed) if p.use.old_wording is not None}
        out: list[str] = []
        pos = 0
        for k, p in enumerate(self.placed):
            target = p.printed + (p.join or "")
            at = paragraph.find(target, pos)
            if at < 0:
                return None
            end = at + len(target)
            if k in changed:
                out.append(paragraph[pos:at])
                out.append(self._piece(k, p, paragraph[end:end + 1]))
            else:
                out.append(paragraph[pos:end])
            pos = end
        out.append(paragraph[pos:])
        return "".join(out)

    def _piece(self, k: int, p: Placed, after: str) -> str:
        use = p.use
        reading = use.reading
        choices = self.choices.get(k, dict(use.choices))
        later = _reprinted(use)
        text = (later is not None and in_forms(use.state, reading, choices, use.values, self.system, later)) \
            or reading.render(use.printed_values, choices)
        if text[:1].isalpha():
            text = (text[:1].upper() if self.case.get(k, p.printed[:1].isupper()) else text[:1].lower()) + text[1:]
        join = self.join.get(k, p.join)
        end = next((j.end for j in self.system.joins if j.after == p.kind), None)  # its kind's end mark, else its own
        end = end or (text[-1:] if text[-1:] in ":;→." else "")
        if join:  # a join in place of its end mark
            if text.endswith(end):
                text = text[:-len(end)]
            if p.join is None:  # (the space after its end mark is printed after it)
                return text + (join.rstrip() if after[:1].isspace() else join)
            return text + join
        if join == "" and p.join is not None:  # a join no rule allows: its end mark, then a space
            return text + " "
        return text


def _reprinted(use: Use) -> Any:
    """The wording ``migrate`` writes for an earlier one a card prints: each later revision a rulebook list
    names, up to the first that none names (kept as printed); None for a current wording."""
    if use.old_wording is None or use.state is None:
        return None
    wordings = use.state.wordings
    at = next((i for i, w in enumerate(wordings) if str(w.text) == use.old_wording), None)
    return None if at is None else next((w.text for w in wordings[at:] if not w.listed), use.state.text)


def _a(noun: str) -> str:
    """ "an activation cost", "a target selection" """
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun
