"""estconf.ClusterSpec: the methods of tf.train.ClusterSpec, and the cluster rules."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from pydantic import ValidationError

import estconf.cluster
from estconf import ClusterSpec
from estconf._types import address_problem

from strategies import clusters

DOC_CLUSTER = {
    "chief": ["host0:2222"],
    "ps": ["host1:2222", "host2:2222"],
    "worker": ["host3:2222", "host4:2222", "host5:2222"],
}


def errors_of(data: Any) -> list[tuple[str, tuple[Any, ...], str]]:
    with pytest.raises(ValidationError) as info:
        ClusterSpec.model_validate(data)
    return [(e["type"], e["loc"], e["msg"]) for e in info.value.errors()]


class TestDenseJobs:
    cluster = ClusterSpec(DOC_CLUSTER)

    def test_jobs_keep_insertion_order(self) -> None:
        assert self.cluster.jobs == ["chief", "ps", "worker"]
        assert ClusterSpec({"b": ["h:1"], "a": ["h:2"]}).jobs == ["b", "a"]

    def test_num_tasks_and_indices(self) -> None:
        assert self.cluster.num_tasks("worker") == 3
        assert self.cluster.task_indices("ps") == [0, 1]

    def test_task_address(self) -> None:
        assert self.cluster.task_address("worker", 1) == "host4:2222"

    @pytest.mark.parametrize("index", [1, 1.0, True])
    def test_task_address_looks_indices_up_as_dict_keys(self, index: Any) -> None:
        assert self.cluster.task_address("worker", index) == "host4:2222"

    @pytest.mark.parametrize("index", [-1, 3, "1", 1.5, None, [1]])
    def test_task_address_of_no_task(self, index: Any) -> None:
        with pytest.raises(ValueError, match="its indices are \\[0, 1, 2\\]"):
            self.cluster.task_address("worker", index)

    def test_job_tasks(self) -> None:
        assert self.cluster.job_tasks("worker") == ["host3:2222", "host4:2222", "host5:2222"]

    def test_as_dict_gives_lists(self) -> None:
        assert self.cluster.as_dict() == DOC_CLUSTER

    def test_repr_sorts_jobs_as_tensorflow_does(self) -> None:
        cluster = ClusterSpec({"worker": ["h:1"], "chief": {"2": "h:2"}})
        assert repr(cluster) == "ClusterSpec({'chief': {2: 'h:2'}, 'worker': ['h:1']})"
        assert cluster.jobs == ["worker", "chief"]

    def test_bool(self) -> None:
        assert self.cluster
        assert not ClusterSpec({})
        assert not ClusterSpec()


class TestSparseJobs:
    cluster = ClusterSpec({"worker": {"1": "host1:2222", 3: "host3:2222"}, "ps": ["host0:1"]})

    def test_indices_are_read_as_integers(self) -> None:
        assert self.cluster.task_indices("worker") == [1, 3]

    def test_num_tasks_counts_tasks_not_holes(self) -> None:
        assert self.cluster.num_tasks("worker") == 2

    def test_job_tasks_has_none_in_holes(self) -> None:
        assert self.cluster.job_tasks("worker") == [None, "host1:2222", None, "host3:2222"]
        assert self.cluster.job_size("worker") == 4

    def test_as_dict_keeps_sparse_jobs_as_dicts(self) -> None:
        assert self.cluster.as_dict() == {
            "worker": {1: "host1:2222", 3: "host3:2222"},
            "ps": ["host0:1"],
        }

    def test_dense_indices_given_as_a_dict_become_a_list(self) -> None:
        cluster = ClusterSpec({"worker": {"1": "h:1", "0": "h:0"}})
        assert cluster.as_dict() == {"worker": ["h:0", "h:1"]}

    def test_task_address_of_a_hole(self) -> None:
        with pytest.raises(ValueError, match="No task with index 0 in job 'worker'"):
            self.cluster.task_address("worker", 0)

    @pytest.mark.parametrize("index", [0, 2, [1], {"1": 1}])
    def test_task_address_of_no_task(self, index: Any) -> None:
        """An index that cannot be a key (a list) names no task either."""
        with pytest.raises(ValueError, match="its indices are \\[1, 3\\]"):
            self.cluster.task_address("worker", index)


class TestReadLeniently:
    """A cluster built unchecked, as TensorFlow reads one estconf refuses (error messages)."""

    @staticmethod
    def lenient(jobs: dict[str, Any]) -> ClusterSpec:
        return ClusterSpec.model_construct(root=jobs)

    def test_a_negative_index_takes_a_place_from_the_end(self) -> None:
        cluster = self.lenient({"chief": {0: "c0:1", -3: "c3:1", 2: "c2:1"}})
        assert cluster.job_tasks("chief") == ["c3:1", None, "c2:1"]
        assert cluster.as_dict() == {"chief": ["c3:1", None, "c2:1"]}

    def test_a_negative_index_beside_indices_from_zero_keeps_a_dict(self) -> None:
        """Indices -1 and 0 are not 0..n-1: TensorFlow's ``as_dict`` gives a dict."""
        cluster = self.lenient({"chief": {0: "c0:1", -1: "c1:1"}})
        assert cluster.as_dict() == {"chief": {-1: "c1:1", 0: "c0:1"}}

    def test_the_order_the_job_lists_its_tasks_decides(self) -> None:
        cluster = self.lenient({"chief": {-3: "c3:1", 0: "c0:1", 2: "c2:1"}})
        assert cluster.job_tasks("chief") == ["c0:1", None, "c2:1"]

    def test_a_negative_index_too_far_back_is_left_out(self) -> None:
        """TensorFlow fails on it (IndexError); a message must still be written."""
        cluster = self.lenient({"worker": {-5: "w5:1", 1: "w1:1"}})
        assert repr(cluster) == "ClusterSpec({'worker': [None, 'w1:1']})"

    @pytest.mark.parametrize("tasks", [[], {}])
    def test_a_job_with_no_task_is_an_empty_dict(self, tasks: Any) -> None:
        assert self.lenient({"worker": tasks}).as_dict() == {"worker": {}}


class TestUnknownJob:
    @pytest.mark.parametrize("method", ["num_tasks", "task_indices", "job_tasks", "job_size"])
    def test_names_the_job_and_the_jobs_that_exist(self, method: str) -> None:
        cluster = ClusterSpec(DOC_CLUSTER)
        with pytest.raises(ValueError, match=r"No such job in cluster: 'evaluator'.*'chief'"):
            getattr(cluster, method)("evaluator")

    def test_task_address(self) -> None:
        with pytest.raises(ValueError, match="No such job in cluster: 'x'"):
            ClusterSpec(DOC_CLUSTER).task_address("x", 0)


class TestEquality:
    def test_equal_to_a_cluster_spec_with_the_same_tasks(self) -> None:
        assert ClusterSpec(DOC_CLUSTER) == ClusterSpec(DOC_CLUSTER)
        assert ClusterSpec({"w": ["h:0"]}) == ClusterSpec({"w": {"0": "h:0"}})
        assert ClusterSpec(DOC_CLUSTER) != ClusterSpec({"chief": ["host0:2222"]})

    def test_equal_to_a_plain_dict_in_either_form(self) -> None:
        assert ClusterSpec(DOC_CLUSTER) == DOC_CLUSTER
        assert ClusterSpec({"w": {"1": "h:1"}}) == {"w": {1: "h:1"}}
        assert ClusterSpec({"w": {"1": "h:1"}}) == {"w": {"1": "h:1"}}
        assert ClusterSpec({"w": ["h:0", "h:1"]}) == {"w": {0: "h:0", 1: "h:1"}}
        assert ClusterSpec({}) == {}
        assert ClusterSpec(DOC_CLUSTER) != {"chief": ["host0:2222"]}
        assert ClusterSpec(DOC_CLUSTER) != "chief"

    def test_equal_clusters_hash_alike(self) -> None:
        assert hash(ClusterSpec({"w": ["h:0"]})) == hash(ClusterSpec({"w": {"0": "h:0"}}))

    def test_accepts_an_object_with_as_dict(self) -> None:
        class Foreign:
            def as_dict(self) -> dict[str, Any]:
                return {"w": ["h:0"]}

        assert ClusterSpec.model_validate(Foreign()) == {"w": ["h:0"]}
        assert ClusterSpec({"w": ["h:0"]}) == Foreign()


class TestRejected:
    """Inputs TensorFlow rejects, and those estconf rejects on purpose (docs/compatibility.md)."""

    @pytest.mark.parametrize("data", [None, [], "worker", 5])
    def test_cluster_not_an_object(self, data: Any) -> None:
        assert errors_of(data) == [
            (
                "cluster_type",
                (),
                "`cluster` must be a dictionary mapping one or more job names to lists of "
                "network addresses, or a `ClusterDef` protocol buffer",
            )
        ]

    @pytest.mark.parametrize("tasks", ["host:1", 5, None])
    def test_tasks_not_a_list_or_object(self, tasks: Any) -> None:
        [(code, loc, msg)] = errors_of({"worker": tasks})
        assert (code, loc) == ("job_tasks_type", ("worker",))
        assert msg == (
            "The tasks for job 'worker' must be a list or a dictionary from integers to strings."
        )

    def test_every_job_with_tasks_of_the_wrong_type_is_reported(self) -> None:
        found = errors_of({"a": None, "b": ["h:1"], "c": 5})
        assert [(code, loc) for code, loc, _ in found] == [
            ("job_tasks_type", ("a",)),
            ("job_tasks_type", ("c",)),
        ]

    def test_address_not_a_string(self) -> None:
        [(code, loc, _)] = errors_of({"worker": ["h:1", 5]})
        assert (code, loc) == ("string_type", ("worker", 1))

    @pytest.mark.parametrize(
        "address",
        [
            "host",
            "host:",
            ":2222",
            "host:65536",
            "host:-1",
            "host:02",
            "ho st:1",
            "",
            "[::1:80",
            "::1:80",
            "[fe80::zz]:1",
            "300.1.1.1:80",
            "host:1\n",
            "-host:1",
            "a..b:1",
            "h:1:2",
        ],
    )
    def test_address_not_host_port(self, address: str) -> None:
        [(code, loc, msg)] = errors_of({"worker": ["ok:1", address]})
        assert (code, loc) == ("address", ("worker", 1))
        assert repr(address)[1:-1] in msg or address in msg

    @pytest.mark.parametrize(
        "address",
        [
            "host:0",
            "host:65535",
            "a.b-c.example.com:2222",
            "10.0.0.1:22",
            "[::1]:80",
            "[2001:db8::1]:8470",
            "my_service:80",
            "localhost:2222",
        ],
    )
    def test_good_addresses(self, address: str) -> None:
        assert ClusterSpec({"worker": [address]}).task_address("worker", 0) == address

    def test_address_used_twice(self) -> None:
        [(code, loc, msg)] = errors_of({"worker": ["h:1", "h:2"], "ps": {"3": "H:1"}})
        assert (code, loc) == ("address", ("ps", 3))
        assert "worker[0]" in msg and "ps[3]" in msg

    def test_addresses_differing_in_case_only_within_a_job(self) -> None:
        [(code, loc, _)] = errors_of({"worker": ["host:1", "HOST:1"]})
        assert (code, loc) == ("address", ("worker", 1))

    def test_same_ipv4_address_in_two_jobs(self) -> None:
        [(code, loc, _)] = errors_of({"chief": ["10.0.0.1:1"], "worker": ["10.0.0.1:1"]})
        assert (code, loc) == ("address", ("worker", 0))

    def test_ipv6_spellings_of_one_address_are_the_same_address(self) -> None:
        [(code, _, _)] = errors_of({"worker": ["[::1]:1", "[0:0::1]:1"]})
        assert code == "address"

    @pytest.mark.parametrize("job", ["1worker", "_w", "work er", "wörker", "w-1", "", "w\n"])
    def test_job_name_devices_cannot_hold(self, job: str) -> None:
        [(code, loc, _)] = errors_of({job: ["h:1"]})
        assert (code, loc) == ("job_name", (job, "[key]"))

    @pytest.mark.parametrize("tasks", [[], {}])
    def test_job_with_no_tasks(self, tasks: Any) -> None:
        [(code, loc, msg)] = errors_of({"worker": tasks})
        assert (code, loc) == ("empty_job", ("worker",))
        assert "has none" in msg

    def test_negative_sparse_index(self) -> None:
        [(code, loc, msg)] = errors_of({"worker": {"-1": "h:1"}})
        assert (code, loc) == ("sparse_index_negative", ("worker", -1))
        assert "negative" in msg

    def test_repeated_sparse_index(self) -> None:
        [(code, loc, msg)] = errors_of({"worker": {"1": "h:1", "01": "h:2"}})
        assert (code, loc) == ("sparse_index_repeated", ("worker", "01"))
        assert "'1' and '01'" in msg

    def test_an_address_of_the_wrong_type_is_said_in_tensorflows_words_before_a_repeated_index(
        self,
    ) -> None:
        # TensorFlow stops at the address: TypeError: Task address 'h:1' must be bytes or unicode
        found = errors_of({"trainer": {0: ("h:1",), 1: "host0:1", "01": "host0:3"}})
        assert [(code, loc) for code, loc, _ in found] == [("string_type", ("trainer", 0))]
        assert found[0][2] == "Task address 'h:1' must be bytes or unicode"

    def test_an_address_tensorflow_does_not_keep_leaves_the_repeated_index_said(self) -> None:
        # TensorFlow keeps the last address of index 5 and accepts the job
        found = errors_of({"trainer": {"0": "host0:0", "5": 5, 5: "host0:3"}})
        assert [(code, loc) for code, loc, _ in found] == [
            ("sparse_index_repeated", ("trainer", "5"))
        ]

    @pytest.mark.parametrize("key", ["1.0", " 1", "+1", "x", "\u0661"])
    def test_sparse_index_not_digits(self, key: str) -> None:
        [(code, loc, _)] = errors_of({"worker": {key: "h:1"}})
        assert (code, loc) == ("int_type", ("worker", key, "[key]"))

    def test_sparse_index_beyond_int32(self) -> None:
        [(code, loc, _)] = errors_of({"worker": {str(2**31): "h:1"}})
        assert (code, loc) == ("sparse_index_too_large", ("worker", 2**31))
        assert ClusterSpec({"worker": {str(2**31 - 1): "h:1"}}).job_size("worker") == 2**31

    @pytest.mark.parametrize(
        ("index", "code"),
        [(2**31, "sparse_index_too_large"), (-(2**31) - 1, "sparse_index_negative")],
    )
    def test_sparse_index_beyond_int32_in_protobuf_words(self, index: int, code: str) -> None:
        # TensorFlow's ClusterDef refuses it: ValueError: Value out of range: <index>
        [(found, _, msg)] = errors_of({"worker": {str(index): "h:1", "0": "h:2"}})
        assert found == code
        assert f"Value out of range: {index}" in msg
        [(_, _, msg)] = errors_of({"worker": {"-1": "h:1", "0": "h:2"}})
        assert "Value out of range" not in msg

    def test_all_errors_are_reported(self) -> None:
        found = errors_of({"1w": ["h:1"], "ps": [], "worker": ["bad", "h:2"], "w": {"-1": "h:3"}})
        assert [(code, loc) for code, loc, _ in found] == [
            ("job_name", ("1w", "[key]")),
            ("empty_job", ("ps",)),
            ("address", ("worker", 0)),
            ("sparse_index_negative", ("w", -1)),
        ]

    def test_invalid_addresses_of_sparse_jobs_are_reported_with_other_errors(self) -> None:
        found = errors_of({"ps": [1], "worker": {"1": "bad", "0": "h:1"}, "chief": ["H:99999"]})
        assert [(code, loc) for code, loc, _ in found] == [
            ("string_type", ("ps", 0)),
            ("address", ("worker", 1)),
            ("address", ("chief", 0)),
        ]

    def test_a_refused_job_name_still_has_its_addresses_checked(self) -> None:
        """Only a job whose tasks already have an error is left out of the address check."""
        found = errors_of({"1w": ["bad"], "ps": [1]})
        assert [(code, loc) for code, loc, _ in found] == [
            ("job_name", ("1w", "[key]")),
            ("address", ("1w", 0)),
            ("string_type", ("ps", 0)),
        ]

    @pytest.mark.parametrize("job", [None, 1.5])
    def test_a_job_name_that_is_not_text_is_reported_with_the_invalid_addresses(
        self, job: object
    ) -> None:
        """YAML keys can be null or a float; such a job is refused, not a crash."""
        found = errors_of({job: [], "worker": ["h:99999"]})
        assert [(code, loc) for code, loc, _ in found] == [
            ("string_type", (str(job), "[key]")),
            ("empty_job", (str(job),)),
            ("address", ("worker", 0)),
        ]

    @pytest.mark.parametrize(
        ("tasks", "loc", "address"),
        [
            (["h:1", 5], ("worker", 1), "5"),
            ([None], ("worker", 0), "None"),
            ([["h:1"]], ("worker", 0), "['h:1']"),
            ({"0": 2.5}, ("worker", "0"), "2.5"),
            # TensorFlow formats with ``%``, which unpacks a one-item tuple.
            ([("h:1",)], ("worker", 0), "'h:1'"),
            ([("h:1", "h:2")], ("worker", 0), "('h:1', 'h:2')"),
            ([()], ("worker", 0), "()"),
        ],
    )
    def test_an_address_that_is_not_text_is_refused_in_tensorflows_words(
        self, tasks: Any, loc: tuple[Any, ...], address: str
    ) -> None:
        assert errors_of({"worker": tasks}) == [
            ("string_type", loc, f"Task address {address} must be bytes or unicode")
        ]

    def test_bytes_are_refused_as_estconfs_own_rule(self) -> None:
        """TensorFlow takes bytes addresses; JSON has none, and estconf takes text only."""
        assert errors_of({"worker": [b"h:1"]}) == [
            ("string_type", ("worker", 0), "Input should be a valid string")
        ]

    def test_an_address_used_twice_is_found_once_the_cluster_is_well_formed(self) -> None:
        assert [(code, loc) for code, loc, _ in errors_of({"1ps": ["h:1", "h:1"]})] == [
            ("job_name", ("1ps", "[key]"))
        ]
        assert [(code, loc) for code, loc, _ in errors_of({"ps": ["h:1", "H:1"]})] == [
            ("address", ("ps", 1))
        ]


class TestRoundTrip:
    @given(clusters())
    def test_model_validate_model_dump(self, data: dict[str, Any]) -> None:
        cluster = ClusterSpec(data)
        assert ClusterSpec.model_validate(cluster.model_dump(mode="json")) == cluster
        assert ClusterSpec.model_validate(cluster.model_dump()) == cluster
        assert ClusterSpec.model_validate_json(cluster.model_dump_json()) == cluster

    @given(clusters())
    def test_as_dict_builds_the_same_cluster(self, data: dict[str, Any]) -> None:
        cluster = ClusterSpec(data)
        assert ClusterSpec(cluster.as_dict()) == cluster
        assert cluster == data

    @given(clusters())
    def test_methods_agree(self, data: dict[str, Any]) -> None:
        cluster = ClusterSpec(data)
        for job in cluster.jobs:
            tasks = cluster.job_tasks(job)
            assert len(tasks) == cluster.job_size(job)
            assert [i for i, a in enumerate(tasks) if a is not None] == cluster.task_indices(job)
            assert cluster.num_tasks(job) == len(cluster.task_indices(job))
            for index in cluster.task_indices(job):
                assert cluster.task_address(job, index) == tasks[index]


def hostname(length: int) -> str:
    """A hostname of ``length`` characters, in labels of at most 63."""
    labels, left = [], length
    while left > 0:
        size = min(63, left)
        labels.append("a" * size)
        left -= size + 1
    name = ".".join(labels)
    return name if len(name) == length else name[:-2] + "b"


class TestHostnameLength:
    """A hostname has at most 253 characters (RFC 1035)."""

    def test_253_characters_pass(self) -> None:
        address = f"{hostname(253)}:2222"
        assert len(address.partition(":")[0]) == 253
        assert ClusterSpec({"worker": [address]}).task_address("worker", 0) == address
        assert ClusterSpec({"worker": {"1": address}}).task_address("worker", 1) == address

    def test_253_characters_pass_when_checked_one_by_one(self) -> None:
        """An IPv6 address in the job sends every address of it to the full check."""
        address = f"{hostname(253)}:2222"
        assert address_problem(address) is None
        cluster = ClusterSpec({"worker": ["[::1]:1", address]})
        assert cluster.task_address("worker", 1) == address

    @pytest.mark.parametrize("sparse", [False, True])
    def test_254_characters_do_not(self, sparse: bool) -> None:
        address = f"{hostname(254)}:2222"
        assert len(address.partition(":")[0]) == 254
        tasks = {"0": "h:1", "1": address} if sparse else ["h:1", address]
        [(code, loc, msg)] = errors_of({"worker": tasks})
        assert (code, loc) == ("address", ("worker", 1))
        assert msg.endswith("the hostname is longer than 253 characters")


class TestIPv6Addresses:
    FULL = "[2001:0db8:0000:0000:0000:ff00:0042:8329]:2222"

    @pytest.mark.parametrize(
        "address",
        [FULL, "[2001:db8::ff00:42:8329]:2222", "[fe80::1%eth0]:1", "[::ffff:10.0.0.1]:1"],
    )
    def test_every_spelling_is_an_address(self, address: str) -> None:
        assert ClusterSpec({"worker": [address]}).task_address("worker", 0) == address

    def test_distinct_addresses_on_one_port(self) -> None:
        tasks = ["[::1]:2222", "[::2]:2222", self.FULL, "[2001:db8::ff00:42:8330]:2222"]
        assert ClusterSpec({"worker": tasks}).job_tasks("worker") == tasks

    def test_one_address_on_two_ports(self) -> None:
        assert ClusterSpec({"worker": ["[::1]:1", "[0::1]:2"]}).num_tasks("worker") == 2

    def test_full_and_short_spellings_of_one_address_are_the_same(self) -> None:
        [(code, loc, msg)] = errors_of(
            {"worker": [self.FULL], "ps": ["[2001:DB8::FF00:42:8329]:2222"]}
        )
        assert (code, loc) == ("address", ("ps", 0))
        assert "is already the address of worker[0]" in msg

    @pytest.mark.parametrize("digits", ["9" * 5000, "0" * 5000 + "1"])
    def test_a_port_of_thousands_of_digits_after_an_ipv6_host(self, digits: str) -> None:
        """More digits than Python's int() reads: still the address rule, with its reason."""
        [(code, loc, msg)] = errors_of({"worker": [f"fe80::1:{digits}"]})
        assert (code, loc) == ("address", ("worker", 0))
        assert msg.endswith(
            "an IPv6 host goes in brackets"
            if digits[0] == "0"
            else "(5,000 characters) is above 65535, the highest port"
        )

    @pytest.mark.parametrize("address", ["[1:2:3]:1", "[1:2:3:4:5:6:7:8:9]:1", "[1::2::3]:1"])
    def test_not_an_ipv6_address(self, address: str) -> None:
        [(code, loc, msg)] = errors_of({"worker": [address]})
        assert (code, loc) == ("address", ("worker", 0))
        host = address.rpartition(":")[0]
        assert f"the host '{host}' is not an IPv6 address (" in msg


def test_as_dict_gives_a_list_for_a_large_dense_job() -> None:
    tasks = [f"h{index}:1" for index in range(300)]
    cluster = ClusterSpec({"worker": {str(i): address for i, address in enumerate(tasks)}})
    assert cluster.as_dict() == {"worker": tasks}


def test_a_sparse_index_that_is_not_a_number_is_refused() -> None:
    found = errors_of({"worker": {None: "h:1", (1,): "h:2"}})
    assert [(code, loc) for code, loc, _ in found] == [
        ("int_type", ("worker", "None", "[key]")),
        ("int_type", ("worker", "(1,)", "[key]")),
    ]


def test_frozen() -> None:
    """A cluster cannot change once built (its derived views are computed once)."""
    cluster = ClusterSpec({"worker": ["h:1"]})
    with pytest.raises(ValidationError) as info:
        cluster.root = {"worker": ["h:2"]}  # type: ignore[misc]
    assert info.value.errors()[0]["type"] == "frozen_instance"
    assert cluster.task_address("worker", 0) == "h:1"


def test_job_validators_are_built_once() -> None:
    """The validators of a dense and of a sparse job are built on first use, then reused."""
    assert estconf.cluster._dense() is estconf.cluster._dense()
    assert estconf.cluster._sparse() is estconf.cluster._sparse()


def test_importing_builds_no_cluster_validator() -> None:
    """Importing ``ClusterSpec`` builds nothing that validates a cluster; the first one does.

    A base of ``ClusterSpec`` parametrized with the cluster's type would be
    built at import, with every job-name and address validator in it.
    """
    code = (
        "import typing, estconf\n"
        "cls = estconf.ClusterSpec\n"
        "built = [c for c in cls.__mro__ if c.__dict__.get('__pydantic_complete__')]\n"
        "assert all(c.__module__ == 'pydantic.root_model' or c.model_fields['root'].annotation\n"
        "           is typing.Any for c in built), built\n"
        "assert not cls.__pydantic_complete__\n"
        "cls({'worker': ['w:1']})\n"
        "assert cls.__pydantic_complete__\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_valid_cluster_is_checked_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """Distinct plain addresses never reach the address-by-address check that words errors."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the address-by-address check ran")

    monkeypatch.setattr(estconf.cluster, "_check_addresses", refuse)
    for count in (1, 2, 300, 301):
        cluster = ClusterSpec({"worker": [f"host{i}:2222" for i in range(count)]})
        assert cluster.num_tasks("worker") == count


def test_every_invalid_address_of_a_job_is_reported() -> None:
    assert [(code, loc) for code, loc, _ in errors_of({"w": ["bad", "also bad"]})] == [
        ("address", ("w", 0)),
        ("address", ("w", 1)),
    ]


def test_a_repeated_index_after_a_key_that_is_no_index() -> None:
    found = errors_of({"w": {"x": "h:1", "1": "h:2", "01": "h:3"}})
    assert ("sparse_index_repeated", ("w", "01")) in [(code, loc) for code, loc, _ in found]


def test_a_key_tensorflow_cannot_read_is_reported_beside_a_repeated_index() -> None:
    # TensorFlow fails on the key: invalid literal for int() with base 10: 'x'
    found = errors_of({"w": {"1": "h:1", "01": "h:2", "x": "h:3"}})
    assert [(code, loc) for code, loc, _ in found] == [
        ("sparse_index_repeated", ("w", "01")),
        ("int_type", ("w", "x", "[key]")),
    ]
    assert "invalid literal for int() with base 10: 'x'" in found[1][2]


@pytest.mark.parametrize("other", [{"w": {None: "h:1"}}, {"w": {"a": "h:1"}}, {"w": 5}])
def test_not_equal_to_what_is_no_cluster(other: Any) -> None:
    assert ClusterSpec({"w": ["h:1"]}) != other
