"""The structure of a card's text, read against one edition's catalog: :func:`parse_card`.

Paragraphs (one per line), an optional ability name and sentences; each sentence, or each clause of one,
is read as a component (:mod:`.sentence`), each ability held against the system's card-writing rules
(:mod:`.writing`) and its order and count rules (an effect that needs ``t`` needs a target selection).
"""

from __future__ import annotations

import re
from typing import Any

from ..catalog import Catalog
from ..model import edition_number, ordinal
from ..system import System
from ..text import normalize, skeleton
from .fields import read_fields
from .model import Ability, ParsedCard, Reason, Use
from .sentence import CatalogReader, clauses, read_clauses, reader_of
from .unknown import elsewhere, unknown_text
from .writing import Placed, Writing

__all__ = ["parse_card", "split_paragraph"]

_NAME = re.compile(r"^(?P<name>[^:.;→()]+?)\s*:\s*(?P<rest>.*)$")  # (in capitals: any script's, "ÉCLAIR:")
_ANY_NAME = re.compile(r"^(?P<name>[^:.;→()]+?)\s*:\s*(?P<rest>.+)$")
_SENTENCE_END = re.compile(r"(?<=\.)\s+")
_ASIDE = re.compile(r"\s+(\([^()]*\))")  # words in parentheses after a space (not "card(s)")


def _count(ctype: Any) -> str:
    """ "exactly one ability", "1 to 3 abilities", "at least one ability" """
    lo, hi = ctype.abilities_min, ctype.abilities_max
    word = {1: "one"}.get
    if hi is not None and lo == hi:
        return f"exactly {word(lo, str(lo))} abilit{'y' if lo == 1 else 'ies'}"
    if hi is None:
        return f"at least {word(lo, str(lo))} abilit{'y' if lo == 1 else 'ies'}" if lo else "any number of abilities"
    return f"{lo} to {hi} abilities"


def _is_tutorial(sentence: str) -> bool:
    """Tutorial text: a sentence in parentheses (maybe in italics), which the level ignores."""
    s = sentence.strip().strip("*_").strip()
    return s.startswith("(") and s.endswith(")")


def parse_card(card: dict, catalog: Catalog, view: Any = None) -> tuple[ParsedCard | None, list[Reason], list[str]]:
    """Parse ``card``'s text against ``catalog``: ``(parsed or None, problems, notes)``; problems are
    ``malformed`` or ``unknown-text`` :class:`Reason`\\ s (field ``text[i]`` for paragraph i), and ``parsed``
    is ``None`` whenever there is one.  ``view`` (optional) says what an unknown sentence is elsewhere."""
    n = catalog.edition
    rule_sources = catalog.cost_rule.sources if catalog.cost_rule else ()
    system = catalog.system
    fields, field_problems = read_fields(card, system, n, aliases=view.type_aliases() if view is not None else None)
    field_problems = [p for p in field_problems if p.field in (None, "type", "text")]
    if field_problems or fields.type is None or fields.paragraphs is None:
        return None, field_problems, []
    if not catalog.catalog_known:
        return None, [Reason("unknown-fact", f"the component catalog of the {ordinal(n)} edition is not in the sources; the text cannot be read", n, catalog.declared.sources if catalog.declared else (), "text")], []

    problems: list[Reason] = []
    notes: list[str] = []
    warnings: list[Reason] = []
    prescribed: dict[int, str] = {}

    def malformed(message: str, fld: str | None = "text", sources: tuple[str, ...] | None = None,
                  instead: str | None = None) -> None:
        problems.append(Reason("malformed", message, n, rule_sources if sources is None else sources, fld, instead))

    paragraphs = fields.paragraphs
    ctype = system.card_type(fields.type)
    empty_texts = {t.empty_text: t.id for t in system.types if t.empty_text}
    if not paragraphs and not ctype.abilities_min and (not ctype.empty_text or ctype.empty_modal != "must"):
        return ParsedCard(None, [], False, None, ctype.empty_text), problems, notes  # no abilities, and nothing to say so
    if not paragraphs:
        malformed(
            f'the text is empty; a {ctype.id} without abilities says "{ctype.empty_text}"' if ctype.empty_text
            else f"the text is empty; a {ctype.id} has {_count(ctype)}",
            instead=ctype.empty_text,
        )
        return None, problems, notes

    reader = reader_of(catalog, view)
    joins = reader.card_joins(fields.edition)
    naming = system.naming
    card_part: Use | None = None
    card_part_line: int | None = None
    abilities: list[Ability] = []
    no_abilities_at: list[int] = []
    for position, (line, paragraph) in enumerate(paragraphs):
        fld = f"text[{line}]"
        where = f"paragraph {line}"
        name, sentences = split_paragraph(paragraph, naming.case if naming is not None else "upper")
        if normalize(paragraph) in empty_texts:
            no_abilities_at.append(line)
            continue
        if name is None and naming is not None and naming.case == "upper":
            miscased = _miscased_name(paragraph, reader)
            if miscased is not None:
                name, sentences = miscased
                malformed(f'{where}: the ability name "{name}" is not in all capital letters', fld, naming.sources,
                          paragraph.replace(name, name.upper(), 1))
        if not sentences:
            malformed(f"{where}: the ability {name!r} has no text", fld)
            continue
        sentence_placed: list[list[Placed]] = []
        italics: list[str] = []  # tutorial sentences to print in italics
        unreadable = False
        i = 0
        while i < len(sentences):
            placed: list[Placed] = []
            sentence_placed.append(placed)
            if _is_tutorial(sentences[i]):
                tutorial = system.tutorial
                if tutorial is None:
                    malformed(f'{where}: "{sentences[i]}" is tutorial text (in parentheses); the {ordinal(n)} edition\'s guide '
                              "has none: a card prints component texts only", fld, system.sources)
                    unreadable = True
                else:
                    notes.append(f'{where}: "{sentences[i]}" is tutorial text (in parentheses); it is not a component')
                    if tutorial.italics == "should" and not _in_italics(sentences[i]):
                        italics.append(sentences[i])
                i += 1
                continue
            # a component of two sentences (the 1st edition's counter effects) before one
            for span in (2, 1) if i + 1 < len(sentences) else (1,):
                raw = " ".join(sentences[i:i + span])
                use, sentence_problems = reader.read(raw)
                if use is not None:
                    break
            i += span
            if use is None and len(clauses(raw, joins.pattern)) > 1:
                # components that end in ":", ";" or "→" (an activation condition, a target
                # selection, the 12th's activation costs) share a sentence with what follows
                # them, as joined ones do (", then "): read the clauses, longest first
                clause_uses, raw, sentence_problems = read_clauses(raw, reader, joins)
                if clause_uses is not None:
                    for u, printed, sep in clause_uses:
                        placed.append(Placed(u, printed, sep if sep in joins.ends else None))
                        notes.extend(u.notes)
                    continue
                use = None
            if use is None:
                unreadable = True
                for message in sentence_problems:
                    malformed(f"{where}: {message}", fld)
                if not sentence_problems:
                    opening = name is None and len(sentence_placed) == 1  # (a name would be its first clause)
                    hint = _naming_hint(paragraph, normalize(raw), ctype, reader) if opening else ""
                    near, aside = _without_asides(normalize(raw), reader) if system.tutorial else (None, "")
                    problems.append(unknown_text(normalize(raw), reader, fld, rule_sources, aside or hint, near))
                continue
            placed.append(Placed(use, raw))
            notes.extend(use.notes)
        if unreadable:
            continue
        pieces = [p for sentence in sentence_placed for p in sentence]
        uses = [p.use for p in pieces]
        if len(pieces) == 1 and name is None and system.kind(uses[0].kind).place == "card":
            use = uses[0]
            kind = system.kind(use.kind)
            if kind.types and ctype.id not in kind.types:
                malformed(f'{where}: "{use.sentence}" is a {kind.noun}; only {" and ".join(t + "s" for t in kind.types)} have {kind.noun}s', fld)
            elif card_part is not None:
                malformed(f'{where}: a second {kind.noun} "{use.sentence}"; a {ctype.id} has at most one {kind.noun}', fld)
            elif position != 0:
                malformed(f'{where}: the {kind.noun} "{use.sentence}" must be the first paragraph of the text', fld)
            else:
                card_part, card_part_line = use, line
            continue
        alone = name is None and not any(sentence_placed)  # tutorial text in a paragraph of its own: no ability
        grammar, subs = ([], []) if alone else _ability_problems([s for s in sentence_placed if s], where, system)
        name_rule = naming.sources if naming is not None else system.sources
        if name is None and ctype.names == "required" and not alone:
            grammar.insert(0, f"{where}: a {ctype.id}'s abilities are named: the name in capitals and a colon first "
                              f'("GREED: Draw 2 cards.")')
        elif name is not None and naming is None:
            grammar.insert(0, f"{where}: the {ordinal(n)} edition's guide gives abilities no names (found {name!r})")
        elif name is not None and ctype.names == "none":
            named = [t.id + "s" for t in system.types if t.names != "none"]
            grammar.insert(0, f"{where}: a {ctype.id}'s ability has no name (found {name!r})"
                              + (f"; only {' and '.join(named)} name their abilities" if named else ""))
        for message in grammar:
            malformed(message, fld, name_rule if "name" in message else None)
        writing = Writing(system, joins.joins, pieces, subs)
        # an earlier wording that differs from the current text only by its capital ("Remove …": the 17th's
        # "remove …") is the current text where it opens its scope (capitalized as the guides say), and on a
        # card of this edition, which has no earlier wording to print: told the capitals rule elsewhere
        for k, p in enumerate(pieces):
            old, new = p.use.old_wording, str(p.state.text) if p.state is not None else ""
            if not (old and old[1:] == new[1:] and old[:1].lower() == new[:1]):
                continue
            if writing.scope[k][0] == k or (fields.edition is not None and fields.edition >= edition_number(n)):
                notes.remove(p.use.notes[-1])  # its "is an earlier wording" note
                p.use = p.use.replace(listed_upper=False)
        if not grammar:
            writing.check()
        text = writing.prescribed(paragraph)
        for tutorial_sentence in italics:
            text = (text or paragraph).replace(tutorial_sentence, f"*{tutorial_sentence}*", 1)
        if text is not None:
            prescribed[line] = text
        for message, sources in writing.problems:
            malformed(f"{where}: {message}", fld, sources, text)
        for code, message, sources in writing.warnings:
            warnings.append(Reason(code, f"{where}: {message}", n, sources, fld, text))
        for tutorial_sentence in italics:
            warnings.append(Reason("tutorial", f'{where}: "{tutorial_sentence}" is tutorial text: it should be rendered in '
                                               "italics (written *(…)*)", n, system.tutorial.sources, fld, text))
        if not alone:
            abilities.append(Ability(name, uses, line, [[p.use for p in sub] for sub in subs]))

    if no_abilities_at:
        fld = f"text[{no_abilities_at[0]}]"
        said = normalize(paragraphs[[line for line, _ in paragraphs].index(no_abilities_at[0])][1])
        if ctype.empty_text != said:
            malformed(f'a {ctype.id} has {_count(ctype)}; "{said}" is for {empty_texts[said]}s', fld)
        elif len(no_abilities_at) > 1 or abilities:
            malformed(f'"{said}" stands alone: this card also has ' + ("abilities" if abilities else "it twice"), fld)
    if not no_abilities_at and not any(p.field and p.field.startswith("text[") for p in problems):
        too_many = ctype.abilities_max is not None and len(abilities) > ctype.abilities_max
        if too_many or len(abilities) < ctype.abilities_min:
            malformed(f"a {ctype.id} has {_count(ctype)} (one paragraph each), this one has {len(abilities)}")
    if ctype.empty_text and ctype.empty_modal == "must" and not abilities and not no_abilities_at and not problems:
        text = "\n".join([p for _, p in paragraphs] + [ctype.empty_text])
        malformed(f'the {ctype.id} has no abilities; a {ctype.id} without abilities says "{ctype.empty_text}"', "text",
                  system.sources, text)
    if problems:
        return None, problems, notes
    return ParsedCard(card_part, abilities, bool(no_abilities_at), card_part_line, ctype.empty_text, warnings,
                      prescribed), problems, notes


def _in_italics(sentence: str) -> bool:
    """Whether a sentence is written in italics (``*…*`` or ``_…_``)."""
    s = sentence.strip()
    return len(s) > 2 and s[0] == s[-1] and s[0] in "*_"


def _miscased_name(paragraph: str, reader: CatalogReader) -> tuple[str, list[str]] | None:
    """A paragraph that opens with a name not in capitals ("Healing: Draw 1 card."): the name and the
    sentences after it, when what follows the name reads and the paragraph as printed does not."""
    m = _ANY_NAME.match(paragraph)
    name = m.group("name") if m is not None else ""
    if not _name_like(name) or name.isupper() or _in_other_letters(name + ":", reader):
        return None
    rest = [s.strip() for s in _SENTENCE_END.split(m.group("rest").strip()) if s.strip()]
    first = [s.strip() for s in _SENTENCE_END.split(paragraph.strip()) if s.strip()][0]
    # (read first: a paragraph that reads as printed — "When you take damage: Draw 1 card." — has no name)
    if not rest or _reads(first, reader) or _reads(clauses(first)[0][0], reader):
        return None
    if not _reads(rest[0], reader) and not _reads(clauses(rest[0])[0][0], reader):
        return None
    view = reader.view
    if view is not None and elsewhere(normalize(name) + ":", reader.catalog.edition, view) is not None:
        return None  # another edition's text ("When you take at least 5 damage:" in the 11-pre), not a name
    return name.strip(), rest


def _name_like(name: str) -> bool:
    """Whether what stands before a paragraph's first colon may be an ability's name: a few words, letters, no digits."""
    return any(c.isalpha() for c in name) and not any(c.isdigit() for c in name) and len(name.split()) <= 4


def _naming_hint(paragraph: str, unknown: str, ctype: Any, reader: CatalogReader) -> str:
    """What to say of an unknown text that opens a paragraph as a name would ("guard:"), in the words of
    the system's naming; "" when it is not such a text, or another edition's ("Summon cost: …")."""
    m = _ANY_NAME.match(paragraph)
    if m is None or normalize(m.group("name")) + ":" != unknown or not _name_like(m.group("name")):
        return ""
    n, view = reader.catalog.edition, reader.view
    first = normalize(_SENTENCE_END.split(paragraph.strip(), 1)[0])
    if view is not None and elsewhere(first, n, view) is not None:
        return ""
    system = reader.catalog.system
    name = m.group("name").strip()
    naming = system.naming
    if _in_other_letters(unknown, reader):
        return ""  # a component text in other letters ("when you take damage:"): no name
    if naming is None:
        return f'If "{name}" names the ability: the {ordinal(n)} edition\'s guide gives abilities no names.'
    if ctype.names == "none":
        named = [t.id + "s" for t in system.types if t.names != "none"]
        return (f'If "{name}" names the ability: a {ctype.id}\'s ability has no name'
                + (f"; only {' and '.join(named)} name their abilities." if named else "."))
    if naming.case == "upper" and not name.isupper():
        return (f'If "{name}" names the ability, print it in capital letters, "{name.upper()}:", as the {ordinal(n)} '
                f"edition's guide says: “{naming.quote}”" + ("" if naming.quote[-1:] in ".!?" else "."))
    return ""


def _in_other_letters(text: str, reader: CatalogReader) -> bool:
    """Whether ``text`` is a component text of the catalog printed in other letter case ("when you take
    damage:", "When You Take Damage:"): a misprinted text, which no name is."""
    key = skeleton(text).lower()
    return any(k.lower() == key for k in reader.index)


def _without_asides(sentence: str, reader: CatalogReader) -> tuple[str | None, str]:
    """An unknown sentence with the asides in parentheses that no component prints taken out (tutorial text
    inside it: "Draw 2 cards (…)."), and what to say where it then reads; ``(None, "")`` for none."""
    texts = [str(c.text).lower() for c in reader.catalog.components or ()]
    asides = [m for m in _ASIDE.finditer(sentence) if not any(m[1].lower() in t for t in texts)]
    if not asides:
        return None, ""
    spans = {m.span() for m in asides}
    bare = _ASIDE.sub(lambda m: "" if m.span() in spans else m[0], sentence)
    use = reader.read(bare)[0]
    if use is None:
        return bare, ""
    quoted = " and ".join(f'"{m[1]}"' for m in asides)
    return bare, (f'Without {quoted} it reads "{use.sentence}": tutorial text is read only as a sentence of its own '
                  "in parentheses, not inside a component's text.")


def _reads(sentence: str, reader: CatalogReader) -> bool:
    """Whether a sentence (or a first clause: "When you take damage:") is a component text."""
    return reader.read(sentence)[0] is not None


def split_paragraph(paragraph: str, case: str = "upper") -> tuple[str | None, list[str]]:
    """``(ability name or None, sentences)`` of one paragraph, sentences as printed; a name as the
    system's naming writes one: in capitals (``case`` "upper"), or in any case ("any", the 5th's)."""
    name = None
    m = (_ANY_NAME if case == "any" else _NAME).match(paragraph)
    if m and any(c.isalpha() for c in m.group("name")) and (case == "any" or m.group("name").isupper()):
        name, paragraph = m.group("name").strip(), m.group("rest")
    return name, [s.strip() for s in _SENTENCE_END.split(paragraph.strip()) if s.strip()]


def _order_problems(uses: list[Use], where: str, system: System, place: str = "ability",
                    below: list[Use] | None = None) -> list[str]:
    """The grammar of one ability (``place`` "ability") or sub-ability: its kinds in order, each as often
    as the system says; a component here or ``below`` needing a variable (``t``) needs the kind that sets it."""
    problems = []
    order = system.ability if place == "ability" else system.sub_ability
    whole = "an ability" if place == "ability" else "a sub-ability"
    rank = {k: i for i, k in enumerate(order)}
    noun = system.noun
    seen: dict[str, list[Use]] = {}
    last: Use | None = None
    for u in uses:
        kind = system.kind(u.kind)
        if kind.place == "card":
            problems.append(f'{where}: the {kind.noun} "{u.sentence}" must stand alone as a paragraph of its own')
            continue
        if kind.max is not None and len(seen.get(u.kind, ())) >= kind.max:
            first = seen[u.kind][0]
            problems.append(
                f'{where}: two {kind.noun}s ("{first.sentence}" and "{u.sentence}"); {whole} has at most {kind.max}'
            )
        elif last is not None and rank[u.kind] < rank[last.kind]:
            order_text = _kinds_text(system, order)
            problems.append(
                f'{where}: the {kind.noun} "{u.sentence}" comes after the {noun(last.kind)} '
                f'"{last.sentence}"; the order is {order_text}'
            )
        seen.setdefault(u.kind, []).append(u)
        last = u
    for kid in order:
        kind = system.kind(kid)
        if kind.min and len(seen.get(kid, ())) < kind.min:
            problems.append(f"{where}: {whole} needs at least one {kind.noun}")
    for var, setter in system.set_variables.items():
        if setter.place != place or setter.default is not None or setter.absent or setter.id in seen:
            continue
        for u in uses + (below or []):
            if u.state is not None and u.state.formula is not None and var in u.state.formula.variables and u.kind != setter.id:
                acts = "acts on targets (" if var == "t" else "("
                problems.append(
                    f'{where}: the {noun(u.kind)} "{u.sentence}" {acts}its cost {u.state.formula.notation()} '
                    f"depends on {var}) but {whole} has no {setter.noun}"
                )
    return problems


def _ability_problems(sentences: list[list[Use]], where: str, system: System) -> tuple[list[str], list[list[Use]]]:
    """The grammar of one ability paragraph read as ``sentences`` of uses, and its sub-abilities: where the
    system has them, the ability's own kinds first, then one sub-ability per sentence."""
    uses = [u for sentence in sentences for u in sentence]
    if not system.sub_ability:
        return _order_problems(uses, where, system), []
    problems: list[str] = []
    own: list[Use] = []
    subs: list[list[Use]] = []
    for sentence in sentences:
        sub = []
        for u in sentence:
            place = system.kind(u.kind).place
            if place == "sub_ability":
                sub.append(u)
            elif subs or sub:
                before = (sub or subs[-1])[-1]
                problems.append(f'{where}: the {system.noun(u.kind)} "{u.sentence}" comes after the '
                                f'{system.noun(before.kind)} "{before.sentence}"; '
                                f"{_layout(system)}")
            else:
                own.append(u)
        if sub:
            subs.append(sub)
        elif sentence and not problems:
            problems.append(f'{where}: "{sentence[-1].sentence}" ends a sentence without a sub-ability; {_layout(system)}')
    problems.extend(_order_problems(own, where, system, "ability", [u for sub in subs for u in sub]))
    if not subs and not problems:
        problems.append(f"{where}: an ability needs at least one sub-ability; {_layout(system)}")
    for i, sub in enumerate(subs, 1):
        problems.extend(_order_problems(sub, f"{where}, sub-ability {i}", system, "sub_ability"))
    return problems, subs


def _kinds_text(system: System, order: tuple[str, ...]) -> str:
    """ "activation condition, activation costs" — the kinds in order, plural where any number may stand """
    return ", ".join(system.noun(k) + ("s" if system.kind(k).max != 1 else "") for k in order)


def _layout(system: System) -> str:
    """ "an ability is: activation condition, activation costs, then sub-abilities (target selection, effects), one sentence each" """
    return (f"an ability is: {_kinds_text(system, system.ability)}, then sub-abilities "
            f"({_kinds_text(system, system.sub_ability)}), each sub-ability one sentence")

