"""Cards: read collections, parse card text against an edition, cost and judge cards.

The contract other modules code against (ARCHITECTURE.md, "The card engine"):

* :func:`read_collection` (``collection.py``) → :class:`CardInput`\\ s;
* :func:`parse_card` (``parse.py``) → :class:`ParsedCard` of :class:`Ability`\\ s and :class:`Use`\\ s;
* :func:`card_cost` (``cost.py``) → :class:`CostResult`;
* :func:`judge` (``legality.py``) → :class:`Judgement` with :class:`Reason`\\ s.

Submodules import only the core modules they need; ruamel.yaml is imported when a
YAML collection is read, and the rules loader only by :func:`rules_source.get_view`.
"""

from .collection import CardInput, read_collection
from .cost import CostResult, card_cost
from .legality import Judgement, judge, judge_input
from .model import Ability, ParsedCard, Reason, Use
from .parse import parse_card

__all__ = [
    "Ability",
    "CardInput",
    "CostResult",
    "Judgement",
    "ParsedCard",
    "Reason",
    "Use",
    "card_cost",
    "judge",
    "judge_input",
    "parse_card",
    "read_collection",
]
