"""Benchmark: checking the TF_CONFIGs of a whole job, against json.loads of the same lines.

Run with ``make bench`` (or ``python benchmarks/bench_deployment.py``).  A job
of N nodes shares one N-task cluster, one TF_CONFIG per line, as
``estconf tf-config --format jsonl`` writes it: 1,000 nodes make about 30 MB.

- time: ``check_cluster(read_json_lines(data))`` against ``json.loads`` of
  every line (the floor: no validating reader can beat it), at several sizes,
  with the time per MB to show that it grows linearly with the input;
  target at most 5x json.loads.  ``loads kept`` keeps the parsed lines, as
  a reader returning them does; ``loads each`` drops each at once, which
  spares the garbage collector and is the stricter floor.
- memory: the peak the check allocates (tracemalloc, in a fresh process),
  against what the parsed lines hold; target at most 3x.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc

from _timing import best

from estconf.deployment import check_cluster, read_json_lines

SIZES = (250, 500, 1000)
TIME_TARGET = 5.0
MEMORY_TARGET = 3.0


def job_lines(nodes: int) -> bytes:
    """The JSON lines of a chief-mode job of ``nodes`` nodes, one per task of its cluster."""
    cluster = {
        "chief": ["chief-0.train.svc:2222"],
        "ps": [f"ps-{i}.train.svc:2222" for i in range(4)],
        "worker": [f"worker-{i}.train.svc:2222" for i in range(nodes - 5)],
    }
    lines = [
        json.dumps(
            {"cluster": cluster, "task": {"type": job, "index": index}, "model_dir": "gs://b/m"}
        )
        for job, tasks in cluster.items()
        for index in range(len(tasks))
    ]
    return ("\n".join(lines) + "\n").encode()


def parse_all(data: bytes) -> list[object]:
    return [json.loads(line) for _, line in read_json_lines(data)]


def parse_each(data: bytes) -> None:
    """``json.loads`` of every line, each result dropped at once (no garbage collection)."""
    for _, line in read_json_lines(data):
        json.loads(line)


def check(data: bytes) -> object:
    report = check_cluster(read_json_lines(data))
    assert report.valid, report.summary()
    return report


def peak_memory(what: str, nodes: int) -> int:
    """In this process: the bytes ``what`` allocates at its peak (``parse``: what it keeps)."""
    data = job_lines(nodes)
    check(job_lines(10))  # build the validators before measuring
    tracemalloc.start()
    if what == "parse":
        parsed = parse_all(data)
        size = tracemalloc.get_traced_memory()[0]
        del parsed
    else:
        check(data)
        size = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return size


def measured_in_fresh_process(what: str, nodes: int) -> int:
    result = subprocess.run(
        [sys.executable, __file__, "--memory", what, str(nodes)],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(result.stdout)


def main() -> None:
    """Print the time table, then the memory line."""
    print(
        f"{'nodes':>6} {'MB':>6} {'loads kept s':>13} {'loads each s':>13} {'check s':>8} "
        f"{'x kept':>7} {'x each':>7} {'check s/MB':>11}"
    )
    worst = worst_each = 0.0
    for nodes in SIZES:
        data = job_lines(nodes)
        runs = 3 if nodes >= 1000 else 5
        kept = best(lambda: parse_all(data), runs)  # noqa: B023 - called before the next size
        each = best(lambda: parse_each(data), runs)  # noqa: B023
        ours = best(lambda: check(data), runs)  # noqa: B023
        megabytes = len(data) / 1e6
        worst, worst_each = max(worst, ours / kept), max(worst_each, ours / each)
        print(
            f"{nodes:>6} {megabytes:>6.1f} {kept:>13.3f} {each:>13.3f} {ours:>8.3f} "
            f"{ours / kept:>7.2f} {ours / each:>7.2f} {ours / megabytes:>11.4f}"
        )
    print(
        f"time: at most {worst:.2f}x json.loads of the lines (target <= {TIME_TARGET:g}x); "
        f"{worst_each:.2f}x json.loads of each line dropped at once"
    )
    nodes = SIZES[-1]
    parsed = measured_in_fresh_process("parse", nodes)
    peak = measured_in_fresh_process("check", nodes)
    print(
        f"memory, {nodes} nodes: parsed lines {parsed / 1e6:.1f} MB, check peak "
        f"{peak / 1e6:.1f} MB = {peak / parsed:.2f}x (target <= {MEMORY_TARGET:g}x)"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--memory"]:
        print(peak_memory(sys.argv[2], int(sys.argv[3])))
    else:
        main()
