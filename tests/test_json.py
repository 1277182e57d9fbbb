"""estconf._json: JSON text read as TensorFlow's ``json.loads`` reads it, and stricter."""

from __future__ import annotations

import datetime
import json
import sys

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


class TestTrailingComma:
    """A comma after the last item is named, on every Python.

    Python 3.13's decoder names it itself, at the comma; older ones report a
    missing property name or value at the closing bracket. Every Python's
    report is the older one, and a hint names the comma.
    """

    TRAILING = ('{"a": 1,}', "[1, 2 ,\n\t ]", '{"a": [1,], "b": 2}')

    @pytest.mark.parametrize("text", TRAILING)
    def test_is_named(self, text: str) -> None:
        with pytest.raises(JSONInputError) as caught:
            loads(text)
        assert "trailing comma" in caught.value.message.lower()

    @pytest.mark.parametrize(
        ("text", "said", "line", "column"),
        [
            ('{"a": 1,}', "Expecting property name enclosed in double quotes", 1, 9),
            ("[1, 2 ,\n\t ]", "Expecting value", 2, 3),
            ('{"a": [1,], "b": 2}', "Expecting value", 1, 10),
        ],
    )
    def test_every_python_says_what_python_3_12_says_at_the_bracket(
        self, text: str, said: str, line: int, column: int
    ) -> None:
        """Python 3.13 names the comma itself, at the comma; the report is the same on each Python.

        The sentence and the place are those of the decoders of TensorFlow
        2.15's Pythons (3.9 to 3.11), and a hint names the comma.
        """
        with pytest.raises(JSONInputError) as ours:
            loads(text)
        assert ours.value.message == f"invalid JSON: {said}{_TRAILING_COMMA_HINT}"
        assert (ours.value.line, ours.value.column) == (line, column)
        if sys.version_info < (3, 13):  # the decoder itself, where it says the same
            with pytest.raises(json.JSONDecodeError) as theirs:
                json.loads(text)
            assert (theirs.value.msg, theirs.value.lineno, theirs.value.colno) == (
                said,
                line,
                column,
            )

    @pytest.mark.parametrize("text", ["{,}", "[1,,]", "]", '{"a": 1 ]', '{"a": 1,'])
    def test_other_errors_have_no_such_hint(self, text: str) -> None:
        with pytest.raises(JSONInputError) as caught:
            loads(text)
        assert "trailing comma" not in caught.value.message.lower()


class TestSingleQuotes:
    """A single quote where JSON has a double one: a hint says what the text is."""

    @pytest.mark.parametrize(
        ("text", "hint"),
        [
            (
                "{'task': {'type': 'worker', 'index': 0, 'x': True}}",
                "(single quotes: this looks like a Python dict written with str(); "
                "write it with json.dumps() instead)",
            ),
            # JSON in quotes of its own: docker run --env-file kept a value's quotes
            ("'{\"task\": {}}'", "(the text is in quotes of its own: the JSON is inside them;"),
            # single quotes that are no Python dict: no word of one
            ("{'task': worker}", "(single quotes: JSON writes strings and keys in double quotes)"),
            ("{\"a\": 'b'", "(single quotes: JSON writes strings and keys in double quotes)"),
        ],
    )
    def test_the_hint_says_what_the_text_is(self, text: str, hint: str) -> None:
        with pytest.raises(JSONInputError) as caught:
            loads(text)
        assert hint in caught.value.message
        if "Python dict" not in hint:
            assert "Python dict" not in caught.value.message

    def test_a_text_too_large_to_read_as_python_gets_the_plain_hint(self) -> None:
        text = "{'a': '" + "x" * (1024 * 1024) + "'}"
        with pytest.raises(JSONInputError) as caught:
            loads(text)
        assert "JSON writes strings and keys in double quotes" in caught.value.message

    def test_a_python_literal_nested_too_deep_gets_the_plain_hint(self) -> None:
        with pytest.raises(JSONInputError) as caught:
            loads("{'a': " + "[" * 1000 + "]" * 1000 + "}")
        assert "JSON writes strings and keys in double quotes" in caught.value.message


class TestEncoding:
    def test_bytes_not_utf8_are_refused_with_the_reason(self) -> None:
        with pytest.raises(JSONInputError) as caught:
            loads(b'{"task": "\xff"}')
        assert (caught.value.code, caught.value.message) == (
            "json_invalid",
            "invalid UTF-8: invalid start byte",
        )


_TRAILING_COMMA_HINT = " (a trailing comma: JSON allows none after the last item)"


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


class TestAsPythonReadsIt:
    """The text read as json.loads reads it: NaN, the last of two keys, lone surrogates."""

    def test_what_strict_reading_refuses_is_read(self) -> None:
        text = '{"a": NaN, "a": "\\ud800"}'
        assert loads(text, as_python_reads_it=True) == json.loads(text)

    def test_depth_is_still_refused(self) -> None:
        with pytest.raises(JSONInputError) as caught:
            loads("[" * 100_000 + "]" * 100_000, as_python_reads_it=True)
        assert caught.value.code == "json_depth"


class TestMaxDepth:
    def test_nesting_up_to_the_limit_is_read(self) -> None:
        assert loads('{"a": ' * 63 + "[]" + "}" * 63, max_depth=64) is not None

    @pytest.mark.parametrize("text", ["[" * 65 + "]" * 65, '{"a": ' * 64 + "[]" + "}" * 64])
    def test_nesting_past_the_limit_is_refused(self, text: str) -> None:
        with pytest.raises(JSONInputError) as caught:
            loads(text, max_depth=64)
        assert (caught.value.code, caught.value.message) == (
            "json_depth",
            "JSON is nested deeper than 64 levels",
        )
