"""TPU configuration: ``estconf.tpu.TPUConfig`` and ``estconf.tpu.InputPipelineConfig``.

:class:`TPUConfig` holds the arguments of ``tf.estimator.tpu.TPUConfig`` with
the checks TensorFlow applies when the config is built, and the few more that
estconf applies on purpose (see the "Stricter than TensorFlow" section of the
docs).  Like TensorFlow, it reads one value of ``TF_CONFIG``,
``service.tpu_worker_job_name``, and only when no ``tpu_job_name`` is given.
"""

from __future__ import annotations

import enum
import math
import numbers
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Final, Literal, NamedTuple, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PlainSerializer,
    PlainValidator,
    PrivateAttr,
    SerializationInfo,
    Strict,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
    computed_field,
    field_serializer,
    field_validator,
    model_validator,
    with_config,
)
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import InitErrorDetails, PydanticCustomError
from typing_extensions import Self, TypedDict

from estconf import run_config
from estconf._derived import read_back_derived
from estconf._errors import Errors, Loc
from estconf._json import JSONInputError, loads
from estconf._tensorflow import tensorflow, tf_config_environ
from estconf._types import PYTHON_ARGUMENTS, Bool, Integer, String, from_arguments
from estconf.tf_config import TF_CONFIG, TaskType, TFConfig

__all__ = ["InputPipelineConfig", "IterationsPerLoopCounter", "RunConfig", "TPUConfig"]

TPU_WORKER_JOB_NAME: Final = "tpu_worker_job_name"
"""The key of ``TF_CONFIG.service`` that names the TPU worker job."""


class InputPipelineConfig(enum.IntEnum):
    """How ``TPUEstimator`` calls ``input_fn``, as in ``tf.estimator.tpu.InputPipelineConfig``.

    In JSON a value is written as its number (``3``) or its name
    (``"PER_HOST_V2"``); estconf writes the name.
    """

    PER_SHARD_V1 = 1
    """``input_fn`` runs once per core (training only)."""
    PER_HOST_V1 = 2
    """``input_fn`` runs once per host."""
    PER_HOST_V2 = 3
    """``input_fn`` runs once per host or per replica; needed by ``input_partition_dims``."""
    BROADCAST = 4
    """``input_fn`` runs on host 0 and every replica gets a copy of its output."""
    SLICED = 5
    """``input_fn`` runs on host 0 and every replica gets a slice of its output."""


class IterationsPerLoopCounter(NamedTuple):
    """``iterations_per_loop`` read as TensorFlow's ``parse_iterations_per_loop`` reads it."""

    value: int
    """How many steps, or how many seconds."""
    unit: Literal["count", "seconds"]
    """``count`` for a number of steps, ``seconds`` for a time (``m`` and ``h`` converted)."""


# --- iterations_per_loop --------------------------------------------------------------------

_ITERATIONS_PER_LOOP_MESSAGE: Final = (
    "Invalid TPUConfig `iterations_per_loop` value. Value must be positive integer value or "
    "time-based value `<N><s|m|h>` where <N> is anypositive integer and `s`, `m`, `h` are unit "
    "of time in seconds, minutes, hours respectively. Examples of valid values: `3600s`, `60m`, "
    "`1h`."
)
_ITERATIONS_PER_LOOP: Final = re.compile(r"([1-9][0-9]*)([smh]?)")
# The strings TensorFlow's check lets through besides those: its unit class also holds
# ``|``, its end anchor allows a final newline and its digits are those of every script.
# estconf refuses them on purpose.
_TENSORFLOW_ITERATIONS_PER_LOOP: Final = re.compile(r"[1-9]\d*[smh|]?\n?")
_SECONDS_PER_UNIT: Final = {"": 1, "s": 1, "m": 60, "h": 3600}


def _parse_iterations_per_loop(text: str) -> IterationsPerLoopCounter:
    match = _ITERATIONS_PER_LOOP.fullmatch(text)
    if match is None:
        if _TENSORFLOW_ITERATIONS_PER_LOOP.fullmatch(text):
            raise PydanticCustomError(
                "value",
                "iterations_per_loop {text} is not <N>, <N>s, <N>m or <N>h with N a positive "
                "integer in ASCII digits and nothing after the unit",
                {"text": repr(text)},
            )
        raise PydanticCustomError("iterations_per_loop", _ITERATIONS_PER_LOOP_MESSAGE)
    digits, suffix = match.groups()
    try:
        value = int(digits)
    except ValueError as exc:  # more digits than Python converts
        raise PydanticCustomError(
            "iterations_per_loop", "iterations_per_loop is too long: {reason}", {"reason": str(exc)}
        ) from None
    return IterationsPerLoopCounter(
        value * _SECONDS_PER_UNIT[suffix], "seconds" if suffix else "count"
    )


def _as_iterations_per_loop(value: Any) -> int | str:
    if isinstance(value, str):
        _parse_iterations_per_loop(value)
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        number = int(value)
        try:
            text = str(number)
        except ValueError as exc:  # more digits than Python converts
            raise PydanticCustomError(
                "iterations_per_loop",
                "iterations_per_loop is too large: {reason}",
                {"reason": str(exc)},
            ) from None
        _parse_iterations_per_loop(text)
        return number
    raise PydanticCustomError("iterations_per_loop", _ITERATIONS_PER_LOOP_MESSAGE)


IterationsPerLoop = Annotated[
    Annotated[int, Strict()] | Annotated[str, Strict()],
    BeforeValidator(_as_iterations_per_loop),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer", "minimum": 1},
                {"type": "string", "pattern": f"^{_ITERATIONS_PER_LOOP.pattern}$"},
            ]
        },
        mode="validation",
    ),
]
"""A positive number of steps, or a string ``<N>``, ``<N>s``, ``<N>m`` or ``<N>h``."""


# --- integers checked like TensorFlow's check_positive_integer ------------------------------


def _bool_error(value: bool) -> PydanticCustomError:
    return PydanticCustomError(
        "int_type", "Input should be an integer, not a boolean ({value})", {"value": str(value)}
    )


def _positive_integer(value: Any, name: str) -> int:
    """Check ``value`` as TensorFlow's ``check_positive_integer`` does, refusing bools too."""
    if value is True:
        raise _bool_error(value)  # TensorFlow reads True as 1.
    if not isinstance(value, numbers.Integral):
        raise PydanticCustomError(
            "int_type",
            "{name} must be int, got {type}",
            {"name": name, "type": str(type(value))},
        )
    if value <= 0:
        raise PydanticCustomError(
            "positive_int",
            "{name} must be positive, got {value}",
            {"name": name, "value": str(value)},
        )
    return int(value)


def _number_equal_to(value: Any, choices: Sequence[int]) -> int | None:
    """Return the choice ``value`` equals, as Python's ``in`` finds it; bools never match."""
    number: Any = value
    if not isinstance(number, numbers.Number) or isinstance(number, bool):
        return None
    return next((choice for choice in choices if choice == value), None)


_CORES: Final = [1, 2, 4, 8, 16, 32, 64, 128]
"""The values ``num_cores_per_replica`` may take."""


# --- InputPipelineConfig values ---------------------------------------------------------------

_PIPELINE_NAMES: Final = [member.name for member in InputPipelineConfig]
_PIPELINE_NUMBERS: Final = [member.value for member in InputPipelineConfig]


def _as_pipeline_config(value: Any, names: bool) -> InputPipelineConfig | None:
    """Read a member, its number or (in a document) its name; ``None`` for anything else.

    TensorFlow compares these settings with numbers, so a name given as a
    keyword argument is refused like any other string.
    """
    if isinstance(value, InputPipelineConfig):
        return value
    if isinstance(value, str):
        return InputPipelineConfig.__members__.get(value) if names else None
    number = _number_equal_to(value, _PIPELINE_NUMBERS)
    return None if number is None else InputPipelineConfig(number)


def _dump_pipeline_config(value: InputPipelineConfig, info: SerializationInfo) -> Any:
    return value.name if info.mode_is_json() else value


_PIPELINE_SCHEMA: Final[list[dict[str, Any]]] = [
    {"type": "integer", "enum": _PIPELINE_NUMBERS},
    {"type": "string", "enum": _PIPELINE_NAMES},
]

PipelineConfig = Annotated[
    InputPipelineConfig,
    PlainSerializer(_dump_pipeline_config, return_type=Any),
    WithJsonSchema({"anyOf": _PIPELINE_SCHEMA}, mode="validation"),
    WithJsonSchema({"type": "string", "enum": _PIPELINE_NAMES}, mode="serialization"),
]
"""An :class:`InputPipelineConfig`, written as its name in JSON."""


# --- input_partition_dims ----------------------------------------------------------------------


def _check_dims(dims: list[int]) -> list[int]:
    errors = Errors("input_partition_dims")
    for position, dim in enumerate(dims):
        if dim < 1:
            errors.add(
                "partition_dims",
                "All input partition dims must be >= 1. Got {value}",
                (position,),
                dim,
                {"value": dim},
            )
    errors.raise_if_any()
    return dims


PartitionDims = Annotated[
    list[Annotated[Integer, WithJsonSchema({"type": "integer", "minimum": 1})]],
    AfterValidator(_check_dims),
]
"""How many ways each dimension of one tensor is split: integers, each at least 1."""

_DIMS: TypeAdapter[list[int]] = TypeAdapter(PartitionDims)
_NAMED_DIMS: TypeAdapter[dict[str, list[int] | None]] = TypeAdapter(
    dict[String, PartitionDims | None]
)


def _validate_tensor_dims(value: Any) -> list[int] | dict[str, list[int] | None] | None:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return _DIMS.validate_python(value)
    if isinstance(value, Mapping):
        return _NAMED_DIMS.validate_python(value)
    raise PydanticCustomError(
        "type",
        "each entry of input_partition_dims should be null, a list of partition dims or an "
        "object mapping feature names to such lists, got {kind}",
        {"kind": type(value).__name__},
    )


TensorPartitionDims = Annotated[
    list[int] | dict[str, list[int] | None] | None,
    PlainValidator(
        _validate_tensor_dims,
        json_schema_input_type=PartitionDims | dict[String, PartitionDims | None] | None,
    ),
]
"""The partition dims of the features (or the labels): one tensor's, a dict's, or none."""


# --- tpu_job_name from TF_CONFIG ---------------------------------------------------------------


@dataclass(frozen=True)
class _EnvironTFConfig:
    """The text of the ``TF_CONFIG`` variable, parsed only if the TPU job name is needed."""

    text: str | None


class _Unreadable:
    """A value that could not be read from TF_CONFIG (the errors say why)."""


_UNREADABLE: Final = _Unreadable()


def _service_of(tf_config: Any, errors: Errors) -> tuple[Any, Loc]:
    """Return the ``service`` value of a TF_CONFIG in any accepted form, and where it is.

    The value is ``_UNREADABLE`` when the TF_CONFIG itself is not readable.
    """
    if isinstance(tf_config, _EnvironTFConfig):
        root: Loc = (TF_CONFIG,)
        if tf_config.text is None:
            return {}, root
        try:
            tf_config = loads(tf_config.text, allow_nan=True)
        except JSONInputError as exc:
            where = "" if exc.line is None else f" (line {exc.line}, column {exc.column})"
            errors.add(
                exc.code,
                "TF_CONFIG: {reason}",
                root,
                tf_config.text,
                {"reason": exc.message + where},
            )
            return _UNREADABLE, root
    else:
        root = ("tf_config",)
    if isinstance(tf_config, TFConfig):
        if tf_config.service is None:
            # An explicit null and a missing key both read as None; only the first is an error.
            return (None if "service" in tf_config.model_fields_set else {}), root
        return tf_config.service, root
    if isinstance(tf_config, Mapping):
        return tf_config.get("service", {}), root
    errors.add(
        "tf_config_type",
        "TF_CONFIG must be a JSON object, got {kind}",
        root,
        tf_config,
        {"kind": "null" if tf_config is None else type(tf_config).__name__},
    )
    return _UNREADABLE, root


def _tpu_job_name_from(
    tf_config: Any, errors: Errors, service_checked: bool = False
) -> str | _Unreadable | None:
    """Return ``service.tpu_worker_job_name`` of a TF_CONFIG, recording what is wrong.

    With ``service_checked``, a ``service`` that is neither null nor an object
    is left to the caller, which reports it already.
    """
    service, root = _service_of(tf_config, errors)
    if isinstance(service, _Unreadable):
        return service
    if service is None:
        errors.add(
            "service_type",
            '"service" in TF_CONFIG is null; TPUConfig reads {key} from it, so it must be an '
            "object (or left out)",
            (*root, "service"),
            service,
            {"key": TPU_WORKER_JOB_NAME},
        )
        return _UNREADABLE
    if not isinstance(service, Mapping):
        if service_checked:
            return _UNREADABLE
        errors.add(
            "service_type",
            'If "service" is set in TF_CONFIG, it must be a dict. Given {given}',
            (*root, "service"),
            service,
            {"given": str(type(service))},
        )
        return _UNREADABLE
    name = service.get(TPU_WORKER_JOB_NAME)
    if name is not None and not isinstance(name, str):
        errors.add(
            "type",
            "{key} should be a string, got {kind}",
            (*root, "service", TPU_WORKER_JOB_NAME),
            name,
            {"key": TPU_WORKER_JOB_NAME, "kind": type(name).__name__},
        )
        return _UNREADABLE
    return name


def _is_per_host_v2_constant(mode: Any) -> bool:
    """Whether ``mode`` is PER_HOST_V2 itself, as TensorFlow's ``is`` test sees it.

    The member and its name stand for TensorFlow's constant.  Small Python
    ints are unique objects, so an ``int`` equal to 3 *is* the constant;
    ``3.0``, ``True`` or a NumPy integer is not.
    """
    if isinstance(mode, InputPipelineConfig):
        return mode is InputPipelineConfig.PER_HOST_V2
    if isinstance(mode, str):
        return mode == InputPipelineConfig.PER_HOST_V2.name
    return type(mode) is int and mode == InputPipelineConfig.PER_HOST_V2.value


# --- rules on the arguments as given --------------------------------------------------------------


_Model = TypeVar("_Model", bound=BaseModel)


def _details_of(error: ValidationError) -> list[InitErrorDetails]:
    return [
        InitErrorDetails(
            type=PydanticCustomError(detail["type"], detail["msg"]),
            loc=detail["loc"],
            input=detail["input"],
        )
        for detail in error.errors()
    ]


def _validate_along(
    errors: Errors, data: Any, handler: ModelWrapValidatorHandler[_Model]
) -> _Model:
    """Validate ``data``; raise ``errors`` together with the fields' own errors, if any."""
    if not errors:
        return handler(data)
    details = errors.details()
    try:
        handler(data)
    except ValidationError as exc:
        details += _details_of(exc)
    raise ValidationError.from_exception_data(errors.title, details)


class TPUConfig(BaseModel):
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
        WithJsonSchema({"anyOf": [{"type": "integer", "enum": _CORES}, {"type": "null"}]}),
    ] = Field(
        None,
        description="TPU cores per model replica (model parallelism): 1, 2, 4, … 128.",
    )
    per_host_input_for_training: Annotated[
        PipelineConfig,
        WithJsonSchema({"anyOf": [{"type": "boolean"}, *_PIPELINE_SCHEMA]}, mode="validation"),
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

    else:

        def __init__(self, /, **arguments: Any) -> None:
            """Build from TensorFlow's keyword arguments.

            As keyword arguments, the ``InputPipelineConfig`` settings are members
            or numbers, as in TensorFlow; documents (``model_validate``, files) may
            also use the members' names.
            """
            self.__pydantic_validator__.validate_python(
                arguments, self_instance=self, context={PYTHON_ARGUMENTS: True}
            )

        # model_validate keeps pydantic's own path, as for RootModel's __init__.
        __init__.__pydantic_base_init__ = True

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
            kwargs["tf_config"] = _EnvironTFConfig(env.get(TF_CONFIG))
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
                name = None if tf_config is None else _tpu_job_name_from(tf_config, errors)
                data["tpu_job_name"] = None if name is _UNREADABLE else name
        return _validate_along(errors, data, handler)

    @model_validator(mode="wrap")
    @classmethod
    def input_partition_dims_mode(
        cls, data: Any, handler: ModelWrapValidatorHandler[TPUConfig]
    ) -> TPUConfig:
        """``input_partition_dims`` needs PER_HOST_V2 mode and ``num_cores_per_replica``.

        TensorFlow checks the arguments as given: ``per_host_input_for_training``
        must be the PER_HOST_V2 constant itself (an identity test, made before
        ``True`` and ``False`` are read), so ``True``, ``3.0`` or a NumPy
        integer will not do; ``num_cores_per_replica`` must not be None.
        """
        errors = Errors("TPUConfig")
        if isinstance(data, Mapping) and data.get("input_partition_dims") is not None:
            mode = data.get("per_host_input_for_training", True)
            if not _is_per_host_v2_constant(mode):
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
        return _validate_along(errors, data, handler)

    @model_validator(mode="wrap")
    @classmethod
    def derived_keys_agree(
        cls, data: Any, handler: ModelWrapValidatorHandler[TPUConfig]
    ) -> TPUConfig:
        """A dump's derived keys are read back only if they agree with what is derived."""
        return read_back_derived(cls, data, handler)

    # --- field rules ------------------------------------------------------------------------

    @field_validator("num_shards", mode="before")
    @classmethod
    def num_shards_positive(cls, value: Any) -> Any:
        """``num_shards`` is None or a positive int."""
        return None if value is None else _positive_integer(value, "TPUConfig num_shards")

    @field_validator("num_cores_per_replica", mode="before")
    @classmethod
    def num_cores_per_replica_power_of_two(cls, value: Any) -> Any:
        """``num_cores_per_replica`` is None or one of 1, 2, 4, … 128."""
        if value is None:
            return None
        if isinstance(value, bool):
            raise _bool_error(value)
        cores = _number_equal_to(value, _CORES)
        if cores is None:
            raise PydanticCustomError(
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
        mode = _as_pipeline_config(value, names=not from_arguments(info))
        if mode is None:
            raise PydanticCustomError(
                "enum",
                "per_host_input_for_training must be true, false or an InputPipelineConfig: "
                "one of {numbers} or its name ({names}); got {value}",
                {
                    "numbers": ", ".join(map(str, _PIPELINE_NUMBERS)),
                    "names": ", ".join(_PIPELINE_NAMES),
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
            raise _bool_error(value)
        if _number_equal_to(value, [0]) == 0:
            return 0  # TensorFlow checks only values that are true.
        if not value:
            raise PydanticCustomError(
                "type",
                "initial_infeed_sleep_secs should be a number of seconds, got {value}",
                {"value": repr(value)},
            )
        return _positive_integer(value, "TPUConfig initial_infeed_sleep_secs")

    @field_validator("input_partition_dims", mode="before")
    @classmethod
    def input_partition_dims_length(cls, value: Any) -> Any:
        """``input_partition_dims`` is None or a list of one or two entries."""
        if value is None:
            return None
        if not isinstance(value, (list, tuple)):
            raise PydanticCustomError(
                "type",
                "input_partition_dims should be a list of one or two entries (features, "
                "labels), got {kind}",
                {"kind": type(value).__name__},
            )
        if len(value) not in (1, 2):
            raise PydanticCustomError(
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
            else _as_pipeline_config(value, names=not from_arguments(info))
        )
        if mode not in (InputPipelineConfig.PER_HOST_V1, InputPipelineConfig.SLICED):
            raise PydanticCustomError(
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
            raise PydanticCustomError(
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
        if self.input_partition_dims is None or self.num_cores_per_replica is None:
            return self
        errors = Errors("TPUConfig")
        for loc, dims in _each_dims(self.input_partition_dims):
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
        return _parse_iterations_per_loop(str(self.iterations_per_loop))

    @field_serializer("iterations_per_loop_counter")
    def _dump_counter(self, counter: IterationsPerLoopCounter) -> IterationsPerLoopCounterDump:
        return IterationsPerLoopCounterDump(value=counter.value, unit=counter.unit)


@with_config(ConfigDict(title="IterationsPerLoopCounter"))
class IterationsPerLoopCounterDump(TypedDict):
    value: int
    unit: Literal["count", "seconds"]


def _each_dims(
    partition_dims: list[TensorPartitionDims] | None,
) -> list[tuple[tuple[int | str, ...], list[int]]]:
    """Every list of dims in ``input_partition_dims``, with where it is."""
    found: list[tuple[tuple[int | str, ...], list[int]]] = []
    for position, entry in enumerate(partition_dims or []):
        if isinstance(entry, list):
            found.append(((position,), entry))
        elif isinstance(entry, dict):
            found.extend(
                ((position, name), dims) for name, dims in entry.items() if dims is not None
            )
    return found


# --- tpu.RunConfig -------------------------------------------------------------------------------

_MASTER_ARGUMENTS: Final = ("master", "evaluation_master")
_OPTIONAL_STRING: TypeAdapter[str | None] = TypeAdapter(String | None)


def _argument_schema(schema: dict[str, Any]) -> None:
    """Show ``master`` and ``evaluation_master`` as arguments in the validation schema."""
    properties = schema.setdefault("properties", {})
    for name, what in zip(_MASTER_ARGUMENTS, ("training", "evaluation"), strict=True):
        properties.setdefault(
            name,
            {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "title": name.replace("_", " ").title(),
                "description": f"The session target of {what}; replaces the one derived "
                "from TF_CONFIG, even when empty.",
            },
        )


class RunConfig(run_config.RunConfig):
    """``tf.estimator.tpu.RunConfig``: the estimator's run configuration with TPU settings.

    It takes the arguments of :class:`estconf.RunConfig` and ``tpu_config``,
    ``master`` and ``evaluation_master``.  ``tpu_config`` defaults to a
    :class:`TPUConfig` that reads its job name from the same ``tf_config``.
    A given ``master`` (even ``''``) or ``evaluation_master`` replaces the
    derived one; otherwise an empty evaluation master becomes the master,
    except on an evaluator.  TPU training runs in-graph, so no device-filter
    ``session_config`` is set by default.

    Example:
        >>> config = RunConfig(
        ...     tf_config={
        ...         "cluster": {"chief": ["host0:2222"], "worker": ["host1:2222"]},
        ...         "task": {"type": "worker", "index": 0},
        ...         "service": {"tpu_worker_job_name": "tpu_worker"},
        ...     },
        ...     tpu_config={"iterations_per_loop": 100, "num_shards": 8},
        ... )
        >>> config.master, config.evaluation_master
        ('grpc://host1:2222', 'grpc://host1:2222')
        >>> config.tpu_config.tpu_job_name, config.session_config is None
        ('tpu_worker', True)
        >>> RunConfig(master="grpc://tpu:8470").evaluation_master
        'grpc://tpu:8470'
    """

    model_config = ConfigDict(json_schema_extra=_argument_schema)

    tpu_config: TPUConfig = Field(
        default_factory=TPUConfig,
        description="TPU settings; by default a TPUConfig whose job name comes from TF_CONFIG.",
    )

    _master: str = PrivateAttr("")
    _evaluation_master: str = PrivateAttr("")

    if TYPE_CHECKING:
        # The estimator's arguments, plus the three of the TPU constructor.
        def __init__(
            self,
            *,
            tpu_config: TPUConfig | Mapping[str, Any] | None = ...,
            evaluation_master: str | None = ...,
            master: str | None = ...,
            **kwargs: Any,
        ) -> None: ...

    @model_validator(mode="wrap")
    @classmethod
    def master_arguments(
        cls, data: Any, handler: ModelWrapValidatorHandler[RunConfig]
    ) -> RunConfig:
        """A given ``master`` or ``evaluation_master`` replaces the derived one."""
        if not isinstance(data, Mapping) or not any(key in data for key in _MASTER_ARGUMENTS):
            config = handler(data)
            if isinstance(data, Mapping):
                config._resolve_masters(None, None)
            return config
        data = dict(data)
        given: dict[str, str | None] = {}
        errors = Errors(cls.__name__)
        for key in _MASTER_ARGUMENTS:
            value = data.pop(key, None)
            try:
                given[key] = _OPTIONAL_STRING.validate_python(value)
            except ValidationError as exc:
                for detail in exc.errors():
                    errors.add(detail["type"], detail["msg"], (key, *detail["loc"]), value)
        config = _validate_along(errors, data, handler)
        config._resolve_masters(given.get("master"), given.get("evaluation_master"))
        return config

    @model_validator(mode="wrap")
    @classmethod
    def tpu_config_default(
        cls, data: Any, handler: ModelWrapValidatorHandler[RunConfig]
    ) -> RunConfig:
        """``tpu_config`` is a :class:`TPUConfig` built as TensorFlow builds it, if not given.

        Its ``tpu_job_name``, when not given, is read from the same ``tf_config``.
        """
        errors = Errors(cls.__name__)
        if isinstance(data, Mapping):
            arguments = _tpu_config_input(data.get("tpu_config"), data.get("tf_config"), errors)
            data = {**data, "tpu_config": arguments}
        return _validate_along(errors, data, handler)

    def _resolve_masters(self, master: str | None, evaluation_master: str | None) -> None:
        distributed = self._distributed
        self._master = distributed.master if master is None else master
        if evaluation_master is not None:
            self._evaluation_master = evaluation_master
        elif not distributed.evaluation_master and distributed.task_type != TaskType.EVALUATOR:
            self._evaluation_master = self._master
        else:
            self._evaluation_master = distributed.evaluation_master

    def _default_session_config(self, distributed: run_config.Distributed) -> None:
        """TPU training runs in-graph: no device filters, so no default session config."""
        return None

    @computed_field(description="The session target of training: the argument, or derived.")  # type: ignore[prop-decorator]
    @cached_property
    def master(self) -> str:
        """The session target this task trains with."""
        return self._master

    @computed_field(  # type: ignore[prop-decorator]
        description="The session target of evaluation: the argument, or derived, or the master."
    )
    @cached_property
    def evaluation_master(self) -> str:
        """The session target this task evaluates with."""
        return self._evaluation_master

    _NOT_TENSORFLOW_ARGUMENTS: ClassVar[tuple[str, ...]] = ("tf_config", "tpu_config")

    def _build_tensorflow(self, tf: Any, arguments: dict[str, Any]) -> Any:
        """Build TensorFlow's TPU ``RunConfig``, with its three arguments of its own."""
        return tf.compat.v1.estimator.tpu.RunConfig(
            tpu_config=self.tpu_config.to_tensorflow(),
            master=self.master,
            evaluation_master=self.evaluation_master,
            **arguments,
        )

    @classmethod
    def _tensorflow_extra_arguments(cls, config: Any) -> dict[str, Any]:
        """``tpu_config``, ``master`` and ``evaluation_master`` of TensorFlow's TPU RunConfig."""
        return {
            "tpu_config": TPUConfig.from_tensorflow(config.tpu_config),
            "master": config.master,
            "evaluation_master": config.evaluation_master,
        }

    def replace(self, **kwargs: Any) -> Self:
        """Return a copy with some properties replaced, as :meth:`estconf.RunConfig.replace`.

        ``tpu_config`` may be replaced too (a :class:`TPUConfig`, or a dict read
        as the constructor reads it); the masters stay as they are.

        Raises:
            pydantic.ValidationError: a key may not be replaced, or a value is invalid.
        """
        if "tpu_config" not in kwargs:
            config = super().replace(**kwargs)
        else:
            kwargs = dict(kwargs)
            value = kwargs.pop("tpu_config")
            config = super().replace(**kwargs)
            config = config.model_copy(update={"tpu_config": self._read_tpu_config(value)})
        config._master = self._master
        config._evaluation_master = self._evaluation_master
        return config

    def _read_tpu_config(self, value: Any) -> TPUConfig:
        errors = Errors(type(self).__name__)
        arguments = _tpu_config_input(value, self.tf_config, errors)
        errors.raise_if_any()
        try:
            return _TPU_CONFIG.validate_python(arguments)
        except ValidationError as exc:
            details = _details_of(exc)
            for detail in details:
                detail["loc"] = ("tpu_config", *detail["loc"])
            raise ValidationError.from_exception_data(errors.title, details) from None


_TPU_CONFIG: TypeAdapter[TPUConfig] = TypeAdapter(TPUConfig)


def _tpu_config_input(tpu_config: Any, tf_config: Any, errors: Errors) -> Any:
    """What the TPU RunConfig builds its ``tpu_config`` from, as TensorFlow's constructor does.

    A missing ``tpu_config`` is an empty one; one given as a dict without a job
    name reads it from ``tf_config``, as ``TPUConfig()`` reads ``TF_CONFIG``.
    The estimator reports a ``service`` that is not an object; a null one is
    reported here.  ``tf_config`` is handed on only if it can be read.
    """
    if tpu_config is not None and not (
        isinstance(tpu_config, Mapping) and "tf_config" not in tpu_config
    ):
        return tpu_config
    arguments = {} if tpu_config is None else dict(tpu_config)
    if (
        not arguments.get("tpu_job_name")
        and isinstance(tf_config, (Mapping, TFConfig))
        and _tpu_job_name_from(tf_config, errors, service_checked=True) is not _UNREADABLE
    ):
        arguments["tf_config"] = tf_config
    return arguments
