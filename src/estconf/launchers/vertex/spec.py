"""A Vertex AI CustomJob spec, as `gcloud ai custom-jobs create --config` and the API take it.

The file holds a ``CustomJobSpec`` (``workerPoolSpecs``, ...), or a whole
``CustomJob`` whose ``jobSpec`` holds it; keys are camelCase (REST, gcloud)
or snake_case (the Python client), and ``replicaCount``, an ``int64``, is a
number or a string of digits, as protobuf's JSON mapping reads it.  Up to
four worker pools, each with its role by position
(https://cloud.google.com/vertex-ai/docs/training/distributed-training):

====  ==========  ==================================================
pool  task type   role
====  ==========  ==================================================
0     chief       the primary replica: exactly one
1     worker      workers
2     ps          parameter servers, or Vertex AI's Reduction Server
3     evaluator   evaluators
====  ==========  ==================================================

An unused pool is written ``{}``.  Pool 2 runs the Reduction Server when
its container image is Vertex AI's reduction server
(``us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver:latest``,
from any registry host, with any tag or digest): its replicas run no
TensorFlow (:attr:`CustomJobSpec.reduction_server_replicas`).  Only what
decides each replica's ``TF_CONFIG`` is modelled; the other fields of a
pool (``machineSpec``, ``containerSpec``, ``pythonPackageSpec``,
``diskSpec``, ...) and of the job are kept as written.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Final, NamedTuple

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    field_validator,
    model_validator,
)
from typing_extensions import Self

from estconf._errors import custom_error, fail

__all__ = [
    "MAX_POOLS",
    "POOL_TASK_TYPES",
    "REDUCTION_SERVER_POOL",
    "CustomJobSpec",
    "SpecKeys",
    "WorkerPoolSpec",
    "image_uri_at",
    "is_reduction_server_image",
    "spec_keys",
]

POOL_TASK_TYPES: Final = ("chief", "worker", "ps", "evaluator")
"""The task type of each worker pool's replicas in ``TF_CONFIG``, by the pool's position."""
MAX_POOLS: Final = len(POOL_TASK_TYPES)
MAX_REPLICAS: Final = 100_000
"""The most replicas a pool may have here: more than any job Vertex AI runs."""
REDUCTION_SERVER_POOL: Final = 2
"""The pool of Vertex AI's Reduction Server, when its container image is the reduction server's."""
_REDUCTION_SERVER_IMAGE: Final = re.compile(
    r"(?:[a-z0-9.-]+(?::[0-9]+)?/)?vertex-ai-restricted/training/reductionserver"
    r"(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@[a-z0-9]+(?:[+._-][a-z0-9]+)*:[0-9a-fA-F]{32,})?"
)
"""Vertex AI's reduction server image (``us-docker.pkg.dev/vertex-ai-restricted/training/
reductionserver:latest``), from any registry host, with any tag or digest."""


def is_reduction_server_image(image_uri: object) -> bool:
    """Whether ``image_uri`` names Vertex AI's reduction server image, whatever its host and tag.

    Example:
        >>> is_reduction_server_image(
        ...     "us-docker.pkg.dev/vertex-ai-restricted/training/reductionserver:latest")
        True
        >>> is_reduction_server_image("us-docker.pkg.dev/my-project/training/mnist:latest")
        False
    """
    return isinstance(image_uri, str) and _REDUCTION_SERVER_IMAGE.fullmatch(image_uri) is not None


class SpecKeys(NamedTuple):
    """The keys a spec file writes its pools and their replica counts with."""

    prefix: tuple[str, ...]
    """``("jobSpec",)`` for a whole CustomJob, else ``()``."""
    pools: str
    """``workerPoolSpecs`` or ``worker_pool_specs``."""
    counts: list[str]
    """Each pool's ``replicaCount`` or ``replica_count``, as the pool writes it."""

    def replica_count_at(self, pool: int) -> tuple[str | int, ...]:
        """Where pool ``pool``'s replica count is in the file."""
        name = self.counts[pool] if pool < len(self.counts) else "replicaCount"
        return (*self.prefix, self.pools, pool, name)


def spec_keys(data: Any) -> SpecKeys | None:
    """The keys ``data`` names its pools with; ``None`` when it has no pools to name."""
    prefix: tuple[str, ...] = ()
    if isinstance(data, dict) and not {"workerPoolSpecs", "worker_pool_specs"} & data.keys():
        for key in ("jobSpec", "job_spec"):
            if isinstance(data.get(key), dict):
                prefix, data = (key,), data[key]
                break
    if not isinstance(data, dict):
        return None
    pools = "worker_pool_specs" if "worker_pool_specs" in data else "workerPoolSpecs"
    listed = data.get(pools)
    counts = [
        "replica_count" if isinstance(pool, dict) and "replica_count" in pool else "replicaCount"
        for pool in (listed if isinstance(listed, list) else [])
    ]
    return SpecKeys(prefix, pools, counts)


def image_uri_at(data: Any, pool: int) -> tuple[str | int, ...]:
    """Where pool ``pool``'s container image is in the file, as the file writes its keys.

    camelCase where the file writes both spellings, as :attr:`WorkerPoolSpec.image_uri` reads it.
    """
    keys = spec_keys(data) or SpecKeys((), "workerPoolSpecs", [])
    for key in keys.prefix:
        data = data[key]
    listed = data.get(keys.pools) if isinstance(data, dict) else None
    spec = listed[pool] if isinstance(listed, list) and pool < len(listed) else None
    spec = spec if isinstance(spec, dict) else {}
    container = next((k for k in _CONTAINER_KEYS if k in spec), _CONTAINER_KEYS[0])
    held = spec.get(container)
    held = held if isinstance(held, dict) else {}
    image = next((k for k in _IMAGE_KEYS if k in held), _IMAGE_KEYS[0])
    return (*keys.prefix, keys.pools, pool, container, image)


_CONTAINER_KEYS: Final = ("containerSpec", "container_spec")
_IMAGE_KEYS: Final = ("imageUri", "image_uri")


def _replica_count(value: Any) -> Any:
    """``replicaCount`` as protobuf's JSON mapping reads an ``int64``: a number or its digits."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise custom_error(
            "vertex_replica_count",
            'replicaCount is a whole number of replicas (written 2 or "2"), not {value}',
            {"value": repr(value)},
        )
    if isinstance(value, str):
        if not (value.isascii() and value.isdigit()):
            raise custom_error(
                "vertex_replica_count",
                "replicaCount is a whole number of replicas, 0 or more; {value} is not one",
                {"value": repr(value)},
            )
        value = int(value)
    if not 0 <= value <= MAX_REPLICAS:
        raise custom_error(
            "vertex_replica_count",
            "replicaCount is {value}: a pool has from 0 to {most} replicas",
            {"value": value, "most": f"{MAX_REPLICAS:,}"},
        )
    return value


ReplicaCount = Annotated[int, Field(ge=0)]


class WorkerPoolSpec(BaseModel):
    """One worker pool: how many replicas it runs; its other fields kept as written."""

    model_config = ConfigDict(frozen=True, extra="allow", populate_by_name=True)

    replica_count: ReplicaCount | None = Field(
        None,
        validation_alias=AliasChoices("replicaCount", "replica_count"),
        description="The pool's replicas (replicaCount, an int64: a number or a string).",
    )

    @field_validator("replica_count", mode="before")
    @classmethod
    def replica_count_is_an_int64(cls, value: Any) -> Any:
        """A number or a string of digits, as the API's JSON reads ``int64``."""
        return None if value is None else _replica_count(value)

    @property
    def unused(self) -> bool:
        """Whether the pool is ``{}``: no field at all."""
        return self.replica_count is None and not self.model_extra

    @property
    def replicas(self) -> int:
        """The pool's number of replicas: 0 for an unused pool."""
        return self.replica_count or 0

    @property
    def image_uri(self) -> str | None:
        """The pool's container image (``containerSpec.imageUri``), if it has one as text."""
        extra = self.model_extra or {}
        container = next((extra[k] for k in _CONTAINER_KEYS if k in extra), None)
        if not isinstance(container, dict):
            return None
        image = next((container[k] for k in _IMAGE_KEYS if k in container), None)
        return image if isinstance(image, str) else None

    @property
    def runs_reduction_server(self) -> bool:
        """Whether the pool's container image is Vertex AI's reduction server."""
        return is_reduction_server_image(self.image_uri)


class CustomJobSpec(BaseModel):
    """The worker pools of a Vertex AI CustomJob, as a spec file gives them.

    Example:
        >>> spec = CustomJobSpec.model_validate({"workerPoolSpecs": [
        ...     {"machineSpec": {"machineType": "n1-standard-4"}, "replicaCount": 1},
        ...     {"machineSpec": {"machineType": "n1-standard-4"}, "replicaCount": "2"}]})
        >>> [pool.replicas for pool in spec.worker_pool_specs]
        [1, 2]
    """

    model_config = ConfigDict(frozen=True, extra="allow", populate_by_name=True)

    worker_pool_specs: list[WorkerPoolSpec] = Field(
        validation_alias=AliasChoices("workerPoolSpecs", "worker_pool_specs"),
        description="The worker pools, by position: primary (chief), workers, ps, evaluators.",
    )

    @model_validator(mode="before")
    @classmethod
    def job_spec_of_a_custom_job(cls, data: Any) -> Any:
        """A whole ``CustomJob`` (``displayName``, ``jobSpec``) is read as its ``jobSpec``."""
        keys = spec_keys(data)
        if keys is not None and keys.prefix:
            return data[keys.prefix[0]]
        return data

    @field_validator("worker_pool_specs")
    @classmethod
    def one_to_four_pools(cls, pools: list[WorkerPoolSpec]) -> list[WorkerPoolSpec]:
        """From one to four pools: the primary first, then workers, ps and evaluators."""
        if not 1 <= len(pools) <= MAX_POOLS:
            raise custom_error(
                "vertex_pools",
                "a CustomJob has from 1 to {most} worker pools (primary, workers, parameter "
                "servers, evaluators), not {count}",
                {"most": MAX_POOLS, "count": len(pools)},
            )
        return pools

    @model_validator(mode="wrap")
    @classmethod
    def one_primary_replica(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        """Pool 0 runs exactly one replica, the primary (chief), at its ``replicaCount``."""
        spec = handler(data)
        primary = spec.worker_pool_specs[0]
        if primary.replica_count != 1:
            keys = spec_keys(data)
            loc = keys.replica_count_at(0) if keys else ("workerPoolSpecs", 0, "replicaCount")
            raise fail(
                "CustomJobSpec",
                "vertex_primary_replicas",
                "workerPoolSpecs[0] is the primary replica, the chief: its replicaCount must be "
                "1, not {count} (put the workers in workerPoolSpecs[1])",
                loc,
                primary.replica_count,
                {"count": "absent" if primary.replica_count is None else primary.replicas},
            )
        return spec

    @property
    def reduction_server_replicas(self) -> int:
        """The replicas of pool 2 when its image is Vertex AI's reduction server, else 0.

        They run the Reduction Server (gradients summed for the workers' NCCL
        all-reduce), no TensorFlow program and no parameter server.
        """
        pools = self.worker_pool_specs
        if len(pools) <= REDUCTION_SERVER_POOL:
            return 0
        pool = pools[REDUCTION_SERVER_POOL]
        return pool.replicas if pool.runs_reduction_server else 0

    def replica_counts(self) -> dict[str, int]:
        """Each task type's number of replicas, pools beyond the spec's counted 0."""
        pools = list(self.worker_pool_specs) + [WorkerPoolSpec()] * MAX_POOLS
        return {job: pools[index].replicas for index, job in enumerate(POOL_TASK_TYPES)}
