"""estconf.launchers.jobset.addresses: a cluster's addresses read as names of a JobSet's pods."""

from __future__ import annotations

import pytest

from estconf.launchers.jobset.addresses import Target, cluster_addresses, read_address
from estconf.launchers.jobset.model import JobSet
from values import refuses_assignment


def jobset(network: dict[str, object] | None = None, **job: object) -> JobSet:
    spec: dict[str, object] = {
        "replicatedJobs": [
            {"name": "chief"},
            {"name": "worker", "replicas": 2, "template": {"spec": {"completions": 3, **job}}},
        ]
    }
    if network is not None:
        spec["network"] = network
    return JobSet.model_validate(
        {
            "apiVersion": "jobset.x-k8s.io/v1alpha2",
            "kind": "JobSet",
            "metadata": {"name": "m", "namespace": "ml"},
            "spec": spec,
        }
    )


@pytest.mark.parametrize(
    "address",
    [
        "m-worker-1-2.m:2222",
        "m-worker-1-2.m.ml:2222",
        "m-worker-1-2.m.ml.svc:2222",
        "m-worker-1-2.m.ml.svc.cluster.local:2222",
        "m-worker-1-2.m.ml.svc.corp.example:2222",
        "M-Worker-1-2.M.ml.svc.cluster.local.:2222",
    ],
)
def test_each_form_that_resolves_from_the_namespace_is_the_pod(address: str) -> None:
    assert read_address(address, jobset()) == (Target(1, 1, 2), True, None, None)


@pytest.mark.parametrize(
    ("address", "wrong"),
    [
        ("m-worker-1-2:2222", "a bare hostname resolves only in its own pod"),
        ("m-worker-1-2.tf:2222", "its subdomain is 'tf', and the JobSet's pods are under 'm'"),
        ("m-worker-1-2.m.prod:2222", "it is in namespace 'prod', and the JobSet is in 'ml'"),
        (
            "m-worker-1-2.m.svc.cluster.local:2222",
            "it names no namespace: m.svc.cluster.local is the domain of the Services of namespace",
        ),
        ("m-worker-1-2.m.ml.cluster.local:2222", "after the namespace comes 'svc'"),
        ("m-worker-2-0.m:2222", "replicated job 'worker' has 2 Jobs of 3 pods (m-worker-0-0 to"),
        ("m-worker-0-3.m:2222", "replicated job 'worker' has 2 Jobs of 3 pods"),
        ("m-eval-0-0.m:2222", "the JobSet has no replicated job 'eval' (it has 'chief', 'worker')"),
        ("old-worker-0-0.old:2222", "it is named after a JobSet 'old', and this one is 'm'"),
        ("old-worker-0-0.m:2222", "it is named after a JobSet 'old', and this one is 'm'"),
    ],
)
def test_a_hostname_of_the_jobset_that_names_no_pod(address: str, wrong: str) -> None:
    reading = read_address(address, jobset())
    assert reading.target is None and reading.by_hostname
    assert reading.wrong is not None and reading.wrong.startswith(wrong)
    assert reading.fix


def test_the_fix_writes_the_pods_name() -> None:
    assert read_address("m-worker-1-2.m.svc.cluster.local:2222", jobset()).fix == (
        "write it m-worker-1-2.m:2222"
    )


def test_the_subdomain_is_the_networks() -> None:
    ours = jobset({"subdomain": "tf"})
    assert read_address("m-worker-0-0.tf.ml.svc:1", ours).target == Target(1, 0, 0)
    assert read_address("m-worker-0-0.m:1", ours).wrong == (
        "its subdomain is 'm', and the JobSet's pods are under 'tf'"
    )


@pytest.mark.parametrize(
    "address",
    [
        "10.0.0.3:2222",
        "[fd00::3]:2222",
        "ps.ml.svc.cluster.local:2222",
        "worker-0.m:2222",
        "m-worker-01-0.m:2222",
        "other-ps-0-0.other:2222",
        ":2222",
    ],
)
def test_an_ip_or_a_name_of_another_shape_is_not_read(address: str) -> None:
    assert read_address(address, jobset()) == (None, False, None, None)


def test_the_pods_of_another_jobset_read_with_it_are_theirs() -> None:
    assert read_address("old-worker-0-0.old:1", jobset(), others=["old"]).wrong is None
    assert read_address("m-x-worker-0-0.m:1", jobset(), others=["m-x"]).wrong is None


def test_a_nonindexed_job_has_no_hostnames() -> None:
    reading = read_address("m-worker-0-0.m:1", jobset(completionMode="NonIndexed"))
    assert reading.wrong is not None and reading.wrong.endswith("random names and no hostname")


def test_with_dns_hostnames_off_an_address_by_hostname_is_still_the_pod() -> None:
    reading = read_address("m-worker-0-0:1", jobset({"enableDNSHostnames": False}))
    assert reading == (Target(1, 0, 0), True, None, None)


def test_the_addresses_of_a_cluster_with_their_paths() -> None:
    tf_config = {"cluster": {"worker": ["a:1", 2, "b:1"], "ps": {"3": "c:1"}, "x": 1}}
    assert list(cluster_addresses(tf_config)) == [
        ("cluster.worker[0]", "a:1"),
        ("cluster.worker[2]", "b:1"),
        ('cluster.ps["3"]', "c:1"),
    ]
    assert list(cluster_addresses([1])) == []
    assert list(cluster_addresses({"cluster": []})) == []


def named(metadata: dict[str, str]) -> JobSet:
    return JobSet.model_validate(
        {
            "apiVersion": "jobset.x-k8s.io/v1alpha2",
            "kind": "JobSet",
            "metadata": metadata,
            "spec": {"replicatedJobs": [{"name": "worker"}]},
        }
    )


def test_a_target_is_a_value() -> None:
    target = Target(1, 0, 2)
    refuses_assignment(target)
    assert hash(target) == hash(Target(1, 0, 2)) and target == Target(1, 0, 2)


def test_a_jobset_named_when_created_reads_its_name_from_its_label() -> None:
    """The API server names a JobSet of generateName: its pods' names come from its label."""
    created = named({"generateName": "m-", "name": "m-xxxxx"})
    reading = read_address("m-worker-0-0.m-xxxxx:2222", created)
    assert reading.fix is not None
    assert "metadata.labels['jobset.sigs.k8s.io/jobset-name']" in reading.fix
    assert reading.fix.endswith("$(JOBSET_NAME)-worker-<j>-<p>")


def test_a_jobset_named_otherwise_is_told_its_pods_names() -> None:
    for metadata in ({"name": "n"}, {"generateName": "m-", "name": "n"}):
        reading = read_address("m-worker-0-0.n:2222", named(metadata))
        assert reading.wrong == "it is named after a JobSet 'm', and this one is 'n'"
        assert reading.fix == "write the JobSet's pods n-worker-<j>-<p>"
