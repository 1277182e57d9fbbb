"""estconf.launchers.jobset.tf_configs: the TF_CONFIG each pod of a JobSet reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from estconf._json import JSONInputError
from estconf.io.parse import stream_of
from estconf.launchers.jobset.model import JobSet
from estconf.launchers.jobset.pods import Configs, Pod, pods
from estconf.launchers.jobset.tf_configs import (
    PodTFConfig,
    named,
    pods_named,
    tf_config_container,
    tf_configs,
)
from values import refuses_assignment

DATA = Path(__file__).parent / "data" / "launchers" / "jobset"


def read(name: str) -> JobSet:
    [document] = stream_of((DATA / name).read_bytes(), name)
    return JobSet.model_validate(document.data)


def jobset(containers: list[dict[str, Any]], **job: Any) -> JobSet:
    return JobSet.model_validate(
        {
            "apiVersion": "jobset.x-k8s.io/v1alpha2",
            "kind": "JobSet",
            "metadata": {"name": "m"},
            "spec": {
                "replicatedJobs": [
                    {
                        "name": "w",
                        "template": {
                            "spec": {**job, "template": {"spec": {"containers": containers}}}
                        },
                    }
                ]
            },
        }
    )


def test_each_pod_of_the_chief_worker_ps_job_gets_its_own_task() -> None:
    found = list(tf_configs(read("chief_worker_ps.yaml")))
    tasks = [json.loads(each.text or "")["task"] for each in found]
    assert [(task["type"], task["index"]) for task in tasks] == [
        ("chief", 0),
        ("worker", 0),
        ("worker", 1),
        ("worker", 2),
        ("ps", 0),
        ("ps", 1),
    ]
    assert all(each.is_json and each.container == 0 for each in found)
    assert [each.entry for each in found] == [0, 1, 1, 1, 1, 1]


def test_a_completion_index_read_after_tf_config_stays_as_written() -> None:
    found = list(tf_configs(read("completion_index_unexpanded.yaml")))
    worker = found[1]
    assert worker.text is not None and '"index": $(JOB_COMPLETION_INDEX)}' in worker.text
    assert worker.unexpanded == ("JOB_COMPLETION_INDEX",)
    assert not worker.is_json and isinstance(worker.parsed, JSONInputError)
    assert found[0].is_json  # the chief's index is written as 0


def test_the_first_container_that_defines_tf_config_is_the_one() -> None:
    found = jobset(
        [
            {"name": "sidecar", "env": [{"name": "A", "value": "a"}]},
            {"name": "tensorflow", "env": [{"name": "TF_CONFIG", "value": "{}"}]},
            {"name": "other", "env": [{"name": "TF_CONFIG", "value": "[]"}]},
        ]
    )
    [each] = tf_configs(found)
    assert (each.container, each.container_name, each.text) == (1, "tensorflow", "{}")


def test_a_pod_none_of_whose_containers_defines_it_gets_none() -> None:
    found = jobset([{"name": "c", "envFrom": [{"configMapRef": {"name": "cm"}}]}])
    [each] = tf_configs(found)
    assert (each.text, each.container, each.may_be_set) == (None, None, ("ConfigMap 'cm'",))
    assert not each.is_json


def test_tf_config_from_a_config_map_given_through_env_from() -> None:
    found = jobset([{"name": "c", "envFrom": [{"configMapRef": {"name": "cm"}, "prefix": "TF_"}]}])
    configs = Configs(config_maps={("default", "cm"): {"CONFIG": '{"task": {}}'}})
    job = found.spec.replicated_jobs[0]
    assert tf_config_container(job, "default", configs) == (0, ())
    [each] = tf_configs(found, configs=configs)
    assert (each.text, each.entry) == ('{"task": {}}', None)


def test_a_reference_a_service_or_an_unknown_config_map_may_define_is_not_sure() -> None:
    found = jobset(
        [
            {
                "name": "c",
                "env": [{"name": "TF_CONFIG", "value": "$(CHIEF_SERVICE_HOST) $(TASK)"}],
            }
        ]
    )
    [each] = tf_configs(found)
    assert (each.unexpanded, each.may_expand) == (("TASK",), ("CHIEF_SERVICE_HOST",))
    from_unknown = jobset(
        [
            {
                "name": "c",
                "envFrom": [{"secretRef": {"name": "s"}}],
                "env": [{"name": "TF_CONFIG", "value": "$(TASK)"}],
            }
        ]
    )
    [each] = tf_configs(from_unknown)
    assert (each.unexpanded, each.may_expand) == ((), ("TASK",))


def test_pods_are_named_in_runs() -> None:
    found = list(pods(read("chief_worker_ps.yaml")))
    assert named(found) == (
        "mnist-chief-0-0, mnist-worker-0-0 to mnist-worker-0-2 and mnist-ps-0-0 to mnist-ps-0-1"
    )
    assert named(found[1:2]) == "mnist-worker-0-0"
    assert named([found[1], found[3]]) == "mnist-worker-0-0 and mnist-worker-0-2"
    assert named([found[0], found[1], found[3], found[5]]) == (
        "mnist-chief-0-0, mnist-worker-0-0, mnist-worker-0-2 and 1 more"
    )


def test_a_finding_names_one_pod_or_several() -> None:
    found = list(pods(read("chief_worker_ps.yaml")))
    assert pods_named(found[1:2]) == "pod mnist-worker-0-0"
    assert pods_named(found[1:4]) == "pods mnist-worker-0-0 to mnist-worker-0-2"


def test_a_run_goes_on_from_one_job_to_the_next() -> None:
    found = list(pods(read("custom_subdomain.yaml")))
    assert named(found) == "resnet-worker-0-0 to resnet-worker-3-0"
    assert (
        named(found[:1] + found[2:])
        == "resnet-worker-0-0 and resnet-worker-2-0 to resnet-worker-3-0"
    )


def test_a_tf_config_is_known_only_when_nothing_in_it_waits_for_the_pod() -> None:
    assert all(each.known for each in tf_configs(read("chief_worker_ps.yaml")))
    unexpanded = list(tf_configs(read("completion_index_unexpanded.yaml")))[1]
    none = jobset([{"name": "c", "env": [{"name": "A", "value": "a"}]}])
    may_expand = jobset(
        [
            {
                "name": "c",
                "envFrom": [{"secretRef": {"name": "s"}}],
                "env": [{"name": "TF_CONFIG", "value": "$(TASK)"}],
            }
        ]
    )
    at_run_time = jobset(
        [
            {
                "name": "c",
                "env": [
                    {"name": "IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}},
                    {"name": "TF_CONFIG", "value": "$(IP)"},
                ],
            }
        ]
    )
    [no_tf_config] = tf_configs(none)
    [from_secret] = tf_configs(may_expand)
    [pod_ip] = tf_configs(at_run_time)
    assert pod_ip.variable is not None and pod_ip.variable.unknown
    assert not any(each.known for each in (unexpanded, no_tf_config, from_secret, pod_ip))


def test_a_pod_and_its_tf_config_refuse_assignment() -> None:
    """Read by several checks in turn, neither is changed by one of them."""
    pod = Pod("m", "default", "worker", 0, 0, 1, True, 2, "m")
    refuses_assignment(pod)
    refuses_assignment(PodTFConfig(pod))


def test_known_is_false_not_merely_falsy() -> None:
    [no_tf_config] = tf_configs(jobset([{"name": "c", "env": [{"name": "A", "value": "a"}]}]))
    assert no_tf_config.known is False


def test_an_env_from_entry_with_no_source_does_not_end_the_search() -> None:
    found = jobset([{"name": "c", "envFrom": [{"prefix": "X_"}, {"configMapRef": {"name": "cm"}}]}])
    configs = Configs(config_maps={("default", "cm"): {"TF_CONFIG": "{}"}})
    assert tf_config_container(found.spec.replicated_jobs[0], "default", configs) == (0, ())


def test_service_links_on_as_written_let_a_service_define_a_reference() -> None:
    env = [{"name": "TF_CONFIG", "value": "$(CHIEF_SERVICE_HOST)"}]
    for links, may_expand in ((True, ("CHIEF_SERVICE_HOST",)), (False, ())):
        found = jobset([{"name": "c", "env": env}]).model_dump(by_alias=True, exclude_none=True)
        found["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"][
            "enableServiceLinks"
        ] = links
        [each] = tf_configs(JobSet.model_validate(found))
        assert each.may_expand == may_expand


def test_a_run_of_more_than_256_pods_is_one_run() -> None:
    found = list(pods(jobset([{"name": "c"}], parallelism=300, completions=300)))
    assert named(found) == "m-w-0-0 to m-w-0-299"


def test_a_run_goes_on_to_the_next_job_after_a_large_job() -> None:
    found = jobset([{"name": "c"}], parallelism=300, completions=300)
    two = found.model_copy(
        update={
            "spec": found.spec.model_copy(
                update={
                    "replicated_jobs": [
                        found.spec.replicated_jobs[0].model_copy(update={"replicas": 2})
                    ]
                }
            )
        }
    )
    assert named(list(pods(two))) == "m-w-0-0 to m-w-1-299"
