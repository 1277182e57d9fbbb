"""``estconf explain``: what each reader makes of a TF_CONFIG, on every kind of input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from estconf.cli import main
from estconf.cli._common import PROFILES
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


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse: usage errors
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def rows(out: str) -> dict[str, str]:
    """The text table as {first word: the rest of the line}."""
    lines = [line.split(maxsplit=1) for line in out.splitlines() if not line.startswith(" ")]
    return {key: value for key, value in lines}


def test_every_profile_of_the_library_is_a_choice_of_the_cli() -> None:
    assert tuple(profile.value for profile in Profile) == PROFILES


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

    def test_one_chief_is_a_cluster_of_one_task(self, capsys: pytest.CaptureFixture[str]) -> None:
        for profile in ("estimator", "mwms"):
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
