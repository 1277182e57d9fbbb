"""estconf.RunConfig.from_env against tf.estimator.RunConfig, and replace against replace."""

from __future__ import annotations

import copy
import functools
import inspect
import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compat.harness import (
    Outcome,
    attempt,
    deliberate_kwargs,
    deliberate_tf_config,
    deliberate_unread,
    environ_of,
    hide_sentence_if_model_dir_first,
    import_tensorflow,
    judge,
    tf_attempt,
)
from compat.mutations import (
    DEVICE_FNS,
    device_fn_op,
    device_fn_x,
    replace_kwargs,
    run_config_kwargs,
    tf_config_texts,
)
from estconf import RunConfig
from estconf.run_config import REPLACEABLE

tf = import_tensorflow()

from compat.properties import compare_run_configs, tf_kwargs  # noqa: E402

pytestmark = pytest.mark.compat


def build(text: str | None, kwargs: dict[str, Any]) -> tuple[Outcome, Outcome]:
    tf_out = tf_attempt(text, lambda: tf.estimator.RunConfig(**tf_kwargs(kwargs)))
    ours = attempt(lambda: RunConfig.from_env(environ_of(text), **copy.deepcopy(kwargs)))
    return tf_out, ours


def check(text: str | None, kwargs: dict[str, Any], replace: dict[str, Any] | None = None) -> None:
    tf_out, ours = build(text, kwargs)
    rules = deliberate_tf_config(text) | deliberate_kwargs(kwargs)
    what = f"TF_CONFIG={text!r} RunConfig(**{kwargs!r})"
    tf_out = hide_sentence_if_model_dir_first(tf_out, ours)
    judge(what, tf_out, ours, rules, compare_run_configs)
    if replace is None or not (tf_out.ok and ours.ok):
        return
    tf_replaced = attempt(lambda: tf_out.value.replace(**tf_kwargs(replace)))
    our_replaced = attempt(lambda: ours.value.replace(**copy.deepcopy(replace)))
    judge(
        f"{what}.replace(**{replace!r})",
        tf_replaced,
        our_replaced,
        deliberate_kwargs(replace),
        compare_run_configs,
    )
    if tf_replaced.ok and our_replaced.ok:  # the original is unchanged
        compare_run_configs(tf_out.value, ours.value)


DOC_CLUSTER = {
    "chief": ["host0:2222"],
    "ps": ["host1:2222", "host2:2222"],
    "worker": ["host3:2222", "host4:2222", "host5:2222"],
}


def tf_config(cluster: Any = None, task: Any = None, **keys: Any) -> str:
    data: dict[str, Any] = dict(keys)
    if cluster is not None:
        data["cluster"] = cluster
    if task is not None:
        data["task"] = task
    return json.dumps(data)


def task(task_type: Any, index: Any = 0) -> dict[str, Any]:
    return {"type": task_type, "index": index}


SPARSE = {"chief": ["c:1"], "worker": {"1": "w1:1", "4": "w4:1"}, "ps": {"2": "p2:1"}}

CASES: list[tuple[str, str | None, dict[str, Any]]] = [
    # TensorFlow's documented examples
    ("doc worker", tf_config(DOC_CLUSTER, task("worker", 1)), {}),
    ("doc chief", tf_config(DOC_CLUSTER, task("chief", 0)), {}),
    ("doc evaluator", tf_config(DOC_CLUSTER, task("evaluator", 0)), {}),
    ("doc ps", tf_config(DOC_CLUSTER, task("ps", 1)), {}),
    # local mode
    ("unset", None, {}),
    ("empty", "{}", {}),
    ("local session_master", tf_config(session_master="grpc://m:1"), {}),
    ("local eval_session_master", tf_config(eval_session_master="grpc://e:1"), {}),
    ("local task", tf_config({}, task("worker", "0")), {}),
    ("local ps", tf_config({}, task("ps", 0)), {}),
    ("local index 1", tf_config({}, task("worker", 1)), {}),
    ("local index null", tf_config(None, {"type": "worker", "index": None}), {}),
    ("local type null", tf_config(None, {"type": None}), {}),
    # chief mode errors
    ("no chief", tf_config({"worker": ["w:1"]}, task("worker", 0)), {}),
    ("two chiefs", tf_config({"chief": ["c:1", "c:2"]}, task("chief", 0)), {}),
    ("chief at sparse 1", tf_config({"chief": {"1": "c:1"}}, task("chief", 1)), {}),
    ("no type", tf_config(DOC_CLUSTER, {"index": 0}), {}),
    ("empty type", tf_config(DOC_CLUSTER, {"type": "", "index": 0}), {}),
    ("no index", tf_config(DOC_CLUSTER, {"type": "worker"}), {}),
    ("negative index", tf_config(DOC_CLUSTER, task("worker", -1)), {}),
    ("index out of range", tf_config(DOC_CLUSTER, task("worker", 3)), {}),
    ("unknown type", tf_config(DOC_CLUSTER, task("trainer", 0)), {}),
    ("type not a string", tf_config(DOC_CLUSTER, task(5, 0)), {}),
    ("index not a number", tf_config(DOC_CLUSTER, task("worker", "x")), {}),
    ("index float", tf_config(DOC_CLUSTER, task("worker", 1.5)), {}),
    ("index bool", tf_config(DOC_CLUSTER, task("worker", True)), {}),
    ("index string", tf_config(DOC_CLUSTER, task("worker", "2")), {}),
    ("index padded string", tf_config(DOC_CLUSTER, task("worker", " 2")), {}),
    ("index huge", tf_config(DOC_CLUSTER, task("worker", 2**40)), {}),
    ("evaluator any index", tf_config(DOC_CLUSTER, task("evaluator", 7)), {}),
    ("evaluator negative", tf_config(DOC_CLUSTER, task("evaluator", -1)), {}),
    (
        "evaluator eval_session_master",
        tf_config(DOC_CLUSTER, task("evaluator", 0), eval_session_master="grpc://e:1"),
        {},
    ),
    ("evaluator job listed", tf_config({**DOC_CLUSTER, "evaluator": ["e:1"]}, task("ps", 0)), {}),
    ("upper-case job", tf_config({**DOC_CLUSTER, "Aux": ["a:1"]}, task("Aux", 0)), {}),
    ("single node", tf_config({"chief": ["c:1"]}, task("chief", 0)), {}),
    ("session_master", tf_config(DOC_CLUSTER, task("worker", 2), session_master="s"), {}),
    ("session_master empty", tf_config(DOC_CLUSTER, task("worker", 2), session_master=""), {}),
    ("session_master null", tf_config(DOC_CLUSTER, task("worker", 2), session_master=None), {}),
    ("session_master number", tf_config(DOC_CLUSTER, task("worker", 2), session_master=5), {}),
    # sparse clusters
    ("sparse worker", tf_config(SPARSE, task("worker", 4)), {}),
    ("sparse ps", tf_config(SPARSE, task("ps", 2)), {}),
    ("sparse hole", tf_config(SPARSE, task("worker", 2)), {}),
    ("sparse hole session_master", tf_config(SPARSE, task("worker", 2), session_master="s"), {}),
    ("sparse beyond", tf_config(SPARSE, task("worker", 5)), {}),
    ("empty job", tf_config({**DOC_CLUSTER, "aux": []}, task("worker", 0)), {}),
    # master mode
    ("master", tf_config({"master": ["m:1"], "worker": ["w:1"]}, task("master", 0)), {}),
    ("master worker", tf_config({"master": ["m:1"], "worker": ["w:1"]}, task("worker", 0)), {}),
    ("master and chief", tf_config({"master": ["m:1"], "chief": ["c:1"]}, task("master", 0)), {}),
    ("master evaluator", tf_config({"master": ["m:1"]}, task("evaluator", 0)), {}),
    ("two masters", tf_config({"master": ["m:1", "m:2"]}, task("master", 0)), {}),
    # service, model_dir
    ("service", tf_config(service={"tpu_worker_job_name": "t"}), {}),
    ("service null", tf_config(service=None), {}),
    ("service list", tf_config(service=[]), {}),
    ("model_dir tf_config", tf_config(model_dir="/tmp/m"), {}),
    ("model_dir both", tf_config(model_dir="/tmp/m"), {"model_dir": "/tmp/m"}),
    ("model_dir conflict", tf_config(model_dir="/tmp/m"), {"model_dir": "/tmp/other"}),
    ("model_dir empty arg", None, {"model_dir": ""}),
    ("model_dir empty tf_config", tf_config(model_dir=""), {"model_dir": "/tmp/m"}),
    ("model_dir 0 tf_config", tf_config(model_dir=0), {}),
    ("model_dir 0 tf_config with arg", tf_config(model_dir=0), {"model_dir": "/tmp/m"}),
    ("model_dir 0 arg", None, {"model_dir": 0}),
    # checkpoint combinations
    ("steps", None, {"save_checkpoints_steps": 10}),
    ("secs", None, {"save_checkpoints_secs": 10}),
    ("steps None", None, {"save_checkpoints_steps": None}),
    ("secs None", None, {"save_checkpoints_secs": None}),
    ("both None", None, {"save_checkpoints_steps": None, "save_checkpoints_secs": None}),
    ("both set", None, {"save_checkpoints_steps": 1, "save_checkpoints_secs": 1}),
    ("steps and None", None, {"save_checkpoints_steps": 1, "save_checkpoints_secs": None}),
    ("None and secs", None, {"save_checkpoints_steps": None, "save_checkpoints_secs": 5}),
    ("steps 0 secs 0", None, {"save_checkpoints_steps": 0, "save_checkpoints_secs": 0}),
    # argument checks
    ("negative summary", None, {"save_summary_steps": -1}),
    ("hours 0", None, {"keep_checkpoint_every_n_hours": 0}),
    ("seed float", None, {"tf_random_seed": 1.0}),
    ("seed bool", None, {"tf_random_seed": True}),
    ("delay float", None, {"experimental_max_worker_delay_secs": 1.5}),
    ("protocol", None, {"protocol": "grpc+verbs"}),
    ("protocol bad", None, {"protocol": "http"}),
    ("device_fn", None, {"device_fn": device_fn_op}),
    ("device_fn bad", None, {"device_fn": device_fn_x}),
    ("summary steps nan", None, {"save_summary_steps": float("nan")}),
    ("checkpoint steps -inf", None, {"save_checkpoints_steps": float("-inf")}),
    ("keep max -0.5", None, {"keep_checkpoint_max": -0.5}),
    ("log steps nan", None, {"log_step_count_steps": float("nan")}),
    ("log steps 0.5", None, {"log_step_count_steps": 0.5}),
    ("summary steps Decimal", None, {"save_summary_steps": Decimal(100)}),
    ("summary steps Decimal 2.5", None, {"save_summary_steps": Decimal("2.5")}),
    ("summary steps Decimal -0.5", None, {"save_summary_steps": Decimal("-0.5")}),
    ("summary steps Decimal NaN", None, {"save_summary_steps": Decimal("NaN")}),
    ("summary steps Decimal huge", None, {"save_summary_steps": Decimal("1E+1000000")}),
    ("checkpoint steps Fraction", None, {"save_checkpoints_steps": Fraction(10, 2)}),
    ("keep max Fraction 3/2", None, {"keep_checkpoint_max": Fraction(3, 2)}),
    ("log steps Fraction -1/2", None, {"log_step_count_steps": Fraction(-1, 2)}),
    ("secs Decimal", None, {"save_checkpoints_secs": Decimal("0.5")}),
    ("hours Fraction", None, {"keep_checkpoint_every_n_hours": Fraction(1, 2)}),
    ("graph def", None, {"checkpoint_save_graph_def": False}),
    ("session_config", tf_config(DOC_CLUSTER, task("worker", 0)), {"session_config": {}}),
    ("unknown argument", None, {"master": "x"}),
]


@pytest.mark.parametrize(("text", "kwargs"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_table(text: str | None, kwargs: dict[str, Any]) -> None:
    check(text, kwargs)


@pytest.mark.parametrize("device_fn", DEVICE_FNS.values(), ids=DEVICE_FNS)
def test_device_fn_arguments_read_as_tensorflow_reads_them(device_fn: Any) -> None:
    """The same object to both sides: a copy of a partial or an object is another object."""
    tf_out = tf_attempt(None, lambda: tf.estimator.RunConfig(device_fn=device_fn))
    ours = attempt(lambda: RunConfig.from_env({}, device_fn=device_fn))
    judge(f"RunConfig(device_fn={device_fn!r})", tf_out, ours, set(), compare_run_configs)
    if tf_out.ok and ours.ok:
        tf_replaced = attempt(lambda: tf.estimator.RunConfig().replace(device_fn=device_fn))
        our_replaced = attempt(lambda: RunConfig().replace(device_fn=device_fn))
        judge(
            f"RunConfig().replace(device_fn={device_fn!r})",
            tf_replaced,
            our_replaced,
            set(),
            lambda tf_config, ours: None,  # TensorFlow's replace deep-copies the object
        )


def tensorflow_decorated_device_fns() -> dict[str, Any]:
    """Device functions wrapped by TensorFlow's own decorators, by name."""
    from tensorflow.python.util import tf_decorator

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return device_fn_op(*args, **kwargs)

    def second(x: Any, op: Any) -> Any:
        return op

    return {
        "tf.function": tf.function(device_fn_op),
        "make_decorator": tf_decorator.make_decorator(device_fn_op, wrapper),
        "make_decorator of x": tf_decorator.make_decorator(device_fn_x, wrapper),
        "argspec": tf_decorator.make_decorator(
            device_fn_x, wrapper, decorator_argspec=inspect.getfullargspec(device_fn_op)
        ),
        "partial of tf.function": functools.partial(tf.function(second), 1),
        "the decorator": tf_decorator.TFDecorator("d", device_fn_op),
    }


@pytest.mark.parametrize(
    "name",
    [
        "tf.function",
        "make_decorator",
        "make_decorator of x",
        "argspec",
        "partial of tf.function",
        "the decorator",
    ],
)
def test_device_fn_through_tensorflows_decorators(name: str) -> None:
    device_fn = tensorflow_decorated_device_fns()[name]
    tf_out = tf_attempt(None, lambda: tf.estimator.RunConfig(device_fn=device_fn))
    ours = attempt(lambda: RunConfig.from_env({}, device_fn=device_fn))
    judge(f"RunConfig(device_fn=<{name}>)", tf_out, ours, set(), compare_run_configs)


REPLACES: list[dict[str, Any]] = [
    {"save_checkpoints_steps": 5},
    {"save_checkpoints_secs": 5},
    {"save_checkpoints_steps": 5, "save_checkpoints_secs": 5},
    {"save_checkpoints_steps": None},
    {"save_checkpoints_steps": None, "save_checkpoints_secs": None},
    {"model_dir": "/tmp/new"},
    {"model_dir": ""},
    {"session_config": None},
    {"session_config": {"allow_soft_placement": True}},
    {"tf_random_seed": 1.5},
    {"keep_checkpoint_max": -1},
    {"session_creation_timeout_secs": 5},
    {"checkpoint_save_graph_def": False},
    {"master": "grpc://x:1"},
    {"tf_config": {}},
    {"evaluation_master": ""},
    {"unknown": 1},
]


@pytest.mark.parametrize("replace", REPLACES, ids=repr)
@pytest.mark.parametrize(
    "text",
    [None, tf_config(DOC_CLUSTER, task("worker", 1)), tf_config(model_dir="/tmp/m")],
    ids=["local", "worker", "model_dir"],
)
def test_replace(text: str | None, replace: dict[str, Any]) -> None:
    check(text, {"save_checkpoints_steps": 10}, replace)
    check(text, {}, replace)


@pytest.mark.parametrize(
    ("text", "kwargs"),
    [
        ("", {"save_checkpoints_steps": 1, "save_checkpoints_secs": 1}),
        (
            '{"model_dir": "/tmp/model"}',
            {"model_dir": "/tmp/m", "save_checkpoints_steps": 1, "save_checkpoints_secs": 1},
        ),
    ],
    ids=["unreadable TF_CONFIG", "model_dir conflict"],
)
def test_every_error_is_reported(text: str | None, kwargs: dict[str, Any]) -> None:
    """TensorFlow stops at its first check; estconf reports that error among the others."""
    tf_out, ours = build(text, kwargs)
    judge("all errors", tf_out, ours, set(), compare_run_configs)


@given(text=tf_config_texts(), kwargs=run_config_kwargs(), replace=replace_kwargs())
def test_generated(text: str | None, kwargs: dict[str, Any], replace: dict[str, Any]) -> None:
    check(text, kwargs, replace)


class Strategy:
    """Stands for a strategy; every RunConfig here holds the one object, compared by identity."""


def check_strategies(
    text: str | None,
    kwargs: dict[str, Any],
    replace: dict[str, Any],
    rules: frozenset[str] = frozenset(),
) -> None:
    """As ``check``, with the same strategy objects given to both (no deep copy).

    ``rules`` are the section 6 rules the input falls under.
    """
    tf_out = tf_attempt(text, lambda: tf.estimator.RunConfig(**tf_kwargs(kwargs)))
    ours = attempt(lambda: RunConfig.from_env(environ_of(text), **kwargs))
    what = f"TF_CONFIG={text!r} RunConfig(**{kwargs!r})"
    tf_out = hide_sentence_if_model_dir_first(tf_out, ours)
    judge(what, tf_out, ours, set(rules), compare_run_configs)
    if not (tf_out.ok and ours.ok):
        return
    assert ours.value.to_tensorflow().train_distribute is tf_out.value.train_distribute
    back = attempt(lambda: RunConfig.from_tensorflow(tf_out.value, environ_of(text)))
    judge(f"{what} read back", tf_out, back, set(), compare_run_configs)
    # TensorFlow's replace deep-copies the config, strategies included.
    tf_replaced = tf_attempt(text, lambda: tf_out.value.replace(**replace))
    our_replaced = attempt(lambda: ours.value.replace(**replace))
    judge(
        f"{what}.replace(**{replace!r})",
        tf_replaced,
        our_replaced,
        set(),
        same_but_copied_strategies,
    )


def same_but_copied_strategies(tf_config: Any, ours: Any) -> None:
    """Every property; the strategies, which TensorFlow's replace copies, by type."""
    compare_run_configs(tf_config, ours, copied=STRATEGY_ARGUMENTS)


STRATEGY_ARGUMENTS = ("train_distribute", "eval_distribute", "experimental_distribute")


STRATEGY = Strategy()
EVAL_STRATEGY = Strategy()


@pytest.mark.parametrize(
    "text",
    [None, tf_config(DOC_CLUSTER, task("worker", 1)), tf_config(DOC_CLUSTER, task("trainer", 0))],
    ids=["local", "worker", "unknown type"],
)
@pytest.mark.parametrize(
    "kwargs",
    [
        {"train": "S"},
        {"eval": "E"},
        {"train": "S", "eval": "E"},
        {"train": "S", "train_distribute": "S"},
        {"eval": "E", "eval_distribute": "S"},
        {"train": None, "train_distribute": "S"},
        {"train": "S", "eval_distribute": "E"},
    ],
    ids=repr,
)
@pytest.mark.parametrize(
    "replace",
    [
        {"experimental_distribute": None},
        {"train_distribute": None},
        {"eval_distribute": "S"},
        {"save_summary_steps": 3},
    ],
    ids=repr,
)
def test_strategies_of_experimental_distribute(
    text: str | None, kwargs: dict[str, Any], replace: dict[str, Any]
) -> None:
    """ "S" and "E" stand for two strategy objects."""
    from tensorflow.python.distribute.distribute_config import DistributeConfig

    objects = {"S": STRATEGY, "E": EVAL_STRATEGY, None: None}
    kwargs = {key: objects[value] for key, value in kwargs.items()}
    replace = {key: objects.get(value, value) for key, value in replace.items()}
    config = DistributeConfig(
        train_distribute=kwargs.pop("train", None), eval_distribute=kwargs.pop("eval", None)
    )
    check_strategies(text, {**kwargs, "experimental_distribute": config}, replace)


class NoRemote:
    """Carries the two strategies of a DistributeConfig, but no ``remote_cluster``."""

    def __init__(self, train: Any, evaluate: Any) -> None:
        self.train_distribute = train
        self.eval_distribute = evaluate


class TrainOnly:
    """Carries a training strategy alone."""

    train_distribute = None


class Off:
    """A false object: TensorFlow never reads it."""

    def __bool__(self) -> bool:
        return False


@pytest.mark.parametrize(
    ("experimental_distribute", "kwargs"),
    [
        (STRATEGY, {}),
        (TrainOnly(), {}),
        (NoRemote(STRATEGY, None), {}),
        (NoRemote(None, EVAL_STRATEGY), {}),
        (NoRemote(None, None), {"train_distribute": STRATEGY}),
        (NoRemote(None, None), {"eval_distribute": EVAL_STRATEGY}),
        (Off(), {}),
    ],
    ids=[
        "strategy",
        "train only",
        "no remote",
        "eval no remote",
        "train given",
        "eval given",
        "off",
    ],
)
@pytest.mark.parametrize(
    "text",
    [None, tf_config(DOC_CLUSTER, task("worker", 1))],
    ids=["local", "worker"],
)
def test_what_experimental_distribute_must_have(
    text: str | None, experimental_distribute: Any, kwargs: dict[str, Any]
) -> None:
    """TensorFlow reads the attributes of a DistributeConfig of any true object given."""
    check_strategies(text, {**kwargs, "experimental_distribute": experimental_distribute}, {})


def test_replace_with_experimental_distribute() -> None:
    from tensorflow.python.distribute.distribute_config import DistributeConfig

    config = DistributeConfig(train_distribute=STRATEGY)
    check_strategies(None, {}, {"experimental_distribute": config})


@st.composite
def strategy_kwargs(draw: st.DrawFn) -> dict[str, Any]:
    """The distribution arguments: a training and an evaluation strategy, given either way."""
    from tensorflow.python.distribute.distribute_config import DistributeConfig

    train = draw(st.sampled_from([None, STRATEGY]))
    evaluate = draw(st.sampled_from([None, EVAL_STRATEGY]))
    if draw(st.booleans()):
        return {"experimental_distribute": DistributeConfig(train, evaluate)}
    given = {"train_distribute": train, "eval_distribute": evaluate}
    return {key: value for key, value in given.items() if value is not None}


STRATEGY_REPLACES: list[dict[str, Any]] = [
    {},
    {"train_distribute": None},
    {"eval_distribute": STRATEGY},
    {"experimental_distribute": None},
    {"save_summary_steps": 3},
]


@given(
    text=tf_config_texts(),
    kwargs=run_config_kwargs(),
    strategies=strategy_kwargs(),
    replace=st.sampled_from(STRATEGY_REPLACES),
)
def test_generated_with_strategies(
    text: str | None, kwargs: dict[str, Any], strategies: dict[str, Any], replace: dict[str, Any]
) -> None:
    """A training strategy hands a cluster without a master to the distribute coordinator.

    TensorFlow then reads neither the task nor the service of TF_CONFIG: the
    task, the id and the master are those of a lone worker, whatever the task
    says.  estconf still refuses a task or service it cannot read, under the
    section 6 rules that the tf.distribute readers' checks use.
    """
    rules = deliberate_unread(text) | deliberate_kwargs(kwargs)
    check_strategies(text, {**kwargs, **strategies}, replace, frozenset(rules))


def test_the_arguments_are_tensorflows() -> None:
    """RunConfig's fields are tf.estimator.RunConfig's arguments, in its order, then tf_config."""
    arguments = list(inspect.signature(tf.estimator.RunConfig).parameters)
    assert list(RunConfig.model_fields) == [*arguments, "tf_config"]


def test_every_argument_may_be_replaced_as_in_tensorflow() -> None:
    """REPLACEABLE, read from the model, is the list tf.estimator.RunConfig.replace allows."""
    from tensorflow_estimator.python.estimator import run_config as tf_run_config

    assert list(REPLACEABLE) == tf_run_config._DEFAULT_REPLACEABLE_LIST
