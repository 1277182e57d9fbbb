"""SLURM as a launcher: where ``srun`` runs each rank of a step, and each rank's TF_CONFIG.

TensorFlow's own reader of a step, ``SlurmClusterResolver``, is
:class:`estconf.distribute.SlurmClusterResolver`; this package adds what SLURM
itself decides: the host of each rank (:mod:`~estconf.launchers.slurm.placement`)
and the view of every rank of a step (:mod:`~estconf.launchers.slurm.steps`).
"""
