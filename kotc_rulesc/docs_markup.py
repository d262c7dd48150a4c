"""How the docs write what the rules say: text escaped for HTML and for Markdown, marked
rewordings, and formulas as HTML (stacked fractions, powers, ⌈ceil⌉) — used by every page the
renderer writes (:mod:`kotc_rulesc.render`).

Every string from the data is escaped (HTML by jinja2's autoescape and :func:`clean`, Markdown by
:func:`md_escape`), and characters no document may hold (NUL, other control characters) are
shown as U+FFFD.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from markupsafe import Markup, escape

from .formula import BinOp, Call, Formula, Neg, Num, Pow, Var
from .wordiff import Runs

__all__ = ["clean", "md_escape", "finalize_html", "finalize_md", "html_marked", "md_marked", "formula_html"]

# --------------------------------------------------------------------------- escaping

# C0/C1 controls other than tab and line feed, and noncharacters: no HTML document may hold them
_FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")
_NEWLINE = re.compile(r"\r\n|\r|\n")
_MD_SPECIAL = re.compile(r"[\\`*_~<>&|#\[\]]")
_SLOT = re.compile(r"\[[xyz]\]")


def clean(text: str) -> str:
    return _FORBIDDEN.sub("\ufffd", text)


def md_escape(text: str) -> str:
    """Markdown-safe text: special characters backslash-escaped, except the guide's own
    ``[x]`` slots, which stay readable; a line break inside a text becomes ``<br>``."""
    out = []
    pos = 0
    for m in _MD_SPECIAL.finditer(text):
        if m.start() < pos:
            continue
        slot = _SLOT.match(text, m.start())
        if slot and not text.startswith(("(", "[", ":"), slot.end()):
            out.append(text[pos : slot.end()])
            pos = slot.end()
            continue
        out.append(text[pos : m.start()] + "\\" + m.group(0))
        pos = m.end()
    out.append(text[pos:])
    return "<br>".join(_NEWLINE.split(clean("".join(out))))


def finalize_html(value: Any) -> Any:
    if isinstance(value, Markup):
        return value
    if isinstance(value, str):
        return clean(value)
    return value


def finalize_md(value: Any) -> Any:
    if isinstance(value, Markup):
        return str(value)
    if value is None:
        return ""
    if isinstance(value, str):
        return md_escape(value)
    return md_escape(str(value))


def html_marked(runs: Runs) -> Markup:
    return Markup(runs.html(lambda s: str(escape(clean(s)))))


def md_marked(runs: Runs) -> Markup:
    return Markup(runs.markdown(md_escape))


# --------------------------------------------------------------------------- formulas as HTML

_HTML_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}


def formula_html(f: Formula | None) -> Markup:
    """A formula as HTML: stacked fractions, superscript powers, ⌈ceil⌉, Σ sum, × where
    the guide juxtaposes names; the plain notation rides along for copying (``title``)."""
    if f is None:
        return Markup('<span class="formula unknown">unknown</span>')
    return Markup('<span class="formula" title="{}">{}</span>').format(f.notation(), Markup(_node_html(f.tree, 0)))


def _node_html(node: Any, parent: int) -> str:
    if isinstance(node, Num):
        return str(escape(Formula(Num(Fraction(node.value))).notation()))
    if isinstance(node, Var):
        return f"<var>{escape(node.name)}</var>"
    if isinstance(node, Neg):
        return "−" + _node_html(node.operand, 3)
    if isinstance(node, Pow):
        return f"{_node_html(node.base, 4)}<sup>{node.exponent}</sup>"
    if isinstance(node, Call):
        args = [_node_html(a, 0) for a in node.args]
        if node.name == "ceil":
            return f"⌈{args[0]}⌉"
        if node.name == "floor":
            return f"⌊{args[0]}⌋"
        if node.name == "sum":
            return f"Σ&#8239;{args[0]}"
        return f"{node.name}({', '.join(args)})"
    assert isinstance(node, BinOp)
    prec = _HTML_PREC[node.op]
    if node.op == "/":
        # a stacked fraction needs no parentheses inside; the hidden slash is for copy and speech
        text = (
            f'<span class="frac"><span class="num">{_node_html(node.left, 0)}</span>'
            f'<span class="sr"> / </span><span class="den">{_node_html(node.right, 0)}</span></span>'
        )
        return text
    left = _node_html(node.left, prec)
    right = _node_html(node.right, prec + (node.op == "-"))
    if node.op == "*":
        text = f"{left}{right}" if isinstance(node.right, Var) and len(node.right.name) == 1 else f"{left} × {right}"
    else:
        text = f"{left} {'−' if node.op == '-' else '+'} {right}"
    return f"({text})" if prec < parent else text
