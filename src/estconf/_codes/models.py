"""The codes of the models' rules: values, session_config, the cluster, TF_CONFIG and its readers.

The rows are read as :mod:`estconf._codes` says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from estconf._codes import Section

SECTIONS: Final[tuple[Section, ...]] = (
    (
        "values",
        (
            (
                "int_type",
                "error",
                "an integer is meant: a bool, a fractional float or a non-digit string is refused "
                "(TensorFlow truncates `1.5` and reads `true` as 1)",
                'task `"index": 1.5`; `RunConfig(tf_random_seed=True)`',
            ),
            (
                "type",
                "error",
                "a value of a JSON type TensorFlow keeps unchecked, or an explicit `null` where a "
                "key may only be left out",
                '`"session_master": null`; `TPUConfig(initial_infeed_sleep_secs="5")`',
            ),
            (
                "address",
                "error",
                "a task address that is not `host:port` (port 0\u201365535 without leading "
                "zeros, IPv6 in brackets; the message says which part is wrong), or one "
                "`host:port` used by two tasks",
                '`"worker": ["host1"]`; `"chief": ["h:1"], "worker": ["h:1"]`',
            ),
            (
                "job_name",
                "error",
                "a job name TensorFlow's device names cannot hold",
                '`"1aux": ["h:2"]`',
            ),
            (
                "bounds",
                "error",
                "a RunConfig number out of TensorFlow's range (`>= 0`, or `> 0`)",
                "`RunConfig(save_summary_steps=-1)`: `save_summary_steps should be >= 0`",
            ),
            (
                "protocol",
                "error",
                "`protocol` other than `grpc` or `grpc+verbs`",
                '`RunConfig(protocol="http")`',
            ),
            (
                "device_fn",
                "error",
                "`device_fn` is not a callable of one argument `op`",
                "`RunConfig(device_fn=lambda x: x)`",
            ),
            (
                "strategy",
                "error",
                "the v2 `ParameterServerStrategy` given to the estimator",
                "`RunConfig(train_distribute=tf.distribute.experimental.ParameterServerStrategy(...))`",
            ),
            (
                "int32_range",
                "error",
                "contrib: `num_cores` outside the `int32` of the ConfigProto it sets; "
                "`ServerConfig`: a task index outside the `int32` of `tf.train.Server`'s "
                "`ServerDef` (`Value out of range: <n>`)",
                "`contrib.RunConfig(num_cores=2**31)`",
            ),
            (
                "double_range",
                "error",
                "contrib: `gpu_memory_fraction` too large for a `double`",
                "`contrib.RunConfig(gpu_memory_fraction=10**400)`",
            ),
        ),
    ),
    (
        "session_config-configproto-and-its-messages",
        (
            (
                "int_range",
                "error",
                "an integer outside its protobuf type (`int32`, `uint32`, `int64`, `uint64`), in "
                "protobuf's words (`Value out of range: <n>`)",
                '`"intra_op_parallelism_threads": 2147483648`',
            ),
            (
                "float_type",
                "error",
                "a `float` or `double` field given a bool, a string that is no number, or "
                "`NaN`/infinity where a finite number is meant (protobuf's words: `Couldn't parse "
                'NaN, use quoted "NaN" instead`)',
                '`"per_process_gpu_memory_fraction": true`',
            ),
            (
                "float_range",
                "error",
                "a number larger than a `float` (`float32`) holds; a JSON float in protobuf's "
                "words (`Float value too large`, `Float value too small`)",
                'an `AttrValue` `{"list": {"f": [1e39]}}`',
            ),
            (
                "bool_type",
                "error",
                "a `bool` field given anything but `true` or `false` (`Expected true or false "
                "without quotes`, protobuf's words)",
                '`"allow_soft_placement": "yes"`',
            ),
            (
                "string_type",
                "error",
                "a `string` field given a value that is not a string",
                '`"device_filters": [1]`',
            ),
            (
                "string_unicode",
                "error",
                "a string holding half of a UTF-16 surrogate pair, which protobuf cannot encode",
                '`"device_filters": ["\\ud800"]`',
            ),
            (
                "bytes_type",
                "error",
                "a `bytes` field given a value that is not base64 text",
                'an `AttrValue` `{"s": 1}`',
            ),
            (
                "base64",
                "error",
                "a `bytes` field given text that is not valid base64",
                'an `AttrValue` `{"s": "a"}`',
            ),
            (
                "enum",
                "error",
                "an enum field given neither one of its names nor one of its numbers (`Invalid "
                "enum value FAST for enum type tensorflow.OptimizerOptions.GlobalJitLevel`, "
                "protobuf's words); for `TPUConfig`, `per_host_input_for_training` that is "
                "neither a bool nor an `InputPipelineConfig`",
                '`"global_jit_level": "FAST"`; `TPUConfig(per_host_input_for_training=7)`',
            ),
            (
                "oneof",
                "error",
                "more than one field of an `AttrValue`'s `oneof` set",
                '`{"s": "YQ==", "i": 1}`',
            ),
            (
                "depth",
                "error",
                "messages nested deeper than protobuf reads (100)",
                "an `AttrValue` list nested 101 deep",
            ),
            (
                "duplicate_key",
                "error",
                'a map keyed by task index names one index twice (`"1"` and `"01"`); a field '
                "given under both its names; a key repeated in one object of JSON text "
                "(protobuf's `Failed to load JSON: duplicate key <key>.`)",
                '`"tasks": {"1": "a:1", "01": "b:1"}`; `{"allow_growth": true, "allowGrowth": '
                'false}`; `\'{"device_count": {"CPU": 1, "CPU": 2}}\'`',
            ),
            (
                "session_config_type",
                "error",
                "`session_config` is neither its JSON form, a `ConfigProto` model nor a real "
                "`tf.compat.v1.ConfigProto`",
                "`RunConfig(session_config=42)`",
            ),
        ),
    ),
    (
        "the-cluster-clusterspec",
        (
            (
                "cluster_type",
                "error",
                "`cluster` is not an object of jobs",
                '`"cluster": null`',
            ),
            (
                "job_tasks_type",
                "error",
                "a job's tasks are neither a list nor an object",
                '`"worker": "h:1"`',
            ),
            (
                "string_type",
                None,
                "a task address that is not a string, in TensorFlow's words (`Task address 5 must "
                "be bytes or unicode`)",
                '`"worker": ["h:1", 5]`',
            ),
            (
                "empty_job",
                "error",
                "a job with no task (TensorFlow fails on it with `max() arg is an empty sequence`)",
                '`"ps": []`',
            ),
            (
                "cluster_no_tasks",
                "error",
                "a cluster file (kind `cluster`) with no job: no task to start, as `estconf "
                "tf-config` says of it too",
                "`{}` read with `--kind cluster`",
                'name each job and its tasks\' addresses: `{"worker": ["host1:2222"]}`',
            ),
            (
                "sparse_index_negative",
                "error",
                "a negative index in a sparse job",
                '`"worker": {"-1": "h:1"}`',
            ),
            (
                "sparse_index_repeated",
                "error",
                "two keys of a sparse job name the same index",
                '`"worker": {"1": "a:1", "01": "b:1"}`',
            ),
            (
                "sparse_index_too_large",
                "error",
                "an index above 2**31 - 1, the largest TensorFlow holds",
                '`"worker": {"2147483648": "h:1"}`',
            ),
            (
                "port_zero",
                "warning",
                "warning: a task at port 0 in a cluster of several tasks: it listens on a free "
                "port chosen when it starts, which no other task knows",
                '`"chief": ["h0:0"], "worker": ["h1:2222"]`',
                "give the task a fixed port, e.g. `h0:2222`",
            ),
            (
                "loopback_address",
                "note",
                "note: a task at `localhost`, `127.0.0.0/8` or `[::1]` in a cluster of several "
                "tasks: it works only when every task runs on that machine",
                '`"chief": ["localhost:2222"], "worker": ["h1:2222"]`',
                "for tasks on several machines, give each its machine's hostname or IP address",
            ),
        ),
    ),
    (
        "tf_config-tfconfig",
        (
            (
                "near_miss_key",
                "error",
                "in a `TF_CONFIG`, an unknown top-level key that is a `RunConfig` argument, the "
                'variable\'s name `TF_CONFIG` (a file holding `{"TF_CONFIG": "..."}`), or a near '
                "miss of a `TF_CONFIG` key or a `RunConfig` argument (`clusters`, "
                "`sparseCluster`, `save_checkpoint_steps`); other unknown keys are kept (see "
                "[compatibility](compatibility.md))",
                "`typo.json:1:21: save_checkpoint_steps: unknown key 'save_checkpoint_steps' of "
                "TF_CONFIG; did you mean 'save_checkpoints_steps' of RunConfig?`",
            ),
            (
                "top_level_jobs",
                "error",
                "a job at the top level of `TF_CONFIG` (`chief`, `master`, `worker`, `ps`, "
                "`evaluator`, or a misspelling of one holding tasks, `workers`): the `cluster` "
                "wrapper was forgotten, so TensorFlow ignores it and each node runs alone; every "
                "reader refuses it",
                '`{"worker": ["w0:2222"], "ps": ["p0:2222"], "task": {"type": "worker", "index": '
                "0}}`",
            ),
            (
                "tf_config_empty",
                "error",
                "`TF_CONFIG` is set but empty (the estimator fails on it)",
                "`TF_CONFIG=`",
            ),
            (
                "tf_config_type",
                "error",
                "`TF_CONFIG` is not a JSON object",
                "`TF_CONFIG=[]`",
            ),
            (
                "service_type",
                "error",
                "`service` is set and not an object; for TPUConfig, also `null` (it reads "
                "`tpu_worker_job_name` from it)",
                '`"service": []`',
            ),
            (
                "model_dir_empty",
                "error",
                "an empty `model_dir`: as the argument, or in TF_CONFIG for the Estimator (the "
                "tf.distribute readers take it)",
                '`"model_dir": ""`',
            ),
        ),
    ),
    (
        "tf_config-text",
        (
            (
                "json_invalid",
                "error",
                "the text is not JSON (or not UTF-8, or a string or key holds half of a UTF-16 "
                'surrogate pair, `"\\ud800"`); `NaN` and `Infinity` are read, as TensorFlow\'s '
                "`json.loads` reads them, and then refused by the field they are in",
                '`TF_CONFIG={"cluster": {`',
            ),
            (
                "json_depth",
                "error",
                "objects and arrays nested too deep for the reader",
                "a thousand nested arrays",
            ),
            (
                "duplicate_key",
                None,
                "a key given twice in one object",
                '`{"task": {}, "task": {}}`',
            ),
        ),
    ),
    (
        "the-estimators-reading-of-tf_config-runconfig-tpurunconfig",
        (
            (
                "local_task_type",
                "error",
                "no cluster, and a task type other than `worker`",
                '`{"task": {"type": "chief"}}`',
            ),
            (
                "local_task_index",
                "error",
                "no cluster, and a task index other than 0",
                '`{"task": {"type": "worker", "index": 1}}`',
            ),
            (
                "missing_chief",
                "error",
                "a cluster without a `chief` (or `master`) job",
                '`{"cluster": {"worker": ["h:1"]}, …}`',
            ),
            (
                "multiple_chiefs",
                "error",
                "a `chief` (or `master`) job of more than one task (holes counted)",
                '`"chief": ["h:0", "h:1"]`',
            ),
            (
                "missing_task_type",
                "error",
                "a cluster, and no task type",
                '`{"cluster": …, "task": {"index": 0}}`',
            ),
            (
                "missing_task_index",
                "error",
                "a cluster, and no task index",
                '`{"cluster": …, "task": {"type": "worker"}}`',
            ),
            (
                "negative_task_index",
                "error",
                "a negative task index",
                '`"task": {"type": "worker", "index": -1}`',
            ),
            (
                "unknown_task_type",
                "error",
                "the task type is no job of the cluster (nor `evaluator`)",
                '`"task": {"type": "trainer", "index": 0}`',
            ),
            (
                "task_index_out_of_range",
                "error",
                "the index is not below the size of its job",
                "worker 3 of a job of two",
            ),
            (
                "task_in_hole",
                "error",
                "the task is a hole of a sparse job: the cluster gives it no address",
                '`"worker": {"2": "h:2"}`, task `worker` 1',
            ),
            (
                "job_name_near_miss",
                "error",
                "a job of the cluster whose name misspells one the estimator reads (`workers`, "
                "`Worker`, `PS`, `cheif`, `evaluators`, `masters`): TensorFlow counts it as a job "
                'of its own that no task trains with; the message says "did you mean"',
                '`"cluster": {"chief": ["h:0"], "workers": ["h:1"]}`',
            ),
            (
                "chief_with_master",
                "error",
                "a cluster with both a `master` and a `chief` job",
                '`"master": ["h:0"], "chief": ["h:1"]`',
            ),
            (
                "evaluator_with_master",
                "error",
                "an `evaluator` task in a cluster with a `master` job",
                '`"master": ["h:0"]`, task `evaluator` 0',
            ),
            (
                "strategy_conflict",
                "error",
                "a strategy given both directly and in `experimental_distribute`",
                "`train_distribute=s` with `experimental_distribute.train_distribute=s`",
            ),
            (
                "distribute_config",
                "error",
                "an `experimental_distribute` (not false) without the `train_distribute` or "
                "`eval_distribute` attribute TensorFlow reads of a `DistributeConfig`, or, with a "
                "training strategy, without `remote_cluster`: TensorFlow fails with an "
                "`AttributeError`",
                "`RunConfig(experimental_distribute=tf.distribute.MirroredStrategy())`",
            ),
            (
                "remote_cluster_conflict",
                "error",
                "a TF_CONFIG cluster and `experimental_distribute.remote_cluster`",
                "both set, with a training strategy",
            ),
            (
                "master_and_cluster",
                "error",
                "`tpu.RunConfig` given both `master` (even `''`) and a `cluster` resolver",
                '`tpu.RunConfig(master="", cluster=resolver)`',
            ),
            (
                "cluster_def_conflict",
                "error",
                "`tpu.RunConfig` given a `cluster` resolver and a `session_config` with a "
                "`cluster_def`",
                '`cluster=resolver, session_config={"cluster_def": {}}`',
            ),
            (
                "cluster_resolver",
                "error",
                "a true `cluster` that is no cluster resolver (no `master()` and "
                "`cluster_spec()`), or whose `master()` or `cluster_spec()` fails",
                "`tpu.RunConfig(cluster=object())`",
            ),
        ),
    ),
    (
        "the-tfdistribute-readers-estconfdistribute-profile-mwmspsserver",
        (
            (
                "type",
                None,
                "a task `type` or `index` given as `null`, which the resolver reads differently "
                "from a key left out",
                '`"task": {"type": null, "index": 0}`',
            ),
            (
                "task_not_in_cluster",
                "error",
                "`TFConfigClusterResolver.master()` for a task the cluster has no address for; "
                "`ServerConfig` (`--profile server`) for a task that is not a task of the cluster "
                "(`No such job in cluster: 'chief'`, `No task with index 5 in job 'worker'`)",
                '`resolver.master("worker", 5)` in a job of two',
            ),
            (
                "missing_task",
                "error",
                "`MultiWorkerConfig`: a cluster, and no task type or index",
                '`{"cluster": {"worker": ["h:1"]}}`',
            ),
            (
                "disallowed_job",
                "error",
                'a job other than `chief`, `worker`, `evaluator` and `ps` (with "did you mean" '
                "for a misspelling of one, `workers`)",
                '`"trainer": ["h:1"]`',
            ),
            (
                "unrecognized_task_type",
                "error",
                "a task type other than those four",
                '`"task": {"type": "master", "index": 0}`',
            ),
            (
                "task_type_not_in_cluster",
                "error",
                "the task type is no job of the cluster (an `evaluator` need not be)",
                "task `ps` 0 in a cluster of workers",
            ),
            (
                "multiple_evaluators",
                "error",
                "an `evaluator` job of more than one task",
                '`"evaluator": ["h:1", "h:2"]`',
            ),
            (
                "task_id_out_of_range",
                "error",
                "the task index is not below its job's number of tasks",
                "worker 2 of a job of two",
            ),
            (
                "negative_index",
                "error",
                "a negative task index (TensorFlow's readers take it and give the task another "
                "task's id)",
                '`"task": {"type": "worker", "index": -1}`',
            ),
            (
                "no_id_for_task_type",
                "error",
                "`MultiWorkerConfig` for a `ps` task, which has no worker id",
                "task `ps` 0 under `--profile mwms`",
            ),
            (
                "missing_evaluator_job",
                "error",
                "`MultiWorkerConfig` for an evaluator task in a cluster without an `evaluator` "
                "job (TensorFlow fails with `KeyError`)",
                "task `evaluator` 0, cluster of workers",
            ),
            (
                "empty_cluster",
                "error",
                "`ParameterServerConfig` with no cluster",
                "`{}` under `--profile ps`",
            ),
            (
                "missing_job_name",
                "error",
                "`ServerConfig` (`--profile server`): no task type, and the cluster has not "
                "exactly one job to take (`Must specify an explicit `job_name`.`)",
                '`{"cluster": {"ps": ["p:1"], "worker": ["w:1"]}}`',
            ),
            (
                "task_index_type",
                "error",
                "`ServerConfig`: a task index written as a string or a number with a decimal "
                "point, which the `int32` field of `tf.train.Server`'s `ServerDef` refuses "
                "(`'str' object cannot be interpreted as an integer`)",
                '`"task": {"type": "worker", "index": "1"}` under `--profile server`',
            ),
            (
                "missing_ps",
                "error",
                "`ParameterServerConfig` with no `ps` job",
                '`"cluster": {"chief": ["h:0"], "worker": ["h:1"]}`',
            ),
            (
                "missing_worker",
                "error",
                "`ParameterServerConfig` with no `worker` job",
                '`"cluster": {"chief": ["h:0"], "ps": ["h:1"]}`',
            ),
        ),
    ),
)
