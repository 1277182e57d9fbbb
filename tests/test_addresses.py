"""estconf._addresses: a task at port 0 and loopback hosts, in a cluster of several tasks."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from estconf import ClusterSpec
from estconf._addresses import address_findings, is_loopback
from estconf.codes import declaration
from messages import too_long

from strategies import clusters


def found(cluster: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(f.code, f.severity, f.path) for f in address_findings(cluster)]


class TestPortZero:
    """Port 0 is any free port: the task listens where no other task can find it."""

    def test_a_task_at_port_0_among_others_is_warned_at_its_address(self) -> None:
        cluster = {"chief": ["c0:2222"], "worker": ["w0:0", "w1:2222"]}
        [warning] = address_findings(cluster)
        assert (warning.code, warning.severity, warning.loc) == (
            "port_zero",
            "warning",
            ("cluster", "worker", 0),
        )
        assert warning.value == "w0:0"
        assert warning.message == (
            "'w0:0' has port 0, any free port: task worker:0 listens on a port chosen when it "
            "starts, which the other 2 tasks of the cluster cannot know"
        )
        assert warning.hint == "give the task a fixed port, e.g. 'w0:2222'"

    def test_each_task_at_port_0_has_its_warning(self) -> None:
        cluster = {"chief": ["c0:0"], "worker": {"3": "w3:0"}, "ps": ["[fe80::1]:0"]}
        assert found(cluster) == [
            ("port_zero", "warning", "cluster.chief[0]"),
            ("port_zero", "warning", 'cluster.worker["3"]'),  # the index as written
            ("port_zero", "warning", "cluster.ps[0]"),
        ]
        hints = [f.hint for f in address_findings(cluster)]
        assert hints[2] == "give the task a fixed port, e.g. '[fe80::1]:2222'"
        assert "the other task of" in address_findings({"a": ["a:0"], "b": ["b:1"]})[0].message

    @pytest.mark.parametrize(
        "cluster",
        [
            {"chief": ["localhost:0"]},  # a task alone talks to no other
            {"worker": {"5": "w5:0"}},
            {"chief": ["c0:2222"], "evaluator": ["e0:0"]},  # the evaluator runs beside
            {"chief": ["c0:0"], "evaluator": ["e0:2222"]},
            {},
        ],
    )
    def test_none_in_a_cluster_of_one_training_task(self, cluster: dict[str, Any]) -> None:
        assert address_findings(cluster) == []

    @pytest.mark.parametrize("port", ["10", "20", "100", "65530"])
    def test_a_port_ending_in_0_is_a_port(self, port: str) -> None:
        assert address_findings({"chief": [f"c0:{port}"], "worker": ["w0:1"]}) == []


class TestLoopback:
    """A loopback host is each machine itself: the tasks meet only on one machine."""

    @pytest.mark.parametrize(
        "address",
        [
            "localhost:1",
            "LocalHost:1",
            "trainer.localhost:1",
            "127.0.0.1:1",
            "127.1.2.3:1",
            "[::1]:1",
            "[0:0:0:0:0:0:0:1]:1",
            "[::ffff:127.0.0.1]:1",
        ],
    )
    def test_loopback_hosts(self, address: str) -> None:
        assert is_loopback(address)

    @pytest.mark.parametrize(
        "address",
        ["h1:1", "localhost1:1", "mylocalhost:1", "10.0.0.1:1", "128.0.0.1:1", "[fe80::1]:1"],
    )
    def test_other_hosts(self, address: str) -> None:
        assert not is_loopback(address)

    def test_a_cluster_on_one_machine_gets_one_note(self) -> None:
        cluster = {"chief": ["localhost:2222"], "worker": ["localhost:2223", "127.0.0.1:2224"]}
        [note] = address_findings(cluster)
        assert (note.code, note.severity, note.path) == (
            "loopback_address",
            "note",
            "cluster.chief[0]",
        )
        assert note.message == (
            "every task of the cluster is at a loopback address ('localhost:2222', ...): the "
            "cluster works only when all its tasks run on the same machine"
        )
        assert note.hint == (
            "for tasks on several machines, give each task its machine's hostname or IP address"
        )

    def test_a_cluster_of_two_machines_names_its_loopback_tasks_and_another_host(self) -> None:
        cluster = {"chief": ["localhost:2222"], "worker": ["10.128.0.7:2222"]}
        [note] = address_findings(cluster)
        assert note.message == (
            "chief:0 is at a loopback address ('localhost:2222'), which each machine reads as "
            "itself: the cluster works only when every task runs on that one machine, and it "
            "also lists '10.128.0.7:2222'"
        )
        many = {"ps": [f"localhost:{port}" for port in range(1, 8)], "worker": ["h:1"]}
        assert address_findings(many)[0].message.startswith(
            "ps:0, ps:1, ps:2 and 4 more are at a loopback address ('localhost:1', ...)"
        )
        two = {"chief": ["localhost:1"], "worker": ["localhost:2", "h:1"]}
        assert address_findings(two)[0].message.startswith("chief:0 and worker:0 are at")

    def test_with_port_0_each_finding_is_in_the_order_of_the_cluster(self) -> None:
        cluster = {"ps": ["p0:0"], "chief": ["localhost:2222"], "worker": ["localhost:0"]}
        assert found(cluster) == [
            ("port_zero", "warning", "cluster.ps[0]"),
            ("loopback_address", "note", "cluster.chief[0]"),
            ("port_zero", "warning", "cluster.worker[0]"),
        ]

    def test_the_note_comes_at_the_first_loopback_task_before_a_port_0_after_it(self) -> None:
        """The note is in the cluster's order at its first loopback task, not at its last."""
        cluster = {"chief": ["localhost:2222"], "worker": ["w0:0", "localhost:2223"]}
        assert found(cluster) == [
            ("loopback_address", "note", "cluster.chief[0]"),
            ("port_zero", "warning", "cluster.worker[0]"),
        ]

    def test_none_for_one_task_or_beside_an_evaluator(self) -> None:
        assert address_findings({"chief": ["localhost:2222"]}) == []
        assert address_findings({"chief": ["h:1"], "evaluator": ["localhost:1"]}) == []


def test_each_finding_is_its_codes_severity_and_reads_at_a_glance() -> None:
    cluster = {"chief": ["localhost:2222"], "worker": ["w0:0", "w1:2222"]}
    for finding in address_findings(cluster):
        assert finding.severity == declaration(finding.code).severity
        assert too_long(finding.message) == []
        assert finding.hint is not None and too_long(finding.hint) == []


@given(clusters())
def test_a_finding_of_a_valid_cluster_is_at_one_of_its_addresses(cluster: dict[str, Any]) -> None:
    """What is found is true of the cluster; a cluster of one training task has nothing."""
    spec = ClusterSpec.model_validate(cluster, strict=True)
    findings = address_findings(spec.root)
    training = [job for job in spec.jobs if job != "evaluator"]
    if sum(len(spec.task_indices(job)) for job in training) < 2:
        assert findings == []
        return
    zero = sum(
        address.endswith(":0") for job in training for address in spec.job_tasks(job) if address
    )
    assert sum(f.code == "port_zero" for f in findings) == zero
    assert sum(f.code == "loopback_address" for f in findings) <= 1
    for finding in findings:
        _, job, index = finding.loc
        assert spec.task_address(str(job), int(index)) == finding.value


@given(st.sampled_from(["[::1]:0", "localhost:0", "127.0.0.1:0"]))
def test_a_task_at_port_0_of_this_machine_gets_both(address: str) -> None:
    assert found({"chief": [address], "worker": ["h:1"]}) == [
        ("loopback_address", "note", "cluster.chief[0]"),
        ("port_zero", "warning", "cluster.chief[0]"),
    ]
