"""estconf.launchers.cluster.files: the cluster ``tf-config`` makes a TF_CONFIG of for each task."""

from __future__ import annotations

from pathlib import Path

import pytest

from estconf.io.checks import Limits
from estconf.io.errors import ConfigFileError
from estconf.io.sources import InputError, NotThisInput
from estconf.launchers.cluster.files import (
    TaskTFConfigs,
    read_cluster_file,
    task_tf_configs,
    tasks_of,
)
from estconf.reports.launchers import write_notes
from values import refuses_assignment


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_cluster_alone(tmp_path: Path) -> None:
    name = write(tmp_path, "c.yaml", "chief: [c:1]\nworker: [w:1, w:2]\n")
    assert read_cluster_file(name) == {"cluster": {"chief": ["c:1"], "worker": ["w:1", "w:2"]}}


def test_a_tf_config_loses_its_task(tmp_path: Path) -> None:
    name = write(
        tmp_path,
        "t.json",
        '{"cluster": {"chief": ["c:1"]}, "task": {"type": "chief", "index": 0}, '
        '"rpc_layer": "grpc"}',
    )
    assert read_cluster_file(name) == {"cluster": {"chief": ["c:1"]}, "rpc_layer": "grpc"}


def test_a_value_no_config_may_hold_is_refused(tmp_path: Path) -> None:
    name = write(tmp_path, "c.json", '{"chief": ["c:1"], "x": NaN}')
    with pytest.raises(ConfigFileError):
        read_cluster_file(name)


def test_a_tfjob_is_given_as_one(tmp_path: Path) -> None:
    name = write(tmp_path, "j.yaml", "apiVersion: kubeflow.org/v1\nkind: TFJob\nspec: {}\n")
    with pytest.raises(InputError, match="give it as --tfjob"):
        read_cluster_file(name)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[1]\n", r"holds an object \(a mapping\) at the top level"),
        ("apiVersion: v1\nkind: Service\nmetadata: {name: s}\n", "not a cluster file"),
    ],
)
def test_what_is_no_cluster_file(tmp_path: Path, text: str, said: str) -> None:
    name = write(tmp_path, "c.yaml", text)
    with pytest.raises(NotThisInput, match=said):
        read_cluster_file(name)


def test_tasks_of_a_cluster() -> None:
    cluster = {"chief": ["c:1"], "worker": {"3": "w:3", "1": "w:1", "x": "w:x"}, "ps": "p"}
    assert tasks_of(cluster) == [("chief", 0), ("worker", -1), ("worker", 1), ("worker", 3)]
    assert tasks_of(["not", "a", "cluster"]) == []


class TestTaskTFConfigs:
    """Each task's TF_CONFIG, made from the file's and checked."""

    CLUSTER = {"cluster": {"chief": ["c:1"], "worker": ["w:1", "w:2"]}}

    def test_each_task(self) -> None:
        found = task_tf_configs("c.yaml", self.CLUSTER, tasks_of(self.CLUSTER["cluster"]))
        assert [task for task, _ in found.outputs] == [("chief", 0), ("worker", 0), ("worker", 1)]
        assert (found.errors, found.others, write_notes(found.notes())) == ([], (), "")

    def test_the_warnings_and_notes_of_its_addresses_are_said_once_after_the_errors(
        self,
    ) -> None:
        local = {"cluster": {"chief": ["localhost:1"], "worker": ["localhost:0", "w:2"]}}
        found = task_tf_configs("c.yaml", local, tasks_of(local["cluster"]))
        assert (len(found.outputs), found.errors) == (3, [])
        assert [(f.code, f.severity, f.path, f.line) for f in found.findings] == [
            ("loopback_address", "note", "cluster.chief[0]", None),
            ("port_zero", "warning", "cluster.worker[0]", None),
        ]
        said = write_notes(found.notes()).splitlines()
        assert said[0].startswith("c.yaml: cluster.chief[0]: note: chief:0 and worker:0 are at")
        assert said[-1] == "1 warning, 1 note in 1 of 1 file"
        broken = {"cluster": {"worker": ["localhost:1", "localhost:0"]}}
        found = task_tf_configs("c.yaml", broken, tasks_of(broken["cluster"]))
        codes = [f.code for f in found.notes().findings]
        assert codes == ["missing_chief", "loopback_address", "port_zero"]

    def test_a_cluster_the_estimator_refuses_names_the_profiles_that_read_it(self) -> None:
        workers = {"cluster": {"worker": ["w:1", "w:2"]}}
        found = task_tf_configs("c.yaml", workers, tasks_of(workers["cluster"]))
        assert found.outputs == []
        assert {error.code for error in found.errors} == {"missing_chief"}
        assert all(error.line is None for error in found.errors)
        assert "mwms" in found.others
        said = write_notes(found.notes()).splitlines()
        assert said[0].startswith("c.yaml (worker:0): cluster: ")
        assert said[-2:] == [
            "1 error in 1 of 1 file",
            "hint: tf.estimator refuses this cluster; --profile mwms or --profile server reads "
            "it, if that is the reader",
        ]

    def test_a_task_the_estimator_refuses_leaves_the_tasks_after_it(self) -> None:
        """Each task is checked on its own: one refused still leaves the later tasks' TF_CONFIG."""
        with_master = {"cluster": {"master": ["m:1"], "evaluator": ["e:1"], "worker": ["w:1"]}}
        found = task_tf_configs("c.yaml", with_master, tasks_of(with_master["cluster"]))
        assert [task for task, _ in found.outputs] == [("master", 0), ("worker", 0)]
        assert [(error.file, error.code) for error in found.errors] == [
            ("c.yaml (evaluator:0)", "evaluator_with_master")
        ]

    def test_a_tf_config_past_the_limits_names_no_other_profile(self) -> None:
        """A TF_CONFIG refused for its size breaks no reader's rule: no other profile is named."""
        found = task_tf_configs(
            "c.yaml", self.CLUSTER, tasks_of(self.CLUSTER["cluster"]), limits=Limits(max_size=10)
        )
        assert found.outputs == []
        assert [(error.file, error.code) for error in found.errors] == [
            ("c.yaml (chief:0)", "size")
        ]
        assert found.others == ()
        assert write_notes(found.notes()).splitlines()[-1] == "1 error in 1 of 1 file"

    def test_another_profile_checks_the_first_task(self) -> None:
        workers = {"cluster": {"worker": ["w:1", "w:2"]}}
        found = task_tf_configs("c.yaml", workers, tasks_of(workers["cluster"]), "mwms")
        assert (len(found.outputs), found.errors) == (2, [])

    def test_another_profile_refuses_the_cluster_once_under_the_first_task(self) -> None:
        with_ps = {"cluster": {"worker": ["w:1", "w:2"], "ps": ["p:1"]}}
        found = task_tf_configs("c.yaml", with_ps, tasks_of(with_ps["cluster"]), "mwms")
        said = write_notes(found.notes()).splitlines()
        assert said == [
            "c.yaml (worker:0): cluster.ps[0]: task ps:0 of this cluster: There is no id for "
            "task_type 'ps'",
            "hint: MultiWorkerMirroredStrategy takes no ps: drop the ps job, or check the job "
            "under the ps profile (--profile ps)",
            "1 error in 1 of 1 file",
        ]

    @pytest.mark.parametrize(
        ("template", "said"),
        [
            ({"cluster": {}}, "the cluster has no tasks"),
            ({"cluster": {"a": [1]}, "x": {1, 2}}, "JSON"),
        ],
    )
    def test_what_makes_no_tf_config(self, template: dict[str, object], said: str) -> None:
        tasks = tasks_of(template["cluster"])
        with pytest.raises(NotThisInput, match=said):
            task_tf_configs("c.yaml", template, tasks)


def test_the_tf_configs_of_a_cluster_file_cannot_be_changed() -> None:
    """TaskTFConfigs refuses assignment; it holds lists, so it is not hashed."""
    refuses_assignment(TaskTFConfigs([(("chief", 0), "{}")]))


def test_a_profile_named_at_run_time_reads_as_its_literal(tmp_path: Path) -> None:
    """``--profile estimator`` read from the command line is the estimator, as the default is."""
    template = {"cluster": {"chief": ["c:1"], "worker": ["w:bad"]}}
    tasks = [("chief", 0)]
    given = "".join(["estim", "ator"])  # a new string, as argv hands it over
    default = task_tf_configs("c.json", template, tasks)
    assert task_tf_configs("c.json", template, tasks, profile=given) == default
    assert [(error.code, error.path) for error in default.errors] == [
        ("address", "cluster.worker[0]")
    ]
