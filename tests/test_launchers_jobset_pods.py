"""estconf.launchers.jobset.pods: a JobSet's pods in pod order, and each container's variables."""

from __future__ import annotations

from typing import Any

import pytest

from estconf.launchers.jobset.model import JobSet
from estconf.launchers.jobset.pods import (
    COMPLETION_INDEX,
    JOB_COMPLETION_INDEX,
    Configs,
    NotKnown,
    pod_count,
    pods,
    service_variable,
    variables,
)


def jobset(*replicated: dict[str, Any], **spec: Any) -> JobSet:
    return JobSet.model_validate(
        {
            "apiVersion": "jobset.x-k8s.io/v1alpha2",
            "kind": "JobSet",
            "metadata": {"name": "mnist", "namespace": "ml"},
            "spec": {"replicatedJobs": list(replicated), **spec},
        }
    )


def replicated(name: str, replicas: int = 1, env: list[Any] | None = None, **job: Any) -> Any:
    container: dict[str, Any] = {"name": "tensorflow", "image": "tf"}
    if env is not None:
        container["env"] = env
    return {
        "name": name,
        "replicas": replicas,
        "template": {"spec": {**job, "template": {"spec": {"containers": [container]}}}},
    }


class TestPodOrder:
    def test_pods_come_by_replicated_job_as_written_then_job_then_index(self) -> None:
        found = pods(
            jobset(
                replicated("worker", 2, parallelism=2, completions=2),
                replicated("ps", 1, parallelism=1, completions=1),
            )
        )
        assert [pod.name for pod in found] == [
            "mnist-worker-0-0",
            "mnist-worker-0-1",
            "mnist-worker-1-0",
            "mnist-worker-1-1",
            "mnist-ps-0-0",
        ]

    def test_a_pod_is_reached_at_its_hostname_under_the_subdomain(self) -> None:
        [pod] = pods(jobset(replicated("chief")))
        assert (pod.hostname, pod.dns_name, pod.namespace) == (
            "mnist-chief-0-0",
            "mnist-chief-0-0.mnist",
            "ml",
        )
        [pod] = pods(jobset(replicated("chief"), network={"subdomain": "tf"}))
        assert pod.dns_name == "mnist-chief-0-0.tf"

    def test_with_dns_hostnames_off_a_pod_has_no_dns_name(self) -> None:
        [pod] = pods(jobset(replicated("chief"), network={"enableDNSHostnames": False}))
        assert (pod.hostname, pod.dns_name) == ("mnist-chief-0-0", None)

    def test_every_index_up_to_completions_gets_a_pod(self) -> None:
        found = list(pods(jobset(replicated("worker", parallelism=2, completions=5))))
        assert [pod.index for pod in found] == [0, 1, 2, 3, 4]

    @pytest.mark.parametrize(
        ("job", "count"),
        [
            ({}, 1),
            ({"parallelism": 3}, 0),  # Indexed without completions: the Job is refused
            ({"completions": 3}, 3),
            ({"parallelism": 0, "completions": 3}, 0),
            ({"completionMode": "NonIndexed", "parallelism": 3}, 3),
            ({"completionMode": "NonIndexed", "parallelism": 3, "completions": 2}, 2),
        ],
    )
    def test_a_jobs_pods_are_counted_as_kubernetes_defaults_it(
        self, job: dict[str, Any], count: int
    ) -> None:
        found = jobset(replicated("worker", 2, **job))
        assert pod_count(found.spec.replicated_jobs[0]) == 2 * count
        assert len(list(pods(found))) == 2 * count

    def test_a_pod_of_a_non_indexed_job_has_no_hostname(self) -> None:
        found = list(pods(jobset(replicated("w", completionMode="NonIndexed", parallelism=2))))
        assert [(pod.name, pod.hostname, pod.dns_name) for pod in found] == [
            ("mnist-w-0-xxxxx", None, None),
            ("mnist-w-0-xxxxx", None, None),
        ]
        assert COMPLETION_INDEX not in found[0].annotations

    def test_a_jobset_with_only_generate_name_needs_a_name(self) -> None:
        found = JobSet.model_validate(
            {
                "apiVersion": "jobset.x-k8s.io/v1alpha2",
                "kind": "JobSet",
                "metadata": {"generateName": "mnist-"},
                "spec": {"replicatedJobs": [replicated("w")]},
            }
        )
        with pytest.raises(ValueError, match="only generateName"):
            list(pods(found))
        assert [pod.name for pod in pods(found, "mnist-abcde")] == ["mnist-abcde-w-0-0"]

    def test_only_the_replicated_jobs_asked_for(self) -> None:
        found = jobset(replicated("a", 3), replicated("b", 2))
        assert [pod.name for pod in pods(found, positions={1})] == ["mnist-b-0-0", "mnist-b-1-0"]


class TestLabelsAndAnnotations:
    def test_each_pod_carries_jobsets_labels_and_its_completion_index(self) -> None:
        found = list(
            pods(
                jobset(
                    replicated("chief"),
                    replicated("worker", 2, parallelism=2, completions=2),
                )
            )
        )
        pod = found[4]  # mnist-worker-1-1
        assert pod.name == "mnist-worker-1-1"
        expected = {
            "jobset.sigs.k8s.io/jobset-name": "mnist",
            "jobset.sigs.k8s.io/replicatedjob-name": "worker",
            "jobset.sigs.k8s.io/replicatedjob-replicas": "2",
            "jobset.sigs.k8s.io/job-index": "1",
            "jobset.sigs.k8s.io/job-global-index": "2",
            "jobset.sigs.k8s.io/global-replicas": "3",
            "jobset.sigs.k8s.io/group-name": "default",
            "jobset.sigs.k8s.io/restart-attempt": "0",
            COMPLETION_INDEX: "1",
        }
        assert expected.items() <= pod.annotations.items()
        assert expected.items() <= pod.labels.items()
        assert pod.labels["batch.kubernetes.io/job-name"] == "mnist-worker-1"
        assert pod.labels["jobset.sigs.k8s.io/jobset-uid"] is None  # known once created

    def test_a_job_key_is_the_sha1_of_its_namespace_and_name(self) -> None:
        import hashlib

        [pod] = pods(jobset(replicated("chief")))
        expected = hashlib.sha1(b"ml/mnist-chief-0").hexdigest()
        assert pod.labels["jobset.sigs.k8s.io/job-key"] == expected

    def test_the_template_labels_stay_and_the_coordinator_is_named(self) -> None:
        job = replicated("w")
        job["template"]["spec"]["template"]["metadata"] = {"labels": {"team": "ml"}}
        [pod] = pods(jobset(job, coordinator={"replicatedJob": "w"}))
        assert pod.labels["team"] == "ml"
        assert pod.labels["jobset.sigs.k8s.io/coordinator"] == "mnist-w-0-0.mnist"

    def test_group_indexes_count_the_jobs_of_a_group(self) -> None:
        a, b = replicated("a", 2), replicated("b", 3)
        b["groupName"] = "g"
        found = [pod for pod in pods(jobset(a, b)) if pod.replicated_job == "b"]
        assert [pod.labels["jobset.sigs.k8s.io/job-group-index"] for pod in found] == [
            "0",
            "1",
            "2",
        ]
        assert found[0].labels["jobset.sigs.k8s.io/group-replicas"] == "3"

    def test_a_pods_name_ends_in_five_random_characters(self) -> None:
        [pod] = pods(jobset(replicated("w")))
        assert pod.pod_name == "mnist-w-0-0-xxxxx"

    def test_a_long_job_name_is_cut_in_the_pods_name_not_its_hostname(self) -> None:
        long = "w" * 60
        [pod] = pods(jobset(replicated(long)))
        assert pod.hostname == f"mnist-{long}-0-0"
        assert len(pod.pod_name) == 63
        assert pod.pod_name.endswith("-0-xxxxx")


def variables_of(env: list[Any], configs: Configs | None = None, **pod_spec: Any) -> Any:
    found = jobset(replicated("worker", env=env, parallelism=3, completions=3))
    container = found.spec.replicated_jobs[0].template.spec.template.spec.containers[0]
    pod = list(pods(found))[2]
    return variables(pod, container, configs=configs, **pod_spec)


INDEX_FROM_ANNOTATION = {
    "name": "TASK_INDEX",
    "valueFrom": {"fieldRef": {"fieldPath": f"metadata.annotations['{COMPLETION_INDEX}']"}},
}


class TestVariables:
    def test_job_completion_index_is_appended_last(self) -> None:
        found, _ = variables_of([{"name": "TF_CONFIG", "value": "$(JOB_COMPLETION_INDEX)"}])
        assert found["TF_CONFIG"].value == "$(JOB_COMPLETION_INDEX)"
        assert found["TF_CONFIG"].unexpanded == (JOB_COMPLETION_INDEX,)
        assert found[JOB_COMPLETION_INDEX].value == "2"
        assert found[JOB_COMPLETION_INDEX].position == 1

    def test_job_completion_index_defined_by_the_container_is_its_own(self) -> None:
        # A name read from a file is a distinct object of equal text.
        found, _ = variables_of(
            [
                {"name": "".join(["JOB_COMPLETION", "_INDEX"]), "value": "7"},
                {"name": "I", "value": "$(JOB_COMPLETION_INDEX)"},
            ]
        )
        assert (found[JOB_COMPLETION_INDEX].value, found["I"].value) == ("7", "7")

    def test_a_variable_of_no_value_is_defined_empty(self) -> None:
        found, _ = variables_of([{"name": "EMPTY"}, {"name": "A", "value": "[$(EMPTY)]"}])
        assert (found["EMPTY"].value, found["A"].value) == ("", "[]")

    def test_a_value_from_the_containers_resources_is_known_once_the_pod_runs(self) -> None:
        found, _ = variables_of(
            [
                {"name": "CPU", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu"}}},
                {"name": "A", "value": "$(CPU)"},
            ]
        )
        assert found["CPU"].unknown == ("resource limits.cpu",)
        assert found["A"].value == "<resource limits.cpu>"

    def test_an_index_read_before_tf_config_expands(self) -> None:
        found, _ = variables_of(
            [INDEX_FROM_ANNOTATION, {"name": "TF_CONFIG", "value": '{"index": $(TASK_INDEX)}'}]
        )
        assert found["TF_CONFIG"].value == '{"index": 2}'

    def test_the_downward_api_gives_the_pods_own_values(self) -> None:
        def field(name: str, path: str) -> dict[str, Any]:
            return {"name": name, "valueFrom": {"fieldRef": {"fieldPath": path}}}

        found, _ = variables_of(
            [
                field("NAME", "metadata.name"),
                field("NS", "metadata.namespace"),
                field("JOBSET", "metadata.labels['jobset.sigs.k8s.io/jobset-name']"),
                field("UID", "metadata.labels['jobset.sigs.k8s.io/jobset-uid']"),
                field("IP", "status.podIP"),
                field("SA", "spec.serviceAccountName"),
                field("BAD", "spec.hostname"),
            ],
            service_account="trainer",
        )
        values = {name: variable.value for name, variable in found.items()}
        assert values["NAME"] == "mnist-worker-0-2-xxxxx"
        assert (values["NS"], values["JOBSET"], values["SA"]) == ("ml", "mnist", "trainer")
        assert values["UID"] == "<metadata.labels['jobset.sigs.k8s.io/jobset-uid']>"
        assert values["IP"] == "<status.podIP>"
        assert found["BAD"].unknown == ("spec.hostname",)

    def test_config_maps_and_secrets_given_are_read(self) -> None:
        import base64

        configs = Configs(
            config_maps={("ml", "tf"): {"TF_CONFIG": "{}", "HOSTS": "a,b"}},
            secrets={("ml", "s"): {"TOKEN": base64.b64encode(b"t").decode()}},
        )
        found, not_known = variables_of(
            [
                {"name": "A", "valueFrom": {"configMapKeyRef": {"name": "tf", "key": "HOSTS"}}},
                {"name": "B", "valueFrom": {"secretKeyRef": {"name": "s", "key": "TOKEN"}}},
                {"name": "C", "valueFrom": {"configMapKeyRef": {"name": "other", "key": "K"}}},
                {
                    "name": "D",
                    "valueFrom": {"configMapKeyRef": {"name": "tf", "key": "NO", "optional": True}},
                },
            ],
            configs,
        )
        assert found["A"].value == "a,b"
        assert found["C"].value == "<configMap other/K>"
        assert "D" not in found
        assert not_known == NotKnown((), "ml")

    def test_env_from_a_config_map_given_defines_its_keys(self) -> None:
        configs = Configs(config_maps={("ml", "tf"): {"TF_CONFIG": "{}", "bad key": "x"}})
        job = replicated("w")
        job["template"]["spec"]["template"]["spec"]["containers"][0]["envFrom"] = [
            {"configMapRef": {"name": "tf"}, "prefix": "X_"},
            {"secretRef": {"name": "missing"}},
        ]
        found = jobset(job)
        container = found.spec.replicated_jobs[0].template.spec.template.spec.containers[0]
        values, not_known = variables(next(pods(found)), container, configs=configs)
        assert values["X_TF_CONFIG"].value == "{}"
        assert "X_bad key" not in values
        assert not_known.env_from == ("Secret 'missing'",)
        assert not_known.may_define("ANYTHING")

    def test_the_api_servers_service_variables_are_defined(self) -> None:
        found, not_known = variables_of([{"name": "A", "value": "$(KUBERNETES_SERVICE_HOST)"}])
        assert found["A"].value == "<KUBERNETES_SERVICE_HOST>"
        assert not_known.may_define("MODEL_SERVICE_HOST")
        assert not not_known.may_define("TASK_INDEX")
        _, without_links = variables_of([], service_links=False)
        assert not without_links.may_define("MODEL_SERVICE_HOST")

    @pytest.mark.parametrize(
        ("name", "service"),
        [
            ("REDIS_SERVICE_HOST", True),
            ("REDIS_SERVICE_PORT", True),
            ("REDIS_SERVICE_PORT_HTTP", True),
            ("REDIS_PORT", True),
            ("REDIS_PORT_6379_TCP_ADDR", True),
            ("TASK_INDEX", False),
            ("SERVICE_HOST", False),
        ],
    )
    def test_a_service_variable_is_told_by_its_name(self, name: str, service: bool) -> None:
        assert service_variable(name) is service


class TestWhatKubernetesAdds:
    @pytest.mark.parametrize(
        "name",
        [
            "KUBERNETES_SERVICE_HOST",
            "KUBERNETES_SERVICE_PORT",
            "KUBERNETES_SERVICE_PORT_HTTPS",
            "KUBERNETES_PORT",
            "KUBERNETES_PORT_443_TCP",
            "KUBERNETES_PORT_443_TCP_PROTO",
            "KUBERNETES_PORT_443_TCP_PORT",
            "KUBERNETES_PORT_443_TCP_ADDR",
        ],
    )
    def test_every_variable_of_the_api_servers_service_is_defined(self, name: str) -> None:
        found, _ = variables_of([{"name": "A", "value": f"$({name})"}])
        assert found["A"].value == f"<{name}>"
        assert found["A"].unexpanded == ()

    def test_the_job_controller_labels_a_pod_with_its_jobs_name(self) -> None:
        found = list(pods(jobset(replicated("worker", 2))))
        assert [pod.labels["job-name"] for pod in found] == ["mnist-worker-0", "mnist-worker-1"]
        assert found[1].labels["batch.kubernetes.io/job-name"] == "mnist-worker-1"

    def test_the_job_controller_labels_a_pod_with_its_jobs_uid_known_once_created(self) -> None:
        [pod] = pods(jobset(replicated("worker")))
        assert pod.labels["controller-uid"] is None
        assert pod.labels["batch.kubernetes.io/controller-uid"] is None
        uid = {
            "name": "UID",
            "valueFrom": {"fieldRef": {"fieldPath": "metadata.labels['controller-uid']"}},
        }
        found, _ = variables_of([uid])
        assert found["UID"].unknown == ("metadata.labels['controller-uid']",)

    def test_a_group_is_the_jobs_of_an_equal_group_name(self) -> None:
        # Names read from a file are distinct objects of equal text.
        a, b, c = replicated("a", 2), replicated("b", 3), replicated("c", 1)
        a["groupName"], b["groupName"] = "".join(["tr", "ain"]), "".join(["tra", "in"])
        found = list(pods(jobset(a, b, c)))
        first_of_b = next(pod for pod in found if pod.replicated_job == "b")
        assert first_of_b.labels["jobset.sigs.k8s.io/group-replicas"] == "5"
        assert first_of_b.labels["jobset.sigs.k8s.io/job-group-index"] == "2"
        assert found[-1].labels["jobset.sigs.k8s.io/group-replicas"] == "1"


class TestEnvFrom:
    def test_a_source_after_an_unknown_one_is_still_read(self) -> None:
        configs = Configs(config_maps={("ml", "tf"): {"TF_CONFIG": "{}"}})
        job = replicated("w")
        job["template"]["spec"]["template"]["spec"]["containers"][0]["envFrom"] = [
            {"secretRef": {"name": "missing"}},
            {"configMapRef": {"name": "other"}},
            {"configMapRef": {"name": "tf"}},
        ]
        found = jobset(job)
        container = found.spec.replicated_jobs[0].template.spec.template.spec.containers[0]
        values, not_known = variables(next(pods(found)), container, configs=configs)
        assert values["TF_CONFIG"].value == "{}"
        assert not_known.env_from == ("Secret 'missing'", "ConfigMap 'other'")

    def test_an_entry_naming_no_source_defines_nothing_and_the_next_is_read(self) -> None:
        configs = Configs(config_maps={("ml", "tf"): {"TF_CONFIG": "{}"}})
        job = replicated("w")
        job["template"]["spec"]["template"]["spec"]["containers"][0]["envFrom"] = [
            {"prefix": "X_"},
            {"configMapRef": {"name": "tf"}},
        ]
        found = jobset(job)
        container = found.spec.replicated_jobs[0].template.spec.template.spec.containers[0]
        values, not_known = variables(next(pods(found)), container, configs=configs)
        assert values["TF_CONFIG"].value == "{}"
        assert not [name for name in values if name.startswith("X_")]
        assert not_known.env_from == ()

    def test_a_value_from_a_source_not_read_here_is_known_once_the_pod_runs(self) -> None:
        found, _ = variables_of(
            [
                {"name": "A", "valueFrom": {"fileKeyRef": {"path": "a.env", "key": "A"}}},
                {"name": "TF_CONFIG", "value": '{"index": $(A)}'},
            ]
        )
        assert found["A"].unknown == ("fileKeyRef",)
        assert found["TF_CONFIG"].value == '{"index": <fileKeyRef>}'
        assert found["TF_CONFIG"].unexpanded == ()
