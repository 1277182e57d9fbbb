"""estconf.launchers.formats: what ``tf-config --format`` writes, ``check-cluster`` reads back."""

from __future__ import annotations

import json
from typing import Any

import pytest

from estconf.io.reading import read_env_lines, read_json_lines, read_stream
from estconf.launchers.formats import (
    CHOICES,
    FORMATS,
    PODS,
    SUFFIXES,
    block,
    blocks,
    label,
    pod_line,
    pod_lines,
    written_size,
)
from estconf.launchers.kubeflow.size import TFConfigSize

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


def test_each_tf_config_has_one_label() -> None:
    """Labels are given one a TF_CONFIG: fewer labels than TF_CONFIGs are refused."""
    with pytest.raises(ValueError, match="argument 2 is longer than argument 1"):
        blocks(OUTPUTS, "env", ["rank 0"])


def size_of(outputs: list[tuple[tuple[str, int], str]]) -> TFConfigSize:
    """The size of these TF_CONFIGs, as ``tf_config_size`` counts it."""
    return TFConfigSize(
        pods=len(outputs),
        text_bytes=sum(len(text.encode()) for _, text in outputs),
        quotes=sum(text.count("'") for _, text in outputs),
        label_bytes=sum(len(label(task).encode()) for task, _ in outputs),
    )


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("count", [0, 1, 2])
def test_the_written_size_is_the_bytes_written(fmt: str, count: int) -> None:
    """The size counted is what is written: by default one text with labels, else one file each.

    No TF_CONFIG is no byte, in every format.
    """
    outputs = OUTPUTS[:count]
    size = size_of(outputs)
    assert written_size(size, fmt) == len(blocks(outputs, fmt).encode())
    assert written_size(size, fmt, files=True) == sum(
        len(block(None, text, fmt).encode()) for _, text in outputs
    )


class TestPods:
    """``--format pods``: a JSON line per pod, ``{"pod": NAME, "TF_CONFIG": OBJECT | null}``."""

    def test_a_pods_tf_config_is_written_as_it_gets_it(self) -> None:
        text = OUTPUTS[0][1]
        line = pod_line("job-chief-0", text)
        assert line == f'{{"pod": "job-chief-0", "TF_CONFIG": {text}}}\n'
        assert json.loads(line) == {"pod": "job-chief-0", "TF_CONFIG": TF_CONFIGS[0]}

    def test_a_pod_that_gets_none_is_null(self) -> None:
        assert pod_line("rank 0", None) == '{"pod": "rank 0", "TF_CONFIG": null}\n'

    @pytest.mark.parametrize(
        "text", ["$(TF_CONFIG)", "[1]", '"x"', "", '{"a": 1, "a": 2}', '{"a": NaN}']
    )
    def test_what_is_no_json_object_is_null_beside_its_text(self, text: str) -> None:
        assert json.loads(pod_line("p", text)) == {"pod": "p", "TF_CONFIG": None, "text": text}

    def test_a_tf_config_on_many_lines_is_written_on_one(self) -> None:
        line = pod_line("p", '{\n  "task": {"type": "worker",\n "index": 0}\n}')
        assert line.count("\n") == 1
        assert json.loads(line)["TF_CONFIG"] == {"task": {"type": "worker", "index": 0}}

    def test_a_name_is_a_json_string(self) -> None:
        assert json.loads(pod_line('a "b" \\ é', None))["pod"] == 'a "b" \\ é'

    def test_lines_in_order(self) -> None:
        written = pod_lines([("a", None), ("b", OUTPUTS[1][1])])
        assert [json.loads(line)["pod"] for line in written.splitlines()] == ["a", "b"]

    @pytest.mark.parametrize("count", [0, 1, 2])
    def test_the_written_size_is_the_bytes_written(self, count: int) -> None:
        outputs = OUTPUTS[:count]
        names = [f"pod-{task[0]}-{task[1]}" for task, _ in outputs]
        size = size_of(outputs)
        total = sum(len(name.encode()) for name in names)
        written = pod_lines(zip(names, [text for _, text in outputs], strict=True))
        assert written_size(size, PODS, name_bytes=total) == len(written.encode())

    def test_pods_are_a_choice_beside_the_formats(self) -> None:
        assert list(CHOICES) == [*FORMATS, PODS]
        assert PODS not in FORMATS and PODS not in SUFFIXES
