"""The values of TPU settings: ``InputPipelineConfig``, ``iterations_per_loop``, partition dims.

Each is a type with the reading TensorFlow gives it, and the few checks
estconf adds on purpose (see the "Stricter than TensorFlow" section of the docs).
"""

from __future__ import annotations

import enum
import numbers
import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Final, Literal, NamedTuple

from pydantic import (
    AfterValidator,
    BeforeValidator,
    ConfigDict,
    PlainSerializer,
    PlainValidator,
    SerializationInfo,
    Strict,
    TypeAdapter,
    WithJsonSchema,
    with_config,
)
from typing_extensions import TypedDict

from estconf._errors import Errors, custom_error
from estconf._types import Integer, String, bool_error

__all__ = [
    "CORES",
    "PIPELINE_NAMES",
    "PIPELINE_NUMBERS",
    "PIPELINE_SCHEMA",
    "InputPipelineConfig",
    "IterationsPerLoop",
    "IterationsPerLoopCounter",
    "IterationsPerLoopCounterDump",
    "PartitionDims",
    "PipelineConfig",
    "TensorPartitionDims",
    "as_pipeline_config",
    "each_dims",
    "is_per_host_v2_constant",
    "number_equal_to",
    "parse_iterations_per_loop",
    "positive_integer",
]


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


def parse_iterations_per_loop(text: str) -> IterationsPerLoopCounter:
    match = _ITERATIONS_PER_LOOP.fullmatch(text)
    if match is None:
        if _TENSORFLOW_ITERATIONS_PER_LOOP.fullmatch(text):
            raise custom_error(
                "value",
                "iterations_per_loop {text} is not <N>, <N>s, <N>m or <N>h with N a positive "
                "integer in ASCII digits and nothing after the unit",
                {"text": repr(text)},
            )
        raise custom_error("iterations_per_loop", _ITERATIONS_PER_LOOP_MESSAGE)
    digits, suffix = match.groups()
    try:
        value = int(digits)
    except ValueError as exc:  # more digits than Python converts
        raise custom_error(
            "iterations_per_loop", "iterations_per_loop is too long: {reason}", {"reason": str(exc)}
        ) from None
    return IterationsPerLoopCounter(
        value * _SECONDS_PER_UNIT[suffix], "seconds" if suffix else "count"
    )


def _as_iterations_per_loop(value: Any) -> int | str:
    if isinstance(value, str):
        parse_iterations_per_loop(value)
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        number = int(value)
        try:
            text = str(number)
        except ValueError as exc:  # more digits than Python converts
            raise custom_error(
                "iterations_per_loop",
                "iterations_per_loop is too large: {reason}",
                {"reason": str(exc)},
            ) from None
        parse_iterations_per_loop(text)
        return number
    raise custom_error("iterations_per_loop", _ITERATIONS_PER_LOOP_MESSAGE)


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


def positive_integer(value: Any, name: str) -> int:
    """Check ``value`` as TensorFlow's ``check_positive_integer`` does, refusing bools too."""
    if value is True:
        raise bool_error(value)  # TensorFlow reads True as 1.
    if not isinstance(value, numbers.Integral):
        raise custom_error(
            "int_type",
            "{name} must be int, got {type}",
            {"name": name, "type": str(type(value))},
        )
    if value <= 0:
        raise custom_error(
            "positive_int",
            "{name} must be positive, got {value}",
            {"name": name, "value": str(value)},
        )
    return int(value)


def number_equal_to(value: Any, choices: Sequence[int]) -> int | None:
    """Return the choice ``value`` equals, as Python's ``in`` finds it; bools never match."""
    number: Any = value
    if not isinstance(number, numbers.Number) or isinstance(number, bool):
        return None
    return next((choice for choice in choices if choice == value), None)


CORES: Final = [1, 2, 4, 8, 16, 32, 64, 128]
"""The values ``num_cores_per_replica`` may take."""


# --- InputPipelineConfig values ---------------------------------------------------------------

PIPELINE_NAMES: Final = [member.name for member in InputPipelineConfig]
PIPELINE_NUMBERS: Final = [member.value for member in InputPipelineConfig]


def as_pipeline_config(value: Any, names: bool) -> InputPipelineConfig | None:
    """Read a member, its number or (in a document) its name; ``None`` for anything else.

    TensorFlow compares these settings with numbers, so a name given as a
    keyword argument is refused like any other string.
    """
    if isinstance(value, InputPipelineConfig):
        return value
    if isinstance(value, str):
        return InputPipelineConfig.__members__.get(value) if names else None
    number = number_equal_to(value, PIPELINE_NUMBERS)
    return None if number is None else InputPipelineConfig(number)


def _dump_pipeline_config(value: InputPipelineConfig, info: SerializationInfo) -> Any:
    return value.name if info.mode_is_json() else value


PIPELINE_SCHEMA: Final[list[dict[str, Any]]] = [
    {"type": "integer", "enum": PIPELINE_NUMBERS},
    {"type": "string", "enum": PIPELINE_NAMES},
]

PipelineConfig = Annotated[
    InputPipelineConfig,
    PlainSerializer(_dump_pipeline_config, return_type=Any),
    WithJsonSchema({"anyOf": PIPELINE_SCHEMA}, mode="validation"),
    WithJsonSchema({"type": "string", "enum": PIPELINE_NAMES}, mode="serialization"),
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
    raise custom_error(
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


def is_per_host_v2_constant(mode: Any, *, names: bool) -> bool:
    """Whether ``mode`` is PER_HOST_V2 itself, as TensorFlow's ``is`` test sees it.

    The member stands for TensorFlow's constant, and so does its name when
    ``names`` (a document; a keyword argument ``'PER_HOST_V2'`` is just a
    string to TensorFlow).  Small Python ints are unique objects, so an
    ``int`` equal to 3 *is* the constant; ``3.0``, ``True`` or a NumPy
    integer is not.
    """
    if isinstance(mode, InputPipelineConfig):
        return mode is InputPipelineConfig.PER_HOST_V2
    if isinstance(mode, str):
        return names and mode == InputPipelineConfig.PER_HOST_V2.name
    return type(mode) is int and mode == InputPipelineConfig.PER_HOST_V2.value


@with_config(ConfigDict(title="IterationsPerLoopCounter"))
class IterationsPerLoopCounterDump(TypedDict):
    value: int
    unit: Literal["count", "seconds"]


def each_dims(
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
