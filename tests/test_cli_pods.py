"""``estconf tf-config LAUNCHER --format pods``: a JSON line per pod, rank, host or replica.

Every launcher writes ``{"pod": NAME, "TF_CONFIG": OBJECT}`` for each of its
pods in its own order, under the name it gives it (the pod, the rank, the
host, the replica, a cluster file's task), with ``"TF_CONFIG": null`` where
the pod gets none, and ``"text"`` beside it where what the pod gets is no
JSON object.  Each runs the real command on the files under tests/data.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_main import run
from estconf.launchers import LAUNCHERS

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def pods(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, Any]]]:
    """The status and the JSON lines of ``estconf tf-config ARGV --format pods``."""
    status, out, _ = run(capsys, "tf-config", *argv, "--format", "pods")
    return status, [json.loads(line) for line in out.splitlines()]


def jsonl(capsys: pytest.CaptureFixture[str], *argv: str) -> list[Any]:
    """The TF_CONFIGs the same command writes as JSON lines."""
    _, out, _ = run(capsys, "tf-config", *argv)
    return [json.loads(line) for line in out.splitlines()]


# Each launcher with a command line that writes several pods, and the names it gives them.
LAUNCHER_PODS = {
    "cluster": (
        ("cluster", "examples/cluster/training.yaml"),
        ["chief:0", "ps:0", "ps:1", "worker:0", "worker:1"],
    ),
    "job": (
        ("job", "mnist", "--namespace", "ml", "--chief", "1", "--worker", "2"),
        ["mnist-chief-0", "mnist-worker-0", "mnist-worker-1"],
    ),
    "tfjob": (
        ("tfjob", "tests/data/kubeflow/dist_mnist.yaml"),
        [f"dist-mnist-{pod}" for pod in ("chief-0", "ps-0", "ps-1", "worker-0", "worker-1")],
    ),
    "jobset": (
        ("jobset", "tests/data/launchers/jobset/chief_worker_ps.yaml"),
        [f"mnist-{pod}" for pod in ("chief-0-0", "worker-0-0", "worker-0-1", "worker-0-2")]
        + ["mnist-ps-0-0", "mnist-ps-0-1"],
    ),
    "trainjob": (
        ("trainjob", "tests/data/launchers/jobset/trainjob_with_runtime.yaml"),
        ["mnist-node-0-0", "mnist-node-0-1", "mnist-node-0-2"],
    ),
    "slurm": (
        ("slurm", "--nodelist", "n[1-2]", "--tasks-per-node", "2", "--write"),
        ["rank 0", "rank 1", "rank 2", "rank 3"],
    ),
    "sagemaker": (
        ("sagemaker", "--instance-count", "3", "--distribution", "parameter_server"),
        ["algo-1", "algo-2", "algo-3"],
    ),
    "vertex": (
        ("vertex", "tests/data/launchers/vertex/custom-job.json", "--job-id", "ab"),
        ["workerpool0-0", "workerpool1-0", "workerpool1-1"],
    ),
    "volcano": (
        ("volcano", "tests/data/launchers/volcano/dist-mnist.yaml", "--profile", "server"),
        [f"tensorflow-dist-mnist-{pod}" for pod in ("ps-0", "worker-0", "worker-1")],
    ),
}


def test_every_launcher_is_shown_here() -> None:
    assert sorted(LAUNCHER_PODS) == sorted(entry.name for entry in LAUNCHERS)


@pytest.mark.parametrize("launcher", sorted(LAUNCHER_PODS))
def test_a_line_per_pod_under_its_launchers_name(
    capsys: pytest.CaptureFixture[str], launcher: str
) -> None:
    argv, names = LAUNCHER_PODS[launcher]
    status, found = pods(capsys, *argv)
    assert [sorted(line) for line in found] == [["TF_CONFIG", "pod"]] * len(names)
    assert [line["pod"] for line in found] == names
    # each pod's TF_CONFIG is the one JSON lines write, in the same order
    assert [line["TF_CONFIG"] for line in found] == jsonl(capsys, *argv)
    assert status == run(capsys, "tf-config", *argv)[0]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (("job", "mnist", "--worker", "1"), [{"pod": "mnist-worker-0", "TF_CONFIG": None}]),
        (
            ("tfjob", "tests/data/kubeflow/single_replica.yaml"),
            [{"pod": "mnist-worker-0", "TF_CONFIG": None}],
        ),
        (
            ("sagemaker", "--instance-count", "2"),
            [{"pod": "algo-1", "TF_CONFIG": None}, {"pod": "algo-2", "TF_CONFIG": None}],
        ),
        (
            ("volcano", "tests/data/launchers/volcano/single.yaml"),
            [{"pod": "mnist-local-worker-0", "TF_CONFIG": None}],
        ),
    ],
)
def test_a_pod_that_gets_no_tf_config_is_null(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], expected: list[dict[str, Any]]
) -> None:
    assert pods(capsys, *argv) == (0, expected)


def test_a_pod_reads_the_tf_config_set_by_hand_where_the_operator_sets_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, found = pods(capsys, "tfjob", "tests/data/kubeflow/single_pod_tf_config.yaml")
    assert status == 0
    assert found == [
        {
            "pod": "solo-worker-0",
            "TF_CONFIG": {
                "cluster": {"worker": ["solo-worker-0.default.svc:2222"]},
                "task": {"type": "worker", "index": 0},
            },
        }
    ]
    assert jsonl(capsys, "tfjob", "tests/data/kubeflow/single_pod_tf_config.yaml") == []


def test_what_is_no_json_object_is_its_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifest = (ROOT / "tests/data/kubeflow/single_pod_tf_config.yaml").read_text()
    value = manifest.split("value: ", 1)[1].split("\n", 1)[0]
    path = tmp_path / "tfjob.yaml"
    path.write_text(manifest.replace(value, '\'{"cluster": {}, "cluster": {}}\''))
    assert pods(capsys, "tfjob", str(path)) == (
        0,
        [{"pod": "solo-worker-0", "TF_CONFIG": None, "text": '{"cluster": {}, "cluster": {}}'}],
    )


def test_one_pod_alone(capsys: pytest.CaptureFixture[str]) -> None:
    status, found = pods(
        capsys, "vertex", "tests/data/launchers/vertex/custom-job.json", "--task", "worker:1"
    )
    assert (status, [line["pod"] for line in found]) == (0, ["workerpool1-1"])


def test_the_older_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert pods(capsys, "--slurm", "--nodelist", "n1", "--tasks-per-node", "1", "--write") == (
        0,
        [pods(capsys, "slurm", "--nodelist", "n1", "--tasks-per-node", "1", "--write")[1][0]],
    )


def test_a_cluster_spec_is_no_tf_config(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("tf-config", "vertex", "tests/data/launchers/vertex/custom-job.json", "--cluster-spec")
    status, out, err = run(capsys, *argv, "--format", "pods")
    assert (status, out) == (2, "")
    assert err.splitlines()[-1] == (
        "estconf tf-config: error: --format pods writes each replica's TF_CONFIG: give "
        "--cluster-spec with another --format"
    )


def test_pods_go_to_standard_output_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = (
        "tf-config",
        "examples/cluster/training.yaml",
        "--format",
        "pods",
        "--out-dir",
        str(tmp_path),
    )
    status, out, err = run(capsys, *argv)
    assert (status, out, list(tmp_path.iterdir())) == (2, "", [])
    assert err.splitlines()[-1] == (
        "estconf tf-config: error: --format pods writes one stream of JSON lines, a line per "
        "pod: give --out-dir with another --format"
    )


def test_a_failed_prediction_writes_no_pod(capsys: pytest.CaptureFixture[str]) -> None:
    status, found = pods(capsys, "tfjob", "tests/data/kubeflow/refused.yaml")
    assert (status, found) == (1, [])
