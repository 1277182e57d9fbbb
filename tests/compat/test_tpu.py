"""estconf.tpu against tf.compat.v1.estimator.tpu: TPUConfig and the TPU RunConfig."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compat.harness import (
    Outcome,
    attempt,
    deliberate_kwargs,
    deliberate_tf_config,
    deliberate_tpu_kwargs,
    environ_of,
    hide_sentence_if_model_dir_first,
    import_tensorflow,
    judge,
    tf_attempt,
)
from compat.mutations import (
    ODD_SERVICES,
    TPU_CONFIG_VALUES,
    run_config_kwargs,
    tf_config_texts,
    tpu_config_kwargs,
)
from estconf import tpu

tf = import_tensorflow()

from compat.properties import (  # noqa: E402
    compare_tpu_configs,
    compare_tpu_run_configs,
    tf_kwargs,
)

pytestmark = pytest.mark.compat

TF_TPU = tf.compat.v1.estimator.tpu


def service_rules(text: str | None, tpu_job_name: Any) -> set[str]:
    """Section 6 rules of the part of TF_CONFIG a TPUConfig reads (only ``service``)."""
    rules = deliberate_tf_config(text) & {"duplicate_key"}
    if text is None or tpu_job_name:
        return rules
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return rules
    service = data.get("service") if isinstance(data, dict) else None
    if isinstance(service, dict):
        name = service.get("tpu_worker_job_name")
        if name and not isinstance(name, str):
            rules.add("type")
    return rules


def check_tpu_config(text: str | None, kwargs: dict[str, Any]) -> None:
    tf_out = tf_attempt(text, lambda: TF_TPU.TPUConfig(**copy.deepcopy(kwargs)))
    ours = attempt(lambda: tpu.TPUConfig.from_env(environ_of(text), **copy.deepcopy(kwargs)))
    rules = deliberate_tpu_kwargs(kwargs) | service_rules(text, kwargs.get("tpu_job_name"))
    tf_out = hide_sentence_if_model_dir_first(tf_out, ours)
    judge(f"TF_CONFIG={text!r} TPUConfig(**{kwargs!r})", tf_out, ours, rules, compare_tpu_configs)


TPU_TEXTS: list[str | None] = [
    None,
    "{}",
    json.dumps({"service": {"tpu_worker_job_name": "tpu_worker"}}),
    json.dumps({"service": {"tpu_worker_job_name": ""}}),
    json.dumps({"service": None}),
    json.dumps({"service": 5}),
    "[]",
    "",
]


@pytest.mark.parametrize("text", TPU_TEXTS, ids=repr)
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"tpu_job_name": "mine"},
        {"tpu_job_name": ""},
        {"iterations_per_loop": "10m", "num_shards": 8},
        {
            "per_host_input_for_training": 3,
            "num_cores_per_replica": 4,
            "input_partition_dims": [[1, 2, 2, 1], None],
        },
        {"input_partition_dims": [[1, 2]]},
        {"num_cores_per_replica": 3},
        {"eval_training_input_configuration": 3},
        {"iterations_per_loop": "10|"},
        {"per_host_input_for_training": 7},
    ],
    ids=repr,
)
def test_tpu_config_table(text: str | None, kwargs: dict[str, Any]) -> None:
    check_tpu_config(text, kwargs)


@pytest.mark.parametrize("name", sorted(TPU_CONFIG_VALUES))
def test_tpu_config_each_value(name: str) -> None:
    for value in TPU_CONFIG_VALUES[name]:
        check_tpu_config(None, {name: value})


tpu_texts = (
    st.sampled_from(TPU_TEXTS)
    | ODD_SERVICES.map(lambda service: json.dumps({"service": service}))
    | tf_config_texts()
)


@given(text=tpu_texts, kwargs=tpu_config_kwargs())
def test_tpu_config_generated(text: str | None, kwargs: dict[str, Any]) -> None:
    check_tpu_config(text, kwargs)


MASTERS: list[Any] = [None, "", "grpc://tpu:8470", 5]


def check_run_config(
    text: str | None,
    kwargs: dict[str, Any],
    tpu_kwargs: dict[str, Any] | None,
    masters: dict[str, Any],
) -> None:
    def tf_build() -> Any:
        tpu_config = None if tpu_kwargs is None else TF_TPU.TPUConfig(**copy.deepcopy(tpu_kwargs))
        return TF_TPU.RunConfig(tpu_config=tpu_config, **masters, **tf_kwargs(kwargs))

    tf_out = tf_attempt(text, tf_build)
    ours = attempt(
        lambda: tpu.RunConfig.from_env(
            environ_of(text),
            tpu_config=copy.deepcopy(tpu_kwargs),
            **masters,
            **copy.deepcopy(kwargs),
        )
    )
    rules = (
        deliberate_tf_config(text)
        | deliberate_kwargs({**kwargs, **masters})
        | deliberate_tpu_kwargs(tpu_kwargs or {})
        | service_rules(text, (tpu_kwargs or {}).get("tpu_job_name"))
    )
    tf_out = hide_sentence_if_model_dir_first(tf_out, ours)
    if tf_out.error is not None and not ours.ok and tpu_kwargs is not None:
        alone = tf_attempt(text, lambda: TF_TPU.TPUConfig(**copy.deepcopy(tpu_kwargs)))
        if alone.error is not None:
            # TensorFlow's TPUConfig is built (and fails) before the RunConfig; estconf
            # may report another argument's error instead (docs/compatibility.md, 3).
            tf_out = Outcome(error=RuntimeError(f"TPUConfig built first: {tf_out.error}"))
    what = (
        f"TF_CONFIG={text!r} tpu.RunConfig(tpu_config={tpu_kwargs!r}, **{masters!r}, **{kwargs!r})"
    )
    judge(what, tf_out, ours, rules, compare_tpu_run_configs)


DOC_CLUSTER = {
    "chief": ["host0:2222"],
    "ps": ["host1:2222", "host2:2222"],
    "worker": ["host3:2222", "host4:2222", "host5:2222"],
}


@pytest.mark.parametrize(
    "text",
    [
        None,
        json.dumps({"cluster": DOC_CLUSTER, "task": {"type": "worker", "index": 1}}),
        json.dumps({"cluster": DOC_CLUSTER, "task": {"type": "evaluator", "index": 0}}),
        json.dumps(
            {
                "cluster": DOC_CLUSTER,
                "task": {"type": "evaluator", "index": 0},
                "eval_session_master": "grpc://e:1",
            }
        ),
        json.dumps({"service": {"tpu_worker_job_name": "tpu_worker"}}),
        json.dumps({"service": None}),
    ],
    ids=["unset", "worker", "evaluator", "evaluator with master", "service", "null service"],
)
@pytest.mark.parametrize("master", MASTERS, ids=repr)
@pytest.mark.parametrize("evaluation_master", MASTERS, ids=repr)
def test_run_config_masters(text: str | None, master: Any, evaluation_master: Any) -> None:
    masters = {"master": master, "evaluation_master": evaluation_master}
    check_run_config(text, {}, None, {k: v for k, v in masters.items() if v is not None})
    check_run_config(text, {}, {"iterations_per_loop": 10}, masters)


@st.composite
def master_kwargs(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(["master", "evaluation_master"]), unique=True))
    return {name: draw(st.sampled_from(MASTERS)) for name in names}


@given(
    text=tf_config_texts(),
    kwargs=run_config_kwargs(),
    tpu_kwargs=st.none() | tpu_config_kwargs(),
    masters=master_kwargs(),
)
def test_run_config_generated(
    text: str | None,
    kwargs: dict[str, Any],
    tpu_kwargs: dict[str, Any] | None,
    masters: dict[str, Any],
) -> None:
    check_run_config(text, kwargs, tpu_kwargs, masters)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"eval_training_input_configuration": "SLICED"},
        {"per_host_input_for_training": "PER_HOST_V2"},
        {
            "per_host_input_for_training": "PER_HOST_V2",
            "num_cores_per_replica": 2,
            "input_partition_dims": [[1, 2]],
        },
    ],
    ids=repr,
)
def test_member_names_as_keyword_arguments(kwargs: dict[str, Any]) -> None:
    """Keyword arguments are read as TensorFlow reads them: a member's name is a string."""
    check_tpu_config(None, kwargs)


def test_replace_tpu_config() -> None:
    tf_config = TF_TPU.RunConfig(save_checkpoints_steps=5)
    ours = tpu.RunConfig(save_checkpoints_steps=5)
    new = TF_TPU.TPUConfig(iterations_per_loop=7)
    judge(
        "replace(tpu_config=...)",
        attempt(lambda: tf_config.replace(tpu_config=new, save_checkpoints_secs=9)),
        attempt(
            lambda: ours.replace(tpu_config={"iterations_per_loop": 7}, save_checkpoints_secs=9)
        ),
        set(),
        compare_tpu_run_configs,
    )
    assert Outcome().ok


RESOLVED = {"worker": ["w0:1", "w1:1"], "ps": ["p0:1"]}


def resolvers() -> dict[str, Any]:
    """TensorFlow's cluster resolvers, by name (TFConfigClusterResolver reads TF_CONFIG)."""
    resolver = tf.distribute.cluster_resolver
    return {
        "simple": resolver.SimpleClusterResolver(
            tf.train.ClusterSpec(RESOLVED), master="grpc://w0:1"
        ),
        "simple sparse": resolver.SimpleClusterResolver(
            tf.train.ClusterSpec({"worker": {1: "w1:1", 3: "w3:1"}}), master="m"
        ),
        "simple empty": resolver.SimpleClusterResolver(tf.train.ClusterSpec({})),
        "tf_config": resolver.TFConfigClusterResolver(),
    }


def compare_with_cluster(tf_config: Any, ours: Any) -> None:
    compare_tpu_run_configs(tf_config, ours)
    assert ours.cluster is tf_config.cluster


@pytest.mark.parametrize(
    "text",
    [
        None,
        json.dumps({"cluster": DOC_CLUSTER, "task": {"type": "worker", "index": 1}}),
        json.dumps({"cluster": DOC_CLUSTER, "task": {"type": "evaluator", "index": 0}}),
        json.dumps({"cluster": RESOLVED, "task": {"type": "worker", "index": 1}}),
    ],
    ids=["unset", "worker", "evaluator", "no chief"],
)
@pytest.mark.parametrize("name", ["simple", "simple sparse", "simple empty", "tf_config"])
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"master": ""},
        {"evaluation_master": "e"},
        {"session_config": {"log_device_placement": True}},
        {"session_config": {"cluster_def": {}}},
        {"save_checkpoints_steps": 5},
    ],
    ids=repr,
)
def test_run_config_cluster_resolver(text: str | None, name: str, kwargs: dict[str, Any]) -> None:
    cluster = resolvers()[name]
    tf_out = tf_attempt(text, lambda: TF_TPU.RunConfig(cluster=cluster, **tf_kwargs(kwargs)))
    # TensorFlow's TFConfigClusterResolver reads os.environ when asked: set it for both.
    ours = tf_attempt(
        text, lambda: tpu.RunConfig.from_env(environ_of(text), cluster=cluster, **kwargs)
    )
    what = f"TF_CONFIG={text!r} tpu.RunConfig(cluster={name}, **{kwargs!r})"
    judge(what, tf_out, ours, set(), compare_with_cluster)
    if tf_out.ok and ours.ok:
        with_env = tf_attempt(
            text, lambda: tpu.RunConfig.from_tensorflow(tf_out.value, environ_of(text))
        )
        judge(f"{what} read back", tf_out, with_env, set(), compare_with_cluster)
        built = tf_attempt(text, ours.value.to_tensorflow)
        judge(f"{what} built", built, ours, set(), compare_with_cluster)
        tf_replaced = tf_attempt(text, lambda: tf_out.value.replace(session_config=None))
        our_replaced = tf_attempt(text, lambda: ours.value.replace(session_config=None))
        judge(f"{what}.replace()", tf_replaced, our_replaced, set(), compare_tpu_run_configs)
