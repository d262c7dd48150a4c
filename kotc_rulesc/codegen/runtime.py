"""Run-time support for the generated Keeper of the Cards tables: standard library only.

The edition modules (``edition_NN``) and the migration passes (``passes.step_NN_MM``)
are plain data built from the small classes here.  A game engine, a bot or a web
backend can copy the package and use it without kotc-rulesc:

    >>> from kotc_tables import edition
    >>> ed = edition(11)
    >>> draw = ed.BY_ID["effect-draw"]
    >>> draw.text.render({"x": 1})
    'Draw 1 card.'
    >>> draw.text.match("Draw 3 cards.").values
    {'x': 3}
    >>> draw.cost({"x": 3})
    Fraction(6, 1)

Texts match normalized sentences (straight quotes, single spaces); a singular or
plural form that does not agree with its number is read all the same and reported
in ``Match.disagreements``.
"""

from __future__ import annotations

import re
from collections import namedtuple
from fractions import Fraction

__all__ = [
    "Agree",
    "Ban",
    "Component",
    "CostChange",
    "CostHistory",
    "CostRule",
    "Declared",
    "CardType",
    "Disagreement",
    "Kind",
    "LimitChange",
    "LimitHistory",
    "Match",
    "Range",
    "Reinstated",
    "Reinstatement",
    "Rewrite",
    "RulePart",
    "Rulebook",
    "Slot",
    "Stat",
    "Step",
    "Successor",
    "System",
    "Text",
    "When",
    "Wording",
    "normalize",
    "var",
]

_QUOTES = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "}
)
_SPACES = re.compile(r"\s+")
_NO_SPACE = re.compile(r" (?=[.,;:)])|(?<=\() ")


def normalize(text):
    """Straight quotes, single spaces, no space before punctuation, trimmed."""
    text = _SPACES.sub(" ", text.translate(_QUOTES)).strip()
    return _NO_SPACE.sub("", text)


# --------------------------------------------------------------------------- texts

#: ``[x]`` in a text
Slot = namedtuple("Slot", "var")
#: a word that agrees with a variable: ``singular`` when its value is 1, else ``plural``
Agree = namedtuple("Agree", "var plural singular")
#: a printed sentence read back: values, and any wrong singular/plural forms or conflicts
Match = namedtuple("Match", "values disagreements conflicts")


class Text:
    """A component wording: canonical ``text`` (``[x]`` as printed in the guide), its
    ``segments`` (strings, :data:`Slot` and :data:`Agree`), the ``regex`` source reading a
    normalized printed sentence, and its look-up ``skeleton``."""

    __slots__ = ("text", "segments", "regex", "skeleton", "_pattern")

    def __init__(self, text, segments, regex, skeleton):
        self.text = text
        self.segments = segments
        self.regex = regex
        self.skeleton = skeleton
        self._pattern = None

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"Text({self.text!r})"

    def __eq__(self, other):
        return isinstance(other, Text) and self.segments == other.segments

    def __hash__(self):
        return hash(self.segments)

    @property
    def variables(self):
        """The variables in order of first appearance."""
        seen = []
        for seg in self.segments:
            if isinstance(seg, Slot) and seg.var not in seen:
                seen.append(seg.var)
        return tuple(seen)

    @property
    def pattern(self):
        """The compiled matcher (compiled on first use)."""
        if self._pattern is None:
            self._pattern = re.compile(self.regex)
        return self._pattern

    def render(self, values):
        """The concrete sentence for ``values``, with singular forms where a value is 1."""
        out = []
        for seg in self.segments:
            if isinstance(seg, Slot):
                out.append(str(values[seg.var]))
            elif isinstance(seg, Agree):
                out.append(seg.singular if values[seg.var] == 1 else seg.plural)
            else:
                out.append(seg)
        return "".join(out)

    def read(self, groups):
        """Interpret the groups of a successful match of :attr:`pattern`."""
        values = {}
        conflicts = []
        for i, seg in enumerate(self.segments):
            if isinstance(seg, Slot):
                value = int(groups[f"{seg.var}{i}"])
                if seg.var in values and values[seg.var] != value:
                    conflicts.append(
                        f"{seg.var} is {values[seg.var]} in one place and {value} in another"
                    )
                values.setdefault(seg.var, value)
        disagreements = []
        for i, seg in enumerate(self.segments):
            if isinstance(seg, Agree) and seg.var in values:
                want = seg.singular if values[seg.var] == 1 else seg.plural
                got = groups[f"a{i}"]
                if got != want:
                    disagreements.append(
                        f"'{got}' should be '{want}' for {seg.var} = {values[seg.var]}"
                    )
        return Match(values, tuple(disagreements), tuple(conflicts))

    def match(self, sentence):
        """Read a printed sentence (normalized first); ``None`` if its words differ."""
        m = self.pattern.fullmatch(normalize(sentence))
        return self.read(m.groupdict()) if m else None


# --------------------------------------------------------------------------- formulas


def var(env, name):
    """The value of a formula variable: a Fraction (or a list, for ``sum``); never a float."""
    try:
        value = env[name]
    except KeyError:
        raise KeyError(f"formula variable {name!r} has no value") from None
    if isinstance(value, float):
        raise TypeError(f"variable {name!r} is a float; formulas evaluate exactly")
    return value if isinstance(value, (list, tuple)) else Fraction(value)


# --------------------------------------------------------------------------- editions

#: when an event happened: ``edition`` (None: unknown, at or before ``by``, after ``after``)
When = namedtuple("When", "edition by after")
#: a component in one edition; ``formula`` is the guide notation and ``cost`` its function
#: (both None when unknown); ``limits`` maps a variable to its maximum (None: unknown)
Component = namedtuple(
    "Component",
    "id kind text formula cost limits status redacted wordings cost_changes limit_changes"
    " sources replacement replacement_binds reinstated disagreements",
)
#: the card-building system: card types, component kinds, ability order, the figure
System = namedtuple("System", "edition sources figure figure_title types kinds ability sub_ability")
#: a card type and the stats it prints
CardType = namedtuple("CardType", "id stats abilities_min abilities_max empty_text names")
#: a printed stat with its range (None: no bound)
Stat = namedtuple("Stat", "name min max")
#: a kind of component: its section, its noun, what its formula does, where it goes
Kind = namedtuple("Kind", "id title noun role place types max min variable default end joins")
#: a redaction an edition of the line lifted: (redacted when, reinstated when, sources, note)
Reinstatement = namedtuple("Reinstatement", "redacted reinstated sources note")
#: two documents that disagree, recorded (and shown), never silently resolved
Disagreement = namedtuple("Disagreement", "edition note sources component")
#: an earlier wording, still read as the current one (``binds``: the values it stands for)
Wording = namedtuple("Wording", "text binds replaced_in replaced_by step_binds sources")
#: a cost revision so far: formulas in guide notation (None: unknown)
CostHistory = namedtuple("CostHistory", "when was now sources")
#: a limit revision so far
LimitHistory = namedtuple("LimitHistory", "when was now sources")
#: a rulebook range (None: not stated)
Range = namedtuple("Range", "min max recommended")
#: the rulebook parameters one rulebook states (None or empty where it is silent)
Rulebook = namedtuple(
    "Rulebook",
    "edition sources players deck reserves starting_hand starting_hitpoints edition_indicator"
    " terms zones ability_layout keywords notes",
)
#: one named formula of the card-cost rule: guide notation and its function
RulePart = namedtuple("RulePart", "notation function")
#: the card-cost rule and the edition whose documents state it: (name, RulePart) pairs in order
CostRule = namedtuple("CostRule", "edition sources formulas")
#: a clean slate's successor: cards using ``component`` may use ``successor`` instead
Successor = namedtuple("Successor", "component successor binds sources")
#: the edition's own rules file, if it has one (its events are in the passes)
Declared = namedtuple(
    "Declared",
    "file base follows pre_release sources clean_slate catalog_known catalog_whole notes name",
)


# --------------------------------------------------------------------------- passes


class Rewrite(namedtuple("Rewrite", "component kind old new binds edition by sources")):
    """Old wording → new wording of one component; ``binds`` are the values the old wording
    stands for.  Applying it to its own output changes nothing."""

    __slots__ = ()

    def apply(self, sentence):
        """The rewritten sentence, or ``None`` when ``sentence`` is not the old wording."""
        m = self.old.match(sentence)
        if m is None or m.conflicts:
            return None
        return self.new.render({**m.values, **self.binds})


#: a component redacted by the step
Ban = namedtuple("Ban", "component text edition by sources replacement replacement_binds")
#: a cost revision made by the step (formulas in guide notation; None: unknown)
CostChange = namedtuple("CostChange", "component text was now edition by sources")
#: a limit revision made by the step
LimitChange = namedtuple("LimitChange", "component text was now edition by sources")
#: a component an earlier edition redacted, legal again from this step on
Reinstated = namedtuple("Reinstated", "component text sources note")


class Step(
    namedtuple(
        "Step",
        "source target rewrites bans cost_changes limit_changes clean_slate catalog_known"
        " successors reinstated",
    )
):
    """Everything the step ``source → target`` does to a card."""

    __slots__ = ()

    def rewrite(self, sentence):
        """Apply the first rewrite that matches: ``(sentence, rewrite used or None)``."""
        sentence = normalize(sentence)
        for rw in self.rewrites:
            new = rw.apply(sentence)
            if new is not None:
                return new, rw
        return sentence, None
