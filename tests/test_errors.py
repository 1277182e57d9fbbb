"""estconf._errors, and every error message template of the package, rendered.

A ``PydanticCustomError`` template names its values as ``{name}``, filled from
the context it is raised with; pydantic fills nothing else.  A ``{name!r}`` or
``{name:spec}``, a name the context lacks, or an f-string that lost its ``f``
is printed as written.  The test reads every template of the source, from the
call that raises it back through the constants and helper parameters that
carry it, renders it with its context's keys, and checks that no placeholder
is left.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pydantic import ConfigDict, Field, ValidationError
from pydantic_core import PydanticCustomError

from estconf._errors import Errors, KnownKeys, details_of, fail, with_errors_of, with_hint

SRC = Path(__file__).resolve().parent.parent / "src" / "estconf"
PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)([!:][^{}]*)?\}(?!\})")
DYNAMIC = "\x00"  # stands for a value an f-string writes in
# Callables that take a template, with the positions of the template and its context.
TEMPLATE_CALLS = {
    "PydanticCustomError": (1, 2),
    "fail": (2, 5),
    "error_detail": (1, 4),
    "add": (1, 4),
}


def _name(call: ast.Call) -> str | None:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    if len(call.args) > position:
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


@dataclass
class Source:
    """Every module's tree, its module-level string constants and its functions."""

    trees: dict[Path, ast.Module] = field(default_factory=dict)
    constants: dict[str, list[ast.expr]] = field(default_factory=dict)
    functions: dict[str, list[ast.FunctionDef]] = field(default_factory=dict)
    parents: dict[int, ast.AST] = field(default_factory=dict)

    @classmethod
    def read(cls) -> Source:
        source = cls()
        for path in sorted(SRC.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            source.trees[path] = tree
            for node in ast.walk(tree):
                for child in ast.iter_child_nodes(node):
                    source.parents[id(child)] = node
            for statement in tree.body:
                target = value = None
                if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                    target, value = statement.targets[0], statement.value
                elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
                    target, value = statement.target, statement.value
                if isinstance(target, ast.Name) and value is not None:
                    source.constants.setdefault(target.id, []).append(value)
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef):
                    source.functions.setdefault(node.name, []).append(node)
        return source

    def enclosing_function(self, node: ast.AST) -> ast.FunctionDef | None:
        while id(node) in self.parents:
            node = self.parents[id(node)]
            if isinstance(node, ast.FunctionDef):
                return node
        return None

    def calls(self) -> Iterator[ast.Call]:
        for tree in self.trees.values():
            yield from (node for node in ast.walk(tree) if isinstance(node, ast.Call))


@dataclass
class Template:
    """A template's text (``DYNAMIC`` where an f-string writes a value) and its context's keys."""

    where: str
    text: str
    keys: frozenset[str] | None  # None: a context the test cannot read
    literals: list[int]


def _texts(node: ast.expr, source: Source, depth: int = 0) -> Iterator[tuple[str, list[int]]]:
    """Each text ``node`` can hold: a literal, an f-string, a sum, a constant or a parameter."""
    if depth > 4:
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value, [id(node)]
    elif isinstance(node, ast.JoinedStr):
        parts = [
            p.value if isinstance(p, ast.Constant) and isinstance(p.value, str) else DYNAMIC
            for p in node.values
        ]
        yield "".join(parts), [id(p) for p in node.values]
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        for left, left_ids in _texts(node.left, source, depth + 1):
            for right, right_ids in _texts(node.right, source, depth + 1):
                yield left + right, left_ids + right_ids
    elif isinstance(node, ast.IfExp):
        yield from _texts(node.body, source, depth + 1)
        yield from _texts(node.orelse, source, depth + 1)
    elif isinstance(node, ast.Name):
        function = source.enclosing_function(node)
        parameters = [a.arg for a in function.args.args] if function else []
        if node.id in parameters and function is not None:
            # a helper's parameter: the texts its callers pass
            position = parameters.index(node.id)
            for call in source.calls():
                if _name(call) == function.name:
                    argument = _argument(call, position, node.id)
                    if argument is not None:
                        yield from _texts(argument, source, depth + 1)
        else:
            for value in source.constants.get(node.id, []):
                yield from _texts(value, source, depth + 1)
    else:
        yield DYNAMIC, []


def _keys(node: ast.expr | None, source: Source, depth: int = 0) -> frozenset[str] | None:
    """The keys of a context: a dict literal, a helper returning one, or none given."""
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return frozenset()
    if isinstance(node, ast.Dict):
        keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
        return frozenset(str(k) for k in keys) if len(keys) == len(node.keys) else None
    if isinstance(node, ast.Call) and depth < 3:
        returned = [
            statement.value
            for function in source.functions.get(_name(node) or "", [])
            for statement in ast.walk(function)
            if isinstance(statement, ast.Return) and statement.value is not None
        ]
        if len(returned) == 1:
            return _keys(returned[0], source, depth + 1)
    if isinstance(node, ast.Name) and depth < 3:
        function = source.enclosing_function(node)
        if function is not None:
            assigned = [
                statement.value
                for statement in ast.walk(function)
                if isinstance(statement, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == node.id for t in statement.targets)
            ]
            if len(assigned) == 1:
                return _keys(assigned[0], source, depth + 1)
    return None


def templates(source: Source) -> Iterator[Template]:
    for path, tree in source.trees.items():
        for call in (node for node in ast.walk(tree) if isinstance(node, ast.Call)):
            positions = TEMPLATE_CALLS.get(_name(call) or "")
            if positions is None:
                continue
            template = _argument(call, positions[0], "message")
            if template is None or _passed_on(template, source):
                continue
            keys = _keys(_argument(call, positions[1], "ctx"), source)
            where = f"{path.relative_to(SRC.parent)}:{call.lineno}"
            for text, literals in _texts(template, source):
                yield Template(where, text, keys, literals)


def _passed_on(template: ast.expr, source: Source) -> bool:
    """Whether ``template`` is a parameter of a function that takes templates itself.

    Its callers are checked, each with its own context.
    """
    function = source.enclosing_function(template)
    return (
        isinstance(template, ast.Name)
        and function is not None
        and function.name in TEMPLATE_CALLS
        and template.id in [a.arg for a in function.args.args]
    )


def _docstrings(source: Source) -> set[int]:
    found = set()
    for tree in source.trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                found.add(id(node.value))
    return found


def _formatted(source: Source) -> set[int]:
    """Literals filled with ``str.format``, directly or through a constant."""
    found = set()
    for call in source.calls():
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in ("format", "format_map"):
            for text_ids in _texts(func.value, source):
                found.update(text_ids[1])
    return found


def strays(source: Source, found: list[Template]) -> list[str]:
    """Plain literals with a placeholder that no template call or ``str.format`` fills."""
    used = {literal for template in found for literal in template.literals}
    used |= _docstrings(source) | _formatted(source)
    lost = []
    for path, tree in source.trees.items():
        if path.parent.name == "_codes":  # the codes' summaries and examples: docs, not messages
            continue
        in_f_strings = {
            id(part)
            for node in ast.walk(tree)
            if isinstance(node, ast.JoinedStr)
            for part in node.values
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in used | in_f_strings
                and PLACEHOLDER.search(node.value)
            ):
                lost.append(f"{path.relative_to(SRC.parent)}:{node.lineno}: {node.value!r}")
    return lost


SOURCE = Source.read()
TEMPLATES = list(templates(SOURCE))


def test_the_source_has_templates_to_check() -> None:
    assert len(TEMPLATES) > 100
    assert any("{given}" in t.text for t in TEMPLATES)


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda t: t.where)
def test_every_error_template_renders_without_a_placeholder_left(template: Template) -> None:
    text = template.text.replace(DYNAMIC, "value")
    specs = [m.group(0) for m in PLACEHOLDER.finditer(text) if m.group(2)]
    assert not specs, f"{template.where}: pydantic fills no {specs[0]}: write {{name}}"
    if template.keys is None:
        return
    context = {key: f"<{key}>" for key in template.keys}
    rendered = PydanticCustomError("code", text, context).message()
    left = PLACEHOLDER.findall(rendered)
    assert not left, f"{template.where}: {rendered!r} leaves {{{left[0][0]}}} unfilled"


def test_every_literal_with_a_placeholder_is_filled_by_someone() -> None:
    """A plain string with ``{name}`` is a template, or is filled with ``str.format``.

    Anything else is most likely an f-string without its ``f``.
    """
    assert strays(SOURCE, TEMPLATES) == []


def test_the_checker_finds_an_unfilled_placeholder() -> None:
    source = Source()
    for text in (
        "from pydantic_core import PydanticCustomError\n"
        'def f(x):\n    raise PydanticCustomError("c", "not {x!r}", {"x": x})\n',
        'def f(errors, x):\n    errors.add("c", "no {y} here", (), x, {"x": x})\n',
        'def f(x):\n    return "an f-string without its f: {x}"\n',
    ):
        source.trees[Path(SRC / f"case{len(source.trees)}.py")] = ast.parse(text)
    found = list(templates(source))
    assert [t.text for t in found] == ["not {x!r}", "no {y} here"]
    assert [t.keys for t in found] == [frozenset({"x"}), frozenset({"x"})]
    assert strays(source, found) == ["estconf/case2.py:2: 'an f-string without its f: {x}'"]


def test_errors_raises_every_error_at_once_with_its_context_filled() -> None:
    errors = Errors("TFConfig")
    errors.add("address", "first {what}", ("x",), 1, {"what": "one"})
    errors.add("job_name", "second", ("y",), 2)
    with pytest.raises(ValidationError) as raised:
        errors.raise_if_any()
    assert [(e["type"], e["msg"], e["loc"]) for e in raised.value.errors()] == [
        ("address", "first one", ("x",)),
        ("job_name", "second", ("y",)),
    ]
    assert fail("T", "bounds", "got {n}", ("z",), 3, {"n": 3}).errors()[0]["msg"] == "got 3"


class _Counted(KnownKeys):
    model_config = ConfigDict(extra="forbid")

    count: int = Field(gt=0)


class TestKnownKeys:
    def test_an_unknown_key_is_told_the_closest_known_one(self) -> None:
        with pytest.raises(ValidationError) as caught:
            _Counted.model_validate({"cuont": 1})
        assert [error["type"] for error in caught.value.errors()] == ["missing", "unknown_key"]
        assert "did you mean 'count'?" in str(caught.value)

    def test_other_errors_are_pydantics_own_with_their_context_and_link(self) -> None:
        with pytest.raises(ValidationError) as caught:
            _Counted.model_validate({"count": 0})
        [error] = caught.value.errors()
        assert error["type"] == "greater_than"
        assert error["ctx"] == {"gt": 0}
        assert error["url"].endswith("/greater_than")


def test_an_error_raised_again_keeps_its_hint_and_nothing_else_of_its_context() -> None:
    hinted = fail("T", "missing_ps", "no {what}", ("cluster",), {}, {"what": "ps", "hint": "add"})
    plain = fail("T", "missing_worker", "no worker", ("cluster",), {})
    again = ValidationError.from_exception_data("T", details_of(hinted) + details_of(plain))
    assert [(e["msg"], e.get("ctx")) for e in again.errors()] == [
        ("no ps", {"hint": "add"}),
        ("no worker", None),
    ]


def test_the_errors_added_to_another_keep_their_hints() -> None:
    def refuse() -> None:
        raise fail("T", "missing_ps", "no ps", ("cluster",), {}, {"hint": "add a ps job"})

    joined = with_errors_of(fail("T", "address", "bad address"), refuse)
    assert [(e["type"], e.get("ctx")) for e in joined.errors()] == [
        ("address", None),
        ("missing_ps", {"hint": "add a ps job"}),
    ]


def test_a_rule_shared_by_readers_is_given_each_readers_hint() -> None:
    hole = fail("T", "task_in_hole", "task worker[1] is a hole", ("task", "index"), 1)
    [error] = with_hint(hole, "number the tasks 0 to 1").errors()
    assert (error["type"], error["msg"], error["loc"], error["input"]) == (
        "task_in_hole",
        "task worker[1] is a hole",
        ("task", "index"),
        1,
    )
    assert error.get("ctx") == {"hint": "number the tasks 0 to 1"}
