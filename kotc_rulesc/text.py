"""The component-text language: ``"Draw [x] cards."`` as a structure.

A component text is parsed once into segments: literal text, variable slots
(``[x]``, ``[y]``, ``[z]``) and words that agree with a variable ("cards" becomes
"card" when x is 1; "are" becomes "is").  From that structure we derive

* the concrete sentence for given values, with correct singular forms
  ("at least 1 of your cards in play (excluding this card) is destroyed");
* a regular expression that reads a printed sentence back into values, and
  tells whether its singular/plural forms agree (a wrong form is forgiven with
  a note, a different word never is);
* *skeletons* — the sentence with numbers as ``#``, in each singular/plural form
  of its agreeing words — so that a printed sentence, its numbers masked, finds its
  component with one dictionary look-up.

Which words agree is the card-building system's data (its ``agreement``: the nouns
and verbs with their singular forms); where they agree is inferred from the guide's
own wording, as a reader would: after a slot, the first such noun among the next two
words agrees with it ("[x] six-sided dice", "[x] random cards"), unless the slot is
partitive ("[x] of your cards", which keeps the plural); and the first such verb later
in the same clause agrees too ("at least [x] cards in your hand are destroyed").
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Mapping, Union

from .record import record

__all__ = [
    "Template",
    "TemplateError",
    "Lit",
    "Slot",
    "Agree",
    "parse_template",
    "normalize",
    "opening_forms",
    "skeleton",
    "TemplateMatch",
]

_CLAUSE_END = frozenset(",;.:")
_VARIABLES = "xyz"


class TemplateError(ValueError):
    """A component text that cannot be a template (``[w]``, an unclosed bracket…)."""

    def __init__(self, message: str, column: int = 1):
        super().__init__(message)
        self.message = message
        self.column = column


@record(frozen=True)
class Lit:
    text: str


@record(frozen=True)
class Slot:
    var: str


@record(frozen=True)
class Agree:
    var: str
    plural: str
    singular: str


Segment = Union[Lit, Slot, Agree]

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=1 << 16)  # printed sentences repeat across a collection
def normalize(text: str) -> str:
    """Straight quotes, single spaces, no space before punctuation, trimmed."""
    text = _SPACES.sub(" ", text.translate(_QUOTES)).strip()
    return re.sub(r" (?=[.,;:)])|(?<=\() ", "", text)


_NUMBER = re.compile(r"-?\d+")
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
    text = normalize(sentence)
    text = re.sub(r"\[[a-z]\]", "#", text)
    return _NUMBER.sub("#", text)


_TOKEN = re.compile(r"\[(?P<slot>[^\]]*)\]|(?P<word>[A-Za-z][A-Za-z'\-]*)|(?P<other>[^A-Za-z\[]+|\[)")


@record(frozen=True)
class TemplateMatch:
    """A printed sentence read back: the values, and whether the forms agreed."""

    values: dict[str, int]
    disagreements: tuple[str, ...]  # e.g. ("'cards' should be 'card' for x = 1",)
    conflicts: tuple[str, ...]  # e.g. ("x is 2 in one place and 3 in another",)


@record(frozen=True)
class Template:
    """A parsed component text.  ``str(t)`` is the canonical ``[x]`` wording."""

    segments: tuple[Segment, ...]

    # -- derived views ------------------------------------------------------

    @property
    def variables(self) -> tuple[str, ...]:
        """The variables in order of first appearance."""
        seen: list[str] = []
        for seg in self.segments:
            if isinstance(seg, Slot) and seg.var not in seen:
                seen.append(seg.var)
        return tuple(seen)

    def __str__(self) -> str:
        out = []
        for seg in self.segments:
            if isinstance(seg, Lit):
                out.append(seg.text)
            elif isinstance(seg, Slot):
                out.append(f"[{seg.var}]")
            else:
                out.append(seg.plural)
        return "".join(out)

    @property
    def text(self) -> str:
        return str(self)

    def render(self, values: Mapping[str, int]) -> str:
        """The concrete sentence for ``values`` (singular forms where a value is 1)."""
        out = []
        for seg in self.segments:
            if isinstance(seg, Lit):
                out.append(seg.text)
            elif isinstance(seg, Slot):
                out.append(str(values[seg.var]))
            else:
                out.append(seg.singular if values[seg.var] == 1 else seg.plural)
        return "".join(out)

    def render_partial(self, values: Mapping[str, int]) -> str:
        """Like :meth:`render`, but variables without a value stay ``[x]`` (plural)."""
        out = []
        for seg in self.segments:
            if isinstance(seg, Lit):
                out.append(seg.text)
            elif isinstance(seg, Slot):
                out.append(str(values[seg.var]) if seg.var in values else f"[{seg.var}]")
            else:
                single = values.get(seg.var) == 1
                out.append(seg.singular if single else seg.plural)
        return "".join(out)

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
            else:
                forms = [f + w for f in forms for w in (seg.plural, seg.singular)]
        return tuple(dict.fromkeys(skeleton(f) for f in forms))

    def regex(self, prefix: str = "") -> str:
        """Regular-expression source matching a normalized printed sentence.

        Slot occurrences capture as ``{prefix}{var}{i}`` and agreeing words as
        ``{prefix}a{i}``; :meth:`match` interprets them."""
        parts = []
        for i, seg in enumerate(self.segments):
            if isinstance(seg, Lit):
                parts.append(re.escape(seg.text))
            elif isinstance(seg, Slot):
                parts.append(f"(?P<{prefix}{seg.var}{i}>-?\\d{{1,{MAX_DIGITS}}})")
            else:
                parts.append(f"(?P<{prefix}a{i}>{re.escape(seg.plural)}|{re.escape(seg.singular)})")
        return "".join(parts)

    def read(self, groups: Mapping[str, str | None], prefix: str = "") -> TemplateMatch:
        """Interpret the groups of a successful :meth:`regex` match."""
        values: dict[str, int] = {}
        conflicts = []
        for i, seg in enumerate(self.segments):
            if isinstance(seg, Slot):
                value = int(groups[f"{prefix}{seg.var}{i}"])
                if seg.var in values and values[seg.var] != value:
                    conflicts.append(f"{seg.var} is {values[seg.var]} in one place and {value} in another")
                values.setdefault(seg.var, value)
        disagreements = []
        for i, seg in enumerate(self.segments):
            if isinstance(seg, Agree) and seg.var in values:
                want = seg.singular if values[seg.var] == 1 else seg.plural
                got = groups[f"{prefix}a{i}"]
                if got != want:
                    disagreements.append(f"'{got}' should be '{want}' for {seg.var} = {values[seg.var]}")
        return TemplateMatch(values, tuple(disagreements), tuple(conflicts))

    def match(self, sentence: str) -> TemplateMatch | None:
        """Read a printed sentence (normalized first); ``None`` if the words differ."""
        m = self._compiled().fullmatch(normalize(sentence))
        return self.read(m.groupdict()) if m else None

    def _compiled(self) -> re.Pattern:
        pattern = _COMPILED.get(self)
        if pattern is None:
            pattern = _COMPILED[self] = re.compile(self.regex())
        return pattern


_COMPILED: dict[Template, re.Pattern] = {}


def parse_template(text: str, plurals: Mapping[str, str] | None = None, verbs: Mapping[str, str] | None = None) -> Template:
    """Parse a component text as the guide prints it; raises :class:`TemplateError`.

    ``plurals`` and ``verbs`` (plural → singular) are the words that agree with a variable,
    from the card-building system; without them no word agrees."""
    plurals = plurals or {}
    verbs = verbs or {}
    if not isinstance(text, str):
        raise TemplateError(f"a component text must be a string, not {type(text).__name__}")
    if text != text.strip():
        raise TemplateError("the text has leading or trailing spaces", 1)
    if not text:
        raise TemplateError("the text is empty", 1)
    tokens: list[tuple[str, str, int]] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        value = m.group(kind)
        if kind == "other" and value == "[":
            raise TemplateError("'[' without a closing ']'", m.start() + 1)
        if kind == "slot":
            if value not in _VARIABLES or len(value) != 1:
                raise TemplateError(
                    f"unknown variable [{value}]: texts use [x], [y] and [z]", m.start() + 1
                )
        tokens.append((kind, value, m.start() + 1))

    agree: dict[int, str] = {}  # token index → variable
    for i, (kind, value, _) in enumerate(tokens):
        if kind != "slot":
            continue
        words = [(j, tokens[j][1]) for j in range(i + 1, len(tokens)) if tokens[j][0] == "word"]
        following = [(j, w) for j, w in words if j < _next_boundary(tokens, i)]
        partitive = bool(following) and following[0][1] == "of"
        # "[x] level [y] pawns": a slot that qualifies the word before it ("level 3") leaves the
        # noun after it to the slot before that word, which counts it
        counted = value
        if i >= 4 and tokens[i - 2][0] == "word" and tokens[i - 4][0] == "slot" \
                and tokens[i - 1][1] == " " and tokens[i - 3][1] == " ":
            counted = tokens[i - 4][1]
        if not partitive:
            for j, w in following[:2]:
                if w in plurals:
                    agree[j] = counted
                    break
        for j, w in following:
            if w in verbs:
                agree.setdefault(j, value)
                break

    segments: list[Segment] = []
    lit: list[str] = []
    for i, (kind, value, _) in enumerate(tokens):
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


def _next_boundary(tokens: list[tuple[str, str, int]], i: int) -> int:
    """Index of the token ending the clause that starts after token ``i``."""
    for j in range(i + 1, len(tokens)):
        kind, value, _ = tokens[j]
        if kind == "slot" or (kind == "other" and any(c in _CLAUSE_END for c in value)):
            return j
    return len(tokens)
