"""estconf.distribute.SlurmClusterResolver against TensorFlow's own (2.15 and 2.21).

Each generated step (a nodelist, tasks per node, jobs, GPU counts, port base)
is resolved for every rank by both.  TensorFlow's resolver runs as it is,
with the SLURM variables and ``CUDA_VISIBLE_DEVICES`` set in ``os.environ``;
only ``nvidia-smi`` is stubbed.  The oracle:

- TensorFlow accepts: estconf gives the same cluster, task, master,
  accelerators and ``CUDA_VISIBLE_DEVICES``, or refuses under a section 6
  rule this input breaks (``gpu_count_unknown`` where TensorFlow would run
  ``nvidia-smi``; ``address`` for a port above 65535 or a host that is no
  host name);
- TensorFlow refuses: estconf raises a ``ValueError``, with TensorFlow's
  sentence where it has one;
- estconf's ``tf_config`` read by TensorFlow's ``TFConfigClusterResolver``
  gives the same cluster and task.

``SLURM_EXAMPLES`` sets the number of generated steps (default 300).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from compat.harness import (
    ENV_LOCK,
    Outcome,
    address_problem,
    attempt,
    error_codes,
    import_tensorflow,
    tf_config_env,
)
from estconf.distribute import SlurmClusterResolver
from estconf.distribute._hostlist import expand_tasks_per_node
from estconf.distribute.slurm import SLURM_VARIABLES

tf = import_tensorflow(estimator=False)
from tensorflow.python.distribute.cluster_resolver import (  # noqa: E402 - after the skip
    slurm_cluster_resolver as tf_slurm,
)

pytestmark = pytest.mark.compat

TFConfigClusterResolver = tf.distribute.cluster_resolver.TFConfigClusterResolver

EXAMPLES = int(os.environ.get("SLURM_EXAMPLES", "300"))

SLURM_SENTENCES = [
    re.compile(pattern)
    for pattern in [
        r"Requested more GPUs per node than available\.",
        r"Requested -?\d+(\.\d+)? tasks but only -?\d+ were assigned\.",
        r"SLURM_\w+ not found in environment\. Not running inside a SLURM step\?",
    ]
]
"""TensorFlow's sentences, which estconf's message must hold."""

FORMATS = {"hostlist": "SLURM_STEP_NODELIST", "tasks-per-node list": "SLURM_STEP_TASKS_PER_NODE"}
"""TensorFlow's ``Invalid <what> format "<text>"`` sentences, and the variable holding the text."""

NVIDIA_SMI_GPUS = 3
"""How many GPUs the stubbed ``nvidia-smi --list-gpus`` lists."""


@dataclass
class Step:
    """One SLURM step: the resolver's arguments and the variables ``srun`` sets."""

    kwargs: dict[str, Any]
    environ: dict[str, str]
    ranks: list[int] = field(default_factory=list)


# --------------------------------------------------------------------------
# Generated steps

PREFIXES = ["node", "n", "gpu-", "cn", "x1b", "Node", ""]
JOBS = ["chief", "evaluator", "master", "ps", "worker", "trainer"]


@st.composite
def _bracket(draw: st.DrawFn) -> str:
    items = []
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, 12))
        width = draw(st.sampled_from([0, 0, 2, 3]))
        first = str(start).zfill(width)
        if draw(st.booleans()):
            items.append(f"{first}-{start + draw(st.integers(-1, 3))}")
        else:
            items.append(first)
    return "[" + ",".join(items) + "]"


@st.composite
def hostlists(draw: st.DrawFn) -> str:
    """SLURM hostlists: bracket ranges with padding, lists, mixed, a few TensorFlow refuses."""
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        prefix = draw(st.sampled_from(PREFIXES))
        kind = draw(st.sampled_from(["range"] * 12 + ["plain"] * 7 + ["odd"]))
        if kind == "range":
            parts.append(prefix + draw(_bracket()))
        elif kind == "plain":
            parts.append(prefix + str(draw(st.integers(0, 11))))
        else:
            parts.append(
                draw(
                    st.sampled_from(
                        ["n[1-2-3]", "n[", "x]", "n[1]a", "n[a-b]", "n[[1]]", "", "n[2-1]", "n[]"]
                    )
                )
            )
    return ",".join(parts) + draw(st.sampled_from(["", "", "", ","]))


@st.composite
def tasks_per_node_texts(draw: st.DrawFn, hosts: int) -> str:
    """Tasks per node for ``hosts`` hosts, ``N(xM)`` compressed, lengths not always equal."""
    length = max(0, hosts + draw(st.sampled_from([0, 0, 0, 0, -1, 1, 2])))
    counts = draw(
        st.lists(st.sampled_from([0, 1, 1, 1, 2, 2, 3]), min_size=length, max_size=length)
    )
    runs: list[str] = []
    i = 0
    while i < len(counts):
        j = i
        while j < len(counts) and counts[j] == counts[i]:
            j += 1
        if j - i > 1 and draw(st.booleans()):
            runs.append(f"{counts[i]}(x{j - i})")
        else:
            runs.extend(str(count) for count in counts[i:j])
        i = j
    text = ",".join(runs)
    return draw(st.sampled_from([text] * 12 + ["2(x", "1,,2", "x", text + "\n"]))


def _assigned(config: Mapping[str, int]) -> int:
    return sum(config.values()) if config else 0


@st.composite
def steps(draw: st.DrawFn) -> Step:
    """A step and the resolver's arguments, valid more often than not."""
    environ: dict[str, str] = {}
    kwargs: dict[str, Any] = {}
    nodelist = draw(hostlists())
    environ["SLURM_STEP_NODELIST"] = nodelist
    try:
        hosts: list[str] = tf_slurm.expand_hostlist(nodelist)
    except ValueError:
        hosts = []
    mode = draw(st.sampled_from(["env", "env", "env", "int", "dict"]))
    config: dict[str, int] = {}
    if mode == "env":
        text = draw(tasks_per_node_texts(len(hosts)))
        environ["SLURM_STEP_TASKS_PER_NODE"] = text
        with suppress(ValueError):
            config = dict(zip(hosts, tf_slurm.expand_tasks_per_node(text), strict=False))
    elif mode == "int":
        kwargs["tasks_per_node"] = draw(st.integers(0, 3))
        config = dict.fromkeys(hosts, kwargs["tasks_per_node"])
    else:
        names = draw(st.lists(st.sampled_from(["a1", "b2", "node10", "node9", "c"]), unique=True))
        config = {name: draw(st.integers(0, 3)) for name in names}
        kwargs["tasks_per_node"] = config
    total = _assigned(config)
    if draw(st.integers(0, 3)) == 0:
        environ["SLURM_STEP_NUM_TASKS"] = str(total + draw(st.sampled_from([0] * 8 + [1, -1])))
    else:
        names = draw(st.lists(st.sampled_from(JOBS), min_size=1, max_size=4, unique=True))
        cuts = sorted(
            draw(st.lists(st.integers(0, total), min_size=len(names) - 1, max_size=len(names) - 1))
        )
        sizes = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
        if draw(st.integers(0, 19)) == 0:
            sizes[0] += draw(st.sampled_from([-1, 1]))
        kwargs["jobs"] = dict(zip(names, sizes, strict=True))
    visible = draw(
        st.sampled_from([None, "", "0", "0,1", "0,1,2,3", "3,5,6,7,1,2,0,4"] * 2 + ["0,1,2,3"] * 2)
    )
    if visible is not None:
        environ["CUDA_VISIBLE_DEVICES"] = visible
    if draw(st.integers(0, 3)) > 0:
        kwargs["gpus_per_node"] = draw(st.sampled_from([0, 1, 2, 3, 4, 4, 6, 8, 8, 8]))
    if draw(st.integers(0, 3)) == 0:
        kwargs["gpus_per_task"] = draw(st.sampled_from([0, 1, 1, 2, 3]))
    kwargs["port_base"] = draw(st.sampled_from([8888, 8888, 2222, 0, 65534]))
    kwargs["auto_set_gpu"] = draw(st.sampled_from([True, True, True, False]))
    kwargs["rpc_layer"] = draw(st.sampled_from(["grpc", "grpc", None, "", "grpc+verbs"]))
    if draw(st.integers(0, 9)) == 0:  # another numeric type than TensorFlow documents
        for name in ("gpus_per_node", "gpus_per_task"):
            if isinstance(kwargs.get(name), int):
                kwargs[name] = float(kwargs[name])
        if isinstance(kwargs.get("tasks_per_node"), int):
            count = kwargs["tasks_per_node"]
            kwargs["tasks_per_node"] = draw(st.sampled_from([str(count), float(count)]))
        if kwargs.get("jobs"):
            job = draw(st.sampled_from(sorted(kwargs["jobs"])))
            kwargs["jobs"] = {**kwargs["jobs"], job: float(kwargs["jobs"][job])}
    for name in (
        draw(st.sets(st.sampled_from(list(environ)), max_size=1))
        if draw(st.integers(0, 19)) == 0
        else ()
    ):
        del environ[name]
    negative = [-1, -total - 1] if draw(st.integers(0, 9)) == 0 else []
    return Step(kwargs, environ, list(range(total + 2)) + negative)


# --------------------------------------------------------------------------
# Both sides


@contextmanager
def _process_environ(environ: Mapping[str, str]) -> Iterator[None]:
    """``os.environ`` holding ``environ`` of the variables TensorFlow reads, then restored."""
    with ENV_LOCK:
        saved = {name: os.environ.get(name) for name in SLURM_VARIABLES}
        for name in SLURM_VARIABLES:
            os.environ.pop(name, None)
        os.environ.update(environ)
        try:
            yield
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def _nvidia_smi(command: list[str], **_: Any) -> str:
    assert command == ["nvidia-smi", "--list-gpus"], command
    return "".join(f"GPU {i}: Stub (UUID: GPU-{i})\n" for i in range(NVIDIA_SMI_GPUS))


def tensorflow_view(kwargs: Mapping[str, Any], environ: Mapping[str, str]) -> Outcome:
    """What TensorFlow's resolver gives, as a dict of the values compared."""

    def run() -> dict[str, Any]:
        resolver = tf_slurm.SlurmClusterResolver(**kwargs)
        cluster = resolver.cluster_spec().as_dict()
        written = os.environ.get("CUDA_VISIBLE_DEVICES")
        return {
            "cluster": cluster,
            "task": (resolver.task_type, resolver.task_id),
            "master": resolver.master(),
            "master_plain": resolver.master(rpc_layer=""),
            "accelerators": resolver.num_accelerators(),
            "cuda": written if kwargs.get("auto_set_gpu", True) else None,
        }

    with (
        _process_environ(environ),
        mock.patch.object(tf_slurm.subprocess, "check_output", _nvidia_smi),
    ):
        return attempt(run)


def estconf_view(kwargs: Mapping[str, Any], environ: Mapping[str, str]) -> Outcome:
    """What estconf's resolver gives, read from ``environ`` alone."""

    def run() -> dict[str, Any]:
        resolver = SlurmClusterResolver(**kwargs, environ=environ)
        return {
            "cluster": resolver.cluster_spec().as_dict(),
            "task": (resolver.task_type, resolver.task_id),
            "master": resolver.master(),
            "master_plain": resolver.master(rpc_layer=""),
            "accelerators": resolver.num_accelerators(),
            "cuda": resolver.cuda_visible_devices,
        }

    return attempt(run)


def deliberate(kwargs: Mapping[str, Any], environ: Mapping[str, str], tf: Outcome) -> set[str]:
    """The section 6 codes estconf may refuse this input with, where TensorFlow takes it."""
    codes = set()
    if kwargs.get("gpus_per_node") is None and "CUDA_VISIBLE_DEVICES" not in environ:
        codes.add("gpu_count_unknown")
    if environ.get("SLURM_PROCID", "").startswith("-"):
        codes.add("negative_index")
    if tf.ok:
        addresses = [a for tasks in tf.value["cluster"].values() for a in tasks]
        seen = {a.lower() for a in addresses}
        if any(address_problem(a) for a in addresses) or len(seen) < len(addresses):
            codes.add("address")
    return codes


def judge(step: Step, rank: int) -> None:
    """Compare both sides for one rank."""
    environ = {**step.environ, "SLURM_PROCID": str(rank)}
    tf = tensorflow_view(step.kwargs, environ)
    ours = estconf_view(step.kwargs, environ)
    where = f"kwargs={step.kwargs!r} environ={environ!r}"
    allowed = deliberate(step.kwargs, environ, tf)
    if currently_in_test_context():
        tf_side = "accepts" if tf.error is None else type(tf.error).__name__
        found = [] if ours.error is None else sorted(set(error_codes(ours.error)))
        our_side = ",".join(found) or "accepts"
        event(f"TensorFlow {tf_side}, estconf {our_side}")
    if ours.error is not None:
        assert isinstance(ours.error, ValueError), f"{where}: {ours.error!r}"
        codes = set(error_codes(ours.error))
        if tf.ok:
            assert codes and codes <= allowed, (
                f"{where}: TensorFlow gives {tf.value}, estconf {ours.error}"
            )
            return
        if "address" in codes:
            return  # refused before TensorFlow's own failure, under section 6
        assert tf.error is not None
        message = str(tf.error)
        expected = [m.group(0) for p in SLURM_SENTENCES if (m := p.search(message))]
        if "gpu_count_unknown" in codes:
            # Without the count, estconf cannot say what TensorFlow says of the GPUs,
            # nor fail where a count it knows not makes TensorFlow fail.
            expected = [s for s in expected if s.startswith("Requested ") and "GPUs" not in s]
        expected += [
            f'Invalid {what} format "{environ[name]}"'
            for what, name in FORMATS.items()
            if f"Invalid {what} format" in message
        ]
        for sentence in expected:
            assert sentence in str(ours.error), (
                f"{where}: TensorFlow says {message!r}, estconf {ours.error}"
            )
        return
    assert tf.ok, f"{where}: TensorFlow refuses ({tf.error!r}), estconf gives {ours.value}"
    assert tf.value == ours.value, f"{where}:\nTensorFlow {tf.value}\nestconf    {ours.value}"
    read_back(SlurmClusterResolver(**step.kwargs, environ=environ).tf_config, tf.value, where)


def read_back(tf_config: dict[str, Any], view: dict[str, Any], where: str) -> None:
    """TensorFlow's ``TFConfigClusterResolver`` reads estconf's ``tf_config`` as the same view."""
    with tf_config_env(json.dumps(tf_config)):
        resolver = TFConfigClusterResolver()
        cluster = resolver.cluster_spec().as_dict()
        task = (resolver.task_type, resolver.task_id)
    assert (cluster, task) == (view["cluster"], view["task"]), (
        f"{where}: {tf_config} reads back as {cluster}, {task}"
    )


@settings(max_examples=EXAMPLES)
@given(steps())
def test_every_rank_as_tensorflow(step: Step) -> None:
    """Every rank of a generated step: the same view, or both refuse."""
    for rank in step.ranks:
        judge(step, rank)


@pytest.mark.parametrize(
    ("kwargs", "environ"),
    [
        # The string sort: rank 0 is placed on node9 by SLURM, and given node10.
        (
            {"gpus_per_node": 2},
            {
                "SLURM_STEP_NODELIST": "node[9-10]",
                "SLURM_STEP_TASKS_PER_NODE": "1(x2)",
                "SLURM_STEP_NUM_TASKS": "2",
            },
        ),
        # Jobs in name order: rank 0 is the ps.
        (
            {"jobs": {"ps": 1, "worker": 3}, "gpus_per_node": 4},
            {"SLURM_STEP_NODELIST": "n[1-2]", "SLURM_STEP_TASKS_PER_NODE": "2(x2)"},
        ),
        # A CPU-only job: TensorFlow's range() error, estconf's clear one.
        (
            {"gpus_per_node": 0},
            {
                "SLURM_STEP_NODELIST": "n1",
                "SLURM_STEP_TASKS_PER_NODE": "1",
                "SLURM_STEP_NUM_TASKS": "1",
            },
        ),
        # A batch script outside srun: only SLURM_JOB_* is set.
        ({"gpus_per_node": 1}, {"SLURM_JOB_NODELIST": "n1", "SLURM_JOB_NUM_NODES": "1"}),
        # An evaluator and a job of size 0.
        (
            {"jobs": {"chief": 1, "evaluator": 1, "ps": 0, "worker": 2}, "gpus_per_node": 4},
            {"SLURM_STEP_NODELIST": "n[08-11]", "SLURM_STEP_TASKS_PER_NODE": "1(x4)"},
        ),
    ],
)
def test_the_documented_traps(kwargs: dict[str, Any], environ: dict[str, str]) -> None:
    """The cases the docs show, every rank."""
    step = Step(kwargs, environ, list(range(5)))
    for rank in step.ranks:
        judge(step, rank)


ODD_STEP = {
    "SLURM_STEP_NODELIST": "n[1-2]",
    "SLURM_STEP_TASKS_PER_NODE": "2(x2)",
    "SLURM_STEP_NUM_TASKS": "4",
}


@pytest.mark.parametrize(
    ("kwargs", "environ", "ranks"),
    [
        # Whole floats where TensorFlow's cluster_spec() needs an int (range(), a slice).
        ({"gpus_per_node": 2.0}, ODD_STEP, [0, 3]),
        ({"gpus_per_node": 4, "gpus_per_task": 1.0}, ODD_STEP, [0, 3]),
        ({"gpus_per_node": 2, "jobs": {"worker": 4.0}}, ODD_STEP, [0, 3]),
        ({"gpus_per_node": 2, "jobs": {"ps": 1.0, "worker": 3}}, ODD_STEP, [0]),
        ({"gpus_per_node": 2, "tasks_per_node": {"a": 2.0, "b": 2}}, ODD_STEP, [0]),
        # Whole numbers of other types: TensorFlow fails on them as on a whole float.
        ({"gpus_per_node": Decimal(2)}, ODD_STEP, [0, 3]),
        ({"gpus_per_node": 4, "gpus_per_task": Fraction(1, 1)}, ODD_STEP, [0, 3]),
        ({"gpus_per_node": 2, "jobs": {"worker": Decimal(4)}}, ODD_STEP, [0, 3]),
        ({"gpus_per_node": 2, "tasks_per_node": Fraction(2, 1)}, ODD_STEP, [0, 3]),
        # ... and TensorFlow's own sentence first when the counts do not add up.
        ({"gpus_per_node": 2, "jobs": {"worker": 3.0}}, ODD_STEP, [0]),
        # tasks_per_node read with int(): a string of digits, a whole float.
        ({"gpus_per_node": 2, "tasks_per_node": "2"}, ODD_STEP, [0, 3]),
        ({"gpus_per_node": 2, "tasks_per_node": 2.0}, ODD_STEP, [0, 3]),
        # A negative rank: TensorFlow's failures first, then section 6.
        (
            {"gpus_per_node": 2},
            {"SLURM_STEP_NODELIST": "n[1-2]", "SLURM_STEP_TASKS_PER_NODE": "2(x2)"},
            [-1],
        ),
        ({"gpus_per_node": 2}, ODD_STEP, [-1, -4, -5]),
        ({"gpus_per_node": 2, "auto_set_gpu": False}, ODD_STEP, [-5]),
        # No GPU count (section 6), and jobs that do not add up: TensorFlow's sentence too.
        ({"jobs": {"worker": 3}}, ODD_STEP, [0]),
    ],
)
def test_odd_arguments_and_ranks(
    kwargs: dict[str, Any], environ: dict[str, str], ranks: list[int]
) -> None:
    """Arguments of another numeric type than TensorFlow documents, and negative ranks."""
    step = Step(kwargs, environ, ranks)
    for rank in step.ranks:
        judge(step, rank)


@pytest.mark.parametrize(
    ("kwargs", "environ", "ranks"),
    [
        # gpus_per_task given: it wins over gpus_per_node // tasks, and spaces the GPUs out.
        ({"gpus_per_node": 4, "gpus_per_task": 1}, ODD_STEP, [0, 1, 2, 3]),
        ({"gpus_per_node": 4, "gpus_per_task": 2}, ODD_STEP, [0, 1, 2, 3]),
        ({"gpus_per_node": 8, "gpus_per_task": 3}, ODD_STEP, [0, 1, 2, 3]),
        ({"gpus_per_node": 1024, "gpus_per_task": 512}, ODD_STEP, [1, 3]),
        # ... and still needs the GPUs per node: CUDA_VISIBLE_DEVICES, else nvidia-smi.
        ({"gpus_per_task": 1}, {**ODD_STEP, "CUDA_VISIBLE_DEVICES": "0,1"}, [0, 3]),
        ({"gpus_per_task": 2}, {**ODD_STEP, "CUDA_VISIBLE_DEVICES": "0,1"}, [0]),
        ({"gpus_per_task": 1}, ODD_STEP, [0]),
        # Refused: more than the node has, 0 (range()), negative (no GPU for any rank).
        ({"gpus_per_node": 4, "gpus_per_task": 3}, ODD_STEP, [0]),
        ({"gpus_per_node": 0, "gpus_per_task": 1}, ODD_STEP, [0]),
        ({"gpus_per_node": 4, "gpus_per_task": 0}, ODD_STEP, [0]),
        ({"gpus_per_node": 0, "gpus_per_task": 0}, ODD_STEP, [0]),
        ({"gpus_per_node": 4, "gpus_per_task": -1}, ODD_STEP, [0, 3]),
        # A negative gpus_per_task without CUDA_VISIBLE_DEVICES written: every job empty.
        ({"gpus_per_node": 4, "gpus_per_task": -1, "auto_set_gpu": False}, ODD_STEP, [0, 3]),
        # With jobs and tasks per node given, the ps first.
        (
            {"jobs": {"ps": 1, "worker": 3}, "gpus_per_node": 8, "gpus_per_task": 4},
            ODD_STEP,
            [0, 1, 2, 3],
        ),
        ({"gpus_per_node": 6, "gpus_per_task": 2, "tasks_per_node": 3}, ODD_STEP, [0, 5]),
    ],
)
def test_gpus_per_task(kwargs: dict[str, Any], environ: dict[str, str], ranks: list[int]) -> None:
    """The resolver's ``gpus_per_task`` (``tf-config slurm --gpus-per-task``), every case of it."""
    step = Step(kwargs, environ, ranks)
    for rank in step.ranks:
        judge(step, rank)


# --------------------------------------------------------------------------
# The command line: `estconf tf-config slurm` against TensorFlow's resolver


def _command(*argv: str) -> tuple[int, str, str]:
    from estconf.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
    return status, out.getvalue(), err.getvalue()


def _views(out: str) -> list[tuple[dict[str, Any], str]]:
    """Each rank's ``TF_CONFIG`` and ``CUDA_VISIBLE_DEVICES``, from ``--format shell``."""
    lines = out.splitlines()
    return [
        (json.loads(export.partition("=")[2].strip("'")), label.rpartition("=")[2])
        for label, export in zip(lines[::2], lines[1::2], strict=True)
    ]


def _tensorflow_ranks(kwargs: Mapping[str, Any], environ: Mapping[str, str]) -> list[Outcome]:
    total = int(environ["SLURM_STEP_NUM_TASKS"])
    return [
        tensorflow_view(kwargs, {**environ, "SLURM_PROCID": str(rank)}) for rank in range(total)
    ]


def _agree(status: int, out: str, tf: list[Outcome], where: str) -> None:
    if not all(outcome.ok for outcome in tf):
        assert status == 1 and out == "", f"{where}: TensorFlow refuses, estconf writes {out}"
        return
    assert status in (0, 1), where  # 1: ranks given another host's address
    views = _views(out)
    assert len(views) == len(tf), where
    for (tf_config, visible), outcome in zip(views, tf, strict=True):
        task = (tf_config["task"]["type"], tf_config["task"]["index"])
        assert (tf_config["cluster"], task) == (outcome.value["cluster"], outcome.value["task"])
        assert visible == outcome.value["cuda"], where


@settings(max_examples=max(20, EXAMPLES // 10), deadline=None)
@given(
    hosts=st.integers(1, 3),
    per_node=st.integers(1, 3),
    per_node_gpus=st.integers(0, 8),
    per_task=st.one_of(st.none(), st.integers(0, 4)),
)
def test_the_command_line_gives_each_rank_what_tensorflow_gives(
    hosts: int, per_node: int, per_node_gpus: int, per_task: int | None
) -> None:
    """``tf-config slurm --gpus-per-node N [--gpus-per-task M]``: TensorFlow's view, by rank."""
    nodelist = "n1" if hosts == 1 else f"n[1-{hosts}]"
    argv = ["--nodelist", nodelist, "--tasks-per-node", str(per_node)]
    argv += ["--gpus-per-node", str(per_node_gpus)]
    kwargs: dict[str, Any] = {"gpus_per_node": per_node_gpus}
    if per_task is not None:
        argv += ["--gpus-per-task", str(per_task)]
        kwargs["gpus_per_task"] = per_task
    environ = {
        "SLURM_STEP_NODELIST": nodelist,
        "SLURM_STEP_TASKS_PER_NODE": f"{per_node}(x{hosts})",
        "SLURM_STEP_NUM_TASKS": str(hosts * per_node),
    }
    status, out, _ = _command("tf-config", "slurm", *argv, "--format", "shell")
    _agree(status, out, _tensorflow_ranks(kwargs, environ), " ".join(argv))


BATCH_SCRIPTS = Path(__file__).resolve().parents[1] / "data" / "launchers" / "slurm"


@pytest.mark.parametrize(
    ("name", "environ"),
    [
        # What srun sets in each task of the script's step, and what each task sees of its GPUs:
        # --gres=gpu:N, every GPU of its node; --gpus-per-task=N, its own N (SLURM binds them).
        (
            "gpu-2x4.sbatch",
            {"SLURM_STEP_NODELIST": "node[1-2]", "SLURM_STEP_TASKS_PER_NODE": "1(x2)",
             "CUDA_VISIBLE_DEVICES": "0,1,2,3"},
        ),
        (
            "nodelist.sbatch",
            {"SLURM_STEP_NODELIST": "gpu[07-08]", "SLURM_STEP_TASKS_PER_NODE": "2(x2)",
             "CUDA_VISIBLE_DEVICES": "0,1"},
        ),
        (
            "ps-worker.sbatch",
            {"SLURM_STEP_NODELIST": "node[1-3]", "SLURM_STEP_TASKS_PER_NODE": "2(x3)",
             "CUDA_VISIBLE_DEVICES": "0,1"},
        ),
        (
            "gpus-per-task.sbatch",
            {"SLURM_STEP_NODELIST": "node[1-2]", "SLURM_STEP_TASKS_PER_NODE": "4(x2)",
             "CUDA_VISIBLE_DEVICES": "3"},
        ),
    ],
)  # fmt: skip
def test_a_batch_script_gives_each_rank_what_tensorflow_gives_in_its_step(
    name: str, environ: dict[str, str]
) -> None:
    """``tf-config slurm --sbatch``: the step of the script, then TensorFlow's view of each rank."""
    counts = expand_tasks_per_node(environ["SLURM_STEP_TASKS_PER_NODE"], 100)
    environ = {**environ, "SLURM_STEP_NUM_TASKS": str(sum(counts))}
    status, out, _ = _command(
        "tf-config", "slurm", "--sbatch", str(BATCH_SCRIPTS / name), "--format", "shell"
    )
    _agree(status, out, _tensorflow_ranks({}, environ), name)
