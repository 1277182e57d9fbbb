"""``estconf.convert.tfjob``: every TFJob of tests/data runs alike as a TrainJob or a JobSet.

Each TFJob file is converted, the converted job's pods are predicted as
estconf predicts a JobSet's (or a TrainJob's on its runtime), and each pod's
TF_CONFIG is compared with what the operator writes into the same pod of the
TFJob, once its host names are those of the JobSet.  ``validate`` of the
output then finds what the TFJob's own pods refuse under each profile, and
nothing else.  The TFJobs the converter refuses are asserted refused, with
why.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import estconf
from estconf.codes import declaration
from estconf.convert.names import jobset_of_documents
from estconf.convert.reading import convert_text
from estconf.convert.tfjob import MAX_TF_CONFIG, Refused, address, tfjob_to_trainjob
from estconf.io.dump import dumps_manifests
from estconf.launchers.jobset.tf_configs import tf_configs
from estconf.launchers.kubeflow.manifest import TFJob
from estconf.launchers.kubeflow.operator import predict
from estconf.profiles.registry import NAMES
from values import refuses_assignment

ROOT = Path(__file__).resolve().parents[1]
TFJOB = re.compile(r"""["']?kind["']?\s*:\s*["']?TFJob\b""")
TFJOB_FILES = sorted(
    path.relative_to(ROOT).as_posix()
    for path in (ROOT / "tests" / "data").rglob("*")
    if path.suffix in (".yaml", ".yml", ".json")
    and path.is_file()
    and TFJOB.search(path.read_text(encoding="utf-8", errors="replace"))
)
"""Every file of tests/data that holds a TFJob (``grep -rl "kind: TFJob"``, quoted or not)."""

REFUSED = {
    "tests/data/helm/mnist/templates/tfjob.yaml": "helm_template",
    "tests/data/hostile/tfjob_billion_laughs.yaml": "values",
    "tests/data/kubeflow/containers_mapping.yaml": "tfjob_not_a_list",
    "tests/data/kubeflow/dynamic_worker.yaml": "enableDynamicWorker",
    "tests/data/kubeflow/dynamic_worker_no_ps.yaml": "enableDynamicWorker",
    "tests/data/kubeflow/generate_name.yaml": "only generateName 'sweep-'",
    "tests/data/kubeflow/int32_max_replicas.yaml": "MAX_ARG_STRLEN",
    "tests/data/kubeflow/katib_experiment.yaml": "trialSpec of a Katib Experiment",
    "tests/data/kubeflow/kubectl_get_list.yaml": "holds 2 TFJobs",
    "tests/data/kubeflow/million_replicas.yaml": "MAX_ARG_STRLEN",
    "tests/data/kubeflow/no_tensorflow_container.yaml": "tfjob_no_tensorflow_container",
    "tests/data/kubeflow/refused.yaml": "tfjob_multiple_chief",
    "tests/data/kubeflow/restart_policy_invalid.yaml": "tfjob_restart_policy_invalid",
    "tests/data/kubeflow/v1alpha1.yaml": "tfjob_api_version",
}
"""Each TFJob file the converter refuses, and a word of why (a code or the message's)."""

CONVERTED = [path for path in TFJOB_FILES if path not in REFUSED]


def test_the_files_are_every_tfjob_of_the_test_data() -> None:
    assert len(TFJOB_FILES) >= 35
    assert set(REFUSED) <= set(TFJOB_FILES)
    assert len(CONVERTED) >= 20


def _converted(path: str, **options: Any) -> tuple[TFJob, tuple[dict[str, Any], ...]]:
    raw = (ROOT / path).read_bytes()
    found = convert_text(raw, path, **options)
    assert not found.refused, [str(f) for f in found.findings]
    tfjob = TFJob.from_yaml(raw)
    return tfjob, found.documents


def _host_names(tfjob: TFJob) -> dict[str, str]:
    """Each operator address of the TFJob's pods, mapped to the JobSet's address of that pod."""
    prediction = predict(tfjob)
    name = prediction.job_name
    return {
        pod.address: address(name, pod.task_type, pod.index, int(pod.address.rsplit(":", 1)[1]))
        for pod in prediction.pods
    }


def _mapped(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {key: _mapped(item, names) for key, item in value.items()}
    if isinstance(value, list):
        return [_mapped(item, names) for item in value]
    return names.get(value, value) if isinstance(value, str) else value


def _hand_set(tfjob: TFJob, key: str) -> str | None:
    spec = (tfjob.spec.tf_replica_specs or {})[key]
    container = spec.template.spec.containers[spec.tensorflow_container or 0]
    values = [v.value for v in container.env if v.name == "TF_CONFIG"]
    return values[-1] if values else None


@pytest.mark.parametrize("jobset", [False, True], ids=["trainjob", "jobset"])
@pytest.mark.parametrize("path", CONVERTED)
def test_each_pod_gets_the_operators_tf_config_with_the_jobsets_host_names(
    path: str, jobset: bool
) -> None:
    tfjob, documents = _converted(path, jobset=jobset)
    prediction = predict(tfjob)
    names = _host_names(tfjob)
    pods = {
        (each.pod.replicated_job, each.pod.job_index, each.pod.index): each.text
        for each in tf_configs(jobset_of_documents(documents))
    }
    assert len(pods) == len(prediction.pods)
    for pod in prediction.pods:
        text = pods[(pod.task_type, 0, pod.index)]
        operators = pod.tf_config_dict()
        if operators is None:  # one pod: the one set by hand, if any, as under the operator
            assert text == _hand_set(tfjob, pod.replica_key)
        else:
            assert text is not None
            assert json.loads(text) == _mapped(operators, names)


def _reader_codes(findings: list[estconf.Finding]) -> set[str]:
    """The codes of what a TFJob's pods refuse under a reader: ``tfjob_`` and the reader's code."""
    return {
        f.code.removeprefix("tfjob_")
        for f in findings
        if f.severity == "error" and declaration(f.code).name == "tfjob_"
    }


@pytest.mark.parametrize("jobset", [False, True], ids=["trainjob", "jobset"])
@pytest.mark.parametrize("profile", NAMES)
@pytest.mark.parametrize("path", CONVERTED)
def test_validate_finds_what_the_tfjobs_pods_refuse_and_nothing_else(
    path: str, profile: str, jobset: bool, tmp_path: Path
) -> None:
    _, documents = _converted(path, jobset=jobset)
    out = tmp_path / "converted.yaml"
    out.write_text(dumps_manifests(documents), encoding="utf-8")
    tfjob = estconf.check(ROOT / path, profile=profile).findings
    found = estconf.check(out, profile=profile).findings
    assert {f.code for f in found} == _reader_codes(tfjob), [str(f) for f in found]


@pytest.mark.parametrize(("path", "why"), sorted(REFUSED.items()))
def test_what_the_converter_refuses_and_why(path: str, why: str) -> None:
    found = convert_text((ROOT / path).read_bytes(), path)
    assert found.refused
    assert found.documents == ()
    said = [f"{f.code} {f.message}" for f in found.findings]
    assert any(why in line for line in said), said


def _tfjob(replicas: dict[str, Any], **spec: Any) -> TFJob:
    return TFJob.model_validate(
        {
            "apiVersion": "kubeflow.org/v1",
            "kind": "TFJob",
            "metadata": {"name": "mnist", "namespace": "ml"},
            "spec": {
                **spec,
                "tfReplicaSpecs": {
                    key: {
                        "replicas": count,
                        "template": {
                            "spec": {"containers": [{"name": "tensorflow", "image": "tf:2.15"}]}
                        },
                    }
                    for key, count in replicas.items()
                },
            },
        }
    )


class TestTheJobs:
    def test_one_replicated_job_per_type_chief_first_and_parameter_servers_after(self) -> None:
        runtime, trainjob = tfjob_to_trainjob(
            _tfjob({"PS": 2, "Evaluator": 1, "Worker": 3, "Chief": 1})
        ).documents
        jobs = runtime["spec"]["template"]["spec"]["replicatedJobs"]
        assert [job["name"] for job in jobs] == ["chief", "worker", "ps", "evaluator"]
        assert [job["replicas"] for job in jobs] == [1, 1, 1, 1]
        assert [job["template"]["spec"]["parallelism"] for job in jobs] == [1, 3, 2, 1]
        assert [job["template"]["spec"]["completions"] for job in jobs] == [1, 3, 2, 1]
        assert trainjob["spec"]["runtimeRef"] == {
            "name": "mnist",
            "apiGroup": "trainer.kubeflow.org",
            "kind": "TrainingRuntime",
        }
        assert runtime["metadata"] == {"name": "mnist", "namespace": "ml"}
        assert trainjob["metadata"] == {"name": "mnist", "namespace": "ml"}

    def test_the_workers_are_the_trainer_job_of_numnodes_pods_in_container_node(self) -> None:
        runtime, _ = tfjob_to_trainjob(_tfjob({"Chief": 1, "Worker": 4})).documents
        chief, worker = runtime["spec"]["template"]["spec"]["replicatedJobs"]
        assert runtime["spec"]["mlPolicy"] == {"numNodes": 4}
        assert worker["template"]["metadata"] == {
            "labels": {"trainer.kubeflow.org/trainjob-ancestor-step": "trainer"}
        }
        assert worker["template"]["spec"]["template"]["spec"]["containers"][0]["name"] == "node"
        assert "metadata" not in chief["template"]
        assert chief["template"]["spec"]["template"]["spec"]["containers"][0]["name"] == (
            "tensorflow"
        )

    def test_without_workers_the_chief_is_the_trainer_job(self) -> None:
        runtime, _ = tfjob_to_trainjob(_tfjob({"Chief": 1, "PS": 1})).documents
        chief = runtime["spec"]["template"]["spec"]["replicatedJobs"][0]
        assert runtime["spec"]["mlPolicy"] == {"numNodes": 1}
        assert "labels" in chief["template"]["metadata"]

    def test_a_jobset_has_no_trainer_label_and_keeps_the_container_names(self) -> None:
        (jobset,) = tfjob_to_trainjob(_tfjob({"Chief": 1, "Worker": 2}), jobset=True).documents
        assert (jobset["apiVersion"], jobset["kind"]) == ("jobset.x-k8s.io/v1alpha2", "JobSet")
        for job in jobset["spec"]["replicatedJobs"]:
            assert "metadata" not in job["template"]
            assert job["template"]["spec"]["template"]["spec"]["containers"][0]["name"] == (
                "tensorflow"
            )

    def test_the_runtime_and_namespace_are_named_as_asked(self) -> None:
        converted = tfjob_to_trainjob(
            _tfjob({"Worker": 2}), runtime_name="tf-plain", namespace="research"
        )
        runtime, trainjob = converted.documents
        assert runtime["metadata"] == {"name": "tf-plain", "namespace": "research"}
        assert trainjob["metadata"]["namespace"] == "research"
        assert trainjob["spec"]["runtimeRef"]["name"] == "tf-plain"
        assert [f.code for f in converted.findings] == [
            "convert_field_changed",  # the namespace
            "convert_field_changed",  # worker 0 ends the TFJob, every worker the TrainJob
            "convert_field_changed",  # the container named node
        ]
        assert "'ml' becomes 'research'" in converted.findings[0].message


class TestThePolicies:
    def test_the_run_policy_goes_to_the_jobs_and_the_trainjob(self) -> None:
        policy = {"activeDeadlineSeconds": 600, "suspend": True, "backoffLimit": 2}
        tfjob = _tfjob({"Chief": 1, "Worker": 2}, runPolicy=policy)
        runtime, trainjob = tfjob_to_trainjob(tfjob).documents
        assert trainjob["spec"]["suspend"] is True
        for job in runtime["spec"]["template"]["spec"]["replicatedJobs"]:
            assert job["template"]["spec"]["activeDeadlineSeconds"] == 600
            assert job["template"]["spec"]["backoffLimit"] == 0  # restartPolicy Never

    def test_the_ttl_goes_to_a_jobset(self) -> None:
        tfjob = _tfjob({"Worker": 2}, runPolicy={"ttlSecondsAfterFinished": 60})
        (jobset,) = tfjob_to_trainjob(tfjob, jobset=True).documents
        assert jobset["spec"]["ttlSecondsAfterFinished"] == 60
        assert jobset["spec"]["successPolicy"] == {
            "operator": "All",
            "targetReplicatedJobs": ["worker"],
        }

    def test_fields_the_operator_does_not_read_and_names_jobset_sets_are_dropped(self) -> None:
        data = _tfjob({"Worker": 2}, cleanPodPolicy="All").to_manifest()
        worker = data["spec"]["tfReplicaSpecs"]["Worker"]
        worker["minAvailable"] = 2
        worker["template"]["spec"]["hostname"] = "trainer"
        converted = tfjob_to_trainjob(TFJob.model_validate(data))
        dropped = [f.path for f in converted.findings if f.code == "convert_field_dropped"]
        assert dropped == [
            "spec.cleanPodPolicy",
            "spec.tfReplicaSpecs.Worker.minAvailable",
            "spec.tfReplicaSpecs.Worker.template.spec.hostname",
        ]
        pod = converted.documents[0]["spec"]["template"]["spec"]["replicatedJobs"][0]
        assert "hostname" not in pod["template"]["spec"]["template"]["spec"]

    def test_the_pod_templates_are_kept_as_written(self) -> None:
        tfjob = TFJob.from_yaml((ROOT / "tests/data/kubeflow/multi_worker.yaml").read_text())
        given = tfjob.to_manifest()["spec"]["tfReplicaSpecs"]["Worker"]["template"]["spec"]
        (jobset,) = tfjob_to_trainjob(tfjob, jobset=True).documents
        pod = jobset["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]
        assert pod["volumes"] == given["volumes"]
        container, written = pod["containers"][0], given["containers"][0]
        for key in ("image", "volumeMounts", "resources"):
            assert container[key] == written[key]


class TestTheTFConfig:
    def test_the_index_comes_from_a_variable_defined_before_tf_config(self) -> None:
        (jobset,) = tfjob_to_trainjob(_tfjob({"Worker": 2}), jobset=True).documents
        env = jobset["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"][
            "containers"
        ][0]["env"]
        assert env[0] == {
            "name": "TASK_INDEX",
            "valueFrom": {
                "fieldRef": {
                    "fieldPath": "metadata.annotations['batch.kubernetes.io/job-completion-index']"
                }
            },
        }
        assert env[1]["name"] == "TF_CONFIG"
        assert env[1]["value"] == (
            '{"cluster":{"worker":["mnist-worker-0-0.mnist:2222","mnist-worker-0-1.mnist:2222"]},'
            '"task":{"type":"worker","index":$(TASK_INDEX)},"environment":"cloud"}'
        )

    def test_a_tf_config_set_by_hand_is_replaced_with_a_note(self) -> None:
        tfjob = TFJob.from_yaml((ROOT / "tests/data/kubeflow/refused.yaml").read_text())
        data = tfjob.to_manifest()
        spec = data["spec"]["tfReplicaSpecs"]
        del spec["Master"]
        spec["Worker"]["template"]["spec"]["containers"] = spec["Chief"]["template"]["spec"][
            "containers"
        ]
        converted = tfjob_to_trainjob(TFJob.model_validate(data))
        replaced = [f for f in converted.findings if f.code == "convert_tf_config_replaced"]
        assert [f.path for f in replaced] == [
            "spec.tfReplicaSpecs.Chief.template.spec.containers[0].env[1]",
            "spec.tfReplicaSpecs.Worker.template.spec.containers[0].env[1]",
        ]
        for job in converted.documents[0]["spec"]["template"]["spec"]["replicatedJobs"]:
            env = job["template"]["spec"]["template"]["spec"]["containers"][0]["env"]
            assert [entry["name"] for entry in env].count("TF_CONFIG") == 1
            assert env[-1]["value"].startswith('{"cluster":{"chief":["refused-chief-0-0.refused')

    def test_a_container_that_defines_task_index_gets_another_name(self) -> None:
        data = _tfjob({"Worker": 2}).to_manifest()
        container = data["spec"]["tfReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]
        container["env"] = [{"name": "TASK_INDEX", "value": "7"}]
        (jobset,) = tfjob_to_trainjob(TFJob.model_validate(data), jobset=True).documents
        env = jobset["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"][
            "containers"
        ][0]["env"]
        assert [entry["name"] for entry in env] == ["TASK_INDEX", "TF_TASK_INDEX", "TF_CONFIG"]
        assert '"index":$(TF_TASK_INDEX)}' in env[2]["value"]

    def test_a_job_of_one_pod_gets_no_tf_config_as_from_the_operator(self) -> None:
        (jobset,) = tfjob_to_trainjob(_tfjob({"Worker": 1}), jobset=True).documents
        container = jobset["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"][
            "containers"
        ][0]
        assert "env" not in container

    def test_the_port_is_the_tfjob_port_of_each_type_else_2222(self) -> None:
        data = _tfjob({"Chief": 1, "Worker": 1}).to_manifest()
        chief = data["spec"]["tfReplicaSpecs"]["Chief"]["template"]["spec"]["containers"][0]
        chief["ports"] = [{"name": "tfjob-port", "containerPort": 3333}]
        (jobset,) = tfjob_to_trainjob(TFJob.model_validate(data), jobset=True).documents
        text = jobset["spec"]["replicatedJobs"][1]["template"]["spec"]["template"]["spec"][
            "containers"
        ][0]["env"][-1]["value"]
        assert '"chief":["mnist-chief-0-0.mnist:3333"]' in text
        assert '"worker":["mnist-worker-0-0.mnist:2222"]' in text
        worker = jobset["spec"]["replicatedJobs"][1]["template"]["spec"]["template"]["spec"]
        assert worker["containers"][0]["ports"] == [{"name": "tfjob-port", "containerPort": 2222}]


class TestRefusals:
    @pytest.mark.parametrize(
        ("replicas", "spec", "why"),
        [
            ({"Worker": 2, "Sidecar": 1}, {}, "not 'Sidecar'"),
            ({"Worker": 2, "PS": 0}, {}, "'PS' has replicas 0"),
            ({"PS": 2}, {}, "parameter servers alone never ends"),
            ({"Worker": 2}, {"enableDynamicWorker": True}, "enableDynamicWorker"),
        ],
    )
    def test_a_job_that_cannot_run_alike_is_refused(
        self, replicas: dict[str, int], spec: dict[str, Any], why: str
    ) -> None:
        with pytest.raises(Refused) as refused:
            tfjob_to_trainjob(_tfjob(replicas, **spec))
        assert why in str(refused.value)
        assert {f.code for f in refused.value.findings} == {"convert_refused"}

    def test_names_longer_than_jobsets_webhook_admits_are_refused(self) -> None:
        data = _tfjob({"Chief": 1, "Evaluator": 1}).to_manifest()
        data["metadata"]["name"] = "a" * 44  # and "-evaluator-0-0-abcde"
        with pytest.raises(Refused) as refused:
            tfjob_to_trainjob(TFJob.model_validate(data))
        (finding,) = refused.value.findings
        assert "pod name 'aaaa" in finding.message
        assert "has 64 characters, more than 63" in finding.message
        assert finding.hint == "shorten the TFJob's name"
        data["metadata"]["name"] = "a" * 43
        assert tfjob_to_trainjob(TFJob.model_validate(data)).documents

    def test_a_value_a_jobsets_pod_template_cannot_hold_is_refused_not_a_crash(self) -> None:
        data = _tfjob({"Worker": 2}).to_manifest()
        template = data["spec"]["tfReplicaSpecs"]["Worker"]["template"]
        template["metadata"] = {"labels": {"tier": 1}}
        with pytest.raises(Refused) as refused:
            tfjob_to_trainjob(TFJob.model_validate(data))
        (finding,) = refused.value.findings
        assert finding.path == "spec.tfReplicaSpecs"
        assert "metadata.labels.tier: Input should be a valid string" in finding.message

    def test_a_run_policy_that_is_no_mapping_is_dropped(self) -> None:
        converted = tfjob_to_trainjob(_tfjob({"Chief": 1, "Worker": 1}, runPolicy="Running"))
        assert ("convert_field_dropped", "spec.runPolicy") in [
            (f.code, f.path) for f in converted.findings
        ]


def _variables(documents: tuple[dict[str, Any], ...]) -> list[str]:
    """Each job's longest ``TF_CONFIG=...`` as its pod of the highest index gets it."""
    (jobset,) = documents
    found = []
    for job in jobset["spec"]["replicatedJobs"]:
        spec = job["template"]["spec"]
        (container,) = spec["template"]["spec"]["containers"]
        index, tf_config = container["env"][-2:]
        value = tf_config["value"].replace(f"$({index['name']})", str(spec["parallelism"] - 1))
        found.append(f"TF_CONFIG={value}")
    return found


class TestTheTFConfigBound:
    def _chief_workers_evaluator(self, chief_port: int) -> TFJob:
        data = _tfjob({"Chief": 1, "Worker": 4000, "Evaluator": 1}).to_manifest()
        specs = data["spec"]["tfReplicaSpecs"]
        for key, port in (("Chief", chief_port), ("Evaluator", 10000)):
            container = specs[key]["template"]["spec"]["containers"][0]
            container["ports"] = [{"name": "tfjob-port", "containerPort": port}]
        return TFJob.model_validate(data)

    def test_a_tf_config_of_the_most_linux_gives_one_variable_converts(self) -> None:
        converted = tfjob_to_trainjob(self._chief_workers_evaluator(1000), jobset=True)
        longest = max(len(each.encode()) + 1 for each in _variables(converted.documents))
        assert longest == MAX_TF_CONFIG == 128 * 1024  # MAX_ARG_STRLEN counts the final NUL

    def test_one_byte_more_is_refused_with_its_size(self) -> None:
        with pytest.raises(Refused) as refused:
            tfjob_to_trainjob(self._chief_workers_evaluator(10000), jobset=True)
        (finding,) = refused.value.findings
        assert finding.path == "spec.tfReplicaSpecs"
        assert "lists the 4,002 pods, and takes 131,073 bytes: more than the 131,072" in (
            finding.message
        )
        assert finding.hint == "give the job fewer replicas"

    def test_a_cluster_under_a_dozen_bytes_a_pod_is_measured_exactly(self) -> None:
        with pytest.raises(Refused) as refused:
            tfjob_to_trainjob(_tfjob({"Worker": 10_900}), jobset=True)
        (finding,) = refused.value.findings
        assert "lists the 10,900 pods, and takes 359,586 bytes:" in finding.message
        assert "at least" not in finding.message

    def test_a_cluster_of_more_pods_than_a_dozen_bytes_each_allows_is_refused_unbuilt(
        self,
    ) -> None:
        with pytest.raises(Refused) as refused:
            tfjob_to_trainjob(_tfjob({"Worker": 1_000_000}), jobset=True)
        (finding,) = refused.value.findings
        assert "lists the 1,000,000 pods, and takes at least 12,000,000 bytes:" in (finding.message)


class TestWhatIsKept:
    def test_the_namespace_asked_as_the_tfjobs_own_changes_nothing(self) -> None:
        text = (ROOT / "tests/data/kubeflow/dist_mnist.yaml").read_bytes()
        converted = convert_text(text, "dist_mnist.yaml", namespace="ml")
        assert not converted.refused
        assert [f for f in converted.findings if "namespace" in f.message] == []
        assert converted.documents[1]["metadata"]["namespace"] == "ml"

    def test_the_containers_own_ports_are_kept(self) -> None:
        data = _tfjob({"Chief": 1, "Worker": 1}).to_manifest()
        specs = data["spec"]["tfReplicaSpecs"]
        chief = specs["Chief"]["template"]["spec"]["containers"][0]
        chief["ports"] = [{"name": "tfjob-port", "containerPort": 3333}]
        worker = specs["Worker"]["template"]["spec"]["containers"][0]
        worker["ports"] = [{"name": "metrics", "containerPort": 9090}]
        (jobset,) = tfjob_to_trainjob(TFJob.model_validate(data), jobset=True).documents
        ports = [
            job["template"]["spec"]["template"]["spec"]["containers"][0]["ports"]
            for job in jobset["spec"]["replicatedJobs"]
        ]
        assert ports == [
            [{"name": "tfjob-port", "containerPort": 3333}],
            [
                {"name": "metrics", "containerPort": 9090},
                {"name": "tfjob-port", "containerPort": 2222},
            ],
        ]

    def test_the_variables_after_a_tf_config_set_by_hand_are_kept(self) -> None:
        data = _tfjob({"Worker": 2}).to_manifest()
        container = data["spec"]["tfReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]
        container["env"] = [
            {"name": "A", "value": "1"},
            {"name": "TF_CONFIG", "value": "{}"},
            {"name": "B", "value": "2"},
        ]
        (jobset,) = tfjob_to_trainjob(TFJob.model_validate(data), jobset=True).documents
        env = jobset["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"][
            "containers"
        ][0]["env"]
        assert [entry["name"] for entry in env] == ["A", "B", "TASK_INDEX", "TF_CONFIG"]

    def test_a_conversion_refuses_assignment(self) -> None:
        refuses_assignment(tfjob_to_trainjob(_tfjob({"Worker": 2})))


def test_the_workers_of_a_file_without_a_chief_end_the_job_all_with_a_note() -> None:
    text = (
        "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: mnist}\n"
        "spec:\n  tfReplicaSpecs:\n    Worker:\n      replicas: 3\n"
        "      template:\n        spec:\n"
        '          containers: [{name: tensorflow, image: "tf:2.15"}]\n'
    )
    converted = convert_text(text.encode(), "tfjob.yaml", jobset=True)
    (jobset,) = converted.documents
    assert jobset["spec"]["successPolicy"]["targetReplicatedJobs"] == ["worker"]
    said = [(f.code, f.path, f.line) for f in converted.findings if "worker 0" in f.message]
    assert said == [("convert_field_changed", "spec", 4)]
