"""The formula language: component costs (``3x/2``, ``y²/x``, ``(x+t)/2``) and card-cost rules.

A formula is parsed once into a small tree, evaluated exactly as a :class:`fractions.Fraction` (a cost
is rounded up, so a float error would change a card's cost) and printed in the guide's own notation,
which the compiled tables store.  Nothing is ever passed to ``eval``.  Grammar (juxtaposition
multiplies, as the guide writes ``2x``, ``xt``; a name made only of the variables ``x y z t a`` is
their product, other names stand for themselves)::

    expr  := term (("+" | "-") term)*
    term  := unary (("*" | "/" | <juxtaposition>) unary)*
    unary := "-" unary | atom ("²" | "³" | "^" INTEGER)?
    atom  := NUMBER | NAME | NAME "(" expr ("," expr)* ")" | "(" expr ")"
"""

from __future__ import annotations

import math
import operator
import re
from fractions import Fraction
from typing import Any, Mapping, Sequence, Union

from .value import Value

#: single-letter variables that juxtapose ("axt" is a·x·t): a component's own x, y, z, and the
#: t and a its ability's target selection and (from the published 11th) activation condition set
COMPONENT_VARIABLES = frozenset("xyzta")
_APPLY = {"max": max, "min": min, "ceil": lambda args: Fraction(math.ceil(args[0])),
          "floor": lambda args: Fraction(math.floor(args[0]))}
FUNCTIONS = frozenset({*_APPLY, "sum"})
_SUPERSCRIPTS = {"²": 2, "³": 3}
_TO_SUPERSCRIPT = {2: "²", 3: "³"}
#: the input policy (kotc_rulesc/reading/policy.py) for formulas, so that no formula can make the parser
#: or an evaluation run away: digits of a number, the largest exponent, levels of nesting (brackets,
#: operations, calls); the engine imports only the standard library: the values are its own
MAX_DIGITS = 100
MAX_EXPONENT = 9
MAX_DEPTH = 64
#: a value a formula computes is of use up to this many bits (about 1,000 digits)
MAX_VALUE_BITS = 3322
#: what evaluating a formula can raise for the data it is given (callers report it, never a traceback):
#: a division by zero, a variable without a value, a list where a number is due
EVALUATION_ERRORS = (ZeroDivisionError, KeyError, TypeError)

Amount = Union[Fraction, int, Sequence[Union[Fraction, int]]]  # what a variable stands for


def too_large(value: Any) -> bool:
    """Is ``value`` (a Fraction or an int) larger than a figure can be (:data:`MAX_VALUE_BITS`)?"""
    try:
        return value.numerator.bit_length() > MAX_VALUE_BITS or value.denominator.bit_length() > MAX_VALUE_BITS
    except AttributeError:  # not a number (a list, for sum)
        return False


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


def _walk(node: Node) -> tuple[list[Node], int]:
    """Every node of the tree, and its depth (no recursion: a long chain of operations is a deep tree)."""
    nodes, deepest, todo = [], 0, [(node, 1)]
    while todo:
        n, depth = todo.pop()
        nodes.append(n)
        deepest = max(deepest, depth)
        if isinstance(n, BinOp):
            todo += [(n.left, depth + 1), (n.right, depth + 1)]
        elif isinstance(n, Neg):
            todo.append((n.operand, depth + 1))
        elif isinstance(n, Pow):
            todo.append((n.base, depth + 1))
        elif isinstance(n, Call):
            todo += [(a, depth + 1) for a in n.args]
    return nodes, deepest


# --------------------------------------------------------------------------- parser

#: a token's kind is "num", "name", "bad" or the operator itself
_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d+)?|\.\d+)|(?P<name>[A-Za-z_][A-Za-z_0-9]*)|(?P<op>[-+*/^(),²³])"
                    r"|(?P<bad>\S))")


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        value = m.group(kind)
        col = m.start(kind) + 1
        if kind == "bad":
            raise FormulaError(f"unexpected character {value!r}", col)
        if kind == "num" and len(value.replace(".", "")) > MAX_DIGITS:
            raise FormulaError(f"a number of {len(value.replace('.', ''))} digits (at most {MAX_DIGITS})", col)
        if kind == "name" and value not in FUNCTIONS and len(value) > 1 and set(value) <= COMPONENT_VARIABLES:
            for i, ch in enumerate(value):  # "xt" is x times t, as the guide writes it
                out += [("name", ch, col + i), ("*", "*", col + i + 1)]
            out.pop()
        else:
            out.append((value if kind == "op" else kind, value, col))
    out.append(("end", "", len(text) + 1))
    return out


class _Parser:
    def __init__(self, text: str):
        self.toks = _tokens(text)
        self.i = 0
        self.level = 0  # brackets, calls and signs open

    def deeper(self, col: int) -> None:
        self.level += 1
        if self.level > MAX_DEPTH:
            raise FormulaError(f"the formula nests more than {MAX_DEPTH} levels", col)

    def peek(self) -> str:
        return self.toks[self.i][0]

    def take(self) -> tuple[str, str, int]:
        self.i += 1
        return self.toks[self.i - 1]

    def parse(self) -> Node:
        if self.peek() == "end":
            raise FormulaError("empty formula", 1)
        node = self.expr()
        kind, val, col = self.take()
        if kind != "end":
            raise FormulaError(f"unexpected {val!r}", col)
        if _walk(node)[1] > MAX_DEPTH:
            raise FormulaError(f"the formula nests more than {MAX_DEPTH} levels (operations in a row count too)", 1)
        return node

    def expr(self) -> Node:
        node = self.term()
        while self.peek() in ("+", "-"):
            node = BinOp(self.take()[0], node, self.term())
        return node

    def term(self) -> Node:
        node = self.unary()
        while True:
            if self.peek() in ("*", "/"):
                node = BinOp(self.take()[0], node, self.unary())
            elif self.peek() in ("num", "name", "("):
                node = BinOp("*", node, self.unary())
            else:
                return node

    def unary(self) -> Node:
        if self.peek() == "-":
            self.deeper(self.take()[2])
            node = Neg(self.unary())
            self.level -= 1
            return node
        node = self.atom()
        kind, val, col = self.toks[self.i]
        if kind in ("²", "³", "^") and any(isinstance(n, Pow) for n in _walk(node)[0]):
            raise FormulaError("a power of a power: write the exponent out (x^6, not (x²)³)", col)
        if kind in ("²", "³"):
            self.take()
            return Pow(node, _SUPERSCRIPTS[val])
        if kind == "^":
            self.take()
            kind, val, col = self.take()
            if kind != "num" or not val.isdigit():
                raise FormulaError("an exponent must be a whole number", col)
            if int(val) > MAX_EXPONENT:
                raise FormulaError(f"an exponent above {MAX_EXPONENT}", col)
            return Pow(node, int(val))
        return node

    def bracketed(self, col: int, many: bool) -> list[Node]:
        """``expr ("," expr)* ")"`` (one ``expr`` unless ``many``) after an opening bracket, a level deeper."""
        self.deeper(col)
        args = [self.expr()]
        while many and self.peek() == ",":
            self.take()
            args.append(self.expr())
        kind, val, col = self.take()
        if kind != ")":
            raise FormulaError(f"expected ')', found {'the end' if kind == 'end' else repr(val)}", col)
        self.level -= 1
        return args

    def atom(self) -> Node:
        kind, val, col = self.take()
        if kind == "num":
            return Num(Fraction(val))
        if kind == "name" and self.peek() == "(" and val not in COMPONENT_VARIABLES:
            # a function call; a single variable before "(" multiplies it, as in a(x + t)/4
            if val not in FUNCTIONS:
                raise FormulaError(f"unknown function {val!r} (known: {', '.join(sorted(FUNCTIONS))})", col)
            self.take()
            args = self.bracketed(col, True)
            if val in ("ceil", "floor") and len(args) != 1:
                raise FormulaError(f"{val} takes one argument, not {len(args)}", col)
            if val == "sum" and (len(args) != 1 or not isinstance(args[0], Var) or args[0].name in COMPONENT_VARIABLES):
                raise FormulaError("sum adds up a list, such as sum(effect_costs): one name of a list", col)
            return Call(val, tuple(args))
        if kind == "name":
            if val in FUNCTIONS:
                raise FormulaError(f"function {val!r} needs arguments in parentheses", col)
            return Var(val)
        if kind == "(":
            return self.bracketed(col, False)[0]
        found = "the end of the formula" if kind == "end" else repr(val)
        raise FormulaError(f"expected a number, a variable or '(', found {found}", col)


# --------------------------------------------------------------------------- printing

_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}
_TRAILING_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")


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


def _ends_in_name(text: str) -> bool:
    """Would a variable written right after ``text`` run into a name (``q`` then ``x``: ``qx``)?"""
    m = _TRAILING_NAME.search(text)
    return m is not None and not set(m.group()) <= COMPONENT_VARIABLES


def _print(node: Node, spaced: bool, parent_prec: int = 0, right_side: bool = False) -> str:
    """The guide's compact notation (``3x/2``, ``y²/x``), or ``spaced`` as rule formulas print (``a + b/5``)."""
    if isinstance(node, Num):
        return _fmt_number(node.value)
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Neg):
        return "-" + _print(node.operand, spaced, 3)
    if isinstance(node, Pow):
        power = f"^{node.exponent}" if spaced else _TO_SUPERSCRIPT.get(node.exponent, f"^{node.exponent}")
        return _print(node.base, spaced, 4) + power
    if isinstance(node, Call):
        return f"{node.name}({', '.join(_print(a, spaced) for a in node.args)})"
    prec = _PREC[node.op]
    left = _print(node.left, spaced, prec)
    right = node.right
    if spaced:
        text = left + (f" {node.op} " if node.op in "+-" else node.op) + _print(right, spaced, prec, True)
    elif node.op == "*" and isinstance(right, BinOp) and right.op == "*":
        # a product on the right keeps its brackets, or it would read back as a longer product
        # from the left: "3(2x)" is 3·(2x), "3*2x" is (3·2)·x
        text = left + ("*(" if isinstance(node.left, (Neg, Call)) else "(") + _print(right, spaced) + ")"
    elif node.op == "*" and _juxtaposable(right) and not isinstance(node.left, (Neg, Call)) and not _ends_in_name(left):
        text = left + _print(right, spaced, prec)
    elif node.op == "*" and isinstance(right, BinOp) and right.op in "+-":
        text = left + "(" + _print(right, spaced) + ")"
    elif node.op == "/":
        bare = isinstance(right, (Num, Var, Pow, Call))
        text = left + ("/" + _print(right, spaced, 4) if bare else "/(" + _print(right, spaced) + ")")
    else:
        text = left + node.op + _print(right, spaced, prec, True)
    needs = prec < parent_prec or (right_side and prec == parent_prec and node.op in ("+-/*" if spaced else "+-/"))
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
        return sum((Fraction(v) for v in args[0]), Fraction(0))
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = [Fraction(v) for v in args[0]]
    return _APPLY[node.name](args)


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


class Formula(Value):
    """A parsed formula; two formulas are equal when their trees are."""

    __slots__ = ("tree", "_variables", "_notation")

    def __init__(self, tree: Node):
        self.tree = tree
        self._variables: frozenset[str] | None = None  # (asked for every time a cost is evaluated: found once)
        self._notation: str | None = None  # (a card's cost breakdown shows its rule's formulas: printed once)

    @property
    def variables(self) -> frozenset[str]:
        if self._variables is None:
            self._variables = frozenset(n.name for n in _walk(self.tree)[0] if isinstance(n, Var))
        return self._variables

    def evaluate(self, env: Mapping[str, Amount]) -> Fraction:
        """The exact value for the given variables (ints, Fractions, or lists for ``sum``)."""
        return _eval(self.tree, env)

    def notation(self) -> str:
        """The guide's notation: ``3x/2``, ``y²/x``; rule formulas print with spaces."""
        if self._notation is None:
            spaced = any(len(v) > 1 for v in self.variables) or any(isinstance(n, Call) for n in _walk(self.tree)[0])
            self._notation = _print(self.tree, spaced)
        return self._notation

    def __str__(self) -> str:
        return self.notation()


def parse_formula(text: str) -> Formula:
    """Parse ``text``; raises :class:`FormulaError` with a column on failure."""
    if not isinstance(text, str):
        raise FormulaError(f"a formula must be a string, not {type(text).__name__}")
    return Formula(_Parser(text).parse())
