"""launchers.kubeflow.lifecycle: what the training operator does with a TFJob's pods, to the end.

Each rule is read from training-operator v1.9.0; each test names the function
and file it mirrors.  The manifests are in tests/data/kubeflow/, one a case.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from estconf.cli import main
from estconf.kubeflow import Finding, TFJob, check

ROOT = Path(__file__).resolve().parents[1]
DATA = "tests/data/kubeflow"
SPECS = "spec.tfReplicaSpecs"
ESTCONF = Path(sys.executable).with_name("estconf")

LIFECYCLE = {
    "tfjob_success_policy_ignored",
    "tfjob_success_policy_unknown",
    "tfjob_clean_pod_policy_unknown",
    "tfjob_pod_restart_policy_ignored",
    "tfjob_run_policy_outside",
    "tfjob_ps_pods_kept",
    "tfjob_evaluator_deleted",
    "tfjob_evaluator_fails_job",
    "tfjob_restart_exit_code",
    "tfjob_restart_policy_invalid",
    "tfjob_mwms_restart",
    "tfjob_host_network_port",
    "tfjob_host_network_dns",
}


def load(name: str) -> TFJob:
    return TFJob.from_yaml((ROOT / DATA / name).read_text(encoding="utf-8"))


def lifecycle(tfjob: TFJob, profile: str | None = None) -> list[Finding]:
    """The findings of the lifecycle rules alone (the pods' readers are not asked)."""
    return [f for f in check(tfjob, node_check=None, profile=profile) if f.code in LIFECYCLE]


def found(findings: list[Finding]) -> list[tuple[str, str, str]]:
    return [(f.code, f.severity, f.path) for f in findings]


def job(spec: dict[str, Any], **specs: Any) -> TFJob:
    return TFJob.model_validate(
        {
            "apiVersion": "kubeflow.org/v1",
            "kind": "TFJob",
            "metadata": {"name": "job", "namespace": "ml"},
            "spec": {**spec, "tfReplicaSpecs": specs},
        }
    )


def replica(replicas: int = 1, **fields: Any) -> dict[str, Any]:
    pod = fields.pop("pod", {})
    container = {"name": "tensorflow", "image": "example/train:1"}
    return {
        "replicas": replicas,
        **fields,
        "template": {"spec": {**pod, "containers": [container]}},
    }


# --- 11. successPolicy ---------------------------------------------------------------------


def test_all_workers_beside_a_chief_is_not_read() -> None:
    """training-operator v1.9.0, pkg/controller.v1/tensorflow/tfjob_controller.go: UpdateJobStatus.

    With a Chief or Master spec (util.go ContainsChiefOrMasterSpec) the job
    succeeds when the chief's pods have; SuccessPolicyAllWorkers is compared
    only in the branch of a job without one, on the Worker type.
    """
    (finding,) = lifecycle(load("success_policy_chief.yaml"))
    assert found([finding]) == [("tfjob_success_policy_ignored", "warning", "spec.successPolicy")]
    assert "succeeds as soon as its Chief does" in finding.message
    assert finding.hint is not None and finding.hint.startswith("remove successPolicy")
    # the replica types are matched in any letter case, Master as Chief
    for chief in ("chief", "Master", "MASTER"):
        tfjob = job({"successPolicy": "AllWorkers"}, Worker=replica(2), **{chief: replica()})
        assert found(lifecycle(tfjob))[0][0] == "tfjob_success_policy_ignored"
    # a job of workers only reads it: every worker must succeed
    assert lifecycle(load("success_policy_workers.yaml")) == []
    assert lifecycle(job({"successPolicy": ""}, Chief=replica(), Worker=replica(2))) == []


def test_policies_in_another_letter_case_are_read_otherwise() -> None:
    """training-operator v1.9.0: the CRD's successPolicy and cleanPodPolicy are any string.

    tfjob_controller.go UpdateJobStatus compares successPolicy with
    SuccessPolicyAllWorkers alone; common/job.go DeletePodsAndServices keeps
    pods under None (all) and Running (the finished ones) and deletes the rest.
    """
    findings = lifecycle(load("run_policy_unknown_values.yaml"))
    assert found(findings) == [
        ("tfjob_success_policy_unknown", "warning", "spec.successPolicy"),
        ("tfjob_clean_pod_policy_unknown", "warning", "spec.runPolicy.cleanPodPolicy"),
    ]
    assert "so this job succeeds when worker 0 does" in findings[0].message
    assert "deletes every pod, as with All" in findings[1].message
    (chief,) = lifecycle(job({"successPolicy": "all"}, Chief=replica(), Worker=replica(2)))
    assert "so this job succeeds when its Chief does" in chief.message
    for policy in ("All", "Running", "None"):
        assert lifecycle(job({"runPolicy": {"cleanPodPolicy": policy}}, Worker=replica(2))) == []


# --- 12. cleanPodPolicy outside runPolicy --------------------------------------------------


def test_run_policy_fields_under_spec_are_not_read() -> None:
    """training-operator v1.9.0, pkg/apis/kubeflow.org/v1/tensorflow_types.go: TFJobSpec.

    Its run policy is the field runPolicy (common_types.go RunPolicy: cleanPodPolicy,
    ttlSecondsAfterFinished, activeDeadlineSeconds, backoffLimit); the CRD
    manifests/base/crds/kubeflow.org_tfjobs.yaml has no spec.cleanPodPolicy.
    tf-operator v1.0.0's TFJobSpec had these fields directly under spec.
    """
    findings = lifecycle(load("clean_pod_policy_outside.yaml"))
    assert found(findings) == [
        ("tfjob_run_policy_outside", "warning", "spec.cleanPodPolicy"),
        ("tfjob_run_policy_outside", "warning", "spec.backoffLimit"),
        ("tfjob_ps_pods_kept", "note", "spec.cleanPodPolicy"),
    ]
    assert "(it moved under spec.runPolicy in tf-operator v1.0.1)" in findings[0].message
    assert "kubectl apply refuses it" in findings[0].message
    assert findings[1].hint == "move it under spec.runPolicy: runPolicy: {backoffLimit: ...}"


def test_the_default_clean_pod_policy_keeps_the_ps_pods() -> None:
    """training-operator v1.9.0: the default and what it deletes.

    pkg/apis/kubeflow.org/v1/tensorflow_defaults.go SetDefaults_TFJob sets
    cleanPodPolicy None (since v1.6.0; Running before); pkg/controller.v1/common/job.go
    DeletePodsAndServices deletes nothing of a finished job under None.
    """
    note = lifecycle(load("clean_pod_policy_outside.yaml"))[-1]
    assert note.code == "tfjob_ps_pods_kept"
    assert note.hint == "write spec.runPolicy.cleanPodPolicy: Running"
    assert "the ps pods, whose servers never exit, run on" in note.message
    written = {"cleanPodPolicy": "All"}
    ps_job = {"Chief": replica(), "PS": replica(2), "Worker": replica(2)}
    assert found(lifecycle(job(written, **ps_job)))[-1][0] == "tfjob_ps_pods_kept"
    # the policy that applies is given, or a TTL deletes the job and its pods, or no ps
    for run_policy in ({"cleanPodPolicy": "None"}, {"ttlSecondsAfterFinished": 600}):
        tfjob = job({**written, "runPolicy": run_policy}, **ps_job)
        assert found(lifecycle(tfjob)) == [
            ("tfjob_run_policy_outside", "warning", "spec.cleanPodPolicy")
        ]
    assert len(lifecycle(job(written, Chief=replica(), Worker=replica(2)))) == 1
    assert len(lifecycle(job(written, Chief=replica(), PS=replica(0), Worker=replica()))) == 1
    # written None asks for what the default does
    assert len(lifecycle(job({"cleanPodPolicy": "None"}, **ps_job))) == 1
    # in place, nothing to say
    assert lifecycle(job({"runPolicy": {"cleanPodPolicy": "Running"}}, **ps_job)) == []


# --- 13. Evaluator -------------------------------------------------------------------------


def test_the_evaluator_is_deleted_when_the_job_ends() -> None:
    """training-operator v1.9.0, pkg/controller.v1/common/job.go: ReconcileJobs.

    A finished job is cleaned up at once (DeletePodsAndServices): under
    Running the running and pending pods are deleted, under All every pod; tfjob_controller.go
    UpdateJobStatus ends the job when its chief succeeds, the evaluator
    being no part of that.
    """
    findings = lifecycle(load("evaluator_cleaned_up.yaml"))
    assert found(findings) == [
        ("tfjob_evaluator_deleted", "warning", "spec.runPolicy.cleanPodPolicy"),
        ("tfjob_evaluator_fails_job", "note", f"{SPECS}.Evaluator.restartPolicy"),
    ]
    assert "deletes the running pods when its Chief succeeds, the evaluator's too" in (
        findings[0].message
    )
    assert findings[0].hint is not None and findings[0].hint.startswith("cleanPodPolicy: None")
    workers = {"Worker": replica(2), "Evaluator": replica(restartPolicy="OnFailure")}
    (every,) = lifecycle(job({"runPolicy": {"cleanPodPolicy": "All"}}, **workers))
    assert "deletes the pods when its worker 0 succeeds" in every.message
    for kept in ({"runPolicy": {"cleanPodPolicy": "None"}}, {}, {"cleanPodPolicy": "All"}):
        assert "tfjob_evaluator_deleted" not in {f.code for f in lifecycle(job(kept, **workers))}
    no_evaluator = {"runPolicy": {"cleanPodPolicy": "All"}}
    assert lifecycle(job(no_evaluator, Chief=replica(), Evaluator=replica(0))) == []


def test_a_failed_evaluator_fails_the_job() -> None:
    """training-operator v1.9.0, pkg/controller.v1/tensorflow/tfjob_controller.go: UpdateJobStatus.

    Every replica type, Evaluator included, with a failed pod and no
    restarting condition sets the job's Failed condition; under
    restartPolicy Never (the default, TFJobDefaultRestartPolicy) a failed pod
    stays failed (common/pod.go ReconcilePods restarts under the others).
    """
    (note,) = lifecycle(load("chief_worker_evaluator.yaml"))
    assert found([note]) == [("tfjob_evaluator_fails_job", "note", f"{SPECS}.Evaluator")]
    assert note.hint == "give the Evaluator restartPolicy: OnFailure to restart it instead"
    for restart in ("OnFailure", "Always", "ExitCode"):
        codes = {
            f.code
            for f in lifecycle(job({}, Chief=replica(), Evaluator=replica(restartPolicy=restart)))
        }
        assert "tfjob_evaluator_fails_job" not in codes
    # a note only: how the job is run, not a mistake
    assert main(["validate", "-q", f"{DATA}/chief_worker_evaluator.yaml"]) == 0


# --- 14. restartPolicy ---------------------------------------------------------------------


def test_exit_code_restarts_on_a_signal_only() -> None:
    """training-operator v1.9.0, pkg/controller.v1/common/pod.go: ReconcilePods.

    Under ExitCode a failed pod is deleted and created again when
    pkg/util/train/train_util.go IsRetryableExitCode holds (exit code >= 128)
    for its tensorflow container, and the job is marked failed otherwise.
    """
    findings = lifecycle(load("restart_exit_code.yaml"))
    assert found(findings) == [
        ("tfjob_restart_exit_code", "note", f"{SPECS}.{key}.restartPolicy")
        for key in ("Chief", "PS", "Worker")
    ]
    assert "is killed by a signal (exit code 128 or more" in findings[0].message
    assert "137" in findings[0].message and "an uncaught exception (exit code 1) fails the job" in (
        findings[0].message
    )
    assert findings[0].hint == "restartPolicy: OnFailure restarts the pod on any failure"


def test_a_restart_policy_kubernetes_refuses() -> None:
    """training-operator v1.9.0, pkg/core/pod.go: SetRestartPolicy.

    The replica spec's restartPolicy becomes the pod's (ExitCode as Never);
    the CRD's restartPolicy is any string.
    """
    (finding,) = lifecycle(load("restart_policy_invalid.yaml"))
    assert found([finding]) == [
        ("tfjob_restart_policy_invalid", "error", f"{SPECS}.Worker.restartPolicy")
    ]
    assert 'Unsupported value: "onFailure"' in finding.message


def test_on_failure_restarts_one_worker_of_a_collective() -> None:
    """training-operator v1.9.0, pkg/core/pod.go SetRestartPolicy and common/pod.go ReconcilePods.

    OnFailure and Always become the pod's restartPolicy: the kubelet restarts
    the container in place, the pod never reaches the Failed phase, and
    tfjob_controller.go UpdateJobStatus never sees a failed replica.
    """
    (finding,) = lifecycle(load("mwms_on_failure.yaml"), profile="mwms")
    assert found([finding]) == [("tfjob_mwms_restart", "warning", f"{SPECS}.Worker.restartPolicy")]
    assert "a failed worker restarts alone, in its pod, and the job never fails" in finding.message
    assert finding.hint is not None and finding.hint.startswith("restartPolicy: Never")
    # MultiWorkerMirroredStrategy's concern only
    for profile in (None, "estimator", "ps"):
        assert lifecycle(load("mwms_on_failure.yaml"), profile=profile) == []
    always = {"Chief": replica(restartPolicy="Always"), "Worker": replica(2)}
    assert found(lifecycle(job({}, **always), profile="mwms")) == [
        ("tfjob_mwms_restart", "warning", f"{SPECS}.Chief.restartPolicy")
    ]
    # a worker alone, restarts bounded, a ps or an evaluator: no collective to hang
    assert lifecycle(job({}, Worker=replica(1, restartPolicy="OnFailure")), profile="mwms") == []
    bounded = {"runPolicy": {"backoffLimit": 3}}
    on_failure = replica(4, restartPolicy="OnFailure")
    assert lifecycle(job(bounded, Worker=on_failure), profile="mwms") == []
    side = {"Worker": replica(2), "Evaluator": replica(restartPolicy="OnFailure")}
    assert lifecycle(job({}, **side), profile="mwms") == []


def test_a_restart_policy_in_the_pod_template_is_overwritten() -> None:
    """training-operator v1.9.0, pkg/controller.v1/common/pod.go: createNewPod.

    It records "Restart policy in pod template will be overwritten by restart
    policy in replica spec" and calls pkg/core/pod.go SetRestartPolicy: the
    replica spec's policy (Never by default, tensorflow_defaults.go
    SetDefaults_TFJob; ExitCode as Never) is the pod's.
    """
    (finding,) = lifecycle(load("pod_restart_policy.yaml"))
    assert found([finding]) == [
        (
            "tfjob_pod_restart_policy_ignored",
            "warning",
            f"{SPECS}.Worker.template.spec.restartPolicy",
        )
    ]
    assert "the replica spec's, Never (the default): the pods get restartPolicy Never, not " in (
        finding.message
    )
    assert finding.hint == "move it to the replica spec: Worker.restartPolicy: OnFailure"
    # the same policy in both places, ExitCode's Never, or a replica policy already refused
    for replica_policy, pod_policy in (("OnFailure", "OnFailure"), ("ExitCode", "Never")):
        tfjob = job(
            {}, Worker=replica(2, restartPolicy=replica_policy, pod={"restartPolicy": pod_policy})
        )
        assert "tfjob_pod_restart_policy_ignored" not in {f.code for f in lifecycle(tfjob)}
    # the policies as a manifest's reader hands them over: strings of their own
    never, on_failure = "".join(["Ne", "ver"]), "".join(["On", "Failure"])
    read: list[tuple[str | None, str]] = [(None, never), (on_failure, "".join(["On", "Failure"]))]
    for in_spec, in_template in read:
        fields = {} if in_spec is None else {"restartPolicy": in_spec}
        tfjob = job({}, Worker=replica(2, **fields, pod={"restartPolicy": in_template}))
        assert "tfjob_pod_restart_policy_ignored" not in {f.code for f in lifecycle(tfjob)}
    refused = replica(2, restartPolicy="never", pod={"restartPolicy": "Always"})
    assert found(lifecycle(job({}, Worker=refused)))[0][0] == "tfjob_restart_policy_invalid"
    assert len(lifecycle(job({}, Worker=refused))) == 1


# --- 15. hostNetwork -----------------------------------------------------------------------


def test_host_network_pods_of_one_port_never_share_a_node() -> None:
    """training-operator v1.9.0, pkg/apis/kubeflow.org/v1/tensorflow_defaults.go.

    setTensorflowDefaultPort adds tfjob-port 2222, and the operator does
    nothing else with hostNetwork; Kubernetes' defaults make each container
    port of a host-network pod its hostPort, and the scheduler places no two
    pods with one host port on a node.
    """
    findings = lifecycle(load("host_network.yaml"))
    assert found(findings) == [
        ("tfjob_host_network_port", "warning", f"{SPECS}.{key}.template.spec.hostNetwork")
        for key in ("Chief", "Worker")
    ]
    shared = "port 2222 of its node, as its hostPort: no two of the job's 9 pods can share a node"
    assert shared in findings[0].message
    assert findings[0].hint is not None and "kubernetes.io/hostname" in findings[0].hint
    # one pod per node said outright
    assert lifecycle(load("host_network_one_per_node.yaml")) == []
    # a port of its own for each type, one pod each
    assert "tfjob_host_network_port" not in {
        f.code for f in lifecycle(load("host_network_dns.yaml"))
    }
    # the pods that keep the pod network take no host port
    mixed = {"Chief": replica(pod={"hostNetwork": True, "dnsPolicy": "ClusterFirstWithHostNet"})}
    assert lifecycle(job({}, **mixed, Worker=replica(4))) == []


def test_host_network_pods_need_the_clusters_dns() -> None:
    """Kubernetes: a hostNetwork pod with dnsPolicy ClusterFirst falls back to Default (the node's).

    The operator (training-operator v1.9.0, tfjob_controller.go SetClusterSpec)
    writes the Service names J-t-i.N.svc into TF_CONFIG.
    """
    findings = lifecycle(load("host_network_dns.yaml"))
    assert found(findings) == [
        ("tfjob_host_network_dns", "error", f"{SPECS}.Chief.template.spec.hostNetwork"),
        ("tfjob_host_network_dns", "error", f"{SPECS}.Worker.template.spec.dnsPolicy"),
    ]
    assert "resnet-chief-0.vision.svc:2223" in findings[0].message
    assert findings[0].hint == "dnsPolicy: ClusterFirstWithHostNet"
    # one pod: no TF_CONFIG, no address to resolve
    alone = replica(pod={"hostNetwork": True})
    assert lifecycle(job({}, Worker=alone)) == []


# --- estconf validate ----------------------------------------------------------------------

# (file, profile): each lifecycle finding as "line:col: path: code: severity", and the exit status
CLI: dict[tuple[str, str], tuple[list[str], int]] = {
    ("success_policy_chief.yaml", "estimator"): (
        ["8:3: spec.successPolicy: tfjob_success_policy_ignored: warning"],
        0,
    ),
    ("success_policy_workers.yaml", "mwms"): ([], 0),
    ("clean_pod_policy_outside.yaml", "estimator"): (
        [
            "9:3: spec.cleanPodPolicy: tfjob_run_policy_outside: warning",
            "10:3: spec.backoffLimit: tfjob_run_policy_outside: warning",
        ],
        0,
    ),
    ("evaluator_cleaned_up.yaml", "estimator"): (
        ["9:5: spec.runPolicy.cleanPodPolicy: tfjob_evaluator_deleted: warning"],
        0,
    ),
    ("chief_worker_evaluator.yaml", "estimator"): ([], 0),
    ("restart_exit_code.yaml", "estimator"): ([], 0),
    ("restart_policy_invalid.yaml", "estimator"): (
        [f"17:7: {SPECS}.Worker.restartPolicy: tfjob_restart_policy_invalid: error"],
        1,
    ),
    ("mwms_on_failure.yaml", "mwms"): (
        [f"13:7: {SPECS}.Worker.restartPolicy: tfjob_mwms_restart: warning"],
        0,
    ),
    ("multi_worker.yaml", "mwms"): ([], 0),
    ("pod_restart_policy.yaml", "estimator"): (
        [
            f"20:11: {SPECS}.Worker.template.spec.restartPolicy: "
            "tfjob_pod_restart_policy_ignored: warning"
        ],
        0,
    ),
    ("run_policy_unknown_values.yaml", "mwms"): (
        [
            "7:3: spec.successPolicy: tfjob_success_policy_unknown: warning",
            "9:5: spec.runPolicy.cleanPodPolicy: tfjob_clean_pod_policy_unknown: warning",
        ],
        0,
    ),
    ("host_network.yaml", "estimator"): (
        [
            f"14:11: {SPECS}.Chief.template.spec.hostNetwork: tfjob_host_network_port: warning",
            f"23:11: {SPECS}.Worker.template.spec.hostNetwork: tfjob_host_network_port: warning",
        ],
        0,
    ),
    ("host_network_one_per_node.yaml", "estimator"): ([], 0),
    ("host_network_dns.yaml", "estimator"): (
        [
            f"13:11: {SPECS}.Chief.template.spec.hostNetwork: tfjob_host_network_dns: error",
            f"25:11: {SPECS}.Worker.template.spec.dnsPolicy: tfjob_host_network_dns: error",
        ],
        1,
    ),
}


@pytest.mark.parametrize(("name", "profile"), sorted(CLI))
def test_validate_locates_each_finding(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    profile: str,
) -> None:
    monkeypatch.chdir(ROOT)
    status = main(["validate", "--format", "json", "--profile", profile, f"{DATA}/{name}"])
    out, err = capsys.readouterr()
    assert err == ""
    [result] = json.loads(out)["files"]
    assert result["kind"] == "tfjob"
    assert [
        f"{e['line']}:{e['column']}: {e['path']}: {e['code']}: {e['message'].split(':', 1)[0]}"
        for e in result["errors"]
    ] == CLI[(name, profile)][0]
    assert status == CLI[(name, profile)][1]
    warned = any(e["severity"] == "warning" for e in result["errors"])
    strict = main(["validate", "-q", "--strict", "--profile", profile, f"{DATA}/{name}"])
    capsys.readouterr()
    assert strict == (1 if status or warned else 0)


def test_the_estconf_command() -> None:
    """The installed command, as a user runs it: the text names the place, the rule and the fix."""
    run = subprocess.run(
        [str(ESTCONF), "validate", f"{DATA}/success_policy_chief.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (run.returncode, run.stderr) == (0, "")  # a warning alone fails only with --strict
    assert run.stdout.endswith("\n1 warning in 1 of 1 file\n")
    assert run.stdout.startswith(
        f"{DATA}/success_policy_chief.yaml:8:3: spec.successPolicy: warning: the operator reads "
        "successPolicy only in a job without Chief or Master"
    )
    assert "\nhint: remove successPolicy (the job ends with its Chief)" in run.stdout


def test_two_host_network_pods_of_one_port_never_share_a_node() -> None:
    """Of two ports, the one of a single pod is free of the rule; the one two pods share is not."""
    pod = {"hostNetwork": True, "dnsPolicy": "ClusterFirstWithHostNet"}
    ported = replica(pod=pod)
    ported["template"]["spec"]["containers"][0]["ports"] = [
        {"name": "tfjob-port", "containerPort": 2223}
    ]
    findings = lifecycle(job({}, Chief=ported, Worker=replica(2, pod=pod)))
    assert found(findings) == [
        ("tfjob_host_network_port", "warning", f"{SPECS}.Worker.template.spec.hostNetwork")
    ]
    assert "no two of the job's 2 pods can share a node" in findings[0].message


def test_a_restart_policy_kubernetes_refuses_hints_at_the_ones_it_takes() -> None:
    (finding,) = lifecycle(load("restart_policy_invalid.yaml"))
    assert finding.hint == "write one of Always, OnFailure, Never, ExitCode"
