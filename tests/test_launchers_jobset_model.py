"""estconf.launchers.jobset.model: a JobSet manifest, with the defaults that decide its pods."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from estconf.launchers.jobset.model import Coordinator, JobSet, JobSpec


def jobset(**spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "jobset.x-k8s.io/v1alpha2",
        "kind": "JobSet",
        "metadata": {"name": "mnist"},
        "spec": spec,
    }


class TestDefaults:
    def test_webhook_and_api_defaults(self) -> None:
        found = JobSet.model_validate(jobset(replicatedJobs=[{"name": "w"}]))
        job = found.spec.replicated_jobs[0]
        assert (job.replicas, job.group_name) == (1, "default")
        assert job.template.spec.indexed
        assert (found.dns_hostnames, found.subdomain, found.namespace) == (True, "mnist", "default")

    def test_the_subdomain_given_and_dns_hostnames_off(self) -> None:
        found = JobSet.model_validate(
            jobset(network={"subdomain": "tf", "enableDNSHostnames": False})
        )
        assert (found.subdomain, found.dns_hostnames) == ("tf", False)

    def test_a_jobset_with_only_generate_name_has_no_name_nor_default_subdomain(self) -> None:
        data = {**jobset(), "metadata": {"generateName": "mnist-"}}
        found = JobSet.model_validate(data)
        assert (found.name, found.subdomain) == (None, None)

    @pytest.mark.parametrize(
        ("spec", "pods"),
        [
            ({}, 1),
            ({"completions": 4}, 4),
            ({"parallelism": 2, "completions": 4}, 4),
            ({"parallelism": 2}, None),
            ({"parallelism": 0, "completions": 4}, 0),
            ({"completionMode": "NonIndexed"}, 1),
            ({"completionMode": "NonIndexed", "parallelism": 5, "completions": 3}, 3),
            ({"completionMode": "NonIndexed", "parallelism": 5}, 5),
            ({"completionMode": "NonIndexed", "completions": 3}, 1),
        ],
    )
    def test_the_pods_of_a_job(self, spec: dict[str, Any], pods: int | None) -> None:
        assert JobSpec.model_validate(spec).pod_count == pods

    def test_a_group_a_coordinator_and_the_network_by_their_json_names(self) -> None:
        found = JobSet.model_validate(
            jobset(
                replicatedJobs=[{"name": "w", "groupName": "g"}],
                network={"publishNotReadyAddresses": True},
                coordinator={"replicatedJob": "w", "podIndex": 2},
            )
        )
        assert found.spec.replicated_jobs[0].group_name == "g"
        assert found.spec.network is not None
        assert found.spec.network.publish_not_ready_addresses is True
        assert found.spec.coordinator == Coordinator(replicated_job="w", job_index=0, pod_index=2)
        assert found.spec.coordinator.model_extra == {}


class TestRefused:
    @pytest.mark.parametrize(
        ("change", "code"),
        [
            ({"apiVersion": "jobset.x-k8s.io/v1alpha1"}, "literal_error"),
            ({"kind": "Job"}, "literal_error"),
            ({"spec": {"replicatedJobs": [{"name": "w", "replicas": -1}]}}, "greater_than_equal"),
            ({"spec": {"replicatedJobs": [{"name": "w", "replicas": "2"}]}}, "int_type"),
            ({"spec": {"replicatedJobs": [{"replicas": 2}]}}, "missing"),
            ({"metadata": {"name": "m", "labels": {"index": 0}}}, "string_type"),
        ],
    )
    def test_what_kubernetes_refuses_to_read(self, change: dict[str, Any], code: str) -> None:
        with pytest.raises(ValidationError) as info:
            JobSet.model_validate({**jobset(), **change})
        assert code in {error["type"] for error in info.value.errors()}

    def test_other_keys_are_kept_and_not_read(self) -> None:
        found = JobSet.model_validate(
            {**jobset(successPolicy={"operator": "Any"}), "status": {"restarts": 0}}
        )
        assert found.model_extra == {"status": {"restarts": 0}}
        assert hash(found) == hash(JobSet.model_validate(found.model_dump(by_alias=True)))
