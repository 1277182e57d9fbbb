"""Volcano: a ``batch.volcano.sh/v1alpha1`` Job, and the TF_CONFIG its tensorflow plugin writes.

:mod:`~estconf.launchers.volcano.job` is the Job as far as the plugin reads
it, :mod:`~estconf.launchers.volcano.plugin` the plugin's flags and each
pod's TF_CONFIG, :mod:`~estconf.launchers.volcano.checks` what goes wrong
with a Job before it runs, :mod:`~estconf.launchers.volcano.jobs` the Jobs
``estconf validate`` is given, and :mod:`~estconf.launchers.volcano.command`
``estconf tf-config volcano FILE``.
"""
