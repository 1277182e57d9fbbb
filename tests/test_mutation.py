"""Mutation testing (``make mutants``, docs/mutation.md) mutates every module of the package.

The driver, ``tools/mutants.py``, reads its settings and runs the mutants that
``tools/mutants_make.py`` makes from the modules of the tree; these tests check
that the settings cannot narrow them, that every module is parsed into mutants,
and what the statement-level operators do.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import importlib.util
import re
import sys
import warnings
from pathlib import Path
from types import ModuleType

import pytest

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
        assert "_json.py" in every and "launchers/kubeflow/checks.py" in every

    def test_the_settings_name_no_modules(self) -> None:
        allowed = {"package", "test-command", "hypothesis-profile", "on-import-tests", "sample"}
        assert allowed | {"seed", "fail-under", "equivalent", "groups"} == DRIVER.SETTINGS_KEYS
        assert DRIVER.Settings.read().sample > 0

    def test_a_group_draws_more_mutants_of_modules_that_exist(self) -> None:
        """A group only enlarges its modules' sample; a pattern left by a moved module fails."""
        settings = DRIVER.Settings.read()
        every = MAKE.modules(PACKAGE)
        assert settings.groups
        for group in settings.groups:
            assert group.sample >= 30 > settings.sample
            assert group.seed != settings.seed
            for pattern in group.modules:
                assert any(
                    group.holds(name) for name in every if fnmatch.fnmatchcase(name, pattern)
                )

    def test_the_launcher_input_and_report_modules_are_drawn_thirty_times(self) -> None:
        settings = DRIVER.Settings.read()
        for name in (
            "launchers/slurm/steps.py",
            "launchers/sagemaker/inputs.py",
            "launchers/vertex/spec.py",
            "launchers/kubeflow/lifecycle.py",
            "distribute/slurm.py",
            "finding.py",
            "reports/sarif.py",
        ):
            assert settings.draw_of(name) == (30, 45), name
        assert settings.draw_of("_json.py") == (settings.sample, settings.seed)

    def test_a_group_with_a_smaller_sample_is_refused(self, tmp_path: Path) -> None:
        config = tmp_path / "mutants.toml"
        text = (ROOT / "tools" / "mutants.toml").read_text(encoding="utf-8")
        config.write_text(text.replace("sample = 30", "sample = 3"), encoding="utf-8")
        with pytest.raises(SystemExit, match="draws fewer mutants than sample = 10"):
            DRIVER.Settings.read(config)

    def test_every_module_with_code_has_mutants_that_compile(self) -> None:
        for name in MAKE.modules(PACKAGE):
            text = (PACKAGE / name).read_text(encoding="utf-8")
            found = MAKE.mutants_of(name, text)
            definitions = (ast.FunctionDef, ast.ClassDef)
            if any(isinstance(node, definitions) for node in ast.walk(ast.parse(text))):
                assert found, name
            for mutant in MAKE.choose({name: found}, 1, 16)[name]:
                with warnings.catch_warnings():  # `x is "a"` compiles, with a warning
                    warnings.simplefilter("ignore", SyntaxWarning)
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

    def test_a_sample_takes_one_mutant_of_each_operator_before_a_second(self) -> None:
        """A rare operator (one ``frozen=True`` in a module) is drawn as surely as a common one."""
        source = (
            "@dataclass(frozen=True)\nclass R:\n    x: int = 0\n\n"
            "def f(a, b):\n    return a == b and a + 1 < 2 or a - 3 > 4 and b * 5 <= 6\n"
        )
        found = MAKE.mutants_of("m.py", source)
        operators = {mutant.operator for mutant in found}
        assert len(found) > 2 * len(operators)
        for seed in range(20):
            drawn = MAKE.choose({"m.py": found}, len(operators), seed)["m.py"]
            assert {mutant.operator for mutant in drawn} == operators
            assert "keyword-constant" in {mutant.operator for mutant in drawn}
        drawn = MAKE.choose({"m.py": found}, len(operators) + 3, 1)["m.py"]
        assert len(drawn) == len(set(drawn)) == len(operators) + 3
        assert MAKE.choose({"m.py": found}, 1000, 1)["m.py"] == found

    def test_the_command_line_sample_and_seed_replace_every_groups(self) -> None:
        settings = DRIVER.Settings.read()
        names = ["_json.py", "launchers/slurm/steps.py"]
        found = {name: MAKE.mutants_of(name, (PACKAGE / name).read_text()) for name in names}

        def drawn(**given: object) -> tuple[dict[str, int], str]:
            args = argparse.Namespace(**{"all": False, "sample": None, "seed": None, **given})
            chosen, words = DRIVER._choose(found, settings, args)
            return {name: sum(m.module == name for m in chosen) for name in names}, words

        assert drawn() == (
            {"_json.py": 10, "launchers/slurm/steps.py": 30},
            "10 mutants a module, seed 16; 30 mutants a module, seed 45",
        )
        assert drawn(sample=4, seed=2) == (
            {"_json.py": 4, "launchers/slurm/steps.py": 4},
            "4 mutants a module, seed 2",
        )
        counts, words = drawn(all=True)
        assert words == "every mutant" and counts == {name: len(found[name]) for name in names}


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
            ("number-lower", "1 -> 0"),
            ("number", "2 -> 3"),
            ("identity", "== -> is"),
        } <= changes

    def test_equality_and_identity_are_swapped_except_against_none(self) -> None:
        changes = _changes(
            "y = a == b or a != c or a is d or a is not e or a is None or f == None\n"
        )
        assert {change for operator, change in changes if operator == "identity"} == {
            "== -> is",
            "!= -> is not",
            "is -> ==",
            "is not -> !=",
        }
        [mutant] = [m for m in MAKE.mutants_of("m.py", "y = a==b\n") if m.operator == "identity"]
        assert MAKE.apply("y = a==b\n", mutant) == "y = a is b\n"

    def test_an_order_becomes_an_inequality(self) -> None:
        changes = _changes("y = a < b or c > d or e <= f\n")
        assert {c for operator, c in changes if operator == "inequality"} == {"< -> !=", "> -> !="}

    def test_a_keyword_constant_of_a_call_or_decorator_is_flipped(self) -> None:
        source = "@dataclass(frozen=True)\nclass R:\n    x = f(strict=False, y=True)\n"
        flipped = {
            change for operator, change in _changes(source) if operator == "keyword-constant"
        }
        assert flipped == {"True -> False", "False -> True"}
        assert [
            m.line for m in MAKE.mutants_of("m.py", source) if m.operator == "keyword-constant"
        ] == [
            1,
            3,
            3,
        ]
        assert ("boolean-constant", "True -> False") in _changes("y = f(True)\n")

    def test_docstrings_annotations_and_all_are_not_mutated(self) -> None:
        source = '"""Doc."""\n__all__ = ["f"]\n\ndef f(x: "int" = 1) -> "str":\n    """Doc."""\n'
        assert _changes(source) == {("number", "1 -> 2"), ("number-lower", "1 -> 0")}

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
            "1 -> 0": True,
            "return x -> return None": False,
            "2 -> 3": True,
            "2 -> 1": True,
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


class TestRunning:
    """A mutant runs in a copy of a project, with that project's own pytest settings."""

    SOURCE = (
        "def named(profile):\n"
        '    return profile == "estimator"\n'
        "\n"
        "\n"
        "def unused(profile):\n"
        '    return profile == "ps"\n'
    )
    TEST = (
        "from pkg.m import named\n\n\n"
        "def test_the_name_is_compared_by_value():\n"
        '    assert named("".join(["estim", "ator"]))\n'
    )

    def _outcomes(self, tmp_path: Path) -> dict[int, str]:
        root, tree = tmp_path / "root", tmp_path / "tree"
        for base in (root, tree):
            (base / "src" / "pkg").mkdir(parents=True)
            (base / "tests").mkdir()
            (base / "src" / "pkg" / "__init__.py").write_text("", encoding="utf-8")
            (base / "src" / "pkg" / "m.py").write_text(self.SOURCE, encoding="utf-8")
            (base / "tests" / "test_m.py").write_text(self.TEST, encoding="utf-8")
            (base / "pyproject.toml").write_text(
                '[tool.pytest.ini_options]\nfilterwarnings = ["error"]\n', encoding="utf-8"
            )
        settings = DRIVER.Settings(
            package="src/pkg",
            test_command="{python} -m pytest -x -q -p no:cacheprovider -p no:xdist",
            hypothesis_profile="default",
            sample=1,
            seed=1,
            fail_under=97.0,
            equivalent={},
        )
        test = "tests/test_m.py::test_the_name_is_compared_by_value"
        cover = {"lines": {"m.py": {"2": [test], "6": [test]}}, "durations": {test: 0.1}}
        mutants = [m for m in MAKE.mutants_of("m.py", self.SOURCE) if m.operator == "identity"]
        return {
            mutant.line: DRIVER._run_one(tree, mutant, settings, cover, root).outcome
            for mutant in mutants
        }

    def test_a_mutant_is_killed_by_a_test_that_sees_it_not_by_its_syntax_warning(
        self, tmp_path: Path
    ) -> None:
        """``profile is "ps"`` warns on import, which ``filterwarnings = error`` would fail."""
        assert self._outcomes(tmp_path) == {2: "killed", 6: "survived"}

    def test_without_the_warning_ignored_both_would_count_as_killed(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(DRIVER, "IGNORE_SYNTAX_WARNINGS", ())
        environ = DRIVER._test_env
        monkeypatch.setattr(
            DRIVER,
            "_test_env",
            lambda tree, settings: {
                k: v for k, v in environ(tree, settings).items() if k != "PYTHONWARNINGS"
            },
        )
        assert self._outcomes(tmp_path) == {2: "killed", 6: "killed"}
