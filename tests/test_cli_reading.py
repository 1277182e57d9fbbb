"""Every command on hostile input: a clear refusal (exit 1 or 2), no traceback, in bounded time.

Each file of ``tests/data/hostile/`` goes through every command that reads a
file (``validate``, ``explain --tf-config``, ``check-cluster``, ``tf-config
--tfjob``), in process, as the console script runs them.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cli_main import run
from estconf.cli import main

ROOT = Path(__file__).resolve().parents[1]
# hostile files, and files refused by a limit once it is reached (each costs the time to reach it)
HOSTILE = sorted(
    path
    for directory in ("hostile", "limits")
    for path in (ROOT / "tests" / "data" / directory).iterdir()
    if path.is_file()
)
COMMANDS = {
    "validate": ["validate"],
    "explain": ["explain", "--tf-config"],
    "check-cluster": ["check-cluster"],
    "tf-config": ["tf-config", "--tfjob"],
    "tf-config jobset": ["tf-config", "jobset"],
    "tf-config trainjob": ["tf-config", "trainjob"],
    "tf-config --vertex": ["tf-config", "--vertex"],
    "tf-config --sagemaker": ["tf-config", "--sagemaker", "--resource-config"],
}
SECONDS = 2.0 * (5 if sys.gettrace() is not None else 1)
"""The processor time a hostile input may take; five times that under a tracer (coverage)."""


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("TF_CONFIG", raising=False)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("path", HOSTILE, ids=lambda path: path.name)
def test_hostile_input_is_refused_clearly(
    capsys: pytest.CaptureFixture[str], path: Path, command: str
) -> None:
    name = str(path.relative_to(ROOT))
    start = time.process_time()  # this process's time: other work on the machine does not count
    try:
        status = main([*COMMANDS[command], name])
    except SystemExit as exc:  # pragma: no cover - a usage error would say what it is
        status = exc.code if isinstance(exc.code, int) else 1
    seconds = time.process_time() - start
    out, err = capsys.readouterr()
    assert status in (1, 2), out + err
    assert "internal error" not in err
    assert "Traceback" not in out + err
    assert f"{name}:" in out + err  # the message names the file
    assert seconds < SECONDS


class TestEmptyDocuments:
    """A stream's empty documents (a stream ending in ``---``, a part a template switched off)
    are passed over by every command, as kubectl passes them over."""

    def test_check_cluster(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "check-cluster", "tests/data/kubernetes/helm_rendered.yaml")
        assert (status, out) == (0, "2 nodes, 1 cluster: valid\n")

    def test_validate(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(
            capsys,
            "validate",
            "--profile",
            "mwms",
            "tests/data/kubeflow/trailing_separator.yaml",
            "tests/data/kubernetes/helm_rendered.yaml",
            "tests/data/valid/tf_config_trailing_separator.yaml",
        )
        assert (status, out) == (0, "3 files valid\n")

    def test_explain(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = "tests/data/valid/tf_config_trailing_separator.yaml"
        status, out, _ = run(capsys, "explain", "--tf-config", path)
        assert status == 0
        assert "worker-0:2222" in out

    def test_tf_config_tfjob(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = "tests/data/kubeflow/trailing_separator.yaml"
        status, out, _ = run(capsys, "tf-config", "--tfjob", path)
        assert status == 0
        assert [line[-40:] for line in out.splitlines()] == [
            '"task":{"type":"worker","index":0},"environment":"cloud"}'[-40:],
            '"task":{"type":"worker","index":1},"environment":"cloud"}'[-40:],
        ]


def test_project_settings_nested_too_deep(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A ``pyproject.toml`` nested deeper than TOML's parser can read is a usage error."""
    source = ROOT / "tests" / "data" / "hostile" / "pyproject_nested_3000.toml"
    (tmp_path / "pyproject.toml").write_bytes(source.read_bytes())
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "validate", str(ROOT / "examples" / "tf_config_worker.json"))
    assert (status, out) == (2, "")
    assert err.endswith("pyproject.toml: cannot be read: the document is nested too deep to read\n")


def test_project_settings_denser_than_a_config(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A ``pyproject.toml`` holding more values than its size allows is a usage error.

    It is refused before TOML's parser reads it; ``--max-values`` is not for it.
    """
    items = ",".join(["1"] * 10_000)
    (tmp_path / "pyproject.toml").write_text(f"[tool.estconf]\nx = [{items}]\n")
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "validate", str(ROOT / "examples" / "tf_config_worker.json"))
    assert (status, out) == (2, "")
    assert err.endswith(
        "pyproject.toml: cannot be read: the document holds more than 10000 values, more than "
        "a config of its size holds (one per 16 bytes of YAML or TOML, at least 10,000)\n"
    )


def test_project_settings_dense_and_deep(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Dense and nested deeper than the depth limit: the depth is what is said."""
    deep = "[" * 100 + "]" * 100
    (tmp_path / "pyproject.toml").write_text(f"[tool.estconf]\nx = [{','.join([deep] * 200)}]\n")
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "validate", str(ROOT / "examples" / "tf_config_worker.json"))
    assert (status, out) == (2, "")
    assert err.endswith(
        "pyproject.toml: cannot be read: the document is nested deeper than 64 levels\n"
    )


# -- the checks of a file's values, on every path that reads one ------------------------------

# Each value no config may hold, written in JSON, YAML and TOML, and what its refusal says.
BAD_VALUES = {
    "nan": ({"json": "NaN", "yaml": ".nan", "toml": "nan"}, ("NaN",)),
    "infinity": ({"json": "Infinity", "yaml": ".inf", "toml": "inf"}, ("nfinit",)),
    "depth": (dict.fromkeys(("json", "yaml", "toml"), "[" * 70 + "]" * 70), ("nested deeper",)),
    # TOML itself refuses the escape of a lone surrogate
    "lone_surrogate": (
        dict.fromkeys(("json", "yaml", "toml"), '"\\ud800"'),
        ("surrogate pair", "not a Unicode scalar value"),
    ),
}
NODE = '{{"cluster": {{"chief": ["c:1"]}}, "task": {{"type": "chief", "index": 0}}, "x": {}}}'
TOML_NODE = 'x = {}\n[cluster]\nchief = ["c:1"]\n[task]\ntype = "chief"\nindex = 0\n'
YAML_NODE = "cluster: {{chief: [c:1]}}\ntask: {{type: chief, index: 0}}\nx: {}\n"
TFJOB = """\
apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {{name: mnist}}
spec:
  x: {}
  tfReplicaSpecs:
    Worker:
      replicas: 2
      template: {{spec: {{containers: [{{name: tensorflow, image: tf}}]}}}}
"""
VOLCANO_JOB = """\
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {{name: mnist}}
spec:
  x: {}
  plugins: {{tensorflow: []}}
  tasks:
    - {{name: worker, replicas: 2}}
"""
JOBSET = """\
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {{name: mnist}}
spec:
  x: {}
  replicatedJobs:
    - name: worker
      template:
        spec:
          template:
            spec: {{containers: [{{name: c, env: [{{name: TF_CONFIG, value: "{{}}"}}]}}]}}
"""
TRAINJOB = """\
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {{name: mnist}}
spec:
  runtimeRef: {{name: tf}}
  x: {}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {{name: tf}}
spec: {{template: {{spec: {{replicatedJobs: [{{name: node}}]}}}}}}
"""
POD = """\
apiVersion: v1
kind: Pod
metadata: {{name: chief-0}}
spec:
  containers:
    - name: trainer
      image: trainer:1
      env:
        - name: TF_CONFIG
          value: '{}'
"""
CONFIG_MAP = """\
apiVersion: v1
kind: ConfigMap
metadata: {{name: tf-config, labels: {{x: {}}}}}
data:
  TF_CONFIG: '{{"cluster": {{"chief": ["c:1"]}}, "task": {{"type": "chief", "index": 0}}}}'
"""
VERTEX_SPEC = """\
workerPoolSpecs:
  - machineSpec: {{machineType: n1-standard-4, x: {}}}
    replicaCount: 1
    containerSpec: {{imageUri: gcr.io/p/mnist}}
"""
RESOURCE_CONFIG = (
    '{{"current_host": "algo-1", "hosts": ["algo-1", "algo-2"], "x": {}, '
    '"network_interface_name": "eth0"}}'
)

VERTEX_SPEC_JSON = (
    '{{"workerPoolSpecs": [{{"machineSpec": {{"machineType": "n1-standard-4", "x": {}}}, '
    '"replicaCount": 1, "containerSpec": {{"imageUri": "gcr.io/p/mnist"}}}}]}}'
)

ENV_LISTS = (
    "env:\n  - name: TF_CONFIG\n    value: '{}'\n---\nenv:\n  - name: TF_CONFIG\n    value: '{}'\n"
)

# Each path, from the bad value's texts: its command line, the files it reads, and what
# standard input and the environment hold, if anything
READING_PATHS: dict[str, Callable[[dict[str, str]], tuple[Any, ...]]] = {
    "validate JSON": lambda v: (["validate", "f.json"], {"f.json": NODE.format(v["json"])}),
    "validate YAML": lambda v: (["validate", "f.yaml"], {"f.yaml": YAML_NODE.format(v["yaml"])}),
    "validate TOML": lambda v: (
        ["validate", "tf_config.toml"],
        {"tf_config.toml": TOML_NODE.format(v["toml"])},
    ),
    "validate stdin": lambda v: (["validate", "-"], {}, NODE.format(v["json"])),
    "validate stdin YAML": lambda v: (
        ["validate", "--input-format", "yaml", "-"],
        {},
        YAML_NODE.format(v["yaml"]),
    ),
    "validate manifest env": lambda v: (
        ["validate", "pod.yaml"],
        {"pod.yaml": POD.format(NODE.format(v["json"]))},
    ),
    "validate manifest": lambda v: (
        ["validate", "cm.yaml"],
        {"cm.yaml": CONFIG_MAP.format(v["yaml"])},
    ),
    "validate TFJob": lambda v: (["validate", "j.yaml"], {"j.yaml": TFJOB.format(v["yaml"])}),
    "explain file": lambda v: (
        ["explain", "--tf-config", "f.json"],
        {"f.json": NODE.format(v["json"])},
    ),
    "explain stdin": lambda v: (["explain", "--tf-config", "-"], {}, NODE.format(v["json"])),
    "explain manifest": lambda v: (
        ["explain", "--tf-config", "pod.yaml"],
        {"pod.yaml": POD.format(NODE.format(v["json"]))},
    ),
    "explain environment": lambda v: (["explain"], {}, None, {"TF_CONFIG": NODE.format(v["json"])}),
    "explain TFJob pod": lambda v: (
        ["explain", "--tf-config", "j.yaml", "--pod", "mnist-worker-0"],
        {"j.yaml": TFJOB.format(v["yaml"])},
    ),
    "explain TFJob pod stdin": lambda v: (
        ["explain", "--tf-config", "-", "--task", "worker:0"],
        {},
        TFJOB.format(v["yaml"]),
    ),
    "check-cluster JSON": lambda v: (
        ["check-cluster", "f.json"],
        {"f.json": NODE.format(v["json"])},
    ),
    "check-cluster YAML": lambda v: (
        ["check-cluster", "f.yaml"],
        {"f.yaml": YAML_NODE.format(v["yaml"])},
    ),
    "check-cluster TOML": lambda v: (
        ["check-cluster", "f.toml"],
        {"f.toml": TOML_NODE.format(v["toml"])},
    ),
    "check-cluster directory": lambda v: (
        ["check-cluster", "nodes"],
        {"nodes/a.json": NODE.format(v["json"])},
    ),
    "validate directory": lambda v: (
        ["validate", "configs"],
        {"configs/tf_config.yaml": YAML_NODE.format(v["yaml"])},
    ),
    "check-cluster JSON lines": lambda v: (
        ["check-cluster", "n.jsonl"],
        {"n.jsonl": NODE.format(v["json"]) + "\n"},
    ),
    "check-cluster stdin": lambda v: (["check-cluster", "-"], {}, NODE.format(v["json"]) + "\n"),
    "check-cluster env file": lambda v: (
        ["check-cluster", "n.env"],
        {"n.env": f"TF_CONFIG={NODE.format(v['json'])}\n"},
    ),
    "check-cluster shell": lambda v: (
        ["check-cluster", "n.sh"],
        {"n.sh": f"export TF_CONFIG='{NODE.format(v['json'])}'\n"},
    ),
    "check-cluster start script": lambda v: (
        ["check-cluster", "start.sh"],
        {"start.sh": f"#!/bin/sh\nexport TF_CONFIG='\n{NODE.format(v['json'])}\n'\npython x\n"},
    ),
    "validate shell": lambda v: (
        ["validate", "start.sh"],
        {"start.sh": f"#!/bin/sh\nexport TF_CONFIG='\n{NODE.format(v['json'])}\n'\npython x\n"},
    ),
    "validate env file": lambda v: (
        ["validate", "n.env"],
        {"n.env": f"TF_CONFIG={NODE.format(v['json'])}\n"},
    ),
    "check-cluster env lists": lambda v: (
        ["check-cluster", "n.yaml"],
        {"n.yaml": ENV_LISTS.format(NODE.format(v["json"]), NODE.format("1"))},
    ),
    "check-cluster manifest": lambda v: (
        ["check-cluster", "pod.yaml"],
        {"pod.yaml": POD.format(NODE.format(v["json"]))},
    ),
    "check-cluster manifest itself": lambda v: (
        ["check-cluster", "cm.yaml"],
        {"cm.yaml": CONFIG_MAP.format(v["yaml"])},
    ),
    "tf-config TFJob": lambda v: (
        ["tf-config", "--tfjob", "j.yaml"],
        {"j.yaml": TFJOB.format(v["yaml"])},
    ),
    "tf-config TFJob stdin": lambda v: (["tf-config", "--tfjob", "-"], {}, TFJOB.format(v["yaml"])),
    "validate Volcano Job": lambda v: (
        ["validate", "job.yaml"],
        {"job.yaml": VOLCANO_JOB.format(v["yaml"])},
    ),
    "tf-config Volcano Job": lambda v: (
        ["tf-config", "volcano", "job.yaml", "--format", "pods"],
        {"job.yaml": VOLCANO_JOB.format(v["yaml"])},
    ),
    "tf-config Volcano Job stdin": lambda v: (
        ["tf-config", "volcano", "-"],
        {},
        VOLCANO_JOB.format(v["yaml"]),
    ),
    "validate JobSet": lambda v: (["validate", "j.yaml"], {"j.yaml": JOBSET.format(v["yaml"])}),
    "tf-config JobSet": lambda v: (
        ["tf-config", "jobset", "j.yaml"],
        {"j.yaml": JOBSET.format(v["yaml"])},
    ),
    "tf-config TrainJob": lambda v: (
        ["tf-config", "trainjob", "t.yaml"],
        {"t.yaml": TRAINJOB.format(v["yaml"])},
    ),
    "tf-config cluster file": lambda v: (
        ["tf-config", "c.json"],
        {"c.json": '{{"chief": ["c:1"], "worker": ["w:1"], "x": {}}}'.format(v["json"])},
    ),
    "tf-config Vertex spec": lambda v: (
        ["tf-config", "--vertex", "job.yaml"],
        {"job.yaml": VERTEX_SPEC.format(v["yaml"])},
    ),
    "tf-config Vertex spec JSON": lambda v: (
        ["tf-config", "--vertex", "job.json"],
        {"job.json": VERTEX_SPEC_JSON.format(v["json"])},
    ),
    "validate Vertex spec": lambda v: (
        ["validate", "job.yaml"],
        {"job.yaml": VERTEX_SPEC.format(v["yaml"])},
    ),
    "tf-config SageMaker resource config": lambda v: (
        ["tf-config", "--sagemaker", "--resource-config", "r.json"],
        {"r.json": RESOURCE_CONFIG.format(v["json"])},
    ),
    "tf-config SageMaker hyperparameters": lambda v: (
        ["tf-config", "--sagemaker", "--instance-count", "2", "--hyperparameters", "h.json"],
        {"h.json": '{{"sagemaker_parameter_server_enabled": true, "x": {}}}'.format(v["json"])},
    ),
}


# The reader of estconf.io.reading each path reads its input with: every reader is on
# some command's path, and every path is one reader's
PATHS_OF_READER = {
    "config": (
        "validate JSON",
        "validate YAML",
        "validate TOML",
        "validate stdin",
        "validate stdin YAML",
        "explain file",
        "explain stdin",
        "explain environment",
        "check-cluster JSON",
        "check-cluster YAML",
        "check-cluster TOML",
        "check-cluster manifest",
        "check-cluster manifest itself",
        "check-cluster directory",
        "validate directory",
        "tf-config cluster file",
        "tf-config Vertex spec",
        "tf-config Vertex spec JSON",
        "validate Vertex spec",
        "tf-config SageMaker resource config",
        "tf-config SageMaker hyperparameters",
    ),
    "stream": (
        "validate manifest env",
        "validate manifest",
        "validate TFJob",
        "explain manifest",
        "check-cluster env lists",
        "tf-config TFJob",
        "tf-config TFJob stdin",
        "validate Volcano Job",
        "tf-config Volcano Job",
        "tf-config Volcano Job stdin",
        "validate JobSet",
        "tf-config JobSet",
        "tf-config TrainJob",
        "explain TFJob pod",
        "explain TFJob pod stdin",
    ),
    "json_lines": (
        "check-cluster JSON lines",
        "check-cluster stdin",
    ),
    "env_lines": (
        "check-cluster env file",
        "check-cluster shell",
        "check-cluster start script",
        "validate shell",
        "validate env file",
    ),
}


def test_every_reader_is_on_a_command_path() -> None:
    from estconf.io.reading import READERS

    assert set(PATHS_OF_READER) == set(READERS)
    listed = [path for paths in PATHS_OF_READER.values() for path in paths]
    assert sorted(listed) == sorted(READING_PATHS)


@pytest.mark.parametrize("bad", BAD_VALUES)
@pytest.mark.parametrize("path", READING_PATHS)
def test_every_reading_path_refuses_a_value_no_config_may_hold(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    path: str,
    bad: str,
) -> None:
    import io
    import sys

    texts, said = BAD_VALUES[bad]
    given = READING_PATHS[path](texts)
    defaults: tuple[Any, ...] = (None, {})
    argv, written, stdin, environ = (*given, *defaults[len(given) - 2 :])
    for name, text in written.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    stream = io.BytesIO((stdin or "").encode("utf-8"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stream, encoding="utf-8"))
    for variable, value in environ.items():
        monkeypatch.setenv(variable, value)
    status, out, err = run(capsys, *argv)
    assert status in (1, 2), out + err
    assert "internal error" not in err
    assert any(words in out + err for words in said), out + err
