"""Read a card's printed text against one edition's component catalog.

The text is split into paragraphs (one per line), an optional ability name
(``NAME:`` in capitals), and sentences (a sentence ends with a period; no
component contains ". ", while many contain ";" and ","), and each sentence is
matched to a component: its *skeleton* (numbers masked, see
:func:`kotc_rulesc.text.skeleton`; a template is indexed under one per singular/plural
form of its agreeing words) finds the candidates in one dictionary look-up — the
components' current wordings and their earlier wordings — and
:meth:`~kotc_rulesc.text.Template.match` reads the values.

* An earlier wording is legal and reads as the current one (with the values the
  revision bound, "Activate when you take damage." → x = 5); a note says so.
* A wrong singular/plural form and typographic quotes or spacing are forgiven
  with a note; a different word never is.
* A sentence that matches nothing is an ``unknown-text`` problem naming the
  closest components of the edition and, when the sentence is a component of
  another edition, what became of it.

Then the order and count rules of the edition's card-building system apply (the
system's kinds, their counts and order, card types): e.g. in the 1st–10th a caveat
only as a creature's first paragraph (at most one); per ability an optional
activation condition, activation cost and target selection, then one or more
effects, in that order; a spell has exactly one ability; "This card has no
abilities." stands alone.  An effect whose cost depends on the target selection
(``t``) needs one in its ability: without it the card is malformed rather than
costed with ``t = 0``.
"""

from __future__ import annotations

import functools
import heapq
import re
from typing import Any

from ..catalog import Catalog, ComponentState
from ..changes import Wording
from ..memo import Memo
from ..model import EditionKey, System, edition_number, is_pre_release, ordinal
from ..record import record
from ..text import Template, normalize, opening_forms, skeleton
from .fields import read_fields
from .model import Ability, ParsedCard, Reason, Use, when_phrase

__all__ = ["parse_card", "read_sentence", "split_paragraph"]

_NAME = re.compile(r"^(?P<name>[A-Z0-9][A-Z0-9 '\u2019&,!?\-]*?)\s*:\s*(?P<rest>.*)$")
_SENTENCE_END = re.compile(r"(?<=\.)\s+")
_CLAUSE_END = re.compile(r"(?<=[:;])\s+|(?<=→)\s*")


def _count(ctype: Any) -> str:
    """ "exactly one ability", "1 to 3 abilities", "at least one ability" """
    lo, hi = ctype.abilities_min, ctype.abilities_max
    word = {1: "one"}.get
    if hi is not None and lo == hi:
        return f"exactly {word(lo, str(lo))} abilit{'y' if lo == 1 else 'ies'}"
    if hi is None:
        return f"at least {word(lo, str(lo))} abilit{'y' if lo == 1 else 'ies'}" if lo else "any number of abilities"
    return f"{lo} to {hi} abilities"


def type_aliases(view: Any) -> dict[str, str]:
    """Other editions' words for a card type ("minion" for creature and back), from their rulebooks'
    terms (:func:`kotc_rulesc.model.term_aliases`; the view keeps them, the tables compiled)."""
    return view.type_aliases()


def _is_tutorial(sentence: str) -> bool:
    """Tutorial text: a sentence in parentheses (maybe in italics), which the level ignores."""
    s = sentence.strip().strip("*_").strip()
    return s.startswith("(") and s.endswith(")")


def _joins(system: System | None) -> dict[str, tuple[str, ...]]:
    """What joins two components (", also ") → the end marks it replaces ("→", ".")."""
    out: dict[str, tuple[str, ...]] = {}
    for k in system.kinds if system is not None else ():
        for j in k.joins:
            out[j] = tuple(dict.fromkeys(out.get(j, ()) + (k.end,)))
    return out


def _card_joins(catalog: Catalog, design: int | None, view: Any) -> dict[str, tuple[str, ...]]:
    """The joins a card may print: its edition's, and where the rulebook keeps a card as its design
    edition made it (``exhaustive_lists``: only its lists refurbish or prune a card) those of the
    editions from its design edition on (the 13th's ", also " between activation costs, which the 14th
    made " and ")."""
    joins = _joins(catalog.system)
    rulebook = catalog.rulebook
    if view is None or rulebook is None or not rulebook.exhaustive_lists or design is None or design >= catalog.number:
        return joins
    if design not in view.keys or (catalog.clean_slate is not None and design < catalog.clean_slate):
        return joins
    key = (id(view), catalog.edition, design)
    cached = _CARD_JOINS.get(key)
    if cached is not None and cached[0] is view:
        return dict(cached[1])
    for p in view.path(design, catalog.edition) or ():
        for join, ends in _joins(view.catalog(p.source).system).items():
            joins[join] = tuple(dict.fromkeys(joins.get(join, ()) + ends))
    _CARD_JOINS[key] = (view, dict(joins))
    return joins


_CARD_JOINS: dict[tuple[int, Any, int], tuple[Any, dict[str, tuple[str, ...]]]] = {}


def _clauses(sentence: str, joins: dict[str, tuple[str, ...]]) -> list[tuple[str, str]]:
    """The clauses of a sentence, each with the separator that follows it (a space after ":",
    ";" or "→", or a join such as ", also " that replaced the clause's end mark)."""
    out: list[tuple[str, str]] = []
    pos = 0
    for m in _clause_pattern(tuple(joins)).finditer(sentence):
        if m.end() == pos or m.start() == len(sentence):
            continue
        out.append((sentence[pos:m.start()], m.group(0)))
        pos = m.end()
    out.append((sentence[pos:], ""))
    return [(c, sep) for c, sep in out if c]


@functools.lru_cache(maxsize=256)
def _clause_pattern(joins: tuple[str, ...]) -> re.Pattern:
    """What ends a clause: ":", ";" or "→" and the space after it, or one of ``joins`` (longest first)."""
    return re.compile(_CLAUSE_END.pattern + "".join("|" + re.escape(j) for j in sorted(joins, key=len, reverse=True)))


def _read_clauses(sentence: str, catalog: Catalog, view: Any,
                  joins: dict[str, tuple[str, ...]]) -> tuple[list[Use] | None, str, list[str]]:
    """The uses of a sentence made of several components, each ending in ":", ";", "→" or "."
    or joined to the next by one of ``joins`` (", also " in place of the end mark);
    or (None, the first clause no component reads, its problems).  Longest spans first: a
    component may itself contain ";" or ":"."""
    clauses = _clauses(sentence, joins)
    longest = _most_clauses(catalog, joins)
    uses: list[Use] = []
    seps: list[str] = []  # what follows each use
    i = 0
    while i < len(clauses):
        for span in range(min(len(clauses) - i, longest), 0, -1):
            raw = "".join(c + sep for c, sep in clauses[i:i + span - 1]) + clauses[i + span - 1][0]
            last_sep = clauses[i + span - 1][1]
            use, problems = None, []
            # after another component a text the guide prints capitalized ("Draw [x] cards.", the
            # 11th's) starts lowercase: ", then draw 2 cards."
            forms = [raw] + ([raw[0].upper() + raw[1:]] if i > 0 and raw[:1].islower() else [])
            for form in forms:
                for end in joins.get(last_sep, ("",)):
                    use, problems = read_sentence(form + end, catalog, view)
                    if use is not None:
                        break
                if use is not None:
                    break
            if use is not None:
                break
        if use is None:
            return None, clauses[i][0], problems
        uses.append(use)
        seps.append(last_sep)
        i += span
    return uses, sentence, _series_problems(uses, seps, catalog.system)


def _series_problems(uses: list[Use], seps: list[str], system: System | None) -> list[str]:
    """A kind whose joins make a coordinated list (the 14th's costs: "A and B→", "A, B, and C→")
    must use each join where the list puts it: ``two`` for two, ``between`` … ``last`` for more."""
    out: list[str] = []
    i = 0
    while i < len(uses):
        kind = system.kind(uses[i].kind) if system is not None else None
        j = i
        while kind is not None and j + 1 < len(uses) and uses[j + 1].kind == kind.id and seps[j] in kind.joins:
            j += 1
        if kind is not None and kind.series and j > i:
            two, between, last = kind.series
            used = seps[i:j]
            want = [two] if len(used) == 1 else [between] * (len(used) - 1) + [last]
            if used != want:
                count = len(used) + 1
                rule = (f"two are joined with {two!r}" if count == 2
                        else f"{count} are joined with {between!r}, the last two with {last!r}")
                out.append(f"{count} {kind.noun}s joined with {', '.join(repr(x) for x in used)}: {rule}")
        i = j + 1
    return out


# --------------------------------------------------------------------------- the look-up index


@record(frozen=True)
class _Entry:
    comp: ComponentState
    template: Template  # the wording this entry matches (current or earlier)
    binds: dict[str, int]  # values an earlier wording stands for in the current text
    wording: Wording | None  # None: the current wording


_INDEXES: dict[int, tuple[Catalog, dict[str, list[_Entry]]]] = {}


def _most_clauses(catalog: Catalog, joins: dict[str, tuple[str, ...]]) -> int:
    """The most clauses one component text of the catalog (any wording) spans, read with ``joins``
    (its own ", " or ": " inside): no longer span of a sentence can be one component."""
    key = (id(catalog), tuple(sorted(joins)))
    cached = _MOST_CLAUSES.get(key)
    if cached is not None and cached[0] is catalog:
        return cached[1]
    most = max((len(_clauses(str(entry.template), joins)) for entries in _index(catalog).values() for entry in entries),
               default=1)
    _MOST_CLAUSES[key] = (catalog, most)
    return most


_MOST_CLAUSES: dict[tuple[int, tuple[str, ...]], tuple[Catalog, int]] = {}


def _index(catalog: Catalog) -> dict[str, list[_Entry]]:
    """skeleton → entries, built once per catalog (current wordings before earlier ones)."""
    cached = _INDEXES.get(id(catalog))
    if cached is not None and cached[0] is catalog:
        return cached[1]
    index: dict[str, list[_Entry]] = {}
    for comp in catalog.components or ():
        for key in comp.text.skeletons():
            index.setdefault(key, []).append(_Entry(comp, comp.text, {}, None))
    for comp in catalog.components or ():
        for w in comp.wordings:
            for key in w.text.skeletons():
                index.setdefault(key, []).append(_Entry(comp, w.text, dict(w.binds), w))
    _INDEXES[id(catalog)] = (catalog, index)
    return index


def _lookup(sentence: str, catalog: Catalog):
    """The first entry whose template reads ``sentence``, with its match (or ``(None, None)``)."""
    for entry in _index(catalog).get(skeleton(sentence), ()):
        m = entry.template.match(sentence)
        if m is not None:
            return entry, m
    return None, None


def _lookup_opening(sentence: str, catalog: Catalog):
    """:func:`_lookup` of the sentence as printed, or of it with its opening letter lowercase."""
    for form in opening_forms(sentence):
        entry, m = _lookup(form, catalog)
        if entry is not None:
            return entry, m
    return None, None


# --------------------------------------------------------------------------- one sentence


def _later_binds(comp_id: str, wording: Template, view: Any) -> dict[str, int]:
    """Values a wording stands for through the revisions that follow it (in later editions).

    A formula may use a variable that only a later wording has ("Activate when you take
    damage." costs x/5, and a later revision binds x = 5); the fold of an edition before
    that revision does not carry the binds, the passes do."""
    binds: dict[str, int] = {}
    if view is None:
        return binds
    current = str(wording)
    for p in view.passes():
        for rw in p.rewrites:
            if rw.component == comp_id and str(rw.old) == current:
                for var, value in rw.binds.items():
                    binds.setdefault(var, value)
                current = str(rw.new)
    return binds


def _phrase_patterns(system: System | None) -> list[tuple[str, str, re.Pattern]]:
    """(the phrase in lowercase, its plural, its pattern) of the system's agreement phrases, longer
    phrases first; once per system."""
    cached = _PHRASES.get(id(system))
    if cached is not None and cached[0] is system:
        return cached[1]
    pairs = sorted(((form, plural) for plural, forms in (system.phrases if system else ()) for form in forms),
                   key=lambda fp: -len(fp[0]))
    patterns = [(form.lower(), plural,
                 re.compile(r"(?<![\w'])" + re.escape(form) + r"(?![\w'])", re.IGNORECASE if form[:1].islower() else 0))
                for form, plural in pairs]
    _PHRASES[id(system)] = (system, patterns)
    return patterns


_PHRASES: dict[int, tuple[Any, list[tuple[str, str, re.Pattern]]]] = {}


def _phrase_forms(sentence: str, system: System | None) -> list[tuple[str, str]]:
    """The sentence with one singular phrase of the system's agreement put back in the plural
    ("it" → "the targets"), each with a note saying so; longer phrases first."""
    out = []
    lowered = sentence.lower()
    for form, plural, pattern in _phrase_patterns(system):
        if form not in lowered:
            continue  # (the pattern cannot match)
        for match in pattern.finditer(sentence):
            printed = match.group(0)
            wanted = plural[0].upper() + plural[1:] if printed[:1].isupper() else plural
            candidate = sentence[:match.start()] + wanted + sentence[match.end():]
            out.append((candidate, f'read "{printed}" as "{plural}" (a card whose targets are never more than one '
                                   f'may print it so)'))
    return out


def read_sentence(raw: str, catalog: Catalog, view: Any = None) -> tuple[Use | None, list[str]]:
    """Match one printed sentence: the :class:`Use` (with its notes), or ``None`` and the problems.

    Problems are messages (variables that are not positive whole numbers, a variable
    printed with two values); an unknown sentence gives ``(None, [])``.  ``view`` (a
    RulesView, optional) supplies values that later revisions bind, when the
    component's formula needs them.

    The answer depends on the words, the catalog and the view alone, and the same words recur
    (on the designs of a collection, and in the spans :func:`_read_clauses` tries), so each is
    read once per catalog and view (:data:`_SENTENCES`); the :class:`Use` is shared, as a
    judgement's parsed card is: nobody modifies it."""
    memo = _read(catalog, view)
    read = memo.get(raw)
    if read is None:
        read = _read_sentence(raw, catalog, view)
        memo.put(raw, read)
    return read[0], list(read[1])


#: sentences read, per (catalog, view): two generations of at most this many each
_READ_KEPT = 4096
_READ = Memo(16)  # (id(catalog), id(view)) → (catalog, view, Memo of what was read)


def _read(catalog: Catalog, view: Any) -> Memo:
    """What has been read against ``catalog`` with ``view``: raw sentence → :func:`_read_sentence`'s answer."""
    kept = _READ.get((id(catalog), id(view)))
    if kept is None or kept[0] is not catalog or kept[1] is not view:
        kept = (catalog, view, Memo(_READ_KEPT))
        _READ.put((id(catalog), id(view)), kept)
    return kept[2]


def _read_sentence(raw: str, catalog: Catalog, view: Any) -> tuple[Use | None, list[str]]:
    sentence = normalize(raw)
    entry, m = _lookup_opening(sentence, catalog)
    phrase_note = None
    if entry is None:
        # "destroy it." for "destroy the targets.": the singular a card with one target may print
        for candidate, said in _phrase_forms(sentence, catalog.system):
            entry, m = _lookup_opening(candidate, catalog)
            if entry is not None:
                phrase_note = said
                break
    if entry is None:
        return None, []
    problems = [f'"{sentence}": {c}' for c in m.conflicts]
    for var, value in m.values.items():
        if value < 1:
            problems.append(f'"{sentence}": [{var}] is {value}; variables are positive whole numbers (1 or more)')
    if problems:
        return None, problems
    comp = entry.comp
    values = {**m.values, **entry.binds}
    if comp.formula is not None and not (comp.formula.variables - {"t"}) <= set(values):
        values = {**_later_binds(comp.id, comp.text, view), **values}
    wording = comp.text.render(values) if set(comp.text.variables) <= set(values) else comp.text.render_partial(values)
    notes = [f'"{sentence}": {phrase_note}'] if phrase_note else []
    if sentence != raw.strip():
        notes.append(f'read "{raw.strip()}" as "{sentence}" (typographic quotes and spacing are forgiven)')
    for d in m.disagreements:
        notes.append(f'"{sentence}": {d} (forgiven: the wrong singular/plural form)')
    old = None
    if entry.wording is not None:
        old = str(entry.template)
        w = entry.wording
        bound = ", ".join(f"{k} = {v}" for k, v in sorted(entry.binds.items()))
        notes.append(
            f'"{sentence}" is an earlier wording, revised {when_phrase(w.replaced_in)}; '
            f'it reads as "{wording}"' + (f" ({bound})" if bound else "")
        )
    return Use(comp.id, comp.kind, values, sentence, wording, old, notes, comp), []


# --------------------------------------------------------------------------- unknown text


def _closest(sentence: str, catalog: Catalog, n: int = 3) -> list[str]:
    """The components of the catalog whose skeletons are most like the sentence's (difflib's
    ratio): the best, and up to ``n`` if each is at least 0.6 alike; none under 0.4."""
    key = skeleton(sentence)
    scored = []
    best: list[float] = []  # the n best ratios so far (a heap: best[0] the least of them)
    for comp, matcher in _matchers(catalog):
        matcher.set_seq1(key)
        # difflib's quick ratios are upper bounds of the ratio: a component under 0.4, or under the n
        # best so far (a later one that ties stays behind them), can be none of those named
        bar = best[0] if len(best) == n and best[0] > 0.4 else 0.4
        if matcher.real_quick_ratio() < bar or matcher.quick_ratio() < bar:
            continue
        ratio = matcher.ratio()
        scored.append((ratio, comp))
        if len(best) < n:
            heapq.heappush(best, ratio)
        elif ratio > best[0]:
            heapq.heapreplace(best, ratio)
    scored.sort(key=lambda item: -item[0])
    out = []
    for ratio, comp in scored[:n]:
        if ratio < 0.6 and (out or ratio < 0.4):
            break
        mark = " (redacted)" if comp.status == "redacted" else ""
        out.append(f'"{comp.text}"{mark}')
    return out


def _matchers(catalog: Catalog) -> list[tuple[ComponentState, Any]]:
    """A difflib matcher per component of the catalog, its skeleton set as the second sequence
    (which difflib indexes: once per catalog, not once per unknown sentence)."""
    cached = _MATCHERS.get(id(catalog))
    if cached is not None and cached[0] is catalog:
        return cached[1]
    import difflib  # (only an unknown text needs it)

    matchers = [(comp, difflib.SequenceMatcher(None, "", comp.text.skeleton)) for comp in catalog.components or ()]
    _MATCHERS.put(id(catalog), (catalog, matchers))
    return matchers


_MATCHERS = Memo(16)  # id(catalog) → (catalog, its matchers)


def _editions_text(editions: list[int]) -> str:
    runs: list[list[int]] = []
    for k in editions:
        if runs and runs[-1][-1] == k - 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    parts = [ordinal(r[0]) if len(r) == 1 else f"{ordinal(r[0])}–{ordinal(r[-1])}" for r in runs]
    return ", ".join(parts) + (" edition" if len(editions) == 1 else " editions")


def elsewhere(sentence: str, n: EditionKey, view: Any) -> str | None:
    """What the sentence is in other editions, as seen from edition ``n`` (``None``: nothing).
    Only main-line editions are searched; from a pre-release ("11-pre") its own edition (11)
    is a later one."""
    found: dict[str, list[tuple[int, _Entry, Any]]] = {}
    for k in range(view.first, view.last + 1):
        if k == n:
            continue
        cat = view.catalog(k)
        if not cat.catalog_known:
            continue
        entry, m = _lookup(sentence, cat)
        if entry is not None:
            found.setdefault(entry.comp.id, []).append((k, entry, m))
    if not found:
        return None
    here = view.catalog(n).by_id()
    parts = []
    for comp_id, hits in found.items():
        editions = [k for k, _, _ in hits]
        text = f"it is {comp_id} in the {_editions_text(editions)}"
        now = here.get(comp_id)
        if now is None:
            later = edition_number(n) + (0 if is_pre_release(n) else 1)  # the first main-line edition after n
            if min(editions) >= later:
                text += f", not yet in the catalog of the {ordinal(n)}"
            else:
                text += f", no longer in the catalog of the {ordinal(n)}"
        else:
            k, entry, m = hits[0]
            values = {**m.values, **entry.binds}
            later = view.catalog(max(editions)).by_id()[comp_id]
            history = [f"revised {when_phrase(w.replaced_in)}" for w in later.wordings if w.replaced_in.happened_by(n) == "no"]
            if history:
                text += " (" + ", ".join(dict.fromkeys(history)) + ")"
            text += f'; in the {ordinal(n)} it reads "{now.text.render_partial(values)}"'
            if now.status == "redacted":
                text += f" and is redacted ({when_phrase(now.redacted, 'since')})"
            elif now.status == "unknown":
                text += " and may already be redacted (redacted at an edition no source gives)"
        redacted_in = [k for k, e, _ in hits if e.comp.status == "redacted"]
        if redacted_in and (now is None or now.status == "legal"):
            first = view.catalog(redacted_in[0]).by_id()[comp_id].redacted
            text += f"; redacted {when_phrase(first)}"
        parts.append(text)
    return "; ".join(parts)


def _unknown_text(sentence: str, catalog: Catalog, view: Any, fld: str, sources: tuple[str, ...]) -> Reason:
    n = catalog.edition
    message = f'"{sentence}" is not a component text of the {ordinal(n)} edition'
    close = _closest(sentence, catalog)
    if close:
        message += "; did you mean " + " or ".join(close) + "?"
    other = elsewhere(sentence, n, view) if view is not None else None
    if other:
        message += f" Elsewhere: {other}."
    return Reason("unknown-text", message, n, sources, fld)


# --------------------------------------------------------------------------- structure


def split_paragraph(paragraph: str) -> tuple[str | None, list[str]]:
    """``(ability name or None, sentences)`` of one paragraph, sentences as printed."""
    name = None
    m = _NAME.match(paragraph)
    if m and any(c.isalpha() for c in m.group("name")):
        name, paragraph = m.group("name").strip(), m.group("rest")
    sentences = [s.strip() for s in _SENTENCE_END.split(paragraph.strip()) if s.strip()]
    return name, sentences


def _order_problems(uses: list[Use], where: str, system: System, place: str = "ability",
                    below: list[Use] | None = None) -> list[str]:
    """The grammar of one ability (``place`` "ability") or sub-ability of the system: its kinds in
    order, each at most (and at least) as often as the system says; a component needing a
    variable (``t``) needs the kind that sets it here — for the components here and ``below``
    (an ability's sub-abilities)."""
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
        if setter.place != place or setter.default is not None or setter.id in seen:
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
    """The grammar of one ability paragraph read as ``sentences`` of uses: without sub-abilities,
    one sequence of kinds; with them, the ability's own kinds first, then one sub-ability per
    sentence (the first may follow the ability's own kinds in the same sentence).  Returns the
    problems and the sub-abilities."""
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


def parse_card(card: dict, catalog: Catalog, view: Any = None) -> tuple[ParsedCard | None, list[Reason], list[str]]:
    """Parse ``card``'s text against ``catalog``: ``(parsed or None, problems, notes)``.

    Problems are :class:`Reason`\\ s with code ``malformed`` or ``unknown-text`` (each
    naming its field, ``text[i]`` for paragraph i); ``view`` (a RulesView, optional) lets
    an unknown sentence say what it is in other editions.  ``parsed`` is ``None``
    whenever there is a problem."""
    n = catalog.edition
    rule_sources = catalog.cost_rule.sources if catalog.cost_rule else ()
    system = catalog.system
    fields, field_problems = read_fields(card, system, n, aliases=type_aliases(view) if view is not None else None)
    field_problems = [p for p in field_problems if p.field in (None, "type", "text")]
    if field_problems or fields.type is None or fields.paragraphs is None:
        return None, field_problems, []
    if not catalog.catalog_known:
        return None, [Reason("unknown-fact", f"the component catalog of the {ordinal(n)} edition is not in the sources; the text cannot be read", n, catalog.declared.sources if catalog.declared else (), "text")], []

    problems: list[Reason] = []
    notes: list[str] = []

    def malformed(message: str, fld: str | None = "text") -> None:
        problems.append(Reason("malformed", message, n, rule_sources, fld))

    paragraphs = fields.paragraphs
    ctype = system.card_type(fields.type)
    empty_texts = {t.empty_text: t.id for t in system.types if t.empty_text}
    if not paragraphs and not ctype.empty_text and not ctype.abilities_min:
        return ParsedCard(None, [], False, None, None), problems, notes  # no abilities, and nothing to say so
    if not paragraphs:
        malformed(
            f'the text is empty; a {ctype.id} without abilities says "{ctype.empty_text}"' if ctype.empty_text
            else f"the text is empty; a {ctype.id} has {_count(ctype)}"
        )
        return None, problems, notes

    joins = _card_joins(catalog, fields.edition, view)
    card_part: Use | None = None
    card_part_line: int | None = None
    abilities: list[Ability] = []
    no_abilities_at: list[int] = []
    for position, (line, paragraph) in enumerate(paragraphs):
        fld = f"text[{line}]"
        where = f"paragraph {line}"
        name, sentences = split_paragraph(paragraph)
        if normalize(paragraph) in empty_texts:
            no_abilities_at.append(line)
            continue
        if not sentences:
            malformed(f"{where}: the ability {name!r} has no text", fld)
            continue
        sentence_uses: list[list[Use]] = []
        unreadable = False
        i = 0
        while i < len(sentences):
            uses: list[Use] = []
            sentence_uses.append(uses)
            if _is_tutorial(sentences[i]):
                notes.append(f'{where}: "{sentences[i]}" is tutorial text (in parentheses); it is not a component')
                i += 1
                continue
            # a component of two sentences (the 1st edition's counter effects) before one
            for span in (2, 1) if i + 1 < len(sentences) else (1,):
                raw = " ".join(sentences[i:i + span])
                use, sentence_problems = read_sentence(raw, catalog, view)
                if use is not None:
                    break
            i += span
            if use is None and len(_clauses(raw, joins)) > 1:
                # components that end in ":", ";" or "→" (an activation condition, a target
                # selection, the 12th's activation costs) share a sentence with what follows
                # them, as joined ones do (", then "): read the clauses, longest first
                clause_uses, raw, sentence_problems = _read_clauses(raw, catalog, view, joins)
                if clause_uses is not None and sentence_problems:  # read, but joined against the list rule
                    for message in sentence_problems:
                        malformed(f"{where}: {message}", fld)
                    unreadable = True
                    continue
                if clause_uses is not None:
                    for u in clause_uses:
                        uses.append(u)
                        notes.extend(u.notes)
                    continue
                use = None
            if use is None:
                unreadable = True
                for message in sentence_problems:
                    malformed(f"{where}: {message}", fld)
                if not sentence_problems:
                    problems.append(_unknown_text(normalize(raw), catalog, view, fld, rule_sources))
                continue
            uses.append(use)
            notes.extend(use.notes)
        if unreadable:
            continue
        uses = [u for sentence in sentence_uses for u in sentence]
        if len(uses) == 1 and name is None and system.kind(uses[0].kind).place == "card":
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
        grammar, subs = _ability_problems([u for u in sentence_uses if u], where, system)
        if name is None and ctype.names == "required":
            grammar.insert(0, f"{where}: a {ctype.id}'s abilities are named: the name in capitals and a colon first "
                              f'("GREED: Draw 2 cards.")')
        elif name is not None and ctype.names == "none":
            grammar.insert(0, f"{where}: a {ctype.id}'s ability has no name (found {name!r})")
        for message in grammar:
            malformed(message, fld)
        abilities.append(Ability(name, uses, line, subs))

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
    if problems:
        return None, problems, notes
    if ctype.empty_text and not abilities and not no_abilities_at:
        notes.append(f'the {ctype.id} has no abilities; the Card Building Guide prints "{ctype.empty_text}" for that')
    return ParsedCard(card_part, abilities, bool(no_abilities_at), card_part_line, ctype.empty_text), problems, notes
