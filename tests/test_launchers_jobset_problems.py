"""estconf.launchers.jobset.problems: what is wrong with the TF_CONFIG of a JobSet's pods."""

from __future__ import annotations

from typing import Any

import pytest

from estconf.codes import declaration
from estconf.launchers.jobset.model import JobSet
from estconf.launchers.jobset.pods import Configs
from estconf.launchers.jobset.problems import INDEX_FIX, NOT_EXPANDED, not_set, problems
from estconf.launchers.jobset.tf_configs import tf_configs
from messages import too_long
from values import refuses_assignment

INDEX = {
    "name": "TASK_INDEX",
    "valueFrom": {
        "fieldRef": {
            "fieldPath": "metadata.annotations['batch.kubernetes.io/job-completion-index']"
        }
    },
}


def jobset(*jobs: tuple[str, list[dict[str, Any]]], **job: Any) -> JobSet:
    return JobSet.model_validate(
        {
            "apiVersion": "jobset.x-k8s.io/v1alpha2",
            "kind": "JobSet",
            "metadata": {"name": "m"},
            "spec": {
                "replicatedJobs": [
                    {
                        "name": name,
                        "template": {
                            "spec": {
                                "parallelism": 2,
                                "completions": 2,
                                **job,
                                "template": {
                                    "spec": {"containers": [{"name": "tensorflow", "env": env}]}
                                },
                            }
                        },
                    }
                    for name, env in jobs
                ]
            },
        }
    )


def found(*jobs: tuple[str, list[dict[str, Any]]], **job: Any) -> list[Any]:
    given = jobset(*jobs, **job)
    return problems(tf_configs(given), given)


def tf_config(value: str) -> dict[str, str]:
    return {"name": "TF_CONFIG", "value": value}


def changed(given: JobSet, job: int, **changes: Any) -> JobSet:
    """``given`` with the keys ``changes`` set in the container (``env``, ``envFrom``) or the
    replicated job (``replicas``) of replicated job ``job``."""
    data = given.model_dump(by_alias=True)
    replicated = data["spec"]["replicatedJobs"][job]
    container = replicated["template"]["spec"]["template"]["spec"]["containers"][0]
    for key, value in changes.items():
        (replicated if key == "replicas" else container)[key] = value
    return JobSet.model_validate(data)


class TestNotExpanded:
    def test_the_completion_index_variable_is_never_defined_before(self) -> None:
        [problem] = found(("w", [tf_config('{"index": $(JOB_COMPLETION_INDEX)}')]))
        assert problem.code == NOT_EXPANDED == "env_reference_not_expanded"
        assert problem.message == (
            "TF_CONFIG of pods m-w-0-0 to m-w-0-1 holds $(JOB_COMPLETION_INDEX), which "
            "Kubernetes leaves as written: the Job controller appends JOB_COMPLETION_INDEX "
            "after every variable of the container"
        )
        assert problem.hint == INDEX_FIX == declaration(NOT_EXPANDED).fix
        assert (problem.replicated_job, problem.container, problem.entry) == (0, 0, 0)

    def test_a_variable_defined_after_tf_config_is_to_be_moved(self) -> None:
        [problem] = found(("w", [tf_config('{"index": $(TASK_INDEX)}'), INDEX]))
        assert problem.message.endswith(
            "TASK_INDEX is defined after TF_CONFIG in container 'tensorflow'"
        )
        assert problem.hint == (
            "move TASK_INDEX before TF_CONFIG: $(NAME) expands only to a variable defined before it"
        )

    def test_a_variable_defined_nowhere_is_to_be_defined(self) -> None:
        [problem] = found(("w", [tf_config("$(RANK)")]))
        assert problem.message.endswith("container 'tensorflow' defines no RANK")
        assert problem.hint == "define RANK before TF_CONFIG in container 'tensorflow'"

    def test_a_tf_config_that_holds_itself_is_not_defined_before_itself(self) -> None:
        [problem] = found(("w", [tf_config('{"a": $(TF_CONFIG)}')]))
        assert problem.message.endswith("container 'tensorflow' defines no TF_CONFIG")
        assert problem.hint == "define TF_CONFIG before TF_CONFIG in container 'tensorflow'"

    def test_an_index_defined_before_is_no_problem(self) -> None:
        assert found(("w", [INDEX, tf_config('{"task": {"index": $(TASK_INDEX)}}')])) == []

    def test_a_problem_of_a_tf_config_is_an_error_the_api_server_takes(self) -> None:
        [problem] = found(("w", [tf_config("$(RANK)")]))
        assert (problem.severity, problem.refused, problem.at) == ("error", False, None)
        refuses_assignment(problem)

    def test_a_tf_config_an_env_from_sets_has_no_entry(self) -> None:
        given = changed(jobset(("w", [])), 0, envFrom=[{"configMapRef": {"name": "tf"}}])
        configs = Configs(config_maps={("default", "tf"): {"TF_CONFIG": '{"task": '}})
        [problem] = problems(tf_configs(given, configs=configs), given)
        assert (problem.code, problem.container, problem.entry) == ("syntax", 0, None)

    def test_each_name_and_each_entry_is_a_problem_of_its_own(self) -> None:
        given = found(
            ("a", [tf_config("$(X)$(Y)")]),
            ("b", [tf_config("$(X)")]),
        )
        assert [(p.replicated_job, p.message.split(" holds ")[1][:4]) for p in given] == [
            (0, "$(X)"),
            (0, "$(Y)"),
            (1, "$(X)"),
        ]


class TestNoJSON:
    @pytest.mark.parametrize(
        ("value", "code"),
        [
            ('{"task": ', "syntax"),
            ('{"a": 1, "a": 2}', "duplicate_key"),
            ('{"a": NaN}', "number"),
        ],
    )
    def test_a_tf_config_that_is_no_json_has_the_code_of_a_file_that_is_none(
        self, value: str, code: str
    ) -> None:
        [problem] = found(("w", [tf_config(value)]))
        assert problem.code == code
        assert problem.message.startswith("TF_CONFIG of pods m-w-0-0 to m-w-0-1: ")

    def test_what_an_unexpanded_reference_breaks_is_said_once(self) -> None:
        [problem] = found(("w", [tf_config('{"index": $(JOB_COMPLETION_INDEX)}')]))
        assert problem.code == NOT_EXPANDED


class TestNotes:
    def test_a_value_known_only_once_the_pod_runs(self) -> None:
        ip = {"name": "IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}
        [problem] = found(("w", [ip, tf_config('{"address": "$(IP):2222"}')]))
        assert (problem.code, problem.severity) == (None, "note")
        assert problem.message == (
            "TF_CONFIG of pods m-w-0-0 to m-w-0-1 takes status.podIP, known only once the pod "
            "runs: written <status.podIP>"
        )

    def test_a_reference_only_a_service_may_define(self) -> None:
        [problem] = found(("w", [tf_config("$(CHIEF_SERVICE_HOST)")]))
        assert problem.severity == "note"
        assert problem.message.endswith(
            "holds $(CHIEF_SERVICE_HOST), which only a Service of namespace 'default' may define"
        )

    def test_a_reference_only_an_env_from_not_given_may_define(self) -> None:
        given = jobset(("w", [tf_config('{"x": "$(X)"}')]))
        data = given.model_dump(by_alias=True)
        container = data["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]
        container["containers"][0]["envFrom"] = [{"secretRef": {"name": "tf"}}]
        given = JobSet.model_validate(data)
        [problem] = problems(tf_configs(given), given)
        assert problem.message.endswith("holds $(X), which only Secret 'tf', not given, may define")

    def test_pods_that_get_no_tf_config(self) -> None:
        given = jobset(("data", []), ("w", [tf_config("{}")]), completionMode="NonIndexed")
        [problem] = not_set(given, Configs())
        assert problem.message == (
            "the 2 pods of replicated job 'data' (m-data-0-xxxxx to m-data-0-xxxxx) get no "
            "TF_CONFIG: no container of theirs defines it"
        )
        one = jobset(("data", []), parallelism=1, completions=1)
        assert not_set(one, Configs())[0].message.startswith(
            "the 1 pod of replicated job 'data' (m-data-0-0) gets no TF_CONFIG"
        )

    def test_the_pods_of_each_replicated_job_that_gets_none(self) -> None:
        given = jobset(("w", [tf_config("{}")]), ("ps", []), ("eval", []))
        given = changed(given, 1, replicas=3)
        assert [
            (p.code, p.severity, p.replicated_job, p.message) for p in not_set(given, Configs())
        ] == [
            (
                None,
                "note",
                1,
                "the 6 pods of replicated job 'ps' (m-ps-0-0 to m-ps-2-1) get no TF_CONFIG: no "
                "container of theirs defines it",
            ),
            (
                None,
                "note",
                2,
                "the 2 pods of replicated job 'eval' (m-eval-0-0 to m-eval-0-1) get no TF_CONFIG: "
                "no container of theirs defines it",
            ),
        ]

    def test_messages_are_short(self) -> None:
        given = found(
            ("w", [tf_config("$(JOB_COMPLETION_INDEX) $(X) {")]),
            ("v", [tf_config("{")]),
        )
        assert given
        for problem in given:
            assert too_long(problem.message) == []
