"""JSON and JSONL under the input policy, read by the standard library's decoder and nothing else.

The decoder's hooks refuse a key twice, NaN, a float too large and a long integer; depth and lone
surrogate escapes are checked on what was read.  A refused value is walked (:func:`_walk`) to say where.
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Any, Iterator

from . import policy
from .policy import MAX_DEPTH, MAX_DIGITS, InputError, size_text


class JsonProblem(ValueError):
    """A JSON value refused at offset ``pos``; ``syntax``: the text may only be cut short (a stream reads on)."""

    def __init__(self, message: str, pos: int, syntax: bool = False):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.syntax = syntax


class _Refused(Exception):
    """Raised by a decoder hook, with the policy's words."""


def _pairs(pairs: list) -> dict:
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Refused("duplicate key")
    return d


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


def _int(text: str) -> int:
    digits = len(text) - (text[0] == "-")
    if digits > MAX_DIGITS:
        raise _Refused(f"an integer of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if value in (_INF, -_INF):
        raise _Refused(f"the number {text[:20]}{'…' if len(text) > 20 else ''} is too large")
    return value


_INF = float("inf")
_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_float, parse_int=_int)
_raw_decode = _DECODER.raw_decode
_scanstring = json.decoder.scanstring
#: a member's key (group 1, as written) and its colon
_MEMBER = re.compile(r'[ \t\n\r]*"([^"\\]*(?:\\.[^"\\]*)*)"[ \t\n\r]*:[ \t\n\r]*')
_plain_decode = json.JSONDecoder().raw_decode
_WS = re.compile(r"[ \t\n\r]*")
_LONE = re.compile("[\ud800-\udfff]")  # in a decoded string: what a lone surrogate escape leaves
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
#: an escape in JSON text; group 1: a lone surrogate (a high one followed by a low one is a pair)
_ESCAPE = re.compile(r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
                     r"|(u[dD][89a-fA-F][0-9a-fA-F]{2})|.)", re.S)


def json_value(text: str, start: int, depth: int) -> tuple[Any, int]:
    """The JSON value at ``text[start]``, nested ``depth`` deep, under the policy: (value, end)."""
    value, end = _decoded(text, start, depth)
    _check(text, start, end, depth)
    return value, end


def json_line(line: str | bytes) -> Any:
    """One JSONL line, a whole document (bytes: UTF-8 text), under the policy; or :class:`JsonProblem`."""
    if type(line) is bytes:
        line = line.decode("utf-8")
    start = _WS.match(line).end()
    value, end = _decoded(line, start, 0, "the line")
    after = _WS.match(line, end).end()
    if after != len(line):
        raise JsonProblem(*plain_json("Extra data", line, after, "the line"), syntax=True)
    _check(line, start, end, 0)
    return value


def _decoded(text: str, start: int, depth: int, whole: str = "the file") -> tuple[Any, int]:
    try:
        return _raw_decode(text, start)
    except json.JSONDecodeError as exc:
        raise JsonProblem(*plain_json(exc.msg, text, exc.pos, whole), syntax=True) from None
    except (_Refused, RecursionError, ValueError):  # a hook; nesting past the decoder's own depth
        problem = _refusal(text, start, depth)
        problem.message = problem.message or "refused by the input policy"  # (the walk finds each refusal)
        raise problem from None


# -- the decoder's syntax errors in a player's words -------------------------------------------

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_JSON_WORDS = {"True": "true", "False": "false", "None": "null", "TRUE": "true", "FALSE": "false", "NULL": "null",
               "Null": "null"}
_VALUE = "a text in double quotes, a number, true, false, null, a list [...] or a mapping {...}"


def _before(text: str, pos: int) -> int:
    """The offset of the last character before ``pos`` that is not white space (-1: none)."""
    at = pos - 1
    while at >= 0 and text[at] in " \t\r\n":
        at -= 1
    return at


def _trailing_comma(text: str, pos: int) -> tuple[str, int] | None:
    comma = _before(text, pos)
    closer = text[pos:pos + 1]
    if comma >= 0 and text[comma] == "," and closer in ("}", "]"):
        return f"a comma before '{closer}': remove it (JSON allows no comma after the last item)", comma
    return None


def _comma_at(text: str, pos: int, whole: str) -> tuple[str, int]:
    return _trailing_comma(text, _WS.match(text, pos + 1).end()) or ("a comma where none goes: remove it", pos)


def _unquoted(text: str, pos: int, what: str) -> tuple[str, int] | None:
    """A key or a value written without double quotes: single quotes, Python's words, a bare word."""
    c = text[pos:pos + 1]
    if c == "'":
        return f"{what} in single quotes: JSON writes texts and keys in double quotes (\"…\")", pos
    word = _WORD.match(text, pos)
    if word is None:
        return None
    w = word.group()
    if what == "a value" and w in _JSON_WORDS:
        return f"{w} is not JSON: write {_JSON_WORDS[w]} (in lowercase)", pos
    if what == "a value":
        return f'{w} is not a JSON value: a text goes in double quotes ("{w}"); true, false and null are lowercase', pos
    return f'the key {w} has no quotes: write it in double quotes ("{w}")', pos


def _expecting_name(text: str, pos: int, whole: str) -> tuple[str, int]:
    return (_trailing_comma(text, pos) or _unquoted(text, pos, "a key")
            or (f"expected a key in double quotes (\"name\"), found {text[pos]!r}", pos))


_NUMBER_HEAD = re.compile(r"[-+]?\.?[0-9]")
_NUMBER = re.compile(r"[-+]?[0-9A-Za-z_.]*(?:[eE][-+]?[0-9A-Za-z_.]*)?")


def _bad_number(text: str, start: int, pos: int) -> tuple[str, int] | None:
    """A number JSON does not write ("+6", ".5", "06", "6.", "0x6") begun at ``start``, where the decoder
    stopped at ``pos``: said as such, not as a value or a comma missing."""
    if not _NUMBER_HEAD.match(text, start):
        return None
    number = _NUMBER.match(text, start).group()
    return (f"{number} is not a JSON number: write whole numbers without '+' or leading zeros (6), decimals with "
            "digits on both sides of the point (0.5)"), start


def _expecting_value(text: str, pos: int, whole: str) -> tuple[str, int]:
    found = _trailing_comma(text, pos) or _unquoted(text, pos, "a value") or _bad_number(text, pos, pos)
    if found:
        return found
    prev = _before(text, pos)
    if prev >= 0 and text[prev] == ":":
        return f"no value after the ':': write one ({_VALUE})", pos
    if text[pos] == "\ufeff":  # (files joined: each began with one)
        return "a byte-order mark (U+FEFF, which an editor does not show): remove it (one may start the file only)", pos
    return f"{text[pos]!r} cannot start a value: a value is {_VALUE}", pos


def _expecting_comma(text: str, pos: int, whole: str) -> tuple[str, int]:
    c = text[pos]
    start = pos
    while start and text[start - 1] in "0123456789-+.eE":  # (a number the decoder read a part of: "0" of "06")
        start -= 1
    if start < pos and c in "0123456789.eExXoObB_" and (found := _bad_number(text, start, pos)):
        return found
    if c in ("}", "]"):
        return (f"a '{c}' where a ',' or the closing '{'}' if c == ']' else ']'}' should be: brackets close in the "
                "order they open"), pos
    return "a comma is missing before this: put ',' between the items of a list or a mapping", pos


def _control(text: str, pos: int, whole: str) -> tuple[str, int]:
    c = text[pos]
    if c in ("\n", "\r"):
        return "a line break inside a quoted text: close the text on its line (write \\n for a line break)", pos
    if c == "\t":
        return "a tab inside a quoted text: write it as \\t", pos
    return f"the control character U+{ord(c):04X} inside a quoted text: write it as \\u{ord(c):04x}", pos


def _escape(text: str, pos: int, whole: str) -> tuple[str, int]:
    return (f"{text[pos:pos + 2]} is not a JSON escape: write \\\\ for a backslash (the escapes are \\\" \\\\ \\/ \\b "
            "\\f \\n \\r \\t and \\u with four hex digits)"), pos


#: ``JSONDecodeError.msg`` (the decoder's fixed set; its part before ": ") → the words a player reads
_PLAIN_JSON = {
    "Expecting property name enclosed in double quotes": _expecting_name,
    "Illegal trailing comma before end of object": _comma_at,  # (Python 3.13: at the comma)
    "Illegal trailing comma before end of array": _comma_at,
    "Expecting value": _expecting_value,
    "Expecting ',' delimiter": _expecting_comma,
    "Expecting ':' delimiter": lambda text, pos, whole: ("no ':' after the key: write \"key\": value", pos),
    "Unterminated string starting at": lambda text, pos, whole: (
        'a quoted text opened here is never closed: add the closing " (a text stays on its line)', pos),
    "Invalid control character at": _control,
    "Invalid \\escape": _escape,
    "Invalid \\uXXXX escape": lambda text, pos, whole: ("\\u needs four hex digits after it (\\u00e9 is é)", pos),
    "Extra data": lambda text, pos, whole: (f"more text after the end of the JSON value: {whole} holds one value"
                                            + (" (one card per line is JSONL)" if whole == "the file" else ""), pos),
}


#: what the same errors say where the text ends (the decoder found nothing at ``pos``)
_AT_END = {
    "Expecting property name enclosed in double quotes": "ends inside a mapping: finish it and close it with '}'",
    "Expecting value": "ends where a value should be: finish it, and close each '[' and '{' that is open",
    "Expecting ',' delimiter": "ends inside a list or a mapping: close each '[' with ']' and each '{' with '}'",
}


def plain_json(msg: str, text: str, pos: int, whole: str = "the file") -> tuple[str, int]:
    """The decoder's syntax error (``JSONDecodeError.msg`` at ``pos``) in a player's words, saying what
    to fix, and where (a trailing comma: at the comma); ``whole`` is what ``text`` is (a JSONL card:
    "the line").  An error not in the table keeps the decoder's words."""
    kind = msg.partition(": ")[0]
    plain = _PLAIN_JSON.get(kind)
    if plain is None:
        return f"invalid JSON: {msg}", pos
    if pos >= len(text) and kind in _AT_END:
        return f"{whole} {_AT_END[kind]}", pos
    return plain(text, pos, whole)


def _check(text: str, start: int, end: int, depth: int) -> None:
    """What the decoder does not refuse: nesting, lone surrogates (looked for only where the text
    has brackets or escapes enough to hold one)."""
    if text.count("{", start, end) + text.count("[", start, end) + depth > MAX_DEPTH or (
            text.find("\\u", start, end) >= 0 and _SURROGATE_ESCAPE.search(text, start, end)):
        problem = _refusal(text, start, depth)
        if problem.message:
            raise problem


def _walk(text: str, pos: int) -> Iterator[tuple[str, Any, int, int]]:
    """The JSON value at ``text[pos]``, in the order of the text: ``("{" | "[", None, at, at)``,
    ``("}", …)``, ``("key", key, at, end)``, ``("value", scalar, at, end)``.  It stops where the
    text is not JSON.  A scalar the policy refuses raises :class:`JsonProblem` at it."""
    open_ = 0
    n = len(text)
    while pos < n:
        pos = _WS.match(text, pos).end()
        c = text[pos:pos + 1]
        if c in ("{", "["):
            open_ += 1
            yield c, None, pos, pos + 1
            pos += 1
            continue
        if c in ("}", "]"):
            open_ -= 1
            yield "}", None, pos, pos + 1
            pos += 1
        elif c in (",", ":"):
            pos += 1
            continue
        else:
            try:
                value, end = _raw_decode(text, pos)
            except _Refused as exc:
                raise JsonProblem(str(exc), pos) from None
            except ValueError:
                return
            after = _WS.match(text, end).end()
            yield ("key" if c == '"' and text[after:after + 1] == ":" else "value"), value, pos, end
            pos = end
        if open_ <= 0:
            return


def _refusal(text: str, start: int, depth: int) -> JsonProblem:
    """The first thing in the JSON value at ``text[start]`` the policy refuses, located (an empty
    message where there is none)."""
    keys: list[set | None] = []  # per open container: its keys so far (an object), or None
    try:
        for kind, value, at, end in _walk(text, start):
            if kind in ("{", "["):
                if depth + len(keys) + 1 > MAX_DEPTH:
                    return JsonProblem(f"nested more than {MAX_DEPTH} levels deep (mappings and lists)", at)
                keys.append(set() if kind == "{" else None)
            elif kind == "}":
                keys.pop()
            elif type(value) is str and _LONE.search(value):
                at = next((m.start() for m in _ESCAPE.finditer(text, at, end) if m.group(1)), at - 1)
                return JsonProblem(f"a lone UTF-16 surrogate escape {text[at:at + 6]}: not a Unicode character "
                                   "(write the character itself, or a \\uD8xx\\uDCxx pair)", at)
            elif kind == "key" and keys and keys[-1] is not None:
                if value in keys[-1]:
                    return JsonProblem(f"duplicate key {value!r} (each key may appear once in a mapping)", at)
                keys[-1].add(value)
    except JsonProblem as problem:
        return problem
    return JsonProblem("", start)


def json_members(raw: str) -> list[tuple[str, int, int, int]]:
    """The members of the JSON object ``raw`` (read once already: it is valid), in its order: ``(key,
    offset of the key, start, end of the value)``."""
    out = []
    member = _MEMBER.match(raw, _WS.match(raw).end() + 1)  # past "{"
    while member:
        key, start = member.group(1), member.end()
        end = _plain_decode(raw, start)[1]  # (valid: the decoder without the policy's hooks, all in C)
        out.append((_scanstring(raw, member.start(1))[0] if "\\" in key else key, member.start(1) - 1, start, end))
        end = _WS.match(raw, end).end()  # at the ',' or the '}'
        member = _MEMBER.match(raw, end + 1) if raw[end] == "," else None
    return out


def json_keys(raw: str) -> list[tuple[str, int]]:
    """The keys of the JSON object ``raw`` (read once already: it is valid), with their offsets."""
    return [(key, at) for key, at, _, _ in json_members(raw)]


#: a JSONL line whose first field is the name (spaced or compact), written plainly: printable ASCII
#: but the backslash and the quote, not blank
_PLAIN_NAME_FIRST = re.compile(rb'\{"name": ?"( *[!#-\[\]-~][ -!#-\[\]-~]*)"')


def plain_name_at(line: bytes, _match: Any = _PLAIN_NAME_FIRST.match) -> tuple[int, int]:
    """Where the name is, ``(start, end)``, in a JSONL line that starts with a plainly written name, else
    ``(0, 0)``: two such lines the same but for the name read the same but for the name."""
    m = _match(line)
    return m.span(1) if m else (0, 0)


# --------------------------------------------------------------------------- a JSON collection


class JsonStream:
    """One JSON collection (``{"cards": [...]}``, a list of cards, or one card) read card by card in
    bounded memory: :meth:`events` yields ``("raw", text)`` for what lies around the cards and
    ``("card", raw, value, line, indent)`` for each card."""

    def __init__(self, fp: Any, chunk: int = 1 << 16, display: str | None = None):
        self.fp = fp
        self.chunk = chunk
        self.display = display
        self.decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self.buf = ""
        self.pos = 0
        self.keep = 0  # the text before this offset has been handed out
        self.eof = False
        self._line, self._lpos = 1, 0  # the line at offset _lpos
        self._bytes_line = 1  # the line at the end of the bytes read

    def _fail(self, message: str, pos: int | None = None, hint: str | None = None) -> InputError:
        if pos is None:
            return InputError(message, 0, 0, self.display, hint)
        return InputError(message, self.line_at(pos), pos - self.buf.rfind("\n", 0, pos), self.display, hint)

    def _fill(self, want: int = 0) -> bool:
        if self.eof:
            return False
        if self.keep > policy.MAX_LINE:  # drop what was handed out, but the line it ends in (a card's indent)
            drop = self.buf.rfind("\n", max(0, self.keep - 4096), self.keep) + 1 or self.keep
            self.line_at(drop)
            self._lpos -= drop
            self.buf = self.buf[drop:]
            self.pos -= drop
            self.keep -= drop
        data = self.fp.read(max(self.chunk, want))
        if b"\x00" in data:
            line = self._bytes_line + data.count(b"\n", 0, data.index(b"\x00"))
            raise policy.binary(self.display, data, line, 0, not self.buf and self._bytes_line == 1)
        try:
            self.buf += self.decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            line = self._bytes_line + data.count(b"\n", 0, max(exc.start, 0))
            raise InputError(f"the file is not UTF-8 text ({exc.reason})", line, 0, self.display, "save it as UTF-8") from None
        self._bytes_line += data.count(b"\n")
        self.eof = not data
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
            self.pos = _WS.match(self.buf, self.pos).end()
            if self.pos - begin > policy.MAX_LINE:
                raise self._fail(f"more than {size_text(policy.MAX_LINE)} of white space", begin)
            if self.pos < len(self.buf) or not self._fill():
                return

    def _value(self, depth: int) -> tuple[Any, int, int]:
        """The value at ``pos``, read on until it is whole: (value, start, end)."""
        want = self.chunk
        while True:
            start = self.pos
            try:
                value, end = json_value(self.buf, start, depth)
            except JsonProblem as exc:
                if self.eof or not exc.syntax:
                    raise self._fail(exc.message, exc.pos) from None
            else:
                if end < len(self.buf) or self.eof:  # (a number at the end of the buffer may go on)
                    if end - start > policy.MAX_LINE:
                        break
                    self.pos = end
                    return value, start, end
            if len(self.buf) - start > policy.MAX_LINE:
                break
            want *= 2
            self._fill(want)
        raise self._fail(f"a single JSON value larger than {size_text(policy.MAX_LINE)}", start,
                         "a card is far smaller; is this a card collection?")

    def _next(self, expected: str, what: str, inside: str | None = None) -> str:
        """The next character, one of ``expected`` (``what`` names it); ``inside``: the bracketed
        list or mapping it continues ("the list of cards"), closed by ``expected``'s last character."""
        self._ws()
        c = self._peek()
        if c and c in expected:
            self.pos += 1
            return c
        close = expected[-1]
        if not c:
            message = (f"the file ends before {inside} is closed: add '{close}'" if inside
                       else f"the file ends where {what} should be")
        elif inside and c in "]}":
            message = f"a {c!r} where {what} should be: {inside} closes with '{close}' (brackets close in the order they open)"
        elif inside:
            message = f"a comma is missing before this: put ',' between the items of {inside}"
        else:
            message = f"expected {what}, found {c!r}"
        raise self._fail(message, self.pos)

    def _raw(self, upto: int) -> tuple[str, str]:
        text = self.buf[self.keep:upto]
        self.keep = upto
        return ("raw", text)

    def _card(self, start: int, end: int, value: Any) -> tuple:
        line_start = self.buf.rfind("\n", 0, start) + 1
        prefix = self.buf[line_start:start]
        self.keep = end
        return ("card", self.buf[start:end], value, self.line_at(start), prefix[: len(prefix) - len(prefix.lstrip(" \t"))])

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
        """The list at ``pos``, a card at a time."""
        self.pos += 1  # "["
        self._ws()
        if self._peek() == "]":
            self.pos += 1
            return
        while True:
            self._ws()
            yield self._raw(self.pos)
            value, start, end = self._value(depth)
            yield self._card(start, end, value)
            if self._next(",]", "',' or ']' after a card", "the list of cards") == "]":
                return

    def _top_object(self) -> Iterator[tuple]:
        first = self.pos
        self.pos += 1  # "{"
        keys: list[str] = []
        found = False
        self._ws()
        if self._peek() == "}":
            self.pos += 1
        else:
            while True:
                self._ws()
                at = self.pos
                if self._peek() != '"':  # (in the words of any other mapping's: a comma before '}', 'cards')
                    if not self._peek():
                        raise self._fail("the file ends inside the collection's mapping: close it with '}'", at)
                    raise self._fail(*_expecting_name(self.buf, at, ""))
                key, _, _ = self._value(1)
                if key in keys:
                    raise self._fail(f"duplicate key {key!r} (each key may appear once in a mapping)", at)
                keys.append(key)
                self._ws()
                if self._peek() not in ":":
                    raise self._fail(*_PLAIN_JSON["Expecting ':' delimiter"](self.buf, self.pos, ""))
                self._next(":", "':' after the key")
                self._ws()
                if key == "cards":
                    if self._peek() != "[":
                        raise self._fail("'cards' must be a list of cards", self.pos)
                    found = True
                    yield from self._cards(2)
                else:
                    self._value(1)
                if self._next(",}", "',' or '}'", "the collection's mapping") == "}":
                    break
        if found:
            return
        if not any(k in keys for k in ("name", "type", "text")):
            raise self._fail('no cards: expected {"cards": [...]}, a list of cards, or one card', first, policy.no_cards_hint(keys))
        try:  # a single card
            value = json_line(self.buf[first:self.pos])
        except JsonProblem as exc:
            raise self._fail(exc.message, first + exc.pos) from None
        yield self._raw(first)
        yield self._card(first, self.pos, value)
