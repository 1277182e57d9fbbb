"""``estconf explain``: what each reader makes of a TF_CONFIG, on every kind of input."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli_main import run
from estconf import RunConfig
from estconf.deployment.readers import PROFILES as READER_PROFILES
from estconf.profiles import Profile

ROOT = Path(__file__).resolve().parents[1]
ESTCONF = Path(sys.executable).with_name("estconf")
LOCAL = "tests/data/local"
# TF_CONFIGs of a job that runs on one machine: no cluster, or nothing in it
NO_CLUSTER = [
    f"{LOCAL}/tf_config_empty.json",
    f"{LOCAL}/tf_config_task_only.json",
    f"{LOCAL}/tf_config_empty_cluster.yaml",
]
ONE_CHIEF = f"{LOCAL}/tf_config_one_chief.json"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("TF_CONFIG", raising=False)


def rows(out: str) -> dict[str, str]:
    """The text table as {first word: the rest of the line}."""
    lines = [line.split(maxsplit=1) for line in out.splitlines() if not line.startswith(" ")]
    return {key: value for key, value in lines}


PROFILES = tuple(READER_PROFILES)


def test_every_profile_of_the_library_is_a_choice_of_the_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TF_CONFIG", raising=False)
    assert tuple(profile.value for profile in Profile) == PROFILES
    for profile in PROFILES:
        assert run(capsys, "explain", "--profile", profile)[0] != 2  # not a usage error
    status, _, err = run(capsys, "explain", "--profile", "nope")
    assert status == 2
    assert "invalid choice: 'nope'" in err


def test_every_property_the_estimator_derives_is_shown(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "explain", "--tf-config", ONE_CHIEF, "--format", "json")
    assert status == 0
    assert set(RunConfig.model_computed_fields) <= set(json.loads(out))


@pytest.mark.parametrize("reader", [["--readers"], ["--profile", "mwms"]])
def test_a_run_config_file_is_read_by_the_estimator_alone(
    capsys: pytest.CaptureFixture[str], reader: list[str]
) -> None:
    status, out, err = run(
        capsys,
        "explain",
        "--tf-config",
        ONE_CHIEF,
        "--config",
        "tests/data/valid/run_config.yaml",
        *reader,
    )
    assert (status, out) == (2, "")
    assert (
        err == "estconf explain: error: --config is a RunConfig file, read by the estimator alone\n"
    )


@pytest.mark.parametrize(
    ("index", "sentence"),
    [
        (-(2**31), "No task with index -2147483648 in job 'worker'"),
        (2**31 - 1, "No task with index 2147483647 in job 'worker'"),
        (-(2**31) - 1, "Value out of range: -2147483649"),
        (2**31, "Value out of range: 2147483648"),
    ],
)
def test_server_takes_every_int32_index_and_looks_the_task_up(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    index: int,
    sentence: str,
) -> None:
    """An index from -2**31 to 2**31 - 1 fits the ServerDef: it is then looked up."""
    tf_config = {"cluster": {"worker": ["h:1"]}, "task": {"type": "worker", "index": index}}
    monkeypatch.setenv("TF_CONFIG", json.dumps(tf_config))
    status, out, err = run(capsys, "explain", "--profile", "server")
    assert (status, out) == (1, "")
    assert f"task.index: {sentence}" in err


class TestEveryProfileOnALocalTFConfig:
    """Every reader answers for a TF_CONFIG without a cluster: its values, or its refusal."""

    @pytest.mark.parametrize("profile", PROFILES)
    @pytest.mark.parametrize("source", [*NO_CLUSTER, ONE_CHIEF, "unset", "environment"])
    @pytest.mark.parametrize("options", [(), ("--why",), ("--format", "json")])
    def test_answers_without_a_crash(
        self,
        capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch,
        profile: str,
        source: str,
        options: tuple[str, ...],
    ) -> None:
        argv = ["explain", "--profile", profile, *options]
        if source == "environment":
            monkeypatch.setenv("TF_CONFIG", Path(NO_CLUSTER[1]).read_text())
        elif source != "unset":
            argv += ["--tf-config", source]
        status, out, err = run(capsys, *argv)
        assert "internal error" not in err
        assert status in (0, 1)
        if status == 0:
            assert err == ""
            if "json" in options:
                assert json.loads(out)["tf_config_source"]
            else:
                assert out.startswith("TF_CONFIG from")
        else:
            assert out == ""
            assert err.endswith("1 error in 1 of 1 file\n")

    @pytest.mark.parametrize("source", NO_CLUSTER)
    def test_estimator_runs_locally(self, capsys: pytest.CaptureFixture[str], source: str) -> None:
        status, out, _ = run(capsys, "explain", "--tf-config", source)
        assert status == 0
        table = rows(out)
        assert table["task"] == "worker:0"
        assert table["cluster_spec"] == "0 jobs, 0 tasks"
        assert table["is_chief"] == "True"

    @pytest.mark.parametrize("source", NO_CLUSTER)
    def test_mwms_has_no_task_and_no_cluster(
        self, capsys: pytest.CaptureFixture[str], source: str
    ) -> None:
        status, out, _ = run(capsys, "explain", "--tf-config", source, "--profile", "mwms", "--why")
        assert status == 0
        table = rows(out)
        assert table["task"] == "(none)"
        assert table["cluster_spec"] == "(none)"
        reason = "no cluster: single-worker mode, the task is not read"
        assert table["multi_worker"] == f"False  ({reason})"
        assert table["num_workers"] == "1"

    def test_mwms_json_has_null_cluster(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "explain", "--profile", "mwms", "--format", "json")
        assert status == 0
        facts = json.loads(out)
        assert facts["tf_config_source"] == "none (TF_CONFIG is not set)"
        assert (facts["cluster_spec"], facts["task_type"], facts["task_id"]) == (None, None, None)

    @pytest.mark.parametrize("source", NO_CLUSTER)
    def test_ps_refuses_with_tensorflows_sentence(
        self, capsys: pytest.CaptureFixture[str], source: str
    ) -> None:
        status, out, err = run(capsys, "explain", "--tf-config", source, "--profile", "ps")
        assert (status, out) == (1, "")
        assert "cluster: Cluster spec must be non-empty" in err

    @pytest.mark.parametrize("source", [*NO_CLUSTER, "unset"])
    def test_server_needs_a_job_of_the_cluster(
        self, capsys: pytest.CaptureFixture[str], source: str
    ) -> None:
        argv = () if source == "unset" else ("--tf-config", source)
        status, out, err = run(capsys, "explain", *argv, "--profile", "server")
        assert (status, out) == (1, "")
        where = "task: " if source.endswith("tf_config_empty.json") else "task.type: "
        assert where in err  # tf.train.Server: no job_name, or no such job
        assert "job" in err.split(where, 1)[1]

    @pytest.mark.parametrize(
        "tf_config",
        [
            # tf.train.Server hands the index to an int32 field: "1" is refused.
            {"cluster": {"worker": ["a:1", "b:2"]}, "task": {"type": "worker", "index": "1"}},
            {"cluster": {"worker": ["a:1", "b:2"]}, "task": {"type": "worker", "index": 7}},
            {},
        ],
    )
    def test_server_reports_what_validate_reports(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, tf_config: dict[str, Any]
    ) -> None:
        """explain --profile server reads the file as written, as validate does."""
        path = tmp_path / "node.tf_config.json"
        path.write_text(json.dumps(tf_config))
        validated = run(capsys, "validate", "--profile", "server", str(path))
        explained = run(capsys, "explain", "--profile", "server", "--tf-config", str(path))
        assert validated[0] == explained[0] == 1
        assert explained[2] == validated[1]  # validate reports on stdout, explain on stderr

    def test_one_chief_is_a_cluster_of_one_task(self, capsys: pytest.CaptureFixture[str]) -> None:
        for profile in ("estimator", "mwms", "server"):
            status, out, _ = run(capsys, "explain", "--tf-config", ONE_CHIEF, "--profile", profile)
            assert status == 0
            table = rows(out)
            assert table["task"] == "chief:0"
            assert table["cluster_spec"] == "1 job, 1 task"
        status, _, err = run(capsys, "explain", "--tf-config", ONE_CHIEF, "--profile", "ps")
        assert status == 1
        assert "There must be at least one ps." in err

    @pytest.mark.parametrize("source", [*NO_CLUSTER, ONE_CHIEF])
    def test_readers_side_by_side(self, capsys: pytest.CaptureFixture[str], source: str) -> None:
        status, out, _ = run(capsys, "explain", "--tf-config", source, "--readers")
        assert status == 0  # the estimator and mwms accept it
        task = next(line for line in out.splitlines() if line.startswith("task"))
        if source == ONE_CHIEF:
            assert task.split()[1:3] == ["chief:0", "chief:0"]
        else:
            assert task.split()[1:3] == ["worker:0", "(none)"]
        assert "refused (" in task

    def test_unset_on_the_installed_command(self) -> None:
        environ = {key: value for key, value in os.environ.items() if key != "TF_CONFIG"}
        for profile in PROFILES:
            done = subprocess.run(
                [ESTCONF, "explain", "--profile", profile],
                cwd=ROOT,
                env=environ,
                capture_output=True,
                text=True,
                check=False,
            )
            assert done.returncode in (0, 1), done.stderr
            assert "Traceback" not in done.stderr
            assert "internal error" not in done.stderr
            if done.returncode == 0:
                first = done.stdout.splitlines()[0].split(maxsplit=2)
                assert first == ["TF_CONFIG", "from", "none (TF_CONFIG is not set)"]


KUBEFLOW = "tests/data/kubeflow"
DIST_MNIST = f"{KUBEFLOW}/dist_mnist.yaml"


class TestAPodOfATFJob:
    """``--tf-config TFJOB --pod NAME`` or ``--task TYPE:INDEX``: a pod's TF_CONFIG."""

    def test_by_pod_name(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(
            capsys, "explain", "--tf-config", DIST_MNIST, "--pod", "dist-mnist-worker-1"
        )
        assert (status, err) == (0, "")
        table = rows(out)
        assert (
            table["TF_CONFIG"]
            == f"from        {DIST_MNIST}, pod dist-mnist-worker-1 (task worker:1)"
        )
        assert table["task"] == "worker:1"
        assert table["master"] == "grpc://dist-mnist-worker-1.ml.svc:2222"
        assert table["cluster_spec"] == "3 jobs, 5 tasks"

    def test_by_task_is_the_same_pod(self, capsys: pytest.CaptureFixture[str]) -> None:
        by_task = run(capsys, "explain", "--tf-config", DIST_MNIST, "--task", "worker:1")
        by_pod = run(capsys, "explain", "--tf-config", DIST_MNIST, "--pod", "dist-mnist-worker-1")
        assert by_task == by_pod

    def test_its_tf_config_is_the_predicted_one(self, capsys: pytest.CaptureFixture[str]) -> None:
        from estconf.kubeflow import TFJob, predict

        tfjob = TFJob.from_yaml(Path(DIST_MNIST).read_text(encoding="utf-8"))
        tf_config = predict(tfjob).pod("ps", 1).tf_config_dict()
        assert tf_config is not None
        status, out, _ = run(
            capsys, "explain", "--tf-config", DIST_MNIST, "--task", "ps:1", "--format", "json"
        )
        assert status == 0
        facts = json.loads(out)
        assert facts["cluster_spec"] == tf_config["cluster"]
        assert (facts["task_type"], facts["task_id"]) == ("ps", 1)

    @pytest.mark.parametrize("profile", PROFILES)
    def test_every_profile_and_the_readers(
        self, capsys: pytest.CaptureFixture[str], profile: str
    ) -> None:
        status, out, err = run(
            capsys, "explain", "--tf-config", DIST_MNIST, "--task", "worker:0", "--profile", profile
        )
        assert "internal error" not in err
        assert status == (1 if profile == "mwms" else 0)  # mwms: no ps in its clusters
        status, out, _ = run(
            capsys, "explain", "--tf-config", DIST_MNIST, "--task", "worker:0", "--readers"
        )
        assert status == 0
        assert out.startswith(f"TF_CONFIG from  {DIST_MNIST}, pod dist-mnist-worker-0 (task")

    def test_a_job_of_one_pod_gives_it_no_tf_config(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(
            capsys,
            "explain",
            "--tf-config",
            f"{KUBEFLOW}/single_replica.yaml",
            "--pod",
            "mnist-worker-0",
        )
        assert status == 0
        table = rows(out)
        assert table["TF_CONFIG"].split(maxsplit=1)[1] == (
            f"none: {KUBEFLOW}/single_replica.yaml, pod mnist-worker-0 (task worker:0) gets no "
            "TF_CONFIG, the job has one pod in all"
        )
        assert table["cluster_spec"] == "0 jobs, 0 tasks"

    def test_from_standard_input(self) -> None:
        done = subprocess.run(
            [ESTCONF, "explain", "--tf-config", "-", "--task", "chief:0"],
            cwd=ROOT,
            input=(ROOT / DIST_MNIST).read_bytes(),
            capture_output=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert b"<stdin>, pod dist-mnist-chief-0 (task chief:0)" in done.stdout

    def test_without_a_pod_the_message_names_both_options(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, err = run(capsys, "explain", "--tf-config", DIST_MNIST)
        assert (status, out) == (2, "")
        assert err == (
            f"estconf explain: error: {DIST_MNIST} is a Kubeflow TFJob manifest: explain reads "
            "the TF_CONFIG of one of its pods\n"
            "hint: name the pod with --pod NAME (dist-mnist-chief-0, dist-mnist-ps-0 to "
            "dist-mnist-ps-1, dist-mnist-worker-0 to dist-mnist-worker-1) or its task with "
            "--task TYPE:INDEX (chief:0, ps:0 to ps:1, worker:0 to worker:1)\n"
        )
        for profile in ("mwms", "ps"):
            assert run(capsys, "explain", "--tf-config", DIST_MNIST, "--profile", profile)[0] == 2

    @pytest.mark.parametrize(
        ("option", "message"),
        [
            (
                ("--pod", "dist-mnist-worker-2"),
                "no pod of the TFJob 'dist-mnist' is named 'dist-mnist-worker-2': its pods are "
                "dist-mnist-chief-0, dist-mnist-ps-0 to dist-mnist-ps-1, dist-mnist-worker-0 to "
                "dist-mnist-worker-1",
            ),
            *(
                (
                    ("--pod", pod),
                    f"no pod of the TFJob 'dist-mnist' is named {pod!r}: its pods are "
                    "dist-mnist-chief-0, dist-mnist-ps-0 to dist-mnist-ps-1, dist-mnist-worker-0 "
                    "to dist-mnist-worker-1",
                )
                for pod in ("dist-mnist-worker-²", "dist-mnist-worker-" + "9" * 5000)
            ),
            (
                ("--pod", "dist-mnist-worker-01"),
                "no pod of the TFJob 'dist-mnist' is named 'dist-mnist-worker-01': its pods are "
                "dist-mnist-chief-0, dist-mnist-ps-0 to dist-mnist-ps-1, dist-mnist-worker-0 to "
                "dist-mnist-worker-1",
            ),
            (
                ("--task", "evaluator:0"),
                "the TFJob 'dist-mnist' has no task evaluator:0: its tasks are chief:0, ps:0 to "
                "ps:1, worker:0 to worker:1",
            ),
        ],
    )
    def test_a_pod_or_task_not_in_the_job(
        self, capsys: pytest.CaptureFixture[str], option: tuple[str, str], message: str
    ) -> None:
        status, out, err = run(capsys, "explain", "--tf-config", DIST_MNIST, *option)
        assert (status, out, err) == (2, "", f"estconf explain: error: {DIST_MNIST}: {message}\n")

    def test_a_pod_of_a_file_of_several_tfjobs(self, capsys: pytest.CaptureFixture[str]) -> None:
        listed = f"{KUBEFLOW}/kubectl_get_list.yaml"
        status, out, _ = run(capsys, "explain", "--tf-config", listed, "--pod", "second-worker-0")
        assert status == 0
        assert "pod second-worker-0 (task worker:0)" in out
        status, _, err = run(capsys, "explain", "--tf-config", listed, "--task", "worker:0")
        assert status == 2
        assert "holds 2 TFJobs ('first', 'second'): name the pod to explain with --pod NAME" in err

    def test_a_refused_tfjob_has_no_pods(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(
            capsys, "explain", "--tf-config", f"{KUBEFLOW}/refused.yaml", "--task", "worker:0"
        )
        assert (status, out) == (1, "")
        assert "must not have more than 1 Chief or Master role" in err

    def test_a_pod_needs_a_tfjob(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, _, err = run(capsys, "explain", "--pod", "mnist-worker-0")
        assert status == 2
        assert "--pod and --task name a pod of a TFJob manifest given as --tf-config" in err
        status, _, err = run(capsys, "explain", "--tf-config", ONE_CHIEF, "--task", "chief:0")
        assert status == 2
        assert f"{ONE_CHIEF} holds no TFJob" in err

    def test_only_the_one_pod_is_built(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        from estconf.launchers.kubeflow import operator

        built: list[str] = []

        class Counted(operator.PredictedPod):
            def __init__(self, **fields: Any) -> None:
                built.append(fields["name"])
                super().__init__(**fields)

        monkeypatch.setattr(operator, "PredictedPod", Counted)
        large = tmp_path / "tfjob.yaml"
        large.write_text(Path(DIST_MNIST).read_text().replace("replicas: 2", "replicas: 1000"))
        status, out, _ = run(
            capsys, "explain", "--tf-config", str(large), "--pod", "dist-mnist-worker-999"
        )
        assert status == 0
        assert rows(out)["cluster_spec"] == "3 jobs, 2001 tasks"
        # the operator's refusals are checked on a sample of each replica type, then
        # the one pod is predicted
        assert built[-1] == "dist-mnist-worker-999"
        assert len(built) <= 3 * operator.SAMPLE_SIZE + 1


class TestWhy:
    """``--why``: the rule behind each value, in words, for each way a reader reads the task."""

    @staticmethod
    def reasons(
        capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch,
        tf_config: dict[str, Any],
        *options: str,
    ) -> Any:
        monkeypatch.setenv("TF_CONFIG", json.dumps(tf_config))
        status, out, err = run(capsys, "explain", "--why", "--format", "json", *options)
        assert status == 0, err
        return json.loads(out)["reasons"]

    def test_local_mode(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        assert self.reasons(capsys, monkeypatch, {}) == {
            "task": "no cluster: local mode, where the task is worker:0",
            "master": "no cluster and no session_master: ''",
            "evaluation_master": "no cluster and no eval_session_master: ''",
            "is_chief": "local mode: the one task is the chief",
            "num_ps_replicas": "local mode: no ps",
            "num_worker_replicas": "local mode: this one task",
            "global_id_in_cluster": "local mode: the one task",
            "device_filters": "local mode: none",
        }

    def test_an_evaluator_beside_the_cluster(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        tf_config = {
            "cluster": {"chief": ["c:1"], "worker": ["w:1"]},
            "task": {"type": "evaluator", "index": 0},
            "eval_session_master": "grpc://e:1",
        }
        assert self.reasons(capsys, monkeypatch, tf_config) == {
            "task": "the evaluator, which is not part of the training cluster",
            "master": "the evaluator has no training master",
            "evaluation_master": "the evaluator: eval_session_master of TF_CONFIG",
            "is_chief": "the evaluator is never the chief",
            "num_ps_replicas": "the evaluator sees no training cluster",
            "num_worker_replicas": "the evaluator sees no training cluster",
            "global_id_in_cluster": "the evaluator has no id in the training cluster",
            "device_filters": "the evaluator sees no training cluster: none",
        }

    def test_master_mode(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        tf_config = {
            "cluster": {"master": ["m:1"], "worker": ["w:1", "w:2"], "ps": ["p:1"]},
            "task": {"type": "worker", "index": 1},
        }
        assert self.reasons(capsys, monkeypatch, tf_config) == {
            "task": "the task of TF_CONFIG, in master mode: the cluster has a 'master' job",
            "master": "the cluster has several tasks, so this task's address",
            "evaluation_master": "a training task has none",
            "is_chief": "task type is worker; the chief is master:0",
            "num_ps_replicas": "1 ps in the cluster",
            "num_worker_replicas": "2 workers + 1 master",
            "global_id_in_cluster": (
                "jobs in the order master, worker, ps: 1 master before worker, then index 1"
            ),
            "device_filters": "the default session_config of a worker task",
        }

    def test_a_cluster_of_one_chief_is_explained_as_one_job_of_one_task(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The master of a cluster of one task is '', and --why says so."""
        tf_config = {"cluster": {"chief": ["h:1"]}, "task": {"type": "chief", "index": 0}}
        reasons = self.reasons(capsys, monkeypatch, tf_config)
        assert reasons["master"] == "the cluster is one job of one task, so ''"

    def test_the_chief_of_a_parameter_server_job(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        tf_config = {
            "cluster": {"chief": ["c:1"], "worker": ["w:1"], "ps": ["p:1", "p:2"]},
            "task": {"type": "chief", "index": 0},
        }
        assert self.reasons(capsys, monkeypatch, tf_config, "--profile", "ps") == {
            "num_workers": "1 worker in the cluster",
            "num_ps": "2 ps in the cluster",
            "role": "the chief is the coordinator",
            "is_coordinator": "task type is chief; the coordinator is the chief",
        }


class TestStandardInput:
    @pytest.fixture(autouse=True)
    def _stdin(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"task": {}}')))

    @pytest.mark.parametrize("options", [(), ("--readers",), ("--profile", "mwms")])
    def test_the_source_is_named_stdin(
        self, capsys: pytest.CaptureFixture[str], options: tuple[str, ...]
    ) -> None:
        status, out, err = run(capsys, "explain", "--tf-config", "-", "--format", "json", *options)
        assert status == 0, err
        assert json.loads(out)["tf_config_source"] == "stdin"

    def test_a_task_named_of_a_tf_config_beside_a_run_config(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        config = "tests/data/valid/run_config_local.toml"
        argv = ["explain", "--config", config, "--tf-config", "-", "--task", "worker:0"]
        status, out, err = run(capsys, *argv)
        assert (status, out) == (2, "")
        assert err.endswith(
            "--pod and --task name a pod of a TFJob manifest; <stdin> holds no TFJob\n"
        )


class TestAPodOfATFJobWithoutAName:
    @staticmethod
    def explain(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, metadata: dict[str, str]
    ) -> tuple[int, str, str]:
        tfjob = json.loads((ROOT / "tests/data/kubeflow/chief_worker.json").read_text())
        path = tmp_path / "tfjob.json"
        path.write_text(json.dumps({**tfjob, "metadata": metadata}))
        return run(capsys, "explain", "--tf-config", str(path), "--task", "worker:0")

    def test_a_name_beside_generate_name_names_the_pods(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        status, out, err = self.explain(capsys, tmp_path, {"name": "job", "generateName": "j-"})
        assert status == 0, err
        assert rows(out)["TF_CONFIG"].endswith("pod job-worker-0 (task worker:0)")

    def test_only_a_generate_name_is_a_usage_error_with_the_command_as_its_hint(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        status, out, err = self.explain(capsys, tmp_path, {"generateName": "j-"})
        assert (status, out) == (2, "")
        assert err.endswith(
            "tfjob.json: the TFJob has only generateName 'j-': the API server picks its name, "
            "and so its pods', when the job is created\n"
            f"hint: explain a pod of it with estconf tf-config --tfjob {tmp_path}/tfjob.json "
            "--name NAME --task TYPE:INDEX | estconf explain --tf-config -\n"
        )

    def test_a_manifest_the_operator_cannot_read_is_said_without_pydantics_dump(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = "tests/data/kubeflow/v1alpha1.yaml"
        status, out, err = run(capsys, "explain", "--tf-config", path, "--task", "worker:0")
        assert (status, out) == (2, "")
        assert err == (
            f"estconf explain: error: {path}: not a TFJob the operator reads: apiVersion: a "
            "TFJob's apiVersion is kubeflow.org/v1 (or the earlier v1beta2, v1beta1, v1alpha2, "
            "read as v1), not 'kubeflow.org/v1alpha1'; kubeflow.org/v1alpha1 TFJobs, with a "
            "list of replicaSpecs, are not read\n"
        )

    def test_no_name_at_all_is_a_usage_error(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        status, out, err = self.explain(capsys, tmp_path, {})
        assert (status, out) == (2, "")
        assert err.endswith(
            "tfjob.json: the TFJob has no metadata.name; pass its name as name=NAME\n"
        )


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="no /dev/fd")
def test_a_config_given_as_a_pipe_is_read_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--config <(command)`` names a pipe, which can be read once."""
    monkeypatch.delenv("TF_CONFIG", raising=False)
    read, write = os.pipe()
    os.write(write, Path("tests/data/valid/run_config.yaml").read_bytes())
    os.close(write)
    try:
        status, out, err = run(
            capsys, "explain", "--config", f"/dev/fd/{read}", "--input-format", "yaml"
        )
    finally:
        os.close(read)
    assert (status, err) == (0, "")
    assert out.startswith(f"TF_CONFIG from        /dev/fd/{read} (tf_config)\n")


@pytest.mark.parametrize(
    ("profile", "said"),
    [
        ("estimator", b"<stdin>: TF_CONFIG is set but empty; unset it or give a JSON object"),
        ("mwms", b"<stdin>: the file is empty"),
    ],
)
def test_empty_standard_input_is_an_empty_tf_config_for_the_estimator_an_empty_file_else(
    profile: str, said: bytes
) -> None:
    """The Estimator's view refuses an empty TF_CONFIG; another reader's, an empty file."""
    done = subprocess.run(
        [ESTCONF, "explain", "--profile", profile, "--tf-config", "-"],
        cwd=ROOT,
        input=b"",
        capture_output=True,
        check=False,
    )
    assert done.returncode == 1
    assert said in done.stdout + done.stderr
