"""The input policy: how every command reads every file it is given, and what it refuses.

One module, used by ``check`` (the rules files), ``check-cards``, ``cost`` and
``migrate`` (the card collections, in YAML, JSON and JSONL), so that one file gets
one answer whichever command reads it.  README's "Input policy" lists the limits
(:data:`POLICY`; a test holds the two together).

* **Whole-input errors** raise :class:`InputError`: a located
  :class:`~kotc_rulesc.errors.Problem` marked ``unreadable`` (exit status 2).  They
  are: a file that cannot be opened; more than :data:`MAX_STREAM` bytes from
  anything that is not a regular file (standard input, a pipe, a device); a YAML
  file over :data:`MAX_YAML` bytes; a line over :data:`MAX_LINE` bytes (YAML,
  JSONL) or a single JSON value over :data:`MAX_LINE` characters; NUL bytes or
  text that is not UTF-8; an empty input; and, in a YAML or JSON document, a
  syntax error or anything the content rules below refuse.
* **Content rules** (:func:`json_value`, :func:`json_line`, :func:`load_yaml`):
  nesting deeper than :data:`MAX_DEPTH` mappings and lists, an integer of more
  than :data:`MAX_DIGITS` digits, a duplicate key, a lone UTF-16 surrogate
  escape (``"\\ud83c"``: not a character), YAML aliases (``*name``: refused, so
  that no "billion laughs" can expand), JSON's ``NaN``/``Infinity`` and numbers
  too large for a float, trailing data after the JSON value.  In JSONL every line
  is its own document: a line that breaks a content rule is one unreadable card
  (the others are judged; exit status 1), as a line that is not JSON always was.

Nothing here recurses on the input's structure: JSON is decoded by the standard
library's C decoder with hooks (duplicate keys, constants, floats), and checked
by :func:`_scan`, a flat token scanner that also locates what the decoder
refused; YAML is composed by ruamel.yaml under :func:`yaml_policy`, which counts
depth and refuses aliases before anything is built.  ruamel.yaml is imported only
when a YAML file is read.  ``migrate`` reads a YAML collection first with a faster
reader (:mod:`kotc_rulesc.migrate.yaml_layout`) that declines whatever this policy
would refuse; such a file is then read here, so every refusal has one message.  A JSONL
line is offered to orjson first, several times faster, which takes it only where its
answer cannot differ (:func:`_fast_line`); every line it refuses or is in doubt about
goes the standard library's way.
"""

from __future__ import annotations

import codecs
import json
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any, BinaryIO, Iterator

from .errors import Problem

__all__ = [
    "MAX_STREAM",
    "MAX_YAML",
    "MAX_LINE",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "POLICY",
    "InputError",
    "JsonProblem",
    "Input",
    "open_input",
    "read_file",
    "decode",
    "jsonl_lines",
    "blank_line",
    "check_line_lengths",
    "detect_format",
    "FORMAT_BY_SUFFIX",
    "json_value",
    "json_line",
    "json_keys",
    "plain_name_at",
    "read_blocks",
    "JsonStream",
    "load_yaml",
    "yaml_text",
    "yaml_bytes",
    "yaml_policy",
    "surrogate_at",
]

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


def _size(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n:,} bytes"


#: the policy as README's "Input policy" table states it: (input, limit, exit status, the message
#: says); a test keeps the README and these in step, and tests/test_input_policy.py has a test for each
POLICY: tuple[tuple[str, str, int, str], ...] = (
    ("standard input, a pipe, a device (not a regular file)", _size(MAX_STREAM), 2,
     f"more than {_size(MAX_STREAM)} from a stream"),
    ("a YAML file (rules or a collection), read whole", _size(MAX_YAML), 2,
     f"larger than {_size(MAX_YAML)}, the limit for a YAML file"),
    ("a line (YAML, JSONL); one value of a JSON collection", _size(MAX_LINE), 2,
     f"a line longer than {_size(MAX_LINE)}"),
    ("nesting of mappings and lists", f"{MAX_DEPTH} levels", 2, f"nested more than {MAX_DEPTH} levels deep"),
    ("an integer", f"{MAX_DIGITS} digits", 2, f"an integer of 5000 digits (at most {MAX_DIGITS})"),
    ("a YAML alias (*name, also in a merge key)", "refused", 2, "a YAML alias (*a): aliases are not allowed"),
    ("a key twice in one mapping", "refused", 2, "duplicate key 'cost'"),
    ("encoding", "UTF-8", 2, "the file is binary (it holds NUL bytes) / not UTF-8 text / a lone UTF-16 surrogate escape"),
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

    def __reduce__(self):  # travels back from a worker process intact
        return (InputError, (self.message, self.line, self.column, self.file, self.hint))


class JsonProblem(ValueError):
    """A JSON document (a JSONL line, a value) that the decoder or the policy refuses;
    ``pos`` is the offset in the text where it is.  ``syntax``: the text may only be cut short."""

    def __init__(self, message: str, pos: int, syntax: bool = False):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.syntax = syntax


def _line_col(data: bytes | str, pos: int, first_line: int = 1) -> tuple[int, int]:
    nl = b"\n" if isinstance(data, bytes) else "\n"
    return first_line + data.count(nl, 0, pos), pos - data.rfind(nl, 0, pos)


# --------------------------------------------------------------------------- opening and reading


class Input:
    """An input opened under the policy: a file, or ``-`` for standard input.

    :meth:`head` looks at the first bytes (sniffing the format, refusing a binary file
    at once); :meth:`read` then returns everything from the start, the head included,
    and counts: an input that is not a regular file stops with :class:`InputError`
    past :data:`MAX_STREAM` bytes.  :meth:`tell` is the offset of the bytes returned."""

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
        self._pos = 0  # bytes handed out

    # -- the limits -----------------------------------------------------------

    def _count(self, n: int) -> None:
        self._read += n
        if not self.regular and self._read > MAX_STREAM:
            raise InputError(f"more than {_size(MAX_STREAM)} from a stream (standard input, a pipe or a device): "
                             "the limit for input that is not a regular file", file=self.display,
                             hint="save it to a file first")

    def _raw_read(self, n: int) -> bytes:
        try:
            return self.fp.read(n)
        except OSError as exc:
            raise InputError(f"cannot read the file: {exc.strerror or exc}", file=self.display) from None

    def _fill(self, n: int) -> bytes:
        out = []
        want = n
        while want > 0:
            data = self._raw_read(want)
            if not data:
                break
            self._count(len(data))
            out.append(data)
            want -= len(data)
        return b"".join(out)

    # -- reading --------------------------------------------------------------

    def head(self, n: int = HEAD) -> bytes:
        """The first ``n`` bytes (fewer at the end of the input), checked: not binary, UTF-8."""
        if len(self._head) < n and self._pos == 0:
            self._head += self._fill(n - len(self._head))
            decode(self.display, self._head, final=len(self._head) < n)
        return self._head[:n]

    def read(self, n: int = -1) -> bytes:
        """The next ``n`` bytes (all with ``-1``), starting with the head."""
        if n is None or n < 0:
            rest = self._head[self._given:] + self._fill(1 << 62)
            self._given = len(self._head)
        elif self._given < len(self._head):
            rest = self._head[self._given:self._given + n]
            self._given += len(rest)
        else:
            rest = self._raw_read(n)
            self._count(len(rest))
        self._pos += len(rest)
        return rest

    def read_all(self, limit: int, what: str) -> bytes:
        """Everything, at most ``limit`` bytes (else :class:`InputError` naming ``what``)."""
        if self.size is not None and self.size > limit:
            raise _too_large(self.display, limit, what)
        data = self._head[self._given:] + self._fill(limit + 1 - (len(self._head) - self._given))
        self._given = len(self._head)
        self._pos += len(data)
        if len(data) > limit:
            raise _too_large(self.display, limit, what)
        return data

    def tell(self) -> int:
        return self._pos

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        if self._own:
            self.fp.close()

    def __enter__(self) -> "Input":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _too_large(display: str, limit: int, what: str) -> InputError:
    return InputError(f"larger than {_size(limit)}, the limit for {what}", file=display,
                      hint="a large collection reads best as JSONL (one card per line), which is streamed")


def open_input(name: str | os.PathLike) -> Input:
    """Open ``name`` (``-``: standard input) under the policy, or raise :class:`InputError`."""
    return Input(name)


def read_file(path: str | os.PathLike, display: str | None = None) -> str:
    """The text of a whole YAML file (a rules file) read under the policy (size, encoding, line length)."""
    inp = Input(path)
    if display is not None:
        inp.display = display
    with inp:
        inp.head()
        data = yaml_bytes(inp)
    text = decode(inp.display, data)
    check_line_lengths(inp.display, data)
    return text


def decode(display: str, data: bytes, first_line: int = 1, final: bool = True, bom: bool = True) -> str:
    """``data`` as text: UTF-8 without NUL bytes (a leading byte-order mark dropped when ``bom``).
    ``final`` is False for the start of a longer input (which may end inside a character)."""
    nul = data.find(b"\x00")
    if nul >= 0:
        line, col = _line_col(data, nul, first_line)
        raise InputError("the file is binary (it holds NUL bytes), not text", line, col, display,
                         "a collection is YAML, JSON or JSONL text, a rules file YAML, both in UTF-8")
    try:
        return data.decode("utf-8-sig" if bom and first_line == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        if not final and exc.start >= len(data) - 3 and exc.reason == "unexpected end of data":
            return data[: exc.start].decode("utf-8-sig" if bom and first_line == 1 else "utf-8")
        line, col = _line_col(data, exc.start, first_line)
        raise InputError(f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x})", line, col, display,
                         "save it as UTF-8") from None


def jsonl_lines(display: str | None, block: bytes, first_line: int = 1, bom: bool = True) -> list[bytes]:
    """The lines of ``block``, whole lines of JSONL (:func:`read_blocks`), as bytes — once the block is
    known to be UTF-8 text without NUL bytes (else :class:`InputError`, located; an ASCII block is
    known at once).  A byte-order mark that starts the file is dropped when ``bom``."""
    if b"\x00" in block or not block.isascii():
        decode(display, block, first_line, bom=bom)
    if bom and first_line == 1 and block.startswith(codecs.BOM_UTF8):
        block = block[len(codecs.BOM_UTF8):]
    return block.split(b"\n")


def blank_line(line: bytes) -> bool:
    """A line (UTF-8) with nothing but white space, as :meth:`str.isspace` reads white space."""
    return not line or line.isspace() or (line[0] != 123 and line.decode("utf-8").isspace())  # 123: "{"


def check_line_lengths(display: str, data: bytes, first_line: int = 1) -> None:
    """No line longer than :data:`MAX_LINE` bytes."""
    if len(data) <= MAX_LINE:
        return
    lines = data.split(b"\n")
    if max(map(len, lines)) <= MAX_LINE:
        return
    number = next(i for i, line in enumerate(lines) if len(line) > MAX_LINE)
    raise _long_line(display, first_line + number)


def _long_line(display: str | None, line: int) -> InputError:
    return InputError(f"a line longer than {_size(MAX_LINE)}", line, 0, display,
                      "no card or rules entry needs one; is this the file you meant?")


def read_blocks(fp: Any, size: int = 1 << 20, first: int | None = None, display: str | None = None,
                line: int = 1) -> Iterator[bytes]:
    """Whole lines, about ``size`` bytes at a time (starting at ``first`` bytes and doubling up to
    ``size``, so that the first results come back soon); the last block may lack a final newline.
    A line longer than :data:`MAX_LINE` bytes stops with :class:`InputError` (bytes are read at most
    :data:`MAX_LINE` at a time, so only a line that spans reads can be longer); ``line`` is the number
    of the first line ``fp`` reads (a part of a file that starts further on)."""
    rest = b""  # ``line``: the line ``rest`` starts on
    size = min(size, MAX_LINE)
    step = min(first or size, size)
    while True:
        chunk = fp.read(step)
        step = min(2 * step, size)
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


# --------------------------------------------------------------------------- formats

#: a collection's format by its file name's extension (else it is sniffed from the content)
FORMAT_BY_SUFFIX = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json", ".yaml": "yaml", ".yml": "yaml"}


def detect_format(name: str, head: bytes) -> str:
    """``yaml``, ``json`` or ``jsonl``: by the file's extension, else by its first bytes.

    Text that starts with ``[`` is JSON; with ``{``, it is JSONL when its first line is a whole
    JSON value (other than a ``{"cards": ...}`` collection on one line), or when it is not but
    most of the other lines are (a broken first card); otherwise JSON.  Anything else is YAML."""
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
    try:
        first = json.loads(lines[0])
    except ValueError:
        rest = lines[1:]
        if rest and 2 * sum(_is_object(line) for line in rest) >= len(rest):
            return "jsonl"
        return "json"
    if isinstance(first, dict) and "cards" in first:
        return "json"
    return "jsonl"


def _is_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


# --------------------------------------------------------------------------- JSON


class _Refused(Exception):
    """Raised by a decoder hook; :func:`_scan` then finds where and says why."""


def _pairs(pairs: list) -> dict:
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Refused
    return d


def _constant(name: str) -> Any:
    raise _Refused


def _int(text: str) -> int:
    if len(text) > MAX_DIGITS and len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if value in (_INF, -_INF):
        raise _Refused
    return value


_INF = float("inf")
#: orjson's ``loads`` and ``dumps``, a fast decoder for JSONL lines (json_line; the standard library's
#: is the fallback and the policy's voice): imported with the first line that needs them, as a
#: one-card file never does (importing orjson is a tenth of a one-card run's start-up); ``None``
#: until then, ``False`` where orjson is not installed (a Python it has no wheel for reads as before)
_fast_loads: Any = None
_fast_dumps: Any = None


def _orjson() -> bool:
    global _fast_loads, _fast_dumps
    try:
        from orjson import dumps, loads
    except ImportError:  # pragma: no cover - orjson is a dependency
        _fast_loads = _fast_dumps = False
        return False
    _fast_loads, _fast_dumps = loads, dumps
    return True


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float, parse_int=_int)
_raw_decode = _DECODER.raw_decode
_decode_doc = _DECODER.decode

# what makes a decoded value worth a closer look (both rare in a card): a surrogate escape, and
# more brackets than the depth allows (a long integer stops the decoder: the parse_int hook)
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
_TOKENS = re.compile(
    r'"[^"\\]*(?:\\.[^"\\]*)*"'  # a string
    r"|[\[\]{}:,]"
    r"|-?\d+(\.\d+)?([eE][-+]?\d+)?"  # a number: groups 1 and 2 make it a float
    r"|true|false|null|NaN|-?Infinity"
    r"|\s+",
    re.S,
)
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.S)
_WS = re.compile(r"\s*")


def surrogate_at(text: str) -> int:
    """The offset of the first lone UTF-16 surrogate (escaped, ``\\ud83c``, in JSON text), or -1."""
    if "\\u" not in text:
        return -1
    escapes = list(_ESCAPE.finditer(text))
    i = 0
    while i < len(escapes):
        e = escapes[i]
        code = int(e.group(1), 16) if e.group(1) else None
        if code is not None and 0xD800 <= code <= 0xDBFF:
            nxt = escapes[i + 1] if i + 1 < len(escapes) else None
            low = int(nxt.group(1), 16) if nxt is not None and nxt.group(1) else None
            if nxt is not None and nxt.start() == e.end() and low is not None and 0xDC00 <= low <= 0xDFFF:
                i += 2
                continue
            return e.start()
        if code is not None and 0xDC00 <= code <= 0xDFFF:
            return e.start()
        i += 1
    return -1


def _surrogate_message(escape: str) -> str:
    return (f"a lone UTF-16 surrogate escape {escape}: not a Unicode character "
            "(write the character itself, or a \\uD8xx\\uDCxx pair)")


def _scan(text: str, start: int = 0, end: int | None = None, depth: int = 0) -> tuple[str, int] | None:
    """The first thing in the JSON ``text[start:end]`` that the policy refuses, as (message, offset),
    or None.  A flat scan (no recursion): it also finds what the decoder refused through a hook."""
    end = len(text) if end is None else end
    stack: list[set | None] = []
    for m in _TOKENS.finditer(text, start, end):
        tok = m.group()
        c = tok[0]
        if c in "{[":
            if depth + len(stack) + 1 > MAX_DEPTH:
                return f"nested more than {MAX_DEPTH} levels deep (mappings and lists)", m.start()
            stack.append(set() if c == "{" else None)
        elif c in "}]":
            if stack:
                stack.pop()
        elif c == '"':
            at = surrogate_at(tok)
            if at >= 0:
                return _surrogate_message(tok[at:at + 6]), m.start() + at
            after = _WS.match(text, m.end(), end).end()
            if stack and stack[-1] is not None and after < end and text[after] == ":":
                try:
                    key = json.loads(tok)
                except ValueError:
                    return None
                if key in stack[-1]:
                    return f"duplicate key {key!r} (each key may appear once in a mapping)", m.start()
                stack[-1].add(key)
        elif c == "-" or c.isdigit():
            if tok in ("-Infinity",):
                return f"{tok} is not a JSON number", m.start()
            if m.group(1) is None and m.group(2) is None:
                digits = len(tok) - (c == "-")
                if digits > MAX_DIGITS:
                    return f"an integer of {digits} digits (at most {MAX_DIGITS})", m.start()
            elif abs(float(tok)) == _INF:
                return f"the number {tok[:20]}{'…' if len(tok) > 20 else ''} is too large", m.start()
        elif tok in ("NaN", "Infinity"):
            return f"{tok} is not a JSON number", m.start()
        elif c in ",:" or c.isspace() or tok in ("true", "false", "null"):
            continue
        else:  # pragma: no cover - _TOKENS matches nothing else
            return None
        if m.end() < end and not _TOKENS.match(text, m.end(), end):
            return None  # a syntax error: the decoder says what
    return None


def _refused(text: str, start: int, end: int | None, depth: int) -> JsonProblem:
    found = _scan(text, start, end, depth)
    if found is None:  # pragma: no cover - every hook's refusal is one _scan finds
        return JsonProblem("the JSON is refused by the input policy", start)
    return JsonProblem(*found)


def _check(text: str, start: int, end: int, depth: int) -> None:
    """Refuse a decoded value (``text[start:end]``) that breaks a content rule the decoder does not see."""
    if text.count("{", start, end) + text.count("[", start, end) + depth > MAX_DEPTH or (
            text.find("\\u", start, end) >= 0 and _SURROGATE.search(text, start, end)):
        found = _scan(text, start, end, depth)
        if found is not None:
            raise JsonProblem(*found)


def json_value(text: str, start: int = 0, depth: int = 0) -> tuple[Any, int]:
    """Decode the JSON value at ``text[start]`` under the policy: (value, end), or :class:`JsonProblem`.
    ``depth`` is the nesting the value sits in."""
    try:
        value, end = _raw_decode(text, start)
    except json.JSONDecodeError as exc:
        raise JsonProblem(f"invalid JSON: {exc.msg}", exc.pos, syntax=True) from None
    except (_Refused, RecursionError, ValueError):  # a hook, a value nested past the decoder's own depth, an integer
        raise _refused(text, start, None, depth) from None
    _check(text, start, end, depth)
    return value, end


def json_line(line: str | bytes) -> Any:
    """One JSONL line (a whole JSON document; bytes must be UTF-8 text) under the policy, or
    :class:`JsonProblem` (its offset counts characters).

    A line is first offered to orjson's decoder (several times faster than the standard library's),
    which takes it only where it gives what the standard library does and the policy allows
    (:func:`_fast_line`).  Any other line — refused, or in doubt — is decoded by the standard
    library's decoder under the policy's hooks, which also says, in the policy's words, what is wrong."""
    if _fast_loads or (_fast_loads is None and _orjson()):
        value = _fast_line(line if type(line) is bytes else line.encode("utf-8", "surrogatepass"))
        if value is not _DOUBT:
            return value
    if type(line) is bytes:
        line = line.decode("utf-8")
    try:
        value = _decode_doc(line)
    except json.JSONDecodeError as exc:
        raise JsonProblem(f"invalid JSON: {exc.msg}", exc.pos, syntax=True) from None
    except (_Refused, RecursionError, ValueError):
        raise _refused(line, 0, None, 0) from None
    if line.count("{") + line.count("[") > MAX_DEPTH or ("\\u" in line and _SURROGATE.search(line)):
        found = _scan(line)
        if found is not None:
            raise JsonProblem(*found)
    return value


_DOUBT = object()
#: digits read as 0, "[" as "{": a run of 19 zeros is a long number, and "{" counts every level of nesting
_FOLD = bytes.maketrans(b"123456789[", b"000000000{")
_LONG_NUMBER = b"0" * 19


def _fast_line(raw: bytes) -> Any:
    """``raw`` decoded by orjson, or :data:`_DOUBT` where that might not give what the standard
    library's decoder under the policy gives.  orjson refuses NaN, Infinity, a number too large for
    a float, a lone surrogate and invalid JSON itself.  It reads an integer beyond 64 bits as a
    float: a line with a run of 19 digits is in doubt.  It keeps the last of two equal keys: a colon
    of the text separates a key from its value or stands inside a string, and orjson writes the
    value back with one colon per key and every colon of every string it kept (it never escapes
    one), so a key given twice leaves the text with more colons than the value written back (a colon
    written as an escape, ``\\u003a``, would count in the value and not in the text: such a line is
    in doubt).  And it nests deeper than the policy allows: more brackets than :data:`MAX_DEPTH` is
    a doubt."""
    folded = raw.translate(_FOLD)
    if _LONG_NUMBER in folded or folded.count(b"{") > MAX_DEPTH or b"\\u003" in raw:
        return _DOUBT
    try:
        value = _fast_loads(raw)
        if folded.count(b":") == _fast_dumps(value).count(b":"):
            return value
    except (ValueError, TypeError):  # orjson's JSONDecodeError, JSONEncodeError
        pass
    return _DOUBT


#: a JSONL line whose first field is the name (spaced or compact), the name written plainly: printable
#: ASCII but the backslash (and the quote, which ends it), not blank (the space is the only blank there)
_PLAIN_NAME_FIRST = re.compile(rb'\{"name": ?"( *[!#-\[\]-~][ -!#-\[\]-~]*)"')


def plain_name_at(line: bytes, _match: Any = _PLAIN_NAME_FIRST.match) -> tuple[int, int]:
    """Where the name is in a JSONL line whose first field is the name (``{"name": "…", …``), written
    plainly — printable ASCII, not blank, no escape — as ``(start, end)``; ``(0, 0)`` for any other line.
    The JSON string is then the name itself, and two such lines the same but for the name decode to
    the same value but for the name (the rest of the line decides everything else, also whether the
    input policy takes it): the JSONL readers decode such a line once."""
    m = _match(line)
    return m.span(1) if m else (0, 0)


def json_keys(raw: str) -> list[tuple[str, int]]:
    """The keys of the JSON object ``raw`` (already decoded once: it is valid) with their offsets."""
    out: list[tuple[str, int]] = []
    depth = 0
    for m in _TOKENS.finditer(raw):
        c = m.group()[0]
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
        elif c == '"' and depth == 1:
            after = _WS.match(raw, m.end()).end()
            if after < len(raw) and raw[after] == ":":
                out.append((json.loads(m.group()), m.start()))
    return out


class JsonStream:
    """An incremental reader of one JSON collection, under the policy.

    :meth:`events` yields ``("raw", text)`` for everything around the cards, to be
    copied as it is, and ``("card", raw, value, line, base)`` for each card: its
    exact text, its decoded value, its first line and the indentation of that line.
    Errors are :class:`InputError` naming ``display``."""

    def __init__(self, fp: Any, chunk: int = 1 << 16, display: str | None = None):
        self.fp = fp
        self.chunk = chunk
        self.display = display
        self.decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self.buf = ""
        self.pos = 0
        self.keep = 0  # text before this position has been passed on
        self.eof = False
        self._line = 1  # the line at _lpos
        self._lpos = 0
        self._bytes_line = 1  # the line at the end of the bytes read

    def _fail(self, message: str, pos: int | None = None, hint: str | None = None) -> InputError:
        if pos is None:
            return InputError(message, 0, 0, self.display, hint)
        line = self.line_at(pos)
        return InputError(message, line, pos - self.buf.rfind("\n", 0, pos), self.display, hint)

    # -- buffer -------------------------------------------------------------

    def _fill(self, want: int | None = None) -> bool:
        if self.eof:
            return False
        if self.keep > (1 << 20):
            drop = self.keep
            self._line += self.buf.count("\n", self._lpos, drop) if self._lpos < drop else 0
            self._lpos = max(self._lpos - drop, 0) if self._lpos >= drop else 0
            self.buf = self.buf[drop:]
            self.pos -= drop
            self.keep = 0
        data = self.fp.read(max(self.chunk, want or 0))
        if b"\x00" in data:
            at = data.index(b"\x00")
            line, col = _line_col(data, at, self._bytes_line)
            raise InputError("the file is binary (it holds NUL bytes), not text", line, col if line > self._bytes_line else 0,
                             self.display, "a collection is YAML, JSON or JSONL text in UTF-8")
        try:
            text = self.decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            line = self._bytes_line + data.count(b"\n", 0, max(exc.start, 0))
            raise InputError(f"the file is not UTF-8 text ({exc.reason})", line, 0, self.display, "save it as UTF-8") from None
        self._bytes_line += data.count(b"\n")
        if not data:
            self.eof = True
        self.buf += text
        return bool(data)

    def line_at(self, p: int) -> int:
        if p >= self._lpos:
            self._line += self.buf.count("\n", self._lpos, p)
            self._lpos = p
            return self._line
        return self._line - self.buf.count("\n", p, self._lpos)

    def _peek(self) -> str:
        while self.pos >= len(self.buf):
            if not self._fill():
                return ""
        return self.buf[self.pos]

    def _ws(self) -> None:
        begin = self.pos
        while True:
            buf = self.buf
            p = self.pos
            n = len(buf)
            while p < n and buf[p] in " \t\r\n":
                p += 1
            self.pos = p
            if p - begin > MAX_LINE:
                raise self._fail(f"more than {_size(MAX_LINE)} of white space", begin)
            if p < n or not self._fill():
                return

    def _value(self, depth: int) -> tuple[Any, int, int]:
        """Decode the value at ``pos``: (value, start, end)."""
        start = self.pos
        want = self.chunk
        while True:
            try:
                value, end = json_value(self.buf, start, depth)
            except JsonProblem as exc:
                if self.eof or not exc.syntax:
                    raise self._fail(exc.message, exc.pos) from None
            else:
                if end < len(self.buf) or self.eof:
                    self.pos = end
                    if end - start > MAX_LINE:
                        raise self._fail(f"a single JSON value larger than {_size(MAX_LINE)}", start,
                                         "a card is far smaller; is this a card collection?")
                    return value, start, end
            if len(self.buf) - start > MAX_LINE:
                raise self._fail(f"a single JSON value larger than {_size(MAX_LINE)}", start,
                                 "a card is far smaller; is this a card collection?")
            want *= 2
            self._fill(want)
            start = self.pos  # _fill may have moved the buffer

    def _expect(self, char: str, what: str) -> None:
        self._ws()
        if self._peek() != char:
            got = self._peek() or "the end of the file"
            raise self._fail(f"expected {what}, found {got!r}", self.pos)
        self.pos += 1

    def _raw(self, upto: int | None = None) -> tuple[str, str]:
        end = self.pos if upto is None else upto
        text = self.buf[self.keep:end]
        self.keep = end
        return ("raw", text)

    def _base(self, start: int) -> str:
        ls = self.buf.rfind("\n", 0, start)
        prefix = self.buf[ls + 1:start]
        return prefix[: len(prefix) - len(prefix.lstrip(" \t"))]

    # -- structure ------------------------------------------------------------

    def events(self) -> Iterator[tuple]:
        self._ws()
        c = self._peek()
        if c == "[":
            yield from self._cards(1)
        elif c == "{":
            yield from self._top_object()
        elif c == "":
            raise self._fail("the file is empty", None, 'a collection is {"cards": [...]} in YAML or JSON, or JSONL')
        else:
            raise self._fail(f'expected {{"cards": [...]}} or a list of cards, found {c!r}', self.pos)
        self._ws()
        if self._peek():
            raise self._fail("extra data after the collection", self.pos,
                             "a JSON file holds one value; one card per line is JSONL (name it .jsonl)")
        yield self._raw(len(self.buf))

    def _cards(self, depth: int) -> Iterator[tuple]:
        """The array at ``pos``, one card at a time."""
        self.pos += 1  # '['
        self._ws()
        if self._peek() == "]":
            self.pos += 1
            return
        while True:
            self._ws()
            start = self.pos
            line = self.line_at(start)
            base = self._base(start)
            yield self._raw(start)
            value, start, end = self._value(depth)
            yield ("card", self.buf[start:end], value, line, base)
            self.keep = end
            self._ws()
            c = self._peek()
            if c == ",":
                self.pos += 1
                continue
            if c == "]":
                self.pos += 1
                return
            raise self._fail(f"expected ',' or ']' after a card, found {c or 'the end of the file'!r}", self.pos)

    def _top_object(self) -> Iterator[tuple]:
        first = self.pos
        self.pos += 1  # '{'
        found = False
        keys: list[str] = []
        while True:
            self._ws()
            c = self._peek()
            if c == "}":
                self.pos += 1
                break
            if c != '"':
                raise self._fail(f"expected a key, found {c or 'the end of the file'!r}", self.pos)
            at = self.pos
            key, _, _ = self._value(1)
            if key in keys:
                raise self._fail(f"duplicate key {key!r} (each key may appear once in a mapping)", at)
            keys.append(key)
            self._expect(":", "':'")
            self._ws()
            if key == "cards":
                if self._peek() != "[":
                    raise self._fail("'cards' must be a list of cards", self.pos)
                found = True
                yield from self._cards(2)
            else:
                self._value(1)
            self._ws()
            c = self._peek()
            if c == ",":
                self.pos += 1
            elif c != "}":
                raise self._fail(f"expected ',' or '}}', found {c or 'the end of the file'!r}", self.pos)
        if found:
            return
        if any(k in keys for k in ("name", "type", "text")):  # a single card
            raw = self.buf[first:self.pos]
            try:
                value = json_line(raw)
            except JsonProblem as exc:
                raise self._fail(exc.message, first + exc.pos) from None
            yield self._raw(first)
            yield ("card", raw, value, self.line_at(first), self._base(first))
            self.keep = self.pos
            return
        raise self._fail('no cards: expected {"cards": [...]}, a list of cards, or one card', first)


# --------------------------------------------------------------------------- YAML


def yaml_policy(yaml: Any) -> Any:
    """Put a ruamel.yaml ``YAML`` instance (round trip) under the policy: no duplicate keys, no
    aliases, at most :data:`MAX_DEPTH` levels, integers of at most :data:`MAX_DIGITS` digits, no
    lone surrogates.  Returns it."""
    composer, constructor = _yaml_classes()
    yaml.allow_duplicate_keys = False
    yaml.Composer = composer
    yaml.Constructor = constructor
    yaml.Scanner = _keys_in_order(yaml.Scanner)
    return yaml


_SCANNERS: dict[type, type] = {}


def _keys_in_order(scanner: type) -> type:
    """``scanner`` (ruamel.yaml's) with its possible simple keys walked only as far as needed.

    The scanner keeps one possible simple key per flow level, in a dict that it walked whole at
    every token: quadratic in the nesting of flow collections, a second for a card file of 5,000
    ``[`` before the composer reaches level 65 and the policy refuses it.  A key is saved only
    after the one at its level is removed, so the dict's order is the order of the keys in the
    text; a key goes stale when the scanner leaves its line or is 1,024 characters past it, so
    the stale keys lead the dict.  These two walk it up to the first live key: the very keys
    dropped, the very error raised, as ruamel.yaml's own (tests/test_input_policy.py compares them).
    """
    if getattr(scanner, "_keys_in_order", False):
        return scanner
    if scanner not in _SCANNERS:
        from ruamel.yaml.scanner import ScannerError

        def next_possible_simple_key(self: Any) -> Any:
            keys = self.possible_simple_keys
            return keys[next(iter(keys))].token_number if keys else None

        def stale_possible_simple_keys(self: Any) -> None:
            keys, reader = self.possible_simple_keys, self.reader
            while keys:
                level = next(iter(keys))
                key = keys[level]
                if key.line == reader.line and reader.index - key.index <= 1024:
                    return
                if key.required:
                    raise ScannerError("while scanning a simple key", key.mark, "could not find expected ':'",
                                       reader.get_mark())
                del keys[level]

        _SCANNERS[scanner] = type(scanner.__name__, (scanner,), {
            "_keys_in_order": True, "next_possible_simple_key": next_possible_simple_key,
            "stale_possible_simple_keys": stale_possible_simple_keys})
    return _SCANNERS[scanner]


_YAML_CLASSES: tuple[Any, Any] | None = None


def _yaml_classes() -> tuple[Any, Any]:
    global _YAML_CLASSES
    if _YAML_CLASSES is not None:
        return _YAML_CLASSES
    from ruamel.yaml.composer import Composer, ComposerError
    from ruamel.yaml.constructor import ConstructorError, RoundTripConstructor
    from ruamel.yaml.events import AliasEvent, MappingStartEvent, SequenceStartEvent

    class PolicyComposer(Composer):
        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.parser.peek_event()
            if isinstance(event, AliasEvent):
                raise ComposerError(None, None, f"a YAML alias (*{event.anchor}): aliases are not allowed "
                                    "(write the value out)", event.start_mark)
            if isinstance(event, (MappingStartEvent, SequenceStartEvent)):
                level = getattr(self, "_policy_depth", 0) + 1
                if level > MAX_DEPTH:
                    raise ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep (mappings and lists)",
                                        event.start_mark)
                self._policy_depth = level
                try:
                    return super().compose_node(parent, index)
                finally:
                    self._policy_depth = level - 1
            return super().compose_node(parent, index)

        def compose_scalar_node(self, anchor: Any) -> Any:
            event = self.parser.peek_event()
            value = event.value
            if isinstance(value, str) and _LONE.search(value):
                # a pair of surrogate escapes ("\ud83d\ude00") is one character, as in JSON; a lone one is none
                try:
                    event.value = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
                except UnicodeDecodeError as exc:
                    ch = value[exc.start // 2]
                    raise ComposerError(None, None, _surrogate_message(f"\\u{ord(ch):04x}"), event.start_mark) from None
            return super().compose_scalar_node(anchor)

    class PolicyConstructor(RoundTripConstructor):
        def construct_yaml_int(self, node: Any) -> Any:
            body = str(node.value).replace("_", "").lstrip("+-")
            digits = len(body) - (2 if body[:2].lower() in ("0x", "0o", "0b") else 0)
            if digits > MAX_DIGITS:
                raise ConstructorError(None, None, f"an integer of {digits} digits (at most {MAX_DIGITS})",
                                       node.start_mark)
            return super().construct_yaml_int(node)

    PolicyConstructor.add_constructor("tag:yaml.org,2002:int", PolicyConstructor.construct_yaml_int)
    _YAML_CLASSES = (PolicyComposer, PolicyConstructor)
    return _YAML_CLASSES


_LONE = re.compile("[\ud800-\udfff]")
_DUPLICATE = re.compile(r'duplicate key "(.*?)"')


def load_yaml(yaml: Any, text: str, display: str) -> Any:
    """``yaml.load(text)`` with the policy installed (:func:`yaml_policy`); every refusal and
    syntax error as :class:`InputError`, located.  ``None`` for a document without data."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml_policy(yaml)
    try:
        return yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = (exc.problem or "YAML syntax error").strip()
        hint = None
        if "duplicate key" in message.lower() or type(exc).__name__ == "DuplicateKeyError":
            found = _DUPLICATE.search(message)
            message = f"duplicate key {found.group(1)!r}" if found else message.split("\n")[0]
            hint = "each key may appear once in a mapping"
        elif exc.context and "duplicate" not in message:
            message = f"{exc.context.strip()}: {message}"
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise InputError(message.split("\n")[0] if hint is None else message, line, col, display, hint) from None
    except YAMLError as exc:
        raise InputError(f"YAML error: {str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__}",
                         0, 0, display) from None
    except RecursionError:  # pragma: no cover - the composer counts depth first
        raise InputError(f"nested more than {MAX_DEPTH} levels deep (mappings and lists)", 0, 0, display) from None


def yaml_bytes(inp: Input) -> bytes:
    """A YAML input, read whole: at most :data:`MAX_YAML` bytes."""
    return inp.read_all(MAX_YAML, "a YAML file (it is read whole)")


def yaml_text(inp: Input) -> str:
    """The text of a YAML input, read whole under the policy (size, encoding, line length)."""
    data = yaml_bytes(inp)
    text = decode(inp.display, data)
    check_line_lengths(inp.display, data)
    return text
