"""Kubeflow's training operator: TFJobs, the TF_CONFIG it writes into each pod, what fails.

The public names are :mod:`estconf.kubeflow`'s.
"""
