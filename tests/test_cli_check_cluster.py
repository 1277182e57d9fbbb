"""estconf.cli._check_cluster: ``estconf check-cluster`` on the files of tests/data/check_cluster.

The outputs are pinned exactly; the commands run in that directory so that the
node names are short.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from estconf.cli import main

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests/data/check_cluster"
ESTCONF = Path(sys.executable).with_name("estconf")
KUBEFLOW = ROOT / "tests/data/kubeflow"
NO_NODE_HINT = (
    "a TFJob of one pod in all gets no TF_CONFIG, and 'estconf tf-config --tfjob' writes "
    "nothing for it: pass --allow-empty where no input means that"
)


@pytest.fixture(autouse=True)
def _in_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DATA)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(["check-cluster", *argv])
    except SystemExit as exc:  # argparse: usage errors
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def script(*argv: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    """The installed console script, in a subprocess."""
    return subprocess.run(
        [str(ESTCONF), "check-cluster", *argv],
        input=stdin.decode(),
        capture_output=True,
        text=True,
        cwd=DATA,
        check=False,
    )


class TestConsoleScript:
    def test_a_directory_of_json_yaml_and_toml_nodes(self) -> None:
        done = script("good")
        assert (done.returncode, done.stdout, done.stderr) == (0, "3 nodes, 1 cluster: valid\n", "")

    def test_node_files(self) -> None:
        done = script("good/chief.json", "good/worker-0.yaml", "good/worker-1.toml")
        assert (done.returncode, done.stdout) == (0, "3 nodes, 1 cluster: valid\n")

    def test_json_lines_on_stdin(self) -> None:
        done = script("--profile", "mwms", "-", stdin=(DATA / "same_task.jsonl").read_bytes())
        assert done.returncode == 1
        assert done.stdout == (
            "<stdin>:1, <stdin>:2, <stdin>:3: task worker:0 is claimed by 3 nodes; "
            "each task of the cluster runs on exactly one node\n"
            "cluster: task worker:1 (w1:2222) of the cluster is claimed by no node\n"
            "cluster: task worker:2 (w2:2222) of the cluster is claimed by no node\n"
            "hint: every node was given the same task, worker:0: each node needs its own "
            "task.index (0, 1, 2, ... within each task.type)\n"
            "3 nodes, 1 cluster: 3 findings\n"
        )

    def test_format_sarif_writes_a_sarif_log(self) -> None:
        """``--format sarif`` given to the installed command writes a SARIF 2.1.0 log."""
        done = script("--format", "sarif", "cluster_mismatch.jsonl")
        assert done.returncode == 1
        log = json.loads(done.stdout)
        assert log["version"] == "2.1.0"
        (result,) = log["runs"][0]["results"]
        assert result["ruleId"] == "cluster_mismatch"

    def test_a_file_that_cannot_be_read_is_exit_2(self) -> None:
        done = script("good", "missing.json")
        assert (done.returncode, done.stdout, done.stderr) == (
            2,
            "",
            "missing.json: no such file\n",
        )


class TestFindings:
    def test_a_node_missing_from_a_file_list(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "good/chief.json", "good/worker-0.yaml")
        assert (status, out) == (
            1,
            "cluster: task worker:1 (trainer-worker-1:2222) of the cluster is claimed by no node\n"
            "2 nodes, 1 cluster: 1 finding\n",
        )

    def test_clusters_that_differ_read_as_a_diff(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "cluster_mismatch.jsonl")
        assert (status, out) == (
            1,
            "cluster_mismatch.jsonl:3: the cluster differs from the one most nodes have "
            "(cluster_mismatch.jsonl:1, cluster_mismatch.jsonl:2): worker:1: w1:2222 "
            "(cluster_mismatch.jsonl:1, cluster_mismatch.jsonl:2) vs w9:2222 "
            "(cluster_mismatch.jsonl:3)\n"
            "  - worker:1 w1:2222\n"
            "  + worker:1 w9:2222\n"
            "3 nodes, 2 clusters: 1 finding\n",
        )

    def test_a_near_miss_key_of_a_node_file(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        cluster = {"chief": ["h0:1"], "worker": ["h1:1"]}
        chief, worker = tmp_path / "chief.json", tmp_path / "worker.yaml"
        typo = {"cluster": cluster, "save_checkpoint_steps": 10}
        chief.write_text(json.dumps({**typo, "task": {"type": "chief", "index": 0}}))
        worker.write_text(json.dumps({**typo, "task": {"type": "worker", "index": 0}}))
        status, out, _ = run(capsys, str(chief), str(worker))
        assert (status, out) == (
            1,
            f"{chief}, {worker}: save_checkpoint_steps: unknown key 'save_checkpoint_steps' of "
            "TF_CONFIG; did you mean 'save_checkpoints_steps' of RunConfig?\n"
            "2 nodes, 1 cluster: 1 finding\n",
        )
        status, out, _ = run(capsys, "--format", "json", str(chief), str(worker))
        [finding] = json.loads(out)["findings"]
        assert (finding["code"], finding["path"]) == ("near_miss_key", "save_checkpoint_steps")
        assert finding["nodes"] == [str(chief), str(worker)]

    def test_a_json_schema_is_no_node(self, capsys: pytest.CaptureFixture[str]) -> None:
        schema = str(ROOT / "schemas" / "tf_config.schema.json")
        status, out, _ = run(capsys, "--format", "json", schema)
        [finding] = json.loads(out)["findings"]
        assert (status, finding["code"], finding["nodes"]) == (1, "json_schema", [schema])
        assert finding["message"].startswith("a JSON Schema ($schema: https://json-schema.org/")

    def test_a_task_claimed_twice(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "task_claimed_twice.jsonl")
        assert (status, out) == (
            1,
            "task_claimed_twice.jsonl:2, task_claimed_twice.jsonl:3: task worker:0 is claimed by "
            "2 nodes; each task of the cluster runs on exactly one node\n"
            "cluster: task worker:1 (w1:2222) of the cluster is claimed by no node\n"
            "hint: each node needs its own task: no two nodes may share task.type and "
            "task.index\n"
            "3 nodes, 1 cluster: 2 findings\n",
        )

    def test_every_node_of_a_large_job_given_the_same_task(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """The hint for nodes that all claim one task holds for any number of nodes."""
        cluster = {"worker": [f"w{index}:2222" for index in range(300)]}
        node = json.dumps({"cluster": cluster, "task": {"type": "worker", "index": 0}})
        (tmp_path / "nodes.jsonl").write_text(f"{node}\n" * 300)
        status, out, _ = run(capsys, "--profile", "mwms", str(tmp_path / "nodes.jsonl"))
        assert status == 1
        assert out.splitlines()[-2:] == [
            "hint: every node was given the same task, worker:0: each node needs its own "
            "task.index (0, 1, 2, ... within each task.type)",
            "300 nodes, 1 cluster: 300 findings",
        ]

    def test_ray_workers_of_one_node_that_drew_one_port(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Ray Train's TF_CONFIGs, a line a worker, as each printed its own."""
        status, out, _ = run(capsys, "--profile", "mwms", "ray_port_race.jsonl")
        nodes = ", ".join(f"ray_port_race.jsonl:{line}" for line in range(1, 5))
        assert (status, out) == (
            1,
            f"{nodes}: cluster.worker[1]: address '10.0.0.5:41523' of worker[1] is already the "
            "address of worker[0]; each task needs its own host:port\n"
            "hint: worker:0 and worker:1 both have 10.0.0.5:41523: Ray Train's "
            "TensorflowTrainer has each worker take a free port as it starts, and two on one "
            "node can draw the same one (ray-project/ray#34271); start the job again, or run "
            "one worker per node\n"
            "4 nodes, 1 cluster: 1 finding\n",
        )
        assert run(capsys, "--profile", "mwms", "ray_workers.jsonl")[:2] == (
            0,
            "4 nodes, 1 cluster: valid\n",
        )

    def test_a_task_not_in_the_cluster(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "task_not_in_cluster.jsonl")
        assert (status, out) == (
            1,
            "task_not_in_cluster.jsonl:4: task: the node is task worker:2, which its cluster "
            "does not list: job 'worker' has the tasks 0 to 1\n"
            "task_not_in_cluster.jsonl:4: task.index: 2 is not a valid task_id for task_type "
            "worker in the cluster_spec: ClusterSpec({'chief': ['c0:2222'], 'worker': "
            "['w0:2222', 'w1:2222']}) Note that these values may be coming from the TF_CONFIG "
            "environment variable.\n"
            "4 nodes, 1 cluster: 2 findings\n",
        )

    def test_values_that_differ(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "values_differ.jsonl")
        assert (status, out) == (
            1,
            'values_differ.jsonl:3: model_dir: model_dir differs between nodes: "gs://b/m" '
            '(values_differ.jsonl:1, values_differ.jsonl:2) vs "gs://b/other" '
            "(values_differ.jsonl:3)\n"
            "values_differ.jsonl:2: service: service differs between nodes: not set "
            '(values_differ.jsonl:1, values_differ.jsonl:3) vs {"x": 1} (values_differ.jsonl:2)\n'
            'values_differ.jsonl:3: rpc_layer: rpc_layer differs between nodes: "grpc" '
            "(values_differ.jsonl:1, values_differ.jsonl:2) vs not set (values_differ.jsonl:3)\n"
            "values_differ.jsonl:3: session_master: session_master differs between nodes: not "
            'set (values_differ.jsonl:1, values_differ.jsonl:2) vs "grpc://c0:2222" '
            "(values_differ.jsonl:3)\n"
            "3 nodes, 1 cluster: 4 findings\n",
        )

    def test_a_line_that_is_not_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "broken_line.jsonl")
        assert (status, out) == (
            1,
            "cluster: task worker:0 (w0:2222) of the cluster is claimed by no node\n"
            "broken_line.jsonl:2: TF_CONFIG: invalid JSON: Expecting ',' delimiter "
            "(line 1, column 99)\n"
            "3 nodes, 1 cluster: 2 findings\n",
        )

    def test_no_node_at_all(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        status, out, _ = run(capsys, str(tmp_path))
        assert (status, out) == (
            1,
            "cluster: no TF_CONFIG was given: there is no node to check\n"
            f"hint: {NO_NODE_HINT}\n"
            "0 nodes, 0 clusters: 1 finding\n",
        )


class TestProfiles:
    def test_the_estimator_refusal_names_the_profile_that_reads_the_nodes(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(capsys, "workers_only.jsonl")
        assert (status, out) == (
            1,
            'workers_only.jsonl:1, workers_only.jsonl:2: cluster: If "cluster" is set in '
            'TF_CONFIG, it must have one "chief" node. Fix: move task worker:0 into a job "chief" '
            "of its own.\n"
            "hint: tf.estimator refuses these nodes, but --profile mwms or --profile server reads "
            "every one of them: pass it if that is the reader\n"
            "2 nodes, 1 cluster: 1 finding\n",
        )
        assert run(capsys, "--profile", "mwms", "workers_only.jsonl")[:2] == (
            0,
            "2 nodes, 1 cluster: valid\n",
        )

    def test_ps(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "--profile", "ps", "workers_only.jsonl")
        assert (status, out) == (
            1,
            "workers_only.jsonl:1, workers_only.jsonl:2: cluster: There must be at least one "
            "ps.\n"
            "hint: add a job 'ps' to the cluster; a cluster without parameter servers is one for "
            "MultiWorkerMirroredStrategy: check it under the mwms profile (--profile mwms)\n"
            "2 nodes, 1 cluster: 1 finding\n",
        )

    NO_PS = (
        "MultiWorkerMirroredStrategy takes no ps: drop the ps job, or check the job under the ps "
        "profile (--profile ps)"
    )

    def test_mwms_refuses_a_ps_node_and_names_the_fix(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(capsys, "--profile", "mwms", "mwms_with_ps.jsonl")
        assert (status, out) == (
            1,
            "mwms_with_ps.jsonl:4: task.type: There is no id for task_type 'ps'\n"
            f"hint: {self.NO_PS}\n"
            "4 nodes, 1 cluster: 1 finding\n",
        )
        assert run(capsys, "--profile", "ps", "mwms_with_ps.jsonl")[:2] == (
            0,
            "4 nodes, 1 cluster: valid\n",
        )

    def test_the_fix_in_json_github_and_sarif(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ("--profile", "mwms", "mwms_with_ps.jsonl")
        [finding] = json.loads(run(capsys, "--format", "json", *argv)[1])["findings"]
        assert (finding["code"], finding["nodes"], finding["hint"]) == (
            "no_id_for_task_type",
            ["mwms_with_ps.jsonl:4"],
            self.NO_PS,
        )
        assert run(capsys, "--format", "github", *argv)[1] == (
            "::error file=mwms_with_ps.jsonl,line=4,col=1,title=estconf no_id_for_task_type::"
            "mwms_with_ps.jsonl:4: task.type: There is no id for task_type 'ps'"
            f"%0Ahint: {self.NO_PS}\n"
        )
        [result] = json.loads(run(capsys, "--format", "sarif", *argv)[1])["runs"][0]["results"]
        assert result["message"]["text"] == (
            "mwms_with_ps.jsonl:4: task.type: There is no id for task_type 'ps'\n"
            f"hint: {self.NO_PS}"
        )
        assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 4


class TestFormats:
    def test_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "--format", "json", "workers_only.jsonl")
        assert status == 1
        document = json.loads(out)
        assert document["valid"] is False
        assert document["profile"] == "estimator"
        assert [(f["code"], f["nodes"], f["path"]) for f in document["findings"]] == [
            ("missing_chief", ["workers_only.jsonl:1", "workers_only.jsonl:2"], "cluster")
        ]
        assert document["hints"][0].startswith("tf.estimator refuses these nodes")

    def test_json_of_a_cluster_mismatch_lists_each_difference(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        document = json.loads(run(capsys, "--format", "json", "cluster_mismatch.jsonl")[1])
        [finding] = document["findings"]
        assert finding["differences"] == [
            {"job": "worker", "index": 1, "reference": "w1:2222", "other": "w9:2222"}
        ]
        assert finding["reference_nodes"] == [
            "cluster_mismatch.jsonl:1",
            "cluster_mismatch.jsonl:2",
        ]

    def test_json_is_written_byte_for_byte(self, capsys: pytest.CaptureFixture[str]) -> None:
        """Each finding: code, severity, message, hint, nodes, profile, path, job, index, facts."""
        status, out, _ = run(capsys, "--format", "json", "task_not_in_cluster.jsonl")
        nodes = [f"task_not_in_cluster.jsonl:{line}" for line in (1, 2, 3, 4)]
        message = (
            "2 is not a valid task_id for task_type worker in the cluster_spec:\\n"
            "ClusterSpec({'chief': ['c0:2222'], 'worker': ['w0:2222', 'w1:2222']})\\n\\n"
            "Note that these values may be coming from the TF_CONFIG environment variable."
        )
        assert status == 1
        assert out == (
            "{\n"
            '  "profile": "estimator",\n'
            '  "nodes": [\n' + ",\n".join(f'    "{name}"' for name in nodes) + "\n  ],\n"
            '  "clusters": 1,\n'
            '  "findings": [\n'
            "    {\n"
            '      "code": "task_not_in_cluster",\n'
            '      "severity": "error",\n'
            '      "message": "the node is task worker:2, which its cluster does not list: '
            "job 'worker' has the tasks 0 to 1\",\n"
            '      "nodes": [\n'
            '        "task_not_in_cluster.jsonl:4"\n'
            "      ],\n"
            '      "profile": null,\n'
            '      "path": "task",\n'
            '      "job": "worker",\n'
            '      "index": 2,\n'
            '      "reference_nodes": [],\n'
            '      "differences": [],\n'
            '      "values": []\n'
            "    },\n"
            "    {\n"
            '      "code": "task_index_out_of_range",\n'
            '      "severity": "error",\n'
            f'      "message": "{message}",\n'
            '      "nodes": [\n'
            '        "task_not_in_cluster.jsonl:4"\n'
            "      ],\n"
            '      "profile": "estimator",\n'
            '      "path": "task.index",\n'
            '      "job": null,\n'
            '      "index": null,\n'
            '      "reference_nodes": [],\n'
            '      "differences": [],\n'
            '      "values": []\n'
            "    }\n"
            "  ],\n"
            '  "valid": false,\n'
            '  "hints": [],\n'
            '  "notes": [],\n'
            '  "skipped": []\n'
            "}\n"
        )

    def test_github(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "--format", "github", "task_claimed_twice.jsonl")
        assert (status, out) == (
            1,
            "::error file=task_claimed_twice.jsonl,line=2,col=1,title=estconf task_claimed_twice"
            "::task_claimed_twice.jsonl:2, task_claimed_twice.jsonl:3: task worker:0 is claimed "
            "by 2 nodes; each task of the cluster runs on exactly one node\n"
            "::error file=task_claimed_twice.jsonl,line=1,col=1,title=estconf task_unclaimed"
            "::cluster: task worker:1 (w1:2222) of the cluster is claimed by no node\n"
            "::notice title=estconf hint::each node needs its own task: no two nodes may share "
            "task.type and task.index\n",
        )

    def test_github_names_a_node_file(self, capsys: pytest.CaptureFixture[str]) -> None:
        out = run(capsys, "--format", "github", "cluster_mismatch.jsonl", "good/chief.json")[1]
        assert out.splitlines()[1].startswith(
            "::error file=good/chief.json,title=estconf cluster_mismatch::good/chief.json: "
        )

    def test_valid_json_and_github(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "--format", "json", "good")
        assert (status, json.loads(out)["valid"]) == (0, True)
        assert run(capsys, "--format", "github", "good")[:2] == (0, "")


class TestWhatTfConfigWrites:
    """check-cluster reads every form ``estconf tf-config --out-dir`` writes a TF_CONFIG in."""

    @pytest.mark.parametrize("fmt", ["jsonl", "shell", "env", "k8s"])
    def test_each_format_round_trips(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str
    ) -> None:
        job = ["--job", "mnist", "--chief", "1", "--worker", "2", "--ps", "1"]
        assert main(["tf-config", *job, "--format", fmt, "--out-dir", str(tmp_path)]) == 0
        capsys.readouterr()
        assert run(capsys, str(tmp_path))[:2] == (0, "4 nodes, 1 cluster: valid\n")
        # each TF_CONFIG is read, not passed over: one node given another address differs
        worker = next(tmp_path.glob("worker-1.*"))
        changed = worker.read_text().replace("mnist-worker-1.", "mnist-worker-9.")
        worker.write_text(changed)
        status, out, _ = run(capsys, str(tmp_path))
        assert status == 1
        assert out.startswith(f"{worker}{':1' if fmt in ('shell', 'env') else ''}: the cluster")

    @pytest.mark.parametrize(("fmt", "suffix"), [("shell", "sh"), ("env", "env"), ("k8s", "yaml")])
    def test_a_stream_of_every_task_in_one_file(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str, suffix: str
    ) -> None:
        job = ["--job", "mnist", "--chief", "1", "--worker", "2"]
        assert main(["tf-config", *job, "--format", fmt]) == 0
        stream = tmp_path / f"all.{suffix}"
        stream.write_text(capsys.readouterr().out)
        status, out, _ = run(capsys, "--format", "json", str(stream))
        report = json.loads(out)
        assert (status, report["valid"], len(report["nodes"])) == (0, True, 3)
        assert all(node.startswith(f"{stream}:") for node in report["nodes"])  # each at its line
        lines = stream.read_text().splitlines()
        last = max(i for i, line in enumerate(lines) if "mnist-worker-1." in line)
        lines[last] = lines[last].replace("mnist-worker-1.", "mnist-worker-9.")
        stream.write_text("\n".join(lines) + "\n")
        assert run(capsys, str(stream))[0] == 1

    def test_a_stream_of_other_documents_is_refused(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        stream = tmp_path / "nodes.yaml"
        stream.write_text("cluster: {}\n---\nenv: []\n")
        assert run(capsys, str(stream)) == (
            2,
            "",
            f"{stream}: the file holds more than one YAML document, and not only env lists and "
            "Kubernetes manifests that set TF_CONFIG\n",
        )

    def test_an_env_list_without_tf_config(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        node = tmp_path / "chief-0.yaml"
        unset = f"{node}: the env list sets no TF_CONFIG (a valueFrom is read only in a pod)\n"
        node.write_text("env:\n  - name: OTHER\n    value: '1'\n")
        assert run(capsys, str(node)) == (2, "", unset)
        node.write_text("env:\n  - name: TF_CONFIG\n    valueFrom: {configMapKeyRef: {}}\n")
        assert run(capsys, str(node)) == (2, "", unset)

    def test_a_file_of_assignments_without_tf_config(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        node = tmp_path / "chief-0.env"
        node.write_text("OTHER=1\n")
        assert run(capsys, str(node)) == (2, "", f"{node}: no line of the file sets TF_CONFIG\n")


class TestUnreadable:
    def test_a_file_with_bad_syntax(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, str(ROOT / "tests/data/invalid/syntax.json"))
        assert (status, out) == (2, "")
        assert err.endswith(
            "tests/data/invalid/syntax.json:3:3: invalid JSON: Expecting ',' delimiter\n"
        )

    def test_a_tfjob_manifest_is_not_a_node(self, capsys: pytest.CaptureFixture[str]) -> None:
        path = str(ROOT / "tests/data/kubeflow/dist_mnist.yaml")
        status, out, err = run(capsys, path)
        assert (status, out) == (2, "")
        assert err == (
            f"{path}: a Kubeflow TFJob manifest (apiVersion: kubeflow.org/v1), not a TF_CONFIG "
            "file (estconf validate checks a TFJob manifest: the TF_CONFIG of each of its pods)\n"
        )

    def test_stdin_over_the_size_limit(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        import io

        stdin = io.TextIOWrapper(io.BytesIO((DATA / "same_task.jsonl").read_bytes()))
        monkeypatch.setattr(sys, "stdin", stdin)
        status, out, err = run(capsys, "--max-size", "10", "-")
        assert (status, out) == (2, "")
        assert err.startswith("<stdin>: ")

    @pytest.mark.parametrize("name", ["same_task.jsonl", "nodes.env"])
    def test_a_file_of_lines_over_the_size_limit(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
    ) -> None:
        path = tmp_path / name
        lines = (DATA / "same_task.jsonl").read_text(encoding="utf-8").splitlines()
        text = "".join(f"TF_CONFIG={line}\n" for line in lines) if name.endswith(".env") else None
        path.write_text(text or "\n".join(lines), encoding="utf-8")
        status, out, err = run(capsys, "--max-size", "10", str(path))
        assert (status, out) == (2, "")
        assert err == f"{path}: the file is larger than the limit of 10 bytes\n"

    def test_usage_errors(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys)[0] == 2
        assert run(capsys, "--profile", "nope", "good")[0] == 2


class TestAllowEmpty:
    """No TF_CONFIG at all: a finding, or with ``--allow-empty`` a note and exit 0."""

    NOTE = "note: no TF_CONFIG was given: there is no node to check (--allow-empty)\n"

    @staticmethod
    def piped(tfjob: Path, *options: str) -> tuple[int, str, int, str, str]:
        """``estconf tf-config --tfjob TFJOB | estconf check-cluster OPTIONS -``, a real pipe."""
        with subprocess.Popen(
            [str(ESTCONF), "tf-config", "--tfjob", str(tfjob)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        ) as generate:
            assert generate.stdout is not None
            check = subprocess.run(
                [str(ESTCONF), "check-cluster", *options, "-"],
                stdin=generate.stdout,
                capture_output=True,
                text=True,
                check=False,
            )
            generate.stdout.close()
            _, generate_err = generate.communicate()
        return (
            generate.returncode,
            generate_err.decode(),
            check.returncode,
            check.stdout,
            check.stderr,
        )

    def test_a_one_replica_tfjob_piped_in(self) -> None:
        generated, why, status, out, err = self.piped(
            KUBEFLOW / "single_replica.yaml", "--allow-empty"
        )
        assert (generated, status, err) == (0, 0, "")
        assert why == (
            "the job has one replica in all: the operator gives its pod no TF_CONFIG "
            "(TensorFlow runs it alone)\n"
        )
        assert out == self.NOTE + "0 nodes, 0 clusters: valid\n"

    def test_without_it_the_empty_input_is_a_finding_with_the_option_named(self) -> None:
        _, _, status, out, _ = self.piped(KUBEFLOW / "single_replica.yaml")
        assert status == 1
        assert out == (
            "cluster: no TF_CONFIG was given: there is no node to check\n"
            f"hint: {NO_NODE_HINT}\n"
            "0 nodes, 0 clusters: 1 finding\n"
        )

    def test_a_distributed_tfjob_piped_in_is_still_checked(self) -> None:
        assert self.piped(KUBEFLOW / "chief_worker_evaluator.yaml", "--allow-empty")[2:4] == (
            0,
            "4 nodes, 1 cluster: valid\n",
        )
        _, _, status, out, _ = self.piped(KUBEFLOW / "estimator_no_chief.yaml", "--allow-empty")
        assert status == 1
        assert 'it must have one "chief" node' in out
        assert "note:" not in out

    def test_an_empty_file_or_directory(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        empty = tmp_path / "nodes.jsonl"
        empty.write_text("")
        for given in (str(tmp_path), str(empty)):
            status, out, _ = run(capsys, "--allow-empty", given)
            assert (status, out) == (0, self.NOTE + "0 nodes, 0 clusters: valid\n")

    def test_json_and_github(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        status, out, _ = run(capsys, "--allow-empty", "--format", "json", str(tmp_path))
        document = json.loads(out)
        assert (status, document["valid"], document["findings"]) == (0, True, [])
        assert document["notes"] == [self.NOTE[len("note: ") : -1]]
        status, out, _ = run(capsys, "--allow-empty", "--format", "github", str(tmp_path))
        assert (status, out) == (0, f"::notice title=estconf note::{self.NOTE[6:]}")


@pytest.mark.parametrize(
    ("name", "where"),
    [
        ("surrogate_task_index.jsonl", "surrogate_task_index.jsonl:2: task.index: a string"),
        ("surrogate_address.jsonl", "surrogate_address.jsonl:1: cluster.worker[0]: a string"),
        ("surrogate_job_name.env", "surrogate_job_name.env:1:23: TF_CONFIG.cluster: a key"),
        ("surrogate_model_dir.jsonl", "surrogate_model_dir.jsonl:1: model_dir: a string"),
    ],
)
def test_a_lone_surrogate_in_a_node_makes_the_input_unreadable(name: str, where: str) -> None:
    path = Path(__file__).parent / "data" / "hostile" / name
    done = script(str(path))
    assert done.returncode == 2
    assert done.stderr == (
        f"{path.parent}/{where} holds \\ud800, half of a UTF-16 surrogate pair, "
        "which is not a character\n"
    )


class TestAddresses:
    """A task at port 0 is a warning, loopback hosts a note: both pass unless --strict."""

    PORT_ZERO = (
        "port_zero.jsonl:1, port_zero.jsonl:2, port_zero.jsonl:3: cluster.worker[0]: warning: "
        "'w0:0' has port 0, any free port: task worker:0 listens on a port chosen when it "
        "starts, which the other 2 tasks of the cluster cannot know\n"
        "hint: give the task a fixed port, e.g. 'w0:2222'\n"
        "3 nodes, 1 cluster: 1 finding (1 warning)\n"
    )

    def test_a_task_at_port_0(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert run(capsys, "port_zero.jsonl") == (0, self.PORT_ZERO, "")
        assert run(capsys, "--strict", "port_zero.jsonl") == (1, self.PORT_ZERO, "")

    def test_every_task_at_localhost(self, capsys: pytest.CaptureFixture[str]) -> None:
        expected = (
            "localhost.jsonl:1, localhost.jsonl:2, localhost.jsonl:3: cluster.chief[0]: note: "
            "every task of the cluster is at a loopback address ('localhost:2222', ...): the "
            "cluster works only when all its tasks run on the same machine\n"
            "hint: for tasks on several machines, give each task its machine's hostname or IP "
            "address\n"
            "3 nodes, 1 cluster: 1 finding (1 note)\n"
        )
        assert run(capsys, "localhost.jsonl") == (0, expected, "")
        assert run(capsys, "--strict", "localhost.jsonl") == (0, expected, "")

    def test_beside_an_error_the_error_fails(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "port_zero.jsonl", "good/chief.json")
        assert status == 1
        assert "cluster.worker[0]: warning: 'w0:0' has port 0" in out
        assert out.splitlines()[-1] == "4 nodes, 2 clusters: 4 findings (3 errors, 1 warning)"

    def test_json_and_github(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "--format", "json", "port_zero.jsonl")
        report = json.loads(out)
        [warning] = report["findings"]
        assert (status, report["valid"]) == (0, True)
        assert (warning["code"], warning["severity"]) == ("port_zero", "warning")
        assert warning["hint"] == "give the task a fixed port, e.g. 'w0:2222'"
        status, out, _ = run(capsys, "--format", "github", "localhost.jsonl")
        assert (status, out[: out.index("::", 2)]) == (
            0,
            "::notice file=localhost.jsonl,line=1,col=1,title=estconf loopback_address",
        )
