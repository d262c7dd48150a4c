"""What the workbench's page asks, and the answers: the API's JSON, and so the CLI's (the page computes
no number).  Each route takes the request's query or body and returns ``(status, content type, body)``."""

from __future__ import annotations

import json
from typing import Any

from ..api import EditionError, Rules
from .collection import Collections, edit_of
from .picture import card_svg

__all__ = ["BadRequest", "ROUTES", "Workbench"]


class BadRequest(Exception):
    """A request the page would not send (a field missing, of the wrong kind): 400, with why."""


def _json(value: Any, status: int = 200) -> tuple[int, str, bytes]:
    return status, "application/json", json.dumps(value, ensure_ascii=False, default=str).encode("utf-8")


def _need(body: Any, name: str, kind: type) -> Any:
    """``body[name]``, a ``kind`` (dict, list, str), or :class:`BadRequest`."""
    value = body.get(name) if isinstance(body, dict) else None
    if not isinstance(value, kind):
        raise BadRequest(f"'{name}' is missing or not a {kind.__name__}")
    return value


class Workbench:
    """The workbench's state: the rules it judges by and the collections it was given."""

    def __init__(self, rules: Rules, collection: str | None = None):
        self.rules = rules
        self.collections = Collections()
        self.given = None  # the file named on the command line (no route names a path)
        if collection is not None:  # (read whole, as an upload is: at most what a YAML file may hold)
            from pathlib import Path

            from ..reading.policy import MAX_YAML, open_input

            with open_input(collection) as given:
                data = given.read_all(MAX_YAML, "a collection the workbench holds (check-cards streams any size)")
            self.given = self.collections.open(Path(collection).name, data)

    def edition(self, value: Any) -> Any:
        try:
            return self.rules.key(value)
        except EditionError as exc:
            raise BadRequest(str(exc)) from None

    def editions(self, query: dict[str, str]) -> tuple[int, str, bytes]:
        """Every edition, the default one, the documents reasons cite, and the collection given."""
        given = self._collection_json(self.given, self.rules.current()) if self.given is not None else None
        return _json({"editions": [e.to_json() for e in self.rules.editions()], "current": self.rules.current(),
                      "documents": self.rules.documents(), "collection": given})

    def edition_page(self, query: dict[str, str]) -> tuple[int, str, bytes]:
        """What a card form of the edition shows: its system and its components (the palette)."""
        key = self.edition(query.get("edition"))
        return _json({"edition": self.rules.edition(key).to_json(), "system": self.rules.system(key).to_json(),
                      "components": [c.to_json() for c in self.rules.components(key)]})

    def judge(self, body: Any) -> tuple[int, str, bytes]:
        """A card judged in the edition, with its picture and what migrating it to the current edition does."""
        card = _need(body, "card", dict)
        key = self.edition(body.get("edition"))
        v = self.rules.judge(card, key)
        current = self.rules.current()
        return _json({
            "verdict": v.to_json(), "cost": v.cost_json(), "outcome": v.outcome,
            "warnings": [w.to_json() for w in v.warnings],
            "ultra_points": v.ultra_points, "unknown": [u.to_json() for u in v.unknown],
            "current": self._migration(card, key, current),
            "picture": card_svg(card, self.rules.system(key), v.value, v.ultra_points),
        })

    def _migration(self, card: dict, key: Any, current: Any) -> dict[str, Any] | None:
        """What ``migrate --to`` the current edition does to the card (designed in ``key`` where it bears no
        Edition Indicator); ``None`` where migration does not go there (a later or branched edition)."""
        from ..model import edition_number

        if key == current or edition_number(key) > edition_number(current) or self.rules.view.path(key, current) is None:
            return None
        m = self.rules.migrate(card, current, assume=key)
        return {"edition": current, "status": m.status, "outcome": m.outcome, "text": m.text, "card": m.card,
                "legal": m.legal, "report": m.to_json()}

    def wording(self, body: Any) -> tuple[int, str, bytes]:
        """A component's text as a card prints it, and where its values are."""
        component = _need(body, "component", str)
        values = body.get("values") or {}
        if not isinstance(values, dict) or not all(isinstance(v, int) and not isinstance(v, bool) and 0 < v < 10**6
                                                   for v in values.values()):
            raise BadRequest("'values' maps variables to whole numbers from 1")
        try:
            w = self.rules.wording(component, values, self.edition(body.get("edition")), bool(body.get("opening", True)))
        except KeyError as exc:
            raise BadRequest(str(exc.args[0])) from None
        return _json(w.to_json())

    def check(self, body: Any) -> tuple[int, str, bytes]:
        """Cards judged as ``check-cards --deck`` judges a collection: the cards of a collection held
        (``collection``), with the page's edits (``edits``: index → card), or the cards given."""
        key = self.edition(body.get("edition"))
        if body.get("collection") is not None:
            held = self._held(body)
            edits = self._edits(body, held)
            cards = [item if item.index not in edits else edits[item.index] for item in held.cards]
        else:
            cards = _need(body, "cards", list)
        return _json(self.rules.check(cards, key, deck=True).to_json())

    def open_collection(self, name: str, data: bytes, edition: Any) -> tuple[int, str, bytes]:
        """A collection file the user gave: its cards as read, and ``check-cards --deck --format json``."""
        from ..reading.policy import InputError

        key = self.edition(edition)
        try:
            held = self.collections.open(name, data)
        except InputError as exc:
            return _json({"error": exc.problem.to_json(exc.file or name)}, 422)
        return _json(self._collection_json(held, key))

    def _collection_json(self, held: Any, key: Any) -> dict[str, Any]:
        return {
            "id": held.id, "name": held.name, "format": held.format,
            "cards": [{"index": c.index, "line": c.line, "card": c.card,
                       "problems": [p.to_json(held.name) for p in c.problems]} for c in held.cards],
            "check": self.rules.check(held.cards, key, deck=True).to_json(),
        }

    def download(self, body: Any) -> tuple[int, str, bytes]:
        """The collection held, with the page's edits, written as ``migrate`` writes it."""
        held = self._held(body)
        key = self.edition(body.get("edition"))
        edits = self._edits(body, held)
        made = {}
        for index, card in edits.items():
            original = held.cards[index].card
            if original is None:
                continue  # (an unreadable entry is kept as it is)
            legal = self.rules.judge(card, key).legal if "migration" in original else True
            made[index] = edit_of(original, card, legal)
        return 200, "application/octet-stream", held.written(made)

    def _held(self, body: Any) -> Any:
        held = self.collections.get(_need(body, "collection", str))
        if held is None:
            raise BadRequest("that collection is no longer open here: open it again")
        return held

    def _edits(self, body: Any, held: Any) -> dict[int, dict]:
        edits = body.get("edits") or {}
        if not isinstance(edits, dict):
            raise BadRequest("'edits' maps a card's index to the card")
        out = {}
        for index, card in edits.items():
            if not str(index).isdigit() or int(index) >= len(held.cards) or not isinstance(card, dict):
                raise BadRequest(f"edits[{index!r}] is no card of the collection")
            out[int(index)] = card
        return out


#: (method, path) → the Workbench method that answers, and how it takes the request
ROUTES: dict[tuple[str, str], tuple[str, str]] = {
    ("GET", "/api/editions"): ("editions", "query"),
    ("GET", "/api/edition"): ("edition_page", "query"),
    ("POST", "/api/judge"): ("judge", "json"),
    ("POST", "/api/wording"): ("wording", "json"),
    ("POST", "/api/check"): ("check", "json"),
    ("POST", "/api/collection"): ("open_collection", "bytes"),
    ("POST", "/api/download"): ("download", "json"),
}

