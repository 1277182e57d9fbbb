"""``estconf tf-config jobset``, ``tf-config trainjob`` and ``validate`` on JobSets and TrainJobs.

The manifests under tests/data/launchers/jobset are written as JobSet's and
Kubeflow Trainer's documentation writes them, for TensorFlow jobs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_main import run
from messages import too_long

ROOT = Path(__file__).resolve().parents[1]
DATA = "tests/data/launchers/jobset"
INDEX_FIX = (
    "hint: define TASK_INDEX before TF_CONFIG from a fieldRef to "
    "metadata.annotations['batch.kubernetes.io/job-completion-index']"
)


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def tasks(out: str) -> list[tuple[str, int]]:
    found = [json.loads(line)["task"] for line in out.splitlines()]
    return [(task["type"], task["index"]) for task in found]


class TestJobSet:
    def test_every_pods_tf_config_in_pod_order(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, "tf-config", "jobset", f"{DATA}/chief_worker_ps.yaml")
        assert (status, err) == (0, "")
        assert tasks(out) == [
            ("chief", 0),
            ("worker", 0),
            ("worker", 1),
            ("worker", 2),
            ("ps", 0),
            ("ps", 1),
        ]
        cluster = json.loads(out.splitlines()[0])["cluster"]
        assert cluster["worker"][2] == "mnist-worker-0-2.mnist:2222"

    def test_format_pods_lists_the_pods_that_get_none_with_null(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = f"{DATA}/tf_config_missing_ps.yaml"
        status, out, err = run(capsys, "tf-config", "jobset", path, "--format", "pods")
        assert status == 0  # the missing TF_CONFIG is a note here; validate reports it
        lines = [json.loads(line) for line in out.splitlines()]
        assert [line["pod"] for line in lines][-2:] == ["mnist-ps-0-0", "mnist-ps-0-1"]
        assert [line["TF_CONFIG"] is None for line in lines] == [False] * 3 + [True] * 2
        assert "'ps' (mnist-ps-0-0 to mnist-ps-0-1) get no TF_CONFIG" in err

    def test_each_is_labelled_with_its_pod(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(
            capsys, "tf-config", "jobset", f"{DATA}/custom_subdomain.yaml", "--format", "shell"
        )
        assert status == 0
        labels = [line for line in out.splitlines() if line.startswith("# ")]
        assert labels == [f"# resnet-worker-{j}-0" for j in range(4)]
        assert '"index": 3}' in out.splitlines()[-1]

    def test_each_pods_file_is_named_after_it(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        status, out, _ = run(
            capsys,
            "tf-config",
            "jobset",
            f"{DATA}/chief_worker_ps.yaml",
            "--out-dir",
            str(tmp_path),
        )
        assert (status, len(out.splitlines())) == (0, 6)
        assert sorted(path.name for path in tmp_path.iterdir()) == [
            "mnist-chief-0-0.json",
            "mnist-ps-0-0.json",
            "mnist-ps-0-1.json",
            "mnist-worker-0-0.json",
            "mnist-worker-0-1.json",
            "mnist-worker-0-2.json",
        ]

    def test_one_task(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(
            capsys, "tf-config", "jobset", f"{DATA}/chief_worker_ps.yaml", "--task", "ps:1"
        )
        assert (status, tasks(out)) == (0, [("ps", 1)])

    def test_what_it_writes_check_cluster_reads(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        _, out, _ = run(capsys, "tf-config", "jobset", f"{DATA}/chief_worker_ps.yaml")
        (tmp_path / "nodes.jsonl").write_text(out, encoding="utf-8")
        status, said, _ = run(capsys, "check-cluster", str(tmp_path / "nodes.jsonl"))
        assert (status, said) == (0, "6 nodes, 1 cluster: valid\n")

    def test_an_index_kubernetes_leaves_as_written_is_written_and_fails(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        name = f"{DATA}/completion_index_unexpanded.yaml"
        status, out, err = run(capsys, "tf-config", "jobset", name)
        assert status == 1
        written = out.splitlines()
        assert len(written) == 6
        assert written[1].endswith(
            '"task": {"type": "worker", "index": $(JOB_COMPLETION_INDEX)}, "environment": "cloud"}'
        )
        assert err.splitlines() == [
            f"{name}: JobSet 'mnist': TF_CONFIG of pods mnist-worker-0-0 to mnist-worker-0-2 "
            "holds $(JOB_COMPLETION_INDEX), which Kubernetes leaves as written: the Job "
            "controller appends JOB_COMPLETION_INDEX after every variable of the container",
            f"{name}: JobSet 'mnist': TF_CONFIG of pods mnist-ps-0-0 to mnist-ps-0-1 holds "
            "$(JOB_COMPLETION_INDEX), which Kubernetes leaves as written: the Job controller "
            "appends JOB_COMPLETION_INDEX after every variable of the container",
            INDEX_FIX,
        ]
        assert too_long(err, [name]) == []

    def test_a_tf_config_spanning_lines_is_written_on_one_but_in_shell(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        manifest = tmp_path / "j.yaml"
        manifest.write_text(
            "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: m}\n"
            "spec:\n  replicatedJobs:\n  - name: w\n    template:\n      spec:\n        template:\n"
            "          spec:\n            containers:\n            - name: c\n              env:\n"
            "              - name: TF_CONFIG\n                value: |\n"
            '                  {"task": {"type": "worker",\n'
            '                   "index": 0}}\n',
            encoding="utf-8",
        )
        status, out, err = run(capsys, "tf-config", "jobset", str(manifest))
        assert (status, out) == (0, '{"task":{"type":"worker","index":0}}\n')
        assert "spans lines: written on one line" in err
        status, out, _ = run(capsys, "tf-config", "jobset", str(manifest), "--format", "shell")
        assert (
            out == '# m-w-0-0\nexport TF_CONFIG=\'{"task": {"type": "worker",\n "index": 0}}\n\'\n'
        )

    def test_a_file_without_a_jobset(self, capsys: pytest.CaptureFixture[str]) -> None:
        name = f"{DATA}/trainjob_with_runtime.yaml"
        status, out, err = run(capsys, "tf-config", "jobset", name)
        assert (status, out) == (1, "")
        assert err == (
            f"{name}: holds no JobSet (jobset.x-k8s.io/v1alpha2); it holds "
            f"ClusterTrainingRuntime, TrainJob: estconf tf-config trainjob {name}\n"
        )

    def test_a_jobset_with_only_generate_name(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        text = (ROOT / DATA / "custom_subdomain.yaml").read_text(encoding="utf-8")
        manifest = tmp_path / "j.yaml"
        manifest.write_text(text.replace("name: resnet\n", "generateName: resnet-\n"), "utf-8")
        status, _, err = run(capsys, "tf-config", "jobset", str(manifest))
        assert status == 2
        assert "has only generateName 'resnet-'" in err
        assert "hint: give the name it got with --name NAME" in err
        status, out, _ = run(capsys, "tf-config", "jobset", str(manifest), "--name", "resnet-x1")
        assert status == 0
        assert (
            json.loads(out.splitlines()[0])["cluster"]["worker"][0] == "resnet-worker-0-0.tf:2222"
        )

    def test_a_file_that_is_not_there(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, "tf-config", "jobset", "missing.yaml")
        assert (status, out) == (2, "")
        assert err.startswith("missing.yaml: ")

    def test_an_output_larger_than_max_size_is_refused_first(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        manifest = tmp_path / "big.yaml"
        manifest.write_text(
            "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: m}\n"
            "spec:\n  replicatedJobs:\n  - name: w\n    template:\n      spec:\n"
            "        completions: 1000\n        template:\n          spec:\n"
            "            containers:\n            - name: c\n              env:\n"
            f'              - {{name: TF_CONFIG, value: \'{{"x": "{"a" * 1000}"}}\'}}\n',
            encoding="utf-8",
        )
        status, out, err = run(capsys, "tf-config", "jobset", str(manifest), "--max-size", "100000")
        assert (status, out) == (2, "")
        assert f"{manifest}: the TF_CONFIGs of its 1,000 pods would take about 1,0" in err

    def test_a_file_that_is_no_yaml_fails(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "jobset.yaml"
        path.write_text("a: [\n", encoding="utf-8")
        status, out, err = run(capsys, "tf-config", "jobset", str(path))
        assert (status, out) == (1, "")
        assert err.startswith(f"{path}:2:1: invalid YAML: ")
        assert err.splitlines()[-1] == "1 error in 1 of 1 file"

    def test_pods_that_get_no_tf_config_write_no_file_into_the_directory_made(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        manifest = tmp_path / "jobset.yaml"
        manifest.write_text(
            "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: m}\n"
            "spec:\n  replicatedJobs:\n  - name: w\n    template:\n      spec:\n"
            "        completions: 2\n        parallelism: 2\n        template:\n"
            "          spec:\n            containers:\n            - {name: c, image: x}\n",
            encoding="utf-8",
        )
        out_dir = tmp_path / "tf_configs"
        status, out, err = run(
            capsys, "tf-config", "jobset", str(manifest), "--out-dir", str(out_dir)
        )
        assert (status, out) == (0, "")
        assert "(m-w-0-0 to m-w-0-1) get no TF_CONFIG" in err
        assert out_dir.is_dir()
        assert list(out_dir.iterdir()) == []

    def test_the_older_spelling(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "tf-config", "--jobset", f"{DATA}/custom_subdomain.yaml")
        assert (status, len(out.splitlines())) == (0, 4)


class TestTrainJob:
    def test_a_trainjob_and_its_runtime_in_one_stream(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, err = run(
            capsys, "tf-config", "trainjob", f"{DATA}/trainjob_with_runtime.yaml"
        )
        assert (status, err) == (0, "")
        assert tasks(out) == [("worker", 0), ("worker", 1), ("worker", 2)]

    def test_format_pods_lists_a_job_of_the_runtime_that_gets_none(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        text = (ROOT / DATA / "trainjob_with_runtime.yaml").read_text()
        initializer = (
            "        - name: dataset-initializer\n"
            "          template:\n"
            "            spec:\n"
            "              template:\n"
            "                spec:\n"
            "                  containers:\n"
            "                    - {name: dataset-initializer, image: init}\n"
        )
        path = tmp_path / "trainjob.yaml"
        path.write_text(
            text.replace("      replicatedJobs:\n", "      replicatedJobs:\n" + initializer)
        )
        status, out, _ = run(capsys, "tf-config", "trainjob", str(path), "--format", "pods")
        assert status == 0
        pods = [json.loads(line) for line in out.splitlines()]
        assert [(pod["pod"], pod["TF_CONFIG"] is None) for pod in pods] == [
            ("mnist-dataset-initializer-0-0", True),
            ("mnist-node-0-0", False),
            ("mnist-node-0-1", False),
            ("mnist-node-0-2", False),
        ]

    def test_the_runtime_in_another_file(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(
            capsys,
            "tf-config",
            "trainjob",
            f"{DATA}/trainjob_ps.yaml",
            f"{DATA}/runtime_ps.yaml",
            "--format",
            "env",
        )
        assert (status, err) == (0, "")
        labels = [line[2:] for line in out.splitlines() if line.startswith("# ")]
        assert labels == [
            "census-chief-0-0",
            "census-ps-0-0",
            "census-ps-0-1",
            *(f"census-node-0-{p}" for p in range(4)),
        ]

    def test_a_directory_of_them(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, "tf-config", "trainjob", DATA)
        assert (status, err) == (0, "")
        assert len(out.splitlines()) == 7 + 3

    def test_a_runtime_in_no_file_read(self, capsys: pytest.CaptureFixture[str]) -> None:
        name = f"{DATA}/trainjob_ps.yaml"
        status, out, err = run(capsys, "tf-config", "trainjob", name)
        assert (status, out) == (2, "")
        assert err == (
            f"{name}: TrainJob 'census': its runtime, TrainingRuntime 'tensorflow-ps', is in no "
            "file read: its pods are not predicted\n"
            "hint: give the file of TrainingRuntime 'tensorflow-ps' too (kubectl get "
            "trainingruntime tensorflow-ps -n ml -o yaml > runtime.yaml)\n"
        )

    def test_a_file_that_is_not_there(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, "tf-config", "trainjob", "missing.yaml")
        assert (status, out) == (2, "")
        assert err == "missing.yaml: no such file\n1 error in 1 of 1 file\n"

    def test_what_the_model_refuses_is_counted(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "trainjob.yaml"
        text = (ROOT / DATA / "trainjob_with_runtime.yaml").read_text(encoding="utf-8")
        path.write_text(text.replace("numNodes: 3", "numNodes: many"), encoding="utf-8")
        status, out, err = run(capsys, "tf-config", "trainjob", str(path))
        assert (status, out) == (1, "")
        assert err.splitlines() == [
            f"{path}:43:5: spec.trainer.numNodes: Input should be a valid integer",
            "1 error in 1 of 1 file",
        ]

    def test_an_output_too_large_names_every_file(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        trainjob = tmp_path / "trainjob.yaml"
        text = (ROOT / DATA / "trainjob_ps.yaml").read_text(encoding="utf-8")
        trainjob.write_text(text.replace("numNodes: 4", "numNodes: 60"), encoding="utf-8")
        runtime = f"{DATA}/runtime_ps.yaml"
        argv = ("tf-config", "trainjob", str(trainjob), runtime, "--max-size", "10000")
        status, out, err = run(capsys, *argv)
        assert (status, out) == (2, "")
        assert err.startswith(
            f"estconf tf-config: error: {trainjob}, {runtime}: the TF_CONFIGs of its 63 pods "
            "would take about"
        )

    def test_what_cannot_be_read_of_several_files_is_counted_by_file(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        names = [f"{DATA}/trainjob_ps.yaml", f"{DATA}/runtime_ps.yaml"]
        status, out, err = run(capsys, "tf-config", "trainjob", *names, "--max-size", "10")
        assert (status, out) == (2, "")
        assert err.splitlines() == [
            *(f"{name}: the file is larger than the limit of 10 bytes" for name in names),
            "2 errors in 2 of 2 files",
        ]

    def test_files_without_a_trainjob(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, "tf-config", "trainjob", f"{DATA}/runtime_ps.yaml")
        assert (status, out) == (1, "")
        assert err == f"{DATA}/runtime_ps.yaml: holds no TrainJob (trainer.kubeflow.org/v1alpha1)\n"


def validate(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, object]]]:
    status, out, err = run(capsys, "validate", "--format", "json", *argv)
    assert err == ""
    [result] = json.loads(out)["files"]
    assert result["kind"] == "jobset"
    return status, result["errors"]


def validate_files(
    capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[int, dict[str, list[dict[str, object]]]]:
    """The exit status of ``validate --format json`` and each file's errors, by file."""
    status, out, err = run(capsys, "validate", "--format", "json", *argv)
    assert err == ""
    return status, {str(r["file"]): r["errors"] for r in json.loads(out)["files"]}


def located(errors: list[dict[str, object]]) -> list[str]:
    return [f"{e['line']}:{e['column']}: {e['path']}: {e['code']}" for e in errors]


ENV = "template.spec.template.spec.containers[0].env"


class TestValidate:
    def test_a_jobset_whose_pods_read_their_index_before_tf_config_is_valid(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert validate(capsys, f"{DATA}/chief_worker_ps.yaml") == (0, [])

    def test_a_key_of_no_value_is_a_key_not_given(self, capsys: pytest.CaptureFixture[str]) -> None:
        """`args:`, `envFrom:`, `metadata:` and `labels:` of no value: the API server drops them."""
        assert validate(capsys, "--profile", "mwms", f"{DATA}/null_fields.yaml") == (0, [])
        status, out, err = run(capsys, "tf-config", "jobset", f"{DATA}/null_fields.yaml")
        assert (status, err) == (0, "")
        assert tasks(out) == [("chief", 0), ("worker", 0), ("worker", 1)]

    def test_the_completion_index_left_as_written_is_found_at_its_value(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, errors = validate(capsys, f"{DATA}/completion_index_unexpanded.yaml")
        assert status == 1
        assert located(errors) == [
            f"56:30: spec.replicatedJobs[1].{ENV}[0].value: env_reference_not_expanded",
            f"78:30: spec.replicatedJobs[2].{ENV}[0].value: env_reference_not_expanded",
        ]
        assert {e["hint"] for e in errors} == {INDEX_FIX.removeprefix("hint: ")}

    def test_each_pod_is_read_by_the_profiles_reader(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, errors = validate(capsys, "--profile", "mwms", f"{DATA}/chief_worker_ps.yaml")
        assert status == 1
        assert located(errors) == [
            f"86:30: spec.replicatedJobs[2].{ENV}[1].value: no_id_for_task_type"
        ]
        assert errors[0]["message"] == (
            "TF_CONFIG of pods mnist-ps-0-0 to mnist-ps-0-1: task.type: There is no id for "
            "task_type 'ps'"
        )

    def test_a_trainjobs_env_is_found_in_the_trainjob(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        name = f"{DATA}/trainjob_with_runtime.yaml"
        assert validate(capsys, "--profile", "mwms", name) == (0, [])
        status, errors = validate(capsys, name)
        assert status == 1
        assert located(errors) == ["49:16: spec.trainer.env[0].value: missing_chief"]

    def test_a_trainjob_whose_runtime_is_elsewhere_is_a_note(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, errors = validate(capsys, f"{DATA}/trainjob_ps.yaml")
        assert status == 0
        assert located(errors) == ["10:3: spec.runtimeRef: runtime_not_given"]
        assert errors[0]["severity"] == "note"

    def test_a_trainjobs_runtime_in_another_file_of_the_run_is_used(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        files = [f"{DATA}/trainjob_ps.yaml", f"{DATA}/runtime_ps.yaml"]
        for given in (files, files[::-1]):
            status, found = validate_files(capsys, "--profile", "ps", *given)
            assert status == 0
            assert found == {name: [] for name in given}

    def test_what_is_wrong_in_a_runtime_of_another_file_is_reported_in_that_file(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        trainjob, runtime = f"{DATA}/trainjob_ps.yaml", f"{DATA}/runtime_ps.yaml"
        status, found = validate_files(capsys, "--profile", "mwms", trainjob, runtime)
        assert status == 1
        assert found[trainjob] == []
        assert located(found[runtime]) == [
            f"59:34: spec.template.spec.replicatedJobs[1].{ENV}[2].value: no_id_for_task_type"
        ]

    def test_a_trainjobs_runtime_in_the_directory_given_is_used(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        for name in ("trainjob_ps.yaml", "runtime_ps.yaml"):
            (tmp_path / name).write_bytes((ROOT / DATA / name).read_bytes())
        status, found = validate_files(capsys, "--profile", "ps", str(tmp_path))
        assert status == 0
        assert list(found.values()) == [[], []]

    def test_the_note_asks_for_the_runtimes_file(self, capsys: pytest.CaptureFixture[str]) -> None:
        name = f"{DATA}/trainjob_ps.yaml"
        status, out, _ = run(capsys, "validate", name, f"{DATA}/chief_worker_ps.yaml")
        assert status == 0
        hint = f"hint: check it with its runtime: estconf validate {name} RUNTIME_FILE"
        assert out.splitlines()[1] == hint

    def test_the_trainjob_with_its_runtime_in_one_stream(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        both = tmp_path / "both.yaml"
        both.write_text(
            (ROOT / DATA / "runtime_ps.yaml").read_text(encoding="utf-8")
            + "---\n"
            + (ROOT / DATA / "trainjob_ps.yaml").read_text(encoding="utf-8"),
            encoding="utf-8",
        )
        assert validate(capsys, "--profile", "ps", str(both)) == (0, [])

    def test_the_text_report(self, capsys: pytest.CaptureFixture[str]) -> None:
        name = f"{DATA}/completion_index_unexpanded.yaml"
        status, out, _ = run(capsys, "validate", name)
        assert status == 1
        assert out.splitlines()[1] == INDEX_FIX
        assert out.splitlines()[-1] == "2 errors in 1 of 1 file"
        assert too_long(out, [name]) == []


class TestFindings:
    """Each finding of validate on a JobSet or TrainJob, at its line, with its fix."""

    def found(
        self, capsys: pytest.CaptureFixture[str], name: str, profile: str = "ps"
    ) -> list[tuple[str, str, str]]:
        status, errors = validate(capsys, "--profile", profile, f"{DATA}/{name}")
        assert status == 1
        return [(located([e])[0], str(e["severity"]), str(e["hint"])) for e in errors]

    def test_task_claimed_twice(self, capsys: pytest.CaptureFixture[str]) -> None:
        [(at, severity, hint)] = self.found(capsys, "claimed_twice_completion_index.yaml", "mwms")
        assert at == f"29:30: spec.replicatedJobs[0].{ENV}[1].value: task_claimed_twice"
        assert severity == "error" and "jobset.sigs.k8s.io/job-index" in hint

    def test_tf_config_missing(self, capsys: pytest.CaptureFixture[str]) -> None:
        [(at, _, hint)] = self.found(capsys, "tf_config_missing_ps.yaml")
        containers = ENV.removesuffix("[0].env")
        assert at == f"66:17: spec.replicatedJobs[2].{containers}: tf_config_missing"
        assert hint.startswith("define TF_CONFIG in the container of replicated job 'ps'")

    def test_tf_config_missing_in_the_container_that_runs_tensorflow(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        [(at, _, hint)] = self.found(capsys, "tf_config_in_sidecar.yaml")
        assert at == f"73:30: spec.replicatedJobs[2].{ENV}[1].value: tf_config_missing"
        assert hint == "define TF_CONFIG in container 'tensorflow'"

    def test_address_not_a_pod(self, capsys: pytest.CaptureFixture[str]) -> None:
        [(at, _, hint)] = self.found(capsys, "address_not_a_pod.yaml", "mwms")
        assert at == f"28:30: spec.replicatedJobs[0].{ENV}[1].value: address_not_a_pod"
        assert hint == "write it resnet-worker-0-0.resnet:2222"

    def test_every_form_of_a_pods_name_that_resolves_is_valid(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        text = (ROOT / DATA / "address_not_a_pod.yaml").read_text(encoding="utf-8")
        forms = (
            ".resnet:",
            ".resnet.vision:",
            ".resnet.vision.svc:",
            ".resnet.vision.svc.k8s.example:",
        )
        for form in forms:
            given = tmp_path / "forms.yaml"
            given.write_text(text.replace(".resnet.svc.cluster.local:", form), encoding="utf-8")
            assert validate(capsys, "--profile", "mwms", str(given)) == (0, []), form

    def test_dns_hostnames_off(self, capsys: pytest.CaptureFixture[str]) -> None:
        [(at, _, hint)] = self.found(capsys, "dns_hostnames_off.yaml")
        assert at == "13:25: spec.network.enableDNSHostnames: dns_hostnames_off"
        assert hint.startswith("remove enableDNSHostnames: false")

    def test_never_succeeds(self, capsys: pytest.CaptureFixture[str]) -> None:
        [(at, _, hint)] = self.found(capsys, "never_succeeds.yaml")
        assert at == "55:13: spec.replicatedJobs[2].name: never_succeeds"
        assert hint.endswith("successPolicy: {operator: All, targetReplicatedJobs: [chief]}")

    def test_pod_name_too_long(self, capsys: pytest.CaptureFixture[str]) -> None:
        [(at, _, hint)] = self.found(capsys, "pod_name_too_long.yaml")
        assert at == "10:13: spec.replicatedJobs[0].name: pod_name_too_long"
        assert hint.endswith("by 2 characters")

    def test_trainer_runtime_rule(self, capsys: pytest.CaptureFixture[str]) -> None:
        found = self.found(capsys, "runtime_rule.yaml", "mwms")
        assert [at for at, _, _ in found] == [
            "15:21: spec.template.spec.replicatedJobs[0].replicas: trainer_runtime_rule",
            "24:21: spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers: "
            "trainer_runtime_rule",
        ]

    def test_the_text_report_says_each_fix_on_a_line_of_its_own(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        name = f"{DATA}/never_succeeds.yaml"
        status, out, _ = run(capsys, "validate", "--profile", "ps", name)
        assert status == 1
        assert out.splitlines()[1].startswith("hint: target the jobs that finish: ")
        assert too_long(out, [name]) == []


def test_tf_config_notes_pods_a_cluster_lists_that_get_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "tf-config", "jobset", f"{DATA}/tf_config_missing_ps.yaml")
    assert (status, len(out.splitlines())) == (0, 3)
    assert err.splitlines()[0].endswith(
        "no container of theirs defines it; the cluster of pod mnist-chief-0-0 lists them "
        "(cluster.ps[0]: 'mnist-ps-0-0.mnist:2222'), and TensorFlow waits for them "
        "(tf_config_missing)"
    )


class TestUsage:
    def test_standard_input_is_given_once(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, "tf-config", "trainjob", "-", "-")
        assert (status, out) == (2, "")
        assert "standard input ('-') can be given once" in err

    def test_standard_input_given_once_is_read(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        import io
        import sys

        raw = Path(f"{DATA}/trainjob_with_runtime.yaml").read_bytes()
        stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
        monkeypatch.setattr(sys, "stdin", stdin)
        status, out, _ = run(capsys, "tf-config", "trainjob", "-")
        assert status == 0
        assert tasks(out) == [("worker", 0), ("worker", 1), ("worker", 2)]

    @pytest.mark.parametrize(
        ("launcher", "files", "owner"),
        [
            ("jobset", "FILE", "the JobSet manifests ('-': standard input)"),
            (
                "trainjob",
                "FILE [FILE ...]",
                "the TrainJobs and their runtimes: files, directories, or '-' (standard input)",
            ),
        ],
    )
    def test_the_help_names_the_files_and_the_name_option(
        self, capsys: pytest.CaptureFixture[str], launcher: str, files: str, owner: str
    ) -> None:
        status, out, _ = run(capsys, "tf-config", launcher, "--help")
        assert status == 0
        flat = " ".join(out.split())
        assert "[--name NAME]" in flat
        assert f" {files}" in flat.split("options:")[0]
        assert f"FILE {owner}" in flat
