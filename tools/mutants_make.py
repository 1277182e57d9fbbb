"""The mutants of ``make mutants`` (tools/mutants.py, docs/mutation.md): what is changed, and where.

The mutants are made from each module's syntax tree by the operators below,
from operator-level changes (``==`` for ``!=`` or ``is``, ``and`` for ``or``, a
number plus or minus one, a keyword's ``True`` made ``False``) to statement-level
ones (a ``raise`` removed, a call statement removed, a returned value replaced by
``None``, a string emptied).  Docstrings, annotations, f-strings and type-only
code are left alone.  Every module under the package is mutated: ``modules``
reads the list from the tree.  ``choose`` draws the sample; ``equivalence_key``
names a mutant in ``[equivalent]``.
"""

from __future__ import annotations

import ast
import functools
import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Mutant:
    """One change to one module: the text between two places replaced."""

    module: str
    """The module's path under the package, e.g. ``tpu/config.py``."""
    line: int
    col: int
    end_line: int
    end_col: int
    operator: str
    original: str
    replacement: str
    on_import: bool = False
    """Whether the line runs when the module is imported (outside any function body)."""
    statement_line: int = 0
    """The first line of the statement the change is in (0: its own line).

    A test that runs that line reaches the statement, though it may not run the
    mutant's own line: ``a or b`` over two lines stops at ``a`` when ``a`` is
    true, where the mutant ``a or b`` -> ``a and b`` differs.
    """

    @property
    def ident(self) -> str:
        """The mutant's name in the output and in ``--retest-survivors``."""
        return f"{self.module}:{self.line}:{self.col} {self.operator}"

    @property
    def change(self) -> str:
        """The change, on one line."""
        original = " ".join(self.original.split())
        return f"{_short(original)} -> {_short(self.replacement.strip()) or '(removed)'}"


def _short(text: str) -> str:
    return text if len(text) <= 70 else text[:67] + "..."


_COMPARE: dict[type[ast.cmpop], tuple[tuple[str, str], ...]] = {
    ast.Eq: (("compare", "!="), ("identity", "is")),
    ast.NotEq: (("compare", "=="), ("identity", "is not")),
    ast.Lt: (("compare", "<="), ("inequality", "!=")),
    ast.LtE: (("compare", "<"),),
    ast.Gt: (("compare", ">="), ("inequality", "!=")),
    ast.GtE: (("compare", ">"),),
    ast.Is: (("compare", "is not"), ("identity", "==")),
    ast.IsNot: (("compare", "is"), ("identity", "!=")),
    ast.In: (("compare", "not in"),),
    ast.NotIn: (("compare", "in"),),
}
"""Each comparison's replacements, with their operator.

``inequality`` makes an order a plain inequality (``i < n`` -> ``i != n``),
which differs only past the bound.  ``identity`` swaps equality and identity:
``a == b`` and ``a is b`` agree on small integers and interned strings only, so
a test that builds its values at run time tells them apart.  It is not made
against ``None``, where both spellings agree for every value the package
compares.
"""
_COMPARE_TOKEN = re.compile(r"==|!=|<=|>=|<|>|\bis\s+not\b|\bnot\s+in\b|\bis\b|\bin\b")
_ARITHMETIC = {ast.Add: "-", ast.Sub: "+", ast.Mult: "/", ast.Div: "*", ast.FloorDiv: "*"}
_ARITHMETIC_TOKEN = re.compile(r"//|[-+*/]")
_BOOLEAN_TOKEN = re.compile(r"\b(?:and|or)\b")
_APPLIED_ANYWAY = {
    "classmethod": frozenset({"field_validator", "model_validator"}),
    "property": frozenset({"computed_field"}),
}
"""Decorators that pydantic applies itself under these: removing one leaves the same class."""


class _Source:
    """A module's text, addressed as the syntax tree addresses it (lines, UTF-8 columns)."""

    def __init__(self, text: str) -> None:
        self.lines = text.encode("utf-8").splitlines(keepends=True)

    def segment(self, line: int, col: int, end_line: int, end_col: int) -> str:
        if line == end_line:
            return self.lines[line - 1][col:end_col].decode("utf-8")
        parts = [self.lines[line - 1][col:], *self.lines[line : end_line - 1]]
        return b"".join([*parts, self.lines[end_line - 1][:end_col]]).decode("utf-8")


def _span(node: ast.AST) -> tuple[int, int, int, int]:
    end_line, end_col = node.end_lineno, node.end_col_offset  # type: ignore[attr-defined]
    return node.lineno, node.col_offset, end_line, end_col  # type: ignore[attr-defined]


def _skipped_nodes(tree: ast.Module) -> set[int]:
    """Nodes whose mutants tell nothing: docstrings, annotations, f-strings, type-only code."""
    skipped: set[int] = set()

    def skip(node: ast.AST | None) -> None:
        if node is not None:
            skipped.update(id(inner) for inner in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            skip(first)
        if isinstance(node, ast.arg | ast.AnnAssign):
            skip(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            skip(node.returns)
            names = {_decorator_name(decorator) for decorator in node.decorator_list}
            if "overload" in names:
                skip(node)
        elif _type_only(node):
            skip(node)
    return skipped


def _type_only(node: ast.AST) -> bool:
    """An f-string (its parts are not mutated), type-only code, ``__all__``, a docstring."""
    if isinstance(node, ast.If):
        return "TYPE_CHECKING" in ast.unparse(node.test)
    if isinstance(node, ast.Assign):
        return any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        )
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in {"TypeVar", "cast"}
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Constant)  # an attribute's docstring
    return isinstance(node, ast.JoinedStr)


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _decorator_name(decorator: ast.expr) -> str | None:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else None


def mutants_of(module: str, text: str) -> list[Mutant]:
    """Every mutant of one module (its path under the package, and its text), in order."""
    tree = ast.parse(text)
    source = _Source(text)
    skipped = _skipped_nodes(tree)
    keyword_values = {
        id(node.value) for node in ast.walk(tree) if isinstance(node, ast.keyword) and node.arg
    }
    found: list[Mutant] = []

    bodies = [
        (node.body[0].lineno if isinstance(node.body, list) else node.body.lineno, node.end_lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
    ]

    statements = sorted(
        (node.lineno, node.end_lineno or node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.stmt)
    )

    def statement_line(line: int) -> int:
        """The first line of the innermost statement holding ``line``."""
        return max((first for first, last in statements if first <= line <= last), default=line)

    def add(span: tuple[int, int, int, int], operator: str, replacement: str) -> None:
        on_import = not any(first <= span[0] <= (last or first) for first, last in bodies)
        original = source.segment(*span)
        first = statement_line(span[0])
        found.append(Mutant(module, *span, operator, original, replacement, on_import, first))

    def swap_token(
        left: ast.AST, right: ast.AST, pattern: re.Pattern[str], new: str, operator: str
    ) -> None:
        """Replace the operator written between two operands."""
        start, end = _span(left)[2:], _span(right)[:2]
        gap = source.segment(*start, *end)
        match = pattern.search(gap)
        if match is None:
            return
        where = start[1] + len(gap[: match.start()].encode("utf-8"))
        line = start[0] + gap[: match.start()].count("\n")
        if line != start[0]:
            where = len(gap[: match.start()].rsplit("\n", 1)[1].encode("utf-8"))
        width = len(match.group().encode("utf-8"))
        text = source.lines[line - 1]
        if new[0].isalpha() and where > 0 and not text[where - 1 : where].isspace():
            new = " " + new  # a==b -> a is b, not aisb
        if new[-1].isalpha() and not text[where + width : where + width + 1].isspace():
            new += " "
        add((line, where, line, where + width), operator, new)

    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for index, op in enumerate(node.ops):
                left, right = operands[index], operands[index + 1]
                against_none = any(_is_none(operand) for operand in (left, right))
                for operator, new in _COMPARE[type(op)]:
                    if not (operator == "identity" and against_none):
                        swap_token(left, right, _COMPARE_TOKEN, new, operator)
        elif isinstance(node, ast.BoolOp):
            new = "or" if isinstance(node.op, ast.And) else "and"
            for left, right in zip(node.values, node.values[1:], strict=False):
                swap_token(left, right, _BOOLEAN_TOKEN, new, "boolean")
        elif isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
            new = _ARITHMETIC[type(node.op)]
            swap_token(node.left, node.right, _ARITHMETIC_TOKEN, new, "arithmetic")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            add(_span(node), "not-removed", f"({source.segment(*_span(node.operand))})")
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                operator = "keyword-constant" if id(node) in keyword_values else "boolean-constant"
                add(_span(node), operator, str(not node.value))
            elif isinstance(node.value, int):
                add(_span(node), "number", repr(node.value + 1))
                add(_span(node), "number-lower", repr(node.value - 1))
            elif isinstance(node.value, str) and node.value:
                add(_span(node), "string-emptied", '""')
        elif isinstance(node, ast.Raise):
            add(_span(node), "raise-removed", "pass")
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call | ast.Await):
            add(_span(node), "call-removed", "pass")
        elif isinstance(node, ast.Return) and node.value is not None:
            if not (isinstance(node.value, ast.Constant) and node.value.value is None):
                add(_span(node), "return-none", "return None")
        elif isinstance(node, ast.Break):
            add(_span(node), "break-continue", "continue")
        elif isinstance(node, ast.Continue):
            add(_span(node), "break-continue", "break")
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names = {_decorator_name(decorator) for decorator in node.decorator_list}
            for decorator in node.decorator_list:
                outer = _APPLIED_ANYWAY.get(_decorator_name(decorator) or "")
                if outer is not None and not isinstance(decorator, ast.Call) and names & outer:
                    continue
                line, col, end_line, end_col = _span(decorator)
                add((line, col - 1, end_line, end_col), "decorator-removed", "")
    return sorted(found, key=_order)


def _order(mutant: Mutant) -> tuple[int, int, str]:
    return mutant.line, mutant.col, mutant.operator


def apply(text: str, mutant: Mutant) -> str:
    """The module's text with the mutant's change made."""
    lines = text.encode("utf-8").splitlines(keepends=True)
    before = b"".join(lines[: mutant.line - 1]) + lines[mutant.line - 1][: mutant.col]
    after = lines[mutant.end_line - 1][mutant.end_col :] + b"".join(lines[mutant.end_line :])
    return (before + mutant.replacement.encode("utf-8") + after).decode("utf-8")


# --- the modules and the sample ------------------------------------------------------------


def modules(package: Path) -> list[str]:
    """Every module of the package: its ``.py`` files, as paths under it."""
    return sorted(path.relative_to(package).as_posix() for path in package.rglob("*.py"))


def equivalence_key(mutant: Mutant, text: str) -> str:
    """How ``[equivalent]`` names a mutant: kept when lines move, unlike its place.

    The key is the module, the operator, the line's text and the change; the
    same change of the same text elsewhere in the module (two ``break``
    lines) adds which one it is, ``| 2 of 2``, so that a key names one mutant.
    """
    return _keys(mutant.module, text)[mutant.ident]


@functools.lru_cache(maxsize=4)
def _keys(module: str, text: str) -> dict[str, str]:
    lines = text.splitlines()
    plain = [
        (
            mutant.ident,
            f"{module} {mutant.operator} | {lines[mutant.line - 1].strip()} | {mutant.change}",
        )
        for mutant in mutants_of(module, text)
    ]
    totals = Counter(key for _, key in plain)
    seen: Counter[str] = Counter()
    keys = {}
    for ident, key in plain:
        if totals[key] > 1:
            seen[key] += 1
            key = f"{key} | {seen[key]} of {totals[key]}"
        keys[ident] = key
    return keys


def choose(
    all_mutants: dict[str, list[Mutant]], sample: int | None, seed: int
) -> dict[str, list[Mutant]]:
    """The mutants run: all of them, or ``sample`` a module drawn with ``seed``.

    Each module has its own generator, seeded by ``seed`` and its name, so a
    module's draw does not depend on the other modules chosen.  The draw is
    spread over the operators: one mutant of each operator the module has, the
    operators in a random order, before a second of any; the rest at random.
    An operator with few mutants in a module (a ``frozen=True`` flipped, an
    ``==`` made ``is``) is drawn as surely as the common ones.
    """
    if sample is None:
        return dict(all_mutants)
    return {module: _draw(module, found, sample, seed) for module, found in all_mutants.items()}


def _draw(module: str, found: list[Mutant], sample: int, seed: int) -> list[Mutant]:
    generator = random.Random(f"{seed}/{module}")
    by_operator: dict[str, list[Mutant]] = {}
    for mutant in found:
        by_operator.setdefault(mutant.operator, []).append(mutant)
    for mutants in by_operator.values():
        generator.shuffle(mutants)
    operators = sorted(by_operator)
    generator.shuffle(operators)
    firsts = [by_operator[operator].pop() for operator in operators]
    rest = [mutant for operator in operators for mutant in by_operator[operator]]
    generator.shuffle(rest)
    return sorted((firsts + rest)[:sample], key=_order)
