"""The codes of the JobSet and Trainer v2 checks (``estconf validate`` on a JobSet or a TrainJob).

The rows are read as :mod:`estconf._codes` says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from estconf._codes import Section

SECTIONS: Final[tuple[Section, ...]] = (
    (
        "jobset-and-trainer-v2-findings-estconf-validate-on-a-jobset-or-a-trainjob",
        (
            (
                "env_reference_not_expanded",
                "error",
                "a `$(NAME)` in a pod's `TF_CONFIG` that Kubernetes leaves as written: no "
                "variable of that name is defined before `TF_CONFIG` in its container "
                "(`JOB_COMPLETION_INDEX` never is: the Job controller appends it last)",
                '`"index": $(JOB_COMPLETION_INDEX)`',
                "define TASK_INDEX before TF_CONFIG from a fieldRef to "
                "metadata.annotations['batch.kubernetes.io/job-completion-index']",
            ),
            (
                "tf_config_missing",
                "error",
                "the pods of a replicated job that a cluster lists get no `TF_CONFIG`, or get it "
                "only in a container beside the one that runs TensorFlow: the job never starts",
                "a `ps` job with no `TF_CONFIG` in a cluster that lists its pods",
                "define TF_CONFIG in the container that runs TensorFlow, with the pod's task",
            ),
            (
                "task_claimed_twice",
                None,
                "two pods get the same task: an index from the completion index in a replicated "
                "job of several Jobs (each numbers its pods from 0), or a fixed index",
                "`replicas: 2` and `TASK_INDEX` from the completion index",
            ),
            (
                "address_not_a_pod",
                "error",
                "a cluster address written with a pod's hostname that names no pod of the "
                "JobSet: another JobSet's name, replicated job, index, subdomain or namespace, "
                "no subdomain, `.svc.cluster.local` without the namespace",
                "`mnist-worker-0-3.mnist:2222` in a job of three workers",
                "write each pod <jobset>-<job>-<j>-<p>.<subdomain>[.<namespace>[.svc[.<domain>]]]",
            ),
            (
                "dns_hostnames_off",
                "error",
                "`network.enableDNSHostnames: false` while a `TF_CONFIG` addresses pods by "
                "hostname: no pod's name resolves",
                "`enableDNSHostnames: false` with `mnist-worker-0-0.mnist:2222`",
                "remove enableDNSHostnames: false (JobSet turns DNS hostnames on by default)",
            ),
            (
                "never_succeeds",
                "error",
                "a success policy that waits for parameter servers, which never exit: `All` (the "
                "default) over every job or a `ps` job, or `Any` over `ps` jobs only",
                "no `successPolicy` in a JobSet with a `ps` job",
                "successPolicy: {operator: All, targetReplicatedJobs: [chief]}",
            ),
            (
                "pod_name_too_long",
                "error",
                "refused: the longest Job name `<jobset>-<R>-<J-1>`, or pod name "
                "`<jobset>-<R>-<J-1>-<C-1>-abcde`, is longer than 63 characters (JobSet's webhook)",
                "a JobSet name of 50 characters",
                "shorten the JobSet's name or the replicated job's",
            ),
            (
                "trainer_runtime_rule",
                "error",
                "refused: a runtime's replicated job labelled "
                "`trainer.kubeflow.org/trainjob-ancestor-step` with `replicas` other than 1, or "
                "without its container (`node` for `trainer`; Trainer's runtime webhook)",
                "a `trainer` job whose container is named `tensorflow`",
                "set replicas: 1 and name the trainer's container node",
            ),
            (
                "runtime_not_given",
                "note",
                "note: a TrainJob whose runtime is in no file checked: its pods are not checked "
                "(give the runtime's file too)",
                "`runtimeRef: {name: tf-plain}` alone",
            ),
        ),
    ),
)
