"""estconf.inputs.slurm_steps: a SLURM step given, and each rank's view of it."""

from __future__ import annotations

import json

import pytest

from estconf.inputs.slurm_steps import Step, ranks, step_environ
from estconf.inputs.sources import InputError

STEP = step_environ(False, "node[9-10]", "2")


def test_tensorflows_view_places_ranks_on_hosts_sorted_as_text() -> None:
    views, misplaced = ranks(Step({"worker": 4}, gpus_per_node=2), STEP)
    assert [view.task for view in views] == [("worker", index) for index in range(4)]
    assert views[0].label.startswith("rank 0 on node9: worker:0, master ")
    # TensorFlow sorts node10 before node9: every rank is given the other host
    assert [m.rank for m in misplaced] == [0, 1, 2, 3]


def test_written_tf_configs_are_at_each_ranks_own_host() -> None:
    views, misplaced = ranks(Step({"worker": 4}), STEP, write=True)
    assert misplaced == []
    first = json.loads(views[0].text)
    assert first["task"] == {"type": "worker", "index": 0}
    assert first["cluster"]["worker"][0].startswith("node9:")


def test_one_rank_and_what_is_seen_before_it_is_built() -> None:
    seen: list[tuple[range, str]] = []
    views, _ = ranks(
        Step({"worker": 4}, gpus_per_node=2, rank=3),
        STEP,
        before=lambda r, one: seen.append((r, one)),
    )
    assert [view.label.split(":")[0] for view in views] == ["rank 3 on node10"]
    assert seen[0][0] == range(3, 4)


def test_a_rank_the_step_has_not() -> None:
    with pytest.raises(InputError, match="--rank 4: the step has 4 tasks, ranks 0 to 3"):
        ranks(Step({"worker": 4}, rank=4), STEP)


def test_an_environment_variable_that_is_not_utf8(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLURM_JOB_NODELIST", b"node\xff".decode("utf-8", "surrogateescape"))
    with pytest.raises(InputError, match=r"\$SLURM_JOB_NODELIST is not UTF-8 text \(byte 0xff"):
        step_environ(True)
