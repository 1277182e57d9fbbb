"""The ``session_config`` field of the RunConfig models, built on first use.

``ConfigProto`` and the messages it holds are many models; building them
costs more than every other model of ``RunConfig`` together, and most
configs never set a session config.  :data:`LazySessionConfig` validates,
dumps and describes exactly as ``estconf.session_config.SessionConfig``
does, but imports and builds it only when a value other than ``None``
arrives or a JSON Schema is asked for.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Annotated, Any

from estconf._on_first_use import OnFirstUse
from estconf.tf_config import TaskType

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from estconf.cluster import ClusterSpec
    from estconf.session_config import ConfigProto

__all__ = [
    "LazySessionConfig",
    "between_graph_session_config",
    "cluster_session_config",
    "config_proto_from_proto",
    "session_config_adapter",
]


def session_config_adapter() -> TypeAdapter[ConfigProto | None]:
    """The validator of a ``session_config`` argument, built on first call."""
    return _SESSION_CONFIG.adapter()


@functools.lru_cache(maxsize=256)
def between_graph_session_config(task_type: str, task_id: int) -> ConfigProto | None:
    """The estimator's default for between-graph training (shared: models are frozen).

    Its device filters depend on the task type; a type the estimator does not
    know has no default.
    """
    from estconf.session_config import default_distributed_session_config

    filters = _device_filters(task_type, task_id)
    return None if filters is None else default_distributed_session_config(filters)


def _device_filters(task_type: str, task_id: int) -> tuple[str, ...] | None:
    if task_type == TaskType.MASTER:
        return ("/job:ps", "/job:master")
    if task_type == TaskType.CHIEF:
        return ("/job:ps", "/job:chief")
    if task_type == TaskType.WORKER:
        return ("/job:ps", f"/job:worker/task:{task_id}")
    if task_type == TaskType.PS:
        return ("/job:ps", "/job:worker", "/job:chief", "/job:master")
    return None


def cluster_session_config(given: ConfigProto | None, cluster: ClusterSpec) -> ConfigProto:
    """The session config of a TPU RunConfig built with a cluster resolver.

    The given one, or soft placement with isolated session state; with the
    resolver's cluster as its ``cluster_def`` (jobs sorted by name) unless
    that cluster is empty.  ``given`` must have no ``cluster_def`` of its own.
    """
    from estconf.session_config import ClusterDef, ConfigProto, JobDef

    config = (
        given
        if given is not None
        else ConfigProto(allow_soft_placement=True, isolate_session_state=True)
    )
    if not cluster:
        return config
    jobs = [
        JobDef(
            name=job,
            tasks={index: cluster.task_address(job, index) for index in cluster.task_indices(job)},
        )
        for job in sorted(cluster.jobs)
    ]
    return config.model_copy(update={"cluster_def": ClusterDef(job=jobs)})


def config_proto_from_proto(message: Any) -> ConfigProto:
    """Read a real ``ConfigProto`` message (needs ``protobuf``)."""
    from estconf.session_config import ConfigProto

    return ConfigProto.from_proto(message)


def _session_config_type() -> Any:
    from estconf.session_config import SessionConfig

    return SessionConfig


_SESSION_CONFIG = OnFirstUse(_session_config_type, ref="estconf.session_config.SessionConfig")


if TYPE_CHECKING:
    LazySessionConfig = ConfigProto | None
else:
    LazySessionConfig = Annotated[Any, _SESSION_CONFIG]
    """A ``session_config`` argument, as ``SessionConfig``, its models built on first use."""
