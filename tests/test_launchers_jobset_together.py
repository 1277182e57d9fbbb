"""estconf.launchers.jobset.together: the pods' TF_CONFIGs checked together, and those missing."""

from __future__ import annotations

from pathlib import Path

from estconf.io.checks import Limits
from estconf.launchers.jobset.jobsets import check_text
from estconf.launchers.jobset.together import JOB_INDEX_FIX

DATA = Path(__file__).parent / "data" / "launchers" / "jobset"
CONTAINERS = "template.spec.template.spec.containers"


def found(raw: bytes, profile: str = "mwms") -> list[tuple[str, str, str, str | None]]:
    result = check_text(raw, "yaml", "j.yaml", profile, Limits())
    assert result is not None
    return [(e.code, e.path, e.message, e.hint) for e in result.errors]


def data(name: str, profile: str = "ps") -> list[tuple[str, str, str, str | None]]:
    return found((DATA / name).read_bytes(), profile)


def workers(value: str, replicas: int = 1, completions: int = 2, index: str = "") -> bytes:
    index = index or "metadata.annotations['batch.kubernetes.io/job-completion-index']"
    return (
        "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: m}\n"
        f"spec:\n  replicatedJobs:\n  - name: worker\n    replicas: {replicas}\n"
        f"    template:\n      spec:\n        completions: {completions}\n"
        "        template:\n          spec:\n            containers:\n            - name: c\n"
        "              env:\n              - name: I\n                valueFrom:\n"
        f'                  fieldRef: {{fieldPath: "{index}"}}\n'
        f"              - name: TF_CONFIG\n                value: '{value}'\n"
    ).encode()


def cluster(*hosts: str) -> str:
    return '{"cluster": {"worker": [' + ", ".join(f'"{host}.m:1"' for host in hosts) + "]}, "


def test_the_completion_index_of_several_jobs_claims_each_task_twice() -> None:
    [(code, path, message, hint)] = data("claimed_twice_completion_index.yaml", "mwms")
    assert (code, path) == (
        "task_claimed_twice",
        f"spec.replicatedJobs[0].{CONTAINERS}[0].env[1].value",
    )
    assert message == (
        "TF_CONFIG of pods bert-worker-0-0 to bert-worker-1-1: tasks worker:0, worker:1 are each "
        "claimed by several pods: their index is the completion index, which each of the 2 Jobs "
        "of replicated job 'worker' numbers from 0"
    )
    assert hint == JOB_INDEX_FIX


def test_a_fixed_index_is_claimed_by_every_pod() -> None:
    raw = workers(
        cluster("m-worker-0-0", "m-worker-0-1") + '"task": {"type": "worker", "index": 0}}'
    )
    [(code, _, message, hint)] = found(raw)
    assert code == "task_claimed_twice"
    assert message == (
        "TF_CONFIG of pods m-worker-0-0 to m-worker-0-1: task worker:0 is claimed by several "
        "pods: the pods of replicated job 'worker' are given one index"
    )
    assert hint is not None and "job-completion-index" in hint


def test_the_job_index_of_one_pod_jobs_is_each_pods_own() -> None:
    hosts = ("m-worker-0-0", "m-worker-1-0")
    value = cluster(*hosts) + '"task": {"type": "worker", "index": $(I)}}'
    index = "metadata.labels['jobset.sigs.k8s.io/job-index']"
    assert found(workers(value, 2, 1, index)) == []
    [(code, _, _, hint)] = found(workers(value, 2, 1))
    assert code == "task_claimed_twice"
    assert hint is not None and "jobset.sigs.k8s.io/job-index" in hint


def test_a_task_no_pod_claims() -> None:
    hosts = ("m-worker-0-0", "m-worker-0-1", "x-2")
    [(code, _, message, _)] = found(
        workers(cluster(*hosts) + '"task": {"type": "worker", "index": $(I)}}')
    )
    assert code == "task_unclaimed"
    assert message.startswith("TF_CONFIG of pods m-worker-0-0 to m-worker-0-1: task worker:2 ")


def test_pods_that_disagree_on_the_cluster() -> None:
    raw = workers(
        cluster("m-worker-0-0", "m-worker-0-1", "h-$(I)")
        + '"task": {"type": "worker", "index": $(I)}}'
    )
    codes = [code for code, *_ in found(raw)]
    assert codes[0] == "cluster_mismatch"


def test_pods_the_reader_refuses_are_not_compared() -> None:
    raw = workers(
        cluster("m-worker-0-0", "m-worker-0-1") + '"task": {"type": "worker", "index": 2}}'
    )
    assert [code for code, *_ in found(raw)] == ["task_id_out_of_range"]


def test_pods_a_cluster_lists_that_get_no_tf_config() -> None:
    [(code, path, message, hint)] = data("tf_config_missing_ps.yaml")
    assert (code, path) == ("tf_config_missing", f"spec.replicatedJobs[2].{CONTAINERS}")
    assert message == (
        "the 2 pods of replicated job 'ps' get no TF_CONFIG, and the cluster of pod "
        "mnist-chief-0-0 lists them (cluster.ps[0]: 'mnist-ps-0-0.mnist:2222'): TensorFlow "
        "waits for them, and the job never gets past its start"
    )
    assert hint == (
        "define TF_CONFIG in the container of replicated job 'ps' that runs TensorFlow, with "
        'its task: {"type": "ps", "index": $(TASK_INDEX)}'
    )


def test_pods_no_cluster_lists_need_no_tf_config() -> None:
    raw = (DATA / "chief_worker_ps.yaml").read_bytes() + (
        b"    - name: tensorboard\n      template:\n        spec:\n          template:\n"
        b"            spec:\n              containers:\n                - name: tensorboard\n"
        b"                  image: tensorflow/tensorflow:2.15.0\n"
    )
    assert found(raw, "ps") == []


def test_a_tf_config_set_in_a_sidecar_only() -> None:
    [(code, path, message, hint)] = data("tf_config_in_sidecar.yaml")
    assert (code, path) == (
        "tf_config_missing",
        f"spec.replicatedJobs[2].{CONTAINERS}[0].env[1].value",
    )
    assert message == (
        "TF_CONFIG of pods mnist-ps-0-0 to mnist-ps-0-1 is set in container 'log-shipper' only, "
        "and container 'tensorflow', which serves port 2222 of the pod's own address, gets none: "
        "TensorFlow there runs alone, without the cluster"
    )
    assert hint == "define TF_CONFIG in container 'tensorflow'"


def test_a_sidecar_beside_the_container_with_tf_config_is_no_finding() -> None:
    raw = (
        (DATA / "chief_worker_ps.yaml")
        .read_bytes()
        .replace(
            b"                - name: tensorflow\n",
            b"                - name: log-shipper\n                  image: fluent/fluent-bit:3.0\n"
            b"                - name: tensorflow\n",
        )
    )
    assert found(raw, "ps") == []


def test_a_trainer_job_whose_tf_config_is_not_in_container_node() -> None:
    raw = (DATA / "trainjob_with_runtime.yaml").read_bytes()
    runtime, trainjob = raw.split(b"\n---\n")
    runtime = runtime.replace(
        b"                    - name: node\n",
        b"                    - name: agent\n"
        b"                      env: [{name: TF_CONFIG, value: '{}'}]\n"
        b"                    - name: node\n",
    )
    result = found(runtime + b"\n---\n" + trainjob.replace(b"- name: TF_CONFIG", b"- name: OTHER"))
    assert [(code, message.split(", gets")[0]) for code, _, message, _ in result] == [
        (
            "tf_config_missing",
            "TF_CONFIG of pods mnist-node-0-0 to mnist-node-0-2 is set in container 'agent' "
            "only, and container 'node', which Trainer runs the TrainJob's trainer in",
        )
    ]


def test_past_three_tasks_claimed_twice_the_others_are_counted() -> None:
    task = '"task": {"type": "worker", "index": $(I)}}'
    hosts = [f"m-worker-0-{p}" for p in range(5)]
    [(code, _, message, _)] = found(workers(cluster(*hosts) + task, 2, 5))
    assert code == "task_claimed_twice"
    assert "tasks worker:0, worker:1, worker:2 and 2 more are each claimed" in message
    [(_, _, message, _)] = found(workers(cluster(*hosts[:3]) + task, 2, 3))
    assert "tasks worker:0, worker:1, worker:2 are each claimed" in message


def test_a_task_claimed_twice_is_said_once_not_also_unclaimed() -> None:
    """Pods that all claim the first tasks leave the others unclaimed: that is said once."""
    hosts = ("m-worker-0-0", "m-worker-0-1", "m-worker-1-0", "m-worker-1-1")
    value = cluster(*hosts) + '"task": {"type": "worker", "index": $(I)}}'
    assert [code for code, *_ in found(workers(value, 2, 2))] == ["task_claimed_twice"]


def test_pods_that_disagree_are_told_to_agree() -> None:
    raw = workers(
        cluster("m-worker-0-0", "m-worker-0-1", "h-$(I)")
        + '"task": {"type": "worker", "index": $(I)}}'
    )
    [(code, _, _, hint), *_] = found(raw)
    assert code == "cluster_mismatch"
    assert hint == "give every pod of the job the same cluster and the same values"


def test_a_jobset_of_one_pod_has_nothing_to_compare() -> None:
    """One pod's TF_CONFIG is checked alone: the tasks of other hosts are not the JobSet's."""
    value = '{"cluster": {"worker": ["m-worker-0-0.m:1", "10.0.0.9:1"]}, '
    assert found(workers(value + '"task": {"type": "worker", "index": $(I)}}', 1, 1)) == []


TASK = '"task": {"type": "worker", "index": $(I)}}'


def test_a_tf_config_from_env_from_claimed_twice_is_said_at_the_container() -> None:
    """A TF_CONFIG a ConfigMap gives through envFrom, of one index, is claimed by every pod."""
    value = cluster("m-worker-0-0", "m-worker-0-1") + '"task": {"type": "worker", "index": 0}}'
    raw = (
        workers("x").replace(
            b"              - name: TF_CONFIG\n                value: 'x'\n",
            b"              envFrom: [{configMapRef: {name: tf}}]\n",
        )
        + (
            "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: tf}\n"
            f"data:\n  TF_CONFIG: '{value}'\n"
        ).encode()
    )
    [(code, path, _, _)] = found(raw)
    assert (code, path) == ("task_claimed_twice", f"spec.replicatedJobs[0].{CONTAINERS}[0].envFrom")


def test_a_fixed_index_in_several_jobs_takes_the_job_index_too() -> None:
    value = cluster(*(f"m-worker-{j}-{p}" for j in range(2) for p in range(2)))
    [(code, _, _, hint)] = found(workers(value + '"task": {"type": "worker", "index": 0}}', 2, 2))
    assert code == "task_claimed_twice"
    assert hint == JOB_INDEX_FIX


def test_a_task_no_pod_claims_is_said_at_the_first_pods_tf_config() -> None:
    chief = (
        "  - name: chief\n    template:\n      spec:\n        template:\n          spec:\n"
        "            containers:\n            - name: c\n              env:\n"
        "              - name: TF_CONFIG\n                value: '{value}'\n"
    )
    hosts = '["m-worker-0-0.m:1", "m-worker-0-1.m:1", "10.0.0.9:1"]'
    value = '{"cluster": {"chief": ["m-chief-0-0.m:1"], "worker": ' + hosts + "}, "
    raw = workers(value + TASK).replace(
        b"  replicatedJobs:\n",
        b"  replicatedJobs:\n"
        + chief.format(value=value + '"task": {"type": "chief", "index": 0}}').encode(),
    )
    [(code, path, _, _)] = found(raw)
    assert (code, path) == (
        "task_unclaimed",
        f"spec.replicatedJobs[0].{CONTAINERS}[0].env[0].value",
    )


def test_a_task_at_a_pods_hostname_is_unclaimed_only_where_hostnames_resolve() -> None:
    """With DNS hostnames off, dns_hostnames_off says why the pod named claims no task."""
    value = '{"cluster": {"worker": ["m-worker-0-0.m:1", "m-worker-0-1.m:1", "m-worker-0-1.m:2"]}, '
    raw = workers(value + TASK)
    assert [code for code, *_ in found(raw)] == ["task_unclaimed"]
    off = raw.replace(
        b"spec:\n  replicatedJobs:",
        b"spec:\n  network: {enableDNSHostnames: false}\n  replicatedJobs:",
    )
    assert [code for code, *_ in found(off)] == ["dns_hostnames_off"]


def test_a_task_of_a_sparse_cluster_no_pod_claims() -> None:
    sparse = '{"0": "m-worker-0-0.m:1", "1": "m-worker-0-1.m:1", "2": "10.0.0.9:1"}'
    value = '{"cluster": {"worker": ' + sparse + "}, "
    assert [code for code, *_ in found(workers(value + TASK))] == ["task_unclaimed"]


def test_a_tf_config_from_an_optional_key_not_there_is_not_set_beside_the_trainer() -> None:
    raw = (DATA / "trainjob_with_runtime.yaml").read_bytes()
    runtime, trainjob = raw.split(b"\n---\n")
    runtime = runtime.replace(
        b"                    - name: node\n",
        b"                    - name: agent\n"
        b"                      env:\n"
        b"                      - name: TF_CONFIG\n"
        b"                        valueFrom:\n"
        b"                          configMapKeyRef: {name: tf, key: TF_CONFIG, optional: true}\n"
        b"                    - name: node\n",
    )
    config_map = (
        b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: tf, namespace: ml}\ndata: {OTHER: x}\n"
    )
    trainjob = trainjob.replace(b"- name: TF_CONFIG", b"- name: OTHER")
    result = found(runtime + b"\n---\n" + trainjob + b"\n---\n" + config_map)
    assert [code for code, _, _, _ in result if code == "tf_config_missing"] == []
