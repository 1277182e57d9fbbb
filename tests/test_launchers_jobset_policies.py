"""estconf.launchers.jobset.policies: what keeps a JobSet from being created or completing."""

from __future__ import annotations

from pathlib import Path

import pytest

from estconf.io.checks import Limits
from estconf.launchers.jobset.jobsets import check_text

DATA = Path(__file__).parent / "data" / "launchers" / "jobset"


def found(raw: bytes, profile: str = "ps") -> list[tuple[str, str, str, str | None]]:
    result = check_text(raw, "yaml", "j.yaml", profile, Limits())
    assert result is not None
    return [(e.code, e.path, e.message, e.hint) for e in result.errors]


NEVER = (DATA / "never_succeeds.yaml").read_bytes()
SPEC = b"spec:\n  replicatedJobs:\n"
CONTAINERS = "template.spec.template.spec.containers"


def test_the_default_success_policy_waits_for_the_parameter_servers() -> None:
    [(code, path, message, hint)] = found(NEVER)
    assert (code, path) == ("never_succeeds", "spec.replicatedJobs[2].name")
    assert message == (
        "the JobSet never succeeds: its successPolicy (All, the default) waits for every Job of "
        "every replicated job to succeed, and replicated job 'ps' runs parameter servers, which "
        "never exit"
    )
    assert hint == (
        "target the jobs that finish: successPolicy: {operator: All, targetReplicatedJobs: [chief]}"
    )


@pytest.mark.parametrize(
    ("policy", "never"),
    [
        ("{operator: All, targetReplicatedJobs: [chief]}", False),
        ("{operator: All, targetReplicatedJobs: [chief, worker]}", False),
        ("{operator: Any}", False),
        ("{operator: All, targetReplicatedJobs: [chief, ps]}", True),
        ("{operator: All}", True),
        ("{operator: Any, targetReplicatedJobs: [ps]}", True),
    ],
)
def test_a_success_policy_the_jobs_that_finish_can_meet(policy: str, never: bool) -> None:
    raw = NEVER.replace(
        SPEC, b"spec:\n  successPolicy: " + policy.encode() + b"\n  replicatedJobs:\n"
    )
    said = [(code, path) for code, path, *_ in found(raw)]
    assert said == ([("never_succeeds", "spec.successPolicy")] if never else [])


def test_the_replicated_jobs_a_policy_targets_are_named() -> None:
    raw = NEVER.replace(
        SPEC,
        b"spec:\n  successPolicy: {operator: All, targetReplicatedJobs: [chief, ps]}\n"
        b"  replicatedJobs:\n",
    )
    [(_, _, message, _)] = found(raw)
    assert "waits for every Job of replicated jobs 'chief', 'ps' to succeed" in message


def test_any_of_several_jobs_of_parameter_servers_never_succeeds() -> None:
    raw = NEVER.replace(
        SPEC,
        b"spec:\n  successPolicy: {operator: Any, targetReplicatedJobs: [worker, ps]}\n"
        b"  replicatedJobs:\n",
    ).replace(b'"task": {"type": "worker"', b'"task": {"type": "ps"')
    messages = [message for code, _, message, _ in found(raw) if code == "never_succeeds"]
    assert len(messages) == 1
    assert "waits for one Job of 'worker', 'ps' to succeed" in messages[0]


def test_without_a_chief_the_workers_are_the_target() -> None:
    chief, rest = NEVER.split(b"    - name: worker\n", 1)
    raw = chief.split(b"    - name: chief\n")[0] + b"    - name: worker\n" + rest
    raw = raw.replace(b'{"cluster": {"chief": ["mnist-chief-0-0.mnist:2222"],', b'{"cluster": {')
    [(code, _, _, hint)] = found(raw)
    assert code == "never_succeeds"
    assert hint is not None
    assert hint.endswith("successPolicy: {operator: All, targetReplicatedJobs: [worker]}")


def test_a_task_type_the_pod_does_not_get_as_written_is_not_read() -> None:
    """The type of a TF_CONFIG left unexpanded is not what the pod reads: no policy is judged."""
    raw = NEVER.replace(b'"task": {"type": "ps"', b'"x": "$(UNDEFINED)", "task": {"type": "ps"')
    codes = [code for code, *_ in found(raw)]
    assert "env_reference_not_expanded" in codes and "never_succeeds" not in codes


def test_a_jobset_without_parameter_servers_succeeds_with_its_workers() -> None:
    assert found((DATA / "custom_subdomain.yaml").read_bytes(), "mwms") == []


def test_a_pod_name_longer_than_the_webhook_takes() -> None:
    raw = (DATA / "pod_name_too_long.yaml").read_bytes()
    [(code, path, message, hint)] = found(raw)
    assert (code, path) == ("pod_name_too_long", "spec.replicatedJobs[0].name")
    assert message == (
        "the longest pod name 'imagenet-resnet50-mixed-precision-sweep-2024-07-worker-1-15-abcde' "
        "of replicated job 'worker' has 65 characters, more than 63: JobSet's webhook refuses "
        "the JobSet (JobSet name is too long, pod names generated for this JobSet will exceed 63 "
        "characters)"
    )
    assert (
        hint == "shorten the JobSet's name or the name of replicated job 'worker' by 2 characters"
    )
    result = check_text(raw, "yaml", "j.yaml", "ps", Limits())
    assert result is not None and result.errors[0].refused


def test_the_longest_name_that_fits() -> None:
    raw = (DATA / "pod_name_too_long.yaml").read_bytes().replace(b"2024-07", b"2407")
    assert found(raw) == []
    # the webhook counts the pods only of an Indexed Job whose completions are given
    assert (
        found(raw.replace(b"2407", b"2024-07").replace(b"          completions: 16\n", b"")) == []
    )


def test_a_job_name_longer_than_the_webhook_takes() -> None:
    raw = (DATA / "pod_name_too_long.yaml").read_bytes().replace(b"2024-07", b"2024-07" * 3)
    [(code, _, message, _)] = found(raw)
    assert code == "pod_name_too_long"
    assert message.endswith(
        "(JobSet name is too long, job names generated for this JobSet will exceed 63 characters)"
    )


def test_the_runtime_webhooks_rules() -> None:
    said = found((DATA / "runtime_rule.yaml").read_bytes(), "mwms")
    assert [(code, path) for code, path, *_ in said] == [
        ("trainer_runtime_rule", "spec.template.spec.replicatedJobs[0].replicas"),
        (
            "trainer_runtime_rule",
            "spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers",
        ),
    ]
    assert said[0][2].endswith(
        "has replicas 2: Trainer's runtime webhook refuses it (always must be 1)"
    )
    assert said[1][2].endswith("(must contain the required container for the ancestor: trainer)")
    assert said[1][3] == (
        "name the container of the trainer step 'node': Trainer puts the TrainJob's image, "
        "command, args and env into it"
    )


def test_the_webhooks_refusals_are_refusals() -> None:
    result = check_text(
        (DATA / "runtime_rule.yaml").read_bytes(), "yaml", "r.yaml", "mwms", Limits()
    )
    assert result is not None
    assert [e.refused for e in result.errors] == [True, True]


def test_the_rules_apply_to_every_replicated_job_in_order() -> None:
    raw = (DATA / "runtime_ps.yaml").read_bytes().replace(b"- name: node\n", b"- name: main\n")
    said = found(raw)
    assert [(code, path) for code, path, *_ in said] == [
        ("trainer_runtime_rule", f"spec.template.spec.replicatedJobs[2].{CONTAINERS}")
    ]


@pytest.mark.parametrize("step", ["dataset-initializer", "model-initializer"])
def test_an_initializer_must_have_its_container(step: str) -> None:
    raw = (
        (DATA / "runtime_rule.yaml")
        .read_bytes()
        .replace(b"ancestor-step: trainer", b"ancestor-step: " + step.encode())
    )
    raw = raw.replace(b"replicas: 2", b"replicas: 1")
    [(_, _, message, hint)] = found(raw, "mwms")
    assert f"has no container named {step!r}" in message
    assert hint == f"name the container of the {step} step {step!r}"


def test_a_runtime_that_follows_the_rules() -> None:
    assert found((DATA / "runtime_ps.yaml").read_bytes()) == []
