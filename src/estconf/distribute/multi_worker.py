"""``estconf.distribute.MultiWorkerConfig``: what MultiWorkerMirroredStrategy makes of TF_CONFIG.

``tf.distribute.MultiWorkerMirroredStrategy`` (TensorFlow 2.15 and 2.21,
``tensorflow/python/distribute/collective_all_reduce_strategy.py``) reads the
cluster and task through ``TFConfigClusterResolver``.  With no cluster it runs
on one worker; with a cluster it checks the task with ``multi_worker_util``
and derives how many workers train, this worker's id, whether it is the chief,
and the leaders of its collective ops and coordination service.  The strategy
starts a server when it is built, so :class:`MultiWorkerConfig` reproduces
the checks and values without building one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from pydantic import (
    computed_field,
)

from estconf._errors import fail
from estconf.cluster import ClusterSpec
from estconf.distribute import _hints
from estconf.distribute._cluster_rules import (
    check_index_not_negative,
    check_own_task_not_a_hole,
    leader_task,
    num_tasks,
    validate_cluster_spec,
)
from estconf.distribute._strategy import StrategyConfig
from estconf.tf_config import TaskType, TFConfig

__all__ = ["SINGLE_WORKER_DEVICE", "MultiWorkerConfig"]

SINGLE_WORKER_DEVICE: Final = "/job:localhost/replica:0/task:0/device:CPU:0"
"""``device_util.canonicalize("/device:CPU:0")``: the worker device with no cluster."""

_WORKERS: Final = (TaskType.CHIEF, TaskType.WORKER, TaskType.EVALUATOR)
"""The task types ``multi_worker_util.id_in_cluster`` gives an id."""

_COORDINATED: Final = (TaskType.CHIEF, TaskType.WORKER)
"""The task types for which the strategy configures the coordination service."""


@dataclass(frozen=True)
class _MultiWorker:
    """Everything the strategy derives, computed together by :func:`_derive`."""

    multi_worker: bool
    cluster_spec: ClusterSpec | None
    task_type: str | None
    task_id: int | None
    num_workers: int
    id_in_cluster: int
    is_chief: bool
    collective_leader: str
    coordination_leader: str
    worker_device: str


_SINGLE_WORKER: Final = _MultiWorker(
    multi_worker=False,
    cluster_spec=None,
    task_type=None,
    task_id=None,
    num_workers=1,
    id_in_cluster=0,
    is_chief=True,
    collective_leader="",
    coordination_leader="",
    worker_device=SINGLE_WORKER_DEVICE,
)


def _derive(tf_config: TFConfig, title: str) -> _MultiWorker:
    """Check ``tf_config`` as the strategy's constructor does, in its order, and derive.

    Mirrors ``CollectiveAllReduceExtended._initialize_strategy``, then
    ``_initialize_local`` or ``_initialize_multi_worker`` with the
    ``multi_worker_util`` functions it calls: ``id_in_cluster``,
    ``worker_count``, ``is_chief``, ``collective_leader``,
    ``coordination_leader``.

    Raises:
        pydantic.ValidationError: the first rule the TF_CONFIG breaks.
    """
    cluster = tf_config.cluster
    if not cluster:
        return _SINGLE_WORKER
    task_type, task_id = tf_config.task.type, tf_config.task.index
    if task_type is None or task_id is None:
        raise fail(
            title,
            "missing_task",
            "When `cluster_spec` is given, you must also specify `task_type` and `task_id`.",
            ("task", "type" if task_type is None else "index"),
            None,
            {"hint": _hints.missing_task(cluster, task_type)},
        )
    validate_cluster_spec(cluster, task_type, task_id, title)
    if task_type not in _WORKERS:
        raise fail(
            title,
            "no_id_for_task_type",
            "There is no id for task_type {task_type}",
            ("task", "type"),
            task_type,
            {"task_type": repr(task_type), "hint": _hints.no_id_for_task_type(task_type)},
        )
    if task_id < 0:
        # worker_count checks the cluster again as task 0, which fails only when
        # this task's own job has no task: an index below 0 passed the first check.
        validate_cluster_spec(cluster, task_type, 0, title)
    if task_type == TaskType.EVALUATOR and TaskType.EVALUATOR not in cluster.root:
        raise fail(
            title,
            "missing_evaluator_job",
            "MultiWorkerMirroredStrategy counts the workers of an evaluator in the "
            "cluster's 'evaluator' job, and this cluster has none (TensorFlow fails with "
            "KeyError: 'evaluator')",
            ("task", "type"),
            task_type,
            {"hint": 'add the evaluator to the cluster, as a job "evaluator" of one task'},
        )
    check_index_not_negative(task_id, title)
    check_own_task_not_a_hole(cluster, task_type, task_id, title)
    chiefs = num_tasks(cluster, TaskType.CHIEF)
    if task_type == TaskType.EVALUATOR:
        num_workers, id_in_cluster = num_tasks(cluster, TaskType.EVALUATOR), task_id
        collective_leader = ""
    else:
        num_workers = chiefs + num_tasks(cluster, TaskType.WORKER)
        id_in_cluster = 0 if task_type == TaskType.CHIEF else task_id + chiefs
        collective_leader = leader_task(TaskType.CHIEF if chiefs else TaskType.WORKER)
    coordination_leader = ""
    if task_type in _COORDINATED:
        leader = next(
            job for job in (TaskType.PS, TaskType.CHIEF, TaskType.WORKER) if job in cluster.root
        )
        coordination_leader = leader_task(leader)
    return _MultiWorker(
        multi_worker=True,
        cluster_spec=cluster,
        task_type=task_type,
        task_id=task_id,
        num_workers=num_workers,
        id_in_cluster=id_in_cluster,
        is_chief=task_type in (TaskType.CHIEF, TaskType.EVALUATOR)
        or (task_type == TaskType.WORKER and not chiefs and task_id == 0),
        collective_leader=collective_leader,
        coordination_leader=coordination_leader,
        worker_device=f"/job:{task_type}/task:{task_id}",
    )


class MultiWorkerConfig(StrategyConfig[_MultiWorker]):
    """What ``tf.distribute.MultiWorkerMirroredStrategy`` derives from ``TF_CONFIG``.

    A TF_CONFIG without a cluster means single-worker mode, where the task is
    not read.  With a cluster, the task must be a ``chief``, ``worker`` or
    ``evaluator`` of it (an evaluator needs an ``evaluator`` job), and the
    cluster may hold only those jobs and ``ps``.

    Example:
        >>> config = MultiWorkerConfig(
        ...     tf_config={
        ...         "cluster": {"worker": ["host0:2222", "host1:2222", "host2:2222"]},
        ...         "task": {"type": "worker", "index": 1},
        ...     }
        ... )
        >>> config.num_workers, config.id_in_cluster, config.is_chief
        (3, 1, False)
        >>> config.collective_leader
        '/job:worker/replica:0/task:0'
        >>> config.worker_device
        '/job:worker/task:1'
    """

    @classmethod
    def derive(cls, tf_config: TFConfig) -> _MultiWorker:
        """Check ``tf_config`` as the strategy's constructor does, in its order, and derive.

        See :func:`_derive`.

        Raises:
            pydantic.ValidationError: the first rule the TF_CONFIG breaks.
        """
        return _derive(tf_config, cls.__name__)

    @computed_field(description="The cluster; null in single-worker mode.")  # type: ignore[prop-decorator]
    @property
    def cluster_spec(self) -> ClusterSpec | None:
        """The cluster the strategy trains on; ``None`` in single-worker mode, as in TensorFlow."""
        return self._derived.cluster_spec

    @computed_field(description="This task's type; null in single-worker mode.")  # type: ignore[prop-decorator]
    @property
    def task_type(self) -> str | None:
        """This task's type: ``chief``, ``worker`` or ``evaluator``; ``None`` with no cluster."""
        return self._derived.task_type

    @computed_field(description="This task's index; null in single-worker mode.")  # type: ignore[prop-decorator]
    @property
    def task_id(self) -> int | None:
        """This task's index within its job; ``None`` with no cluster."""
        return self._derived.task_id

    @computed_field(description="TF_CONFIG's `rpc_layer`.")  # type: ignore[prop-decorator]
    @property
    def rpc_layer(self) -> str | None:
        """The RPC layer of the server the strategy starts (``None`` means gRPC)."""
        return self.tf_config.rpc_layer

    @computed_field(description="Whether the strategy runs with a cluster.")  # type: ignore[prop-decorator]
    @property
    def multi_worker(self) -> bool:
        """Whether TF_CONFIG has a cluster, so that the strategy initializes for several workers.

        This is which initialization TensorFlow runs, not its
        ``_in_multi_worker_mode()``, which is ``num_workers > 1``.
        """
        return self._derived.multi_worker

    @computed_field(description="How many workers train: chief and workers (evaluator: its job).")  # type: ignore[prop-decorator]
    @property
    def num_workers(self) -> int:
        """How many workers train together: the chief and worker tasks, 1 with no cluster.

        For an evaluator, the size of the ``evaluator`` job.
        """
        return self._derived.num_workers

    @computed_field(description="This worker's id among the workers.")  # type: ignore[prop-decorator]
    @property
    def id_in_cluster(self) -> int:
        """This worker's id: chief 0, worker its index after the chief, evaluator its index."""
        return self._derived.id_in_cluster

    @computed_field(description="Whether this task saves checkpoints and summaries.")  # type: ignore[prop-decorator]
    @property
    def is_chief(self) -> bool:
        """Whether this task is the chief: chief, evaluator, or worker 0 when there is no chief."""
        return self._derived.is_chief

    @computed_field(description="The task leading collective ops; '' for none.")  # type: ignore[prop-decorator]
    @property
    def collective_leader(self) -> str:
        """Task 0 of ``chief`` if there is one, else of ``worker``; ``''`` for an evaluator."""
        return self._derived.collective_leader

    @computed_field(description="The task leading the coordination service; '' for none.")  # type: ignore[prop-decorator]
    @property
    def coordination_leader(self) -> str:
        """Task 0 of ``ps``, else ``chief``, else ``worker``, for a chief or worker; else ``''``.

        The strategy configures the coordination service only for chief and
        worker tasks.
        """
        return self._derived.coordination_leader

    @computed_field(description="The device of this worker.")  # type: ignore[prop-decorator]
    @property
    def worker_device(self) -> str:
        """``/job:<type>/task:<index>``; the local CPU in single-worker mode."""
        return self._derived.worker_device
