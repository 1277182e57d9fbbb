"""estconf.launchers.kubeflow.checks: what a TFJob's pods would refuse, located in the manifest."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from estconf.kubeflow import (
    Finding,
    Operator,
    Prediction,
    TFJob,
    check,
    predict_replicas,
    tfjob_for_replicas,
)
from estconf.launchers.kubeflow import checks
from estconf.launchers.kubeflow.operator import SAMPLE_SIZE, predict_sample
from estconf.launchers.kubeflow.tfjobs import cluster_check
from estconf.launchers.kubeflow.tfjobs import node_check as node_check_of

DATA = Path(__file__).parent / "data" / "kubeflow"
SPECS = ("spec", "tfReplicaSpecs")


def load(name: str) -> TFJob:
    return TFJob.from_yaml((DATA / name).read_text(encoding="utf-8"))


def found(findings: tuple[Finding, ...]) -> list[tuple[str, str, str]]:
    return [(finding.code, finding.severity, finding.path) for finding in findings]


@pytest.mark.parametrize(
    "name",
    [
        "dist_mnist.yaml",
        "chief_worker.json",
        "letter_case.yaml",
        "stream.yaml",
        "kubectl_get.yaml",
    ],
)
def test_good_manifests_have_no_findings(name: str) -> None:
    assert check(load(name)) == ()


def test_estimator_job_without_chief() -> None:
    (finding,) = check(load("estimator_no_chief.yaml"))
    assert found((finding,)) == [("tfjob_missing_chief", "error", "spec.tfReplicaSpecs")]
    assert finding.message == (
        "pods dist-mnist-ps-0 and dist-mnist-worker-0 to dist-mnist-worker-2 refuse their "
        'TF_CONFIG: If "cluster" is set in TF_CONFIG, it must have one "chief" node.'
    )
    # a job of PS and workers is a ParameterServerStrategy's, not a MultiWorkerMirroredStrategy's
    assert (
        finding.hint is not None
        and "--profile ps (ParameterServerStrategy)" in finding.hint
        and "--profile server (a TF1 job" in finding.hint
    )
    (workers_only,) = check(load("multi_worker.yaml"))
    assert workers_only.hint is not None
    assert "check the job with --profile mwms (MultiWorkerMirroredStrategy" in workers_only.hint


def test_worker_only_job_points_at_mwms() -> None:
    (finding,) = check(load("multi_worker.yaml"))
    assert finding.code == "tfjob_missing_chief"
    assert finding.hint is not None and "MultiWorkerMirroredStrategy" in finding.hint


def test_refusals_of_the_webhook() -> None:
    # v1.9.0 pkg/webhooks/tensorflow/tfjob_webhook.go validateTFReplicaSpecs.
    findings = check(load("refused.yaml"))
    worker = (*SPECS, "Worker", "template", "spec", "containers")
    # what kubectl apply refuses is an error that is refused; the rest is not refused
    assert [(f.code, f.severity, f.refused, f.loc) for f in findings] == [
        ("tfjob_no_image", "error", True, (*worker, 1, "image")),
        ("tfjob_no_tensorflow_container", "error", True, worker),
        ("tfjob_multiple_chief", "error", True, SPECS),
        (
            "tfjob_tf_config_set",
            "warning",
            False,
            (*SPECS, "Chief", "template", "spec", "containers", 0, "env", 1),
        ),
        ("tfjob_chief_with_master", "error", False, (*SPECS, "Chief")),
    ]
    assert findings[0].message == (
        "the operator's admission webhook refuses the TFJob: "
        "spec.tfReplicaSpecs[Worker].template.spec.containers[1].image: "
        "Required value: must be required"
    )
    assert findings[2].message.endswith(
        "spec.tfReplicaSpecs: Forbidden: must not have more than 1 Chief or Master role"
    )
    assert str(findings[2]) == f"spec.tfReplicaSpecs: {findings[2].message}"
    assert findings[2].label == "refused"


RENAME = (
    "rename container {} to 'tensorflow': it looks like the one that runs TensorFlow (it {}), and "
)
OPERATOR_SETS = "the operator sets TF_CONFIG and the port on the container named 'tensorflow' only"


def test_a_missing_tensorflow_container_names_the_one_that_looks_like_it() -> None:
    findings = check(load("no_tensorflow_container.yaml"), node_check=None)
    hints = {f.loc[2]: f.hint for f in findings if f.code == "tfjob_no_tensorflow_container"}
    assert hints == {
        "Chief": RENAME.format("'trainer'", "declares the port tfjob-port") + OPERATOR_SETS,
        "Worker": RENAME.format("'mnist'", "is the only container") + OPERATOR_SETS,
        "PS": RENAME.format("'TensorFlow'", "is named tensorflow in other letter case")
        + OPERATOR_SETS,
        "Evaluator": "name the container that runs TensorFlow 'tensorflow': " + OPERATOR_SETS,
    }
    # the port of the container to rename is not reported again
    assert "tfjob_port_other_container" not in {f.code for f in findings}


def test_a_container_that_sets_tf_config_looks_like_tensorflows() -> None:
    env = [{"name": "TF_CONFIG", "value": "{}"}]
    template = {"spec": {"containers": [container(name="proxy"), container(name="train", env=env)]}}
    [finding] = [
        f for f in check(job(Worker={"template": template})) if f.code.endswith("_container")
    ]
    assert finding.hint == RENAME.format("'train'", "sets TF_CONFIG") + OPERATOR_SETS


def container(**fields: Any) -> dict[str, Any]:
    return {"name": "tensorflow", "image": "kubeflow/tf-mnist-with-summaries:latest", **fields}


def job(name: str = "test", **specs: Any) -> TFJob:
    return TFJob.model_validate(
        {
            "apiVersion": "kubeflow.org/v1",
            "kind": "TFJob",
            "metadata": {"name": name},
            "spec": {"tfReplicaSpecs": specs},
        }
    )


def webhook(tfjob: TFJob) -> list[tuple[str, tuple[str | int, ...]]]:
    refused = [f for f in check(tfjob, node_check=None) if f.refused]
    assert {f.severity for f in refused} <= {"error"}
    return [(f.code, f.loc) for f in refused]


# v1.9.0 tfjob_webhook_test.go TestValidateV1TFJob, case by case.
def test_webhook_test_cases() -> None:
    template = {"spec": {"containers": [container()]}}
    assert webhook(job(Worker={"template": template})) == []
    assert webhook(job("00test", Worker={"template": template})) == [
        ("tfjob_invalid_name", ("metadata", "name"))
    ]
    containers = (*SPECS, "Worker", "template", "spec", "containers")
    assert webhook(job(Worker={"template": {"spec": {"containers": []}}})) == [
        ("tfjob_no_containers", containers),
        ("tfjob_no_tensorflow_container", containers),
    ]
    assert webhook(job(Worker={"template": {"spec": {"containers": [container(image="")]}}})) == [
        ("tfjob_no_image", (*containers, 0, "image"))
    ]
    assert webhook(job(Worker={"template": {"spec": {"containers": [container(name="")]}}})) == [
        ("tfjob_no_tensorflow_container", containers)
    ]
    assert webhook(job(Chief={"template": template}, Master={"template": template})) == [
        ("tfjob_multiple_chief", SPECS)
    ]


def test_invalid_name_message() -> None:
    (finding,) = [f for f in check(job("00test")) if f.code == "tfjob_invalid_name"]
    assert finding.message == (
        "the operator's admission webhook refuses the TFJob: metadata.name: Invalid value: "
        '"00test": should match: a DNS-1035 label must consist of lower case alphanumeric '
        "characters or '-', start with an alphabetic character, and end with an alphanumeric "
        "character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
        "'[a-z]([-a-z0-9]*[a-z0-9])?')"
    )


def test_no_replica_specs() -> None:
    tfjob = TFJob.model_validate(
        {"apiVersion": "kubeflow.org/v1", "kind": "TFJob", "metadata": {"name": "j"}}
    )
    assert webhook(tfjob) == [("tfjob_no_replica_specs", SPECS)]


def test_webhook_compares_chief_as_written() -> None:
    # The webhook runs before the defaults: "chief" is not Chief to it, so it admits the job,
    # and then the cluster has both chief and master, which the Estimator refuses.
    template = {"spec": {"containers": [container()]}}
    codes = [
        f.code for f in check(job(chief={"template": template}, Master={"template": template}))
    ]
    assert codes == ["tfjob_chief_with_master"]


def test_port_not_named() -> None:
    findings = check(load("per_type_ports.yaml"))
    assert found(findings) == [
        (
            "tfjob_port_not_named",
            "warning",
            "spec.tfReplicaSpecs.Chief.template.spec.containers[0].ports",
        ),
        (
            "tfjob_port_other_container",
            "warning",
            "spec.tfReplicaSpecs.Worker.template.spec.containers[0].ports[0]",
        ),
    ]
    assert "the cluster says 2222" in findings[0].message


@pytest.mark.parametrize(
    ("number", "refused"), [(0, True), (1, False), (65535, False), (65536, True)]
)
def test_port_outside_the_range(number: int, refused: bool) -> None:
    """A port is 1 to 65535: Kubernetes refuses a pod that declares another."""
    ports = [{"name": "tfjob-port", "containerPort": number}]
    template = {"spec": {"containers": [container(ports=ports)]}}
    good = {"spec": {"containers": [container()]}}
    findings = check(job(Chief={"template": template}, PS={"template": good}), node_check=None)
    assert found(findings) == refused * [
        (
            "tfjob_port_invalid",
            "error",
            "spec.tfReplicaSpecs.Chief.template.spec.containers[0].ports[0].containerPort",
        )
    ]
    if refused:
        assert findings[0].message.startswith(f"port {number} is not a port (1 to 65535)")


def test_single_replica() -> None:
    (finding,) = check(load("single_replica.yaml"))
    # a job of one pod is a common, deliberate setup: said, but not a mistake
    assert found((finding,)) == [("tfjob_single_replica", "note", "spec.tfReplicaSpecs")]


def hand_set(value: str) -> dict[str, Any]:
    """A pod template whose ``tensorflow`` container sets TF_CONFIG to ``value``."""
    return {"spec": {"containers": [container(env=[{"name": "TF_CONFIG", "value": value}])]}}


def test_hand_set_tf_config_of_a_single_pod_is_used() -> None:
    findings = check(job(Worker={"template": hand_set("{}")}))
    assert [(f.code, f.severity) for f in findings] == [
        ("tfjob_tf_config_set", "note"),
        ("tfjob_single_replica", "note"),
    ]
    assert "used as written" in findings[0].message
    assert findings[1].message.endswith("its program reads the one set by hand")


VALUE = ("spec", "tfReplicaSpecs", "Worker", "template", "spec", "containers", 0, "env", 0, "value")


@pytest.mark.parametrize(
    ("value", "code", "says"),
    [
        (
            '{"cluster": {"worker": ["w:1"]}, "task": {"type": "worker", "index": 0}}',
            "tfjob_missing_chief",
            'it must have one "chief" node',
        ),
        ('{"task": {}, "task": {}}', "tfjob_tf_config_refused", "duplicate key 'task'"),
        ("[]", "tfjob_tf_config_refused", "TF_CONFIG is not a JSON object"),
        ("{", "tfjob_tf_config_refused", "JSON"),
    ],
)
def test_hand_set_tf_config_of_a_single_pod_is_checked(value: str, code: str, says: str) -> None:
    refused = [f for f in check(job(Worker={"template": hand_set(value)})) if f.severity == "error"]
    assert [(f.code, f.loc) for f in refused] == [(code, VALUE)]
    assert refused[0].message.startswith("the pod refuses the TF_CONFIG set by hand: ")
    assert says in refused[0].message


def test_hand_set_tf_config_of_a_single_pod_under_another_reader() -> None:
    workers = '{"cluster": {"worker": ["w:1"]}, "task": {"type": "worker", "index": 0}}'
    tfjob = job(Worker={"template": hand_set(workers)})
    assert [f.severity for f in check(tfjob, node_check=lambda tf_config: None)] == ["note", "note"]
    assert [f.severity for f in check(tfjob, node_check=None)] == ["note", "note"]


@pytest.mark.parametrize("replicas", [1, 2])
def test_only_the_variable_named_tf_config_is_a_hand_set_tf_config(replicas: int) -> None:
    """Variables before and after it, in any order (TF_CPP_MIN_LOG_LEVEL sorts after it)."""
    env = [
        {"name": "TF_CPP_MIN_LOG_LEVEL", "value": "2"},
        {"name": "TF_CONFIG", "value": "{}"},
        {"name": "A_TF_CONFIG", "value": "{"},
        {"name": "TF_CONFIG_FILE", "value": "{"},
    ]
    template = {"spec": {"containers": [container(env=env)]}}
    findings = check(job(Worker={"replicas": replicas, "template": template}))
    assert [f.loc for f in findings if f.code == "tfjob_tf_config_set"] == [
        (*SPECS, "Worker", "template", "spec", "containers", 0, "env", 1)
    ]
    assert "tfjob_tf_config_refused" not in {f.code for f in findings}


def test_hand_set_tf_config_of_a_distributed_job_is_never_seen() -> None:
    findings = check(job(Worker={"replicas": 2, "template": hand_set("{")}))
    assert [(f.code, f.severity) for f in findings] == [
        ("tfjob_tf_config_set", "warning"),
        ("tfjob_missing_chief", "error"),
    ]


def test_a_hand_set_tf_config_is_found_after_a_spec_with_no_tensorflow_container() -> None:
    """The PS's container is not named tensorflow: the Worker's TF_CONFIG is still read."""
    other = {"spec": {"containers": [container(name="main")]}}
    findings = check(job(PS={"template": other}, Worker={"replicas": 2, "template": hand_set("{")}))
    assert [f.loc for f in findings if f.code == "tfjob_tf_config_set"] == [
        (*SPECS, "Worker", "template", "spec", "containers", 0, "env", 0)
    ]


def test_dynamic_worker() -> None:
    findings = check(load("dynamic_worker.yaml"))
    assert found(findings) == [
        ("tfjob_dynamic_worker_empty_cluster", "error", "spec.tfReplicaSpecs.Chief"),
        ("tfjob_empty_job", "error", "spec.tfReplicaSpecs.Chief"),
        ("tfjob_missing_chief", "error", "spec.tfReplicaSpecs"),
        ("tfjob_empty_job", "error", "spec.tfReplicaSpecs.PS"),
    ]
    assert findings[1].message.startswith("pod elastic-chief-0 refuses its TF_CONFIG: ")
    # no profile reads every pod of such a job: each hint says what the option does
    assert {finding.hint for finding in findings} == {
        "enableDynamicWorker cuts each pod's cluster down to itself and the PS: drop it, or give "
        "the job PS and Worker replicas only"
    }


def test_dynamic_worker_without_ps() -> None:
    findings = check(load("dynamic_worker_no_ps.yaml"), node_check=None)
    assert found(findings) == [
        ("tfjob_dynamic_worker_ps_null", "error", "spec.enableDynamicWorker")
    ]


def test_dynamic_worker_before_v1_7() -> None:
    findings = check(load("dynamic_worker.yaml"), operator=Operator(release="v1.6.0"))
    assert found(findings)[:1] == [
        ("tfjob_sparse_cluster_ignored", "error", "spec.enableDynamicWorker")
    ]
    # The pods see no cluster: the Estimator reads a lone worker 0, refuses the rest.
    assert {f.code for f in findings[1:]} == {"tfjob_local_task_type", "tfjob_local_task_index"}


def test_notes() -> None:
    finding, moved = check(load("v1beta2.yaml"))
    assert found((finding,)) == [("tfjob_api_version", "error", "apiVersion")]
    assert (finding.refused, moved.refused) == (True, False)
    # v1beta2's place of cleanPodPolicy, which v1 does not read (see its lifecycle tests)
    assert found((moved,)) == [("tfjob_run_policy_outside", "warning", "spec.cleanPodPolicy")]
    assert 'no matches for kind "TFJob" in version "kubeflow.org/v1beta2"' in finding.message
    assert found(check(load("generate_name.yaml"))) == [
        ("tfjob_generate_name", "note", "metadata.generateName")
    ]
    (note,) = check(load("generate_name.yaml"), name="sweep-4kq2x")
    assert "'sweep-4kq2x'" in note.message


def test_replica_type_findings() -> None:
    template = {"spec": {"containers": [container()]}}
    findings = check(
        job(
            Chief={"template": template},
            worker={"template": template},
            Worker={"template": template},
        )
    )
    assert found(findings) == [
        ("tfjob_duplicate_replica_type", "warning", "spec.tfReplicaSpecs.Worker")
    ]
    findings = check(job(WORKER={"template": template}, worker={"template": template}))
    assert [f.severity for f in findings] == ["error", "error"]
    findings = check(job(Chief={"template": template}, Trainer={"template": template}))
    assert found(findings) == [
        ("tfjob_unknown_replica_type", "warning", "spec.tfReplicaSpecs.Trainer"),
        ("tfjob_single_replica", "note", "spec.tfReplicaSpecs"),
    ]


def test_service_names_longer_than_a_label() -> None:
    name = "a" * 54
    findings = check(tfjob_for_replicas(name, {"Chief": 1, "Worker": 12}))
    assert found(findings) == [
        ("tfjob_service_name", "error", "spec.tfReplicaSpecs.Worker"),
        # estconf's address rule: a host name label is at most 63 characters.
        ("tfjob_address", "error", "spec.tfReplicaSpecs.Worker"),
    ]
    assert f"'{name}-worker-11'" in findings[0].message


def mwms_like(tf_config: dict[str, Any]) -> None:
    """Stands for the MultiWorkerMirroredStrategy profile: a cluster with ps is refused."""
    if "ps" in tf_config.get("cluster", {}):
        raise ValueError("task ps:0 of this cluster: ps is not supported by this strategy")


def test_node_check_seam_locates_the_cause() -> None:
    (finding,) = check(load("mwms_with_ps.yaml"), node_check=mwms_like)
    assert found((finding,)) == [("tfjob_tf_config_refused", "error", "spec.tfReplicaSpecs.PS")]
    assert finding.hint is not None and "drop the PS replicas" in finding.hint
    assert check(load("multi_worker.yaml"), node_check=mwms_like) == ()


def test_node_check_runs_on_the_ends_of_each_type() -> None:
    seen: list[tuple[str, int, str, int]] = []

    def record(tf_config: dict[str, Any]) -> None:
        task_type, index = tf_config["task"]["type"], tf_config["task"]["index"]
        own = tf_config["cluster"][task_type][index].split(".")[0]
        seen.append((task_type, index, own, len(tf_config["cluster"][task_type])))

    check(tfjob_for_replicas("j", {"Chief": 1, "Worker": 100, "PS": 2}), node_check=record)
    # 100 workers are read as their first 15 and their last, task 15 of 16
    assert seen == [
        ("chief", 0, "j-chief-0", 1),
        ("worker", 0, "j-worker-0", 16),
        ("worker", 15, "j-worker-99", 16),
        ("ps", 0, "j-ps-0", 2),
        ("ps", 1, "j-ps-1", 2),
    ]


def test_a_million_replicas_are_checked_as_a_sample_in_a_moment() -> None:
    tfjob = tfjob_for_replicas("j", {"Chief": 1, "Worker": 200_000, "PS": 100_000})
    started = time.perf_counter()
    findings = check(tfjob, cluster_check=lambda prediction: [(None, str(len(prediction.pods)))])
    assert time.perf_counter() - started < 2
    assert [(f.code, f.message) for f in findings] == [("tfjob_cluster_check", "33")]


def test_a_sample_refuses_what_the_whole_job_refuses() -> None:
    # mwms refuses each ps pod: the sample names the whole range by its real names
    tfjob = tfjob_for_replicas("j", {"Worker": 40, "PS": 30})
    [finding] = check(tfjob, node_check=node_check_of("mwms"))
    assert finding.message.startswith("pods j-ps-0 to j-ps-29 refuse their TF_CONFIG: ")
    # the estimator's missing chief, found on every pod
    [finding] = check(tfjob)
    assert finding.message.startswith(
        "pods j-worker-0 to j-worker-39 and j-ps-0 to j-ps-29 refuse their TF_CONFIG: "
    )


def test_cluster_check_seam() -> None:
    def every_ps(prediction: Prediction) -> list[tuple[str | None, str]]:
        return [(pod.name, "claimed twice") for pod in prediction.pods if pod.task_type == "ps"]

    findings = check(load("dist_mnist.yaml"), cluster_check=every_ps)
    assert [(f.code, f.loc, f.message) for f in findings] == [
        ("tfjob_cluster_check", (*SPECS, "PS"), "pod dist-mnist-ps-0: claimed twice"),
        ("tfjob_cluster_check", (*SPECS, "PS"), "pod dist-mnist-ps-1: claimed twice"),
    ]


def test_long_messages_are_shortened() -> None:
    prediction = predict_replicas("j", {"Worker": 300, "PS": 1})
    assert prediction.distributed
    finding, _ = check(
        tfjob_for_replicas("j", {"Worker": 300, "PS": 1}),
        node_check=lambda tf_config: (_ for _ in ()).throw(ValueError(str(tf_config))),
    )
    assert len(finding.message) < 800 and " [...] " in finding.message


@pytest.mark.parametrize(("length", "whole"), [(600, True), (601, False)])
def test_a_message_is_shortened_past_600_characters(length: int, whole: bool) -> None:
    def refuse(tf_config: dict[str, Any]) -> None:
        raise ValueError("x" * (length - 1) + "!")

    finding, *_ = check(tfjob_for_replicas("j", {"Chief": 1, "Worker": 2}), node_check=refuse)
    said = finding.message.split(": ", 1)[1]
    if whole:
        assert said == "x" * 599 + "!"
    else:
        assert said == "x" * 300 + " [...] " + "x" * 199 + "!"


SAMPLED_TYPES = st.sampled_from(["Chief", "Master", "Worker", "PS", "Evaluator", "Trainer", "ps"])


@settings(max_examples=60, deadline=None)
@given(
    replicas=st.dictionaries(SAMPLED_TYPES, st.integers(0, 40), min_size=1, max_size=4),
    profile=st.sampled_from(["estimator", "mwms", "ps"]),
    dynamic=st.booleans(),
)
def test_the_sample_finds_what_the_whole_job_does(
    replicas: dict[str, int], profile: str, dynamic: bool
) -> None:
    tfjob = tfjob_for_replicas("j", replicas, enable_dynamic_worker=dynamic)
    if tfjob.ambiguous_replica_types:
        return

    def findings(size: int) -> list[tuple[str, str, tuple[str | int, ...], str]]:
        def sample(job: TFJob, **kwargs: Any) -> Prediction:
            return predict_sample(job, **kwargs, size=size)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(checks, "predict_sample", sample)
            return [
                (f.code, f.severity, f.loc, f.message)
                for f in check(
                    tfjob,
                    node_check=node_check_of(profile),
                    cluster_check=cluster_check,
                    profile=profile,
                )
            ]

    whole, sampled = findings(10**6), findings(SAMPLE_SIZE)
    assert [f[:3] for f in sampled] == [f[:3] for f in whole]
    # messages name the same pods; only a printed cluster may show the sample's
    for (*_, cut), (*_, full) in zip(sampled, whole, strict=True):
        assert cut.split(": ")[0] == full.split(": ")[0]


@pytest.mark.parametrize(
    "counts",
    [
        {"Worker": 3},
        {"Worker": 1},
        {"Worker": 2, "Evaluator": 1},
        {"Worker": 2, "PS": 1},
        {"Worker": 4, "PS": 2, "Evaluator": 1},
        {"PS": 1, "Worker": 1},
    ],
)
@pytest.mark.parametrize("dynamic", [False, True])
def test_a_profile_a_hint_names_reads_every_pod(counts: dict[str, int], dynamic: bool) -> None:
    """The hints of a job without a chief name profiles under which no pod is refused."""
    tfjob = tfjob_for_replicas("job", counts, enable_dynamic_worker=dynamic)
    hints = [f.hint or "" for f in check(tfjob) if "TF_CONFIG: " in f.message]
    for profile in {p for hint in hints for p in re.findall(r"--profile (\w+)", hint)}:
        refused = [
            f.message
            for f in check(tfjob, node_check=node_check_of(profile))
            if "TF_CONFIG: " in f.message
        ]
        assert refused == [], (counts, dynamic, profile, hints)


def test_a_job_of_generate_name_alone_is_checked_as_generate_name_and_five_characters() -> None:
    template = {"spec": {"containers": [container()]}}
    tfjob = TFJob.model_validate(
        {
            "apiVersion": "kubeflow.org/v1",
            "kind": "TFJob",
            "metadata": {"generateName": "sweep-"},
            "spec": {
                "tfReplicaSpecs": {
                    "Worker": {"replicas": 4, "template": template},
                    "PS": {"replicas": 3, "template": template},
                }
            },
        }
    )
    refusal = check(tfjob, node_check=node_check_of("mwms"))[-1]
    assert refusal.message.startswith("pods sweep-xxxxx-ps-0 to sweep-xxxxx-ps-2 refuse")


def test_the_port_of_a_tensorflow_container_past_256_others_is_checked() -> None:
    sidecars = [{"name": f"side-{i}", "image": "busybox"} for i in range(257)]
    tensorflow = container(ports=[{"containerPort": 8080}])
    tfjob = job(Chief={"template": {"spec": {"containers": [*sidecars, tensorflow]}}})
    assert found(check(tfjob, node_check=None))[0] == (
        "tfjob_port_not_named",
        "warning",
        "spec.tfReplicaSpecs.Chief.template.spec.containers[257].ports",
    )


def test_only_the_first_port_named_tfjob_port_is_checked_for_its_range() -> None:
    ports = [
        {"name": "tfjob-port", "containerPort": 2222},
        {"name": "tfjob-port", "containerPort": 70000},
    ]
    tfjob = job(Chief={"template": {"spec": {"containers": [container(ports=ports)]}}})
    assert "tfjob_port_invalid" not in {f.code for f in check(tfjob, node_check=None)}


@pytest.mark.parametrize("length", [4, 63 - len("-trainer_x-0")])
def test_a_service_name_of_at_most_63_characters_has_no_hint_to_shorten(length: int) -> None:
    template = {"template": {"spec": {"containers": [container()]}}}
    findings = check(job("a" * length, Chief=template, Trainer_x=template), node_check=None)
    (finding,) = [f for f in findings if f.code == "tfjob_service_name"]
    assert finding.hint is None


def test_a_dynamic_worker_job_without_ps_hints_at_ps_replicas() -> None:
    (finding,) = check(load("dynamic_worker_no_ps.yaml"), node_check=None)
    assert finding.hint == "add PS replicas or drop enableDynamicWorker"
