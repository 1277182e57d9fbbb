"""The oracle, the section 6 classifier and the mutation strategies, checked without TensorFlow."""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from compat.harness import (
    Mismatch,
    Outcome,
    address_problem,
    deliberate_cluster,
    deliberate_tf_config,
    deliberate_tpu_kwargs,
    judge,
    tf_config_env,
    tf_sentence,
    unexplained_codes,
)
from compat.mutations import cluster_inputs, tf_config_texts
from estconf import ClusterSpec, TFConfig


def nothing(tf_value: Any, our_value: Any) -> None:
    pass


def differ(tf_value: Any, our_value: Any) -> None:
    raise AssertionError("differ")


class TestJudge:
    def test_both_accept_and_agree(self) -> None:
        judge("x", Outcome(value=1), Outcome(value=1), set(), nothing)

    def test_both_accept_and_differ(self) -> None:
        with pytest.raises(Mismatch, match="values differ"):
            judge("x", Outcome(value=1), Outcome(value=2), set(), differ)

    def test_estconf_accepts_what_tensorflow_rejects(self) -> None:
        with pytest.raises(Mismatch, match="estconf accepts it"):
            judge("x", Outcome(error=KeyError("k")), Outcome(value=1), set(), nothing)

    def test_estconf_rejects_under_no_rule(self) -> None:
        with pytest.raises(Mismatch, match="no section 6 rule"):
            judge("x", Outcome(value=1), Outcome(error=ValueError("no")), set(), nothing)

    def test_estconf_rejects_under_a_rule(self) -> None:
        error = _validation_error({"worker": ["host"]})
        judge("x", Outcome(value=1), Outcome(error=error), {"address"}, nothing)

    def test_estconf_reports_an_error_no_rule_explains(self) -> None:
        error = _validation_error({"worker": ["host"]})
        with pytest.raises(Mismatch, match=r"also reports \['address'\]"):
            judge("x", Outcome(value=1), Outcome(error=error), {"sparse"}, nothing)

    def test_estconf_must_raise_value_error(self) -> None:
        with pytest.raises(Mismatch, match="non-ValueError"):
            judge("x", Outcome(error=TypeError("t")), Outcome(error=TypeError("t")), set(), nothing)

    def test_message_must_repeat_tensorflow_sentence(self) -> None:
        tf = Outcome(error=ValueError("No such job in cluster: 'x'"))
        with pytest.raises(Mismatch, match="lacks TensorFlow's sentence"):
            judge("x", tf, Outcome(error=ValueError("no such job")), set(), nothing)
        judge(
            "x",
            tf,
            Outcome(error=ValueError("No such job in cluster: 'x' (jobs [])")),
            set(),
            nothing,
        )

    def test_other_tensorflow_messages_need_no_sentence(self) -> None:
        tf = Outcome(error=ValueError("invalid literal for int() with base 10: 'x'"))
        judge("x", tf, Outcome(error=ValueError("anything")), set(), nothing)


def _validation_error(cluster: Any) -> ValueError:
    try:
        ClusterSpec.model_validate(cluster)
    except ValueError as exc:
        return exc
    raise AssertionError("expected a ValidationError")


class TestSentences:
    @pytest.mark.parametrize(
        ("message", "sentence"),
        [
            (
                "worker2 is not a valid task_type in the cluster_spec:\nClusterSpec({})\n\nNote",
                "worker2 is not a valid task_type in the cluster_spec:",
            ),
            (
                "3 is not a valid task_id for task_type ps in the cluster_spec:\nC",
                "3 is not a valid task_id for task_type ps in the cluster_spec:",
            ),
            (
                "`model_dir` provided in RunConfig construct, if set, must have the same value as "
                "the model_dir in TF_CONFIG. model_dir: /a\nTF_CONFIG",
                "`model_dir` provided in RunConfig construct, if set, must have the same value as "
                "the model_dir in TF_CONFIG.",
            ),
            ("save_summary_steps should be >= 0", "save_summary_steps should be >= 0"),
            ("invalid literal for int() with base 10: 'x'", None),
        ],
    )
    def test_sentence(self, message: str, sentence: str | None) -> None:
        assert tf_sentence(ValueError(message)) == sentence


class TestClassifier:
    @pytest.mark.parametrize(
        ("cluster", "rules"),
        [
            ({"worker": ["h:1"]}, set()),
            ({"worker": {"1": "h:1"}}, set()),
            ({"worker": ["host"]}, {"address"}),
            ({"worker": ["h:1"], "ps": ["H:1"]}, {"address"}),
            ({"worker": ["[::1]:1", "[0::1]:1"]}, {"address"}),
            ({"1w": ["h:1"]}, {"job_name"}),
            ({"worker": []}, {"sparse"}),
            ({"worker": {"-1": "h:1"}}, {"sparse"}),
            ({"worker": {"1": "a:1", "01": "b:1"}}, {"sparse"}),
            ({"worker": {" 1": "a:1"}}, {"int_type"}),
            ({"worker": {1.5: "a:1"}}, {"int_type"}),
            ({"worker": {True: "a:1"}}, {"int_type"}),
            ({"worker": [b"h:1"]}, {"type"}),
            ({"worker": {"x": "h:1"}}, set()),
            ({"workers": ["h:1"], "Worker": ["h:2"], "PS": ["h:3"]}, {"job_name_near_miss"}),
            ({"trainer": ["h:1"], "tpu_worker": ["h:2"], "localhost": ["h:3"]}, set()),
            (None, set()),
        ],
    )
    def test_cluster(self, cluster: Any, rules: set[str]) -> None:
        assert deliberate_cluster(cluster) == rules

    @pytest.mark.parametrize(
        ("data", "rules"),
        [
            ({}, set()),
            ({"task": {"type": "worker", "index": "1"}}, set()),
            ({"task": {"type": "worker", "index": 1.5}}, {"int_type"}),
            ({"task": {"type": "worker", "index": True}}, {"int_type"}),
            ({"task": {"type": "worker", "index": "+1"}}, {"int_type"}),
            ({"task": {"type": "worker", "index": "x"}}, set()),
            ({"task": {"type": 5}}, {"type"}),
            ({"session_master": 5}, {"type"}),
            ({"session_master": None}, {"type"}),
            ({"environment": 5}, {"type"}),
            ({"model_dir": 0}, {"type"}),
            ({"model_dir": None}, set()),
            ({"worker": ["h:1"], "task": {"type": "worker", "index": 0}}, {"top_level_jobs"}),
            ({"worker": 5}, {"top_level_jobs"}),
            ({"workers": ["h:1"]}, {"top_level_jobs"}),
            ({"workers": 5, "job": {}, "cluster": {}, "session_master": "m"}, set()),
            (
                {
                    "cluster": {"chief": ["h:0"], "worker": {"2": "h:2"}},
                    "task": {"type": "worker", "index": 1},
                },
                {"sparse"},
            ),
            (
                {
                    "cluster": {"chief": ["h:0"], "worker": {"2": "h:2"}},
                    "task": {"type": "worker", "index": 3},
                },
                set(),
            ),
        ],
    )
    def test_tf_config(self, data: dict[str, Any], rules: set[str]) -> None:
        assert deliberate_tf_config(json.dumps(data)) == rules

    def test_duplicate_keys(self) -> None:
        assert deliberate_tf_config('{"task": {}, "task": {}}') == {"duplicate_key"}
        assert deliberate_tf_config(None) == set()
        assert deliberate_tf_config("{") == set()

    @pytest.mark.parametrize(
        "address",
        ["host", "host:", ":1", "h:65536", "h:01", "-h:1", "a..b:1", "300.1.1.1:1", "[::x]:1"],
    )
    def test_bad_addresses(self, address: str) -> None:
        assert address_problem(address)

    @pytest.mark.parametrize(
        "address", ["h:0", "h:65535", "10.0.0.1:2", "[::1]:80", "[fe80::1%eth0]:8", "a_b.c:1"]
    )
    def test_good_addresses(self, address: str) -> None:
        assert not address_problem(address)

    @pytest.mark.parametrize(
        ("dims", "rules"),
        [
            ([[1, 2]], set()),
            ([[1.0, 2]], set()),  # a whole float is an integer to estconf
            ([[1, 4]], {"invariant"}),
            ([[1.0, 4]], {"invariant"}),
            ([[1.5, 2]], {"type"}),
            ([[True, 2]], {"type"}),
            ([[0, 2]], {"value"}),
        ],
    )
    def test_partition_dims(self, dims: Any, rules: set[str]) -> None:
        kwargs = {"input_partition_dims": dims, "num_cores_per_replica": 2}
        assert deliberate_tpu_kwargs(kwargs) == rules

    def test_codes_map_to_rules(self) -> None:
        error = _validation_error({"1w": ["host"]})
        assert unexplained_codes(error, {"job_name", "address"}) == []
        assert unexplained_codes(error, {"address"}) == ["job_name"]


class TestEnvironment:
    def test_sets_and_restores(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("TF_CONFIG", "before")
        with tf_config_env("{}"):
            assert os.environ["TF_CONFIG"] == "{}"
        assert os.environ["TF_CONFIG"] == "before"
        with tf_config_env(None):
            assert "TF_CONFIG" not in os.environ
        assert os.environ["TF_CONFIG"] == "before"

    def test_restores_unset(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.delenv("TF_CONFIG", raising=False)
        with pytest.raises(RuntimeError), tf_config_env("{}"):
            raise RuntimeError
        assert "TF_CONFIG" not in os.environ


class TestStrategies:
    """The generators run, and estconf agrees with the classifier on what it generates."""

    @given(cluster_inputs())
    def test_cluster_inputs(self, cluster: Any) -> None:
        deliberate_cluster(cluster)

    @given(tf_config_texts())
    def test_tf_config_texts(self, text: str | None) -> None:
        deliberate_tf_config(text)
        with contextlib.suppress(ValueError):
            TFConfig.from_env({} if text is None else {"TF_CONFIG": text})


ROOT = Path(__file__).resolve().parents[2]
ALONE = re.compile(r"^(?:tf = )?import_tensorflow\(estimator=False\)$", re.MULTILINE)
"""A suite's import of TensorFlow without the estimator, at the top of its module."""


def makefile_words(name: str) -> list[str]:
    """The words of the Makefile variable ``name`` (``NAME := ...``, continued lines included)."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(rf"^{name} := ((?:.*\\\n)*.*)$", text, re.MULTILINE)
    assert found, f"the Makefile sets no {name}"
    return found.group(1).replace("\\\n", " ").split()


def test_the_suites_run_against_tensorflow_2_21_are_those_that_need_no_estimator() -> None:
    """``make compat`` runs against 2.21 each module that imports TensorFlow alone, and no other."""
    alone = sorted(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests" / "compat").glob("test_*.py")
        if ALONE.search(path.read_text(encoding="utf-8"))
    )
    assert alone, "no suite imports TensorFlow without the estimator"
    assert sorted(makefile_words("TF221_SUITES")) == alone
