"""Our own words around the catalog (each kind, how to read the guide's lists, how the figure is computed),
derived from the edition's card-building system, so that an edition with another system (the 12th's minions
and sub-abilities) reads right without a template that knows its kinds.
"""

from __future__ import annotations

from typing import Any


def listing(words: list[str], last: str = "and") -> str:
    """ "a", "a and b", "a, b or c" """
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def _count(kind: Any, whole: str) -> str:
    """ "An ability may have one activation condition", "A sub-ability has one or more effects" """
    whole, noun, nouns = whole.capitalize(), kind.noun, kind.noun + "s"
    if kind.min:
        many = (f"one or more {nouns}" if kind.max is None else f"exactly one {noun}" if kind.max == 1
                else f"{kind.min} to {kind.max} {nouns}")
        return f"{whole} has {many}"
    many = (f"any number of {nouns}" if kind.max is None else f"one {noun}" if kind.max == 1
            else f"up to {kind.max} {nouns}")
    return f"{whole} may have {many}"


def kind_intro(system: Any, kind_id: str) -> str:
    """What one kind of component is on a card and what its number in parentheses does."""
    kind = system.kind(kind_id)
    figure, nouns = system.figure_title, kind.noun + "s"
    if kind.place == "card":
        holders = listing([t + "s" for t in kind.types]) if kind.types else "cards"
        most = "at most one" if kind.max == 1 else "any number" if kind.max is None else f"up to {kind.max}"
        text = (f"{holders.capitalize()} may carry {most} {kind.noun if kind.max == 1 else nouns}, "
                "printed as the first paragraph of the text, before any ability.")
    else:
        whole = "a sub-ability" if kind.place == "sub_ability" else "an ability"
        text = _count(kind, whole) + "."
    for join in (j for j in system.joins if j.after == kind.id):
        may = " may be" if join.modal == "may" else " are"
        if join.series:
            two, between, last = (f"“{j.strip()}”" if j.strip() else f"“{j}”" for j in join.series)
            text += (f" Two {nouns}{may} joined with {two} in place of the “{join.end}” of the first; three or more"
                     f" make a list joined with {between}, the last two with {last}.")
        elif join.before == kind.id:
            text += (f" Consecutive {nouns}{may} joined with "
                     + listing([f"“{j.strip()}”" for j in join.words], "or") + f" in place of the “{join.end}” of the one before.")
        else:
            text += (f" {('An ' if kind.noun[:1] in 'aeiou' else 'A ') + kind.noun}{may.replace(' are', ' is')} joined to the "
                     f"{system.noun(join.before)} after it with " + listing([f"“{j.strip()}”" for j in join.words], "or")
                     + f" in place of its “{join.end}”.")
    if kind.role == "relief":
        text += f" The number in parentheses is the relief it gives: it lowers the card's {figure}."
    elif kind.role == "cost":
        users = [v for v, k in system.set_variables.items()]
        text += f" The number in parentheses is what it adds to the card's {figure}"
        text += (f"; {listing(users)} in it {'stands' if len(users) == 1 else 'stand'} for what "
                 + listing([f"the {system.set_variables[v].noun} sets" for v in users], "or") + "." if users else ".")
    elif kind.role == "sets":
        default = f" (without one, {kind.variable} = {kind.default.notation()})" if kind.default is not None else ""
        costs = [k.noun + "s" for k in system.kinds if k.role == "cost"]
        text += (f" Its formula (in parentheses) is not added on its own: it sets the variable {kind.variable} "
                 f"in the formulas of the {listing(costs)}{default}.")
    else:
        text += f" It carries no formula: it adds nothing to the card's {figure}."
    return text


def guide_intro(system: Any) -> str:
    """How to read one entry of the guide's lists."""
    sets = [f"{v} for what the {k.noun} sets" for v, k in system.set_variables.items()]
    variables = "x, y, z for the numbers chosen on the card" + (", and " + listing(sets) if sets else "")
    return (f"Each component is a text of the card, listed as the guide lists it: its formula in parentheses (in "
            f"{variables}), any limit on a variable in braces, then the wording. A struck-out component is "
            "redacted, and cards that use it are banned. The notes under a component give its history: earlier "
            "wordings, earlier formulas, earlier limits.")


def cost_intro(system: Any) -> str:
    """How the card's figure is computed, in words, before the rule's formulas."""
    def nouns(role: str) -> list[str]:
        return [k.noun + "s" for k in system.kinds if k.role == role]

    verbs = {"cost": "add to it", "relief": "give relief", "sets": "set the variables of those formulas"}
    parts = [f"{listing(nouns(role))} {verb}" for role, verb in verbs.items() if nouns(role)]
    stats = [f"a {t.id}'s {listing([st.name for st in t.stats])}" for t in system.types if t.stats]
    if stats:
        parts.append(f"{listing(stats)} count too")
    scopes = "each sub-ability, then each ability, then the card" if system.sub_ability else "each ability, then the card"
    return (f"A card's {system.figure_title} is computed from what it is made of: {'; '.join(parts)}. "
            f"These are the formulas the engine evaluates for this edition, for {scopes}:")


def ultra_intro(system: Any, deck_limit: int | None) -> str:
    """What an ultra text is (the 17th's "[+1]" texts), where a kind's list has some."""
    deck = f" A deck may hold at most {deck_limit} Ultra Points in all." if deck_limit is not None else ""
    return (f"These texts add Ultra Points to the card they are on: the number in square brackets, [+1] or more. "
            f"Ultra Points do not change the card's {system.figure_title}.{deck}")
