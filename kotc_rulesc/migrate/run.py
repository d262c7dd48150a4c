"""One migration run: open the collection, migrate it card by card, write it and the report safely.

:func:`run` is what ``kotc-rulesc migrate`` calls once the options are checked; it returns the exit
code.  Nothing is written unless the whole collection was read (the one writer, :mod:`kotc_rulesc.output`).
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
from dataclasses import dataclass
from typing import Any, BinaryIO, Iterator, TextIO

from ..output import AtomicOutput, Busy, GuardedStream, NullOutput, backup_path, destination_problem, lock_exclusive, same_file
from ..reading.policy import Input, InputError, detect_format, open_input, read_blocks, yaml_bytes
from .io_json import BlockResult, Context, json_collection, jsonl_block
from .plan import Migrator
from .progress import Progress
from .report import ReportWriter, Totals, summary_line

__all__ = ["Options", "run", "detect_format", "UsageError"]  # detect_format: the input policy's

ATTENTION = 20  # cards listed on standard error when no report file is asked for
_BOM = b"\xef\xbb\xbf"


class UsageError(Exception):
    """Options that cannot work together (exit 2)."""


@dataclass
class Options:
    collection: str  # a path, or "-" for standard input
    target: int
    assume: int | None = None  # --from
    output: str | None = None  # a path, "-", or None (standard output)
    in_place: bool = False
    dry_run: bool = False
    report: str | None = None  # a path, "-" (standard output), or None
    report_format: str = "text"
    block: int = 1 << 20  # bytes of JSONL per block
    reissue: bool = False
    strict: bool = False  # a card written in the prescribed form (it broke a should rule) fails the run
    verbose: bool = False  # the report names the components' ids and cites every document id


def _report_stream(opts: Options, stdout: BinaryIO) -> tuple[Any, TextIO | None, bool]:
    """(the atomic file or None, a text stream for the report or None, goes to standard output)."""
    target = "-" if opts.report is None and opts.dry_run else opts.report
    if target is None:
        return None, None, False
    if target == "-":
        return None, io.TextIOWrapper(GuardedStream(stdout), encoding="utf-8", write_through=True), True
    sink = AtomicOutput(os.path.realpath(target))  # through a link: replace the file it points to
    return sink, io.TextIOWrapper(sink.file, encoding="utf-8", newline=""), False


def _check_destinations(opts: Options) -> None:
    """Outputs never destroy inputs: -o and --report are regular files (or -), neither the
    collection (nor, with --in-place, its backup) nor each other."""
    collection = None if opts.collection == "-" else opts.collection
    output = None if opts.dry_run or opts.in_place or opts.output in (None, "-") else opts.output
    report = None if opts.report in (None, "-") else opts.report
    for flag, path in (("-o", output), ("--report", report)):
        if path is None:
            continue
        problem = destination_problem(path)
        if problem:
            raise UsageError(f"{flag} {problem}: migrate writes a file and renames it into place; "
                             "for standard output give - " + ("(or leave -o out)" if flag == "-o" else "(--report -)"))
        if same_file(path, collection):
            raise UsageError(f"{flag} {path} is the collection itself: " + (
                "to replace it, use --in-place (which keeps COLLECTION.bak); or write to another file" if flag == "-o"
                else "the report would replace it; write the report to another file (or - for standard output)"))
    if same_file(output, report):
        raise UsageError(f"-o and --report name one file ({report}): one would replace the other")
    if opts.in_place and collection is not None and same_file(report, os.fspath(backup_path(os.path.realpath(collection)))):
        raise UsageError(f"--report {report} is the backup that --in-place keeps of the collection: "
                         "write the report to another file")


def _open_collection(opts: Options) -> tuple[Input, tuple[int, int] | None]:
    """The collection, open; with --in-place also locked (a second run refuses), and the device and
    inode of the file read, which is the file that will be replaced."""
    inp = open_input(opts.collection)
    if not opts.in_place or opts.dry_run:
        return inp, None
    try:
        if not lock_exclusive(inp.fp.fileno(), os.path.realpath(opts.collection)):
            raise Busy(opts.collection)
    except Busy:
        inp.close()
        raise UsageError(f"{opts.collection} is being migrated in place by another run: it holds the file's lock "
                         "(or has just replaced it); run again when that run has finished") from None
    held = os.fstat(inp.fp.fileno())
    return inp, (held.st_dev, held.st_ino)


def run(opts: Options, view: Any, stdout: BinaryIO | None = None, stderr: TextIO | None = None) -> int:
    """Migrate ``opts.collection``; the exit code: 0 when every card ends legal, 1 when any does not
    (with ``strict``: or was written in the form its guide prescribes)."""
    stdout = stdout if stdout is not None else sys.stdout.buffer
    stderr = stderr if stderr is not None else sys.stderr
    if opts.report == "-" and not opts.dry_run and not opts.in_place and opts.output in (None, "-"):
        raise UsageError("the migrated collection goes to standard output; write the report to a file "
                         "(--report FILE), or the collection to one (-o FILE or --in-place)")
    _check_destinations(opts)

    inp, read = _open_collection(opts)
    migrator = Migrator(view, opts.target, opts.assume, reissue=opts.reissue)
    totals, attention, report, unmarked = Totals(), [], None, False
    sink: Any = None
    report_file = report_text = None
    try:
        report_file, report_text, report_on_stdout = _report_stream(opts, stdout)
        if opts.dry_run:
            sink = NullOutput()
        elif opts.in_place:  # through a link: replace the file it points to, not the link
            sink = AtomicOutput(os.path.realpath(opts.collection), backup=True, expect=read)
        else:
            output = opts.output if opts.output is not None else "-"
            sink = AtomicOutput(output if output == "-" else os.path.realpath(output), stdout=stdout)
    except OSError as exc:
        if report_file is not None:
            report_file.discard()
        inp.close()
        raise UsageError(f"cannot write {exc.filename or 'the output'}: {exc.strerror or exc}") from None
    ctx = Context(migrator, opts.report_format if report_text is not None else None, ATTENTION, opts.verbose)
    progress = None
    try:
        head = inp.head()
        fmt = detect_format(opts.collection, head)
        if fmt != "yaml" and head.startswith(_BOM):  # kept, and out of the JSON readers' way
            sink.write(inp.read(len(_BOM)))
        if report_text is not None:
            report = ReportWriter(report_text, opts.report_format, migrator.words)
            report.begin(inp.display, opts.target, opts.assume, opts.dry_run)
        progress = Progress(inp.size, stderr)
        for result, data, size in _migrated(fmt, ctx, inp, opts.block):
            sink.write(data)
            progress.update(size)
            totals.merge(result.totals)
            for entry in result.entries if report is not None else ():
                report.entry(entry)
            unmarked |= result.unmarked and len(attention) < ATTENTION
            attention.extend(result.attention[:max(0, ATTENTION - len(attention))])
        progress.close()
        if report is not None:
            report.end(totals, opts.dry_run)
        if report_text is not None:
            report_text.flush()
            report_text.detach()  # the stream underneath is committed or left open below
            report_text = None
        if opts.in_place and totals["changed"] == 0:  # nothing to replace: the file and its .bak stay as they are
            sink.discard()
            sink = None
        _commit(sink, report_file)
    except BaseException as exc:
        if progress is not None:
            progress.close()
        if sink is not None:
            sink.discard()
        if report_file is not None:
            report_file.discard()
        if isinstance(exc, InputError):
            exc.located(inp.display)
        raise
    finally:
        inp.close()
        if report_text is not None:
            with contextlib.suppress(ValueError):
                report_text.detach()

    if not report_on_stdout:
        print(summary_line(totals, opts.dry_run, migrator.words), file=stderr)
        if report is None and attention:
            for line in attention:
                print(f"  {line}", file=stderr)
            more = totals["banned"] + totals["errors"] - len(attention)
            if more > 0:
                print(f"  … and {more} more", file=stderr)
            none = ", an entry that is no card has none: its reason is the one above" if unmarked else ""
            print(f"  (the reasons are in each card's 'migration' field{none}; --report FILE writes the full report)",
                  file=stderr)
    return 0 if totals.all_legal and not (opts.strict and totals["prescribed"]) else 1


def _commit(*outputs: Any) -> None:
    """Put the outputs in place (None: not written).  A ^C or SIGTERM meanwhile comes too late to stop
    the run and is ignored: an interrupted run (exit 130 or 143) is one that has written nothing."""
    held = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) is not None:  # (None: a handler not set from Python, left alone)
            try:
                held[sig] = signal.signal(sig, signal.SIG_IGN)
            except ValueError:  # not the main thread: signals are not its to handle
                break
    try:
        for out in outputs:
            if out is not None:
                out.commit()
    finally:
        for sig, handler in held.items():
            signal.signal(sig, handler)


def _migrated(fmt: str, ctx: Context, inp: Input, block: int) -> Iterator[tuple[BlockResult, bytes, int]]:
    """The collection migrated a block at a time: (its result, the bytes to write, the bytes done)."""
    if fmt == "yaml":
        from .io_yaml import migrate_yaml  # ruamel.yaml only for YAML collections

        data = yaml_bytes(inp)
        result = migrate_yaml(ctx, data, inp.display)
        yield result, result.output, len(data)
    elif fmt == "jsonl":
        index, line = 0, 1
        for chunk in read_blocks(inp, block, display=inp.display):
            result = jsonl_block(ctx, chunk, index, line)
            yield result, result.output, len(chunk)
            index += result.cards
            line += chunk.count(b"\n")
        if index == 0:
            raise InputError("the file is empty", file=inp.display, hint="JSONL has one card object per line")
    else:
        for result, text in json_collection(ctx, inp, inp.display):
            data = text.encode("utf-8")
            yield result, data, len(data)
