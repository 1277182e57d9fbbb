"""The long fuzzing run of estconf: ``make fuzz`` (see docs/fuzzing.md).

Real files of tests/data and examples are mutated by structure and by bytes
(``tests/fuzz_mutations.py``) and run through every command, in process,
and the Python API (``tests/fuzz_surfaces.py``), until ``--inputs`` have
run or ``--seconds`` have passed.  ``--jobs`` workers share the budget.

Two engines:

- ``atheris`` (the default where atheris is installed, ``pip install -e
  '.[fuzz]'``): coverage-guided.  estconf is instrumented (not the
  libraries it uses: that would make every input several times slower);
  libFuzzer keeps the inputs that reach new code and mutates
  them further, with atheris' byte mutations and the structural and token
  mutations of ``fuzz_mutations``.  An input's first byte names the surface
  and its second the file name it is given (which tells the format and the
  kind), so an input that reaches new code on one command is kept for it.
- ``random``: the same mutations, drawn from a seeded generator, each input
  run on one surface after another.  Reproducible from ``--seed``.

Every input that breaks a surface (a crash: a traceback, an exit status
other than 0, 1 or 2, an exception of the API that is no ``ValueError``; a
hang: still running after ``--hang-seconds``; slow: under 150 KB and longer
than 2 s) is written under ``--out`` (``build/fuzz/failures/``) with what
happened.  The report gives the inputs run on each surface, the failures,
and the slowest input under 150 KB; ``--out``/summary.json has the same.
Times are processor time (the machine may be shared); under atheris, the
slow inputs and the slowest are timed again in a process without
instrumentation.  The exit status is 1 when anything failed.

Usage::

    python tools/fuzz.py [--inputs N] [--seconds S] [--jobs J] [--engine E] [--seed S]
    python tools/fuzz.py --replay FILE...     # run saved inputs on every surface
    python tools/fuzz.py --surfaces 'tf-config|TFJob'   # only surfaces whose name matches
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))

SLOW_SIZE = 150 * 1024
SLOW_SECONDS = 2.0
FLUSH_SECONDS = 2.0


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tools/fuzz.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=1_000_000, help="stop after this many")
    parser.add_argument("--seconds", type=float, default=3600.0, help="or after this long")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--engine", choices=("auto", "atheris", "random"), default="auto")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generators")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "fuzz")
    parser.add_argument("--surfaces", default="", help="only surfaces whose name matches")
    parser.add_argument("--hang-seconds", type=float, default=20.0)
    parser.add_argument("--memory-mb", type=int, default=4096, help="address space per worker")
    parser.add_argument("--replay", nargs="+", type=Path, metavar="FILE")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument(
        "--time", nargs=3, metavar=("SURFACE", "NAME", "FILE"), help=argparse.SUPPRESS
    )
    return parser.parse_args(argv)


def _engine(requested: str) -> str:
    if requested != "auto":
        return requested
    try:
        import atheris  # noqa: F401
    except ImportError:
        return "random"
    return "atheris"


# --- the parent: workers, progress, report --------------------------------------------------


def _parent(args: argparse.Namespace) -> int:
    engine = _engine(args.engine)
    out: Path = args.out
    shutil.rmtree(out / "stats", ignore_errors=True)
    for sub in ("stats", "failures", "corpus"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    commit = _git("rev-parse", "--short", "HEAD")
    print(
        f"fuzz: engine {engine}, {args.jobs} workers, up to {args.inputs:,} inputs "
        f"or {args.seconds:g} s, at {commit}",
        flush=True,
    )
    start = time.monotonic()
    deadline = start + args.seconds
    workers: dict[int, subprocess.Popen[bytes]] = {}
    restarts = 0
    died: list[str] = []

    def launch(index: int) -> None:
        done = _total(out)["runs"]
        left = max(1, (args.inputs - done) // args.jobs)
        seconds = max(1.0, deadline - time.monotonic())
        command = [
            sys.executable, str(Path(__file__).resolve()), "--worker", str(index),
            "--engine", engine, "--inputs", str(left), "--seconds", f"{seconds:.0f}",
            "--seed", str(args.seed * 1000 + index + 100 * restarts), "--out", str(out),
            "--surfaces", args.surfaces, "--hang-seconds", str(args.hang_seconds),
            "--memory-mb", str(args.memory_mb),
        ]  # fmt: skip
        log = (out / "stats" / f"worker-{index}.log").open("ab")
        workers[index] = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)

    if engine == "atheris":
        _write_seed_corpus(out, args.surfaces)
    for index in range(args.jobs):
        launch(index)

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt  # stop the workers, and still report what ran

    signal.signal(signal.SIGTERM, interrupt)
    last_print = time.monotonic()
    try:
        while workers:
            time.sleep(1.0)
            for index, process in list(workers.items()):
                code = process.poll()
                if code is None:
                    stale = time.monotonic() - _stats_time(out, index)
                    if stale > 15 * args.hang_seconds:  # wall clock; a hang is processor time
                        process.kill()
                        process.wait()
                        died.append(_record_lost_input(out, index, "hang", "worker stuck"))
                        code = -9
                    else:
                        continue
                del workers[index]
                if code != 0:
                    died.append(_record_lost_input(out, index, "crash", f"worker exit {code}"))
                    restarts += 1
                    set_aside(out, index, restarts)
                    total = _total(out)
                    if time.monotonic() < deadline - 5 and total["runs"] < args.inputs:
                        launch(index)
            if time.monotonic() - last_print > 30:
                last_print = time.monotonic()
                _progress(out, start)
    except KeyboardInterrupt:
        for process in workers.values():
            process.terminate()
        for process in workers.values():
            process.wait()
    total = _total(out)
    total.update(
        engine=engine,
        jobs=args.jobs,
        seconds=round(time.monotonic() - start, 1),
        commit=commit,
        date=time.strftime("%Y-%m-%d", time.gmtime()),
        workers_lost=died,
    )
    if engine == "atheris":
        _retime(total, out)
    (out / "summary.json").write_text(json.dumps(total, indent=2) + "\n")
    _report(total, out)
    return 1 if total["failures"] or died else 0


def _retime(total: dict[str, Any], out: Path) -> None:
    """Time the slow inputs and the slowest again, in a process without instrumentation.

    Coverage instrumentation makes estconf several times slower, so what the
    workers measured is an upper bound: an input stays slow only if it is
    slow without it.
    """
    timed: list[dict[str, Any]] = []
    for key, failure in list(total["failures"].items()):
        if failure["kind"] in ("slow", "hang"):
            seconds = _time_alone(out / failure["file"], failure["name"], failure["surface"])
            if seconds is not None and seconds <= SLOW_SECONDS:
                del total["failures"][key]
                size = (out / failure["file"]).stat().st_size
                if size < SLOW_SIZE:
                    timed.append(
                        {
                            **failure,
                            "seconds_instrumented": failure["seconds"],
                            "seconds": seconds,
                            "size": size,
                        }
                    )
    slowest = total["slowest"]
    if slowest:
        seconds = _time_alone(out / slowest["file"], slowest["name"], slowest["surface"])
        slowest["seconds_instrumented"] = slowest["seconds"]
        slowest["seconds"] = seconds if seconds is not None else slowest["seconds"]
        timed.append(slowest)
    # The slowest under instrumentation need not be the slowest without it: an
    # input timed again as no longer slow may still take longer than it.
    if timed:
        total["slowest"] = max(timed, key=lambda entry: entry["seconds"])


def _time_alone(path: Path, name: str, surface: str) -> float | None:
    command = [sys.executable, str(Path(__file__).resolve()), "--time", surface, name, str(path)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=True)
        return float(done.stdout.split()[-1])
    except (OSError, ValueError, IndexError, subprocess.SubprocessError):
        return None


def _time(surface: str, name: str, path: Path) -> int:
    """Print the processor time of one input on one surface (the best of three runs)."""
    import fuzz_surfaces

    _fast_cli()
    given = fuzz_surfaces.Input(path.read_bytes(), name)
    with fuzz_surfaces.workdir() as directory:
        fuzz_surfaces.run(surface, given, directory)  # imports, caches
        best = min(fuzz_surfaces.run(surface, given, directory)[1] for _ in range(3))
    print(f"{best:.3f}")
    return 0


def _git(*args: str) -> str:
    try:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _stats_time(out: Path, index: int) -> float:
    path = out / "stats" / f"worker-{index}.json"
    try:
        age = time.time() - path.stat().st_mtime
    except OSError:
        return time.monotonic()  # not written yet: starting
    return time.monotonic() - age


def set_aside(out: Path, index: int, run: int) -> None:
    """Keep a dead worker's figures, under a name of their own, beside its replacement's.

    The worker started in its place writes ``worker-N.json`` from zero; the
    inputs the dead one ran still count in the total, and its slowest input
    stays the file its figures name.
    """
    path = out / "stats" / f"worker-{index}.json"
    try:
        stats = json.loads(path.read_text())
    except (OSError, ValueError):
        return
    slowest = stats.get("slowest")
    if slowest:
        kept = out / slowest["file"]
        moved = kept.with_name(kept.name.replace(f"worker-{index}", f"worker-{index}-run{run}"))
        for source, target in ((kept, moved), (Path(f"{kept}.txt"), Path(f"{moved}.txt"))):
            with contextlib.suppress(OSError):
                source.replace(target)
        slowest["file"] = str(moved.relative_to(out))
    (out / "stats" / f"worker-{index}-run{run}.json").write_text(json.dumps(stats))
    path.unlink()


def _record_lost_input(out: Path, index: int, kind: str, why: str) -> str:
    """Keep the input a worker was running when it died or stuck."""
    current = out / "stats" / f"current-{index}"
    try:
        data = current.read_bytes()
    except OSError:
        return f"{kind}: {why} (input unknown)"
    surface, name, content = _unpack_current(data)
    digest = hashlib.sha1(content).hexdigest()[:12]
    target = out / "failures" / f"{kind}-{_slug(surface)}-{digest}{Path(name).suffix}"
    target.write_bytes(content)
    target.with_suffix(target.suffix + ".txt").write_text(f"{kind} on {surface} ({name}): {why}\n")
    return f"{kind} on {surface} with {name}: {why}, input {target.relative_to(out)}"


def _total(out: Path) -> dict[str, Any]:
    total: dict[str, Any] = {
        "runs": 0,
        "inputs": 0,
        "cpu_seconds": 0.0,
        "surfaces": {},
        "failures": {},
        "slowest": None,
    }
    for path in sorted((out / "stats").glob("worker-*.json")):
        with contextlib.suppress(OSError, ValueError):
            stats = json.loads(path.read_text())
            total["runs"] += stats["runs"]
            total["cpu_seconds"] += stats.get("cpu_seconds", 0.0)
            total["inputs"] += stats["inputs"]
            for surface, count in stats["surfaces"].items():
                total["surfaces"][surface] = total["surfaces"].get(surface, 0) + count
            total["failures"].update(stats["failures"])
            slowest = stats["slowest"]
            if slowest and (
                not total["slowest"] or slowest["seconds"] > total["slowest"]["seconds"]
            ):
                total["slowest"] = slowest
    return total


def _progress(out: Path, start: float) -> None:
    total = _total(out)
    elapsed = time.monotonic() - start
    print(
        f"  {elapsed:7.0f} s  {total['runs']:>10,} runs  {total['runs'] / max(elapsed, 1):7.0f}/s"
        f"  {len(total['failures'])} failures",
        flush=True,
    )


def _report(total: dict[str, Any], out: Path) -> None:
    print(
        f"fuzz: {total['runs']:,} inputs run ({total['inputs']:,} distinct) on "
        f"{len(total['surfaces'])} surfaces in {total['seconds']:g} s, "
        f"engine {total['engine']}, {total['jobs']} workers, commit {total['commit']}"
    )
    if total["runs"]:
        each = total["cpu_seconds"] / total["runs"]
        print(
            f"processor time: {total['cpu_seconds']:,.0f} s, {each * 1000:.1f} ms an input "
            f"(a million inputs: {each * 1e6 / 3600:.1f} h of processor time)"
        )
    for surface, count in sorted(total["surfaces"].items()):
        print(f"  {count:>10,}  {surface}")
    kinds = {"crash": 0, "hang": 0, "slow": 0}
    for failure in total["failures"].values():
        kinds[failure["kind"]] += 1
    print(
        f"crashes: {kinds['crash']}, hangs: {kinds['hang']}, "
        f"slow (> 2 s under 150 KB): {kinds['slow']}"
    )
    for failure in total["failures"].values():
        print(f"  {failure['kind']} on {failure['surface']}: {failure['detail'][:200]}")
        print(f"    input: {failure['file']}")
    for lost in total["workers_lost"]:
        print(f"  {lost}")
    slowest = total["slowest"]
    if slowest:
        print(
            f"slowest input under 150 KB: {slowest['seconds']:.3f} s, {slowest['size']:,} bytes "
            f"({slowest['name']}) on {slowest['surface']}, kept as {slowest['file']}"
        )
    print(f"summary: {out / 'summary.json'}")
    slowest_cell = (
        f"{slowest['seconds']:.2f} s ({slowest['size']:,} bytes, {slowest['surface']})"
        if slowest
        else "-"
    )
    print(
        "row of docs/fuzzing.md: "
        f"| {total['date']} | {total['commit']} | {total['engine']}, {total['jobs']} workers "
        f"| {total['runs']:,} | {total['seconds'] / 60:.0f} min | {kinds['crash']} "
        f"| {kinds['hang']} | {kinds['slow']} | {slowest_cell} |"
    )


# --- a worker -------------------------------------------------------------------------------


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")[:60]


def _pack_current(surface: str, name: str, data: bytes) -> bytes:
    return surface.encode() + b"\0" + name.encode() + b"\0" + data


def _unpack_current(data: bytes) -> tuple[str, str, bytes]:
    surface, name, content = data.split(b"\0", 2)
    return surface.decode(), name.decode(), content


class _Worker:
    """Runs inputs on surfaces, keeps every failure and the slowest input, writes its figures."""

    def __init__(self, args: argparse.Namespace) -> None:
        import fuzz_surfaces

        self.surfaces_module = fuzz_surfaces
        pattern = re.compile(args.surfaces) if args.surfaces else None
        self.surfaces = [
            name for name in fuzz_surfaces.SURFACES if not pattern or pattern.search(name)
        ]
        self.out: Path = args.out
        self.index: int = args.worker
        self.hang_seconds: float = args.hang_seconds
        self.stats: dict[str, Any] = {
            "runs": 0, "inputs": 0, "surfaces": {}, "failures": {}, "slowest": None,
        }  # fmt: skip
        self.current = self.out / "stats" / f"current-{self.index}"
        self.last_flush = 0.0
        self.directory_context = fuzz_surfaces.workdir()
        self.directory = self.directory_context.__enter__()

    def run(self, surface: str, given: Any) -> None:
        self.current.write_bytes(_pack_current(surface, given.name, given.data))
        failure, seconds = self.surfaces_module.run(
            surface, given, self.directory, hang_seconds=self.hang_seconds
        )
        stats = self.stats
        stats["runs"] += 1
        stats["surfaces"][surface] = stats["surfaces"].get(surface, 0) + 1
        size = len(given.data)
        if size < SLOW_SIZE and (not stats["slowest"] or seconds > stats["slowest"]["seconds"]):
            if stats["slowest"]:
                for leftover in (stats["slowest"]["file"], stats["slowest"]["file"] + ".txt"):
                    with contextlib.suppress(OSError):
                        (self.out / leftover).unlink()
            stats["slowest"] = {
                "seconds": round(seconds, 3), "size": size, "name": given.name,
                "surface": surface, "file": self._keep(given, "slowest", "", unique=False),
            }  # fmt: skip
        if failure is not None:
            first_line = failure.detail.strip().splitlines()[-1] if failure.detail.strip() else ""
            key = f"{failure.kind}|{surface}|{re.sub(r'[0-9]+', 'N', first_line)[:160]}"
            if key not in stats["failures"]:
                stats["failures"][key] = {
                    "kind": failure.kind, "surface": surface, "name": given.name,
                    "detail": failure.detail, "seconds": round(failure.seconds, 3),
                    "file": self._keep(given, failure.kind, surface),
                }  # fmt: skip
                self.flush(force=True)
        self.flush()

    def _keep(self, given: Any, kind: str, surface: str, unique: bool = True) -> str:
        digest = hashlib.sha1(given.data).hexdigest()[:12] if unique else f"worker-{self.index}"
        stem = "-".join(part for part in (kind, _slug(surface), digest) if part)
        target = self.out / "failures" / f"{stem}{Path(given.name).suffix}"
        target.write_bytes(given.data)
        target.with_suffix(target.suffix + ".txt").write_text(f"{surface}\n{given.name}\n")
        return str(target.relative_to(self.out))

    def flush(self, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self.last_flush > FLUSH_SECONDS:
            self.last_flush = now
            usage = resource.getrusage(resource.RUSAGE_SELF)
            self.stats["cpu_seconds"] = round(usage.ru_utime + usage.ru_stime, 1)
            path = self.out / "stats" / f"worker-{self.index}.json"
            temporary = path.with_suffix(".tmp")
            temporary.write_text(json.dumps(self.stats))
            temporary.replace(path)


def _limit_memory(megabytes: int) -> None:
    limit = megabytes * 1024 * 1024
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _fast_cli() -> None:
    """Build the command's argument parser once per worker, not once per input.

    ``estconf.cli.main`` builds its parser on every call (a few milliseconds, most of
    a small input's time in process); parsing arguments does not change the parser.
    """
    import estconf.cli

    estconf.cli._parser = functools.lru_cache(maxsize=None)(estconf.cli._parser)  # type: ignore[method-assign]


def _random_worker(args: argparse.Namespace) -> int:
    import fuzz_mutations
    import fuzz_surfaces

    _fast_cli()
    worker = _Worker(args)
    rng = random.Random(args.seed)
    seeds = fuzz_surfaces.seeds()
    pool: list[Any] = []
    deadline = time.monotonic() + args.seconds
    surfaces = worker.surfaces
    wanted = {
        surface: [seed for seed in seeds if seed.suffix in suffixes]
        for surface, suffixes in fuzz_surfaces.SEED_SUFFIXES.items()
        if surface in surfaces
    }
    while worker.stats["runs"] < args.inputs and time.monotonic() < deadline:
        first = rng.choice(surfaces)
        if wanted.get(first):  # a surface that reads one kind of input: mutate seeds of it
            base = rng.choice(wanted[first])
            others = [first]
        else:
            base = rng.choice(pool) if pool and rng.random() < 0.3 else rng.choice(seeds)
            others = [name for name in surfaces if name not in wanted] or surfaces
        given = fuzz_mutations.mutate(rng, base, rng.choice(seeds))
        worker.stats["inputs"] += 1
        if len(given.data) < 20_000 and not wanted.get(first):
            if len(pool) < 500:
                pool.append(given)
            else:
                pool[rng.randrange(len(pool))] = given
        worker.run(first, given)
        for _ in range(rng.choice((0, 1, 3))):
            worker.run(rng.choice(others), given)
    worker.flush(force=True)
    return 0


def _atheris_layout(surface_filter: str) -> tuple[list[str], list[str], list[Any]]:
    """The surfaces and file names an input's first two bytes choose from, and the seeds."""
    import fuzz_surfaces

    pattern = re.compile(surface_filter) if surface_filter else None
    surfaces = [name for name in fuzz_surfaces.SURFACES if not pattern or pattern.search(name)]
    seeds = fuzz_surfaces.seeds()
    names = sorted({seed.name for seed in seeds})
    names += ["input.json", "input.yaml", "input.toml", "nodes.jsonl", "nodes.env", "nodes.sh"]
    return surfaces, names, seeds


def _encode(surfaces: list[str], names: list[str], surface: str, given: Any) -> bytes:
    name = given.name if given.name in names else f"input{given.suffix}"
    name_index = names.index(name) if name in names else names.index("input.json")
    return bytes([surfaces.index(surface), name_index]) + given.data


def _write_seed_corpus(out: Path, surface_filter: str) -> Path:
    """Every seed on every surface: where libFuzzer starts."""
    surfaces, names, seeds = _atheris_layout(surface_filter)
    seeds_dir = out / "corpus" / "seeds"
    shutil.rmtree(seeds_dir, ignore_errors=True)
    seeds_dir.mkdir(parents=True)
    for seed in seeds:
        for surface in surfaces:
            data = _encode(surfaces, names, surface, seed)
            (seeds_dir / hashlib.sha1(data).hexdigest()).write_bytes(data)
    return seeds_dir


def _atheris_worker(args: argparse.Namespace) -> int:
    import atheris

    # estconf alone: instrumenting the YAML reader too makes every input several times slower
    with atheris.instrument_imports(include=["estconf"]):
        import importlib
        import pkgutil

        import ruamel.yaml  # noqa: F401

        import estconf

        # estconf imports its modules where they are first needed: import them all here
        for module in pkgutil.walk_packages(estconf.__path__, "estconf."):
            importlib.import_module(module.name)

    import fuzz_mutations
    import fuzz_surfaces

    _fast_cli()
    worker = _Worker(args)
    surfaces, names, seeds = _atheris_layout(args.surfaces)
    deadline = time.monotonic() + args.seconds
    by_name = {seed.name: seed for seed in seeds}

    def decode(data: bytes) -> tuple[str, Any]:
        if len(data) < 2:
            return surfaces[0], fuzz_surfaces.Input(data, "input.json")
        return surfaces[data[0] % len(surfaces)], fuzz_surfaces.Input(
            data[2:], names[data[1] % len(names)]
        )

    def encode(surface: str, given: Any) -> bytes:
        return _encode(surfaces, names, surface, given)

    def test_one_input(data: bytes) -> None:
        if time.monotonic() > deadline or worker.stats["runs"] >= args.inputs:
            worker.flush(force=True)  # the worker's own count ends the run, not libFuzzer's
            os._exit(0)
        surface, given = decode(data)
        worker.stats["inputs"] += 1
        worker.run(surface, given)

    def mutator(data: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        surface, given = decode(data)
        pick = rng.random()
        if pick < 0.1:
            surface = rng.choice(surfaces)
        elif pick < 0.3:
            given = fuzz_mutations.mutate_structure(rng, given, rng.choice(seeds))
        elif pick < 0.45:
            donor = by_name.get(given.name) or rng.choice(seeds)
            given = fuzz_mutations.mutate_bytes(rng, given, donor)
        else:
            mutated = atheris.Mutate(given.data, max(1, max_size - 2))
            given = fuzz_surfaces.Input(mutated, given.name)
        return encode(surface, given)[:max_size]

    corpus = args.out / "corpus" / f"worker-{args.worker}"
    corpus.mkdir(parents=True, exist_ok=True)
    libfuzzer = [
        # libFuzzer counts runs this worker does not (some of its seed corpus): twice as
        # many is a bound it never reaches before test_one_input has run args.inputs
        sys.argv[0], str(corpus), str(args.out / "corpus" / "seeds"), f"-runs={2 * args.inputs}",
        f"-max_total_time={int(args.seconds) + 60}", f"-timeout={int(args.hang_seconds * 15)}",
        "-rss_limit_mb=0",
        "-max_len=200000", f"-seed={args.seed + 1}", "-print_final_stats=1",
        f"-artifact_prefix={args.out / 'failures'}/libfuzzer-",
    ]  # fmt: skip
    atheris.Setup(libfuzzer, test_one_input, custom_mutator=mutator)
    atheris.Fuzz()
    return 0


def _replay(paths: list[Path]) -> int:
    import fuzz_surfaces

    failed = 0
    with fuzz_surfaces.workdir() as directory:
        for path in paths:
            given = fuzz_surfaces.Input(path.read_bytes(), path.name)
            for problem in fuzz_surfaces.problems(given, directory):
                failed += 1
                print(problem)
    print(f"replay: {len(paths)} inputs on every surface, {failed} failures")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    """Run the fuzzer (or replay inputs); 1 when an input broke a surface."""
    args = _arguments(argv)
    if args.replay:
        return _replay(args.replay)
    if args.time:
        surface, name, path = args.time
        return _time(surface, name, Path(path))
    if args.worker is None:
        return _parent(args)
    _limit_memory(args.memory_mb)
    os.environ.pop("TF_CONFIG", None)
    (args.out / "stats").mkdir(parents=True, exist_ok=True)
    if args.engine == "atheris":
        return _atheris_worker(args)
    return _random_worker(args)


if __name__ == "__main__":
    sys.exit(main())
