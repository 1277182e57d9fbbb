"""Benchmark: predicting what a launcher gives every task of a 1,000-task job.

Run with ``make bench`` (or ``python benchmarks/bench_launchers.py``).

- SLURM, a step of 1,000 ranks (250 hosts, 4 tasks each, ``ps=8,worker=992``):
  TensorFlow's view of every rank (one ``SlurmClusterResolver`` a rank, its
  ``tf_config``), the TF_CONFIG of every rank at the host SLURM runs it on
  (``slurm_tf_configs``), and the two commands, ``estconf tf-config --slurm``
  and ``--write``, from start to end.
- Vertex AI, a CustomJob spec of 1,000 replicas (a chief, 997 workers, a
  parameter server and an evaluator): ``vertex.tf_configs`` and
  ``estconf tf-config --vertex``.
- JobSet, a JobSet of 1,000 pods (a chief, 997 workers and two parameter
  servers, each pod's index read into ``TASK_INDEX`` before its TF_CONFIG):
  every pod's TF_CONFIG as Kubernetes expands it (``tf_configs``), and
  ``estconf tf-config jobset``.

Target: each prediction well under a second (at most 0.5 s).  The commands
write every task's TF_CONFIG, each listing every address (20 to 40 MB for
1,000 tasks), so they are timed with the size they write, without a target.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from _timing import best

from estconf import vertex
from estconf.distribute import SlurmClusterResolver
from estconf.launchers.slurm.placement import slurm_tf_configs, step_environ

TARGET_SECONDS = 0.5
NODELIST = "node[0001-0250]"
TASKS_PER_NODE = 4
JOBS = {"ps": 8, "worker": 992}
JOBS_FLAG = "ps=8,worker=992"
RANKS = 250 * TASKS_PER_NODE


def spec() -> dict[str, object]:
    """A CustomJob spec of 1,000 replicas, as a spec file holds it."""
    pool = {
        "machineSpec": {"machineType": "n1-standard-4"},
        "containerSpec": {"imageUri": "us-docker.pkg.dev/p/training/mnist:latest"},
    }
    counts = (1, 997, 1, 1)
    return {"workerPoolSpecs": [{**pool, "replicaCount": count} for count in counts]}


def jobset() -> dict[str, object]:
    """A JobSet of 1,000 pods, each TF_CONFIG listing every pod, as a manifest holds it."""
    counts = {"chief": 1, "worker": 997, "ps": 2}
    cluster = {
        name: [f"big-{name}-0-{index}.big:2222" for index in range(count)]
        for name, count in counts.items()
    }
    index = "metadata.annotations['batch.kubernetes.io/job-completion-index']"

    def replicated(name: str, count: int) -> dict[str, object]:
        tf_config = json.dumps({"cluster": cluster, "task": {"type": name, "index": 0}})
        tf_config = tf_config.replace('"index": 0}', '"index": $(TASK_INDEX)}')
        env = [
            {"name": "TASK_INDEX", "valueFrom": {"fieldRef": {"fieldPath": index}}},
            {"name": "TF_CONFIG", "value": tf_config},
        ]
        container = {"name": "tensorflow", "image": "tf:2.15", "env": env}
        pods = {"parallelism": count, "completions": count}
        return {
            "name": name,
            "template": {"spec": {**pods, "template": {"spec": {"containers": [container]}}}},
        }

    return {
        "apiVersion": "jobset.x-k8s.io/v1alpha2",
        "kind": "JobSet",
        "metadata": {"name": "big"},
        "spec": {"replicatedJobs": [replicated(name, count) for name, count in counts.items()]},
    }


def jobset_tf_configs() -> list[str | None]:
    """Every pod's TF_CONFIG of the JobSet of 1,000 pods, expanded."""
    from estconf.launchers.jobset.model import JobSet
    from estconf.launchers.jobset.tf_configs import tf_configs

    return [found.text for found in tf_configs(JobSet.model_validate(jobset()))]


def tensorflow_view() -> list[dict[str, object]]:
    """TensorFlow's view of every rank, as SlurmClusterResolver gives it."""
    return [
        SlurmClusterResolver(
            jobs=JOBS, gpus_per_node=4, environ=step_environ(NODELIST, TASKS_PER_NODE, rank)
        ).tf_config
        for rank in range(RANKS)
    ]


def written() -> list[dict[str, object]]:
    """Every rank's TF_CONFIG at the host SLURM runs it on."""
    return slurm_tf_configs(JOBS, environ=step_environ(NODELIST, TASKS_PER_NODE))


def command(*args: str) -> Callable[[], bytes]:
    """The command ``estconf ARGS...`` in a new process; what it writes."""
    estconf = Path(sys.executable).with_name("estconf")

    def run() -> bytes:
        done = subprocess.run([str(estconf), *args], capture_output=True, check=False)
        if done.returncode not in (0, 1):
            raise RuntimeError(done.stderr.decode())
        return done.stdout

    return run


def main() -> int:
    """Print one line a measurement, and whether a prediction meets the target; 1 if one misses."""
    slurm_flags = (
        "tf-config", "--slurm", "--nodelist", NODELIST, "--tasks-per-node", str(TASKS_PER_NODE),
        "--jobs", JOBS_FLAG, "--gpus-per-node", "4",
    )  # fmt: skip
    predictions = {
        f"SLURM, {RANKS:,} ranks: TensorFlow's view of each (SlurmClusterResolver)": best(
            tensorflow_view
        ),
        f"SLURM, {RANKS:,} ranks: each at its host (slurm_tf_configs)": best(written),
        "Vertex AI, 1,000 replicas: vertex.tf_configs": best(lambda: vertex.tf_configs(spec())),
        "JobSet, 1,000 pods: each pod's env expanded (tf_configs)": best(jobset_tf_configs),
    }
    missed = 0
    for what, seconds in predictions.items():
        verdict = "met" if seconds <= TARGET_SECONDS else "**missed**"
        missed += verdict != "met"
        target = f"at most {TARGET_SECONDS * 1000:.0f} ms"
        print(f"| {what} | {seconds * 1000:.0f} ms | {target} | {verdict} |")
    with tempfile.TemporaryDirectory() as directory:
        spec_file = os.path.join(directory, "job.json")
        Path(spec_file).write_text(json.dumps(spec()), encoding="utf-8")
        jobset_file = os.path.join(directory, "jobset.json")
        Path(jobset_file).write_text(json.dumps(jobset()), encoding="utf-8")
        commands = {
            "estconf tf-config --slurm": command(*slurm_flags),
            "estconf tf-config --slurm --write": command(*slurm_flags, "--write"),
            "estconf tf-config --vertex": command("tf-config", "--vertex", spec_file),
            "estconf tf-config jobset": command("tf-config", "jobset", jobset_file),
        }
        for what, run in commands.items():
            size = len(run()) / 1e6
            seconds = best(run, runs=3)
            print(f"| {what}, 1,000 tasks: {size:.0f} MB written | {seconds * 1000:.0f} ms | | |")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
