"""``estconf tf-config volcano FILE`` and ``estconf validate`` on Volcano Jobs under tests/data.

The manifests are real-shaped: Volcano's own TensorFlow job (its end-to-end
test of the tensorflow plugin, in the shape of its dist-mnist example), and
Jobs of other task names, of one pod, of evaluators and without the plugin.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from cli_main import run
from estconf.launchers.volcano.job import read_jobs
from estconf.launchers.volcano.plugin import predict
from messages import too_long

ROOT = Path(__file__).resolve().parents[1]
DATA = "tests/data/launchers/volcano"
MNIST = f"{DATA}/dist-mnist.yaml"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def lines(out: str) -> list[Any]:
    return [json.loads(line) for line in out.splitlines()]


def plugins(path: str) -> list[str | None]:
    """What the plugin writes into each pod, read with the Python API."""
    (job,) = read_jobs((ROOT / path).read_bytes())
    return [pod.tf_config for pod in predict(job).pods]


class TestTheTFConfigs:
    def test_volcanos_example_under_the_reader_it_runs(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, err = run(capsys, "tf-config", "volcano", MNIST, "--profile", "server")
        assert (status, err) == (0, "")
        assert out.splitlines() == plugins(MNIST)
        assert [c["task"] for c in lines(out)] == [
            {"type": "ps", "index": 0},
            {"type": "worker", "index": 0},
            {"type": "worker", "index": 1},
        ]
        assert lines(out)[0]["cluster"] == {
            "ps": ["tensorflow-dist-mnist-ps-0.tensorflow-dist-mnist:2222"],
            "worker": [
                "tensorflow-dist-mnist-worker-0.tensorflow-dist-mnist:2222",
                "tensorflow-dist-mnist-worker-1.tensorflow-dist-mnist:2222",
            ],
        }

    def test_what_the_reader_refuses_is_said_after_them_at_its_line(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, err = run(capsys, "tf-config", "volcano", MNIST)
        assert status == 1
        assert out.splitlines() == plugins(MNIST)  # what Volcano writes, whatever the reader
        first, hint = err.splitlines()
        assert first.startswith(
            f"{MNIST}:20:5: spec.tasks: error: pods tensorflow-dist-mnist-ps-0, "
            "tensorflow-dist-mnist-worker-0 and tensorflow-dist-mnist-worker-1 refuse their "
            'TF_CONFIG: If "cluster" is set in TF_CONFIG, it must have one "chief" node.'
        )
        assert hint.startswith("hint: add a task named chief with replicas: 1")
        assert too_long(hint) == []

    def test_one_pod_alone_and_each_labelled_by_its_pod(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("tf-config", "volcano", MNIST, "--profile", "ps", "--task", "worker:1")
        status, out, _ = run(capsys, *argv, "--format", "env")
        assert status == 0
        assert out.splitlines()[0] == "# tensorflow-dist-mnist-worker-1: worker:1"
        assert out.splitlines()[1] == f"TF_CONFIG={plugins(MNIST)[2]}"

    def test_the_older_command_line(self, capsys: pytest.CaptureFixture[str]) -> None:
        older = run(capsys, "tf-config", "--volcano", MNIST, "--profile", "server")
        assert older == run(capsys, "tf-config", "volcano", MNIST, "--profile", "server")
        status, _, err = run(capsys, "tf-config", "--job-name", "x", "--slurm")
        assert (status, err.splitlines()[-1]) == (
            2,
            "estconf tf-config: error: --job-name goes with --volcano",
        )

    def test_from_standard_input(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        data = (ROOT / MNIST).read_bytes()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        status, out, _ = run(capsys, "tf-config", "volcano", "-", "--profile", "server")
        assert (status, out.splitlines()) == (0, plugins(MNIST))

    def test_a_job_of_one_pod_gets_none(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, "tf-config", "volcano", f"{DATA}/single.yaml")
        assert (status, out) == (0, "")
        assert err == (
            "note: the Job is one task of one replica: the tensorflow plugin gives its pod no "
            "TF_CONFIG (TensorFlow runs it alone)\n"
        )

    def test_a_task_no_flag_names_is_a_warning(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, "tf-config", "volcano", f"{DATA}/custom-names.yaml")
        assert status == 0
        assert len(out.splitlines()) == 6
        assert err.startswith(
            f"{DATA}/custom-names.yaml:50:13: spec.tasks[3].name: warning: no flag of the "
            "tensorflow plugin names task 'tensorboard'"
        )


class TestThePods:
    def test_a_line_per_pod_with_its_name(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ("tf-config", "volcano", MNIST, "--profile", "server", "--format", "pods")
        status, out, _ = run(capsys, *argv)
        assert status == 0
        assert [
            (p["pod"], json.dumps(p["TF_CONFIG"], separators=(",", ":"))) for p in lines(out)
        ] == [
            (f"tensorflow-dist-mnist-{pod}", text)
            for pod, text in zip(["ps-0", "worker-0", "worker-1"], plugins(MNIST), strict=True)
        ]
        assert out.splitlines()[0].startswith(
            '{"pod": "tensorflow-dist-mnist-ps-0", "TF_CONFIG": {'
        )

    def test_a_pod_that_gets_none_is_null(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(
            capsys, "tf-config", "volcano", f"{DATA}/single.yaml", "--format", "pods"
        )
        assert (status, out) == (0, '{"pod": "mnist-local-worker-0", "TF_CONFIG": null}\n')

    def test_without_the_plugin_each_pod_reads_its_containers_own(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = f"{DATA}/without-plugin.yaml"
        status, out, err = run(capsys, "tf-config", "volcano", path, "--format", "pods")
        assert status == 1
        pods = lines(out)
        assert [p["pod"] for p in pods] == [
            "by-hand-chief-0",
            "by-hand-worker-0",
            "by-hand-worker-1",
        ]
        assert pods[1]["TF_CONFIG"] == pods[2]["TF_CONFIG"]
        assert pods[1]["TF_CONFIG"]["task"] == {"type": "worker", "index": 0}
        assert err.splitlines()[0].startswith("note: the Job does not enable the tensorflow plugin")
        assert "so they all claim task worker:0" in err

    def test_a_value_that_is_no_json_is_its_text(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        manifest = (ROOT / DATA / "without-plugin.yaml").read_text()
        manifest = manifest.replace(
            manifest.split("value: ", 2)[1].split("\n", 1)[0], "$(CHIEF_TF_CONFIG)", 1
        )
        path = tmp_path / "job.yaml"
        path.write_text(manifest)
        status, out, _ = run(capsys, "tf-config", "volcano", str(path), "--format", "pods")
        assert status == 1
        assert lines(out)[0] == {
            "pod": "by-hand-chief-0",
            "TF_CONFIG": None,
            "text": "$(CHIEF_TF_CONFIG)",
        }

    def test_pods_are_one_stream(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        argv = ("tf-config", "volcano", MNIST, "--format", "pods", "--out-dir", str(tmp_path))
        status, out, err = run(capsys, *argv)
        assert (status, out, list(tmp_path.iterdir())) == (2, "", [])
        assert err.splitlines()[-1].startswith("estconf tf-config: error: --format pods writes one")

    @pytest.mark.parametrize("fmt", ["jsonl", "pods", "k8s", "shell"])
    def test_the_size_worked_out_is_the_size_written(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str
    ) -> None:
        manifest = (
            (ROOT / DATA / "custom-names.yaml").read_text().replace("replicas: 3", "replicas: 30")
        )
        path = tmp_path / "job.yaml"
        path.write_text(manifest)
        argv = ("tf-config", "volcano", str(path), "--format", fmt)
        _, out, _ = run(capsys, *argv)
        written = len(out.encode())
        assert run(capsys, *argv, "--max-size", str(written))[0] == 0
        status, out, err = run(capsys, *argv, "--max-size", str(written - 1))
        assert (status, out) == (2, "")
        assert f"would take {written:,} bytes, more than --max-size {written - 1:,}" in err

    def test_a_tf_config_from_value_from_is_known_to_the_pod_alone(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        manifest = (ROOT / DATA / "without-plugin.yaml").read_text()
        value = manifest.split("value: ", 2)[2].split("\n", 1)[0]
        path = tmp_path / "job.yaml"
        path.write_text(
            manifest.replace(f"value: {value}", "valueFrom: {configMapKeyRef: {name: tf, key: c}}")
        )
        status, out, err = run(capsys, "tf-config", "volcano", str(path), "--format", "pods")
        assert status == 0
        assert [p["TF_CONFIG"] is None for p in lines(out)] == [False, True, True]
        assert err.splitlines()[-1] == (
            "note: task 'worker' sets TF_CONFIG from valueFrom, which only its running pods "
            "read: --format pods writes null for them"
        )


class TestWhatIsRefused:
    def test_a_job_volcano_refuses_writes_nothing(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        manifest = (ROOT / MNIST).read_text().replace("name: worker", "name: ps")
        path = tmp_path / "job.yaml"
        path.write_text(manifest)
        status, out, err = run(capsys, "tf-config", "volcano", str(path))
        assert (status, out) == (1, "")
        refusal = "Volcano refuses the Job: duplicated task name found ('ps')"
        assert f"spec.tasks[1].name: refused: {refusal}\n" in err
        assert err.splitlines()[-1] == "1 error in 1 of 1 file"

    @pytest.mark.parametrize("text", [None, "a: [\n"], ids=["missing", "no-yaml"])
    def test_a_file_that_cannot_be_read_is_counted_as_validate_counts_it(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str | None
    ) -> None:
        path = tmp_path / "job.yaml"
        if text is not None:
            path.write_text(text)
        status, out, err = run(capsys, "tf-config", "volcano", str(path))
        assert (status, out) == (1, "")
        assert err.startswith(f"{path}")
        assert err.splitlines()[-1] == "1 error in 1 of 1 file"

    def test_a_job_of_more_pods_than_a_prediction_builds_fails(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "job.yaml"
        path.write_text((ROOT / MNIST).read_text().replace("replicas: 2", "replicas: 100000"))
        argv = ("tf-config", "volcano", str(path), "--profile", "server", "--task", "ps:0")
        status, out, err = run(capsys, *argv)
        assert (status, out) == (1, "")
        assert err == (
            f"{path}: the Job's cluster has 100,001 pods, more than the 100,000 a prediction "
            "builds (max_pods); estconf validate checks a Job of any size\n"
        )

    def test_the_job_name_may_repeat_the_manifests_own(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("tf-config", "volcano", MNIST, "--profile", "server")
        given = "".join(["tensorflow-", "dist-mnist"])  # built at run time: not the same object
        assert run(capsys, *argv, "--job-name", given) == run(capsys, *argv)
        status, _, err = run(capsys, *argv, "--job-name", "other")
        assert status == 2
        assert "--job-name other: the manifest names the Job 'tensorflow-dist-mnist'" in err

    def test_a_file_of_no_volcano_job(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(
            capsys, "tf-config", "volcano", "tests/data/kubeflow/dist_mnist.yaml"
        )
        assert (status, out) == (1, "")
        assert err == (
            "tests/data/kubeflow/dist_mnist.yaml: expected one Volcano Job "
            "(batch.volcano.sh/v1alpha1), found 0\n"
        )

    def test_a_job_named_by_the_api_server(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        manifest = (
            (ROOT / MNIST)
            .read_text()
            .replace("name: tensorflow-dist-mnist", "generateName: mnist-")
        )
        path = tmp_path / "job.yaml"
        path.write_text(manifest)
        status, _, err = run(capsys, "tf-config", "volcano", str(path))
        assert status == 2
        assert "the Job has only generateName 'mnist-'" in err
        argv = ("tf-config", "volcano", str(path), "--job-name", "mnist-x7k2p", "--profile", "ps")
        status, out, _ = run(capsys, *argv)
        assert status == 0
        assert lines(out)[0]["cluster"]["ps"] == ["mnist-x7k2p-ps-0.mnist-x7k2p:2222"]


class TestValidate:
    def test_each_pod_under_the_profile(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", "--profile", "mwms", f"{DATA}/evaluator.yaml")
        assert status == 1
        assert out.splitlines()[0] == (
            f"{DATA}/evaluator.yaml:31:13: spec.tasks[2].name: error: pods census-chief-0, "
            "census-worker-0, census-worker-1, census-evaluator-0 and census-evaluator-1 refuse "
            "their TF_CONFIG: There must be at most one 'evaluator' job."
        )
        assert out.splitlines()[1] == "hint: give the evaluator task replicas: 1"

    def test_a_job_its_reader_runs_is_valid(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "validate", "--profile", "server", MNIST) == (0, "1 file valid\n", "")
        assert run(capsys, "validate", f"{DATA}/evaluator.yaml")[0] == 0

    def test_a_warning_fails_only_under_strict(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = f"{DATA}/custom-names.yaml"
        assert run(capsys, "validate", path)[0] == 0
        assert run(capsys, "validate", "--strict", path)[0] == 1

    def test_a_job_without_the_plugin_whose_pods_share_a_task(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(capsys, "validate", f"{DATA}/without-plugin.yaml")
        assert status == 1
        assert out.splitlines()[0].startswith(
            f"{DATA}/without-plugin.yaml:36:26: spec.tasks[1].template.spec.containers[0]."
            "env[0].value: error: each of the 2 pods of task 'worker' reads this one TF_CONFIG"
        )

    def test_volcanos_example_that_builds_tf_config_in_its_command(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = f"{DATA}/command-built.yaml"
        status, out, err = run(capsys, "validate", path)
        assert (status, err) == (0, "")
        lines = out.splitlines()
        assert lines[0] == (
            f"{path}:28:19: spec.tasks[0].template.spec.containers[0].command[2]: warning: task "
            "'ps' builds TF_CONFIG in its command when each pod starts, so it cannot be checked "
            "before the Job runs"
        )
        assert lines[1] == (
            "hint: enable the tensorflow plugin (plugins: {tensorflow: []}) and drop the export: "
            "the plugin writes each pod its TF_CONFIG, which is checked"
        )
        assert lines[-1] == "2 warnings in 1 of 1 file"
        assert run(capsys, "validate", "--strict", path)[0] == 1

    def test_a_job_that_runs_no_tensorflow_is_another_tools_file(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        manifest = (ROOT / DATA / "without-plugin.yaml").read_text()
        manifest = manifest.split("      template:", 1)[0] + "  # no template\n"
        path = tmp_path / "job.yaml"
        path.write_text(manifest)
        status, out, _ = run(capsys, "validate", str(path))
        assert status == 1
        assert "a Volcano Job manifest (apiVersion: batch.volcano.sh/v1alpha1)" in out
        assert run(capsys, "validate", str(tmp_path))[0] == 2  # a directory: passed over

    def test_a_misspelled_plugin_is_refused(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        manifest = (ROOT / MNIST).read_text().replace("tensorflow: [", "tensorFlow: [")
        path = tmp_path / "job.yaml"
        path.write_text(manifest)
        status, out, _ = run(capsys, "validate", str(path))
        assert status == 1
        assert out.splitlines()[:2] == [
            f"{path}:14:5: spec.plugins.tensorFlow: refused: Volcano's admission webhook refuses "
            "the Job: unable to find job plugin: tensorFlow",
            "hint: did you mean 'tensorflow'?",
        ]

    def test_json_output_names_the_kind(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = run(capsys, "validate", "--format", "json", f"{DATA}/custom-names.yaml")
        (result,) = json.loads(out)["files"]
        assert result["kind"] == "volcano_job"
        assert [e["code"] for e in result["errors"]] == ["volcano_task_unmapped"]
