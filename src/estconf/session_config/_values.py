"""The values of protobuf fields in their JSON form, as pydantic types.

TensorFlow reads a ``ConfigProto`` given as JSON with protobuf's JSON parser
(``google.protobuf.json_format.ParseDict``).  The types here accept the
values that parser accepts, with the same meaning, and refuse the values it
refuses.  Where the parser is sloppy (it reads ``true`` as the enum value 1,
``"1_000"`` as an integer, or ``"é"`` as empty bytes) the types are stricter;
every such rule is listed in ``docs/session_config.md``.

- Integers (``Int32``, ``Int64``, ``UInt32``, ``UInt64``): a JSON integer, a
  whole float (``2.0``) or a string of ASCII digits (``"12"``, ``"-3"``), in
  the range of the protobuf type; held and dumped as ``int``.
- Floating point (``Double``, ``Float32``): a JSON number, a string holding a
  JSON number (``"0.5"``), or ``"NaN"``, ``"Infinity"``, ``"-Infinity"``; held
  as ``float`` and dumped as a number, or as one of those three strings.
- ``ProtoString``: a string without surrogate code points.
- ``ProtoBytes``: base64 text (standard or URL-safe alphabet, with or without
  padding); held and dumped as standard, padded base64.
- Enums (:class:`ProtoEnum`): a value name, or its number (also as a string
  of digits); held and dumped as the name.
- Repeated fields (:data:`Repeated`) and maps (:data:`Map`): a JSON array and a
  JSON object.
"""

from __future__ import annotations

import base64
import binascii
import math
import operator
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, TypeVar, get_args

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler, Strict
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from estconf._errors import custom_error
from estconf._json import has_surrogate

__all__ = [
    "Double",
    "Float32",
    "Int32",
    "Int32Key",
    "Int64",
    "Map",
    "ProtoBool",
    "ProtoBytes",
    "ProtoEnum",
    "ProtoString",
    "Repeated",
    "Scalar",
    "UInt32",
    "UInt64",
]

_DIGITS = re.compile(r"-?[0-9]+")
_DIGITS_PATTERN = f"^{_DIGITS.pattern}$"


class Scalar:
    """Annotation that gives a type its reader, its dump and its JSON Schemas."""

    def __init__(
        self,
        kind: str,
        read: Callable[[Any], Any],
        accepts: JsonSchemaValue,
        dumps: JsonSchemaValue | None = None,
        dump: Callable[[Any], Any] | None = None,
    ) -> None:
        self.kind = kind
        """The protobuf scalar type: ``int32``, ``double``, ``bytes``, ..."""
        self.read = read
        self.accepts = accepts
        self.dumps = accepts if dumps is None else dumps
        self.dump = dump

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        serialization = (
            None
            if self.dump is None
            else core_schema.plain_serializer_function_ser_schema(self.dump)
        )
        return core_schema.no_info_plain_validator_function(self.read, serialization=serialization)

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return dict(self.dumps if handler.mode == "serialization" else self.accepts)


# --- integers -----------------------------------------------------------------


def _int_error(message: str, value: Any) -> PydanticCustomError:
    return custom_error("int_type", message, {"value": repr(value)})


def _integer_reader(kind: str, low: int, high: int) -> Callable[[Any], int]:
    def read(value: Any) -> int:
        if isinstance(value, bool):
            raise _int_error("Bool value {value} is not acceptable for integer field", value)
        if isinstance(value, str):
            if " " in value:
                raise custom_error(
                    "int_type",
                    'Couldn\'t parse integer: "{text}" (it holds a space)',
                    {"value": repr(value), "text": value[:60]},
                )
            if not _DIGITS.fullmatch(value):
                raise _int_error(
                    "Input should be an integer or a string of ASCII digits, got {value}", value
                )
            try:
                number = int(value)
            except ValueError:  # more digits than Python converts
                raise _int_error("Input has too many digits: {value}", value[:40]) from None
        elif isinstance(value, float):
            if not value.is_integer():
                raise _int_error("Couldn't parse integer: {value} (not a whole number)", value)
            number = int(value)
        elif isinstance(value, int):
            number = int(value)
        elif hasattr(value, "__index__"):  # numpy integers and other int-like scalars
            number = operator.index(value)
        else:
            raise _int_error("Input should be an integer, got {value}", value)
        if not low <= number <= high:
            raise custom_error(
                "int_range",
                "Value out of range: {value} ({kind} holds {low} to {high})",
                {"kind": kind, "low": low, "high": high, "value": number},
            )
        return number

    return read


def _integer(kind: str, low: int, high: int) -> Scalar:
    number = {"type": "integer", "minimum": low, "maximum": high}
    return Scalar(
        kind,
        _integer_reader(kind, low, high),
        accepts={"anyOf": [number, {"type": "string", "pattern": _DIGITS_PATTERN}]},
        dumps=number,
    )


Int32 = Annotated[int, _integer("int32", -(2**31), 2**31 - 1)]
"""A protobuf ``int32``."""
Int64 = Annotated[int, _integer("int64", -(2**63), 2**63 - 1)]
"""A protobuf ``int64``; protobuf writes it as a string, which is read too."""
UInt32 = Annotated[int, _integer("uint32", 0, 2**32 - 1)]
"""A protobuf ``uint32``."""
UInt64 = Annotated[int, _integer("uint64", 0, 2**64 - 1)]
"""A protobuf ``uint64``."""
Int32Key = Int32
"""An ``int32`` map key: JSON object keys are strings of digits."""


# --- floating point -------------------------------------------------------------

_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_SPECIAL_FLOATS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
FLOAT32_MAX = float.fromhex("0x1.fffffep+127")


def _float_error(code: str, message: str, value: Any) -> PydanticCustomError:
    return custom_error(code, message, {"value": repr(value)})


def _float_reader(kind: str, limit: float) -> Callable[[Any], float]:
    def read(value: Any) -> float:
        if isinstance(value, bool):
            raise _float_error(
                "float_type", "Input should be a number, not a boolean ({value})", value
            )
        if isinstance(value, str):
            if value in _SPECIAL_FLOATS:
                return _SPECIAL_FLOATS[value]
            if not _JSON_NUMBER.fullmatch(value):
                raise _float_error(
                    "float_type",
                    "Input should be a number, a string holding a JSON number, or one of "
                    "'NaN', 'Infinity', '-Infinity'; got {value}",
                    value,
                )
            number = float(value)
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise _float_error("float_type", _NOT_FINITE[str(_dump_float(value))], value)
            number = float(value)
        elif isinstance(value, int) or hasattr(value, "__index__"):
            try:
                number = float(operator.index(value))
            except OverflowError:
                number = math.inf  # refused below, as protobuf's parser refuses it
        elif hasattr(value, "__float__") and not isinstance(value, (bytes, bytearray)):
            number = float(value)  # numpy.float32, Decimal
            if not math.isfinite(number):
                raise _float_error(
                    "float_type", "Input should be a finite number, got {value}", value
                )
        else:
            raise _float_error("float_type", "Input should be a number, got {value}", value)
        if not abs(number) <= limit:
            context = {"kind": kind, "limit": limit, "value": repr(value)}
            if isinstance(value, float):  # protobuf's JSON parser's words for a JSON float
                raise custom_error(
                    "float_range",
                    "Float value too {size} (largest magnitude {limit}): {value}",
                    {**context, "size": "large" if number > 0 else "small"},
                )
            raise custom_error(
                "float_range",
                "{kind} value out of range (largest magnitude {limit}): {value}",
                context,
            )
        return number

    return read


def _dump_float(value: float) -> float | str:
    if math.isfinite(value):
        return value
    if math.isnan(value):
        return "NaN"
    return "Infinity" if value > 0 else "-Infinity"


# protobuf's JSON parser's words for a JSON number that is no finite number (the
# standard library reads NaN, Infinity and 1e400 as such numbers)
_NOT_FINITE = {
    "NaN": 'Couldn\'t parse NaN, use quoted "NaN" instead',
    "Infinity": 'Couldn\'t parse Infinity or value too large, use quoted "Infinity" instead',
    "-Infinity": ('Couldn\'t parse -Infinity or value too small, use quoted "-Infinity" instead'),
}

_SPECIAL_FLOAT_SCHEMA = {"type": "string", "enum": list(_SPECIAL_FLOATS)}


def _floating(kind: str, limit: float) -> Scalar:
    number: dict[str, Any] = {"type": "number"}
    if kind == "float":
        number.update(minimum=-limit, maximum=limit)
    return Scalar(
        kind,
        _float_reader(kind, limit),
        accepts={
            "anyOf": [
                number,
                {"type": "string", "pattern": f"^{_JSON_NUMBER.pattern}$"},
                _SPECIAL_FLOAT_SCHEMA,
            ]
        },
        dumps={"anyOf": [number, _SPECIAL_FLOAT_SCHEMA]},
        dump=_dump_float,
    )


Double = Annotated[float, _floating("double", sys.float_info.max)]
"""A protobuf ``double``."""
Float32 = Annotated[float, _floating("float", FLOAT32_MAX)]
"""A protobuf ``float``: held as a Python float, range-checked for 32 bits."""


# --- bool, string, bytes -------------------------------------------------------------


def _read_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise custom_error(
            "bool_type",
            "Expected true or false without quotes, got {value}",
            {"value": repr(value)},
        )
    return value


ProtoBool = Annotated[bool, Scalar("bool", _read_bool, accepts={"type": "boolean"})]
"""A protobuf ``bool``: ``true`` or ``false`` only."""


def _read_string(value: Any) -> str:
    if not isinstance(value, str):
        raise custom_error(
            "string_type", "Input should be a string, got {value}", {"value": repr(value)}
        )
    if has_surrogate(value):
        raise custom_error(
            "string_unicode",
            "Input should be valid Unicode text; it holds a surrogate code point",
        )
    return str(value)


ProtoString = Annotated[str, Scalar("string", _read_string, accepts={"type": "string"})]
"""A protobuf ``string``."""

_BASE64_DATA = re.compile(r"[A-Za-z0-9+/_-]*")
_BASE64_PATTERN = r"^(?:[A-Za-z0-9+/_-]{4})*(?:[A-Za-z0-9+/_-]{2}(?:==)?|[A-Za-z0-9+/_-]{3}=?)?$"
_TO_STANDARD = str.maketrans("-_", "+/")


def _read_bytes(value: Any) -> str:
    if not isinstance(value, str):
        raise custom_error(
            "bytes_type", "Input should be base64 text, got {value}", {"value": repr(value)}
        )
    data = value.rstrip("=")
    padding = len(value) - len(data)
    if (
        not _BASE64_DATA.fullmatch(data)
        or len(data) % 4 == 1
        or (padding and (padding > 2 or len(value) % 4))
    ):
        raise custom_error(
            "base64",
            "Input should be base64 text (standard or URL-safe alphabet, padding optional), "
            "got {value}",
            {"value": repr(value[:60])},
        )
    try:
        raw = base64.b64decode(data.translate(_TO_STANDARD) + "=" * (-len(data) % 4))
    except binascii.Error as exc:  # not expected after the checks above
        raise custom_error(
            "base64", "Input is not valid base64: {reason}", {"reason": str(exc)}
        ) from None
    return base64.b64encode(raw).decode("ascii")


ProtoBytes = Annotated[
    str,
    Scalar(
        "bytes",
        _read_bytes,
        accepts={"type": "string", "contentEncoding": "base64", "pattern": _BASE64_PATTERN},
        dumps={"type": "string", "contentEncoding": "base64"},
    ),
]
"""A protobuf ``bytes``, as base64 text; held and dumped in standard, padded base64."""


# --- enums -----------------------------------------------------------------


class ProtoEnum:
    """Annotation for a ``Literal`` of enum value names: also reads the values' numbers.

    The names are the ones the ``Literal`` lists.  Their numbers are 0, 1, 2,
    ... in that order, or ``numbers`` for an enum numbered otherwise.
    ``Annotated[Literal["A", "B"], ProtoEnum("pkg.E")]`` accepts ``"A"``,
    ``0`` and ``"0"`` and holds ``"A"``.
    """

    def __init__(self, full_name: str, numbers: Sequence[int] | None = None) -> None:
        self.full_name = full_name
        self._numbers = None if numbers is None else tuple(numbers)

    def values(self, names: Sequence[str]) -> dict[str, int]:
        """Map each of the enum's value names, as the ``Literal`` lists them, to its number."""
        numbers = range(len(names)) if self._numbers is None else self._numbers
        if len(numbers) != len(names) or len(set(numbers)) != len(numbers):
            raise TypeError(
                f"{self.full_name}: {len(names)} value names need as many distinct numbers, "
                f"got {list(numbers)}"
            )
        return dict(zip(names, numbers, strict=True))

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        names = get_args(source)
        reader = _EnumReader(self.full_name, self.values(names))
        return core_schema.no_info_before_validator_function(
            reader.read, core_schema.literal_schema(list(names))
        )

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        names = _literal_names(schema)
        if handler.mode == "serialization":
            return {"type": "string", "enum": names}
        numbers = sorted(self.values(names).values())
        spelled = "|".join(
            "-?0+" if n == 0 else (f"0*{n}" if n > 0 else f"-0*{-n}") for n in numbers
        )
        return {
            "anyOf": [
                {"type": "string", "enum": names},
                {"type": "integer", "enum": numbers},
                {"type": "string", "pattern": f"^(?:{spelled})$"},
            ]
        }


def _literal_names(schema: CoreSchema) -> list[str]:
    """The value names in the core schema :meth:`ProtoEnum.__get_pydantic_core_schema__` makes."""
    if schema["type"] == "function-before" and schema["schema"]["type"] == "literal":
        return list(schema["schema"]["expected"])
    raise TypeError(f"not the core schema of a ProtoEnum: {schema['type']}")


class _EnumReader:
    """Reads a value of one enum: its name, or its number."""

    def __init__(self, full_name: str, values: Mapping[str, int]) -> None:
        self.full_name = full_name
        self.numbers = dict(values)
        self.names = {number: name for name, number in self.numbers.items()}

    def read(self, value: Any) -> Any:
        """Turn a value name or number into the name; leave other input to the Literal check."""
        number: int | None = None
        if isinstance(value, str):
            if value in self.numbers:
                return value
            if len(value) < 40 and _DIGITS.fullmatch(value):
                number = int(value)
        elif isinstance(value, bool):
            pass
        elif isinstance(value, float):
            number = int(value) if value.is_integer() else None
        elif isinstance(value, int) or hasattr(value, "__index__"):
            number = operator.index(value)
        name = None if number is None else self.names.get(number)
        if name is None:
            raise custom_error(
                "enum",
                "Invalid enum value {value} for enum type {enum}: it should be one of {names} "
                "or its number {numbers}",
                {
                    "enum": self.full_name,
                    "names": ", ".join(self.numbers),
                    "numbers": ", ".join(map(str, self.names)),
                    # protobuf's JSON parser writes the value as str() does
                    "value": value if isinstance(value, str) else repr(value),
                },
            )
        return name


# --- repeated fields and maps ---------------------------------------------------

_T = TypeVar("_T")
_K = TypeVar("_K")
_V = TypeVar("_V")

Repeated = Annotated[list[_T], Strict()]
"""A repeated field: a JSON array (a Python ``list``, not a tuple)."""

Map = Annotated[dict[_K, _V], Strict()]
"""A map field: a JSON object (a Python ``dict``)."""
