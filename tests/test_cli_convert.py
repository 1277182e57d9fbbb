"""``estconf convert tfjob-to-trainjob``: the command on real TFJob files, in and out of process."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from cli_main import run
from estconf.io.parse import stream_of

ROOT = Path(__file__).resolve().parents[1]
DATA = "tests/data/kubeflow"
ESTCONF = str(Path(sys.executable).with_name("estconf"))
CONVERT = ("convert", "tfjob-to-trainjob")


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def kinds(text: str) -> list[tuple[str, str]]:
    return [(d.data["kind"], d.data["metadata"]["name"]) for d in stream_of(text, "out")]


class TestConsoleScript:
    def test_the_manifests_on_stdout_pass_validate(self, tmp_path: Path) -> None:
        done = subprocess.run(
            [ESTCONF, *CONVERT, f"{DATA}/dist_mnist.yaml"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0
        assert kinds(done.stdout) == [("TrainingRuntime", "dist-mnist"), ("TrainJob", "dist-mnist")]
        assert done.stderr == (
            f"{DATA}/dist_mnist.yaml:32:15: spec.tfReplicaSpecs.Worker.template.spec."
            "containers[0].name: note: the tensorflow container of the trainer job is named "
            "node, as Trainer's runtime webhook demands\n"
        )
        out = tmp_path / "trainjob.yaml"
        out.write_text(done.stdout, encoding="utf-8")
        checked = subprocess.run(
            [ESTCONF, "validate", str(out)], capture_output=True, text=True, check=False
        )
        assert (checked.returncode, checked.stdout) == (0, "1 file valid\n")

    def test_standard_input_and_no_traceback_on_garbage(self) -> None:
        tfjob = (ROOT / DATA / "chief_worker_evaluator.yaml").read_bytes()
        done = subprocess.run(
            [ESTCONF, *CONVERT, "-", "--jobset"], input=tfjob, capture_output=True, check=False
        )
        assert done.returncode == 0
        assert kinds(done.stdout.decode()) == [("JobSet", "census")]
        done = subprocess.run(
            [ESTCONF, *CONVERT, "-"], input=b"\xff\xfe{[", capture_output=True, check=False
        )
        assert done.returncode == 1
        assert done.stdout == b""
        assert b"Traceback" not in done.stderr
        assert done.stderr.startswith(b"<stdin>")


class TestOptions:
    def test_jobset(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, *CONVERT, f"{DATA}/dist_mnist.yaml", "--jobset")
        assert status == 0
        assert kinds(out) == [("JobSet", "dist-mnist")]
        assert "trainer.kubeflow.org" not in out

    def test_runtime_name_and_namespace(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(
            capsys,
            *CONVERT,
            f"{DATA}/dist_mnist.yaml",
            "--runtime-name",
            "tf-ps",
            "--namespace",
            "research",
        )
        assert status == 0
        assert kinds(out) == [("TrainingRuntime", "tf-ps"), ("TrainJob", "dist-mnist")]
        assert out.count("namespace: research\n") == 2
        assert "name: tf-ps\n" in out
        assert "the TFJob's namespace 'ml' becomes 'research' (--namespace)" in err

    def test_output_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        target = tmp_path / "out.yaml"
        status, out, _ = run(capsys, *CONVERT, f"{DATA}/dist_mnist.yaml", "-o", str(target))
        assert (status, out) == (0, "")
        assert kinds(target.read_text(encoding="utf-8"))[0] == ("TrainingRuntime", "dist-mnist")

    def test_nothing_is_written_for_a_refused_tfjob(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        target = tmp_path / "out.yaml"
        status, out, err = run(capsys, *CONVERT, f"{DATA}/refused.yaml", "-o", str(target))
        assert (status, out) == (1, "")
        assert not target.exists()
        assert err.splitlines()[0] == (
            f"{DATA}/refused.yaml:4:1: refused: the TFJob is not converted: the operator would "
            "not run it as written (the 3 reasons follow)"
        )

    @pytest.mark.parametrize(
        ("argv", "said"),
        [
            (["--jobset", "--runtime-name", "x"], "--jobset writes none"),
            (["--namespace", "ML"], "'ML' is no namespace"),
            (["--runtime-name=-x"], "'-x' is no name of a Kubernetes object"),
        ],
    )
    def test_usage_errors(
        self, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
    ) -> None:
        status, out, err = run(capsys, *CONVERT, f"{DATA}/dist_mnist.yaml", *argv)
        assert (status, out) == (2, "")
        assert said in err

    def test_a_runtime_name_of_253_characters_and_a_namespace_of_63(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        longest = "r" * 253
        status, out, _ = run(
            capsys,
            *CONVERT,
            f"{DATA}/dist_mnist.yaml",
            "--runtime-name",
            longest,
            "--namespace",
            "n" * 63,
        )
        assert status == 0
        assert f"name: {longest}\n" in out
        for argv, said in [
            (["--runtime-name", longest + "a"], "is no name of a Kubernetes object"),
            (["--namespace", "n" * 64], "is no namespace"),
        ]:
            status, out, err = run(capsys, *CONVERT, f"{DATA}/dist_mnist.yaml", *argv)
            assert (status, out) == (2, "")
            assert said in err

    def test_a_conversion_must_be_named(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, "convert")
        assert (status, out) == (2, "")
        assert "the following arguments are required: CONVERSION" in err

    def test_a_cannot_write_output_is_a_usage_error(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        status, _, err = run(
            capsys, *CONVERT, f"{DATA}/dist_mnist.yaml", "-o", str(tmp_path / "no" / "x.yaml")
        )
        assert status == 2
        assert "cannot write -o" in err

    def test_help_lists_the_conversion(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "convert", "--help")
        assert status == 0
        assert "tfjob-to-trainjob" in out
        status, out, _ = run(capsys, *CONVERT, "--help")
        assert status == 0
        assert "exit status: 0 written, 1 the TFJob is refused" in out


class TestWhatIsSaid:
    def test_fields_dropped_and_changed_at_their_lines(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, _, err = run(capsys, *CONVERT, f"{DATA}/restart_exit_code.yaml")
        assert status == 0
        lines = [line for line in err.splitlines() if not line.startswith("hint: ")]
        assert lines[0] == (
            f"{DATA}/restart_exit_code.yaml:9:5: spec.runPolicy.cleanPodPolicy: warning: "
            "runPolicy.cleanPodPolicy is left out: neither a JobSet nor a TrainJob deletes "
            "pods when the job ends by a policy of its own"
        )
        assert sum("restartPolicy ExitCode" in line for line in lines) == 3

    def test_a_file_of_two_tfjobs_is_refused(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, *CONVERT, f"{DATA}/kubectl_get_list.yaml")
        assert (status, out) == (1, "")
        assert err.startswith(
            f"{DATA}/kubectl_get_list.yaml: refused: holds 2 TFJobs: convert one at a time\n"
        )

    def test_a_file_of_no_tfjob_is_refused(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, _, err = run(capsys, *CONVERT, "tests/data/launchers/jobset/runtime_ps.yaml")
        assert status == 1
        assert "holds no TFJob" in err


class TestHostileInput:
    def test_a_missing_file_and_a_helm_template_cannot_be_read(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, err = run(capsys, *CONVERT, "missing.yaml")
        assert (status, out) == (2, "")
        assert err.startswith("missing.yaml: ")
        assert run(capsys, *CONVERT, "tests/data/helm/mnist/templates/tfjob.yaml")[0] == 2

    def test_deep_huge_and_malformed_input(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        for text, said in [
            ("a: " + "[" * 10_000 + "]" * 10_000, "nested deeper than 64 levels"),
            ("kind: TFJob\napiVersion: kubeflow.org/v1\nmetadata: {name: [}\n", "invalid YAML"),
            ("x" * 200_000, "larger than the limit of 100000 bytes"),
        ]:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
            status, out, err = run(capsys, *CONVERT, "-", "--max-size", "100000")
            assert status in (1, 2)
            assert out == ""
            assert "Traceback" not in err
            assert said in err

    def test_a_billion_laughs(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = run(capsys, *CONVERT, "tests/data/hostile/tfjob_billion_laughs.yaml")
        assert (status, out) == (1, "")
        assert "YAML aliases" in err

    def test_a_million_replicas_is_refused_before_any_address_is_built(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, err = run(capsys, *CONVERT, f"{DATA}/int32_max_replicas.yaml")
        assert (status, out) == (1, "")
        assert "MAX_ARG_STRLEN" in err


def test_help_imports_no_model_and_no_yaml() -> None:
    code = (
        "import contextlib, io, sys\n"
        "from estconf.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['convert', 'tfjob-to-trainjob', '--help'])\n"
        "print(sorted({'pydantic', 'ruamel.yaml', 'estconf.convert'} & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"


def test_the_migrated_example_is_what_the_command_writes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, *CONVERT, f"{DATA}/migrate_mnist.yaml")
    assert status == 0
    migrated = ROOT / "tests/data/convert/migrated_mnist.yaml"
    assert out == migrated.read_text(encoding="utf-8")
