"""estconf.inputs.nodes: the nodes of a job, a TF_CONFIG each, as check-cluster is given them."""

from __future__ import annotations

from pathlib import Path

import pytest

from estconf.inputs.nodes import Unreadable, read_nodes
from estconf.io.sources import STDIN

DATA = Path(__file__).parent / "data"
NONE_SET = "no TF_CONFIG (a valueFrom is read only in a pod)"


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("invalid/tf_config_pod.yaml", "a Kubernetes Pod manifest (apiVersion: v1) sets"),
        ("deploy/tensorboard.yaml", "the Kubernetes manifests of the stream set"),
    ],
)
def test_manifests_named_that_set_no_tf_config_are_unreadable(name: str, what: str) -> None:
    path = str(DATA / name)
    with pytest.raises(Unreadable) as info:
        read_nodes([path])
    assert info.value.file == path
    assert [(found.code, found.message) for found in info.value.errors] == [
        ("no_tf_config", f"{what} {NONE_SET}")
    ]


def test_an_unreadable_input_says_its_errors() -> None:
    """The message of an input that cannot be read is its errors, each at the file."""
    path = str(DATA / "invalid/tf_config_pod.yaml")
    with pytest.raises(Unreadable) as info:
        read_nodes([path])
    assert str(info.value) == (
        f"{path}: a Kubernetes Pod manifest (apiVersion: v1) sets {NONE_SET}"
    )


def test_an_env_list_that_sets_no_tf_config_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "env.json"
    path.write_text('{"env": [{"name": "OTHER", "value": "1"}]}\n', encoding="utf-8")
    with pytest.raises(Unreadable) as info:
        read_nodes([str(path)])
    assert [(found.code, found.message) for found in info.value.errors] == [
        ("no_tf_config", f"the env list sets {NONE_SET}")
    ]


@pytest.mark.parametrize("suffix", [".jsonl", ".ndjson"])
def test_json_lines_files_hold_a_node_a_line(tmp_path: Path, suffix: str) -> None:
    """``.jsonl`` and ``.ndjson`` files are JSON lines, named or in a directory."""
    path = tmp_path / f"nodes{suffix}"
    path.write_text('{"task": {"type": "worker", "index": 0}}\n\n{"x": 1}\n', encoding="utf-8")
    expected = [(f"{path}:1", {"task": {"type": "worker", "index": 0}}), (f"{path}:3", {"x": 1})]
    assert read_nodes([str(path)]).nodes == expected
    assert read_nodes([str(tmp_path)]).nodes == expected


def test_standard_input_is_read_among_the_other_inputs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``-`` stands for JSON lines on standard input; the inputs after it are read too."""
    import io
    import sys

    path = tmp_path / "chief.json"
    path.write_text('{"task": {"type": "chief", "index": 0}}', encoding="utf-8")
    stdin = io.TextIOWrapper(io.BytesIO(b'{"task": {"type": "worker", "index": 0}}\n'))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert read_nodes(["-", str(path)]).nodes == [
        ("<stdin>:1", {"task": {"type": "worker", "index": 0}}),
        (str(path), {"task": {"type": "chief", "index": 0}}),
    ]


def test_a_dash_built_at_run_time_stands_for_standard_input(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ``-`` the caller built, another string than the package's own, is read as JSON lines."""
    import io
    import sys

    dash = "".join(["-", ""])
    assert dash is not STDIN
    stdin = io.TextIOWrapper(io.BytesIO(b'{"task": {}}\n{"x": 1}\n'))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert read_nodes([dash]).nodes == [("<stdin>:1", {"task": {}}), ("<stdin>:2", {"x": 1})]


def test_a_directory_reads_its_yml_files_and_not_those_without_a_suffix(tmp_path: Path) -> None:
    (tmp_path / "node.yml").write_text("task: {type: worker, index: 0}\n", encoding="utf-8")
    (tmp_path / "README").write_text("the nodes of the job\n", encoding="utf-8")
    found = read_nodes([str(tmp_path)])
    assert found.nodes == [(str(tmp_path / "node.yml"), {"task": {"type": "worker", "index": 0}})]


def test_a_directory_passes_over_a_stream_of_manifests_that_set_none(tmp_path: Path) -> None:
    """A stream of manifests found in a directory (a Deployment and its Service) is passed over."""
    for name in ("tensorboard.yaml", "tf_config.json"):
        (tmp_path / name).write_bytes((DATA / "deploy" / name).read_bytes())
    found = read_nodes([str(tmp_path)])
    assert [name for name, _ in found.nodes] == [str(tmp_path / "tf_config.json")]
    assert found.passed_over == [
        (
            str(tmp_path / "tensorboard.yaml"),
            f"the Kubernetes manifests of the stream set {NONE_SET}",
        )
    ]


def test_a_node_file_that_is_no_json_object_is_a_node_without_key_errors(tmp_path: Path) -> None:
    """A node file holding no object is a node all the same: the cluster check reports it there."""
    path = tmp_path / "node.json"
    path.write_text("[1, 2]\n", encoding="utf-8")
    found = read_nodes([str(path)])
    assert (found.nodes, found.key_errors) == ([(str(path), [1, 2])], [])


def test_shell_scripts_and_env_files_give_each_tf_config_they_set(tmp_path: Path) -> None:
    """A value may span lines; an env file's quoted value is read, and a warning says why."""
    (tmp_path / "a.sh").write_text(
        "#!/bin/sh\nexport TF_CONFIG='{\n  \"task\": {}\n}'\npython x\n", encoding="utf-8"
    )
    (tmp_path / "b.env").write_text('TF_CONFIG="{\\"task\\": {}}"\n', encoding="utf-8")
    found = read_nodes([str(tmp_path)])
    assert found.nodes == [
        (f"{tmp_path}/a.sh:2", {"task": {}}),
        (f"{tmp_path}/b.env:1", {"task": {}}),
    ]
    assert [(w.code, w.file, w.line) for w in found.warnings] == [
        ("env_file_quoted", f"{tmp_path}/b.env", 1)
    ]


@pytest.mark.parametrize(
    ("text", "code", "place"),
    [
        ("export TF_CONFIG='{\n", "shell_syntax", (1, 18)),
        ('export TF_CONFIG="$(hostname)"\n', "shell_expansion", (1, 19)),
        ("export TF_CONFIG='{\n  \"task\": {},\n}'\n", "syntax", (3, 1)),
        ("python train.py\n", "no_tf_config", (None, None)),
    ],
)
def test_a_script_whose_tf_config_cannot_be_read_is_unreadable_where_it_is(
    tmp_path: Path, text: str, code: str, place: tuple[int | None, int | None]
) -> None:
    path = tmp_path / "run.sh"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(Unreadable) as info:
        read_nodes([str(path)])
    [found] = info.value.errors
    assert (found.code, found.file, (found.line, found.column)) == (code, str(path), place)


ENV_LIST = """\
env:
  - name: TF_CONFIG
    value: '{{"cluster": {{"worker": ["w0:2222", "w1:2222"]}},
      "task": {{"type": "worker", "index": {index}}}}}'
"""


@pytest.mark.parametrize("documents", [1, 2])
def test_a_yaml_node_file_is_parsed_once(
    documents: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One document or a stream: the file's text is read as a stream once, not again."""
    from estconf.io import _yaml

    calls = []
    read_documents = _yaml.read_documents

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(args[1])
        return read_documents(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(_yaml, "read_documents", counted)
    path = tmp_path / "nodes.yaml"
    path.write_text("---\n".join(ENV_LIST.format(index=i) for i in range(documents)))
    found = read_nodes([str(path)])
    assert len(found.nodes) == documents
    assert calls == [str(path)]
    if documents == 2:  # each node named by the line of its TF_CONFIG, placed all the same
        assert [name for name, _ in found.nodes] == [f"{path}:3", f"{path}:8"]
