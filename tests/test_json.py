"""estconf._json: JSON text read as TensorFlow's ``json.loads`` reads it, and stricter."""

from __future__ import annotations

import datetime

import pytest

from estconf._json import JSONInputError, loads, type_name


class TestDuplicateKeys:
    def test_the_key_that_appears_twice_is_named(self) -> None:
        with pytest.raises(JSONInputError) as caught:
            loads('{"cluster": {}, "task": {}, "task": {"type": "worker"}}')
        assert caught.value.code == "duplicate_key"
        assert caught.value.message == (
            "duplicate key 'task': each key may appear once in an object"
        )


class TestDepth:
    def test_json_nested_deeper_than_python_reads_is_refused_with_its_own_code(self) -> None:
        with pytest.raises(JSONInputError) as caught:
            loads("[" * 100_000 + "]" * 100_000)
        assert (caught.value.code, caught.value.message) == (
            "json_depth",
            "JSON is nested too deep to read",
        )


class TestTypeName:
    @pytest.mark.parametrize(
        ("value", "name"),
        [
            (None, "null"),
            (True, "a boolean"),
            (1, "a number"),
            ("x", "a string"),
            ([], "an array"),
            ({}, "an object"),
        ],
    )
    def test_json_types_are_named_as_json_names_them(self, value: object, name: str) -> None:
        assert type_name(value) == name

    def test_a_value_json_has_no_type_for_is_named_by_its_own_type(self) -> None:
        # a TOML or YAML date, YAML bytes
        assert type_name(datetime.date(2026, 1, 1)) == "a date"
        assert type_name(b"\x00") == "a bytes"
