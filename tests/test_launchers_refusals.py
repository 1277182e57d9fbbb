"""estconf.launchers.refusals: a reader's refusal of a pod's TF_CONFIG, split into problems."""

from __future__ import annotations

import re
from typing import Any

import pytest

from estconf.launchers.refusals import MAX_MESSAGE, Problem, problems, refused_as_written, shorten
from estconf.profiles.registry import REGISTRY, Profile

ESTIMATOR = REGISTRY[Profile.ESTIMATOR].read
NO_CHIEF = {"cluster": {"worker": ["w:1"]}, "task": {"type": "worker", "index": 0}}


def refusal(tf_config: dict[str, Any], profile: str = "estimator") -> ValueError:
    with pytest.raises(ValueError) as caught:
        REGISTRY[Profile(profile)].read(tf_config)
    return caught.value


class TestShorten:
    def test_a_message_of_the_most_characters_is_kept_whole(self) -> None:
        assert shorten("x" * MAX_MESSAGE) == "x" * MAX_MESSAGE

    def test_the_most_characters_are_600(self) -> None:
        assert shorten("x" * 601) == "x" * 300 + " [...] " + "x" * 200

    def test_a_longer_message_keeps_its_start_and_its_end(self) -> None:
        message = "a" * 300 + "b" * 101 + "c" * 200
        assert shorten(message) == "a" * 300 + " [...] " + "c" * 200


class TestProblems:
    def test_each_error_of_a_validation_error_is_a_problem(self) -> None:
        [problem] = problems(refusal(NO_CHIEF))
        assert problem.code == "missing_chief"
        assert problem.job == ""  # the whole cluster
        assert problem.message == 'If "cluster" is set in TF_CONFIG, it must have one "chief" node.'

    def test_an_error_of_a_job_of_the_cluster_points_at_that_job(self) -> None:
        two_chiefs = {"cluster": {"chief": ["c:1", "d:1"]}, "task": {"type": "chief", "index": 0}}
        [problem] = problems(refusal(two_chiefs))
        assert (problem.code, problem.job) == ("multiple_chiefs", "chief")

    def test_a_plain_value_error_is_refused_with_its_own_code_only_when_asked(self) -> None:
        class Coded(ValueError):
            code = "json_invalid"

        assert problems(Coded("bad")) == [Problem("tf_config_refused", "bad", None)]
        assert problems(Coded("bad"), own_code=True) == [Problem("json_invalid", "bad", None)]
        assert problems(ValueError("bad"), own_code=True) == [
            Problem("tf_config_refused", "bad", None)
        ]

    def test_a_message_naming_another_task_points_at_its_job(self) -> None:
        other = re.compile(r"task ([^:\s]+):\d+ of this cluster")
        found = problems(ValueError("task ps:0 of this cluster is down"), other_task=other)
        assert found == [Problem("tf_config_refused", "task ps:0 of this cluster is down", "ps")]
        assert problems(ValueError("task ps:0 of this cluster"))[0].job is None


class TestRefusedAsWritten:
    def test_each_problem_is_a_finding_at_the_value(self) -> None:
        import json

        at = ("spec", "env", 0, "value")
        [finding] = refused_as_written(
            json.dumps(NO_CHIEF), ESTIMATOR, at, prefix="tfjob_", lead="refused"
        )
        assert (finding.code, finding.path) == ("tfjob_missing_chief", "spec.env[0].value")
        assert finding.message.startswith("refused: ")

    def test_a_value_that_is_no_object_is_refused(self) -> None:
        [finding] = refused_as_written("[1]", ESTIMATOR, ("v",), prefix="tfjob_", lead="refused")
        assert (finding.code, finding.message) == (
            "tfjob_tf_config_refused",
            "refused: TF_CONFIG is not a JSON object",
        )

    def test_an_accepted_value_has_no_finding(self) -> None:
        mwms = REGISTRY[Profile.MWMS].read
        assert refused_as_written("{}", mwms, ("v",), prefix="x_", lead="") == []
