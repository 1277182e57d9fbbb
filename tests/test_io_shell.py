"""estconf.io.shell: the TF_CONFIGs of a shell script or env file, each error placed in it."""

from __future__ import annotations

import dataclasses
import json
import shlex
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from estconf._json import _as_before_313 as as_before_313
from estconf.io._positions import Position
from estconf.io.errors import ConfigFileError, error
from estconf.io.shell import read_shell, tf_config_of

START = (
    "#!/bin/bash\n"
    "export TF_CONFIG='{\n"
    '  "cluster": {"worker": ["10.0.0.1:2222", "10.0.0.2:2222"],},\n'
    '  "task": {"type": "worker", "index": 0}\n'
    "}'\n"
    "python train.py\n"
)


def refusal(raw: bytes, name: str = "run.sh", fmt: str = "shell") -> ConfigFileError:
    with pytest.raises(ConfigFileError) as raised:
        shell = read_shell(raw, name, fmt)
        for value in shell.values:
            tf_config_of(shell, value)
    return raised.value


class TestValues:
    def test_each_tf_config_is_named_after_the_line_it_starts_on(self) -> None:
        shell = read_shell(START.encode(), "run.sh")
        [value] = shell.values
        assert value.name == "run.sh:2"
        assert value.text.startswith("{\n") and value.text.endswith("}")
        assert (shell.unknown, shell.warnings) == ([], [])

    def test_a_file_of_nodes(self) -> None:
        raw = b"# chief:0\nTF_CONFIG={}\n# worker:0\nTF_CONFIG='{}'\n"
        shell = read_shell(raw, "nodes.env", "env")
        assert [value.name for value in shell.values] == ["nodes.env:2", "nodes.env:4"]

    def test_a_file_that_sets_none(self) -> None:
        assert read_shell(b"python train.py\n", "run.sh").values == []

    def test_a_value_read_cannot_be_changed(self) -> None:
        """A value is what the file sets: its name, text and place are read, not written."""
        [value] = read_shell(START.encode(), "run.sh").values
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.text = "{}"  # type: ignore[misc]
        assert value.text.startswith("{\n")


class TestPlaces:
    def test_a_json_error_inside_a_value_over_lines_is_at_its_line_and_column(self) -> None:
        [found] = refusal(START.encode()).errors
        assert (found.code, found.path, found.line, found.column) == ("syntax", "TF_CONFIG", 3, 60)
        assert START.splitlines()[2][59] == "}"
        assert found.message.startswith("invalid JSON: Expecting property name")
        assert "(a trailing comma: JSON allows none after the last item)" in found.message

    def test_an_error_after_escapes_and_joined_lines_is_where_its_character_is(self) -> None:
        text = 'A=1\nexport TF_CONFIG="{\\"a\\": \\\n  \\"x\\", \\"b\\": nul}"\n'
        [found] = refusal(text.encode()).errors
        assert (found.line, found.column) == (3, 17)
        assert text.splitlines()[2][16:19] == "nul"

    def test_an_error_at_the_end_of_the_value_is_at_its_closing_quote(self) -> None:
        text = "export TF_CONFIG='{\"a\": 1'\n"
        [found] = refusal(text.encode()).errors
        assert (found.line, found.column) == (1, text.rindex("'") + 1)

    def test_a_value_no_config_may_hold_is_placed_too(self) -> None:
        text = 'TF_CONFIG=\'{\n  "task": {"index": NaN}\n}\'\n'
        [found] = refusal(text.encode()).errors
        assert (found.code, found.path, found.line) == ("number", "TF_CONFIG.task.index", 2)

    def test_errors_of_the_value_are_placed_under_tf_config(self) -> None:
        shell = read_shell(START.encode(), "run.sh")
        [value] = shell.values
        inner = [
            error("x", "address", "bad", ("cluster", "worker", 1), position=Position(2, 44)),
            error("x", "address", "bad", ("task",)),
        ]
        first, second = shell.placed(inner, value)
        assert (first.file, first.path, first.line, first.column) == (
            "run.sh",
            "TF_CONFIG.cluster.worker[1]",
            3,
            44,
        )
        assert (second.path, second.line, second.column) == ("TF_CONFIG.task", 2, 18)

    @given(
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(),
            lambda children: (
                st.lists(children, max_size=3)
                | st.dictionaries(st.text(max_size=5), children, max_size=3)
            ),
            max_leaves=8,
        ),
        st.integers(min_value=0),
        st.sampled_from(["]", "}", ",", ":", "'", "x"]),
    )
    def test_a_value_quoted_with_shlex_places_its_json_errors_as_written(
        self, data: Any, where: int, slip: str
    ) -> None:
        """A JSON text quoted by ``shlex.quote`` (as ``tf-config --format shell`` quotes it),
        with a slip somewhere, is refused at the line and column the slip is written at."""
        good = json.dumps({"task": data}, indent=2)
        at = where % (len(good) + 1)
        text = good[:at] + slip + good[at:]
        try:
            json.loads(text)
        except json.JSONDecodeError as exc:
            pos = as_before_313(exc).pos  # Python 3.13 places a trailing comma elsewhere
        else:
            return
        quoted = shlex.quote(text)
        head = "#!/bin/sh\nset -e\nexport TF_CONFIG="
        raw = f"{head}{quoted}\npython train.py\n"
        # where shlex.quote writes each character: '...' around, a ' as '"'"'
        offsets, offset = [], len(head) + (1 if quoted.startswith("'") else 0)
        for char in text:
            if char == "'":
                offsets.append(offset + 2)
                offset += 5
            else:
                offsets.append(offset)
                offset += 1
        offsets.append(offset)
        [found] = refusal(raw.encode()).errors
        expected = offsets[pos]
        line = raw.count("\n", 0, expected) + 1
        column = expected - raw.rfind("\n", 0, expected)
        assert (found.line, found.column) == (line, column)


class TestRefusals:
    def test_a_quote_not_closed_is_refused_at_the_quote(self) -> None:
        [found] = refusal(b"#!/bin/sh\nexport TF_CONFIG='{\n}\npython train.py\n").errors
        assert (found.code, found.line, found.column) == ("shell_syntax", 2, 18)
        assert found.hint is not None and "'\\''" in found.hint

    @pytest.mark.parametrize(
        ("raw", "fmt", "said"),
        [
            (
                b'export TF_CONFIG="{\\"index\\": $(hostname)}"',
                "shell",
                "the value depends on the shell at run time: $(hostname) is a command the "
                "shell runs when the script runs",
            ),
            (
                b"TF_CONFIG=${CLUSTER}\n",
                "env",
                "the value depends on the environment the file is read in at run time: "
                "${CLUSTER} is a variable Docker Compose expands when it reads the file",
            ),
            (
                b"TF_CONFIG\n",
                "env",
                "TF_CONFIG is named without a value: Docker Compose takes the value of the "
                "environment it runs in",
            ),
            (b"TF_CONFIG=~/tf.json\n", "shell", "~ is a home directory"),
            (b"export TF_CONFIG=$'{}'\n", "shell", "bash and dash (sh) read $'{}' differently"),
            (b'export TF_CONFIG={"a":1,"b":2}\n', "shell", "bash expands the braces of"),
            (b"TF_CONFIG+='{}'\n", "shell", "+= appends to the value TF_CONFIG has"),
        ],
    )
    def test_a_value_the_shell_makes_is_said_to_depend_on_it(
        self, raw: bytes, fmt: str, said: str
    ) -> None:
        shell = read_shell(raw, "f", fmt)
        [found] = shell.unknown
        assert shell.values == []
        assert found.code == "shell_expansion"
        assert said in found.message
        assert found.hint is not None and "printenv TF_CONFIG | estconf validate -" in found.hint

    def test_an_expansion_is_placed_where_it_is(self) -> None:
        shell = read_shell(b'A=1\nexport TF_CONFIG="{\n  \\"index\\": $INDEX}"\n', "run.sh")
        [found] = shell.unknown
        assert (found.path, found.line, found.column) == ("TF_CONFIG", 3, 14)

    def test_text_that_is_not_utf8(self) -> None:
        [found] = refusal(b"TF_CONFIG='\xff'\n").errors
        assert found.code == "encoding"


def test_an_env_files_quoted_value_warns_that_docker_run_keeps_the_quotes() -> None:
    shell = read_shell(b'A=1\nTF_CONFIG="{}"\nTF_CONFIG={}\n', "nodes.env", "env")
    [warning] = shell.warnings
    assert (warning.code, warning.severity, warning.line, warning.column) == (
        "env_file_quoted",
        "warning",
        2,
        11,
    )
    assert "docker run --env-file keeps them" in warning.message
    assert read_shell(b"export TF_CONFIG='{}'\n", "run.sh").warnings == []


def test_a_blank_value_is_given_as_its_text() -> None:
    """``check_cluster`` says it is set but empty, at its node."""
    shell = read_shell(b"TF_CONFIG=' '\n", "run.sh")
    assert tf_config_of(shell, shell.values[0]) == " "
    shell = read_shell(b"TF_CONFIG='{\"a\": [1]}'\n", "run.sh")
    assert tf_config_of(shell, shell.values[0]) == {"a": [1]}
