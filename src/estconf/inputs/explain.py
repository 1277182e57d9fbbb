"""What a reader derives from a TF_CONFIG: the facts ``estconf explain`` shows.

The values come from the models (:class:`estconf.RunConfig`, the readers of
:mod:`estconf.profiles`); this module chooses which of them to show and says
the rule behind each one when asked (``why``).  :mod:`estconf.reports.explain`
writes them as a table of ``key  value`` rows or one JSON object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from estconf.profiles.check import ESTIMATOR_VALUES

if TYPE_CHECKING:
    from pydantic import BaseModel

    from estconf import RunConfig, TFConfig

__all__ = ["Explained", "Readers", "profile_facts", "reader_views", "run_config_facts"]

_EXPLAINED = (
    *(name for name in ESTIMATOR_VALUES if name != "cluster_spec"),
    "cluster_spec",
    "service",
    "model_dir",
    "session_config",
    "save_checkpoints_steps",
    "save_checkpoints_secs",
)

_TPU_EXPLAINED = (
    "iterations_per_loop",
    "iterations_per_loop_counter",
    "num_shards",
    "num_cores_per_replica",
    "per_host_input_for_training",
    "tpu_job_name",
)


@dataclass(frozen=True)
class Explained:
    """What one reader derives from a TF_CONFIG, and the rule behind each value.

    Attributes:
        facts: the values shown, by key: ``tf_config_source`` (where the
            TF_CONFIG came from) first, then the reader's values.
        reasons: the rule behind each derived value, by key; ``None`` when
            they were not asked for.
    """

    facts: dict[str, Any]
    reasons: dict[str, str] | None = None


@dataclass(frozen=True)
class Readers:
    """What each reader makes of one TF_CONFIG.

    Attributes:
        source: where the TF_CONFIG came from, as the report says it.
        views: each reader's view as JSON data: its ``profile``, its
            ``values`` (``None`` when it refuses the TF_CONFIG) and its first
            ``error``.
    """

    source: str
    views: list[dict[str, Any]]

    @property
    def accepted(self) -> bool:
        """Whether any reader accepts the TF_CONFIG."""
        return any(view["values"] is not None for view in self.views)


def run_config_facts(
    config: RunConfig, source: str, *, why: bool = False, session_config_given: bool = False
) -> Explained:
    """What ``tf.estimator.RunConfig`` derives: task, master, chief, replicas, ...

    Args:
        config: the RunConfig (or ``tpu.RunConfig``) built from the TF_CONFIG.
        source: where its TF_CONFIG came from, as the report says it.
        why: add the rule behind each derived value.
        session_config_given: the RunConfig was given its own ``session_config``,
            so its device filters are not said to be the estimator's default.
    """
    data = config.model_dump(mode="json", include={*_EXPLAINED, "tpu_config"})
    facts = {"tf_config_source": source, **{key: data.get(key) for key in _EXPLAINED}}
    if "tpu_config" in data:
        facts["tpu_config"] = {key: data["tpu_config"][key] for key in _TPU_EXPLAINED}
    if not why:
        return Explained(facts)
    from estconf.inputs._reasons import estimator_reasons

    reasons = estimator_reasons(config.tf_config, facts)
    if session_config_given:
        reasons.pop("device_filters")
    return Explained(facts, reasons)


def profile_facts(model: BaseModel, source: str, profile: str, *, why: bool = False) -> Explained:
    """What the reader of ``profile`` (``mwms``, ``ps``, ``server``, ...) derives.

    Args:
        model: the reader's model, as :func:`estconf.profiles.check_profile` returns it.
        source: where its TF_CONFIG came from, as the report says it.
        profile: the profile's name.
        why: add the rule behind each derived value (where the reader has them).
    """
    from estconf.inputs._reasons import mwms_reasons, ps_reasons

    values = model.model_dump(mode="json", exclude={"tf_config"})
    facts = {"tf_config_source": source, "profile": profile, **values}
    if not why:
        return Explained(facts)
    reason_of = {"mwms": mwms_reasons, "ps": ps_reasons}.get(profile)
    return Explained(facts, {} if reason_of is None else reason_of(values))


def reader_views(tf_config: TFConfig, source: str) -> Readers:
    """What each reader makes of ``tf_config`` (read as ``TFConfig`` alone), from ``source``."""
    from estconf.profiles import explain

    return Readers(source, [view.model_dump(mode="json") for view in explain(tf_config)])
