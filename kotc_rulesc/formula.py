"""The formula language: component costs (``3x/2``, ``y²/x``, ``(x+t)/2``) and card-cost rules.

A formula is parsed once into a small tree.  Everything else is derived from that
tree: exact evaluation with :class:`fractions.Fraction` (a cost is rounded up, so a
float error would change a card's cost) and printing in the Card Building Guide's own
notation, which the compiled tables store and read back.  Nothing is ever passed to ``eval``.

Grammar (juxtaposition multiplies, as the guide writes it: ``2x``, ``xt``, ``4xt``)::

    expr    := term (("+" | "-") term)*
    term    := unary (("*" | "/" | <juxtaposition>) unary)*
    unary   := "-" unary | power
    power   := atom ("²" | "³" | "^" INTEGER)?
    atom    := NUMBER | NAME | NAME "(" expr ("," expr)* ")" | "(" expr ")"

A name made only of the component variables ``x y z t`` (``xt``, ``xy``) is their
product; other names (``offense``, ``effect_costs``) stand for themselves.

Limits (the input policy's, for formulas): a number has at most :data:`MAX_DIGITS`
digits, an exponent is a whole number up to :data:`MAX_EXPONENT` and not itself
raised to a power, and a formula nests at most :data:`MAX_DEPTH` levels (brackets,
operations, calls), so that no formula can make the parser or an evaluation run away.
"""

from __future__ import annotations

import math
import operator
import re
from fractions import Fraction
from typing import Any, Mapping, Sequence, Union

from .value import Value

__all__ = [
    "Formula",
    "FormulaError",
    "parse_formula",
    "Num",
    "Var",
    "BinOp",
    "Neg",
    "Pow",
    "Call",
    "COMPONENT_VARIABLES",
    "FUNCTIONS",
    "too_large",
    "EVALUATION_ERRORS",
]

#: single-letter variables that juxtapose ("axt" is a·x·t): a component's own x, y, z, and the
#: t and a its ability's target selection and (from the published 11th) activation condition set
COMPONENT_VARIABLES = frozenset("xyzta")
FUNCTIONS = frozenset({"max", "min", "ceil", "floor", "sum"})
_SUPERSCRIPTS = {"²": 2, "³": 3}
#: the input policy (kotc_rulesc/reading/policy.py) for formulas: digits of a number, the largest exponent,
#: levels of nesting (the engine imports only the standard library: the values are its own)
MAX_DIGITS = 100
MAX_EXPONENT = 9
MAX_DEPTH = 64
#: a value a formula computes is of use up to this many bits (about 1,000 digits); a larger one is
#: too large to compute a card's figure from (:func:`too_large`)
MAX_VALUE_BITS = 3322
#: what evaluating a formula can raise for the data it is given (callers report it, never a traceback):
#: a division by zero, a variable without a value, a list where a number is due
EVALUATION_ERRORS = (ZeroDivisionError, KeyError, TypeError)


def too_large(value: Any) -> bool:
    """Is ``value`` (a Fraction or an int) larger than a figure can be (:data:`MAX_VALUE_BITS`)?"""
    try:
        return value.numerator.bit_length() > MAX_VALUE_BITS or value.denominator.bit_length() > MAX_VALUE_BITS
    except AttributeError:  # not a number (a list, for sum)
        return False
_TO_SUPERSCRIPT = {2: "²", 3: "³"}

Amount = Union[Fraction, int, Sequence[Union[Fraction, int]]]  # what a variable stands for


class FormulaError(ValueError):
    """A formula that does not parse; ``column`` is 1-based within the formula text."""

    def __init__(self, message: str, column: int = 1):
        super().__init__(message)
        self.message = message
        self.column = column


# --------------------------------------------------------------------------- tree


class Num(Value):
    __slots__ = ("value",)

    def __init__(self, value: Fraction):
        self.value = value


class Var(Value):
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name


class BinOp(Value):
    __slots__ = ("op", "left", "right")

    def __init__(self, op: str, left: "Node", right: "Node"):
        self.op = op  # one of + - * /
        self.left = left
        self.right = right


class Neg(Value):
    __slots__ = ("operand",)

    def __init__(self, operand: "Node"):
        self.operand = operand


class Pow(Value):
    __slots__ = ("base", "exponent")

    def __init__(self, base: "Node", exponent: int):
        self.base = base
        self.exponent = exponent


class Call(Value):
    __slots__ = ("name", "args")

    def __init__(self, name: str, args: tuple["Node", ...]):
        self.name = name
        self.args = args


Node = Union[Num, Var, BinOp, Neg, Pow, Call]


# --------------------------------------------------------------------------- lexer

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?|\.\d+)|(?P<name>[A-Za-z_][A-Za-z_0-9]*)|(?P<sup>[²³])|(?P<op>[-+*/^(),]))"
)


_BLANK_END = re.compile(r"\s*\Z")
_BLANK = re.compile(r"\s*")


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    pos = 0
    while pos < len(text):
        if _BLANK_END.match(text, pos):
            break
        m = _TOKEN.match(text, pos)
        if not m:
            col = _BLANK.match(text, pos).end() + 1
            raise FormulaError(f"unexpected character {text[col - 1]!r}", col)
        kind = m.lastgroup
        value = m.group(kind)
        col = m.start(kind) + 1
        if kind == "num" and sum(ch.isdigit() for ch in value) > MAX_DIGITS:
            raise FormulaError(f"a number of {sum(ch.isdigit() for ch in value)} digits (at most {MAX_DIGITS})", col)
        if kind == "name" and value not in FUNCTIONS and len(value) > 1 and set(value) <= COMPONENT_VARIABLES:
            # "xt" is x times t, as the guide writes it
            for i, ch in enumerate(value):
                out.append(("name", ch, col + i))
                if i + 1 < len(value):
                    out.append(("op", "*", col + i + 1))
        else:
            out.append((kind, value, col))
        pos = m.end()
    out.append(("end", "", len(text) + 1))
    return out


# --------------------------------------------------------------------------- parser


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.level = 0  # brackets, calls and signs open

    def deeper(self, col: int) -> None:
        self.level += 1
        if self.level > MAX_DEPTH:
            raise FormulaError(f"the formula nests more than {MAX_DEPTH} levels", col)

    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def take(self) -> tuple[str, str, int]:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def expect(self, value: str) -> None:
        kind, val, col = self.take()
        if val != value or kind != "op":
            found = "the end" if kind == "end" else repr(val)
            raise FormulaError(f"expected {value!r}, found {found}", col)

    def parse(self) -> Node:
        if self.peek()[0] == "end":
            raise FormulaError("empty formula", 1)
        node = self.expr()
        kind, val, col = self.peek()
        if kind != "end":
            raise FormulaError(f"unexpected {val!r}", col)
        if _depth(node) > MAX_DEPTH:
            raise FormulaError(f"the formula nests more than {MAX_DEPTH} levels (operations in a row count too)", 1)
        return node

    def expr(self) -> Node:
        node = self.term()
        while self.peek()[1] in ("+", "-") and self.peek()[0] == "op":
            op = self.take()[1]
            node = BinOp(op, node, self.term())
        return node

    def _starts_atom(self) -> bool:
        kind, val, _ = self.peek()
        return kind in ("num", "name") or (kind == "op" and val == "(")

    def term(self) -> Node:
        node = self.unary()
        while True:
            kind, val, _ = self.peek()
            if kind == "op" and val in ("*", "/"):
                self.take()
                node = BinOp(val, node, self.unary())
            elif self._starts_atom():
                node = BinOp("*", node, self.unary())
            else:
                return node

    def unary(self) -> Node:
        kind, val, _ = self.peek()
        if kind == "op" and val == "-":
            _, _, col = self.take()
            self.deeper(col)
            node = Neg(self.unary())
            self.level -= 1
            return node
        return self.power()

    def power(self) -> Node:
        node = self.atom()
        kind, val, col = self.peek()
        if kind in ("sup", "op") and val in ("²", "³", "^") and any(isinstance(n, Pow) for n in _walk(node)):
            raise FormulaError("a power of a power: write the exponent out (x^6, not (x²)³)", col)
        if kind == "sup":
            self.take()
            return Pow(node, _SUPERSCRIPTS[val])
        if kind == "op" and val == "^":
            self.take()
            kind, val, col = self.take()
            if kind != "num" or not val.isdigit():
                raise FormulaError("an exponent must be a whole number", col)
            if int(val) > MAX_EXPONENT:
                raise FormulaError(f"an exponent above {MAX_EXPONENT}", col)
            return Pow(node, int(val))
        return node

    def atom(self) -> Node:
        kind, val, col = self.take()
        if kind == "num":
            return Num(Fraction(val))
        if kind == "name":
            if self.peek()[1] == "(" and self.peek()[0] == "op" and val not in COMPONENT_VARIABLES:
                # a function call; a single variable before "(" multiplies it, as in a(x + t)/4
                if val not in FUNCTIONS:
                    raise FormulaError(
                        f"unknown function {val!r} (known: {', '.join(sorted(FUNCTIONS))})", col
                    )
                self.take()
                self.deeper(col)
                args = [self.expr()]
                while self.peek()[1] == "," and self.peek()[0] == "op":
                    self.take()
                    args.append(self.expr())
                self.expect(")")
                self.level -= 1
                if val in ("ceil", "floor") and len(args) != 1:
                    raise FormulaError(f"{val} takes one argument, not {len(args)}", col)
                if val == "sum" and (len(args) != 1 or not isinstance(args[0], Var) or args[0].name in COMPONENT_VARIABLES):
                    raise FormulaError("sum adds up a list, such as sum(effect_costs): one name of a list", col)
                return Call(val, tuple(args))
            if val in FUNCTIONS:
                raise FormulaError(f"function {val!r} needs arguments in parentheses", col)
            return Var(val)
        if kind == "op" and val == "(":
            self.deeper(col)
            node = self.expr()
            self.expect(")")
            self.level -= 1
            return node
        found = "the end of the formula" if kind == "end" else repr(val)
        raise FormulaError(f"expected a number, a variable or '(', found {found}", col)


# --------------------------------------------------------------------------- printing

_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}


def _fmt_number(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    den = value.denominator
    places = 0
    for p in (2, 5):
        n = 0
        while den % p == 0:
            den //= p
            n += 1
        places = max(places, n)
    if den == 1:  # a terminating decimal: 0.5, 1.5, 0.25, written out exactly
        digits = str(abs(value.numerator) * 10**places // value.denominator).rjust(places + 1, "0")
        return ("-" if value < 0 else "") + (digits[:-places] + "." + digits[-places:]).rstrip("0")
    return f"{value.numerator}/{value.denominator}"


def _juxtaposable(node: Node) -> bool:
    """Can ``node`` follow another factor without a ``*`` (``2x``, ``xt``, ``2(x+t)``)?"""
    if isinstance(node, Var):
        return node.name in COMPONENT_VARIABLES  # the tokenizer splits "xt", not "qx"
    if isinstance(node, Pow):
        return _juxtaposable(node.base)
    if isinstance(node, BinOp) and node.op == "*":
        return _juxtaposable(node.left) and _juxtaposable(node.right)
    return False


_TRAILING_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")


def _ends_in_name(text: str) -> bool:
    """Would a variable written right after ``text`` run into a name (``q`` then ``x``: ``qx``)?"""
    m = _TRAILING_NAME.search(text)
    return m is not None and not set(m.group()) <= COMPONENT_VARIABLES


def _compact(node: Node, parent_prec: int = 0, right_side: bool = False) -> str:
    if isinstance(node, Num):
        return _fmt_number(node.value)
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Neg):
        return "-" + _compact(node.operand, 3)
    if isinstance(node, Pow):
        base = _compact(node.base, 4)
        return base + _TO_SUPERSCRIPT.get(node.exponent, f"^{node.exponent}")
    if isinstance(node, Call):
        return f"{node.name}({', '.join(_compact(a) for a in node.args)})"
    prec = _PREC[node.op]
    if node.op == "*":
        left = _compact(node.left, prec)
        if isinstance(node.right, BinOp) and node.right.op == "*":
            # a product on the right keeps its brackets, or it would read back as a longer product
            # from the left: "3(2x)" is 3·(2x), "3*2x" is (3·2)·x
            text = left + ("*(" if isinstance(node.left, (Neg, Call)) else "(") + _compact(node.right) + ")"
        elif _juxtaposable(node.right) and not isinstance(node.left, (Neg, Call)) and not _ends_in_name(left):
            text = left + _compact(node.right, prec)
        elif isinstance(node.right, BinOp) and node.right.op in "+-":
            text = left + "(" + _compact(node.right) + ")"
        else:
            text = left + "*" + _compact(node.right, prec, True)
    elif node.op == "/":
        left = _compact(node.left, prec)
        right = node.right
        if isinstance(right, (Num, Var, Pow, Call)):
            text = left + "/" + _compact(right, 4)
        else:
            text = left + "/(" + _compact(right) + ")"
    else:
        text = _compact(node.left, prec) + node.op + _compact(node.right, prec, True)
    needs = prec < parent_prec or (right_side and prec == parent_prec and node.op in "+-/")
    return f"({text})" if needs else text


def _spaced(node: Node, parent_prec: int = 0, right_side: bool = False) -> str:
    if isinstance(node, Num):
        return _fmt_number(node.value)
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Neg):
        return "-" + _spaced(node.operand, 3)
    if isinstance(node, Pow):
        return _spaced(node.base, 4) + f"^{node.exponent}"
    if isinstance(node, Call):
        return f"{node.name}({', '.join(_spaced(a) for a in node.args)})"
    prec = _PREC[node.op]
    op = f" {node.op} " if node.op in "+-" else node.op
    text = _spaced(node.left, prec) + op + _spaced(node.right, prec, True)
    needs = prec < parent_prec or (right_side and prec == parent_prec and node.op in "+-/*")
    return f"({text})" if needs else text


# --------------------------------------------------------------------------- evaluation


def _eval(node: Node, env: Mapping[str, Amount]):
    return _EVAL[node.__class__](node, env)  # (one look-up a node: evaluated for every card costed)


def _var(node: Var, env: Mapping[str, Amount]):
    try:
        value = env[node.name]
    except KeyError:
        raise KeyError(f"formula variable {node.name!r} has no value") from None
    if isinstance(value, float):
        raise TypeError(f"variable {node.name!r} is a float; formulas evaluate exactly")
    return value if isinstance(value, (list, tuple)) else Fraction(value)


def _call(node: Call, env: Mapping[str, Amount]):
    args = [_eval(a, env) for a in node.args]
    if node.name == "sum":
        (seq,) = args
        return sum((Fraction(v) for v in seq), Fraction(0))
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = [Fraction(v) for v in args[0]]
    if node.name == "max":
        return max(args)
    if node.name == "min":
        return min(args)
    if node.name == "ceil":
        return Fraction(math.ceil(args[0]))
    if node.name == "floor":
        return Fraction(math.floor(args[0]))
    raise AssertionError(node.name)


def _divide(left, right):
    if right == 0:
        raise ZeroDivisionError("division by zero in formula")
    return left / right


_OPERATIONS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": _divide}
_EVAL = {
    Num: lambda node, env: node.value,
    Var: _var,
    Neg: lambda node, env: -_eval(node.operand, env),
    Pow: lambda node, env: _eval(node.base, env) ** node.exponent,
    Call: _call,
    BinOp: lambda node, env: _OPERATIONS[node.op](_eval(node.left, env), _eval(node.right, env)),
}


def _depth(node: Node) -> int:
    """Levels of the tree (no recursion: a long chain of operations is a deep tree)."""
    deepest = 0
    todo = [(node, 1)]
    while todo:
        n, d = todo.pop()
        deepest = max(deepest, d)
        if isinstance(n, BinOp):
            todo += [(n.left, d + 1), (n.right, d + 1)]
        elif isinstance(n, Neg):
            todo.append((n.operand, d + 1))
        elif isinstance(n, Pow):
            todo.append((n.base, d + 1))
        elif isinstance(n, Call):
            todo += [(a, d + 1) for a in n.args]
    return deepest


def _walk(node: Node):
    """Every node of the tree, parents first (no recursion)."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        if isinstance(n, BinOp):
            todo += [n.right, n.left]
        elif isinstance(n, Neg):
            todo.append(n.operand)
        elif isinstance(n, Pow):
            todo.append(n.base)
        elif isinstance(n, Call):
            todo += reversed(n.args)


# --------------------------------------------------------------------------- facade


class Formula:
    """A parsed formula.  Two formulas are equal when their trees are equal."""

    __slots__ = ("tree", "_variables", "_notation")

    def __init__(self, tree: Node):
        self.tree = tree
        self._variables: frozenset[str] | None = None  # (asked for every time a cost is evaluated: found once)
        self._notation: str | None = None  # (a card's cost breakdown shows its rule's formulas: printed once)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Formula) and other.tree == self.tree

    def __hash__(self) -> int:
        return hash(self.tree)

    def __repr__(self) -> str:
        return f"Formula(tree={self.tree!r})"

    @property
    def variables(self) -> frozenset[str]:
        if self._variables is None:
            self._variables = frozenset(n.name for n in _walk(self.tree) if isinstance(n, Var))
        return self._variables

    def evaluate(self, env: Mapping[str, Amount]) -> Fraction:
        """The exact value for the given variables (ints, Fractions, or lists for ``sum``)."""
        return _eval(self.tree, env)

    def notation(self) -> str:
        """The guide's notation: ``3x/2``, ``y²/x``; rule formulas print with spaces."""
        if self._notation is None:
            spaced = any(len(v) > 1 for v in self.variables) or any(isinstance(n, Call) for n in _walk(self.tree))
            self._notation = _spaced(self.tree) if spaced else _compact(self.tree)
        return self._notation

    def __str__(self) -> str:
        return self.notation()


def parse_formula(text: str) -> Formula:
    """Parse ``text``; raises :class:`FormulaError` with a column on failure."""
    if not isinstance(text, str):
        raise FormulaError(f"a formula must be a string, not {type(text).__name__}")
    return Formula(_Parser(text).parse())
