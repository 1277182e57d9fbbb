"""The codes of SLURM, SageMaker, Vertex AI, RunConfig's arguments, the TPU and contrib models.

The rows are read as :mod:`estconf._codes` says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from estconf._codes import Section

SECTIONS: Final[tuple[Section, ...]] = (
    (
        "slurm-slurmclusterresolver",
        (
            (
                "slurm_variable_missing",
                "error",
                "a variable the resolver reads is not set (TensorFlow's `... not found in "
                "environment. Not running inside a SLURM step?`); `SLURM_JOB_*` are never read",
                "a batch script outside `srun`: `SLURM_STEP_NODELIST`",
            ),
            (
                "slurm_hostlist",
                "error",
                'a nodelist TensorFlow cannot read (`Invalid hostlist format "..."`), a range of '
                "more than 65,536 hosts, which SLURM itself refuses, or a nodelist of more than "
                "100,000 hosts",
                "`SLURM_STEP_NODELIST=n[1-2`",
            ),
            (
                "slurm_tasks_per_node",
                "error",
                "tasks per node TensorFlow cannot read (`Invalid tasks-per-node list format "
                '"..."`)',
                "`SLURM_STEP_TASKS_PER_NODE=2(x`",
            ),
            (
                "slurm_no_nodes",
                "error",
                "no host: an empty nodelist or `tasks_per_node={}` (TensorFlow fails with `max() "
                "arg is an empty sequence`)",
                "`SLURM_STEP_NODELIST=`",
            ),
            (
                "gpu_count_unknown",
                "error",
                "no `gpus_per_node` and no `CUDA_VISIBLE_DEVICES`: TensorFlow would run "
                "`nvidia-smi`, estconf runs no program (see [compatibility](compatibility.md))",
                "`SlurmClusterResolver(environ=step)` on a step without `CUDA_VISIBLE_DEVICES`",
            ),
            (
                "slurm_no_tasks",
                "error",
                "every node has 0 tasks and no `gpus_per_task` is given (TensorFlow fails with "
                "`integer division or modulo by zero`)",
                "`SLURM_STEP_TASKS_PER_NODE=0(x2)`",
            ),
            (
                "slurm_gpus",
                "error",
                "more tasks on a node times GPUs per task than GPUs per node (`Requested more "
                "GPUs per node than available.`)",
                "`gpus_per_node=2, gpus_per_task=2`, 2 tasks a node",
            ),
            (
                "slurm_tasks",
                "error",
                "the jobs' sizes do not add up to the step's tasks (`Requested N tasks but only M "
                "were assigned.`)",
                '`jobs={"worker": 3}` on 4 tasks',
            ),
            (
                "slurm_gpus_per_task_zero",
                "error",
                "0 GPUs per task: a CPU-only job, or fewer GPUs than tasks on a node "
                "(TensorFlow's `cluster_spec()` fails with `range() arg 3 must not be zero`)",
                "`gpus_per_node=0`",
            ),
            (
                "slurm_float",
                "error",
                "a GPU count, a job's size or a host's number of tasks given as a float (`2.0`): "
                "TensorFlow's `cluster_spec()` hands it to `range()` or a slice and fails with "
                "`'float' object cannot be interpreted as an integer` (a job's size: `slice "
                "indices must be integers ...`)",
                "`gpus_per_node=2.0`",
            ),
            (
                "slurm_rank",
                "error",
                "`SLURM_PROCID` is not below the cluster's number of tasks (or, negative, not "
                "above minus that number) and `auto_set_gpu` is on (TensorFlow fails with `list "
                "index out of range`)",
                "`SLURM_PROCID=4` on 4 tasks",
            ),
            (
                "slurm_too_many_tasks",
                "error",
                "a node of more than 65,533 tasks (the largest `MaxTasksPerNode` SLURM accepts), "
                "or a step of more than 100,000 tasks; refused before any address is built, since "
                "each rank's `TF_CONFIG` lists every task's address (see "
                "[compatibility](compatibility.md))",
                "`SLURM_STEP_TASKS_PER_NODE=2147483648`",
            ),
            (
                "slurm_too_many_gpus",
                "error",
                "`gpus_per_node`, `gpus_per_task` or the length of `CUDA_VISIBLE_DEVICES` above "
                "1,024, more GPUs than any node holds (see [compatibility](compatibility.md))",
                "`gpus_per_node=100000000`",
            ),
        ),
    ),
    (
        "slurm-slurmclusterresolver",  # what slurm_tf_configs adds, in a table of its own
        (
            (
                "slurm_port",
                "error",
                "a host's last task would listen on a port above 65535; the message names the "
                "largest `port_base`",
                "`port_base=65535` with 2 tasks a host",
            ),
            (
                "slurm_host_twice",
                "error",
                "the nodelist names a host twice (SLURM names each once; two would share their "
                "ports)",
                "`SLURM_STEP_NODELIST=a,b,a`",
            ),
            (
                "slurm_placement",
                "error",
                "inside `srun`, the task runs on another host (`SLURMD_NODENAME`) than SLURM's "
                "block distribution gives its rank: the step lays its tasks out otherwise",
                "`srun --distribution=cyclic`",
            ),
        ),
    ),
    (
        "slurm-batch-scripts-tf-config-slurm-sbatch",
        (
            (
                "sbatch_script",
                "error",
                "a script sbatch refuses as a whole (empty, no `#!` first line, a NUL character, "
                "DOS line breaks), or one of more than 10,000 `#SBATCH` lines or arguments",
                "a script saved with `\\r\\n` line breaks",
            ),
            (
                "sbatch_syntax",
                "error",
                "a directive sbatch cannot split into arguments (an unmatched quote, a "
                "leading `:`), or an argument that is no option (`Invalid directive found in "
                "batch script`)",
                '`#SBATCH --job-name "a b`',
            ),
            (
                "sbatch_option",
                "error",
                "an option sbatch refuses as written: an ambiguous abbreviation, an argument "
                "missing or given to an option that takes none, an unknown short option, or "
                "`--gpus-per-node` with `--gres=gpu`",
                "`#SBATCH --gpus-per=2`",
            ),
            (
                "sbatch_unknown_option",
                "warning",
                "a long option sbatch does not know, which it refuses unless a plugin of the "
                "site adds it; estconf passes over it",
                "`#SBATCH --ntask-per-node=4`",
            ),
            (
                "sbatch_slurm_prefix",
                "warning",
                "a directive written `#SLURM`, which sbatch reads with a complaint",
                "`#SLURM --nodes=2`",
                "write `#SBATCH`",
            ),
            (
                "sbatch_value",
                "error",
                "a value of a directive estconf reads that SLURM refuses, that estconf cannot "
                "read, or above its bounds (100,000 nodes or tasks, 1,024 GPUs)",
                "`#SBATCH --nodes=two`",
            ),
            (
                "sbatch_layout",
                "error",
                "directives that give no one step: a range of node counts, `--ntasks` without "
                "the nodes, a nodelist that does not match `--nodes` or `--ntasks`, a "
                "heterogeneous job",
                "`#SBATCH --nodes=2-4`",
            ),
            (
                "sbatch_not_read",
                "note",
                "a directive estconf does not read that can place the ranks or give them GPUs "
                "otherwise than shown (`--distribution=cyclic`, `--gpus`, `--gpu-bind`, ...)",
                "`#SBATCH --distribution=cyclic`",
            ),
        ),
    ),
    (
        "sagemaker-estconfsagemaker",
        (
            (
                "sagemaker_ps_outside_distribution",
                "error",
                "parameter-server mode on a host whose instance group is not a distribution "
                "group: the toolkit builds no `TF_CONFIG` for it and fails starting its ps server "
                "(`UnboundLocalError`)",
                "`sagemaker_distribution_instance_groups: '[\"dnn\"]'` on a host of the group "
                "`data`",
            ),
            (
                "sagemaker_host_not_in_cluster",
                "error",
                "the current host is not one of the distribution hosts the toolkit builds "
                "`TF_CONFIG` from (`'algo-9' is not in list`)",
                '`"current_host": "algo-9"` with hosts `algo-1`, `algo-2`',
            ),
            (
                "sagemaker_host_not_in_hosts",
                "error",
                "parameter-server mode, and the current host is not in `hosts`, where the toolkit "
                "looks up its ps server's index",
                "a host in its group's `hosts` but not in `hosts`",
            ),
            (
                "sagemaker_no_hosts",
                "error",
                "`hosts` is empty and there are no distribution hosts: the toolkit's "
                "`Environment` fails looking for the master (`IndexError`)",
                '`"hosts": []`',
            ),
            (
                "sagemaker_distribution_instance_groups",
                "error",
                "`sagemaker_distribution_instance_groups` holds a number, a bool or null, in "
                "which the toolkit cannot look names up (`TypeError`)",
                '`"sagemaker_distribution_instance_groups": "3"`',
            ),
            (
                "sagemaker_not_text",
                "error",
                "`sagemaker_job_name` (or a true `sagemaker_region`) decodes to no text, and the "
                "toolkit fails putting it into `os.environ`",
                '`"sagemaker_job_name": "2024"`',
            ),
            (
                "sagemaker_too_deep",
                "error",
                "a hyperparameter whose value is JSON nested deeper than 64 levels, the limit of "
                "any file estconf reads; the toolkit's `json.loads` fails on it at about 1,000 "
                "levels (`RecursionError`) (see [compatibility](compatibility.md))",
                '`"x": "[[[[..."` of 1,000 brackets',
            ),
            (
                "sagemaker_instances",
                "error",
                "`resource_configs` with both or neither of `instance_count` and "
                "`instance_groups`, or more than 2,048 instances",
                "`resource_configs()`",
            ),
            (
                "sagemaker_instance_group_names",
                "error",
                "two instance groups of one name",
                '`[{"InstanceGroupName": "a", ...}, {"InstanceGroupName": "a", ...}]`',
            ),
            (
                "sagemaker_flag_string",
                "warning",
                "`sagemaker_parameter_server_enabled` or "
                "`sagemaker_multi_worker_mirrored_strategy_enabled` is text that is no JSON "
                '(`"False"`, `"True"`, `"no"`): the toolkit keeps it as text and tests it for '
                'truth, so any text but `""` turns the mode on',
                '`"sagemaker_parameter_server_enabled": "False"`',
                'write the JSON false or true (`"false"`, `"true"` in hyperparameters.json), '
                "or leave the key out",
            ),
        ),
    ),
    (
        "vertex-ai-estconfvertex",
        (
            (
                "vertex_primary_replicas",
                "error",
                "pool 0, the primary replica (the chief), has not exactly one replica",
                "`workerPoolSpecs[0].replicaCount: 4`",
            ),
            (
                "vertex_replica_count",
                "error",
                "a `replicaCount` that is no whole number of replicas (an `int64`: a number or a "
                "string of digits, 0 to 100,000)",
                '`replicaCount: true`, `replicaCount: "2.5"`',
            ),
            (
                "vertex_pools",
                "error",
                "not 1 to 4 worker pools",
                "five pools",
            ),
            (
                "vertex_job_id",
                "error",
                "a job id that cannot be part of a host name (lowercase letters and digits)",
                '`job_id="Not An Id"`',
            ),
            (
                "vertex_trial",
                "error",
                "a trial that is no hyperparameter-tuning trial's number (1 to 2,147,483,647: "
                "Vertex AI numbers trials from 1)",
                "`trial=0`",
            ),
            (
                "vertex_reduction_server",
                "note",
                "note: pool 2 runs Vertex AI's Reduction Server (its image is "
                "`vertex-ai-restricted/training/reductionserver`): no TensorFlow, no parameter "
                "server; its replicas are left out of the `TF_CONFIG` cluster and get no "
                "`TF_CONFIG`, since what Vertex AI gives them is not documented",
                "`workerPoolSpecs[2].containerSpec.imageUri: us-docker.pkg.dev/"
                "vertex-ai-restricted/training/reductionserver:latest`",
            ),
        ),
    ),
    (
        "runconfig-arguments",
        (
            (
                "checkpoints_conflict",
                "error",
                "`save_checkpoints_steps` and `save_checkpoints_secs` both set",
                "`RunConfig(save_checkpoints_steps=10, save_checkpoints_secs=60)`",
            ),
            (
                "model_dir_conflict",
                "error",
                "`model_dir` differs from TF_CONFIG's",
                '`RunConfig(model_dir="/a", tf_config={"model_dir": "/b"})`',
            ),
            (
                "replace_not_supported",
                "error",
                "`replace` of a property TensorFlow does not let change",
                "`config.replace(tf_config={})`",
            ),
            (
                "derived_mismatch",
                "error",
                "a dump's derived key disagrees with what is derived",
                '`{"master": "grpc://x:1"}` read back without the TF_CONFIG that gives it',
            ),
        ),
    ),
    (
        "tpu-tputpuconfig-tpurunconfig",
        (
            (
                "iterations_per_loop",
                "error",
                "`iterations_per_loop` is not a positive count or `<N>[smh]` (TensorFlow's "
                "message)",
                "`TPUConfig(iterations_per_loop=0)`",
            ),
            (
                "value",
                "error",
                "a value TensorFlow lets through that estconf refuses: `iterations_per_loop` with "
                "more than `<N>[smh]`, `experimental_host_call_every_n_steps` below 1",
                '`TPUConfig(iterations_per_loop="10\\n")`',
            ),
            (
                "positive_int",
                "error",
                "`num_shards` or `initial_infeed_sleep_secs` not positive",
                "`TPUConfig(num_shards=0)`",
            ),
            (
                "num_cores_per_replica",
                "error",
                "not one of 1, 2, 4, … 128",
                "`TPUConfig(num_cores_per_replica=3)`",
            ),
            (
                "enum",
                None,
                "`per_host_input_for_training` is not a bool or an `InputPipelineConfig` (a name "
                "only in documents)",
                "`TPUConfig(per_host_input_for_training=7)`",
            ),
            (
                "eval_training_input_configuration",
                "error",
                "not PER_HOST_V1 or SLICED",
                "`TPUConfig(eval_training_input_configuration=3)`",
            ),
            (
                "input_partition_dims_length",
                "error",
                "`input_partition_dims` has not one or two entries",
                "`input_partition_dims=[]`",
            ),
            (
                "input_partition_dims_mode",
                "error",
                "`input_partition_dims` without PER_HOST_V2",
                "`per_host_input_for_training=True`",
            ),
            (
                "input_partition_dims_cores",
                "error",
                "`input_partition_dims` without `num_cores_per_replica`",
                "`num_cores_per_replica=None`",
            ),
            (
                "partition_dims",
                "error",
                "a dim below 1, or a product other than 1 or `num_cores_per_replica`",
                "`num_cores_per_replica=4, input_partition_dims=[[1, 2]]`",
            ),
        ),
    ),
    (
        "contrib-contribclusterconfig-contribrunconfig",
        (
            (
                "legacy_sparse_job",
                "error",
                "a job given as an object, which TensorFlow 1.15 cannot read",
                '`"worker": {"0": "h:1"}`',
            ),
            (
                "tf_config_name",
                "error",
                "the TF_CONFIG passed as `tf_config`, contrib's name for its ConfigProto",
                "`contrib.RunConfig(tf_config={...})`",
            ),
        ),
    ),
)
