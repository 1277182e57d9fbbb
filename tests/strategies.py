"""Hypothesis strategies for clusters and TF_CONFIG objects, shared by the test modules."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from estconf.tf_config import TRAINING_JOBS, near_miss_job

job_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,7}", fullmatch=True).filter(
    lambda name: near_miss_job(name) is None
)
"""Job names TensorFlow's device names can hold, none a misspelling of a well-known job
(``Worker``, ``workers``: section 6 ``job_name_near_miss``)."""

extra_job_names = st.sampled_from(["trainer", "Trainer", "aux", "zeta", "A", "y"]) | job_names
"""Job names besides the well-known ones, including upper case (sorted first)."""


HOSTS = ["host0", "localhost", "10.0.0.1", "w-1.example.com", "[::1]", "[2001:db8::7]"]


def addresses(count: int) -> st.SearchStrategy[list[str]]:
    """``count`` distinct valid addresses (distinct ports make them distinct)."""
    return st.lists(st.integers(0, 65535), min_size=count, max_size=count, unique=True).flatmap(
        lambda ports: st.lists(st.sampled_from(HOSTS), min_size=count, max_size=count).map(
            lambda hosts: [f"{host}:{port}" for host, port in zip(hosts, ports, strict=True)]
        )
    )


@st.composite
def jobs(draw: st.DrawFn, sizes: dict[str, int], sparse: bool = True) -> dict[str, Any]:
    """A cluster dict with the given job sizes; some jobs drawn sparse when allowed."""
    total = sum(sizes.values())
    pool = draw(addresses(total))
    cluster: dict[str, Any] = {}
    for job, size in sizes.items():
        mine, pool = pool[:size], pool[size:]
        if sparse and draw(st.booleans()) and size:
            indices = sorted(
                draw(st.sets(st.integers(0, 2 * size + 2), min_size=size, max_size=size))
            )
            as_str = draw(st.booleans())
            cluster[job] = {
                (str(i) if as_str else i): address for i, address in zip(indices, mine, strict=True)
            }
        else:
            cluster[job] = mine
    return cluster


@st.composite
def clusters(draw: st.DrawFn, sparse: bool = True) -> dict[str, Any]:
    """Any valid cluster dict (possibly empty)."""
    names = draw(st.lists(extra_job_names, max_size=5, unique=True))
    sizes = {name: draw(st.integers(1, 4)) for name in names}
    return draw(jobs(sizes, sparse=sparse))


@st.composite
def chief_mode_tf_configs(draw: st.DrawFn, sparse: bool = False) -> dict[str, Any]:
    """A valid TF_CONFIG of chief mode whose task is a real node of the cluster."""
    sizes: dict[str, int] = {"chief": 1}
    for job in draw(
        st.lists(
            st.sampled_from(["worker", "ps", "evaluator"]) | extra_job_names,
            max_size=4,
            unique=True,
        )
    ):
        if job not in ("chief", "master"):
            sizes[job] = draw(st.integers(1, 4))
    order = draw(st.permutations(list(sizes)))
    cluster = draw(jobs({job: sizes[job] for job in order}, sparse=sparse))
    cluster["chief"] = (
        list(cluster["chief"].values()) if isinstance(cluster["chief"], dict) else cluster["chief"]
    )
    job = draw(st.sampled_from(order))
    tasks = cluster[job]
    indices = [int(i) for i in tasks] if isinstance(tasks, dict) else list(range(len(tasks)))
    if job == "chief":
        indices = [0]
    index = draw(st.sampled_from(indices))
    as_text = draw(st.booleans())
    tf_config: dict[str, Any] = {
        "cluster": cluster,
        "task": {"type": job, "index": str(index) if as_text else index},
    }
    if draw(st.booleans()):
        tf_config["session_master"] = draw(st.sampled_from(["", "grpc://elsewhere:1", "local"]))
    return tf_config


@st.composite
def evaluator_tf_configs(draw: st.DrawFn) -> dict[str, Any]:
    """A TF_CONFIG for an evaluator next to a chief-mode cluster."""
    tf_config = draw(chief_mode_tf_configs())
    tf_config["task"] = {"type": "evaluator", "index": draw(st.integers(0, 10))}
    if draw(st.booleans()):
        tf_config["eval_session_master"] = "grpc://eval:1"
    return tf_config


@st.composite
def master_mode_tf_configs(draw: st.DrawFn) -> dict[str, Any]:
    """A valid TF_CONFIG of the legacy master mode."""
    sizes: dict[str, int] = {"master": 1}
    for job in draw(
        st.lists(st.sampled_from(["worker", "ps"]) | extra_job_names, max_size=3, unique=True)
    ):
        if job not in ("chief", "master", "evaluator"):
            sizes[job] = draw(st.integers(1, 3))
    order = draw(st.permutations(list(sizes)))
    cluster = draw(jobs({job: sizes[job] for job in order}, sparse=False))
    job = draw(st.sampled_from(order))
    index = 0 if job == "master" else draw(st.integers(0, len(cluster[job]) - 1))
    return {"cluster": cluster, "task": {"type": job, "index": index}}


local_tf_configs = st.fixed_dictionaries(
    {},
    optional={
        "task": st.fixed_dictionaries(
            {}, optional={"type": st.just("worker"), "index": st.sampled_from([0, "0"])}
        ),
        "cluster": st.just({}),
        "session_master": st.sampled_from(["", "grpc://m:1"]),
        "eval_session_master": st.sampled_from(["", "grpc://e:1"]),
        "model_dir": st.sampled_from(["/tmp/model", "gs://bucket/model"]),
    },
)
"""A valid TF_CONFIG of local mode (no cluster)."""

valid_tf_configs = st.one_of(
    local_tf_configs,
    chief_mode_tf_configs(),
    chief_mode_tf_configs(sparse=True),
    evaluator_tf_configs(),
    master_mode_tf_configs(),
)
"""Any TF_CONFIG that TensorFlow's RunConfig accepts (and estconf too)."""


@st.composite
def legacy_tf_configs(draw: st.DrawFn) -> dict[str, Any]:
    """A TF_CONFIG as ``tf.contrib.learn`` may meet it: any dense cluster, any task.

    The task type may be missing, a job of the cluster or not; the index may be
    missing, in range or not; ``environment`` is set sometimes.  Not all of them
    are valid (an unknown task type in a cluster of several tasks is an error).
    """
    names = draw(
        st.lists(
            st.sampled_from(["worker", "ps", "master", "chief", "evaluator"]) | extra_job_names,
            max_size=4,
            unique=True,
        )
    )
    cluster = draw(jobs({name: draw(st.integers(1, 3)) for name in names}, sparse=False))
    tf_config: dict[str, Any] = {}
    if bool(cluster) or draw(st.booleans()):
        tf_config["cluster"] = cluster
    task: dict[str, Any] = {}
    if draw(st.booleans()):
        task["type"] = draw(
            st.sampled_from([*names, "worker", "master", "ps", "other"]) | st.none()
        )
    if draw(st.booleans()):
        index = draw(st.integers(-1, 3) | st.none())
        task["index"] = str(index) if index is not None and draw(st.booleans()) else index
    if bool(task) or draw(st.booleans()):
        tf_config["task"] = task
    if draw(st.booleans()):
        tf_config["environment"] = draw(st.sampled_from(["local", "cloud", "google", "random"]))
    if draw(st.booleans()):
        tf_config["session_master"] = "grpc://ignored:1"
    return tf_config


# -- documents for the file and schema tests: valid ones and near misses ---------------

INDEX_VALUES = st.sampled_from([0, 1, 2, 99, -1, "0", "1", "-0", "00", "x", 1.5, 2.0, None, True])
TYPE_VALUES = st.sampled_from(["worker", "ps", "chief", "master", "evaluator", "", None, 5])


@st.composite
def tf_config_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A TF_CONFIG that is valid, or one edit away from it (which may or may not be valid)."""
    doc: dict[str, Any] = copy.deepcopy(draw(valid_tf_configs))  # drawn values may be shared
    edit = draw(st.integers(0, 7))
    task = doc.setdefault("task", {})
    if edit == 1:
        task["index"] = draw(INDEX_VALUES)
    elif edit == 2:
        task["type"] = draw(TYPE_VALUES)
    elif edit == 3:
        cluster = doc.setdefault("cluster", {})
        cluster[draw(st.sampled_from(["chief", "master"]))] = draw(
            st.sampled_from([["h9:1"], ["h9:1", "h9:2"], {"0": "h9:1"}, {"1": "h9:1"}, []])
        )
    elif edit == 4:
        del doc["task"]
    elif edit == 5:
        doc["cluster"] = draw(st.sampled_from([{}, {"worker": ["h9:1"]}, {"ps": {"-0": "h9:1"}}]))
    elif edit == 6:
        key = draw(st.sampled_from(["model_dir", "session_master", "service", "rpc_layer"]))
        doc[key] = draw(st.sampled_from(["", "x", None, 5, {"a": 1}]))
    return doc


RUN_CONFIG_NUMBERS = (
    "tf_random_seed",
    "save_summary_steps",
    "save_checkpoints_steps",
    "save_checkpoints_secs",
    "keep_checkpoint_max",
    "keep_checkpoint_every_n_hours",
    "log_step_count_steps",
    "experimental_max_worker_delay_secs",
    "session_creation_timeout_secs",
)
ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 10**6),
    st.floats(-2, 1e6, allow_nan=False),
    st.sampled_from(["", "5", "grpc", "grpc+verbs", "/tmp/model", "gs://bucket/model"]),
)

run_config_documents = st.fixed_dictionaries(
    {},
    optional={
        **{name: ANY_VALUE for name in RUN_CONFIG_NUMBERS},
        "model_dir": ANY_VALUE,
        "protocol": ANY_VALUE,
        "checkpoint_save_graph_def": ANY_VALUE,
        "session_config": st.none()
        | st.fixed_dictionaries(
            {},
            optional={
                "allow_soft_placement": ANY_VALUE,
                "device_filters": st.lists(st.sampled_from(["/job:ps", 5]), max_size=2),
                "gpu_options": st.fixed_dictionaries(
                    {}, optional={"per_process_gpu_memory_fraction": ANY_VALUE}
                ),
            },
        ),
        "tf_config": st.none() | tf_config_documents(),
    },
)
"""RunConfig files: every key optional, each value of any JSON type."""

TPU_VALUE = ANY_VALUE | st.sampled_from(
    ["10m", "1h", "30s", "010s", "PER_HOST_V2", "PER_HOST_V1", "SLICED", 3, 5, 8, 128, 3.0]
)
tpu_config_documents = st.fixed_dictionaries(
    {},
    optional={
        **{
            name: TPU_VALUE
            for name in (
                "iterations_per_loop",
                "num_shards",
                "num_cores_per_replica",
                "per_host_input_for_training",
                "tpu_job_name",
                "initial_infeed_sleep_secs",
                "eval_training_input_configuration",
                "experimental_host_call_every_n_steps",
                "experimental_allow_per_host_v2_parallel_get_next",
            )
        },
        "input_partition_dims": st.sampled_from(
            [None, [[1, 2, 2, 2]], [[2, 4], None], [{"x": [8], "y": None}, None], [], [[0]]]
        ),
    },
)
"""TPUConfig files: every key optional, each value of any JSON type or a TPU-looking one."""

tpu_run_config_documents = st.fixed_dictionaries(
    {},
    optional={
        "tpu_config": st.none() | tpu_config_documents,
        "master": st.sampled_from([None, "", "grpc://tpu:8470", 5]),
        "evaluation_master": st.sampled_from([None, "", "grpc://tpu:8470"]),
        "save_checkpoints_steps": ANY_VALUE,
        "tf_config": st.none()
        | tf_config_documents()
        | st.fixed_dictionaries(
            {"service": st.sampled_from([None, "x", {}, {"tpu_worker_job_name": "tpu"}])}
        ),
    },
)
"""tpu.RunConfig files: TPU settings, masters, and a TF_CONFIG."""

PROTO_VALUE = ANY_VALUE | st.sampled_from(
    ["12", "-3", "1e3", "0x10", "NaN", "Infinity", "ONE", "OFF"]
)
session_config_documents = st.fixed_dictionaries(
    {},
    optional={
        **{
            name: PROTO_VALUE
            for name in (
                "intra_op_parallelism_threads",
                "inter_op_parallelism_threads",
                "use_per_session_threads",
                "placement_period",
                "allow_soft_placement",
                "operation_timeout_in_ms",
                "isolate_session_state",
            )
        },
        "device_count": st.dictionaries(st.sampled_from(["CPU", "GPU"]), PROTO_VALUE, max_size=2),
        "device_filters": st.lists(PROTO_VALUE, max_size=2),
        "gpu_options": st.fixed_dictionaries(
            {},
            optional={
                "per_process_gpu_memory_fraction": PROTO_VALUE,
                "allow_growth": PROTO_VALUE,
                "visible_device_list": PROTO_VALUE,
            },
        ),
        "graph_options": st.fixed_dictionaries(
            {},
            optional={
                "rewrite_options": st.fixed_dictionaries(
                    {},
                    optional={
                        "meta_optimizer_iterations": PROTO_VALUE,
                        "layout_optimizer": PROTO_VALUE,
                    },
                )
            },
        ),
    },
)
"""``session_config`` objects: protobuf's JSON forms and near misses."""


# -- tf.distribute readers: TF_CONFIGs of every shape --------------------------------

DISTRIBUTE_JOBS = (
    st.sampled_from(["chief", "worker", "ps", "evaluator", "master"]) | extra_job_names
)
"""Jobs a tf.distribute cluster may list: the known ones, ``master`` and others."""


@st.composite
def distribute_tf_configs(draw: st.DrawFn) -> dict[str, Any]:
    """A TF_CONFIG of any shape the tf.distribute readers meet, valid for them or not.

    Worker-only clusters, chief and workers, with ``ps``, an evaluator inside or
    outside the cluster, ``master``, unknown jobs, two chiefs, sparse jobs; a
    task that is a job of the cluster or not, with an index in range or not,
    as a string or an integer, or left out; sometimes ``rpc_layer`` and
    ``session_master``.
    """
    shape = draw(
        st.sampled_from(
            [
                ["worker"],
                ["chief", "worker"],
                ["chief", "worker", "ps"],
                ["worker", "ps"],
                ["chief", "worker", "evaluator"],
                ["chief", "worker", "ps", "evaluator"],
                ["evaluator"],
                ["master", "worker"],
                [],
            ]
        )
    )
    names = list(shape)
    extras = (
        draw(st.lists(DISTRIBUTE_JOBS, max_size=2, unique=True))
        if draw(st.integers(0, 3)) == 0
        else []
    )
    for extra in extras:
        if extra not in names:
            names.append(extra)
    sizes = {
        name: draw(st.integers(1, 2 if name in ("chief", "evaluator") else 4)) for name in names
    }
    order = draw(st.permutations(names))
    cluster = draw(jobs({name: sizes[name] for name in order}))
    tf_config: dict[str, Any] = {}
    if bool(cluster) or draw(st.booleans()):
        tf_config["cluster"] = cluster
    task: dict[str, Any] = {}
    if draw(st.integers(0, 9)):
        others = ["evaluator", "chief", "worker", "other"]
        task["type"] = draw(
            st.sampled_from(names or others) if draw(st.integers(0, 3)) else st.sampled_from(others)
        )
    if draw(st.integers(0, 9)):
        tasks = cluster.get(task.get("type", ""), [])
        indices = [int(i) for i in tasks] if isinstance(tasks, dict) else list(range(len(tasks)))
        in_range = bool(indices) and draw(st.integers(0, 3)) > 0
        index: int = draw(st.sampled_from(indices) if in_range else st.integers(-1, 5))
        task["index"] = str(index) if draw(st.booleans()) else index
    if bool(task) or draw(st.booleans()):
        tf_config["task"] = task
    if draw(st.integers(0, 3)) == 0:
        tf_config["rpc_layer"] = draw(st.sampled_from(["grpc", "grpc+verbs", ""]))
    if draw(st.integers(0, 4)) == 0:
        tf_config["session_master"] = draw(st.sampled_from(["", "grpc://m:1", "local"]))
    if draw(st.integers(0, 6)) == 0:
        tf_config["environment"] = draw(st.sampled_from(["cloud", "local"]))
    return tf_config


# -- whole jobs: the TF_CONFIG of every node -------------------------------------------


_OTHER_JOBS = st.lists(
    st.sampled_from(["worker", "ps", "evaluator", "trainer", "Aux", "y"]),
    min_size=1,
    max_size=3,
    unique=True,
)
_JOB_SIZES = st.integers(1, 3)
_PORTS = st.lists(st.integers(1, 65535), min_size=10, max_size=10, unique=True)
_REACHABLE_HOSTS = [host for host in HOSTS if host not in ("localhost", "[::1]")]
_SPARSE_INDICES = st.lists(st.integers(0, 8), min_size=3, max_size=3, unique=True)


@st.composite
def deployments(draw: st.DrawFn) -> list[dict[str, Any]]:
    """The TF_CONFIGs of a valid chief-mode job, one node per task of its cluster.

    The cluster has a chief and one to three other jobs (``evaluator`` among
    them sometimes), some of them sparse; every node may share a
    ``model_dir``.  Each node has its own copy of the cluster, as if parsed
    from its own file.  Every address is one the other machines reach (a
    port other than 0, a host other than a loopback one), so that nothing is
    found of a valid job.
    """
    sizes = {"chief": 1, **{job: draw(_JOB_SIZES) for job in draw(_OTHER_JOBS)}}
    ports = iter(draw(_PORTS))
    cluster: dict[str, Any] = {}
    for job in draw(st.permutations(list(sizes))):
        mine = [
            f"{draw(st.sampled_from(_REACHABLE_HOSTS))}:{next(ports)}" for _ in range(sizes[job])
        ]
        if job != "chief" and draw(st.booleans()):
            indices = sorted(draw(_SPARSE_INDICES)[: sizes[job]])
            cluster[job] = {str(i): address for i, address in zip(indices, mine, strict=True)}
        else:
            cluster[job] = mine
    common: dict[str, Any] = {}
    if draw(st.booleans()):
        common["model_dir"] = "gs://bucket/model"
    nodes = []
    for job, tasks in cluster.items():
        present = [int(i) for i in tasks] if isinstance(tasks, dict) else range(len(tasks))
        for index in present:
            task = {"type": job, "index": index}
            nodes.append({"cluster": copy.deepcopy(cluster), "task": task, **common})
    return nodes


# -- Kubeflow TFJob manifests --------------------------------------------------------------

dns_labels = st.from_regex(r"[a-z]([-a-z0-9]{0,14}[a-z0-9])?", fullmatch=True)
"""Names Kubernetes takes for a TFJob or a namespace (short enough for every Service name)."""


def _any_case(name: str) -> st.SearchStrategy[str]:
    return st.sampled_from([name, name.upper(), name.lower()])


@st.composite
def estimator_tfjobs(draw: st.DrawFn) -> dict[str, Any]:
    """A TFJob manifest the operator admits and the Estimator runs on every pod.

    One Chief or Master (written in any letter case), workers and PS maybe, an
    evaluator only next to a Chief; per-type ports, not dynamic.
    """
    lead = draw(st.sampled_from(["Chief", "Master"]))
    counts: dict[str, int | None] = {lead: draw(st.sampled_from([1, None]))}
    for replica_type, most in (("Worker", 5), ("PS", 3)):
        if draw(st.booleans()):
            counts[replica_type] = draw(st.integers(1, most))
    if lead == "Chief" and draw(st.booleans()):
        counts["Evaluator"] = 1
    order = draw(st.permutations(list(counts)))
    specs: dict[str, Any] = {}
    for replica_type in order:
        container: dict[str, Any] = {"name": "tensorflow", "image": "example/train:1"}
        if draw(st.booleans()):
            container["ports"] = [
                {"name": "tfjob-port", "containerPort": draw(st.integers(1, 65535))}
            ]
        spec: dict[str, Any] = {"template": {"spec": {"containers": [container]}}}
        if counts[replica_type] is not None:
            spec["replicas"] = counts[replica_type]
        specs[draw(_any_case(replica_type))] = spec
    metadata: dict[str, Any] = {"name": draw(dns_labels)}
    if draw(st.booleans()):
        metadata["namespace"] = draw(dns_labels)
    return {
        "apiVersion": "kubeflow.org/v1",
        "kind": "TFJob",
        "metadata": metadata,
        "spec": {"tfReplicaSpecs": specs},
    }


@st.composite
def cluster_files(draw: st.DrawFn) -> dict[str, Any]:
    """A cluster as a cluster file holds it: jobs alone, one at least a job TensorFlow knows.

    Its addresses are valid and distinct; its jobs may break a reader's rules
    (two chiefs, no chief, a ``ps`` job for ``mwms``, an evaluator beside a master).
    """
    known = draw(st.lists(st.sampled_from(TRAINING_JOBS), min_size=1, max_size=4, unique=True))
    others = draw(st.lists(extra_job_names, max_size=2, unique=True))
    names = draw(st.permutations([*known, *(name for name in others if name not in TRAINING_JOBS)]))
    return draw(jobs({name: draw(st.integers(1, 3)) for name in names}))
