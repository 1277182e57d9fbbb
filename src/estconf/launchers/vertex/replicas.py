"""What Vertex AI gives each replica of a CustomJob: TF_CONFIG, CLUSTER_SPEC, and their checks.

As documented
(https://cloud.google.com/vertex-ai/docs/training/distributed-training,
https://cloud.google.com/ai-platform/training/docs/distributed-training-details):

- replica ``i`` of pool ``P`` is the host ``cmle-training-workerpool<P>-<id>-<i>``,
  listening on port 2222; ``<id>`` is the job's id, chosen when the job is
  created (:data:`DEFAULT_JOB_ID` stands for it before);
- ``TF_CONFIG``'s cluster has the jobs ``chief`` (pool 0), ``worker`` (pool 1)
  and ``ps`` (pool 2), those with replicas; the evaluators (pool 3) are
  **never** in it, "since evaluators are not considered part of the training
  cluster"; its task is the replica's type and index, ``environment`` is
  ``cloud``, and ``job`` holds the job's spec;
- ``CLUSTER_SPEC`` has every pool with replicas as ``workerpool0`` ...
  ``workerpool3``, and the task ``{"type": "workerpool<P>", "index": i}``;
- in a hyperparameter-tuning job, each replica of trial ``N`` (numbered
  from 1) has ``"trial": "N"`` in its task, a string.

A pool 2 whose image is Vertex AI's reduction server runs the Reduction
Server, no TensorFlow and no parameter server.  What Vertex AI puts in
``TF_CONFIG`` then is not documented (neither page says): estconf leaves
its replicas out of the TensorFlow cluster and predicts no ``TF_CONFIG``
for them; ``CLUSTER_SPEC``, documented for every pool, keeps them as
``workerpool2``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from pydantic import ValidationError
from pydantic_core import PydanticCustomError

from estconf._errors import Errors, fail
from estconf._types import whole_number
from estconf.finding import hint_of
from estconf.launchers.vertex.spec import (
    POOL_TASK_TYPES,
    REDUCTION_SERVER_POOL,
    CustomJobSpec,
    SpecKeys,
    spec_keys,
)
from estconf.profiles import check_profile as check_tf_config

__all__ = [
    "DEFAULT_JOB_ID",
    "MAX_TRIAL",
    "PORT",
    "check_profile",
    "cluster_specs",
    "replica_names",
    "tf_configs",
]

PORT: Final = 2222
DEFAULT_JOB_ID: Final = "ab"
"""The job id written before the job exists: the one Vertex AI's documented examples show."""
_JOB_ID = re.compile(r"[0-9a-z]{1,40}")
MAX_TRIAL: Final = 2**31 - 1
"""The largest trial number: a HyperparameterTuningJob's ``maxTrialCount`` is an ``int32``."""
_TRAINING_POOLS: Final = 3
"""Pools 0 to 2 (chief, worker, ps) are the training cluster; pool 3's evaluators are not."""

SpecInput = CustomJobSpec | Mapping[str, Any]


def _spec(custom_job_spec: SpecInput) -> CustomJobSpec:
    if isinstance(custom_job_spec, CustomJobSpec):
        return custom_job_spec
    return CustomJobSpec.model_validate(custom_job_spec)


def _checked_job_id(job_id: str) -> str:
    if isinstance(job_id, str) and _JOB_ID.fullmatch(job_id):
        return job_id
    raise fail(
        "tf_configs",
        "vertex_job_id",
        "job_id is part of each replica's host name: lowercase letters and digits, not {job_id}",
        ("job_id",),
        job_id,
        {"job_id": repr(job_id)},
    )


def _checked_trial(trial: int | str | None) -> str | None:
    """The trial's number as the task writes it (a string), or None outside a tuning job."""
    if trial is None:
        return None
    try:
        number = whole_number(trial)  # 3, 3.0, numpy's 3; not True
    except PydanticCustomError:
        number = None
    if isinstance(number, str) and number.isascii() and number.isdigit() and len(number) <= 10:
        number = int(number)  # "3", as the task writes it
    if isinstance(number, int) and 1 <= number <= MAX_TRIAL:
        return str(number)
    raise fail(
        "tf_configs",
        "vertex_trial",
        "trial is the number of a hyperparameter-tuning trial, from 1 (Vertex AI numbers them "
        "from 1) to {most}, not {trial}",
        ("trial",),
        trial,
        {"trial": _shown(trial), "most": f"{MAX_TRIAL:,}"},
    )


def _shown(value: object, most: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= most else text[: most - 3] + "..."


def _task(task_type: str, index: int, trial: str | None) -> dict[str, Any]:
    """A replica's task: its type and index, and its trial in a hyperparameter-tuning job."""
    task: dict[str, Any] = {"type": task_type, "index": index}
    if trial is not None:
        task["trial"] = trial
    return task


def _hosts(spec: CustomJobSpec, job_id: str) -> list[list[str]]:
    """Each pool's replica addresses, by pool."""
    job_id = _checked_job_id(job_id)
    return [
        [f"cmle-training-workerpool{pool}-{job_id}-{index}:{PORT}" for index in range(count)]
        for pool, count in enumerate(spec.replica_counts().values())
    ]


def replica_names(custom_job_spec: SpecInput) -> list[str]:
    """Every replica's name, ``workerpool<P>-<i>``, pool by pool (as Vertex AI's logs label them).

    Raises:
        pydantic.ValidationError: the spec is not valid.
    """
    counts = _spec(custom_job_spec).replica_counts().values()
    return [
        f"workerpool{pool}-{index}" for pool, count in enumerate(counts) for index in range(count)
    ]


def tf_configs(
    custom_job_spec: SpecInput,
    *,
    job_id: str = DEFAULT_JOB_ID,
    trial: int | str | None = None,
) -> dict[str, dict[str, Any]]:
    """The ``TF_CONFIG`` Vertex AI sets for each replica, by replica name (``workerpool1-0``).

    The replicas of a Reduction Server pool run no TensorFlow: they get no
    ``TF_CONFIG`` here, and are not in the others' cluster (what Vertex AI
    gives them is not documented).

    Args:
        custom_job_spec: the spec (a mapping as a spec file holds it, or a model).
        job_id: the job's id in the host names, known once the job is created.
        trial: the trial of a hyperparameter-tuning job the replicas run
            (1, 2, ...): each task gets ``"trial": "N"``; None outside one.

    Raises:
        pydantic.ValidationError: the spec is not valid (``vertex_*`` codes),
            ``job_id`` cannot be part of a host name (``vertex_job_id``), or
            ``trial`` is no trial's number (``vertex_trial``).

    Example:
        >>> spec = {"workerPoolSpecs": [{"replicaCount": 1}, {}, {}, {"replicaCount": 1}]}
        >>> tf_configs(spec)["workerpool3-0"]["cluster"]
        {'chief': ['cmle-training-workerpool0-ab-0:2222']}
        >>> tf_configs(spec)["workerpool3-0"]["task"]
        {'type': 'evaluator', 'index': 0}
        >>> tf_configs(spec, trial=3)["workerpool0-0"]["task"]
        {'type': 'chief', 'index': 0, 'trial': '3'}
    """
    spec = _spec(custom_job_spec)
    hosts = _hosts(spec, job_id)
    trial_id = _checked_trial(trial)
    if spec.reduction_server_replicas:
        hosts[REDUCTION_SERVER_POOL] = []
    cluster = {POOL_TASK_TYPES[pool]: hosts[pool] for pool in range(_TRAINING_POOLS) if hosts[pool]}
    job = spec.model_dump(mode="json", exclude_none=True)
    return {
        f"workerpool{pool}-{index}": {
            "cluster": cluster,
            "task": _task(POOL_TASK_TYPES[pool], index, trial_id),
            "environment": "cloud",
            "job": job,
        }
        for pool, addresses in enumerate(hosts)
        for index in range(len(addresses))
    }


def cluster_specs(
    custom_job_spec: SpecInput,
    *,
    job_id: str = DEFAULT_JOB_ID,
    trial: int | str | None = None,
) -> dict[str, dict[str, Any]]:
    """The ``CLUSTER_SPEC`` Vertex AI sets for each replica, by replica name.

    Every pool with replicas is in the cluster as ``workerpool<P>``, the
    evaluators' and a Reduction Server's too; the task's type is the pool's
    name, with ``"trial": "N"`` for ``trial`` N, as in :func:`tf_configs`.

    Raises:
        pydantic.ValidationError: as :func:`tf_configs`.

    Example:
        >>> spec = {"workerPoolSpecs": [{"replicaCount": 1}, {}, {}, {"replicaCount": 1}]}
        >>> cluster_specs(spec)["workerpool3-0"]["cluster"]["workerpool3"]
        ['cmle-training-workerpool3-ab-0:2222']
    """
    spec = _spec(custom_job_spec)
    hosts = _hosts(spec, job_id)
    trial_id = _checked_trial(trial)
    cluster = {f"workerpool{pool}": addresses for pool, addresses in enumerate(hosts) if addresses}
    job = spec.model_dump(mode="json", exclude_none=True)
    return {
        f"workerpool{pool}-{index}": {
            "cluster": cluster,
            "environment": "cloud",
            "task": _task(f"workerpool{pool}", index, trial_id),
            "job": job,
        }
        for pool, addresses in enumerate(hosts)
        for index in range(len(addresses))
    }


_FIXES: Final = {
    2: "if the reader uses no parameter servers, leave workerPoolSpecs[2] out",
    3: "Vertex AI never puts the evaluators in the cluster: run them without this reader "
    "(an evaluator of its own that reads the checkpoints), or leave workerPoolSpecs[3] out",
}
"""What to do about a pool a reader refuses, beyond the reader's own sentence: the hint."""


def _pool_of(loc: tuple[Any, ...], own: int) -> int:
    """The pool an error of a replica's ``TF_CONFIG`` is about: a job of its cluster, or its own."""
    if len(loc) >= 2 and loc[0] == "cluster" and loc[1] in POOL_TASK_TYPES:
        return POOL_TASK_TYPES.index(loc[1])
    return own


def check_profile(custom_job_spec: SpecInput, profile: str) -> CustomJobSpec:
    """Check every replica's ``TF_CONFIG`` under the reader ``profile`` names, at its pool.

    The first replica of each pool is read with :func:`estconf.profiles.check_profile`
    (which reads every task of the cluster too); each error is reported once,
    at the ``replicaCount`` of the pool it is about, as the spec file writes
    it (``workerPoolSpecs[3].replicaCount``): under ``mwms``, an evaluator pool
    (MultiWorkerMirroredStrategy looks for the evaluator in the cluster, where
    Vertex AI never puts it) and a ps pool.  A Reduction Server pool runs no
    TensorFlow: no reader reads it, and none refuses it.

    Returns:
        The spec, valid and accepted by the reader.

    Raises:
        pydantic.ValidationError: the spec is not valid, or the reader refuses
            a replica's ``TF_CONFIG`` (the reader's codes and sentences).

    Example:
        >>> spec = {"workerPoolSpecs": [{"replicaCount": 1}, {"replicaCount": 2}, {},
        ...                             {"replicaCount": 1}]}
        >>> try:
        ...     check_profile(spec, "mwms")
        ... except ValueError as error:
        ...     print(error.errors()[0]["type"], error.errors()[0]["loc"])
        missing_evaluator_job ('workerPoolSpecs', 3, 'replicaCount')
    """
    spec = _spec(custom_job_spec)
    keys = spec_keys(custom_job_spec) if isinstance(custom_job_spec, Mapping) else None
    keys = keys or SpecKeys((), "workerPoolSpecs", [])
    configs = tf_configs(spec)
    errors = Errors("CustomJobSpec")
    reported: set[tuple[str, int]] = set()
    for pool, count in enumerate(spec.replica_counts().values()):
        first = configs.get(f"workerpool{pool}-0")
        if not count or first is None:  # a Reduction Server pool has no TF_CONFIG
            continue
        try:
            check_tf_config(first, profile)
        except ValidationError as refused:
            for error in refused.errors(include_url=False):
                about = _pool_of(tuple(error["loc"]), pool)
                if (error["type"], about) in reported:
                    continue
                reported.add((error["type"], about))
                errors.add(
                    error["type"],
                    "the {job} replicas, under --profile {profile}: {message}",
                    keys.replica_count_at(about),
                    spec.worker_pool_specs[about].replica_count,
                    {
                        "job": POOL_TASK_TYPES[about],
                        "profile": profile,
                        "message": error["msg"],
                        "hint": _FIXES.get(about) or hint_of(error),
                    },
                )
    errors.raise_if_any()
    return spec
