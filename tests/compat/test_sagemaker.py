"""estconf.sagemaker against SageMaker's own TensorFlow toolkit.

The toolkit (``sagemaker-tensorflow-training`` 20.5.0's ``train()``, on
``sagemaker-training``'s ``Environment``) runs as it is, for every host of
each job, with only its process boundaries stubbed: the training process
(``entry_point.run``, whose environment holds the ``TF_CONFIG``), the ps
server (``tf.distribute.Server``, whose cluster, job and index are kept),
``multiprocessing.Process``, the ``curl`` that waits for the master, and
the programs ``Environment`` runs to count devices (``nvidia-smi``,
``neuron-ls``, ``which``).  ``boto3``'s session, which reads the machine's
AWS configuration for a region nobody here uses, is stubbed too.  The
hyperparameters are written to ``hyperparameters.json`` and read back by the
toolkit's ``read_hyperparameters``, as its ``main()`` does.

The oracle, for every host:

- the toolkit runs: estconf's ``tf_config`` is the training process's
  ``TF_CONFIG`` (or None where it has none) and ``ps_server`` the server's
  ``(cluster, job_name, task_index)`` (or None where none starts);
- the toolkit fails (``UnboundLocalError``, ``ValueError``, ``IndexError``,
  ``TypeError``): estconf raises a ``ValueError`` with the code that names
  that failure.

Cases: every instance count from 1 to 40, in each mode (parameter server,
multi-worker mirrored, both flags, neither); each flag written as text
(``"False"``, ``"True"``, ``""``, ...: ``FLAG_TEXTS``), as a person's
``str(False)`` writes it, where estconf's warning (``sagemaker_flag_string``)
must name exactly the flags the toolkit reads as text and on, and the job
of ``tests/data/launchers/sagemaker/flag-string.hyperparameters.json``; and
generated heterogeneous jobs (``SAGEMAKER_EXAMPLES``, default 200): instance
groups, distribution groups, flags written as SageMaker and people write
them, and hosts lists that disagree with the groups.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from pydantic import ValidationError

from compat.harness import ENV_LOCK, import_tensorflow
from estconf import sagemaker
from estconf.sagemaker import PSServer

tf = import_tensorflow()


def _import_toolkit() -> tuple[Any, Any]:
    """The toolkit's ``training`` and ``environment`` modules, on a ``/opt/ml`` of this process.

    ``environment`` takes its paths from ``SAGEMAKER_BASE_DIR`` when it is
    imported: a temporary directory of this process's own, so that no other
    process (another worker of the suite) writes its ``hyperparameters.json``.
    """
    base = tempfile.mkdtemp(prefix="estconf-sm-")
    os.makedirs(os.path.join(base, "input", "config"))
    with open(os.path.join(base, "input", "config", "inputdataconfig.json"), "w") as file:
        file.write("{}")
    with mock.patch.dict(os.environ, {"SAGEMAKER_BASE_DIR": base}):
        training = pytest.importorskip(
            "sagemaker_tensorflow_container.training",
            reason="needs sagemaker-tensorflow-training 20.5.0 (`make compat` installs it)",
        )
        from sagemaker_training import environment

    assert environment.base_dir == base
    return training, environment


training, environment = _import_toolkit()

pytestmark = pytest.mark.compat

EXAMPLES = int(os.environ.get("SAGEMAKER_EXAMPLES", "200"))

PS = {"sagemaker_parameter_server_enabled": "true"}
MWMS = {"sagemaker_multi_worker_mirrored_strategy_enabled": "true"}
MODES = {
    "parameter_server": PS,
    "multi_worker_mirrored": MWMS,
    "both": {**PS, **MWMS},
    "neither": {},
}

FAILURES = {
    UnboundLocalError: {"sagemaker_ps_outside_distribution"},
    ValueError: {"sagemaker_host_not_in_cluster", "sagemaker_host_not_in_hosts"},
    IndexError: {"sagemaker_host_not_in_cluster", "sagemaker_no_hosts"},
    TypeError: {"sagemaker_distribution_instance_groups", "sagemaker_not_text"},
}
"""Each way the toolkit fails, and the codes estconf may name it with."""


@dataclass
class Run:
    """What the toolkit set up on one host."""

    tf_config: dict[str, Any] | None = None
    ps_server: PSServer | None = None
    error: BaseException | None = None


class _Server:
    """``tf.distribute.Server``, kept rather than started."""

    started: list[PSServer] = []

    def __init__(self, cluster_spec: Any, job_name: str, task_index: int, config: Any) -> None:
        _Server.started.append(PSServer(cluster_spec.as_dict(), job_name, task_index))

    def join(self) -> None:  # pragma: no cover - never started
        raise AssertionError("the ps server is not started")


class _Process:
    def __init__(self, target: Any) -> None:
        self.target = target

    def start(self) -> None:
        pass


class _Session:
    region_name = None


def _curl(*args: Any, **kwargs: Any) -> None:
    raise subprocess.CalledProcessError(7, "curl")  # the master is down


@contextmanager
def _stubbed() -> Iterator[list[Mapping[str, str]]]:
    """The toolkit's process boundaries stubbed; yields the training processes' environments."""
    processes: list[Mapping[str, str]] = []

    def run(**kwargs: Any) -> None:
        processes.append(kwargs["env_vars"])

    with (
        ENV_LOCK,
        mock.patch.dict(os.environ),
        mock.patch.multiple(
            environment,
            num_gpus=lambda: 0,
            num_neurons=lambda instance_type: 0,
            validate_smddprun=lambda: False,
            validate_smddpmprun=lambda: False,
        ),
        mock.patch.object(environment.boto3.session, "Session", _Session),
        mock.patch.object(training.entry_point, "run", run),
        mock.patch.object(training.tf.distribute, "Server", _Server),
        mock.patch.object(training.multiprocessing, "Process", _Process),
        mock.patch.object(training.subprocess, "check_call", _curl),
    ):
        yield processes


def toolkit(resource_config: Mapping[str, Any], hyperparameters: Mapping[str, Any]) -> Run:
    """Run the toolkit's ``train()`` on the host of ``resource_config``."""
    with _stubbed() as processes:
        with open(environment.hyperparameters_file_dir, "w", encoding="utf-8") as file:
            json.dump(hyperparameters, file)
        _Server.started = []
        try:
            env = environment.Environment(
                resource_config=dict(resource_config),
                hyperparameters=environment.read_hyperparameters(),
            )
            training.train(env, [])
        except (UnboundLocalError, ValueError, IndexError, TypeError) as error:
            return Run(error=error)
    assert len(processes) == 1, "one training process per host"
    text = processes[0].get("TF_CONFIG")
    assert len(_Server.started) <= 1
    return Run(
        tf_config=None if text is None else json.loads(text),
        ps_server=_Server.started[0] if _Server.started else None,
    )


def estconf(resource_config: Mapping[str, Any], hyperparameters: Mapping[str, Any]) -> Run:
    try:
        return Run(
            tf_config=sagemaker.tf_config(resource_config, hyperparameters),
            ps_server=sagemaker.ps_server(resource_config, hyperparameters),
        )
    except ValidationError as error:
        return Run(error=error)


def _event(text: str) -> None:
    if currently_in_test_context():
        event(text)


def check_host(resource_config: Mapping[str, Any], hyperparameters: Mapping[str, Any]) -> Run:
    """Both sides on one host: the same TF_CONFIG and ps server, or both refuse."""
    theirs, ours = (
        toolkit(resource_config, hyperparameters),
        estconf(resource_config, hyperparameters),
    )
    if theirs.error is not None:
        assert isinstance(ours.error, ValidationError), (
            f"the toolkit fails ({theirs.error!r}), estconf gives {ours}"
        )
        codes = {str(e["type"]) for e in ours.error.errors()}
        assert codes <= FAILURES[type(theirs.error)], (theirs.error, ours.error)
        _event(f"toolkit fails: {type(theirs.error).__name__}")
        return theirs
    assert ours.error is None, f"estconf refuses what the toolkit runs: {ours.error}"
    assert ours.tf_config == theirs.tf_config
    assert json.dumps(ours.tf_config) == json.dumps(theirs.tf_config), "same keys in the same order"
    assert ours.ps_server == theirs.ps_server
    _event("TF_CONFIG" if theirs.tf_config else "no TF_CONFIG")
    return theirs


@pytest.mark.parametrize("mode", sorted(MODES))
def test_every_host_of_1_to_40_instances(mode: str) -> None:
    for count in range(1, 41):
        for config in sagemaker.resource_configs(count):
            run = check_host(config, MODES[mode])
            assert run.error is None
            if mode == "neither" or (mode == "parameter_server" and count == 1):
                assert run.tf_config is None
            else:
                assert run.tf_config is not None


def test_the_documented_heterogeneous_example() -> None:
    """SageMaker's heterogeneous example: ps on the dnn group, the data group fails."""
    configs = sagemaker.resource_configs(
        instance_groups=[
            {"InstanceGroupName": "data_group", "InstanceType": "ml.c5.xlarge", "InstanceCount": 1},
            {"InstanceGroupName": "dnn_group", "InstanceType": "ml.m4.xlarge", "InstanceCount": 2},
        ]
    )
    hps = {**PS, "sagemaker_distribution_instance_groups": json.dumps(["dnn_group"])}
    runs = [check_host(config, hps) for config in configs]
    assert isinstance(runs[0].error, UnboundLocalError)
    assert runs[1].ps_server == PSServer(
        {
            "master": ["algo-2:2222"],
            "ps": ["algo-2:2223", "algo-3:2223"],
            "worker": ["algo-3:2222"],
        },
        "ps",
        1,
    )
    assert runs[2].ps_server is not None and runs[2].ps_server.address is None


FLAG_TEXTS = ("False", "True", "false", "true", "0", "1", "", "no", "None", "null", '"False"')
"""A flag as hyperparameters.json may hold it: as the SDK writes it, or as a person's ``str()``."""

FLAGS = ("sagemaker_parameter_server_enabled", "sagemaker_multi_worker_mirrored_strategy_enabled")


def toolkit_flags(hyperparameters: Mapping[str, Any]) -> dict[str, Any]:
    """Each flag as the toolkit's ``read_hyperparameters`` decodes it from the file."""
    with _stubbed():
        with open(environment.hyperparameters_file_dir, "w", encoding="utf-8") as file:
            json.dump(hyperparameters, file)
        decoded = environment.read_hyperparameters()
    return {key: decoded[key] for key in FLAGS if key in decoded}


@pytest.mark.parametrize("text", FLAG_TEXTS)
@pytest.mark.parametrize("flag", FLAGS)
def test_a_flag_written_as_text(flag: str, text: str) -> None:
    """The mode the toolkit runs for the text, and the warning on exactly the texts it keeps."""
    hps = {flag: text}
    for count in (1, 2, 3):
        for config in sagemaker.resource_configs(count):
            check_host(config, hps)
    value = toolkit_flags(hps)[flag]
    warned = {f.path for f in sagemaker.check_hyperparameters(hps)}
    assert warned == ({flag} if isinstance(value, str) and value else set()), (text, value)
    on = sagemaker.tf_config(sagemaker.resource_configs(2)[0], hps) is not None
    assert on == bool(value)


def test_the_flag_string_job_of_the_tests_data() -> None:
    """``"False"`` beside a true multi-worker flag: parameter servers, as the toolkit runs it."""
    path = Path(__file__).resolve().parents[1] / "data/launchers/sagemaker"
    hps = json.loads((path / "flag-string.hyperparameters.json").read_text(encoding="utf-8"))
    runs = [check_host(config, hps) for config in sagemaker.resource_configs(3)]
    assert [run.tf_config["task"] for run in runs if run.tf_config] == [
        {"index": 0, "type": "master"},
        {"index": 0, "type": "worker"},
        {"index": 1, "type": "worker"},
    ]
    assert [f.path for f in sagemaker.check_hyperparameters(hps)] == [
        "sagemaker_parameter_server_enabled"
    ]


FLAG_VALUES = st.sampled_from(
    ["true", "false", True, False, "1", "0", "False", "True", "", "null", "[]", "yes"]
)
GROUPS = st.lists(
    st.tuples(st.sampled_from(["a", "b", "dnn", "data_group"]), st.integers(1, 5)),
    min_size=1,
    max_size=3,
    unique_by=lambda group: group[0],
)


@st.composite
def jobs(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A job's resource configs (documented, or with hosts reordered) and its hyperparameters."""
    groups = draw(GROUPS)
    configs = sagemaker.resource_configs(
        instance_groups=[{"instance_group_name": n, "instance_count": c} for n, c in groups]
    )
    names = [name for name, _ in groups]
    hps: dict[str, Any] = {}
    for key in (
        "sagemaker_parameter_server_enabled",
        "sagemaker_multi_worker_mirrored_strategy_enabled",
    ):
        if draw(st.booleans()):
            hps[key] = draw(FLAG_VALUES)
    if draw(st.booleans()):
        hps["sagemaker_distribution_instance_groups"] = draw(
            st.one_of(
                st.lists(st.sampled_from([*names, "other"]), max_size=3).map(json.dumps),
                st.sampled_from(names),  # text: matched as a substring
                st.sampled_from(["3", "null", "true"]),  # the toolkit's `in` fails
            )
        )
    if draw(st.booleans()):
        hosts = configs[0]["hosts"]
        shuffled = draw(st.permutations(hosts))
        dropped = draw(st.sampled_from([None, *shuffled])) if draw(st.booleans()) else None
        every = [host for host in shuffled if host != dropped]
        for config in configs:
            config["hosts"] = list(every)
            if draw(st.booleans()):
                for group in config["instance_groups"]:
                    group["hosts"] = draw(st.permutations(group["hosts"]))
    if draw(st.integers(0, 9)) == 0:  # a host missing from its own group's hosts
        config = draw(st.sampled_from(configs))
        for group in config["instance_groups"]:
            group["hosts"] = [h for h in group["hosts"] if h != config["current_host"]]
    if draw(st.integers(0, 19)) == 0:
        for config in configs:
            config["hosts"] = []
    if draw(st.booleans()):
        for config in configs:
            del config["current_group_name"]
    if draw(st.booleans()):
        for config in configs:
            config["instance_groups"] = []
    return configs, hps


@settings(max_examples=EXAMPLES)
@given(jobs())
def test_generated_jobs(job: tuple[list[dict[str, Any]], dict[str, Any]]) -> None:
    configs, hps = job
    for config in configs:
        check_host(config, hps)
    with_text = {
        key for key, value in toolkit_flags(hps).items() if isinstance(value, str) and value
    }
    try:
        warned = {f.path for f in sagemaker.check_hyperparameters(hps)}
    except ValidationError:  # a value the toolkit fails on, checked at each host above
        return
    assert warned == with_text
