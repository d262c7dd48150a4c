"""How editions are written on the command line: ``10``, ``10th``, or a pre-release, ``11-pre``."""

from __future__ import annotations

from typing import Any, Iterable

import click

from ..model import EditionKey, parse_edition_key

_LONGEST = 24  # the longest edition a command line may name ("1000000000th-pre" and then some)


class EditionType(click.ParamType):
    """An edition: a number on the main line (10) or a pre-release branch (11-pre)."""

    name = "edition"

    def convert(self, value: Any, param: Any, ctx: Any) -> EditionKey:
        if isinstance(value, str) and len(value.strip()) > _LONGEST:  # (never a number of thousands of digits)
            self.fail(f"{value[:_LONGEST]!r}… is not an edition: write a number (10) or a pre-release (11-pre)", param, ctx)
        try:
            return parse_edition_key(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)

    def shell_complete(self, ctx: Any, param: Any, incomplete: str) -> list:
        """The editions of the bundled rules' compiled tables."""
        from click.shell_completion import CompletionItem

        try:
            from ..cards.rules_source import tables_for

            keys = tables_for(None).keys
        except Exception:  # no tables: no suggestions, never an error while typing
            return []
        return [CompletionItem(str(k)) for k in keys if str(k).startswith(incomplete)]


EDITION = EditionType()


def describe_keys(keys: Iterable[EditionKey]) -> str:
    """ "1–10, 11-pre, 11, 12" """
    keys = list(keys)
    main = [k for k in keys if isinstance(k, int)]
    return ", ".join(([f"{main[0]}–{main[-1]}"] if main else []) + [str(k) for k in keys if not isinstance(k, int)])


def check_known(keys: Iterable[EditionKey], key: EditionKey, option: str) -> EditionKey:
    """``key`` if the rules know it, else a usage error naming the editions they know."""
    keys = list(keys)
    if key not in keys:
        raise click.BadParameter(f"the rules know editions {describe_keys(keys)}", param_hint=f"'{option}'")
    return key
