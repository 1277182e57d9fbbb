"""SageMaker: its resource config and hyperparameters, and the TF_CONFIG of each host.

The public names are :mod:`estconf.sagemaker`'s.
"""
