"""Mutation testing (``make mutants``, docs/mutation.md) mutates every module of the package.

The driver, ``tools/mutants.py``, reads its settings and runs the mutants that
``tools/mutants_make.py`` makes from the modules of the tree; these tests check
that the settings cannot narrow them, that every module is parsed into mutants,
and what the statement-level operators do.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "estconf"


def _tool(name: str) -> ModuleType:
    """A module of ``tools/``, imported by its path (the driver imports its sibling by name)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


MAKE = _tool("mutants_make")
DRIVER = _tool("mutants")


def _changes(source: str) -> set[tuple[str, str]]:
    return {(mutant.operator, mutant.change) for mutant in MAKE.mutants_of("m.py", source)}


class TestEveryModule:
    def test_the_modules_are_every_python_file_of_the_package(self) -> None:
        every = sorted(path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py"))
        settings = DRIVER.Settings.read()
        assert ROOT / settings.package == PACKAGE
        assert MAKE.modules(ROOT / settings.package) == every
        assert "_json.py" in every and "kubeflow/checks.py" in every

    def test_the_settings_name_no_modules(self) -> None:
        allowed = {"package", "test-command", "hypothesis-profile", "on-import-tests", "sample"}
        assert allowed | {"seed", "fail-under", "equivalent"} == DRIVER.SETTINGS_KEYS
        assert DRIVER.Settings.read().sample > 0

    def test_every_module_with_code_has_mutants_that_compile(self) -> None:
        for name in MAKE.modules(PACKAGE):
            text = (PACKAGE / name).read_text(encoding="utf-8")
            found = MAKE.mutants_of(name, text)
            definitions = (ast.FunctionDef, ast.ClassDef)
            if any(isinstance(node, definitions) for node in ast.walk(ast.parse(text))):
                assert found, name
            for mutant in MAKE.choose({name: found}, 1, 16)[name]:
                compile(MAKE.apply(text, mutant), name, "exec")

    def test_every_equivalent_mutant_is_a_mutant_of_the_tree(self) -> None:
        """An entry whose line has changed no longer says anything: it is rewritten or removed."""
        keys: set[str] = set()
        for name in MAKE.modules(PACKAGE):
            text = (PACKAGE / name).read_text(encoding="utf-8")
            mutants = MAKE.mutants_of(name, text)
            keys.update(MAKE.equivalence_key(mutant, text) for mutant in mutants)
        assert set(DRIVER.Settings.read().equivalent) - keys == set()

    def test_every_equivalent_mutant_is_in_the_docs_with_why(self) -> None:
        text = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
        table = text.split("### Equivalent mutants", 1)[1].split("\n### ", 1)[0]
        equivalent = DRIVER.Settings.read().equivalent
        for name in MAKE.modules(PACKAGE):
            source = (PACKAGE / name).read_text(encoding="utf-8")
            for mutant in MAKE.mutants_of(name, source):
                if MAKE.equivalence_key(mutant, source) in equivalent:
                    assert f"`{name}:" in table, name

    def test_the_last_results_have_a_row_for_every_module_that_makes_a_mutant(self) -> None:
        text = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
        results = text.split("## Last results", 1)[1].split("\n### ", 1)[0]
        rows = set(re.findall(r"^\| `([^`]+)` \|", results, re.MULTILINE))
        making = {
            name
            for name in MAKE.modules(PACKAGE)
            if MAKE.mutants_of(name, (PACKAGE / name).read_text(encoding="utf-8"))
        }
        assert rows == making

    def test_a_sample_is_the_same_for_a_seed_and_per_module(self) -> None:
        texts = {name: (PACKAGE / name).read_text(encoding="utf-8") for name in ("_json.py",)}
        found = {name: MAKE.mutants_of(name, text) for name, text in texts.items()}
        first = MAKE.choose(found, 5, 16)
        assert first == MAKE.choose(found, 5, 16)
        assert len(first["_json.py"]) == 5
        assert first != MAKE.choose(found, 5, 17)
        more = {**found, "_path.py": MAKE.mutants_of("_path.py", "x = 1\n")}
        assert MAKE.choose(more, 5, 16)["_json.py"] == first["_json.py"]


class TestOperators:
    def test_statement_level_mutants(self) -> None:
        source = (
            'def f(x):\n    if x:\n        raise ValueError("no")\n    print(x)\n    return x\n'
        )
        changes = _changes(source)
        assert ("raise-removed", 'raise ValueError("no") -> pass') in changes
        assert ("call-removed", "print(x) -> pass") in changes
        assert ("return-none", "return x -> return None") in changes
        assert ("string-emptied", '"no" -> ""') in changes

    def test_operator_level_mutants(self) -> None:
        changes = _changes("y = (a <= 1) and not b or c + 2 == d\n")
        assert {
            ("compare", "<= -> <"),
            ("compare", "== -> !="),
            ("boolean", "and -> or"),
            ("boolean", "or -> and"),
            ("not-removed", "not b -> (b)"),
            ("arithmetic", "+ -> -"),
            ("number", "1 -> 2"),
            ("number", "2 -> 3"),
        } <= changes

    def test_docstrings_annotations_and_all_are_not_mutated(self) -> None:
        source = '"""Doc."""\n__all__ = ["f"]\n\ndef f(x: "int" = 1) -> "str":\n    """Doc."""\n'
        assert _changes(source) == {("number", "1 -> 2")}

    def test_a_key_names_one_mutant_even_of_a_line_written_twice(self) -> None:
        source = "def f(a):\n    for x in a:\n        break\n    for y in a:\n        break\n"
        keys = [MAKE.equivalence_key(m, source) for m in MAKE.mutants_of("m.py", source)]
        assert keys == [
            "m.py break-continue | break | break -> continue | 1 of 2",
            "m.py break-continue | break | break -> continue | 2 of 2",
        ]
        for name in MAKE.modules(PACKAGE):
            text = (PACKAGE / name).read_text(encoding="utf-8")
            found = [MAKE.equivalence_key(m, text) for m in MAKE.mutants_of(name, text)]
            assert len(set(found)) == len(found), name

    def test_a_mutant_changes_only_its_place(self) -> None:
        source = 'a = "é" == "x"\nb = 1\n'
        [mutant] = [m for m in MAKE.mutants_of("m.py", source) if m.operator == "compare"]
        assert MAKE.apply(source, mutant) == 'a = "é" != "x"\nb = 1\n'

    def test_a_line_outside_function_bodies_runs_on_import(self) -> None:
        source = "@cache\ndef f(x=1):\n    return x\n\nclass C:\n    y = 2\n"
        on_import = {mutant.change: mutant.on_import for mutant in MAKE.mutants_of("m.py", source)}
        assert on_import == {
            "@cache -> (removed)": True,
            "1 -> 2": True,
            "return x -> return None": False,
            "2 -> 3": True,
        }

    def test_a_mutant_runs_the_tests_that_reach_its_statement(self) -> None:
        """A test where ``a`` is true never runs the second line, yet ``a and b`` fails it."""
        source = "def f(a, b):\n    return (a\n            or b)\n"
        [mutant] = [m for m in MAKE.mutants_of("m.py", source) if m.operator == "boolean"]
        assert (mutant.line, mutant.statement_line) == (3, 2)
        cover = {"lines": {"m.py": {"2": {"test_a_true"}, "3": {"test_a_false"}}}}
        assert DRIVER.tests_for(mutant, cover) == ["test_a_false", "test_a_true"]

    def test_a_mutant_in_a_compound_statement_starts_at_its_header(self) -> None:
        source = "def f(a, b):\n    if (a\n            or b):\n        return 1\n    return 2\n"
        starts = {m.change: m.statement_line for m in MAKE.mutants_of("m.py", source)}
        assert starts["or -> and"] == 2
        assert starts["1 -> 2"] == 4

    def test_the_test_files_named_after_a_module(self) -> None:
        assert DRIVER.mirrors("contrib/run_config.py") == ["tests/test_contrib.py"]
        assert DRIVER.mirrors("_json.py") == ["tests/test_json.py"]
        assert "tests/test_distribute_resolver.py" in DRIVER.mirrors("distribute/resolver.py")

    def test_the_map_empties_the_package_caches_before_each_test(self) -> None:
        """A line reached through a cache is mapped to every test that needs it, not the first."""
        from estconf import tf_config

        tf_config.near_miss_job("wroker", {"worker": []})
        assert tf_config._closest_job.cache_info().currsize > 0
        DRIVER._clear_caches("estconf")
        assert tf_config._closest_job.cache_info().currsize == 0
