"""estconf.inputs.shell_files: each TF_CONFIG a script or env file sets, checked as a file is."""

from __future__ import annotations

import pytest

from estconf.inputs.shell_files import check_file, format_of
from estconf.io.checks import Limits

CLUSTER = '{"chief": ["c:2222"], "worker": ["w0:2222", "w1:2222"]}'


def check(text: str, fmt: str = "shell", profile: str | None = None) -> list[tuple[object, ...]]:
    result = check_file(text.encode(), fmt, "run.sh", profile, Limits())
    assert result.kind == fmt and result.kind_from == "file name"
    return [(e.code, e.path, e.line, e.column, e.severity) for e in result.errors]


@pytest.mark.parametrize(
    ("name", "fmt"), [("run.sh", "shell"), ("a/b.ENV", "env"), ("x.json", None), (".env", None)]
)
def test_format_of(name: str, fmt: str | None) -> None:
    assert format_of(name) == fmt


def test_a_valid_tf_config() -> None:
    text = f'#!/bin/sh\nexport TF_CONFIG=\'{{\n  "cluster": {CLUSTER},\n'
    text += '  "task": {"type": "worker", "index": 1}\n}\'\npython x\n'
    assert check(text) == []


def test_each_error_is_placed_in_the_file_under_tf_config() -> None:
    text = f'export TF_CONFIG=\'{{"cluster": {CLUSTER},\n'
    text += ' "task": {"type": "worker", "index": 7}}\'\n'
    assert check(text) == [("task_index_out_of_range", "TF_CONFIG.task.index", 2, 38, "error")]


def test_a_profile_checks_every_task() -> None:
    text = 'TF_CONFIG=\'{"cluster": {"worker": ["w:1"]}, "task": {"type": "worker", "index": 0}}\''
    assert check(text) != []
    assert check(text, profile="mwms") == []


def test_a_value_set_twice_is_checked_once_and_reported_at_each_place() -> None:
    value = '\'{"task": {"type": "worker", "index": "x"}}\''
    found = check(f"export TF_CONFIG={value}\nexport TF_CONFIG={value}\n")
    assert [(line, column) for _, _, line, column, _ in found] == [(1, 56), (2, 56)]


def test_errors_are_in_the_order_of_the_file() -> None:
    text = 'TF_CONFIG=\'{"task": 1}\'\nTF_CONFIG="$(make-tf-config)"\nTF_CONFIG="{\\"task\\": 2}"\n'
    assert check(text) == [
        ("model_type", "TF_CONFIG.task", 1, 21, "error"),
        ("shell_expansion", "TF_CONFIG", 2, 12, "error"),
        ("model_type", "TF_CONFIG.task", 3, 23, "error"),
    ]
    # Compose runs no command: $( is text in an env file, and no JSON
    assert check(text, "env") == [
        ("env_file_quoted", "TF_CONFIG", 1, 11, "warning"),
        ("model_type", "TF_CONFIG.task", 1, 21, "error"),
        ("env_file_quoted", "TF_CONFIG", 2, 11, "warning"),
        ("syntax", "TF_CONFIG", 2, 12, "error"),
        ("env_file_quoted", "TF_CONFIG", 3, 11, "warning"),
        ("model_type", "TF_CONFIG.task", 3, 23, "error"),
    ]


def test_errors_on_one_line_are_in_the_order_of_their_columns() -> None:
    text = 'TF_CONFIG=\'{"task": 1}\'; TF_CONFIG="$X"\n'
    assert check(text) == [
        ("model_type", "TF_CONFIG.task", 1, 21, "error"),
        ("shell_expansion", "TF_CONFIG", 1, 37, "error"),
    ]


def test_a_file_that_sets_none() -> None:
    assert check("python train.py\n") == [("no_tf_config", "", None, None, "error")]


def test_an_empty_value() -> None:
    assert check("export TF_CONFIG=''\n") == [("tf_config_empty", "TF_CONFIG", 1, 18, "error")]


def test_an_empty_value_says_to_unset_it_or_give_a_json_object() -> None:
    result = check_file(b"export TF_CONFIG=''\n", "shell", "run.sh", None, Limits())
    [found] = result.errors
    assert found.message == "set but empty; unset it or give a JSON object"


def test_what_cannot_be_read() -> None:
    assert check("export TF_CONFIG='{\n") == [("shell_syntax", "", 1, 18, "error")]
    assert check('export TF_CONFIG="$INDEX"\n') == [
        ("shell_expansion", "TF_CONFIG", 1, 19, "error")
    ]


def test_an_env_file_warns_of_quotes() -> None:
    text = "TF_CONFIG='{\"task\": {}}'\n"
    assert check(text, "env") == [("env_file_quoted", "TF_CONFIG", 1, 11, "warning")]
    assert check(text, "shell") == []
