"""``estconf.distribute.ParameterServerConfig``: what ParameterServerStrategy checks and sets up.

``tf.distribute.ParameterServerStrategy`` (the TF2 strategy, TensorFlow 2.15 and 2.21,
``tensorflow/python/distribute/parameter_server_strategy_v2.py``) runs on the
coordinator; workers and parameter servers only run servers.  Its constructor
checks the cluster (``_verify_args_and_config``) and connects to it
(``_connect_to_cluster``), giving every worker and parameter server device
filters.  :class:`ParameterServerConfig` reproduces those checks and values
without connecting to anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from pydantic import (
    computed_field,
)

from estconf._errors import fail
from estconf.cluster import ClusterSpec
from estconf.distribute import _hints
from estconf.distribute._cluster_rules import (
    check_index_not_negative,
    check_own_task_not_a_hole,
    num_tasks,
    validate_cluster_spec,
)
from estconf.distribute._strategy import StrategyConfig
from estconf.tf_config import TaskType, TFConfig

__all__ = ["COORDINATOR", "ParameterServerConfig", "Role"]

COORDINATOR: Final = "chief"
"""The job name the strategy connects to the cluster as (``coordinator_name``)."""

Role = Literal["coordinator", "worker", "ps", "evaluator"]
"""What a task does in parameter-server training."""


@dataclass(frozen=True)
class _ParameterServer:
    """Everything the strategy sets up, computed together by :func:`_derive`."""

    num_workers: int
    num_ps: int
    role: Role

    @property
    def device_filters(self) -> dict[str, list[str]]:
        """The filters ``_connect_to_cluster`` sets, built when asked for (one per task)."""
        filters: dict[str, list[str]] = {}
        for i in range(self.num_workers):
            filters[f"{TaskType.WORKER}:{i}"] = ["/job:ps", f"/job:{COORDINATOR}"]
        for i in range(self.num_ps):
            filters[f"{TaskType.PS}:{i}"] = ["/job:worker", f"/job:{COORDINATOR}"]
        return filters


def _derive(tf_config: TFConfig, title: str) -> _ParameterServer:
    """Check ``tf_config`` as the strategy's constructor does, in its order, and derive.

    Mirrors ``ParameterServerStrategyV2._verify_args_and_config`` (a non-empty
    cluster, ``multi_worker_util._validate_cluster_spec``, at least one ``ps``
    and one ``worker``), then ``_connect_to_cluster``.

    Raises:
        pydantic.ValidationError: the first rule the TF_CONFIG breaks.
    """
    cluster = tf_config.cluster
    if not cluster:
        raise fail(
            title,
            "empty_cluster",
            "Cluster spec must be non-empty in `tf.distribute.cluster_resolver.ClusterResolver`.",
            ("cluster",),
            cluster.as_dict(),
            {"hint": _hints.empty_cluster()},
        )
    task_type, task_id = tf_config.task.type, tf_config.task.index
    validate_cluster_spec(cluster, task_type, task_id, title)
    for job, sentence, hint in (
        (TaskType.PS, "at least one ps", _hints.missing_ps),
        (TaskType.WORKER, "at least one worker", _hints.missing_worker),
    ):
        if num_tasks(cluster, job) < 1:
            raise fail(
                title,
                f"missing_{job}",
                "There must be {sentence}.",
                ("cluster",),
                cluster.as_dict(),
                {"sentence": sentence, "hint": hint()},
            )
    check_index_not_negative(task_id, title)
    check_own_task_not_a_hole(cluster, task_type, task_id, title)
    num_workers = num_tasks(cluster, TaskType.WORKER)
    num_ps = num_tasks(cluster, TaskType.PS)
    role: Role
    if task_type in (TaskType.WORKER, TaskType.PS, TaskType.EVALUATOR):
        role = task_type  # type: ignore[assignment]
    else:
        role = "coordinator"
    return _ParameterServer(num_workers, num_ps, role)


class ParameterServerConfig(StrategyConfig[_ParameterServer]):
    """What ``tf.distribute.ParameterServerStrategy`` checks and sets up for ``TF_CONFIG``.

    The cluster must not be empty, may hold only ``chief``, ``worker``, ``ps``
    and ``evaluator`` jobs (at most one chief and one evaluator task), and
    needs at least one ``ps`` and one ``worker``.  The task may be left out:
    the coordinator need not be a task of the cluster.

    Examples:
        >>> config = ParameterServerConfig(
        ...     tf_config={
        ...         "cluster": {
        ...             "chief": ["host0:2222"],
        ...             "worker": ["host1:2222", "host2:2222"],
        ...             "ps": ["host3:2222"],
        ...         },
        ...         "task": {"type": "chief", "index": 0},
        ...     }
        ... )
        >>> config.role, config.num_workers, config.num_ps
        ('coordinator', 2, 1)
        >>> config.device_filters["ps:0"]
        ['/job:worker', '/job:chief']
    """

    @classmethod
    def derive(cls, tf_config: TFConfig) -> _ParameterServer:
        """Check ``tf_config`` as the strategy's constructor does, in its order, and derive.

        See :func:`_derive`.

        Raises:
            pydantic.ValidationError: the first rule the TF_CONFIG breaks.
        """
        return _derive(tf_config, cls.__name__)

    @computed_field(description="The cluster.")  # type: ignore[prop-decorator]
    @property
    def cluster_spec(self) -> ClusterSpec:
        """The cluster the coordinator connects to."""
        return self.tf_config.cluster

    @computed_field(description="This task's type; null for a coordinator outside the cluster.")  # type: ignore[prop-decorator]
    @property
    def task_type(self) -> str | None:
        """This task's type, ``None`` when TF_CONFIG names no task."""
        return self.tf_config.task.type

    @computed_field(description="This task's index; null when not given.")  # type: ignore[prop-decorator]
    @property
    def task_id(self) -> int | None:
        """This task's index, ``None`` when TF_CONFIG gives none."""
        return self.tf_config.task.index

    @computed_field(description="TF_CONFIG's `rpc_layer`.")  # type: ignore[prop-decorator]
    @property
    def rpc_layer(self) -> str | None:
        """The protocol the coordinator connects with (``None`` means gRPC)."""
        return self.tf_config.rpc_layer

    @computed_field(description="How many workers the cluster has.")  # type: ignore[prop-decorator]
    @property
    def num_workers(self) -> int:
        """The tasks of the ``worker`` job (holes of a sparse job not counted)."""
        return self._derived.num_workers

    @computed_field(description="How many parameter servers the cluster has.")  # type: ignore[prop-decorator]
    @property
    def num_ps(self) -> int:
        """The tasks of the ``ps`` job (holes of a sparse job not counted)."""
        return self._derived.num_ps

    @computed_field(description="What this task does: coordinator, worker, ps or evaluator.")  # type: ignore[prop-decorator]
    @property
    def role(self) -> Role:
        """``coordinator`` for the chief (or no task), else the task type.

        Only the coordinator builds the strategy; workers and parameter servers
        run a server, and the evaluator evaluates checkpoints on its own.
        """
        return self._derived.role

    @computed_field(description="Whether this task builds the strategy and drives training.")  # type: ignore[prop-decorator]
    @property
    def is_coordinator(self) -> bool:
        """Whether this task is the coordinator."""
        return self._derived.role == "coordinator"

    @computed_field(description='Device filters by "<job>:<index>", as the coordinator sets them.')  # type: ignore[prop-decorator]
    @property
    def device_filters(self) -> dict[str, list[str]]:
        """The devices each worker and parameter server sees, by ``"<job>:<index>"``.

        Worker ``i`` sees ``/job:ps`` and ``/job:chief``; ps ``i`` sees
        ``/job:worker`` and ``/job:chief``; ``i`` runs over ``range`` of the
        job's number of tasks, as TensorFlow counts them.
        """
        return self._derived.device_filters
