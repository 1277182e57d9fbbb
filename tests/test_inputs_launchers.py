"""estconf.inputs.launchers: a Vertex AI CustomJob spec and SageMaker's JSON files, read."""

from __future__ import annotations

from pathlib import Path

import pytest

from estconf.inputs.launchers import json_object, vertex_spec
from estconf.inputs.sources import InputError
from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError

SPEC = "workerPoolSpecs:\n  - replicaCount: 1\n"


class TestVertexSpec:
    def test_a_yaml_file(self, tmp_path: Path) -> None:
        path = tmp_path / "job.yaml"
        path.write_text(SPEC, encoding="utf-8")
        document = vertex_spec(str(path), Limits())
        assert document.data == {"workerPoolSpecs": [{"replicaCount": 1}]}
        assert document.locate([("workerPoolSpecs", 0)])[("workerPoolSpecs", 0)].value.line == 2

    @pytest.mark.parametrize(
        ("text", "format"), [('{"workerPoolSpecs": []}', "json"), (SPEC, "yaml")]
    )
    def test_standard_input_is_json_when_it_starts_as_an_object(
        self, text: str, format: str
    ) -> None:
        document = vertex_spec("-", Limits(), text.encode())
        assert document.format == format

    def test_a_toml_file_is_no_spec(self, tmp_path: Path) -> None:
        path = tmp_path / "job.toml"
        path.write_text("x = 1\n", encoding="utf-8")
        with pytest.raises(InputError, match=r"job\.toml: a CustomJob spec is YAML or JSON"):
            vertex_spec(str(path), Limits())

    def test_bad_utf8_is_said_before_the_format(self, tmp_path: Path) -> None:
        path = tmp_path / "job.toml"
        path.write_bytes(b"x = '\xff'\n")
        with pytest.raises(ConfigFileError) as info:
            vertex_spec(str(path), Limits())
        assert [found.code for found in info.value.errors] == ["encoding"]

    def test_a_nan_is_refused(self) -> None:
        with pytest.raises(ConfigFileError) as info:
            vertex_spec("-", Limits(), b"workerPoolSpecs: [{replicaCount: .nan}]\n")
        [found] = info.value.errors
        assert (found.code, found.path, found.line) == (
            "number",
            "workerPoolSpecs[0].replicaCount",
            1,
        )


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
