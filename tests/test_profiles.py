"""estconf.profiles: profiles and the checks of a whole cluster."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from estconf import ClusterSpec, RunConfig, TFConfig, profiles
from estconf.distribute import MultiWorkerConfig, ParameterServerConfig
from estconf.launchers.cluster.files import task_tf_configs, tasks_of
from estconf.profiles import (
    ESTIMATOR_VALUES,
    READERS,
    Profile,
    check_cluster,
    check_profile,
    explain,
)
from estconf.profiles.registry import ProfileEntry
from values import refuses_assignment

from strategies import cluster_files, distribute_tf_configs

WORKERS = {"worker": ["w:0", "w:1"]}
WITH_PS = {"worker": ["w:0", "w:1"], "ps": ["p:0"]}
ESTIMATOR = {"chief": ["c:0"], "worker": ["w:0"], "ps": ["p:0"]}


def node(cluster: dict[str, Any], task_type: str = "worker", index: int = 0) -> dict[str, Any]:
    return {"cluster": cluster, "task": {"type": task_type, "index": index}}


def errors(tf_config: Any, profile: Profile | str) -> list[tuple[str, tuple[Any, ...], str]]:
    with pytest.raises(ValidationError) as info:
        check_profile(tf_config, profile)
    return [(e["type"], e["loc"], e["msg"]) for e in info.value.errors()]


class TestReaders:
    def test_estimator_is_the_default(self) -> None:
        assert isinstance(check_profile(node(ESTIMATOR)), RunConfig)

    @pytest.mark.parametrize(
        ("profile", "cluster", "model"),
        [("mwms", WORKERS, MultiWorkerConfig), (Profile.PS, WITH_PS, ParameterServerConfig)],
    )
    def test_each_profile_returns_its_reader(
        self, profile: str, cluster: dict[str, Any], model: type[Any]
    ) -> None:
        assert isinstance(check_profile(TFConfig.model_validate(node(cluster)), profile), model)

    def test_unknown_profile(self) -> None:
        with pytest.raises(ValueError, match="'tf' is not a valid Profile"):
            check_profile({}, "tf")

    def test_errors_are_located_in_the_tf_config(self) -> None:
        assert errors(node(WORKERS, index=5), "mwms") == [
            (
                "task_id_out_of_range",
                ("task", "index"),
                "The `task_id` 5 exceeds the maximum id of worker.",
            )
        ]


class TestEveryTaskOfTheCluster:
    def test_ps_tasks_cannot_start_under_mwms(self) -> None:
        assert errors(node(WITH_PS), "mwms") == [
            (
                "no_id_for_task_type",
                ("cluster", "ps", 0),
                "task ps:0 of this cluster: There is no id for task_type 'ps'",
            )
        ]

    def test_a_refused_task_of_the_cluster_names_its_fix(self) -> None:
        """The reader's hint reaches the caller of check_profile, beside the task's sentence."""
        with pytest.raises(ValidationError) as info:
            check_profile(node(WITH_PS), "mwms")
        [error] = info.value.errors()
        assert error["msg"] == "task ps:0 of this cluster: There is no id for task_type 'ps'"
        assert error.get("ctx", {}).get("hint") == (
            "MultiWorkerMirroredStrategy takes no ps: drop the ps job, or check the job under "
            "the ps profile (--profile ps)"
        )

    def test_the_estimators_fix_in_its_sentence_is_not_said_again(self) -> None:
        with pytest.raises(ValidationError) as info:
            check_profile(node(WORKERS), "estimator")
        [error] = info.value.errors()
        assert "Fix: move task worker:0" in error["msg"]
        assert "hint" not in error.get("ctx", {})

    def test_each_failing_task_is_reported(self) -> None:
        found = errors(node({"worker": {"0": "w:0", "3": "w:3"}, "ps": ["p:0", "p:1"]}), "mwms")
        assert [loc for _, loc, _ in found] == [
            ("cluster", "worker", 3),
            ("cluster", "ps", 0),
            ("cluster", "ps", 1),
        ]
        assert (
            found[0][2]
            == "task worker:3 of this cluster: The `task_id` 3 exceeds the maximum id of worker."
        )

    def test_the_node_is_reported_first_and_alone(self) -> None:
        assert [code for code, _, _ in errors(node(WITH_PS, "ps"), "mwms")] == [
            "no_id_for_task_type"
        ]

    def test_an_evaluator_outside_the_cluster_checks_the_cluster(self) -> None:
        assert errors(node(WITH_PS, "evaluator"), "mwms")[0][0] == "missing_evaluator_job"
        check_profile(node(ESTIMATOR, "evaluator"), "estimator")

    def test_valid_everywhere(self) -> None:
        cluster = {"chief": ["c:0"], "worker": ["w:0"], "evaluator": ["e:0"]}
        for task_type in cluster:
            check_profile(node(cluster, task_type), "mwms")


def cluster_errors(
    cluster: dict[str, Any], profile: Profile | str = "estimator"
) -> list[tuple[str, tuple[Any, ...], str]]:
    with pytest.raises(ValidationError) as info:
        check_cluster(cluster, profile)
    return [(e["type"], e["loc"], e["msg"]) for e in info.value.errors()]


class TestCheckCluster:
    """A cluster alone, checked as ``tf-config`` checks it: each error placed in the cluster."""

    def test_a_valid_cluster(self) -> None:
        check_cluster(ESTIMATOR)
        check_cluster(ClusterSpec(WORKERS), "mwms")
        check_cluster({"trainer": ["t:0"]}, Profile.SERVER)

    def test_an_error_of_the_cluster_is_at_the_cluster(self) -> None:
        [(code, loc, message)] = cluster_errors(WORKERS)
        assert (code, loc) == ("missing_chief", ())
        assert message.endswith("(this cluster is valid for --profile mwms or --profile server)")

    def test_another_tasks_error_is_at_that_task(self) -> None:
        assert cluster_errors(ESTIMATOR, "mwms") == [
            (
                "no_id_for_task_type",
                ("ps", 0),
                "task ps:0 of this cluster: There is no id for task_type 'ps'",
            )
        ]
        [(code, loc, message)] = cluster_errors({"master": ["m:0"], "evaluator": ["e:0"]})
        assert (code, loc) == ("evaluator_with_master", ("evaluator", 0))
        assert message.startswith("task evaluator:0 of this cluster: If `master` node exists")

    def test_the_first_tasks_own_error_is_at_that_task_too(self) -> None:
        assert cluster_errors({"ps": ["p:0"], "worker": ["w:0"]}, Profile.MWMS) == [
            (
                "no_id_for_task_type",
                ("ps", 0),
                "task ps:0 of this cluster: There is no id for task_type 'ps'",
            )
        ]

    def test_a_cluster_without_a_task(self) -> None:
        with pytest.raises(ValidationError) as info:
            check_cluster({}, "server")
        [error] = info.value.errors()
        assert (error["type"], error["loc"]) == ("cluster_no_tasks", ())
        assert error["msg"].startswith("the cluster has no tasks")
        assert error["ctx"]["hint"].startswith("name each job and its tasks' addresses")

    @given(cluster=cluster_files(), profile=st.sampled_from(list(Profile)))
    def test_it_refuses_what_tf_config_cluster_refuses(
        self, cluster: dict[str, Any], profile: Profile
    ) -> None:
        """The same verdict and the same rules broken as ``estconf tf-config cluster``'s.

        Its warnings and notes (a task at port 0) refuse nothing.
        """
        made = task_tf_configs("c.yaml", {"cluster": cluster}, tasks_of(cluster), profile.value)
        try:
            check_cluster(cluster, profile)
        except ValidationError as refused:
            codes = {error["type"] for error in refused.errors()}
        else:
            codes = set()
        assert codes == {error.code for error in made.errors if error.severity == "error"}


class TestLinearInTheTasks:
    """A profile reads one task of each kind, not every task: 20,000 workers cost a few reads."""

    @pytest.fixture
    def reads(self, monkeypatch: pytest.MonkeyPatch) -> list[Profile]:
        done: list[Profile] = []
        read = ProfileEntry.read

        def counted(entry: ProfileEntry, tf_config: Any) -> Any:
            done.append(entry.profile)
            return read(entry, tf_config)

        monkeypatch.setattr(ProfileEntry, "read", counted)
        return done

    @pytest.mark.parametrize(
        ("profile", "jobs"),
        [
            ("estimator", {"chief": 1, "worker": 20_000, "ps": 2}),
            ("ps", {"chief": 1, "worker": 20_000, "ps": 2}),
            ("mwms", {"chief": 1, "worker": 20_000}),
        ],
    )
    def test_tasks_that_pass_are_read_once_per_job(
        self, reads: list[Profile], profile: str, jobs: dict[str, int]
    ) -> None:
        cluster = {job: [f"{job}{i}:2222" for i in range(size)] for job, size in jobs.items()}
        check_profile(node(cluster, "chief"), profile)
        assert len(reads) == 1 + len(jobs)

    def test_jobs_no_reader_knows_are_read_alike(self, reads: list[Profile]) -> None:
        cluster = {"chief": ["c:0"], **{f"job{i}": [f"h{i}:1"] for i in range(5_000)}}
        check_profile(node(cluster, "chief"), "estimator")
        assert len(reads) == 3

    def test_each_refused_task_is_read_on_its_own(self, reads: list[Profile]) -> None:
        tasks = 20_000
        cluster = {"worker": {str(2 * i): f"w{i}:1" for i in range(tasks)}}
        found = errors(node(cluster), "mwms")
        assert len(found) == tasks // 2  # the indices from 20,000 on: beyond the 20,000 tasks
        assert found[-1][2] == (
            "task worker:39998 of this cluster: The `task_id` 39998 exceeds the maximum id of "
            "worker."
        )
        assert len(reads) == 1 + 1 + tasks // 2


class TestCrossProfileHint:
    def test_estimator_refusal_names_the_profile_that_accepts(self) -> None:
        [(code, loc, msg)] = errors(node(WORKERS), "estimator")
        assert (code, loc) == ("missing_chief", ("cluster",))
        assert msg == (
            'If "cluster" is set in TF_CONFIG, it must have one "chief" node. Fix: move task '
            'worker:0 into a job "chief" of its own. (this cluster is valid for --profile mwms '
            "or --profile server)"
        )

    def test_a_tf_config_file_refused_with_the_hint_keeps_the_input(self) -> None:
        """The error that names the other profiles still holds the value it is about."""
        with pytest.raises(ValidationError) as info:
            profiles.check_tf_config_file(node(WORKERS))
        [error] = info.value.errors()
        assert (error["type"], error["loc"], error["input"]) == (
            "missing_chief",
            ("cluster",),
            WORKERS,
        )
        assert error["msg"].endswith(
            "(this cluster is valid for --profile mwms or --profile server)"
        )

    def test_both(self) -> None:
        cluster = {"chief": ["c:0", "c:1"], "worker": ["w:0"], "ps": ["p:0"]}
        with pytest.raises(ValidationError):
            check_profile(node(cluster), "ps")
        cluster = {"worker": ["w:0"], "ps": ["p:0"]}
        assert errors(node(cluster), "estimator")[0][2].endswith(
            "(this cluster is valid for --profile ps or --profile server)"
        )

    def test_no_hint_when_no_profile_accepts(self) -> None:
        assert "valid for" not in errors(node({"worker": ["w:0"]}, "ps"), "estimator")[0][2]

    def test_only_the_estimator_gives_hints(self) -> None:
        assert "valid for" not in errors(node(ESTIMATOR, "ps"), "mwms")[0][2]


class TestExplain:
    def test_side_by_side(self) -> None:
        views = {view.profile: view for view in explain(node(WORKERS, index=1))}
        assert list(views) == list(Profile)
        estimator_error, mwms_values = views[Profile.ESTIMATOR].error, views[Profile.MWMS].values
        assert estimator_error is not None
        assert estimator_error["type"] == "missing_chief"
        assert views[Profile.ESTIMATOR].values is None
        assert mwms_values is not None
        assert mwms_values["id_in_cluster"] == 1
        assert views[Profile.PS].error == {
            "type": "missing_ps",
            "loc": ["cluster"],
            "msg": "There must be at least one ps.",
        }
        assert all(view.reader == READERS[view.profile] for view in views.values())

    def test_estimator_values(self) -> None:
        views = explain(node(ESTIMATOR))
        assert views[0].values == {
            "cluster_spec": ESTIMATOR,
            "task_type": "worker",
            "task_id": 0,
            "master": "grpc://w:0",
            "evaluation_master": "",
            "is_chief": False,
            "num_ps_replicas": 1,
            "num_worker_replicas": 2,
            "global_id_in_cluster": 1,
        }
        assert views[2].values is not None
        assert views[2].values["role"] == "worker"

    def test_the_estimator_shows_every_property_it_derives(self) -> None:
        """Every derived property of RunConfig but ``service``, TF_CONFIG's own passed on."""
        derived = tuple(name for name in RunConfig.model_computed_fields if name != "service")
        assert derived == ESTIMATOR_VALUES

    def test_an_unreadable_tf_config_is_every_readers_error(self) -> None:
        views = explain({"task": {"index": "x"}})
        assert {view.error["type"] for view in views if view.error} == {"int_type"}


@given(distribute_tf_configs())
def test_a_profile_accepts_what_its_reader_accepts_for_every_task(data: dict[str, Any]) -> None:
    for view in explain(data):
        if view.values is None:
            continue
        tf_config = TFConfig.model_validate(data)
        for job in tf_config.cluster.jobs:
            for index in tf_config.cluster.task_indices(job):
                check_profile(node(tf_config.cluster.root, job, index), view.profile)


_NAMED = re.compile(r"\(this cluster is valid for ((?:--profile \w+(?: or )?)+)\)")


def named_profiles(message: str) -> list[str]:
    """The profiles an error's hint names as accepting the TF_CONFIG."""
    found = _NAMED.search(message)
    return [] if found is None else re.findall(r"--profile (\w+)", found[1])


@given(distribute_tf_configs())
def test_a_profile_an_error_names_accepts_the_same_input(data: dict[str, Any]) -> None:
    try:
        check_profile(data, "estimator")
    except ValidationError as refused:
        named = {p for error in refused.errors() for p in named_profiles(error["msg"])}
    else:
        return
    for profile in named:
        check_profile(data, profile)


def test_named_profiles_are_read_from_the_hint() -> None:
    message = "... (this cluster is valid for --profile ps or --profile server)"
    assert named_profiles(message) == ["ps", "server"]


def test_dir_lists_every_public_name_including_those_imported_on_first_use() -> None:
    names = dir(profiles)
    assert names == sorted(names)
    assert set(profiles.__all__) <= set(names)


def test_a_readers_view_cannot_be_changed() -> None:
    """A view refuses assignment; it holds its values or error as a dict, so it is not hashed."""
    for view in explain(node(ESTIMATOR)):
        refuses_assignment(view)
