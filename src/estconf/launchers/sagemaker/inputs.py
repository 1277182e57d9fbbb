"""What a SageMaker training container is given: ``resourceconfig.json`` and the hyperparameters.

SageMaker writes ``/opt/ml/input/config/resourceconfig.json`` into every
container of a training job (its own host, every host, the instance groups)
and ``/opt/ml/input/config/hyperparameters.json`` (every value a string, the
``sagemaker_*`` keys among them).  The TensorFlow training toolkit
(``sagemaker-tensorflow-training`` on ``sagemaker-training``'s
``Environment``) reads both; the models here take them as written and read
them as the toolkit does:

- a ``resourceconfig.json`` without ``current_group_name`` is in the group
  ``homogeneousCluster``; without ``instance_groups`` (or with none) every
  host of ``hosts`` is a distribution host;
- each string value of the hyperparameters is decoded as JSON where it is JSON
  (``"true"`` is true, ``"false"`` false, ``"0"`` 0) and kept as text where
  it is not; a flag is on when that value is true for Python: ``"False"``,
  ``"True"`` and ``"no"`` stay text, so they turn the flag **on**, and ``""``
  turns it off (:meth:`Hyperparameters.flags_as_text` lists such flags).

:class:`InstanceGroupSpec` is the other shape of an instance group, the one a
job is asked for with (``CreateTrainingJob``'s ``InstanceGroups``, camelCase,
or the Python SDK's ``InstanceGroup``, snake_case), from which
:func:`estconf.sagemaker.resource_configs` writes each host's file.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    SerializerFunctionWrapHandler,
    StrictStr,
    field_validator,
    model_serializer,
    model_validator,
)

from estconf import _json
from estconf._errors import custom_error
from estconf._json import MAX_DEPTH, JSONInputError
from estconf._types import Integer

__all__ = [
    "HOMOGENEOUS_CLUSTER",
    "MODES",
    "Hyperparameters",
    "InstanceGroup",
    "InstanceGroupSpec",
    "ResourceConfig",
]

HOMOGENEOUS_CLUSTER = "homogeneousCluster"
"""The group of a host whose ``resourceconfig.json`` names none (the toolkit's default)."""

HostName = Annotated[StrictStr, Field(description="A container's name on the job's network.")]


class InstanceGroup(BaseModel):
    """One entry of ``instance_groups`` in ``resourceconfig.json``: a group and its hosts."""

    model_config = ConfigDict(frozen=True, extra="allow")

    instance_group_name: StrictStr = Field(description="The group's name.")
    instance_type: StrictStr | None = Field(default=None, description="The group's instance type.")
    hosts: list[HostName] = Field(
        description="The group's hosts, in the order SageMaker lists them."
    )


class ResourceConfig(BaseModel):
    """The content of ``/opt/ml/input/config/resourceconfig.json`` on one host.

    Example:
        >>> config = ResourceConfig.model_validate(
        ...     {"current_host": "algo-2", "hosts": ["algo-1", "algo-2"]}
        ... )
        >>> config.current_group_name, config.distribution_hosts([])
        ('homogeneousCluster', ['algo-1', 'algo-2'])
    """

    model_config = ConfigDict(frozen=True, extra="allow")

    current_host: HostName = Field(description="This container's host name (``algo-1``, ...).")
    hosts: list[HostName] = Field(description="Every host of the job, of every instance group.")
    current_group_name: StrictStr = Field(
        default=HOMOGENEOUS_CLUSTER, description="The instance group of this host."
    )
    current_instance_type: StrictStr = Field(
        default="local", description="This host's instance type."
    )
    instance_groups: list[InstanceGroup] = Field(
        default_factory=list, description="The job's instance groups and their hosts."
    )
    network_interface_name: StrictStr = Field(
        default="eth0", description="The network interface of the job's network."
    )

    def distribution_hosts(self, groups: DistributionGroups) -> list[str]:
        """The hosts the toolkit builds the cluster from: those of ``groups``, in file order.

        Without instance groups (an older file, or local mode), every host of ``hosts``.
        """
        if not self.instance_groups:
            return list(self.hosts)
        return [
            host
            for group in self.instance_groups
            if group.instance_group_name in groups
            for host in group.hosts
        ]


DistributionGroups = StrictStr | list[JsonValue] | dict[str, JsonValue]
"""What ``sagemaker_distribution_instance_groups`` may hold: the toolkit tests names with ``in``.

A list of names as the Python SDK writes it; text (a group then matches
when its name is *part of* the text, as Python's ``in`` reads a string)
and an object (matched by its keys) are read as the toolkit reads them.
"""

FLAGS = (
    "sagemaker_mpi_enabled",
    "sagemaker_parameter_server_enabled",
    "sagemaker_distributed_dataparallel_enabled",
    "sagemaker_pytorch_ddp_enabled",
    "sagemaker_pytorch_xla_multi_worker_enabled",
    "sagemaker_multi_worker_mirrored_strategy_enabled",
    "sagemaker_torch_distributed_enabled",
)
"""The flags any of which puts the current group in the distribution (without the list)."""

MODES = {
    "sagemaker_parameter_server_enabled": "parameter-server mode",
    "sagemaker_multi_worker_mirrored_strategy_enabled": "multi-worker mirrored mode",
}
"""The flags that choose the toolkit's ``TF_CONFIG``, and the mode each turns on."""

TEXT_KEYS = ("sagemaker_job_name", "sagemaker_region")
"""Keys whose value the toolkit puts into ``os.environ``: they must decode to text."""


def decode(value: Any, key: str = "") -> Any:
    """A hyperparameter as the toolkit reads it: JSON text decoded, anything else kept.

    The toolkit decodes it with ``json.loads`` and keeps the text where that
    raises a ``ValueError``; it fails on JSON nested deeper than Python's
    stack (``RecursionError``).  JSON nested deeper than :data:`MAX_DEPTH`,
    as no config file may be, is refused before that.

    Raises:
        pydantic_core.PydanticCustomError: ``sagemaker_too_deep``.
    """
    if not isinstance(value, str):
        return value
    try:
        return _json.loads(value, as_python_reads_it=True, max_depth=MAX_DEPTH)
    except JSONInputError as exc:
        if exc.code != "json_depth":
            return value
    raise custom_error(
        "sagemaker_too_deep",
        "the hyperparameter {key} is JSON nested deeper than {most} levels: the toolkit "
        "decodes it with json.loads, which fails (RecursionError) at about 1,000 levels",
        {"key": json.dumps(str(key)), "most": MAX_DEPTH},
    )


class Hyperparameters(BaseModel):
    """The ``sagemaker_*`` keys of ``hyperparameters.json`` that decide a job's ``TF_CONFIG``.

    Values are taken as SageMaker writes them (text, JSON-encoded) or already
    decoded; other keys are kept and not checked.  A dump is written as
    SageMaker writes the file: every value JSON text.

    Example:
        >>> hps = Hyperparameters.model_validate({"sagemaker_parameter_server_enabled": "true"})
        >>> hps.parameter_server, hps.multi_worker_mirrored
        (True, False)
        >>> Hyperparameters.model_validate(
        ...     {"sagemaker_parameter_server_enabled": "False"}
        ... ).parameter_server
        True
    """

    model_config = ConfigDict(frozen=True, extra="allow")

    sagemaker_parameter_server_enabled: JsonValue = Field(
        default=False, description="Parameter-server mode, on when true for Python."
    )
    sagemaker_multi_worker_mirrored_strategy_enabled: JsonValue = Field(
        default=False, description="MultiWorkerMirroredStrategy mode, on when true for Python."
    )
    sagemaker_distribution_instance_groups: DistributionGroups | None = Field(
        default=None,
        description="The instance groups the distribution runs on (default: this host's group "
        "when any distribution flag is on, else none).",
    )

    @model_validator(mode="before")
    @classmethod
    def decoded_as_the_toolkit_does(cls, data: Any) -> Any:
        """Each string value decoded as JSON where it is JSON, as ``read_hyperparameters`` does."""
        if isinstance(data, dict):
            return {key: decode(value, key) for key, value in data.items()}
        return data

    @field_validator("sagemaker_distribution_instance_groups", mode="before")
    @classmethod
    def distribution_groups_can_hold_names(cls, value: Any) -> Any:
        """A number, a bool or null: the toolkit's ``in`` fails on it (``TypeError``)."""
        if value is None or isinstance(value, bool | int | float):
            raise custom_error(
                "sagemaker_distribution_instance_groups",
                "sagemaker_distribution_instance_groups is {value}: the toolkit looks group "
                "names up in it and fails (TypeError); give a list of group names, "
                'e.g. ["dnn_group"]',
                {"value": json.dumps(value)},
            )
        return value

    @model_validator(mode="after")
    def environment_keys_are_text(self) -> Hyperparameters:
        """``sagemaker_job_name`` and ``sagemaker_region`` go into ``os.environ``: text only."""
        extra = self.model_extra or {}
        for key in TEXT_KEYS:
            value = extra.get(key)
            if key in extra and not isinstance(value, str) and (key == TEXT_KEYS[0] or value):
                raise custom_error(
                    "sagemaker_not_text",
                    "{key} is {value}, which the toolkit puts into os.environ and fails "
                    '(TypeError: str expected); write it as JSON text, e.g. "\\"{example}\\""',
                    {"key": key, "value": json.dumps(value), "example": value},
                )
        return self

    @model_serializer(mode="wrap")
    def as_written(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Dumped as ``hyperparameters.json`` holds it: JSON text values, absent keys left out."""
        data: dict[str, Any] = handler(self)
        return {
            key: json.dumps(value)
            for key, value in data.items()
            if key in self.model_fields_set or key not in type(self).model_fields
        }

    @property
    def parameter_server(self) -> bool:
        """Whether ``sagemaker_parameter_server_enabled`` is on (true for Python)."""
        return bool(self.sagemaker_parameter_server_enabled)

    @property
    def multi_worker_mirrored(self) -> bool:
        """Whether ``sagemaker_multi_worker_mirrored_strategy_enabled`` is on."""
        return bool(self.sagemaker_multi_worker_mirrored_strategy_enabled)

    def flags_as_text(self) -> dict[str, str]:
        """The flags of :data:`MODES` that are text once decoded, and so on: their text.

        ``"False"`` is no JSON: the toolkit keeps it as text, which is true
        for Python, and the mode is on.  Only ``""``, false as text, is left out.

        Example:
            >>> Hyperparameters.model_validate(
            ...     {"sagemaker_parameter_server_enabled": "False"}
            ... ).flags_as_text()
            {'sagemaker_parameter_server_enabled': 'False'}
        """
        given = {key: getattr(self, key) for key in MODES if key in self.model_fields_set}
        return {key: value for key, value in given.items() if isinstance(value, str) and value}

    def distribution_groups(self, current_group: str) -> DistributionGroups:
        """The distribution groups: the key's value, else the current group if any flag is on."""
        if "sagemaker_distribution_instance_groups" in self.model_fields_set:
            assert self.sagemaker_distribution_instance_groups is not None  # refused above
            return self.sagemaker_distribution_instance_groups
        extra = self.model_extra or {}
        flags = [
            getattr(self, flag) if flag in type(self).model_fields else extra.get(flag, False)
            for flag in FLAGS
        ]
        return [current_group] if any(flags) else []


class InstanceGroupSpec(BaseModel):
    """An instance group as a job asks for it: ``CreateTrainingJob``'s or the Python SDK's.

    Both spellings are read: ``InstanceGroupName``, ``InstanceType``,
    ``InstanceCount`` (the API) and ``instance_group_name``, ``instance_type``,
    ``instance_count`` (``sagemaker.instance_group.InstanceGroup``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    instance_group_name: StrictStr = Field(
        validation_alias=AliasChoices("instance_group_name", "InstanceGroupName"),
        min_length=1,
        description="The group's name.",
    )
    instance_type: StrictStr = Field(
        default="ml.c5.xlarge",
        validation_alias=AliasChoices("instance_type", "InstanceType"),
        description="The group's instance type.",
    )
    instance_count: Integer = Field(
        validation_alias=AliasChoices("instance_count", "InstanceCount"),
        ge=1,
        description="How many instances the group has.",
    )
