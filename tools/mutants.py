"""Mutation testing of every module of estconf: ``make mutants`` (see docs/mutation.md).

The mutants are made from each module's syntax tree by the operators below,
from operator-level changes (``==`` for ``!=``, ``and`` for ``or``, a number
plus one) to statement-level ones (a ``raise`` removed, a call statement
removed, a returned value replaced by ``None``, a string emptied).  Every
module under ``src/estconf`` is mutated: the list is read from the tree, never
written by hand.

Each mutant runs the tests that execute its line, read from a map made once
with coverage.py (one context per test); a line run only while the module is
imported (a class body, a decorator, a constant) runs every test that executes
any line of its module.  A mutant on a line no test executes survives without
a run.  The mutant is made in a copy of the tree (``.mutants/tree-N``), so the
working tree is never changed.

Usage::

    python tools/mutants.py                      # the sample: N mutants a module, seeded
    python tools/mutants.py --all                # every mutant of every module
    python tools/mutants.py --modules '_json.py' 'tpu/*' --sample 10 --seed 3
    python tools/mutants.py --retest-survivors   # the last run's survivors, with the tests now
    python tools/mutants.py --list               # the modules and their mutants, nothing run
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "tools" / "mutants.toml"
WORK = ROOT / ".mutants"
SETTINGS_KEYS = frozenset(
    {
        "package",
        "test-command",
        "hypothesis-profile",
        "on-import-tests",
        "sample",
        "seed",
        "fail-under",
        "equivalent",
    }
)
"""What ``tools/mutants.toml`` may set: nothing in it narrows the modules."""


# --- the mutants --------------------------------------------------------------------------


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

    @property
    def ident(self) -> str:
        """The mutant's name in the output and in ``--retest-survivors``."""
        return f"{self.module}:{self.line}:{self.col} {self.operator}"

    @property
    def change(self) -> str:
        """The change, on one line."""
        original = " ".join(self.original.split())
        return f"{_short(original)} -> {_short(self.replacement) or '(removed)'}"


def _short(text: str) -> str:
    return text if len(text) <= 70 else text[:67] + "..."


_COMPARE = {
    ast.Eq: "!=",
    ast.NotEq: "==",
    ast.Lt: "<=",
    ast.LtE: "<",
    ast.Gt: ">=",
    ast.GtE: ">",
    ast.Is: "is not",
    ast.IsNot: "is",
    ast.In: "not in",
    ast.NotIn: "in",
}
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
    found: list[Mutant] = []

    bodies = [
        (node.body[0].lineno if isinstance(node.body, list) else node.body.lineno, node.end_lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
    ]

    def add(span: tuple[int, int, int, int], operator: str, replacement: str) -> None:
        on_import = not any(first <= span[0] <= (last or first) for first, last in bodies)
        original = source.segment(*span)
        found.append(Mutant(module, *span, operator, original, replacement, on_import))

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
        add((line, where, line, where + width), operator, new)

    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for index, op in enumerate(node.ops):
                new = _COMPARE[type(op)]
                swap_token(operands[index], operands[index + 1], _COMPARE_TOKEN, new, "compare")
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
                add(_span(node), "boolean-constant", str(not node.value))
            elif isinstance(node.value, int):
                add(_span(node), "number", repr(node.value + 1))
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
    return sorted(found, key=lambda mutant: (mutant.line, mutant.col, mutant.operator))


def apply(text: str, mutant: Mutant) -> str:
    """The module's text with the mutant's change made."""
    lines = text.encode("utf-8").splitlines(keepends=True)
    before = b"".join(lines[: mutant.line - 1]) + lines[mutant.line - 1][: mutant.col]
    after = lines[mutant.end_line - 1][mutant.end_col :] + b"".join(lines[mutant.end_line :])
    return (before + mutant.replacement.encode("utf-8") + after).decode("utf-8")


# --- the settings and the modules -----------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """``tools/mutants.toml``."""

    package: str
    test_command: str
    hypothesis_profile: str
    sample: int
    seed: int
    fail_under: float
    equivalent: dict[str, str]
    """``"module operator | line text | change"`` -> why the mutant changes nothing."""
    on_import_tests: tuple[str, ...] = ()
    """Tests also run for a line outside function bodies (they read declarations)."""

    @classmethod
    def read(cls, path: Path = CONFIG) -> Settings:
        """The settings of ``path``; unknown keys are refused."""
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        unknown = set(raw) - SETTINGS_KEYS
        if unknown:
            sys.exit(f"{path}: unknown settings {sorted(unknown)}")
        return cls(
            package=raw["package"],
            test_command=raw["test-command"],
            hypothesis_profile=raw["hypothesis-profile"],
            sample=raw["sample"],
            seed=raw["seed"],
            fail_under=raw["fail-under"],
            equivalent=dict(raw.get("equivalent", {})),
            on_import_tests=tuple(raw.get("on-import-tests", ())),
        )


def modules(package: Path) -> list[str]:
    """Every module of the package: its ``.py`` files, as paths under it."""
    return sorted(path.relative_to(package).as_posix() for path in package.rglob("*.py"))


def equivalence_key(mutant: Mutant, text: str) -> str:
    """How ``[equivalent]`` names a mutant: kept when lines move, unlike its place."""
    line = text.splitlines()[mutant.line - 1].strip()
    return f"{mutant.module} {mutant.operator} | {line} | {mutant.change}"


def choose(
    all_mutants: dict[str, list[Mutant]], sample: int | None, seed: int
) -> dict[str, list[Mutant]]:
    """The mutants run: all of them, or ``sample`` a module drawn with ``seed``.

    Each module has its own generator, seeded by ``seed`` and its name, so a
    module's draw does not depend on the other modules chosen.
    """
    if sample is None:
        return dict(all_mutants)
    chosen = {}
    for module, found in all_mutants.items():
        draw = random.Random(f"{seed}/{module}").sample(found, min(sample, len(found)))
        chosen[module] = sorted(draw, key=lambda mutant: (mutant.line, mutant.col, mutant.operator))
    return chosen


# --- which tests run each line: the coverage map -----------------------------------------------


def _digest(paths: list[Path], seed: str = "") -> str:
    digest = hashlib.sha256(seed.encode())
    for path in paths:
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def coverage_map(settings: Settings, jobs: int) -> dict[str, object]:
    """For each module and line, the tests that run it.

    Each test file runs once under coverage.py, one context a test (its node
    id, without parameters); what it ran is kept in ``.mutants/cover/``, named
    by a digest of the source, the test helpers and the test file, so only the
    test files that changed (or all, when the source did) run again.
    """
    folder = WORK / "cover"
    folder.mkdir(parents=True, exist_ok=True)
    helpers = sorted(
        path for path in (ROOT / "tests").glob("*.py") if not path.name.startswith("test_")
    )
    base = _digest(sorted((ROOT / settings.package).rglob("*.py")) + helpers)
    wanted = {
        test: folder / f"{test.stem}-{_digest([test], base)}.json"
        for test in sorted((ROOT / "tests").glob("test_*.py"))
    }
    for stale in set(folder.iterdir()) - set(wanted.values()):
        stale.unlink()
    missing = [test for test, part in wanted.items() if not part.exists()]
    if missing:
        print(f"mapping which tests run each line: {len(missing)} test files", flush=True)
        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            runs = [
                pool.submit(
                    subprocess.run,
                    [sys.executable, __file__, "--cover", str(wanted[test]), str(test)],
                    cwd=ROOT,
                    env=_test_env(ROOT, settings),
                    capture_output=True,
                    text=True,
                    check=False,
                )
                for test in missing
            ]
            for test, run in zip(missing, runs, strict=True):
                done = run.result()
                if done.returncode != 0:
                    wanted[test].unlink(missing_ok=True)
                    sys.exit(f"{test.name} fails unmutated:\n{done.stdout[-3000:]}")
        print(f"mapped in {time.monotonic() - started:.0f} s", flush=True)
    lines: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    durations: dict[str, float] = {}
    for part in wanted.values():
        data = json.loads(part.read_text(encoding="utf-8"))
        for module, by_line in data["lines"].items():
            for line, contexts in by_line.items():
                lines[module][line].update(contexts)
        durations.update(data["durations"])
    return {"lines": lines, "durations": durations, "on-import-tests": settings.on_import_tests}


def _cover(output: str, tests: list[str]) -> int:
    """Run ``tests`` under coverage.py, one context a test; write what ran where to ``output``."""
    import coverage
    import pytest

    package = ROOT / Settings.read().package
    cov = coverage.Coverage(data_file=output + ".data", source=[str(package)], config_file=False)
    durations: dict[str, float] = {}

    class Contexts:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
            name = item.nodeid.split("[", 1)[0]
            cov.switch_context(name)
            started = time.monotonic()
            yield
            durations[name] = durations.get(name, 0.0) + time.monotonic() - started
            cov.switch_context("")

    cov.start()
    status = pytest.main(["-q", "-n", "0", "-p", "no:cacheprovider", *tests], plugins=[Contexts()])
    cov.stop()
    cov.save()
    data = cov.get_data()
    lines: dict[str, dict[str, list[str]]] = {}
    for filename in data.measured_files():
        module = Path(filename).resolve().relative_to(package.resolve()).as_posix()
        by_line = data.contexts_by_lineno(filename)
        lines[module] = {str(line): sorted(contexts) for line, contexts in by_line.items()}
    result = {"lines": lines, "durations": durations}
    Path(output).write_text(json.dumps(result), encoding="utf-8")
    Path(cov.get_data().data_filename()).unlink(missing_ok=True)
    return int(status)


def tests_for(mutant: Mutant, cover: dict[str, object]) -> list[str]:
    """The tests a mutant runs: those that run its lines.

    A line run while its module is imported (outside function bodies: a class
    body, a field, a decorator, a constant; or run on import by a function that
    builds a type), and a line no test runs in the tests' own process (one run
    only by a command the tests start), runs every test that runs any line of
    its module; a line run on import also runs ``on-import-tests`` and the test
    files named after its module (``mirrors``), which may test declarations
    without running a line of the module.
    """
    by_line = cover["lines"].get(mutant.module, {})  # type: ignore[attr-defined]
    lines = range(mutant.line, mutant.end_line + 1)
    contexts = {context for line in lines for context in by_line.get(str(line), ())}
    tests = contexts - {""}
    on_import = mutant.on_import or "" in contexts
    if on_import or not tests:
        tests = {test for found in by_line.values() for test in found if test}
        if on_import:
            tests.update(cover.get("on-import-tests", ()))  # type: ignore[call-overload]
            tests.update(mirrors(mutant.module))
    return sorted(tests)


def mirrors(module: str) -> list[str]:
    """The test files named after a module's package or module: ``tests/test_<name>*.py``.

    ``contrib/run_config.py`` has ``tests/test_contrib.py``, ``_json.py``
    ``tests/test_json.py``, ``distribute/resolver.py`` every
    ``tests/test_distribute*.py``.
    """
    name = module.split("/", 1)[0].removesuffix(".py").lstrip("_")
    found = sorted((ROOT / "tests").glob(f"test_{name}*.py"))
    return [path.relative_to(ROOT).as_posix() for path in found]


# --- running -------------------------------------------------------------------------------


def _test_env(tree: Path, settings: Settings) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree / "src"), *filter(None, [env.get("PYTHONPATH")])])
    env["HYPOTHESIS_PROFILE"] = settings.hypothesis_profile
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("CI", None)
    return env


def _copy_tree(tree: Path) -> None:
    """A copy of the checkout's files (tracked and new, not ignored) to make mutants in."""
    if tree.exists():
        shutil.rmtree(tree)
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, tree / name)


@dataclass
class Result:
    """What became of one mutant."""

    ident: str
    outcome: str
    """``killed``, ``survived``, ``not-covered`` (survived: no test runs it), ``incompetent``."""
    seconds: float
    tests: int
    change: str
    key: str


def _run_one(tree: Path, mutant: Mutant, settings: Settings, cover: dict[str, object]) -> Result:
    path = tree / settings.package / mutant.module
    text = (ROOT / settings.package / mutant.module).read_text(encoding="utf-8")
    key = equivalence_key(mutant, text)
    mutated = apply(text, mutant)
    started = time.monotonic()

    def result(outcome: str, tests: int = 0) -> Result:
        return Result(mutant.ident, outcome, time.monotonic() - started, tests, mutant.change, key)

    try:
        compile(mutated, str(path), "exec")
    except SyntaxError:
        return result("incompetent")
    tests = tests_for(mutant, cover)
    if not tests:
        return result("not-covered")
    durations: dict[str, float] = cover["durations"]  # type: ignore[assignment]
    timeout = 30 + 10 * sum(durations.get(test, 1.0) for test in tests)
    command = settings.test_command.format(python=sys.executable).split() + tests
    path.write_text(mutated, encoding="utf-8")
    try:
        done = subprocess.run(
            command,
            cwd=tree,
            env=_test_env(tree, settings),
            capture_output=True,
            timeout=timeout,
            check=False,
        )
        # 5: no test collected (the map is wrong); 4 is how pytest ends when the
        # mutant breaks the collection of the tests named
        outcome = {0: "survived", 5: "incompetent"}.get(done.returncode, "killed")
    except subprocess.TimeoutExpired:
        outcome = "killed"
    finally:
        path.write_text(text, encoding="utf-8")
    return result(outcome, len(tests))


def _run(
    chosen: list[Mutant], settings: Settings, cover: dict[str, object], jobs: int
) -> list[Result]:
    trees = [WORK / f"tree-{number + 1}" for number in range(jobs)]
    for tree in trees:
        _copy_tree(tree)
    free = list(trees)
    results: list[Result] = []
    queue = iter(chosen)
    running: dict[Future[Result], Path] = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        while True:
            while free and (mutant := next(queue, None)) is not None:
                tree = free.pop()
                running[pool.submit(_run_one, tree, mutant, settings, cover)] = tree
            if not running:
                break
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                free.append(running.pop(future))
                done = future.result()
                results.append(done)
                print(
                    f"[{len(results)}/{len(chosen)}] {done.outcome:<11} {done.ident} "
                    f"{done.change} ({done.tests} tests, {done.seconds:.1f} s)",
                    flush=True,
                )
    return results


# --- the report ----------------------------------------------------------------------------


def _report(results: list[Result], settings: Settings, description: str) -> int:
    by_module: dict[str, list[Result]] = defaultdict(list)
    for result in results:
        by_module[result.ident.split(":", 1)[0]].append(result)
    print(f"\n{description}\n")
    print("| module | mutants | killed | equivalent | survived | rate |")
    print("|---|---|---|---|---|---|")
    below = []
    totals = [0, 0, 0, 0]
    survivors = []
    for module in sorted(by_module):
        counted = [result for result in by_module[module] if result.outcome != "incompetent"]
        killed = sum(result.outcome == "killed" for result in counted)
        equivalent = sum(
            result.outcome != "killed" and result.key in settings.equivalent for result in counted
        )
        survived = len(counted) - killed - equivalent
        survivors += [
            result
            for result in counted
            if result.outcome != "killed" and result.key not in settings.equivalent
        ]
        rate = 100.0 * killed / (killed + survived) if killed + survived else 100.0
        if rate < settings.fail_under:
            below.append(module)
        row = [len(counted), killed, equivalent, survived]
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        print(f"| `{module}` | " + " | ".join(map(str, row)) + f" | {rate:.1f}% |")
    mutants, killed, equivalent, survived = totals
    rate = 100.0 * killed / (killed + survived) if killed + survived else 100.0
    print(f"| **all** | {mutants} | {killed} | {equivalent} | {survived} | {rate:.1f}% |")
    if survivors:
        print("\nsurvivors (a test that pins the behaviour, or an [equivalent] entry with why):")
    for result in survivors:
        print(f"  {result.ident} {result.outcome}: {result.change}")
        print(f"      {json.dumps(result.key)}")
    if below:
        print(f"\nbelow {settings.fail_under}%: {', '.join(below)}")
    return 1 if below else 0


def main(argv: list[str] | None = None) -> int:
    """Run the mutants the arguments choose; 1 when a module's rate is below ``fail-under``."""
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["--cover"]:
        return _cover(argv[1], argv[2:])
    settings = Settings.read()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--all", action="store_true", help="every mutant of the modules chosen")
    group.add_argument("--sample", type=int, default=settings.sample, help="mutants a module")
    group.add_argument("--retest-survivors", action="store_true", help="the last run's survivors")
    parser.add_argument("--seed", type=int, default=settings.seed)
    parser.add_argument("--modules", nargs="+", default=["*"], help="patterns under the package")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--list", action="store_true", help="count the mutants, run nothing")
    args = parser.parse_args(argv)

    package = ROOT / settings.package
    names = [
        name
        for name in modules(package)
        if any(fnmatch.fnmatchcase(name, pattern) for pattern in args.modules)
    ]
    all_mutants = {
        name: mutants_of(name, (package / name).read_text(encoding="utf-8")) for name in names
    }
    if args.list:
        for name, found in all_mutants.items():
            print(f"{len(found):6} {name}")
        print(f"{sum(map(len, all_mutants.values())):6} mutants in {len(names)} modules")
        return 0
    last = WORK / "last-run.json"
    if args.retest_survivors:
        previous = json.loads(last.read_text(encoding="utf-8"))
        wanted = {
            result["ident"]
            for result in previous["results"]
            if result["outcome"] in {"survived", "not-covered", "incompetent"}
        }
        chosen = [m for found in all_mutants.values() for m in found if m.ident in wanted]
        description = f"the survivors of: {previous['description']}"
    else:
        sample = None if args.all else args.sample
        chosen = [m for found in choose(all_mutants, sample, args.seed).values() for m in found]
        description = (
            f"{len(names)} modules, "
            + ("every mutant" if sample is None else f"{sample} mutants a module, seed {args.seed}")
            + f", {len(chosen)} mutants"
        )
    print(description, flush=True)
    cover = coverage_map(settings, max(1, args.jobs))
    started = time.monotonic()
    results = _run(chosen, settings, cover, max(1, args.jobs))
    description += f", {time.monotonic() - started:.0f} s with {args.jobs} jobs"
    if args.retest_survivors:
        retested = {result.ident: asdict(result) for result in results}
        kept = [retested.get(result["ident"], result) for result in previous["results"]]
        record = {"description": previous["description"], "results": kept}
    else:
        record = {"description": description, "results": [asdict(r) for r in results]}
    last.write_text(json.dumps(record, indent=1), encoding="utf-8")
    if args.retest_survivors:
        print(f"\n{len(results)} retested; the whole run as it now stands:")
        results = [Result(**result) for result in record["results"]]
    return _report(results, settings, record["description"])


if __name__ == "__main__":
    sys.exit(main())
