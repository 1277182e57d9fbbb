"""Mutation testing of every module of estconf: ``make mutants`` (see docs/mutation.md).

The mutants are made by ``tools/mutants_make.py`` from each module's syntax
tree, from operator-level changes (``==`` for ``!=``, ``and`` for ``or``, a
number plus one) to statement-level ones (a ``raise`` removed, a call statement
removed, a returned value replaced by ``None``, a string emptied).  Every
module under ``src/estconf`` is mutated: the list is read from the tree, never
written by hand.  This module runs them and reports.

Each mutant runs the tests that execute its line, read from a map made once
with coverage.py (one context per test, the package's caches emptied before
each); a line run only while the module is imported (a class body, a
decorator, a constant) runs every test that executes any line of its module.
A mutant on a line no test executes survives without
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
import fnmatch
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import warnings
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

from mutants_make import Mutant, apply, choose, equivalence_key, modules, mutants_of

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
        "groups",
    }
)
"""What ``tools/mutants.toml`` may set: nothing in it narrows the modules."""
GROUP_KEYS = frozenset({"modules", "sample", "seed"})


@dataclass(frozen=True)
class Group:
    """Modules drawn with a larger sample and a seed of their own (``[groups.NAME]``)."""

    name: str
    modules: tuple[str, ...]
    """Patterns under the package; each must match a module."""
    sample: int
    seed: int

    def holds(self, module: str) -> bool:
        """Whether one of the group's patterns matches ``module``."""
        return any(fnmatch.fnmatchcase(module, pattern) for pattern in self.modules)


# --- the settings ---------------------------------------------------------------------------


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
    groups: tuple[Group, ...] = ()
    """Modules drawn with their own sample and seed; the first group that holds a module wins."""

    def draw_of(self, module: str) -> tuple[int, int]:
        """The sample and seed a module is drawn with, when the command line sets neither."""
        for group in self.groups:
            if group.holds(module):
                return group.sample, group.seed
        return self.sample, self.seed

    @classmethod
    def read(cls, path: Path = CONFIG) -> Settings:
        """The settings of ``path``; unknown keys are refused."""
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        unknown = set(raw) - SETTINGS_KEYS
        if unknown:
            sys.exit(f"{path}: unknown settings {sorted(unknown)}")
        groups = []
        for name, group in raw.get("groups", {}).items():
            unknown = set(group) - GROUP_KEYS
            if unknown:
                sys.exit(f"{path}: unknown settings {sorted(unknown)} in [groups.{name}]")
            if group["sample"] < raw["sample"]:
                sys.exit(
                    f"{path}: [groups.{name}] draws fewer mutants than sample = {raw['sample']}"
                )
            groups.append(Group(name, tuple(group["modules"]), group["sample"], group["seed"]))
        return cls(
            package=raw["package"],
            test_command=raw["test-command"],
            hypothesis_profile=raw["hypothesis-profile"],
            sample=raw["sample"],
            seed=raw["seed"],
            fail_under=raw["fail-under"],
            equivalent=dict(raw.get("equivalent", {})),
            on_import_tests=tuple(raw.get("on-import-tests", ())),
            groups=tuple(groups),
        )


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
    by a digest of the source, the test helpers, this tool and the test file, so
    only the test files that changed (or all, when the rest did) run again.
    """
    folder = WORK / "cover"
    folder.mkdir(parents=True, exist_ok=True)
    helpers = sorted(
        path for path in (ROOT / "tests").glob("*.py") if not path.name.startswith("test_")
    )
    base = _digest(sorted((ROOT / settings.package).rglob("*.py")) + helpers + [Path(__file__)])
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
            _clear_caches(package.name)
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


def _clear_caches(package: str) -> None:
    """Empty the ``functools`` caches of the package's modules.

    A line reached through a cache runs only for the first test that fills it;
    emptied before each test, the line is mapped to every test that needs it.
    """
    for name, module in list(sys.modules.items()):
        if module is None or not (name == package or name.startswith(package + ".")):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()


def tests_for(mutant: Mutant, cover: dict[str, object]) -> list[str]:
    """The tests a mutant runs: those that run its lines, from its statement's first.

    A line run while its module is imported (outside function bodies: a class
    body, a field, a decorator, a constant; or run on import by a function that
    builds a type), and a line no test runs in the tests' own process (one run
    only by a command the tests start), runs every test that runs any line of
    its module; a line run on import also runs ``on-import-tests`` and the test
    files named after its module (``mirrors``), which may test declarations
    without running a line of the module.
    """
    by_line = cover["lines"].get(mutant.module, {})  # type: ignore[attr-defined]
    lines = range(mutant.statement_line or mutant.line, mutant.end_line + 1)
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
    env["PYTHONWARNINGS"] = "ignore::SyntaxWarning"  # for what runs before pytest's own filters
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


IGNORE_SYNTAX_WARNINGS = ("-W", "ignore::SyntaxWarning")
"""Given to pytest, after the project's own filters, so that it wins over ``error``.

Some mutants compile with a ``SyntaxWarning`` (``x is "text"``, from ``==``),
which the project's ``filterwarnings = error`` would turn into a failure to
import the module: the mutant would count as killed though no test tells its
behaviour.  Ignored, the mutant is killed only by a test that sees it.
"""


def test_command(settings: Settings, tests: list[str]) -> list[str]:
    """The command that runs ``tests`` against a mutant."""
    command = settings.test_command.format(python=sys.executable).split()
    return [*command, *IGNORE_SYNTAX_WARNINGS, *tests]


def _run_one(
    tree: Path, mutant: Mutant, settings: Settings, cover: dict[str, object], root: Path = ROOT
) -> Result:
    """Run the tests ``cover`` names for ``mutant`` in ``tree``, a copy of ``root``."""
    path = tree / settings.package / mutant.module
    text = (root / settings.package / mutant.module).read_text(encoding="utf-8")
    key = equivalence_key(mutant, text)
    mutated = apply(text, mutant)
    started = time.monotonic()

    def result(outcome: str, tests: int = 0) -> Result:
        return Result(mutant.ident, outcome, time.monotonic() - started, tests, mutant.change, key)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            compile(mutated, str(path), "exec")
    except SyntaxError:
        return result("incompetent")
    tests = tests_for(mutant, cover)
    if not tests:
        return result("not-covered")
    durations: dict[str, float] = cover["durations"]  # type: ignore[assignment]
    timeout = 30 + 10 * sum(durations.get(test, 1.0) for test in tests)
    command = test_command(settings, tests)
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


def _choose(
    all_mutants: dict[str, list[Mutant]], settings: Settings, args: argparse.Namespace
) -> tuple[list[Mutant], str]:
    """The mutants to run, and how they were drawn, in words.

    ``--all`` takes every mutant.  Otherwise each module is drawn with the
    sample and seed of its group in ``mutants.toml``, or the defaults there;
    ``--sample`` and ``--seed`` replace them for every module.
    """
    if args.all:
        return [m for found in all_mutants.values() for m in found], "every mutant"
    plans: dict[tuple[int, int], dict[str, list[Mutant]]] = defaultdict(dict)
    for name, found in all_mutants.items():
        sample, seed = settings.draw_of(name)
        plan = (args.sample or sample, seed if args.seed is None else args.seed)
        plans[plan][name] = found
    drawn = {name: m for plan, part in plans.items() for name, m in choose(part, *plan).items()}
    chosen = [mutant for name in all_mutants for mutant in drawn[name]]
    words = [f"{sample} mutants a module, seed {seed}" for sample, seed in sorted(plans)]
    return chosen, "; ".join(words)


def main(argv: list[str] | None = None) -> int:
    """Run the mutants the arguments choose; 1 when a module's rate is below ``fail-under``."""
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["--cover"]:
        return _cover(argv[1], argv[2:])
    settings = Settings.read()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--all", action="store_true", help="every mutant of the modules chosen")
    which.add_argument("--sample", type=int, help="mutants a module (default: as mutants.toml)")
    which.add_argument("--retest-survivors", action="store_true", help="the last run's survivors")
    parser.add_argument("--seed", type=int, help="the draw's seed (default: as mutants.toml)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--modules", nargs="+", default=["*"], help="patterns under the package")
    groups = {group.name: group for group in settings.groups}
    where.add_argument("--group", choices=sorted(groups), help="the modules of [groups.NAME]")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--list", action="store_true", help="count the mutants, run nothing")
    args = parser.parse_args(argv)

    package = ROOT / settings.package
    patterns = groups[args.group].modules if args.group else args.modules
    names = [
        name
        for name in modules(package)
        if any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
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
        chosen, drawn = _choose(all_mutants, settings, args)
        description = f"{len(names)} modules, {drawn}, {len(chosen)} mutants"
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
