"""estconf.io.reading: every reader refuses a value no config may hold, as a config file does.

The readers are those of :data:`~estconf.io.reading.READERS`: a reader
registered there without samples below fails, and so does one that lets a
value through or says it otherwise than the file pipeline.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from estconf import files
from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError
from estconf.io.reading import (
    READERS,
    Read,
    json_document,
    json_object,
    read_env_lines,
    read_json_lines,
    read_stream,
    tf_config_text,
)
from estconf.io.sources import InputError
from values import refuses_assignment

# Each value no config may hold, written in JSON, YAML and TOML.
BAD_VALUES = {
    "nan": {"json": "NaN", "yaml": ".nan", "toml": "nan"},
    "infinity": {"json": "-Infinity", "yaml": "-.inf", "toml": "-inf"},
    "depth": dict.fromkeys(("json", "yaml", "toml"), "[" * 70 + "]" * 70),
    "lone_surrogate": {"json": '"\\udc80"', "yaml": '"\\udc80"'},  # TOML refuses the escape
}

TF_CONFIG = {
    "json": '{{"cluster": {{"chief": ["c:1"]}}, "task": {{"type": "chief", "index": 0}}, "x": {}}}',
    "yaml": "cluster: {{chief: [c:1]}}\ntask: {{type: chief, index: 0}}\nx: {}\n",
    "toml": 'x = {}\n[cluster]\nchief = ["c:1"]\n[task]\ntype = "chief"\nindex = 0\n',
}

Sample = tuple[str, str | None, str, Callable[[str], str]]
"""A file's name, the format the reader is given, the syntax the bad value is written in,
and the file's text around the TF_CONFIG that holds the value."""

SAMPLES: dict[str, list[Sample]] = {
    "config": [
        (f"tf_config.{syntax}", syntax, syntax, lambda text: text)
        for syntax in ("json", "yaml", "toml")
    ],
    "stream": [
        ("s.yaml", "yaml", "yaml", lambda text: "kind: Service\n---\n" + text),
        ("s.json", "json", "json", lambda text: text),
        ("s.yaml", None, "yaml", lambda text: "---\n" + text),
        ("s.json", None, "json", lambda text: text),
    ],
    "json_lines": [("n.jsonl", "jsonl", "json", lambda text: '{"task": {}}\n\n' + text + "\n")],
    "env_lines": [
        ("n.env", "env", "json", lambda text: "# a node\nTF_CONFIG=" + text + "\n"),
        ("n.sh", "shell", "json", lambda text: "export TF_CONFIG='" + text + "'\n"),
        ("s.sh", "shell", "json", lambda text: "export TF_CONFIG='\n" + text + "\n'\nrun\n"),
        ("n.env", "env", "json", lambda text: "TF_CONFIG='\n" + text + "\n'\n"),
    ],
}


def pipeline_refusal(syntax: str, value: str) -> list[tuple[str, str]]:
    """What the file pipeline says of a TF_CONFIG file holding ``value``."""
    with pytest.raises(ConfigFileError) as info:
        files.loads(TF_CONFIG[syntax].format(value), syntax, "tf_config")
    return [(found.code, found.message) for found in info.value.errors]


def test_every_reader_has_samples() -> None:
    assert set(SAMPLES) == set(READERS)


@pytest.mark.parametrize("bad", BAD_VALUES)
@pytest.mark.parametrize("reader", READERS)
def test_every_reader_refuses_a_value_no_config_may_hold(reader: str, bad: str) -> None:
    for name, fmt, syntax, around in SAMPLES[reader]:
        if syntax not in BAD_VALUES[bad]:
            continue
        value = BAD_VALUES[bad][syntax]
        raw = around(TF_CONFIG[syntax].format(value)).encode()
        with pytest.raises(ConfigFileError) as info:
            READERS[reader](raw, name, fmt, Limits())  # type: ignore[arg-type]
        said = [(found.code, found.message) for found in info.value.errors]
        assert said == pipeline_refusal(syntax, value), (name, fmt)
        assert all(found.file.startswith(name) for found in info.value.errors)


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_a_stream_given_as_text_is_read_as_its_utf8(fmt: str) -> None:
    """Text (standard input that gave no bytes) is read as its UTF-8 bytes would be."""
    [read] = read_stream('{"a": "\u00e9"}', "s", fmt)
    assert read.data == {"a": "\u00e9"}
    with pytest.raises(ConfigFileError) as info:
        read_stream('{"a": "\udc80"}', "s", fmt)
    [found] = info.value.errors
    assert (found.code, found.message) == (
        "encoding",
        "invalid UTF-8: byte 0xed at byte offset 7 (invalid continuation byte); "
        "save the file as UTF-8",
    )


class TestLines:
    """A line's TF_CONFIG is named ``FILE:LINE``, which locates what is refused in it."""

    def test_json_lines(self) -> None:
        reads = read_json_lines(b'{"task": {}}\n\n[1]\n', "n.jsonl")
        assert [(read.name, read.data) for read in reads] == [
            ("n.jsonl:1", {"task": {}}),
            ("n.jsonl:3", [1]),
        ]

    def test_a_refused_value_is_at_its_line(self) -> None:
        with pytest.raises(ConfigFileError) as info:
            read_json_lines(b'{"task": {}}\n{"x": NaN}\n', "n.jsonl")
        [found] = info.value.errors
        assert (info.value.file, found.file, found.path, found.line) == (
            "n.jsonl:2",
            "n.jsonl:2",
            "x",
            None,
        )

    def test_text_that_is_no_json_is_left_to_check_cluster(self) -> None:
        [read] = read_json_lines(b"{oops\n", "n.jsonl")
        assert read.data == "{oops"

    def test_an_env_file_that_sets_no_tf_config_is_refused(self) -> None:
        with pytest.raises(ConfigFileError) as info:
            read_env_lines(b"A=1\n", "n.env")
        [found] = info.value.errors
        assert (found.code, found.message) == ("no_tf_config", "no line of the file sets TF_CONFIG")

    def test_a_shell_line_is_unquoted(self) -> None:
        [read] = read_env_lines(b"export TF_CONFIG='{\"task\": {}}'\n", "run.sh", "shell")
        assert (read.name, read.data) == ("run.sh:1", {"task": {}})

    def test_a_value_over_lines_is_one_node_and_its_errors_are_placed_in_the_file(self) -> None:
        raw = b"#!/bin/sh\nexport TF_CONFIG='{\n  \"task\": {},\n}'\npython x\n"
        with pytest.raises(ConfigFileError) as info:
            read_env_lines(raw, "run.sh", "shell")
        [found] = info.value.errors
        assert (info.value.file, found.code, found.path, found.line, found.column) == (
            "run.sh",
            "syntax",
            "TF_CONFIG",
            4,
            1,
        )
        [read] = read_env_lines(raw.replace(b"{},", b"{}"), "run.sh", "shell")
        assert (read.name, read.data) == ("run.sh:2", {"task": {}})

    def test_a_format_the_caller_built_is_read_by_its_value(self) -> None:
        """A ``shell`` the caller built at run time reads the file as a shell script."""
        fmt = "".join(["sh", "ell"])
        assert fmt is not sys.intern(fmt)  # another string than the package's own "shell"
        [read] = read_env_lines(b"export TF_CONFIG='{\"task\": {}}'\n", "run.sh", fmt)
        assert (read.name, read.data) == ("run.sh:1", {"task": {}})


class TestTFConfigText:
    def test_what_is_not_text_is_given_back(self) -> None:
        data: dict[str, object] = {"task": {}}
        assert tf_config_text(data, "n") is data

    def test_bytes_that_are_not_utf8_are_given_back(self) -> None:
        assert tf_config_text(b"\xff{}", "n") == b"\xff{}"

    def test_the_limits_apply(self) -> None:
        with pytest.raises(ConfigFileError) as info:
            tf_config_text("[[[1]]]", "n", Limits(max_depth=2))
        assert [found.code for found in info.value.errors] == ["depth"]

    def test_more_values_than_the_limit_are_refused_at_the_name(self) -> None:
        with pytest.raises(ConfigFileError) as info:
            tf_config_text('{"a": [1, 2, 3]}', "n.jsonl:2", Limits(max_values=2))
        [found] = info.value.errors
        assert (info.value.file, found.code, found.file, found.line) == (
            "n.jsonl:2",
            "too_many_values",
            "n.jsonl:2",
            None,
        )


def test_what_a_reader_read_cannot_be_changed() -> None:
    """Read refuses assignment; its data is a document's (a dict), so it is not hashed."""
    refuses_assignment(Read("<stdin>:1", {"task": {}}))


class TestJSONObject:
    def test_an_object(self, tmp_path: Path) -> None:
        path = tmp_path / "resourceconfig.json"
        path.write_text('{"current_host": "algo-1"}', encoding="utf-8")
        assert json_object(str(path), Limits()) == {"current_host": "algo-1"}

    @pytest.mark.parametrize(
        ("text", "said"),
        [("[1]", "expected a JSON object"), ('{"x": NaN}', "NaN is not valid JSON")],
    )
    def test_what_is_no_object_is_said_after_the_name(
        self, tmp_path: Path, text: str, said: str
    ) -> None:
        path = tmp_path / "h.json"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(InputError) as info:
            json_object(str(path), Limits())
        assert str(info.value).startswith(f"{path}: {said}")
        with pytest.raises(InputError):
            json_document(str(path), Limits())

    def test_the_document_places_its_values(self, tmp_path: Path) -> None:
        path = tmp_path / "hyperparameters.json"
        path.write_text('{\n  "epochs": "10",\n  "x": "False"\n}\n', encoding="utf-8")
        document = json_document(str(path), Limits())
        assert document.data == json_object(str(path), Limits()) == {"epochs": "10", "x": "False"}
        assert document.locate([("x",)])[("x",)].value.line == 3
