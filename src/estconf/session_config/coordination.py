"""``CoordinationServiceConfig``: the service that coordinates the tasks of a cluster."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from estconf.session_config._message import Message
from estconf.session_config._values import Int32, Int64, ProtoBool, ProtoString, Repeated

__all__ = ["CoordinatedJob", "CoordinationServiceConfig"]


class CoordinatedJob(Message):
    """``tensorflow.CoordinatedJob``: a job taking part in the coordination service."""

    proto_name: ClassVar[str] = "tensorflow.CoordinatedJob"

    name: ProtoString | None = Field(None, description="Name of the job.")
    num_tasks: Int32 | None = Field(None, description="Number of tasks of the job.")


class CoordinationServiceConfig(Message):
    """``tensorflow.CoordinationServiceConfig``: the service that coordinates the tasks."""

    proto_name: ClassVar[str] = "tensorflow.CoordinationServiceConfig"

    service_type: ProtoString | None = Field(
        None, description="Type of the service, e.g. `standalone`; empty turns it off."
    )
    service_leader: ProtoString | None = Field(
        None,
        description="Task that runs the service, e.g. `/job:worker/replica:0/task:0` "
        "(empty: the first task of the cluster).",
    )
    enable_health_check: ProtoBool | None = Field(
        None, description="Check the health of the tasks when they connect."
    )
    cluster_register_timeout_in_ms: Int64 | None = Field(
        None,
        description="How long to wait in milliseconds for all tasks to register (0: wait forever).",
    )
    heartbeat_timeout_in_ms: Int64 | None = Field(
        None,
        description="A task missing heartbeats for this many milliseconds is considered "
        "failed (0: the default).",
    )
    coordinated_job_list: Repeated[CoordinatedJob] | None = Field(
        None, description="Jobs whose tasks take part (empty: all jobs)."
    )
    shutdown_barrier_timeout_in_ms: Int64 | None = Field(
        None,
        description="How long to wait in milliseconds for all tasks to reach the shutdown barrier.",
    )
    agent_destruction_without_shutdown: ProtoBool | None = Field(
        None, description="Let a task's coordination agent be destroyed without a shutdown call."
    )
    recoverable_jobs: Repeated[ProtoString] | None = Field(
        None, description="Jobs whose tasks may fail and reconnect without failing the cluster."
    )
    allow_new_incarnation_to_reconnect: ProtoBool | None = Field(
        None, description="Let a restarted task reconnect (the service must not be restarted)."
    )
    force_disable: ProtoBool | None = Field(
        None, description="Turn the service off even where the runtime would turn it on."
    )
