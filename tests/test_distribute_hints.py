"""estconf.distribute._hints: every refusal of the tf.distribute readers names its fix.

Each refusal keeps TensorFlow's sentence as its message and carries the fix
as the ``hint`` of its ``ctx`` (read with :func:`estconf.finding.hint_of`).
The table below holds one input per code the readers raise, and the source
is read for those codes, so that a new refusal without a fix fails here.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import given
from pydantic import ValidationError

from estconf import ClusterSpec
from estconf.distribute import (
    MultiWorkerConfig,
    ParameterServerConfig,
    ServerConfig,
    SlurmClusterResolver,
    TFConfigClusterResolver,
    _hints,
)
from estconf.finding import hint_of
from messages import too_long

from strategies import distribute_tf_configs

ROOT = Path(__file__).resolve().parents[1]
READERS = ROOT / "src" / "estconf" / "distribute"
WORKERS = {"worker": ["w0:2222", "w1:2222"]}
WITH_PS = {"chief": ["c0:2222"], **WORKERS, "ps": ["p0:2222"]}
STEP = {
    "SLURM_PROCID": "0",
    "SLURM_STEP_NUM_TASKS": "4",
    "SLURM_STEP_NODELIST": "node[9-10]",
    "SLURM_STEP_TASKS_PER_NODE": "2(x2)",
}
PS_PROFILE = "the ps profile (--profile ps)"
MWMS_PROFILE = "the mwms profile (--profile mwms)"


def mwms(cluster: Any, task: Any = None) -> Callable[[], object]:
    tf_config = {"cluster": cluster} if task is None else {"cluster": cluster, "task": task}
    return lambda: MultiWorkerConfig(tf_config=tf_config)


def ps(tf_config: Any) -> Callable[[], object]:
    return lambda: ParameterServerConfig(tf_config=tf_config)


def server(tf_config: Any) -> Callable[[], object]:
    return lambda: ServerConfig(tf_config=tf_config)


def slurm(**kwargs: Any) -> Callable[[], object]:
    environ = {**STEP, **kwargs.pop("environ", {})}
    return lambda: SlurmClusterResolver(**kwargs, environ=environ)


class Case(NamedTuple):
    """An input a reader refuses, the code of its refusal and the fix it names."""

    code: str
    make: Callable[[], object]
    hint: str


CASES: dict[str, Case] = {
    # MultiWorkerMirroredStrategy
    "mwms-no-task": Case(
        "missing_task",
        mwms(WORKERS),
        "set task.type to this node's job ('worker') and task.index to its index there, "
        'or leave out "cluster" to train on this machine alone',
    ),
    "mwms-misspelled-job": Case(
        "disallowed_job",
        mwms({"workers": ["w0:2222"]}, {"type": "workers", "index": 0}),
        "rename job 'workers' to 'worker'",
    ),
    "mwms-master-job": Case(
        "disallowed_job",
        mwms({"master": ["m0:2222"], **WORKERS}, {"type": "worker", "index": 0}),
        "rename job 'master' to 'chief': tf.distribute has no master; a cluster with one is for "
        "tf.estimator: check it under the estimator profile (--profile estimator)",
    ),
    "mwms-unknown-job": Case(
        "disallowed_job",
        mwms({"trainer": ["t0:2222"], **WORKERS}, {"type": "worker", "index": 0}),
        "rename job 'trainer' to one of 'chief', 'worker', 'ps' and 'evaluator'; a TF1 program "
        "that starts its own tf.train.Server takes any job: check it under the server profile "
        "(--profile server)",
    ),
    "mwms-unknown-task-type": Case(
        "unrecognized_task_type",
        mwms({"chief": ["c0:2222"], **WORKERS, "ps": ["p0:2222"]}, {"type": "trainer", "index": 0}),
        "set task.type to this node's job: 'chief' or 'worker'",
    ),
    "mwms-task-type-not-in-cluster": Case(
        "task_type_not_in_cluster",
        mwms(WORKERS, {"type": "chief", "index": 0}),
        "add a job 'chief' holding this node's address to the cluster, or set task.type to one "
        "of its jobs ('worker')",
    ),
    "mwms-two-chiefs": Case(
        "multiple_chiefs",
        mwms({"chief": ["c0:2222", "c1:2222"], **WORKERS}, {"type": "worker", "index": 0}),
        "keep one task in job 'chief' and move the other task into job 'worker'",
    ),
    "mwms-two-evaluators": Case(
        "multiple_evaluators",
        mwms({"evaluator": ["e0:2222", "e1:2222"], **WORKERS}, {"type": "worker", "index": 0}),
        "keep one task in job 'evaluator': tf.distribute runs one evaluator",
    ),
    "mwms-index-out-of-range": Case(
        "task_id_out_of_range",
        mwms(WORKERS, {"type": "worker", "index": 2}),
        "set task.index to this node's index in job 'worker' (0 to 1), or add task 2's address "
        "to the job",
    ),
    "mwms-ps-task": Case(
        "no_id_for_task_type",
        mwms(WITH_PS, {"type": "ps", "index": 0}),
        f"MultiWorkerMirroredStrategy takes no ps: drop the ps job, or check the job under "
        f"{PS_PROFILE}",
    ),
    "mwms-evaluator-outside": Case(
        "missing_evaluator_job",
        mwms(WORKERS, {"type": "evaluator", "index": 0}),
        'add the evaluator to the cluster, as a job "evaluator" of one task',
    ),
    "mwms-negative-index": Case(
        "negative_index",
        mwms(WORKERS, {"type": "worker", "index": -1}),
        "set task.index to this node's index in its job, from 0",
    ),
    "mwms-hole": Case(
        "task_in_hole",
        mwms({"worker": {"0": "w0:2222", "2": "w2:2222"}}, {"type": "worker", "index": 1}),
        "number the tasks of job 'worker' 0 to 1, without gaps: tf.distribute counts its 2 tasks "
        "and takes an index below that, whatever indices the job gives",
    ),
    "mwms-null-type": Case(
        "type",
        mwms(WORKERS, {"type": None, "index": 0}),
        'leave "type" out of the task, or give this node\'s job',
    ),
    # ParameterServerStrategy
    "ps-no-cluster": Case(
        "empty_cluster",
        ps({}),
        'give "cluster" the job\'s ps and worker tasks (and its chief); to train on this machine '
        f"alone, check the TF_CONFIG under {MWMS_PROFILE}",
    ),
    "ps-no-index": Case(
        "missing_task_index",
        ps({"cluster": WITH_PS, "task": {"type": "worker"}}),
        "set task.index to this node's index in job 'worker' (0 to 1)",
    ),
    "ps-no-ps": Case(
        "missing_ps",
        ps({"cluster": {"chief": ["c0:2222"], **WORKERS}}),
        "add a job 'ps' to the cluster; a cluster without parameter servers is one for "
        f"MultiWorkerMirroredStrategy: check it under {MWMS_PROFILE}",
    ),
    "ps-no-worker": Case(
        "missing_worker",
        ps({"cluster": {"chief": ["c0:2222"], "ps": ["p0:2222"]}}),
        "add a job 'worker' to the cluster: ParameterServerStrategy trains on the workers, and "
        "the chief only coordinates them",
    ),
    "ps-coordinator-not-in-cluster": Case(
        "task_type_not_in_cluster",
        ps({"cluster": {**WORKERS, "ps": ["p0:2222"]}, "task": {"type": "chief", "index": 0}}),
        "add a job 'chief' holding this node's address to the cluster, or set task.type to one "
        "of its jobs ('worker' or 'ps'), or leave the task out on the coordinator",
    ),
    # TFConfigClusterResolver
    "resolver-negative-task-id": Case(
        "negative_index",
        lambda: TFConfigClusterResolver(task_id=-1),
        "set task_id to this node's index in its job, from 0",
    ),
    "resolver-master-of-no-task": Case(
        "task_not_in_cluster",
        lambda: TFConfigClusterResolver(tf_config={"cluster": WORKERS}).master("worker", 5),
        "ask master() for an index of job 'worker' (0 to 1)",
    ),
    "resolver-null-index": Case(
        "type",
        lambda: TFConfigClusterResolver(tf_config={"task": {"index": None}}),
        'leave "index" out of the task, or give this node\'s index in its job',
    ),
    # tf.train.Server (the server profile)
    "server-no-job-name": Case(
        "missing_job_name",
        server({"cluster": {"ps": ["p0:2222"], **WORKERS}}),
        "set task.type to this node's job: 'ps' or 'worker'",
    ),
    "server-no-cluster": Case(
        "missing_job_name",
        server({}),
        'give TF_CONFIG the "cluster" the server joins, and this node\'s task in it',
    ),
    "server-no-task-index": Case(
        "missing_task_index",
        server({"cluster": WORKERS, "task": {"type": "worker"}}),
        "set task.index to this node's index in job 'worker' (0 to 1)",
    ),
    "server-index-past-int32": Case(
        "int32_range",
        server({"cluster": WORKERS, "task": {"type": "worker", "index": 2**31}}),
        "set task.index to this node's index in job 'worker' (0 to 1)",
    ),
    "server-job-not-in-cluster": Case(
        "task_not_in_cluster",
        server({"cluster": WORKERS, "task": {"type": "chief", "index": 0}}),
        "set task.type to one of the cluster's jobs ('worker'), or add a job 'chief' holding this "
        "node's address",
    ),
    "server-index-written-as-a-string": Case(
        "task_index_type",
        server({"cluster": WORKERS, "task": {"type": "worker", "index": "1"}}),
        'write the index as an integer: "index": 1',
    ),
    # SlurmClusterResolver
    "slurm-outside-a-step": Case(
        "slurm_variable_missing",
        lambda: SlurmClusterResolver(environ={}),
        "run it in a task srun starts: srun sets the SLURM_STEP_* variables of each task, and "
        "SLURM_JOB_* are never read",
    ),
    "slurm-rank-not-a-number": Case(
        "int_type",
        slurm(gpus_per_node=2, environ={"SLURM_PROCID": "x"}),
        "give SLURM_PROCID a whole number, as srun sets it",
    ),
    "slurm-count-not-a-number": Case(
        "int_type",
        slurm(gpus_per_node="2"),
        "give an int",
    ),
    "slurm-hostlist": Case(
        "slurm_hostlist",
        slurm(gpus_per_node=2, environ={"SLURM_STEP_NODELIST": "node[9-"}),
        "write the nodelist as SLURM does: hosts separated by commas, a run of numbered hosts in "
        "brackets (node[01-04,07],gpu1)",
    ),
    "slurm-tasks-per-node": Case(
        "slurm_tasks_per_node",
        slurm(gpus_per_node=2, environ={"SLURM_STEP_TASKS_PER_NODE": "2(x"}),
        "write the tasks per node as SLURM does: counts separated by commas, a count of several "
        "nodes in a row as N(xM) (2(x3),1)",
    ),
    "slurm-too-many-tasks": Case(
        "slurm_too_many_tasks",
        slurm(gpus_per_node=2, tasks_per_node={"node9": 70_000}),
        "give the step fewer tasks: srun --ntasks for the step, --ntasks-per-node for each node",
    ),
    "slurm-too-many-gpus": Case(
        "slurm_too_many_gpus",
        slurm(environ={"CUDA_VISIBLE_DEVICES": ",".join(map(str, range(2000)))}),
        "give the GPUs of one node, listed in CUDA_VISIBLE_DEVICES (0,1,...)",
    ),
    "slurm-no-gpu-count": Case(
        "gpu_count_unknown",
        slurm(),
        "give gpus_per_node (the GPUs of each node), or set CUDA_VISIBLE_DEVICES",
    ),
    "slurm-jobs-do-not-add-up": Case(
        "slurm_tasks",
        slurm(jobs={"worker": 3}, gpus_per_node=2),
        "give jobs whose sizes add up to 4, or run the step with 3 tasks (srun --ntasks)",
    ),
    "slurm-more-gpus-than-the-node": Case(
        "slurm_gpus",
        slurm(gpus_per_node=4, gpus_per_task=3),
        "give gpus_per_task 2 or less, or run at most 1 task on a node (srun --ntasks-per-node 1)",
    ),
    "slurm-float": Case("slurm_float", slurm(gpus_per_node=2.0), "give 2, an int"),
    "slurm-port-base": Case(
        "address",
        slurm(gpus_per_node=2, port_base=70_000),
        "give port_base a port from 0 to 65535 (8888 by default)",
    ),
    "slurm-no-node": Case(
        "slurm_no_nodes",
        slurm(gpus_per_node=2, tasks_per_node={}),
        "give tasks_per_node each host and its number of tasks",
    ),
    "slurm-no-task": Case(
        "slurm_no_tasks",
        slurm(gpus_per_node=2, environ={"SLURM_STEP_TASKS_PER_NODE": "0(x2)"}),
        "give the nodes their tasks, or give gpus_per_task",
    ),
    "slurm-cpu-only": Case("slurm_gpus_per_task_zero", slurm(gpus_per_node=0), _hints.CPU_ONLY),
    "slurm-rank-past-the-step": Case(
        "slurm_rank",
        slurm(gpus_per_node=2, environ={"SLURM_PROCID": "4"}),
        "run the program in a task srun starts: srun numbers the tasks of the step 0 to 3",
    ),
    "slurm-negative-rank": Case(
        "negative_index",
        slurm(gpus_per_node=2, environ={"SLURM_PROCID": "-1"}),
        "run the program in a task srun starts: srun numbers the tasks from 0",
    ),
    "slurm-master-of-no-task": Case(
        "task_not_in_cluster",
        lambda: SlurmClusterResolver(gpus_per_node=2, environ=STEP).master("worker", 9),
        "ask master() for an index of job 'worker' (0 to 3)",
    ),
}
"""One refusal per rule of each reader (a code more than once where its fix differs)."""


def refusal(case: Case) -> dict[str, Any]:
    """The error of ``case.code`` that ``case.make`` raises."""
    with pytest.raises(ValidationError) as raised:
        case.make()
    found = [error for error in raised.value.errors() if error["type"] == case.code]
    assert found, raised.value.errors()
    return dict(found[0])


@pytest.mark.parametrize("case", CASES.values(), ids=CASES)
def test_each_refusal_names_its_fix_beside_its_message(case: Case) -> None:
    error = refusal(case)
    assert hint_of(error) == case.hint
    assert case.hint not in error["msg"]
    assert too_long(case.hint) == []


@pytest.mark.parametrize("case", CASES.values(), ids=CASES)
def test_a_hint_names_a_profile_both_ways(case: Case) -> None:
    """``--profile ps`` alone means nothing from Python: a hint says ``the ps profile`` too."""
    for name in re.findall(r"--profile (\w+)", case.hint):
        assert _hints.profile(name) in case.hint


# -- every code of the readers ----------------------------------------------------------------

_RAISING = {"fail": 1, "add": 0, "custom_error": 0}
"""The calls that raise an error, and the position of their code argument."""
_CTX = {"fail": 5, "add": 4, "custom_error": 2}
"""The position of their ``ctx`` argument, which holds the hint."""
_FORMED = {
    "multiple_{job}s": {"multiple_chiefs", "multiple_evaluators"},
    "missing_{job}": {"missing_ps", "missing_worker"},
}
_CALLED = {"check_task_not_a_hole": "task_in_hole"}
"""The rules of other modules the readers call, and their codes."""


def _raising_calls() -> list[tuple[str, ast.Call]]:
    calls = []
    for source in sorted(READERS.glob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name == "add" and len(node.args) < 2:  # a set's, not Errors.add(code, message)
                    continue
                if name in _RAISING or name in _CALLED:
                    calls.append((f"{source.name}:{node.lineno}", node))
    return calls


def _code(call: ast.Call) -> set[str]:
    name = getattr(call.func, "id", getattr(call.func, "attr", ""))
    if name in _CALLED:
        return {_CALLED[name]}
    argument = call.args[_RAISING[name]]
    if isinstance(argument, ast.Constant):
        return {str(argument.value)}
    assert isinstance(argument, ast.JoinedStr), ast.unparse(argument)
    written = "".join(
        "{" + ast.unparse(part.value) + "}"
        if isinstance(part, ast.FormattedValue)
        else str(getattr(part, "value", ""))
        for part in argument.values
    )
    return _FORMED[written]


def test_every_code_the_readers_raise_has_a_refusal_above() -> None:
    raised = set().union(*(_code(call) for _, call in _raising_calls()))
    assert {"no_id_for_task_type", "missing_ps", "task_in_hole", "slurm_tasks"} <= raised
    assert raised == {case.code for case in CASES.values()}


def test_every_refusal_the_readers_raise_gives_a_hint() -> None:
    """Each raising call passes a ``ctx`` written out, with a ``hint`` key."""
    for where, call in _raising_calls():
        name = getattr(call.func, "id", getattr(call.func, "attr", ""))
        if name in _CALLED:
            continue
        ctx = call.args[_CTX[name]] if len(call.args) > _CTX[name] else None
        assert isinstance(ctx, ast.Dict), where
        keys = {key.value for key in ctx.keys if isinstance(key, ast.Constant)}
        assert "hint" in keys, where


# -- whatever the TF_CONFIG -------------------------------------------------------------------

_THE_READERS_CODES = {case.code for case in CASES.values()} - {"type", "int_type", "address"}
"""The codes no value rule of TF_CONFIG shares with the readers."""


@given(distribute_tf_configs())
def test_every_refusal_of_a_tf_config_names_its_fix(tf_config: dict[str, Any]) -> None:
    for reader in (MultiWorkerConfig, ParameterServerConfig, ServerConfig, TFConfigClusterResolver):
        try:
            reader(tf_config=tf_config)
        except ValidationError as refused:
            for error in refused.errors():
                if error["type"] in _THE_READERS_CODES:
                    assert hint_of(error), (reader.__name__, error)


# -- the words of the hints -------------------------------------------------------------------


def test_a_listing_counts_what_it_leaves_out() -> None:
    assert _hints.listing([]) == ""
    assert _hints.listing(["worker"]) == "'worker'"
    assert _hints.listing(["chief", "worker"]) == "'chief' or 'worker'"
    assert _hints.listing(["a", "b", "c"], "and") == "'a', 'b' and 'c'"
    assert _hints.listing([f"job{i}" for i in range(8)]).endswith("'job4' and 3 more")


def test_the_indices_of_a_job_are_said_from_0() -> None:
    assert (_hints.span(1), _hints.span(4)) == ("0", "0 to 3")


def test_the_index_of_a_sparse_job_is_not_listed() -> None:
    cluster = ClusterSpec({"worker": {"0": "w0:2222", "7": "w7:2222"}})
    assert (
        _hints.task_index_of("worker", cluster)
        == "set task.index to this node's index in job 'worker'"
    )


def test_more_gpus_than_a_node_has_says_what_fits() -> None:
    assert _hints.gpus_of_a_node(2, 4, 4) == (
        "give gpus_per_task 2 or less, or run at most 1 task on a node (srun --ntasks-per-node 1)"
    )
    assert _hints.gpus_of_a_node(2, 1, 2) == "give gpus_per_node the GPUs of each node"


def test_mwms_never_offers_a_ps_task() -> None:
    assert _hints.task_type_not_in_cluster("ps", ClusterSpec(WORKERS), _hints.MULTI_WORKER) == (
        _hints.no_id_for_task_type("ps")
    )
    only_ps = ClusterSpec({"ps": ["p0:2222"]})
    assert _hints.unrecognized_task_type("trainer", only_ps, _hints.MULTI_WORKER) == (
        "set task.type to this node's job in the cluster"
    )


def test_mwms_tells_a_ps_task_read_from_json_that_it_takes_no_ps() -> None:
    """The task type is compared by its text: one read from JSON is a string of its own."""
    text = '{"cluster": {"worker": ["w0:2222"]}, "task": {"type": "ps", "index": 0}}'
    with pytest.raises(ValidationError) as raised:
        MultiWorkerConfig(tf_config=json.loads(text))
    [error] = raised.value.errors()
    assert error["type"] == "task_type_not_in_cluster"
    assert hint_of(error) == _hints.no_id_for_task_type("ps")
