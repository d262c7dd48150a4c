"""The input policy: how every command opens what it reads, README's limits, and :class:`InputError`
(a located problem, exit status 2).  :data:`POLICY` is README's table (a test holds the two together)."""

from __future__ import annotations

import codecs
import json
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any, BinaryIO, Iterator

from ..errors import Problem

#: bytes read at most from an input that is not a regular file (standard input, a pipe, a device)
MAX_STREAM = 1 << 30
#: bytes of a YAML file (a rules file or a collection), which is read whole
MAX_YAML = 16 << 20
#: bytes of one line (YAML, JSONL: one card), characters of one value of a JSON collection
MAX_LINE = 1 << 20
#: levels of nested mappings and lists in a document (a JSONL line, a JSON or YAML file)
MAX_DEPTH = 64
#: digits of an integer
MAX_DIGITS = 100
#: bytes looked at first (the format is sniffed from them, and a binary file stops here)
HEAD = 1 << 16


def no_cards_hint(keys: Any) -> str:
    """What to write where a collection's mapping holds no "cards" list: the key found in its place
    ("Cards", "card"), or an example of a card of the current edition."""
    near = next((k for k in keys if isinstance(k, str) and k.strip().lower() in ("cards", "card")), None)
    if near is not None:
        return f"found {near!r}: the list of cards goes under 'cards', lowercase"
    return 'e.g. {"cards": [{"name": "Insight", "type": "spell", "edition": 17, "level": 2, "text": "Draw 1 card."}]}'


def size_text(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n:,} bytes"


#: README's "Input policy" table: (input, limit, exit status, the message says); tests/test_input_policy.py
#: has a test for each row
POLICY: tuple[tuple[str, str, int, str], ...] = (
    ("standard input, a pipe, a device (not a regular file)", size_text(MAX_STREAM), 2,
     f"more than {size_text(MAX_STREAM)} from a stream"),
    ("a YAML file (rules or a collection), read whole", size_text(MAX_YAML), 2,
     f"larger than {size_text(MAX_YAML)}, the limit for a YAML file"),
    ("a line (YAML, JSONL); one value of a JSON collection", size_text(MAX_LINE), 2,
     f"a line longer than {size_text(MAX_LINE)}"),
    ("nesting of mappings and lists", f"{MAX_DEPTH} levels", 2, f"nested more than {MAX_DEPTH} levels deep"),
    ("an integer", f"{MAX_DIGITS} digits", 2, f"an integer of 5000 digits (at most {MAX_DIGITS})"),
    ("a YAML alias, tag or merge key (*name, !name, <<)", "refused", 2, "a YAML alias (*a): aliases are not allowed"),
    ("a key twice in one mapping", "refused", 2, "duplicate key 'cost'"),
    ("encoding", "UTF-8", 2, "the file is binary (it holds NUL bytes) / UTF-16 text, not UTF-8 / not UTF-8 text / a lone UTF-16 surrogate escape"),
    ("JSON's NaN and Infinity, a number too large for a float", "refused", 2, "NaN is not a JSON number"),
    ("empty input (nothing, white space, only comments)", "refused", 2, "the file is empty"),
    ("anything after the JSON value (or the YAML document)", "refused", 2, "extra data after the collection"),
    ("a JSONL line that breaks a rule about content (not JSON, nesting, an integer, a key twice, "
     "a surrogate, NaN)", "one unreadable card", 1, "card 3: duplicate key 'cost'"),
    ("a number in a card's text", f"{MAX_DIGITS} digits", 1, "a number of 5000 digits (at most 100)"),
    ("a formula in the rules: a number; an exponent; nesting", f"{MAX_DIGITS} digits; 9; {MAX_DEPTH} levels", 1,
     "an exponent above 9"),
    ("a value a formula computes for a card (also: a division by zero)", "3322 bits (about 1,000 digits)", 1,
     "the cost of \"…\" cannot be computed from …: a value of more than 3322 bits"),
)


class InputError(Exception):
    """The input as a whole cannot be read: where (file, line, column) and why.  Exit status 2."""

    def __init__(self, message: str, line: int | None = 0, column: int | None = 0, file: str | None = None,
                 hint: str | None = None):
        self.message = message
        self.line = line or 0
        self.column = column or 0
        self.file = file
        self.hint = hint
        super().__init__(str(self))

    @property
    def problem(self) -> Problem:
        return Problem(self.file or "<input>", self.line, self.column, self.message, self.hint, unreadable=True)

    def located(self, file: str) -> "InputError":
        """This error, naming ``file`` unless it names one already."""
        if not self.file:
            self.file = file
            self.args = (str(self),)
        return self

    def __str__(self) -> str:
        return str(self.problem)


def line_column(data: bytes | str, pos: int, first_line: int = 1) -> tuple[int, int]:
    """1-based line and column of offset ``pos``."""
    nl = b"\n" if isinstance(data, bytes) else "\n"
    return first_line + data.count(nl, 0, pos), pos - data.rfind(nl, 0, pos)


# --------------------------------------------------------------------------- opening and reading


class Input:
    """A file, or ``-`` for standard input, opened under the policy (or :class:`InputError`).

    :meth:`head` looks at the first bytes (to sniff the format and refuse a binary file at once);
    :meth:`read` then returns everything from the start, the head included; an input that is not a
    regular file stops past :data:`MAX_STREAM` bytes."""

    def __init__(self, name: str | os.PathLike):
        self.name = os.fspath(name)
        self.display = "<stdin>" if self.name == "-" else self.name
        self._own = self.name != "-"
        if self._own:
            try:
                self.fp: BinaryIO = open(self.name, "rb")
            except IsADirectoryError:
                raise InputError("is a directory, not a file", file=self.display) from None
            except OSError as exc:
                raise InputError(f"cannot read the file: {exc.strerror or exc}", file=self.display) from None
        else:
            self.fp = sys.stdin.buffer
        try:
            mode = os.fstat(self.fp.fileno()).st_mode
        except (OSError, ValueError, AttributeError):  # a stream without a descriptor (tests)
            mode = 0
        if stat.S_ISDIR(mode):
            self.close()
            raise InputError("is a directory, not a file", file=self.display)
        self.regular = stat.S_ISREG(mode)
        self.size: int | None = os.fstat(self.fp.fileno()).st_size if self.regular else None
        self._head = b""
        self._given = 0  # bytes of the head handed out by read()
        self._read = 0  # bytes read from fp

    def _raw_read(self, n: int) -> bytes:
        """Up to ``n`` bytes: fewer only at the end (``fp`` is buffered), counted against :data:`MAX_STREAM`."""
        try:
            data = self.fp.read(n)
        except OSError as exc:
            raise InputError(f"cannot read the file: {exc.strerror or exc}", file=self.display) from None
        self._read += len(data)
        if not self.regular and self._read > MAX_STREAM:
            raise InputError(f"more than {size_text(MAX_STREAM)} from a stream (standard input, a pipe or a device): "
                             "the limit for input that is not a regular file", file=self.display,
                             hint="save it to a file first")
        return data

    def head(self) -> bytes:
        """The first :data:`HEAD` bytes (fewer at the end of the input), checked: not binary, UTF-8."""
        if not self._read:
            self._head = self._raw_read(HEAD)  # (a buffered read reads on until it has them, or the end)
            decode(self.display, self._head, final=len(self._head) < HEAD)
        return self._head

    def read(self, n: int) -> bytes:
        """The next ``n`` bytes, starting with the head."""
        if self._given < len(self._head):
            rest = self._head[self._given:self._given + n]
            self._given += len(rest)
            return rest
        return self._raw_read(n)

    def read_all(self, limit: int, what: str) -> bytes:
        """Everything, at most ``limit`` bytes (else :class:`InputError` naming ``what``)."""
        too_large = InputError(f"larger than {size_text(limit)}, the limit for {what}", file=self.display,
                               hint="a large collection reads best as JSONL (one card per line), which is streamed")
        if self.size is not None and self.size > limit:
            raise too_large
        data = self._head[self._given:] + self._raw_read(limit + 1 - (len(self._head) - self._given))
        self._given = len(self._head)
        if len(data) > limit:
            raise too_large
        return data

    def close(self) -> None:
        if self._own:
            self.fp.close()

    def __enter__(self) -> "Input":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


open_input = Input


def yaml_bytes(inp: Input) -> bytes:
    """A YAML input read whole: at most :data:`MAX_YAML` bytes."""
    return inp.read_all(MAX_YAML, "a YAML file (it is read whole)")


def yaml_text(inp: Input) -> str:
    """A YAML input read whole: at most :data:`MAX_YAML` bytes, UTF-8, lines of at most :data:`MAX_LINE`."""
    data = yaml_bytes(inp)
    text = decode(inp.display, data)
    check_line_lengths(inp.display, data)
    return text


def binary(display: str | None, data: bytes, line: int, col: int, start: bool) -> InputError:
    """A file holding NUL bytes: UTF-16 text (saved as "Unicode" by some editors and spreadsheets) when
    ``data`` ``start``s the file with a UTF-16 byte-order mark or ASCII as UTF-16 writes it, else binary."""
    if start and (data[:2] in (b"\xff\xfe", b"\xfe\xff") or re.match(rb"[\t\n\r -~]\0[\t\n\r -~]\0|\0[\t\n\r -~]\0[\t\n\r -~]", data)):
        return InputError("the file is UTF-16 text, not UTF-8", 1, 1, display, "save it as UTF-8")
    return InputError("the file is binary (it holds NUL bytes), not text", line, col, display,
                      "a collection is YAML, JSON or JSONL text, a rules file YAML, both in UTF-8")


def decode(display: str | None, data: bytes, first_line: int = 1, final: bool = True, bom: bool = True) -> str:
    """``data`` as text: UTF-8 without NUL bytes; at the start of a file (``bom``) one byte-order mark
    is dropped and a second refused.  ``final`` is False for the head of a longer input (which may
    end inside a character)."""
    nul = data.find(b"\x00")
    if nul >= 0:
        line, col = line_column(data, nul, first_line)
        raise binary(display, data, line, col, first_line == 1)
    start = bom and first_line == 1
    codec = "utf-8-sig" if start else "utf-8"
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        if not final and exc.start >= len(data) - 3 and exc.reason == "unexpected end of data":
            text = data[: exc.start].decode(codec)
        else:
            line, col = line_column(data, exc.start, first_line)
            raise InputError(f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x})", line, col, display,
                             "save it as UTF-8") from None
    if start and text.startswith("\ufeff"):
        raise InputError("two byte-order marks (U+FEFF) start the file: one is allowed", 1, 1, display,
                         "remove the second (an editor shows neither)")
    return text


def check_line_lengths(display: str | None, data: bytes) -> None:
    """No line longer than :data:`MAX_LINE` bytes."""
    if len(data) > MAX_LINE:
        for number, line in enumerate(data.split(b"\n"), 1):
            if len(line) > MAX_LINE:
                raise _long_line(display, number)


def _long_line(display: str | None, line: int) -> InputError:
    return InputError(f"a line longer than {size_text(MAX_LINE)}", line, 0, display,
                      "no card or rules entry needs one; is this the file you meant?")


def read_blocks(fp: Any, size: int = 1 << 20, display: str | None = None) -> Iterator[bytes]:
    """Whole lines, about ``size`` bytes at a time; the last block may lack a final newline.  A line over
    :data:`MAX_LINE` bytes stops with :class:`InputError`."""
    rest = b""
    line = 1  # the line ``rest`` starts on
    size = min(size, MAX_LINE)
    while True:
        chunk = fp.read(size)
        if not chunk:
            if rest:
                yield rest
            return
        cut = chunk.rfind(b"\n")
        if cut < 0:
            rest += chunk
            if len(rest) > MAX_LINE:
                raise _long_line(display, line)
            continue
        if rest and len(rest) + chunk.find(b"\n") > MAX_LINE:
            raise _long_line(display, line)
        block = rest + chunk[: cut + 1] if rest else chunk[: cut + 1]
        rest = chunk[cut + 1:]
        line += block.count(b"\n")
        yield block


def jsonl_lines(display: str | None, block: bytes, first_line: int = 1, bom: bool = True) -> list[bytes]:
    """The lines of a block of whole JSONL lines (:func:`read_blocks`), once the block is known to be
    UTF-8 text without NUL bytes (an ASCII block is known at once); a byte-order mark that starts
    the file is dropped when ``bom``."""
    if b"\x00" in block or not block.isascii():
        decode(display, block, first_line, bom=bom)
    if bom and first_line == 1 and block.startswith(codecs.BOM_UTF8):
        block = block[len(codecs.BOM_UTF8):]
    return block.split(b"\n")


def blank_line(line: bytes) -> bool:
    """A line (UTF-8) with nothing but white space, as :meth:`str.isspace` reads white space."""
    return not line or line.isspace() or (line[0] != 123 and line.decode("utf-8").isspace())  # 123: "{"


# --------------------------------------------------------------------------- formats

#: a collection's format by its file name's extension (else it is sniffed from the content)
FORMAT_BY_SUFFIX = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json", ".yaml": "yaml", ".yml": "yaml"}


def detect_format(name: str, head: bytes) -> str:
    """``yaml``, ``json`` or ``jsonl``: by the file's extension, else by its first bytes.

    Text that starts with ``[`` is JSON; with ``{``, JSONL when its first line is a whole JSON value
    (not a ``{"cards": ...}`` collection on one line) or most other lines are (a broken first card),
    else JSON, unless its first key has no quotes (``{cards: …}``, a YAML flow mapping).  Anything else
    is YAML."""
    by_suffix = FORMAT_BY_SUFFIX.get(Path(name).suffix.lower()) if name != "-" else None
    if by_suffix:
        return by_suffix
    text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    if text.startswith("["):
        return "json"
    if not text.startswith("{"):
        return "yaml"
    lines = [line for line in text.split("\n") if line.strip()]
    if len(head) >= HEAD and len(lines) > 1:
        lines.pop()  # it may be cut short
    first = _json_or_none(lines[0])
    if first is None:
        rest = lines[1:]
        if rest and 2 * sum(isinstance(_json_or_none(line), dict) for line in rest) >= len(rest):
            return "jsonl"
        return "json" if text[1:].lstrip(" \t\r\n")[:1] in ('"', "}", "") else "yaml"
    return "json" if isinstance(first, dict) and "cards" in first else "jsonl"


def _json_or_none(line: str) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None
