"""estconf.launchers.jobset.jobsets: JobSets and TrainJobs checked as ``validate`` checks them."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from estconf.io.checks import Limits
from estconf.launchers.jobset.jobsets import KIND, check_text

DATA = Path(__file__).parent / "data" / "launchers" / "jobset"


def manifest(value: str, completions: int = 2, env: str = "") -> bytes:
    return (
        "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: m}\n"
        "spec:\n  replicatedJobs:\n  - name: worker\n    template:\n      spec:\n"
        f"        completions: {completions}\n        template:\n          spec:\n"
        "            containers:\n            - name: c\n              env:\n"
        f"{env}              - name: TF_CONFIG\n                value: '{value}'\n"
    ).encode()


def found(raw: bytes, profile: str = "mwms") -> list[tuple[str, int | None, str, str]]:
    result = check_text(raw, "yaml", "j.yaml", profile, Limits())
    assert result is not None and result.kind == KIND
    return [(e.code, e.line, e.path, e.message) for e in result.errors]


WORKERS = '{"cluster": {"worker": ["m-worker-0-0.m:2222", "m-worker-0-1.m:2222"]}, '
INDEX = (
    "              - name: I\n                valueFrom:\n                  fieldRef:\n"
    "                    fieldPath: "
    "metadata.annotations['batch.kubernetes.io/job-completion-index']\n"
)
VALUE = "spec.replicatedJobs[0].template.spec.template.spec.containers[0].env[0].value"


def test_a_file_without_a_jobset_or_trainjob_is_not_its() -> None:
    assert check_text(b"apiVersion: v1\nkind: Pod\n", "yaml", "p.yaml", "mwms", Limits()) is None
    assert check_text(b"kind: JobSet\n", "toml", "p.toml", "mwms", Limits()) is None
    text = b"apiVersion: example.com/v1\nkind: JobSet\n"
    assert check_text(text, "yaml", "p.yaml", "mwms", Limits()) is None


def test_a_valid_jobset_has_no_finding() -> None:
    raw = manifest(WORKERS + '"task": {"type": "worker", "index": $(I)}}', env=INDEX)
    assert found(raw) == []


def test_what_the_reader_refuses_is_at_the_value_naming_the_pods() -> None:
    raw = manifest(WORKERS + '"task": {"type": "worker", "index": 2}}')
    [(code, line, path, message)] = found(raw)
    assert (code, line, path) == ("task_id_out_of_range", 16, VALUE)
    assert message == (
        "TF_CONFIG of pods m-worker-0-0 to m-worker-0-1: task.index: The `task_id` 2 exceeds "
        "the maximum id of worker."
    )


def hints(raw: bytes, profile: str) -> list[tuple[str, str | None]]:
    result = check_text(raw, "yaml", "j.yaml", profile, Limits())
    assert result is not None
    return [(e.code, e.hint) for e in result.errors]


def test_the_fix_the_reader_gives_is_the_hint_of_its_finding() -> None:
    """The fix a reader's error carries, or its message names after "Fix:", is the hint."""
    raw = manifest(WORKERS + '"task": {"type": "wrker", "index": 0}}')
    assert hints(raw, "mwms") == [("unrecognized_task_type", "set task.type to 'worker'")]
    cluster = '{"cluster": {"master": ["m-worker-0-0.m:2222"], "chief": ["m-worker-0-1.m:2222"]}, '
    raw = manifest(cluster + '"task": {"type": "master", "index": 0}}')
    assert hints(raw, "estimator") == [
        (
            "chief_with_master",
            'keep one of them: "chief" is the current name of the legacy "master" job.',
        )
    ]


def test_a_tf_config_that_is_no_json_or_no_object() -> None:
    assert [(code, message) for code, _, _, message in found(manifest("{"))] == [
        (
            "syntax",
            "TF_CONFIG of pods m-worker-0-0 to m-worker-0-1: invalid JSON: Expecting "
            "property name enclosed in double quotes",
        )
    ]
    assert [code for code, *_ in found(manifest("[1]"))] == ["not_an_object"]


def test_a_value_known_only_once_the_pod_runs_is_not_read() -> None:
    ip = (
        "              - name: IP\n"
        "                valueFrom: {fieldRef: {fieldPath: status.podIP}}\n"
    )
    assert found(manifest('{"cluster": {"worker": ["$(IP):1"]}}', env=ip)) == []


def test_a_model_error_is_located() -> None:
    [(code, line, path, _)] = found(manifest("{}").replace(b"completions: 2", b"completions: -1"))
    assert (code, line, path) == (
        "greater_than_equal",
        9,
        "spec.replicatedJobs[0].template.spec.completions",
    )


def test_a_variable_growing_past_any_program_is_refused_where_the_jobs_are() -> None:
    env = f"              - {{name: A, value: {'x' * 2000}}}\n"
    [(code, line, path, message)] = found(manifest("$(A)" * 1000, env=env))
    assert (code, line, path) == ("size", 6, "spec.replicatedJobs")
    assert message.startswith("a variable of its pods expands to more than 1,048,576 characters")


def test_a_huge_jobset_is_checked_at_its_ends_quickly() -> None:
    raw = manifest(WORKERS + '"task": {"type": "worker", "index": $(I)}}', 10**9, INDEX)
    start = time.process_time()
    [(code, _, _, message)] = found(raw)
    assert time.process_time() - start < 5
    assert code == "task_id_out_of_range"
    assert message.startswith("TF_CONFIG of pod m-worker-0-999999999: task.index: ")


def test_the_data_files() -> None:
    for name in ("chief_worker_ps.yaml", "custom_subdomain.yaml", "trainjob_with_runtime.yaml"):
        result = check_text((DATA / name).read_bytes(), "yaml", name, "ps", Limits())
        assert result is not None and result.kind == KIND


def test_a_jobset_with_only_generate_name_is_checked_under_the_name_it_gets() -> None:
    raw = manifest(WORKERS + '"task": {"type": "worker", "index": 5}}').replace(
        b"metadata: {name: m}", b"metadata: {generateName: m-}"
    )
    [(code, _, _, message), (other, _, _, said)] = found(raw)
    assert code == "task_id_out_of_range"
    assert message.startswith("TF_CONFIG of pods m-xxxxx-worker-0-0 to m-xxxxx-worker-0-1: ")
    assert other == "address_not_a_pod"
    assert said.endswith("it is named after a JobSet 'm', and this one is 'm-xxxxx'")


def two_jobs(first: str, workers: str) -> bytes:
    """A JobSet of a replicated job ``a`` of one pod, then one ``worker`` of two."""

    def job(name: str, completions: int, env: str) -> str:
        return (
            f"  - name: {name}\n    template:\n      spec:\n"
            f"        completions: {completions}\n        template:\n          spec:\n"
            f"            containers:\n            - name: c\n              env:\n{env}"
        )

    def tf_config(value: str) -> str:
        entry = f"              - name: TF_CONFIG\n                value: '{value}'\n"
        return entry if value else ""

    return (
        "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: m}\n"
        "spec:\n  replicatedJobs:\n"
        + job("a", 1, tf_config(first) or "              - {name: X, value: x}\n")
        + job("worker", 2, INDEX + tf_config(workers))
    ).encode()


def test_a_pod_whose_tf_config_is_no_json_leaves_the_others_addresses_read() -> None:
    cluster = '{"cluster": {"worker": ["m-worker-0-0.other:2222", "m-worker-0-1.m:2222"]}, '
    raw = two_jobs("not json", cluster + '"task": {"type": "worker", "index": $(I)}}')
    assert "address_not_a_pod" in [code for code, *_ in found(raw)]


def test_a_pod_without_tf_config_leaves_the_others_read() -> None:
    raw = two_jobs("", WORKERS + '"task": {"type": "worker", "index": 2}}')
    assert "task_id_out_of_range" in [code for code, *_ in found(raw)]


def test_a_jobset_of_as_many_pods_as_are_predicted_is_checked_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Up to MAX_PODS pods every pod is read and the pods are checked together."""
    from estconf.launchers.jobset import predictions

    cluster = '{"cluster": {"worker": ["10.0.0.1:2222", "10.0.0.2:2222", "10.0.0.3:2222"]}, '
    raw = manifest(cluster + '"task": {"type": "worker", "index": $(I)}}', env=INDEX)
    every = [code for code, *_ in found(raw)]
    assert every == ["task_unclaimed"]
    monkeypatch.setattr(predictions, "MAX_PODS", 2)
    assert [code for code, *_ in found(raw)] == every
    monkeypatch.setattr(predictions, "MAX_PODS", 1)
    assert [code for code, *_ in found(raw)] == []
