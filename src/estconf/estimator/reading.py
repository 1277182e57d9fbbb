"""The estimator's reading of ``TF_CONFIG``: local, chief and master mode.

``tf.estimator.RunConfig`` derives its distributed properties (``master``,
``is_chief``, ``global_id_in_cluster``, …) from the cluster and task of
``TF_CONFIG``.  :func:`derive_distributed` applies the same rules to a
:class:`~estconf.TFConfig`; the models (``RunConfig``, ``tpu.RunConfig``) and
the file checker share it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final

from pydantic import ValidationError

from estconf._errors import Errors, Loc, details_of, fail
from estconf.cluster import ClusterSpec, check_task_not_a_hole
from estconf.estimator.hints import missing_chief_hint, sparse_cluster_hint
from estconf.estimator.strategies import Strategies
from estconf.tf_config import TaskType, TFConfig, near_miss_job

__all__ = [
    "GRPC",
    "NOTE",
    "Distributed",
    "check_estimator_rules",
    "check_task_in_cluster",
    "check_tf_config_file",
    "derive_distributed",
    "distributed_settings",
    "single_task",
]

GRPC: Final = "grpc://"
"""The scheme of a master derived from a task's address."""


@dataclass(frozen=True)
class Distributed:
    """The distributed settings the estimator derives from ``TF_CONFIG``."""

    cluster_spec: ClusterSpec
    task_type: str
    task_id: int
    master: str
    evaluation_master: str
    is_chief: bool
    num_ps_replicas: int
    num_worker_replicas: int
    global_id_in_cluster: int | None
    service: dict[str, Any] | None
    between_graph: bool = True
    """False when the distribute coordinator manages the cluster (no device filters)."""


def derive_distributed(
    tf_config: TFConfig, title: str = "RunConfig", strategies: Strategies | None = None
) -> Distributed:
    """Apply the estimator's rules to ``tf_config`` and derive the distributed settings.

    :func:`check_estimator_rules` followed by :func:`distributed_settings`.

    Raises:
        pydantic.ValidationError: the TF_CONFIG is not valid for the estimator;
            each error is located within the TF_CONFIG (``task.index``).
    """
    check_estimator_rules(tf_config, title, strategies)
    return distributed_settings(tf_config, strategies)


def check_tf_config_file(tf_config: TFConfig) -> None:
    """The estimator's rules on a ``TF_CONFIG`` file, whose values come from the file.

    TensorFlow ends some messages with :data:`NOTE`, that the values may come
    from the environment variable; about a file, that would mislead.

    Raises:
        pydantic.ValidationError: the TF_CONFIG is not valid for the estimator.
    """
    check_estimator_rules(tf_config, "TFConfig", note="")


def check_estimator_rules(
    tf_config: TFConfig,
    title: str = "RunConfig",
    strategies: Strategies | None = None,
    *,
    note: str | None = None,
) -> None:
    """Check that the estimator can read ``tf_config`` (local, chief or master mode).

    The estimator alone reads ``model_dir``: an empty one is refused here, not
    by :class:`~estconf.TFConfig`, which the tf.distribute readers share.

    With a (non-TPU) distribution strategy, TensorFlow's distribute coordinator
    takes over a chief-mode cluster: the task is not checked.

    Args:
        tf_config: The TF_CONFIG.
        title: The title of the raised error.
        strategies: The distribution arguments of the RunConfig, if any.
        note: What ends the message about a task not in the cluster
            (:data:`NOTE` by default, as in TensorFlow; ``""`` for none).

    Raises:
        pydantic.ValidationError: the TF_CONFIG is not valid for the estimator;
            each error is located within the TF_CONFIG (``task.index``).
    """
    errors = Errors(title)
    if tf_config.model_dir == "":
        errors.add(
            "model_dir_empty", "model_dir in TF_CONFIG should be non-empty.", ("model_dir",), ""
        )
    near_misses = _job_name_near_misses(tf_config.cluster, title)
    try:
        _check_reading(tf_config, title, strategies, NOTE if note is None else note)
    except ValidationError as refused:
        raise ValidationError.from_exception_data(
            title, [*errors.details(), *details_of(refused), *near_misses.details()]
        ) from None
    if errors or near_misses:
        raise ValidationError.from_exception_data(
            title, [*errors.details(), *near_misses.details()]
        )


def _job_name_near_misses(cluster: ClusterSpec, title: str) -> Errors:
    """A job of the cluster whose name misspells a job the estimator reads (``workers``).

    TensorFlow counts such a job as one of its own, which no task trains with.
    """
    errors = Errors(title)
    for job in cluster.jobs:
        meant = near_miss_job(job)
        if meant is not None:
            errors.add(
                "job_name_near_miss",
                "job {job} looks like a misspelling of {meant}: tf.estimator.RunConfig reads "
                "it as a job of its own, which no task trains with; did you mean {meant}?",
                ("cluster", job),
                cluster.root[job],
                {"job": repr(job), "meant": repr(meant)},
            )
    return errors


def _check_reading(
    tf_config: TFConfig, title: str, strategies: Strategies | None, note: str
) -> None:
    """The estimator's rules on the cluster and task (local, chief or master mode)."""
    if _coordinated_cluster(tf_config, strategies, title) is not None:
        return
    cluster = tf_config.cluster
    if not cluster:
        _check_local(tf_config, title)
    elif TaskType.MASTER in cluster.root:
        if TaskType.CHIEF in cluster.root:
            raise fail(
                title,
                "chief_with_master",
                "If `master` node exists in `cluster`, job `chief` is not supported. Fix: keep "
                'one of them: "chief" is the current name of the legacy "master" job.',
                ("cluster", TaskType.CHIEF),
                cluster.root[TaskType.CHIEF],
            )
        _check_task(tf_config, TaskType.MASTER, title, note)
        if tf_config.task.type == TaskType.EVALUATOR:
            raise fail(
                title,
                "evaluator_with_master",
                "If `master` node exists in `cluster`, task_type `evaluator` is not supported. "
                'Fix: rename the "master" job to "chief", whose clusters take an evaluator.',
                ("task", "type"),
                tf_config.task.type,
            )
    else:
        _check_task(tf_config, TaskType.CHIEF, title, note)


def distributed_settings(tf_config: TFConfig, strategies: Strategies | None = None) -> Distributed:
    """Derive the estimator's distributed settings from a ``tf_config`` that passed the checks.

    Call :func:`check_estimator_rules` first: on a TF_CONFIG the estimator
    refuses, the result means nothing.
    """
    coordinated = _coordinated_cluster(tf_config, strategies, "RunConfig")
    if coordinated is not None:
        return dataclasses.replace(
            _local(TFConfig()), cluster_spec=coordinated, between_graph=False
        )
    cluster = tf_config.cluster
    if not cluster:
        return _local(tf_config)
    leader = TaskType.MASTER if TaskType.MASTER in cluster.root else TaskType.CHIEF
    task_type, task_id = tf_config.task.type, tf_config.task.index
    assert task_type is not None and task_id is not None  # checked
    if task_type == TaskType.EVALUATOR:
        return _evaluator(tf_config, task_id)
    return _training_task(tf_config, task_type, task_id, leader)


def _coordinated_cluster(
    tf_config: TFConfig, strategies: Strategies | None, title: str
) -> ClusterSpec | None:
    """The cluster TensorFlow's distribute coordinator takes over, if it does.

    Then the estimator reads the config as local mode with this cluster kept.

    Raises:
        pydantic.ValidationError: the strategies and TF_CONFIG contradict each other.
    """
    if strategies is None or not strategies.use_coordinator():
        return None
    cluster = tf_config.cluster
    train = strategies.train_distribute
    remote = getattr(strategies.experimental_distribute, "remote_cluster", None)
    if train and remote:
        if cluster:
            raise fail(
                title,
                "remote_cluster_conflict",
                'Cannot set both "cluster_spec" of TF_CONFIG and '
                "`experimental_distribute.remote_cluster`",
                ("cluster",),
                cluster.as_dict(),
            )
        return ClusterSpec(remote)
    if train and cluster and TaskType.MASTER not in cluster.root:
        return cluster
    return None


def _local_task(tf_config: TFConfig) -> tuple[str | None, int | None]:
    task = tf_config.task
    given = task.model_fields_set
    return (
        task.type if "type" in given else TaskType.WORKER,
        task.index if "index" in given else 0,
    )


def _check_local(tf_config: TFConfig, title: str) -> None:
    # TensorFlow reads the index with int() before it checks the task.
    if "index" in tf_config.task.model_fields_set and tf_config.task.index is None:
        raise fail(
            title,
            "type",
            "task index is null; with no cluster, TensorFlow's estimator fails on it before "
            "anything else: int() argument must be a string, a bytes-like object or a real "
            "number, not 'NoneType'. Leave the key out or give 0",
            ("task", "index"),
            None,
        )
    task_type, task_id = _local_task(tf_config)
    errors = Errors(title)
    hint = sparse_cluster_hint(tf_config)
    if task_type != TaskType.WORKER:
        errors.add(
            "local_task_type",
            'If "cluster" is not set in TF_CONFIG, task type must be WORKER.{hint}',
            ("task", "type"),
            task_type,
            {"hint": hint},
        )
        hint = ""
    if task_id != 0:
        errors.add(
            "local_task_index",
            'If "cluster" is not set in TF_CONFIG, task index must be 0.{hint}',
            ("task", "index"),
            task_id,
            {"hint": hint},
        )
    errors.raise_if_any()


def _local(tf_config: TFConfig) -> Distributed:
    task_type, task_id = _local_task(tf_config)
    assert task_type is not None and task_id is not None  # checked
    return Distributed(
        cluster_spec=tf_config.cluster,
        task_type=task_type,
        task_id=task_id,
        master=_or(tf_config.session_master, ""),
        evaluation_master=_or(tf_config.eval_session_master, ""),
        is_chief=True,
        num_ps_replicas=0,
        num_worker_replicas=1,
        global_id_in_cluster=0,
        service=tf_config.service,
    )


def _evaluator(tf_config: TFConfig, task_id: int) -> Distributed:
    """An evaluator: not part of the training cluster."""
    return Distributed(
        cluster_spec=ClusterSpec(),
        task_type=TaskType.EVALUATOR,
        task_id=task_id,
        master="",
        evaluation_master=_or(tf_config.eval_session_master, ""),
        is_chief=False,
        num_ps_replicas=0,
        num_worker_replicas=0,
        global_id_in_cluster=None,
        service=tf_config.service,
    )


def _training_task(tf_config: TFConfig, task_type: str, task_id: int, leader: str) -> Distributed:
    """A task of the training cluster led by the ``leader`` job (``chief`` or ``master``)."""
    cluster = tf_config.cluster
    return Distributed(
        cluster_spec=cluster,
        task_type=task_type,
        task_id=task_id,
        master=_session_master(tf_config, task_type, task_id),
        evaluation_master="",
        is_chief=task_type == leader,
        num_ps_replicas=_num_tasks(cluster, TaskType.PS),
        num_worker_replicas=_num_tasks(cluster, TaskType.WORKER) + _num_tasks(cluster, leader),
        global_id_in_cluster=_global_id(cluster, task_type, task_id, leader),
        service=tf_config.service,
    )


def _check_task(tf_config: TFConfig, chief: str, title: str, note: str) -> None:
    """Check the task against a cluster whose leader job is ``chief``."""
    cluster = tf_config.cluster
    task = tf_config.task
    errors = Errors(title)
    if chief not in cluster.root:
        errors.add(
            "missing_chief",
            'If "cluster" is set in TF_CONFIG, it must have one "{chief}" node.{hint}',
            ("cluster",),
            cluster.as_dict(),
            {"chief": chief, "hint": missing_chief_hint(cluster)},
        )
    elif cluster.job_size(chief) > 1:
        errors.add(
            "multiple_chiefs",
            'The "cluster" in TF_CONFIG must have only one "{chief}" node.',
            ("cluster", chief),
            cluster.as_dict()[chief],
            {"chief": chief},
        )
    if not task.type:
        errors.add(
            "missing_task_type",
            'If "cluster" is set in TF_CONFIG, task type must be set.',
            ("task", "type"),
            task.type,
        )
    if task.index is None:
        errors.add(
            "missing_task_index",
            'If "cluster" is set in TF_CONFIG, task index must be set.',
            ("task", "index"),
            task.index,
        )
    elif task.index < 0:
        errors.add(
            "negative_task_index",
            "Task index must be non-negative number.",
            ("task", "index"),
            task.index,
        )
    errors.raise_if_any()
    task_type, task_id = task.type, task.index
    assert task_type is not None and task_id is not None
    if task_type != TaskType.EVALUATOR:
        check_task_in_cluster(cluster, task_type, task_id, title, note=note)


NOTE: Final = "Note that these values may be coming from the TF_CONFIG environment variable."
"""The estimator's last line under a task that is not in the cluster."""


def check_task_in_cluster(
    cluster: ClusterSpec,
    task_type: str,
    task_id: int,
    title: str,
    at: Loc = (),
    index_value: Any = None,
    note: str = NOTE,
    index_note: str | None = None,
) -> None:
    """Check that task ``task_type[task_id]`` is a task of ``cluster``, with TensorFlow's words.

    Args:
        cluster: The cluster.
        task_type: The task's type; must be a job of the cluster.
        task_id: The task's index; must be in range, and not a hole of a sparse job.
        title: The title of the raised error.
        at: Where the TF_CONFIG is, in the input (the errors go under its ``task``).
        index_value: The input value to report for a bad index (``task_id`` by default).
        note: The sentence TensorFlow ends its messages with.
        index_note: The one it ends the message on a bad index with (``note`` by default).

    Raises:
        pydantic.ValidationError: ``unknown_task_type``, ``task_index_out_of_range``
            or ``task_in_hole``.
    """
    if task_type not in cluster.jobs:  # a list, as TensorFlow looks it up: any value will do
        raise fail(
            title,
            "unknown_task_type",
            "{task_type} is not a valid task_type in the cluster_spec:\n{cluster}" + _ending(note),
            (*at, "task", "type"),
            task_type,
            {"task_type": str(task_type), "cluster": repr(cluster)},
        )
    if not 0 <= task_id < cluster.job_size(task_type):
        raise fail(
            title,
            "task_index_out_of_range",
            "{task_id} is not a valid task_id for task_type {task_type} in the "
            "cluster_spec:\n{cluster}" + _ending(note if index_note is None else index_note),
            (*at, "task", "index"),
            task_id if index_value is None else index_value,
            {"task_id": task_id, "task_type": str(task_type), "cluster": repr(cluster)},
        )
    check_task_not_a_hole(cluster, task_type, task_id, title, (*at, "task", "index"))


def _ending(note: str) -> str:
    return "\n\n" + note if note else ""


def single_task(cluster: ClusterSpec) -> bool:
    """Whether the cluster is one job of one task (whose master is then ``''``)."""
    jobs = cluster.jobs
    return len(jobs) == 1 and cluster.job_size(jobs[0]) == 1


def _session_master(tf_config: TFConfig, task_type: str, task_id: int) -> str:
    if tf_config.session_master is not None:
        return tf_config.session_master
    cluster = tf_config.cluster
    if single_task(cluster):
        return ""
    return GRPC + cluster.task_address(task_type, task_id)


def _num_tasks(cluster: ClusterSpec, job: str) -> int:
    return cluster.num_tasks(job) if job in cluster.root else 0


def _global_id(cluster: ClusterSpec, task_type: str, task_id: int, chief: str) -> int:
    jobs = cluster.jobs
    ordered = [chief, *sorted(job for job in jobs if job not in (chief, TaskType.PS))]
    if TaskType.PS in jobs:
        ordered.append(TaskType.PS)
    offset = 0
    for job in ordered:
        if job == task_type:
            return offset + task_id
        offset += cluster.job_size(job)
    raise AssertionError(f"{task_type!r} is not a job of the cluster")  # checked before


def _or(value: str | None, default: str) -> str:
    return default if value is None else value
