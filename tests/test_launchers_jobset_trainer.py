"""estconf.launchers.jobset.trainer: the JobSet Kubeflow Trainer v2 makes of a TrainJob."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from estconf.io.parse import stream_of
from estconf.launchers.jobset.pods import pods
from estconf.launchers.jobset.tf_configs import tf_configs
from estconf.launchers.jobset.trainer import (
    ANCESTOR_LABEL,
    TrainingRuntime,
    TrainJob,
    jobset_of,
    runtime_of,
)
from values import refuses_assignment

DATA = Path(__file__).parent / "data" / "launchers" / "jobset"
API = "trainer.kubeflow.org/v1alpha1"


def node_job(name: str = "node", ancestor: str | None = "trainer", **spec: Any) -> dict[str, Any]:
    labels = {} if ancestor is None else {ANCESTOR_LABEL: ancestor}
    container = {
        "name": "node",
        "image": "runtime:1",
        "command": ["python", "runtime.py"],
        "env": [{"name": "A", "value": "runtime"}, {"name": "B", "value": "runtime"}],
    }
    return {
        "name": name,
        "replicas": 3,
        "template": {
            "metadata": {"labels": labels},
            "spec": {**spec, "template": {"spec": {"containers": [container]}}},
        },
    }


def runtime(
    *jobs: dict[str, Any], policy: dict[str, Any] | None = None, **kind: Any
) -> TrainingRuntime:
    spec: dict[str, Any] = {
        "template": {"metadata": {"labels": {"l": "v"}}, "spec": {"replicatedJobs": list(jobs)}}
    }
    if policy is not None:
        spec["mlPolicy"] = policy
    return TrainingRuntime.model_validate(
        {
            "apiVersion": API,
            "kind": kind.get("kind", "ClusterTrainingRuntime"),
            "metadata": {"name": kind.get("name", "tf"), **kind.get("metadata", {})},
            "spec": spec,
        }
    )


def trainjob(trainer: dict[str, Any] | None = None, **ref: Any) -> TrainJob:
    spec: dict[str, Any] = {"runtimeRef": {"name": "tf", **ref}}
    if trainer is not None:
        spec["trainer"] = trainer
    return TrainJob.model_validate(
        {
            "apiVersion": API,
            "kind": "TrainJob",
            "metadata": {"name": "mnist", "namespace": "ml"},
            "spec": spec,
        }
    )


def counts(built: Any) -> list[tuple[str, int, int | None, int | None]]:
    return [
        (job.name, job.replicas, job.template.spec.parallelism, job.template.spec.completions)
        for job in built.jobset.spec.replicated_jobs
    ]


class TestTheJobSet:
    def test_it_has_the_trainjobs_name_and_namespace_and_the_runtimes_labels(self) -> None:
        built = jobset_of(trainjob(), runtime(node_job()))
        assert (built.jobset.name, built.jobset.namespace) == ("mnist", "ml")
        assert built.jobset.metadata.labels == {"l": "v"}
        assert [pod.dns_name for pod in pods(built.jobset)] == ["mnist-node-0-0.mnist"]

    def test_the_trainer_job_gets_num_nodes_pods_and_one_replica(self) -> None:
        built = jobset_of(trainjob(), runtime(node_job(parallelism=7), policy={"numNodes": 4}))
        assert counts(built) == [("node", 1, 4, 4)]

    def test_num_nodes_defaults_to_one_and_no_policy_keeps_the_parallelism(self) -> None:
        assert counts(jobset_of(trainjob(), runtime(node_job(parallelism=7), policy={}))) == [
            ("node", 1, 1, 1)
        ]
        assert counts(jobset_of(trainjob(), runtime(node_job(parallelism=7)))) == [
            ("node", 1, 7, 7)
        ]

    def test_the_trainjobs_num_nodes_overrides_the_first_trainer_job_only(self) -> None:
        found = runtime(node_job("a"), node_job("b"), policy={"numNodes": 2})
        built = jobset_of(trainjob({"numNodes": 5}), found)
        assert counts(built) == [("a", 1, 5, 5), ("b", 1, 2, 2)]

    def test_mpis_own_rules_are_not_followed_for_num_nodes(self) -> None:
        found = runtime(node_job(), policy={"numNodes": 2, "mpi": {}})
        built = jobset_of(trainjob({"numNodes": 5}), found)
        assert (counts(built), built.plugin) == ([("node", 1, 2, 2)], "mpi")
        torch = jobset_of(trainjob({"numNodes": 5}), runtime(node_job(), policy={"torch": {}}))
        assert (counts(torch), torch.plugin) == ([("node", 1, 5, 5)], "torch")

    def test_an_unlabelled_job_keeps_its_template_but_completions_follow_parallelism(self) -> None:
        found = runtime(node_job(), node_job("ps", None, parallelism=2, completions=9))
        built = jobset_of(trainjob({"image": "mine:2"}), found)
        assert counts(built)[1] == ("ps", 3, 2, 2)
        ps = built.jobset.spec.replicated_jobs[1].template.spec.template.spec.containers[0]
        assert ps.image == "runtime:1"

    def test_the_initializers_get_one_replica(self) -> None:
        found = runtime(
            node_job("data", "dataset-initializer"), node_job("model", "model-initializer")
        )
        assert [job[1] for job in counts(jobset_of(trainjob(), found))] == [1, 1]

    def test_the_built_jobset_is_a_record(self) -> None:
        refuses_assignment(jobset_of(trainjob(), runtime(node_job())))


class TestTheNodeContainer:
    def test_it_takes_the_trainjobs_image_command_and_args(self) -> None:
        built = jobset_of(
            trainjob({"image": "mine:2", "command": ["python"], "args": ["train.py"]}),
            runtime(node_job()),
        )
        node = built.jobset.spec.replicated_jobs[0].template.spec.template.spec.containers[0]
        assert (node.image, node.command, node.args) == ("mine:2", ("python",), ("train.py",))

    def test_what_the_trainjob_leaves_out_stays_the_runtimes(self) -> None:
        built = jobset_of(trainjob({}), runtime(node_job()))
        node = built.jobset.spec.replicated_jobs[0].template.spec.template.spec.containers[0]
        assert (node.image, node.command, node.args) == (
            "runtime:1",
            ("python", "runtime.py"),
            None,
        )

    def test_an_env_entry_replaces_the_runtimes_in_place_else_is_appended(self) -> None:
        env = [{"name": "C", "value": "trainjob"}, {"name": "A", "value": "trainjob"}]
        built = jobset_of(trainjob({"env": env}), runtime(node_job()))
        node = built.jobset.spec.replicated_jobs[0].template.spec.template.spec.containers[0]
        assert [(entry.name, entry.value) for entry in node.env] == [
            ("A", "trainjob"),
            ("B", "runtime"),
            ("C", "trainjob"),
        ]
        assert built.from_trainjob == {(0, 0, 2): 0, (0, 0, 0): 1}

    def test_a_tf_config_replaced_in_place_before_its_index_is_not_expanded(self) -> None:
        """The runtime's TF_CONFIG comes before TASK_INDEX: the TrainJob's takes its place."""
        job = node_job()
        job["template"]["spec"]["template"]["spec"]["containers"][0]["env"] = [
            {"name": "TF_CONFIG", "value": "set by the TrainJob"},
            {"name": "TASK_INDEX", "value": "0"},
        ]
        env = [{"name": "TF_CONFIG", "value": '{"index": $(TASK_INDEX)}'}]
        built = jobset_of(trainjob({"env": env}), runtime(job))
        [found] = tf_configs(built.jobset)
        assert (found.text, found.unexpanded, found.entry) == (
            '{"index": $(TASK_INDEX)}',
            ("TASK_INDEX",),
            0,
        )


class TestTheRuntime:
    def test_a_cluster_training_runtime_by_default(self) -> None:
        cluster = runtime(node_job())
        named = runtime(node_job(), kind="TrainingRuntime", metadata={"namespace": "ml"})
        assert runtime_of(trainjob(), [named, cluster]) is cluster
        assert runtime_of(trainjob(kind="TrainingRuntime"), [cluster, named]) is named

    def test_a_training_runtime_of_another_namespace_is_not_it(self) -> None:
        other = runtime(node_job(), kind="TrainingRuntime", metadata={"namespace": "prod"})
        anywhere = runtime(node_job(), kind="TrainingRuntime")
        assert runtime_of(trainjob(kind="TrainingRuntime"), [other]) is None
        assert runtime_of(trainjob(kind="TrainingRuntime"), [other, anywhere]) is anywhere

    def test_a_runtime_is_found_by_the_names_written_in_the_files(self) -> None:
        text = (
            f"apiVersion: {API}\nkind: TrainJob\nmetadata: {{name: mnist, namespace: ml}}\n"
            "spec:\n  runtimeRef:\n    name: tf-plain\n    apiGroup: trainer.kubeflow.org\n"
            "    kind: ClusterTrainingRuntime\n---\n"
            f"apiVersion: {API}\nkind: ClusterTrainingRuntime\n"
            "metadata: {name: tf-plain, namespace: kubeflow}\n"
        )
        job, found = (document.data for document in stream_of(text, "t.yaml"))
        cluster = TrainingRuntime.model_validate(found)
        assert runtime_of(TrainJob.model_validate(job), [cluster]) is cluster

    def test_another_name_or_api_group_is_not_it(self) -> None:
        assert runtime_of(trainjob(), [runtime(node_job(), name="other")]) is None
        assert runtime_of(trainjob(apiGroup="example.com"), [runtime(node_job())]) is None


@pytest.mark.parametrize(
    ("files", "names"),
    [
        (
            ["trainjob_with_runtime.yaml"],
            ["mnist-node-0-0", "mnist-node-0-1", "mnist-node-0-2"],
        ),
        (
            ["trainjob_ps.yaml", "runtime_ps.yaml"],
            [
                "census-chief-0-0",
                "census-ps-0-0",
                "census-ps-0-1",
                "census-node-0-0",
                "census-node-0-1",
                "census-node-0-2",
                "census-node-0-3",
            ],
        ),
    ],
)
def test_the_data_files_pods_each_get_their_tf_config(files: list[str], names: list[str]) -> None:
    import json

    documents = [
        document.data for name in files for document in stream_of((DATA / name).read_bytes(), name)
    ]
    [job] = [TrainJob.model_validate(d) for d in documents if d["kind"] == "TrainJob"]
    found = [TrainingRuntime.model_validate(d) for d in documents if "Runtime" in d["kind"]]
    built = jobset_of(job, runtime_of(job, found) or found[0])
    predicted = list(tf_configs(built.jobset))
    assert [each.pod.name for each in predicted] == names
    tasks = [json.loads(each.text or "")["task"] for each in predicted]
    assert [task["index"] for task in tasks if task["type"] == "worker"] == list(
        range(len([task for task in tasks if task["type"] == "worker"]))
    )
    for each in predicted:
        cluster = json.loads(each.text or "")["cluster"]
        addresses = [address for job in cluster.values() for address in job]
        assert {f"{each.pod.dns_name}:2222" for each in predicted} == set(addresses)
