"""estconf.cli._slurm: ``estconf tf-config --slurm``, TensorFlow's view of a step or a correct one.

The environments under tests/data/launchers/slurm/ are the SLURM variables of
a task inside ``srun`` and of a batch script outside it (docs/slurm.md).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_main import run
from estconf.cli import main
from estconf.distribute import SlurmClusterResolver, TFConfigClusterResolver
from estconf.distribute._slurm_step import MAX_GPUS, MAX_TASKS
from estconf.distribute.slurm import MAX_PORT

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "launchers" / "slurm"
ESTCONF = Path(sys.executable).with_name("estconf")

NODE9_10 = ("--slurm", "--nodelist", "node[9-10]", "--tasks-per-node", "2")
PS_WORKERS = (*NODE9_10, "--jobs", "ps=1,worker=3")


def environment(monkeypatch: pytest.MonkeyPatch, name: str) -> dict[str, str]:
    """Set the variables of ``DATA/name`` (``KEY=value`` lines) as the process's own."""
    variables = {}
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            variables[key] = value
    for key in ("CUDA_VISIBLE_DEVICES", "SLURMD_NODENAME", "TF_CONFIG"):
        monkeypatch.delenv(key, raising=False)
    for key, value in variables.items():
        monkeypatch.setenv(key, value)
    return variables


def lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


class TestTensorFlowsView:
    def test_each_rank_gets_what_the_resolver_gives_it(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(capsys, "tf-config", *PS_WORKERS, "--gpus-per-node", "2")
        step = {"SLURM_STEP_NODELIST": "node[9-10]", "SLURM_STEP_TASKS_PER_NODE": "2(x2)"}
        expected = [
            SlurmClusterResolver(
                {"ps": 1, "worker": 3},
                gpus_per_node=2,
                environ={**step, "SLURM_PROCID": str(rank)},
            ).tf_config
            for rank in range(4)
        ]
        assert lines(out) == expected
        assert expected[0]["cluster"] == {
            "ps": ["node10:8888"],
            "worker": ["node10:8889", "node9:8888", "node9:8889"],
        }
        assert status == 1  # the ranks are given addresses on other hosts

    def test_ranks_on_another_host_are_reported_with_the_fix(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        _, _, err = run(capsys, "tf-config", *PS_WORKERS, "--gpus-per-node", "2")
        assert err.splitlines()[:2] == [
            "--slurm: rank 0 runs on node9, but TensorFlow's SlurmClusterResolver gives it "
            "ps:0 at node10:8888 (it sorts the hosts as strings)",
            "--slurm: rank 1 runs on node9, but TensorFlow's SlurmClusterResolver gives it "
            "worker:0 at node10:8889 (it sorts the hosts as strings)",
        ]
        assert err.splitlines()[-1].startswith("hint: add --write for a TF_CONFIG per rank")

    def test_many_misplaced_ranks_are_counted_past_ten(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("--slurm", "--nodelist", "n[8-11]", "--tasks-per-node", "4")
        status, _, err = run(capsys, "tf-config", *argv, "--gpus-per-node", "4")
        assert status == 1
        assert "--slurm: and 6 more ranks given another host" in err.splitlines()

    def test_ten_misplaced_ranks_are_all_said_and_none_counted(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Up to ten ranks on another host are each said; only those past ten are counted."""
        argv = ("--slurm", "--nodelist", "node[9-10]", "--tasks-per-node", "5")
        status, _, err = run(capsys, "tf-config", *argv, "--gpus-per-node", "5")
        assert status == 1
        *said, hint = err.splitlines()
        assert [line.split(" runs on ")[0] for line in said] == [
            f"--slurm: rank {rank}" for rank in range(10)
        ]
        assert hint.startswith("hint: add --write for a TF_CONFIG per rank")

    def test_hosts_in_the_same_order_both_ways_are_fine(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("--slurm", "--nodelist", "node[1-2]", "--tasks-per-node", "2")
        status, out, err = run(capsys, "tf-config", *argv, "--gpus-per-node", "2")
        assert (status, err) == (0, "")
        assert len(lines(out)) == 4

    def test_the_label_shows_host_master_and_gpus(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = (*PS_WORKERS, "--gpus-per-node", "2", "--format", "shell")
        _, out, _ = run(capsys, "tf-config", *argv)
        assert out.splitlines()[0] == (
            "# rank 0 on node9: ps:0, master grpc://node10:8888, CUDA_VISIBLE_DEVICES=0"
        )
        assert out.splitlines()[1].startswith('export TF_CONFIG=\'{"cluster"')

    def test_from_the_environment_inside_srun(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        environment(monkeypatch, "node9-10-rank2.env")
        status, out, _ = run(capsys, "tf-config", "--slurm", "--from-env", "--rank", "2")
        # 2 GPUs in CUDA_VISIBLE_DEVICES, 2 tasks a node: one GPU each
        assert lines(out) == [
            {
                "cluster": {"worker": ["node10:8888", "node10:8889", "node9:8888", "node9:8889"]},
                "task": {"type": "worker", "index": 2},
                "rpc_layer": "grpc",
            }
        ]
        assert status == 1

    def test_a_batch_script_outside_srun_fails_as_tensorflow_does(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        environment(monkeypatch, "batch-script.env")
        status, out, err = run(capsys, "tf-config", "--slurm", "--from-env")
        assert (status, out) == (1, "")
        assert err == (
            "--slurm: SLURM_STEP_NODELIST: SLURM_STEP_NODELIST not found in environment. "
            "Not running inside a SLURM step?\n"
            "hint: run it in a task srun starts: srun sets the SLURM_STEP_* variables of each "
            "task, and SLURM_JOB_* are never read\n"
        )

    def test_a_cpu_only_job_is_told_to_write_its_tf_configs(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, _, err = run(capsys, "tf-config", *NODE9_10, "--gpus-per-node", "0")
        assert status == 1
        assert "range() arg 3 must not be zero" in err
        assert err.splitlines()[-1] == (
            "hint: --write writes each rank a TF_CONFIG that needs no GPU"
        )

    def test_a_step_of_no_task_is_told_the_flag_that_gives_tasks(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("--slurm", "--nodelist", "node[9-10]", "--tasks-per-node", "0")
        status, out, err = run(capsys, "tf-config", *argv, "--gpus-per-node", "2")
        assert (status, out) == (1, "")
        assert err.splitlines() == [
            "--slurm: --gpus-per-node: no node has a task, so GPUs per task cannot be worked out "
            "(TensorFlow fails with: integer division or modulo by zero)",
            "hint: give each node a task: --tasks-per-node 1 or more",
        ]

    def test_a_nodelist_slurm_cannot_read_is_told_how_slurm_writes_one(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("--slurm", "--nodelist", "node[9-", "--tasks-per-node", "2")
        status, _, err = run(capsys, "tf-config", *argv, "--gpus-per-node", "2")
        assert status == 1
        assert err.splitlines()[1] == (
            "hint: write the nodelist as SLURM does: hosts separated by commas, a run of numbered "
            "hosts in brackets (node[01-04,07],gpu1)"
        )

    def test_no_gpu_count_names_the_flag(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, _, err = run(capsys, "tf-config", *NODE9_10)
        assert status == 1
        assert err.startswith("--slurm: --gpus-per-node: no GPU count")
        assert "hint: give --gpus-per-node N, or --write" in err

    def test_a_port_above_65535(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = (*NODE9_10, "--gpus-per-node", "2", "--port-base", "65535")
        status, out, err = run(capsys, "tf-config", *argv)
        assert (status, out) == (1, "")
        assert "'node10:65536' is not a valid task address" in err
        assert err.splitlines()[-1] == "hint: a port above 65535: give a smaller --port-base"

    def test_a_host_that_is_not_a_hostname_gets_no_port_hint(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A bad address whose port is 65535 or less is not told to lower --port-base."""
        argv = ("--slurm", "--nodelist", "a..b", "--tasks-per-node", "2", "--gpus-per-node", "2")
        status, out, err = run(capsys, "tf-config", *argv)
        assert (status, out) == (1, "")
        assert err.splitlines() == [
            f"--slurm: worker[{index}]: 'a..b:{port}' is not a valid task address: the host "
            "'a..b' has two dots in a row"
            for index, port in enumerate((8888, 8889))
        ]

    @pytest.mark.parametrize(
        ("argv", "flag", "sentence"),
        [
            (("--nodelist", "node[1-2", "--tasks-per-node", "2"), "--nodelist", "Invalid hostlist"),
            (
                ("--nodelist", "n1", "--tasks-per-node", "2(x"),
                "--tasks-per-node",
                "Invalid tasks-per-node list format",
            ),
            (
                ("--nodelist", "n1", "--tasks-per-node", "2", "--jobs", "worker=3"),
                "--jobs",
                "Requested 3 tasks but only 2 were assigned.",
            ),
        ],
    )
    def test_tensorflows_sentences_at_the_flag(
        self,
        capsys: pytest.CaptureFixture[str],
        argv: tuple[str, ...],
        flag: str,
        sentence: str,
    ) -> None:
        status, _, err = run(capsys, "tf-config", "--slurm", *argv, "--gpus-per-node", "2")
        assert status == 1
        assert err.startswith(f"--slurm: {flag}: {sentence}")


class TestWrite:
    def test_each_rank_at_its_own_host_jobs_in_the_given_order(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, err = run(capsys, "tf-config", *PS_WORKERS, "--write")
        assert (status, err) == (0, "")
        configs = lines(out)
        assert configs[0] == {
            "cluster": {
                "ps": ["node9:8888"],
                "worker": ["node9:8889", "node10:8888", "node10:8889"],
            },
            "task": {"type": "ps", "index": 0},
            "rpc_layer": "grpc",
        }
        hosts = ["node9", "node9", "node10", "node10"]
        for rank, config in enumerate(configs):
            master = TFConfigClusterResolver(tf_config=config).master()
            assert master.startswith(f"grpc://{hosts[rank]}:")

    def test_the_label_names_rank_and_host(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = run(capsys, "tf-config", *PS_WORKERS, "--write", "--format", "env")
        assert out.splitlines()[4] == "# rank 2 on node10: worker:1"

    def test_one_rank_inside_srun_as_the_docs_export_it(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        variables = environment(monkeypatch, "node9-10-rank2.env")
        argv = ("--slurm", "--from-env", "--write", "--rank", variables["SLURM_PROCID"])
        status, out, _ = run(capsys, "tf-config", *argv)
        assert status == 0
        assert json.loads(out) == {
            "cluster": {"worker": ["node9:8888", "node9:8889", "node10:8888", "node10:8889"]},
            "task": {"type": "worker", "index": 2},
            "rpc_layer": "grpc",
        }

    def test_a_step_not_laid_out_in_blocks_is_refused(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        environment(monkeypatch, "cpu-cyclic-rank1.env")
        argv = ("--slurm", "--from-env", "--write", "--rank", "1")
        status, out, err = run(capsys, "tf-config", *argv)
        assert (status, out) == (1, "")
        assert err.startswith(
            "--slurm: SLURMD_NODENAME: rank 1 runs on cpu2, but SLURM's block distribution "
            "over the nodelist puts it on cpu1"
        )

    def test_a_port_above_65535_names_the_largest_port_base(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = (*NODE9_10, "--write", "--port-base", "65535")
        status, _, err = run(capsys, "tf-config", *argv)
        assert status == 1
        assert err.startswith("--slurm: --port-base: port_base 65535 with 2 tasks on a host")
        assert "give a port_base of at most 65534" in err
        assert err.endswith("\nhint: give a smaller --port-base\n")

    def test_out_dir_writes_a_file_per_rank(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        argv = (*PS_WORKERS, "--write", "--out-dir", str(tmp_path))
        assert run(capsys, "tf-config", *argv)[0] == 0
        assert sorted(p.name for p in tmp_path.iterdir()) == [
            "ps-0.json",
            "worker-0.json",
            "worker-1.json",
            "worker-2.json",
        ]

    def test_too_large_an_output_is_refused_before_it_is_built(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("--slurm", "--nodelist", "n[1-100]", "--tasks-per-node", "8", "--write")
        status, out, err = run(capsys, "tf-config", *argv, "--max-size", "100000")
        assert (status, out) == (2, "")
        assert "the TF_CONFIGs of its 800 ranks would take about" in err
        status, out, _ = run(capsys, "tf-config", *argv, "--max-size", "100000", "--rank", "9")
        assert status == 0
        assert json.loads(out)["task"] == {"type": "worker", "index": 9}

    def test_the_size_limit_is_the_size_written(self, capsys: pytest.CaptureFixture[str]) -> None:
        """Four ranks of one-digit indices: the estimate is exact, a newline after each."""
        argv = ("--slurm", "--nodelist", "n[1-2]", "--tasks-per-node", "2", "--write")
        status, out, _ = run(capsys, "tf-config", *argv)
        size = len(out.encode())
        assert (status, len(out.splitlines())) == (0, 4)
        assert run(capsys, "tf-config", *argv, "--max-size", str(size))[:2] == (0, out)
        status, out, err = run(capsys, "tf-config", *argv, "--max-size", str(size - 1))
        assert (status, out) == (2, "")
        assert f"the TF_CONFIGs of its 4 ranks would take about {size:,} bytes" in err

    def test_piped_into_check_cluster_under_a_profile(self, tmp_path: Path) -> None:
        command = (
            f"{ESTCONF} tf-config --slurm --nodelist 'node[9-10]' --tasks-per-node 2 "
            f"--jobs chief=1,worker=3 --write | {ESTCONF} check-cluster --profile mwms -"
        )
        done = subprocess.run(
            command, shell=True, capture_output=True, text=True, check=False, cwd=tmp_path
        )
        assert (done.returncode, done.stdout) == (0, "4 nodes, 1 cluster: valid\n")


class TestUsage:
    @pytest.mark.parametrize(
        ("argv", "message"),
        [
            (("--nodelist", "n1"), "--nodelist goes with --slurm"),
            (("--job", "x", "--worker", "2", "--write"), "--write goes with --slurm"),
            (("--slurm",), "give one"),
            (("--slurm", "--from-env", "--nodelist", "n1"), "give one"),
            (("--slurm", "--nodelist", "n1"), "needs both --nodelist"),
            (("--slurm", "--job", "x"), "give one of CLUSTER_FILE"),
            (
                ("--slurm", "--nodelist", "n1", "--tasks-per-node", "2", "--rank", "2", "--write"),
                "--rank 2: the step has 2 tasks, ranks 0 to 1",
            ),
            (
                ("--slurm", "--nodelist", "n1", "--tasks-per-node", "2", "--jobs", "ps"),
                "expected JOB=N,JOB=N",
            ),
            (
                ("--slurm", "--nodelist", "n1", "--tasks-per-node", "2", "--jobs", "a=1,a=1"),
                "each job once",
            ),
            (
                ("--slurm", "--nodelist", "n1", "--tasks-per-node", "2", "--port-base", "-1"),
                "expected a number",
            ),
        ],
    )
    def test_refused_with_status_2(
        self, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
    ) -> None:
        status, out, err = run(capsys, "tf-config", *argv)
        assert (status, out) == (2, "")
        assert message in err

    @pytest.mark.parametrize(
        ("name", "value", "byte"),
        [
            (b"SLURM_STEP_TASKS_PER_NODE", b"2(x2\xfe\xff)", "byte 0xfe at position 4"),
            (b"SLURM_STEP_NODELIST", b"node[9-1\xb0]", "byte 0xb0 at position 8"),
            (b"CUDA_VISIBLE_DEVICES", b"0,\xff", "byte 0xff at position 2"),
        ],
    )
    def test_a_variable_that_is_not_utf8_is_refused_by_its_name(
        self, name: bytes, value: bytes, byte: str
    ) -> None:
        environ = {
            b"PATH": os.environb.get(b"PATH", b""),
            b"SLURM_STEP_NODELIST": b"node[9-10]",
            b"SLURM_STEP_TASKS_PER_NODE": b"2(x2)",
            b"SLURM_PROCID": b"2",
            name: value,
        }
        done = subprocess.run(
            [ESTCONF, "tf-config", "--slurm", "--from-env"],
            env=environ,
            capture_output=True,
            check=False,
        )
        assert (done.returncode, done.stdout) == (2, b"")
        assert done.stderr.decode().splitlines()[-1] == (
            f"estconf tf-config: error: --from-env: ${name.decode()} is not UTF-8 text ({byte})"
        )


class TestChecked:
    """The findings of a step that only SLURM's placement shows come from ``tf-config`` itself."""

    ARGV = (*NODE9_10, "--jobs", "chief=1,worker=3")

    @pytest.mark.parametrize(
        ("name", "argv"),
        [
            ("node9-10-written.jsonl", (*ARGV, "--write")),
            ("node9-10-tensorflow.jsonl", (*ARGV, "--gpus-per-node", "2")),
        ],
    )
    def test_the_data_files_are_what_the_command_writes(
        self, capsys: pytest.CaptureFixture[str], name: str, argv: tuple[str, ...]
    ) -> None:
        _, out, _ = run(capsys, "tf-config", *argv)
        assert out == (DATA / name).read_text(encoding="utf-8")

    def test_check_cluster_cannot_see_the_wrong_hosts_only_tf_config_tells(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        # a TF_CONFIG says nothing of where its rank runs: both views are one valid job
        for name in ("node9-10-written.jsonl", "node9-10-tensorflow.jsonl"):
            status, out, _ = run(capsys, "check-cluster", "--profile", "mwms", str(DATA / name))
            assert (status, out) == (0, "4 nodes, 1 cluster: valid\n")
        status, _, err = run(capsys, "tf-config", *self.ARGV, "--gpus-per-node", "2")
        assert status == 1
        assert "rank 0 runs on node9, but TensorFlow's SlurmClusterResolver gives it chief:0" in err

    def test_a_ps_job_without_ps_is_found_by_check_cluster(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        _, out, _ = run(capsys, "tf-config", *self.ARGV, "--write")
        (tmp_path / "nodes.jsonl").write_text(out, encoding="utf-8")
        status, out, _ = run(
            capsys, "check-cluster", "--profile", "ps", str(tmp_path / "nodes.jsonl")
        )
        assert status == 1
        assert "There must be at least one ps." in out


@pytest.mark.parametrize(
    ("option", "most"),
    [
        ("--port-base", 65535),
        ("--gpus-per-node", 1024),
        ("--gpus-per-task", 1024),
        ("--rank", 99999),
    ],
)
@pytest.mark.parametrize("given", ["-1", "x", "\u0661"])
def test_a_count_is_ascii_digits(
    capsys: pytest.CaptureFixture[str], option: str, most: int, given: str
) -> None:
    status, _, err = run(capsys, "tf-config", "--slurm", option, given)
    assert status == 2
    assert f"{option}: expected a number, from 0 to {most}, not {given!r}" in err


class TestHostileOptions:
    """Counts are bounded and text is UTF-8 before anything is built from them."""

    def test_a_nodelist_that_is_not_utf8_is_refused_with_its_byte(self) -> None:
        done = subprocess.run(
            [ESTCONF, "tf-config", "--slurm", "--nodelist", b"\xff[", "--tasks-per-node", "1"],
            capture_output=True,
            check=False,
        )
        assert (done.returncode, done.stdout) == (2, b"")
        assert done.stderr.splitlines()[-1] == (
            b"estconf tf-config: error: argument --nodelist: '\\xff[' is not UTF-8 text: "
            b"byte 0xff at position 0 starts no UTF-8 character"
        )

    @pytest.mark.parametrize(
        "argv",
        [
            ("--tasks-per-node", b"2(x\xfe)"),
            ("--tasks-per-node", "1", "--jobs", b"\xff=1"),
        ],
    )
    def test_no_text_option_of_slurm_takes_bytes_that_are_not_utf8(
        self, argv: tuple[str | bytes, ...]
    ) -> None:
        nodelist = () if argv[0] == "--tasks-per-node" else ("--tasks-per-node", "1")
        done = subprocess.run(
            [ESTCONF, "tf-config", "--slurm", "--nodelist", "n1", *nodelist, *argv],
            capture_output=True,
            check=False,
        )
        assert done.returncode == 2
        assert b"is not UTF-8 text: byte 0x" in done.stderr
        assert b"Traceback" not in done.stderr

    @pytest.mark.parametrize("count", ["100000000", "2147483648", "1025"])
    def test_gpus_per_node_are_at_most_1024(
        self, capsys: pytest.CaptureFixture[str], count: str
    ) -> None:
        status, out, err = run(capsys, "tf-config", *NODE9_10, "--gpus-per-node", count)
        assert (status, out) == (2, "")
        assert f"--gpus-per-node: expected a number, from 0 to 1024, not '{count}'" in err

    def test_1024_gpus_per_node_are_taken(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ("--gpus-per-node", "1024", "--rank", "0", "--format", "shell")
        status, out, _ = run(capsys, "tf-config", *NODE9_10, *argv)
        assert status == 1  # TensorFlow gives ranks addresses on other hosts
        assert "CUDA_VISIBLE_DEVICES=" + ",".join(map(str, range(512))) + "\n" in out

    @pytest.mark.parametrize(
        ("tasks", "said"),
        [
            ("2147483648", "2,147,483,648 tasks on the node 'n1', more than the 65,533"),
            ("9223372036854775808", "9,223,372,036,854,775,808 tasks on the node 'n1'"),
            ("65534", "65,534 tasks on the node 'n1', more than the 65,533 SLURM runs on a node"),
        ],
    )
    @pytest.mark.parametrize("write", [(), ("--write",)])
    def test_tasks_per_node_are_at_most_slurms_bound(
        self,
        capsys: pytest.CaptureFixture[str],
        tasks: str,
        said: str,
        write: tuple[str, ...],
    ) -> None:
        argv = ("--slurm", "--nodelist", "n1", "--tasks-per-node", tasks, *write)
        status, out, err = run(capsys, "tf-config", *argv)
        assert (status, out) == (1, "")
        assert err.startswith(f"--slurm: --tasks-per-node: {said}")

    def test_a_list_of_99999999_nodes_is_cut_to_the_nodelist(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("--slurm", "--nodelist", "n[1-4]", "--tasks-per-node", "2(x3),1(x99999999)")
        status, out, _ = run(capsys, "tf-config", *argv, "--gpus-per-node", "1024", "--write")
        assert (status, len(lines(out))) == (0, 7)

    def test_a_step_of_more_than_100000_tasks_is_refused(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("--slurm", "--nodelist", "n[1-65536]", "--tasks-per-node", "2(x65536)")
        status, out, err = run(capsys, "tf-config", *argv, "--gpus-per-node", "2", "--rank", "0")
        assert (status, out) == (1, "")
        assert "131,072 tasks in the step, more than the 100,000 estconf builds" in err

    def test_a_nodelist_of_more_than_100000_hosts_is_refused(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("--slurm", "--nodelist", "n[1-65536],m[1-65536]", "--tasks-per-node", "1")
        status, out, err = run(capsys, "tf-config", *argv, "--write")
        assert (status, out) == (1, "")
        assert "it names more than 100,000 hosts" in err

    def test_the_gpus_of_the_ranks_not_written_are_not_built(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """50,000 nodes of 1,024 GPUs: one rank's view costs its cluster, not 51 million GPUs."""
        argv = ("--slurm", "--nodelist", "n[1-50000]", "--tasks-per-node", "1")
        start = time.process_time()
        given = ("--gpus-per-node", "1024", "--rank", "7", "--format", "shell")
        status, out, _ = run(capsys, "tf-config", *argv, *given)
        assert time.process_time() - start < 2.0
        assert status == 1  # ranks on other hosts
        assert "CUDA_VISIBLE_DEVICES=" + ",".join(map(str, range(1024))) + "\n" in out

    @pytest.mark.parametrize(
        ("option", "given", "most"),
        [("--port-base", "65536", "65535"), ("--rank", "100000", "99999")],
    )
    def test_ports_and_ranks_are_bounded(
        self, capsys: pytest.CaptureFixture[str], option: str, given: str, most: str
    ) -> None:
        status, _, err = run(capsys, "tf-config", *NODE9_10, option, given)
        assert status == 2
        assert f"{option}: expected a number, from 0 to {most}, not '{given}'" in err

    def test_a_number_of_thousands_of_digits_is_refused_before_it_is_converted(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, _, err = run(capsys, "tf-config", *NODE9_10, "--gpus-per-node", "9" * 5000)
        assert status == 2
        assert "--gpus-per-node: expected a number, from 0 to 1024, not '999" in err
        assert len(err.splitlines()[-1]) < 200

    def test_a_job_of_more_tasks_than_a_step_has_is_refused(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, _, err = run(capsys, "tf-config", *NODE9_10, "--jobs", "worker=100001")
        assert status == 2
        assert "each job once and of at most 100,000 tasks" in err

    def test_a_job_name_that_is_not_utf8_is_refused_with_its_byte(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, err = run(capsys, "tf-config", *NODE9_10, "--jobs", "\udcff=4")
        assert (status, out) == (2, "")
        assert "--jobs: '\\xff=4' is not UTF-8 text: byte 0xff at position 0" in err

    @pytest.mark.parametrize("size", ["\u00b2", "\u0663", "3\u00b9"])
    def test_a_jobs_size_of_digits_beyond_ascii_is_refused_with_the_usage(
        self, capsys: pytest.CaptureFixture[str], size: str
    ) -> None:
        status, out, err = run(capsys, "tf-config", *NODE9_10, "--jobs", f"worker={size}")
        assert (status, out) == (2, "")
        assert "--jobs: expected JOB=N,JOB=N (such as ps=1,worker=7)" in err
        assert "invalid _jobs value" not in err

    def test_a_step_of_no_task_is_refused_at_rank_0_when_no_rank_is_given(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("--nodelist", "node1", "--tasks-per-node", "0", "--jobs", "worker=0")
        gpus = ("--gpus-per-node", "2", "--gpus-per-task", "1")
        status, out, err = run(capsys, "tf-config", "slurm", *argv, *gpus)
        assert (status, out) == (1, "")
        assert err.startswith("--slurm: --rank: SLURM_PROCID is 0 but the cluster has 0 tasks")

    def test_a_job_of_as_many_tasks_as_a_step_has_is_read(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, _, err = run(capsys, "tf-config", *NODE9_10, "--jobs", "worker=100000")
        assert status == 1
        assert "Requested 100000 tasks but only 4 were assigned" in err

    @pytest.mark.parametrize(
        "jobs",
        ["ps=0000001,worker=0000003", "ps=" + "0" * 5000 + "1,worker=3"],
        ids=["a-few", "5000"],
    )
    def test_a_jobs_size_may_have_zeros_before_it(
        self, capsys: pytest.CaptureFixture[str], jobs: str
    ) -> None:
        status, out, _ = run(capsys, "tf-config", *NODE9_10, "--jobs", jobs, "--write")
        assert status == 0
        assert lines(out)[0]["cluster"] == {
            "ps": ["node9:8888"],
            "worker": ["node9:8889", "node10:8888", "node10:8889"],
        }

    def test_a_port_base_of_8888_given_without_slurm_is_the_default(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("--job", "x", "--chief", "1", "--worker", "1")
        assert run(capsys, "tf-config", *argv) == run(
            capsys, "tf-config", *argv, "--port-base", "8888"
        )

    def test_cuda_visible_devices_of_more_than_1024_gpus_is_refused(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        environment(monkeypatch, "node9-10-rank2.env")
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", ",".join(map(str, range(1025))))
        status, out, err = run(capsys, "tf-config", "--slurm", "--from-env")
        assert (status, out) == (1, "")
        assert "CUDA_VISIBLE_DEVICES: the GPU count is 1,025, more than the 1,024 GPUs" in err


@pytest.mark.parametrize(
    ("option", "most"),
    [
        ("--gpus-per-node", MAX_GPUS),
        ("--gpus-per-task", MAX_GPUS),
        ("--rank", MAX_TASKS - 1),
        ("--port-base", MAX_PORT),
    ],
)
def test_the_bounds_of_the_options_are_the_resolvers(
    capsys: pytest.CaptureFixture[str], option: str, most: int
) -> None:
    """The options are checked before the resolver is imported, against its own bounds."""
    status, _, err = run(capsys, "tf-config", *NODE9_10, option, str(most + 1))
    assert status == 2
    assert f"{option}: expected a number, from 0 to {most}, not '{most + 1}'" in err


class TestGpusPerTask:
    """``--gpus-per-task``: the resolver's ``gpus_per_task``, which wins over the GPUs per node."""

    ARGV = ("slurm", "--nodelist", "node[1-2]", "--tasks-per-node", "2", "--format", "shell")

    @pytest.mark.parametrize(("per_task", "visible"), [("1", ["0", "1"]), ("2", ["0,1", "2,3"])])
    def test_each_rank_gets_its_gpus_from_the_resolver(
        self, capsys: pytest.CaptureFixture[str], per_task: str, visible: list[str]
    ) -> None:
        argv = (*self.ARGV, "--gpus-per-node", "4", "--gpus-per-task", per_task)
        status, out, _ = run(capsys, "tf-config", *argv)
        assert status == 0
        labels = [line for line in out.splitlines() if line.startswith("#")]
        assert [label.rpartition("=")[2] for label in labels] == visible * 2
        step = {
            "SLURM_STEP_NODELIST": "node[1-2]",
            "SLURM_STEP_TASKS_PER_NODE": "2(x2)",
            "SLURM_STEP_NUM_TASKS": "4",
        }
        resolver = SlurmClusterResolver(
            gpus_per_node=4, gpus_per_task=int(per_task), environ={**step, "SLURM_PROCID": "3"}
        )
        assert labels[3].endswith(f"CUDA_VISIBLE_DEVICES={resolver.cuda_visible_devices}")
        assert resolver.num_accelerators() == {"GPU": int(per_task)}

    def test_more_than_the_node_has_is_tensorflows_sentence_at_the_flag(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = (*self.ARGV, "--gpus-per-node", "4", "--gpus-per-task", "3")
        status, out, err = run(capsys, "tf-config", *argv)
        assert (status, out) == (1, "")
        assert err == (
            "--slurm: --gpus-per-task: Requested more GPUs per node than available. (2 tasks on "
            "a node times 3 GPUs per task is more than 4 GPUs per node)\n"
            "hint: give at most --gpus-per-node // the most tasks on a node as --gpus-per-task\n"
        )

    def test_zero_is_refused_at_the_flag(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = (*self.ARGV, "--gpus-per-node", "4", "--gpus-per-task", "0")
        status, _, err = run(capsys, "tf-config", *argv)
        assert status == 1
        assert err.startswith(
            "--slurm: --gpus-per-task: gpus_per_task is 0: TensorFlow's cluster_spec() fails on "
            "it with: range() arg 3 must not be zero\nhint: "
        )

    def test_the_gpus_per_node_are_still_needed_as_tensorflow_needs_them(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, _, err = run(capsys, "tf-config", *self.ARGV, "--gpus-per-task", "1")
        assert status == 1
        assert err.startswith("--slurm: --gpus-per-node: no GPU count")

    def test_from_the_environment_the_gpus_per_node_are_cuda_visible_devices(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        environment(monkeypatch, "node9-10-rank2.env")  # two GPUs visible
        argv = ("--slurm", "--from-env", "--rank", "2", "--gpus-per-task", "2", "--format", "env")
        status, _, err = run(capsys, "tf-config", *argv)
        assert status == 1  # 2 tasks a node times 2 GPUs each, 2 GPUs per node
        assert "Requested more GPUs per node than available." in err
        argv = ("--slurm", "--from-env", "--rank", "2", "--gpus-per-task", "1", "--format", "env")
        assert "CUDA_VISIBLE_DEVICES=0\n" in run(capsys, "tf-config", *argv)[1]

    @pytest.mark.parametrize("count", ["1025", "2147483648", "9" * 5000, "-0", "+1", " 1", "1.0"])
    def test_hostile_counts_are_usage_errors(
        self, capsys: pytest.CaptureFixture[str], count: str
    ) -> None:
        status, out, err = run(capsys, "tf-config", *self.ARGV, "--gpus-per-task", count)
        assert (status, out) == (2, "")
        assert "argument --gpus-per-task: expected a number, from 0 to 1024, not " in err
        assert len(err.splitlines()[-1]) < 200

    def test_it_goes_with_slurm_even_as_zero(self, capsys: pytest.CaptureFixture[str]) -> None:
        for option in ("--gpus-per-task", "--gpus-per-node"):
            argv = ("tf-config", "--job", "x", "--worker", "2", option, "0")
            assert run(capsys, *argv)[::2] == (
                2,
                f"estconf tf-config: error: {option} goes with --slurm\n",
            )


def _run(*argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    """``estconf`` in process with ``stdin`` as standard input (hypothesis takes no capsys)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(argv))
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


class TestSbatch:
    """``--sbatch SCRIPT``: the step a plain ``srun`` starts in a batch script, each rank's view."""

    def test_a_two_node_four_gpu_job(self, capsys: pytest.CaptureFixture[str]) -> None:
        script = str(DATA / "gpu-2x4.sbatch")
        status, out, err = run(
            capsys, "tf-config", "slurm", "--sbatch", script, "--format", "shell"
        )
        assert status == 0
        assert out.splitlines()[::2] == [
            "# rank 0 on node1: worker:0, master grpc://node1:8888, CUDA_VISIBLE_DEVICES=0,1,2,3",
            "# rank 1 on node2: worker:1, master grpc://node2:8888, CUDA_VISIBLE_DEVICES=0,1,2,3",
        ]
        assert err == (
            f"note: {script} names no host: node[1-2] stand for the hosts SLURM chooses when the "
            "job starts; --nodelist HOSTLIST gives the real ones, which TensorFlow sorts as "
            "strings\n"
        )

    def test_it_is_what_the_options_of_the_same_step_give(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        for name, options in (
            (
                "gpu-2x4.sbatch",
                ("--nodelist", "node[1-2]", "--tasks-per-node", "1", "--gpus-per-node", "4"),
            ),
            (
                "nodelist.sbatch",
                ("--nodelist", "gpu[07-08]", "--tasks-per-node", "2", "--gpus-per-node", "2"),
            ),
            (
                "ntasks-per-node.sbatch",
                ("--nodelist", "node[1-4]", "--tasks-per-node", "8", "--gpus-per-node", "8"),
            ),
        ):
            scripted = run(capsys, "tf-config", "slurm", "--sbatch", str(DATA / name))
            given = run(capsys, "tf-config", "slurm", *options)
            assert scripted[:2] == given[:2], name

    def test_the_nodelist_of_the_script_is_the_jobs_hosts(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        argv = ("slurm", "--sbatch", str(DATA / "nodelist.sbatch"), "--jobs", "ps=1,worker=3")
        status, out, err = run(capsys, "tf-config", *argv)
        assert (status, err) == (0, "")
        assert lines(out)[0] == {
            "cluster": {"ps": ["gpu07:8888"], "worker": ["gpu07:8889", "gpu08:8888", "gpu08:8889"]},
            "task": {"type": "ps", "index": 0},
            "rpc_layer": "grpc",
        }

    def test_the_options_win_over_the_directives(self, capsys: pytest.CaptureFixture[str]) -> None:
        script = str(DATA / "ntasks-per-node.sbatch")
        argv = ("slurm", "--sbatch", script, "--nodelist", "gpu[10-13]", "--tasks-per-node", "1")
        status, out, err = run(capsys, "tf-config", *argv, "--gpus-per-node", "2", "--write")
        assert (status, err) == (0, "")
        assert lines(out)[0]["cluster"] == {
            "worker": ["gpu10:8888", "gpu11:8888", "gpu12:8888", "gpu13:8888"]
        }
        status, _, err = run(capsys, "tf-config", *argv[:3], "--nodelist", "gpu[1-2]")
        assert status == 1
        assert err.startswith(
            f"{script}:7:9: --nodes: --nodelist names 2 hosts, fewer than the job's 4 nodes"
        )

    def test_the_jobs_gpus_per_task_trap(self, capsys: pytest.CaptureFixture[str]) -> None:
        """SLURM binds each task to its GPU: the resolver counts one a node, for four tasks."""
        script = str(DATA / "gpus-per-task.sbatch")
        status, out, err = run(capsys, "tf-config", "slurm", "--sbatch", script)
        assert (status, out) == (1, "")
        said = err.splitlines()
        assert said[1].startswith(f"note: {script}:5: SLURM binds each task to its own 1 GPU")
        assert said[2].startswith(
            f"{script}:5:9: --gpus-per-task: 0 GPUs per task (1 GPUs per node, at most 4 tasks "
            "on a node): TensorFlow's cluster_spec() fails on it"
        )
        assert said[3].startswith("hint: ask for each node's GPUs instead (#SBATCH --gres=gpu:N)")
        written = run(capsys, "tf-config", "slurm", "--sbatch", script, "--write")
        assert written[0] == 0 and len(lines(written[1])) == 8

    def test_gpus_per_node_given_here_are_blamed_for_too_few_gpus_not_the_script(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        script = tmp_path / "job.sh"
        script.write_text(
            "#!/bin/bash\n#SBATCH -N 1 --ntasks-per-node=2 --gres=gpu:4\nsrun python train.py\n"
        )
        argv = ("slurm", "--sbatch", str(script), "--gpus-per-node", "1")
        status, _, err = run(capsys, "tf-config", *argv)
        assert status == 1
        assert "--slurm: --gpus-per-node: 0 GPUs per task (1 GPUs per node" in err
        assert "--gres:" not in err

    def test_a_script_without_sizes_is_one_task_and_says_it_has_no_gpu(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        script = str(DATA / "no-sizes.sbatch")
        status, _, err = run(capsys, "tf-config", "slurm", "--sbatch", script)
        assert status == 1
        assert err.splitlines()[-1] == (
            "hint: the script asks for no GPU: give each node's in the script (#SBATCH "
            "--gres=gpu:N) or here (--gpus-per-node N), or --write, which needs none"
        )
        status, out, _ = run(capsys, "tf-config", "slurm", "--sbatch", script, "--write")
        assert status == 0
        assert lines(out) == [
            {
                "cluster": {"worker": ["node1:8888"]},
                "task": {"type": "worker", "index": 0},
                "rpc_layer": "grpc",
            }
        ]

    def test_warnings_and_notes_at_their_directives_do_not_fail(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        script = str(DATA / "old-directives.sbatch")
        status, out, err = run(capsys, "tf-config", "slurm", "--sbatch", script)
        assert status == 0 and len(lines(out)) == 2
        assert err.splitlines()[1:] == [
            f"{script}:4:9: --workdir: sbatch does not know the option '--workdir': it refuses "
            "the script unless a plugin of the site adds the option, and estconf passes over it",
            "hint: sbatch 19.05 dropped --workdir: write --chdir",
            f"{script}:6:9: --ntask-per-node: sbatch does not know the option '--ntask-per-node': "
            "it refuses the script unless a plugin of the site adds the option, and estconf "
            "passes over it",
            "hint: did you mean --ntasks-per-node?",
            f"{script}:7:9: --distribution: estconf does not read --distribution=cyclic: it lays "
            "the tasks out otherwise than in blocks, so SLURM may place the ranks or their GPUs "
            "otherwise than shown",
        ]

    def test_an_error_is_at_its_line_and_column(self, capsys: pytest.CaptureFixture[str]) -> None:
        script = str(DATA / "broken.sbatch")
        status, out, err = run(capsys, "tf-config", "slurm", "--sbatch", script)
        assert (status, out) == (1, "")
        assert err == (
            f'{script}:4:19: Unmatched `"` in [#SBATCH --comment "nightly run]\n'
            'hint: close the quote, or escape it as \\"\n'
            "1 error in 1 of 1 file\n"
        )

    def test_from_standard_input(self, capsys: pytest.CaptureFixture[str]) -> None:
        data = (DATA / "gpu-2x4.sbatch").read_bytes()
        status, out, err = _run("tf-config", "slurm", "--sbatch", "-", "--rank", "1", stdin=data)
        assert status == 0
        assert json.loads(out)["task"] == {"type": "worker", "index": 1}
        assert err.startswith("note: <stdin> names no host")

    @pytest.mark.parametrize(
        ("argv", "message"),
        [
            (("--from-env",), "--sbatch and --from-env each give the step: give one"),
            (("--tasks-per-node", "2(x2)"), "with --sbatch, --tasks-per-node takes one count"),
            (("--tasks-per-node", "\u0662"), "with --sbatch, --tasks-per-node takes one count"),
            (("--tasks-per-node", "0"), "takes one count, from 1 to 65,533 as sbatch"),
            (("--tasks-per-node", "65534"), "takes one count, from 1 to 65,533 as sbatch"),
            (("--tasks-per-node", "9" * 5000), "not '99999999999999999999'..."),
        ],
    )
    def test_usage(
        self, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
    ) -> None:
        script = str(DATA / "gpu-2x4.sbatch")
        status, out, err = run(capsys, "tf-config", "slurm", "--sbatch", script, *argv)
        assert (status, out) == (2, "")
        assert message in err

    def test_a_script_is_named(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, _, err = run(capsys, "tf-config", "slurm", "--sbatch", "")
        assert status == 2
        assert err.endswith("--sbatch takes the batch script's file, or - for standard input\n")

    def test_older_command_line_and_its_usage(self, capsys: pytest.CaptureFixture[str]) -> None:
        script = str(DATA / "gpu-2x4.sbatch")
        assert run(capsys, "tf-config", "--slurm", "--sbatch", script)[0] == 0
        status, _, err = run(capsys, "tf-config", "--job", "x", "--worker", "1", "--sbatch", script)
        assert status == 2 and "--sbatch goes with --slurm" in err

    def test_a_script_that_cannot_be_read(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        status, out, err = run(capsys, "tf-config", "slurm", "--sbatch", str(tmp_path / "none.sh"))
        assert (status, out) == (2, "")
        assert err == f"{tmp_path / 'none.sh'}: no such file\n1 error in 1 of 1 file\n"
        status, _, err = run(capsys, "tf-config", "slurm", "--sbatch", str(tmp_path))
        assert status == 2 and "is a directory" in err


class TestHostileScripts:
    """A huge, binary or absurd script gets a clear error, fast."""

    @pytest.mark.parametrize(
        ("data", "said"),
        [
            (
                b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 40,
                "This does not look like a batch",
            ),
            (b"#!/bin/sh\n#SBATCH -N 2\n\x00\x01", "a NULL character"),
            (b"\xff\xfe#\x00!\x00/\x00", "This does not look like a batch"),
            (
                b"#!/bin/sh\n#SBATCH -N 99999999999999999999",
                '"99999999999999999999" is not a valid',
            ),
            (b"#!/bin/sh\n#SBATCH -N 2 --ntasks-per-node=65534", "65,534 tasks on the node"),
            (b"#!/bin/sh\n#SBATCH -N 100000 --ntasks-per-node=2", "200,000 tasks in the step"),
            (b"#!/bin/sh\n#SBATCH -n 100001 -N 1", "--ntasks=100,001, more than the 100,000"),
            (b"#!/bin/sh\n#SBATCH --gres=gpu:1p", "GPUs, more than the 1,024 of any node"),
            (b"#!/bin/sh\n#SBATCH -w n[1-65536],m[1-65536]", "more than 100,000 hosts"),
            (b"#!/bin/sh\n" + b"#SBATCH -v\n" * 10_001, "more than 10,000 #SBATCH lines"),
        ],
    )
    def test_refused_fast_with_a_clear_error(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, data: bytes, said: str
    ) -> None:
        script = tmp_path / "job.sbatch"
        script.write_bytes(data)
        start = time.process_time()
        status, out, err = run(capsys, "tf-config", "slurm", "--sbatch", str(script), "--rank", "0")
        assert time.process_time() - start < 2.0
        assert (status, out) == (1, "")
        assert said in err and "Traceback" not in err
        assert all(len(line) < 400 for line in err.splitlines())

    def test_a_script_larger_than_max_size_is_not_read(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        script = tmp_path / "job.sbatch"
        script.write_bytes(b"#!/bin/sh\n#SBATCH -N 1\n" + b"echo x\n" * 200_000)
        argv = ("tf-config", "slurm", "--sbatch", str(script), "--max-size", "100000")
        status, out, err = run(capsys, *argv)
        assert (status, out) == (1, "")
        assert err.startswith(f"{script}: the file is larger than the limit of 100000 bytes")

    def test_a_long_body_after_the_directives_costs_nothing(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        script = tmp_path / "job.sbatch"
        script.write_bytes(b"#!/bin/sh\n#SBATCH -N 2 --gres=gpu:1\n" + b"echo " * 10_000_000)
        start = time.process_time()
        status, out, _ = run(capsys, "tf-config", "slurm", "--sbatch", str(script), "--rank", "1")
        assert time.process_time() - start < 2.0
        assert status == 0 and json.loads(out)["task"]["index"] == 1


@st.composite
def jobs(draw: st.DrawFn) -> tuple[bytes, tuple[str, ...]]:
    """A job written as ``#SBATCH`` directives in any spelling, and the options of its step."""
    nodes = draw(st.integers(1, 4))
    per_node = draw(st.integers(1, 3))
    gpus = per_node * draw(st.integers(1, 2))
    named = draw(st.booleans())
    hostlist = (
        f"gpu[1{0}-1{nodes - 1}]" if named else ("node1" if nodes == 1 else f"node[1-{nodes}]")
    )

    def spelling(long: str, short: str | None, value: str) -> str:
        forms = [f"--{long}={value}", f"--{long} {value}", f'--{long}="{value}"']
        if short:
            forms += [f"-{short}{value}", f"-{short} {value}", f"-{short} '{value}'"]
        return draw(st.sampled_from(forms))

    words = [
        spelling("nodes", "N", str(nodes)),
        spelling(
            draw(st.sampled_from(["ntasks-per-node", "tasks-per-node", "ntasks-per-n"])),
            None,
            str(per_node),
        ),
        draw(
            st.sampled_from(
                [
                    spelling("gres", None, f"gpu:{gpus}"),
                    spelling("gres", None, f"gpu:a100:{gpus}"),
                    spelling("gpus-per-node", None, f"v100:{gpus}"),
                    spelling("gpus-per-node", None, str(gpus)),
                ]
            )
        ),
        spelling("job-name", "J", "train"),
    ]
    if named:
        words.append(spelling("nodelist", "w", hostlist))
    words = draw(st.permutations(words))
    lines: list[str] = []
    open_line = False  # the last line is a directive a word may be added to
    for word in words:
        if open_line and draw(st.booleans()):
            lines[-1] += " " + word
        else:
            lines.append("#SBATCH " + word)
        ending = draw(st.sampled_from(["", "", "  # why", "\t"]))
        lines[-1] += ending
        open_line = "#" not in ending
        if draw(st.integers(0, 3)) == 0:
            lines.append(draw(st.sampled_from(["", "# a comment", "  "])))
            open_line = False
    script = "\n".join(["#!/bin/bash", *lines, "srun python train.py", ""]).encode()
    options = (
        "--nodelist",
        hostlist,
        "--tasks-per-node",
        str(per_node),
        "--gpus-per-node",
        str(gpus),
    )
    return script, options


@settings(max_examples=40, deadline=None)
@given(case=jobs(), write=st.booleans())
def test_directives_in_any_spelling_give_what_the_options_give(
    case: tuple[bytes, tuple[str, ...]], write: bool
) -> None:
    script, options = case
    extra = ("--write",) if write else ()
    scripted = _run(
        "tf-config", "slurm", "--sbatch", "-", *extra, "--format", "shell", stdin=script
    )
    given = _run("tf-config", "slurm", *options, *extra, "--format", "shell")
    assert scripted[:2] == given[:2]
    assert scripted[0] in (0, 1) and scripted[1]
