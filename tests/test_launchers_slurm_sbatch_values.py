"""estconf.launchers.slurm._sbatch_values: the values of sbatch's options, as SLURM reads them."""

from __future__ import annotations

import time

import pytest

from estconf.launchers.slurm._sbatch_values import (
    INT_MAX,
    Refused,
    gpu_counts,
    gres_gpus,
    hosts,
    node_counts,
    positive,
)
from estconf.launchers.slurm.directives import Directive


def given(option: str, value: str) -> Directive:
    return Directive(option, value, f"--{option}", 3, 9)


def refused(read: object, option: str, value: str) -> str:
    with pytest.raises(Refused) as raised:
        read(given(option, value), "job.sh")  # type: ignore[operator]
    found = raised.value.found
    assert (found.file, found.line, found.column, found.path) == ("job.sh", 3, 9, f"--{option}")
    return found.message


class TestCounts:
    """``--ntasks`` and ``--ntasks-per-node``: SLURM's ``parse_int``, a C ``strtol``."""

    @pytest.mark.parametrize(("text", "count"), [("4", 4), (" 4", 4), ("+4", 4), ("004", 4)])
    def test_read(self, text: str, count: int) -> None:
        assert positive(given("ntasks", text), "job.sh") == count

    @pytest.mark.parametrize("text", ["0", "-1", "4x", "", "x", "4 ", "\u0664", "0x10"])
    def test_refused_in_slurms_words(self, text: str) -> None:
        assert refused(positive, "ntasks", text) == f'Invalid numeric value "{text}" for --ntasks.'

    @pytest.mark.parametrize("text", [str(INT_MAX), "9" * 5000])
    def test_too_large(self, text: str) -> None:
        start = time.process_time()
        message = refused(positive, "ntasks-per-node", text)
        assert time.process_time() - start < 0.1
        assert (
            message.startswith("Numeric argument (")
            and "too large for --ntasks-per-node." in message
        )
        assert len(message) < 200


class TestNodeCounts:
    """``--nodes``: SLURM's ``verify_node_count``."""

    @pytest.mark.parametrize(
        ("text", "counts"),
        [
            ("2", (2, 2)),
            ("2-4", (2, 4)),
            ("-4", (1, 4)),
            ("2,4,8", (2, 8)),
            ("1-3:5", (1, 5)),
            ("1k", (1024, 1024)),
            (" 2 ", (2, 2)),
            ("0", (0, 0)),
        ],
    )
    def test_read(self, text: str, counts: tuple[int, int]) -> None:
        assert node_counts(given("nodes", text), "job.sh") == counts

    @pytest.mark.parametrize("text", ["two", "", "2-x", "2x", "-", "3000000000"])
    def test_refused_in_slurms_words(self, text: str) -> None:
        assert refused(node_counts, "nodes", text) == f'"{text}" is not a valid node count'

    def test_more_nodes_than_a_step_has(self) -> None:
        assert refused(node_counts, "nodes", "100001") == (
            "100,001 nodes, more than the 100,000 of the largest step estconf builds"
        )


class TestGPUs:
    @pytest.mark.parametrize(
        ("text", "gpus"),
        [("gpu:4", 4), ("gpu:a100:4", 4), ("gpu", 1), ("gpu:1k", 1024), ("nvme:2", None)],
    )
    def test_gres(self, text: str, gpus: int | None) -> None:
        assert gres_gpus(given("gres", text), "job.sh") == gpus

    def test_gres_refused(self) -> None:
        assert refused(gres_gpus, "gres", "gpu:1(S:0)").startswith(
            "'gpu:1(S:0)' is not a generic resource of GPUs"
        )

    @pytest.mark.parametrize(("text", "gpus"), [("4", 4), ("a100:4", 4), ("a:1,b:3", 4)])
    def test_gpus_per_node(self, text: str, gpus: int) -> None:
        assert gpu_counts(given("gpus-per-node", text), "job.sh") == gpus

    @pytest.mark.parametrize("text", ["", "x", "a:", "1k", "-1"])
    def test_gpus_per_node_refused(self, text: str) -> None:
        assert "is not a count of GPUs" in refused(gpu_counts, "gpus-per-node", text)


class TestHosts:
    def test_each_once_in_the_order_of_names_and_numbers(self) -> None:
        assert hosts(given("nodelist", "n10,n9,n[08-09],m,n9"), "job.sh") == [
            "m",
            "n08",
            "n9",
            "n09",
            "n10",
        ]

    def test_a_nodelist_of_more_hosts_than_a_step_has(self) -> None:
        start = time.process_time()
        message = refused(hosts, "nodelist", "n[1-65536],m[1-65536]")
        assert time.process_time() - start < 1.0
        assert "more than 100,000 hosts" in message
