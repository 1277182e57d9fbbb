"""estconf.deployment.check_cluster: each node refused where TensorFlow's reader refuses it.

``check_cluster`` reads every node's TF_CONFIG with the profile's reader, on
top of its rules across nodes.  A node TensorFlow's reader refuses has a
finding of its own; a node with a finding of its own that TensorFlow accepts
falls under a section 6 rule (the same classifiers as the readers' suites).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compat.harness import import_tensorflow, tf_attempt
from compat.mutations import tf_config_texts
from estconf.deployment import CROSS_NODE_CODES, check_cluster

import_tensorflow()

from compat.test_kubeflow import PROFILE_RULES, TENSORFLOW_READERS  # noqa: E402

pytestmark = pytest.mark.compat


@pytest.mark.parametrize("profile", sorted(TENSORFLOW_READERS))
@given(texts=st.lists(tf_config_texts().filter(lambda text: text is not None), max_size=4))
def test_a_node_is_refused_where_tensorflow_refuses_it(profile: str, texts: list[str]) -> None:
    names = [f"node{number}" for number in range(len(texts))]
    report = check_cluster(zip(names, texts, strict=True), profile=profile)
    own = {
        node
        for finding in report.findings
        # a warning or a note (a task at port 0) refuses nothing
        if finding.severity == "error"
        # a profile's reader may share a code with a rule across nodes: task_not_in_cluster
        and (
            finding.code not in CROSS_NODE_CODES
            or (finding.cross_node is not None and finding.cross_node.profile is not None)
        )
        for node in finding.nodes
    }
    for name, text in zip(names, texts, strict=True):
        tf_out = tf_attempt(text, TENSORFLOW_READERS[profile])
        if tf_out.error is not None:
            assert name in own, (text, tf_out.error, report.to_text())
        elif name in own:
            assert PROFILE_RULES[profile](text), (text, report.to_text())
