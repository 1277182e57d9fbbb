"""launchers.volcano.plugin: the TF_CONFIG Volcano's tensorflow plugin writes into each pod.

The texts expected are those of Volcano v1.15.1's own test of the plugin
(``pkg/controllers/job/plugins/distributed-framework/tensorflow/tensorflow_test.go``)
and of the code it tests: Go's ``encoding/json`` of the plugin's structs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from estconf.launchers.formats import blocks, pod_lines, written_size
from estconf.launchers.kubernetes import Container
from estconf.launchers.volcano.job import VolcanoJob, read_jobs
from estconf.launchers.volcano.plugin import (
    SAMPLE_SIZE,
    builds_tf_config,
    command_tf_config,
    go_json,
    own_tf_config,
    predict,
    tf_config_size,
)
from values import refuses_assignment

DATA = Path(__file__).parent / "data" / "launchers" / "volcano"


def job(
    tasks: list[dict[str, Any]], arguments: list[str] | None = None, name: str = "train-123"
) -> VolcanoJob:
    plugins = {} if arguments is None else {"tensorflow": arguments}
    return VolcanoJob.model_validate(
        {
            "apiVersion": "batch.volcano.sh/v1alpha1",
            "kind": "Job",
            "metadata": {"name": name},
            "spec": {"tasks": tasks, "plugins": plugins},
        }
    )


def read(name: str) -> VolcanoJob:
    (found,) = read_jobs((DATA / name).read_bytes())
    return found


VOLCANOS_TEST = job(
    [
        {"name": "ps", "replicas": 2},
        {"name": "worker", "replicas": 2},
        {"name": "chief", "replicas": 1},
    ],
    ["--port=5000"],
)
CLUSTER = (
    '{"ps":["train-123-ps-0.train-123:5000","train-123-ps-1.train-123:5000"],'
    '"worker":["train-123-worker-0.train-123:5000","train-123-worker-1.train-123:5000"],'
    '"chief":["train-123-chief-0.train-123:5000"]}'
)


class TestWhatThePluginWrites:
    @pytest.mark.parametrize("task", ["ps", "worker", "chief"])
    def test_volcanos_own_test_of_the_plugin(self, task: str) -> None:
        pod = next(p for p in predict(VOLCANOS_TEST).pods if p.name == f"train-123-{task}-0")
        assert pod.tf_config == (
            '{"cluster":' + CLUSTER + ',"task":{"type":"' + task + '","index":0}}'
        )

    def test_every_pod_in_the_order_of_the_tasks_then_by_index(self) -> None:
        names = [pod.name for pod in predict(VOLCANOS_TEST).pods]
        assert names == [
            "train-123-ps-0",
            "train-123-ps-1",
            "train-123-worker-0",
            "train-123-worker-1",
            "train-123-chief-0",
        ]

    def test_the_cluster_lists_the_jobs_in_the_plugins_order_whatever_the_tasks(self) -> None:
        written = job(
            [{"name": n, "replicas": 1} for n in ("evaluator", "chief", "worker", "ps")], []
        )
        assert list(predict(written).cluster) == ["ps", "worker", "chief", "evaluator"]

    def test_the_evaluator_is_in_the_cluster_and_no_environment_is_written(self) -> None:
        pods = predict(read("evaluator.yaml")).pods
        tf_config = json.loads(pods[-1].tf_config or "")
        assert tf_config["task"] == {"type": "evaluator", "index": 1}
        assert tf_config["cluster"]["evaluator"] == [
            "census-evaluator-0.census:2222",
            "census-evaluator-1.census:2222",
        ]
        assert list(tf_config) == ["cluster", "task"]

    def test_flags_name_the_tasks_and_the_port(self) -> None:
        prediction = predict(read("custom-names.yaml"))
        assert prediction.cluster == {
            "ps": ["resnet-server-0.resnet:5000"],
            "worker": [f"resnet-trainer-{i}.resnet:5000" for i in range(3)],
            "chief": ["resnet-master-0.resnet:5000"],
        }
        types = {pod.name: json.loads(pod.tf_config or "")["task"] for pod in prediction.pods}
        assert types["resnet-master-0"] == {"type": "chief", "index": 0}
        assert types["resnet-trainer-2"] == {"type": "worker", "index": 2}

    def test_a_task_no_flag_names_is_typed_by_its_name_and_left_out(self) -> None:
        prediction = predict(read("custom-names.yaml"))
        (board,) = [pod for pod in prediction.pods if pod.task.name == "tensorboard"]
        assert json.loads(board.tf_config or "")["task"] == {"type": "tensorboard", "index": 0}
        assert all(
            "tensorboard" not in address for a in prediction.cluster.values() for address in a
        )

    def test_a_task_of_no_pod_is_left_out_of_the_cluster(self) -> None:
        prediction = predict(job([{"name": "worker", "replicas": 2}, {"name": "ps"}], []))
        assert list(prediction.cluster) == ["worker"]

    def test_one_task_of_one_replica_gets_no_tf_config(self) -> None:
        prediction = predict(read("single.yaml"))
        assert [(pod.name, pod.tf_config) for pod in prediction.pods] == [
            ("mnist-local-worker-0", None)
        ]
        assert not prediction.layout.writes

    def test_one_replica_beside_a_task_of_none_still_gets_one(self) -> None:
        """The plugin counts the tasks, not the pods."""
        prediction = predict(job([{"name": "worker", "replicas": 1}, {"name": "ps"}], []))
        assert prediction.pods[0].tf_config is not None

    def test_without_the_plugin_no_pod_gets_one(self) -> None:
        prediction = predict(read("without-plugin.yaml"))
        assert [pod.tf_config for pod in prediction.pods] == [None, None, None]

    def test_a_hostname_is_every_pods_and_a_subdomain_every_address(self) -> None:
        template = {"spec": {"hostname": "trainer", "subdomain": "training"}}
        written = job([{"name": "worker", "replicas": 2, "template": template}], [])
        assert predict(written).cluster == {
            "worker": ["trainer.training:2222", "trainer.training:2222"]
        }

    def test_a_task_without_a_name_is_named_by_its_position(self) -> None:
        prediction = predict(job([{"name": "ps", "replicas": 1}, {"replicas": 1}], []))
        assert prediction.pods[1].name == "train-123-default1-0"

    def test_go_escapes_what_html_would_read(self) -> None:
        assert go_json(["a<b>&c\u2028"]) == '["a\\u003cb\\u003e\\u0026c\\u2028"]'

    def test_a_job_named_by_the_api_server_needs_the_name_it_got(self) -> None:
        named_later = VolcanoJob.model_validate(
            {
                "apiVersion": "batch.volcano.sh/v1alpha1",
                "kind": "Job",
                "metadata": {"generateName": "mnist-"},
                "spec": {
                    "tasks": [{"name": "worker", "replicas": 2}],
                    "plugins": {"tensorflow": []},
                },
            }
        )
        with pytest.raises(ValueError, match="the Job has only generateName 'mnist-'"):
            predict(named_later)
        with pytest.raises(ValueError, match="the Job has only generateName 'mnist-'"):
            tf_config_size(named_later)
        cluster = predict(named_later, name="mnist-x7k2p").cluster
        assert cluster["worker"][0] == "mnist-x7k2p-worker-0.mnist-x7k2p:2222"

    def test_what_is_predicted_cannot_be_changed(self) -> None:
        prediction = predict(VOLCANOS_TEST)
        refuses_assignment(prediction)
        refuses_assignment(prediction.pods[0])

    def test_one_task_of_the_cluster_alone(self) -> None:
        pods = predict(VOLCANOS_TEST, task=("worker", 1)).pods
        assert [pod.name for pod in pods] == ["train-123-worker-1"]
        assert CLUSTER in (pods[0].tf_config or "")


class TestAJobOfManyPods:
    def test_a_cluster_larger_than_a_prediction_builds_is_refused(self) -> None:
        huge = job([{"name": "worker", "replicas": 2**31 - 1}], [])
        with pytest.raises(ValueError, match="more than the 100,000 a prediction builds"):
            predict(huge)

    def test_a_sample_keeps_the_first_pods_and_the_last_of_each_task(self) -> None:
        huge = job(
            [{"name": "worker", "replicas": 2**31 - 1}, {"name": "chief", "replicas": 1}], []
        )
        prediction = predict(huge, sample=SAMPLE_SIZE)
        names = [pod.name for pod in prediction.pods]
        assert len(names) == SAMPLE_SIZE + 1
        assert names[SAMPLE_SIZE - 1] == f"train-123-worker-{2**31 - 2}"
        assert prediction.pods[SAMPLE_SIZE - 1].index == SAMPLE_SIZE - 1
        assert len(prediction.cluster["worker"]) == SAMPLE_SIZE


NAMES = st.sampled_from(["ps", "worker", "chief", "evaluator", "master", "a<b", "o'k"])


@settings(max_examples=100, deadline=None)
@example(tasks={"worker": 1}, arguments=[], hostname=None, name="j", task=None)  # no TF_CONFIG
@example(tasks={"worker": 2, "ps": 0}, arguments=[], hostname=None, name="j", task=("worker", 0))
@given(
    tasks=st.dictionaries(NAMES, st.integers(0, 12), min_size=1, max_size=4),
    arguments=st.lists(
        st.sampled_from(["--worker=master", "--ps=o'k", "--port=70000"]), max_size=2
    ),
    hostname=st.sampled_from([None, "h'st"]),
    name=st.sampled_from(["j", "o'neil", "é"]),
    task=st.none() | st.tuples(NAMES, st.integers(0, 13)),
)
def test_the_size_worked_out_is_the_bytes_written(
    tasks: dict[str, int],
    arguments: list[str],
    hostname: str | None,
    name: str,
    task: tuple[str, int] | None,
) -> None:
    """The sizes add up to what each format writes, without writing it."""
    template = {"spec": {"hostname": hostname}} if hostname else {}
    manifest = job(
        [{"name": task, "replicas": count, "template": template} for task, count in tasks.items()],
        arguments,
        name,
    )
    prediction = predict(manifest, task=task)
    written = [pod for pod in prediction.pods if pod.tf_config is not None]
    outputs = [((p.task.task_type, p.index), p.tf_config or "") for p in written]
    labels = [f"{p.name}: {p.task.task_type}:{p.index}" for p in written]
    size = tf_config_size(manifest, task=task)
    assert size.pods == len(written)
    for fmt in ("jsonl", "shell", "env", "k8s"):
        assert written_size(size, fmt) == len(blocks(outputs, fmt, labels).encode())
    pods = pod_lines((p.name, p.tf_config) for p in written)
    assert written_size(size, "pods", name_bytes=size.name_bytes) == len(pods.encode())


def test_a_tf_config_set_by_hand_is_the_first_containers_last() -> None:
    (found,) = read_jobs(
        b"""
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: j}
spec:
  tasks:
    - replicas: 1
      template:
        spec:
          containers:
            - {name: sidecar}
            - name: tensorflow
              env: [{name: TF_CONFIG, value: a}, {name: X, value: b}, {name: TF_CONFIG, value: c}]
            - name: other
              env: [{name: TF_CONFIG, value: d}]
"""
    )
    assert own_tf_config(found.spec.tasks[0].template.spec.containers) == (1, 2, "c")


class TestATFConfigBuiltInACommand:
    @pytest.mark.parametrize(
        "argument",
        [
            "export TF_CONFIG={}",
            "TF_CONFIG='x' python t.py",
            "a; TF_CONFIG=$(cat f)",
            "env TF_CONFIG=1",
        ],
    )
    def test_an_assignment_in_a_shell_command(self, argument: str) -> None:
        assert builds_tf_config(argument)

    @pytest.mark.parametrize(
        "argument",
        ["MY_TF_CONFIG=1", "echo $TF_CONFIG", "TF_CONFIG", "TF_CONFIG_X=1", "tf_config=1"],
    )
    def test_what_assigns_no_tf_config(self, argument: str) -> None:
        assert not builds_tf_config(argument)

    def test_the_first_container_and_argument_that_builds_one(self) -> None:
        containers = tuple(
            Container.model_validate(c)
            for c in [
                {"name": "a", "command": ["python", "t.py"]},
                {
                    "name": "b",
                    "command": ["sh"],
                    "args": ["-c", "export TF_CONFIG=1", "TF_CONFIG=2"],
                },
                {"name": "c", "command": ["sh", "-c", "export TF_CONFIG=3"]},
            ]
        )
        assert command_tf_config(containers) == (1, "args", 1)
        assert command_tf_config(containers[2:]) == (0, "command", 2)
        assert command_tf_config(containers[:1]) is None
        assert command_tf_config(()) is None
