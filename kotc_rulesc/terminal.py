"""Output to a terminal shows data, it never drives it: card names and texts come from files anyone may
write, so where standard output or error is a terminal, :func:`guard` escapes every character it would
obey (``\\x1b``, ``\\u202e``); newline and tab pass.  Files and pipes get the output as written.
"""

from __future__ import annotations

import codecs
import io
import re
import sys
from typing import TextIO

#: what a terminal would obey: C0 controls but newline and tab, DEL, C1 controls, and the
#: bidirectional formatting characters (ALM, LRM, RLM, LRE–RLO, LRI–PDI)
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escaped(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x20 else f"\\u{code:04x}"


def escape(text: str) -> str:
    """``text`` with every character a terminal would obey written as an escape (``\\x1b``, ``\\u202e``)."""
    return CONTROLS.sub(_escaped, text)


class TerminalText(io.TextIOBase):
    """A text stream in front of a terminal's: what is written goes out escaped; so does what its ``buffer`` takes."""

    def __init__(self, stream: TextIO):
        self.terminal = stream
        self.buffer = _TerminalBytes(self)

    @property
    def encoding(self) -> str:  # (click writes to a stream whose encoding it knows as it is)
        return self.terminal.encoding

    @property
    def errors(self) -> str | None:
        return self.terminal.errors

    def write(self, text: str) -> int:
        self.terminal.write(escape(text))
        return len(text)

    def flush(self) -> None:
        self.terminal.flush()

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.terminal.fileno()

    def writable(self) -> bool:
        return True


class _TerminalBytes(io.RawIOBase):
    """The binary side of :class:`TerminalText`: UTF-8 decoded as it comes, escaped, written to the terminal."""

    def __init__(self, text: TerminalText):
        self._terminal = text.terminal
        self._decoder = codecs.getincrementaldecoder("utf-8")("backslashreplace")

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self._terminal.flush()
        self._terminal.buffer.write(escape(self._decoder.decode(bytes(data))).encode("utf-8"))
        return len(data)

    def flush(self) -> None:
        self._terminal.buffer.flush()


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def guard() -> None:
    """Put :class:`TerminalText` in front of standard output and standard error where they are terminals."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, TerminalText) and _is_terminal(stream):
            setattr(sys, name, TerminalText(stream))


def unguarded(stream):
    """The terminal's own stream under a :class:`TerminalText`: for the progress bar's own control characters."""
    return stream.terminal if isinstance(stream, TerminalText) else stream
