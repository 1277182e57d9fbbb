"""Hypothesis strategies for inputs TensorFlow may or may not accept.

Sparse indices stay small or beyond int32 (which TensorFlow refuses at once):
``job_tasks`` of a job with index ``2**31 - 1`` builds a list of 2**31 items.

Valid clusters and TF_CONFIGs come from ``tests/strategies.py``; here they are
mutated (wrong types, nulls, missing keys, odd indices, unknown task types,
a second chief, master next to chief, empty jobs, holes, bad addresses, …)
and rendered as ``TF_CONFIG`` text, sometimes broken at the text level.
"""

from __future__ import annotations

import copy
import functools
import importlib
import inspect
import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from strategies import HOSTS, clusters, valid_tf_configs

ODD_JOB_NAMES = (
    st.sampled_from(
        [
            "",
            "1w",
            "_w",
            "w-1",
            "wörker",
            "w\n",
            "w.x",
            "A",
            "Worker",
            "master",
            "chief",
            "evaluator",
        ]
    )
    | st.sampled_from(["ps", "worker", "job_1"])
    | st.text(max_size=5)
)

ODD_ADDRESSES = st.sampled_from(
    [
        "host",
        "host:",
        ":2222",
        "host:65536",
        "host:-1",
        "host:02",
        "ho st:1",
        "",
        "[::1]:1",
        "[::1:80",
        "::1:80",
        "[fe80::1%eth0]:8",
        "300.1.1.1:1",
        "10.0.0.01:1",
        "-host:1",
        "a..b:1",
        "h:1:2",
        "HOST0:1",
        "host:1\n",
        "localhost:0",
        "x" * 64 + ":1",
        "h_1:2",
    ]
) | st.builds(lambda host, port: f"{host}:{port}", st.sampled_from(HOSTS), st.integers(-2, 70000))

ODD_ADDRESS_VALUES: st.SearchStrategy[Any] = (
    ODD_ADDRESSES | st.sampled_from([5, None, True, ["h:1"], {"a": 1}]) | st.text(max_size=8)
)

ODD_SPARSE_KEYS: st.SearchStrategy[Any] = (
    st.sampled_from(
        [
            -1,
            "-1",
            "01",
            " 1",
            "1 ",
            "+1",
            "1_0",
            "\u0661",
            "x",
            "1.0",
            "",
            2**31,
            str(2**31),
            0,
            "0",
        ]
    )
    | st.integers(-3, 12)
    | st.text(max_size=3)
)

ODD_PY_SPARSE_KEYS: st.SearchStrategy[Any] = ODD_SPARSE_KEYS | st.sampled_from(
    [1.5, 1.0, True, False, 0.0]
)

ODD_INDICES: st.SearchStrategy[Any] = st.sampled_from(
    [
        0,
        1,
        2,
        3,
        -1,
        -2,
        2**31,
        10**20,
        1.0,
        0.0,
        1.5,
        0.5,
        -0.5,
        True,
        False,
        "0",
        "1",
        "01",
        " 1",
        "1 ",
        "+1",
        "-1",
        "-0",
        "1_0",
        "\u0661",
        "1.0",
        "",
        "x",
        None,
        [],
        [0],
        {},
        float("nan"),
        float("inf"),
        1e300,
    ]
) | st.integers(-3, 8)

ODD_TASK_TYPES: st.SearchStrategy[Any] = (
    st.sampled_from(["worker", "ps", "chief", "master", "evaluator", "Worker", "", " worker"])
    | st.sampled_from([5, None, [], {}, True, 0.0, ["worker"]])
    | st.text(max_size=4)
)

ODD_STRINGS: st.SearchStrategy[Any] = st.sampled_from(
    ["", "local", "grpc://m:1", "grpc://e:2", 5, None, True, [], {}, ["x"], 1.5]
)

ODD_MODEL_DIRS: st.SearchStrategy[Any] = st.sampled_from(
    ["", "/tmp/m", "/tmp/other", "gs://b/m", 0, None, [], False, 1, "0"]
)

ODD_SERVICES: st.SearchStrategy[Any] = st.sampled_from(
    [
        None,
        5,
        "x",
        [],
        [1],
        True,
        {},
        {"tpu_worker_job_name": "tpu_worker"},
        {"tpu_worker_job_name": None},
        {"tpu_worker_job_name": ""},
        {"other": 1},
    ]
)

JUNK: st.SearchStrategy[Any] = st.sampled_from([None, [], "worker", 5, True, 1.5, ["h:1"]])


def _choose(draw: st.DrawFn, items: list[Any]) -> Any:
    return draw(st.sampled_from(items))


def _addresses_in(cluster: dict[str, Any]) -> list[Any]:
    found: list[Any] = []
    for tasks in cluster.values():
        if isinstance(tasks, (list, tuple)):
            found.extend(tasks)
        elif isinstance(tasks, dict):
            found.extend(tasks.values())
    return found


def mutate_cluster(draw: st.DrawFn, cluster: dict[Any, Any], python: bool) -> None:
    """Apply one mutation to ``cluster`` in place (JSON values only unless ``python``)."""
    op = draw(
        st.sampled_from(
            ["rename", "tasks", "address", "key", "add", "drop", "duplicate", "sparse", "empty"]
        )
    )
    jobs = list(cluster)
    if op == "add" or not jobs:
        name = draw(ODD_JOB_NAMES | st.sampled_from(["worker", "ps", "chief", "extra"]))
        cluster[name] = draw(st.lists(ODD_ADDRESSES, min_size=1, max_size=3))
        return
    job = _choose(draw, jobs)
    if op == "rename":
        cluster[draw(ODD_JOB_NAMES)] = cluster.pop(job)
    elif op == "drop":
        del cluster[job]
    elif op == "empty":
        cluster[job] = draw(st.sampled_from([[], {}]))
    elif op == "tasks":
        values = [None, "h:1", 5, True, {"a": 1}] if not python else [None, "h:1", 5, b"h:1"]
        cluster[job] = _choose(draw, values)
    elif op == "sparse":
        tasks = cluster[job]
        if isinstance(tasks, list):
            keys = draw(
                st.lists(
                    st.integers(0, 2 * len(tasks) + 2),
                    min_size=len(tasks),
                    max_size=len(tasks),
                    unique=True,
                )
            )
            as_text = draw(st.booleans())
            cluster[job] = {(str(k) if as_text else k): a for k, a in zip(keys, tasks, strict=True)}
    elif op == "key":
        tasks = cluster[job]
        address = draw(st.sampled_from(HOSTS)) + f":{draw(st.integers(30000, 39999))}"
        key = draw(ODD_PY_SPARSE_KEYS if python else ODD_SPARSE_KEYS)
        if isinstance(tasks, dict):
            tasks[key] = address
        elif isinstance(tasks, (list, tuple)):
            cluster[job] = {**dict(enumerate(tasks)), key: address}
        else:
            cluster[job] = {key: address}
    elif op in ("address", "duplicate"):
        tasks = cluster[job]
        if op == "duplicate":
            existing = _addresses_in(cluster)
            value = _choose(draw, existing) if existing else "h:1"
            if isinstance(value, str) and draw(st.booleans()):
                value = value.upper()
        else:
            value = draw(ODD_ADDRESS_VALUES)
            if python and draw(st.booleans()):
                value = draw(st.sampled_from([b"h:1", ("h:1",), 7]))
        if isinstance(tasks, list) and tasks:
            tasks[draw(st.integers(0, len(tasks) - 1))] = value
        elif isinstance(tasks, dict) and tasks:
            tasks[_choose(draw, list(tasks))] = value
    if python and draw(st.booleans()):
        for name, tasks in cluster.items():
            if isinstance(tasks, list):
                cluster[name] = tuple(tasks)
                break


@st.composite
def cluster_inputs(draw: st.DrawFn, python: bool = True) -> Any:
    """A cluster for ``tf.train.ClusterSpec``: valid, mutated, or not a dict at all."""
    kind = draw(st.sampled_from(["valid", "mutated", "mutated", "junk"]))
    if kind == "junk":
        return draw(JUNK)
    cluster = copy.deepcopy(draw(clusters()))
    if kind == "mutated":
        for _ in range(draw(st.integers(1, 3))):
            mutate_cluster(draw, cluster, python)
    return cluster


def _task(data: dict[str, Any]) -> dict[str, Any] | None:
    task = data.get("task")
    return task if isinstance(task, dict) else None


def mutate_tf_config(draw: st.DrawFn, data: dict[str, Any]) -> None:
    """Apply one mutation to a TF_CONFIG object in place."""
    op = draw(
        st.sampled_from(
            [
                "task",
                "type",
                "index",
                "index",
                "drop_type",
                "drop_index",
                "cluster",
                "cluster",
                "cluster_value",
                "master",
                "chief",
                "no_chief",
                "evaluator_job",
                "hole",
                "string_key",
                "model_dir",
                "service",
                "extra",
            ]
        )
    )
    task = _task(data)
    cluster = data.get("cluster")
    if op == "task":
        if draw(st.booleans()):
            data.pop("task", None)
        else:
            data["task"] = draw(JUNK)
    elif op == "type":
        data.setdefault("task", {})
        if isinstance(data["task"], dict):
            jobs = list(cluster) if isinstance(cluster, dict) and cluster else ["worker"]
            data["task"]["type"] = draw(ODD_TASK_TYPES | st.sampled_from(jobs))
    elif op == "index":
        data.setdefault("task", {})
        if isinstance(data["task"], dict):
            data["task"]["index"] = draw(ODD_INDICES)
    elif op == "drop_type" and task is not None:
        task.pop("type", None)
    elif op == "drop_index" and task is not None:
        task.pop("index", None)
    elif op == "cluster":
        if not isinstance(cluster, dict):
            cluster = data["cluster"] = {}
        mutate_cluster(draw, cluster, python=False)
    elif op == "cluster_value":
        if draw(st.booleans()):
            data.pop("cluster", None)
        else:
            data["cluster"] = draw(st.sampled_from([{}, None, [], "x", 5]))
    elif op == "master" and isinstance(cluster, dict):
        cluster["master"] = draw(
            st.sampled_from([["m0:1"], ["m0:1", "m1:1"], {"0": "m0:1"}, {"1": "m1:1"}])
        )
    elif op == "chief" and isinstance(cluster, dict):
        cluster["chief"] = draw(
            st.sampled_from(
                [["c0:1"], ["c0:1", "c1:1"], {"0": "c0:1"}, {"1": "c1:1"}, {"2": "c:2"}]
            )
        )
    elif op == "no_chief" and isinstance(cluster, dict):
        cluster.pop("chief", None)
    elif op == "evaluator_job" and isinstance(cluster, dict):
        cluster["evaluator"] = draw(st.sampled_from([["ev0:1"], ["ev0:1", "ev1:1"], {"3": "ev:3"}]))
    elif op == "hole" and isinstance(cluster, dict) and task is not None:
        job = task.get("type")
        tasks = cluster.get(job) if isinstance(job, str) else None
        if isinstance(tasks, list) and tasks:
            index = draw(st.integers(0, len(tasks)))
            keys = [k if k < index else k + 1 for k in range(len(tasks))]
            cluster[job] = dict(zip(map(str, keys), tasks, strict=True))
            task["index"] = index
    elif op == "string_key":
        key = draw(
            st.sampled_from(["session_master", "eval_session_master", "environment", "rpc_layer"])
        )
        if draw(st.booleans()) and key in data:
            del data[key]
        else:
            data[key] = draw(ODD_STRINGS)
    elif op == "model_dir":
        data["model_dir"] = draw(ODD_MODEL_DIRS)
    elif op == "service":
        data["service"] = draw(ODD_SERVICES)
    elif op == "extra":
        data[draw(st.sampled_from(["job", "x", "tpu"]))] = draw(
            st.sampled_from([{"job_name": "x"}, None, 5, float("nan"), [1, 2]])
        )
        if task is not None and draw(st.booleans()):
            task["trial"] = "1"


@st.composite
def mutated_tf_configs(draw: st.DrawFn) -> dict[str, Any]:
    """A TF_CONFIG object derived from a valid one by one to three mutations."""
    data: dict[str, Any] = copy.deepcopy(draw(valid_tf_configs))
    for _ in range(draw(st.integers(1, 3))):
        mutate_tf_config(draw, data)
    return data


RAW_TEXTS = st.sampled_from(
    [
        "",
        "   ",
        "\n",
        "null",
        "[]",
        "5",
        '"x"',
        "true",
        "{",
        "{} x",
        "{}",
        " {} ",
        "NaN",
        '{"task": {"type": "worker", "index": NaN}}',
        '{"task": {"type": "worker", "index": Infinity}}',
        '{"task": {"type": "worker", "index": 0}, "x": -Infinity}',
        '{"task": {"index": 1e400}}',
        '{"task": {"index": ' + "1" * 5000 + "}}",
        "\ufeff{}",
        '{"task": {"type": "worker", "type": "ps"}}',
        '{"cluster": {}, "cluster": {"chief": ["h:1"]}, "task": {"type": "chief", "index": 0}}',
        '{"x": ' + "[" * 3000 + "]" * 3000 + "}",
        '{"cluster": {"chief": ["h:1"], "worker": {"1": "h:2", "1": "h:3"}},'
        ' "task": {"type": "worker", "index": 1}}',
    ]
)


def _with_duplicate_key(data: dict[str, Any], draw: st.DrawFn) -> str:
    """Render ``data`` with one key written twice (the second one wins in json.loads)."""
    if not data:
        return '{"task": {}, "task": {}}'
    key = _choose(draw, list(data))
    earlier = draw(st.sampled_from([{}, None, 5, "x", data[key]]))
    return "{" + json.dumps(key) + ": " + json.dumps(earlier) + ", " + json.dumps(data)[1:]


@st.composite
def tf_config_texts(draw: st.DrawFn) -> str | None:
    """A ``TF_CONFIG`` value (None: unset): valid, mutated, or broken as text."""
    kind = draw(
        st.sampled_from(["unset", "valid", "valid", "mutated", "mutated", "mutated", "dup", "raw"])
    )
    if kind == "unset":
        return None
    if kind == "raw":
        return draw(RAW_TEXTS)
    data = draw(valid_tf_configs if kind == "valid" else mutated_tf_configs())
    if kind == "dup":
        return _with_duplicate_key(data, draw)
    return json.dumps(data, indent=draw(st.sampled_from([None, 2])))


# --------------------------------------------------------------------------
# Keyword arguments of tf.estimator.RunConfig and the TPU classes


def device_fn_op(op: Any) -> Any:
    return op


def device_fn_x(x: Any) -> Any:
    return x


def device_fn_none() -> None:
    return None


def device_fn_two(op: Any, other: Any) -> Any:
    return op


def device_fn_keyword(*, op: Any) -> Any:
    return op


@functools.wraps(device_fn_op)
def device_fn_wrapped(*args: Any, **kwargs: Any) -> Any:
    """Decorated: ``__wrapped__`` takes ``op``, the function itself only ``*args``."""
    return device_fn_op(*args, **kwargs)


def device_fn_second(x: Any, op: Any) -> Any:
    return op


class DeviceFnClass:
    """A class whose ``__init__`` takes ``op`` (read with ``self``)."""

    def __init__(self, op: Any) -> None:
        self.op = op


class DeviceFnCall:
    """An object whose ``__call__`` takes ``op``; ``inspect.signature`` cannot read it."""

    __signature__ = "not a signature"

    def __call__(self, op: Any) -> Any:
        return op


class DeviceFnSays:
    """An object whose ``__signature__`` says ``(op)`` while ``__call__`` takes ``*args``."""

    __signature__ = inspect.Signature(
        [inspect.Parameter("op", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    )

    def __call__(self, *args: Any) -> Any:
        return args


DEVICE_FNS: dict[str, Any] = {
    "wrapped": device_fn_wrapped,
    "class": DeviceFnClass,
    "object": DeviceFnCall(),
    "object with __signature__": DeviceFnSays(),
    "partial x=1": functools.partial(device_fn_second, x=1),
    "partial 1": functools.partial(device_fn_second, 1),
    "partial op=1": functools.partial(device_fn_op, op=1),
    "partial of wrapped": functools.partial(device_fn_wrapped),
    "bound __call__": DeviceFnCall().__call__,
    "next": next,
    "str": str,
}
"""Callables whose argument names ``inspect.getfullargspec`` and ``inspect.signature`` read
differently (a partial or an object is copied by ``copy.deepcopy``: give them as they are)."""


SESSION_CONFIGS: list[Any] = [
    None,
    {},
    {"allow_soft_placement": True},
    {"device_filters": ["/job:ps", "/job:worker/task:0"]},
    {"log_device_placement": True, "inter_op_parallelism_threads": 2},
    {"intra_op_parallelism_threads": 4, "operation_timeout_in_ms": 5000},
    {"gpu_options": {"allow_growth": True, "per_process_gpu_memory_fraction": 0.5}},
    {"graph_options": {"rewrite_options": {"meta_optimizer_iterations": "TWO"}}},
    {"isolate_session_state": True},
]

NAN = float("nan")
INF = float("inf")


def _other_numbers() -> list[Any]:
    """Numbers of other Python types: whole, fractional, out of bounds; numpy's where installed."""
    numbers: list[Any] = [Decimal(5), Decimal("2.5"), Decimal("-0.5"), Decimal("NaN")]
    numbers += [Fraction(4, 2), Fraction(3, 2), Fraction(-1, 2)]
    try:
        numpy = importlib.import_module("numpy")  # installed with TensorFlow
    except ImportError:
        return numbers
    return [*numbers, numpy.int64(7), numpy.float32(2.0), numpy.float32(2.5), numpy.bool_(True)]


OTHER_NUMBERS = _other_numbers()
"""Where an integer is meant, the whole ones are read as that integer."""

RUN_CONFIG_VALUES: dict[str, list[Any]] = {
    "model_dir": [None, "/tmp/m", "/tmp/other", "gs://b/m", "", 0, 5, b"/tmp/b", "PATH"],
    "tf_random_seed": [None, 0, 42, -1, 2**40, 1.0, 1.5, True, "1"],
    "save_summary_steps": [None, 0, 100, -1, 2.0, 1.5, True, "5", -0.5, NAN, *OTHER_NUMBERS],
    "save_checkpoints_steps": [None, 0, 10, -1, 2.0, 1.5, True, "5", NAN, *OTHER_NUMBERS],
    "save_checkpoints_secs": [None, 0, 60, -1, 0.5, True, "5", *OTHER_NUMBERS],
    "session_config": SESSION_CONFIGS,
    "keep_checkpoint_max": [None, 0, 5, -1, 1.5, 3.0, True, -0.5, *OTHER_NUMBERS],
    "keep_checkpoint_every_n_hours": [None, 0, 0.5, 1, -1, 10000, True, "1", *OTHER_NUMBERS],
    "log_step_count_steps": [None, 0, 1, 100, -1, 1.5, True, -INF, 0.5, *OTHER_NUMBERS],
    "protocol": [None, "grpc", "grpc+verbs", "http", "", 5],
    "experimental_max_worker_delay_secs": [None, 0, 60, -5, 1.5, True, "60"],
    "session_creation_timeout_secs": [None, 0, 1, 7200, -1, 0.5, True, *OTHER_NUMBERS],
    "checkpoint_save_graph_def": [True, False, None, "no", 0, 1],
    "device_fn": [
        None,
        device_fn_op,
        device_fn_x,
        device_fn_none,
        device_fn_two,
        device_fn_keyword,
        5,
        device_fn_wrapped,
        DeviceFnClass,
    ],
}
"""Values to try for each argument: valid, out of bounds, and of the wrong type."""


def _resolve(name: str, value: Any) -> Any:
    if name == "model_dir" and value == "PATH":
        import pathlib

        return pathlib.PurePosixPath("/tmp/m")
    return value


@st.composite
def run_config_kwargs(
    draw: st.DrawFn, values: dict[str, list[Any]] | None = None
) -> dict[str, Any]:
    """Keyword arguments for ``tf.estimator.RunConfig``: a few arguments, mostly valid."""
    table = RUN_CONFIG_VALUES if values is None else values
    names = draw(st.lists(st.sampled_from(sorted(table)), max_size=4, unique=True))
    kwargs: dict[str, Any] = {}
    for name in names:
        choices = table[name]
        # the first few values of each list are valid; favour them
        value = draw(st.sampled_from(choices[:3]) | st.sampled_from(choices))
        kwargs[name] = _resolve(name, value)
    return kwargs


REPLACE_KEYS = [
    *RUN_CONFIG_VALUES,
    "train_distribute",
    "eval_distribute",
    "experimental_distribute",
    "master",
    "tf_config",
    "cluster_spec",
    "task_type",
    "unknown",
]


@st.composite
def replace_kwargs(draw: st.DrawFn) -> dict[str, Any]:
    """Keyword arguments for ``RunConfig.replace``, allowed keys or not."""
    names = draw(st.lists(st.sampled_from(REPLACE_KEYS), max_size=3, unique=True))
    kwargs: dict[str, Any] = {}
    for name in names:
        choices = RUN_CONFIG_VALUES.get(name, [None, "x"])
        kwargs[name] = _resolve(name, draw(st.sampled_from(choices)))
    return kwargs


TPU_CONFIG_VALUES: dict[str, list[Any]] = {
    "iterations_per_loop": [
        2,
        100,
        "10m",
        1,
        0,
        -1,
        "10",
        "10s",
        "1h",
        "0s",
        "010",
        "10|",
        "10\n",
        "10x",
        1.5,
        2.0,
        True,
        "",
        "\u0661\u0660",
        "5d",
    ],
    "num_shards": [None, 8, 1, 0, -1, 1.5, True, "8"],
    "num_cores_per_replica": [None, 1, 2, 8, 3, 128, 256, 1.0, True, 0],
    "per_host_input_for_training": [True, False, 3, 1, 2, 4, 5, 0, 6, None, "x", 3.0],
    "tpu_job_name": [None, "tpu_worker", "", 5, "job"],
    "initial_infeed_sleep_secs": [None, 0, 5, -1, 1.5, True, "5", 0.0, ""],
    "input_partition_dims": [
        None,
        [[1, 2], None],
        [[2, 1]],
        [{"a": [1, 2], "b": None}, None],
        [],
        [[1, 2], [1], [2]],
        [None],
        [[0, 2]],
        [[1, 4]],
        "x",
        [[1.0, 2]],
        [[Decimal(1), Fraction(4, 2)]],
        [[Decimal("1.5"), 2]],
        [[True, 2]],
        ["ab"],
    ],
    "eval_training_input_configuration": [2, 5, 1, 3, 2.0, True],
    "experimental_host_call_every_n_steps": [1, 2, 0, -1, 1.5, True, "2", 2.0, *OTHER_NUMBERS],
    "experimental_allow_per_host_v2_parallel_get_next": [False, True, "x", 0, None],
}


@st.composite
def tpu_config_kwargs(draw: st.DrawFn) -> dict[str, Any]:
    """Keyword arguments for ``TPUConfig``; partition dims come with their requirements."""
    kwargs = draw(run_config_kwargs(TPU_CONFIG_VALUES))
    if "input_partition_dims" in kwargs and draw(st.booleans()):
        kwargs["per_host_input_for_training"] = 3
        kwargs.setdefault("num_cores_per_replica", 2)
    return kwargs
