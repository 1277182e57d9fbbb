"""The architecture's rules that import-linter does not see, read from the source.

import-linter (``make lint``) checks the layers from import statements.  Here
the import graph also counts the imports made from strings that name a module
of the package: a ``"estconf.x:Name"`` string (the kinds table of
``estconf.io.kinds``, the readers of ``estconf.profiles.registry``), the
argument of ``importlib.import_module("estconf.x")``, and a
``("estconf.x", "Name")`` pair (the lazy public names of ``estconf/__init__.py``).
A name built at run time (``f"estconf.{name}"``) cannot be read.  Imports at any depth count:
inside functions and under ``TYPE_CHECKING`` too.  Importing ``a.b`` is an
edge to ``a.b`` only, not to the package ``a`` that Python initialises first:
every package re-exporting its modules would otherwise be a cycle.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
MAX_LINES = 600
# Modules of generated data, allowed past MAX_LINES: none today.
GENERATED: frozenset[str] = frozenset()


def module_files(src: Path, package: str) -> dict[str, Path]:
    """Map each module of ``package`` under ``src`` to its file."""
    modules = {}
    for path in sorted((src / package).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of dotted ``name`` that is a module of the package."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _imported(
    node: ast.AST, module: str, is_package: bool, package: str, modules: dict[str, Path]
) -> Iterator[str]:
    """The package's modules that one AST node imports, or names as a string."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            found = _known(alias.name, modules)
            if found:
                yield found
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            anchor = module.split(".")
            if not is_package:
                anchor.pop()
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, *([node.module] if node.module else [])])
        else:
            base = node.module or ""
        for alias in node.names:
            found = _known(f"{base}.{alias.name}", modules) or _known(base, modules)
            if found:
                yield found
    else:
        for text in _module_strings(node):
            match = re.fullmatch(rf"({re.escape(package)}(?:\.\w+)*)(?::\w+)?", text)
            if match and match.group(1) in modules:
                yield match.group(1)


def _module_strings(node: ast.AST) -> Iterator[str]:
    """The strings of a node that name a module to import, as they are written."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and ":" in node.value:
        yield node.value
    elif isinstance(node, ast.Call) and node.args:
        function = node.func
        name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
        first = node.args[0]
        if name == "import_module" and isinstance(first, ast.Constant):
            yield str(first.value)
    elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
        module, name = node.elts
        if (
            isinstance(module, ast.Constant)
            and isinstance(module.value, str)
            and isinstance(name, ast.Constant)
            and isinstance(name.value, str)
        ):
            yield module.value


def import_graph(src: Path, package: str) -> dict[str, set[str]]:
    """Each module of ``package`` -> the modules of the package it imports."""
    modules = module_files(src, package)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        graph[module] = {
            target
            for node in ast.walk(tree)
            for target in _imported(node, module, is_package, package, modules)
            if target != module
        }
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def long_modules(src: Path, package: str, limit: int = MAX_LINES) -> dict[str, int]:
    """The modules of more than ``limit`` lines, with their length."""
    lengths = {
        module: len(path.read_text(encoding="utf-8").splitlines())
        for module, path in module_files(src, package).items()
    }
    return {module: n for module, n in lengths.items() if n > limit}


def _is_dunder_dict(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "__dict__"


def forbidden_constructs(src: Path, package: str) -> list[str]:
    """``module:line: what`` for every write into ``__dict__``, thread-local or pydantic flag."""
    found = []
    for module, path in module_files(src, package).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            what = None
            if (
                isinstance(node, ast.Subscript)
                and isinstance(node.ctx, ast.Store | ast.Del)
                and _is_dunder_dict(node.value)
            ) or (
                isinstance(node, ast.Attribute)
                and node.attr in {"update", "setdefault", "pop", "clear", "__setitem__"}
                and _is_dunder_dict(node.value)
            ):
                what = "write into __dict__"
            elif (
                isinstance(node, ast.Attribute)
                and node.attr == "local"
                and isinstance(node.value, ast.Name)
                and node.value.id == "threading"
            ) or (
                isinstance(node, ast.ImportFrom)
                and node.module == "threading"
                and any(alias.name == "local" for alias in node.names)
            ):
                what = "threading.local"
            if "__pydantic_base_init__" in {
                getattr(node, "attr", None),
                getattr(node, "id", None),
                getattr(node, "value", None),
            }:
                what = "__pydantic_base_init__"
            if what:
                found.append(f"{module}:{getattr(node, 'lineno', 0)}: {what}")
    return found


# The package itself.


def test_estconf_has_no_import_cycle() -> None:
    graph = import_graph(SRC, "estconf")
    assert "estconf.io.kinds" in graph
    assert "estconf.run_config" in graph["estconf.io.kinds"]  # a "module:Name" string counts
    assert cycles(graph) == []


def test_estconf_modules_are_at_most_600_lines() -> None:
    assert set(long_modules(SRC, "estconf")) <= GENERATED


def test_estconf_derives_values_without_dict_writes_thread_locals_or_pydantic_flags() -> None:
    assert forbidden_constructs(SRC, "estconf") == []


def private_cli_imports(tests: Path) -> list[str]:
    """The imports of a private ``estconf.cli._name`` module by the test modules under ``tests``."""
    found = []
    for path in sorted(tests.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module is not None:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            if any(name.startswith("estconf.cli._") for name in names):
                found.append(f"{path.name}:{getattr(node, 'lineno', 0)}")
    return found


def test_tests_test_the_cli_through_its_command_not_its_private_modules() -> None:
    """What the CLI does alone is run through ``main``; what it reads is the input layer's."""
    assert private_cli_imports(SRC.parent / "tests") == []


def test_checker_finds_a_private_cli_import(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(
        "import estconf.cli\nfrom estconf.cli import _tfjob\nimport estconf.cli._common\n",
        encoding="utf-8",
    )
    assert private_cli_imports(tmp_path) == ["test_x.py:2", "test_x.py:3"]


# The checker, on small packages made for it.


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_checker_accepts_a_layered_package(tmp_path: Path) -> None:
    src = _package(
        tmp_path,
        {
            "__init__.py": "from pkg.a import A\n",
            "a.py": "from pkg import b\nA = 1\n",
            "b.py": "import json\n",
            "sub/__init__.py": "from .c import C\n",
            "sub/c.py": "from ..b import json\nC = 'pkg.a'.startswith(('pkg.', 'x'))\n",
        },
    )
    graph = import_graph(src, "pkg")
    assert graph == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.b"},
        "pkg.b": set(),
        "pkg.sub": {"pkg.sub.c"},
        "pkg.sub.c": {"pkg.b"},
    }
    assert cycles(graph) == []
    assert long_modules(src, "pkg") == {}
    assert forbidden_constructs(src, "pkg") == []


@pytest.mark.parametrize(
    "b_text",
    [
        "def f():\n    from pkg import a\n",
        "def f():\n    import pkg.a\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import A\n",
        "import importlib\ndef f():\n    return importlib.import_module('pkg.a')\n",
        "TABLE = {'kind': 'pkg.a:A'}\n",
        "SOURCES = {'A': ('pkg.a', 'A')}\n",
        "def f():\n    from . import a\n",
    ],
    ids=["function", "dotted", "type-checking", "import-module", "table", "pair", "relative"],
)
def test_checker_finds_a_cycle_through_any_import(tmp_path: Path, b_text: str) -> None:
    src = _package(tmp_path, {"__init__.py": "", "a.py": "from pkg.b import f\nA = 1\n"})
    _package(tmp_path, {"b.py": b_text})
    assert cycles(import_graph(src, "pkg")) == [["pkg.a", "pkg.b"]]


def test_checker_finds_a_long_module(tmp_path: Path) -> None:
    src = _package(tmp_path, {"__init__.py": "", "long.py": "x = 1\n" * (MAX_LINES + 1)})
    assert long_modules(src, "pkg") == {"pkg.long": MAX_LINES + 1}


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("def f(m):\n    m.__dict__['x'] = 1\n", "write into __dict__"),
        ("def f(m):\n    m.__dict__.update(x=1)\n", "write into __dict__"),
        ("import threading\n_local = threading.local()\n", "threading.local"),
        ("from threading import local\n", "threading.local"),
        ("def f(m):\n    m.__pydantic_base_init__ = True\n", "__pydantic_base_init__"),
        ("FLAG = '__pydantic_base_init__'\n", "__pydantic_base_init__"),
    ],
)
def test_checker_finds_forbidden_constructs(tmp_path: Path, text: str, what: str) -> None:
    src = _package(tmp_path, {"__init__.py": "", "m.py": text})
    found = forbidden_constructs(src, "pkg")
    assert len(found) == 1
    assert found[0].startswith("pkg.m:") and found[0].endswith(what)
