"""Mutation testing of estconf's rules: ``make mutants`` (see docs/mutation.md).

Cosmic Ray makes the mutants of the modules listed under
``tools/mutants.toml``; this driver runs each mutant's
tests, one mutant at a time, in a copy of the source tree (``.mutants/tree``),
so the working tree is never changed.  The mutants are drawn with a fixed
seed, so a run is reproducible; ``--all`` runs every mutant.  It prints each
result as it comes, then the kill rate and every survivor with its diff, and
exits 1 when the rate is below ``fail-under``.

Usage::

    python tools/mutants.py [--all | --sample N] [--seed S] [--jobs J] [--resume]

With ``--jobs J`` (default: the number of CPUs), J mutants are tested at a
time, each worker in its own copy of the tree (``.mutants/tree``,
``.mutants/tree-2``, ...).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

from cosmic_ray.commands import init as init_session
from cosmic_ray.mutating import mutate_and_test
from cosmic_ray.work_db import WorkDB, WorkResultStorage, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkItem, WorkResult

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("src", "tests", "schemas", "pyproject.toml")
"""What the tests need: the copy the mutants are made in."""


@dataclass(frozen=True)
class Settings:
    """The settings of ``tools/mutants.toml``."""

    modules: dict[str, list[str]]
    test_command: str
    exclude_operators: list[str]
    sample: int
    seed: int
    timeout: float
    fail_under: float
    hypothesis_profile: str

    @classmethod
    def load(cls) -> Settings:
        """Read the settings from tools/mutants.toml."""
        with (ROOT / "tools" / "mutants.toml").open("rb") as file:
            table: dict[str, Any] = tomllib.load(file)
        return cls(
            modules=dict(table["modules"]),
            test_command=table["test-command"],
            exclude_operators=list(table.get("exclude-operators", [])),
            sample=int(table["sample"]),
            seed=int(table["seed"]),
            timeout=float(table["timeout"]),
            fail_under=float(table["fail-under"]),
            hypothesis_profile=table["hypothesis-profile"],
        )

    def command_for(self, module: str) -> str:
        """The command that runs the tests of ``module``, stopping at the first failure."""
        return self.test_command.format(
            python=shlex.quote(sys.executable), tests=" ".join(self.modules[module])
        )


def main(argv: list[str] | None = None) -> int:
    """Run the mutants; return 0 when the kill rate reaches ``fail-under``."""
    settings = Settings.load()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--all", action="store_true", help="run every mutant, not a sample")
    group.add_argument("--sample", type=int, default=settings.sample, help="how many mutants")
    parser.add_argument("--seed", type=int, default=settings.seed, help="seed of the sample")
    parser.add_argument("--resume", action="store_true", help="go on with the last session")
    parser.add_argument(
        "--retest-survivors",
        action="store_true",
        help="run the last session's survivors again against the current tests",
    )
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="mutants tested at a time"
    )
    parser.add_argument("--workdir", type=Path, default=ROOT / ".mutants")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")

    trees = [
        args.workdir / ("tree" if job == 1 else f"tree-{job}") for job in range(1, args.jobs + 1)
    ]
    session = args.workdir / "session.sqlite"
    resume = (args.resume or args.retest_survivors) and session.exists() and trees[0].exists()
    if args.retest_survivors and not resume:
        sys.exit("no session to retest: run the mutants first")
    for tree in trees:
        if not (resume and tree.exists()) or args.retest_survivors:
            _copy_tree(tree)
    os.environ["HYPOTHESIS_PROFILE"] = settings.hypothesis_profile
    _baseline(settings, trees)
    with _in_tree(trees[0]), use_db(str(session.resolve()), WorkDB.Mode.create) as db:
        if not resume:
            _new_session(db, settings, None if args.all else args.sample, args.seed)
        if args.retest_survivors:
            _forget_survivors(db)
    with use_db(str(session.resolve()), WorkDB.Mode.open) as db:
        _run(db, settings, trees)
        return _report(db, settings, args)


@contextlib.contextmanager
def _in_tree(tree: Path) -> Iterator[None]:
    """Work in ``tree``, with its ``src`` first on the path of the tests' Python."""
    before, path = Path.cwd(), os.environ.get("PYTHONPATH")
    os.chdir(tree)
    os.environ["PYTHONPATH"] = os.pathsep.join([str(tree.resolve() / "src"), *filter(None, [path])])
    try:
        yield
    finally:
        os.chdir(before)
        if path is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = path


def _copy_tree(tree: Path) -> None:
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tree / name, ignore=ignore)
        else:
            shutil.copy2(source, tree / name)


def _baseline(settings: Settings, trees: list[Path]) -> None:
    """The tests must pass before anything is mutated (run in every tree, one command each)."""
    commands = sorted({settings.command_for(module) for module in settings.modules})
    with ProcessPoolExecutor(max_workers=len(trees)) as pool:
        runs = [
            pool.submit(_run_in, trees[number % len(trees)], command)
            for number, command in enumerate(commands)
        ]
        for command, run in zip(commands, runs, strict=True):
            returncode, output = run.result()
            if returncode != 0:
                sys.exit(f"the tests fail unmutated:\n$ {command}\n{output}")


def _run_in(tree: Path, command: str) -> tuple[int, str]:
    """Run ``command`` in ``tree`` (in a worker process); its exit status and output."""
    with _in_tree(tree):
        done = subprocess.run(shlex.split(command), capture_output=True, text=True, check=False)
    return done.returncode, done.stdout + done.stderr


def _key(item: WorkItem) -> tuple[str, str, int]:
    [mutation] = item.mutations
    return (str(mutation.module_path), mutation.operator_name, mutation.occurrence)


_APPLIED_ANYWAY = {
    "classmethod": frozenset({"field_validator", "model_validator"}),
    "property": frozenset({"computed_field"}),
}
"""Decorators that pydantic applies itself under these: removing one leaves the same class."""


def _decorator_name(decorator: ast.expr) -> str | None:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return target.id if isinstance(target, ast.Name) else None


def _redundant_decorators(module: str) -> set[int]:
    """The lines of decorators that pydantic would apply anyway (see ``_APPLIED_ANYWAY``).

    ``@classmethod`` under ``@field_validator`` or ``@model_validator``, and
    ``@property`` under ``@computed_field``: pydantic makes the function a
    classmethod or a property itself, so a mutant without the decorator is the
    same program.
    """
    lines = set()
    for node in ast.walk(ast.parse(Path(module).read_text(encoding="utf-8"))):
        if not isinstance(node, ast.FunctionDef):
            continue
        names = {_decorator_name(decorator) for decorator in node.decorator_list}
        for decorator in node.decorator_list:
            outer = _APPLIED_ANYWAY.get(_decorator_name(decorator) or "")
            if outer is not None and not isinstance(decorator, ast.Call) and names & outer:
                lines.add(decorator.lineno)
    return lines


def _excluded(item: WorkItem, settings: Settings, redundant: dict[str, set[int]]) -> bool:
    module, operator, _ = _key(item)
    if any(re.fullmatch(pattern, operator) for pattern in settings.exclude_operators):
        return True
    line = item.mutations[0].start_pos[0]
    return operator.endswith("/RemoveDecorator") and line in redundant[module]


def _new_session(db: WorkDB, settings: Settings, sample: int | None, seed: int) -> None:
    init_session([Path(module) for module in settings.modules], db, {})
    items = sorted(db.work_items, key=_key)
    redundant = {module: _redundant_decorators(module) for module in settings.modules}
    kept = [item for item in items if not _excluded(item, settings, redundant)]
    chosen = kept
    if sample is not None and sample < len(kept):
        chosen = random.Random(seed).sample(kept, sample)
    chosen_ids = {item.job_id for item in chosen}
    kept_ids = {item.job_id for item in kept}
    for reason, job_ids in (
        ("excluded", {item.job_id for item in items} - kept_ids),
        ("not in the sample", kept_ids - chosen_ids),
    ):
        skipped = WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output=reason)
        db.set_multiple_results(sorted(job_ids), skipped)
    print(
        f"{len(items)} mutants, {len(items) - len(kept)} excluded; "
        f"running {len(chosen)}" + ("" if sample is None else f" drawn with seed {seed}"),
        flush=True,
    )


def _forget_survivors(db: WorkDB) -> None:
    """Make the survivors pending again, so that ``_run`` tests them anew."""
    survivors = [job_id for job_id, result in db.results if _outcome(result) == "survived"]
    with db._session_maker.begin() as session:  # Cosmic Ray has no public way to drop a result
        session.query(WorkResultStorage).filter(WorkResultStorage.job_id.in_(survivors)).delete()
    print(f"retesting {len(survivors)} survivors", flush=True)


def _run(db: WorkDB, settings: Settings, trees: list[Path]) -> None:
    """Test the pending mutants, one per tree at a time, recording each result as it comes."""
    pending = sorted(db.pending_work_items, key=_key)
    free = list(trees)
    running: dict[Future[tuple[WorkResult, float]], tuple[WorkItem, Path]] = {}
    done_count = 0
    with ProcessPoolExecutor(max_workers=len(trees)) as pool:
        queue = iter(pending)
        while True:
            while free:
                item = next(queue, None)
                if item is None:
                    break
                tree = free.pop()
                command = settings.command_for(_key(item)[0])
                future = pool.submit(_test_in, tree, item, command, settings.timeout)
                running[future] = (item, tree)
            if not running:
                break
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                item, tree = running.pop(future)
                free.append(tree)
                result, seconds = future.result()
                db.set_result(item.job_id, result)
                done_count += 1
                _module, operator, occurrence = _key(item)
                print(
                    f"[{done_count}/{len(pending)}] {_outcome(result):<11} {_where(item)} "
                    f"{operator.removeprefix('core/')} #{occurrence} ({seconds:.1f} s)",
                    flush=True,
                )


def _test_in(tree: Path, item: WorkItem, command: str, timeout: float) -> tuple[WorkResult, float]:
    """Make one mutant in ``tree`` and run its tests there (in a worker process)."""
    started = time.monotonic()
    with _in_tree(tree):
        result = mutate_and_test(item.mutations, command, timeout)
    return result, time.monotonic() - started


def _outcome(result: WorkResult) -> str:
    if result.worker_outcome == WorkerOutcome.NO_TEST:
        return "no-mutant"
    if result.worker_outcome != WorkerOutcome.NORMAL:
        return "incompetent"
    return str(result.test_outcome.value if result.test_outcome else "unknown")


def _where(item: WorkItem) -> str:
    """The mutated module, as a path under ``src/estconf``, and the line of the change."""
    [mutation] = item.mutations
    module = Path(mutation.module_path).as_posix().removeprefix("src/estconf/")
    return f"{module}:{mutation.start_pos[0]}"


def _changed_lines(diff: str | None) -> list[str]:
    return [
        line
        for line in (diff or "").splitlines()
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def _report(db: WorkDB, settings: Settings, args: argparse.Namespace) -> int:
    items = {item.job_id: item for item in db.work_items}
    counts: Counter[str] = Counter()
    survivors: list[tuple[WorkItem, WorkResult]] = []
    for job_id, result in db.results:
        if result.worker_outcome == WorkerOutcome.SKIPPED:
            continue
        outcome = _outcome(result)
        counts[outcome] += 1
        if result.worker_outcome == WorkerOutcome.NORMAL and result.output == "timeout":
            counts["timeout"] += 1
        if outcome == TestOutcome.SURVIVED.value:
            survivors.append((items[job_id], result))
    killed, survived = counts[TestOutcome.KILLED.value], counts[TestOutcome.SURVIVED.value]
    tested = killed + survived
    rate = 100.0 * killed / tested if tested else 0.0
    print()
    print(f"modules: {', '.join(settings.modules)}")
    print("sample:  " + ("all" if args.all else f"{args.sample}, seed {args.seed}"))
    print(
        f"killed {killed} (timeouts {counts['timeout']}), survived {survived}, "
        f"incompetent {counts['incompetent']}, no mutant {counts['no-mutant']}"
    )
    print(f"kill rate: {rate:.1f}% of {tested} (fail under {settings.fail_under}%)")
    if survivors:
        print("\nsurvivors:")
    for item, result in sorted(survivors, key=lambda pair: _key(pair[0])):
        print(f"  {_where(item)} {item.mutations[0].operator_name.removeprefix('core/')}")
        for line in _changed_lines(result.diff):
            print(f"      {line}")
    return 0 if rate >= settings.fail_under else 1


if __name__ == "__main__":
    sys.exit(main())
