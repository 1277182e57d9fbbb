"""Hostile and malformed input on every surface: no crash, no hang, no slow input.

Real files of tests/data and examples, mutated by structure (values, keys,
types, nesting, written back as JSON, YAML or TOML) and by bytes (flips,
inserts of tokens YAML and JSON give meaning to, deletes, splices,
truncation), go through every command in process and through the Python API
(``tests/fuzz_surfaces.py`` lists them).  Whatever the input, a command exits
0, 1 or 2 with no traceback, the API raises only ``ValueError``, and neither
takes long.  The examples are derandomized and few, so that the suite stays
fast and a failure is the same on every run; ``make fuzz`` runs the long
search (docs/fuzzing.md).

The inputs found to break a surface are kept under tests/data/hostile/, and
every one of them goes through every surface.
"""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_mutations import OPTIONS, mutate_arguments, mutate_bytes, mutate_structure
from fuzz_surfaces import (
    API_SURFACES,
    CLI_SURFACES,
    RETRY_DEPTHS,
    ROOT,
    SEED_SUFFIXES,
    SURFACES,
    Input,
    arguments,
    describe,
    problems,
    run,
    seeds,
    workdir,
)

SEEDS = seeds()
HOSTILE = sorted(path for path in (ROOT / "tests/data/hostile").iterdir() if path.is_file())

fuzz_settings = settings(
    max_examples=30,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(scope="module")
def directory() -> Iterator[Path]:
    with workdir() as path:
        yield path


def check(surface: str, given: Input, directory: Path) -> None:
    failure, _ = run(surface, given, directory)
    assert failure is None, f"{failure}\ninput {given.name}: {describe(given.data)}"


@pytest.mark.parametrize(
    ("mutate", "surfaces"),
    [
        (mutate_structure, CLI_SURFACES),
        (mutate_bytes, CLI_SURFACES),
        (mutate_structure, API_SURFACES),
        (mutate_bytes, API_SURFACES),
    ],
    ids=["structure-cli", "bytes-cli", "structure-api", "bytes-api"],
)
@fuzz_settings
@given(data=st.data())
def test_a_changed_file_breaks_no_command_and_the_api_raises_only_value_errors(
    directory: Path,
    mutate: Callable[[random.Random, Input, Input], Input],
    surfaces: Sequence[str],
    data: st.DataObject,
) -> None:
    """Every command exits 0, 1 or 2 without a traceback; the API raises only ``ValueError``."""
    seed = data.draw(st.sampled_from(SEEDS), label="seed")
    donor = data.draw(st.sampled_from(SEEDS), label="donor")
    rng = data.draw(st.randoms(use_true_random=False), label="rng")
    surface = data.draw(st.sampled_from(surfaces), label="surface")
    check(surface, mutate(rng, seed, donor), directory)


def test_a_document_whose_keys_json_cannot_write_is_still_mutated() -> None:
    """YAML's complex keys become tuples, which JSON cannot write: the mutator drops them."""
    given = Input(b'? [a, b]\n: 1\ncluster: {worker: ["h:1"]}\n', "complex_key.yaml")
    mutated = {mutate_structure(random.Random(seed), given, given).data for seed in range(200)}
    assert len(mutated) > 100


@pytest.mark.parametrize("path", HOSTILE, ids=lambda path: path.name)
def test_a_hostile_input_breaks_no_surface(directory: Path, path: Path) -> None:
    given = Input(path.read_bytes(), path.name)
    assert problems(given, directory) == []


def test_an_arguments_input_is_read_as_the_system_hands_arguments_over() -> None:
    given = Input(b"--slurm\n--nodelist\n\xff[\x00\n--out-dir\nx\n--out=y\n{ROOT}/a\n", "a.args")
    assert arguments(given) == ["--slurm", "--nodelist", "\udcff[", f"{ROOT}/a"]


def test_the_launchers_options_are_mutated_as_arguments() -> None:
    given = Input(b"--slurm\n--nodelist\nn1\n--tasks-per-node\n1\n", "slurm.args")
    mutated = [mutate_structure(random.Random(seed), given, given) for seed in range(200)]
    assert {changed.name for changed in mutated} == {"slurm.args"}
    assert len({changed.data for changed in mutated}) > 100
    added = {
        option
        for changed in mutated
        for option in OPTIONS
        if option.encode() in changed.data.split(b"\n") and option.encode() not in given.data
    }
    assert len(added) > 10  # options of every launcher are added
    assert mutate_arguments(random.Random(0), Input(b"", "a.args"), given).data != b""


def test_the_launchers_options_have_seeds() -> None:
    for surface, suffixes in SEED_SUFFIXES.items():
        assert surface in SURFACES
        assert sum(seed.suffix in suffixes for seed in SEEDS) >= 10


def test_every_surface_is_run() -> None:
    assert set(SURFACES) == set(CLI_SURFACES) | set(API_SURFACES)
    assert {name.split()[1] for name in CLI_SURFACES} == {
        "validate",
        "explain",
        "tf-config",
        "check-cluster",
        "convert",
    }


def test_make_fuzz_reports_the_inputs_run_the_failures_and_the_slowest(tmp_path: Path) -> None:
    out = tmp_path / "fuzz"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "fuzz.py"),
            "--engine",
            "random",
            "--inputs",
            "30",
            "--seconds",
            "120",
            "--jobs",
            "1",
            "--seed",
            "1",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["runs"] >= 30
    assert summary["failures"] == {}
    assert summary["slowest"]["size"] < 150 * 1024
    assert "crashes: 0, hangs: 0, slow (> 2 s under 150 KB): 0" in done.stdout
    assert "slowest input under 150 KB" in done.stdout


def test_a_saved_input_is_replayed_on_every_surface(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "fuzz.py"), "--replay", str(HOSTILE[0])],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "replay: 1 inputs on every surface, 0 failures"


def test_a_worker_started_again_adds_to_the_inputs_its_predecessor_ran(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("fuzz_tool", ROOT / "tools" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    (tmp_path / "stats").mkdir()
    (tmp_path / "failures").mkdir()
    (tmp_path / "failures" / "slowest-worker-0.json").write_text("{}")
    (tmp_path / "failures" / "slowest-worker-0.json.txt").write_text("validate\n")
    slowest = {"seconds": 0.5, "size": 2, "name": "a.json", "surface": "validate"}
    stats = {"runs": 400, "inputs": 400, "surfaces": {"validate": 400}, "failures": {}}
    first = {**stats, "slowest": {**slowest, "file": "failures/slowest-worker-0.json"}}
    (tmp_path / "stats" / "worker-0.json").write_text(json.dumps(first))
    tool.set_aside(tmp_path, 0, 1)
    (tmp_path / "stats" / "worker-0.json").write_text(json.dumps({**stats, "slowest": None}))
    total = tool._total(tmp_path)
    assert (total["runs"], total["surfaces"]) == (800, {"validate": 800})
    assert total["slowest"]["file"] == "failures/slowest-worker-0-run1.json"
    assert (tmp_path / "failures" / "slowest-worker-0-run1.json.txt").exists()


def test_the_slowest_input_is_the_slowest_timed_again_without_instrumentation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An input slow only under instrumentation is no failure, yet may be the slowest."""
    spec = importlib.util.spec_from_file_location("fuzz_tool", ROOT / "tools" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    (tmp_path / "failures").mkdir()
    (tmp_path / "failures" / "slow-a.yaml").write_text("a: 1\n")
    (tmp_path / "failures" / "slowest-worker-0.json").write_text("{}")
    alone = {"slow-a.yaml": 0.9, "slowest-worker-0.json": 0.03}
    monkeypatch.setattr(tool, "_time_alone", lambda path, name, surface: alone[path.name])
    slow: dict[str, Any] = {"kind": "slow", "surface": "validate", "name": "a.yaml", "seconds": 3.5}
    total: dict[str, Any] = {
        "failures": {"slow|validate|": {**slow, "file": "failures/slow-a.yaml"}},
        "slowest": {"seconds": 28.0, "size": 2, "name": "b.json", "surface": "check_cluster",
                    "file": "failures/slowest-worker-0.json"},
    }  # fmt: skip
    tool._retime(total, tmp_path)
    assert total["failures"] == {}
    assert {key: total["slowest"][key] for key in ("seconds", "size", "name")} == {
        "seconds": 0.9,
        "size": 5,
        "name": "a.yaml",
    }
    assert total["slowest"]["seconds_instrumented"] == 3.5


def _stack_depth() -> int:
    depth, frame = 0, sys._getframe()
    while frame.f_back is not None:
        depth, frame = depth + 1, frame.f_back
    return depth


def _busy(seconds: float) -> None:
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass


def test_an_input_slow_from_one_stack_depth_only_is_not_slow(
    directory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interpreter, not the input, made the first run slow: another depth is fast."""
    depths: list[int] = []

    def slow_at_the_first_depth(given: Input, path: Path) -> None:
        depths.append(_stack_depth())
        if depths[-1] == depths[0]:
            _busy(0.2)

    monkeypatch.setitem(SURFACES, "slow at one depth", slow_at_the_first_depth)
    failure, seconds = run("slow at one depth", Input(b"{}", "a.json"), directory, slow_seconds=0.1)
    assert failure is None
    assert seconds < 0.1
    deeper = [depth - depths[0] for depth in depths[1:]]
    assert len(deeper) == len(RETRY_DEPTHS)
    assert all(more >= frames for more, frames in zip(deeper, RETRY_DEPTHS, strict=True))


def test_an_input_slow_from_every_stack_depth_is_slow(
    directory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(SURFACES, "slow", lambda given, path: _busy(0.15))
    failure, seconds = run("slow", Input(b"{}", "a.json"), directory, slow_seconds=0.1)
    assert failure is not None and failure.kind == "slow"
    assert 0.15 <= seconds == failure.seconds < 0.5


def test_a_slow_input_that_fails_when_timed_again_is_slow_by_its_first_time(
    directory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[int] = []

    def slow_then_failing(given: Input, path: Path) -> None:
        runs.append(1)
        if len(runs) > 1:
            raise RuntimeError("not this time")
        _busy(0.15)

    monkeypatch.setitem(SURFACES, "slow then failing", slow_then_failing)
    failure, _ = run("slow then failing", Input(b"{}", "a.json"), directory, slow_seconds=0.1)
    assert failure is not None and failure.kind == "slow"
    assert len(runs) == 1 + len(RETRY_DEPTHS)
