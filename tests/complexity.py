"""Whether work grows linearly with its input: processor time at two sizes, compared.

A check that reads its input once takes about eight times as long on eight
times the input; one that reads it again for each item takes sixty-four
times.  The bound between them leaves room for noise.  Processor time (not
wall time) is measured, the least of three runs, so that a busy machine
slows neither size more than the other.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

SMALL_TO_LARGE = 8
"""How much larger the large input is than the small one."""

BOUND = 24
"""The ratio of times under which growth counts as linear: 8 expected, 64 if quadratic."""


def cpu_seconds(work: Callable[[], object]) -> float:
    """The least processor time of three runs of ``work``."""
    best = float("inf")
    gc.disable()
    try:
        for _ in range(3):
            start = time.process_time()
            work()
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


def growth(work_of_size: Callable[[int], Callable[[], object]], small: int) -> float:
    """How many times longer the work on ``SMALL_TO_LARGE * small`` items takes than on ``small``.

    ``work_of_size(n)`` prepares the input of size ``n`` (not measured) and
    returns the work to measure.
    """
    large = cpu_seconds(work_of_size(SMALL_TO_LARGE * small))
    return large / cpu_seconds(work_of_size(small))
