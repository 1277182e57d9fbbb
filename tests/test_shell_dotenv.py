"""estconf._shell.dotenv: an env file read by the rules Docker Compose documents."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from estconf._shell import Assignment, ShellSyntaxError, env_assignments

from complexity import BOUND, growth


def found_in(text: str) -> list[Assignment]:
    return env_assignments(text, "TF_CONFIG")


def values(text: str) -> list[str]:
    return [found.value for found in found_in(text)]


@pytest.mark.parametrize(
    ("line", "value"),
    [
        # the examples of Compose's page on env files
        ("TF_CONFIG=VAL", "VAL"),
        ('TF_CONFIG="VAL"', "VAL"),
        ("TF_CONFIG='VAL'", "VAL"),
        ("TF_CONFIG=VAL # comment", "VAL"),
        ("TF_CONFIG=VAL# not a comment", "VAL# not a comment"),
        ('TF_CONFIG="VAL # not a comment"', "VAL # not a comment"),
        ('TF_CONFIG="VAL" # comment', "VAL"),
        ("TF_CONFIG='$OTHER'", "$OTHER"),
        ("TF_CONFIG='Let\\'s go!'", "Let's go!"),
        ('TF_CONFIG="{\\"hello\\": \\"json\\"}"', '{"hello": "json"}'),
        ('TF_CONFIG="some\\tvalue"', "some\tvalue"),
        ("TF_CONFIG='some\\tvalue'", "some\\tvalue"),
        ("TF_CONFIG=some\\tvalue", "some\\tvalue"),
        # and the rest of the rules
        ("export TF_CONFIG={}", "{}"),
        ("  TF_CONFIG = {}  ", "{}"),
        ("TF_CONFIG=", ""),
        ('TF_CONFIG="a\\\\b\\$c\\qd"', "a\\b$c\\qd"),
        ("TF_CONFIG='a\\\\b'", "a\\b"),
        ("TF_CONFIG='{\n  \"a\": 1\n}'", '{\n  "a": 1\n}'),  # quotes span lines
        ('TF_CONFIG="{\n  \\"a\\": 1\n}"', '{\n  "a": 1\n}'),
        ('TF_CONFIG={"a": 1}\r', '{"a": 1}'),  # a line ended by CRLF
        ("TF_CONFIG='{}'\r", "{}"),
    ],
)
def test_a_value_is_read_as_compose_reads_it(line: str, value: str) -> None:
    assert values(f"# a node\n{line}\nOTHER=1\n") == [value]


def test_lines_that_assign_nothing_are_passed_over() -> None:
    text = "# TF_CONFIG=no\n\n   \nnot an assignment\nTF_CONFIGS=no\nOTHER=1\nTF_CONFIG=yes\n"
    assert values(text) == ["yes"]


def test_every_assignment_is_kept() -> None:
    """What ``tf-config --format env`` writes: a line a task, each a node."""
    assert values("TF_CONFIG=a\nTF_CONFIG=b\n") == ["a", "b"]


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("TF_CONFIG=${CLUSTER}", "${CLUSTER}"),
        ('TF_CONFIG="{\\"index\\": $INDEX}"', "$I"),
        ("TF_CONFIG=a$B", "$B"),
        ("TF_CONFIG", "TF_CONFIG"),  # the environment's value
    ],
)
def test_what_compose_expands_is_said(line: str, shown: str) -> None:
    [found] = found_in(line + "\n")
    assert found.expansion is not None
    assert found.expansion.text == shown


def test_nothing_in_single_quotes_is_expanded() -> None:
    [found] = found_in("TF_CONFIG='${A} $B'\n")
    assert (found.value, found.expansion) == ("${A} $B", None)


def test_each_character_is_placed_where_it_is_written() -> None:
    text = 'A=1\nTF_CONFIG="{\\"a\\":\n 1}" # c\n'
    [found] = found_in(text)
    assert found.value == '{"a":\n 1}'
    assert "".join(text[found.origin(i)] for i in range(len(found.value))) == found.value
    assert (found.offset, found.value_offset, found.quoted) == (4, 14, True)


def test_each_character_of_a_single_quoted_value_is_placed_where_it_is_written() -> None:
    """An escaped quote or backslash is placed at the character after its backslash."""
    text = "TF_CONFIG='it\\'s a\\\\b'\n"
    [found] = found_in(text)
    assert found.value == "it's a\\b"
    assert "".join(text[found.origin(i)] for i in range(len(found.value))) == found.value
    assert [found.origin(i) for i in (2, 6)] == [14, 19]


@pytest.mark.parametrize(
    ("text", "offset", "message"),
    [
        ("TF_CONFIG='{\n", 10, "the single quote opened here is not closed"),
        ('TF_CONFIG="{\\"', 10, "the double quote opened here is not closed"),
        ("TF_CONFIG='{}' x\n", 14, "text follows the closing quote of the value"),
    ],
)
def test_what_cannot_be_read_is_an_error_where_it_is(text: str, offset: int, message: str) -> None:
    with pytest.raises(ShellSyntaxError, match=message) as raised:
        found_in(text)
    assert raised.value.offset == offset


@given(st.dictionaries(st.text(), st.text()))
def test_a_json_object_written_as_tf_config_writes_it_reads_back(data: dict[str, str]) -> None:
    """``tf-config --format env`` writes compact JSON unquoted: Compose reads it back whole."""
    text = json.dumps(data, separators=(",", ":"))
    if " #" in text or "$" in text or "\n" in text or "\r" in text:
        return  # a comment and an expansion to Compose; JSON escapes newlines
    [found] = found_in(f"TF_CONFIG={text}\n")
    assert (found.value, found.expansion) == (text, None)


def test_reading_takes_time_linear_in_the_file() -> None:
    def reading(size: int) -> Callable[[], object]:
        text = "TF_CONFIG='{}'\nOTHER=\"a\\nb\"\n# c\n\n" * size
        return lambda: found_in(text)

    assert growth(reading, 1000) < BOUND
