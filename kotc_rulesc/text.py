"""The component-text language: ``"Draw [x] cards."`` parsed once into segments (literal text, slots
``[x]``, words that agree with a variable: "cards" is "card" when x is 1), from which come the sentence
for given values, a regular expression that reads a printed sentence back (a wrong singular/plural is
forgiven with a note, a different word never is), and *skeletons* (numbers as ``#``, one per form of
the agreeing words) that find a printed sentence's component in one dictionary look-up.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Mapping, Sequence, Union

from .value import Value

_CLAUSE_END = frozenset(",;.:")
_VARIABLES = "xyz"


class TemplateError(ValueError):
    """A component text that cannot be a template (``[w]``, an unclosed bracket…)."""

    def __init__(self, message: str, column: int = 1):
        super().__init__(message)
        self.message = message
        self.column = column


class Lit(Value):
    """Literal text."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


class Slot(Value):
    """A variable's place: ``[x]``."""

    __slots__ = ("var",)

    def __init__(self, var: str):
        self.var = var


class Agree(Value):
    """A word that agrees with a variable: ``plural``, or ``singular`` where its value is 1."""

    __slots__ = ("var", "plural", "singular")

    def __init__(self, var: str, plural: str, singular: str):
        self.var = var
        self.plural = plural
        self.singular = singular


class Choice(Value):
    """Where a card may print other words than the component's (a reading of the text, :meth:`Template.vary`):
    ``forms[0]`` the component's own, the others what the card-building rule numbered ``rule`` lets
    it print instead (the first of them the rule's prescribed form)."""

    __slots__ = ("rule", "forms")

    def __init__(self, rule: int, forms: tuple[str, ...]):
        self.rule = rule
        self.forms = forms


Segment = Union[Lit, Slot, Agree, Choice]

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=1 << 16)  # printed sentences repeat across a collection
def normalize(text: str) -> str:
    """Straight quotes, single spaces, no space before punctuation (or an arrow), trimmed."""
    text = _SPACES.sub(" ", text.translate(_QUOTES)).strip()
    return re.sub(r" (?=[.,;:)→])|(?<=\() ", "", text)


_NUMBER = re.compile(r"\[[a-z]\]|-?\d+")  # (a slot, or a number)
#: the input policy's (kotc_rulesc/reading/policy.py) longest number: a longer one fills no slot (the
#: engine imports only the standard library: the value is its own)
MAX_DIGITS = 100


def opening_forms(sentence: str) -> tuple[str, ...]:
    """The sentence, and with its first letter lowercase when it is capitalized: a text the guide
    prints lowercase ("draw [x] cards.") is capitalized where it opens its ability or sub-ability."""
    if sentence[:1].isupper():
        return sentence, sentence[0].lower() + sentence[1:]
    return (sentence,)


@lru_cache(maxsize=1 << 16)
def skeleton(sentence: str) -> str:
    """The look-up key of a printed sentence: normalized, numbers (and slots) as ``#``.
    A template has one per form of its agreeing words (:meth:`Template.skeletons`), so
    "Draw 1 card." finds "Draw [x] cards." in one look-up."""
    return _NUMBER.sub("#", normalize(sentence))


_TOKEN = re.compile(r"\[(?P<slot>[^\]]*)\]|(?P<word>[A-Za-z][A-Za-z'\-]*)|(?P<other>[^A-Za-z\[]+|\[)")


class TemplateMatch(Value):
    """A printed sentence read back: the values, and whether the forms agreed."""

    __slots__ = ("values", "disagreements", "conflicts", "misnumbered", "choices")

    def __init__(self, values: dict[str, int], disagreements: tuple[str, ...], conflicts: tuple[str, ...],
                 misnumbered: tuple[str, ...] = (), choices: tuple[tuple[int, int], ...] = ()):
        self.values = values
        self.disagreements = disagreements  # the plural where a value is 1: ("'cards' should be 'card' for x = 1",)
        self.conflicts = conflicts  # e.g. ("x is 2 in one place and 3 in another",)
        #: the singular where a value is not 1, which no rule allows: ("'card' is for 1, and x = 2: 'cards'",)
        self.misnumbered = misnumbered
        #: (segment index, form printed) of each :class:`Choice` of the reading matched
        self.choices = choices


class Template(Value):
    """A parsed component text.  ``str(t)`` is the canonical ``[x]`` wording; two templates are equal
    when their segments are."""

    __slots__ = ("segments", "_pattern")

    def __init__(self, segments: tuple[Segment, ...]):
        self.segments = segments
        self._pattern: re.Pattern | None = None  # the compiled regex (:meth:`match`), made at its first match

    @property
    def variables(self) -> tuple[str, ...]:
        """The variables in order of first appearance."""
        return tuple(dict.fromkeys(seg.var for seg in self.segments if isinstance(seg, Slot)))

    def __str__(self) -> str:
        return self.render({})

    def render(self, values: Mapping[str, int], choices: Mapping[int, int] | None = None) -> str:
        """The concrete sentence for ``values`` (singular forms where a value is 1; a variable without a
        value stays ``[x]``), each :class:`Choice` in the form ``choices`` gives it (segment index → form;
        the component's own by default)."""
        out = []
        for i, seg in enumerate(self.segments):
            if isinstance(seg, Lit):
                out.append(seg.text)
            elif isinstance(seg, Slot):
                out.append(str(values[seg.var]) if seg.var in values else f"[{seg.var}]")
            elif isinstance(seg, Choice):
                out.append(seg.forms[choices.get(i, 0) if choices else 0])
            else:
                out.append(seg.singular if values.get(seg.var) == 1 else seg.plural)
        return "".join(out)

    def vary(self, rules: Sequence[tuple[int, Sequence[tuple[str, Sequence[str]]]]]) -> "Template":
        """This text as a card may print it under the card-building ``rules`` — each (its number, its
        forms: the component's words → what a card prints instead): each place where the words stand
        (whole words, any case; the longest first) becomes a :class:`Choice`, its forms in the case
        the text prints them.  The same text when no rule's words stand in it."""
        phrases = sorted(((words, number, tuple(printed)) for number, forms in rules for words, printed in forms),
                         key=lambda item: -len(item[0]))
        if not phrases:
            return self
        pattern = re.compile("|".join(f"(?<![\\w'])({re.escape(w)})(?![\\w'])" if w[-1:].isalnum() or w[-1:] == "'"
                                      else f"(?<![\\w'])({re.escape(w)})" for w, _, _ in phrases), re.IGNORECASE)
        segments: list[Segment] = []
        changed = False
        for seg in self.segments:
            if not isinstance(seg, Lit):
                segments.append(seg)
                continue
            pos = 0
            for m in pattern.finditer(seg.text):
                words, number, printed = phrases[m.lastindex - 1]
                found = m.group(0)
                if m.start() > pos:
                    segments.append(Lit(seg.text[pos:m.start()]))
                cased = (form[:1].upper() + form[1:] if found[:1].isupper() else form for form in printed)  # "Add"
                segments.append(Choice(number, (found, *cased)))
                pos = m.end()
                changed = True
            if pos < len(seg.text):
                segments.append(Lit(seg.text[pos:]))
        return Template(tuple(segments)) if changed else self

    @property
    def skeleton(self) -> str:
        """The look-up key of the text as the guide prints it (plural forms)."""
        return skeleton(str(self))

    def skeletons(self) -> tuple[str, ...]:
        """The look-up keys of every printed form: each agreeing word plural or singular
        (a wrong form is read too, and forgiven with a note)."""
        forms = [""]
        for seg in self.segments:
            if isinstance(seg, Lit):
                forms = [f + seg.text for f in forms]
            elif isinstance(seg, Slot):
                forms = [f + "0" for f in forms]
            elif isinstance(seg, Choice):
                forms = [f + w for f in forms for w in seg.forms]
            else:
                forms = [f + w for f in forms for w in (seg.plural, seg.singular)]
        return tuple(dict.fromkeys(skeleton(f) for f in forms))

    def regex(self) -> str:
        """Regular-expression source matching a normalized printed sentence: slot ``i`` of variable x
        captures as ``x{i}``, an agreeing word as ``a{i}``, a choice as ``c{i}`` (:meth:`match`)."""
        parts = []
        for i, seg in enumerate(self.segments):
            if isinstance(seg, Lit):
                parts.append(re.escape(seg.text))
            elif isinstance(seg, Slot):
                parts.append(f"(?P<{seg.var}{i}>-?\\d{{1,{MAX_DIGITS}}})")
            elif isinstance(seg, Choice):
                forms = sorted(seg.forms, key=lambda f: -len(f))
                parts.append(f"(?P<c{i}>{'|'.join(re.escape(f) for f in forms)})")
            else:
                parts.append(f"(?P<a{i}>{re.escape(seg.plural)}|{re.escape(seg.singular)})")
        return "".join(parts)

    def match(self, sentence: str) -> TemplateMatch | None:
        """Read a printed sentence (normalized first); ``None`` if the words differ."""
        pattern = self._pattern
        if pattern is None:
            pattern = self._pattern = re.compile(self.regex())
        m = pattern.fullmatch(normalize(sentence))
        if m is None:
            return None
        values: dict[str, int] = {}
        conflicts = []
        for i, seg in enumerate(self.segments):
            if isinstance(seg, Slot):
                value = int(m[f"{seg.var}{i}"])
                if seg.var in values and values[seg.var] != value:
                    conflicts.append(f"{seg.var} is {values[seg.var]} in one place and {value} in another")
                values.setdefault(seg.var, value)
        disagreements = []
        misnumbered = []
        choices = []
        for i, seg in enumerate(self.segments):
            if isinstance(seg, Agree) and seg.var in values:
                want = seg.singular if values[seg.var] == 1 else seg.plural
                got = m[f"a{i}"]
                if got == want:
                    continue
                if got == seg.plural:
                    disagreements.append(f"'{got}' should be '{want}' for {seg.var} = {values[seg.var]}")
                else:
                    misnumbered.append(f"'{got}' is the form for 1, and {seg.var} = {values[seg.var]}: '{want}'")
            elif isinstance(seg, Choice):
                choices.append((i, seg.forms.index(m[f"c{i}"])))
        return TemplateMatch(values, tuple(disagreements), tuple(conflicts), tuple(misnumbered), tuple(choices))


def parse_template(text: str, plurals: Mapping[str, str] | None = None, verbs: Mapping[str, str] | None = None,
                   qualifiers: Sequence[str] = (), stops: Sequence[str] = ()) -> Template:
    """Parse a component text as the guide prints it; raises :class:`TemplateError`.

    ``plurals`` and ``verbs`` (plural → singular) are the words that agree with a variable, from
    the card-building system's agreement; without them no word agrees.  A variable counts the
    first such noun after it in its clause, before any of ``stops`` ("[x] damage to targets"
    counts no targets; "[x] of your cards", partitive, keeps the plural); a phrase of
    ``qualifiers`` ("level [n] or lower", "[n]" its variable) is passed over, its variable
    qualifying the word before it: the noun after it is counted by the variable before it ("[x]
    level [y] or lower enemy creatures"), or by none ("all level [x] or lower on-field minions").
    The first such verb later in the clause agrees too ("at least [x] cards ... are destroyed")."""
    plurals = plurals or {}
    verbs = verbs or {}
    if not isinstance(text, str):
        raise TemplateError(f"a component text must be a string, not {type(text).__name__}")
    if text != text.strip():
        raise TemplateError("the text has leading or trailing spaces", 1)
    if not text:
        raise TemplateError("the text is empty", 1)
    tokens: list[tuple[str, str]] = []
    for m in _TOKEN.finditer(text):
        kind, value = m.lastgroup, m.group(m.lastgroup)
        if kind == "other" and value == "[":
            raise TemplateError("'[' without a closing ']'", m.start() + 1)
        if kind == "slot" and (value not in _VARIABLES or len(value) != 1):
            raise TemplateError(f"unknown variable [{value}]: texts use [x], [y] and [z]", m.start() + 1)
        tokens.append((kind, value))

    significant = [i for i, (kind, value) in enumerate(tokens) if kind != "other" or value.strip()]
    phrases = _qualifier_spans(tokens, significant, qualifiers)  # slot index → (first, last token) of its phrase
    phrase_ends = dict(phrases.values())  # first token → last token
    agree: dict[int, str] = {}  # token index → variable
    for n, i in enumerate(significant):
        kind, value = tokens[i]
        if kind != "slot":
            continue
        counted: str | None = value
        if i in phrases:  # a qualifying variable: the noun after its phrase is the one before it counts
            first, last = phrases[i]
            k = significant.index(first)
            before = tokens[significant[k - 1]] if k else ("", "")
            counted = before[1] if before[0] == "slot" else None
            start = last + 1
        else:  # "[x] level [y] …": the phrase is passed over
            following = significant[n + 1] if n + 1 < len(significant) else None
            start = phrase_ends[following] + 1 if following in phrase_ends else i + 1
        if counted is not None:
            for j in range(start, _clause_end(tokens, start - 1)):
                if tokens[j][1] in stops:
                    break
                if tokens[j][0] == "word" and tokens[j][1] in plurals:
                    agree[j] = counted
                    break
        for j in range(i + 1, _clause_end(tokens, i)):
            if tokens[j][0] == "word" and tokens[j][1] in verbs:
                agree.setdefault(j, value)
                break

    segments: list[Segment] = []
    lit: list[str] = []
    for i, (kind, value) in enumerate(tokens):
        if kind == "slot" or i in agree:
            if lit:
                segments.append(Lit("".join(lit)))
                lit = []
            if kind == "slot":
                segments.append(Slot(value))
            else:
                segments.append(Agree(agree[i], value, plurals.get(value) or verbs[value]))
        else:
            lit.append(value)
    if lit:
        segments.append(Lit("".join(lit)))
    return Template(tuple(segments))


def _qualifier_spans(tokens: list[tuple[str, str]], significant: list[int],
                     qualifiers: Sequence[str]) -> dict[int, tuple[int, int]]:
    """Where a qualifying phrase ("level [n] or lower") stands in ``tokens`` (``significant``: those not
    white space): its variable's token → (its first token, its last token); the longest phrase where
    several start at one token."""
    spans: dict[int, tuple[int, int]] = {}
    patterns = [[(m.lastgroup, m.group(m.lastgroup)) for m in _TOKEN.finditer(phrase) if m.group(m.lastgroup).strip()]
                for phrase in qualifiers]
    for n, first in enumerate(significant):
        best = None
        for parts in patterns:
            span = significant[n:n + len(parts)]
            if len(span) < len(parts):
                continue
            slot = None
            for t, (kind, value) in zip(span, parts):
                if kind == "slot" and value == "n" and tokens[t][0] == "slot":
                    slot = t
                elif tokens[t] != (kind, value):
                    break
            else:
                if slot is not None and (best is None or span[-1] > best[1][1]):
                    best = (slot, (first, span[-1]))
        if best is not None and best[0] not in spans:
            spans[best[0]] = best[1]
    return spans


def _clause_end(tokens: list[tuple[str, str]], i: int) -> int:
    """Index of the token ending the clause that starts after token ``i``."""
    for j in range(i + 1, len(tokens)):
        kind, value = tokens[j]
        if kind == "slot" or (kind == "other" and any(c in _CLAUSE_END for c in value)):
            return j
    return len(tokens)
