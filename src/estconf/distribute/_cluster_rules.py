"""The rules tf.distribute applies to a cluster and a task, written once for every reader.

``TFConfigClusterResolver`` reads the task out of ``TF_CONFIG``;
``MultiWorkerMirroredStrategy`` and ``ParameterServerStrategy`` then both call
``multi_worker_util._validate_cluster_spec`` (TensorFlow 2.15 and 2.21,
``tensorflow/python/distribute/multi_worker_util.py``) on the cluster and that
task.  Each function here mirrors one of those steps, with TensorFlow's
sentence; the strategies call them in TensorFlow's order.  The rules estconf
adds on purpose (section "Stricter than TensorFlow" of the docs) come last, so
that an input TensorFlow refuses always shows TensorFlow's own sentence.
"""

from __future__ import annotations

from typing import Final

from pydantic import ValidationError

from estconf._errors import Errors, fail, with_hint
from estconf.cluster import ClusterSpec, check_task_not_a_hole
from estconf.distribute import _hints
from estconf.tf_config import TaskType, near_miss_job

__all__ = [
    "ALLOWED_TASK_TYPES",
    "check_index_not_negative",
    "check_own_task_not_a_hole",
    "leader_task",
    "num_tasks",
    "validate_cluster_spec",
]

ALLOWED_TASK_TYPES: Final = (
    TaskType.CHIEF,
    TaskType.WORKER,
    TaskType.EVALUATOR,
    TaskType.PS,
    None,
)
"""The task types (and jobs) the strategies know, in TensorFlow's order; ``None``: no task."""

_ALLOWED_TEXT: Final = repr(ALLOWED_TASK_TYPES)

_KNOWN_JOBS: Final = tuple(job for job in ALLOWED_TASK_TYPES if job is not None)
"""The jobs the strategies know, which a disallowed job may misspell."""


def num_tasks(cluster: ClusterSpec, job: str) -> int:
    """How many tasks ``job`` has, 0 when it is not a job (``multi_worker_util.task_count``).

    Holes of a sparse job are not counted, unlike ``len(job_tasks(job))``.
    """
    return cluster.num_tasks(job) if job in cluster.root else 0


def leader_task(job: str) -> str:
    """The full name of task 0 of ``job``, as the strategies name their leaders."""
    return f"/job:{job}/replica:0/task:0"


def validate_cluster_spec(
    cluster: ClusterSpec, task_type: str | None, task_id: int | None, title: str
) -> None:
    """Check the cluster and the task as ``multi_worker_util._validate_cluster_spec`` does.

    In TensorFlow's order: every job is a known task type; the task type is
    one too; it is a job of the cluster unless it is ``evaluator``; at most one
    ``chief`` task and one ``evaluator`` task; the index is below the number of
    tasks of its job (holes of a sparse job not counted).  A task type with no
    index makes TensorFlow fail comparing ``None`` with a number; estconf says
    so.  Each error's ``hint`` is its fix (:mod:`estconf.distribute._hints`);
    some depend on the reader, named by ``title``.

    Raises:
        pydantic.ValidationError: the first rule that fails, with TensorFlow's sentence.
    """
    disallowed = [job for job in cluster.jobs if job not in ALLOWED_TASK_TYPES]
    if disallowed:
        errors = Errors(title)
        for job in disallowed:
            meant = near_miss_job(job, _KNOWN_JOBS)
            errors.add(
                "disallowed_job",
                "Disallowed task type found in cluster spec. Allowed types are {allowed} and "
                "the cluster spec is {cluster}. (job '{job}' is not one of them{meant})",
                ("cluster", job),
                cluster.as_dict()[job],
                {
                    "allowed": _ALLOWED_TEXT,
                    "cluster": repr(cluster),
                    "job": job,
                    "meant": "" if meant is None else f"; did you mean {meant!r}?",
                    "hint": _hints.disallowed_job(job, meant),
                },
            )
        errors.raise_if_any()
    if task_type not in ALLOWED_TASK_TYPES:
        raise fail(
            title,
            "unrecognized_task_type",
            "Unrecognized task_type: {task_type}, valid task types are: {allowed}",
            ("task", "type"),
            task_type,
            {
                "task_type": task_type,
                "allowed": _ALLOWED_TEXT,
                "hint": _hints.unrecognized_task_type(str(task_type), cluster, title),
            },
        )
    if task_type and task_type not in cluster.root and task_type != TaskType.EVALUATOR:
        raise fail(
            title,
            "task_type_not_in_cluster",
            "`task_type` {task_type} not found in cluster_spec.",
            ("task", "type"),
            task_type,
            {
                "task_type": repr(task_type),
                "hint": _hints.task_type_not_in_cluster(task_type, cluster, title),
            },
        )
    for job in (TaskType.CHIEF, TaskType.EVALUATOR):
        if num_tasks(cluster, job) > 1:
            raise fail(
                title,
                f"multiple_{job}s",
                "There must be at most one '{job}' job.",
                ("cluster", job),
                cluster.as_dict()[job],
                {"job": job, "hint": _hints.multiple(job, num_tasks(cluster, job))},
            )
    if task_type is not None and task_type in cluster.root:
        if task_id is None:
            raise fail(
                title,
                "missing_task_index",
                "task type '{task_type}' is a job of the cluster but the task has no index "
                "(TensorFlow fails on it with: '>=' not supported between instances of "
                "'NoneType' and 'int')",
                ("task", "index"),
                None,
                {"task_type": task_type, "hint": _hints.task_index_of(task_type, cluster)},
            )
        if task_id >= num_tasks(cluster, task_type):
            raise fail(
                title,
                "task_id_out_of_range",
                "The `task_id` {task_id} exceeds the maximum id of {task_type}.",
                ("task", "index"),
                task_id,
                {
                    "task_id": task_id,
                    "task_type": task_type,
                    "hint": _hints.task_id_out_of_range(task_type, task_id, cluster),
                },
            )


def check_index_not_negative(
    task_id: int | None,
    title: str,
    loc: tuple[str, ...] = ("task", "index"),
    hint: str | None = None,
) -> None:
    """A task index is not negative (``negative_index``, stricter than TensorFlow).

    TensorFlow has no lower bound: ``MultiWorkerMirroredStrategy`` gives
    worker -1 the id of the chief, and its device is ``/job:worker/task:-1``.
    ``hint`` is the fix where the index is not ``task.index``.

    Raises:
        pydantic.ValidationError: ``task_id`` is below 0.
    """
    if task_id is not None and task_id < 0:
        raise fail(
            title,
            "negative_index",
            "task index {task_id} is negative; task indices start at 0 (TensorFlow's "
            "tf.distribute readers do not refuse it, and give the task another task's id)",
            loc,
            task_id,
            {"task_id": task_id, "hint": hint or _hints.negative_index()},
        )


def check_own_task_not_a_hole(
    cluster: ClusterSpec, task_type: str | None, task_id: int | None, title: str
) -> None:
    """The node's own task has an address in the cluster (``task_in_hole``, a stricter rule).

    Only a task of a job of the cluster is checked; an evaluator outside the
    cluster has no address to have.

    Raises:
        pydantic.ValidationError: the task is a hole of a sparse job.
    """
    if task_type is None or task_id is None or task_type not in cluster.root:
        return
    try:
        check_task_not_a_hole(cluster, task_type, task_id, title, ("task", "index"))
    except ValidationError as hole:
        raise with_hint(hole, _hints.sparse_job(task_type, cluster.num_tasks(task_type))) from None
