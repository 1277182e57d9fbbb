"""estconf.distribute against TensorFlow's own tf.distribute readers of TF_CONFIG (2.15 and 2.21).

The strategies start servers when they are built, so each TensorFlow side
below calls the functions the constructor calls, in the order it calls them,
with ``TF_CONFIG`` set in ``os.environ``; each says which TensorFlow code it
mirrors.  The oracle is the suite's (``compat/harness.py``): equal values where
TensorFlow accepts, a ``ValueError`` with TensorFlow's sentence where it
refuses, and a refusal of an input TensorFlow accepts only under a section 6
rule, decided by the harness's ``deliberate_unread`` independently of estconf's code.
"""

from __future__ import annotations

import copy
import importlib.metadata
import json
import os
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compat.harness import (
    CODE_RULES,
    Mismatch,
    Outcome,
    attempt,
    deliberate_unread,
    environ_of,
    error_codes,
    import_tensorflow,
    judge,
    same,
    same_cluster,
    tf_attempt,
    tf_sentence,
)
from compat.mutations import mutate_tf_config, tf_config_texts
from estconf.distribute import (
    MultiWorkerConfig,
    ParameterServerConfig,
    ServerConfig,
    TFConfigClusterResolver,
)

from strategies import distribute_tf_configs

tf = import_tensorflow(estimator=False)
from tensorflow.python.distribute import (  # noqa: E402 - after the skip in import_tensorflow
    device_util,
    multi_worker_util,
    parameter_server_strategy_v2,
)
from tensorflow.python.training import server_lib  # noqa: E402

pytestmark = pytest.mark.compat

TFResolver = tf.distribute.cluster_resolver.TFConfigClusterResolver


# --------------------------------------------------------------------------
# The oracle, with the readers' sentences

DISTRIBUTE_SENTENCES = [
    re.compile(pattern, re.DOTALL)
    for pattern in [
        # collective_all_reduce_strategy.py
        r"When `cluster_spec` is given, you must also specify `task_type` and `task_id`\.",
        r"No `worker`, `chief` or `evaluator` tasks can be found in `cluster_spec`\.",
        # multi_worker_util.py
        r"Disallowed task type found in cluster spec\. Allowed types are .* and the cluster "
        r"spec is ClusterSpec\(.*\)\.",
        r"Unrecognized task_type: .*, valid task types are: \(.*\)",
        r"`task_type` .* not found in cluster_spec\.",
        r"There must be at most one '\w+' job\.",
        r"The `task_id` -?\d+ exceeds the maximum id of \w+\.",
        r"There is no id for task_type .*",
        # parameter_server_strategy_v2.py
        r"Cluster spec must be non-empty in `tf\.distribute\.cluster_resolver\.ClusterResolver`\.",
        r"There must be at least one (ps|worker)\.",
        # server_lib.py: _make_server_def, ClusterSpec.task_address
        r"Must specify an explicit `job_name`\.",
        r"Must specify an explicit `task_index`\.",
        # server_lib.py, through TFConfigClusterResolver.master
        r"No such job in cluster: .*",
        r"No task with index .* in job .*",
        # int() of a sparse job's key (ClusterSpec) or of the task's index (the resolver)
        r"invalid literal for int\(\) with base 10: .*",
        # protobuf's int32 fields: a sparse index (ClusterDef), the server's index (ServerDef)
        r"Value out of range: -?\d+",
    ]
]
"""TensorFlow's sentences in these readers; each is the whole of TensorFlow's message."""


def explained(error: BaseException, rules: set[str]) -> bool:
    """Whether every error estconf reports falls under one of ``rules``."""
    codes = error_codes(error)
    return bool(codes) and all(CODE_RULES.get(code, frozenset()) & rules for code in codes)


def judge_reader(
    what: str, tf_out: Outcome, ours: Outcome, rules: set[str], compare: Callable[[Any, Any], None]
) -> None:
    """The harness's oracle, with these readers' rules and sentences."""
    if tf_out.ok and not ours.ok and isinstance(ours.error, ValueError):
        assert ours.error is not None
        if not explained(ours.error, rules):
            raise Mismatch(
                f"{what}\nTensorFlow accepts it; estconf rejects it with errors outside the "
                f"section 6 rules {sorted(rules)}: {ours.error}"
            )
        return
    judge(what, tf_out, ours, rules, compare)
    if tf_out.error is None or ours.error is None:
        return
    # Unlike the harness, a section 6 rule that also fires excuses no missing
    # sentence: estconf reports TensorFlow's complaint beside its own.
    message = str(tf_out.error)
    if any(pattern.fullmatch(message) for pattern in DISTRIBUTE_SENTENCES):
        sentence: str | None = message
    else:
        sentence = tf_sentence(tf_out.error)
    if sentence is not None and sentence not in str(ours.error):
        raise Mismatch(
            f"{what}\nboth reject it, but estconf's message lacks TensorFlow's sentence "
            f"{sentence!r}:\nestconf: {ours.error}"
        )


# --------------------------------------------------------------------------
# TensorFlow's side, in the order TensorFlow runs it


def tf_resolver(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``TFConfigClusterResolver(**kwargs)`` and each of its properties (all read TF_CONFIG)."""
    resolver = TFResolver(**kwargs)
    return {
        "task_type": resolver.task_type,
        "task_id": resolver.task_id,
        "rpc_layer": resolver.rpc_layer,
        "environment": resolver.environment,
        "cluster_spec": resolver.cluster_spec(),
        "resolver": resolver,
    }


def tf_multi_worker() -> dict[str, Any]:
    """What ``MultiWorkerMirroredStrategy()`` derives, without starting a server.

    Mirrors ``CollectiveAllReduceExtended._initialize_strategy`` (no devices:
    single-worker when ``cluster_spec().as_dict()`` is empty), then
    ``_initialize_local`` or ``_initialize_multi_worker``: its own check of the
    task, ``multi_worker_util.id_in_cluster``, ``worker_count``, its check of
    the count, ``is_chief``, the worker device, ``collective_leader`` and, for
    chief and worker tasks, ``coordination_leader``.
    """
    resolver = TFResolver()
    if not resolver.cluster_spec().as_dict():
        return {
            "multi_worker": False,
            "cluster_spec": None,
            "task_type": None,
            "task_id": None,
            "num_workers": 1,
            "id_in_cluster": 0,
            "is_chief": True,
            "collective_leader": "",
            "coordination_leader": "",
            "worker_device": device_util.canonicalize("/device:CPU:0"),
            "rpc_layer": resolver.rpc_layer,
        }
    cluster_spec = multi_worker_util.normalize_cluster_spec(resolver.cluster_spec())
    task_type = resolver.task_type
    task_id = resolver.task_id
    if task_type is None or task_id is None:  # _initialize_multi_worker's own check
        raise ValueError(
            "When `cluster_spec` is given, you must also specify `task_type` and `task_id`."
        )
    id_in_cluster = multi_worker_util.id_in_cluster(cluster_spec, task_type, task_id)
    num_workers = multi_worker_util.worker_count(cluster_spec, task_type)
    if not num_workers:  # _initialize_multi_worker's own check
        raise ValueError(
            "No `worker`, `chief` or `evaluator` tasks can be found in `cluster_spec`."
        )
    is_chief = multi_worker_util.is_chief(cluster_spec, task_type, task_id)
    worker_device = "/job:%s/task:%d" % (task_type, task_id)  # noqa: UP031 - TensorFlow's
    collective_leader = multi_worker_util.collective_leader(cluster_spec, task_type, task_id)
    coordination_leader = ""
    if task_type in ("chief", "worker"):
        coordination_leader = multi_worker_util.coordination_leader(cluster_spec)
    return {
        "multi_worker": True,
        "cluster_spec": cluster_spec,
        "task_type": task_type,
        "task_id": task_id,
        "num_workers": num_workers,
        "id_in_cluster": id_in_cluster,
        "is_chief": is_chief,
        "collective_leader": collective_leader,
        "coordination_leader": coordination_leader,
        "worker_device": worker_device,
        "rpc_layer": resolver.rpc_layer,
    }


def tf_parameter_server() -> dict[str, Any]:
    """What ``ParameterServerStrategy(TFConfigClusterResolver())`` checks and sets up.

    Runs TensorFlow's own ``ParameterServerStrategyV2._verify_args_and_config``
    (which uses nothing of the instance), then mirrors ``_connect_to_cluster``
    up to the device filters, which it builds with TensorFlow's
    ``ClusterDeviceFilters``; ``role`` is the one TensorFlow's documentation
    gives (the chief, or a process outside the cluster, is the coordinator).
    """
    resolver = TFResolver()
    verify = parameter_server_strategy_v2.ParameterServerStrategyV2._verify_args_and_config
    verify(None, resolver)
    cluster_spec = resolver.cluster_spec()
    num_workers = len(cluster_spec.as_dict().get("worker", ()))
    num_ps = len(cluster_spec.as_dict().get("ps", ()))
    filters = server_lib.ClusterDeviceFilters()
    for i in range(num_workers):
        filters.set_device_filters("worker", i, ["/job:ps", "/job:chief"])
    for i in range(num_ps):
        filters.set_device_filters("ps", i, ["/job:worker", "/job:chief"])
    task_type = resolver.task_type
    return {
        "cluster_spec": cluster_spec,
        "task_type": task_type,
        "task_id": resolver.task_id,
        "rpc_layer": resolver.rpc_layer,
        "num_workers": num_workers,
        "num_ps": num_ps,
        "role": "coordinator" if task_type in (None, "chief") else task_type,
        "device_filters": {
            f"{job}:{index}": list(value)
            for job, tasks in filters._device_filters.items()
            for index, value in tasks.items()
        },
    }


# --------------------------------------------------------------------------
# Comparisons


def tf_server() -> dict[str, Any]:
    """What a TF1 program's ``tf.train.Server`` checks before it starts, as dist-mnist reads.

    The program reads ``TF_CONFIG`` itself (``json.loads``, ``dict.get``), then
    ``tf.train.Server(tf.train.ClusterSpec(cluster), job_name=task["type"],
    task_index=task["index"])``.  No server is started: TensorFlow's own
    ``server_lib._make_server_def`` builds the ``ServerDef`` (the job name and
    index inferred from the cluster when missing, the index given to an
    ``int32`` field), then ``ClusterSpec.task_address`` looks the task up, as
    the server does when it starts.
    """
    tf_config = json.loads(os.environ.get("TF_CONFIG", "{}"))
    task = tf_config.get("task", {})
    cluster_spec = tf.train.ClusterSpec(tf_config.get("cluster", {}))
    server_def = server_lib._make_server_def(
        cluster_spec, task.get("type"), task.get("index"), None, None
    )
    address = cluster_spec.task_address(server_def.job_name, server_def.task_index)
    return {
        "cluster_spec": cluster_spec,
        "task_type": server_def.job_name,
        "task_id": server_def.task_index,
        "address": address,
        "target": "grpc://" + address,
    }


def compare_values(tf_values: dict[str, Any], ours: Any) -> None:
    for key, value in tf_values.items():
        if key == "resolver":
            continue
        if key == "cluster_spec" and value is not None:
            same_cluster(
                key,
                value,
                ours.cluster_spec if not callable(ours.cluster_spec) else ours.cluster_spec(),
            )
        else:
            mine = getattr(ours, key)
            same(key, value, mine)


MASTER_ARGS: list[dict[str, Any]] = [
    {},
    {"rpc_layer": "grpc"},
    {"rpc_layer": ""},
    {"task_type": "worker", "task_id": 0},
    {"task_type": "ps", "task_id": 1},
    {"task_type": "chief", "task_id": 0, "rpc_layer": "x"},
    {"task_id": 3},
]


KEPT = ("rpc_layer", "environment")
"""The resolver's arguments TensorFlow keeps unchecked (``task_type`` it reads with ``str()``)."""


def check_resolver(text: str | None, kwargs: dict[str, Any]) -> None:
    """Mirrors ``TFConfigClusterResolver``: its properties, then ``master(...)``."""
    what = f"TFConfigClusterResolver(**{kwargs!r}) with TF_CONFIG={text!r}"
    tf_out = tf_attempt(text, lambda: tf_resolver(kwargs))
    ours = attempt(lambda: TFConfigClusterResolver.from_env(environ_of(text), **kwargs))
    rules = deliberate_unread(text)
    if kwargs.get("task_id") is not None and int(kwargs["task_id"]) < 0:
        rules.add("negative_index")
    if any(kwargs.get(key) is not None and not isinstance(kwargs[key], str) for key in KEPT):
        rules.add("type")  # TensorFlow keeps these arguments as given
    judge_reader(what, tf_out, ours, rules, compare_values)
    if not (tf_out.ok and ours.ok):
        return
    resolver = tf_out.value["resolver"]
    for args in MASTER_ARGS:
        check_master(what, text, resolver, ours.value, args)


def check_master(
    what: str, text: str | None, resolver: Any, ours: TFConfigClusterResolver, args: dict[str, Any]
) -> None:
    """Mirrors ``TFConfigClusterResolver.master(**args)``."""
    tf_master = tf_attempt(text, lambda: resolver.master(**args))
    our_master = attempt(lambda: ours.master(**args))

    def compare(tf_value: Any, our_value: Any) -> None:
        same(f"master(**{args!r})", tf_value, our_value)

    judge_reader(f"{what}.master(**{args!r})", tf_master, our_master, set(), compare)


def check_multi_worker(text: str | None) -> None:
    tf_out = tf_attempt(text, tf_multi_worker)
    ours = attempt(lambda: MultiWorkerConfig.from_env(environ_of(text)))
    judge_reader(
        f"MultiWorkerConfig, TF_CONFIG={text!r}",
        tf_out,
        ours,
        deliberate_unread(text),
        compare_values,
    )


def check_parameter_server(text: str | None) -> None:
    tf_out = tf_attempt(text, tf_parameter_server)
    ours = attempt(lambda: ParameterServerConfig.from_env(environ_of(text)))
    judge_reader(
        f"ParameterServerConfig, TF_CONFIG={text!r}",
        tf_out,
        ours,
        deliberate_unread(text),
        compare_values,
    )


def check_server(text: str | None) -> None:
    tf_out = tf_attempt(text, tf_server)
    ours = attempt(lambda: ServerConfig.from_env(environ_of(text)))
    judge_reader(
        f"ServerConfig, TF_CONFIG={text!r}", tf_out, ours, deliberate_unread(text), compare_values
    )


def check_all(text: str | None) -> None:
    check_resolver(text, {})
    check_multi_worker(text)
    check_parameter_server(text)
    check_server(text)


# --------------------------------------------------------------------------
# Inputs


def _text(data: Any) -> str:
    return json.dumps(data)


WORKERS = {"worker": ["w0:1", "w1:1", "w2:1"]}
CHIEF = {"chief": ["c0:1"], "worker": ["w0:1", "w1:1"]}
PS = {"chief": ["c0:1"], "worker": ["w0:1", "w1:1"], "ps": ["p0:1", "p1:1"]}

TABLE: list[str | None] = [
    None,
    "{}",
    "[]",
    '"abc"',
    "5",
    "null",
    '{"cluster": {}}',
    '{"task": "worker"}',
    '{"task": "type"}',
    '{"task": {"type": null, "index": 0}}',
    '{"task": {"type": "worker", "index": null}}',
    '{"task": {"index": "x"}}',
    '{"task": {"index": 1e400}}',
    '{"rpc_layer": "grpc"}',
    '{"rpc_layer": null}',
    _text({"cluster": WORKERS, "task": {"type": "worker", "index": 1}}),
    _text({"cluster": WORKERS, "task": {"type": "worker", "index": "2"}, "rpc_layer": "grpc"}),
    _text({"cluster": WORKERS, "task": {"type": "worker", "index": 3}}),
    _text({"cluster": WORKERS, "task": {"type": "worker", "index": -1}}),
    _text({"cluster": WORKERS, "task": {"type": "worker"}}),
    _text({"cluster": WORKERS, "task": {"index": 0}}),
    _text({"cluster": WORKERS}),
    _text({"cluster": CHIEF, "task": {"type": "chief", "index": 0}}),
    _text({"cluster": CHIEF, "task": {"type": "worker", "index": 0}}),
    _text({"cluster": PS, "task": {"type": "ps", "index": 1}}),
    _text({"cluster": PS, "task": {"type": "worker", "index": 1}}),
    _text({"cluster": PS, "task": {"type": "chief", "index": 0}}),
    _text({"cluster": PS}),
    _text({"cluster": {**PS, "evaluator": ["e0:1"]}, "task": {"type": "evaluator", "index": 0}}),
    _text({"cluster": PS, "task": {"type": "evaluator", "index": 0}}),
    _text({"cluster": PS, "task": {"type": "evaluator"}}),
    _text({"cluster": {"evaluator": ["e0:1"]}, "task": {"type": "evaluator", "index": 0}}),
    _text(
        {"cluster": {**CHIEF, "evaluator": ["e0:1", "e1:1"]}, "task": {"type": "chief", "index": 0}}
    ),
    _text({"cluster": {**CHIEF, "chief": ["c0:1", "c1:1"]}, "task": {"type": "chief", "index": 0}}),
    _text(
        {
            "cluster": {"master": ["m0:1"], "worker": ["w0:1"]},
            "task": {"type": "worker", "index": 0},
        }
    ),
    _text({"cluster": WORKERS, "task": {"type": "master", "index": 0}}),
    _text({"cluster": {**WORKERS, "aux": ["a0:1"]}, "task": {"type": "worker", "index": 0}}),
    _text({"cluster": WORKERS, "task": {"type": "chief", "index": 0}}),
    _text({"cluster": WORKERS, "task": {"type": "", "index": 0}}),
    _text(
        {"cluster": {"worker": {"0": "w0:1", "5": "w5:1"}}, "task": {"type": "worker", "index": 5}}
    ),
    _text(
        {"cluster": {"worker": {"0": "w0:1", "5": "w5:1"}}, "task": {"type": "worker", "index": 1}}
    ),
    _text(
        {
            "cluster": {"chief": {"1": "c1:1"}, "worker": ["w0:1"]},
            "task": {"type": "worker", "index": 0},
        }
    ),
    _text(
        {
            "cluster": {"chief": {"1": "c1:1"}, "worker": ["w0:1"]},
            "task": {"type": "chief", "index": 1},
        }
    ),
    _text(
        {
            "cluster": {"worker": ["w0:1"], "ps": ["p0:1"]},
            "task": {"type": "worker", "index": 0},
            "session_master": "local",
        }
    ),
    _text({"cluster": {"worker": {"3": "w3:1"}}, "task": {"type": "worker", "index": 3}}),
    _text(
        {
            "cluster": {"worker": ["w0:1"]},
            "task": {"type": "worker", "index": 0},
            "environment": "cloud",
        }
    ),
    # A section 6 rule and TensorFlow's own complaint, both reported
    _text({"cluster": {"worker": ["w0", "w1:2222"]}, "task": {"type": "chief", "index": 0}}),
    _text({"cluster": {"worker": ["w0:2222", "w0:2222"]}}),
    _text(
        {
            "cluster": {"worker": ["w0:2222"], "aux-1": ["a:2222"]},
            "task": {"type": "worker", "index": 0},
        }
    ),
    _text({"cluster": {"worker": ["w0"]}, "task": {"type": None, "index": 0}}),
    _text({"cluster": {"worker": ["w0"]}, "task": {"type": "worker", "index": "x"}}),
    _text({"cluster": {}, "task": {"type": "worker", "index": None}}),
    _text({"cluster": {}, "task": {"index": "x"}, "session_master": 5}),
    _text({"cluster": {"worker": []}, "task": {"type": "worker", "index": -1}}),
    _text(
        {"cluster": {"evaluator": {}, "ps": ["p:1"]}, "task": {"type": "evaluator", "index": -1}}
    ),
    _text(
        {
            "cluster": {"chief": {"0": "c0:1", "-3": "c3:1", "2": "c2:1"}, "aux": ["a:1"]},
            "task": {"type": "chief", "index": 0},
        }
    ),
    # Indices beyond int32: a sparse job's, the task's (tf.train.Server's ServerDef)
    _text({"cluster": {"worker": {"0": "w0:1", "2147483648": "w1:1"}}}),
    _text({"cluster": {"worker": {"0": "w0:1", "-2147483649": "w1:1"}}}),
    _text({"cluster": WORKERS, "task": {"type": "worker", "index": 2**31}}),
    # A boolean index, given to ServerDef's int32 field as it is (see below)
    _text({"cluster": WORKERS, "task": {"type": "worker", "index": True}}),
    _text({"cluster": WORKERS, "task": {"type": "worker", "index": False}}),
    _text({"cluster": WORKERS, "task": {"type": "worker", "index": -(2**31) - 1}}),
    _text({"task": {"type": "ps", "index": 2**63}}),
    # A key TensorFlow cannot read with int(), in a job that also repeats an index
    _text(
        {
            "cluster": {"worker": {"1": "w1:1", "01": "w2:1", "x": "w3:1"}},
            "task": {"type": "worker", "index": 1},
        }
    ),
    _text(
        {
            "cluster": {"worker": {"0": "w0:1", "1.0": "w1:1", "\u0661": "w2:1", "1": "w3:1"}},
            "task": {"type": "worker", "index": 0},
        }
    ),
]


@st.composite
def distribute_texts(draw: st.DrawFn) -> str | None:
    """TF_CONFIG text of every shape: the readers' shapes, mutated, and the estimator's inputs."""
    kind = draw(st.sampled_from(["shape", "shape", "mutated", "mutated", "estimator"]))
    if kind == "estimator":
        return draw(tf_config_texts())
    data: dict[str, Any] = copy.deepcopy(draw(distribute_tf_configs()))
    if kind == "mutated":
        for _ in range(draw(st.integers(1, 2))):
            mutate_tf_config(draw, data)
    return json.dumps(data)


RESOLVER_KWARGS = st.fixed_dictionaries(
    {},
    optional={
        "task_type": st.sampled_from(["worker", "chief", "ps", "other", 5, b"worker"]),
        "task_id": st.sampled_from([0, 1, 2, "1", -1]),
        "rpc_layer": st.sampled_from(["grpc", "", 5]),
        "environment": st.sampled_from(["cloud", "google", 5]),
    },
)

RESOLVER_ARGUMENTS: list[dict[str, Any]] = [
    {"task_type": 5},
    {"task_type": b"worker"},
    {"task_type": 1.5, "task_id": 0},
    {"task_type": True},
    {"rpc_layer": 5},
    {"environment": 5},
]
"""Arguments of other types than TensorFlow documents: it reads ``task_type`` with ``str()``."""


@pytest.mark.parametrize("text", TABLE, ids=repr)
def test_table(text: str | None) -> None:
    check_all(text)


@pytest.mark.parametrize("kwargs", RESOLVER_ARGUMENTS, ids=repr)
@pytest.mark.parametrize(
    "text", [_text({"cluster": WORKERS, "task": {"type": "worker", "index": 1}})]
)
def test_resolver_argument_table(text: str, kwargs: dict[str, Any]) -> None:
    check_resolver(text, kwargs)


@given(distribute_texts())
def test_readers(text: str | None) -> None:
    """Each input through the four readers: TFConfigClusterResolver
    (tfconfig_cluster_resolver.py), MultiWorkerMirroredStrategy
    (collective_all_reduce_strategy.py, multi_worker_util.py),
    ParameterServerStrategy (parameter_server_strategy_v2.py) and a TF1
    program's tf.train.Server (server_lib.py)."""
    check_all(text)


@settings(max_examples=max(settings().max_examples // 4, 10))
@given(distribute_texts(), RESOLVER_KWARGS)
def test_resolver_arguments(text: str | None, kwargs: dict[str, Any]) -> None:
    """TFConfigClusterResolver with arguments that override TF_CONFIG."""
    check_resolver(text, kwargs)


@pytest.mark.parametrize(("index", "task_id"), [(True, 1), (False, 0)])
def test_a_boolean_task_index_of_tf_train_server(index: bool, task_id: int) -> None:
    """Where the releases differ: protobuf 7, which TensorFlow 2.21 installs, refuses it.

    ``_make_server_def`` gives the task index to ``ServerDef.task_index`` as it
    is.  Protobuf 4 (TensorFlow 2.15) and 6 read ``true`` as 1 and ``false``
    as 0; protobuf 7 raises a ``TypeError``.  estconf refuses the index under
    the ``int_type`` rule with either.
    """
    text = _text({"cluster": WORKERS, "task": {"type": "worker", "index": index}})
    tf_out = tf_attempt(text, tf_server)
    if int(importlib.metadata.version("protobuf").split(".")[0]) < 7:
        assert tf_out.ok and tf_out.value["task_id"] == task_id, tf_out
    else:
        assert isinstance(tf_out.error, TypeError), tf_out
        assert str(tf_out.error) == (
            "Field tensorflow.ServerDef.task_index: Expected an int, got a boolean."
        )
    ours = attempt(lambda: ServerConfig.from_env(environ_of(text)))
    assert ours.error is not None and error_codes(ours.error) == ["int_type"], ours
