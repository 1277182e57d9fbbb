"""JobSet and Kubeflow Trainer v2: each pod's environment, and so the TF_CONFIG it reads.

A JobSet (``jobset.x-k8s.io/v1alpha2``) runs Indexed Jobs of pods; Kubeflow
Trainer v2 (``trainer.kubeflow.org/v1alpha1``) makes a JobSet of a TrainJob
and its runtime.  Neither writes TF_CONFIG: each pod's is the one its
manifest sets, expanded as Kubernetes expands it.
"""
