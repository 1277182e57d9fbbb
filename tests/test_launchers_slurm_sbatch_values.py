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

    def test_the_largest_count_is_one_below_a_c_ints_largest(self) -> None:
        """2,147,483,646 is read; 2,147,483,647 (``INT_MAX``) and more are too large."""
        assert positive(given("ntasks", "2147483646"), "job.sh") == 2147483646
        assert refused(positive, "ntasks", "2147483647") == (
            "Numeric argument (2147483647) too large for --ntasks."
        )


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

    @pytest.mark.parametrize("text", ["x-4", "+-4", "k-4"])
    def test_a_least_count_of_no_digits_is_refused_unless_it_is_blank(self, text: str) -> None:
        """Only a least count left out (``-4``, `` -4``) is 1; one of other text is refused."""
        assert node_counts(given("nodes", " -4"), "job.sh") == (1, 4)
        assert refused(node_counts, "nodes", text) == f'"{text}" is not a valid node count'

    def test_the_largest_node_count_read_is_a_c_ints_largest(self) -> None:
        """2,147,483,647 nodes are read, then bounded by the step; one more is refused."""
        assert refused(node_counts, "nodes", "2147483647") == (
            "2,147,483,647 nodes, more than the 100,000 of the largest step estconf builds"
        )
        assert refused(node_counts, "nodes", "2147483648") == (
            '"2147483648" is not a valid node count'
        )

    def test_a_list_of_sizes_reads_sizes_of_nine_digits(self) -> None:
        assert node_counts(given("nodes", "2,123456789"), "job.sh") == (2, 123456789)

    def test_a_hint_names_the_nodes_flag(self) -> None:
        with pytest.raises(Refused) as raised:
            node_counts(given("nodes", "two"), "job.sh")
        assert raised.value.found.hint == "give the node count: --nodes=N"

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

    def test_a_count_of_gpus_of_more_than_ten_digits_is_refused(self) -> None:
        """Ten digits are read, zeros before them not counted; eleven are refused unconverted."""
        assert gpu_counts(given("gpus-per-node", "9999999999"), "job.sh") == 9999999999
        assert gpu_counts(given("gpus-per-node", "0" * 11 + "4"), "job.sh") == 4
        assert gres_gpus(given("gres", "gpu:" + "0" * 11 + "4"), "job.sh") == 4
        assert "is not a count of GPUs" in refused(gpu_counts, "gpus-per-node", "10000000000")
        assert refused(gres_gpus, "gres", "gpu:10000000000").startswith(
            "'gpu:10000000000' is not a generic resource of GPUs"
        )

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

    def test_a_nodelist_file_is_refused_with_a_hint_to_give_the_hosts(self) -> None:
        message = refused(hosts, "nodelist", "./hosts.txt")
        assert "names a file of hosts" in message
        with pytest.raises(Refused) as raised:
            hosts(given("nodelist", "./hosts.txt"), "job.sh")
        assert raised.value.found.hint == "give the hosts with --nodelist HOSTLIST"

    def test_a_nodelist_of_more_hosts_than_a_step_has(self) -> None:
        start = time.process_time()
        message = refused(hosts, "nodelist", "n[1-65536],m[1-65536]")
        assert time.process_time() - start < 1.0
        assert "more than 100,000 hosts" in message
