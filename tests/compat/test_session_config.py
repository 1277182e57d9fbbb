"""``estconf.session_config`` against TensorFlow's own protobuf descriptors and JSON parser.

Runs only where TensorFlow is importable.  Three checks:
- every model has exactly the fields of its protobuf message, with the same
  types, JSON names and enum values;
- on generated input (right and wrong values of every protobuf type), the
  models accept exactly what ``json_format.ParseDict`` accepts, except for
  the documented stricter rules, and what they accept means the same message;
- ``to_proto`` / ``from_proto`` round-trip.
"""

from __future__ import annotations

import base64
import contextlib
import decimal
import functools
import importlib
import math
import os
import types
import typing
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from estconf._on_first_use import field_type
from estconf.session_config import ConfigProto, Message, default_distributed_session_config
from estconf.session_config._message import json_name
from estconf.session_config._values import ProtoEnum, Scalar

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
pytest.importorskip("tensorflow", reason="the compatibility tests need TensorFlow installed")

json_format = importlib.import_module("google.protobuf.json_format")
message_factory = importlib.import_module("google.protobuf.message_factory")
config_pb2 = importlib.import_module("tensorflow.core.protobuf.config_pb2")
numpy: Any = importlib.import_module("numpy")
FD = importlib.import_module("google.protobuf.descriptor").FieldDescriptor
Descriptor = Any
FieldDescriptor = Any

pytestmark = pytest.mark.compat

ROOT: Descriptor = config_pb2.ConfigProto.DESCRIPTOR

SCALAR_KINDS = {
    FD.TYPE_INT32: "int32",
    FD.TYPE_INT64: "int64",
    FD.TYPE_UINT32: "uint32",
    FD.TYPE_UINT64: "uint64",
    FD.TYPE_DOUBLE: "double",
    FD.TYPE_FLOAT: "float",
    FD.TYPE_BOOL: "bool",
    FD.TYPE_STRING: "string",
    FD.TYPE_BYTES: "bytes",
}


# --- structure -------------------------------------------------------------------


def _strip_optional(annotation: Any) -> Any:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        assert len(args) == 1
        return args[0]
    return annotation


def _describe(annotation: Any) -> Any:
    """A comparable description of an estconf field type."""
    annotation = _strip_optional(annotation)
    if isinstance(annotation, type) and issubclass(annotation, Message):
        return ("message", annotation.proto_name)
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        inner, *metadata = typing.get_args(annotation)
        for meta in metadata:
            if isinstance(meta, Scalar):
                return meta.kind
            if isinstance(meta, ProtoEnum):
                values = meta.values(typing.get_args(inner))
                return ("enum", meta.full_name, tuple(values.items()))
        return _describe(inner)
    if origin is list:
        return ("repeated", _describe(typing.get_args(annotation)[0]))
    if origin is dict:
        key, value = typing.get_args(annotation)
        return ("map", _describe(key), _describe(value))
    raise AssertionError(f"unexpected annotation {annotation!r}")


def _describe_proto(field: FieldDescriptor) -> Any:
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        entry = field.message_type.fields_by_name
        return ("map", _describe_scalar(entry["key"]), _describe_scalar(entry["value"]))
    single = _describe_scalar(field)
    return ("repeated", single) if field.label == FD.LABEL_REPEATED else single


def _describe_scalar(field: FieldDescriptor) -> Any:
    if field.type == FD.TYPE_MESSAGE:
        return ("message", field.message_type.full_name)
    if field.type == FD.TYPE_ENUM:
        values = tuple((value.name, value.number) for value in field.enum_type.values)
        return ("enum", field.enum_type.full_name, values)
    return SCALAR_KINDS[field.type]


@functools.cache
def _models() -> dict[str, type[Message]]:
    found: dict[str, type[Message]] = {}
    pending: list[type[Message]] = [ConfigProto]
    while pending:
        model = pending.pop()
        if model.proto_name in found:
            continue
        found[model.proto_name] = model
        model.model_rebuild()  # resolve the names of messages defined after this one
        for info in model.model_fields.values():
            pending.extend(_nested_models(field_type(info)))
    return found


def _nested_models(annotation: Any) -> list[type[Message]]:
    if isinstance(annotation, type) and issubclass(annotation, Message):
        return [annotation]
    return [model for arg in typing.get_args(annotation) for model in _nested_models(arg)]


@functools.cache
def _descriptors() -> dict[str, Descriptor]:
    found: dict[str, Descriptor] = {}
    pending = [ROOT]
    while pending:
        message = pending.pop()
        if message.full_name in found or message.GetOptions().map_entry:
            if message.GetOptions().map_entry:
                pending.extend(f.message_type for f in message.fields if f.message_type)
            continue
        found[message.full_name] = message
        pending.extend(f.message_type for f in message.fields if f.message_type is not None)
    return found


def test_every_message_is_modelled() -> None:
    assert sorted(_models()) == sorted(_descriptors())


@pytest.mark.parametrize("full_name", sorted(_descriptors()))
def test_fields_match_the_descriptor(full_name: str) -> None:
    model = _models()[full_name]
    descriptor = _descriptors()[full_name]
    assert list(model.model_fields) == [field.name for field in descriptor.fields]
    for field in descriptor.fields:
        assert json_name(field.name) == field.json_name
        assert _describe(field_type(model.model_fields[field.name])) == _describe_proto(field), (
            field.name
        )
        assert model.model_fields[field.name].description
    oneofs = [o for o in descriptor.oneofs if not o.name.startswith("_")]
    if oneofs:
        (oneof,) = oneofs
        assert tuple(f.name for f in oneof.fields) == model.oneof  # type: ignore[attr-defined]


# --- differential fuzzing against ParseDict ----------------------------------------


@dataclass(frozen=True)
class Case:
    """A generated JSON value, and whether it is input estconf may refuse on purpose."""

    value: Any
    sloppy: bool = False


@dataclass(frozen=True)
class Values:
    """Values of one protobuf type: right ones, wrong ones, and sloppy ones.

    Sloppy values are accepted by ParseDict but fall under a documented rule
    where estconf is stricter.
    """

    right: st.SearchStrategy[Any]
    wrong: st.SearchStrategy[Any]
    sloppy: st.SearchStrategy[Any]


@st.composite
def _pick(draw: st.DrawFn, values: Values) -> Case:
    roll = draw(st.integers(0, 9))
    if roll < 7:
        return Case(draw(values.right))
    if roll < 9 or values.sloppy.is_empty:
        return Case(draw(values.wrong))
    return Case(draw(values.sloppy), sloppy=True)


def _integers(low: int, high: int) -> Values:
    in_range = st.one_of(st.integers(low, high), st.sampled_from([low, high, 0, 1, high - 1]))
    out_of_range = st.sampled_from([low - 1, high + 1, 2**64, -(2**64)])
    return Values(
        right=st.one_of(
            in_range,
            in_range.map(str),
            st.integers(max(low, -(2**52)), min(high, 2**52)).map(float),
            st.sampled_from(["-0", "007"]).filter(lambda text: low <= int(text)),
        ),
        wrong=st.one_of(
            out_of_range,
            out_of_range.map(str),
            st.sampled_from([0.5, -1.5, math.nan, math.inf, 1e300, True, False, None]),
            st.sampled_from(["", "1.0", "1e3", " 1", "0x10", "one", "--1", [], {}, [1]]),
        ),
        sloppy=st.sampled_from(["+1", "\t1", "1\n", "1_0", "\u0663"]),
    )


def _floats(kind: str) -> Values:
    width: typing.Literal[32, 64] = 32 if kind == "float" else 64
    wrong = [math.nan, math.inf, -math.inf, "nan", "abc", "", "1.0.0", 10**400, None, [], {}]
    sloppy = [True, False, "inf", "-inf", "infinity", ".5", "5.", "+1", " 1", "1_0", "-NaN"]
    if kind == "float":
        wrong += [1e39, -1e39, 3.5e38]
        sloppy += ["1e39", 10**39, "3.4028235e38", "1e400"]
    else:
        sloppy += ["1e400"]
    return Values(
        right=st.one_of(
            st.floats(allow_nan=False, allow_infinity=False, width=width),
            st.integers(-(2**60), 2**60),
            st.sampled_from(["NaN", "Infinity", "-Infinity", "0.5", "-1e5", "0", "3", "1E-3"]),
            st.floats(-1e6, 1e6).map(repr),
        ),
        wrong=st.sampled_from(wrong),
        sloppy=st.sampled_from(sloppy),
    )


_STRINGS = Values(
    right=st.one_of(st.text(max_size=8), st.just("😀")),
    wrong=st.sampled_from(["\ud800", "a\udfff", "\ud83d\ude00", 5, True, b"x", None, [], {}]),
    sloppy=st.nothing(),
)

_BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_"
_canonical_base64 = st.binary(max_size=12).map(lambda raw: base64.b64encode(raw).decode())

_BYTES = Values(
    right=st.one_of(
        _canonical_base64,
        _canonical_base64.map(lambda text: text.rstrip("=")),
        _canonical_base64.map(lambda text: text.replace("+", "-").replace("/", "_")),
        st.text(alphabet=_BASE64_ALPHABET, max_size=9).filter(lambda text: len(text) % 4 != 1),
    ),
    wrong=st.sampled_from(["Y", "YWJjY", "\ud800", 5, True, None, [], {}]),
    sloppy=st.sampled_from(["YQ=", "YWJj==", "Y W J j", "a=bc", "é", "YQ===", b"YWJj"]),
)

_BOOLS = Values(
    right=st.booleans(),
    wrong=st.sampled_from([0, 1, "true", "false", 1.0, "", None, [], {}]),
    sloppy=st.nothing(),
)


def _enums(field: FieldDescriptor) -> Values:
    names = [value.name for value in field.enum_type.values]
    numbers = [value.number for value in field.enum_type.values]
    unknown = [n for n in (-2, 7, 99, 1000) if n not in numbers]
    return Values(
        right=st.one_of(
            st.sampled_from(names),
            st.sampled_from(numbers),
            st.sampled_from(numbers).map(str),
            st.sampled_from(numbers).map(float),
        ),
        wrong=st.sampled_from([name.lower() for name in names] + ["", "X", "1.5", [], {}, None]),
        sloppy=st.one_of(
            st.sampled_from(unknown), st.sampled_from([True, False, 1.5, " 1", "+1", "1_0", "01"])
        ),
    )


def _scalar(field: FieldDescriptor) -> Values:
    kind = SCALAR_KINDS.get(field.type)
    if kind == "int32":
        return _integers(-(2**31), 2**31 - 1)
    if kind == "int64":
        return _integers(-(2**63), 2**63 - 1)
    if kind == "uint32":
        return _integers(0, 2**32 - 1)
    if kind == "uint64":
        return _integers(0, 2**64 - 1)
    if kind in ("double", "float"):
        return _floats(kind)
    if kind == "bool":
        return _BOOLS
    if kind == "string":
        return _STRINGS
    if kind == "bytes":
        return _BYTES
    if field.type == FD.TYPE_ENUM:
        return _enums(field)
    raise AssertionError(field.type)


def _join(cases: list[Case], value: Any) -> Case:
    return Case(value, sloppy=any(case.sloppy for case in cases))


def _element(field: FieldDescriptor, depth: int, limit: int) -> st.SearchStrategy[Case]:
    if field.type == FD.TYPE_MESSAGE:
        return _message(field.message_type, depth + 1, limit)
    return _pick(_scalar(field))


@st.composite
def _repeated(draw: st.DrawFn, field: FieldDescriptor, depth: int, limit: int) -> Case:
    roll = draw(st.integers(0, 9))
    if roll == 0:
        return Case(draw(st.sampled_from([None, {}, "x", ("a",)])))
    if roll == 1:
        return draw(_element(field, depth, limit))  # a single value where a list is meant
    items = draw(st.lists(_element(field, depth, limit), max_size=3))
    if roll == 2:
        items.append(Case(None))
    return _join(items, [item.value for item in items])


_INT_KEYS = Values(
    right=st.one_of(st.integers(-3, 3).map(str), st.integers(-3, 3)),
    wrong=st.sampled_from(["x", " 1", str(2**31), "1.0", "", True]),
    sloppy=st.sampled_from(["01", "+1", "\t2", "1_0", "-0"]),
)


@st.composite
def _map(draw: st.DrawFn, field: FieldDescriptor, depth: int, limit: int) -> Case:
    if draw(st.integers(0, 9)) == 0:
        return Case(draw(st.sampled_from([None, [], "x"])))
    entry = field.message_type.fields_by_name
    key_field, value_field = entry["key"], entry["value"]
    keys = _STRINGS if key_field.type == FD.TYPE_STRING else _INT_KEYS
    cases: list[Case] = []
    data: dict[Any, Any] = {}
    for _ in range(draw(st.integers(0, 3))):
        key = draw(_pick(keys))
        if isinstance(key.value, (list, dict, bytes)) or key.value is None:
            continue
        value = draw(_element(value_field, depth, limit))
        cases += [key, value]
        if key_field.type != FD.TYPE_STRING and _same_index(key.value, data):
            cases.append(Case(None, sloppy=True))  # one index written two ways
        data[key.value] = value.value
    return _join(cases, data)


def _same_index(key: Any, data: dict[Any, Any]) -> bool:
    def index(value: Any) -> Any:
        try:
            return int(value)
        except (TypeError, ValueError):
            return value

    return any(other != key and index(other) == index(key) for other in data)


def _field(field: FieldDescriptor, depth: int, limit: int) -> st.SearchStrategy[Case]:
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        return _map(field, depth, limit)
    if field.label == FD.LABEL_REPEATED:
        return _repeated(field, depth, limit)
    return st.one_of(_element(field, depth, limit), st.just(Case(None)))


@st.composite
def _message(draw: st.DrawFn, descriptor: Descriptor, depth: int = 0, limit: int = 3) -> Case:
    roll = draw(st.integers(0, 29))
    if roll == 0:
        return Case(draw(st.sampled_from(["", []])), sloppy=True)  # read as an empty message
    if roll == 1:
        return Case(draw(st.sampled_from([5, "x", True, None if depth else 1])))
    fields = list(descriptor.fields)
    if depth >= limit:
        fields = [field for field in fields if field.type != FD.TYPE_MESSAGE]
    chosen = draw(st.lists(st.sampled_from(fields), max_size=4, unique=True)) if fields else []
    cases: list[Case] = []
    data: dict[str, Any] = {}
    for field in chosen:
        case = draw(_field(field, depth, limit))
        key = draw(st.sampled_from([field.name, field.json_name]))
        data[key] = case.value
        cases.append(case)
        if field.json_name != field.name and draw(st.integers(0, 19)) == 0:
            other = field.json_name if key == field.name else field.name
            data[other] = draw(_field(field, depth, limit)).value
            cases.append(Case(None, sloppy=True))  # the same field under both names
    if draw(st.integers(0, 29)) == 0:
        data[draw(st.sampled_from(["unknown", "AllowSoftPlacement", "[ext]", ""]))] = 1
    return _join(cases, data)


def _message_class(descriptor: Descriptor) -> Any:
    return message_factory.GetMessageClass(descriptor)


def _parse(data: Any, descriptor: Descriptor = ROOT) -> Any:
    """ParseDict's verdict: the message, or None when it refuses the input."""
    try:
        return json_format.ParseDict(data, _message_class(descriptor)())
    except Exception:  # ParseDict lets TypeError, OverflowError, ... escape too
        return None


def _ours(data: Any, model: type[Message] = ConfigProto) -> Message | None:
    try:
        return model.model_validate(data)
    except ValidationError:
        return None


def _same(a: Any, b: Any) -> bool:
    return bool(a.SerializeToString(deterministic=True) == b.SerializeToString(deterministic=True))


# Examples per message: the hypothesis profile's (HYPOTHESIS_PROFILE=thorough for more),
# or ESTCONF_COMPAT_EXAMPLES.
EXAMPLES = int(os.environ.get("ESTCONF_COMPAT_EXAMPLES", "0")) or settings().max_examples


def _event(text: str) -> None:
    with contextlib.suppress(Exception):  # outside a hypothesis test
        event(text)


def _check(case: Case, full_name: str) -> None:
    descriptor = _descriptors()[full_name]
    model = _models()[full_name]
    theirs = _parse(case.value, descriptor)
    ours = _ours(case.value, model)
    _event(
        f"protobuf {'accepts' if theirs else 'refuses'}, estconf {'accepts' if ours else 'refuses'}"
    )
    if ours is not None:
        assert theirs is not None, "estconf accepts input that protobuf refuses"
        again = _parse(ours.to_proto_dict(), descriptor)
        assert again is not None, "protobuf refuses estconf's dump"
        assert _same(again, theirs), "estconf reads the input with another meaning"
        dumped = ours.model_dump(mode="json")
        assert model.model_validate(dumped).to_proto_dict() == ours.to_proto_dict()
        assert _same(model.from_proto(theirs).to_proto(_message_class(descriptor)), theirs)
    elif theirs is not None:
        assert case.sloppy, "estconf refuses input that protobuf accepts"


@pytest.mark.parametrize("full_name", sorted(_descriptors()))
def test_accepts_what_parsedict_accepts(full_name: str) -> None:
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_message(_descriptors()[full_name], limit=2))
    def check(case: Case) -> None:
        _check(case, full_name)

    check()


@settings(max_examples=EXAMPLES * 5, deadline=None, suppress_health_check=list(HealthCheck))
@given(_message(ROOT, limit=4))
def test_accepts_what_parsedict_accepts_deep(case: Case) -> None:
    _check(case, ROOT.full_name)


# --- every catalogued value in every field ------------------------------------------


def _int_catalogue(low: int, high: int) -> list[Case]:
    right = [
        low,
        high,
        0,
        1,
        high - 1,
        str(low),
        str(high),
        "0",
        "-0",
        "007",
        5.0,
        float(high // 2),
    ]
    wrong = [low - 1, high + 1, str(low - 1), str(high + 1), 2**64, -(2**64), 0.5, -1.5]
    wrong += [math.nan, math.inf, 1e300, True, False, "", "1.0", "1e3", " 1", "1 ", "0x10"]
    wrong += ["one", "--1", "-", [], {}, [1]]
    sloppy = ["+1", "\t1", "1\n", "1_0", "\u0663"]
    return _cases(right, wrong, sloppy)


def _cases(right: list[Any], wrong: list[Any], sloppy: list[Any]) -> list[Case]:
    return [Case(v) for v in right + wrong] + [Case(v, sloppy=True) for v in sloppy]


def _float_catalogue(kind: str) -> list[Case]:
    right = [0, 1, -1, 0.5, 1e-300, 1e300, -1e300, 2**60, "NaN", "Infinity", "-Infinity"]
    right += [numpy.float32(0.5), numpy.float64(0.25), numpy.int32(3), decimal.Decimal("0.5")]
    right += ["0.5", "-1e5", "0", "3", "1E-3", "-0", "1e+2"]
    wrong = [math.nan, math.inf, -math.inf, "nan", "abc", "", "1.0.0", 10**400, [], {}]
    sloppy = [True, False, "inf", "-inf", "infinity", ".5", "5.", "+1", " 1", "1_0", "-NaN"]
    sloppy += ["1e400"]
    if kind == "float":
        right += [3.4028234663852886e38, -3.4028234663852886e38, "3.4028234663852886e38", 1e-50]
        wrong += [1e39, -1e39, 3.5e38, 3.4028235e38]
        sloppy += ["1e39", 10**39, -(10**39), "3.4028235e38"]
    else:
        right += [1.7976931348623157e308]
    return _cases(right, wrong, sloppy)


def _catalogue(field: FieldDescriptor) -> list[Case]:
    kind = SCALAR_KINDS.get(field.type)
    if kind in ("int32", "int64", "uint32", "uint64"):
        bits = int(kind[-2:])
        low, high = (
            (0, 2**bits - 1) if kind.startswith("u") else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
        )
        return _int_catalogue(low, high)
    if kind in ("double", "float"):
        return _float_catalogue(kind)
    if kind == "bool":
        return _cases(
            [True, False], [0, 1, "true", "false", 1.0, "", [], {}, numpy.bool_(True)], []
        )
    if kind == "string":
        right = ["", "a", "/job:ps", "😀", "\x00", "é"]
        wrong = ["\ud800", "a\udfff", "\ud83d\ude00", 5, True, b"x", [], {}]
        return _cases(right, wrong, [])
    if kind == "bytes":
        right = ["", "YQ==", "YWI=", "YWJj", "YQ", "YWI", "-_8", "+/8=", "AAAA", "YR=="]
        wrong = ["Y", "YWJjY", "\ud800", 5, True, [], {}]
        sloppy = ["YQ=", "YWJj==", "Y W J j", "a=bc", "é", "YQ===", b"YWJj", "YQ==\n"]
        return _cases(right, wrong, sloppy)
    assert field.type == FD.TYPE_ENUM
    names = [value.name for value in field.enum_type.values]
    numbers = [value.number for value in field.enum_type.values]
    known: list[Any] = [*names, *numbers, *map(str, numbers), *map(float, numbers), "-0", "00"]
    known += [numpy.int64(numbers[0])]
    unknown: list[Any] = [name.lower() for name in names] + ["", "X", "1.5", " ONE", [], {}]
    # Numbers that name no value, and bools, fractions, loosely written numbers.
    loose: list[Any] = [n for n in (-2, 7, 99, 1000, 2**31 - 1, 2**40) if n not in numbers]
    loose += [True, False, 1.5, " 1", "+1", "1_0"]
    return _cases(known, unknown, loose)


def _field_inputs() -> list[tuple[str, str, Case]]:
    inputs: list[tuple[str, str, Case]] = []
    for full_name, descriptor in sorted(_descriptors().items()):
        for field in descriptor.fields:
            if field.message_type is not None and field.message_type.GetOptions().map_entry:
                entry = field.message_type.fields_by_name
                key = "k" if entry["key"].type == FD.TYPE_STRING else "1"
                if entry["value"].type != FD.TYPE_MESSAGE:
                    for case in _catalogue(entry["value"]):
                        inputs.append((full_name, field.name, Case({key: case.value}, case.sloppy)))
                if entry["key"].type != FD.TYPE_STRING:
                    for case in _int_catalogue(-(2**31), 2**31 - 1):
                        if isinstance(case.value, (list, dict)):
                            continue
                        inputs.append((full_name, field.name, Case({case.value: "a"}, case.sloppy)))
                    inputs.append((full_name, field.name, Case({"1": "a", "01": "b"}, sloppy=True)))
                continue
            if field.type == FD.TYPE_MESSAGE:
                values: list[Any] = [{}, None, [], "", 5, "x", {"nope": 1}]
                for value in values:
                    inputs.append((full_name, field.name, Case(value, value in ("", []))))
                continue
            for case in _catalogue(field):
                if field.label == FD.LABEL_REPEATED:
                    inputs.append((full_name, field.name, Case([case.value], case.sloppy)))
                else:
                    inputs.append((full_name, field.name, case))
            if field.label == FD.LABEL_REPEATED:
                for value in (None, [], [None], {}, "x"):
                    inputs.append((full_name, field.name, Case(value)))
    return inputs


def test_every_catalogued_value_in_every_field() -> None:
    failures: list[str] = []
    checked = 0
    for full_name, name, case in _field_inputs():
        descriptor = _descriptors()[full_name]
        for spelling in {name, descriptor.fields_by_name[name].json_name}:
            data = {spelling: case.value}
            checked += 1
            try:
                _check(Case(data, case.sloppy), full_name)
            except AssertionError as exc:
                failures.append(f"{full_name}.{spelling} = {case.value!r}: {exc}".splitlines()[0])
    assert checked > 5000
    assert not failures, "\n".join(failures[:50])


# --- hand-picked cases -------------------------------------------------------------


def _nested_attr(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(levels):
        value = {"func": {"attr": {"a": value}}}
    return value


def _config_with_attr(attr: dict[str, Any]) -> dict[str, Any]:
    optimizer = {"name": "x", "parameter_map": {"p": attr}}
    return {"graph_options": {"rewrite_options": {"custom_optimizers": [optimizer]}}}


@pytest.mark.parametrize("levels", [46, 47, 48, 60, 130])
def test_depth_limit_is_protobufs(levels: int) -> None:
    # ConfigProto, GraphOptions, RewriterConfig, CustomGraphOptimizer, AttrValue: 5 deep,
    # then 2 more per level.
    data = _config_with_attr(_nested_attr(levels))
    assert (_parse(data) is None) == (_ours(data) is None)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"allow_soft_placement": True},
        {"device_count": {"CPU": "2", "GPU": 0}},
        {"operation_timeout_in_ms": "9223372036854775807"},
        {"operation_timeout_in_ms": "9223372036854775808"},
        {"gpu_options": {"per_process_gpu_memory_fraction": "NaN"}},
        {"gpu_options": {"experimental": {"gpu_host_mem_limit_in_mb": 3.4028234663852886e38}}},
        {"gpu_options": {"experimental": {"gpu_host_mem_limit_in_mb": 3.4028235e38}}},
        {"graph_options": {"optimizer_options": {"opt_level": "-1"}}},
        {"graph_options": {"rewrite_options": {"meta_optimizer_iterations": "ONE"}}},
        {"graph_options": {"rewrite_options": {"memory_optimization": 3}}},
        {"cluster_def": {"job": [{"name": "w", "tasks": {"0": "a:1", "-1": "b:2"}}]}},
        _config_with_attr({"s": "YQ==", "i": None}),
        _config_with_attr({"s": "YQ==", "i": 3}),
        _config_with_attr({"list": {"type": ["DT_INT32", 2], "f": ["NaN", 1]}}),
        _config_with_attr({"tensor": {"uint64_val": ["18446744073709551615"]}}),
        {"experimental": {"mlir_bridge_rollout": "MLIR_BRIDGE_ROLLOUT_ENABLED"}},
    ],
)
def test_hand_picked_inputs(data: dict[str, Any]) -> None:
    theirs = _parse(data)
    ours = _ours(data)
    assert (theirs is None) == (ours is None)
    if ours is not None:
        assert _same(ours.to_proto(), theirs)


@pytest.mark.parametrize(
    "text",
    [
        '{"allow_soft_placement": true, "allow_soft_placement": false}',
        '{"device_count": {"CPU": 1, "CPU": 2}}',
        '{"cluster_def": {"job": [{"name": "w", "tasks": {"1": "a:1", "1": "b:1"}}]}}',
        '{"gpu_options": {}, "gpu_options": {}}',
        b'{"graph_options": {"rewrite_options": {"custom_optimizers": '
        b'[{"name": "x", "parameter_map": {"p": {"s": "YQ==", "s": "YQ=="}}}]}}}',
        b"\xef\xbb\xbf{}",
        "\ufeff{}",
        b'{"device_filters": ["\xff"]}',
        '{"gpu_options": {"per_process_gpu_memory_fraction": NaN}}',
        '{"gpu_options": {"per_process_gpu_memory_fraction": 1e400}}',
        '{"device_filters": ["\\ud800"]}',
        '{"device_filters": ["\\ud83d\\ude00"], "operation_timeout_in_ms": 9.2233720368547748e18}',
        '{"intra_op_parallelism_threads": 1E2, "gpu_options": {"allow_growth": true}}',
        '{"device_count": {"CPU": 1, "GPU": 2}}',
        "[" * 5000,
        "",
    ],
)
def test_json_text_is_read_as_parse_reads_it(text: str | bytes) -> None:
    try:
        theirs = json_format.Parse(text, config_pb2.ConfigProto())
    except Exception:  # Parse lets UnicodeDecodeError and RecursionError escape too
        theirs = None
    try:
        ours = ConfigProto.model_validate_json(text)
    except ValidationError as exc:
        if theirs is None and "duplicate key" in str(exc):
            assert exc.errors()[0]["msg"] in _parse_error(text)
        ours = None
    assert (theirs is None) == (ours is None)
    if ours is not None:
        assert _same(ours.to_proto(), theirs)


def _parse_error(text: str | bytes) -> str:
    with pytest.raises(json_format.ParseError) as info:
        json_format.Parse(text, config_pb2.ConfigProto())
    return str(info.value)


def _both_refuse(data: dict[str, Any]) -> tuple[str, str]:
    """Protobuf's sentence refusing ``data`` (no field name or place), and estconf's message."""
    with pytest.raises(json_format.ParseError) as theirs:
        json_format.ParseDict(data, config_pb2.ConfigProto())
    with pytest.raises(ValidationError) as ours:
        ConfigProto.model_validate(data)
    (error,) = ours.value.errors()
    sentence = str(theirs.value).rsplit(" field: ", 1)[1].split(" at ")[0].rstrip(".")
    return sentence, error["msg"]


@pytest.mark.parametrize(
    "data",
    [
        {"placement_period": 2**31},
        {"intra_op_parallelism_threads": "-2147483649"},
        {"operation_timeout_in_ms": 2.0**63},
        {"operation_timeout_in_ms": str(-(2**63) - 1)},
        {"gpu_options": {"experimental": {"num_dev_to_dev_copy_streams": 2**31}}},
        _config_with_attr({"tensor": {"uint64_val": [-1]}}),
        _config_with_attr({"tensor": {"uint32_val": [2**32]}}),
    ],
)
def test_an_integer_out_of_range_is_refused_in_protobufs_words(data: dict[str, Any]) -> None:
    sentence, message = _both_refuse(data)
    assert sentence.startswith("Value out of range: ")
    assert sentence in message


@pytest.mark.parametrize(
    "data",
    [
        {"graph_options": {"optimizer_options": {"global_jit_level": "FAST"}}},
        {"graph_options": {"optimizer_options": {"opt_level": "l1"}}},
        {"graph_options": {"rewrite_options": {"layout_optimizer": "On"}}},
        {"graph_options": {"rewrite_options": {"memory_optimization": "1.5"}}},
        {"experimental": {"mlir_bridge_rollout": ""}},
        _config_with_attr({"list": {"type": ["DT_FLOAT", "float32"]}}),
    ],
)
def test_a_value_of_no_enum_name_is_refused_in_protobufs_words(data: dict[str, Any]) -> None:
    sentence, message = _both_refuse(data)
    assert sentence.startswith("Invalid enum value ")
    assert message.startswith(f"{sentence}: ")


@pytest.mark.parametrize(
    "data",
    [
        {"allow_soft_placement": "true"},
        {"gpu_options": {"allow_growth": 1}},
        {"graph_options": {"infer_shapes": "yes"}},
        {"experimental": {"disable_thread_spinning": 0.0}},
    ],
)
def test_a_bool_is_refused_in_protobufs_words(data: dict[str, Any]) -> None:
    sentence, message = _both_refuse(data)
    assert sentence == "Expected true or false without quotes"
    assert message.startswith(f"{sentence}, got ")


@pytest.mark.parametrize(
    "data",
    [
        {"placement_period": True},
        {"placement_period": 1.5},
        {"operation_timeout_in_ms": " 5"},
        {"gpu_options": {"per_process_gpu_memory_fraction": math.nan}},
        {"gpu_options": {"per_process_gpu_memory_fraction": math.inf}},
        {"gpu_options": {"experimental": {"gpu_host_mem_limit_in_mb": -math.inf}}},
        {"gpu_options": {"experimental": {"gpu_host_mem_limit_in_mb": 3.5e38}}},
        _config_with_attr({"list": {"f": [-1e39]}}),
    ],
)
def test_a_number_protobuf_cannot_parse_is_refused_in_its_words(data: dict[str, Any]) -> None:
    sentence, message = _both_refuse(data)
    assert message.startswith(sentence)


def test_default_distributed_session_config_is_runconfigs() -> None:
    filters = ["/job:ps", "/job:worker/task:3"]
    expected = config_pb2.ConfigProto(allow_soft_placement=True, device_filters=filters)
    expected.graph_options.rewrite_options.meta_optimizer_iterations = 1  # ONE
    assert _same(default_distributed_session_config(filters).to_proto(), expected)


def test_from_proto_checks_the_message_type() -> None:
    with pytest.raises(TypeError):
        ConfigProto.from_proto(config_pb2.GPUOptions())


def test_models_are_basemodels() -> None:
    assert all(issubclass(model, BaseModel) for model in _models().values())
