"""estconf.inputs.node_formats: what ``tf-config --format`` writes, ``check-cluster`` reads back."""

from __future__ import annotations

import json
from typing import Any

import pytest

from estconf.inputs.node_formats import FORMATS, SUFFIXES, blocks
from estconf.inputs.readers import read_env_lines, read_json_lines, read_stream

TF_CONFIGS: list[dict[str, Any]] = [
    {"cluster": {"chief": ["c:1"], "worker": ["w:1"]}, "task": {"type": "chief", "index": 0}},
    # a quote and a space, which the shell and YAML quote
    {"cluster": {"worker": ["w:1"]}, "task": {"type": "worker", "index": 0}, "x": "it's a b"},
]
OUTPUTS = [
    ((c["task"]["type"], c["task"]["index"]), json.dumps(c, separators=(",", ":")))
    for c in TF_CONFIGS
]


@pytest.mark.parametrize("fmt", FORMATS)
def test_what_is_written_reads_back_node_for_node(fmt: str) -> None:
    raw = blocks(OUTPUTS, fmt).encode()
    name = f"nodes{SUFFIXES[fmt]}"
    if fmt in ("json", "jsonl"):
        read = [node.data for node in read_json_lines(raw, name)]
    elif fmt == "k8s":
        read = [
            json.loads(document.data["env"][0]["value"])
            for document in read_stream(raw, name, "yaml")
        ]
    else:
        read = [node.data for node in read_env_lines(raw, name, fmt)]
    assert read == TF_CONFIGS


def test_labels() -> None:
    assert blocks(OUTPUTS[:1], "env", ["rank 0"]) == f"# rank 0\nTF_CONFIG={OUTPUTS[0][1]}\n"
    assert blocks(OUTPUTS, "jsonl") == "".join(f"{text}\n" for _, text in OUTPUTS)
    assert blocks(OUTPUTS, "k8s").count("---\n") == 1
