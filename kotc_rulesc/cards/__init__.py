"""Cards: read collections, parse card text against an edition, cost and judge cards (ARCHITECTURE.md,
"The card engine"). Submodules import only what they need: ruamel.yaml loads when a YAML collection is
read, the rules loader only in :func:`rules_source.get_view`."""

from .collection import CardInput, read_collection
from .cost import CostResult, card_cost
from .legality import Judgement, judge, judge_input
from .model import Ability, ParsedCard, Reason, Use
from .parse import parse_card

__all__ = ["Ability", "CardInput", "CostResult", "Judgement", "ParsedCard", "Reason", "Use", "card_cost", "judge",
           "judge_input", "parse_card", "read_collection"]
