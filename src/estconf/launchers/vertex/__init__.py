"""Vertex AI: a CustomJob spec's worker pools, and each replica's TF_CONFIG and CLUSTER_SPEC.

The public names are :mod:`estconf.vertex`'s.
"""
