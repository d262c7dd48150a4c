"""What of a guide's prose changed since the previous guide, and which keys of ``system:`` (or
``card_cost:``) each changed sentence touches, read from the section it stands in.  The system is
the maintainer's reading of the guide: the draft inherits it and quotes these sentences for review.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..documents.guide import Guide, Sentence, clean

__all__ = ["SYSTEM_KEYS", "ProseChange", "Review", "review", "brief", "agreeing_nouns"]

#: a guide section → the system keys (or ``card_cost``) its sentences state
SYSTEM_KEYS = {
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
    if sentence.section in SYSTEM_KEYS:
        keys += SYSTEM_KEYS[sentence.section]
    elif sentence.section in kind_sections:
        keys.append("kinds")
    if any(word in sentence.text.casefold() for word in _AGREEMENT):
        keys.append("agreement")
    return tuple(keys)


def review(guide: Guide, previous: Guide | None) -> Review:
    """The guide's prose, and (with the previous guide) what of it is new or gone."""
    prose = guide.prose()
    if previous is None:
        return Review(False, prose)
    kind_sections = {*guide.sections, *previous.sections}
    before = previous.prose()
    out = Review(True, prose)
    for status, said, other in (("new", prose, before), ("gone", before, prose)):
        texts = {clean(s.text) for s in other}
        out.changes += [ProseChange(s, status, keys_of(s, kind_sections)) for s in said if clean(s.text) not in texts]
    return out


def agreeing_nouns(texts: list[str], plurals: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Plural nouns after a variable in ``texts`` ("summon [x] pawns.") not yet among the words that
    agree with it (``plurals``): plural → (singular, the text)."""
    out: dict[str, tuple[str, str]] = {}
    for text in texts:
        for word in re.findall(r"\[[a-z]\] ([A-Za-z]+)\b", text):
            if word.endswith("s") and not word.endswith("ss") and word not in plurals and word not in out:
                out[word] = (word[:-1], text)
    return out
