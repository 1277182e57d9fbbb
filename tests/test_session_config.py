from __future__ import annotations

import base64
import decimal
import functools
import importlib
import json
import math
import subprocess
import sys
import types
import typing
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from estconf import RunConfig
from estconf._on_first_use import field_type
from estconf.session_config import (
    AttrValue,
    ConfigProto,
    GPUOptions,
    GraphOptions,
    JobDef,
    Message,
    NameAttrList,
    RewriterConfig,
    default_distributed_session_config,
)
from estconf.session_config._message import json_name
from estconf.session_config._values import ProtoEnum, Scalar

# --- walking the models -------------------------------------------------------


def _strip_optional(annotation: Any) -> Any:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        (inner,) = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        return inner
    return annotation


def _models() -> list[type[Message]]:
    found: list[type[Message]] = []
    pending: list[type[Message]] = [ConfigProto]
    while pending:
        model = pending.pop()
        if model in found:
            continue
        found.append(model)
        model.model_rebuild()  # resolve the names of messages defined after this one
        for info in model.model_fields.values():
            pending.extend(_nested_models(field_type(info)))
    return found


def _nested_models(annotation: Any) -> list[type[Message]]:
    if isinstance(annotation, type) and issubclass(annotation, Message):
        return [annotation]
    return [model for arg in typing.get_args(annotation) for model in _nested_models(arg)]


SAMPLES: dict[str, tuple[Any, Any]] = {
    # kind: (an input, what it is dumped as)
    "int32": ("-7", -7),
    "int64": ("9223372036854775807", 9223372036854775807),
    "uint32": (4294967295, 4294967295),
    "uint64": ("18446744073709551615", 18446744073709551615),
    "double": ("0.25", 0.25),
    "float": (1.5, 1.5),
    "bool": (True, True),
    "string": ("/job:ps", "/job:ps"),
    "bytes": ("YWJj", "YWJj"),
}


def _sample(annotation: Any, depth: int) -> tuple[Any, Any]:
    """An input for a field of this type, and its dump; messages get every field set."""
    annotation = _strip_optional(annotation)
    if isinstance(annotation, type) and issubclass(annotation, Message):
        return _full_message(annotation, depth + 1)
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        inner, *metadata = typing.get_args(annotation)
        for meta in metadata:
            if isinstance(meta, Scalar):
                return SAMPLES[meta.kind]
            if isinstance(meta, ProtoEnum):
                name, number = list(meta.values(typing.get_args(inner)).items())[-1]
                return number, name
        return _sample(inner, depth)
    if origin is list:
        given, dumped = _sample(typing.get_args(annotation)[0], depth)
        return [given], [dumped]
    if origin is dict:
        key_type, value_type = typing.get_args(annotation)
        key_in, key_out = _sample(key_type, depth)
        given, dumped = _sample(value_type, depth)
        if isinstance(key_out, int):
            key_in, key_out = "3", 3
        return {key_in: given}, {key_out: dumped}
    raise AssertionError(annotation)


def _full_message(model: type[Message], depth: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    given: dict[str, Any] = {}
    dumped: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        if depth > 3 and _nested_models(field_type(info)):
            continue
        if name in getattr(model, "oneof", ()) and given:
            continue
        given[name], dumped[name] = _sample(field_type(info), depth)
    return given, dumped


# --- the distributed default ---------------------------------------------------------


def test_default_distributed_session_config() -> None:
    config = default_distributed_session_config(["/job:ps", "/job:worker/task:1"])
    assert config.to_proto_dict() == {
        "allow_soft_placement": True,
        "graph_options": {"rewrite_options": {"meta_optimizer_iterations": "ONE"}},
        "device_filters": ["/job:ps", "/job:worker/task:1"],
    }
    assert config.graph_options is not None
    assert config.graph_options.rewrite_options == RewriterConfig(meta_optimizer_iterations="ONE")
    assert ConfigProto.from_proto_dict(config.to_proto_dict()) == config


def test_an_empty_config_sets_nothing() -> None:
    assert ConfigProto().to_proto_dict() == {}
    assert (
        ConfigProto.model_validate({"gpu_options": None, "device_filters": None}) == ConfigProto()
    )


# --- every field of every message ----------------------------------------------------


def test_every_field_round_trips() -> None:
    given, dumped = _full_message(ConfigProto)
    config = ConfigProto.model_validate(given)
    assert config.model_dump(mode="json") == json.loads(json.dumps(dumped))
    assert ConfigProto.model_validate(config.model_dump(mode="json")) == config
    assert ConfigProto.model_validate(config.model_dump()) == config
    assert ConfigProto.model_validate_json(config.model_dump_json()) == config
    json.dumps(config.to_proto_dict(), allow_nan=False)


@pytest.mark.parametrize("model", _models(), ids=lambda model: model.__name__)
def test_every_message_round_trips_with_every_field(model: type[Message]) -> None:
    given, dumped = _full_message(model, depth=2)
    message = model.model_validate(given)
    assert message.to_proto_dict() == json.loads(json.dumps(dumped))
    assert model.from_proto_dict(message.to_proto_dict()) == message
    assert set(message.model_fields_set) == set(given)


def test_camel_case_names_are_read() -> None:
    config = ConfigProto.model_validate(
        {
            "allowSoftPlacement": True,
            "gpuOptions": {"perProcessGpuMemoryFraction": 0.5, "allow_growth": True},
            "graphOptions": {"rewriteOptions": {"metaOptimizerIterations": "ONE"}},
        }
    )
    assert config.to_proto_dict() == {
        "allow_soft_placement": True,
        "gpu_options": {"per_process_gpu_memory_fraction": 0.5, "allow_growth": True},
        "graph_options": {"rewrite_options": {"meta_optimizer_iterations": "ONE"}},
    }


def test_python_construction_by_field_name() -> None:
    config = ConfigProto(
        gpu_options=GPUOptions(allow_growth=True),
        graph_options=GraphOptions(rewrite_options=RewriterConfig(layout_optimizer="OFF")),
    )
    assert config.to_proto_dict() == {
        "gpu_options": {"allow_growth": True},
        "graph_options": {"rewrite_options": {"layout_optimizer": "OFF"}},
    }


def test_models_are_frozen() -> None:
    config = ConfigProto(allow_soft_placement=True)
    with pytest.raises(ValidationError):
        config.allow_soft_placement = False  # type: ignore[misc]


@pytest.mark.parametrize("model", _models(), ids=lambda model: model.__name__)
def test_every_message_with_every_field_is_hashable(model: type[Message]) -> None:
    given, _ = _full_message(model, depth=2)
    first, second = model.model_validate(given), model.model_validate(given)
    assert hash(first) == hash(second)
    assert len({first, second, model()}) == 2


# --- scalar values ---------------------------------------------------------------------


def _read(data: dict[str, Any]) -> dict[str, Any]:
    return ConfigProto.model_validate(data).to_proto_dict()


@pytest.mark.parametrize(
    ("given", "held"),
    [
        (5, 5),
        ("5", 5),
        ("-0", 0),
        ("007", 7),
        (5.0, 5),
        (2**31 - 1, 2**31 - 1),
        ("-2147483648", -(2**31)),
    ],
)
def test_int32_values(given: Any, held: int) -> None:
    assert _read({"intra_op_parallelism_threads": given}) == {"intra_op_parallelism_threads": held}


@pytest.mark.parametrize(
    ("given", "code"),
    [
        (2**31, "int_range"),
        ("-2147483649", "int_range"),
        (True, "int_type"),
        (1.5, "int_type"),
        (math.nan, "int_type"),
        ("1.0", "int_type"),
        ("+1", "int_type"),
        (" 1", "int_type"),
        ("1_000", "int_type"),
        ("\u0663", "int_type"),
        ("", "int_type"),
        (None, None),
        ([1], "int_type"),
    ],
)
def test_int32_refusals(given: Any, code: str | None) -> None:
    if code is None:
        assert _read({"placement_period": given}) == {}
        return
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate({"placement_period": given})
    (error,) = info.value.errors()
    assert error["type"] == code
    assert error["loc"] == ("placement_period",)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"placement_period": 2**31}, "Value out of range: 2147483648 (int32 holds "),
        ({"placement_period": "-2147483649"}, "Value out of range: -2147483649 (int32 holds "),
        ({"operation_timeout_in_ms": 2.0**63}, "Value out of range: 9223372036854775808 (int64 "),
        ({"tensor": {"uint64_val": [-1]}}, "Value out of range: -1 (uint64 holds 0 to "),
    ],
)
def test_an_integer_out_of_range_is_refused_in_protobufs_words(
    data: dict[str, Any], said: str
) -> None:
    model = AttrValue if "tensor" in data else ConfigProto
    with pytest.raises(ValidationError) as info:
        model.model_validate(data)
    (error,) = info.value.errors()
    assert error["type"] == "int_range"
    assert error["msg"].startswith(said)


def test_int64_is_read_from_strings_and_dumped_as_int() -> None:
    config = ConfigProto.model_validate({"operation_timeout_in_ms": "60000"})
    assert config.operation_timeout_in_ms == 60000
    assert config.model_dump(mode="json") == {"operation_timeout_in_ms": 60000}
    with pytest.raises(ValidationError, match="int_range"):
        ConfigProto.model_validate({"operation_timeout_in_ms": str(2**63)})


@pytest.mark.parametrize(
    ("given", "held"),
    [
        (0.5, 0.5),
        (1, 1.0),
        ("0.5", 0.5),
        ("1e-3", 0.001),
        ("-0", -0.0),
        ("Infinity", "Infinity"),
        ("-Infinity", "-Infinity"),
        ("NaN", "NaN"),
    ],
)
def test_double_values(given: Any, held: Any) -> None:
    dumped = _read({"gpu_options": {"per_process_gpu_memory_fraction": given}})
    assert dumped == {"gpu_options": {"per_process_gpu_memory_fraction": held}}
    assert _read(dumped) == dumped


@pytest.mark.parametrize(
    ("given", "code"),
    [
        (True, "float_type"),
        (math.nan, "float_type"),
        (math.inf, "float_type"),
        ("nan", "float_type"),
        ("inf", "float_type"),
        (".5", "float_type"),
        ("+1", "float_type"),
        (" 1", "float_type"),
        ("1e400", "float_range"),
        (10**400, "float_range"),
        ("x", "float_type"),
    ],
)
def test_double_refusals(given: Any, code: str) -> None:
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate({"gpu_options": {"per_process_gpu_memory_fraction": given}})
    (error,) = info.value.errors()
    assert error["type"] == code
    assert error["loc"] == ("gpu_options", "per_process_gpu_memory_fraction")


def test_what_is_no_number_is_named() -> None:
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate({"gpu_options": {"per_process_gpu_memory_fraction": [1]}})
    (error,) = info.value.errors()
    assert (error["type"], error["msg"]) == ("float_type", "Input should be a number, got [1]")


def test_a_float_out_of_range_names_its_kind_and_largest_magnitude() -> None:
    bad: dict[str, Any] = {
        "gpu_options": {"experimental": {"virtual_devices": [{"memory_limit_mb": [1e39]}]}}
    }
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate(bad)
    (error,) = info.value.errors()
    assert error["msg"] == (
        "Float value too large (largest magnitude 3.4028234663852886e+38): 1e+39"
    )
    bad = {"gpu_options": {"experimental": {"gpu_host_mem_limit_in_mb": -1e39}}}
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate(bad)
    (error,) = info.value.errors()
    assert error["msg"].startswith(
        "Float value too small (largest magnitude 3.4028234663852886e+38)"
    )
    bad = {"gpu_options": {"experimental": {"gpu_host_mem_limit_in_mb": 10**39}}}
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate(bad)
    (error,) = info.value.errors()
    assert error["msg"] == (
        "float value out of range (largest magnitude 3.4028234663852886e+38): 1000000000000000"
        "000000000000000000000000"
    )


def test_float32_range() -> None:
    largest = float.fromhex("0x1.fffffep+127")
    data = {"gpu_options": {"experimental": {"virtual_devices": [{"memory_limit_mb": [largest]}]}}}
    assert _read(data) == data
    for too_large in (3.4028235e38, "1e39", 10**39, -1e39):
        bad = {
            "gpu_options": {"experimental": {"virtual_devices": [{"memory_limit_mb": [too_large]}]}}
        }
        with pytest.raises(ValidationError) as info:
            ConfigProto.model_validate(bad)
        (error,) = info.value.errors()
        assert error["type"] == "float_range"
        assert error["loc"] == (
            "gpu_options",
            "experimental",
            "virtual_devices",
            0,
            "memory_limit_mb",
            0,
        )


@pytest.mark.parametrize("given", [1, 0, "true", "false", 1.0, None])
def test_bools_are_strict(given: Any) -> None:
    if given is None:
        assert _read({"allow_soft_placement": None}) == {}
        return
    with pytest.raises(ValidationError, match="bool_type"):
        ConfigProto.model_validate({"allow_soft_placement": given})


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"placement_period": True}, "Bool value True is not acceptable for integer field"),
        ({"placement_period": 1.5}, "Couldn't parse integer: 1.5 (not a whole number)"),
        ({"placement_period": " 5"}, 'Couldn\'t parse integer: " 5" (it holds a space)'),
        (
            {"gpu_options": {"per_process_gpu_memory_fraction": math.nan}},
            'Couldn\'t parse NaN, use quoted "NaN" instead',
        ),
        (
            {"gpu_options": {"per_process_gpu_memory_fraction": math.inf}},
            'Couldn\'t parse Infinity or value too large, use quoted "Infinity" instead',
        ),
        (
            {"gpu_options": {"per_process_gpu_memory_fraction": -math.inf}},
            'Couldn\'t parse -Infinity or value too small, use quoted "-Infinity" instead',
        ),
    ],
)
def test_a_number_protobuf_cannot_parse_is_refused_in_its_words(
    data: dict[str, Any], said: str
) -> None:
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate(data)
    (error,) = info.value.errors()
    assert error["type"] in ("int_type", "float_type")
    assert error["msg"] == said


@pytest.mark.parametrize("given", ["true", 1, "yes"])
def test_a_bool_is_refused_in_protobufs_words(given: Any) -> None:
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate({"allow_soft_placement": given})
    (error,) = info.value.errors()
    assert error["type"] == "bool_type"
    assert error["msg"].startswith("Expected true or false without quotes, got ")


def test_strings() -> None:
    assert _read({"device_filters": ["", "/job:ps", "😀"]}) == {
        "device_filters": ["", "/job:ps", "😀"]
    }
    for bad, code in (
        (5, "string_type"),
        (b"/job:ps", "string_type"),
        ("\ud800", "string_unicode"),
    ):
        with pytest.raises(ValidationError) as info:
            ConfigProto.model_validate({"device_filters": ["/job:ps", bad]})
        (error,) = info.value.errors()
        assert error["type"] == code
        assert error["loc"] == ("device_filters", 1)


@pytest.mark.parametrize(
    ("given", "held"),
    [
        ("YWJj", "YWJj"),
        ("YWI", "YWI="),
        ("YQ", "YQ=="),
        ("-_8", "+/8="),
        ("", ""),
        ("YR==", "YQ=="),
        ("QUJDREVGRw", "QUJDREVGRw=="),
        ("QUJDREVGRw==", "QUJDREVGRw=="),
    ],
)
def test_bytes_are_base64(given: str, held: str) -> None:
    assert AttrValue.model_validate({"s": given}).s == held


@pytest.mark.parametrize("given", ["Y", "YQ=", "YWJj==", "Y W J j", "a=bc", "é", b"YWJj", 5])
def test_bytes_refusals(given: Any) -> None:
    with pytest.raises(ValidationError) as info:
        AttrValue.model_validate({"s": given})
    assert info.value.errors()[0]["type"] in ("base64", "bytes_type")


def test_text_that_is_no_base64_is_quoted() -> None:
    with pytest.raises(ValidationError) as info:
        AttrValue.model_validate({"s": "a=bc"})
    (error,) = info.value.errors()
    assert (error["type"], error["msg"]) == (
        "base64",
        "Input should be base64 text (standard or URL-safe alphabet, padding optional), got 'a=bc'",
    )


def test_long_text_that_is_no_base64_is_quoted_by_its_first_60_characters() -> None:
    given = "a=" + "b" * 100
    with pytest.raises(ValidationError) as info:
        AttrValue.model_validate({"s": given})
    (error,) = info.value.errors()
    assert error["msg"].endswith(f"got {given[:60]!r}")
    assert error["ctx"] == {"value": repr(given[:60])}


# --- enums -------------------------------------------------------------------------


@pytest.mark.parametrize("given", ["ONE", 1, "1", 1.0, "01"])
def test_enums_by_name_or_number(given: Any) -> None:
    config = ConfigProto.model_validate(
        {"graph_options": {"rewrite_options": {"meta_optimizer_iterations": given}}}
    )
    assert config.to_proto_dict() == {
        "graph_options": {"rewrite_options": {"meta_optimizer_iterations": "ONE"}}
    }


def test_negative_enum_numbers() -> None:
    options = {"opt_level": -1, "global_jit_level": "-1"}
    assert _read({"graph_options": {"optimizer_options": options}}) == {
        "graph_options": {"optimizer_options": {"opt_level": "L0", "global_jit_level": "OFF"}}
    }


@pytest.mark.parametrize("given", ["one", "One", "", 7, -1, True, 1.5, " 1", "+1", None])
def test_enum_refusals(given: Any) -> None:
    data = {"graph_options": {"rewrite_options": {"layout_optimizer": given}}}
    if given is None:
        assert _read(data) == {"graph_options": {"rewrite_options": {}}}
        return
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate(data)
    (error,) = info.value.errors()
    assert error["type"] == "enum"
    assert error["loc"] == ("graph_options", "rewrite_options", "layout_optimizer")
    assert "tensorflow.RewriterConfig.Toggle" in error["msg"]


# --- structure: unknown keys, lists, maps, oneofs, depth ------------------------------


@pytest.mark.parametrize(
    ("data", "loc"),
    [
        ({"allow_soft_placment": True}, ("allow_soft_placment",)),
        (
            {"graph_options": {"rewrite_options": {"bogus": 1}}},
            ("graph_options", "rewrite_options", "bogus"),
        ),
        (
            {"session_inter_op_thread_pool": [{}, {"threads": 2}]},
            ("session_inter_op_thread_pool", 1, "threads"),
        ),
        ({"AllowSoftPlacement": True}, ("AllowSoftPlacement",)),
    ],
)
def test_unknown_keys_are_refused_where_they_are(
    data: dict[str, Any], loc: tuple[Any, ...]
) -> None:
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate(data)
    (error,) = info.value.errors()
    assert error["type"] == "extra_forbidden"
    assert error["loc"] == loc


def test_a_field_given_under_both_names_is_refused() -> None:
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate({"gpu_options": {"allow_growth": True, "allowGrowth": False}})
    (error,) = info.value.errors()
    assert error["type"] == "duplicate_key"
    assert error["loc"] == ("gpu_options", "allowGrowth")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"allow_soft_placement": true, "allow_soft_placement": false}', "allow_soft_placement"),
        ('{"device_count": {"CPU": 1, "CPU": 2}}', "CPU"),
        ('{"cluster_def": {"job": [{"name": "w", "tasks": {"1": "a:1", "1": "b:1"}}]}}', "1"),
        (b'{"gpu_options": {}, "gpu_options": {}}', "gpu_options"),
    ],
)
def test_json_text_repeating_a_key_is_refused_with_protobufs_sentence(
    text: str | bytes, key: str
) -> None:
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate_json(text)
    (error,) = info.value.errors()
    assert error["type"] == "duplicate_key"
    assert error["msg"] == f"Failed to load JSON: duplicate key {key}."
    assert (error["loc"], error["input"]) == ((), text)


@pytest.mark.parametrize(
    "text", [b"\xef\xbb\xbf{}", "\ufeff{}", b'{"device_filters": ["\xff"]}', "{", "[" * 5000]
)
def test_json_text_is_utf8_without_a_byte_order_mark(text: str | bytes) -> None:
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate_json(text)
    assert info.value.errors()[0]["type"] in ("json_invalid", "json_depth")


def test_json_text_is_read_like_a_dict() -> None:
    text = '{"gpuOptions": {"allow_growth": true}, "operation_timeout_in_ms": "5"}'
    config = ConfigProto.model_validate_json(bytearray(text.encode()))
    assert config == ConfigProto.model_validate(json.loads(text))
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate_json('{"gpu_options": {"per_process_gpu_memory_fraction": NaN}}')
    assert info.value.errors()[0]["loc"] == ("gpu_options", "per_process_gpu_memory_fraction")


@pytest.mark.parametrize("given", [("a",), "a", {"a": 1}, [None]])
def test_repeated_fields_are_lists(given: Any) -> None:
    with pytest.raises(ValidationError):
        ConfigProto.model_validate({"device_filters": given})


@pytest.mark.parametrize("given", ["", [], 5, "x", True])
def test_messages_are_objects(given: Any) -> None:
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate({"gpu_options": given})
    assert info.value.errors()[0]["loc"] == ("gpu_options",)


def test_maps() -> None:
    data = {
        "device_count": {"CPU": "4", "GPU": 0},
        "cluster_def": {"job": [{"name": "worker", "tasks": {"0": "a:1", 1: "b:2", "-1": "c:3"}}]},
    }
    assert _read(data) == {
        "device_count": {"CPU": 4, "GPU": 0},
        "cluster_def": {
            "job": [{"name": "worker", "tasks": {"0": "a:1", "1": "b:2", "-1": "c:3"}}]
        },
    }
    for bad in ({"CPU": None}, {"CPU": 1.5}, ["CPU"]):
        with pytest.raises(ValidationError):
            ConfigProto.model_validate({"device_count": bad})


@pytest.mark.parametrize(
    ("tasks", "said"),
    [
        ({"1": "a:1", "01": "b:2"}, "Task index 1 is given twice, as '1' and '01'"),
        ({"0": "a:1", 0: "b:2"}, "Task index 0 is given twice, as '0' and 0"),
        ({"-0": "a:1", "0": "b:2"}, "Task index 0 is given twice, as '-0' and '0'"),
        ({1.0: "a:1", "1": "b:2"}, "Task index 1 is given twice, as 1.0 and '1'"),
    ],
)
def test_a_task_index_given_twice_is_refused(tasks: dict[Any, str], said: str) -> None:
    with pytest.raises(ValidationError) as info:
        JobDef.model_validate({"name": "worker", "tasks": tasks})
    (error,) = info.value.errors()
    assert (error["type"], error["loc"], error["msg"]) == ("duplicate_key", ("tasks",), said)


@pytest.mark.parametrize("key", ["x", " 1", "1.0", str(2**31), True])
def test_task_indices_are_int32(key: Any) -> None:
    with pytest.raises(ValidationError):
        JobDef.model_validate({"tasks": {key: "a:1"}})


def test_every_message_names_the_tensorflow_message_it_reads() -> None:
    """``from_proto`` and ``to_proto`` go by ``proto_name``; each docstring begins with it."""
    names = {model: model.proto_name for model in _models()}
    for model, name in names.items():
        assert name.startswith("tensorflow."), model
        assert (model.__doc__ or "").startswith(f"``{name}``"), model
    assert len(set(names.values())) == len(names)


def _enum_fields() -> list[tuple[type[Message], str, str]]:
    """Each field of an enum type: its model, its name and the enum's TensorFlow name."""

    def enums(annotation: Any) -> list[str]:
        found = [
            m.full_name for m in getattr(annotation, "__metadata__", ()) if isinstance(m, ProtoEnum)
        ]
        return found + [name for inner in typing.get_args(annotation) for name in enums(inner)]

    return [
        (model, name, enum)
        for model in _models()
        for name, field in model.model_fields.items()
        for enum in {
            *enums(field_type(field)),
            *(m.full_name for m in field.metadata if isinstance(m, ProtoEnum)),
        }
    ]


def test_the_enums_are_tensorflows() -> None:
    assert {enum for _, _, enum in _enum_fields()} == {
        "tensorflow.ConfigProto.Experimental.MlirBridgeRollout",
        "tensorflow.DataType",
        "tensorflow.OptimizerOptions.GlobalJitLevel",
        "tensorflow.OptimizerOptions.Level",
        "tensorflow.RewriterConfig.CpuLayout",
        "tensorflow.RewriterConfig.MemOptType",
        "tensorflow.RewriterConfig.NumIterationsType",
        "tensorflow.RewriterConfig.Toggle",
        "tensorflow.VerifierConfig.Toggle",
    }


@pytest.mark.parametrize(
    ("model", "name", "enum"), _enum_fields(), ids=lambda value: getattr(value, "__name__", value)
)
def test_a_value_of_no_enum_name_names_the_enum(model: type[Message], name: str, enum: str) -> None:
    for value in ("NO_SUCH_VALUE", ["NO_SUCH_VALUE"]):  # a value, or a list of them
        with pytest.raises(ValidationError) as info:
            model.model_validate({name: value})
        if f"for enum type {enum}: it should be one of " in str(info.value):
            return
    raise AssertionError(str(info.value))


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (
            "FAST",
            "Invalid enum value FAST for enum type tensorflow.OptimizerOptions.GlobalJitLevel",
        ),
        (
            "on_1",
            "Invalid enum value on_1 for enum type tensorflow.OptimizerOptions.GlobalJitLevel",
        ),
        ("1.5", "Invalid enum value 1.5 for enum type tensorflow.OptimizerOptions.GlobalJitLevel"),
    ],
)
def test_a_value_of_no_enum_name_is_refused_in_protobufs_words(given: Any, said: str) -> None:
    with pytest.raises(ValidationError) as info:
        ConfigProto.model_validate(
            {"graph_options": {"optimizer_options": {"global_jit_level": given}}}
        )
    (error,) = info.value.errors()
    assert error["type"] == "enum"
    assert error["msg"].startswith(f"{said}: it should be one of DEFAULT, OFF, ON_1, ON_2 or ")


def test_attr_value_holds_one_value() -> None:
    assert AttrValue.model_validate({"s": "YQ==", "i": None}).to_proto_dict() == {"s": "YQ=="}
    with pytest.raises(ValidationError) as info:
        AttrValue.model_validate({"s": "YQ==", "i": 3})
    (error,) = info.value.errors()
    assert error["type"] == "oneof"
    assert error["msg"].endswith("of an AttrValue may be set; got s, i")
    assert error["msg"].startswith("At most one of the fields s, i, f, b, type, shape,")


def test_custom_optimizer_parameters() -> None:
    trt = {
        "name": "TensorRTOptimizer",
        "parameter_map": {
            "precision_mode": {"s": "RlAxNg=="},
            "max_batch_size": {"i": "8"},
            "is_dynamic_op": {"b": True},
            "allowed_types": {"list": {"type": ["DT_FLOAT", 19]}},
        },
    }
    config = ConfigProto.model_validate(
        {"graph_options": {"rewrite_options": {"custom_optimizers": [trt]}}}
    )
    assert config.to_proto_dict()["graph_options"]["rewrite_options"]["custom_optimizers"] == [
        {
            "name": "TensorRTOptimizer",
            "parameter_map": {
                "precision_mode": {"s": "RlAxNg=="},
                "max_batch_size": {"i": 8},
                "is_dynamic_op": {"b": True},
                "allowed_types": {"list": {"type": ["DT_FLOAT", "DT_HALF"]}},
            },
        }
    ]


def _nested_attr(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(levels):
        value = {"func": {"attr": {"a": value}}}
    return value


def test_nesting_is_limited_like_protobufs_parser() -> None:
    # 1 + 2 * 49 = 99 messages deep, then one more level of NameAttrList: 100.
    NameAttrList.model_validate({"attr": {"a": _nested_attr(49)}})
    AttrValue.model_validate(_nested_attr(49))
    with pytest.raises(ValidationError) as info:
        AttrValue.model_validate(_nested_attr(50))
    assert any(error["type"] == "depth" for error in info.value.errors())
    with pytest.raises(ValidationError):
        AttrValue.model_validate(_nested_attr(200))


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        ConfigProto.model_validate({"allow_soft_placement": "yes"})


# --- generated configs ------------------------------------------------------------------


def _kind_values(kind: str) -> st.SearchStrategy[Any]:
    if kind in ("int32", "int64", "uint32", "uint64"):
        bits = int(kind[-2:])
        low, high = (
            (0, 2**bits - 1) if kind.startswith("u") else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
        )
        numbers = st.integers(low, high)
        return st.one_of(numbers, numbers.map(str))
    if kind in ("double", "float"):
        width: typing.Literal[32, 64] = 32 if kind == "float" else 64
        finite = st.floats(allow_nan=False, allow_infinity=False, width=width)
        return st.one_of(
            finite,
            finite.map(repr).filter(lambda text: "e" not in text),
            st.sampled_from(["NaN", "Infinity"]),
        )
    if kind == "bool":
        return st.booleans()
    if kind == "string":
        return st.text(st.characters(exclude_categories=["Cs"]), max_size=6)
    assert kind == "bytes"
    return st.binary(max_size=6).map(lambda raw: base64.urlsafe_b64encode(raw).decode().rstrip("="))


def _values(annotation: Any, depth: int, camel: bool) -> st.SearchStrategy[Any]:
    annotation = _strip_optional(annotation)
    if isinstance(annotation, type) and issubclass(annotation, Message):
        return _messages(annotation, depth + 1, camel)
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        inner, *metadata = typing.get_args(annotation)
        for meta in metadata:
            if isinstance(meta, Scalar):
                return _kind_values(meta.kind)
            if isinstance(meta, ProtoEnum):
                values = meta.values(typing.get_args(inner))
                return st.one_of(
                    st.sampled_from(list(values)), st.sampled_from(list(values.values()))
                )
        return _values(inner, depth, camel)
    if origin is list:
        return st.lists(_values(typing.get_args(annotation)[0], depth, camel), max_size=2)
    if origin is dict:
        key_type, value_type = typing.get_args(annotation)
        return st.dictionaries(_keys(key_type), _values(value_type, depth, camel), max_size=2)
    raise AssertionError(annotation)


def _keys(annotation: Any) -> st.SearchStrategy[Any]:
    """JSON object keys: strings, of digits for integer keys."""
    metadata = typing.get_args(annotation)[1:]
    if any(isinstance(meta, Scalar) and meta.kind == "int32" for meta in metadata):
        return st.integers(-(2**31), 2**31 - 1).map(str)
    return _kind_values("string")


@st.composite
def _messages(
    draw: st.DrawFn, model: type[Message], depth: int = 0, camel: bool = True
) -> dict[str, Any]:
    names = [
        name
        for name, info in model.model_fields.items()
        if depth < 3 or not _nested_models(field_type(info))
    ]
    chosen = draw(st.lists(st.sampled_from(names), max_size=5, unique=True)) if names else []
    oneof = getattr(model, "oneof", ())
    data: dict[str, Any] = {}
    for name in chosen:
        if name in oneof and any(other in data for other in oneof):
            continue
        spelling = draw(st.sampled_from([name, json_name(name)])) if camel else name
        data[spelling] = draw(_values(field_type(model.model_fields[name]), depth, camel))
    return data


@given(_messages(ConfigProto))
def test_generated_configs_round_trip(data: dict[str, Any]) -> None:
    config = ConfigProto.model_validate(data)
    dumped = config.to_proto_dict()
    again = ConfigProto.model_validate(dumped)
    assert again.to_proto_dict() == dumped
    assert (
        ConfigProto.model_validate_json(json.dumps(dumped, allow_nan=False)).to_proto_dict()
        == dumped
    )


# --- JSON Schema --------------------------------------------------------------------


def _properties(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    found = [(name, prop) for name, prop in schema.get("properties", {}).items()]
    for definition in schema.get("$defs", {}).values():
        found += list(definition.get("properties", {}).items())
    return found


@pytest.mark.parametrize("mode", ["validation", "serialization"])
def test_every_field_is_described_in_the_schema(
    mode: typing.Literal["validation", "serialization"],
) -> None:
    schema = ConfigProto.model_json_schema(mode=mode)
    properties = _properties(schema)
    assert len(properties) > 200
    assert [name for name, prop in properties if not prop.get("description")] == []


def test_schema_accepts_what_the_model_reads() -> None:
    schema = ConfigProto.model_json_schema()
    validator = jsonschema.Draft202012Validator(schema)
    given, _ = _full_message(ConfigProto)
    validator.validate(json.loads(json.dumps(given)))
    validator.validate(ConfigProto.model_validate(given).to_proto_dict())
    assert not validator.is_valid({"allow_soft_placment": True})
    assert not validator.is_valid(
        {"graph_options": {"rewrite_options": {"layout_optimizer": "off"}}}
    )
    assert validator.is_valid({"graph_options": {"rewrite_options": {"layout_optimizer": "2"}}})
    assert not validator.is_valid({"cluster_def": {"job": [{"tasks": {"x": "a:1"}}]}})


@functools.cache
def _schema_validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(ConfigProto.model_json_schema())


@given(_messages(ConfigProto, camel=False))
def test_schema_accepts_generated_configs(data: dict[str, Any]) -> None:
    _schema_validator().validate(json.loads(json.dumps(data)))


# --- no protobuf needed ------------------------------------------------------------------


def test_importing_needs_neither_protobuf_nor_tensorflow() -> None:
    code = (
        "import sys, estconf.session_config\n"
        "loaded = [m for m in sys.modules if m.startswith(('google.protobuf', 'tensorflow'))]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


class _IntLike:
    def __index__(self) -> int:
        return 2


def test_python_numeric_types() -> None:
    config = ConfigProto.model_validate(
        {
            "placement_period": _IntLike(),
            "gpu_options": {"per_process_gpu_memory_fraction": decimal.Decimal("0.5")},
            "graph_options": {"rewrite_options": {"meta_optimizer_iterations": _IntLike()}},
        }
    )
    assert config.to_proto_dict() == {
        "placement_period": 2,
        "gpu_options": {"per_process_gpu_memory_fraction": 0.5},
        "graph_options": {"rewrite_options": {"meta_optimizer_iterations": "TWO"}},
    }


def test_enum_numbers_pair_with_the_names_in_order() -> None:
    assert ProtoEnum("pkg.E").values(("A", "B")) == {"A": 0, "B": 1}
    assert ProtoEnum("pkg.E", numbers=(0, -1)).values(("A", "B")) == {"A": 0, "B": -1}
    with pytest.raises(TypeError, match="2 value names need as many distinct numbers"):
        ProtoEnum("pkg.E", numbers=(0,)).values(("A", "B"))
    with pytest.raises(TypeError, match="distinct"):
        ProtoEnum("pkg.E", numbers=(1, 1)).values(("A", "B"))


def test_no_message_is_built_at_import() -> None:
    """Importing the messages builds no validator, not even of the ones naming a later one.

    ``AttrValue`` and ``TensorProto`` take part in cycles; pydantic resolves
    those names when it builds the messages, on first use.
    """
    code = (
        "import pydantic\n"
        "from estconf.session_config import ConfigProto\n"
        "from estconf.session_config._message import Message\n"
        "def every(cls):\n"
        "    for sub in cls.__subclasses__():\n"
        "        yield sub\n"
        "        yield from every(sub)\n"
        "built = [m.__name__ for m in every(Message) if m.__pydantic_complete__]\n"
        "assert not built, built\n"
        "ConfigProto(allow_soft_placement=True)\n"
        "assert ConfigProto.__pydantic_complete__\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _modules_built(*configs: str) -> list[list[str]]:
    """The session_config modules imported after reading each config, in a new process."""
    code = (
        "import json, sys\n"
        "from estconf.session_config import ConfigProto\n"
        "for config in sys.argv[1:]:\n"
        "    ConfigProto.model_validate(json.loads(config))\n"
        "    prefix = 'estconf.session_config.'\n"
        "    built = [m[len(prefix):] for m in sys.modules if m.startswith(prefix)]\n"
        "    print(json.dumps(sorted(built)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *configs], check=True, capture_output=True, text=True
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_a_nested_message_is_built_only_when_a_config_sets_it() -> None:
    """The nested messages are many; a config imports and builds those it sets, no others."""
    each_adds = [
        ('{"allow_soft_placement": true}', []),
        (
            '{"graph_options": {"rewrite_options": {"meta_optimizer_iterations": "ONE"}}}',
            ["graph_options", "rewriter_config"],
        ),
        (
            '{"gpu_options": {"allow_growth": true}, "rpc_options": {}}',
            ["gpu_options", "rpc_options"],
        ),
        (
            '{"cluster_def": {}, "experimental": {"coordination_config": {}}}',
            ["cluster_def", "config_proto_experimental", "coordination"],
        ),
        (
            '{"graph_options": {"rewrite_options": '
            '{"custom_optimizers": [{"parameter_map": {}}]}}}',
            ["attr_value", "tensor"],
        ),
    ]
    expected, imported = [], ["_message", "_values", "config_proto"]
    for _, modules in each_adds:
        imported = [*imported, *modules]
        expected.append(sorted(imported))
    assert _modules_built(*(config for config, _ in each_adds)) == expected


def test_every_name_of_the_package_is_its_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    """The package's names are imported on first use, each from the module that defines it."""
    import estconf.session_config as package

    for name in package.__all__:
        monkeypatch.delitem(vars(package), name, raising=False)  # as before its first use
        value = getattr(package, name)
        module = importlib.import_module(f"estconf.session_config.{package._MODULES[name]}")
        assert getattr(module, name) is value
    assert set(package._MODULES) == set(package.__all__)
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        package.nothing  # noqa: B018
    assert set(package.__all__) <= set(dir(package))


# --- protobuf's side, stood in for -------------------------------------------------


def _stand_in(monkeypatch: pytest.MonkeyPatch, name: str, **attributes: Any) -> None:
    """Make ``importlib.import_module(name)`` return a module holding ``attributes``."""
    module = types.ModuleType(name)
    vars(module).update(attributes)
    monkeypatch.setitem(sys.modules, name, module)


def _proto_message(full_name: str) -> Any:
    """A protobuf message as far as its type goes: its descriptor's full name."""
    return types.SimpleNamespace(DESCRIPTOR=types.SimpleNamespace(full_name=full_name))


def test_from_proto_refuses_a_message_of_another_type() -> None:
    with pytest.raises(TypeError) as info:
        GPUOptions.from_proto(_proto_message("tensorflow.JobDef"))
    assert str(info.value) == (
        "GPUOptions reads tensorflow.GPUOptions messages, not tensorflow.JobDef"
    )


def test_from_proto_reads_protobufs_json_form_of_the_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Field names kept as in the .proto, floats written with the 17 digits that round-trip."""
    message = _proto_message("tensorflow.GPUOptions")
    calls: list[tuple[Any, dict[str, Any]]] = []

    def message_to_dict(given: Any, **options: Any) -> dict[str, Any]:
        calls.append((given, options))
        return {"allow_growth": True, "per_process_gpu_memory_fraction": 0.5}

    _stand_in(monkeypatch, "google.protobuf.json_format", MessageToDict=message_to_dict)
    assert GPUOptions.from_proto(message) == GPUOptions(
        allow_growth=True, per_process_gpu_memory_fraction=0.5
    )
    assert calls == [(message, {"preserving_proto_field_name": True, "float_precision": 17})]


class TestSessionConfigArgument:
    """``session_config`` takes TensorFlow's own ``ConfigProto`` message, read back as JSON."""

    def read(self, given: Any) -> Any:
        return RunConfig(session_config=given).session_config

    def test_a_config_proto_message_is_read(self, monkeypatch: pytest.MonkeyPatch) -> None:
        written = {"allow_soft_placement": True, "device_filters": ["/job:ps"]}
        _stand_in(
            monkeypatch, "google.protobuf.json_format", MessageToDict=lambda given, **_: written
        )
        assert self.read(_proto_message("tensorflow.ConfigProto")) == ConfigProto(**written)

    @pytest.mark.parametrize(
        "given",
        [
            _proto_message("tensorflow.GPUOptions"),
            types.SimpleNamespace(full_name="tensorflow.ConfigProto"),
            types.SimpleNamespace(DESCRIPTOR=types.SimpleNamespace(name="ConfigProto")),
        ],
    )
    def test_another_object_is_refused(self, given: Any) -> None:
        with pytest.raises(ValidationError) as info:
            self.read(given)
        [error] = info.value.errors()
        assert (error["type"], error["loc"]) == ("session_config_type", ("session_config",))


def test_to_proto_fills_tensorflows_class_of_the_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a class, the one TensorFlow's config_pb2 registers in the default pool."""

    class TensorFlowGPUOptions:
        pass

    descriptors = {"tensorflow.GPUOptions": "the GPUOptions descriptor"}
    classes = {"the GPUOptions descriptor": TensorFlowGPUOptions}
    pool = types.SimpleNamespace(FindMessageTypeByName=descriptors.__getitem__)
    _stand_in(monkeypatch, "tensorflow.core.protobuf.config_pb2")
    _stand_in(monkeypatch, "google.protobuf.descriptor_pool", Default=lambda: pool)
    _stand_in(monkeypatch, "google.protobuf.message_factory", GetMessageClass=classes.__getitem__)
    _stand_in(monkeypatch, "google.protobuf.json_format", ParseDict=lambda data, into: (data, into))
    data, into = GPUOptions(allow_growth=True).to_proto()
    assert data == {"allow_growth": True}
    assert isinstance(into, TensorFlowGPUOptions)
