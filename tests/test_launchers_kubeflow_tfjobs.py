"""estconf.launchers.kubeflow.tfjobs: the one TFJob of a manifest whose pods are predicted."""

from __future__ import annotations

from pathlib import Path

import pytest

from estconf.io.errors import ConfigFileError
from estconf.io.sources import InputError
from estconf.launchers.kubeflow.tfjobs import one_tfjob

DIST_MNIST = (Path(__file__).parent / "data" / "kubeflow" / "dist_mnist.yaml").read_bytes()


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
