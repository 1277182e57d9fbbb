"""Benchmark: every figure of docs/performance.md, measured side by side in one run.

Run with ``make bench``, which writes ``docs/performance.md`` and its chart
``docs/performance.svg``; ``python benchmarks/performance.py --print`` only
prints.  TensorFlow is measured when it can be imported by the Python that
runs this script (``make bench`` picks the TensorFlow venv when there is one);
``check-jsonschema`` when ``$CHECK_JSONSCHEMA`` or ``PATH`` names it.

The import and the command-line figures run in the venv of the ``estconf``
command next to ``check-jsonschema`` (``$ESTCONF_PYTHON``; ``make bench``
gives the project's own venv), as a user runs them, not in TensorFlow's.

Times are medians over rounds that run each reader in turn, so that a busy
machine slows all of them alike; each reader is warmed up first.  Peak
memory is the growth of the resident set of a fresh process during one call
(the peak is reset just before it), the result kept, as the caller keeps it.
"""

from __future__ import annotations

import argparse
import compileall
import datetime
import gc
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Collection
from itertools import chain
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from _chart import Series, write_chart
from _inputs import ONE_MODEL, tf_config_text, user_project

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "performance.md"
YAML_SECTION = "## YAML against JSON"
"""The heading of the section benchmarks/bench_yaml.py writes."""
CHART = ROOT / "docs" / "performance.svg"
PROPERTIES = (
    "cluster_spec",
    "task_type",
    "task_id",
    "master",
    "evaluation_master",
    "is_chief",
    "num_ps_replicas",
    "num_worker_replicas",
    "global_id_in_cluster",
    "service",
    "model_dir",
    "session_config",
)
SIZES = (10, 100, 1_000, 10_000, 100_000, 1_000_000)
READERS = ("estconf", "tensorflow", "json.loads")


def reader(name: str, text: str) -> Callable[[], object]:
    """The call measured for ``name``; estconf and TensorFlow read ``os.environ``."""
    if name == "json.loads":
        return lambda: json.loads(text)
    if name == FLOOR:
        return lambda: parsed_with_distinct_addresses(text)
    if name == RULES_FLOOR:
        return lambda: parsed_with_checked_addresses(text)
    os.environ["TF_CONFIG"] = text
    if name == "estconf":
        from estconf import RunConfig

        return lambda: properties(RunConfig.from_env())
    import tensorflow as tf

    return lambda: properties(tf.estimator.RunConfig())


FLOOR = "json.loads + set"
"""The least a reader that refuses two tasks with one address does: parse, then a set."""


def parsed_with_distinct_addresses(text: str) -> object:
    """Parse ``text`` and say whether its cluster's addresses are distinct."""
    return _distinct(json.loads(text)["cluster"].values())


def _distinct(jobs: Collection[list[str]]) -> bool:
    return len(set(chain.from_iterable(jobs))) == sum(map(len, jobs))


RULES_FLOOR = "json.loads + set + address check"
"""The floor with estconf's address rule: parse, the set, and one Rust pass over the addresses."""


FLOORS = (FLOOR, RULES_FLOOR)
FLOOR_SIZES = (1_000, 100_000)


def parsed_with_checked_addresses(text: str) -> object:
    """Parse ``text``; say whether its addresses are distinct and all pass the Rust check."""
    from estconf._types import all_plain_addresses_valid

    jobs = list(json.loads(text)["cluster"].values())
    return _distinct(jobs) and all_plain_addresses_valid(jobs)


def properties(config: Any) -> list[Any]:
    return [getattr(config, name) for name in PROPERTIES]


def has_tensorflow() -> bool:
    try:
        import tensorflow  # noqa: F401
    except ImportError:
        return False
    return True


def rounds_for(workers: int) -> int:
    return {10: 301, 100: 201, 1_000: 101, 10_000: 21, 100_000: 7}.get(workers, 1)


def median_times(readers: list[str], workers: int) -> dict[str, float]:
    """Median seconds per call of each reader, run in turn in each round."""
    text = tf_config_text(workers)
    calls = {name: reader(name, text) for name in readers}
    for call in calls.values():
        call()  # warm up (and the check that it works)
    times: dict[str, list[float]] = {name: [] for name in readers}
    for round_ in range(rounds_for(workers)):
        shift = round_ % len(readers)
        for name in readers[shift:] + readers[:shift]:
            if workers >= 10_000:
                gc.collect()
            start = time.perf_counter()
            calls[name]()
            times[name].append(time.perf_counter() - start)
    os.environ.pop("TF_CONFIG", None)
    return {name: statistics.median(values) for name, values in times.items()}


def _status(field: str) -> int:
    """A ``/proc/self/status`` memory figure, in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise KeyError(field)


def peak_growth(name: str, workers: int) -> int:
    """In this process: how far one call raises the resident set above where it was."""
    reader(name, tf_config_text(10))()  # import and build what the reader needs
    call = reader(name, tf_config_text(workers))
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")  # reset the peak (VmHWM) to the current size
    before = _status("VmRSS")
    result = call()
    peak = _status("VmHWM")
    del result
    return peak - before


def cli_python() -> str:
    """The Python of an ordinary install: the project's venv, not TensorFlow's."""
    return os.environ.get("ESTCONF_PYTHON") or sys.executable


def in_fresh_process(*arguments: str, python: str | None = None) -> str:
    environ = {key: value for key, value in os.environ.items() if key != "TF_CONFIG"}
    environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    done = subprocess.run(
        [python or sys.executable, __file__, *arguments],
        check=True,
        capture_output=True,
        text=True,
        env=environ,
    )
    return done.stdout.strip().splitlines()[-1]


IMPORTS = {
    "estconf": "import estconf; estconf.RunConfig",
    "pydantic": "from pydantic import BaseModel",
    # The least any pydantic model costs: one class with one field, never built.
    "one model": (
        "from pydantic import BaseModel, ConfigDict\n"
        "class Model(BaseModel):\n"
        "    size: int = 0\n"
        "    model_config = ConfigDict(defer_build=True)"
    ),
    # The least any model of a TF_CONFIG cluster costs: one RootModel, never built.
    "one RootModel": (
        "from pydantic import ConfigDict, RootModel\n"
        "class Cluster(RootModel[dict[str, list[str]]]):\n"
        "    model_config = ConfigDict(defer_build=True)"
    ),
}


def import_seconds(statement: str) -> float:
    start = time.perf_counter()
    exec(statement, {})  # a module's namespace: a class body there sees the names imported
    return time.perf_counter() - start


def import_ratio(runs: int = 15) -> tuple[float, float, float, float]:
    """Median import time of ``estconf.RunConfig``, of pydantic, of one model and one RootModel.

    Each is measured in a fresh process.
    """
    times: dict[str, list[float]] = {name: [] for name in IMPORTS}
    for _ in range(runs):
        for name in IMPORTS:
            times[name].append(float(in_fresh_process("--import", name, python=cli_python())))
    estconf, pydantic, model, root_model = (statistics.median(times[name]) for name in IMPORTS)
    return estconf, pydantic, model, root_model


def check_jsonschema() -> str | None:
    return os.environ.get("CHECK_JSONSCHEMA") or shutil.which("check-jsonschema")


def wall_medians(
    commands: dict[str, list[str]], runs: int = 21, cwd: Path | None = None
) -> dict[str, float]:
    """Median wall time of each command run in ``cwd``, in turn, each run a fresh process."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for command in commands.values():
        subprocess.run(command, check=True, capture_output=True, cwd=cwd)  # warm the caches
    for _ in range(runs):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, cwd=cwd)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def validate_ratio() -> tuple[float, float, float] | None:
    """Wall times of ``estconf validate small.json``, check-jsonschema on the same file, and
    :data:`ONE_MODEL`, in a project of a user's (:func:`user_project`)."""
    checker = check_jsonschema()
    if checker is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        small = user_project(Path(tmp))
        schema = str(ROOT / "schemas" / "run_config.schema.json")
        walls = wall_medians(
            {
                "estconf": [str(Path(cli_python()).with_name("estconf")), "validate", str(small)],
                "check-jsonschema": [checker, "--schemafile", schema, str(small)],
                "one model": [cli_python(), "-c", ONE_MODEL],
            },
            cwd=small.parent,
        )
    return walls["estconf"], walls["check-jsonschema"], walls["one model"]


def check_cluster_figures(nodes: int = 1000) -> tuple[float, float, int, int]:
    """check-cluster of ``nodes`` nodes: (its time, json.loads', its peak, the parsed size)."""
    import bench_deployment as deployment

    data = deployment.job_lines(nodes)
    deployment.check(deployment.job_lines(10))
    times: dict[str, list[float]] = {"check": [], "loads": []}
    for _ in range(3):
        for name, function in (("check", deployment.check), ("loads", deployment.parse_all)):
            gc.collect()
            start = time.perf_counter()
            function(data)
            times[name].append(time.perf_counter() - start)
    peak = int(in_fresh_process("--check-cluster-memory", "check", str(nodes)))
    parsed = int(in_fresh_process("--check-cluster-memory", "parse", str(nodes)))
    return statistics.median(times["check"]), statistics.median(times["loads"]), peak, parsed


def check_cluster_peak(what: str, nodes: int) -> int:
    """In this process: the resident growth of checking (or of parsing and keeping) the lines."""
    import bench_deployment as deployment

    data = deployment.job_lines(nodes)
    deployment.check(deployment.job_lines(10))
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")
    before = _status("VmRSS")
    kept = deployment.parse_all(data) if what == "parse" else deployment.check(data)
    grown = (_status("VmRSS") if what == "parse" else _status("VmHWM")) - before
    del kept
    return grown


# -- the report ------------------------------------------------------------------------


def ratio(value: float, other: float | None) -> str:
    return "n/a" if other is None or not other else f"{value / other:.2f}x"


def speed(estconf: float, tensorflow: float | None) -> str:
    """``3.1x faster`` / ``0.8x the speed`` of TensorFlow, from two times."""
    if tensorflow is None:
        return "n/a (TensorFlow not installed)"
    factor = tensorflow / estconf
    shown = f"{factor:.1f}x" if factor >= 2 else f"{factor:.2f}x"
    return f"{shown} faster" if factor >= 1 else f"{shown} the speed"


def megabytes(size: float | None) -> str:
    return "n/a" if size is None else f"{size / 1e6:.1f} MB"


def verdict(met: bool | None) -> str:
    return "n/a" if met is None else ("met" if met else "**missed**")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--print", action="store_true", help="print only; write no docs")
    parser.add_argument("--max-workers", type=int, default=SIZES[-1])
    parser.add_argument("--memory", nargs=2, metavar=("READER", "WORKERS"))
    parser.add_argument("--import", dest="import_", metavar="WHAT")
    parser.add_argument("--check-cluster-memory", nargs=2, metavar=("WHAT", "NODES"))
    options = parser.parse_args()
    if options.memory:
        print(peak_growth(options.memory[0], int(options.memory[1])))
        return
    if options.import_:
        print(import_seconds(IMPORTS[options.import_]))
        return
    if options.check_cluster_memory:
        what, nodes = options.check_cluster_memory
        print(check_cluster_peak(what, int(nodes)))
        return
    compile_sources()
    report(options.print, options.max_workers)


def compile_sources() -> None:
    """Write the bytecode of ``src/``, as installing a wheel does.

    pydantic, TensorFlow and check-jsonschema are measured from their installed,
    compiled files; an editable checkout has none until a process writes them
    (and none at all under ``PYTHONDONTWRITEBYTECODE``), which would time
    estconf's compiler instead of its import.
    """
    compileall.compile_dir(ROOT / "src", quiet=1)


def report(print_only: bool, max_workers: int) -> None:
    readers = [name for name in READERS if name != "tensorflow" or has_tensorflow()]
    sizes = [size for size in SIZES if size <= max_workers]
    times: dict[int, dict[str, float]] = {}
    memory: dict[int, dict[str, int]] = {}
    for workers in sizes:
        # The floors are timed in the same rounds as the readers they are compared with.
        floor_readers = list(FLOORS) if workers in FLOOR_SIZES else []
        times[workers] = median_times(readers + floor_readers, workers)
        memory[workers] = {
            name: int(in_fresh_process("--memory", name, str(workers))) for name in readers
        }
        row = "  ".join(
            f"{name} {times[workers][name] * 1e3:9.3f} ms {memory[workers][name] / 1e6:7.1f} MB"
            for name in readers
        )
        print(f"{workers:>9} workers: {row}", flush=True)
    floors = {workers: times[workers] for workers in FLOOR_SIZES if workers in times}
    for workers, floor in floors.items():
        print(
            f"floors, {workers:,} workers:",
            ", ".join(f"{name} {floor[name] * 1e3:.3f} ms" for name in FLOORS),
        )
    imports = import_ratio()
    print(
        f"import: estconf.RunConfig {imports[0] * 1e3:.0f} ms, pydantic {imports[1] * 1e3:.0f} ms,"
        f" one model {imports[2] * 1e3:.0f} ms, one RootModel {imports[3] * 1e3:.0f} ms"
    )
    validate = validate_ratio()
    if validate:
        print(
            f"validate small.json: {validate[0] * 1e3:.0f} ms, check-jsonschema "
            f"{validate[1] * 1e3:.0f} ms, one pydantic model {validate[2] * 1e3:.0f} ms"
        )
    cluster = check_cluster_figures()
    print(
        f"check-cluster 1000 nodes: {cluster[0] * 1e3:.0f} ms, json.loads {cluster[1] * 1e3:.0f}"
        f" ms; peak {cluster[2] / 1e6:.1f} MB, parsed {cluster[3] / 1e6:.1f} MB"
    )
    rows = table(times, memory, imports, validate, cluster)
    print()
    print("\n".join(rows))
    if print_only:
        return
    write_chart(CHART, chart_series(times, memory, readers))
    # the YAML section is bench_yaml.py's, which `make bench` runs next: kept as it is
    old = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    kept = old[old.find(YAML_SECTION) :] if YAML_SECTION in old else ""
    DOC.write_text(
        document(rows, times, memory, readers, floors) + ("\n" + kept if kept else ""),
        encoding="utf-8",
    )
    print(f"\nwrote {DOC.relative_to(ROOT)} and {CHART.relative_to(ROOT)}")


def table(
    times: dict[int, dict[str, float]],
    memory: dict[int, dict[str, int]],
    imports: tuple[float, float, float, float],
    validate: tuple[float, float, float] | None,
    cluster: tuple[float, float, int, int],
) -> list[str]:
    rows = ["| what | measured | target | |", "|---|---|---|---|"]
    targets = {10: (1.0, None), 1_000: (10.0, None), 100_000: (10.0, 2.5)}
    for workers, (faster, floor) in targets.items():
        if workers not in times:
            continue
        ours, tf, loads = (times[workers].get(name) for name in READERS)
        assert ours is not None and loads is not None
        measured = f"{ours * 1e3:.3f} ms: {speed(ours, tf)} than TensorFlow"
        if tf is not None and tf < ours:
            measured = f"{ours * 1e3:.3f} ms: {speed(ours, tf)} of TensorFlow"
        measured += f", {ratio(ours, loads)} `json.loads`"
        target = (
            "faster than TensorFlow" if faster == 1 else f"{faster:.0f}x faster than TensorFlow"
        )
        met = None if tf is None else tf / ours >= faster if faster > 1 else tf > ours
        if floor is not None:
            target += f", at most {floor}x `json.loads`"
            met = (met is not False) and ours / loads <= floor
        rows.append(
            f"| `RunConfig.from_env` + all properties, {workers:,} workers | {measured} "
            f"| {target} | {verdict(met)} |"
        )
    if 100_000 in memory:
        ours, tf, loads = (memory[100_000].get(name) for name in READERS)
        assert ours is not None and loads is not None
        met = ours <= 3 * loads and (tf is None or ours <= tf)
        rows.append(
            f"| peak memory of that call, 100,000 workers | {megabytes(ours)}: "
            f"{ratio(ours, tf)} TensorFlow ({megabytes(tf)}), {ratio(ours, loads)} "
            f"`json.loads` ({megabytes(loads)}) | at most TensorFlow's and at most 3x "
            f"`json.loads`' | {verdict(met)} |"
        )
    imported, pydantic, model, root_model = imports
    rows.append(
        f"| `import estconf; estconf.RunConfig` | {imported * 1e3:.0f} ms: "
        f"{ratio(imported, pydantic)} `from pydantic import BaseModel` "
        f"({pydantic * 1e3:.0f} ms); one model class with one field alone: "
        f"{ratio(model, pydantic)}; one `RootModel` class alone: "
        f"{ratio(root_model, pydantic)} | at most 1.3x "
        f"| {verdict(imported <= 1.3 * pydantic)} |"
    )
    if validate is not None:
        ours_wall, theirs, one_model = validate
        rows.append(
            f"| `estconf validate small.json` (wall) | {ours_wall * 1e3:.0f} ms: "
            f"{ratio(ours_wall, theirs)} `check-jsonschema` ({theirs * 1e3:.0f} ms) "
            f"| at most 0.5x | {verdict(ours_wall <= 0.5 * theirs)} |"
        )
        rows.append(
            f"| `estconf validate small.json` against the least pydantic program (wall) "
            f"| {ratio(ours_wall, one_model)} its {one_model * 1e3:.0f} ms "
            f"| at most 1.15x | {verdict(ours_wall <= 1.15 * one_model)} |"
        )
    check, loads_time, peak, parsed = cluster
    rows.append(
        f"| `check-cluster`, 1,000 nodes of a 1,000-task cluster | {check * 1e3:.0f} ms: "
        f"{ratio(check, loads_time)} `json.loads`; peak {megabytes(peak)}: "
        f"{ratio(peak, parsed)} the parsed input ({megabytes(parsed)}) "
        f"| at most 5x `json.loads`, peak at most 3x the parsed input "
        f"| {verdict(check <= 5 * loads_time and peak <= 3 * parsed)} |"
    )
    return rows


def chart_series(
    times: dict[int, dict[str, float]], memory: dict[int, dict[str, int]], readers: list[str]
) -> list[Series]:
    sizes = sorted(times)
    return [
        Series(
            name,
            [(size, times[size][name] * 1e3) for size in sizes],
            [(size, max(memory[size][name], 1) / 1e6) for size in sizes],
        )
        for name in readers
    ]


def floor_lines(
    times: dict[int, dict[str, float]], floors: dict[int, dict[str, float]]
) -> list[str]:
    """How close to TensorFlow the least work of such a reader gets, at each measured size.

    The floors are timed in the same rounds as the readers of the table.
    """
    lines = []
    for workers, floor in floors.items():
        tf = times[workers].get("tensorflow")
        distinct, checked = (_versus(floor[name], floor["json.loads"], tf) for name in FLOORS)
        lines += [
            f"- {workers:,} workers, the least work of a reader:",
            "  - that refuses two tasks with one address (`json.loads` and a set of the",
            f"    addresses): {distinct};",
            "  - with estconf's address rule as well (the Rust check of every address):",
            f"    {checked}.",
        ]
    return lines


def _versus(seconds: float, loads: float, tf: float | None) -> str:
    faster = "" if tf is None else f", {tf / seconds:.1f}x faster than TensorFlow"
    return f"{seconds * 1e3:.3f} ms ({seconds / loads:.2f}x `json.loads`{faster})"


def document(
    rows: list[str],
    times: dict[int, dict[str, float]],
    memory: dict[int, dict[str, int]],
    readers: list[str],
    floors: dict[int, dict[str, float]],
) -> str:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    versions = [f"Python {platform.python_version()}"]
    if "tensorflow" in readers:
        import tensorflow as tf

        versions.append(f"TensorFlow {tf.__version__}")
    import pydantic

    versions.append(f"pydantic {pydantic.VERSION}")
    detail = ["| workers | " + " | ".join(f"{name} time | {name} peak" for name in readers) + " |"]
    detail.append("|---:|" + "---:|---:|" * len(readers))
    for size in sorted(times):
        cells = " | ".join(
            f"{times[size][name] * 1e3:.3f} ms | {megabytes(memory[size][name])}"
            for name in readers
        )
        detail.append(f"| {size:,} | {cells} |")
    machine = f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()}"
    today = datetime.date.today().isoformat()
    return "\n".join(
        [
            "# Performance",
            "",
            "What reading a TF_CONFIG costs, against TensorFlow's own reader and against",
            "`json.loads` of the same text (the floor: no validating reader can beat it).",
            "`make bench` measures every figure below in one run and rewrites this page.",
            "",
            f"Measured on {today}, commit `{commit}`, {machine}; {', '.join(versions)}.",
            "Times are medians of calls made in turn (so a busy machine slows every reader",
            "alike); peak memory is how far one call raises the resident memory of a fresh",
            "process, its result kept.",
            "",
            "## Targets",
            "",
            *rows,
            "",
            "## Time and peak memory against the size of the cluster",
            "",
            "A chief, two parameter servers and N workers; `RunConfig.from_env` and every",
            "property, as `tf.estimator.RunConfig()` and its properties.  The largest size",
            "is measured once.",
            "",
            "![Time and peak memory against the number of workers, log-log](performance.svg)",
            "",
            *detail,
            "",
            "## Where the time goes",
            "",
            "- The JSON text is parsed by `json.loads` with a hook on each object that refuses",
            "  duplicate keys; a TF_CONFIG has a handful of objects, so the hook costs nothing",
            "  and no second pass over the text is needed.  (pydantic's own JSON parser was",
            "  measured as well: it made Python strings of the addresses no faster, and it",
            "  cannot see duplicate keys.)",
            "- Every address of the cluster is checked in one pass of a Rust regular",
            "  expression (pydantic-core) over all the addresses joined by newlines.  It",
            "  accepts the usual ones (lower-case host names, IPv4); anything else is checked",
            "  again, address by address, by the full rule that words the error.",
            "- Two tasks with one address: a set of the addresses as they are, since the",
            "  addresses that passed the Rust check name one host only if their text is equal.",
            "- The properties read this task's job and the sizes of the jobs; no copy of the",
            "  cluster is made.",
            "- Nothing is built at import: `RunConfig`, `TFConfig`, `ClusterSpec` and the",
            "  `session_config` messages are built on first use, and `session_config` is",
            "  imported only when a config sets one or a task of a cluster gets the",
            "  estimator's default.",
            "- The `estconf` command starts as a short-lived process: the garbage collector",
            "  waits for 100,000 new objects, and the process ends once its output is",
            "  written, without freeing its objects one by one. Its start-up is timed in a",
            "  project of a user's, whose `pyproject.toml` names estconf only as a",
            "  dependency and so is not parsed.",
            "",
            "## What is left",
            "",
            *floor_lines(times, floors),
            "- Small clusters: the time is the fixed cost of validating a `RunConfig` (its",
            "  validators, the `TFConfig` and `ClusterSpec` models, the default",
            "  `session_config`), about what TensorFlow's constructor costs.  At 1,000",
            "  workers it comes on top of the floor above.",
            "- Large clusters: three passes over the addresses, each costing about as much as",
            "  `json.loads`: parsing, the set that finds two tasks with one address (hashing",
            "  every address), and the Rust check.  The Rust regular expression engine scans",
            "  at one speed whatever the pattern (one that matches any text takes as long),",
            "  and a Rust check of each address on its own was slower than one pass over",
            "  them all; the rest is joining the addresses and copying the job lists.  The",
            "  three passes alone are the floor with the address rule above: near or over",
            "  the target of 2.5 times `json.loads` before any model work.",
            "- Import: the table shows, beside estconf, two classes that build nothing.",
            "  One model class with one field is already about at the target: the first",
            "  class with a field imports `pydantic.fields`, which imports",
            "  `pydantic.types` and `annotated_types`.  One `RootModel` subclass costs",
            "  more: `pydantic.root_model` builds pydantic's own `RootModel`, whose build",
            "  imports `importlib.metadata` to look for plugins.  `ClusterSpec` is a",
            "  `RootModel` (as `tf.train.ClusterSpec` is one value, its jobs), so that is",
            "  estconf's floor; what estconf adds above it is the class bodies of its",
            "  models and their validators, none of them built.",
            "",
        ]
    )


if __name__ == "__main__":
    main()
