"""estconf.launchers.kubeflow.tfjobs: the TFJobs ``validate`` finds in a file.

Also the one TFJob of a manifest whose pods are predicted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from estconf.io.errors import ConfigFileError
from estconf.io.sources import InputError
from estconf.launchers.kubeflow.tfjobs import check_text, one_tfjob

KUBEFLOW = Path(__file__).parent / "data" / "kubeflow"
DIST_MNIST = (KUBEFLOW / "dist_mnist.yaml").read_bytes()
KATIB_EXPERIMENT = (KUBEFLOW / "katib_experiment.yaml").read_bytes()


def test_the_one_tfjob() -> None:
    assert one_tfjob(DIST_MNIST, "j.yaml").metadata.name == "dist-mnist"


def test_none_or_several_is_no_one() -> None:
    with pytest.raises(ValueError, match="expected one TFJob, found 2"):
        one_tfjob(DIST_MNIST + b"---\n" + DIST_MNIST, "j.yaml")
    with pytest.raises(ValueError, match="expected one TFJob, found 0"):
        one_tfjob(b"kind: Service\n", "j.yaml")


def test_a_generated_name_needs_the_name_it_got() -> None:
    generated = DIST_MNIST.replace(b'name: "dist-mnist"', b'generateName: "sweep-"', 1)
    with pytest.raises(InputError, match="give the name it got with --name NAME"):
        one_tfjob(generated, "j.yaml")
    assert one_tfjob(generated, "j.yaml", job_name="sweep-x1").metadata.generate_name == "sweep-"


def test_a_value_no_config_may_hold() -> None:
    with pytest.raises(ConfigFileError):
        one_tfjob(DIST_MNIST.replace(b"replicas: 2", b"replicas: .inf", 1), "j.yaml")


def test_only_a_list_kind_has_items_that_are_tfjobs() -> None:
    """An object without a ``kind`` ending in ``List`` is no List, whatever its ``items`` hold."""
    job = json.loads(json.dumps(YAML(typ="safe").load(DIST_MNIST)))
    assert check_text(json.dumps({"items": [job]}).encode(), "json", "f.json", "estimator") is None
    listed = check_text(
        json.dumps({"kind": "List", "items": [job]}).encode(), "json", "f.json", "estimator"
    )
    assert listed is not None
    assert listed.errors == []


def test_only_a_katib_experiment_has_a_trial_spec_that_is_a_tfjob() -> None:
    """An ``Experiment`` of another API group than ``kubeflow.org`` is not Katib's."""
    katib = check_text(KATIB_EXPERIMENT, "yaml", "e.yaml", "estimator")
    assert katib is not None
    other = KATIB_EXPERIMENT.replace(
        b"apiVersion: kubeflow.org/v1beta1", b"apiVersion: example.com/v1", 1
    )
    assert other != KATIB_EXPERIMENT
    assert check_text(other, "yaml", "e.yaml", "estimator") is None


OLDER_WITH_MODEL_ERRORS = b"""\
&key apiVersion: kubeflow.org/v1beta2
kind: TFJob
metadata: {name: mnist}
spec:
  tfReplicaSpecs:
    Worker:
      replicas: x
      template:
        spec:
          containers: [*key, *key]
"""
"""An earlier apiVersion, and values the model refuses: the containers alias the key's text."""


def test_an_earlier_api_version_is_reported_before_the_models_errors_at_its_place() -> None:
    """The containers are aliases of the ``apiVersion`` key: their errors are placed at it too."""
    checked = check_text(OLDER_WITH_MODEL_ERRORS, "yaml", "j.yaml", "estimator")
    assert checked is not None
    assert [(e.line, e.column, e.path, e.code) for e in checked.errors] == [
        (1, 1, "apiVersion", "tfjob_api_version"),
        (1, 1, "spec.tfReplicaSpecs.Worker.template.spec.containers[0]", "model_type"),
        (1, 1, "spec.tfReplicaSpecs.Worker.template.spec.containers[1]", "model_type"),
        (7, 7, "spec.tfReplicaSpecs.Worker.replicas", "int_type"),
    ]


def test_what_the_model_refuses_is_an_error_and_the_earlier_api_version_a_refusal() -> None:
    """``kubectl apply`` refuses the apiVersion; the model's errors are errors, not refusals."""
    checked = check_text(OLDER_WITH_MODEL_ERRORS, "yaml", "j.yaml", "estimator")
    assert checked is not None
    assert [(e.code, e.label, e.refused) for e in checked.errors] == [
        ("tfjob_api_version", "refused", True),
        ("model_type", "error", False),
        ("model_type", "error", False),
        ("int_type", "error", False),
    ]


def test_an_earlier_api_version_comes_first_of_the_errors_at_its_place() -> None:
    """Of the errors placed at the ``apiVersion`` key, the apiVersion's own comes first."""
    raw = OLDER_WITH_MODEL_ERRORS.replace(b"replicas: x", b"replicas: 2")
    checked = check_text(raw, "yaml", "j.yaml", "estimator")
    assert checked is not None
    assert [(e.line, e.column, e.code) for e in checked.errors] == [
        (1, 1, "tfjob_api_version"),
        (1, 1, "model_type"),
        (1, 1, "model_type"),
    ]


def test_a_trial_parameter_katib_fills_in_is_an_error_and_no_refusal() -> None:
    raw = KATIB_EXPERIMENT.replace(b"replicas: 2", b'replicas: "${trialParameters.workers}"', 1)
    checked = check_text(raw, "yaml", "e.yaml", "estimator")
    assert checked is not None
    assert [(e.code, e.label, e.refused, e.hint) for e in checked.errors] == [
        ("int_type", "error", False, "write a value here to check the job")
    ]
