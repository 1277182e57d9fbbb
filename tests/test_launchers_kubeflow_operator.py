"""launchers.kubeflow.operator: the TF_CONFIG Kubeflow's training operator writes into each pod.

Each expectation names the operator's release and the function it comes from
(kubeflow/training-operator, pkg/controller.v1/tensorflow/ unless said).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from pydantic import ValidationError

from estconf import RunConfig
from estconf.kubeflow import (
    Operator,
    PredictedPod,
    TFJob,
    predict,
    predict_replicas,
    tfjob_for_replicas,
)
from estconf.launchers.kubeflow.manifest import read_tfjobs
from estconf.launchers.kubeflow.operator import layout, predict_sample
from values import is_a_value, refuses_assignment

from strategies import estimator_tfjobs

DATA = Path(__file__).parent / "data" / "kubeflow"
V1_9 = Operator()


def load(name: str) -> TFJob:
    return TFJob.from_yaml((DATA / name).read_text(encoding="utf-8"))


def tf_configs(job: TFJob, **kwargs: Any) -> dict[str, str | None]:
    return {pod.name: pod.tf_config for pod in predict(job, **kwargs).pods}


# -- v1.9.0 pod_test.go "Test ClusterSpec": SetClusterSpec -> genTFConfigJSONStr --------------
# tftestutil.NewTFJobWithNamespace(worker, ps, ns) / NewTFJobWithEvaluatorAndNamespace(worker,
# ps, evaluator, ns), job name "test-tfjob"; the expected TF_CONFIG of worker 0.

CLUSTER_SPEC_CASES = [
    ({"Worker": 1}, "ns0", None, None),
    ({"Worker": 1}, "ns1", "tf.training.com", None),
    (
        {"Worker": 1, "PS": 1},
        "ns2",
        "tf.training.org",
        '{"cluster":{"ps":["test-tfjob-ps-0.ns2.svc.tf.training.org:2222"],"worker":['
        '"test-tfjob-worker-0.ns2.svc.tf.training.org:2222"]},"task":{"type":"worker",'
        '"index":0},"environment":"cloud"}',
    ),
    (
        {"Worker": 1, "PS": 1, "Evaluator": 1},
        "ns3",
        "tf.training.io",
        '{"cluster":{"evaluator":["test-tfjob-evaluator-0.ns3.svc.tf.training.io:2222"],'
        '"ps":["test-tfjob-ps-0.ns3.svc.tf.training.io:2222"],"worker":["test-tfjob-worker-0.'
        'ns3.svc.tf.training.io:2222"]},"task":{"type":"worker","index":0},"environment":"cloud"}',
    ),
    (
        {"Worker": 1, "PS": 1, "Evaluator": 1},
        "ns3",
        None,
        '{"cluster":{"evaluator":["test-tfjob-evaluator-0.ns3.svc:2222"],"ps":["test-tfjob-ps-0'
        '.ns3.svc:2222"],"worker":["test-tfjob-worker-0.ns3.svc:2222"]},"task":{"type":"worker",'
        '"index":0},"environment":"cloud"}',
    ),
]


@pytest.mark.parametrize(("replicas", "namespace", "domain", "expected"), CLUSTER_SPEC_CASES)
def test_operator_test_cluster_spec(
    replicas: dict[str, int], namespace: str, domain: str | None, expected: str | None
) -> None:
    prediction = predict_replicas(
        "test-tfjob", replicas, namespace=namespace, cluster_domain=domain
    )
    assert prediction.pod("worker", 0).tf_config == expected


# v1.9.0 pod_test.go "Test IsDistributed": util.go isDistributed, which counts the replicas of
# the five known types (NewTFJob(worker, ps), NewTFJobWithChief(worker, ps)).
@pytest.mark.parametrize(
    ("replicas", "distributed"),
    [
        ({"Worker": 1}, False),
        ({"Worker": 1, "PS": 1}, True),
        ({"PS": 1}, False),
        ({"Worker": 1, "Chief": 1}, True),
    ],
)
def test_operator_test_is_distributed(replicas: dict[str, int], distributed: bool) -> None:
    assert predict_replicas("test-tfjob", replicas).distributed is distributed


# v1.9.0 tensorflow_test.go TestConvertClusterSpecToSparseClusterSpec:
# convertClusterSpecToSparseClusterSpec for worker 0 and ps 0 of two workers and two ps.
def test_operator_test_convert_cluster_spec_to_sparse_cluster_spec() -> None:
    prediction = predict_replicas("test-tfjob", {"PS": 2, "Worker": 2}, enable_dynamic_worker=True)
    worker = prediction.pod("worker", 0).tf_config_dict()
    ps = prediction.pod("ps", 0).tf_config_dict()
    assert worker is not None and ps is not None
    assert worker["cluster"] == {
        "worker": {"0": "test-tfjob-worker-0.default.svc:2222"},
        "ps": ["test-tfjob-ps-0.default.svc:2222", "test-tfjob-ps-1.default.svc:2222"],
    }
    assert ps["cluster"] == {"worker": {}, "ps": ["test-tfjob-ps-0.default.svc:2222"]}


# -- the real-shaped manifests --------------------------------------------------------------


def test_dist_mnist_every_pod() -> None:
    # v1.9.0 genClusterSpec: one job per type in lower case, addresses
    # <job>-<type>-<i>.<namespace>.svc:<port>; encoding/json sorts the map's keys;
    # genTFConfigJSONStr adds the task and "environment": "cloud".
    cluster = (
        '{"chief":["dist-mnist-chief-0.ml.svc:2222"],'
        '"ps":["dist-mnist-ps-0.ml.svc:2222","dist-mnist-ps-1.ml.svc:2222"],'
        '"worker":["dist-mnist-worker-0.ml.svc:2222","dist-mnist-worker-1.ml.svc:2222"]}'
    )

    def expected(task: str, index: int) -> str:
        return (
            f'{{"cluster":{cluster},"task":{{"type":"{task}","index":{index}}},'
            '"environment":"cloud"}'
        )

    assert tf_configs(load("dist_mnist.yaml")) == {
        "dist-mnist-chief-0": expected("chief", 0),
        "dist-mnist-ps-0": expected("ps", 0),
        "dist-mnist-ps-1": expected("ps", 1),
        "dist-mnist-worker-0": expected("worker", 0),
        "dist-mnist-worker-1": expected("worker", 1),
    }


def test_kubectl_get_output_predicts_as_its_manifest() -> None:
    applied = json.loads(
        TFJob.from_yaml((DATA / "kubectl_get.yaml").read_text()).metadata.model_extra[  # type: ignore[index]
            "annotations"
        ]["kubectl.kubernetes.io/last-applied-configuration"]
    )
    assert tf_configs(load("kubectl_get.yaml")) == tf_configs(TFJob.model_validate(applied))


def test_chief_worker_evaluator_puts_the_evaluator_in_the_cluster() -> None:
    # Since v1.0.1 ("Fix evaluator runconfig", #1146) genClusterSpec keeps the evaluator.
    prediction = predict(load("chief_worker_evaluator.yaml"))
    assert prediction.cluster == {
        "chief": ["census-chief-0.kubeflow.svc:2222"],
        "worker": ["census-worker-0.kubeflow.svc:2222", "census-worker-1.kubeflow.svc:2222"],
        "evaluator": ["census-evaluator-0.kubeflow.svc:2222"],
    }
    evaluator = prediction.pod("evaluator", 0).tf_config_dict()
    assert evaluator is not None and evaluator["task"] == {"type": "evaluator", "index": 0}
    assert list(evaluator["cluster"]) == ["chief", "evaluator", "worker"]


def test_letter_case_of_replica_types() -> None:
    # v1.9.0 tensorflow_defaults.go setTensorflowTypeNamesToCamelCase; replicas default 1
    # (setDefaultReplicas).
    prediction = predict(load("letter_case.yaml"))
    assert [(pod.replica_key, pod.replica_type, pod.name) for pod in prediction.pods] == [
        ("WORKER", "Worker", "shouting-worker-0"),
        ("WORKER", "Worker", "shouting-worker-1"),
        ("ps", "PS", "shouting-ps-0"),
        ("chief", "Chief", "shouting-chief-0"),
    ]
    assert prediction.cluster["ps"] == ["shouting-ps-0.research.svc:2222"]


def test_per_type_ports() -> None:
    # v1.9.0 util.go GetPortFromTFJob: the tfjob-port of the container named tensorflow of
    # that type's own template, else TFJobDefaultPort 2222.
    assert predict(load("per_type_ports.yaml")).cluster == {
        "chief": ["ports-chief-0.ml.svc:2222"],
        "ps": ["ports-ps-0.ml.svc:3333"],
        "worker": ["ports-worker-0.ml.svc:2223", "ports-worker-1.ml.svc:2223"],
    }


def test_single_replica_gets_no_tf_config() -> None:
    # v1.9.0 tfjob_controller.go SetClusterSpec returns early when !isDistributed.
    prediction = predict(load("single_replica.yaml"))
    assert not prediction.distributed
    assert tf_configs(load("single_replica.yaml")) == {"mnist-worker-0": None}
    assert prediction.pods[0].tf_config_dict() is None


def test_dynamic_worker_sparse_cluster() -> None:
    # v1.9.0 tensorflow.go convertClusterSpecToSparseClusterSpec and SparseTFConfig: no
    # "environment"; chief gets empty worker and ps.
    assert tf_configs(load("dynamic_worker.yaml")) == {
        "elastic-chief-0": '{"cluster":{"worker":{},"ps":[]},"task":{"type":"chief","index":0}}',
        "elastic-ps-0": '{"cluster":{"worker":{},"ps":["elastic-ps-0.default.svc:2222"]},'
        '"task":{"type":"ps","index":0}}',
        "elastic-ps-1": '{"cluster":{"worker":{},"ps":["elastic-ps-1.default.svc:2222"]},'
        '"task":{"type":"ps","index":1}}',
        "elastic-worker-0": '{"cluster":{"worker":{"0":"elastic-worker-0.default.svc:2222"},'
        '"ps":["elastic-ps-0.default.svc:2222","elastic-ps-1.default.svc:2222"]},'
        '"task":{"type":"worker","index":0}}',
        "elastic-worker-1": '{"cluster":{"worker":{"1":"elastic-worker-1.default.svc:2222"},'
        '"ps":["elastic-ps-0.default.svc:2222","elastic-ps-1.default.svc:2222"]},'
        '"task":{"type":"worker","index":1}}',
    }


def test_dynamic_worker_without_ps_writes_null() -> None:
    # v1.9.0 convertClusterSpecToSparseClusterSpec: a worker's PS is clusterSpec["ps"], a nil
    # slice when the job has no PS, which encoding/json writes as null.
    assert tf_configs(load("dynamic_worker_no_ps.yaml"))["elastic-workers-worker-1"] == (
        '{"cluster":{"worker":{"1":"elastic-workers-worker-1.default.svc:2222"},"ps":null},'
        '"task":{"type":"worker","index":1}}'
    )


def test_dynamic_worker_before_v1_7_uses_sparse_cluster() -> None:
    # v1.6.0 tensorflow.go: SparseTFConfig's cluster is tagged json:"sparseCluster"; v1.7.0
    # ("Use Cluster instead of sparseCluster in TFJob DynamicWorker", #1798) renamed it.
    old = tf_configs(load("dynamic_worker.yaml"), operator=Operator(release="v1.6.0"))
    new = tf_configs(load("dynamic_worker.yaml"))
    assert old == {
        name: text.replace('"cluster"', '"sparseCluster"') for name, text in new.items() if text
    }


def test_cluster_domain_and_namespace_default() -> None:
    # genClusterSpec appends "." + CUSTOM_CLUSTER_DOMAIN after "svc"; the namespace of a
    # manifest without one is where kubectl puts it, "default" unless told.
    job = load("estimator_no_chief.yaml")
    assert predict(job).cluster["ps"] == ["dist-mnist-ps-0.default.svc:2222"]
    assert predict(
        job, namespace="team", operator=Operator(cluster_domain="cluster.local")
    ).cluster["ps"] == ["dist-mnist-ps-0.team.svc.cluster.local:2222"]


def test_zero_replicas_is_an_empty_job() -> None:
    # genClusterSpec makes an empty slice for replicas: 0: encoding/json writes [].
    prediction = predict_replicas("j", {"Chief": 1, "Worker": 0, "PS": 1})
    assert prediction.cluster["worker"] == []
    chief = prediction.pod("chief", 0).tf_config_dict()
    assert chief is not None and chief["cluster"]["worker"] == []


def test_unknown_replica_type_is_a_job_not_counted() -> None:
    # genClusterSpec lower-cases every key; isDistributed counts only the five known types.
    prediction = predict_replicas("j", {"Worker": 1, "Trainer": 2})
    assert not prediction.distributed
    assert prediction.cluster == {
        "worker": ["j-worker-0.default.svc:2222"],
        "trainer": ["j-trainer-0.default.svc:2222", "j-trainer-1.default.svc:2222"],
    }


def test_a_slash_in_a_name_becomes_a_dash_in_pod_and_host_names() -> None:
    # GenGeneralName replaces every "/" of job-type-index with "-".
    prediction = predict_replicas("j", {"Chief": 1, "Worker/x": 2})
    assert [pod.name for pod in prediction.pods] == ["j-chief-0", "j-worker-x-0", "j-worker-x-1"]
    assert prediction.cluster["worker/x"] == [
        "j-worker-x-0.default.svc:2222",
        "j-worker-x-1.default.svc:2222",
    ]


def test_the_operator_settings_are_frozen() -> None:
    operator = Operator(cluster_domain="cluster.local")
    with pytest.raises(ValidationError, match="frozen"):
        operator.cluster_domain = "example.org"  # type: ignore[misc]
    assert hash(operator) == hash(Operator(cluster_domain="cluster.local"))


def test_go_json_escapes_html_characters() -> None:
    # encoding/json escapes <, > and & in strings.
    prediction = predict_replicas("j", {"A<b": 1, "Worker": 1, "PS": 1})
    pod = prediction.pod("a<b", 0)
    assert pod.tf_config is not None and '"a\\u003cb":' in pod.tf_config
    assert pod.tf_config_dict() is not None


def test_generate_name_needs_a_name() -> None:
    job = load("generate_name.yaml")
    with pytest.raises(
        ValueError, match=r"only generateName 'sweep-'.*pass the name it got as name=NAME"
    ):
        predict(job)
    assert predict(job, name="sweep-4kq2x").pod("chief", 0).address == (
        "sweep-4kq2x-chief-0.hpo.svc:2222"
    )


def test_names_must_agree() -> None:
    job = load("dist_mnist.yaml")
    with pytest.raises(ValueError, match="namespace is 'ml', not 'other'"):
        predict(job, namespace="other")
    with pytest.raises(ValueError, match="name is 'dist-mnist', not 'x'"):
        predict(job, name="x")
    assert predict(job, name="dist-mnist", namespace="ml").job_name == "dist-mnist"


def test_ambiguous_replica_types_are_not_predicted() -> None:
    job = tfjob_for_replicas("j", {"WORKER": 1, "worker": 2, "Chief": 1})
    with pytest.raises(ValueError, match="depends on its map order"):
        predict(job)


def test_replica_counts_use_the_manifest_path() -> None:
    prediction = predict_replicas(
        "mnist",
        {"chief": 1, "worker": 2, "ps": 1, "evaluator": 1},
        namespace="ml",
        port={"PS": 3333},
        cluster_domain="cluster.local",
    )
    assert prediction.cluster == {
        "chief": ["mnist-chief-0.ml.svc.cluster.local:2222"],
        "worker": [
            "mnist-worker-0.ml.svc.cluster.local:2222",
            "mnist-worker-1.ml.svc.cluster.local:2222",
        ],
        "ps": ["mnist-ps-0.ml.svc.cluster.local:3333"],
        "evaluator": ["mnist-evaluator-0.ml.svc.cluster.local:2222"],
    }
    assert [pod.name for pod in prediction.pods] == [
        "mnist-chief-0",
        "mnist-worker-0",
        "mnist-worker-1",
        "mnist-ps-0",
        "mnist-evaluator-0",
    ]
    with pytest.raises(KeyError, match="task ps:1"):
        prediction.pod("ps", 1)


def test_stream_and_list_predict_each_job() -> None:
    jobs = read_tfjobs((DATA / "kubectl_get_list.yaml").read_text())
    assert [predict(job).distributed for job in jobs] == [True, True]


def test_dump_holds_each_tf_config() -> None:
    dump = predict(load("dist_mnist.yaml")).model_dump()
    assert dump["pods"][0]["tf_config"].startswith('{"cluster":{"chief":')
    assert "cluster_json" not in dump["pods"][0]


def test_a_pods_repr_shows_its_tf_config_not_what_it_is_built_from() -> None:
    """Like the dump, the repr gives the TF_CONFIG, not the cluster's JSON and key."""
    shown = repr(predict(load("dist_mnist.yaml")).pods[0])
    assert 'tf_config=\'{"cluster":{"chief":' in shown
    assert "cluster_json" not in shown and "cluster_key" not in shown


def test_a_pod_built_without_a_cluster_key_puts_its_cluster_under_cluster() -> None:
    address = "j-worker-0.default.svc:2222"
    pod = PredictedPod(
        name="j-worker-0",
        replica_type="Worker",
        replica_key="Worker",
        task_type="worker",
        index=0,
        address=address,
        cluster_json=json.dumps({"worker": [address]}),
    )
    assert pod.tf_config_dict() == {
        "cluster": {"worker": [address]},
        "task": {"type": "worker", "index": 0},
        "environment": "cloud",
    }


@given(estimator_tfjobs())
def test_estimator_accepts_every_pod_of_a_valid_tfjob(manifest: dict[str, Any]) -> None:
    prediction = predict(TFJob.model_validate(manifest))
    for pod in prediction.pods:
        config = RunConfig(tf_config=pod.tf_config_dict())
        if not prediction.distributed:
            assert config.cluster_spec.as_dict() == {}
        elif pod.task_type == "evaluator":
            assert (config.task_type, config.cluster_spec.as_dict()) == ("evaluator", {})
        else:
            assert (config.task_type, config.task_id) == (pod.task_type, pod.index)
            assert config.cluster_spec.as_dict() == prediction.cluster


def test_a_cluster_larger_than_max_pods_is_refused_before_it_is_built() -> None:
    """Every address is built, even for one pod: a bound keeps a tiny file from taking memory."""
    tfjob = tfjob_for_replicas("big", {"Chief": 1, "Worker": 2**31 - 1})
    with pytest.raises(ValueError, match=r"2,147,483,648 pods, more than the 100,000"):
        predict(tfjob, task=("worker", 0))
    small = tfjob_for_replicas("small", {"Chief": 1, "Worker": 3})
    assert len(predict(small, max_pods=4).pods) == 4
    with pytest.raises(ValueError, match=r"has 4 pods, more than the 3 a prediction builds"):
        predict(small, max_pods=3)
    assert len(predict(small, max_pods=None).pods) == 4


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(
            lambda: predict(tfjob_for_replicas("m", {"Worker": 2})).pods[0], id="PredictedPod"
        ),
        pytest.param(lambda: layout(tfjob_for_replicas("m", {"Worker": 2})), id="Layout"),
        pytest.param(lambda: layout(tfjob_for_replicas("m", {"Worker": 2})).jobs[0], id="Job"),
    ],
)
def test_a_pod_a_layout_and_a_job_are_values(make: Callable[[], object]) -> None:
    """Each refuses assignment and hashes by its fields."""
    is_a_value(make)


def test_a_prediction_cannot_be_changed() -> None:
    """A prediction refuses assignment; it holds the cluster as a dict, so it is not hashed."""
    refuses_assignment(predict(tfjob_for_replicas("m", {"Chief": 1, "Worker": 2})))


def test_a_sample_keeps_the_first_and_last_pod_and_refuses_fewer_than_two() -> None:
    tfjob = tfjob_for_replicas("j", {"Worker": 5})
    sample = predict_sample(tfjob, size=2)
    assert [(pod.name, pod.index) for pod in sample.pods] == [("j-worker-0", 0), ("j-worker-4", 1)]
    with pytest.raises(ValueError, match=r"first and last pod of each type: size 1 < 2"):
        predict_sample(tfjob, size=1)
