"""The TF_CONFIGs estconf predicts for a Kubeflow TFJob, read by TensorFlow itself.

What the operator writes into each pod is estconf's prediction
(docs/kubernetes.md); what each pod's program then makes of it is TensorFlow's, and is checked
here: every pod's TF_CONFIG read by ``tf.estimator.RunConfig`` and by the
tf.distribute readers, against estconf; and the pods that
``estconf.kubeflow.check`` reports as refusing their TF_CONFIG, against the
pods whose reader in TensorFlow fails, for each profile.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compat.harness import deliberate_tf_config, deliberate_unread, import_tensorflow, tf_attempt
from estconf.kubeflow import Operator, check, predict, tfjob_for_replicas
from estconf.launchers.kubeflow.tfjobs import node_check

tf = import_tensorflow()

from compat.test_distribute import (  # noqa: E402
    check_all,
    tf_multi_worker,
    tf_parameter_server,
    tf_server,
)
from compat.test_run_config import check as check_run_config  # noqa: E402

pytestmark = pytest.mark.compat

_REFUSING_PODS = re.compile(r"^pods? (.+?) refuses? (?:its|their) TF_CONFIG: ")
_POD_RANGE = re.compile(r"(\S+-)(\d+) to \1(\d+)")


@st.composite
def replica_counts(draw: st.DrawFn) -> dict[str, int]:
    """Replica counts of a TFJob, in the letter cases the operator matches."""
    counts = {
        "Chief": draw(st.integers(0, 1)),
        "Master": draw(st.integers(0, 1)),
        "Worker": draw(st.integers(0, 4)),
        "PS": draw(st.integers(0, 3)),
        "Evaluator": draw(st.integers(0, 1)),
    }
    return {replica_type: count for replica_type, count in counts.items() if count}


def refusing_pods(messages: list[str]) -> set[str]:
    """The pods that findings' messages name as refusing their TF_CONFIG."""
    pods: set[str] = set()
    for message in messages:
        found = _REFUSING_PODS.match(message)
        if not found:
            continue
        for named in re.split(r", | and ", found[1]):
            whole_type = _POD_RANGE.fullmatch(named)
            if whole_type is None:
                pods.add(named)
                continue
            prefix, first, last = whole_type.groups()
            pods.update(f"{prefix}{index}" for index in range(int(first), int(last) + 1))
    return pods


TENSORFLOW_READERS: dict[str, Callable[[], object]] = {
    "estimator": lambda: tf.estimator.RunConfig(),
    "mwms": tf_multi_worker,
    "ps": tf_parameter_server,
    "server": tf_server,
}
"""TensorFlow's reader of each profile, reading ``TF_CONFIG`` from ``os.environ``."""

PROFILE_RULES: dict[str, Callable[[str | None], set[str]]] = {
    "estimator": deliberate_tf_config,
    "mwms": deliberate_unread,
    "ps": deliberate_unread,
    "server": deliberate_unread,
}
"""The section 6 classifier of each profile's reader (the readers may not read the task)."""


@pytest.mark.parametrize("profile", sorted(TENSORFLOW_READERS))
@given(
    counts=replica_counts(),
    dynamic=st.booleans(),
    operator=st.builds(Operator, release=st.sampled_from(["v1.9.0", "v1.6.0"])),
)
def test_every_pod_reads_its_tf_config_as_tensorflow_does(
    profile: str, counts: dict[str, int], dynamic: bool, operator: Operator
) -> None:
    """With ``enableDynamicWorker`` each worker sees a sparse cluster of its own.

    v1.6.0 writes that cluster under ``sparseCluster``, a key TensorFlow does not read.
    """
    tfjob = tfjob_for_replicas("job", counts, enable_dynamic_worker=dynamic)
    findings = check(tfjob, node_check=node_check(profile), operator=operator)
    if not counts or any(finding.refused for finding in findings):
        return  # the operator never starts the job
    refused_by_tensorflow: set[str] = set()
    deliberate: set[str] = set()  # pods whose TF_CONFIG falls under a section 6 rule
    for pod in predict(tfjob, operator=operator).pods:
        if pod.tf_config is None:
            continue
        check_run_config(pod.tf_config, {})
        check_all(pod.tf_config)
        if tf_attempt(pod.tf_config, TENSORFLOW_READERS[profile]).error is not None:
            refused_by_tensorflow.add(pod.name)
        elif PROFILE_RULES[profile](pod.tf_config):
            deliberate.add(pod.name)
    reported = refusing_pods([finding.message for finding in findings])
    # The check reads the first and the last pod of each replica type, and names the
    # pods between them when both refuse: TensorFlow must refuse every pod named, but
    # for a pod refused under a section 6 rule (the empty job of enableDynamicWorker).
    allowed = refused_by_tensorflow | deliberate
    assert reported <= allowed, (counts, reported, refused_by_tensorflow)
    assert bool(reported) == bool(allowed), (counts, [f.message for f in findings])


def test_refusing_pods_are_read_from_the_message() -> None:
    messages = [
        "pods job-worker-0 to job-worker-3 and job-ps-1 refuse their TF_CONFIG: ...",
        "pod job-chief-0 refuses its TF_CONFIG: ...",
        "pods job-evaluator-0, job-master-0 and job-x-1 refuse their TF_CONFIG: ...",
        "the job has one replica",
    ]
    assert refusing_pods(messages) == {
        *(f"job-worker-{index}" for index in range(4)),
        "job-ps-1",
        "job-chief-0",
        "job-evaluator-0",
        "job-master-0",
        "job-x-1",
    }
