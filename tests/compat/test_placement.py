"""estconf.distribute.slurm_tf_configs read by TensorFlow's TFConfigClusterResolver (2.15 and 2.21).

For generated steps (hosts with numbers of different widths, so that the
string sort and SLURM's order differ; uneven tasks per node; jobs in any
order, sizes 0 included) every rank's ``TF_CONFIG`` is set in ``os.environ``
and read by TensorFlow's own resolver: it gives the rank's task, the same
cluster, and the rank's address (its master) on the host SLURM's block
distribution runs the rank on.

``PLACEMENT_EXAMPLES`` sets the number of generated steps (default 200).
"""

from __future__ import annotations

import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from compat.harness import import_tensorflow, tf_config_env
from estconf.distribute import rank_hosts, slurm_tf_configs

tf = import_tensorflow(estimator=False)

TFConfigClusterResolver = tf.distribute.cluster_resolver.TFConfigClusterResolver

JOBS = ["chief", "evaluator", "ps", "worker"]


@st.composite
def steps(draw: st.DrawFn) -> tuple[dict[str, int], dict[str, int], int]:
    numbers = draw(st.lists(st.integers(1, 120), min_size=1, max_size=6, unique=True))
    placed = {f"node{number}": draw(st.integers(0, 4)) for number in sorted(numbers)}
    total = sum(placed.values())
    order = draw(st.permutations(JOBS))
    sizes: dict[str, int] = {}
    left = total
    for job in order[:-1]:
        sizes[job] = draw(st.integers(0, left))
        left -= sizes[job]
    sizes[order[-1]] = left
    return placed, sizes, draw(st.integers(1000, 60000))


@settings(max_examples=int(os.environ.get("PLACEMENT_EXAMPLES", "200")), deadline=None)
@given(steps())
def test_tensorflow_reads_each_rank_at_its_host(
    step: tuple[dict[str, int], dict[str, int], int],
) -> None:
    placed, sizes, port_base = step
    if sum(placed.values()) == 0:
        return
    configs = slurm_tf_configs(sizes, port_base, tasks_per_node=placed, environ={})
    hosts = rank_hosts(placed, environ={})
    for rank, config in enumerate(configs):
        with tf_config_env(json.dumps(config)):
            resolver = TFConfigClusterResolver()
            cluster = resolver.cluster_spec().as_dict()
            task = (resolver.task_type, resolver.task_id)
            master = resolver.master()
        assert cluster == config["cluster"]
        assert task == (config["task"]["type"], config["task"]["index"])
        address = cluster[task[0]][task[1]]
        assert address.rpartition(":")[0] == hosts[rank]
        assert master in ("", f"grpc://{address}")  # '' for a cluster of one task
