"""estconf._cross_node: what the whole-job check knows of a finding besides its nodes."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from estconf import deployment
from estconf._cross_node import CrossNode, TaskDifference, ValueGroup


def test_the_whole_job_check_names_these_records() -> None:
    assert (deployment.CrossNode, deployment.TaskDifference, deployment.ValueGroup) == (
        CrossNode,
        TaskDifference,
        ValueGroup,
    )


def test_a_record_of_no_rule_in_particular_holds_nothing() -> None:
    facts = CrossNode()
    assert (facts.profile, facts.job, facts.index) == (None, None, None)
    assert (facts.reference_nodes, facts.differences, facts.values) == ((), (), ())
    with pytest.raises(ValidationError, match="frozen"):
        facts.job = "worker"  # type: ignore[misc]


def test_the_records_are_validated_and_dump_as_data() -> None:
    facts = CrossNode(
        job="worker",
        index=1,
        reference_nodes=["a"],
        differences=[{"job": "worker", "index": 1, "reference": "w1:1", "other": None}],
    )
    assert facts.reference_nodes == ("a",)
    assert facts.differences == (
        TaskDifference(job="worker", index=1, reference="w1:1", other=None),
    )
    assert facts.model_dump(mode="json")["differences"] == [
        {"job": "worker", "index": 1, "reference": "w1:1", "other": None}
    ]
    with pytest.raises(ValidationError):
        CrossNode(index="one")


def test_a_difference_names_both_addresses_and_their_nodes() -> None:
    difference = TaskDifference(job="worker", index=2, reference="h-a:2222", other=None)
    assert difference.describe(["n1", "n3"], ["n2"]) == (
        "worker:2: h-a:2222 (n1, n3) vs no such task (n2)"
    )


def test_a_value_nodes_disagree_on_is_shown_as_json_with_its_keys_sorted() -> None:
    group = ValueGroup(value={"b": 1, "a": [2.5, None]}, nodes=("node-1", "node-2"))
    assert group.describe() == '{"a": [2.5, null], "b": 1} (node-1, node-2)'
    with pytest.raises(ValidationError, match="frozen"):
        group.nodes = ()  # type: ignore[misc]
    assert ValueGroup(value=None, nodes=("node-3",)).describe() == "not set (node-3)"
