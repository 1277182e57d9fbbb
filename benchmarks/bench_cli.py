"""Benchmark: ``estconf validate`` start-up, and file validation throughput.

Run with ``make bench`` (or ``python benchmarks/bench_cli.py``).

1. The wall time of ``estconf validate small.json`` (and of ``estconf --help``),
   each a fresh process as in a pre-commit hook or a CI step; the target is
   well under 0.25 s.  Beside it, the ratio of ``estconf validate``'s median
   to that of the least pydantic program (import pydantic, define a model of
   one field, build it), timed in turns: the target is at most 1.15.
2. How fast :func:`estconf.files.loads` validates JSON config files of growing
   size, against ``json.loads`` of the same text: the floor no validating
   reader can beat.
"""

from __future__ import annotations

import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path

from _inputs import ONE_MODEL, run_config_text, user_project

from estconf.files import loads

ESTCONF = Path(sys.executable).with_name("estconf")
TARGET_SECONDS = 0.25


def wall_times(command: list[str], runs: int = 15, cwd: Path | None = None) -> list[float]:
    """Run ``command`` in ``cwd`` ``runs`` times (after one warm-up run); return each wall time."""
    subprocess.run(command, check=False, capture_output=True, cwd=cwd)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=False, capture_output=True, cwd=cwd)
        times.append(time.perf_counter() - start)
    return times


def best_seconds(function: Callable[[], object]) -> float:
    """The best time of one call, over a few timed batches."""
    timer = timeit.Timer(function)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=5, number=number)) / number


RATIO_TARGET = 1.15
"""``estconf validate`` of a small file takes at most this times :data:`ONE_MODEL`'s wall time."""


def print_against_one_model(small: Path, rounds: int = 15) -> float:
    """Time ``estconf validate small.json`` and :data:`ONE_MODEL`, interleaved; print the ratio.

    Run in turns, so that whatever else the machine does weighs on both alike.
    """
    validate = [str(ESTCONF), "validate", str(small)]
    one_model = [sys.executable, "-c", ONE_MODEL]
    ours: list[float] = []
    floor: list[float] = []
    for _ in range(rounds):
        ours.extend(wall_times(validate, runs=1, cwd=small.parent))
        floor.extend(wall_times(one_model, runs=1, cwd=small.parent))
    ratio = statistics.median(ours) / statistics.median(floor)
    verdict = "ok" if ratio <= RATIO_TARGET else f"over {RATIO_TARGET}x"
    print(
        f"  {'validate / one pydantic model':<30} {ratio:6.2f}x  "
        f"({statistics.median(ours) * 1000:.0f} ms / {statistics.median(floor) * 1000:.0f} ms, "
        f"medians of {rounds})  {verdict}"
    )
    return ratio


def main() -> None:
    """Print the start-up times, then a throughput table."""
    with tempfile.TemporaryDirectory() as tmp:
        small = user_project(Path(tmp))
        print("start-up (median / best of 15 runs, wall time)")
        for label, command in [
            ("estconf --help", [str(ESTCONF), "--help"]),
            ("estconf validate small.json", [str(ESTCONF), "validate", str(small)]),
        ]:
            times = wall_times(command, cwd=small.parent)
            median, best = statistics.median(times), min(times)
            verdict = "ok" if median < TARGET_SECONDS else f"over {TARGET_SECONDS} s"
            print(f"  {label:<30} {median * 1000:6.0f} ms / {best * 1000:4.0f} ms  {verdict}")
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            print("  (PYTHONDONTWRITEBYTECODE is set: modules without a .pyc compile on each run)")
        alone = wall_times([sys.executable, "-c", "import pydantic.main, pydantic.fields"])
        print(f"  {'(importing pydantic alone)':<30} {statistics.median(alone) * 1000:6.0f} ms")
        print_against_one_model(small)

    print()
    print(f"{'workers':>8} {'size':>9} {'reader':<22} {'MB/s':>8} {'x json.loads':>13}")
    for workers in (3, 100, 1000, 10_000):
        text = run_config_text(workers)
        megabytes = len(text.encode()) / 1e6
        floor = best_seconds(functools.partial(json.loads, text))
        files = best_seconds(functools.partial(loads, text, "json"))
        for name, seconds in [("json.loads (floor)", floor), ("estconf.files.loads", files)]:
            print(
                f"{workers:>8} {len(text):>9} {name:<22} {megabytes / seconds:>8.1f} "
                f"{seconds / floor:>13.1f}"
            )


if __name__ == "__main__":
    main()
