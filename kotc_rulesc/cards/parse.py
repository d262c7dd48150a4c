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
* Typographic quotes and spacing are forgiven with a note; a different word never is.
* The card-building system's card-writing rules (:class:`~kotc_rulesc.model.System`: agreement,
  variations, joins, capitals, naming, placeholders, tutorial text) say which other forms a card may
  print: a text is read through them (the plural for 1, "Target 1 on-field minion;" for "Target up to
  [x] on-field minions;", "destroy it." for "destroy the targets."), and a form a *should* rule
  prescribes is a warning with the text to print instead, a form no rule allows (or allows only
  where its condition fails: "it" for several targets) is malformed.
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
from ..history.text_revision import Wording
from ..memo import Memo
from ..model import EditionKey, edition_number, is_pre_release, ordinal
from ..system import Join, System, join_ends
from ..record import record
from ..text import Choice, Slot, Template, normalize, opening_forms, skeleton
from .fields import read_fields
from .model import Ability, ParsedCard, Reason, Use, when_phrase

__all__ = ["parse_card", "read_sentence", "split_paragraph"]

_NAME = re.compile(r"^(?P<name>[A-Z0-9][A-Z0-9 '\u2019&,!?\-]*?)\s*:\s*(?P<rest>.*)$")
_ANY_NAME = re.compile(r"^(?P<name>[^:.;→()]+?)\s*:\s*(?P<rest>.+)$")
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


def _card_joins(catalog: Catalog, design: int | None, view: Any) -> tuple[tuple[Join, ...], dict[str, tuple[str, ...]]]:
    """The joins a card may print, and what each replaces (:func:`~kotc_rulesc.model.join_ends`): its
    edition's, and where the rulebook keeps a card as its design edition made it (``exhaustive_lists``:
    only its lists refurbish or prune a card) those of the editions from its design edition on (the
    13th's ", also " between activation costs, which the 14th made " and ")."""
    joins = catalog.system.joins
    rulebook = catalog.rulebook
    if view is None or rulebook is None or not rulebook.exhaustive_lists or design is None or design >= catalog.number:
        return joins, catalog.system.join_ends
    if design not in view.keys or (catalog.clean_slate is not None and design < catalog.clean_slate):
        return joins, catalog.system.join_ends
    key = (id(view), catalog.edition, design)
    cached = _CARD_JOINS.get(key)
    if cached is not None and cached[0] is view:
        return cached[1], cached[2]
    out = list(joins)
    for p in view.path(design, catalog.edition) or ():
        out += [j for j in view.catalog(p.source).system.joins if j not in out]
    ends = join_ends(tuple(out))
    _CARD_JOINS[key] = (view, tuple(out), ends)
    return tuple(out), ends


_CARD_JOINS: dict[tuple[int, Any, int], tuple[Any, tuple[Join, ...], dict[str, tuple[str, ...]]]] = {}


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
                  joins: dict[str, tuple[str, ...]]) -> tuple[list[tuple[Use, str, str]] | None, str, list[str]]:
    """The uses of a sentence made of several components, each ending in ":", ";", "→" or "."
    or joined to the next by one of ``joins`` (", also " in place of the end mark), each with what
    is printed of it and what follows it (a join, or the space after its end mark); or (None, the
    first clause no component reads, its problems).  Longest spans first: a component may itself
    contain ";" or ":"."""
    clauses = _clauses(sentence, joins)
    longest = _most_clauses(catalog, joins)
    out: list[tuple[Use, str, str]] = []
    i = 0
    while i < len(clauses):
        for span in range(min(len(clauses) - i, longest), 0, -1):
            raw = "".join(c + sep for c, sep in clauses[i:i + span - 1]) + clauses[i + span - 1][0]
            last_sep = clauses[i + span - 1][1]
            use, problems = None, []
            # after another component a text the guide prints capitalized ("Draw [x] cards.", the
            # 11th's) starts lowercase: ", then draw 2 cards."
            forms = [raw] + ([raw[0].upper() + raw[1:]] if i > 0 and raw[:1].islower() else [])
            # a join's own end marks first, then the others' (a join between kinds no rule joins so is
            # read, and reported where the joins are checked)
            marks = joins.get(last_sep)
            marks = tuple(dict.fromkeys(marks + tuple(m for ms in joins.values() for m in ms))) if marks else ("",)
            for form in forms:
                for end in marks:
                    use, problems = read_sentence(form + end, catalog, view)
                    if use is not None:
                        break
                if use is not None:
                    break
            if use is not None:
                break
        if use is None:
            return None, clauses[i][0], problems
        out.append((use, raw, last_sep))
        i += span
    return out, sentence, []


# --------------------------------------------------------------------------- the look-up index


@record(frozen=True)
class _Entry:
    comp: ComponentState
    template: Template  # the wording this entry matches (current or earlier)
    binds: dict[str, int]  # values an earlier wording stands for in the current text
    wording: Wording | None  # None: the current wording
    reading: Template  # the wording as a card may print it (its system's variations: :meth:`Template.vary`)
    selects: int | str | None = None  # a target selection's number of targets (:func:`_selects`)


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
    """skeleton → entries, built once per catalog (current wordings before earlier ones); each wording
    read as a card may print it under the system's variations."""
    cached = _INDEXES.get(id(catalog))
    if cached is not None and cached[0] is catalog:
        return cached[1]
    index: dict[str, list[_Entry]] = {}
    system = catalog.system
    targets = system.targets if system is not None else None
    for comp in catalog.components or ():
        reading = comp.text.vary(variations_of(system, comp.kind))
        selects = _selects(reading, targets) if targets is not None and comp.kind == targets.kind else None
        for key in reading.skeletons():
            index.setdefault(key, []).append(_Entry(comp, comp.text, {}, None, reading, selects))
    for comp in catalog.components or ():
        rules = variations_of(system, comp.kind)
        for w in comp.wordings:
            reading = w.text.vary(rules)
            selects = _selects(reading, targets) if targets is not None and comp.kind == targets.kind else None
            for key in reading.skeletons():
                index.setdefault(key, []).append(_Entry(comp, w.text, dict(w.binds), w, reading, selects))
    _INDEXES[id(catalog)] = (catalog, index)
    return index


def variations_of(system: System | None, kind: str) -> list[tuple[int, tuple[tuple[str, tuple[str, ...]], ...]]]:
    """The system's variations that change texts of ``kind``: (their number, their forms)."""
    return [(i, v.forms) for i, v in enumerate(system.variations if system is not None else ()) if kind in v.kinds]


def _lookup(sentence: str, catalog: Catalog):
    """The first entry whose template reads ``sentence``, with its match (or ``(None, None)``)."""
    for entry in _index(catalog).get(skeleton(sentence), ()):
        m = entry.reading.match(sentence)
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
    if entry is None:
        return None, []
    problems = [f'"{sentence}": {c}' for c in m.conflicts]
    for var, value in m.values.items():
        if value < 1:
            problems.append(f'"{sentence}": [{var}] is {value}; variables are positive whole numbers (1 or more)')
    for wrong in m.misnumbered:  # the singular where the number is not 1: not the component's text
        right = entry.reading.render(m.values, dict(m.choices))
        right = (right[:1].upper() if sentence[:1].isupper() else right[:1].lower()) + right[1:]
        problems.append(f'"{sentence}": {wrong}; print "{right}"')
    if problems:
        return None, problems
    comp = entry.comp
    values = {**m.values, **entry.binds}
    if comp.formula is not None and not (comp.formula.variables - {"t"}) <= set(values):
        values = {**_later_binds(comp.id, comp.text, view), **values}
    wording = comp.text.render(values) if set(comp.text.variables) <= set(values) else comp.text.render_partial(values)
    notes = []
    if sentence != raw.strip():
        notes.append(f'read "{raw.strip()}" as "{sentence}" (typographic quotes and spacing are forgiven)')
    old = None
    if entry.wording is not None:
        old = str(entry.template)
        if any(form for _, form in m.choices):  # the current wording in the forms the card chose ("on the target")
            wording = _in_forms(comp, entry.reading, dict(m.choices), values, catalog.system) or wording
        w = entry.wording
        bound = ", ".join(f"{k} = {v}" for k, v in sorted(entry.binds.items()))
        notes.append(
            f'"{sentence}" is an earlier wording, revised {when_phrase(w.replaced_in)}; '
            f'it reads as "{wording}"' + (f" ({bound})" if bound else "")
        )
    return Use(comp.id, comp.kind, values, sentence, wording, old, notes, comp,
               entry.reading, m.choices, m.disagreements, dict(m.values), entry.selects,
               str(entry.reading)[:1].isupper()), []


def _in_forms(comp, reading, choices: dict[int, int], values: dict[str, int], system) -> str | None:
    """The component's current text with each varied piece in the form the card printed in an earlier
    wording (the n-th place a rule varies in each, in order); None when the two do not vary alike."""
    current = comp.text.vary(variations_of(system, comp.kind))
    old = [(seg.rule, choices.get(i, 0)) for i, seg in enumerate(reading.segments) if isinstance(seg, Choice)]
    places = [i for i, seg in enumerate(current.segments) if isinstance(seg, Choice)]
    if len(places) != len(old) or not set(comp.text.variables) <= set(values):
        return None
    if any(current.segments[i].rule != rule for i, (rule, _) in zip(places, old)):
        return None
    return current.render(values, {i: form for i, (_, form) in zip(places, old)})


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


def split_paragraph(paragraph: str, case: str = "upper") -> tuple[str | None, list[str]]:
    """``(ability name or None, sentences)`` of one paragraph, sentences as printed; a name as the
    system's naming writes one: in capitals (``case`` "upper"), or in any case ("any", the 5th's)."""
    name = None
    m = (_ANY_NAME if case == "any" else _NAME).match(paragraph)
    if m and any(c.isalpha() for c in m.group("name")):
        name, paragraph = m.group("name").strip(), m.group("rest")
    sentences = [s.strip() for s in _SENTENCE_END.split(paragraph.strip()) if s.strip()]
    return name, sentences


# --------------------------------------------------------------------------- components where they stand


@record
class _Placed:
    """A component as its paragraph prints it: the text (its end mark, unless a join replaced it) and
    the join printed after it (None: none)."""

    use: Use
    printed: str
    join: str | None = None

    @property
    def kind(self) -> str:
        return self.use.kind

    @property
    def sentence(self) -> str:
        return self.use.sentence

    @property
    def state(self) -> Any:
        return self.use.state


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


def _selects(reading: Template, targets: Any) -> int | str | None:
    """How many cards a target selection may select, as its text says and the system's ``targets``
    reads it: 1 for a text with a single phrase ("this card"), the variable after a counted phrase ("up
    to [x]": "x"), ``None`` for more than one or no number ("all level [x] or lower …")."""
    text = str(reading).lower()
    if any(single.lower() in text for single in targets.single):
        return 1
    before = ""
    for seg in reading.segments:
        if isinstance(seg, Slot):
            if any(before.rstrip().lower().endswith(c.lower()) for c in targets.counted):
                return seg.var
            before = ""
        else:
            before += seg.forms[0] if isinstance(seg, Choice) else getattr(seg, "text", getattr(seg, "plural", ""))
    return None


def _first_case(text: str, upper: bool) -> str:
    return (text[:1].upper() if upper else text[:1].lower()) + text[1:]


class _Writing:
    """The card-writing rules of the system applied to one ability paragraph (:class:`~kotc_rulesc.model.System`'s
    variations, agreement, joins, capitals): what a *must* rule finds malformed, what a *should* rule
    warns of, and the paragraph as the rules prescribe it (the text each of them says to print)."""

    def __init__(self, system: System, joins: tuple[Join, ...], placed: list[_Placed], subs: list[list[_Placed]]):
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
        self._one: dict[int, tuple[bool, str]] | None = None

    @property
    def one(self) -> dict[int, tuple[bool, str]]:
        """piece → (can its target selection never select more than one, what it selects): where
        ``targets`` places the target selection (the ability, or each sub-ability); found when a
        variation asks."""
        if self._one is None:
            self._one = self._one_target()
        return self._one

    def _one_target(self) -> dict[int, tuple[bool, str]]:
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

    # -- the rules ------------------------------------------------------------

    def check(self) -> None:
        for k, p in enumerate(self.placed):
            self._variations(k, p)
            self._agreement(k, p)
            self._capitals(k, p)
        self._joins()

    def _variations(self, k: int, p: _Placed) -> None:
        reading = p.use.reading
        for seg, form in p.use.choices:
            choice = reading.segments[seg]
            rule = self.system.variations[choice.rule]
            one, what = self.one.get(k, (False, "no target selection"))
            holds = one if rule.when == "one-target" else True
            words = choice.forms[0]
            if form and not holds:
                printed = choice.forms[form] or "no words"
                self.problems.append((f'"{p.sentence}" prints {_quoted(printed)} for "{words.strip()}", as a card may only where '
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

    def _agreement(self, k: int, p: _Placed) -> None:
        rule = self.system.agreement
        if rule is None or rule.modal != "should":
            return
        for d in p.use.agreement:
            self.warnings.append(("agreement", f'"{p.sentence}": {d}', rule.sources))
            self.forms.add(k)

    def _capitals(self, k: int, p: _Placed) -> None:
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
        say = "its first letter should be capitalized" if upper else "its first letter is lowercase, as the guide lists it"
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
        puts it: ``two`` for two, ``between`` … ``last`` for more.  Returns the piece after the run."""
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

    # -- the paragraph as the rules prescribe it ---------------------------------

    def prescribed(self, paragraph: str) -> str | None:
        """``paragraph`` with each piece a rule changes printed as the rule says (every other character as
        printed); None when no rule changes one, or a piece cannot be found where it was read."""
        changed = set(self.choices) | set(self.case) | set(self.join) | self.forms
        if not changed:
            return None
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

    def _piece(self, k: int, p: _Placed, after: str) -> str:
        use = p.use
        reading = use.reading
        text = reading.render(use.printed_values, self.choices.get(k, dict(use.choices)))
        upper = self.case.get(k, p.printed[:1].isupper())
        if text[:1].isalpha():
            text = _first_case(text, upper)
        join = self.join.get(k, p.join)
        end = next((j.end for j in self.system.joins if j.after == p.kind), None) or _end_mark(text)
        if join:  # a join in place of its end mark
            if text.endswith(end):
                text = text[:-len(end)]
            if p.join is None:  # (the space after its end mark is printed after it)
                return text + (join.rstrip() if after[:1].isspace() else join)
            return text + join
        if join == "" and p.join is not None:  # a join no rule allows: its end mark, then a space
            return text + " "
        return text


def _a(noun: str) -> str:
    """ "an activation cost", "a target selection" """
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _end_mark(text: str) -> str:
    return text[-1:] if text[-1:] in ":;→." else ""


def _quoted(text: str) -> str:
    return f'"{text}"' if text != "no words" else text


def parse_card(card: dict, catalog: Catalog, view: Any = None) -> tuple[ParsedCard | None, list[Reason], list[str]]:
    """Parse ``card``'s text against ``catalog``: ``(parsed or None, problems, notes)``.

    Problems are :class:`Reason`\\ s with code ``malformed`` or ``unknown-text`` (each
    naming its field, ``text[i]`` for paragraph i); ``view`` (a RulesView, optional) lets
    an unknown sentence say what it is in other editions.  ``parsed`` is ``None``
    whenever there is a problem; its ``warnings`` are the *should* rules the text breaks, and
    ``prescribed`` each paragraph as the rules prescribe it."""
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

    joins, ends = _card_joins(catalog, fields.edition, view)
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
            miscased = _miscased_name(paragraph, catalog, view)
            if miscased is not None:
                name, sentences = miscased
                malformed(f'{where}: the ability name "{name}" is not in all capital letters', fld, naming.sources,
                          paragraph.replace(name, name.upper(), 1))
        if not sentences:
            malformed(f"{where}: the ability {name!r} has no text", fld)
            continue
        sentence_placed: list[list[_Placed]] = []
        italics: list[str] = []  # tutorial sentences to print in italics
        unreadable = False
        i = 0
        while i < len(sentences):
            placed: list[_Placed] = []
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
                use, sentence_problems = read_sentence(raw, catalog, view)
                if use is not None:
                    break
            i += span
            if use is None and len(_clauses(raw, ends)) > 1:
                # components that end in ":", ";" or "→" (an activation condition, a target
                # selection, the 12th's activation costs) share a sentence with what follows
                # them, as joined ones do (", then "): read the clauses, longest first
                clause_uses, raw, sentence_problems = _read_clauses(raw, catalog, view, ends)
                if clause_uses is not None:
                    for u, printed, sep in clause_uses:
                        placed.append(_Placed(u, printed, sep if sep in ends else None))
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
            placed.append(_Placed(use, raw))
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
        grammar, subs = _ability_problems([s for s in sentence_placed if s], where, system)
        name_rule = naming.sources if naming is not None else system.sources
        if name is None and ctype.names == "required":
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
        writing = _Writing(system, joins, pieces, subs)
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
    parsed = ParsedCard(card_part, abilities, bool(no_abilities_at), card_part_line, ctype.empty_text, warnings, prescribed)
    return parsed, problems, notes


def _in_italics(sentence: str) -> bool:
    """Whether a sentence is written in italics (``*…*`` or ``_…_``)."""
    s = sentence.strip()
    return len(s) > 2 and s[0] == s[-1] and s[0] in "*_"


def _miscased_name(paragraph: str, catalog: Catalog, view: Any) -> tuple[str, list[str]] | None:
    """A paragraph that opens with a name not in capitals ("Healing: Draw 1 card."): the name and
    the sentences after it, when what follows the name reads and the paragraph as printed does not."""
    m = _ANY_NAME.match(paragraph)
    name = m.group("name") if m is not None else ""
    if not any(c.isalpha() for c in name) or name.isupper() or any(c.isdigit() for c in name) or len(name.split()) > 4:
        return None
    rest = [s.strip() for s in _SENTENCE_END.split(m.group("rest").strip()) if s.strip()]
    first = [s.strip() for s in _SENTENCE_END.split(paragraph.strip()) if s.strip()][0]
    # (read first: a paragraph that reads as printed — "When you take damage: Draw 1 card." — has no name)
    if not rest or read_sentence(first, catalog, view)[0] is not None or _lookup_first_clause(first, catalog, view):
        return None
    if read_sentence(rest[0], catalog, view)[0] is None and not _lookup_first_clause(rest[0], catalog, view):
        return None
    if view is not None and elsewhere(normalize(name) + ":", catalog.edition, view) is not None:
        return None  # another edition's text ("When you take at least 5 damage:" in the 11-pre), not a name
    return name.strip(), rest


def _lookup_first_clause(sentence: str, catalog: Catalog, view: Any) -> bool:
    """Whether the first clause of a sentence ("When you take damage:") is a component text."""
    clauses = _clauses(sentence, {})
    return bool(clauses) and read_sentence(clauses[0][0], catalog, view)[0] is not None
