"""estconf tf-config --sagemaker: each host's TF_CONFIG from SageMaker's toolkit, and its traps."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli_main import run
from estconf import sagemaker

DATA = Path(__file__).parent / "data" / "launchers" / "sagemaker"
HETERO = [str(DATA / f"heterogeneous_algo-{i}.resourceconfig.json") for i in (1, 2, 3)]


def lines(text: str) -> list[object]:
    return [json.loads(line) for line in text.splitlines()]


def test_parameter_server_mode_writes_the_master_job(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys,
        "tf-config", "--sagemaker", "--instance-count", "3",
        "--distribution", "parameter_server", "--format", "jsonl",
    )  # fmt: skip
    assert (status, err) == (0, "")
    assert lines(out) == lines((DATA / "ps.jsonl").read_text(encoding="utf-8"))


def test_piped_into_check_cluster_mwms_refuses_the_master_job(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, out, _ = run(
        capsys,
        "tf-config", "--sagemaker", "--instance-count", "3",
        "--distribution", "parameter_server", "--format", "jsonl",
    )  # fmt: skip
    nodes = tmp_path / "nodes.jsonl"
    nodes.write_text(out, encoding="utf-8")
    status, report, _ = run(capsys, "check-cluster", "--profile", "mwms", str(nodes))
    assert status == 1
    assert "cluster.master: Disallowed task type found in cluster spec." in report


def test_labels_name_the_host_and_its_ps_server(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys,
        "tf-config", "--sagemaker", "--instance-count", "2",
        "--distribution", "parameter_server", "--format", "env",
    )  # fmt: skip
    assert status == 0
    assert out.splitlines()[0::2] == [
        "# algo-1: master:0, ps server ps:0 at algo-1:2223",
        "# algo-2: worker:0, ps server ps:1 at algo-2:2223",
    ]


def test_multi_worker_mirrored_mode(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys,
        "tf-config", "--sagemaker", "--instance-count", "2",
        "--distribution", "multi_worker_mirrored", "--profile", "mwms", "--format", "jsonl",
    )  # fmt: skip
    assert (status, err) == (0, "")
    assert lines(out) == [
        sagemaker.tf_config(c, {"sagemaker_multi_worker_mirrored_strategy_enabled": True})
        for c in sagemaker.resource_configs(2)
    ]


@pytest.mark.parametrize(
    ("distribution", "profile", "code", "hint"),
    [
        ("parameter_server", "mwms", "disallowed_job", "--distribution multi_worker_mirrored"),
        ("parameter_server", "ps", "disallowed_job", "--distribution multi_worker_mirrored"),
        ("multi_worker_mirrored", "estimator", "missing_chief", "(--profile mwms)"),
        ("multi_worker_mirrored", "ps", "missing_ps", "set TF_CONFIG in the script"),
    ],
)
def test_what_the_reader_of_profile_refuses(
    capsys: pytest.CaptureFixture[str], distribution: str, profile: str, code: str, hint: str
) -> None:
    status, out, err = run(
        capsys,
        "tf-config", "--sagemaker", "--instance-count", "3",
        "--distribution", distribution, "--profile", profile, "--format", "jsonl",
    )  # fmt: skip
    assert status == 1
    assert len(out.splitlines()) == 3  # what the toolkit writes, written all the same
    refused = [line for line in err.splitlines() if not line.startswith("hint: ")]
    assert len(refused) == 1  # one cluster, checked once
    assert refused[0].startswith(f"--sagemaker --profile {profile}: algo-1: cluster")
    assert refused[0].endswith(f"[{code}]")
    assert hint in err.splitlines()[-1]


def test_a_one_host_parameter_server_job_gets_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys,
        "tf-config", "--sagemaker", "--instance-count", "1", "--distribution", "parameter_server",
    )  # fmt: skip
    assert (status, out) == (1, "")
    assert "algo-1: no TF_CONFIG and no ps server: a one-host parameter-server job" in err
    assert "hint: a parameter-server job needs two instances or more" in err


def test_no_distribution_no_tf_config(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "tf-config", "--sagemaker", "--instance-count", "2")
    assert (status, out) == (0, "")
    assert err.splitlines() == [
        "--sagemaker: algo-1: no TF_CONFIG: no --distribution",
        "--sagemaker: algo-2: no TF_CONFIG: no --distribution",
    ]


def test_one_instance_without_distribution_gets_no_tf_config_and_no_finding(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One host, no --distribution: the toolkit writes no TF_CONFIG, which is no error."""
    status, out, err = run(capsys, "tf-config", "--sagemaker", "--instance-count", "1")
    assert (status, out, err) == (0, "", "--sagemaker: algo-1: no TF_CONFIG: no --distribution\n")


def test_the_heterogeneous_files(capsys: pytest.CaptureFixture[str]) -> None:
    args = [arg for path in HETERO for arg in ("--resource-config", path)]
    status, out, err = run(
        capsys,
        "tf-config", "--sagemaker", *args,
        "--hyperparameters", str(DATA / "heterogeneous.hyperparameters.json"),
        "--format", "jsonl",
    )  # fmt: skip
    assert status == 1
    assert len(out.splitlines()) == 2  # algo-2 and algo-3
    assert f"--sagemaker: {HETERO[0]}: resource_config.current_group_name: " in err
    assert "(UnboundLocalError)" in err and "[sagemaker_ps_outside_distribution]" in err
    assert "algo-2: its ps server is ps:1, which the cluster places at algo-3:2223" in err
    assert "algo-3: its ps server is ps:2, which the cluster does not hold" in err
    assert "hint: add the group to --distribution-groups" in err


def test_instance_groups_and_distribution_groups(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys,
        "tf-config", "--sagemaker", "--instance-groups", "data=1,dnn=2",
        "--distribution", "multi_worker_mirrored", "--distribution-groups", "dnn",
        "--profile", "mwms", "--format", "jsonl",
    )  # fmt: skip
    assert status == 0
    assert [line["task"] for line in lines(out)] == [  # type: ignore[index]
        {"index": 0, "type": "worker"},
        {"index": 1, "type": "worker"},
    ]
    assert err == (
        "--sagemaker: algo-1: no TF_CONFIG: its instance group 'data' is not a distribution group\n"
    )


def test_out_dir(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, _ = run(
        capsys,
        "tf-config", "--sagemaker", "--instance-count", "2",
        "--distribution", "parameter_server", "--out-dir", str(tmp_path),
    )  # fmt: skip
    assert status == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["master-0.json", "worker-0.json"]


def test_a_resource_config_the_toolkit_cannot_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "resourceconfig.json"
    config.write_text('{"hosts": ["algo-1"]}', encoding="utf-8")
    status, out, err = run(capsys, "tf-config", "--sagemaker", "--resource-config", str(config))
    assert (status, out) == (1, "")
    assert err == f"--sagemaker: {config}: resource_config.current_host: Field required [missing]\n"


def test_a_ps_host_outside_hosts_is_named_where_the_toolkit_looks_up_its_index(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "resourceconfig.json"
    group = {"instance_group_name": "homogeneousCluster", "hosts": ["algo-1", "algo-2"]}
    given = {"current_host": "algo-2", "hosts": ["algo-1", "algo-3"], "instance_groups": [group]}
    config.write_text(json.dumps(given), encoding="utf-8")
    argv = ("--sagemaker", "--resource-config", str(config), "--distribution", "parameter_server")
    status, out, err = run(capsys, "tf-config", *argv)
    assert (status, out) == (1, "")
    assert err == (
        f"--sagemaker: {config}: resource_config.current_host: the current host 'algo-2' is not "
        "in hosts ['algo-1', 'algo-3'], where the toolkit looks up the index of its ps server "
        "(it fails: 'algo-2' is not in list) [sagemaker_host_not_in_hosts]\n"
        "hint: the host is missing from hosts\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--instance-count", "2"], "--instance-count goes with --sagemaker"),
        (["--sagemaker"], "--sagemaker takes the job from one of"),
        (["--sagemaker", "--instance-count", "2", "--resource-config", "x.json"], "from one of"),
        (["--sagemaker", "--instance-count", "0"], "expected a number, 1 or more"),
        (["--sagemaker", "--instance-groups", "a=1,b"], "expected NAME=N,NAME=N"),
        (["--sagemaker", "--instance-count", "3000"], "at most 2048"),
        (["--sagemaker", "--instance-groups", "a=1,a=1"], "used twice"),
        (["--sagemaker", "--resource-config", "missing.json"], "--resource-config missing.json"),
        (
            ["--sagemaker", "--instance-count", "2", "--hyperparameters", "missing.json"],
            "error: --hyperparameters missing.json: no such file",
        ),
        (["--sagemaker", "--resource-config", str(DATA / "ps.jsonl")], "--resource-config"),
        (
            ["--sagemaker", "--resource-config", HETERO[0], "--instance-type", "ml.p3.2xlarge"],
            "--instance-type goes with",
        ),
        (["x.json", "--sagemaker", "--instance-count", "2"], "give one of CLUSTER_FILE"),
        (
            ["--sagemaker", "--instance-count", "3", "--max-size", "500"],
            "the TF_CONFIGs of its 3 hosts would take about",
        ),
    ],
)
def test_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, out, err = run(capsys, "tf-config", *argv)
    assert (status, out) == (2, "")
    assert message in err


def test_a_resource_config_without_hosts_is_sized_as_one_host_of_no_addresses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "resourceconfig.json"
    config.write_text('{"current_host": "algo-1"}', encoding="utf-8")
    argv = ("--sagemaker", "--resource-config", str(config), "--max-size", "99")
    status, out, err = run(capsys, "tf-config", *argv)
    assert (status, out) == (2, "")
    assert (
        "the TF_CONFIGs of its 1 hosts would take about 100 bytes, more than --max-size 99" in err
    )


HOSTILE = Path(__file__).parent / "data" / "hostile"


TOO_DEEP = (
    '--sagemaker: algo-1: hyperparameters: the hyperparameter "x" is JSON nested deeper '
    "than 64 levels: the toolkit decodes it with json.loads, which fails (RecursionError) "
    "at about 1,000 levels [sagemaker_too_deep]\n"
)


@pytest.mark.parametrize("minimal", [True, False])
def test_a_hyperparameter_of_json_nested_1000_deep_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, minimal: bool
) -> None:
    given = HOSTILE / "sagemaker_hyperparameter_nested_1000_deep.json"
    if minimal:
        given = tmp_path / "hyperparameters.json"
        given.write_text(json.dumps({"x": "[" * 1000 + "]" * 1000}), encoding="utf-8")
    argv = ("--sagemaker", "--instance-count", "1", "--hyperparameters", str(given))
    status, out, err = run(capsys, "tf-config", *argv)
    assert (status, out, err) == (1, "", TOO_DEEP)


def test_a_hyperparameter_of_1000_brackets_left_open_is_no_internal_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Text that is no JSON is kept as the toolkit keeps it, unless json.loads runs out of stack.

    Which of the two happens to 1,000 open brackets depends on the Python:
    3.11 runs out of stack (refused, as too deep); 3.12 and later say it is no JSON (kept).
    """
    given = tmp_path / "hyperparameters.json"
    given.write_text(json.dumps({"x": "[" * 1000}), encoding="utf-8")
    argv = ("--sagemaker", "--instance-count", "1", "--hyperparameters", str(given))
    status, out, err = run(capsys, "tf-config", *argv)
    if status == 1:
        assert (out, err) == ("", TOO_DEEP)
    else:
        assert (status, err) == (0, "--sagemaker: algo-1: no TF_CONFIG: no --distribution\n")


@pytest.mark.parametrize(
    "argv",
    [
        ("--instance-count", "2", "--instance-type", b"\xff"),
        ("--instance-groups", b"\xff=2"),
        ("--instance-count", "2", "--distribution-groups", b"a,\xff"),
    ],
)
def test_no_text_option_takes_bytes_that_are_not_utf8(argv: tuple[str | bytes, ...]) -> None:
    estconf = Path(sys.executable).with_name("estconf")
    done = subprocess.run(
        [estconf, "tf-config", "--sagemaker", "--distribution", "parameter_server", *argv],
        capture_output=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, b"")
    assert b" is not UTF-8 text: byte 0xff at position " in done.stderr


FLAG_FILE = str(DATA / "flag-string.hyperparameters.json")
FLAG_WARNING = (
    f'{FLAG_FILE}:7:41: sagemaker_parameter_server_enabled: warning: the text "False" is no '
    'JSON boolean: the toolkit tests it for truth, and any text but "" is true, so '
    "parameter-server mode is on, and on two hosts or more it wins over multi-worker mirrored "
    "mode\n"
    'hint: write false to turn it off (the JSON false: "false" in hyperparameters.json, as the '
    "SDK writes it), true to turn it on, or leave the key out\n"
)


@pytest.mark.parametrize("fmt", ["jsonl", "shell", "env", "k8s"])
def test_a_flag_written_as_text_is_predicted_on_and_warned_at_its_line(
    capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    """``"False"`` beside a true multi-worker flag: parameter servers, as the toolkit runs it."""
    argv = ("sagemaker", "--instance-count", "3", "--hyperparameters", FLAG_FILE)
    status, out, err = run(capsys, "tf-config", *argv, "--format", fmt)
    assert (status, err) == (0, FLAG_WARNING)
    hps = json.loads(Path(FLAG_FILE).read_text(encoding="utf-8"))
    predicted = [sagemaker.tf_config(config, hps) for config in sagemaker.resource_configs(3)]
    assert [config["task"]["type"] for config in predicted if config] == [
        "master",
        "worker",
        "worker",
    ]
    if fmt == "jsonl":
        assert lines(out) == predicted
    else:
        assert "ps server ps:2 at algo-3:2223" in out


def test_the_warning_comes_after_the_hosts_problems(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("sagemaker", "--instance-count", "2", "--hyperparameters", FLAG_FILE)
    status, _, err = run(capsys, "tf-config", *argv, "--profile", "mwms")
    assert status == 1  # the master job, which MultiWorkerMirroredStrategy refuses
    said = err.splitlines()
    assert said[0].startswith("--sagemaker --profile mwms: algo-1: cluster.master: ")
    assert "\n".join(said[1:3]) + "\n" == FLAG_WARNING
    assert said[3].startswith("hint: SageMaker's parameter-server mode writes a master job")


def test_a_text_flag_is_said_to_win_over_multi_worker_mode_that_the_distribution_sets(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The mode ``--distribution`` turns on counts in the warning, as the file's own flag does."""
    argv = ("sagemaker", "--instance-count", "2", "--hyperparameters", FLAG_FILE)
    status, _, err = run(capsys, "tf-config", *argv, "--distribution", "multi_worker_mirrored")
    assert (status, err) == (0, FLAG_WARNING)


def test_a_flag_the_distribution_sets_is_not_warned(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("sagemaker", "--instance-count", "2", "--hyperparameters", FLAG_FILE)
    status, _, err = run(capsys, "tf-config", *argv, "--distribution", "parameter_server")
    assert (status, err) == (0, "")


def test_a_true_flag_written_as_text_is_warned_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    given = tmp_path / "hyperparameters.json"
    given.write_text('{"sagemaker_multi_worker_mirrored_strategy_enabled": "True"}\n')
    argv = ("sagemaker", "--instance-count", "2", "--hyperparameters", str(given))
    status, out, err = run(capsys, "tf-config", *argv, "--profile", "mwms")
    assert status == 0
    assert [c["task"] for c in lines(out)] == [  # type: ignore[index]
        {"index": 0, "type": "worker"},
        {"index": 1, "type": "worker"},
    ]
    assert err.startswith(
        f"{given}:1:54: sagemaker_multi_worker_mirrored_strategy_enabled: warning: the text "
        '"True" is no JSON boolean'
    )
