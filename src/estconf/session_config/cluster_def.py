"""``ClusterDef``: the cluster a session runs in, job by job."""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar

from pydantic import Field, WithJsonSchema, field_validator

from estconf._errors import custom_error
from estconf.session_config._message import Message
from estconf.session_config._values import Int32Key, Map, ProtoString, Repeated

__all__ = ["ClusterDef", "JobDef"]


TaskAddresses = Annotated[
    Map[Int32Key, ProtoString],
    WithJsonSchema(
        {
            "type": "object",
            "propertyNames": {"pattern": "^-?[0-9]+$"},
            "additionalProperties": {"type": "string"},
        }
    ),
]
"""Task addresses by task index: JSON object keys are strings of digits."""


class JobDef(Message):
    """``tensorflow.JobDef``: one job of a cluster."""

    proto_name: ClassVar[str] = "tensorflow.JobDef"

    name: ProtoString | None = Field(None, description="Name of the job, e.g. `worker`.")
    tasks: TaskAddresses | None = Field(
        None, description='Addresses of the tasks (`"host:port"`), by task index.'
    )

    @field_validator("tasks", mode="before")
    @classmethod
    def _distinct_indices(cls, value: Any) -> Any:
        if isinstance(value, dict):
            seen: dict[Any, Any] = {}
            for key in value:
                index = _index_of(key)
                if index is not None and index in seen:
                    raise custom_error(
                        "duplicate_key",
                        "Task index {index} is given twice, as {first} and {second}",
                        {"index": index, "first": repr(seen[index]), "second": repr(key)},
                    )
                seen[index] = key
        return value


_INDEX = re.compile(r"-?[0-9]{1,20}")


def _index_of(key: Any) -> int | None:
    """The task index a map key stands for, or None when it is not one (then it is refused)."""
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return key
    if isinstance(key, str) and _INDEX.fullmatch(key):
        return int(key)
    if isinstance(key, float) and key.is_integer():
        return int(key)
    return None


class ClusterDef(Message):
    """``tensorflow.ClusterDef``: the jobs and tasks of a cluster."""

    proto_name: ClassVar[str] = "tensorflow.ClusterDef"

    job: Repeated[JobDef] | None = Field(None, description="The jobs of the cluster.")
