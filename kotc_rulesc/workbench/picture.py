"""A card's picture: an SVG of what the rulebooks' "Card Types and Layout" lists (a type without stats
has "a pair of triangles instead"); where each thing sits is this drawing's own, as the transcriptions
have no pictures.  Deterministic, and without font metrics: text wraps at an average character width.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

__all__ = ["card_svg"]

WIDTH, HEIGHT = 250, 350
_PAD = 14
_TEXT_TOP, _TEXT_BOTTOM = 196, 300  # the ability text's box
_CHAR = 0.53  # average width of a character, in ems (a sans-serif face)


def _wrap(words: list[tuple[str, str]], size: float, width: float) -> list[list[tuple[str, str]]]:
    """Words (each with its style) in lines at most ``width`` wide, set at ``size``."""
    per_line = max(int(width / (size * _CHAR)), 8)
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0
    for word, style in words:
        need = len(word) + (1 if lines[-1] else 0)
        if lines[-1] and used + need > per_line:
            lines.append([])
            used, need = 0, len(word)
        lines[-1].append((word, style))
        used += need
    return [line for line in lines if line]


def _paragraph_words(paragraph: str) -> list[tuple[str, str]]:
    """A paragraph's words, each styled: ``name`` (the ability's name, in capitals), ``tutorial`` (a
    sentence in parentheses, set in italics) or ``text``."""
    from ..cards.parse import split_paragraph

    name, sentences = split_paragraph(paragraph)
    words = [(w, "name") for w in f"{name}:".split()] if name else []
    for sentence in sentences:
        bare = sentence.strip().strip("*_").strip()
        style = "tutorial" if bare.startswith("(") and bare.endswith(")") else "text"
        words += [(w, style) for w in (bare if style == "tutorial" else sentence).split()]
    return words


_STYLE = {"name": ' font-weight="bold"', "tutorial": ' font-style="italic"', "text": ""}


def _text_block(paragraphs: list[str], top: float, bottom: float) -> list[str]:
    """The ability text, set as large as fits between ``top`` and ``bottom`` (9.5 down to 5)."""
    width = WIDTH - 2 * _PAD - 8
    size = 9.5
    while True:
        laid = [_wrap(_paragraph_words(p), size, width) for p in paragraphs]
        height = sum(len(lines) for lines in laid) * size * 1.25 + (len(laid) - 1) * size * 0.5
        if height <= bottom - top or size <= 5:
            break
        size = round(size - 0.5, 1)
    out = []
    y = top + size
    for lines in laid:
        for line in lines:
            spans = "".join(f"<tspan{_STYLE[style]}>{escape(word)}{' ' if i < len(line) - 1 else ''}</tspan>"
                            for i, (word, style) in enumerate(line))
            out.append(f'<text x="{_PAD + 4}" y="{y:.1f}" font-size="{size}" xml:space="preserve">{spans}</text>')
            y += size * 1.25
        y += size * 0.5
    return out


def _fit(text: str, size: float, width: float) -> str:
    """``text`` cut (with an ellipsis) to ``width`` at ``size``."""
    most = max(int(width / (size * _CHAR)), 4)
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"


def card_svg(card: dict[str, Any], system: Any, figure: int | None = None, ultra_points: int | None = None) -> str:
    """The SVG of ``card`` (a mapping of its fields) in an edition whose :class:`~kotc_rulesc.api.CardSystem`
    is ``system``.  The figure drawn is the one the card prints, else ``figure`` (the computed one);
    the Ultra Points are drawn where there are any (``ultra_points``, the sum of its texts' [+N])."""
    name = card.get("name") if isinstance(card.get("name"), str) else ""
    kind = str(card.get("type") or "").strip().lower()
    ctype = next((t for t in system.types if t.id == kind), None)
    printed = card.get(system.figure)
    shown = printed if isinstance(printed, int) and not isinstance(printed, bool) else figure
    text = card.get("text") if isinstance(card.get("text"), str) else ""
    paragraphs = [line.strip() for line in text.splitlines() if line.strip()]
    indicator = card.get("edition")
    label = escape(name or "a card", {'"': "&quot;"})
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH * 2}" height="{HEIGHT * 2}" '
        f'font-family="DejaVu Sans, Verdana, sans-serif" role="img" aria-label="{label}">',
        f"<title>{escape(name or 'A card')}</title>",
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="12" fill="#f7f3e8" stroke="#2f2a24" stroke-width="2"/>',
        f'<rect x="{_PAD}" y="{_PAD}" width="{WIDTH - 2 * _PAD}" height="26" rx="4" fill="#fffdf7" stroke="#2f2a24"/>',
        f'<text x="{_PAD + 6}" y="{_PAD + 18}" font-size="13" font-weight="bold">{escape(_fit(name, 13, WIDTH - 2 * _PAD - 72))}</text>',
    ]
    cx, cy = WIDTH - _PAD - 14, _PAD + 13
    out.append(f'<circle cx="{cx}" cy="{cy}" r="15" fill="#2f2a24"/>')
    out.append(f'<text x="{cx}" y="{cy + 5}" font-size="14" font-weight="bold" fill="#fffdf7" text-anchor="middle">'
               f"{escape('?' if shown is None else str(shown))}</text>")
    if ultra_points:  # its Ultra Points value, beside the level
        out.append(f'<rect x="{cx - 44}" y="{cy - 7}" width="24" height="14" rx="7" fill="#b8860b"/>')
        out.append(f'<text x="{cx - 32}" y="{cy + 3}" font-size="9" font-weight="bold" fill="#fffdf7" text-anchor="middle">'
                   f"+{ultra_points}</text>")
    top = _PAD + 34
    out.append(f'<rect x="{_PAD}" y="{top}" width="{WIDTH - 2 * _PAD}" height="118" fill="#ddd5c3" stroke="#2f2a24"/>')
    out.append(f'<text x="{WIDTH / 2}" y="{top + 63}" font-size="9" fill="#6b6257" text-anchor="middle">card image</text>')
    out.append(f'<text x="{_PAD + 2}" y="{top + 132}" font-size="9" font-style="italic" fill="#4a4339">'
               f"{escape(kind.capitalize() if kind else '')}</text>")
    flavor = card.get("flavor") if isinstance(card.get("flavor"), str) else ""
    bottom = _TEXT_BOTTOM - (14 if flavor else 0)
    out.append(f'<rect x="{_PAD}" y="{_TEXT_TOP - 6}" width="{WIDTH - 2 * _PAD}" height="{_TEXT_BOTTOM - _TEXT_TOP + 10}" '
               f'fill="#fffdf7" stroke="#2f2a24"/>')
    out += _text_block(paragraphs, _TEXT_TOP - 2, bottom)
    if flavor:
        out.append(f'<text x="{_PAD + 4}" y="{_TEXT_BOTTOM}" font-size="7.5" font-style="italic" fill="#4a4339">'
                   f"{escape(_fit(flavor, 7.5, WIDTH - 2 * _PAD - 8))}</text>")
    out += _foot(card, ctype, indicator)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _foot(card: dict[str, Any], ctype: Any, indicator: Any) -> list[str]:
    """The stats of the card's type (or a pair of triangles, for a type without any) and the Edition
    Indicator between them."""
    y = HEIGHT - _PAD - 16
    out = []
    stats = list(ctype.stats) if ctype is not None else []
    if stats:
        slots = [(_PAD + 22, "start"), (WIDTH - _PAD - 22, "end")] if len(stats) == 2 else \
            [(_PAD + 22 + i * (WIDTH - 2 * _PAD - 44) / max(len(stats) - 1, 1), "middle") for i in range(len(stats))]
        for stat, (x, anchor) in zip(stats, slots):
            value = card.get(stat.name)
            out.append(f'<text x="{x:.1f}" y="{y + 12}" font-size="14" font-weight="bold" text-anchor="{anchor}">'
                       f'<tspan font-size="8" font-weight="normal">{escape(stat.name.upper())} </tspan>'
                       f"{escape('?' if value is None else str(value))}</text>")
    else:
        for x in (_PAD + 10, WIDTH - _PAD - 30):
            out.append(f'<path d="M{x} {y + 14} l10 -16 l10 16 z" fill="#2f2a24"/>')
    if indicator is not None:
        out.append(f'<rect x="{WIDTH / 2 - 13}" y="{y}" width="26" height="16" rx="3" fill="none" stroke="#2f2a24"/>')
        out.append(f'<text x="{WIDTH / 2}" y="{y + 12}" font-size="10" text-anchor="middle">{escape(str(indicator))}</text>')
    return out
