"""The one "did you mean" of the models and the files."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from estconf import RunConfig, TPUConfig, TPURunConfig, files
from estconf._suggest import closest, similarity


def test_closest_ignores_case() -> None:
    assert closest("Cluster", ["cluster", "task"]) == "cluster"
    assert similarity("ABC", "abc") == 1.0


def test_closest_needs_the_cutoff() -> None:
    assert closest("job", ["cluster", "task"]) is None
    assert closest("clusters", ["cluster"], cutoff=0.99) is None


def test_closest_of_names_equally_alike_is_the_first_listed() -> None:
    assert similarity("abd", "abc") == similarity("abd", "abe")
    assert closest("abd", ["abc", "abe"]) == "abc"
    assert closest("abd", ["abe", "abc"]) == "abe"


_NAMES = st.text(alphabet="abcdeAB_", max_size=12)


@given(_NAMES, st.lists(_NAMES, max_size=8), st.sampled_from([0.0, 0.5, 0.6, 0.8, 1.0]))
def test_closest_is_the_first_most_alike_name_at_the_cutoff(
    name: str, names: list[str], cutoff: float
) -> None:
    scores = [similarity(name, candidate) for candidate in names]
    kept = [score for score in scores if score >= cutoff]
    expected = names[scores.index(max(kept))] if kept else None
    assert closest(name, names, cutoff) == expected


def test_closest_prefers_the_most_alike() -> None:
    assert closest("save_checkpoint_steps", ["save_summary_steps", "save_checkpoints_steps"]) == (
        "save_checkpoints_steps"
    )


@pytest.mark.parametrize(
    ("model", "kwargs", "kind", "hint"),
    [
        (RunConfig, {"save_checkpoint_steps": 1}, "run_config", "save_checkpoints_steps"),
        (TPUConfig, {"iterations_per_loops": 2}, "tpu_config", "iterations_per_loop"),
        (TPURunConfig, {"tpu_confg": {}}, "tpu_run_config", "tpu_config"),
    ],
)
def test_python_and_files_give_the_same_hint(
    model: Any, kwargs: dict[str, Any], kind: str, hint: str
) -> None:
    with pytest.raises(ValidationError) as info:
        model(**kwargs)
    [found] = info.value.errors()
    with pytest.raises(files.ConfigFileError) as in_file:
        files.loads(files_json(kwargs), "json", kind)
    [from_file] = in_file.value.errors
    assert found["type"] == from_file.code == "unknown_key"
    assert found["msg"] == from_file.message
    assert found["msg"].endswith(f"did you mean {hint!r}?")


def test_other_errors_are_kept_along() -> None:
    with pytest.raises(ValidationError) as info:
        kwargs: dict[str, Any] = {"save_checkpoint_steps": 1, "keep_checkpoint_max": "x"}
        RunConfig(**kwargs)
    found = {e["loc"]: e["type"] for e in info.value.errors()}
    assert found == {
        ("keep_checkpoint_max",): "int_type",
        ("save_checkpoint_steps",): "unknown_key",
    }


def test_no_close_key_lists_the_keys() -> None:
    with pytest.raises(ValidationError) as info:
        kwargs: dict[str, Any] = {"zzz": 1}
        TPUConfig(**kwargs)
    assert "the keys are iterations_per_loop, num_shards" in str(info.value)


def files_json(data: dict[str, Any]) -> str:
    import json

    return json.dumps(data)
