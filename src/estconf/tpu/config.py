"""``estconf.tpu.TPUConfig``: the arguments of ``tf.estimator.tpu.TPUConfig``.

:class:`TPUConfig` holds them with the checks TensorFlow applies when the
config is built, and the few more that estconf applies on purpose (see the
"Stricter than TensorFlow" section of the docs).  Like TensorFlow, it reads
one value of ``TF_CONFIG``, ``service.tpu_worker_job_name``, and only when no
``tpu_job_name`` is given.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, Final

from pydantic import (
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    ValidationInfo,
    WithJsonSchema,
    computed_field,
    field_serializer,
    field_validator,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema
from typing_extensions import Self

from estconf._derived import read_back_derived
from estconf._errors import Errors, KnownKeys, custom_error, validate_along
from estconf._hashing import HashedByValue
from estconf._tensorflow import tensorflow, tf_config_environ
from estconf._types import Bool, DocumentModel, Integer, String, bool_error, from_document
from estconf.tf_config import (
    TF_CONFIG,
    UNREADABLE,
    TFConfig,
    TFConfigText,
    read_service,
    service_error,
)
from estconf.tpu._values import (
    CORES,
    PIPELINE_NAMES,
    PIPELINE_NUMBERS,
    PIPELINE_SCHEMA,
    InputPipelineConfig,
    IterationsPerLoop,
    IterationsPerLoopCounter,
    IterationsPerLoopCounterDump,
    PipelineConfig,
    TensorPartitionDims,
    as_pipeline_config,
    each_dims,
    is_per_host_v2_constant,
    number_equal_to,
    parse_iterations_per_loop,
    positive_integer,
)

TPU_WORKER_JOB_NAME: Final = "tpu_worker_job_name"
"""The key of ``TF_CONFIG.service`` that names the TPU worker job."""


def tpu_job_name_from(tf_config: Any, errors: Errors, service_checked: bool = False) -> Any:
    """Return ``service.tpu_worker_job_name`` of a TF_CONFIG, recording what is wrong.

    ``tf_config`` is in any form :func:`~estconf.tf_config.read_service` reads.
    The name is ``None`` when the service has none, and
    :data:`~estconf.tf_config.UNREADABLE` when it cannot be read.  With
    ``service_checked``, a ``service`` that is neither null nor an object is
    left to the caller, which reports it already.
    """
    service, root = read_service(tf_config, errors)
    if service is UNREADABLE:
        return UNREADABLE
    if service is None:
        errors.add(
            "service_type",
            '"service" in TF_CONFIG is null; TPUConfig reads {key} from it, so it must be an '
            "object (or left out)",
            (*root, "service"),
            service,
            {"key": TPU_WORKER_JOB_NAME},
        )
        return UNREADABLE
    error = service_error(service)
    if error is not None:
        if not service_checked:
            errors.add(error.type, error.message(), (*root, "service"), service)
        return UNREADABLE
    name = service.get(TPU_WORKER_JOB_NAME)
    if name is not None and not isinstance(name, str):
        errors.add(
            "type",
            "{key} should be a string, got {kind}",
            (*root, "service", TPU_WORKER_JOB_NAME),
            name,
            {"key": TPU_WORKER_JOB_NAME, "kind": type(name).__name__},
        )
        return UNREADABLE
    return name


class TPUConfig(HashedByValue, DocumentModel, KnownKeys):
    """TPU settings of a ``TPUEstimator``, like ``tf.estimator.tpu.TPUConfig``.

    Every argument of tensorflow-estimator 2.15 is a field with its default;
    ``experimental_feed_hook`` is Python-only (left out of dumps and schemas).
    Construction is pure: ``tpu_job_name`` falls back to
    ``service.tpu_worker_job_name`` of the ``tf_config`` argument (a
    :class:`~estconf.TFConfig` or a dict standing for ``TF_CONFIG``), and
    :meth:`from_env` reads it from the environment as TensorFlow does.

    Example:
        >>> config = TPUConfig(
        ...     iterations_per_loop="10m",
        ...     num_cores_per_replica=4,
        ...     per_host_input_for_training=InputPipelineConfig.PER_HOST_V2,
        ...     input_partition_dims=[[1, 2, 2, 1], None],
        ... )
        >>> config.iterations_per_loop_counter
        IterationsPerLoopCounter(value=600, unit='seconds')
        >>> config.model_dump(mode="json")["per_host_input_for_training"]
        'PER_HOST_V2'
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    iterations_per_loop: IterationsPerLoop = Field(
        2,
        description=(
            "Training steps per TPU loop, or a time per loop written `<N>s`, `<N>m` or `<N>h`."
        ),
        examples=[100, "60m"],
    )
    num_shards: Annotated[
        int | None,
        WithJsonSchema({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}),
    ] = Field(
        None,
        description="Deprecated and ignored by TPUEstimator: the number of model replicas.",
    )
    num_cores_per_replica: Annotated[
        int | None,
        WithJsonSchema({"anyOf": [{"type": "integer", "enum": CORES}, {"type": "null"}]}),
    ] = Field(
        None,
        description="TPU cores per model replica (model parallelism): 1, 2, 4, … 128.",
    )
    per_host_input_for_training: Annotated[
        PipelineConfig,
        WithJsonSchema({"anyOf": [{"type": "boolean"}, *PIPELINE_SCHEMA]}, mode="validation"),
    ] = Field(
        InputPipelineConfig.PER_HOST_V1,
        title="Per Host Input For Training",
        description=(
            "How `input_fn` is called for training: `true` (PER_HOST_V1), `false` "
            "(PER_SHARD_V1) or an InputPipelineConfig number or name."
        ),
        json_schema_extra={"default": InputPipelineConfig.PER_HOST_V1.name},
    )
    tpu_job_name: String | None = Field(
        None,
        description=("The TPU worker job; defaults to `service.tpu_worker_job_name` of TF_CONFIG."),
    )
    initial_infeed_sleep_secs: Annotated[
        int | None,
        WithJsonSchema({"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]}),
    ] = Field(
        None,
        description="Seconds the infeed thread waits before its first batch (0: none).",
    )
    input_partition_dims: (
        Annotated[list[TensorPartitionDims], Field(min_length=1, max_length=2)] | None
    ) = Field(
        None,
        description=(
            "How to split the features (and the labels) across the cores of a replica, "
            "e.g. `[[1, 2, 2, 1], null]`; needs PER_HOST_V2 and `num_cores_per_replica`."
        ),
        examples=[[[1, 2, 2, 1], None]],
    )
    eval_training_input_configuration: Annotated[
        PipelineConfig,
        WithJsonSchema(
            {
                "anyOf": [
                    {"type": "integer", "enum": [2, 5]},
                    {"type": "string", "enum": ["PER_HOST_V1", "SLICED"]},
                ]
            },
            mode="validation",
        ),
    ] = Field(
        InputPipelineConfig.PER_HOST_V1,
        title="Eval Training Input Configuration",
        description="How `input_fn` is called for evaluation: PER_HOST_V1 or SLICED.",
        json_schema_extra={"default": InputPipelineConfig.PER_HOST_V1.name},
    )
    experimental_host_call_every_n_steps: Integer = Field(
        1,
        description="Run host calls every this many steps within a loop.",
        json_schema_extra={"minimum": 1},
    )
    experimental_allow_per_host_v2_parallel_get_next: Bool = Field(
        False, description="Let PER_HOST_V2 input call `get_next` concurrently."
    )
    experimental_feed_hook: SkipJsonSchema[Any] = Field(
        None,
        exclude=True,
        description="Python only: a session hook class replacing the infeed/outfeed hook.",
    )

    if TYPE_CHECKING:
        # The constructor also takes ``tf_config``, and values in every form the validators read.
        # As keyword arguments, the InputPipelineConfig settings are members or numbers, as in
        # TensorFlow; documents may also use the members' names (see DocumentModel).
        def __init__(
            self,
            *,
            iterations_per_loop: int | str = ...,
            num_shards: int | None = ...,
            num_cores_per_replica: int | None = ...,
            per_host_input_for_training: bool | int | InputPipelineConfig = ...,
            tpu_job_name: str | None = ...,
            initial_infeed_sleep_secs: int | None = ...,
            input_partition_dims: Sequence[Any] | None = ...,
            eval_training_input_configuration: int | InputPipelineConfig = ...,
            experimental_host_call_every_n_steps: int = ...,
            experimental_allow_per_host_v2_parallel_get_next: bool = ...,
            experimental_feed_hook: Any = ...,
            tf_config: TFConfig | Mapping[str, Any] | None = ...,
        ) -> None: ...

    # --- construction -----------------------------------------------------------------------

    def to_tensorflow(self) -> Any:
        """Return TensorFlow's equal ``TPUConfig`` (needs ``estconf[tensorflow]``)."""
        tf = tensorflow()
        arguments = {name: getattr(self, name) for name in type(self).model_fields}
        for name in ("per_host_input_for_training", "eval_training_input_configuration"):
            arguments[name] = int(arguments[name])
        with tf_config_environ(None):  # the job name is given, or None in both
            return tf.compat.v1.estimator.tpu.TPUConfig(**arguments)

    @classmethod
    def from_tensorflow(cls, config: Any) -> TPUConfig:
        """Read TensorFlow's ``TPUConfig`` (a named tuple) back (needs ``estconf[tensorflow]``)."""
        return cls(**config._asdict())

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **kwargs: Any) -> TPUConfig:
        """Build the config TensorFlow's ``TPUConfig(**kwargs)`` builds under ``environ``.

        ``TF_CONFIG`` (from ``environ``, ``os.environ`` by default) is read
        only when ``tpu_job_name`` is not given or empty, and then only its
        ``service`` object.

        Raises:
            pydantic.ValidationError: an argument is invalid, or ``TF_CONFIG``
                had to be read and is not JSON or has an invalid ``service``.
            TypeError: ``tf_config`` is given; the environment stands for it.
        """
        if "tf_config" in kwargs:
            raise TypeError("from_env reads tf_config from the environment; pass environ")
        if not kwargs.get("tpu_job_name"):
            env = os.environ if environ is None else environ
            kwargs["tf_config"] = TFConfigText(env.get(TF_CONFIG))
        return cls(**kwargs)

    @model_validator(mode="wrap")
    @classmethod
    def tpu_job_name_from_tf_config(
        cls, data: Any, handler: ModelWrapValidatorHandler[TPUConfig]
    ) -> TPUConfig:
        """An empty or missing ``tpu_job_name`` is read from ``tf_config``'s ``service``.

        ``tf_config`` is read only then, and only its ``service``; with no
        ``tf_config`` (an unset ``TF_CONFIG``) an empty name is None.
        """
        errors = Errors("TPUConfig")
        if isinstance(data, Mapping) and (
            "tf_config" in data or ("tpu_job_name" in data and not data["tpu_job_name"])
        ):
            data = dict(data)
            tf_config = data.pop("tf_config", None)
            if not data.get("tpu_job_name"):
                name = None if tf_config is None else tpu_job_name_from(tf_config, errors)
                data["tpu_job_name"] = None if name is UNREADABLE else name
        return validate_along(errors, data, handler)

    @model_validator(mode="wrap")
    @classmethod
    def input_partition_dims_mode(
        cls, data: Any, handler: ModelWrapValidatorHandler[Self], info: ValidationInfo
    ) -> Self:
        """``input_partition_dims`` needs PER_HOST_V2 mode and ``num_cores_per_replica``.

        TensorFlow checks the arguments as given: ``per_host_input_for_training``
        must be the PER_HOST_V2 constant itself (an identity test, made before
        ``True`` and ``False`` are read), so ``True``, ``3.0`` or a NumPy
        integer will not do; ``num_cores_per_replica`` must not be None.
        """
        errors = Errors("TPUConfig")
        if isinstance(data, Mapping) and data.get("input_partition_dims") is not None:
            mode = data.get("per_host_input_for_training")  # None: the default, True
            if not is_per_host_v2_constant(mode, names=from_document(info)):
                errors.add(
                    "input_partition_dims_mode",
                    "input_partition_dims is only supported in PER_HOST_V2 mode.",
                    ("per_host_input_for_training",),
                    mode,
                )
            if data.get("num_cores_per_replica") is None:
                errors.add(
                    "input_partition_dims_cores",
                    "input_partition_dims requires setting num_cores_per_replica.",
                    ("num_cores_per_replica",),
                    None,
                )
        return validate_along(errors, data, handler)

    @model_validator(mode="wrap")
    @classmethod
    def derived_keys_agree(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        """A dump's derived keys are read back only if they agree with what is derived."""
        return read_back_derived(cls, data, handler)

    # --- field rules ------------------------------------------------------------------------

    @field_validator("num_shards", mode="before")
    @classmethod
    def num_shards_positive(cls, value: Any) -> Any:
        """``num_shards`` is None or a positive int."""
        return None if value is None else positive_integer(value, "TPUConfig num_shards")

    @field_validator("num_cores_per_replica", mode="before")
    @classmethod
    def num_cores_per_replica_power_of_two(cls, value: Any) -> Any:
        """``num_cores_per_replica`` is None or one of 1, 2, 4, … 128."""
        if value is None:
            return None
        if isinstance(value, bool):
            raise bool_error(value)
        cores = number_equal_to(value, CORES)
        if cores is None:
            raise custom_error(
                "num_cores_per_replica",
                "num_cores_per_replica must be 1, 2, 4, 8, 16, 32, 64, 128; got {value}",
                {"value": str(value)},
            )
        return cores

    @field_validator("per_host_input_for_training", mode="before")
    @classmethod
    def per_host_input_for_training_enum(
        cls, value: Any, info: ValidationInfo
    ) -> InputPipelineConfig:
        """``False`` is PER_SHARD_V1, ``True`` PER_HOST_V1; anything else an InputPipelineConfig."""
        if value is False:
            return InputPipelineConfig.PER_SHARD_V1
        if value is True:
            return InputPipelineConfig.PER_HOST_V1
        mode = as_pipeline_config(value, names=from_document(info))
        if mode is None:
            raise custom_error(
                "enum",
                "per_host_input_for_training must be true, false or an InputPipelineConfig: "
                "one of {numbers} or its name ({names}); got {value}",
                {
                    "numbers": ", ".join(map(str, PIPELINE_NUMBERS)),
                    "names": ", ".join(PIPELINE_NAMES),
                    "value": repr(value),
                },
            )
        return mode

    @field_validator("initial_infeed_sleep_secs", mode="before")
    @classmethod
    def initial_infeed_sleep_secs_positive(cls, value: Any) -> Any:
        """``initial_infeed_sleep_secs`` is None, 0 or a positive int."""
        if value is None:
            return None
        if isinstance(value, bool):
            raise bool_error(value)
        if number_equal_to(value, [0]) == 0:
            return 0  # TensorFlow checks only values that are true.
        if not value:
            raise custom_error(
                "type",
                "initial_infeed_sleep_secs should be a number of seconds, got {value}",
                {"value": repr(value)},
            )
        return positive_integer(value, "TPUConfig initial_infeed_sleep_secs")

    @field_validator("input_partition_dims", mode="before")
    @classmethod
    def input_partition_dims_length(cls, value: Any) -> Any:
        """``input_partition_dims`` is None or a list of one or two entries."""
        if value is None:
            return None
        if not isinstance(value, (list, tuple)):
            raise custom_error(
                "type",
                "input_partition_dims should be a list of one or two entries (features, "
                "labels), got {kind}",
                {"kind": type(value).__name__},
            )
        if len(value) not in (1, 2):
            raise custom_error(
                "input_partition_dims_length",
                "input_partition_dims must be a list/tuple with one or two elements.",
            )
        return value

    @field_validator("eval_training_input_configuration", mode="before")
    @classmethod
    def eval_training_input_configuration_supported(
        cls, value: Any, info: ValidationInfo
    ) -> InputPipelineConfig:
        """``eval_training_input_configuration`` is PER_HOST_V1 or SLICED."""
        mode = (
            None
            if isinstance(value, bool)
            else as_pipeline_config(value, names=from_document(info))
        )
        if mode not in (InputPipelineConfig.PER_HOST_V1, InputPipelineConfig.SLICED):
            raise custom_error(
                "eval_training_input_configuration",
                "eval_training_input_configuration must be PER_HOST_V1 or SLICED; got {value}",
                {"value": value.name if isinstance(value, InputPipelineConfig) else str(value)},
            )
        return mode

    @field_validator("experimental_host_call_every_n_steps")
    @classmethod
    def experimental_host_call_every_n_steps_positive(cls, value: int) -> int:
        """``experimental_host_call_every_n_steps`` is at least 1."""
        if value < 1:
            raise custom_error(
                "value",
                "experimental_host_call_every_n_steps must be at least 1 (host calls run every "
                "n steps), got {value}",
                {"value": value},
            )
        return value

    # --- rules across fields ----------------------------------------------------------------

    @model_validator(mode="after")
    def partition_dims_product(self) -> TPUConfig:
        """Each tensor is split over all the cores of a replica, or not split.

        The product of each list of partition dims is ``num_cores_per_replica``,
        or 1 (the tensor is copied to every core), as TensorFlow requires when
        it builds the infeed.
        """
        if self.num_cores_per_replica is None:  # refused with input_partition_dims
            return self
        errors = Errors("TPUConfig")
        for loc, dims in each_dims(self.input_partition_dims):
            product = math.prod(dims)
            if product not in (1, self.num_cores_per_replica):
                errors.add(
                    "partition_dims",
                    "The product of each input partition dim should equal to "
                    "num_cores_per_replica. (dim = {dims}, num_cores_per_replica = {cores}); "
                    "the product is {product}",
                    ("input_partition_dims", *loc),
                    dims,
                    {"dims": dims, "cores": self.num_cores_per_replica, "product": product},
                )
        errors.raise_if_any()
        return self

    # --- derived values ---------------------------------------------------------------------

    @computed_field(  # type: ignore[prop-decorator]
        description=(
            "`iterations_per_loop` parsed: `value` steps (`count`) or `value` seconds "
            "(`seconds`, minutes and hours converted)."
        )
    )
    @cached_property
    def iterations_per_loop_counter(self) -> IterationsPerLoopCounter:
        """``iterations_per_loop`` parsed as TensorFlow's ``parse_iterations_per_loop`` does."""
        return parse_iterations_per_loop(str(self.iterations_per_loop))

    @field_serializer("iterations_per_loop_counter")
    def _dump_counter(self, counter: IterationsPerLoopCounter) -> IterationsPerLoopCounterDump:
        return IterationsPerLoopCounterDump(value=counter.value, unit=counter.unit)
