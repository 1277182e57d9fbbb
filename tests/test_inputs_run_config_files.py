"""estconf.inputs.run_config_files: the RunConfig file ``explain --config`` is given, read once."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from estconf.inputs.run_config_files import read_run_config_file
from estconf.io.errors import ConfigFileError

VALID = Path(__file__).parent / "data" / "valid"


@pytest.fixture
def pipe() -> Iterator[tuple[int, str]]:
    """A pipe, named as ``<(command)`` names one: it can be read once."""
    read, write = os.pipe()
    yield write, f"/dev/fd/{read}"
    os.close(read)


def test_its_data_and_model() -> None:
    data, model = read_run_config_file(str(VALID / "run_config.yaml"))
    assert "tf_config" in data
    assert type(model).__module__ == "estconf.run_config"


def test_a_tpu_config_makes_a_tpu_run_config(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("model_dir: /m\ntpu_config: {iterations_per_loop: 2}\n", encoding="utf-8")
    _, model = read_run_config_file(str(path))
    assert type(model).__module__ == "estconf.tpu.run_config"


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="no /dev/fd")
def test_a_pipe_is_read_once(pipe: tuple[int, str]) -> None:
    write, name = pipe
    os.write(write, (VALID / "run_config.yaml").read_bytes())
    os.close(write)
    data, _ = read_run_config_file(name, "yaml")
    assert "tf_config" in data


@pytest.mark.parametrize(
    ("text", "code"), [("[1]\n", "not_an_object"), ("model_dir: 3\n", "string_type")]
)
def test_what_is_refused(tmp_path: Path, text: str, code: str) -> None:
    path = tmp_path / "run_config.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigFileError) as info:
        read_run_config_file(str(path))
    assert code in {found.code for found in info.value.errors}


@pytest.mark.parametrize("text", ["[1]\n", "3\n", "tpu_config\n"])
def test_a_file_that_holds_no_object_is_refused_once(tmp_path: Path, text: str) -> None:
    path = tmp_path / "run_config.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigFileError) as info:
        read_run_config_file(str(path))
    assert [(found.file, found.code, found.message) for found in info.value.errors] == [
        (str(path), "not_an_object", "a RunConfig file holds an object")
    ]
