"""The codes of a Volcano Job's checks (``estconf validate`` on a Volcano Job).

The rows are read as :mod:`estconf._codes` says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from estconf._codes import Section

SECTIONS: Final[tuple[Section, ...]] = (
    (
        "volcano-findings-estconf-validate-on-a-volcano-job",
        (
            (
                "volcano_api_version",
                "error",
                "model error: a Volcano Job of another `apiVersion` than "
                "`batch.volcano.sh/v1alpha1`",
                "`apiVersion: batch.volcano.sh/v1beta1`",
                "apiVersion: batch.volcano.sh/v1alpha1",
            ),
            (
                "volcano_no_tasks",
                "error",
                "refused: no task (`No task specified in job spec`)",
                "`spec: {tasks: []}`",
            ),
            (
                "volcano_duplicate_task",
                "error",
                "refused: two tasks of one name (`duplicated task name found`)",
                "two tasks `name: worker`",
                "give each task its own name",
            ),
            (
                "volcano_task_name",
                "error",
                "refused: a task name that is no lowercase RFC 1123 label",
                "`name: Worker`",
            ),
            (
                "volcano_unknown_plugin",
                "error",
                "refused: a plugin Volcano does not know (`unable to find job plugin`)",
                "`plugins: {tf: []}`",
            ),
            (
                "volcano_plugin_null",
                "error",
                "`tensorflow:` of no value (null), which the API server drops: no pod gets a "
                "`TF_CONFIG`",
                "`plugins: {tensorflow: }`",
                "tensorflow: []",
            ),
            (
                "volcano_plugin_flag",
                "error",
                "an argument the tensorflow plugin's flag parser stops at (an unknown or bad flag, "
                "a bad `--port`, no flag at all): it and those after it are never read",
                "`--ps master`, `ps=ps`, `--master=m`",
            ),
            (
                "volcano_plugin_flag_repeated",
                "warning",
                "a flag of the tensorflow plugin given twice: the last is taken",
                "`--port=2222`, then `--port=5000`",
            ),
            (
                "volcano_plugin_port",
                "error",
                "a `--port` outside 1..65535, which the plugin writes into every address as it is",
                "`--port=70000`, `--port=abc` (0)",
                "--port=2222",
            ),
            (
                "volcano_task_unmapped",
                "warning",
                "a task no flag names: its pods get its name as their task type, and the "
                "cluster leaves them out",
                "a task `master` with the default flags",
            ),
            (
                "volcano_no_task_named",
                "error",
                "no flag of the tensorflow plugin names a task of the Job: every pod gets an "
                "empty cluster, and runs alone",
                "a task `trainer` with the default flags",
            ),
            (
                "volcano_flags_name_one_task",
                "error",
                "two flags name one task: its pods are listed under one job and typed as another",
                "`--ps=worker` beside the default `--worker=worker`",
                "name each task with one flag",
            ),
            (
                "volcano_hostname_set",
                "error",
                "a pod template's `hostname` in a task of many pods: every pod has it, and the "
                "cluster gives them one address",
                "`hostname: trainer` with `replicas: 2`",
            ),
            (
                "volcano_subdomain_set",
                "warning",
                "a pod template's `subdomain` other than the Job's name, which no Service of the "
                "Job serves",
                "`subdomain: training`",
            ),
            (
                "volcano_pod_name",
                "error",
                "a pod name, which becomes its hostname, longer than 63 characters",
                "a 60-character Job name",
            ),
            (
                "volcano_tf_config_set",
                "warning",
                "`TF_CONFIG` set by hand where the plugin writes its own, which wins (a note in a "
                "one-pod Job, where it is used)",
                "`env: [{name: TF_CONFIG, ...}]`",
            ),
            (
                "volcano_tf_config_shared",
                "error",
                "without the plugin, a task of many pods whose one `TF_CONFIG` gives each of "
                "them the same task",
                '`replicas: 2` and `"task": {"type": "worker", "index": 0}`',
            ),
            (
                "volcano_tf_config_in_command",
                "warning",
                "without the plugin, a task whose command builds `TF_CONFIG` when each pod starts "
                "(as Volcano's own TensorFlow examples do, from the svc plugin's host files): "
                "not known before the Job runs, so not checked",
                '`sh -c "export TF_CONFIG={...${VK_TASK_INDEX}...}; python train.py"`',
                "enable the tensorflow plugin (plugins: {tensorflow: []}) and drop the export",
            ),
            (
                "volcano_single_pod",
                "note",
                "note: one task of one replica: the plugin writes no `TF_CONFIG`, and the pod "
                "runs alone",
                "`tasks: [{name: worker, replicas: 1}]`",
            ),
        ),
    ),
)
