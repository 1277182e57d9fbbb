"""estconf.ClusterSpec against tf.train.ClusterSpec: every method, dense and sparse, errors.

Run against TensorFlow 2.15 and 2.21 (``server_lib.py`` is the same in both).
"""

from __future__ import annotations

import copy
import functools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compat.harness import (
    attempt,
    deliberate_cluster,
    import_tensorflow,
    judge,
    same,
    same_cluster,
    tf_sentence,
)
from compat.mutations import cluster_inputs
from estconf import ClusterSpec

from strategies import clusters

tf = import_tensorflow(estimator=False)

pytestmark = pytest.mark.compat

DOC_CLUSTERS: list[Any] = [
    # tf.train.ClusterSpec's docstring
    {
        "worker": [
            "worker0.example.com:2222",
            "worker1.example.com:2222",
            "worker2.example.com:2222",
        ],
        "ps": ["ps0.example.com:2222", "ps1.example.com:2222"],
    },
    {
        "worker": {1: "worker1.example.com:2222"},
        "ps": ["ps0.example.com:2222", "ps1.example.com:2222"],
    },
    # tf.estimator.RunConfig's docstring
    {
        "chief": ["host0:2222"],
        "ps": ["host1:2222", "host2:2222"],
        "worker": ["host3:2222", "host4:2222", "host5:2222"],
    },
]

EDGE_CLUSTERS: list[Any] = [
    {},
    {"worker": ("a:1", "b:2")},
    {"worker": {"1": "a:1", "0": "b:2"}},
    {"worker": {"3": "a:1", 1: "b:2"}},
    {"worker": {str(2**31 - 1): "a:1"}},
    {"b": ["h:1"], "a": ["h:2"], "B": ["h:3"]},
    {"w": {"0": "a:1"}, "v": {"2": "b:1", "5": "c:1"}},
    # rejected by TensorFlow
    None,
    [],
    "worker",
    {"worker": "h:1"},
    {"worker": None},
    {"worker": 5},
    {"worker": [5]},
    {"worker": [None]},
    {1: ["h:1"]},
    {"worker": {"x": "h:1"}},
    {"worker": {"1.5": "h:1"}},
    {"worker": {str(2**31): "h:1"}},
    {"worker": {-(2**31) - 1: "h:1"}},
    # accepted by TensorFlow, rejected by estconf under section 6
    {"worker": []},
    {"worker": {}},
    {"worker": {"-1": "h:1"}},
    {"worker": {"1": "a:1", "01": "b:1"}},
    {"worker": {" 1": "a:1"}},
    {"worker": {"\u0661": "a:1"}},
    {"worker": {1.5: "a:1"}},
    {"worker": {True: "a:1"}},
    {"worker": ["host"]},
    {"worker": ["h:1", "h:1"]},
    {"worker": ["h:1"], "ps": ["H:1"]},
    {"worker": [b"h:1"]},
    {b"worker": ["h:1"]},
    {"1w": ["h:1"]},
    {"": ["h:1"]},
]


def compare_specs(tf_spec: Any, ours: ClusterSpec) -> None:
    """Every public method of the two specs, including the errors they raise."""
    same_cluster("cluster", tf_spec, ours)
    same("repr", repr(tf_spec), repr(ours))
    # equality both ways, and with each other's as_dict()
    same("ours == tf", ours == tf_spec, True)
    same("tf == ours", tf_spec == ours, True)
    same("ours != tf", ours != tf_spec, False)
    same("ours == ClusterSpec(tf.as_dict())", ours == ClusterSpec(tf_spec.as_dict()), True)
    same(
        "tf == tf.ClusterSpec(ours.as_dict())",
        tf_spec == tf.train.ClusterSpec(ours.as_dict()),
        True,
    )
    same("ClusterSpec(tf_spec)", ClusterSpec.model_validate(tf_spec) == ours, True)
    same("tf.ClusterSpec(tf_spec)", tf.train.ClusterSpec(tf_spec) == tf_spec, True)
    # errors of the lookups
    probes: list[tuple[str, tuple[Any, ...]]] = [
        ("num_tasks", ("no_such_job",)),
        ("task_indices", ("no_such_job",)),
        ("job_tasks", ("no_such_job",)),
        ("task_address", ("no_such_job", 0)),
    ]
    for job in tf_spec.jobs:
        indices = tf_spec.task_indices(job)
        holes = [i for i in (0, 1, 2, indices[-1] - 1, indices[-1] + 1) if i not in indices]
        probes += [("task_address", (job, i)) for i in holes]
        probes += [("task_address", (job, -1)), ("task_address", (job, str(indices[0])))]
        probes += [("task_address", (job, True)), ("task_address", (job, float(indices[0])))]
    for method, args in probes:
        tf_out = attempt(functools.partial(getattr(tf_spec, method), *args))
        our_out = attempt(functools.partial(getattr(ours, method), *args))
        judge(
            f"{method}{args!r} on {ours!r}",
            tf_out,
            our_out,
            set(),
            functools.partial(same, method),
        )


def check_cluster(cluster: Any) -> None:
    tf_out = attempt(lambda: tf.train.ClusterSpec(copy.deepcopy(cluster)))
    our_out = attempt(lambda: ClusterSpec.model_validate(copy.deepcopy(cluster)))
    judge(f"cluster {cluster!r}", tf_out, our_out, deliberate_cluster(cluster), compare_specs)


@pytest.mark.parametrize("cluster", DOC_CLUSTERS + EDGE_CLUSTERS, ids=repr)
def test_table(cluster: Any) -> None:
    check_cluster(cluster)


@given(cluster_inputs())
def test_generated(cluster: Any) -> None:
    check_cluster(cluster)


def _variant(cluster: dict[str, Any], draw: st.DrawFn) -> dict[str, Any]:
    """The same cluster written another way, or a slightly different one."""
    result: dict[str, Any] = {}
    names = list(cluster)
    for job in draw(st.permutations(names)):
        tasks = cluster[job]
        pairs = list(tasks.items()) if isinstance(tasks, dict) else list(enumerate(tasks))
        form = draw(st.sampled_from(["list", "int", "str", "same"]))
        dense = [int(k) for k, _ in pairs] == list(range(len(pairs)))
        if form == "list" and dense:
            result[job] = [a for _, a in pairs]
        elif form == "int":
            result[job] = {int(k): a for k, a in pairs}
        elif form == "str":
            result[job] = {str(k): a for k, a in pairs}
        else:
            result[job] = copy.deepcopy(tasks)
    change = draw(st.sampled_from(["none", "none", "drop", "address", "index"]))
    if change == "drop" and names:
        del result[draw(st.sampled_from(names))]
    elif change in ("address", "index") and names:
        job = draw(st.sampled_from(names))
        tasks = result[job]
        if isinstance(tasks, list):
            tasks = result[job] = dict(enumerate(tasks))
        key = next(iter(tasks))
        address = tasks.pop(key)
        if change == "address":
            tasks[key] = "changed.example.com:1"
        else:
            tasks[int(key) + 100] = address
    return result


@st.composite
def cluster_pairs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    cluster = draw(clusters())
    return cluster, _variant(cluster, draw)


@given(cluster_pairs())
def test_equality(pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    a, b = pair
    tf_a, tf_b = tf.train.ClusterSpec(a), tf.train.ClusterSpec(b)
    ours_a, ours_b = ClusterSpec(a), ClusterSpec(b)
    same(f"{a!r} == {b!r}", tf_a == tf_b, ours_a == ours_b)
    same(f"{a!r} != {b!r}", tf_a != tf_b, ours_a != ours_b)
    if tf_a == b:  # TensorFlow is equal to a dict only in its own sparse form
        same(f"ClusterSpec({a!r}) == {b!r}", ours_a == b, True)


def test_equality_with_a_dict_in_list_form_is_a_tensorflow_quirk() -> None:
    cluster = {"worker": ["h:1"]}
    assert (tf.train.ClusterSpec(cluster) == cluster) is False
    assert (ClusterSpec(cluster) == cluster) is True


def test_sentence_table_matches_tensorflow_messages() -> None:
    out = attempt(lambda: tf.train.ClusterSpec({"w": "h:1"}))
    assert out.error is not None
    assert tf_sentence(out.error) == (
        "The tasks for job 'w' must be a list or a dictionary from integers to strings."
    )
