"""The ``kotc-rulesc`` command line: the click group over :mod:`kotc_rulesc.commands`, and what every
command shares on the way out (exit statuses, a closed pipe, a full disk, ^C and SIGTERM)."""

from __future__ import annotations

import errno
import gc
import importlib
import os
import signal
import sys
from typing import NoReturn

import click

from . import __version__
from .errors import OutputError, OutputRefused, Terminated, interrupt_status

#: every command, in the order --help lists them, and its module under kotc_rulesc.commands: imported
#: only when that command runs, so that `cost` loads no other command's code
COMMANDS = {
    "check": "rules_commands",
    "editions": "rules_commands",
    "show": "rules_commands",
    "schema": "rules_commands",
    "rules": "rules_commands",
    "cost": "card_commands",
    "check-cards": "card_commands",
    "build": "build_commands",
    "migrate": "migrate_commands",
    "diff": "doc_commands",
    "new-edition": "doc_commands",
    "import-edition": "import_commands",
    "docs": "doc_commands",
    "workbench": "workbench_commands",
}


class _Group(click.Group):
    """A group whose commands load on first use (click's lazy-loading pattern)."""

    def list_commands(self, ctx):  # the order of COMMANDS, not alphabetical
        return list(COMMANDS)

    def get_command(self, ctx, name):
        module = COMMANDS.get(name)
        if module is None:
            return None
        commands = importlib.import_module(f".commands.{module}", __package__).COMMANDS
        return next(c for c in commands if c.name == name)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:  # ^C, or SIGTERM (run): the command has unwound, cleaning up
            click.echo("\nInterrupted.", err=True)
            ctx.exit(interrupt_status(exc))
        except OutputRefused as exc:  # the writer will not write there (kotc_rulesc.output)
            click.echo(f"Error: {exc}", err=True)
            ctx.exit(2)
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                closed_pipe()
            if not isinstance(exc, OutputError) and exc.errno not in _OUTPUT_ERRORS:
                raise
            # a file the writer was writing (it names it: a full disk, a read-only folder), or standard
            # output (a full disk, /dev/full, an I/O error): a clean error, exit 2
            if exc.filename in (None, "<stdout>"):
                click.echo(f"error: cannot write standard output: {exc.strerror}", err=True)
            else:
                click.echo(f"error: cannot write {exc.filename}: {exc.strerror} (nothing was written to it)", err=True)
            ctx.exit(2)


#: the status of a command whose reader closed the pipe early (128 + SIGPIPE, as if the system stopped it)
CLOSED_PIPE = 141


def closed_pipe() -> NoReturn:
    """The reader of standard output is gone (``… | head -1``): stop quietly, standard output pointed
    at /dev/null so that nothing left in its buffer raises again at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    sys.exit(CLOSED_PIPE)


_OUTPUT_ERRORS = {errno.ENOSPC, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}


@click.group(
    cls=_Group,
    # color=True: click removes no ANSI sequence from output that does not go to a terminal, so that a
    # file or a pipe gets the data as it is (on a terminal, kotc_rulesc.terminal escapes them)
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100, "color": True},
)
@click.version_option(__version__, prog_name="kotc-rulesc")
def main() -> None:
    """Rules-as-data compiler and edition migrator for Keeper of the Cards.

    The rules of every edition live in rules/*.yaml (one short file per
    edition); `build` compiles them into generated/, which `cost`,
    `check-cards` and `migrate` run on.

    \b
    Players (the current edition, the 17th, unless --edition says another):
      kotc-rulesc cost --type minion --sp 2 --hp 4 --text "GREED: Draw 1 card."
      kotc-rulesc check-cards examples/mixed-collection.yaml
      kotc-rulesc migrate examples/mixed-collection.yaml --to 17 -o new.yaml --report -
      kotc-rulesc workbench --open    design and check cards and decks in the browser
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
      kotc-rulesc rules export DIR        the bundled rules, to work on anywhere
      kotc-rulesc docs --open             the docs: guides, every edition, search

    Exit status: 0 success, 1 problems in the rules or the cards (listed), 2
    usage errors and input that cannot be read (141: the reader of the output
    closed it early, as in `| head`). Every command's --help has
    examples; `python -m kotc_rulesc` is the same command line.
    """


def run() -> None:
    """The ``kotc-rulesc`` program: :data:`main` in a process of its own.  SIGTERM unwinds the command as
    ^C does, so that it cleans up (exit 143); on a terminal the data's control characters are escaped."""
    gc.freeze()  # (what is loaded by now lives as long as the process: the collector need not walk it)
    signal.signal(signal.SIGTERM, _terminate)
    if _a_terminal(sys.stdout) or _a_terminal(sys.stderr):
        from .terminal import guard

        guard()
    try:
        main(prog_name="kotc-rulesc")
    except SystemExit as exc:
        code = exc.code
    else:  # pragma: no cover - click's standalone mode always exits
        code = 0
    try:  # what is still buffered, written now: a reader gone by then is a closed pipe too
        sys.stdout.flush()
    except BrokenPipeError:
        closed_pipe()
    sys.exit(code)


def _a_terminal(stream) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _terminate(signum, frame):
    raise Terminated()


if __name__ == "__main__":  # pragma: no cover
    run()
