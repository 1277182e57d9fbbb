"""``estconf validate`` on Kubeflow TFJob manifests ; the pre-commit hook."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from estconf.cli import main
from estconf.deployment import check_cluster
from estconf.kubeflow import Operator, PredictedPod, Release, check, predict, tfjob_for_replicas
from estconf.launchers.kubeflow import tfjobs

ROOT = Path(__file__).resolve().parents[1]
DATA = "tests/data/kubeflow"
ESTCONF = Path(sys.executable).with_name("estconf")


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def validate(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(["validate", *argv])
    out, err = capsys.readouterr()
    assert err == ""
    return status, out


def located(capsys: pytest.CaptureFixture[str], name: str, profile: str) -> list[str]:
    """Each error of a data file as ``line:col: path: code``; the file must read as TFJobs."""
    status, out = validate(capsys, "--format", "json", "--profile", profile, f"{DATA}/{name}")
    [result] = json.loads(out)["files"]
    assert result["kind"] == "tfjob"
    errors = [f"{e['line']}:{e['column']}: {e['path']}: {e['code']}" for e in result["errors"]]
    assert status == (1 if any(e["severity"] == "error" for e in result["errors"]) else 0)
    return errors


SPECS = "spec.tfReplicaSpecs"
TRIAL = "spec.trialTemplate.trialSpec"
NO_PS = "tfjob_no_id_for_task_type"  # MultiWorkerMirroredStrategy on a ps pod
EXPECTED: dict[tuple[str, str], list[str]] = {
    # the operator's examples: an Estimator job of Chief, PS and Worker
    ("dist_mnist.yaml", "estimator"): [],
    ("dist_mnist.yaml", "mwms"): [f"18:5: {SPECS}.PS: {NO_PS}"],
    ("dist_mnist.yaml", "ps"): [],
    # `env:`, `args:`, `metadata:` of no value: the API server drops them
    ("null_fields.yaml", "estimator"): [],
    ("null_fields.yaml", "mwms"): [],
    ("estimator_no_chief.yaml", "estimator"): [f"7:3: {SPECS}: tfjob_missing_chief"],
    ("estimator_no_chief.yaml", "mwms"): [f"8:5: {SPECS}.PS: {NO_PS}"],
    ("estimator_no_chief.yaml", "ps"): [],
    # worker-only, for MultiWorkerMirroredStrategy
    ("multi_worker.yaml", "estimator"): [f"10:3: {SPECS}: tfjob_missing_chief"],
    ("multi_worker.yaml", "mwms"): [],
    ("multi_worker.yaml", "ps"): [f"10:3: {SPECS}: tfjob_missing_ps"],
    ("mwms_with_ps.yaml", "estimator"): [f"8:3: {SPECS}: tfjob_missing_chief"],
    ("mwms_with_ps.yaml", "mwms"): [f"9:5: {SPECS}.PS: {NO_PS}"],
    ("mwms_with_ps.yaml", "ps"): [],
    # Chief + Worker + Evaluator
    ("chief_worker_evaluator.yaml", "estimator"): [],
    ("chief_worker_evaluator.yaml", "mwms"): [],
    ("chief_worker_evaluator.yaml", "ps"): [f"8:3: {SPECS}: tfjob_missing_ps"],
    ("chief_worker.json", "estimator"): [],
    ("chief_worker.json", "ps"): [f"6:5: {SPECS}: tfjob_missing_ps"],
    # enableDynamicWorker
    ("dynamic_worker.yaml", "estimator"): [
        f"9:3: {SPECS}: tfjob_missing_chief",
        f"10:5: {SPECS}.Chief: tfjob_dynamic_worker_empty_cluster",
        f"10:5: {SPECS}.Chief: tfjob_empty_job",
        f"17:5: {SPECS}.PS: tfjob_empty_job",
    ],
    ("dynamic_worker.yaml", "mwms"): [
        f"10:5: {SPECS}.Chief: tfjob_dynamic_worker_empty_cluster",
        f"10:5: {SPECS}.Chief: tfjob_empty_job",
        f"10:5: {SPECS}.Chief: tfjob_task_type_not_in_cluster",
        f"17:5: {SPECS}.PS: tfjob_empty_job",
        f"17:5: {SPECS}.PS: {NO_PS}",
        f"17:5: {SPECS}.PS: tfjob_task_id_out_of_range",
        f"24:5: {SPECS}.Worker: tfjob_task_id_out_of_range",
    ],
    ("dynamic_worker_no_ps.yaml", "ps"): [
        "6:3: spec.enableDynamicWorker: tfjob_dynamic_worker_ps_null",
        f"8:5: {SPECS}.Worker: tfjob_job_tasks_type",
    ],
    # one replica: no TF_CONFIG at all, as meant (a note, not reported)
    ("single_replica.yaml", "estimator"): [],
    # one replica with a TF_CONFIG set by hand: the program reads it
    ("single_pod_tf_config.yaml", "estimator"): [
        f"17:19: {SPECS}.Worker.template.spec.containers[0].env[0].value: tfjob_missing_chief"
    ],
    ("single_pod_tf_config.yaml", "mwms"): [],
    # upper- and lower-case replica types
    ("letter_case.yaml", "estimator"): [],
    ("letter_case.yaml", "mwms"): [f"16:5: {SPECS}.ps: {NO_PS}"],
    # per-type ports
    ("per_type_ports.yaml", "estimator"): [
        f"17:15: {SPECS}.Chief.template.spec.containers[0].ports: tfjob_port_not_named",
        f"38:19: {SPECS}.Worker.template.spec.containers[0].ports[0]: tfjob_port_other_container",
    ],
    # a stream with other kinds: lines count from the top of the stream
    ("stream.yaml", "estimator"): [],
    ("stream.yaml", "ps"): [f"21:3: {SPECS}: tfjob_missing_ps"],
    # kubectl get output, one job and a List of them
    ("kubectl_get.yaml", "estimator"): [],
    ("kubectl_get.yaml", "mwms"): [f"35:5: {SPECS}.PS: {NO_PS}"],
    ("kubectl_get_list.yaml", "estimator"): [f"10:5: items[0].{SPECS}: tfjob_missing_chief"],
    ("kubectl_get_list.yaml", "ps"): [
        f"10:5: items[0].{SPECS}: tfjob_missing_ps",
        f"27:5: items[1].{SPECS}: tfjob_missing_ps",
    ],
    # the webhook's refusals and a hand-set TF_CONFIG
    ("refused.yaml", "estimator"): [
        f"9:3: {SPECS}: tfjob_multiple_chief",
        f"10:5: {SPECS}.Chief: tfjob_chief_with_master",
        f"20:19: {SPECS}.Chief.template.spec.containers[0].env[1]: tfjob_tf_config_set",
        f"33:11: {SPECS}.Worker.template.spec.containers: tfjob_no_tensorflow_container",
        f"36:15: {SPECS}.Worker.template.spec.containers[1].image: tfjob_no_image",
    ],
    # no container named tensorflow: one refusal a replica type
    ("no_tensorflow_container.yaml", "estimator"): [
        f"14:11: {SPECS}.Chief.template.spec.containers: tfjob_no_tensorflow_container",
        f"26:11: {SPECS}.Worker.template.spec.containers: tfjob_no_tensorflow_container",
        f"34:11: {SPECS}.PS.template.spec.containers: tfjob_no_tensorflow_container",
        f"41:11: {SPECS}.Evaluator.template.spec.containers: tfjob_no_tensorflow_container",
    ],
    # a container without its "- ": the model's refusal, and the apiVersion's beside it
    ("containers_mapping.yaml", "estimator"): [
        "3:1: apiVersion: tfjob_api_version",
        f"15:11: {SPECS}.Worker.template.spec.containers: tfjob_not_a_list",
    ],
    # a million replicas in 300 bytes: checked as a sample of each type
    ("million_replicas.yaml", "estimator"): [f"6:5: {SPECS}.Chief: tfjob_multiple_chiefs"],
    # a Katib Experiment: the TFJob each trial runs, located in the Experiment
    ("katib_experiment.yaml", "estimator"): [f"53:9: {TRIAL}.{SPECS}: tfjob_missing_chief"],
    ("katib_experiment.yaml", "mwms"): [
        f"56:13: {TRIAL}.{SPECS}.Worker.restartPolicy: tfjob_mwms_restart"
    ],
    ("katib_experiment.yaml", "ps"): [f"53:9: {TRIAL}.{SPECS}: tfjob_missing_ps"],
    # the API server knows no TFJob but v1's; the rest is read as v1
    ("v1beta2.yaml", "estimator"): [
        "2:1: apiVersion: tfjob_api_version",
        "8:3: spec.cleanPodPolicy: tfjob_run_policy_outside",
    ],
    ("dist_mnist_v1alpha2.yaml", "ps"): ["2:1: apiVersion: tfjob_api_version"],
    ("dist_mnist_v1beta1.yaml", "ps"): ["2:1: apiVersion: tfjob_api_version"],
    ("dist_mnist_v1beta1.yaml", "mwms"): [
        "2:1: apiVersion: tfjob_api_version",
        f"8:5: {SPECS}.PS: {NO_PS}",
    ],
    ("v1beta2.yaml", "mwms"): [
        "2:1: apiVersion: tfjob_api_version",
        "8:3: spec.cleanPodPolicy: tfjob_run_policy_outside",
        f"10:5: {SPECS}.Master: tfjob_disallowed_job",
    ],
}


@pytest.mark.parametrize(("name", "profile"), sorted(EXPECTED))
def test_every_finding_is_located(
    capsys: pytest.CaptureFixture[str], name: str, profile: str
) -> None:
    assert located(capsys, name, profile) == EXPECTED[(name, profile)]


def test_text_names_the_place_the_message_and_the_fix(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = validate(capsys, "--profile", "mwms", f"{DATA}/mwms_with_ps.yaml")
    assert status == 1
    assert out == (
        f"{DATA}/mwms_with_ps.yaml:9:5: spec.tfReplicaSpecs.PS: error: pods keras-mwms-ps-0 "
        "and keras-mwms-ps-1 refuse their TF_CONFIG: There is no id for task_type 'ps'\n"
        "hint: drop the PS replicas (MultiWorkerMirroredStrategy has no parameter servers), "
        "or check the job with --profile ps\n"
        "1 error in 1 of 1 file\n"
    )
    status, out = validate(capsys, f"{DATA}/multi_worker.yaml")
    assert "\nhint: add a Chief (replicas: 1) " in out
    assert "check the job with --profile mwms (MultiWorkerMirroredStrategy" in out


def test_a_ps_job_without_chief_is_pointed_at_the_ps_profile(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = validate(capsys, f"{DATA}/estimator_no_chief.yaml")
    assert status == 1
    assert out.endswith(
        'TF_CONFIG: If "cluster" is set in TF_CONFIG, it must have one "chief" node.\n'
        "hint: add a Chief (replicas: 1) for tf.estimator.RunConfig without train_distribute; "
        "or check the job with --profile ps (ParameterServerStrategy) or --profile server (a "
        "TF1 job such as dist-mnist)\n"
        "1 error in 1 of 1 file\n"
    )
    assert validate(capsys, "--profile", "ps", f"{DATA}/estimator_no_chief.yaml")[0] == 0
    assert validate(capsys, "--profile", "server", f"{DATA}/estimator_no_chief.yaml")[0] == 0


def test_a_tf1_dist_mnist_job_under_the_server_profile(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """PS and Worker replicas, each pod starting tf.train.Server for its own task."""
    assert validate(capsys, "--profile", "server", f"{DATA}/dist_mnist_ps_worker.yaml") == (
        0,
        "1 file valid\n",
    )
    status, out = validate(capsys, f"{DATA}/dist_mnist_ps_worker.yaml")
    assert status == 1
    assert "--profile server (a TF1 job such as dist-mnist)" in out


def test_the_default_profile_is_the_estimators(capsys: pytest.CaptureFixture[str]) -> None:
    assert validate(capsys, f"{DATA}/multi_worker.yaml")[0] == 1
    assert validate(capsys, "--profile", "estimator", f"{DATA}/dist_mnist.yaml")[0] == 0


def test_manifests_and_config_files_together(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = validate(
        capsys, f"{DATA}/dist_mnist.yaml", "examples/tf_config_worker.json", f"{DATA}/stream.yaml"
    )
    assert (status, out) == (0, "3 files valid\n")


def test_a_stream_without_tfjob_is_still_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "tf_config.yaml"
    path.write_text("cluster: {}\n---\nkind: TFJob\napiVersion: example.com/v1\n")
    status, out = validate(capsys, str(path))
    assert status == 1
    assert "the file holds more than one YAML document" in out


def test_an_invalid_manifest_is_located(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text(
        "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: x}\nspec:\n"
        "  tfReplicaSpecs:\n    Worker:\n      replicas: two\n"
    )
    status, out = validate(capsys, str(path))
    assert status == 1
    assert out.startswith(f"{path}:7:7: spec.tfReplicaSpecs.Worker.replicas: Input should be")


def test_a_v1alpha1_tfjob_is_refused_with_its_version_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = validate(capsys, f"{DATA}/v1alpha1.yaml")
    assert status == 1
    assert out.splitlines()[0] == (
        f"{DATA}/v1alpha1.yaml:1:1: apiVersion: a TFJob's apiVersion is kubeflow.org/v1 (or the "
        "earlier v1beta2, v1beta1, v1alpha2, read as v1), not 'kubeflow.org/v1alpha1'; "
        "kubeflow.org/v1alpha1 TFJobs, with a list of replicaSpecs, are not read"
    )


def test_a_katib_trial_is_named_as_katib_names_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out = validate(capsys, f"{DATA}/katib_experiment.yaml")
    assert status == 1
    # the Experiment's name and eight characters, in the Experiment's namespace
    assert "pods mnist-hpo-xxxxxxxx-worker-0 and mnist-hpo-xxxxxxxx-worker-1 refuse" in out
    # whatever name the trialSpec gives itself, and its ${trialParameters} as written
    text = (ROOT / DATA / "katib_experiment.yaml").read_text()
    renamed = text.replace("kind: TFJob\n", "kind: TFJob\n      metadata: {name: mine}\n")
    long_name = renamed.replace("name: mnist-hpo", "name: " + "m" * 60, 1)
    path = tmp_path / "experiment.yaml"
    path.write_text(long_name)
    status, out = validate(capsys, "--profile", "mwms", str(path))
    assert status == 1
    assert f"{path}:52:18: {TRIAL}.metadata.name: refused: " in out
    assert f'Invalid value: "{"m" * 60}-xxxxxxxx": should match: must be no more than 63' in out
    assert "\nhint: shorten the Experiment's name: Katib names the TFJob of each trial" in out


def test_a_trial_parameter_where_a_number_goes_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = (ROOT / DATA / "katib_experiment.yaml").read_text()
    path = tmp_path / "experiment.yaml"
    path.write_text(text.replace("replicas: 2", 'replicas: "${trialParameters.workers}"'))
    status, out = validate(capsys, str(path))
    assert status == 1
    assert out.splitlines()[:2] == [
        f"{path}:55:13: {TRIAL}.{SPECS}.Worker.replicas: Input should be a valid integer: "
        "Katib writes the trial's value in place of ${trialParameters.workers} only when it "
        "creates a trial, and the TFJob is checked as written",
        "hint: write a value here to check the job",
    ]


@pytest.mark.parametrize("value", ['"two"', "2.5"])
def test_a_trials_value_that_is_no_trial_parameter_is_refused_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str
) -> None:
    """Only a ``${trialParameters.x}`` is left to Katib; other values are refused."""
    text = (ROOT / DATA / "katib_experiment.yaml").read_text()
    path = tmp_path / "experiment.yaml"
    path.write_text(text.replace("replicas: 2", f"replicas: {value}"))
    status, out = validate(capsys, str(path))
    assert status == 1
    assert (
        out.splitlines()[0]
        == f"{path}:55:13: {TRIAL}.{SPECS}.Worker.replicas: Input should be a valid integer"
    )


def test_an_experiment_of_another_job_is_no_tfjob(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = (ROOT / DATA / "katib_experiment.yaml").read_text()
    path = tmp_path / "experiment.yaml"
    path.write_text(text.replace("kind: TFJob", "kind: PyTorchJob"))
    status, out = validate(capsys, str(path))
    assert status == 1
    assert "a Kubeflow Experiment manifest (apiVersion: kubeflow.org/v1beta1)" in out


def test_yaml_that_cannot_be_read_is_reported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "job.yaml"
    path.write_text("kind: TFJob\n---\nkind: [\n")
    status, out = validate(capsys, str(path))
    assert status == 1
    assert out.startswith(f"{path}:4:1: invalid YAML")


def test_check_text_is_the_seam_for_standard_input() -> None:
    raw = (ROOT / DATA / "mwms_with_ps.yaml").read_bytes()
    result = tfjobs.check_text(raw, "yaml", "<stdin>", "mwms")
    assert result is not None
    assert [str(e).split(": error")[0] for e in result.errors] == [
        "<stdin>:9:5: spec.tfReplicaSpecs.PS"
    ]
    assert tfjobs.check_text(b'{"cluster": {}}', "json", "<stdin>", "mwms") is None


def test_cluster_check_reports_what_differs_between_pods() -> None:
    prediction = predict(tfjob_for_replicas("j", {"Chief": 1, "Worker": 2}))
    assert list(tfjobs.cluster_check(prediction)) == []
    twice = prediction.model_copy(update={"pods": (*prediction.pods, prediction.pods[-1])})
    [(pod, problem)] = tfjobs.cluster_check(twice)
    assert pod is None
    assert "task worker:1 is claimed by 2 nodes" in problem
    other: PredictedPod = prediction.pods[1].model_copy(update={"cluster_json": '{"worker":[]}'})
    changed = prediction.model_copy(update={"pods": (prediction.pods[0], other)})
    codes = [problem for _, problem in tfjobs.cluster_check(changed)]
    assert any("the cluster differs" in problem for problem in codes)


def test_cluster_check_passes_over_a_pod_without_a_tf_config_and_compares_the_rest() -> None:
    """A pod that gets no TF_CONFIG claims no task; the pods after it are still compared."""
    prediction = predict(tfjob_for_replicas("j", {"Chief": 1, "Worker": 2}))
    unset = prediction.pods[0].model_copy(update={"cluster_json": None})
    pods = (unset, *prediction.pods[1:], prediction.pods[-1])
    problems = [
        problem for _, problem in tfjobs.cluster_check(prediction.model_copy(update={"pods": pods}))
    ]
    assert problems == [
        "j-worker-1, j-worker-1: task worker:1 is claimed by 2 nodes; each task of the cluster "
        "runs on exactly one node",
        "cluster: task chief:0 (j-chief-0.default.svc:2222) of the cluster is claimed by no node",
    ]


REPLICA_TYPE = st.sampled_from(["Chief", "Worker", "PS", "Evaluator", "Master"]).flatmap(
    lambda name: st.sampled_from([name, name.upper(), name.lower()])
)


@settings(max_examples=40, deadline=None)
@given(
    replicas=st.dictionaries(REPLICA_TYPE, st.integers(0, 4), min_size=1, max_size=4),
    namespace=st.sampled_from(["default", "ml", "team-a"]),
    port=st.integers(1, 65535),
)
def test_predicted_tf_configs_of_a_valid_tfjob_pass_check_cluster(
    replicas: dict[str, int], namespace: str, port: int
) -> None:
    tfjob = tfjob_for_replicas("job", replicas, namespace=namespace, port=port)
    if tfjob.ambiguous_replica_types or tfjob.shadowed_replica_keys:
        return
    prediction = predict(tfjob)
    # what differs between pods: nothing, whatever the job
    assert list(tfjobs.cluster_check(prediction)) == []
    findings = check(tfjob, cluster_check=tfjobs.cluster_check)
    if any(f.severity in tfjobs.FAILING for f in findings) or not prediction.distributed:
        return
    if not prediction.pods:
        return
    nodes = [(pod.name, pod.tf_config or "") for pod in prediction.pods]
    report = check_cluster(nodes)
    assert report.findings == ()


def test_a_million_replicas_are_validated_in_a_moment(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.perf_counter()
    status, out = validate(capsys, f"{DATA}/million_replicas.yaml")
    assert time.perf_counter() - started < 2
    assert status == 1
    assert "pods big-chief-0 to big-chief-65534 and big-worker-0 to big-worker-999999 " in out


def test_thousands_of_replicas_quickly() -> None:
    prediction = predict(tfjob_for_replicas("big", {"Chief": 1, "Worker": 2000, "PS": 8}))
    assert list(tfjobs.cluster_check(prediction)) == []


class TestPreCommitHook:
    hook: dict[str, Any] = next(
        hook
        for hook in YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())
        if hook["id"] == "estconf-tfjob"
    )

    @pytest.mark.parametrize(
        ("name", "matched"),
        [
            ("tfjob.yaml", True),
            ("k8s/mnist-tfjob.yaml", True),
            ("deploy/tf-job.yml", True),
            ("jobs/train_tfjob.json", True),
            ("tfjobs/mnist.yaml", False),
            ("deploy/job.yaml", False),
            ("tfjob.yaml.bak", False),
        ],
    )
    def test_files(self, name: str, matched: bool) -> None:
        assert bool(re.search(self.hook["files"], name)) is matched

    def test_catches_ps_replicas_under_mwms(self, tmp_path: Path) -> None:
        manifest = tmp_path / "keras-tfjob.yaml"
        shutil.copy(ROOT / DATA / "mwms_with_ps.yaml", manifest)
        assert re.search(self.hook["files"], manifest.name)
        entry = shlex.split(self.hook["entry"])
        assert entry[0] == "estconf"
        command = [str(ESTCONF), *entry[1:], "--profile", "mwms", manifest.name]
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False)
        assert done.returncode == 1
        assert done.stdout.startswith("keras-tfjob.yaml:9:5: spec.tfReplicaSpecs.PS: error:")


@pytest.mark.parametrize("release", ["v1.9.0", "v1.6.0"])
@pytest.mark.parametrize("dynamic", [False, True])
def test_each_pods_tf_config_is_given_to_check_cluster_as_its_text_reads(
    release: Release, dynamic: bool
) -> None:
    replicas = {"Chief": 1, "Worker": 3, "PS": 2, "Evaluator": 1}
    tfjob = tfjob_for_replicas("a<&>b", replicas, enable_dynamic_worker=dynamic)
    prediction = predict(tfjob, operator=Operator(release=release))
    given = list(tfjobs._tf_configs(prediction))
    assert given == [
        (pod.name, json.loads(pod.tf_config)) for pod in prediction.pods if pod.tf_config
    ]
    if not dynamic:  # the pods share one parsed cluster
        assert len({id(tf_config["cluster"]) for _, tf_config in given}) == 1
