"""launchers.volcano.jobs: the Volcano Jobs ``estconf validate`` is given, found at their lines."""

from __future__ import annotations

from pathlib import Path

from estconf.io.checks import Limits
from estconf.launchers.volcano.jobs import KIND, check_text

DATA = Path(__file__).parent / "data" / "launchers" / "volcano"
JOB = """\
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: j}
spec:
  plugins: {tensorflow: []}
  tasks:
    - name: chief
      replicas: 1
    - name: worker
      replicas: REPLICAS
"""


def checked(text: str, profile: str = "estimator") -> list[tuple[str, str, int | None]] | None:
    result = check_text(text.encode(), "yaml", "job.yaml", profile, Limits())
    if result is None:
        return None
    assert result.kind == KIND
    return [(error.code, error.path, error.line) for error in result.errors]


def test_a_valid_job_has_no_finding() -> None:
    assert checked(JOB.replace("REPLICAS", "2")) == []


def test_what_the_model_refuses_is_at_its_line() -> None:
    assert checked(JOB.replace("REPLICAS", "two")) == [("int_type", "spec.tasks[1].replicas", 10)]
    assert checked(JOB.replace("REPLICAS", "-1")) == [
        ("greater_than_equal", "spec.tasks[1].replicas", 10)
    ]


def test_what_the_model_refuses_is_at_its_key_as_in_a_tfjob() -> None:
    result = check_text(JOB.replace("REPLICAS", "two").encode(), "yaml", "job.yaml", "estimator")
    assert result is not None
    assert [(error.line, error.column) for error in result.errors] == [(10, 7)]


def test_another_version_is_refused_at_its_key() -> None:
    text = JOB.replace("REPLICAS", "2").replace("v1alpha1", "v1beta1")
    assert checked(text) == [("volcano_api_version", "apiVersion", 1)]


def test_each_job_of_a_stream_and_of_a_list() -> None:
    one = JOB.replace("REPLICAS", "2")
    stream = f"{one}---\n{one.replace('name: chief', 'name: ps')}"
    assert checked(stream) == [("volcano_pod_missing_chief", "spec.tasks", 18)]
    listed = "apiVersion: v1\nkind: List\nitems:\n" + "".join(
        f"  - {line}\n" if i == 0 else f"    {line}\n"
        for i, line in enumerate(one.replace("name: chief", "name: ps").splitlines())
    )
    assert checked(listed) == [("volcano_pod_missing_chief", "items[0].spec.tasks", 10)]


def test_a_file_of_no_volcano_job_is_left_to_the_others() -> None:
    assert checked((DATA.parent.parent / "kubeflow" / "dist_mnist.yaml").read_text()) is None
    kubernetes_job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {}\n"
    assert checked(kubernetes_job) is None


def test_a_job_that_sets_no_tf_config_is_left_to_the_others() -> None:
    text = JOB.replace("REPLICAS", "2").replace("plugins: {tensorflow: []}", "plugins: {svc: []}")
    assert checked(text) is None


def test_a_job_whose_containers_set_other_variables_only_is_left_to_the_others() -> None:
    text = JOB.replace("REPLICAS", "2").replace("plugins: {tensorflow: []}", "plugins: {svc: []}")
    text += (
        "      template:\n        spec:\n          containers:\n"
        "            - name: c\n              env: [{name: TF_CPP_MIN_LOG_LEVEL, value: '2'}]\n"
    )
    assert checked(text) is None
    assert checked(text.replace("TF_CPP_MIN_LOG_LEVEL", "TF_CONFIG")) is not None


def test_a_job_whose_command_builds_tf_config_is_checked() -> None:
    """So that validate says it cannot check it, rather than pass it over."""
    text = JOB.replace("REPLICAS", "2").replace("plugins: {tensorflow: []}", "plugins: {svc: []}")
    built = text.replace(
        "      replicas: 2\n",
        "      replicas: 2\n      template:\n        spec:\n          containers:\n"
        "            - {name: t, args: [sh, -c, 'export TF_CONFIG=$(cat c)']}\n",
    )
    assert checked(built) == [
        ("volcano_tf_config_in_command", "spec.tasks[1].template.spec.containers[0].args[2]", 14)
    ]
    assert checked(built.replace("export TF_CONFIG=", "echo TF_CONFIG")) is None
    assert checked((DATA / "command-built.yaml").read_text()) == [
        (
            "volcano_tf_config_in_command",
            "spec.tasks[0].template.spec.containers[0].command[2]",
            28,
        ),
        (
            "volcano_tf_config_in_command",
            "spec.tasks[1].template.spec.containers[0].command[2]",
            51,
        ),
    ]


def test_a_job_whose_plugin_is_misspelled_is_checked() -> None:
    text = JOB.replace("REPLICAS", "2").replace("{tensorflow: []}", "{tensorfow: []}")
    assert checked(text) == [("volcano_unknown_plugin", "spec.plugins.tensorfow", 5)]


def test_a_text_that_cannot_be_read_is_the_file_pipelines() -> None:
    text = "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nspec: [\n"
    assert checked(text) is None


def test_each_pod_is_read_by_the_profiles_reader() -> None:
    text = JOB.replace("REPLICAS", "2").replace("name: chief", "name: ps")
    assert checked(text) == [("volcano_pod_missing_chief", "spec.tasks", 7)]
    assert checked(text, "ps") == []
