"""estconf.io.sources: the files a command is given, directories walked."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from estconf.io.sources import (
    STDIN,
    STDIN_NAME,
    Input,
    environ_bytes,
    expand,
    format_for,
    read_given,
    shown_as,
)
from values import is_a_value


def test_files_and_standard_input_as_given() -> None:
    assert expand(["b.json", STDIN, "a.yaml"]) == [
        Input("b.json"),
        Input(STDIN),
        Input("a.yaml"),
    ]


def test_a_directory_stands_for_its_config_files(tmp_path: Path) -> None:
    for name in ("b.yaml", "a.JSON", "notes.txt", ".hidden.json", "c.toml"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "d.yml").write_text("{}", encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "e.json").write_text("{}", encoding="utf-8")
    directory = str(tmp_path)
    assert expand([directory]) == [
        Input(os.path.join(directory, name), directory=directory)
        for name in ("a.JSON", "b.yaml", "c.toml", os.path.join("sub", "d.yml"))
    ]


def test_a_directory_without_config_files(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    assert expand([str(tmp_path)]) == [Input(str(tmp_path), empty_directory=True)]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_only_regular_files_are_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")  # reading it would wait for a writer
    (tmp_path / "real.yaml").write_text("{}", encoding="utf-8")
    (tmp_path / "link.yaml").symlink_to(tmp_path / "real.yaml")
    assert [item.path for item in expand([str(tmp_path)])] == [
        str(tmp_path / "link.yaml"),
        str(tmp_path / "real.yaml"),
    ]


def test_standard_input_is_said_as_stdin() -> None:
    assert (shown_as(STDIN), shown_as("job.yaml")) == (STDIN_NAME, "job.yaml")
    assert STDIN_NAME == "<stdin>"


def test_a_dash_made_at_run_time_is_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any string "-" names standard input, not only the constant: it is compared by value."""
    dash = "+".replace("+", "-")  # a "-" that is not the interned constant
    assert dash == STDIN and dash is not STDIN
    assert shown_as(dash) == STDIN_NAME
    assert format_for(dash, None) == "json"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"task": {}}')))
    assert read_given(dash) == b'{"task": {}}'


def test_a_variable_is_the_bytes_the_process_got(monkeypatch: pytest.MonkeyPatch) -> None:
    # under a Latin-1 locale Python decodes the byte 0xe9 to "\u00e9", whose UTF-8 is two bytes
    monkeypatch.setattr(os, "environ", {"TF_CONFIG": "\u00e9"})
    monkeypatch.setattr(os, "environb", {b"TF_CONFIG": b"\xe9"})
    assert environ_bytes("TF_CONFIG") == b"\xe9"


def test_without_the_bytes_a_variable_is_its_texts_utf8(monkeypatch: pytest.MonkeyPatch) -> None:
    # where the process keeps no bytes of its environment (Windows), only its text
    monkeypatch.delattr(os, "environb", raising=False)
    monkeypatch.setattr(os, "environ", {"TF_CONFIG": "\u00e9\udcff"})
    assert environ_bytes("TF_CONFIG") == b"\xc3\xa9\xff"


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: Input("job.yaml"), id="file"),
        pytest.param(lambda: Input(STDIN), id="stdin"),
        pytest.param(lambda: Input("a/b.json", directory="a"), id="found-in-a-directory"),
    ],
)
def test_an_input_is_a_value(make: Callable[[], Input]) -> None:
    """An input refuses assignment and hashes by its fields: a set of inputs holds each once."""
    is_a_value(make)


def test_an_input_error_is_a_usage_error_of_the_command_and_a_value_error_of_the_api() -> None:
    """A command that raises one exits 2 with its hint; the Python API sees a ValueError."""
    from estconf._arguments import UsageError
    from estconf.io.sources import InputError

    error = InputError("f.yaml is a Kubeflow TFJob manifest", hint="give it as --tfjob f.yaml")
    assert isinstance(error, UsageError) and isinstance(error, ValueError)
    assert (str(error), error.hint) == (
        "f.yaml is a Kubeflow TFJob manifest",
        "give it as --tfjob f.yaml",
    )
