"""Benchmark: predicting and checking a TFJob with thousands of replicas.

Run with ``python benchmarks/bench_kubeflow.py``.  The floor is ``json.loads``
of every pod's predicted TF_CONFIG, what any tool reading them must at least
do: each of N pods holds the whole cluster, so the pods' TF_CONFIGs together
grow as N squared, while the prediction shares one cluster text between the
pods and the checks read the first and last pod of each replica type.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

from _timing import best

from estconf.cli import main as estconf
from estconf.kubeflow import TFJob, check, predict, tfjob_for_replicas


def row(workers: int) -> str:
    """Time one job size: read, predict and check it, against loading every pod's TF_CONFIG."""
    replicas = {"Chief": 1, "Worker": workers, "PS": 32, "Evaluator": 1}
    tfjob = tfjob_for_replicas("bench", replicas, namespace="ml")
    manifest = tfjob.to_manifest()
    prediction = predict(tfjob)

    def loads_every_text() -> None:
        for pod in prediction.pods:
            json.loads(pod.tf_config or "{}")

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "bench-tfjob.json")
        path.write_text(json.dumps(manifest))

        def validate() -> None:
            # `estconf validate`, in-process: read the file, check it under the
            # profile, check every pod's TF_CONFIG together, report
            with contextlib.redirect_stdout(io.StringIO()):
                estconf(["validate", "--profile", "ps", str(path)])

        cli = best(validate, 3)
    return (
        f"{sum(replicas.values()):>9} "
        f"{cli * 1e3:>9.1f}ms "
        f"{best(lambda: predict(TFJob.model_validate(manifest)), 3) * 1e3:>11.1f}ms "
        f"{best(lambda: check(TFJob.model_validate(manifest)), 3) * 1e3:>10.1f}ms "
        f"{best(lambda: [pod.tf_config for pod in prediction.pods], 1) * 1e3:>9.1f}ms "
        f"{best(loads_every_text, 1) * 1e3:>9.1f}ms"
    )


def main() -> None:
    """Print one row per job size."""
    columns = ("replicas", "validate", "read+predict", "read+check", "all texts", "json.loads")
    widths = (9, 11, 13, 12, 11, 11)
    print(" ".join(f"{title:>{width}}" for title, width in zip(columns, widths, strict=True)))
    for workers in (1000, 3000):
        print(row(workers))


if __name__ == "__main__":
    main()
