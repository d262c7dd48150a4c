"""A card's verdict and a collection's check: what ``check-cards`` and ``cost`` print.

Made once per card of a collection of any size, each is a thin ``__slots__`` view over the engine's
own object (a ``@dataclass`` would cost the one-card path at import), and writes its JSON with the
CLI's own functions, so that the two cannot drift.
"""

from __future__ import annotations

from typing import Any

from ..cards.model import Reason

__all__ = ["Check", "Reason", "Verdict"]


class Verdict:
    """A card judged in one edition: a view of the card engine's ``judgement``.  ``status`` is
    ``legal``, ``banned``, ``error`` or ``unknown``, ``outcome`` the edition's own word for it
    ("pruned"); ``value`` the figure computed (``None``: unknown), ``printed`` the one the card prints."""

    __slots__ = ("judgement", "edition", "_catalog", "_unknown")

    def __init__(self, judgement: Any, catalog: Any):
        self.judgement = judgement  # the card engine's Judgement
        self.edition = catalog.edition
        self._catalog = catalog
        self._unknown: list[Any] | None = None

    index = property(lambda self: self.judgement.index, doc="the card's place in its collection, from 0")
    name = property(lambda self: self.judgement.name)
    status = property(lambda self: self.judgement.status)
    figure = property(lambda self: self.judgement.figure)
    value = property(lambda self: self.judgement.cost)
    printed = property(lambda self: self.judgement.printed_cost)
    reasons = property(lambda self: self.judgement.reasons)
    warnings = property(lambda self: self.judgement.warnings)
    notes = property(lambda self: self.judgement.notes)
    breakdown = property(lambda self: self.judgement.breakdown)
    line = property(lambda self: self.judgement.line, doc="the line the card starts on in its file (None: not read from one)")

    @property
    def outcome(self) -> str:
        from ..cards.report import outcome_word

        return outcome_word(self.status, self._catalog.rulebook, self.judgement.reasons)

    @property
    def ultra_points(self) -> int | None:
        b = self.judgement.breakdown
        return b.get("ultra_points") if b else None

    @property
    def legal(self) -> bool:
        return self.judgement.status == "legal"

    @property
    def unknown(self) -> list[Any]:
        """Each ``unknown-text`` reason's :class:`~kotc_rulesc.api.values.UnknownText`, worked out when asked."""
        if self._unknown is None:
            from .values import unknown_texts

            self._unknown = unknown_texts(self.judgement, self._catalog)
        return self._unknown

    def to_json(self) -> dict[str, Any]:
        """The card's entry in ``check-cards --format json`` (its reasons located by line)."""
        from ..cards.report import card_json

        return card_json(self.judgement, self._catalog.rulebook)

    def cost_json(self) -> dict[str, Any]:
        """What ``cost --format json`` prints for the card."""
        from ..cards.report import cost_json

        return cost_json(self.judgement, self.edition, self.figure, self._catalog.rulebook)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return self.edition == other.edition and self.judgement == other.judgement

    __hash__ = None  # type: ignore[assignment]  (the judgement's lists may change)

    def __repr__(self) -> str:
        return (f"Verdict(index={self.index!r}, name={self.name!r}, edition={self.edition!r}, status={self.status!r}, "
                f"{self.figure}={self.value!r})")


class Check:
    """Every card of a collection judged in one edition (``check-cards``), and the deck (``--deck``)."""

    __slots__ = ("edition", "verdicts", "summary", "deck", "_rulebook")

    def __init__(self, edition: Any, verdicts: list[Verdict], summary: dict[str, int], deck: Any = None,
                 rulebook: Any = None):
        self.edition = edition
        self.verdicts = verdicts  # empty when the check kept none (``keep=False``)
        self.summary = summary  # cards, and how many are legal, banned, error, unknown, with warnings
        self.deck = deck
        self._rulebook = rulebook  # (the edition's own words for the outcomes)

    @property
    def legal(self) -> bool:
        """Every card legal, and the deck where it was judged (``check-cards``' exit status 0)."""
        return self.summary["cards"] == self.summary["legal"] and (self.deck is None or self.deck.legal is True)

    def to_json(self) -> dict[str, Any]:
        """What ``check-cards --format json`` prints, as a value."""
        import json

        return json.loads(self.json_text())

    def json_text(self) -> str:
        """What ``check-cards --format json`` prints, to the character (without the final newline);
        the verdicts kept (``check(…, keep=True)``)."""
        from ..cards.report import CheckJson

        pieces: list[str] = []
        document = CheckJson(pieces.append, self.edition, self._rulebook)
        for v in self.verdicts:
            document.card(v.judgement)
        document.end(dict(self.summary), self.deck.to_json() if self.deck is not None else None)
        return "".join(pieces)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Check):
            return NotImplemented
        return (self.edition, self.verdicts, self.summary, self.deck) == (other.edition, other.verdicts, other.summary, other.deck)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Check(edition={self.edition!r}, summary={self.summary!r}, deck={self.deck!r})"
