"""What of a guide's prose changed since the previous guide, and which keys of the card-building
system (``system:``) or the level rule (``card_cost:``) each changed sentence touches.

The system is the maintainer's reading of the guide's rules, not something a reader can draw
from them; the draft inherits it and quotes, beside the keys, every sentence that is new or gone,
marked for review.  Which key a sentence touches is read from the section it stands in: the
guide's introduction states the card types, "Constructing Abilities" the grammar of an ability,
each kind's section that kind (and how its texts agree with a number), "Level" the level rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..documents.guide import Guide, Sentence, clean

__all__ = ["SECTION_KEYS", "ProseChange", "Review", "review", "brief", "agreeing_nouns"]

#: a guide section → the system keys (or ``card_cost``) its sentences state
SECTION_KEYS = {
    "Design Instructions": ("types", "figure"),
    "Constructing Abilities": ("ability", "sub_ability", "kinds"),
    "Level": ("card_cost",),
}
#: words that say a sentence is about how a text agrees with its number (system.agreement)
_AGREEMENT = ("singular", "substitution", "replaced with")


def brief(text: str, limit: int = 200) -> str:
    """A quotation kept brief: the sentence, or its first words and an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + " …"


@dataclass(frozen=True)
class ProseChange:
    sentence: Sentence
    status: str  # "new" (not in the previous guide) or "gone" (in the previous guide only)
    keys: tuple[str, ...]  # the system keys (or "card_cost") it touches; () for none


@dataclass
class Review:
    """The guide's prose against the previous guide's (``compared`` False: no previous guide given)."""

    compared: bool
    prose: list[Sentence]
    changes: list[ProseChange] = field(default_factory=list)
    unchanged: set[str] = field(default_factory=set)  # the clean texts of sentences the previous guide has too

    def by_keys(self) -> list[tuple[tuple[str, ...], list[ProseChange]]]:
        """The changed sentences grouped by the keys they touch: keys whose sentences are the same
        share a group (the introduction states both `types` and `figure`)."""
        groups: dict[tuple[int, ...], tuple[list[str], list[ProseChange]]] = {}
        for key, changes in self.by_key().items():
            sig = tuple(sorted(id(c) for c in changes))
            groups.setdefault(sig, ([], changes))[0].append(key)
        return [(tuple(keys), changes) for keys, changes in groups.values()]

    def by_key(self) -> dict[str, list[ProseChange]]:
        """The changed sentences by the key they touch (a sentence printed twice, once)."""
        out: dict[str, list[ProseChange]] = {}
        for change in self.changes:
            for key in change.keys:
                if all((c.status, clean(c.sentence.text)) != (change.status, clean(change.sentence.text)) for c in out.get(key, ())):
                    out.setdefault(key, []).append(change)
        return out

    def section_unchanged(self, title: str) -> bool:
        """Is every sentence of the section ``title`` the previous guide's, and none gone?"""
        return self.compared and not any(title in c.sentence.path for c in self.changes)


def keys_of(sentence: Sentence, kind_sections: set[str]) -> tuple[str, ...]:
    """The system keys a sentence touches, by the section it stands in."""
    keys: list[str] = []
    if sentence.section in SECTION_KEYS:
        keys += SECTION_KEYS[sentence.section]
    elif sentence.section in kind_sections:
        keys.append("kinds")
    if any(word in sentence.text.casefold() for word in _AGREEMENT):
        keys.append("agreement")
    return tuple(dict.fromkeys(keys))


def review(guide: Guide, previous: Guide | None) -> Review:
    """The guide's prose, and (with the previous guide) what of it is new or gone."""
    prose = guide.prose()
    if previous is None:
        return Review(False, prose)
    kind_sections = {s for s in guide.sections} | {s for s in previous.sections}
    before = previous.prose()
    now_texts = {clean(s.text) for s in prose}
    then_texts = {clean(s.text) for s in before}
    out = Review(True, prose, unchanged=now_texts & then_texts)
    for s in prose:
        if clean(s.text) not in then_texts:
            out.changes.append(ProseChange(s, "new", keys_of(s, kind_sections)))
    for s in before:
        if clean(s.text) not in now_texts:
            out.changes.append(ProseChange(s, "gone", keys_of(s, kind_sections)))
    return out


def agreeing_nouns(texts: list[str], plurals: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Plural nouns that follow a variable in ``texts`` ("summon [x] level [y] pawns.") and are not
    yet among the words that agree (``plurals``, the system's ``agreement.nouns``): plural →
    (singular, the text).  "If a number is never greater than 1, other words which refer to that
    number should be changed to singular." (the 12th–17th guides)"""
    out: dict[str, tuple[str, str]] = {}
    for text in texts:
        for word in re.findall(r"\[[a-z]\] ([A-Za-z]+)\b", text):
            if word.endswith("s") and not word.endswith("ss") and word not in plurals and word not in out:
                out[word] = (word[:-1], text)
    return out
