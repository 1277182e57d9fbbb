"""``estconf.files.dump``: a model written as a file reads back into an equal model."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from estconf import RunConfig, TFConfig, TPURunConfig, files
from estconf.io import files as io_files
from estconf.io._positions import Loc
from estconf.io._toml_scan import scan

import strategies

DOCUMENTS = {
    "tf_config": strategies.tf_config_documents(),
    "run_config": strategies.run_config_documents,
    "tpu_config": strategies.tpu_config_documents,
    "tpu_run_config": strategies.tpu_run_config_documents,
    "cluster": strategies.cluster_files(),
}


def _paths(value: Any, path: Loc = ()) -> list[Loc]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


def _toml_data(text: str) -> Any:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found, no-redef, unused-ignore]
    return tomllib.loads(text)


@pytest.mark.parametrize("kind", list(DOCUMENTS))
@given(data=st.data())
def test_load_of_dump_is_the_model(kind: str, data: st.DataObject) -> None:
    document = data.draw(DOCUMENTS[kind])
    try:
        model = files.loads(json.dumps(document), "json", kind)
    except files.ConfigFileError:
        return  # the drawn document is not valid: nothing to write
    _round_trip(model, kind)


VALID = sorted((Path(__file__).parent / "data" / "valid").iterdir())


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_load_of_dump_is_the_model_for_the_valid_files(path: Path) -> None:
    loaded = io_files.load_file(path)
    _round_trip(loaded.model, loaded.kind)


def _round_trip(model: Any, kind: str) -> None:
    for fmt in files.FORMATS:
        try:
            text = files.dumps(model, fmt)
        except ValueError as exc:  # TOML has no null
            assert fmt == "toml" and "TOML" in str(exc)
            continue
        assert files.loads(text, fmt, kind) == model, text
        if fmt == "toml":
            assert set(_paths(_toml_data(text))) <= set(scan(text)), text


def test_derived_values_and_defaults_are_left_out() -> None:
    config = RunConfig(
        save_summary_steps=100,
        tf_config={"cluster": {"chief": ["c:1"]}, "task": {"type": "chief", "index": 0}},
    )
    data = json.loads(files.dumps(config, "json"))
    assert "is_chief" not in data and "master" not in data
    assert "save_summary_steps" not in data  # its default
    assert "tf_config" in data


@pytest.mark.parametrize("suffix", [".json", ".toml", ".yaml", ".yml"])
def test_dump_writes_the_format_its_suffix_says(tmp_path: Path, suffix: str) -> None:
    config = TPURunConfig(model_dir="/m", tpu_config={"iterations_per_loop": "2m"})
    path = files.dump(config, tmp_path / f"x.tpu_run_config{suffix}")
    assert files.load(path) == config
    if suffix == ".json":
        assert json.loads(path.read_text(encoding="utf-8"))["model_dir"] == "/m"


def test_dump_needs_a_format(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"name it \.json"):
        files.dump(RunConfig(), tmp_path / "config.txt")


def test_toml_cannot_hold_every_none() -> None:
    with pytest.raises(ValueError, match="TOML has no null"):
        files.dumps(RunConfig(save_checkpoints_secs=None), "toml")
    assert files.loads(files.dumps(RunConfig(save_checkpoints_secs=None), "yaml"), "yaml") == (
        RunConfig(save_checkpoints_secs=None)
    )


def test_toml_of_tables_only_starts_with_the_first_table() -> None:
    tf_config = TFConfig.model_validate({"cluster": {"worker": ["w:1"]}})
    assert files.dumps(tf_config, "toml") == '[cluster]\nworker = ["w:1"]\n'


def test_data_that_does_not_load_does_not_read_back() -> None:
    """What would make a file that fails to load is never taken as the model's data."""
    from estconf.io import dump

    assert dump._reads_back(RunConfig(), {"tf_config": {"task": {"type": 1}}}) is False
    assert dump._reads_back(RunConfig(), {}) is True


class TestManifests:
    def test_a_stream_of_documents_with_sorted_keys(self) -> None:
        from estconf.io.dump import dumps_manifests

        text = dumps_manifests([{"kind": "A", "apiVersion": "v1"}, {"kind": "B"}])
        assert text == "apiVersion: v1\nkind: A\n---\nkind: B\n"

    def test_what_a_yaml_1_1_reader_reads_otherwise_is_quoted(self) -> None:
        from estconf.io.dump import dumps_manifests

        words = ["on", "Yes", "n", "1:30", "0755", "1e3", ".5", "-x", "", "~", "null"]
        text = dumps_manifests([{"values": words, "plain": "tensorflow/tensorflow:2.15"}])
        assert text.splitlines()[2:] == [f'- "{word}"' for word in words]
        assert text.startswith("plain: tensorflow/tensorflow:2.15\n")

    def test_a_list_of_integers_on_one_line_and_long_values_on_theirs(self) -> None:
        from estconf.io.dump import dumps_manifests
        from estconf.io.parse import stream_of

        value = '{"cluster":{"worker":["' + "w" * 500 + '"]},"task":{"index":$(TASK_INDEX)}}'
        text = dumps_manifests([{"codes": [1, 2, 3], "flags": [True], "env": value}])
        assert "codes: [1, 2, 3]\n" in text
        assert "flags:\n- true\n" in text
        assert len(text.splitlines()) == 4
        (document,) = stream_of(text, "x")
        assert document.data == {"codes": [1, 2, 3], "flags": [True], "env": value}
