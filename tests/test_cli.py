"""estconf.cli: the ``estconf`` command.

Most tests call ``main()`` in-process; a few run the installed console script
in a subprocess, on the files under tests/data, to check the real thing.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

import estconf
from cli_main import run
from estconf import RunConfig, TFConfig
from estconf.cli import KIND_NAMES, main
from estconf.files import loads
from estconf.io import kinds
from estconf.schema import dumps, json_schema
from messages import too_long

import cli_docs

ROOT = Path(__file__).resolve().parents[1]
ESTCONF = Path(sys.executable).with_name("estconf")
VALID = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests/data/valid").iterdir())
INVALID = sorted(
    str(p.relative_to(ROOT))
    for p in (ROOT / "tests/data/invalid").iterdir()
    if p.suffix != ".expected"
)
WORKER = "examples/tf_config_worker.json"
CLUSTER = "examples/cluster/training.yaml"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("TF_CONFIG", raising=False)


def expected_output(paths: list[str]) -> str:
    return "".join((ROOT / f"{p}.expected").read_text(encoding="utf-8") for p in paths)


class TestConsoleScript:
    """The installed command, in a subprocess."""

    def test_valid_files(self) -> None:
        done = subprocess.run(
            [ESTCONF, "validate", *VALID], cwd=ROOT, capture_output=True, text=True, check=False
        )
        assert (done.returncode, done.stdout, done.stderr) == (0, f"{len(VALID)} files valid\n", "")

    def test_invalid_files_report_every_error_and_no_traceback(self) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "estconf", "validate", *INVALID, "missing.json"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        errors = sum(
            not line.startswith("hint: ")  # the line after an error that says its fix
            for p in INVALID
            for line in expected_output([p]).splitlines()
        )
        assert done.returncode == 2  # a file cannot be read
        reported = [line for line in done.stdout.splitlines(True) if ": note: " not in line]
        assert "".join(reported) == (
            expected_output(INVALID)
            + "missing.json: no such file\n"
            + f"{errors + 1} errors in {len(INVALID) + 1} of {len(INVALID) + 1} files\n"
        )
        assert done.stderr == ""

    def test_other_tools_files_of_a_directory(self) -> None:
        done = subprocess.run(
            [ESTCONF, "validate", "tests/data/deploy"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert (done.returncode, done.stdout, done.stderr) == (
            0,
            "1 file valid, 3 other files passed over\n",
            "",
        )

    def test_help_and_usage_errors(self) -> None:
        done = subprocess.run([ESTCONF, "--help"], capture_output=True, text=True, check=False)
        assert done.returncode == 0
        assert "examples:" in done.stdout
        done = subprocess.run([ESTCONF, "frobnicate"], capture_output=True, text=True, check=False)
        assert done.returncode == 2
        assert "invalid choice: 'frobnicate'" in done.stderr
        assert "Traceback" not in done.stderr


class TestValidate:
    def test_exit_status(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "validate", WORKER)[0] == 0
        assert run(capsys, "validate", WORKER, "tests/data/invalid/syntax.json")[0] == 1
        assert run(capsys, "validate")[0] == 2

    def test_text(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = "tests/data/invalid/tf_config_values.json"
        status, out, err = run(capsys, "validate", WORKER, path)
        assert status == 1
        assert out == expected_output([path]) + "4 errors in 1 of 2 files\n"
        assert err == ""

    def test_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = "tests/data/invalid/tf_config_values.json"
        status, out, _ = run(capsys, "validate", "--format", "json", WORKER, path)
        report = json.loads(out)
        assert status == 1
        assert report["valid"] is False
        assert report["files"][0] == {
            "file": WORKER,
            "kind": "tf_config",
            "kind_from": "file name",
            "valid": True,
            "errors": [],
        }
        second = report["files"][1]
        assert (second["kind"], second["valid"]) == ("tf_config", False)
        assert second["errors"][0] == {
            "path": "cluster.ps[0]",
            "loc": ["cluster", "ps", 0],
            "line": 4,
            "column": 12,
            "code": "string_type",
            "severity": "error",
            "message": "Task address 2223 must be bytes or unicode",
            "value": 2223,
        }

    def test_too_deep_is_one_code_in_every_format(self, capsys: pytest.CaptureFixture[str]) -> None:
        paths = [f"tests/data/invalid/deep.{suffix}" for suffix in ("json", "yaml", "toml")]
        status, out, _ = run(capsys, "validate", "--format", "json", *paths)
        assert status == 1
        found = [[e["code"] for e in f["errors"]] for f in json.loads(out)["files"]]
        assert found == [["depth"]] * 3

    def test_brackets_in_yaml_comments(self, capsys: pytest.CaptureFixture[str]) -> None:
        paths = [
            f"tests/data/valid/tf_config_comment_{name}.yaml" for name in ("brackets", "braces")
        ]
        assert run(capsys, "validate", *paths)[:2] == (0, "2 files valid\n")

    def test_json_values_json_cannot_hold(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = run(
            capsys, "validate", "--format", "json", "tests/data/invalid/run_config_values.toml"
        )
        [error] = [e for e in json.loads(out)["files"][0]["errors"] if e["path"] == "model_dir"]
        assert error["value"] == "2024-01-01"
        assert (error["line"], error["column"]) == (6, 13)  # TOML values are placed too

    def test_github(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(
            capsys,
            "validate",
            "--format",
            "github",
            "tests/data/invalid/tf_config_task_not_in_cluster.yaml",
        )
        assert status == 1
        [line] = out.splitlines()
        assert line.startswith(
            "::error file=tests/data/invalid/tf_config_task_not_in_cluster.yaml,line=5,col=9,"
            "title=estconf unknown_task_type::task.type: wroker is not a valid task_type"
        )

    def test_github_escapes(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "a,b:c.json"
        path.write_text('{"cluster": {"chief": ["50%:1"]}}')
        _, out, _ = run(capsys, "validate", "--format", "github", str(path))
        assert "a%2Cb%3Ac.json" in out
        assert "50%25:1" in out
        assert run(capsys, "validate", "--format", "github", WORKER)[1] == ""

    def test_kind(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "c.json"
        path.write_text('{"model_dir": "/m"}')
        assert run(capsys, "validate", str(path))[0] == 0
        assert run(capsys, "validate", "--kind", "run_config", str(path))[0] == 0
        path.write_text("{}")
        status, out, _ = run(capsys, "validate", str(path))
        assert status == 1
        assert "give the kind explicitly" in out
        assert run(capsys, "validate", "--kind", "tf_config", str(path))[0] == 0

    def test_limits(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", "--max-size", "10", WORKER)
        assert (status, out.splitlines()[0]) == (
            1,
            f"{WORKER}: the file is larger than the limit of 10 bytes",
        )
        status, out, _ = run(capsys, "validate", "--max-depth", "2", WORKER)
        assert status == 1
        assert "nested deeper than 2 levels" in out
        assert run(capsys, "validate", "--max-depth", "0", WORKER)[0] == 2

    def test_limits_of_a_yaml_stream(self, capsys: pytest.CaptureFixture[str]) -> None:
        stream = "tests/data/kubeflow/stream.yaml"  # four documents
        assert run(capsys, "validate", "--max-documents", "4", stream)[0] == 0
        status, out, _ = run(capsys, "validate", "--max-documents", "3", stream)
        assert (status, out.splitlines()[0]) == (
            1,
            f"{stream}:35:1: the stream holds more than 3 YAML documents",
        )

    def test_a_huge_size_limit_costs_nothing_up_front(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        for limit in ("9999999999999", "99999999999999999999999"):
            assert run(capsys, "validate", "--max-size", limit, WORKER)[:2] == (0, "1 file valid\n")

    def test_kind_names_are_the_kinds(self) -> None:
        assert set(KIND_NAMES) == set(kinds.KINDS)

    def test_version(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "--version") == (0, f"estconf {estconf.__version__}\n", "")

    def test_a_bug_is_one_line_not_a_traceback(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("boom")

        monkeypatch.setattr("estconf.io.files.load_file", broken)
        status, out, err = run(capsys, "validate", WORKER)
        assert (status, out) == (3, "")
        assert err.startswith("estconf: internal error: RuntimeError: boom")
        assert len(err.splitlines()) == 1


class TestTheCommand:
    """What every command shares: the parser, the streams, how a run ends."""

    def test_the_usage_names_a_command(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "--help")
        assert (status, out.splitlines()[0]) == (0, "usage: estconf [-h] [--version] COMMAND ...")

    def test_the_help_says_what_each_command_does(self, capsys: pytest.CaptureFixture[str]) -> None:
        words = " ".join(run(capsys, "--help")[1].split())
        assert (
            "COMMAND validate check config files schema print or write the JSON Schemas "
            "explain show what TensorFlow derives from a TF_CONFIG tf-config write the TF_CONFIG "
            "of each task, as its launcher would check-cluster check the TF_CONFIGs of every "
            "node of a job together"
        ) in words

    def test_no_command_is_a_usage_error(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys)
        assert (status, out) == (2, "")
        assert err.endswith("error: the following arguments are required: COMMAND\n")

    def test_a_file_name_that_is_not_utf8_is_printed_escaped(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        missing = os.path.join(tmp_path, os.fsdecode(b"\xff.json"))
        status, out, err = run(capsys, "validate", missing)
        assert (status, err) == (2, "")
        assert out.startswith(f"{tmp_path}{os.sep}\\udcff.json: no such file\n")

    def test_pydantic_plugins_are_not_looked_up(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS", raising=False)
        assert run(capsys, "validate", WORKER)[0] == 0
        assert os.environ["PYDANTIC_DISABLE_PLUGINS"] == "__all__"

    def test_a_reader_that_goes_away_ends_the_run_quietly(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        read, write = os.pipe()
        os.close(read)
        with open(write, "w", encoding="utf-8") as stream:
            monkeypatch.setattr(sys, "stdout", stream)
            assert main(["schema", "tf_config"]) == 0
            monkeypatch.undo()

    def test_estconf_traceback_lets_a_bug_through(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("boom")

        monkeypatch.setattr("estconf.io.files.load_file", broken)
        monkeypatch.setenv("ESTCONF_TRACEBACK", "1")
        with pytest.raises(RuntimeError, match="boom"):
            main(["validate", WORKER])


class TestSchema:
    @pytest.mark.parametrize("kind", KIND_NAMES)
    def test_print(self, capsys: pytest.CaptureFixture[str], kind: str) -> None:
        assert run(capsys, "schema", kind) == (0, dumps(json_schema(kind)), "")

    def test_write(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        status, out, _ = run(capsys, "schema", "-o", str(tmp_path / "out"))
        assert status == 0
        written = [Path(line) for line in out.splitlines()]
        assert sorted(p.name for p in written) == sorted(f"{k}.schema.json" for k in KIND_NAMES)
        for path in written:
            assert path.read_text() == (ROOT / "schemas" / path.name).read_text()

    def test_write_into_a_directory_that_exists(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """The files of the kinds are written again; other files of the directory stay."""
        (tmp_path / "notes.txt").write_text("mine")
        (tmp_path / "tf_config.schema.json").write_text("old")
        status, out, err = run(capsys, "schema", "-o", str(tmp_path), "tf_config")
        assert (status, out, err) == (0, f"{tmp_path / 'tf_config.schema.json'}\n", "")
        assert (tmp_path / "tf_config.schema.json").read_text() == dumps(json_schema("tf_config"))
        assert (tmp_path / "notes.txt").read_text() == "mine"

    def test_usage(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        assert run(capsys, "schema") == (
            2,
            "",
            "estconf schema: error: give a KIND to print, or -o DIR to write every kind\n",
        )
        assert run(capsys, "schema", "nope")[0] == 2
        blocker = tmp_path / "file"
        blocker.write_text("")
        status, _, err = run(capsys, "schema", "-o", str(blocker))
        assert status == 1
        assert "cannot write" in err


class TestExplain:
    def test_table(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "explain", "--tf-config", WORKER)
        assert status == 0
        rows = dict(line.split(None, 1) for line in out.splitlines() if not line.startswith(" "))
        assert rows["task"] == "worker:1"
        assert rows["master"] == "grpc://host4:2222"
        assert rows["is_chief"] == "False"
        assert rows["global_id_in_cluster"] == "2"
        assert rows["device_filters"] == "/job:ps, /job:worker/task:1"

    def test_json_agrees_with_run_config(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(
            capsys,
            "explain",
            "--tf-config",
            WORKER,
            "--config",
            "examples/run_config.yaml",
            "--format",
            "json",
        )
        facts = json.loads(out)
        config = RunConfig.model_validate(
            {
                **loads(Path("examples/run_config.yaml").read_text(), "yaml", RunConfig).model_dump(
                    exclude_unset=True, exclude_computed_fields=True
                ),
                "tf_config": json.loads(Path(WORKER).read_text()),
            }
        )
        assert status == 0
        assert facts["tf_config_source"] == WORKER
        for key in (
            "task_type",
            "task_id",
            "master",
            "is_chief",
            "global_id_in_cluster",
            "model_dir",
        ):
            assert facts[key] == getattr(config, key)
        assert facts["save_checkpoints_steps"] == 2000

    def test_from_the_environment(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        assert "none (TF_CONFIG is not set)" in run(capsys, "explain")[1]
        monkeypatch.setenv("TF_CONFIG", Path(WORKER).read_text())
        status, out, _ = run(capsys, "explain", "--format", "json")
        assert status == 0
        assert json.loads(out)["tf_config_source"] == "the TF_CONFIG environment variable"
        monkeypatch.setenv("TF_CONFIG", " ")
        status, _, err = run(capsys, "explain")
        assert status == 1
        assert "TF_CONFIG is set but empty" in err

    def test_from_stdin(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO('{"task": {"type": "ps"}}'))
        status, out, err = run(capsys, "explain", "--tf-config", "-")
        assert (status, out) == (1, "")
        assert err.startswith('<stdin>:1:19: task.type: If "cluster" is not set in TF_CONFIG')

    def test_bytes_that_are_not_utf8(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        stdin = io.TextIOWrapper(io.BytesIO(b'{"task": "\xff"}'), encoding="utf-8")
        monkeypatch.setattr(sys, "stdin", stdin)
        status, _, err = run(capsys, "explain", "--tf-config", "-")
        assert status == 1
        assert err.startswith("<stdin>:1:11: invalid UTF-8: byte 0xff")
        monkeypatch.setitem(os.environb, b"TF_CONFIG", b'{"task": "\xff"}')
        status, _, err = run(capsys, "explain")
        assert status == 1
        assert err.startswith("$TF_CONFIG:1:11: invalid UTF-8: byte 0xff")

    def test_stdin_is_read_up_to_the_size_limit(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO('{"task": {}}' + " " * 1000))
        status, _, err = run(capsys, "explain", "--tf-config", "-", "--max-size", "100")
        assert status == 1
        assert "larger than the limit of 100 bytes" in err

    def test_tf_config_in_the_config_file(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "run.json"
        path.write_text(json.dumps({"tf_config": json.loads(Path(WORKER).read_text())}))
        status, out, _ = run(capsys, "explain", "--config", str(path), "--format", "json")
        assert status == 0
        assert json.loads(out)["tf_config_source"] == f"{path} (tf_config)"
        status, _, err = run(capsys, "explain", "--config", str(path), "--tf-config", WORKER)
        assert status == 2
        assert "not both" in err

    def test_config_and_tf_config_disagree(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        tf_config = tmp_path / "tf.json"
        tf_config.write_text('{"model_dir": "/elsewhere"}')
        status, out, err = run(
            capsys, "explain", "--tf-config", str(tf_config), "--config", "examples/run_config.yaml"
        )
        assert (status, out) == (1, "")
        assert "must have the same value as the model_dir in TF_CONFIG" in err

    def test_a_tpu_run_config(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "tpu.yaml"
        path.write_text("master: grpc://tpu:8470\ntpu_config: {iterations_per_loop: 1h}\n")
        status, out, _ = run(
            capsys, "explain", "--config", str(path), "--tf-config", WORKER, "--format", "json"
        )
        facts = json.loads(out)
        assert status == 0
        assert (facts["task_id"], facts["master"]) == (1, "grpc://tpu:8470")
        assert facts["session_config"] is None
        assert facts["tpu_config"]["iterations_per_loop_counter"] == {
            "value": 3600,
            "unit": "seconds",
        }
        status, out, _ = run(capsys, "explain", "--config", str(path))
        assert "  per loop" in out
        assert out.splitlines()[-1].split() == ["per", "loop", "3600", "s"]

    def test_invalid_file(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = "tests/data/invalid/tf_config_estimator_rules.json"
        status, out, err = run(capsys, "explain", "--tf-config", path)
        assert (status, out) == (1, "")
        assert err == expected_output([path]) + "2 errors in 1 of 1 file\n"


class TestTFConfig:
    def test_json_lines(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "tf-config", CLUSTER)
        assert status == 0
        configs = [TFConfig.from_json(line) for line in out.splitlines()]
        assert [(c.task.type, c.task.index) for c in configs] == [
            ("chief", 0),
            ("ps", 0),
            ("ps", 1),
            ("worker", 0),
            ("worker", 1),
        ]
        masters = {RunConfig(tf_config=c).master for c in configs}
        assert len(masters) == 5

    def test_a_cluster_file_with_localhost_and_port_0(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Every TF_CONFIG is written; what its addresses tell is said once, on standard error."""
        path = "tests/data/addresses/tf_config_port_zero.yaml"
        status, out, err = run(capsys, "tf-config", path)
        assert (status, len(out.splitlines())) == (0, 4)
        assert err == (
            f"{path}: cluster.worker[0]: warning: 'trainer-worker-0.trainer:0' has port 0, any "
            "free port: task worker:0 listens on a port chosen when it starts, which the other 3 "
            "tasks of the cluster cannot know\n"
            "hint: give the task a fixed port, e.g. 'trainer-worker-0.trainer:2222'\n"
            "1 warning in 1 of 1 file\n"
        )
        path = "tests/data/addresses/tf_config_two_machines_localhost.json"
        status, out, err = run(capsys, "tf-config", path, "--profile", "mwms")
        assert (status, len(out.splitlines())) == (0, 2)
        assert err.startswith(f"{path}: cluster.chief[0]: note: chief:0 is at a loopback address")
        assert err.endswith("\n1 note in 1 of 1 file\n")
        one = "tests/data/addresses/tf_config_one_task_port_zero.json"
        assert run(capsys, "tf-config", one)[::2] == (0, "")

    def test_shell(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "cluster.json"
        path.write_text(json.dumps({"chief": ["h:0"], "worker": ["h:1"], "service": {"x": "it's"}}))
        # a key besides the jobs: this file is a bare cluster, so "service" is a job name
        assert run(capsys, "tf-config", str(path))[0] == 1
        path.write_text(
            json.dumps({"cluster": {"chief": ["h:0"], "worker": ["h:1"]}, "service": {"x": "it's"}})
        )
        status, out, _ = run(
            capsys, "tf-config", str(path), "--task", "worker:0", "--format", "shell"
        )
        assert status == 0
        comment, export = out.splitlines()
        assert comment == "# worker:0"
        [assignment] = shlex.split(export.removeprefix("export "))
        name, _, value = assignment.partition("=")
        assert name == "TF_CONFIG"
        tf_config = TFConfig.from_json(value)
        assert tf_config.service == {"x": "it's"}
        assert RunConfig(tf_config=tf_config).master == "grpc://h:1"

    def test_kubernetes(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "tf-config", CLUSTER, "--format", "k8s")
        assert status == 0
        documents = list(YAML(typ="safe").load_all(out))
        assert len(documents) == 5
        for document in documents:
            [variable] = document["env"]
            assert variable["name"] == "TF_CONFIG"
            RunConfig(tf_config=TFConfig.from_json(variable["value"]))

    def test_an_evaluator_of_any_cluster(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "tf-config", CLUSTER, "--task", "evaluator:0")
        assert status == 0
        assert RunConfig(tf_config=TFConfig.from_json(out)).task_type == "evaluator"

    def test_sparse_jobs(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "tf-config", "tests/data/valid/tf_config_sparse.toml")
        assert status == 0
        assert [json.loads(line)["task"] for line in out.splitlines()] == [
            {"type": "chief", "index": 0},
            {"type": "worker", "index": 1},
            {"type": "worker", "index": 4},
        ]

    def test_errors(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        status, out, err = run(capsys, "tf-config", CLUSTER, "--task", "worker:5")
        assert (status, out) == (1, "")
        assert "5 is not a valid task_id for task_type worker" in err
        path = tmp_path / "c.yaml"
        path.write_text("worker: [h:1, h:2]\n")
        status, _, err = run(capsys, "tf-config", str(path))
        assert status == 1
        assert err.count('it must have one "chief" node') == 1
        assert run(capsys, "tf-config", "tests/data/invalid/syntax.json")[0] == 1
        assert run(capsys, "tf-config", "tests/data/invalid/not_an_object.json")[0] == 1
        assert run(capsys, "tf-config", CLUSTER, "--task", "worker")[0] == 2


DOCUMENTED = [example for path in cli_docs.DOCUMENTS for example in cli_docs.examples(path)]


class TestDocumentation:
    @pytest.mark.parametrize(
        "example", DOCUMENTED, ids=[f"{e.document.name}: {e.command[:50]}" for e in DOCUMENTED]
    )
    def test_documented_output_is_the_real_output(self, example: cli_docs.Example) -> None:
        real = cli_docs.run(example.command)
        if cli_docs.LAID_OUT_AS_DOCUMENTED:
            assert real == example.output, "run `make docs-examples`"
        else:
            assert cli_docs.words(real) == cli_docs.words(example.output)

    @pytest.mark.parametrize(
        ("laid_out", "as_documented"),
        [
            ("  -o, --output DIR  write files", "  -o DIR, --output DIR  write files"),
            ("[--pod NAME |\n   --task T]", "[--pod NAME | --task T]"),
        ],
    )
    def test_words_set_argparse_layout_aside(self, laid_out: str, as_documented: str) -> None:
        assert cli_docs.words(laid_out) == cli_docs.words(as_documented)

    def test_words_tell_other_texts_apart(self) -> None:
        assert cli_docs.words("-o DIR, --output FILE") != cli_docs.words("-o, --output FILE")
        assert cli_docs.words("a b") != cli_docs.words("ab")

    def test_every_command_is_documented(self) -> None:
        words = (e.command.split("estconf ", 1)[1].split()[0] for e in DOCUMENTED)
        shown = {word for word in words if not word.startswith("-")}  # --version, --help
        assert shown == {"validate", "schema", "explain", "tf-config", "check-cluster", "convert"}
        assert "estconf schema -o" in (ROOT / "docs" / "cli.md").read_text()

    @pytest.mark.parametrize(
        "command", ["validate", "schema", "explain", "tf-config", "check-cluster", "convert"]
    )
    def test_help_has_examples(self, capsys: pytest.CaptureFixture[str], command: str) -> None:
        status, out, _ = run(capsys, command, "--help")
        assert status == 0
        assert "examples:\n  estconf " + command in out


ALL_LAUNCHERS = ["cluster", "jobset", "kubeflow", "sagemaker", "slurm", "vertex", "volcano"]
"""Each launcher's ``command`` module: the older ``tf-config`` command line loads them all."""


class TestStartUp:
    def test_help_imports_no_model(self) -> None:
        code = (
            "import sys, estconf.cli\n"
            "heavy = {'pydantic', 'ruamel.yaml', 'jsonschema', 'estconf.run_config'}\n"
            "print(sorted(heavy & set(sys.modules)))"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert done.stdout == "[]\n"

    def test_a_valid_file_reads_no_error_code_and_no_tfjob_model(self) -> None:
        code = (
            "import contextlib, io, sys\n"
            "from estconf.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['validate', 'examples/tf_config_worker.json'])\n"
            "print(sorted(m for m in sys.modules if m.startswith(('estconf.codes', "
            "'estconf._codes', 'estconf.launchers.kubeflow.'))))"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
        )
        assert done.stdout == "['estconf.launchers.kubeflow.tfjobs']\n"

    @pytest.mark.parametrize(
        ("argv", "commands"),
        [
            (["--help"], []),
            (["--version"], []),
            (["validate", "--help"], ["_validate"]),
            (["validate", "nothing.json"], ["_validate"]),
            (["schema", "tf_config"], ["_schema"]),
            (["explain", "--help"], ["_explain"]),
            (["check-cluster", "--help"], ["_check_cluster"]),
            (["tf-config", "--help"], ["_tf_config"]),
            (["convert", "tfjob-to-trainjob", "--help"], ["_convert"]),
        ],
    )
    def test_a_command_imports_only_its_own_module(
        self, argv: list[str], commands: list[str]
    ) -> None:
        code = (
            "import contextlib, io, sys\n"
            "from estconf.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            f"    main({argv!r})\n"
            "found = [m.split('.')[-1] for m in sys.modules if m.startswith('estconf.cli._')]\n"
            "print(sorted(set(found) - {'_common'}))"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        assert done.stdout == f"{commands!r}\n"

    @pytest.mark.parametrize(
        ("argv", "launchers"),
        [
            (["tf-config", "--help"], []),
            (["tf-config", "slurm", "--help"], ["slurm"]),
            (["tf-config", "job", "--help"], ["kubeflow"]),
            (["tf-config", "--slurm", "--help"], []),
            (["tf-config", "--slurm", "--nodelist", "a", "--tasks-per-node", "1"], ALL_LAUNCHERS),
        ],
    )
    def test_tf_config_imports_only_the_launchers_it_uses(
        self, argv: list[str], launchers: list[str]
    ) -> None:
        code = (
            "import contextlib, io, sys\n"
            "from estconf.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            f"    main({argv!r})\n"
            "found = [m.split('.')[2] for m in sys.modules if m.endswith('.command')]\n"
            "print(sorted(found))"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        assert done.stdout == f"{launchers!r}\n"

    def test_each_command_module_names_itself(self) -> None:
        from estconf import cli

        for name, (module, _) in cli._COMMANDS.items():
            assert name == importlib.import_module(module).NAME

    def test_validating_json_imports_only_what_it_needs(self) -> None:
        code = (
            "import sys\n"
            "from estconf.cli import main\n"
            f"assert main(['validate', {WORKER!r}]) == 0\n"
            "heavy = {'ruamel.yaml', 'jsonschema', 'estconf.tpu', 'estconf.schema', 'difflib'}\n"
            "print(sorted(heavy & set(sys.modules)))"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
        )
        assert done.stdout.splitlines()[-1] == "[]"

    @pytest.mark.parametrize(
        "name",
        [
            "cluster",
            "contrib",
            "deployment",
            "distribute",
            "files",
            "kubeflow",
            "profiles",
            "run_config",
            "sagemaker",
            "schema",
            "session_config",
            "tf_config",
            "tpu",
            "vertex",
        ],
    )
    def test_a_subpackage_is_an_attribute_without_importing_it_first(
        self, name: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # estconf.contrib's, once
            module = importlib.import_module(f"estconf.{name}")
        monkeypatch.delattr(estconf, name)  # as before anything imported it
        assert getattr(estconf, name) is module

    def test_public_names_resolve(self) -> None:
        for name in estconf.__all__:
            assert getattr(estconf, name).__name__ in (name, "RunConfig")
        assert sorted(dir(estconf)) == sorted(set(dir(estconf)))
        with pytest.raises(AttributeError):
            estconf.nothing  # noqa: B018


class TestPreCommitHook:
    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())

    def test_runs_validate(self) -> None:
        hook = self.hooks[0]
        assert hook["id"] == "estconf-validate"
        assert hook["entry"] == "estconf validate"
        assert hook["language"] == "python"

    @pytest.mark.parametrize(
        ("name", "matched"),
        [
            ("tf_config.json", True),
            ("deploy/run_config.yaml", True),
            ("prod.run_config.yml", True),
            ("tpu-config.toml", True),
            ("a/tpu_run_config.json", True),
            ("package.json", False),
            ("myrun_config.json", True),  # the stem holds run_config: read as one
            ("deploy/run_config/x.json", False),
            ("run_configuration.txt", False),
        ],
    )
    def test_default_files(self, name: str, matched: bool) -> None:
        import re

        assert bool(re.search(self.hooks[0]["files"], name)) is matched


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
KEYS = st.sampled_from(
    ["cluster", "task", "tf_config", "tpu_config", "iterations_per_loop", "model_dir", "x"]
)


class TestHostileInput:
    """Whatever a file holds, validate answers 0 or 1 and never fails inside."""

    @settings(max_examples=100)
    @given(content=st.binary(max_size=300), suffix=st.sampled_from([".json", ".toml", ".yaml"]))
    def test_any_bytes(self, content: bytes, suffix: str) -> None:
        self.check(content, suffix)

    @settings(max_examples=100)
    @given(
        document=st.dictionaries(KEYS, json_values, max_size=4),
        suffix=st.sampled_from([".json", ".yaml"]),
    )
    def test_any_document(self, document: dict[str, Any], suffix: str) -> None:
        self.check(json.dumps(document).encode(), suffix)

    @settings(max_examples=50)
    @given(
        document=st.dictionaries(KEYS | st.sampled_from(["chief", "worker"]), json_values),
        suffix=st.sampled_from([".json", ".yaml"]),
    )
    def test_any_cluster(self, document: dict[str, Any], suffix: str) -> None:
        self.check(json.dumps(document).encode(), suffix, "tf-config")

    @settings(max_examples=100)
    @given(
        tag=st.sampled_from(
            ["", "!!int", "!!float", "!!bool", "!!timestamp", "!!binary", "!!null"]
        ),
        value=st.from_regex(r"[-+0-9.:eExob _TZ]{0,24}", fullmatch=True) | st.text(max_size=12),
        quoted=st.booleans(),
    )
    def test_any_yaml_scalar(self, tag: str, value: str, quoted: bool) -> None:
        scalar = json.dumps(value) if quoted else value
        self.check(f"model_dir: {tag} {scalar}\n".encode(), ".yaml")

    def test_a_cluster_file_with_a_date(self) -> None:
        self.check(b'model_dir = 2024-01-01\n[cluster]\nchief = ["h:1"]\n', ".toml", "tf-config")

    @staticmethod
    def check(content: bytes, suffix: str, command: str = "validate") -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "config" + suffix)
            path.write_bytes(content)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = main([command, str(path)])
        assert status in (0, 1), err.getvalue()
        assert "internal error" not in err.getvalue()
        if command == "validate":
            assert err.getvalue() == ""


class TestProfiles:
    """``--profile`` on the installed command, on the files under tests/data."""

    def estconf(self, *argv: str) -> tuple[int, str]:
        done = subprocess.run(
            [ESTCONF, *argv], cwd=ROOT, capture_output=True, text=True, check=False
        )
        assert done.stderr == ""
        return done.returncode, done.stdout

    def test_a_worker_only_cluster_is_valid_for_mwms(self) -> None:
        path = "tests/data/invalid/tf_config_worker_only.json"
        assert self.estconf("validate", "--profile", "mwms", path) == (0, "1 file valid\n")

    def test_its_refusal_by_the_estimator_names_mwms(self) -> None:
        path = "tests/data/invalid/tf_config_worker_only.json"
        status, out = self.estconf("validate", "--profile", "estimator", path)
        assert (status, out) == (1, expected_output([path]) + "1 error in 1 of 1 file\n")
        assert "(this cluster is valid for --profile mwms or --profile server)" in out

    def test_a_ps_job_is_refused_by_mwms_for_each_of_its_tasks(self) -> None:
        path = "tests/data/valid/tf_config_ps_cluster.json"
        assert self.estconf("validate", "--profile", "mwms", path) == (
            1,
            f"{path}:5:12: cluster.ps[0]: task ps:0 of this cluster: "
            "There is no id for task_type 'ps'\n"
            "hint: MultiWorkerMirroredStrategy takes no ps: drop the ps job, or check the job "
            "under the ps profile (--profile ps)\n"
            "1 error in 1 of 1 file\n",
        )
        assert self.estconf("validate", "--profile", "ps", path)[0] == 0

    def test_the_ps_strategy_needs_a_worker(self) -> None:
        path = "tests/data/valid/tf_config_ps_without_worker.json"
        assert self.estconf("validate", "--profile", "ps", path) == (
            1,
            f"{path}:2:14: cluster: There must be at least one worker.\n"
            "hint: add a job 'worker' to the cluster: ParameterServerStrategy trains on the "
            "workers, and the chief only coordinates them\n"
            "1 error in 1 of 1 file\n",
        )

    def test_the_profile_is_for_tf_config_files_only(self) -> None:
        assert (
            self.estconf("validate", "--profile", "mwms", "tests/data/valid/run_config.yaml")[0]
            == 0
        )

    def test_a_ps_cluster_without_chief_names_the_ps_profile(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "tf_config.json")
            cluster = {"worker": ["w:1"], "ps": ["p:1"]}
            path.write_text(
                json.dumps({"cluster": cluster, "task": {"type": "worker", "index": 0}})
            )
            status, out = self.estconf("validate", "--profile", "estimator", str(path))
        assert status == 1
        assert "(this cluster is valid for --profile ps or --profile server)" in out


class TestExplainReaders:
    """``explain --readers``, ``--profile`` and ``--why`` on the installed command."""

    WORKERS = "tests/data/invalid/tf_config_worker_only.json"
    PS = "tests/data/valid/tf_config_ps_cluster.json"

    def estconf(self, *argv: str) -> tuple[int, str, str]:
        done = subprocess.run(
            [ESTCONF, "explain", *argv], cwd=ROOT, capture_output=True, text=True, check=False
        )
        return done.returncode, done.stdout, done.stderr

    def test_side_by_side(self) -> None:
        status, out, _ = self.estconf("--tf-config", self.WORKERS, "--readers")
        assert status == 0
        lines = out.splitlines()
        assert lines[1].split() == ["estimator", "mwms", "ps", "server"]
        assert lines[2].split() == [
            "task",
            "refused",
            "(missing_chief)",
            "worker:0",
            "refused",
            "(missing_ps)",
            "worker:0",
        ]
        assert "num_workers" in out
        assert lines[-2].startswith(
            'estimator: cluster: If "cluster" is set in TF_CONFIG, it must have one "chief" node.'
        )
        assert lines[-1] == "ps: cluster: There must be at least one ps."

    def test_side_by_side_json(self) -> None:
        status, out, _ = self.estconf("--tf-config", self.PS, "--readers", "--format", "json")
        assert status == 0
        views = {view["profile"]: view for view in json.loads(out)["readers"]}
        assert views["estimator"]["values"]["num_worker_replicas"] == 3
        assert views["mwms"]["error"] == {
            "type": "no_id_for_task_type",
            "loc": ["cluster", "ps", 0],
            "msg": "task ps:0 of this cluster: There is no id for task_type 'ps'",
        }
        assert views["ps"]["values"]["num_ps"] == 1

    def test_no_reader_accepts(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp, "tf_config.json")
            cluster = {"chief": ["c:1", "c:2"], "worker": ["w:1"]}
            path.write_text(
                json.dumps({"cluster": cluster, "task": {"type": "worker", "index": 3}})
            )
            assert self.estconf("--tf-config", str(path), "--readers")[0] == 1

    def test_why(self) -> None:
        status, out, _ = self.estconf("--tf-config", self.PS, "--why")
        assert status == 0
        rows = {line.split()[0]: line for line in out.splitlines()}
        assert rows["is_chief"].endswith("False  (task type is worker; the chief is chief:0)")
        assert rows["num_worker_replicas"].endswith("3  (2 workers + 1 chief)")
        assert rows["master"].endswith(
            "grpc://worker-1.train:2222  (the cluster has several tasks, so this task's address)"
        )
        assert rows["global_id_in_cluster"].endswith(
            "2  (jobs in the order chief, worker, ps: 1 chief before worker, then index 1)"
        )

    def test_why_json(self) -> None:
        status, out, _ = self.estconf("--why", "--format", "json")
        assert status == 0
        assert json.loads(out)["reasons"]["is_chief"] == "local mode: the one task is the chief"

    def test_profile_mwms(self) -> None:
        status, out, _ = self.estconf("--tf-config", self.WORKERS, "--profile", "mwms", "--why")
        assert status == 0
        rows = {line.split()[0]: line for line in out.splitlines()}
        assert rows["num_workers"].endswith("2  (0 chiefs + 2 workers)")
        assert rows["is_chief"].endswith("True  (task type is worker; the chief is worker:0)")

    def test_profile_refusal_names_the_task_of_the_cluster(self) -> None:
        status, out, err = self.estconf("--tf-config", self.PS, "--profile", "mwms")
        assert (status, out) == (1, "")
        assert "cluster.ps[0]: task ps:0 of this cluster: There is no id for task_type 'ps'" in err

    def test_the_estimator_refusal_names_mwms(self) -> None:
        status, _, err = self.estconf("--tf-config", self.WORKERS)
        assert status == 1
        assert "(this cluster is valid for --profile mwms or --profile server)" in err

    def test_a_run_config_file_is_for_the_estimator(self) -> None:
        status, _, err = self.estconf("--config", "tests/data/valid/run_config.yaml", "--readers")
        assert status == 2
        assert "--config is a RunConfig file" in err


@pytest.mark.parametrize("path", INVALID)
def test_a_profile_named_by_an_error_accepts_the_file(
    capsys: pytest.CaptureFixture[str], path: str
) -> None:
    """A hint "valid for --profile X" is true of the same file: validate --profile X passes."""
    _, out, _ = run(capsys, "validate", path)
    hints = re.findall(r"valid for ((?:--profile \w+(?: or )?)+)", out)
    for profile in {p for hint in hints for p in re.findall(r"--profile (\w+)", hint)}:
        status, again, _ = run(capsys, "validate", "--profile", profile, path)
        assert status == 0, (path, profile, again)


DIST_MNIST_WORKER = {
    "cluster": {"ps": ["ps-0:2222"], "worker": ["worker-0:2222", "worker-1:2222"]},
    "task": {"type": "worker", "index": 1},
}


@pytest.mark.parametrize(
    "argv",
    [
        ("validate", "--profile", "server", "{file}"),
        ("explain", "--profile", "server", "--tf-config", "{file}"),
        ("check-cluster", "--profile", "server", "{nodes}"),
        ("tf-config", "--profile", "server", "--job", "mnist", "--worker", "2", "--ps", "1"),
    ],
)
def test_every_tf_config_command_takes_the_server_profile(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...]
) -> None:
    """A TF1 program's PS and Worker cluster, which the Estimator refuses for want of a chief."""
    file = tmp_path / "tf_config.json"
    file.write_text(json.dumps(DIST_MNIST_WORKER))
    nodes = tmp_path / "nodes.jsonl"
    cluster = DIST_MNIST_WORKER["cluster"]
    nodes.write_text(
        "".join(
            json.dumps({"cluster": cluster, "task": {"type": job, "index": index}}) + "\n"
            for job, index in [("ps", 0), ("worker", 0), ("worker", 1)]
        )
    )
    given = [arg.format(file=file, nodes=nodes) for arg in argv]
    status, out, err = run(capsys, *given)
    assert status == 0, (out, err)
    estimator = [arg for arg in given if arg not in ("--profile", "server")]
    assert run(capsys, *estimator)[0] == 1


MESSAGE_FILES = sorted(
    str(p.relative_to(ROOT))
    for folder in ("examples/broken", "tests/data")
    for p in (ROOT / folder).rglob("*")
    if p.is_file() and p.suffix != ".expected"
)
DATA = ROOT / "tests" / "data"


def _message_commands() -> list[tuple[str, ...]]:
    """The commands the CLI tests run on the files of examples/broken and tests/data."""
    kubeflow = sorted(str(p.relative_to(ROOT)) for p in (DATA / "kubeflow").glob("*.yaml"))
    vertex = sorted(str(p.relative_to(ROOT)) for p in (DATA / "launchers/vertex").iterdir())
    nodes = sorted(str(p.relative_to(ROOT)) for p in (DATA / "check_cluster").iterdir())
    shell = sorted(str(p.relative_to(ROOT)) for p in (DATA / "shell").rglob("*") if p.is_file())
    nodes += [*shell, str((DATA / "shell" / "job").relative_to(ROOT))]
    commands: list[tuple[str, ...]] = [("validate", "examples/broken", "tests/data")]
    commands.append(("validate", *shell))
    for profile in ("mwms", "ps", "server"):
        commands.append(("validate", "--profile", profile, *kubeflow, *vertex))
        commands.extend(("tf-config", "--vertex", path, "--profile", profile) for path in vertex)
    commands.extend(("tf-config", "--tfjob", path) for path in kubeflow)
    commands.extend(("explain", "--tf-config", path) for path in kubeflow)
    commands.extend(("check-cluster", path) for path in nodes)
    for path in sorted((DATA / "launchers/args").glob("*.args")):
        text = path.read_text(encoding="utf-8").replace("{ROOT}", str(ROOT))
        commands.append(("tf-config", *text.splitlines()))
    return commands


@pytest.mark.parametrize("argv", _message_commands(), ids=" ".join)
def test_no_message_line_is_longer_than_200_characters(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    """The problem in one sentence, the fix as a hint: each line short beyond place and values.

    What a command writes on standard error is measured, and the report of
    ``validate`` and ``check-cluster`` on standard output; the TF_CONFIGs and
    tables written on standard output are data.
    """
    _, out, err = run(capsys, *argv)
    said = out + err if argv[0] in ("validate", "check-cluster") else err
    files = [*MESSAGE_FILES, *(str(ROOT / file) for file in MESSAGE_FILES)]
    assert too_long(said, files) == []
