"""Config files: read a JSON, TOML or YAML file into a validated estconf model.

:func:`load` reads a file and returns the model of its kind; :func:`loads`
does the same for text already in memory.  Every problem in the file is
reported at once, in a :class:`ConfigFileError` whose :class:`FileError`
entries name the file, the path of the bad value inside it
(``tf_config.cluster.worker[3]``), its line and column (JSON and YAML), the
value, and the rule, in TensorFlow's words where TensorFlow has them.

The format comes from the file name: ``.json``, ``.toml``, ``.yaml`` or
``.yml``.  The kind (which model validates the file) is given, or told from
the keys at the top level of the file:

1. a ``tpu_config`` key: a ``tpu.RunConfig`` file (kind ``tpu_run_config``);
2. a ``TPUConfig`` key (``iterations_per_loop``, ``num_shards``, ...): a
   ``TPUConfig`` file (kind ``tpu_config``);
3. a ``tf_config`` key, or a ``RunConfig`` key that ``TF_CONFIG`` does not
   also have (``save_checkpoints_steps``, ...): a ``RunConfig`` file (kind
   ``run_config``);
4. a ``TF_CONFIG`` key (``cluster``, ``task``, ``session_master``, ...): a
   ``TF_CONFIG`` file (kind ``tf_config``);
5. jobs alone (``{"chief": [...], "worker": [...]}``): a cluster (kind
   ``cluster``, read into :class:`~estconf.ClusterSpec`); jobs beside other
   keys are a ``TF_CONFIG`` whose ``cluster`` wrapper was forgotten.

:data:`KINDS` lists the kinds this version reads.

Files are read more strictly than Python arguments: values are validated in
pydantic's strict mode, so a file holds the JSON types its JSON Schema says
(``"5"`` is not a number), except where TensorFlow itself reads a string (a
task index written ``"1"``).  Unknown keys are refused in every object but
``TF_CONFIG``'s, with the closest known key as a hint, and so are keys of
arguments that take Python objects (``device_fn``).  Also refused: repeated
keys, invalid UTF-8 (a UTF-8 byte-order mark is fine), empty files, files
larger than ``max_size`` or nested deeper than ``max_depth``, NaN and
infinite numbers, integers too long to convert, and YAML tags that would
build Python objects.  YAML is read as YAML 1.2 (``on`` is a string, ``010``
is ten).  Every error has a stable ``code``, the same whatever the format;
``docs/errors.md`` lists them.

:func:`dump` writes a model as a config file (JSON, TOML or YAML, by the
file's suffix) that :func:`load` reads back into an equal model.

This module is the public face of the file pipeline, :mod:`estconf.io`.
"""

from estconf.io.checks import MAX_DEPTH, MAX_SIZE
from estconf.io.dump import dump, dumps
from estconf.io.errors import (
    NO_VALUE,
    ConfigFileError,
    FileError,
    format_path,
    show_value,
)
from estconf.io.files import FORMATS, KINDS, detect_kind, load, loads, read_data

__all__ = [
    "FORMATS",
    "KINDS",
    "MAX_DEPTH",
    "MAX_SIZE",
    "NO_VALUE",
    "ConfigFileError",
    "FileError",
    "detect_kind",
    "dump",
    "dumps",
    "format_path",
    "load",
    "loads",
    "read_data",
    "show_value",
]
