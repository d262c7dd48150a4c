"""The ``kotc-rulesc`` command line.

Each command lives in its own module under :mod:`kotc_rulesc.commands`; this
module only assembles the group.  Exit codes: 0 success, 1 the data or the
cards have problems (listed), 2 usage or unreadable input.
"""

from __future__ import annotations

import errno
import importlib

import click

from . import __version__

#: command modules, each defining ``command`` (a click command)
COMMAND_MODULES = [
    "rules_commands",
    "card_commands",
    "build_commands",
    "migrate_commands",
    "doc_commands",
]


class _Group(click.Group):
    def list_commands(self, ctx):  # keep the order of COMMAND_MODULES, not alphabetical
        return list(self.commands)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except OSError as exc:
            if exc.errno not in _OUTPUT_ERRORS:
                raise
            # standard output could not be written (a full disk, /dev/full, an I/O error): a clean
            # error, exit 2; a closed pipe (EPIPE) is click's to handle
            click.echo(f"error: cannot write {exc.filename or 'standard output'}: {exc.strerror}", err=True)
            ctx.exit(2)


_OUTPUT_ERRORS = {errno.ENOSPC, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}


@click.group(
    cls=_Group,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="kotc-rulesc")
def main() -> None:
    """Rules-as-data compiler and edition migrator for Keeper of the Cards.

    The rules of every edition live in rules/*.yaml (one short file per
    edition); `build` compiles them into generated/, which `cost`,
    `check-cards` and `migrate` run on.

    \b
    Players:
      kotc-rulesc check-cards examples/collection.yaml --edition 11-pre
      kotc-rulesc cost --edition 9 --type spell --text "Draw 2 cards."
      kotc-rulesc migrate examples/collection.yaml --from 6 --to 11-pre -o new.yaml --report -
    An edition is a number (1, 2, …), or 11-pre: the 11th's pre-release, a
    branch beside the main line that follows the 10th (`editions` lists them).
    \b
    Maintainers:
      kotc-rulesc check                   validate rules/ (every problem, located)
      kotc-rulesc editions                what each edition changed
      kotc-rulesc show --edition 8        the catalog of any edition, folded
      kotc-rulesc diff 9 11-pre           what moved between two editions
      kotc-rulesc new-edition 18          start the next edition's file
      kotc-rulesc build                   regenerate generated/ (tables, passes, docs)
      kotc-rulesc schema edition          the rules files' JSON Schema, for editors

    Exit status: 0 success, 1 problems in the rules or the cards (listed), 2
    usage errors and input that cannot be read. Every command's --help has
    examples; `python -m kotc_rulesc` is the same command line.
    """


for _name in COMMAND_MODULES:
    _module = importlib.import_module(f".commands.{_name}", __package__)
    for _cmd in _module.COMMANDS:
        main.add_command(_cmd)


if __name__ == "__main__":  # pragma: no cover
    main(prog_name="kotc-rulesc")
