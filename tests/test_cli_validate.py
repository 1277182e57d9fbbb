"""``estconf validate`` on real files: kinds, standard input, directories, exit codes, output."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from cli_main import run
from estconf.io import kinds

ROOT = Path(__file__).resolve().parents[1]
TYPO = {"model_dir": "/m", "save_checkpoint_steps": 100}
"""A RunConfig file with a misspelled key, whose other key TF_CONFIG also has."""
CHIEF = {"cluster": {"chief": ["c:1"]}, "task": {"type": "chief", "index": 0}}
WORKER = "examples/tf_config_worker.json"
DATA = "tests/data"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("TF_CONFIG", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)


def stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def write(path: Path, data: dict[str, object]) -> Path:
    if path.suffix == ".json":
        path.write_text(json.dumps(data), encoding="utf-8")
    else:
        YAML(typ="safe", pure=True).dump(data, path)
    return path


class TestMisspelledRunConfig:
    """The file of the report: refused whatever its name, and with or without ``$schema``."""

    @pytest.mark.parametrize(
        "name",
        [
            "config.json",
            "config.yaml",
            "prod.run_config.yaml",
            "run_config.json",
            "tf_config.json",
            "prod-tf-config.yaml",
            "tpu_run_config.json",
        ],
    )
    @pytest.mark.parametrize(
        "schema",
        [None, "urn:estconf:schema:run_config", "schemas/tf_config.schema.json"],
    )
    def test_refused(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, schema: str | None
    ) -> None:
        data: dict[str, object] = dict(TYPO)
        if schema is not None:
            data = {"$schema": schema, **data}
        status, out, _ = run(capsys, "validate", str(write(tmp_path / name, data)))
        assert status == 1
        assert "save_checkpoint_steps" in out
        assert "did you mean 'save_checkpoints_steps'" in out
        assert out.endswith("1 error in 1 of 1 file\n")

    def test_the_data_files(self, capsys: pytest.CaptureFixture[str]) -> None:
        files = [
            f"{DATA}/invalid/near_miss_checkpoints.json",
            f"{DATA}/invalid/typo.run_config.yaml",
            f"{DATA}/invalid/schema_run_config_typo.json",
        ]
        status, out, _ = run(capsys, "validate", *files)
        assert status == 1
        assert out.count("did you mean 'save_checkpoints_steps'") == 3

    def test_the_note_says_the_assumed_kind_and_how_to_state_it(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = f"{DATA}/invalid/near_miss_checkpoints.json"
        status, out, _ = run(capsys, "validate", path)
        assert status == 1
        assert f"{path}: note: read as tf_config, told from its keys" in out
        assert "--kind" in out and '"$schema"' in out

    def test_no_note_when_the_kind_was_stated(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = run(capsys, "validate", f"{DATA}/invalid/typo.run_config.yaml")
        assert "note:" not in out

    def test_the_pre_commit_hook_catches_it(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        hooks = YAML(typ="safe", pure=True).load(ROOT / ".pre-commit-hooks.yaml")
        hook = next(hook for hook in hooks if hook["id"] == "estconf-validate")
        pattern = re.compile(hook["files"])
        for name in ("prod.run_config.yaml", "deploy/tf_config.json", "run-config.prod.toml"):
            assert pattern.search(name), name
        entry = shlex.split(hook["entry"])
        assert entry[0] == "estconf"
        path = write(tmp_path / "run_config.prod.json", TYPO)
        assert pattern.search(path.as_posix())
        status, out, _ = run(capsys, *entry[1:], *hook.get("args", []), str(path))
        assert status == 1
        assert "did you mean 'save_checkpoints_steps'" in out

    @pytest.mark.parametrize(
        "name",
        [
            "tf_config.json",
            "prod.run_config.yaml",
            "a/tpu-config.toml",
            "x/tpu_run_config.worker.yml",
            "config.json",
            "run_configuration.txt",
            "deploy/run_config/x.json",
        ],
    )
    def test_the_hook_checks_the_files_whose_name_says_their_kind(self, name: str) -> None:
        hooks = YAML(typ="safe", pure=True).load(ROOT / ".pre-commit-hooks.yaml")
        matched = re.search(hooks[0]["files"], name) is not None
        says = Path(name).suffix in (".json", ".toml", ".yaml", ".yml") and (
            kinds.from_name(name) is not None
        )
        assert matched == says


class TestKindResolution:
    def test_kind_option_first(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(
            capsys,
            "validate",
            "-v",
            "--kind",
            "tpu_config",
            f"{DATA}/valid/tpu_config_schema_key.json",
        )
        assert (status, out.splitlines()[0]) == (
            0,
            f"{DATA}/valid/tpu_config_schema_key.json: valid, kind tpu_config (from --kind)",
        )

    def test_schema_key(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", "-v", f"{DATA}/valid/tpu_config_schema_key.json")
        assert status == 0
        assert "kind tpu_config (from $schema)" in out

    def test_schema_key_over_the_file_name(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        data = {"$schema": "urn:estconf:schema:tpu_config", "iterations_per_loop": 2}
        path = write(tmp_path / "tf_config.json", data)
        assert run(capsys, "validate", "-v", str(path))[1].startswith(
            f"{path}: valid, kind tpu_config (from $schema)"
        )

    def test_schema_key_must_be_a_string(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", f"{DATA}/invalid/schema_not_a_string.json")
        assert status == 1
        assert "names the JSON Schema of the file: expected a string" in out

    def test_a_schema_not_ours_is_allowed(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        data = {"$schema": "https://example.com/other.json", **CHIEF}
        path = write(tmp_path / "x.json", data)
        status, out, _ = run(capsys, "validate", "-v", str(path))
        assert (status, out.splitlines()[0]) == (0, f"{path}: valid, kind tf_config (from keys)")

    def test_file_name(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = write(tmp_path / "prod.tpu_config.yaml", {"model_dir": "/m"})
        status, out, _ = run(capsys, "validate", "-v", str(path))
        assert status == 1
        assert "kind tpu_config (from file name)" in out
        assert "unknown key 'model_dir' of TPUConfig" in out

    def test_near_misses_of_tf_config_keys(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", f"{DATA}/invalid/near_miss_cluster.json")
        assert status == 1
        assert "clusters: unknown key 'clusters' of TF_CONFIG; did you mean 'cluster'?" in out
        assert "job" not in out.replace("json", "")  # a platform's key is kept

    @pytest.mark.parametrize("key", ["sparseCluster", "Task", "rpc_layers", "save_summary_step"])
    def test_near_misses_in_a_tf_config_file(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, key: str
    ) -> None:
        data = {"cluster": {"chief": ["c:1"]}, "task": {"type": "chief", "index": 0}, key: 1}
        status, out, _ = run(capsys, "validate", str(write(tmp_path / "tf_config.json", data)))
        assert status == 1
        assert "did you mean" in out

    @pytest.mark.parametrize("key", ["job", "trial", "labels", "cloud"])
    def test_other_unknown_keys_are_kept(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, key: str
    ) -> None:
        data = {"cluster": {"chief": ["c:1"]}, "task": {"type": "chief", "index": 0}, key: 1}
        status, _, _ = run(capsys, "validate", str(write(tmp_path / "tf_config.json", data)))
        assert status == 0

    def test_the_variable_around_its_value(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        value = {"cluster": {"chief": ["c:1"]}, "task": {"type": "chief", "index": 0}}
        path = write(tmp_path / "tf_config.json", {"TF_CONFIG": json.dumps(value)})
        status, out, _ = run(capsys, "validate", str(path))
        assert status == 1
        assert (
            "TF_CONFIG: unknown key 'TF_CONFIG' of TF_CONFIG: a TF_CONFIG file holds the value of "
            "the variable, its keys (cluster, task, ...) at the top level"
        ) in out

    def test_a_run_config_argument_in_a_tf_config(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = write(tmp_path / "tf_config.json", {"keep_checkpoint_max": 3})
        status, out, _ = run(capsys, "validate", str(path))
        assert status == 1
        assert "'keep_checkpoint_max' is an argument of RunConfig, not a key of TF_CONFIG" in out


class TestProjectSettings:
    def settings(self, root: Path, text: str) -> None:
        (root / "pyproject.toml").write_text(text, encoding="utf-8")

    def test_kinds_and_profiles_from_pyproject(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        self.settings(
            tmp_path,
            '[tool.estconf.kinds]\n"deploy/*.json" = "run_config"\n'
            '[tool.estconf.profiles]\n"deploy/*.json" = "mwms"\n',
        )
        (tmp_path / "deploy").mkdir()
        write(tmp_path / "deploy" / "node.json", TYPO)
        (tmp_path / "sub").mkdir()
        monkeypatch.chdir(tmp_path / "sub")  # found from the working directory upward
        status, out, _ = run(capsys, "validate", "-v", "../deploy/node.json")
        assert status == 1
        assert "kind run_config (from pyproject.toml), profile mwms" in out
        assert "unknown key 'save_checkpoint_steps' of RunConfig" in out

    def test_kind_option_wins(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        self.settings(tmp_path, '[tool.estconf.kinds]\n"*.json" = "tpu_config"\n')
        write(tmp_path / "a.json", CHIEF)
        monkeypatch.chdir(tmp_path)
        assert run(capsys, "validate", "--kind", "tf_config", "a.json")[0] == 0
        assert run(capsys, "validate", "a.json")[0] == 1

    def test_a_pyproject_without_settings_is_not_read(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        self.settings(tmp_path, "[tool.other\n")  # not TOML, and not estconf's
        monkeypatch.chdir(tmp_path)
        assert run(capsys, "validate", str(ROOT / WORKER)) == (0, "1 file valid\n", "")

    @pytest.mark.parametrize(
        "text",
        [
            '[tool.estconf.kinds]\n"*.json" = "run-config"\n',
            '[tool.estconf.profiles]\n"*.json" = "tpu"\n',
            "[tool.estconf]\nkind = 1\n",
            "[tool.estconf\n",
            "x = [\n[tool.estconf]\n",
        ],
    )
    def test_bad_settings_are_a_usage_error(
        self,
        capsys: pytest.CaptureFixture[str],
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        text: str,
    ) -> None:
        self.settings(tmp_path, text)
        monkeypatch.chdir(tmp_path)
        status, out, err = run(capsys, "validate", str(ROOT / WORKER))
        assert (status, out) == (2, "")
        assert "pyproject.toml" in err and len(err.splitlines()) == 1


class TestInputs:
    def test_stdin(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        stdin(monkeypatch, json.dumps(TYPO).encode())
        status, out, _ = run(capsys, "validate", "-")
        assert status == 1
        assert out.startswith("<stdin>:1:21: save_checkpoint_steps: ")

    @pytest.mark.parametrize(
        ("fmt", "text"),
        [
            ("toml", b'model_dir = "/m"\nsave_checkpoints_steps = 5\n'),
            ("yaml", b"model_dir: /m\nsave_checkpoints_steps: 5\n"),
            ("json", b'{"model_dir": "/m", "save_checkpoints_steps": 5}'),
        ],
    )
    def test_stdin_formats(
        self,
        capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch,
        fmt: str,
        text: bytes,
    ) -> None:
        stdin(monkeypatch, text)
        status, out, _ = run(capsys, "validate", "-v", "--input-format", fmt, "-")
        assert (status, out) == (0, "<stdin>: valid, kind run_config (from keys)\n1 file valid\n")

    def test_stdin_in_the_wrong_format(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        stdin(monkeypatch, b"model_dir: /m\n")
        status, out, _ = run(capsys, "validate", "-")
        assert status == 1
        assert out.startswith("<stdin>:1:1: invalid JSON")

    def test_explain_reads_stdin_in_the_format_given(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        stdin(monkeypatch, b"cluster: {chief: ['c:1']}\ntask: {type: chief, index: 0}\n")
        status, out, _ = run(capsys, "explain", "--tf-config", "-", "--input-format", "yaml")
        assert status == 0
        assert "chief:0" in out

    def test_explain_readers_read_stdin_in_the_format_given(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        stdin(monkeypatch, b"cluster: {worker: ['w:1']}\ntask: {type: worker, index: 0}\n")
        argv = ("explain", "--readers", "--tf-config", "-", "--input-format", "yaml")
        status, out, _ = run(capsys, *argv)
        assert status == 0
        assert "worker:0" in out


class TestFilesWhoseNameTellsNoFormat:
    """``--input-format`` is the format of a file named without a suffix, as ``<(command)`` is."""

    YAML_CHIEF = "cluster: {chief: ['c:1']}\ntask: {type: chief, index: 0}\n"

    def test_refused_without_input_format(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "node"
        path.write_text(self.YAML_CHIEF, encoding="utf-8")
        status, out, _ = run(capsys, "validate", str(path))
        assert status == 1
        assert out.startswith(
            f"{path}: cannot tell the format from the file name: name it .json, .toml, .yaml "
            "or .yml, or give the format explicitly\n"
        )

    def test_read_in_the_format_given(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "node"
        path.write_text(self.YAML_CHIEF, encoding="utf-8")
        status, out, _ = run(capsys, "validate", "-v", "--input-format", "yaml", str(path))
        assert (status, out) == (0, f"{path}: valid, kind tf_config (from keys)\n1 file valid\n")
        status, out, _ = run(capsys, "explain", "--input-format", "yaml", "--tf-config", str(path))
        assert (status, out.splitlines()[1]) == (0, "task                  chief:0")

    def test_a_manifest_is_checked_as_one(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "manifests"
        path.write_bytes((ROOT / "tests/data/kubernetes/configmap.yaml").read_bytes())
        status, out, _ = run(capsys, "validate", "--input-format", "yaml", str(path))
        assert status == 1
        assert out.startswith(f"{path}:7:14: data.TF_CONFIG: TF_CONFIG cluster: If")

    def test_the_suffix_wins(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "tf_config.toml"
        toml = '[cluster]\nchief = ["c:1"]\n\n[task]\ntype = "chief"\nindex = 0\n'
        path.write_text(toml, encoding="utf-8")
        assert run(capsys, "validate", "--input-format", "json", str(path))[:2] == (
            0,
            "1 file valid\n",
        )

    def test_directory(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        write(tmp_path / "tf_config.json", CHIEF)
        (tmp_path / "deep").mkdir()
        write(tmp_path / "deep" / "run_config.yaml", TYPO)
        (tmp_path / "README.md").write_text("# not a config\n", encoding="utf-8")
        (tmp_path / ".git").mkdir()
        write(tmp_path / ".git" / "x.json", TYPO)
        status, out, _ = run(capsys, "validate", "-v", str(tmp_path))
        assert status == 1
        assert out.splitlines() == [
            f"{tmp_path}/tf_config.json: valid, kind tf_config (from file name)",
            f"{tmp_path}/deep/run_config.yaml: invalid, kind run_config (from file name)",
            f"{tmp_path}/deep/run_config.yaml:1:17: save_checkpoint_steps: unknown key "
            "'save_checkpoint_steps' of RunConfig; did you mean 'save_checkpoints_steps'?",
            "1 error in 1 of 2 files",
        ]

    def test_data_directory(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", f"{DATA}/valid")
        count = len([p for p in (ROOT / DATA / "valid").iterdir()])
        assert (status, out) == (0, f"{count} files valid\n")


class TestOtherToolsFilesInADirectory:
    """A directory walked holds other tools' YAML: passed over, and said so; never refused."""

    DEPLOY = f"{DATA}/deploy"

    def test_passed_over_and_counted(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "validate", self.DEPLOY) == (
            0,
            "1 file valid, 3 other files passed over\n",
            "",
        )

    def test_verbose_says_why(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", "-v", self.DEPLOY)
        assert status == 0
        assert out.splitlines() == [
            f"{self.DEPLOY}/service.yaml: passed over, a Kubernetes Service manifest "
            "(apiVersion: v1), not a config file of a kind estconf reads",
            f"{self.DEPLOY}/tensorboard.yaml: passed over, a stream of 2 Kubernetes manifests "
            "(Deployment, Service) of which none sets TF_CONFIG, not a config file of a kind "
            "estconf reads",
            f"{self.DEPLOY}/tf_config.json: valid, kind tf_config (from file name)",
            f"{self.DEPLOY}/values.yaml: passed over, no kind estconf reads in its name, its "
            '"$schema" or its top-level keys',
            "1 file valid, 3 other files passed over",
        ]

    def test_json_lists_them_apart(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", "--format", "json", self.DEPLOY)
        report = json.loads(out)
        assert (status, report["valid"]) == (0, True)
        assert [f["file"] for f in report["files"]] == [f"{self.DEPLOY}/tf_config.json"]
        assert [s["file"] for s in report["skipped"]] == [
            f"{self.DEPLOY}/{name}" for name in ("service.yaml", "tensorboard.yaml", "values.yaml")
        ]
        assert report["skipped"][0]["reason"].startswith("a Kubernetes Service manifest")

    def test_the_exported_schemas_are_passed_over(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        assert run(capsys, "schema", "--output", str(tmp_path / "schemas"))[0] == 0
        write(tmp_path / "tf_config.json", CHIEF)
        status, out, _ = run(capsys, "validate", "-v", str(tmp_path))
        assert status == 0
        assert (
            f"{tmp_path}/schemas/run_config.schema.json: passed over, a JSON Schema ($schema: "
            "https://json-schema.org/draft/2020-12/schema), not a RunConfig file"
        ) in out.splitlines()
        assert out.splitlines()[-1] == f"1 file valid, {len(kinds.KINDS)} other files passed over"

    def test_a_file_whose_name_tells_its_kind_is_checked(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """An empty file, a list or a stream is another tool's only if its name says no kind."""
        for name, text in (
            ("empty", ""),
            ("list", "- hosts: all\n"),
            ("stream", "a: 1\n---\nb: 2\n"),
        ):
            (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
            (tmp_path / f"{name}.tf_config.yaml").write_text(text, encoding="utf-8")
        status, out, _ = run(capsys, "validate", "-v", str(tmp_path))
        assert status == 1
        assert [line for line in out.splitlines() if "passed over," in line] == [
            f"{tmp_path}/empty.yaml: passed over, empty, and its name tells no kind",
            f"{tmp_path}/list.yaml: passed over, not an object (a mapping) at its top level, "
            "and its name tells no kind",
            f"{tmp_path}/stream.yaml: passed over, more than one YAML document, and its name "
            "tells no kind",
        ]
        assert out.splitlines()[-1] == "3 errors in 3 of 3 files, 3 other files passed over"

    def test_named_files_are_refused(self, capsys: pytest.CaptureFixture[str]) -> None:
        names = [f"{self.DEPLOY}/{name}" for name in ("service.yaml", "values.yaml")]
        status, out, _ = run(capsys, "validate", *names)
        assert status == 1
        assert out.splitlines()[-1] == "2 errors in 2 of 2 files"
        assert out.startswith(f"{names[0]}: a Kubernetes Service manifest (apiVersion: v1), not")
        assert f"{names[1]}: cannot tell what this file configures" in out

    def test_a_kind_given_applies_to_every_file(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", "--kind", "tf_config", self.DEPLOY)
        assert status == 1
        assert "passed over" not in out
        assert f"{self.DEPLOY}/service.yaml:2:1: a Kubernetes Service manifest" in out
        assert f"{self.DEPLOY}/tensorboard.yaml: a stream of 2 Kubernetes manifests" in out
        assert out.splitlines()[-1] == "2 errors in 2 of 4 files"

    def test_a_file_that_cannot_be_read_is_no_other_tools_file(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        (tmp_path / "values.yaml").write_text("image: [unclosed\n", encoding="utf-8")
        status, out, _ = run(capsys, "validate", str(tmp_path))
        assert status == 1
        assert out.startswith(f"{tmp_path}/values.yaml:2:1: ")

    def test_a_directory_of_other_files_only(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        service = (ROOT / self.DEPLOY / "service.yaml").read_text(encoding="utf-8")
        (tmp_path / "service.yaml").write_text(service, encoding="utf-8")
        status, out, _ = run(capsys, "validate", str(tmp_path))
        assert (status, out) == (
            2,
            f"{tmp_path}: is a directory with no config file estconf reads (-v names the files "
            "passed over)\n1 error in 1 of 1 file, 1 other file passed over\n",
        )


class TestExitStatus:
    def test_valid(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "validate", WORKER)[0] == 0

    def test_invalid(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "validate", WORKER, f"{DATA}/invalid/syntax.json")[0] == 1

    def test_missing_file(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", WORKER, f"{DATA}/invalid/syntax.json", "no.json")
        assert status == 2
        assert "no.json: no such file\n" in out

    def test_empty_directory(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
        status, out, _ = run(capsys, "validate", str(tmp_path))
        assert status == 2
        assert out.splitlines()[0] == (
            f"{tmp_path}: is a directory with no .json, .toml, .yaml or .yml file"
        )

    @pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
    def test_no_permission(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = write(tmp_path / "tf_config.json", CHIEF)
        path.chmod(0)
        status, out, _ = run(capsys, "validate", str(path))
        assert status == 2
        assert "permission denied" in out

    def test_usage_error(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "validate")[0] == 2


class TestOutput:
    def test_quiet(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "validate", "-q", WORKER) == (0, "", "")
        path = f"{DATA}/invalid/near_miss_checkpoints.json"
        status, out, _ = run(capsys, "validate", "-q", WORKER, path)
        assert status == 1
        assert len(out.splitlines()) == 1 and out.startswith(f"{path}:1:21: ")

    def test_verbose(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", "-v", WORKER, "examples/run_config.yaml")
        assert (status, out) == (
            0,
            f"{WORKER}: valid, kind tf_config (from file name)\n"
            "examples/run_config.yaml: valid, kind run_config (from file name)\n"
            "2 files valid\n",
        )

    def test_quiet_and_verbose_exclude_each_other(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "validate", "-q", "-v", WORKER)[0] == 2

    def test_color_always(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = run(capsys, "validate", "--color", "always", f"{DATA}/invalid/syntax.json")
        assert "\033[1m" in out and "\033[31m" in out

    @pytest.mark.parametrize("argv", [["--color", "never"], ["--color", "auto"], []])
    def test_no_color(self, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
        _, out, _ = run(capsys, "validate", *argv, f"{DATA}/invalid/syntax.json")
        assert "\033[" not in out  # captured output is not a terminal

    def test_options_read_from_the_command_line_choose_as_their_names_say(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The words of argv are strings made at run time, not the constants of the code."""
        monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
        auto, text = "".join(["au", "to"]), "".join(["te", "xt"])
        _, out, _ = run(capsys, "validate", "--color", auto, f"{DATA}/invalid/syntax.json")
        assert "\033[31m" in out
        argv = ["--format", text, "--color", "always", f"{DATA}/invalid/syntax.json"]
        _, out, _ = run(capsys, "validate", *argv)
        assert "\033[31m" in out

    def test_auto_honours_no_color(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
        _, out, _ = run(capsys, "validate", WORKER)
        assert "\033[" in out
        monkeypatch.setenv("NO_COLOR", "1")
        _, out, _ = run(capsys, "validate", WORKER)
        assert "\033[" not in out

    def test_github_gives_the_note_as_a_notice(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = f"{DATA}/invalid/near_miss_checkpoints.json"
        status, out, _ = run(capsys, "validate", "--format", "github", path)
        error, notice = out.splitlines()
        assert status == 1
        assert error.startswith(f"::error file={path},line=1,col=21,title=estconf near_miss_key::")
        assert notice.startswith(f"::notice file={path},title=estconf kind::{path}: note: read as")

    def test_json_says_how_the_kind_was_told(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = run(
            capsys, "validate", "--format", "json", f"{DATA}/invalid/near_miss_cluster.json"
        )
        (result,) = json.loads(out)["files"]
        assert (result["kind"], result["kind_from"]) == ("tf_config", "keys")
        assert result["errors"][0]["code"] == "near_miss_key"


class TestHelp:
    def test_unknown_option_gets_the_command_usage(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, err = run(capsys, "validate", "--nope", WORKER)
        assert (status, out) == (2, "")
        assert err.startswith("usage: estconf validate ")
        assert err.splitlines()[-1] == "estconf validate: error: unrecognized arguments: --nope"

    def test_help_wraps_and_shows_examples(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("COLUMNS", "60")
        status, out, _ = run(capsys, "validate", "--help")
        assert status == 0
        prose = out.split("examples:")[0]
        assert max(len(line) for line in prose.splitlines()) <= 60
        assert "examples:\n  estconf validate run_config.yaml tf_config.json\n" in out
        assert "first match wins" in out

    def test_version(self, capsys: pytest.CaptureFixture[str]) -> None:
        from estconf import __version__

        assert run(capsys, "--version") == (0, f"estconf {__version__}\n", "")


def test_help_imports_neither_pydantic_nor_toml() -> None:
    import subprocess

    code = (
        "import sys\n"
        "from estconf.cli import main\n"
        "for argv in (['--help'], ['validate', '--help']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = {'pydantic', 'tomllib', 'tomli', 'difflib', 'estconf.io.project'}\n"
        "print(sorted(heavy & set(sys.modules)), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr == "[]\n"


class TestHelmTemplates:
    """A Helm template is YAML only once rendered: named, it cannot be read (exit 2); found in
    a directory, it is another tool's file, passed over and counted."""

    CHART = ROOT / "tests" / "data" / "helm" / "mnist"
    RENDER = (
        "not YAML: render it first and check the manifests it renders "
        "(helm template CHART | estconf validate --input-format yaml -)"
    )

    def test_named(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = self.CHART / "templates" / "tfjob.yaml"
        status, out, _ = run(capsys, "validate", str(path))
        assert status == 2
        assert out.splitlines()[0] == (
            f"{path}:4:9: a Helm template ({{{{ .Release.Name }}}}), {self.RENDER}"
        )

    def test_in_a_directory(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        for template in ("tfjob.yaml", "service.yaml"):
            (tmp_path / template).write_bytes((self.CHART / "templates" / template).read_bytes())
        write(tmp_path / "tf_config.json", CHIEF)
        status, out, _ = run(capsys, "validate", "-v", str(tmp_path))
        assert status == 0
        assert f"{tmp_path}/service.yaml: passed over, a Helm template (" in out
        assert out.endswith("1 file valid, 2 other files passed over\n")


@pytest.mark.parametrize(
    ("cluster", "index", "path", "value"),
    [
        pytest.param({"worker": ["w:1", "w:2"]}, 7, "task.index", 7, id="the-nodes-own-task"),
        pytest.param(
            {"chief": ["c:1"], "worker": ["w:1", "w:2"], "ps": ["p:1"]},
            0,
            "cluster.ps[0]",
            "ps",
            id="another-task-of-the-cluster",
        ),
    ],
)
def test_an_error_of_a_profile_holds_the_value_it_is_about(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    cluster: dict[str, list[str]],
    index: int,
    path: str,
    value: object,
) -> None:
    """validate --profile mwms reports the value of each error, as the estimator's errors do."""
    node = write(
        tmp_path / "node.tf_config.json",
        {"cluster": cluster, "task": {"type": "worker", "index": index}},
    )
    status, out, _ = run(capsys, "validate", "--profile", "mwms", "--format", "json", str(node))
    assert status == 1
    [error] = json.loads(out)["files"][0]["errors"]
    assert (error["path"], error.get("value", "no value")) == (path, value)


class TestDistributeRefusalsNameTheirFix:
    """validate --profile: each refusal of a tf.distribute reader is followed by its fix."""

    MWMS_PS = f"{DATA}/profiles/mwms_with_ps.tf_config.json"
    NO_PS = (
        "MultiWorkerMirroredStrategy takes no ps: drop the ps job, or check the job under the ps "
        "profile (--profile ps)"
    )

    def test_text(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", "--profile", "mwms", self.MWMS_PS)
        assert (status, out) == (
            1,
            f"{self.MWMS_PS}:5:12: cluster.ps[0]: task ps:0 of this cluster: There is no id for "
            f"task_type 'ps'\nhint: {self.NO_PS}\n"
            f"{self.MWMS_PS}:5:44: cluster.ps[1]: task ps:1 of this cluster: There is no id for "
            f"task_type 'ps'\nhint: {self.NO_PS}\n"
            "2 errors in 1 of 1 file\n",
        )
        assert run(capsys, "validate", "--profile", "ps", self.MWMS_PS)[0] == 0

    def test_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ("validate", "--profile", "mwms", "--format", "json", self.MWMS_PS)
        errors = json.loads(run(capsys, *argv)[1])["files"][0]["errors"]
        assert [(e["code"], e["path"], e["message"], e["hint"]) for e in errors] == [
            (
                "no_id_for_task_type",
                f"cluster.ps[{index}]",
                f"task ps:{index} of this cluster: There is no id for task_type 'ps'",
                self.NO_PS,
            )
            for index in (0, 1)
        ]

    def test_sarif_and_github_say_the_fix_on_a_second_line(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("validate", "--profile", "mwms", "--format", "sarif", self.MWMS_PS)
        results = json.loads(run(capsys, *argv)[1])["runs"][0]["results"]
        assert [r["message"]["text"].split("\n") for r in results] == [
            [
                f"cluster.ps[{index}]: task ps:{index} of this cluster: There is no id for "
                "task_type 'ps'",
                f"hint: {self.NO_PS}",
            ]
            for index in (0, 1)
        ]
        out = run(capsys, "validate", "--profile", "mwms", "--format", "github", self.MWMS_PS)[1]
        first = out.splitlines()[0]
        assert first.endswith(
            "::cluster.ps[0]: task ps:0 of this cluster: There is no id for task_type 'ps'"
            f"%0Ahint: {self.NO_PS}"
        )

    def test_the_server_profile(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = f"{DATA}/profiles/server_task_not_in_cluster.tf_config.json"
        assert run(capsys, "validate", "--profile", "server", path)[:2] == (
            1,
            f"{path}:6:39: task.index: No task with index 2 in job 'worker' (its indices are "
            "[0, 1]) (got 2)\n"
            "hint: set task.index to this node's index in job 'worker' (0 to 1), or add task 2's "
            "address to the job\n"
            "1 error in 1 of 1 file\n",
        )

    def test_the_estimator_is_told_its_fix_once(self, capsys: pytest.CaptureFixture[str]) -> None:
        """The Estimator writes its fix into its sentence: no hint line says it again."""
        path = f"{DATA}/profiles/server_task_not_in_cluster.tf_config.json"
        out = run(capsys, "validate", path)[1]
        assert out.count("Fix: move task worker:0 into a job") == 1
        assert "\nhint: " not in out


ADDRESSES = f"{DATA}/addresses"


class TestAddresses:
    """The address rule says its reason; port 0 and loopback hosts are a warning and a note."""

    def test_a_port_with_leading_zeros_is_refused_with_its_fix(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = f"{ADDRESSES}/tf_config_leading_zeros.json"
        assert run(capsys, "validate", path) == (
            1,
            f"{path}:3:15: cluster.chief[0]: 'localhost:0000' is not a valid task address: the "
            "port '0000' has leading zeros\n"
            "hint: write it as 'localhost:0'\n"
            "1 error in 1 of 1 file\n",
            "",
        )

    def test_port_0_in_a_cluster_of_one_task_is_clean(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = f"{ADDRESSES}/tf_config_one_task_port_zero.json"
        assert run(capsys, "validate", "--strict", path) == (0, "1 file valid\n", "")
        assert run(capsys, "validate", "--profile", "mwms", path) == (0, "1 file valid\n", "")

    def test_port_0_among_other_tasks_is_a_warning_at_its_address(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = f"{ADDRESSES}/tf_config_port_zero.yaml"
        expected = (
            f"{path}:6:7: cluster.worker[0]: warning: 'trainer-worker-0.trainer:0' has port 0, "
            "any free port: task worker:0 listens on a port chosen when it starts, which the "
            "other 3 tasks of the cluster cannot know\n"
            "hint: give the task a fixed port, e.g. 'trainer-worker-0.trainer:2222'\n"
            "1 warning in 1 of 1 file\n"
        )
        assert run(capsys, "validate", path) == (0, expected, "")
        assert run(capsys, "validate", "--strict", path) == (1, expected, "")

    def test_localhost_beside_another_machine_is_a_note(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = f"{ADDRESSES}/tf_config_two_machines_localhost.json"
        expected = (
            f"{path}:3:15: cluster.chief[0]: note: chief:0 is at a loopback address "
            "('localhost:2222'), which each machine reads as itself: the cluster works only "
            "when every task runs on that one machine, and it also lists '10.128.0.7:2222'\n"
            "hint: for tasks on several machines, give each task its machine's hostname or IP "
            "address\n"
            "1 note in 1 of 1 file\n"
        )
        assert run(capsys, "validate", path) == (0, expected, "")
        assert run(capsys, "validate", "--strict", path) == (0, expected, "")  # a note passes

    def test_json_gives_each_finding_its_severity_and_hint(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = f"{ADDRESSES}/tf_config_port_zero.yaml"
        status, out, _ = run(capsys, "validate", "--format", "json", path)
        report = json.loads(out)
        [warning] = report["files"][0]["errors"]
        assert (status, report["valid"], report["files"][0]["valid"]) == (0, True, True)
        assert (warning["code"], warning["severity"], warning["line"]) == (
            "port_zero",
            "warning",
            6,
        )
        assert warning["hint"] == "give the task a fixed port, e.g. 'trainer-worker-0.trainer:2222'"

    def test_a_directory_of_them(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", ADDRESSES)
        assert status == 1
        assert out.splitlines()[-1] == "1 error, 2 warnings, 2 notes in 4 of 5 files"


class TestClusterFiles:
    """A file of jobs alone is a cluster, checked as ``estconf tf-config`` checks it."""

    CLUSTER = "examples/cluster/training.yaml"

    def test_the_cluster_tf_config_reads_is_valid(self, capsys: pytest.CaptureFixture[str]) -> None:
        paths = [self.CLUSTER, f"{DATA}/valid/cluster_ps_strategy.yaml"]
        assert run(capsys, "validate", "-v", *paths, f"{DATA}/valid/cluster_sparse.json") == (
            0,
            f"{self.CLUSTER}: valid, kind cluster (from keys)\n"
            f"{DATA}/valid/cluster_ps_strategy.yaml: valid, kind cluster (from keys)\n"
            f"{DATA}/valid/cluster_sparse.json: valid, kind cluster (from $schema)\n"
            "3 files valid\n",
            "",
        )
        status, _, _ = run(capsys, "tf-config", self.CLUSTER)
        assert status == 0

    def test_every_task_is_checked_under_the_profile(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(capsys, "validate", "-q", "--profile", "mwms", self.CLUSTER)
        assert (status, out.splitlines()) == (
            1,
            [
                f"{self.CLUSTER}:3:6: ps[0]: task ps:0 of this cluster: There is no id for "
                "task_type 'ps'",
                f"hint: {TestDistributeRefusalsNameTheirFix.NO_PS}",
                f"{self.CLUSTER}:3:35: ps[1]: task ps:1 of this cluster: There is no id for "
                "task_type 'ps'",
                f"hint: {TestDistributeRefusalsNameTheirFix.NO_PS}",
            ],
        )
        for profile in ("estimator", "ps", "server"):
            assert run(capsys, "validate", "--profile", profile, self.CLUSTER)[0] == 0

    @pytest.mark.parametrize(
        "path",
        [f"{DATA}/invalid/cluster_by_hand.yaml", f"{DATA}/invalid/cluster_between_graph.json"],
    )
    def test_its_errors_are_those_tf_config_says(
        self, capsys: pytest.CaptureFixture[str], path: str
    ) -> None:
        """The same messages, at the same places of the cluster: placed in the file here."""
        _, out, _ = run(capsys, "validate", "-q", path)
        said = [re.sub(rf"^{re.escape(path)}:\d+:\d+: ", "", line) for line in out.splitlines()]
        _, _, err = run(capsys, "tf-config", path)
        told = [
            re.sub(rf"^{re.escape(path)} \(\w+:\d+\): cluster(?:\.|(?=\[)|: )", "", line)
            for line in err.splitlines()
            if line.startswith(path)
        ]
        assert said == told
        assert said

    def test_a_cluster_with_no_task(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = write(tmp_path / "jobs.yaml", {"$schema": "urn:estconf:schema:cluster"})
        assert run(capsys, "validate", str(path)) == (
            1,
            f"{path}:1:1: the cluster has no tasks: a cluster maps each job to the addresses "
            "of its tasks\n"
            'hint: name each job and its tasks\' addresses, as {"worker": ["host1:2222"]}\n'
            "1 error in 1 of 1 file\n",
            "",
        )

    def test_kind_cluster_of_standard_input(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        stdin(monkeypatch, b"{}")
        status, out, _ = run(capsys, "validate", "--kind", "cluster", "--format", "json", "-")
        [found] = json.loads(out)["files"]
        assert (status, found["kind"], found["kind_from"]) == (1, "cluster", "--kind")
        assert [error["code"] for error in found["errors"]] == ["cluster_no_tasks"]

    def test_kind_cluster_reads_jobs_of_any_name_and_no_tf_config(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """Told by ``--kind``, a cluster needs no job TensorFlow knows; a TF_CONFIG is none."""
        trainers = write(tmp_path / "trainers.json", {"trainer": ["t0:2222", "t1:2222"]})
        assert run(capsys, "validate", str(trainers))[0] == 1  # no kind told
        assert (
            run(capsys, "validate", "--profile", "server", "--kind", "cluster", str(trainers))[0]
            == 0
        )
        status, out, _ = run(capsys, "validate", "--kind", "cluster", "--format", "json", WORKER)
        [found] = json.loads(out)["files"]
        assert (status, found["kind"], found["valid"]) == (1, "cluster", False)

    def test_jobs_beside_a_task_are_still_a_tf_config_whose_cluster_was_forgotten(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        jobs = YAML(typ="safe", pure=True).load(ROOT / self.CLUSTER)
        path = write(tmp_path / "node.yaml", {**jobs, "task": {"type": "worker", "index": 1}})
        status, out, _ = run(capsys, "validate", "-v", str(path))
        assert status == 1
        assert f"{path}: invalid, kind tf_config (from keys)" in out.splitlines()
        assert out.count("is at the top level of TF_CONFIG") == 3


BROKEN = "examples/broken/"


class TestExamples:
    """``estconf validate examples/``, a newcomer's first try: the errors are broken/'s alone."""

    def test_every_example_outside_broken_is_valid(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        _, out, _ = run(capsys, "validate", "--format", "json", "examples/")
        outside = [
            found for found in json.loads(out)["files"] if not found["file"].startswith(BROKEN)
        ]
        assert [found["file"] for found in outside if not found["valid"]] == []
        kinds_told = {found["file"]: found["kind"] for found in outside}
        assert kinds_told["examples/cluster/training.yaml"] == "cluster"
        status, out, _ = run(capsys, "validate", *kinds_told)
        assert (status, out) == (0, f"{len(kinds_told)} files valid\n")

    def test_broken_gives_the_errors_it_shows(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", "--format", "json", "examples/")
        errors = {
            found["file"]: [error["code"] for error in found["errors"]]
            for found in json.loads(out)["files"]
            if found["errors"]
        }
        assert status == 1
        assert errors == {
            "examples/broken/checkpoints.json": ["near_miss_key"],
            "examples/broken/prod.run_config.yaml": ["unknown_key"],
            "examples/broken/run_config.yaml": ["unknown_key", "bounds", "bool_type"],
            "examples/broken/tf_config.json": ["address"],
        }
        broken = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples/broken").iterdir())
        assert sorted(errors) == broken
