"""Checking a Volcano Job before it runs: :func:`check`.

:func:`check` reports, each at the place in the manifest that causes it:

1. what the API server and Volcano's admission webhook refuse (``kubectl
   create`` fails): no task, a task name given twice or that is no DNS label,
   a plugin Volcano does not know;
2. what Volcano does silently that is likely a mistake: a ``tensorflow:``
   plugin of no value (dropped), a flag its parser stops at or reads twice, a
   port that is no port, a task no flag names, a task two flags name, a
   pod template's ``hostname`` or ``subdomain``, a TF_CONFIG set by hand, a
   pod name too long for the hostname it becomes;
3. what the program in each pod refuses in the TF_CONFIG the plugin writes,
   under the reader of ``profile`` (``volcano_pod_`` and the reader's code).

The pods are read from a sample (:data:`~estconf.launchers.volcano.plugin.SAMPLE_SIZE`
of each task): a task's pods differ by their index alone.
"""

from __future__ import annotations

import re
from typing import Final

from estconf._json import loads
from estconf._suggest import closest
from estconf.codes import checked
from estconf.finding import Finding, Loc
from estconf.launchers.kubernetes import Container
from estconf.launchers.refusals import NodeCheck, problems, refused_as_written, shorten
from estconf.launchers.volcano.flags import JOBS, Flags
from estconf.launchers.volcano.job import PLUGIN, PLUGINS, VolcanoJob
from estconf.launchers.volcano.plugin import (
    SAMPLE_SIZE,
    Prediction,
    Task,
    VolcanoPod,
    command_tf_config,
    own_tf_config,
    predict,
)

__all__ = ["GENERATED_SUFFIX", "NodeCheck", "check"]

GENERATED_SUFFIX: Final = "xxxxx"
"""Stands for the five characters the API server adds to ``generateName``."""

_TASKS: Final[Loc] = ("spec", "tasks")
_BY_HAND: Final = "the pod refuses the TF_CONFIG set by hand"
_SHARED: Final = "the pods refuse this TF_CONFIG"
_ARGUMENTS: Final[Loc] = ("spec", "plugins", PLUGIN)
_LABEL: Final = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_NO_TASK_ID: Final = re.compile(r"no id for task_type '([^']+)'")
_HINTS: Final = {
    "missing_chief": "add a task named chief with replicas: 1 (or name one with --chief=NAME) "
    "for tf.estimator.RunConfig without train_distribute; or check the Job with --profile mwms, "
    "ps or server, the reader it runs",
    "multiple_chiefs": "give the chief task replicas: 1",
    "multiple_evaluators": "give the evaluator task replicas: 1",
}
_OTHER_TASK_HINTS: Final = {
    "ps": "drop the ps task (MultiWorkerMirroredStrategy has no parameter servers), or check "
    "the Job with --profile ps",
}


def check(
    job: VolcanoJob,
    *,
    name: str | None = None,
    node_check: NodeCheck | None = None,
) -> tuple[Finding, ...]:
    """Everything likely to go wrong with ``job``, located in the manifest.

    Args:
        job: the manifest.
        name: the Job's name when the manifest has only ``generateName``;
            without it, ``generateName`` and five characters.
        node_check: reads one pod's TF_CONFIG and raises ``ValueError`` where
            its program would refuse it (a profile's reader); None to skip.
    """
    findings = _refusals(job)
    arguments = job.plugin_arguments
    if arguments is None:
        return tuple(findings + _plugin_null(job) + _without_plugin(job, node_check))
    if any(f.refused for f in findings):
        return tuple(findings)
    if not job.metadata.name and not name:
        name = (job.metadata.generate_name or "") + GENERATED_SUFFIX
    prediction = predict(job, name=name, sample=SAMPLE_SIZE)
    flags = prediction.layout.flags
    assert flags is not None  # the plugin is enabled
    findings += _flag_findings(arguments, flags)
    findings += _task_findings(job, prediction, flags)
    findings += _hand_set(job, prediction, node_check)
    if not prediction.layout.writes:
        findings.append(
            Finding.at(
                checked("volcano_single_pod"),
                "the Job is one task of one replica: the tensorflow plugin sets no TF_CONFIG, "
                "and the pod runs alone",
                _TASKS,
                severity="note",
                hint="for distributed training give more replicas or tasks",
            )
        )
    elif node_check is not None and 0 < flags.port < 65536:
        findings += _node_findings(prediction, node_check)
    return tuple(findings)


def _refused(code: str, message: str, at: Loc, *, hint: str | None = None) -> Finding:
    on_key = at[:2] == ("spec", "plugins")  # a plugin's name
    return Finding.at(checked(code), message, at, hint=hint, refused=True, on_key=on_key)


def _refusals(job: VolcanoJob) -> list[Finding]:
    """What the API server (the Job's schema and validation policy) and the webhook refuse."""
    findings = []
    if not job.spec.tasks:
        findings.append(
            _refused(
                "volcano_no_tasks",
                "Volcano refuses the Job: No task specified in job spec",
                _TASKS if "tasks" in job.spec.model_fields_set else ("spec",),
                hint="give spec.tasks, one per group of pods",
            )
        )
    seen: set[str] = set()
    for position, task_name, task in job.tasks():
        at = (*_TASKS, position, "name")
        if task_name in seen:
            findings.append(
                _refused(
                    "volcano_duplicate_task",
                    f"Volcano refuses the Job: duplicated task name found ({task_name!r})",
                    at,
                    hint="give each task its own name",
                )
            )
        seen.add(task_name)
        if task.name and not (len(task.name) <= 63 and _LABEL.fullmatch(task.name)):
            findings.append(
                _refused(
                    "volcano_task_name",
                    f"the API server refuses the Job: task name {task.name!r} is no lowercase "
                    "RFC 1123 label (lower-case letters, digits and '-', at most 63 characters)",
                    at,
                    hint="name the task with lower-case letters, digits and '-'",
                )
            )
    for plugin in job.spec.plugins or {}:
        if plugin not in PLUGINS:
            like = closest(plugin, PLUGINS)
            findings.append(
                _refused(
                    "volcano_unknown_plugin",
                    f"Volcano's admission webhook refuses the Job: unable to find job plugin: "
                    f"{plugin}",
                    ("spec", "plugins", plugin),
                    hint=f"did you mean {like!r}?"
                    if like
                    else f"the plugins are {', '.join(PLUGINS)}",
                )
            )
    return findings


def _plugin_null(job: VolcanoJob) -> list[Finding]:
    """A ``tensorflow:`` of no value: the API server drops it, and the plugin is not enabled."""
    plugins = job.spec.plugins or {}
    if PLUGIN not in plugins:
        return []
    return [
        Finding.at(
            checked("volcano_plugin_null"),
            f"{PLUGIN}: has no value (null), which the API server drops from a Volcano Job: the "
            "plugin is not enabled and no pod gets a TF_CONFIG",
            ("spec", "plugins", PLUGIN),
            on_key=True,
            hint=f"write {PLUGIN}: [] (or its flags: {PLUGIN}: [--ps=ps, --worker=worker])",
        )
    ]


def _without_plugin(job: VolcanoJob, node_check: NodeCheck | None) -> list[Finding]:
    """A Job without the plugin: each pod reads the TF_CONFIG its containers set, as written.

    Every pod of a task reads the same one, so in a task of more than one
    pod they all claim its task.
    """
    findings = []
    for position, task_name, spec in job.tasks():
        found = own_tf_config(spec.template.spec.containers)
        if found is None:
            findings += _built_in_command(position, task_name, spec.template.spec.containers)
            continue
        container, entry, value = found
        if value is None:
            continue  # valueFrom: known to the running pod alone
        at = (*_TASKS, position, "template", "spec", "containers", container, "env", entry, "value")
        if node_check is not None:
            findings += refused_as_written(
                value, node_check, at, prefix="volcano_pod_", lead=_SHARED, own_code=True
            )
        claimed = _claimed(value)
        if claimed is not None and spec.replicas > 1:
            findings.append(
                Finding.at(
                    checked("volcano_tf_config_shared"),
                    f"each of the {spec.replicas} pods of task {task_name!r} reads this one "
                    f"TF_CONFIG, so they all claim task {claimed}: TensorFlow runs one of them "
                    "at most",
                    at,
                    hint=f"enable the tensorflow plugin (plugins: {{{PLUGIN}: []}}), which writes "
                    "each pod its own; or build TF_CONFIG in the command from $VC_TASK_INDEX, "
                    "which Volcano's env plugin (plugins: {env: []}) sets",
                )
            )
    return findings


def _built_in_command(
    position: int, task_name: str, containers: tuple[Container, ...]
) -> list[Finding]:
    """A task whose command builds TF_CONFIG when each pod starts: nothing to check before."""
    built = command_tf_config(containers)
    if built is None:
        return []
    container, key, argument = built
    return [
        Finding.at(
            checked("volcano_tf_config_in_command"),
            f"task {task_name!r} builds TF_CONFIG in its command when each pod starts, so it "
            "cannot be checked before the Job runs",
            (*_TASKS, position, "template", "spec", "containers", container, key, argument),
            severity="warning",
            hint=f"enable the tensorflow plugin (plugins: {{{PLUGIN}: []}}) and drop the "
            "export: the plugin writes each pod its TF_CONFIG, which is checked",
        )
    ]


def _claimed(text: str) -> str | None:
    """The task ``TYPE:INDEX`` a TF_CONFIG text gives, or None where it gives none."""
    try:
        data = loads(text)
    except ValueError:
        return None
    task = data.get("task") if isinstance(data, dict) else None
    if not isinstance(task, dict) or not isinstance(task.get("type"), str):
        return None
    return f"{task['type']}:{task.get('index', 0)}"


def _flag_findings(arguments: tuple[str, ...], flags: Flags) -> list[Finding]:
    findings = []
    stop = flags.stop
    if stop is not None:
        rest = len(arguments) - (stop.unread or 0)
        after = "the argument after it is" if rest == 1 else f"the {rest} arguments after it are"
        if stop.message is not None:
            effect = (
                f"the port is {flags.port}" if stop.flag == "port" else "the flag is not applied"
            )
            message = (
                "the plugin's flag parser stops here, on an error Volcano only logs "
                f"({stop.message}): {effect}" + (f", and {after} never read" if rest else "")
            )
        elif arguments[stop.position] == "--":
            message = f"the plugin's flag parser stops at --: {after} never read"
        else:
            rest -= 1  # the argument itself is not read either
            nor = {0: "", 1: ", nor is the one after it"}.get(
                rest, f", nor are the {rest} after it"
            )
            message = (
                "the plugin's flag parser stops at the first argument that is no flag: it is "
                f"never read{nor}"
            )
        findings.append(
            Finding.at(
                checked("volcano_plugin_flag"),
                message,
                (*_ARGUMENTS, stop.position),
                hint=_flag_hint(arguments[stop.position]),
            )
        )
    for flag, positions in flags.given.items():
        if len(positions) > 1:
            findings.append(
                Finding.at(
                    checked("volcano_plugin_flag_repeated"),
                    f"--{flag} is given {len(positions)} times: the plugin takes the last",
                    (*_ARGUMENTS, positions[-1]),
                    severity="warning",
                    hint=f"give --{flag} once",
                )
            )
    if not 0 < flags.port < 65536:
        at = flags.given.get("port", [len(arguments) - 1])[-1]
        findings.append(
            Finding.at(
                checked("volcano_plugin_port"),
                f"the plugin writes port {flags.port} into every address of the cluster, and a "
                "port is 1 to 65535: no task can be reached",
                (*_ARGUMENTS, max(at, 0)) if arguments else _ARGUMENTS,
                hint="give --port=P with P from 1 to 65535 (default 2222)",
            )
        )
    return findings


def _flag_hint(argument: str) -> str:
    """How to write what an argument the parser stops at most likely meant."""
    name, space, value = argument.lstrip("-").partition(" ")
    if space and name in (*JOBS, "port"):
        return f"write the flag and its value as one argument with '=': --{name}={value.strip()}"
    bare, equals, value = argument.partition("=")
    if not argument.startswith("-") and equals and bare in (*JOBS, "port"):
        return f"begin each flag with '--': --{bare}={value}"
    flags = ", ".join(f"--{flag}=NAME" for flag in JOBS)
    return f"the plugin's flags are {flags} and --port=P, each written --flag=value"


def _task_findings(job: VolcanoJob, prediction: Prediction, flags: Flags) -> list[Finding]:
    findings = []
    tasks = prediction.layout.tasks
    listed = {task.listed: task for task in tasks if task.listed}
    unnamed = prediction.layout.writes and not prediction.layout.cluster_tasks
    if unnamed:
        names = ", ".join(repr(task.name) for task in tasks if task.replicas)
        findings.append(
            Finding.at(
                checked("volcano_no_task_named"),
                f"no flag of the tensorflow plugin names a task of the Job ({names}): every pod "
                "gets an empty cluster, and TensorFlow runs each one alone",
                _ARGUMENTS if "tensorflow" in (job.spec.plugins or {}) else _TASKS,
                on_key=True,
                hint="name the tasks with the plugin's flags (--chief=NAME, --worker=NAME, "
                "--ps=NAME, --evaluator=NAME), or rename them chief, worker, ps and evaluator",
            )
        )
    for task in tasks:
        at = _task_at(task)
        if task.listed is None and task.replicas and not unnamed:
            findings.append(_unmapped(task, listed, at))
        elif task.listed is not None and task.listed != task.task_type:
            named = [f"--{j}" for j in JOBS if flags.names[j] == task.name]
            findings.append(
                Finding.at(
                    checked("volcano_flags_name_one_task"),
                    f"{' and '.join(named)} name task {task.name!r}: the plugin lists its pods "
                    f"under {task.listed!r} in the cluster but gives them the task type "
                    f"{task.task_type!r}, which they refuse",
                    at,
                    hint="name each task with one flag",
                )
            )
        spec = job.spec.tasks[task.position].template.spec
        template = (*_TASKS, task.position, "template", "spec")
        if spec.hostname and task.replicas > 1:
            findings.append(
                Finding.at(
                    checked("volcano_hostname_set"),
                    f"the pod template sets hostname {spec.hostname!r}: all {task.replicas} pods "
                    f"of the task have it, and the cluster gives each the one address "
                    f"{task.address(0)}",
                    (*template, "hostname"),
                    hint="remove hostname: Volcano then names each pod's host after the pod",
                )
            )
        if spec.subdomain and spec.subdomain != prediction.layout.job_name:
            findings.append(
                Finding.at(
                    checked("volcano_subdomain_set"),
                    f"the pod template sets subdomain {spec.subdomain!r}: the addresses are "
                    f"<host>.{spec.subdomain}, but the headless Service of the Job is named "
                    f"{prediction.layout.job_name!r}, so they resolve only through a headless "
                    f"Service named {spec.subdomain!r} that selects these pods",
                    (*template, "subdomain"),
                    severity="warning",
                    hint="remove subdomain, or make that Service",
                )
            )
        longest = f"{prediction.layout.job_name}-{task.name}-{max(task.replicas - 1, 0)}"
        if task.replicas and len(longest) > 63 and not spec.hostname:
            findings.append(
                Finding.at(
                    checked("volcano_pod_name"),
                    f"the pod {longest!r} is named, and given a hostname, of {len(longest)} "
                    "characters: a hostname is at most 63, and Kubernetes refuses the pod",
                    at,
                    hint="shorten the Job's or the task's name",
                )
            )
    return findings


def _unmapped(task: Task, listed: dict[str, Task], at: Loc) -> Finding:
    """A task no flag names: its pods are typed by its name, and the cluster leaves them out."""
    message = (
        f"no flag of the tensorflow plugin names task {task.name!r}: its pods get the task type "
    )
    other = listed.get(task.task_type)
    if other is None:
        message += (
            f"{task.task_type!r} and the cluster leaves them out, so a TensorFlow program in them "
            "refuses its TF_CONFIG"
        )
    else:
        message += (
            f"{task.task_type!r}, and claim the tasks of the cluster's {task.task_type!r} job, "
            f"which are the pods of task {other.name!r}"
        )
    job = task.name if task.name in JOBS else "worker"
    return Finding.at(
        checked("volcano_task_unmapped"),
        message,
        at,
        severity="warning",
        hint=f"name it with a flag (--{job}={task.name}), or rename it ps, worker, chief or "
        "evaluator; a task that runs no TensorFlow can stay as it is",
    )


def _task_at(task: Task) -> Loc:
    """Where a task's finding goes: its name, or the task where it has none."""
    return (*_TASKS, task.position, "name") if task.named else (*_TASKS, task.position)


def _hand_set(
    job: VolcanoJob, prediction: Prediction, node_check: NodeCheck | None
) -> list[Finding]:
    """A TF_CONFIG set by hand: the plugin's comes after it and wins, unless it writes none."""
    findings = []
    for position, _, spec in job.tasks():
        found = own_tf_config(spec.template.spec.containers)
        if found is None:
            continue
        container, entry, value = found
        at = (*_TASKS, position, "template", "spec", "containers", container, "env", entry)
        if prediction.layout.writes:
            findings.append(
                Finding.at(
                    checked("volcano_tf_config_set"),
                    "the tensorflow plugin appends its own TF_CONFIG to every container, and of "
                    "two variables with one name the last wins: this one is never seen",
                    at,
                    severity="warning",
                    hint="remove it: the plugin writes TF_CONFIG for every pod",
                )
            )
            continue
        findings.append(
            Finding.at(
                checked("volcano_tf_config_set"),
                "the Job is one pod, so the plugin sets no TF_CONFIG and this one is used as "
                "written",
                at,
                severity="note",
            )
        )
        if node_check is not None and value is not None:
            findings += refused_as_written(
                value,
                node_check,
                (*at, "value"),
                prefix="volcano_pod_",
                lead=_BY_HAND,
                own_code=True,
            )
    return findings


def _node_findings(prediction: Prediction, node_check: NodeCheck) -> list[Finding]:
    """What the reader refuses in the first and last pod's TF_CONFIG of each task it lists.

    A problem of a job of the cluster is at the task listed as that job, one of
    the whole cluster (no chief) at ``spec.tasks``, any other at the pod's task.
    """
    listed = {task.listed: task for task in prediction.layout.tasks if task.listed}
    groups: dict[tuple[int | None, str], tuple[str, list[VolcanoPod]]] = {}
    for pod in _ends_of_each_task(prediction):
        task = pod.task
        if task.listed is None or task.listed != task.task_type or pod.tf_config is None:
            continue  # reported as the task's own finding
        try:
            node_check(loads(pod.tf_config))
        except ValueError as exc:
            for code, message, job in problems(exc, own_code=True):
                position: int | None = task.position
                if job == "":
                    position = None
                elif job is not None and job in listed:
                    position = listed[job].position
                pods = groups.setdefault((position, code), (message, []))[1]
                if pod not in pods:
                    pods.append(pod)
    findings = []
    tasks = prediction.layout.tasks
    for (position, code), (message, pods) in groups.items():
        other = _NO_TASK_ID.search(message)
        hint = _OTHER_TASK_HINTS.get(other.group(1)) if other else _HINTS.get(code)
        at: Loc = _TASKS
        if position is not None:
            at = (*_TASKS, position) if not tasks[position].named else (*_TASKS, position, "name")
        findings.append(
            Finding.at(
                checked(f"volcano_pod_{code}"),
                f"{_refusing(pods)}: {shorten(message)}",
                at,
                hint=hint,
            )
        )
    return findings


def _ends_of_each_task(prediction: Prediction) -> list[VolcanoPod]:
    ends: dict[int, list[VolcanoPod]] = {}
    for pod in prediction.pods:
        kept = ends.setdefault(pod.task.position, [])
        if len(kept) < 2:
            kept.append(pod)
        else:
            kept[1] = pod
    return [pod for kept in ends.values() for pod in kept]


def _refusing(pods: list[VolcanoPod]) -> str:
    """The pods that refuse their TF_CONFIG, the first and last of a task as a range."""
    names: list[str] = []
    for position, pod in enumerate(pods):
        first = pods[position - 1] if position else None
        whole = pod.task.replicas > 2 and pod.name.endswith(f"-{pod.task.replicas - 1}")
        if whole and first is not None and first.task is pod.task:
            names[-1] = f"{first.name} to {pod.name}"
        else:
            names.append(pod.name)
    if len(pods) == 1:
        return f"pod {names[0]} refuses its TF_CONFIG"
    shown = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"pods {shown} refuse their TF_CONFIG"
