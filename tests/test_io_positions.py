"""estconf.io._positions: lines and columns of places in a text, for many places at once."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from estconf.cli import main
from estconf.io import parse
from estconf.io._positions import Lines, Position, position
from estconf.io.errors import ConfigFileError

from complexity import BOUND, SMALL_TO_LARGE, growth

ROOT = Path(__file__).resolve().parents[1]


@given(st.text(alphabet="ab\n\r\t é😀"), st.data())
def test_lines_place_every_offset_as_position_does(text: str, data: st.DataObject) -> None:
    offset = data.draw(st.integers(0, len(text)))
    assert Lines(text).position(offset) == position(text, offset)


@given(st.text(alphabet="ab\n\r\t é😀"), st.data())
def test_an_offset_is_found_again_from_its_position(text: str, data: st.DataObject) -> None:
    offset = data.draw(st.integers(0, len(text)))
    lines = Lines(text)
    assert lines.offset(lines.position(offset)) == offset


def test_a_position_past_the_last_line_is_on_the_last() -> None:
    assert Lines("ab\ncd").offset(Position(9, 2)) == 4


def test_lines_count_from_one() -> None:
    lines = Lines("ab\n\ncd")
    assert [lines.position(i) for i in range(7)] == [
        Position(1, 1),
        Position(1, 2),
        Position(1, 3),  # the newline ends its line
        Position(2, 1),
        Position(3, 1),
        Position(3, 2),
        Position(3, 3),  # the end of the text
    ]


def _workers(count: int, fmt: str) -> str:
    """A cluster of ``count`` workers, one address a line."""
    if fmt == "json":
        return json.dumps({"worker": [f"worker-{i}.train:2222" for i in range(count)]}, indent=1)
    return "worker = [\n" + ",\n".join(f'"worker-{i}.train:2222"' for i in range(count)) + "\n]\n"


SMALL = 2_500
LARGE = SMALL_TO_LARGE * SMALL


@pytest.mark.parametrize("fmt", ["json", "toml"])
def test_placing_values_is_linear_in_their_number(fmt: str) -> None:
    def placing(count: int) -> Callable[[], object]:
        document = parse.parse(_workers(count, fmt), fmt, "tf_config")
        paths = [("worker", i) for i in range(count)]
        return lambda: document.locate(paths)

    spans = placing(LARGE)()
    assert isinstance(spans, dict)
    last = spans[("worker", LARGE - 1)].value
    assert last.line == LARGE + (2 if fmt == "json" else 1)
    assert growth(placing, SMALL) < BOUND


def test_placing_refused_json_is_linear_in_the_errors() -> None:
    def refusing(count: int) -> Callable[[], object]:
        text = '{"worker": [\n' + ",\n".join(["NaN"] * count) + "\n]}"

        def work() -> object:
            with pytest.raises(ConfigFileError) as caught:
                parse.parse(text, "json", "tf_config")
            return caught.value.errors

        return work

    errors = refusing(LARGE)()
    assert isinstance(errors, list)
    assert len(errors) == LARGE
    assert (errors[-1].line, errors[-1].column) == (LARGE + 1, 1)
    assert growth(refusing, SMALL) < BOUND


def test_validate_places_each_of_many_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    count = 5_000
    cluster = {"chief": ["chief-0.train:2222"], "worker": [f"worker {i}" for i in range(count)]}
    path = tmp_path / "tf_config.json"
    path.write_text(
        json.dumps({"cluster": cluster, "task": {"type": "chief", "index": 0}}, indent=1)
    )
    assert main(["validate", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"{count} errors in 1 of 1 file"
    assert lines[-2].startswith(f"{path}:{count + 6}:4: cluster.worker[{count - 1}]: 'worker")
