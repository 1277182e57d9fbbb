"""estconf._json: JSON text read as TensorFlow's ``json.loads`` reads it, and stricter."""

from __future__ import annotations

import datetime

import pytest

from estconf._json import JSONInputError, _may_hold_surrogates, has_surrogate, loads, type_name


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


class TestLoneSurrogates:
    """Half of a UTF-16 surrogate pair is refused, as an escape or as itself, in text or bytes."""

    @pytest.mark.parametrize(
        ("text", "escape"),
        [
            ('{"task": "\\ud800"}', "\\ud800"),
            ('{"task": "\\uDFFF é"}', "\\udfff"),
            ('{"task": "\ud800"}', "\\ud800"),
            (b'{"task": "\\udbff"}', "\\udbff"),
            (b'{"task": "\xed\xa0\x80"}', "\\ud800"),
        ],
    )
    def test_refused(self, text: str | bytes, escape: str) -> None:
        with pytest.raises(JSONInputError) as caught:
            loads(text)
        assert (caught.value.code, caught.value.message) == (
            "json_invalid",
            f"invalid JSON: a string holds {escape}, half of a UTF-16 surrogate pair, "
            "which is not a character",
        )

    @pytest.mark.parametrize(
        "text",
        [
            '{"task": "worker"}',
            '{"task": "\\u00e9 \\ud83d\\ude00"}',
            '{"task": "é 한"}',
            b'{"task": "\\u00e9"}',
            '{"task": "한"}'.encode(),  # U+D55C: its UTF-8 form starts with 0xED too
        ],
    )
    def test_characters_are_kept(self, text: str | bytes) -> None:
        assert isinstance(loads(text)["task"], str)

    def test_a_text_that_cannot_hold_one_is_told_before_any_pattern(self) -> None:
        """ASCII text without an escape, or bytes without an escape or the 0xED lead byte."""
        assert _may_hold_surrogates('{"task": "worker"}') is False
        assert _may_hold_surrogates(b'{"task": "worker"}') is False
        assert _may_hold_surrogates('{"task": "\\ud83d\\ude00"}') is True
        assert _may_hold_surrogates('{"task": "é"}') is False
        assert _may_hold_surrogates('{"task": "한"}'.encode()) is False

    @pytest.mark.parametrize(
        ("text", "holds"),
        [("worker", False), ("é 한", False), ("\ud800", True), ("é \udfff", True), ("", False)],
    )
    def test_has_surrogate(self, text: str, holds: bool) -> None:
        assert has_surrogate(text) is holds

    def test_a_reader_may_find_them_itself(self) -> None:
        assert loads('{"task": "\\ud800"}', allow_lone_surrogates=True) == {"task": "\ud800"}


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
