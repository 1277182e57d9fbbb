"""estconf.cli._vertex: ``estconf tf-config --vertex SPEC`` on the spec files under tests/data.

The spec files are written from Vertex AI's documented examples
(https://cloud.google.com/vertex-ai/docs/training/distributed-training,
https://cloud.google.com/vertex-ai/docs/training/create-custom-job); each
cites its page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_main import run
from estconf import vertex
from estconf.files import read_data

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "launchers" / "vertex"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def spec(name: str) -> str:
    return str((DATA / name).relative_to(ROOT))


def lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


class TestWritten:
    def test_every_replicas_tf_config(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, "tf-config", "--vertex", spec("distributed.yaml"))
        assert status == 0
        expected = vertex.tf_configs(read_data(spec("distributed.yaml")))
        assert lines(out) == list(expected.values())
        assert len(lines(out)) == 8
        assert err == (
            "note: Vertex AI names each replica's host after the job's id, chosen when the job "
            "is created; these use 'ab' (--job-id ID for another)\n"
        )

    def test_cluster_spec_with_the_jobs_id(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ("--vertex", spec("custom-job.json"), "--cluster-spec", "--job-id", "d604929a6a")
        status, out, err = run(capsys, "tf-config", *argv)
        assert (status, err) == (0, "")
        specs = lines(out)
        assert [s["task"] for s in specs] == [
            {"type": "workerpool0", "index": 0},
            {"type": "workerpool1", "index": 0},
            {"type": "workerpool1", "index": 1},
        ]
        assert specs[0]["cluster"] == {
            "workerpool0": ["cmle-training-workerpool0-d604929a6a-0:2222"],
            "workerpool1": [
                "cmle-training-workerpool1-d604929a6a-0:2222",
                "cmle-training-workerpool1-d604929a6a-1:2222",
            ],
        }

    def test_labels_name_the_replica(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ("--vertex", spec("distributed.yaml"), "--format", "env", "--job-id", "ab")
        _, out, _ = run(capsys, "tf-config", *argv)
        assert out.splitlines()[-2] == "# workerpool3-2: evaluator:2"

    def test_one_replica_with_task(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ("--vertex", spec("distributed.yaml"), "--task", "ps:1", "--job-id", "ab")
        status, out, _ = run(capsys, "tf-config", *argv)
        assert status == 0
        assert [c["task"] for c in lines(out)] == [{"type": "ps", "index": 1}]

    def test_from_standard_input(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        import io
        import sys

        text = (DATA / "custom-job.json").read_text(encoding="utf-8")
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
        status, out, _ = run(capsys, "tf-config", "--vertex", "-", "--job-id", "ab")
        assert status == 0
        assert len(lines(out)) == 3

    def test_too_large_an_output_is_refused_before_it_is_written(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "large.yaml"
        path.write_text(
            "workerPoolSpecs:\n  - replicaCount: 1\n  - replicaCount: 500\n", encoding="utf-8"
        )
        argv = ("tf-config", "--vertex", str(path), "--max-size", "100000", "--job-id", "ab")
        status, out, err = run(capsys, *argv)
        assert (status, out) == (2, "")
        assert "the TF_CONFIGs of its 501 replicas would take about" in err
        status, out, _ = run(capsys, *argv, "--task", "worker:499")
        assert status == 0
        assert [c["task"] for c in lines(out)] == [{"type": "worker", "index": 499}]


class TestFindings:
    def test_an_evaluator_pool_under_mwms_at_its_line(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("--vertex", spec("mwms-evaluator.yaml"), "--profile", "mwms")
        status, out, err = run(capsys, "tf-config", *argv)
        assert (status, out) == (1, "")
        assert err.startswith(
            f"{spec('mwms-evaluator.yaml')}:25:19: workerPoolSpecs[3].replicaCount: the "
            "evaluator replicas, under --profile mwms: "
            "MultiWorkerMirroredStrategy counts the workers of an evaluator"
        )
        assert err.splitlines()[1] == (
            "hint: Vertex AI never puts the evaluators in the cluster: run them without this "
            "reader (an evaluator of its own that reads the checkpoints), or leave "
            "workerPoolSpecs[3] out"
        )

    def test_a_ps_pool_and_an_evaluator_pool_under_mwms(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("--vertex", spec("distributed.yaml"), "--profile", "mwms")
        status, _, err = run(capsys, "tf-config", *argv)
        assert status == 1
        assert [line.split(": ")[0] for line in err.splitlines()] == [
            f"{spec('distributed.yaml')}:17:19",
            "hint",
            f"{spec('distributed.yaml')}:22:19",
            "hint",
        ]

    def test_the_same_job_under_the_parameter_server_strategy(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("--vertex", spec("distributed.yaml"), "--profile", "ps", "--job-id", "ab")
        assert run(capsys, "tf-config", *argv)[:1] == (0,)

    def test_pool_0_with_more_than_one_replica(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, "tf-config", "--vertex", spec("primary-replicas.yaml"))
        assert (status, out) == (1, "")
        assert err == (
            f"{spec('primary-replicas.yaml')}:6:19: workerPoolSpecs[0].replicaCount: "
            "workerPoolSpecs[0] is the primary replica, the chief: its replicaCount must be 1, "
            "not 4 (put the workers in workerPoolSpecs[1])\n"
        )

    def test_the_evaluators_tf_config_is_refused_by_check_cluster_under_mwms(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        argv = ("--vertex", spec("mwms-evaluator.yaml"), "--job-id", "ab")
        status, out, _ = run(capsys, "tf-config", *argv)
        assert status == 0  # the estimator reads every replica's
        (tmp_path / "replicas.jsonl").write_text(out, encoding="utf-8")
        nodes = str(tmp_path / "replicas.jsonl")
        status, out, _ = run(capsys, "check-cluster", "--profile", "mwms", nodes)
        assert status == 1
        assert "MultiWorkerMirroredStrategy counts the workers of an evaluator" in out


class TestTrial:
    """``--trial N``: a hyperparameter-tuning trial's replicas, ``"trial": "N"`` in each task."""

    def test_every_replica_of_the_trial(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ("vertex", spec("distributed.yaml"), "--trial", "12", "--job-id", "ab")
        status, out, err = run(capsys, "tf-config", *argv)
        assert (status, err) == (0, "")
        written = lines(out)
        expected = vertex.tf_configs(read_data(spec("distributed.yaml")), trial=12)
        assert written == list(expected.values())
        assert {c["task"]["trial"] for c in written} == {"12"}  # type: ignore[index]

    def test_check_cluster_reads_them_under_every_profile_that_reads_the_job(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        for trial in (None, "3"):
            extra = () if trial is None else ("--trial", trial)
            argv = ("vertex", spec("custom-job.json"), "--job-id", "ab", *extra)
            _, out, _ = run(capsys, "tf-config", *argv)
            (tmp_path / f"{trial}.jsonl").write_text(out, encoding="utf-8")
        for profile in ("estimator", "mwms", "ps", "server"):
            plain = run(capsys, "check-cluster", "--profile", profile, str(tmp_path / "None.jsonl"))
            tuned = run(capsys, "check-cluster", "--profile", profile, str(tmp_path / "3.jsonl"))
            assert tuned[0] == plain[0]
            assert tuned[1].replace("3.jsonl", "None.jsonl") == plain[1]

    def test_with_cluster_specs_and_one_task(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ("vertex", spec("custom-job.json"), "--cluster-spec", "--trial", "1")
        status, out, _ = run(capsys, "tf-config", *argv, "--task", "workerpool1:1")
        assert status == 0
        assert [c["task"] for c in lines(out)] == [
            {"type": "workerpool1", "index": 1, "trial": "1"}
        ]

    @pytest.mark.parametrize(
        "trial", ["0", "-1", "2147483648", "99999999999999999999", "1.5", "x", "", "٣", "1e3"]
    )
    def test_no_trials_number_is_refused(
        self, capsys: pytest.CaptureFixture[str], trial: str
    ) -> None:
        status, out, err = run(
            capsys, "tf-config", "vertex", spec("custom-job.json"), "--trial", trial
        )
        assert (status, out) == (2, "")
        assert err.splitlines()[-1].startswith(
            "estconf tf-config vertex: error: argument --trial: expected a number, "
            "from 1 to 2147483647, not "
        )

    def test_the_largest_trial(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ("vertex", spec("custom-job.json"), "--trial", "2147483647", "--task", "chief:0")
        status, out, _ = run(capsys, "tf-config", *argv)
        assert status == 0
        assert lines(out)[0]["task"] == {"type": "chief", "index": 0, "trial": "2147483647"}

    def test_the_options_bound_is_the_apis(self) -> None:
        from estconf.launchers.vertex import command

        assert command.MAX_TRIAL == vertex.MAX_TRIAL

    def test_it_goes_with_vertex(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, _, err = run(capsys, "tf-config", "--job", "x", "--worker", "2", "--trial", "1")
        assert (status, err) == (2, "estconf tf-config: error: --trial goes with --vertex\n")


class TestReductionServer:
    """A pool 2 that runs Vertex AI's Reduction Server (reduction-server.yaml: 1, 4 and 16)."""

    NOTE = (
        ":29:17: workerPoolSpecs[2].containerSpec.imageUri: note: its 16 replicas run Vertex "
        "AI's Reduction Server, no TensorFlow and no parameter server: estconf leaves them out "
        "of the cluster and writes no TF_CONFIG for them, as Vertex AI does not document one\n"
    )

    @pytest.mark.parametrize("fmt", ["jsonl", "json", "shell", "env", "k8s"])
    def test_no_ps_finding_under_mwms_and_the_pool_said_in_every_format(
        self, capsys: pytest.CaptureFixture[str], fmt: str
    ) -> None:
        argv = ("vertex", spec("reduction-server.yaml"), "--profile", "mwms", "--job-id", "8f3c")
        status, out, err = run(capsys, "tf-config", *argv, "--format", fmt)
        assert status == 0
        assert err == spec("reduction-server.yaml") + self.NOTE
        assert "cmle-training-workerpool2" not in out

    def test_the_chief_and_workers_alone(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "tf-config", "vertex", spec("reduction-server.yaml"))
        assert status == 0
        written = lines(out)
        assert [c["task"] for c in written] == [{"type": "chief", "index": 0}] + [
            {"type": "worker", "index": i} for i in range(4)
        ]
        clusters = [c["cluster"] for c in written]
        assert all(isinstance(c, dict) and set(c) == {"chief", "worker"} for c in clusters)

    def test_the_job_id_note_first(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, _, err = run(capsys, "tf-config", "vertex", spec("reduction-server.yaml"))
        assert err.splitlines()[0].startswith("note: Vertex AI names each replica's host")
        assert err.splitlines()[1] == (spec("reduction-server.yaml") + self.NOTE).rstrip("\n")

    def test_check_cluster_finds_the_predicted_job_whole(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        _, out, _ = run(
            capsys, "tf-config", "vertex", spec("reduction-server.yaml"), "--trial", "2"
        )
        (tmp_path / "replicas.jsonl").write_text(out, encoding="utf-8")
        status, said, _ = run(
            capsys, "check-cluster", "--profile", "mwms", str(tmp_path / "replicas.jsonl")
        )
        assert (status, said) == (0, "5 nodes, 1 cluster: valid\n")

    def test_cluster_specs_keep_the_reducers(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ("vertex", spec("reduction-server.yaml"), "--cluster-spec", "--job-id", "8f3c")
        status, out, err = run(capsys, "tf-config", *argv)
        assert status == 0
        assert [c["task"]["type"] for c in lines(out)].count("workerpool2") == 16  # type: ignore[index]
        assert err.endswith(
            "note: its 16 replicas run Vertex AI's Reduction Server, not TensorFlow; "
            "CLUSTER_SPEC lists them as workerpool2, as it lists every pool\n"
        )

    def test_validate_finds_no_ps_under_mwms(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "validate", "--profile", "mwms", spec("reduction-server.yaml"))
        assert (status, out.splitlines()[-1]) == (0, "1 file valid")


class TestUsage:
    @pytest.mark.parametrize(
        ("argv", "status", "message"),
        [
            (("--cluster-spec",), 2, "--cluster-spec goes with --vertex"),
            (("--job", "x", "--worker", "2", "--job-id", "ab"), 2, "--job-id goes with --vertex"),
            (("--vertex", "x.yaml", "--job", "x"), 2, "give one of CLUSTER_FILE"),
            (("--vertex", "tests/data/launchers/vertex/missing.yaml"), 1, "missing.yaml"),
            (("--vertex", "pyproject.toml"), 2, "a CustomJob spec is YAML or JSON"),
        ],
    )
    def test_refused(
        self,
        capsys: pytest.CaptureFixture[str],
        argv: tuple[str, ...],
        status: int,
        message: str,
    ) -> None:
        done, out, err = run(capsys, "tf-config", *argv)
        assert (done, out) == (status, "")
        assert message in err

    @pytest.mark.parametrize("written", [("--format", "pods"), ("--format=pods",)])
    def test_a_cluster_spec_cannot_be_written_as_pods(
        self, capsys: pytest.CaptureFixture[str], written: tuple[str, ...]
    ) -> None:
        argv = ("--vertex", spec("custom-job.json"), "--cluster-spec", *written)
        status, out, err = run(capsys, "tf-config", *argv)
        assert (status, out) == (2, "")
        assert "--format pods writes each replica's TF_CONFIG: give --cluster-spec with" in err

    def test_a_spec_that_cannot_be_read_is_counted_as_an_error(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        missing = "tests/data/launchers/vertex/missing.yaml"
        status, out, err = run(capsys, "tf-config", "--vertex", missing)
        assert (status, out) == (1, "")
        assert err.splitlines()[-1] == "1 error in 1 of 1 file"

    def test_a_spec_that_is_no_object(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        (tmp_path / "list.yaml").write_text("- workerPoolSpecs: []\n", encoding="utf-8")
        status, _, err = run(capsys, "tf-config", "--vertex", str(tmp_path / "list.yaml"))
        assert status == 1
        assert "a CustomJob spec holds an object with workerPoolSpecs" in err


class TestValidate:
    """A CustomJob spec is a kind ``estconf validate`` tells from its keys (``workerPoolSpecs``)."""

    def test_the_findings_of_a_profile_at_the_spec_fields(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(capsys, "validate", "--profile", "mwms", spec("mwms-evaluator.yaml"))
        assert status == 1
        assert out.startswith(
            f"{spec('mwms-evaluator.yaml')}:25:19: workerPoolSpecs[3].replicaCount: the "
            "evaluator replicas, under --profile mwms:"
        )
        assert "\nhint: Vertex AI never puts the evaluators in the cluster" in out
        assert "read as vertex_custom_job, told from its keys" in out

    def test_valid_under_the_estimator_and_ps(self, capsys: pytest.CaptureFixture[str]) -> None:
        for profile in ("estimator", "ps"):
            argv = ("validate", "--profile", profile, spec("distributed.yaml"))
            assert run(capsys, *argv)[0] == 0
        assert run(capsys, "validate", spec("custom-job.json"))[0] == 0

    def test_pool_0_with_four_replicas_under_any_profile(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(capsys, "validate", spec("primary-replicas.yaml"))
        assert status == 1
        assert out.startswith(
            f"{spec('primary-replicas.yaml')}:6:19: workerPoolSpecs[0].replicaCount: "
            "workerPoolSpecs[0] is the primary replica"
        )

    def test_a_replica_count_that_is_no_number_at_its_line(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "job.yaml"
        path.write_text(
            "worker_pool_specs:\n  - replica_count: 1\n  - replica_count: two\n",
            encoding="utf-8",
        )
        status, out, _ = run(capsys, "validate", str(path))
        assert status == 1
        assert out.startswith(f"{path}:3:20: worker_pool_specs[1].replica_count: replicaCount is")
