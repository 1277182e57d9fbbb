"""launchers.volcano.checks: what goes wrong with a Volcano Job before it runs, where it is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from estconf.codes import declaration
from estconf.finding import Finding
from estconf.launchers.volcano.checks import check
from estconf.launchers.volcano.job import VolcanoJob, read_jobs
from estconf.launchers.volcano.jobs import node_check
from messages import too_long

DATA = Path(__file__).parent / "data" / "launchers" / "volcano"
TEMPLATE = {"spec": {"containers": [{"name": "tensorflow", "image": "tf"}]}}


def job(tasks: list[dict[str, Any]], plugins: dict[str, Any] | None = None) -> VolcanoJob:
    return VolcanoJob.model_validate(
        {
            "apiVersion": "batch.volcano.sh/v1alpha1",
            "kind": "Job",
            "metadata": {"name": "j"},
            "spec": {"tasks": tasks, "plugins": {"tensorflow": []} if plugins is None else plugins},
        }
    )


def task(name: str, replicas: int = 1, **template: Any) -> dict[str, Any]:
    spec = {**TEMPLATE["spec"], **template}
    return {"name": name, "replicas": replicas, "template": {"spec": spec}}


def found(given: VolcanoJob | str, profile: str | None = "estimator") -> list[tuple[str, str, str]]:
    if isinstance(given, str):
        (given,) = read_jobs((DATA / given).read_bytes())
    checker = None if profile is None else node_check(profile)
    return [(f.code, f.path, f.severity) for f in check(given, node_check=checker)]


def only(given: VolcanoJob, code: str, profile: str | None = "estimator") -> Finding:
    checker = None if profile is None else node_check(profile)
    (finding,) = [f for f in check(given, node_check=checker) if f.code == code]
    assert too_long(finding.message) == []
    assert finding.severity == declaration(finding.code).severity or code.endswith("_set")
    return finding


class TestRefused:
    def test_a_job_of_no_task(self) -> None:
        finding = only(job([]), "volcano_no_tasks")
        assert (finding.refused, finding.path) == (True, "spec.tasks")
        assert finding.message.endswith("No task specified in job spec")

    def test_a_task_name_given_twice(self) -> None:
        finding = only(job([task("worker"), task("worker")]), "volcano_duplicate_task")
        assert (finding.refused, finding.path) == (True, "spec.tasks[1].name")

    def test_a_task_name_that_is_no_dns_label(self) -> None:
        finding = only(job([task("Worker", 2)]), "volcano_task_name")
        assert finding.refused and "RFC 1123" in finding.message

    def test_a_plugin_volcano_does_not_know_with_the_one_meant(self) -> None:
        finding = only(job([task("worker", 2)], {"tensorFlow": []}), "volcano_unknown_plugin")
        assert finding.refused and finding.on_key
        assert finding.message.endswith("unable to find job plugin: tensorFlow")
        assert finding.hint == "did you mean 'tensorflow'?"

    def test_a_refused_job_is_not_checked_further(self) -> None:
        assert [code for code, _, _ in found(job([task("worker"), task("worker")]))] == [
            "volcano_duplicate_task"
        ]


class TestThePlugin:
    def test_a_plugin_of_no_value_is_dropped(self) -> None:
        finding = only(job([task("worker", 2)], {"tensorflow": None}), "volcano_plugin_null")
        assert finding.hint is not None and "tensorflow: []" in finding.hint

    @pytest.mark.parametrize(
        ("argument", "said", "hint"),
        [
            (
                "--ps master",
                "on an error Volcano only logs (flag provided but not defined: -ps master): the "
                "flag is not applied, and the argument after it is never read",
                "write the flag and its value as one argument with '=': --ps=master",
            ),
            (
                "ps=master",
                "stops at the first argument that is no flag: it is never read, nor is the one "
                "after it",
                "begin each flag with '--': --ps=master",
            ),
            (
                "--master=m",
                "(flag provided but not defined: -master): the flag is not applied, and the "
                "argument after it is never read",
                "the plugin's flags are",
            ),
        ],
    )
    def test_an_argument_the_parser_stops_at(self, argument: str, said: str, hint: str) -> None:
        given = job([task("worker", 2)], {"tensorflow": [argument, "--port=5000"]})
        finding = only(given, "volcano_plugin_flag")
        assert finding.path == "spec.plugins.tensorflow[0]"
        assert finding.message.startswith("the plugin's flag parser stops ")
        assert finding.message.endswith(said)
        assert finding.hint is not None and finding.hint.startswith(hint)

    def test_what_follows_a_double_dash(self) -> None:
        given = job([task("worker", 2)], {"tensorflow": ["--", "--port=5000", "--ps=p"]})
        assert only(given, "volcano_plugin_flag").message == (
            "the plugin's flag parser stops at --: the 2 arguments after it are never read"
        )

    def test_a_port_and_its_value_in_two_arguments(self) -> None:
        given = job([task("worker", 2)], {"tensorflow": ["--port", "x", "--ps=p"]})
        assert only(given, "volcano_plugin_flag").message.endswith(
            "parse error): the port is 0, and the argument after it is never read"
        )

    def test_a_port_that_is_no_number_is_0(self) -> None:
        given = job([task("worker", 2)], {"tensorflow": ["--port=22a2"]})
        finding = only(given, "volcano_plugin_flag")
        assert finding.message == (
            "the plugin's flag parser stops here, on an error Volcano only logs (invalid value "
            '"22a2" for flag -port: parse error): the port is 0'
        )
        port = only(given, "volcano_plugin_port")
        assert port.path == "spec.plugins.tensorflow[0]"
        assert "writes port 0 into every address" in port.message

    def test_a_port_above_65535_goes_into_the_addresses(self) -> None:
        given = job([task("worker", 2)], {"tensorflow": ["--port=70000"]})
        assert [code for code, _, _ in found(given)] == ["volcano_plugin_port"]
        port = only(given, "volcano_plugin_port")
        assert port.hint == "give --port=P with P from 1 to 65535 (default 2222)"

    def test_a_flag_given_twice(self) -> None:
        given = job([task("worker", 2)], {"tensorflow": ["--port=2222", "--port=5000"]})
        finding = only(given, "volcano_plugin_flag_repeated")
        assert (finding.path, finding.message) == (
            "spec.plugins.tensorflow[1]",
            "--port is given 2 times: the plugin takes the last",
        )


class TestTheTasks:
    def test_a_task_no_flag_names(self) -> None:
        assert found("custom-names.yaml") == [
            ("volcano_task_unmapped", "spec.tasks[3].name", "warning")
        ]

    def test_no_task_named_by_any_flag(self) -> None:
        given = job([task("trainer", 4), task("sidecar", 0)])
        finding = only(given, "volcano_no_task_named", None)
        assert (finding.path, finding.on_key) == ("spec.plugins.tensorflow", True)
        assert finding.message.startswith(
            "no flag of the tensorflow plugin names a task of the Job ('trainer'): every pod"
        )
        assert [code for code, _, _ in found(given, None)] == ["volcano_no_task_named"]

    def test_a_task_no_flag_names_that_takes_another_tasks_job(self) -> None:
        given = job([task("trainer", 2), task("worker", 1)], {"tensorflow": ["--worker=trainer"]})
        finding = only(given, "volcano_task_unmapped")
        assert finding.path == "spec.tasks[1].name"
        assert finding.message.endswith(
            "its pods get the task type 'worker', and claim the tasks of the cluster's 'worker' "
            "job, which are the pods of task 'trainer'"
        )

    def test_two_flags_name_one_task(self) -> None:
        given = job([task("worker", 2)], {"tensorflow": ["--ps=worker"]})
        finding = only(given, "volcano_flags_name_one_task")
        assert finding.message.startswith(
            "--ps and --worker name task 'worker': the plugin lists its pods under 'ps' in the "
            "cluster but gives them the task type 'worker'"
        )
        assert finding.hint == "name each task with one flag"
        assert [code for code, _, _ in found(given)] == ["volcano_flags_name_one_task"]

    def test_a_hostname_on_a_task_of_many_pods(self) -> None:
        given = job([task("worker", 2, hostname="trainer")])
        finding = only(given, "volcano_hostname_set")
        assert finding.path == "spec.tasks[0].template.spec.hostname"
        assert finding.message.endswith("the one address trainer.j:2222")
        assert found(job([task("chief", 1, hostname="c"), task("worker", 1)]), None) == []

    def test_a_subdomain_no_service_of_the_job_serves(self) -> None:
        finding = only(job([task("worker", 2, subdomain="training")]), "volcano_subdomain_set")
        assert finding.path == "spec.tasks[0].template.spec.subdomain"
        assert found(job([task("worker", 2, subdomain="j")]), None) == []

    def test_a_pod_name_too_long_for_a_hostname(self) -> None:
        mapped = {"tensorflow": [f"--worker={'w' * 60}"]}
        finding = only(job([task("w" * 60, 10)], mapped), "volcano_pod_name", None)
        assert f"'j-{'w' * 60}-9'" in finding.message and "of 64 characters" in finding.message
        assert (
            found(job([task("w" * 59, 10)], {"tensorflow": [f"--worker={'w' * 59}"]}), None) == []
        )


class TestATFConfigSetByHand:
    def test_the_plugins_own_wins(self) -> None:
        env = [{"name": "TF_CONFIG", "value": "{}"}]
        given = job([task("worker", 2, containers=[{"name": "tensorflow", "env": env}])])
        finding = only(given, "volcano_tf_config_set")
        assert (finding.severity, finding.path) == (
            "warning",
            "spec.tasks[0].template.spec.containers[0].env[0]",
        )

    def test_a_job_of_one_pod_reads_it_and_it_is_checked(self) -> None:
        value = '{"cluster": {"worker": ["w:1"]}, "task": {"type": "worker", "index": 0}}'
        env = [{"name": "TF_CONFIG", "value": value}]
        given = job([task("worker", 1, containers=[{"name": "tensorflow", "env": env}])])
        assert found(given) == [
            ("volcano_tf_config_set", "spec.tasks[0].template.spec.containers[0].env[0]", "note"),
            (
                "volcano_pod_missing_chief",
                "spec.tasks[0].template.spec.containers[0].env[0].value",
                "error",
            ),
            ("volcano_single_pod", "spec.tasks", "note"),
        ]
        assert found(given, "mwms") == [
            ("volcano_tf_config_set", "spec.tasks[0].template.spec.containers[0].env[0]", "note"),
            ("volcano_single_pod", "spec.tasks", "note"),
        ]

    def test_without_the_plugin_every_pod_of_a_task_reads_one(self) -> None:
        assert found("without-plugin.yaml") == [
            (
                "volcano_tf_config_shared",
                "spec.tasks[1].template.spec.containers[0].env[0].value",
                "error",
            )
        ]

    def test_without_the_plugin_a_value_that_is_no_json(self) -> None:
        env = [{"name": "TF_CONFIG", "value": "$(CONFIG)"}]
        given = job([task("worker", 1, containers=[{"name": "t", "env": env}])], {"svc": []})
        (finding,) = check(given, node_check=node_check("estimator"))
        assert finding.code == "volcano_pod_json_invalid"
        assert finding.message.startswith("the pods refuse this TF_CONFIG: ")


class TestATFConfigBuiltInTheCommand:
    """Volcano's own examples build TF_CONFIG in ``sh -c`` from the svc plugin's host files."""

    def test_each_task_that_builds_one_is_said_at_its_argument(self) -> None:
        at = "template.spec.containers[0].command[2]"
        assert found("command-built.yaml") == [
            ("volcano_tf_config_in_command", f"spec.tasks[0].{at}", "warning"),
            ("volcano_tf_config_in_command", f"spec.tasks[1].{at}", "warning"),
        ]

    def test_the_warning_names_the_task_and_the_fix(self) -> None:
        (first, _) = check(read_jobs((DATA / "command-built.yaml").read_bytes())[0])
        assert first.severity == "warning" and not first.refused
        assert first.message == (
            "task 'ps' builds TF_CONFIG in its command when each pod starts, so it cannot be "
            "checked before the Job runs"
        )
        assert first.hint is not None and "plugins: {tensorflow: []}" in first.hint

    def test_in_args_of_a_later_container(self) -> None:
        script = ["sh", "-c"]
        containers = [
            {"name": "sidecar", "image": "s"},
            {"name": "t", "command": script, "args": ["cd /w; export TF_CONFIG=$(cat c); run"]},
        ]
        given = job([task("worker", 2, containers=containers)], {"svc": []})
        assert [(f.code, f.path) for f in check(given)] == [
            ("volcano_tf_config_in_command", "spec.tasks[0].template.spec.containers[1].args[0]")
        ]

    @pytest.mark.parametrize(
        "argument", ["MY_TF_CONFIG=1 run", "echo $TF_CONFIG", "TF_CONFIG", "--tf_config=x"]
    )
    def test_what_assigns_no_tf_config_is_not_said(self, argument: str) -> None:
        containers = [{"name": "t", "command": ["sh", "-c", argument]}]
        assert check(job([task("worker", 2, containers=containers)], {"svc": []})) == ()

    def test_a_tf_config_in_env_is_checked_instead(self) -> None:
        env = [{"name": "TF_CONFIG", "value": '{"task": {"type": "worker", "index": 0}}'}]
        containers = [{"name": "t", "command": ["sh", "-c", "export TF_CONFIG=x"], "env": env}]
        given = job([task("worker", 2, containers=containers)], {"svc": []})
        assert [f.code for f in check(given)] == ["volcano_tf_config_shared"]

    def test_with_the_plugin_it_is_not_said(self) -> None:
        containers = [{"name": "t", "command": ["sh", "-c", "export TF_CONFIG=x; run"]}]
        codes = [f.code for f in check(job([task("worker", 2, containers=containers)]))]
        assert "volcano_tf_config_in_command" not in codes


class TestThePodsUnderAProfile:
    def test_a_job_without_a_chief_under_the_estimator(self) -> None:
        (finding,) = check(
            read_jobs((DATA / "dist-mnist.yaml").read_bytes())[0],
            node_check=node_check("estimator"),
        )
        assert (finding.code, finding.path) == ("volcano_pod_missing_chief", "spec.tasks")
        assert finding.message.startswith(
            "pods tensorflow-dist-mnist-ps-0, tensorflow-dist-mnist-worker-0 and "
            "tensorflow-dist-mnist-worker-1 refuse their TF_CONFIG: "
        )
        assert finding.hint is not None and "--profile mwms, ps or server" in finding.hint

    def test_a_tf1_program_reads_volcanos_example(self) -> None:
        assert found("dist-mnist.yaml", "server") == []
        assert found("dist-mnist.yaml", "ps") == []

    def test_a_ps_task_under_multi_worker_mirrored_strategy(self) -> None:
        assert found("custom-names.yaml", "mwms") == [
            ("volcano_task_unmapped", "spec.tasks[3].name", "warning"),
            ("volcano_pod_no_id_for_task_type", "spec.tasks[2].name", "error"),
        ]

    @pytest.mark.parametrize("profile", ["mwms", "ps"])
    def test_two_evaluators_in_the_cluster(self, profile: str) -> None:
        assert found("evaluator.yaml", profile) == [
            ("volcano_pod_multiple_evaluators", "spec.tasks[2].name", "error")
        ]

    def test_two_evaluators_in_the_cluster_under_the_estimators_run_config(self) -> None:
        """``tf.estimator.RunConfig`` reads an evaluator of any index, in the cluster or not."""
        assert found("evaluator.yaml") == []

    def test_a_job_of_millions_of_pods_costs_what_a_few_do(self) -> None:
        given = job([task("chief", 1), task("worker", 2**31 - 1)])
        assert found(given) == []


def one_pod(tf_config: str) -> VolcanoJob:
    env = [{"name": "TF_CONFIG", "value": tf_config}]
    containers = [{"name": "tensorflow", "image": "tf", "env": env}]
    return job(
        [{"name": "worker", "replicas": 1, "template": {"spec": {"containers": containers}}}]
    )


def test_a_tf_config_set_by_hand_that_is_no_object_is_refused() -> None:
    finding = only(one_pod("[1]"), "volcano_pod_tf_config_refused")
    assert finding.message == (
        "the pod refuses the TF_CONFIG set by hand: TF_CONFIG is not a JSON object"
    )


def built(*parts: str) -> str:
    """A name built at run time, as one read from a file is: equal text, another object."""
    return "".join(parts)


class TestNamesAndBounds:
    """Rules that only a name built at run time, or a value at a bound, shows."""

    def test_a_name_given_for_a_job_with_only_generate_name_is_the_jobs(self) -> None:
        given = VolcanoJob.model_validate(
            {
                "apiVersion": "batch.volcano.sh/v1alpha1",
                "kind": "Job",
                "metadata": {"generateName": "tf-"},
                "spec": {
                    "tasks": [task("worker", 2, subdomain="x")],
                    "plugins": {"tensorflow": []},
                },
            }
        )
        [finding] = check(given, name="given")
        assert "the headless Service of the Job is named 'given'" in finding.message
        [finding] = check(given)
        assert "the headless Service of the Job is named 'tf-xxxxx'" in finding.message

    def test_a_negative_port_is_reported_alone(self) -> None:
        given = job([task("worker", 2)], {"tensorflow": ["--port=-1"]})
        assert [code for code, _, _ in found(given)] == ["volcano_plugin_port"]

    def test_a_flag_without_a_value_gets_the_flags_hint(self) -> None:
        given = job([task("worker", 2)], {"tensorflow": ["--worker"]})
        assert only(given, "volcano_plugin_flag").hint == (
            "the plugin's flags are --ps=NAME, --worker=NAME, --chief=NAME, --evaluator=NAME and "
            "--port=P, each written --flag=value"
        )

    def test_a_task_named_by_its_own_flag_is_listed_under_its_name(self) -> None:
        name = built("wor", "ker")
        given = job([task(name, 2)], {"tensorflow": [f"--worker={name}"]})
        assert found(given, None) == []

    def test_a_subdomain_equal_to_the_jobs_name_is_its_service(self) -> None:
        given = VolcanoJob.model_validate(
            {
                "apiVersion": "batch.volcano.sh/v1alpha1",
                "kind": "Job",
                "metadata": {"name": built("mni", "st")},
                "spec": {
                    "tasks": [task("worker", 2, subdomain=built("mn", "ist"))],
                    "plugins": {"tensorflow": []},
                },
            }
        )
        assert found(given, None) == []

    def test_a_tf_config_set_by_hand_after_a_task_without_one(self) -> None:
        env = [{"name": "TF_CONFIG", "value": "{}"}]
        given = job(
            [task("chief", 1), task("worker", 2, containers=[{"name": "tensorflow", "env": env}])]
        )
        assert only(given, "volcano_tf_config_set").path == (
            "spec.tasks[1].template.spec.containers[0].env[0]"
        )
