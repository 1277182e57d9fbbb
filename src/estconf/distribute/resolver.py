"""``estconf.distribute.TFConfigClusterResolver``: how tf.distribute finds its cluster and task.

Every tf.distribute strategy reads ``TF_CONFIG`` through
``tf.distribute.cluster_resolver.TFConfigClusterResolver`` (TensorFlow 2.15 and 2.21,
``tensorflow/python/distribute/cluster_resolver/tfconfig_cluster_resolver.py``).
The resolver checks nothing: it hands out the cluster, the task type and index,
the RPC layer and, for TensorFlow 1 sessions, the master.  The model here
gives the same values for the same ``TF_CONFIG`` without reading the process
environment, unless built with :meth:`TFConfigClusterResolver.from_env`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from typing_extensions import Self

from estconf._errors import fail
from estconf._types import String, TaskIndex
from estconf.cluster import ClusterSpec
from estconf.distribute import _hints
from estconf.distribute._cluster_rules import check_index_not_negative
from estconf.distribute._reading import ReaderTFConfig, tf_config_from_env
from estconf.tf_config import TFConfig

__all__ = ["TFConfigClusterResolver"]


_FROM_TF_CONFIG: Final[dict[str, Callable[[TFConfig], Any]]] = {
    "task_type": attrgetter("task.type"),
    "task_id": attrgetter("task.index"),
    "rpc_layer": attrgetter("rpc_layer"),
}
"""Where in ``TF_CONFIG`` each argument left out is read from."""


class TFConfigClusterResolver(BaseModel):
    """The cluster and task TensorFlow's ``TFConfigClusterResolver`` reads from ``TF_CONFIG``.

    The constructor takes TensorFlow's arguments, which override what
    ``TF_CONFIG`` says, plus ``tf_config`` standing for the variable.  The
    ``task_type``, ``task_id`` and ``rpc_layer`` fields hold the resolved
    values: the argument if given, else ``TF_CONFIG``'s.

    Example:
        >>> resolver = TFConfigClusterResolver(
        ...     tf_config={
        ...         "cluster": {"worker": ["host0:2222", "host1:2222"]},
        ...         "task": {"type": "worker", "index": 1},
        ...         "rpc_layer": "grpc",
        ...     }
        ... )
        >>> resolver.task_type, resolver.task_id
        ('worker', 1)
        >>> resolver.master()
        'grpc://host1:2222'
        >>> resolver.master("worker", 0, rpc_layer="")
        'host0:2222'
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    # ``tf_config`` comes first: the other fields fall back on it.  Every input,
    # a document too, goes through ``__init__``, which passes each argument, so
    # ``from_tf_config`` sees the ones left out.
    tf_config: ReaderTFConfig = Field(
        default_factory=TFConfig, description="The TF_CONFIG the resolver reads."
    )
    task_type: String | None = Field(
        None,
        description="This task's type: the argument as a string, else TF_CONFIG's `task.type`.",
    )
    task_id: TaskIndex | None = Field(
        None,
        description="This task's index: the argument, else TF_CONFIG's `task.index`.",
    )
    rpc_layer: String | None = Field(
        None,
        description="The RPC layer (`grpc`, ...): the argument, else TF_CONFIG's `rpc_layer`.",
    )
    environment: String | None = Field(
        None, description="The environment TensorFlow runs in: the argument only."
    )

    def __init__(
        self,
        task_type: object = None,
        task_id: int | str | None = None,
        rpc_layer: str | None = None,
        environment: str | None = None,
        *,
        tf_config: TFConfig | Mapping[str, Any] | None = None,
    ) -> None:
        """Build the resolver from TensorFlow's arguments and a ``TF_CONFIG`` (never the env).

        Raises:
            pydantic.ValidationError: an argument or ``tf_config`` is invalid.
        """
        super().__init__(
            tf_config=tf_config,
            task_type=task_type,
            task_id=task_id,
            rpc_layer=rpc_layer,
            environment=environment,
        )

    @field_validator("tf_config")
    @classmethod
    def negative_index(cls, tf_config: TFConfig) -> TFConfig:
        """``TF_CONFIG``'s task index is not negative (stricter than TensorFlow, on purpose)."""
        check_index_not_negative(tf_config.task.index, cls.__name__)
        return tf_config

    @field_validator("task_type", mode="before")
    @classmethod
    def task_type_as_str(cls, task_type: object) -> object:
        """A ``task_type`` argument is read with ``str()`` as TensorFlow does: ``5`` is ``'5'``.

        TensorFlow keeps ``rpc_layer`` and ``environment`` as given; those
        must be strings (stricter than TensorFlow, on purpose).
        """
        return task_type if task_type is None else str(task_type)

    @field_validator(*_FROM_TF_CONFIG)
    @classmethod
    def from_tf_config(cls, value: Any, info: ValidationInfo) -> Any:
        """An argument left out (``None``) takes its value from ``TF_CONFIG``."""
        tf_config = info.data.get("tf_config")
        if value is not None or tf_config is None:
            return value
        return _FROM_TF_CONFIG[info.field_name or ""](tf_config)

    @field_validator("task_id")
    @classmethod
    def task_id_not_negative(cls, task_id: int | None) -> int | None:
        """A ``task_id`` argument is not negative (stricter than TensorFlow, on purpose)."""
        hint = _hints.negative_index("task_id")
        check_index_not_negative(task_id, cls.__name__, loc=(), hint=hint)
        return task_id

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **kwargs: Any) -> Self:
        """Read ``TF_CONFIG`` from ``environ`` (``os.environ`` by default), as TensorFlow does.

        ``kwargs`` are the constructor's arguments (``task_type``, ``task_id``,
        ``rpc_layer``, ``environment``).

        Raises:
            pydantic.ValidationError: ``TF_CONFIG`` or an argument is invalid.
        """
        if "tf_config" in kwargs:
            raise TypeError("from_env reads tf_config from the environment; pass environ")
        return cls(tf_config=tf_config_from_env(environ), **kwargs)

    def cluster_spec(self) -> ClusterSpec:
        """Return the cluster of ``TF_CONFIG`` (empty when it has none)."""
        return self.tf_config.cluster

    def master(
        self,
        task_type: str | None = None,
        task_id: int | None = None,
        rpc_layer: str | None = None,
    ) -> str:
        """Return the session master of a task, as ``TFConfigClusterResolver.master``.

        ``TF_CONFIG``'s ``session_master`` if set; ``''`` for a cluster with no
        job, or with one job of one task (``len(job_tasks)``, holes counted);
        else the task's address, after ``<rpc_layer>://`` when there is an RPC
        layer.  Arguments left out take the resolver's own values.

        Raises:
            pydantic.ValidationError: the task is not in the cluster (TensorFlow's
                ``No such job in cluster`` / ``No task with index``).
        """
        if self.tf_config.session_master is not None:
            return self.tf_config.session_master
        cluster = self.tf_config.cluster
        jobs = cluster.jobs
        if not jobs or (len(jobs) == 1 and cluster.job_size(jobs[0]) == 1):
            return ""
        task_type = self.task_type if task_type is None else task_type
        task_id = self.task_id if task_id is None else task_id
        rpc_layer = self.rpc_layer if rpc_layer is None else rpc_layer
        try:
            address = cluster.task_address(task_type, task_id)  # type: ignore[arg-type]
        except ValueError as exc:
            raise fail(
                type(self).__name__,
                "task_not_in_cluster",
                "{reason}",
                ("tf_config", "cluster"),
                {"task_type": task_type, "task_id": task_id},
                {
                    "reason": str(exc),
                    "hint": _hints.task_not_in_cluster(task_type, task_id, cluster, "master()"),
                },
            ) from None
        return f"{rpc_layer}://{address}" if rpc_layer else address
