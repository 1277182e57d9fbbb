"""launchers.kubeflow.size: the size of a TFJob's TF_CONFIGs, worked out without writing them."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from estconf.kubeflow import Operator, Release, predict, tfjob_for_replicas
from estconf.launchers.kubeflow.size import TFConfigSize, digits_below, tf_config_size
from values import is_a_value

TYPES = st.sampled_from(
    ["Chief", "Worker", "worker", "PS", "Evaluator", "Master", "Tr'ainer", "A<&"]
)
NAMES = st.sampled_from(["j", "mnist", "o'neil", "a<b>&c", "é-ü"])


def written(prediction_pods: list[tuple[str, int, str, str]]) -> TFConfigSize:
    return TFConfigSize(
        pods=len(prediction_pods),
        text_bytes=sum(len(text.encode()) for _, _, text, _ in prediction_pods),
        quotes=sum(text.count("'") for _, _, text, _ in prediction_pods),
        label_bytes=sum(len(f"{t}:{i}".encode()) for t, i, _, _ in prediction_pods),
        name_bytes=sum(len(name.encode()) for _, _, _, name in prediction_pods),
    )


@settings(max_examples=150, deadline=None)
@given(
    replicas=st.dictionaries(TYPES, st.integers(0, 13), min_size=1, max_size=4),
    name=NAMES,
    namespace=st.sampled_from(["default", "ml", "q'ns", "ü"]),
    domain=st.sampled_from([None, "cluster.local", "x'y"]),
    dynamic=st.booleans(),
    release=st.sampled_from(["v1.9.0", "v1.6.0"]),
    task=st.none()
    | st.tuples(st.sampled_from(["worker", "ps", "chief", "tr'ainer"]), st.integers(0, 14)),
)
def test_the_size_is_that_of_the_texts_predict_writes(
    replicas: dict[str, int],
    name: str,
    namespace: str,
    domain: str | None,
    dynamic: bool,
    release: Release,
    task: tuple[str, int] | None,
) -> None:
    tfjob = tfjob_for_replicas(name, replicas, namespace=namespace, enable_dynamic_worker=dynamic)
    if tfjob.ambiguous_replica_types:
        return
    operator = Operator(release=release, cluster_domain=domain)
    prediction = predict(tfjob, operator=operator)
    pods = [
        (pod.task_type, pod.index, pod.tf_config, pod.name)
        for pod in prediction.pods
        if pod.tf_config is not None and task in (None, (pod.task_type, pod.index))
    ]
    assert tf_config_size(tfjob, operator=operator, task=task) == written(pods)


def test_digits_below() -> None:
    for count in (0, 1, 9, 10, 11, 99, 100, 101, 1234):
        assert digits_below(count) == len("".join(str(i) for i in range(count)))


def test_a_job_of_two_billion_pods_is_sized_in_a_moment() -> None:
    tfjob = tfjob_for_replicas("big", {"Chief": 1, "Worker": 2**31 - 1})
    started = time.perf_counter()
    size = tf_config_size(tfjob)
    assert time.perf_counter() - started < 0.5
    assert size.pods == 2**31
    assert size.text_bytes > 2**31 * 2**31 * 20  # every pod lists every address


def test_a_size_is_a_value() -> None:
    """A size refuses assignment and hashes by its fields."""
    is_a_value(lambda: TFConfigSize(pods=3, text_bytes=300, quotes=12, label_bytes=30))


def test_a_size_built_without_its_names_counts_no_name_bytes() -> None:
    assert TFConfigSize(pods=3, text_bytes=300, quotes=12, label_bytes=30).name_bytes == 0


def test_half_a_surrogate_pair_in_a_name_is_sized_as_the_three_bytes_it_is_written_as() -> None:
    tfjob = tfjob_for_replicas("j\ud800", {"Worker": 3})
    pods = predict(tfjob).pods
    size = tf_config_size(tfjob)
    assert size.text_bytes == sum(
        len((pod.tf_config or "").encode("utf-8", "surrogatepass")) for pod in pods
    )
    assert size.name_bytes == sum(len(pod.name.encode("utf-8", "surrogatepass")) for pod in pods)
    assert size.name_bytes == 3 * len("j-worker-0") + 3 * 3
