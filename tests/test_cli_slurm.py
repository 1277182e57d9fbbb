"""estconf.cli._slurm: ``estconf tf-config --slurm``, TensorFlow's view of a step or a correct one.

The environments under tests/data/launchers/slurm/ are the SLURM variables of
a task inside ``srun`` and of a batch script outside it (docs/slurm.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli_main import run
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
    ("option", "most"), [("--port-base", 65535), ("--gpus-per-node", 1024), ("--rank", 99999)]
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
    [("--gpus-per-node", MAX_GPUS), ("--rank", MAX_TASKS - 1), ("--port-base", MAX_PORT)],
)
def test_the_bounds_of_the_options_are_the_resolvers(
    capsys: pytest.CaptureFixture[str], option: str, most: int
) -> None:
    """The options are checked before the resolver is imported, against its own bounds."""
    status, _, err = run(capsys, "tf-config", *NODE9_10, option, str(most + 1))
    assert status == 2
    assert f"{option}: expected a number, from 0 to {most}, not '{most + 1}'" in err
