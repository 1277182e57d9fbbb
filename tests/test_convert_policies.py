"""``estconf.convert.policies``: the TFJob's restart, run and success policies as a JobSet's."""

from __future__ import annotations

import pytest

from estconf.convert.policies import (
    EXIT_CODES_FAILING,
    job_restarts,
    run_policy,
    success_targets,
)
from estconf.convert.reading import convert_text
from values import refuses_assignment


class TestRestartPolicy:
    def test_never_fails_the_job_at_the_first_failed_pod(self) -> None:
        for policy in (None, "Never"):
            found = job_restarts("Worker", policy, "node", backoff_limit=3)
            assert found is not None
            assert (found.pod, found.job, found.findings) == ("Never", {"backoffLimit": 0}, [])

    def test_on_failure_restarts_up_to_the_backoff_limit(self) -> None:
        found = job_restarts("Worker", "OnFailure", "node", backoff_limit=3)
        assert found is not None
        assert (found.pod, found.job, found.findings) == ("OnFailure", {"backoffLimit": 3}, [])

    def test_without_a_backoff_limit_the_jobs_default_bounds_the_restarts(self) -> None:
        found = job_restarts("Worker", "OnFailure", "node", backoff_limit=None)
        assert found is not None
        assert found.job == {}
        (note,) = found.findings
        assert (note.code, note.severity, note.path) == (
            "convert_field_changed",
            "note",
            "spec.tfReplicaSpecs.Worker.restartPolicy",
        )
        assert "stops after 6" in note.message

    def test_always_becomes_on_failure_which_a_jobs_pod_admits(self) -> None:
        found = job_restarts("PS", "Always", "tensorflow", backoff_limit=2)
        assert found is not None
        assert (found.pod, found.job) == ("OnFailure", {"backoffLimit": 2})
        assert ["restartPolicy Always becomes OnFailure" in f.message for f in found.findings] == [
            True
        ]

    def test_exit_code_fails_the_job_on_the_exit_codes_the_operator_does_not_retry(self) -> None:
        found = job_restarts("Worker", "ExitCode", "node", backoff_limit=5)
        assert found is not None
        assert found.pod == "Never"
        assert found.job == {
            "backoffLimit": 5,
            "podFailurePolicy": {
                "rules": [
                    {
                        "action": "FailJob",
                        "onExitCodes": {
                            "containerName": "node",
                            "operator": "In",
                            "values": list(range(1, 128)),
                        },
                    }
                ]
            },
        }
        assert EXIT_CODES_FAILING[0] == 1
        assert EXIT_CODES_FAILING[-1] == 127  # 128 and more: killed by a signal, retried

    def test_a_policy_the_operator_does_not_know_is_none(self) -> None:
        assert job_restarts("Worker", "onFailure", "node", backoff_limit=None) is None


class TestRunPolicy:
    def test_backoff_limit_goes_to_each_restarting_job_with_a_note(self) -> None:
        found = run_policy({"backoffLimit": 4}, jobset=False, restarting=True)
        assert found.backoff_limit == 4
        assert [f.path for f in found.findings] == ["spec.runPolicy.backoffLimit"]
        assert run_policy({"backoffLimit": 4}, jobset=False, restarting=False).findings == []

    def test_active_deadline_is_each_jobs_and_suspend_the_trainjobs(self) -> None:
        found = run_policy(
            {"activeDeadlineSeconds": 3600, "suspend": True}, jobset=False, restarting=False
        )
        assert (found.job, found.top, found.findings) == (
            {"activeDeadlineSeconds": 3600},
            {"suspend": True},
            [],
        )
        assert run_policy({"suspend": False}, jobset=False, restarting=False).top == {}

    def test_ttl_is_the_jobsets_and_dropped_from_a_trainjob(self) -> None:
        policy = {"ttlSecondsAfterFinished": 600}
        assert run_policy(policy, jobset=True, restarting=False).top == {
            "ttlSecondsAfterFinished": 600
        }
        dropped = run_policy(policy, jobset=False, restarting=False)
        assert dropped.top == {}
        assert [(f.code, f.severity) for f in dropped.findings] == [
            ("convert_field_dropped", "warning")
        ]

    @pytest.mark.parametrize(
        ("key", "value"),
        [
            ("cleanPodPolicy", "Running"),
            ("cleanPodPolicy", "All"),
            ("schedulingPolicy", {"minAvailable": 3, "queue": "ml"}),
            ("managedBy", "kubeflow.org/training-operator"),
            ("somethingElse", 1),
        ],
    )
    def test_what_has_no_meaning_in_a_jobset_is_dropped(self, key: str, value: object) -> None:
        found = run_policy({key: value}, jobset=True, restarting=False)
        assert [(f.code, f.path) for f in found.findings] == [
            ("convert_field_dropped", f"spec.runPolicy.{key}")
        ]
        assert (found.job, found.top) == ({}, {})

    def test_clean_pod_policy_none_keeps_the_pods_as_a_jobset_does(self) -> None:
        assert run_policy({"cleanPodPolicy": "None"}, jobset=True, restarting=False).findings == []


class TestSuccessPolicy:
    def test_the_chief_or_master_ends_the_job(self) -> None:
        jobs = {"Chief": "chief", "Worker": "worker", "PS": "ps"}
        assert success_targets(jobs, "AllWorkers", 4) == (["chief"], [])
        assert success_targets({"Master": "master", "Worker": "worker"}, None, 2) == (
            ["master"],
            [],
        )

    def test_without_one_every_worker_with_a_note_unless_all_workers(self) -> None:
        jobs = {"Worker": "worker", "PS": "ps"}
        assert success_targets(jobs, "AllWorkers", 4) == (["worker"], [])
        targets, (note,) = success_targets(jobs, None, 4)
        assert targets == ["worker"]
        assert "worker 0" in note.message
        assert success_targets(jobs, None, 1) == (["worker"], [])

    def test_never_the_parameter_servers_which_never_exit(self) -> None:
        assert success_targets({"PS": "ps", "Evaluator": "evaluator"}, None, 0) == (
            ["evaluator"],
            [],
        )
        assert success_targets({"PS": "ps"}, None, 0) == (None, [])


class TestRunPolicyRecord:
    def test_a_run_policy_refuses_assignment(self) -> None:
        refuses_assignment(run_policy({"backoffLimit": 2}, jobset=False, restarting=True))

    @pytest.mark.parametrize("value", [True, "3", 2.5])
    def test_a_backoff_limit_that_is_no_integer_bounds_no_job(self, value: object) -> None:
        found = run_policy({"backoffLimit": value}, jobset=False, restarting=True)
        assert found.backoff_limit is None
        assert [(f.code, f.path) for f in found.findings] == [
            ("convert_field_dropped", "spec.runPolicy.backoffLimit")
        ]

    def test_the_ttl_left_out_of_a_trainjob_says_how_to_keep_it(self) -> None:
        (dropped,) = run_policy(
            {"ttlSecondsAfterFinished": 600}, jobset=False, restarting=False
        ).findings
        assert dropped.hint == (
            "delete the TrainJob when it is done, or convert with --jobset for a JobSet "
            "that keeps it"
        )

    def test_the_fields_after_clean_pod_policy_none_are_read(self) -> None:
        found = run_policy(
            {"cleanPodPolicy": "None", "suspend": True, "activeDeadlineSeconds": 60},
            jobset=True,
            restarting=False,
        )
        assert (found.top, found.job, found.findings) == (
            {"suspend": True},
            {"activeDeadlineSeconds": 60},
            [],
        )


TFJOB_YAML = """\
apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: mnist}
spec:
  runPolicy: RUN_POLICY
  tfReplicaSpecs:
    Worker:
      replicas: 2
      template:
        spec:
          containers: [{name: tensorflow, image: "tf:2.15"}]
"""


class TestRunPolicyOfAFile:
    def test_suspend_and_clean_pod_policy_none_read_from_yaml(self) -> None:
        text = TFJOB_YAML.replace("RUN_POLICY", "{cleanPodPolicy: None, suspend: true}")
        converted = convert_text(text.encode(), "tfjob.yaml", jobset=True)
        assert not converted.refused
        (jobset,) = converted.documents
        assert jobset["spec"]["suspend"] is True
        assert not [f for f in converted.findings if f.code == "convert_field_dropped"]
