"""Python source for generated modules: literals, calls and wrapping, formatted deterministically.

The code generator never pastes a string from the rules into code.  Every value
is rendered here, from a small set of types:

* ``str`` → an escaped literal (:func:`str_literal`, from :func:`repr`), wrapped by
  implicit concatenation when it would make a line too long;
* ``int``, ``bool``, ``None`` → their ``repr``;
* ``tuple``, ``list``, ``dict`` (keys rendered the same way) → displays;
* :class:`Call` → ``name(arg, key=value)``, where ``name`` and the keywords must
  be plain identifiers;
* :class:`Name` → a bare identifier the compiler chose (a function it emitted).

Anything else raises :class:`TypeError`, so an unexpected type cannot slip into
the output through ``str()``.  Layout follows the common "magic trailing comma"
style: a value that fits on the rest of its line stays on it, otherwise each
item goes on its own line, indented by four spaces, with a trailing comma.
"""

from __future__ import annotations

import keyword
import re
from typing import Any

__all__ = ["WIDTH", "Call", "Name", "str_literal", "expr", "assign", "wrap_code", "check_identifier"]

#: the longest line the generator writes (a long word in a literal is split to fit)
WIDTH = 99
INDENT = "    "

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def check_identifier(name: str) -> str:
    """``name`` if it is a plain ASCII identifier and not a keyword; else ``ValueError``."""
    if not isinstance(name, str) or not _IDENTIFIER.match(name) or keyword.iskeyword(name):
        raise ValueError(f"not a safe Python identifier: {name!r}")
    return name


class Name:
    """A bare identifier chosen by the compiler (never text from the rules)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = check_identifier(name)


class Call:
    """``func(*args, **kwargs)`` with compiler-chosen ``func`` and keyword names."""

    __slots__ = ("func", "args", "kwargs")

    def __init__(self, func: str, *args: Any, **kwargs: Any):
        for part in func.split("."):
            check_identifier(part)
        for key in kwargs:
            check_identifier(key)
        self.func = func
        self.args = args
        self.kwargs = kwargs  # insertion order is the output order


def str_literal(text: str) -> str:
    """A Python string literal for ``text``: ``repr()``, preferring double quotes.

    ``repr`` escapes backslashes, quotes, newlines and every non-printable
    character, so the literal evaluates to exactly ``text`` and cannot end early."""
    if not isinstance(text, str):
        raise TypeError(f"expected str, got {type(text).__name__}")
    lit = repr(text)
    if lit[0] == "'" and '"' not in text:
        # repr chose single quotes and the text has no double quote; then it has no single
        # quote either (repr would have used double quotes), so the body needs no change.
        lit = '"' + lit[1:-1] + '"'
    return lit


def _flat(value: Any) -> str:
    """The one-line source of ``value``."""
    if isinstance(value, str):
        return str_literal(value)
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(int(value))
    if isinstance(value, Name):
        return value.name
    if isinstance(value, Call):
        parts = [_flat(a) for a in value.args] + [f"{k}={_flat(v)}" for k, v in value.kwargs.items()]
        return f"{value.func}({', '.join(parts)})"
    if isinstance(value, tuple):
        if len(value) == 1:
            return f"({_flat(value[0])},)"
        return "(" + ", ".join(_flat(v) for v in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(_flat(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flat(k)}: {_flat(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot emit a value of type {type(value).__name__}")


def _chunks(text: str, room: int) -> list[str]:
    """Split ``text`` so that each piece's literal fits in ``room`` characters (words kept whole
    where they fit; a space stays at the end of the piece before it)."""
    words = re.findall(r"\S*\s*|\s+", text)
    words = [w for w in words if w]
    pieces: list[str] = []
    current = ""
    for word in words:
        if current and len(str_literal(current + word)) > room:
            pieces.append(current)
            current = ""
        while len(str_literal(word)) > room:  # a single word longer than the room: cut it
            cut = max(1, room - 2)
            while cut > 1 and len(str_literal(word[:cut])) > room:
                cut -= 1
            pieces.append(word[:cut])
            word = word[cut:]
        current += word
    if current:
        pieces.append(current)
    return pieces


def expr(value: Any, indent: int = 0, lead: int = 0, trail: int = 0) -> str:
    """Source for ``value`` starting after ``lead`` characters of a line indented by ``indent``
    levels and followed by ``trail`` characters.  Continuation lines carry their indentation."""
    pad = INDENT * indent
    flat = _flat(value)
    if len(pad) + lead + len(flat) + trail <= WIDTH or (isinstance(value, (str, tuple, list, dict)) and not value):
        return flat  # (an empty value has nothing to break: "(\n)" would be an empty tuple)
    inner = INDENT * (indent + 1)
    if isinstance(value, str):
        room = WIDTH - len(inner)
        lines = [inner + str_literal(piece) for piece in _chunks(value, room)]
        return "(\n" + "\n".join(lines) + "\n" + pad + ")"
    if isinstance(value, Call):
        items = [(None, a) for a in value.args] + list(value.kwargs.items())
        opener, closer = value.func + "(", ")"
    elif isinstance(value, tuple):
        items = [(None, v) for v in value]
        opener, closer = "(", ")"
    elif isinstance(value, list):
        items = [(None, v) for v in value]
        opener, closer = "[", "]"
    elif isinstance(value, dict):
        items = list(value.items())
        opener, closer = "{", "}"
    else:  # a name or a number longer than a line: nothing to break
        return flat
    lines = []
    for key, item in items:
        if isinstance(value, dict):
            breakable = isinstance(item, Call) or (isinstance(item, (str, tuple, list, dict)) and bool(item))
            room_after = 3 if breakable else 2 + len(_flat(item)) + 1  # ": " and the opener, or ": value,"
            head = expr(key, indent + 1, 0, room_after) + ": "
            if "\n" in head:  # a key too long for a line: the value goes on the key's last line
                lines.append(inner + head + expr(item, indent + 1, len(head.rsplit("\n", 1)[1]), 1) + ",")
                continue
        elif key is not None:
            head = key + "="
        else:
            head = ""
        lines.append(inner + head + expr(item, indent + 1, len(head), 1) + ",")
    return opener + "\n" + "\n".join(lines) + "\n" + pad + closer


def assign(name: str, value: Any) -> str:
    """``NAME = value`` as one statement (ending with a newline)."""
    check_identifier(name)
    return f"{name} = {expr(value, 0, len(name) + 3)}\n"


def wrap_code(code: str, indent: int, lead: int) -> str:
    """Wrap compiler-made code (no string literals) at spaces to fit the line width.

    The caller places ``code`` inside brackets, where Python allows a line break
    between any two tokens; continuation lines are indented one level deeper."""
    if "'" in code or '"' in code or "#" in code:
        raise ValueError("wrap_code wraps code without literals or comments")
    pad = INDENT * indent
    if len(pad) + lead + len(code) <= WIDTH:
        return code
    cont = INDENT * (indent + 1)
    lines: list[str] = []
    current = ""
    first_room = WIDTH - len(pad) - lead
    for word in code.split(" "):
        room = first_room if not lines else WIDTH - len(cont)
        candidate = f"{current} {word}" if current else word
        if current and len(candidate) > room:
            lines.append(current)
            current = word
        else:
            current = candidate
    lines.append(current)
    return ("\n" + cont).join(lines)
