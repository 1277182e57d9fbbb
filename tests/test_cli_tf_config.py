"""``estconf tf-config`` from replica counts and from a TFJob.

The addresses are those Kubeflow's training operator (v1.9.0) gives a TFJob's
pods: ``<job>-<type>-<index>.<namespace>.svc:<port>``, from
``pkg/controller.v1/tensorflow/tensorflow.go`` (``genClusterSpec``), the rule
``estconf.kubeflow.predict`` holds and cites.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from estconf.cli import main
from estconf.launchers import LAUNCHERS, Entry
from estconf.profiles import check_profile

ROOT = Path(__file__).resolve().parents[1]
ESTCONF = Path(sys.executable).with_name("estconf")
JOBSET = "tests/data/launchers/jobset"
VOLCANO = "tests/data/launchers/volcano/dist-mnist.yaml"

SMALL = (
    '{"cluster":{"chief":["mnist-chief-0.ml.svc:2222"],"ps":["mnist-ps-0.ml.svc:2222"],'
    '"worker":["mnist-worker-0.ml.svc:2222","mnist-worker-1.ml.svc:2222"]},'
    '"task":{"type":"%s","index":%d},"environment":"cloud"}'
)


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def run(*argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    """``estconf`` in-process, with ``stdin`` as standard input."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(argv))
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def _formats() -> tuple[str, ...]:
    """The choices of ``--format``, as ``estconf tf-config cluster --help`` lists them."""
    import re

    _, out, _ = run("tf-config", "cluster", "--help")
    found = re.search(r"--format \{([a-z0-9,]+)\}", out)
    assert found is not None
    return tuple(found[1].split(","))


FORMATS = _formats()


JOB = ("tf-config", "--job", "mnist", "--namespace", "ml", "--chief", "1", "--worker", "2")


class TestFromReplicaCounts:
    def test_a_small_job_pinned(self) -> None:
        status, out, err = run(*JOB, "--ps", "1")
        assert (status, err) == (0, "")
        assert out == "".join(
            SMALL % task + "\n" for task in [("chief", 0), ("worker", 0), ("worker", 1), ("ps", 0)]
        )

    def test_json_is_jsonl(self) -> None:
        assert run(*JOB, "--format", "json") == run(*JOB, "--format", "jsonl")

    def test_env_shell_and_k8s(self) -> None:
        tf_config = json.loads(run(*JOB, "--task", "worker:1")[1])
        text = json.dumps(tf_config, separators=(",", ":"))
        assert run(*JOB, "--task", "worker:1", "--format", "env")[1] == (
            f"# worker:1\nTF_CONFIG={text}\n"
        )
        assert run(*JOB, "--task", "worker:1", "--format", "shell")[1] == (
            f"# worker:1\nexport TF_CONFIG='{text}'\n"
        )
        k8s = run(*JOB, "--format", "k8s")[1]
        assert k8s.count("---\n") == 2
        assert k8s.endswith(f"# worker:1\nenv:\n  - name: TF_CONFIG\n    value: '{text}'\n")

    def test_cluster_domain_and_port(self) -> None:
        out = run(*JOB, "--port", "2000", "--cluster-domain", "cluster.local")[1]
        assert json.loads(out.splitlines()[0])["cluster"]["chief"] == [
            "mnist-chief-0.ml.svc.cluster.local:2000"
        ]

    def test_out_dir(self, tmp_path: Path) -> None:
        status, out, _ = run(*JOB, "--out-dir", str(tmp_path / "out"))
        names = ["chief-0.json", "worker-0.json", "worker-1.json"]
        assert (status, out) == (0, "".join(f"{tmp_path / 'out' / n}\n" for n in names))
        assert sorted(p.name for p in (tmp_path / "out").iterdir()) == names
        text = (tmp_path / "out" / "worker-1.json").read_text()
        assert text == (
            '{"cluster":{"chief":["mnist-chief-0.ml.svc:2222"],"worker":["mnist-worker-0.ml.svc:'
            '2222","mnist-worker-1.ml.svc:2222"]},"task":{"type":"worker","index":1},'
            '"environment":"cloud"}\n'
        )
        assert run("validate", str(tmp_path / "out" / "worker-1.json"))[0] == 0
        assert run("check-cluster", str(tmp_path / "out"))[1] == "3 nodes, 1 cluster: valid\n"
        run(*JOB, "--format", "env", "--out-dir", str(tmp_path / "env"))
        assert (tmp_path / "env" / "chief-0.env").read_text().startswith('TF_CONFIG={"cluster"')

    def test_workers_alone_need_mwms(self) -> None:
        argv = ("tf-config", "--job", "mnist", "--worker", "2")
        status, out, err = run(*argv)
        assert (status, out) == (1, "")
        assert err == (
            '--job mnist (worker:0): cluster: If "cluster" is set in TF_CONFIG, it must have one '
            '"chief" node. Fix: move task worker:0 into a job "chief" of its own. (this cluster is '
            "valid for --profile mwms or --profile server)\n1 error in 1 of 1 file\n"
        )
        assert run(*argv, "--profile", "mwms")[0] == 0
        status, _, err = run(*argv, "--ps", "1", "--profile", "mwms")
        assert status == 1
        assert "cluster.ps[0]: task ps:0 of this cluster: There is no id for task_type 'ps'" in err

    def test_one_replica_gets_no_tf_config(self) -> None:
        assert run("tf-config", "--job", "mnist", "--chief", "1") == (
            0,
            "",
            "the job has one replica in all: the operator gives its pod no TF_CONFIG "
            "(TensorFlow runs it alone)\n",
        )

    def test_a_name_the_operator_refuses(self) -> None:
        status, _, err = run("tf-config", "--job", "My_Job", "--chief", "1", "--worker", "1")
        assert status == 1
        assert err.startswith("--job My_Job: the operator's admission webhook refuses the TFJob")

    def test_usage_errors(self) -> None:
        assert run("tf-config")[0] == 2
        assert run("tf-config", "--job", "mnist")[0] == 2
        assert run("tf-config", "examples/cluster/training.yaml", "--worker", "2") == (
            2,
            "",
            "estconf tf-config: error: replica counts (--chief, --worker, ...) go with --job\n",
        )
        assert run("tf-config", "--job", "mnist", "--worker", "-1")[0] == 2
        assert run("tf-config", "--job", "mnist", "--worker", "1", "--port", "70000")[0] == 2


class TestFromATFJob:
    def test_predicts_even_what_a_profile_refuses(self) -> None:
        path = "tests/data/kubeflow/estimator_no_chief.yaml"
        status, out, _ = run("tf-config", "--tfjob", path)
        assert status == 0
        lines = out.splitlines()
        assert [json.loads(line)["task"] for line in lines][:2] == [
            {"type": "ps", "index": 0},
            {"type": "worker", "index": 0},
        ]
        assert run("check-cluster", "-", stdin=out.encode())[0] == 1
        assert run("check-cluster", "--profile", "ps", "-", stdin=out.encode())[0] == 0

    def test_stdin_and_generate_name(self) -> None:
        manifest = (ROOT / "tests/data/kubeflow/generate_name.yaml").read_bytes()
        status, _, err = run("tf-config", "--tfjob", "-", stdin=manifest)
        assert status == 2
        assert err.endswith(
            "<stdin>: the TFJob has only generateName 'sweep-': the API server picks its name "
            "when the job is created (sweep-xxxxx); give the name it got with --name NAME "
            "(kubectl get tfjobs lists it)\n"
        )
        status, out, _ = run(
            "tf-config",
            "--tfjob",
            "-",
            "--name",
            "sweep-x1",
            stdin=manifest,
        )
        assert status == 0
        assert "sweep-x1-" in out

    @pytest.mark.parametrize(
        ("name", "version", "pods"),
        [
            ("dist_mnist_v1alpha2.yaml", "v1alpha2", 6),
            ("dist_mnist_v1beta1.yaml", "v1beta1", 6),
            ("v1beta2.yaml", "v1beta2", 4),
        ],
    )
    def test_an_earlier_api_version_is_predicted_as_v1_with_a_note(
        self, name: str, version: str, pods: int
    ) -> None:
        path = f"tests/data/kubeflow/{name}"
        status, out, err = run("tf-config", "--tfjob", path)
        assert status == 0
        assert err == (
            f"{path}: apiVersion: note: kubectl apply refuses a TFJob of kubeflow.org/{version} "
            "(the operator serves kubeflow.org/v1 only); these are the TF_CONFIGs of the same "
            "job as kubeflow.org/v1\nhint: write apiVersion: kubeflow.org/v1\n"
        )
        with_v1 = (ROOT / path).read_text().replace(f"kubeflow.org/{version}", "kubeflow.org/v1")
        assert run("tf-config", "--tfjob", "-", stdin=with_v1.encode()) == (0, out, "")
        assert len(out.splitlines()) == pods

    @pytest.mark.parametrize("fmt", FORMATS)
    @pytest.mark.parametrize("out_dir", [False, True])
    def test_the_size_worked_out_is_the_size_written(
        self, tmp_path: Path, fmt: str, out_dir: bool
    ) -> None:
        # a namespace with a quote: the shell and YAML quotings add bytes for it
        manifest = (ROOT / "tests/data/kubeflow/dist_mnist.yaml").read_text()
        manifest = manifest.replace("namespace: ml", 'namespace: "o\'k"', 1)
        path = tmp_path / "job.yaml"
        path.write_text(manifest)
        argv = ["tf-config", "--tfjob", str(path), "--format", fmt]
        if out_dir:
            argv += ["--out-dir", str(tmp_path / "out")]
        status, out, err = run(*argv)
        if out_dir and fmt == "pods":  # one stream of JSON lines, never a file per pod
            assert (status, out) == (2, "")
            assert "--format pods writes one stream of JSON lines" in err
            return
        assert status == 0
        written = (
            sum(len(p.read_bytes()) for p in (tmp_path / "out").iterdir())
            if out_dir
            else len(out.encode())
        )
        assert "'" in out or out_dir
        # the size worked out before writing is the size written, to the byte
        assert run(*argv, "--max-size", str(written))[0] == 0
        status, _, err = run(*argv, "--max-size", str(written - 1))
        assert status == 2
        assert f"would take {written:,} bytes, more than --max-size {written - 1:,}" in err

    def test_output_larger_than_max_size_is_refused_before_writing(self) -> None:
        path = "tests/data/kubeflow/dist_mnist.yaml"
        status, out, _ = run("tf-config", "--tfjob", path)
        size = len(out.encode())
        assert run("tf-config", "--tfjob", path, "--max-size", str(size)) == (0, out, "")
        status, out, err = run("tf-config", "--tfjob", path, "--max-size", str(size - 1))
        assert (status, out) == (2, "")
        assert f"the TF_CONFIGs of its 5 pods would take {size:,} bytes, more than " in err
        assert f"--max-size {size - 1:,}\nhint: " in err

    def test_a_million_replicas_are_refused_with_the_size_they_would_take(self) -> None:
        path = "tests/data/kubeflow/million_replicas.yaml"
        started = time.perf_counter()
        status, out, err = run("tf-config", "--tfjob", path)
        assert time.perf_counter() - started < 2
        assert (status, out) == (2, "")
        assert err.endswith(
            f"{path}: the TF_CONFIGs of its 1,065,535 pods would take 41,738,712,683,780 bytes, "
            "more than --max-size 67,108,864\n"
            "hint: each pod's TF_CONFIG lists every pod's address, so the output grows as the "
            "square of the pods: give a larger --max-size BYTES, or --task TYPE:INDEX for one "
            "pod\n"
        )
        status, out, err = run("tf-config", "--job", "big", "--chief", "1", "--worker", "100000")
        assert (status, out) == (2, "")
        assert "the TF_CONFIGs of its 100,001 pods would take " in err

    @pytest.mark.parametrize(
        ("argv", "status", "where"),
        [
            (["tf-config", "--tfjob", "tests/data/kubeflow/int32_max_replicas.yaml"], 1, ""),
            (["tf-config", "--job", "big", "--chief", "1", "--worker", str(2**31 - 1)], 2, "big"),
            (["explain", "--tf-config", "tests/data/kubeflow/int32_max_replicas.yaml"], 2, ""),
        ],
    )
    def test_a_cluster_too_large_to_build_is_refused_whatever_max_size(
        self, argv: list[str], status: int, where: str
    ) -> None:
        """A larger --max-size lets one pod's TF_CONFIG through, not 2**31 addresses."""
        started = time.perf_counter()
        found = run(*argv, "--max-size", str(10**30), "--task", "worker:0")
        assert time.perf_counter() - started < 2
        assert found[:2] == (status, "")
        assert "the TFJob's cluster has 2,147,483,648 pods, more than the 100,000" in found[2]
        assert where in found[2]

    def test_one_task_of_a_large_job(self) -> None:
        argv = ("tf-config", "--job", "big", "--chief", "1", "--worker", "3000")
        status, out, _ = run(*argv, "--task", "worker:2999", "--max-size", "200000")
        assert status == 0
        [line] = out.splitlines()
        assert json.loads(line)["task"] == {"type": "worker", "index": 2999}
        assert len(json.loads(line)["cluster"]["worker"]) == 3000

    def test_a_file_that_is_not_a_manifest(self) -> None:
        assert run("tf-config", "--tfjob", "examples/run_config.yaml")[0] == 1
        assert run("tf-config", "--tfjob", "missing.yaml")[0] == 1

    def test_a_manifest_given_as_the_cluster_file_is_named_for_what_it_is(
        self, tmp_path: Path
    ) -> None:
        path = "tests/data/kubeflow/dist_mnist.yaml"
        status, out, err = run("tf-config", path, "--task", "worker:0")
        assert (status, out) == (2, "")
        assert f"{path} is a Kubeflow TFJob manifest: give it as --tfjob {path}" in err
        pod = tmp_path / "pod.yaml"
        pod.write_text("apiVersion: v1\nkind: Pod\nspec: {}\n", encoding="utf-8")
        assert run("tf-config", str(pod)) == (
            1,
            "",
            f"{pod}: a Kubernetes Pod manifest (apiVersion: v1), not a cluster file\n",
        )


class TestOtherProfiles:
    """A cluster file the Estimator refuses names the profiles that read it."""

    def test_a_cluster_of_workers_names_mwms_and_the_server(self, tmp_path: Path) -> None:
        path = tmp_path / "cluster.json"
        path.write_text(json.dumps({"worker": ["w0:2222", "w1:2222"]}))
        status, out, err = run("tf-config", str(path))
        assert (status, out) == (1, "")
        assert err.splitlines()[-1] == (
            "hint: tf.estimator refuses this cluster; --profile mwms or --profile server "
            "reads it, if that is the reader"
        )

    def test_profile_estimator_given_is_the_default_profile(self, tmp_path: Path) -> None:
        """An explicit --profile estimator says what no --profile says: one error, the hint.

        The console script is run, so that the profile is a string of the command line.
        """
        path = tmp_path / "cluster.json"
        path.write_text(json.dumps({"worker": ["w0:2222", "w1:2222"]}))
        said = [
            subprocess.run(
                [str(ESTCONF), "tf-config", str(path), *profile],
                capture_output=True,
                text=True,
                check=False,
            )
            for profile in ((), ("--profile", "estimator"))
        ]
        assert [(done.returncode, done.stdout, done.stderr) for done in said] == [
            (1, "", said[0].stderr)
        ] * 2
        assert said[0].stderr == (
            f'{path} (worker:0): cluster: If "cluster" is set in TF_CONFIG, it must have one '
            '"chief" node. Fix: move task worker:0 into a job "chief" of its own. (this cluster '
            "is valid for --profile mwms or --profile server)\n"
            "1 error in 1 of 1 file\n"
            "hint: tf.estimator refuses this cluster; --profile mwms or --profile server "
            "reads it, if that is the reader\n"
        )

    def test_a_cluster_with_more_than_a_hundred_errors_is_not_read_again(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Each profile would read every one of its tasks again: thousands cost seconds."""
        from estconf import profiles

        read: list[object] = []

        def other_readers(*args: object) -> list[str]:
            read.append(args)
            return []

        monkeypatch.setattr(profiles, "other_readers", other_readers)
        path = tmp_path / "cluster.json"
        path.write_text(json.dumps({"worker": [1] * 101}))
        status, out, err = run("tf-config", str(path))
        assert (status, out, read) == (1, "", [])
        assert "worker[100]: Task address 1 must be bytes or unicode" in err
        path.write_text(json.dumps({"worker": [1] * 100}))
        assert run("tf-config", str(path))[0] == 1
        assert len(read) == 1


class TestConsoleScript:
    def test_piped_into_check_cluster(self) -> None:
        generate = subprocess.run(
            [str(ESTCONF), *JOB, "--ps", "2", "--evaluator", "1"],
            capture_output=True,
            check=True,
        )
        check = subprocess.run(
            [str(ESTCONF), "check-cluster", "-"],
            input=generate.stdout,
            capture_output=True,
            check=False,
        )
        assert (check.returncode, check.stdout) == (0, b"6 nodes, 1 cluster: valid\n")


@st.composite
def replicas(draw: st.DrawFn) -> tuple[str, dict[str, int]]:
    """A profile and replica counts it reads, two replicas or more in all."""
    profile = draw(st.sampled_from(["estimator", "mwms", "ps"]))
    evaluator = draw(st.integers(0, 1))
    if profile == "mwms":
        chief = draw(st.integers(0, 1))
        counts = {"chief": chief, "worker": draw(st.integers(1 - chief, 5)), "ps": 0}
    else:
        least = 1 if profile == "ps" else 0
        counts = {
            "chief": 1,
            "worker": draw(st.integers(least, 5)),
            "ps": draw(st.integers(least, 3)),
        }
    counts["evaluator"] = evaluator
    if sum(counts.values()) < 2:
        counts["worker"] += 1
    return profile, counts


class TestProperty:
    @settings(max_examples=25, deadline=None)
    @given(case=replicas())
    def test_what_it_writes_passes_check_cluster_and_each_node_its_profile(
        self, case: tuple[str, dict[str, int]]
    ) -> None:
        profile, counts = case
        argv = ["tf-config", "--job", "job", "--profile", profile, "--format", "jsonl"]
        for replica_type, count in counts.items():
            argv += [f"--{replica_type}", str(count)]
        status, out, err = run(*argv)
        assert status == 0, err
        lines = out.splitlines()
        assert len(lines) == sum(counts.values())
        checked = run("check-cluster", "--profile", profile, "-", stdin=out.encode())
        assert checked[:2] == (0, f"{len(lines)} nodes, 1 cluster: valid\n"), checked
        for line in lines:
            check_profile(json.loads(line), profile)


class TestUnreadableInput:
    """A file that cannot be read is exit status 2 in every command, as in ``validate``."""

    @pytest.mark.parametrize(
        "argv",
        [
            ("tf-config", "missing.json"),
            ("explain", "--tf-config", "missing.json"),
            ("explain", "--readers", "--tf-config", "missing.json"),
        ],
    )
    def test_a_missing_file_is_exit_2(self, argv: tuple[str, ...], tmp_path: Path) -> None:
        status, out, err = run(*argv[:-1], str(tmp_path / argv[-1]))
        assert (status, out) == (2, "")
        assert "missing.json: no such file" in err


@pytest.mark.parametrize(
    "argv",
    [
        ("--job", b"\xff", "--worker", "2"),
        ("--job", "a", "--worker", "2", "--namespace", b"\xff"),
        ("--job", "a", "--worker", "2", "--cluster-domain", b"x\xff"),
        ("--job", "a", "--worker", "2", "--task", b"\xff:0"),
        ("--tfjob", "tests/data/kubeflow/multi_worker.yaml", "--name", b"\xfe"),
        ("--vertex", "tests/data/launchers/vertex/distributed.yaml", "--job-id", b"\xff"),
    ],
)
def test_a_text_option_that_is_not_utf8_is_refused_with_its_byte(
    argv: tuple[str | bytes, ...],
) -> None:
    root = Path(__file__).resolve().parents[1]
    estconf = Path(sys.executable).with_name("estconf")
    done = subprocess.run([estconf, "tf-config", *argv], capture_output=True, check=False, cwd=root)
    assert (done.returncode, done.stdout) == (2, b"")
    assert b" is not UTF-8 text: byte 0x" in done.stderr
    assert b"Traceback" not in done.stderr


@pytest.mark.parametrize("given", ["2147483648", "4294967296", "9" * 5000])
def test_a_replica_count_past_an_int32_is_a_usage_error(given: str) -> None:
    status, out, err = run("tf-config", "--job", "mnist", "--master", given)
    assert (status, out) == (2, "")
    said = "--master: expected a number of replicas, from 0 to 2147483647 (an int32), not"
    assert f"{said} '{given[:60]}'" in err
    assert "internal error" not in err


def test_the_largest_replica_count_is_refused_by_its_size_alone() -> None:
    status, out, err = run("tf-config", "--job", "mnist", "--worker", "2147483647")
    assert (status, out) == (2, "")
    assert "the TF_CONFIGs of its 2,147,483,647 pods would take" in err


ARGS = sorted((ROOT / "tests" / "data" / "launchers" / "args").glob("*.args"))
_OLDER = {"--slurm": "slurm", "--sagemaker": "sagemaker"}
_OLDER_WITH_VALUE = {
    "--job": "job",
    "--tfjob": "tfjob",
    "--jobset": "jobset",
    "--trainjob": "trainjob",
    "--vertex": "vertex",
    "--volcano": "volcano",
}


def newer(older: list[str]) -> list[str]:
    """The older command line ``older`` in the spelling ``tf-config LAUNCHER ...``."""
    for index, word in enumerate(older):
        if word in _OLDER:
            return [_OLDER[word], *older[:index], *older[index + 1 :]]
        if word in _OLDER_WITH_VALUE:
            rest = older[:index] + older[index + 2 :]
            return [_OLDER_WITH_VALUE[word], older[index + 1], *rest]
    return ["cluster", *older]


def console(*argv: str) -> tuple[int, bytes, bytes]:
    done = subprocess.run([str(ESTCONF), "tf-config", *argv], capture_output=True, cwd=ROOT)
    return done.returncode, done.stdout, done.stderr


class TestEachLauncherByName:
    """``tf-config LAUNCHER ...`` is the older ``tf-config --LAUNCHER ...``, byte for byte."""

    @pytest.mark.parametrize("path", ARGS, ids=lambda path: path.stem)
    def test_a_launcher_named_first_gives_what_its_option_gives(self, path: Path) -> None:
        text = path.read_text(encoding="utf-8").replace("{ROOT}", str(ROOT))
        older = text.splitlines()
        assert newer(older)[0] != older[0]
        assert console(*newer(older)) == console(*older)

    @pytest.mark.parametrize(
        "older",
        [
            ["examples/cluster/training.yaml", "--task", "worker:1", "--format", "shell"],
            ["examples/cluster/training.yaml", "--profile", "mwms"],
            ["examples/broken/tf_config.json"],
            ["--job", "mnist", "--worker", "2"],
            ["--tfjob", "tests/data/kubeflow/generate_name.yaml"],
            ["--tfjob", "tests/data/kubeflow/refused.yaml"],
            ["--vertex", "missing.yaml"],
            ["no/such/cluster.json"],
            ["--sagemaker", "--instance-count", "1", "--distribution", "parameter_server"],
            ["--slurm", "--nodelist", "b,a", "--tasks-per-node", "1"],
        ],
    )
    def test_the_two_spellings_agree_on_these_too(self, older: list[str]) -> None:
        assert console(*newer(older)) == console(*older)

    def test_the_tfjob_of_a_manifest(self) -> None:
        manifest = "tests/data/kubeflow/dist_mnist.yaml"
        assert console("tfjob", manifest) == console("--tfjob", manifest)
        assert console("tfjob", manifest)[1].count(b"\n") == 5

    def test_a_cluster_file_is_the_launcher_cluster(self, tmp_path: Path) -> None:
        assert console("cluster", "examples/cluster/training.yaml")[1].count(b"\n") == 5

    def test_help_names_each_launcher_in_one_line(self) -> None:
        status, out, _ = console("--help")
        text = out.decode()
        assert status == 0
        for entry in LAUNCHERS:
            assert f"    {entry.name}" in text
            assert " ".join(entry.summary.split()) in " ".join(text.split())
        assert text.startswith("usage: estconf tf-config [-h] LAUNCHER ...\n")
        assert re.findall(r"^  (-[-a-z]+)", text, re.MULTILINE) == ["-h"]

    @pytest.mark.parametrize("entry", LAUNCHERS, ids=lambda entry: entry.name)
    def test_a_launchers_help_lists_its_options_only(self, entry: Entry) -> None:
        status, out, _ = console(entry.name, "--help")
        options = set(re.findall(r"^  (--[a-z][-a-z]+)", out.decode(), re.MULTILINE))
        own = {
            "cluster": {"--task", "--profile"},
            "job": {"--namespace", "--port", "--chief", "--master", "--worker", "--ps"}
            | {"--evaluator", "--cluster-domain", "--task", "--profile"},
            "tfjob": {"--name", "--cluster-domain", "--task"},
            "jobset": {"--name", "--task"},
            "trainjob": {"--name", "--task"},
            "slurm": {"--nodelist", "--tasks-per-node", "--from-env", "--jobs", "--port-base"}
            | {"--gpus-per-node", "--rank", "--write", "--sbatch", "--gpus-per-task"},
            "sagemaker": {"--instance-count", "--instance-groups", "--instance-type"}
            | {"--distribution", "--distribution-groups", "--resource-config"}
            | {"--hyperparameters", "--profile"},
            "vertex": {"--cluster-spec", "--job-id", "--trial", "--task", "--profile"},
            "volcano": {"--job-name", "--task", "--profile"},
        }[entry.name]
        shared = {"--format", "--out-dir", "--max-size", "--max-depth"}
        shared |= {"--max-values", "--max-documents"}
        assert status == 0
        assert options == own | shared
        assert out.decode().endswith(f"example:\n  {entry.example}\n")

    @pytest.mark.parametrize("name", [*(entry.name for entry in LAUNCHERS), None])
    def test_every_option_in_help_names_its_value_and_says_what_it_does(
        self, name: str | None, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Each launcher's own options, and every option of the older command line.

        The parser is the one ``main`` builds, caught where it writes its help
        (``tf-config NAME --help``) or its usage error (``tf-config --volcano``).
        """
        caught: list[argparse.ArgumentParser] = []

        def catch(parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
            caught.append(parser)
            raise SystemExit(0)

        monkeypatch.setattr(argparse.ArgumentParser, "print_help", catch)
        monkeypatch.setattr(argparse.ArgumentParser, "print_usage", catch)
        with contextlib.suppress(SystemExit):
            main(["tf-config", name, "--help"] if name else ["tf-config", "--volcano"])
        (parser,) = caught
        assert parser.prog == (f"estconf tf-config {name}" if name else "estconf tf-config")
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, action.dest
            if action.nargs != 0:
                assert action.metavar or action.choices, action.dest

    def test_a_launchers_options_go_with_it_alone(self) -> None:
        status, _, err = console("slurm", "--instance-count", "2")
        assert (status, err.decode().splitlines()[-1]) == (
            2,
            "estconf tf-config slurm: error: unrecognized arguments: --instance-count 2",
        )

    def test_a_cluster_domain_with_a_cluster_file_is_refused(self) -> None:
        status, _, err = console("examples/cluster/training.yaml", "--cluster-domain", "x")
        assert (status, err.decode().splitlines()[-1]) == (
            2,
            "estconf tf-config: error: --cluster-domain goes with --job or --tfjob",
        )

    @pytest.mark.parametrize(
        ("older", "said"),
        [
            (["--worker", "2"], "replica counts (--chief, --worker, ...) go with --job"),
            (["--name", "x"], "--name goes with --tfjob"),
            (["--nodelist", "a"], "--nodelist goes with --slurm"),
            (["--instance-count", "2"], "--instance-count goes with --sagemaker"),
            (["--job-id", "x"], "--job-id goes with --vertex"),
            (
                ["--slurm", "--sagemaker"],
                "give one of CLUSTER_FILE, --job NAME, --tfjob FILE, --jobset FILE, "
                "--trainjob FILE, --slurm, --sagemaker, --vertex or --volcano FILE",
            ),
        ],
    )
    def test_an_option_without_its_launcher_names_the_launcher(
        self, older: list[str], said: str
    ) -> None:
        status, _, err = console(*older)
        assert (status, err.decode()) == (2, f"estconf tf-config: error: {said}\n")


class TestUsageInProcess:
    """The launchers' own checks of their options, run in this process."""

    def test_a_cluster_domain_goes_with_a_tfjob_not_a_cluster_file(self) -> None:
        status, _, err = run("tf-config", "examples/cluster/training.yaml", "--cluster-domain", "x")
        assert (status, err.splitlines()[-1]) == (
            2,
            "estconf tf-config: error: --cluster-domain goes with --job or --tfjob",
        )

    def test_a_cluster_json_cannot_hold_is_refused(self, tmp_path: Path) -> None:
        path = tmp_path / "dated.yaml"
        path.write_text('cluster:\n  chief: ["c:1"]\nmodel_dir: 2024-01-01\n', encoding="utf-8")
        status, out, err = run("tf-config", "cluster", str(path))
        assert (status, out) == (1, "")
        assert err == (
            f"{path}: a TF_CONFIG is JSON, which cannot hold this: "
            "Object of type date is not JSON serializable\n"
        )

    @pytest.mark.parametrize(
        ("argv", "missing", "present"),
        [
            (["job", "m", "--chief", "1", "--worker", "2"], "evaluator:0", "chief:0"),
            (["job", "m", "--chief", "1", "--worker", "2"], "worker:2", "worker:1"),
            (["tfjob", "tests/data/kubeflow/dist_mnist.yaml"], "worker:7", "worker:1"),
            (["jobset", f"{JOBSET}/chief_worker_ps.yaml"], "worker:70", "ps:0"),
            (["trainjob", f"{JOBSET}/trainjob_with_runtime.yaml"], "worker:70", "worker:0"),
            (["vertex", "tests/data/launchers/vertex/distributed.yaml"], "worker:70", "worker:0"),
            (["volcano", VOLCANO, "--profile", "server"], "worker:2", "worker:1"),
            (["--tfjob", "tests/data/kubeflow/dist_mnist.yaml"], "worker:7", "worker:1"),
        ],
        ids=lambda value: value[0] if isinstance(value, list) else value,
    )
    @pytest.mark.parametrize("fmt", ["jsonl", "pods"])
    def test_a_task_no_pod_runs_is_refused(
        self, argv: list[str], missing: str, present: str, fmt: str
    ) -> None:
        """Nothing written and exit 0 would pass for a TF_CONFIG in a script."""
        status, out, err = run("tf-config", *argv, "--task", missing, "--format", fmt)
        assert (status, out) == (2, "")
        assert err.splitlines()[-2:] == [
            f"estconf tf-config: error: --task {missing}: no pod of the job runs this task",
            "hint: give a task the job has: --format pods, without --task, lists every pod",
        ]
        status, out, _ = run("tf-config", *argv, "--task", present, "--format", fmt)
        assert (status, out.count("\n")) == (0, 1)

    def test_a_task_of_a_job_that_cannot_be_predicted_is_not_said_missing(self) -> None:
        """What stopped the prediction is said, not that no pod runs the task."""
        trainjob = f"{JOBSET}/trainjob_ps.yaml"  # its runtime is in no file read
        status, out, err = run("tf-config", "trainjob", trainjob, "--task", "worker:0")
        assert (status, out) == (2, "")
        assert "its runtime, TrainingRuntime 'tensorflow-ps', is in no file read" in err
        assert "--task" not in err
        status, out, err = run("tf-config", "tfjob", "missing.yaml", "--task", "worker:0")
        assert (status, out, err) == (1, "", "missing.yaml: no such file\n1 error in 1 of 1 file\n")

    def test_a_pod_of_the_task_that_gets_no_tf_config_is_no_usage_error(self) -> None:
        argv = ("tf-config", "volcano", "tests/data/launchers/volcano/single.yaml")
        status, out, err = run(*argv, "--task", "worker:0")
        assert (status, out) == (0, "")
        assert "gives its pod no TF_CONFIG" in err
        assert run(*argv, "--task", "worker:0", "--format", "pods")[1] == (
            '{"pod": "mnist-local-worker-0", "TF_CONFIG": null}\n'
        )

    @pytest.mark.parametrize(
        ("argv", "said"),
        [
            (["sagemaker", "--instance-groups", "=2"], "expected NAME=N,NAME=N"),
            (["slurm", "--jobs", "=3"], "expected JOB=N,JOB=N"),
        ],
    )
    def test_a_job_without_its_name_is_refused(self, argv: list[str], said: str) -> None:
        status, _, err = run("tf-config", *argv)
        assert status == 2
        assert said in err

    def test_a_name_with_replica_counts_is_refused_as_it_goes_with_a_tfjob(self) -> None:
        """``--name`` names the TFJob of a manifest: with ``--job``, the older spelling, exit 2."""
        argv = ("tf-config", "--job", "mnist", "--chief", "1", "--worker", "2")
        assert run(*argv)[0] == 0
        assert run(*argv, "--name", "x") == (
            2,
            "",
            "estconf tf-config: error: --name goes with --tfjob\n",
        )

    def test_a_cluster_file_that_cannot_be_read_ends_with_the_count_of_its_errors(
        self, tmp_path: Path
    ) -> None:
        """As ``validate`` says it: each error, then how many in how many files."""
        path = tmp_path / "cluster.json"
        path.write_text('{"chief": ["c:1"] "worker": ["w:1"]}', encoding="utf-8")
        assert run("tf-config", "cluster", str(path)) == (
            1,
            "",
            f"{path}:1:19: invalid JSON: Expecting ',' delimiter\n1 error in 1 of 1 file\n",
        )
        missing = tmp_path / "missing.json"
        assert run("tf-config", "cluster", str(missing)) == (
            2,
            "",
            f"{missing}: no such file\n1 error in 1 of 1 file\n",
        )

    def test_the_vertex_outputs_size_is_worked_out_before_it_is_written(self) -> None:
        from estconf.vertex import tf_configs

        spec_path = "tests/data/launchers/vertex/custom-job.json"
        spec = json.loads((ROOT / spec_path).read_text(encoding="utf-8"))
        replicas = tf_configs(spec)
        one = json.dumps(next(iter(replicas.values())), separators=(",", ":"))
        total = len(replicas) * (len(one.encode()) + 1)
        assert run("tf-config", "vertex", spec_path, "--max-size", str(total))[0] == 0
        status, _, err = run("tf-config", "vertex", spec_path, "--max-size", str(total - 1))
        assert status == 2
        assert f"would take about {total:,} bytes" in err
