"""Timing a call for the benchmarks: the best of a few runs, which a busy machine slows least."""

from __future__ import annotations

import time
from collections.abc import Callable


def best(function: Callable[[], object], runs: int = 5) -> float:
    """The best wall time of ``runs`` calls of ``function``, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)
